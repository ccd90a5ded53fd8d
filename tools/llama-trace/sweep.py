#!/usr/bin/env python3
"""Sweep llama.cpp context settings over the trace models and write tests/traces/llama_cpp/*.json.

usage: sweep.py BUILD_DIR GGUF_DIR OUT_DIR [FAMILY ...]
BUILD_DIR holds `llama-trace` and `llama.cpp-source.txt` (written by build.sh).
"""
import itertools
import json
import os
import re
import subprocess
import sys

import make_gguf

CTX = [4096, 16384, 65536]
BATCH = [(512, 512), (2048, 512), (2048, 2048)]
# (flash attention, type_k, type_v): a quantised V cache needs flash attention.
ATTN = [(0, "f16", "f16"), (1, "f16", "f16"), (1, "q8_0", "q8_0")]
SEQ = [1, 4]
LAYERS = [2, 4]
# Off the grid, on the 4-layer model: a context below the ubatch (n_tokens = n_ctx), contexts that
# are not multiples of 256 (256 → 257 doubles the cells: llama.cpp's buffer can shrink there, the
# allocator placing the larger tensors differently), an odd ubatch and an odd slot count (the
# reserved n_tokens is rounded up to a multiple of n_seq, the cells per stream padded to 256).
EXTRA_CTX = [200, 256, 257, 1000, 5000]
EXTRA_BATCH = [(2048, 512), (333, 333)]
EXTRA_SEQ = [1, 3]

LINE = re.compile(r"(\S+)\s+(compute|output) buffer size =\s*([0-9.]+) MiB")


def run(exe, gguf, args):
    cmd = [exe, gguf] + [str(a) for a in args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    log = p.stdout + p.stderr
    if p.returncode != 0:
        return cmd, None, log
    bufs = {}
    for dev, kind, mib in LINE.findall(log):
        key = f"{dev} {kind}"
        bufs[key] = round(bufs.get(key, 0.0) + float(mib), 2)
    return cmd, bufs, log


def point(exe, gguf, fam, n_layer, args):
    """One traced point: llama-trace's buffers for ARGS, or the error it printed."""
    n_ctx, nb, nub, fa, tk, tv, n_seq, n_out_max = args
    _, bufs, log = run(exe, gguf, args)
    pt = dict(n_layer=n_layer, n_ctx=n_ctx, n_batch=nb, n_ubatch=nub,
              flash_attn=bool(fa), type_k=tk, type_v=tv, n_seq=n_seq,
              n_outputs_max=n_out_max,
              command="llama-trace MODEL " + " ".join(map(str, args)))
    if bufs is None:
        pt["error"] = log.strip().splitlines()[-1] if log.strip() else "failed"
    else:
        pt["buffers_mib"] = bufs
    print(fam, pt.get("buffers_mib", pt.get("error")), args, flush=True)
    return pt


def main():
    build, ggufs, out = sys.argv[1:4]
    families = sys.argv[4:] or list(make_gguf.FAMILIES)
    exe = os.path.join(build, "llama-trace")
    source = open(os.path.join(build, "llama.cpp-source.txt")).read().strip()
    os.makedirs(out, exist_ok=True)
    for fam in families:
        f = make_gguf.FAMILIES[fam]
        points = []
        # Families whose layer kinds repeat with a longer period name their own depths.
        layers = list(f.get("layers", LAYERS))
        for n_layer in layers:
            gguf = os.path.join(ggufs, f"{fam}-{n_layer}L.gguf")
            if not os.path.exists(gguf):
                make_gguf.main_args(fam, n_layer, gguf)
            for n_ctx, (nb, nub), (fa, tk, tv), n_seq in itertools.product(CTX, BATCH, ATTN, SEQ):
                # The 4-layer model checks depth only: the default batches.
                if n_layer != layers[0] and (nb, nub) != (2048, 512):
                    continue
                # llama-cli reserves logits for every token of the ubatch (n_outputs_max = 0 →
                # n_batch); llama-server for one row per slot (n_outputs_max = n_parallel).
                for n_out_max in ([0, n_seq] if n_layer == layers[0] else [0]):
                    points.append(point(exe, gguf, fam, n_layer,
                                        [n_ctx, nb, nub, fa, tk, tv, n_seq, n_out_max]))
        gguf = os.path.join(ggufs, f"{fam}-{layers[1]}L.gguf")
        for n_ctx, (nb, nub), (fa, tk, tv), n_seq in itertools.product(
                EXTRA_CTX, EXTRA_BATCH, ATTN, EXTRA_SEQ):
            for n_out_max in [0, n_seq]:
                points.append(point(exe, gguf, fam, layers[1],
                                    [n_ctx, nb, nub, fa, tk, tv, n_seq, n_out_max]))
        doc = dict(
            family=fam,
            llama_cpp=source,
            tool="tools/llama-trace (llama_model_load_from_file + llama_init_from_model, CPU only, "
                 "no_alloc dry run; nothing evaluated)",
            model=dict(arch=f["arch"], n_embd=f["embd"], n_head=f["head"], n_head_kv=f["kv"],
                       head_dim=f["hd"], n_ff=f["ff"], n_vocab=f["vocab"],
                       n_swa=f.get("swa"), tied_output=bool(f.get("tied")),
                       n_expert=f.get("experts"), n_expert_used=f.get("used"),
                       n_ff_exp=f.get("ff_exp")),
            points=points,
        )
        with open(os.path.join(out, f"{fam}.json"), "w") as o:
            json.dump(doc, o, indent=1)
            o.write("\n")


if __name__ == "__main__":
    main()
