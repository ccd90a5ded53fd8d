#!/usr/bin/env python3
"""Write a GGUF with a family's real widths but only a few layers, as a sparse file.

Only the metadata and tensor table are written; the tensor data is a hole of the right size
(`truncate`), so a file that llama.cpp maps as an 8B-wide model takes a few MiB of disk. The
weights are all zero, which is fine: the trace only creates a context (graph reservation sizes
tensors by shape, never by value). Standard library only (no `gguf`/numpy needed).

usage: make_gguf.py FAMILY N_LAYERS OUT.gguf
"""
import struct
import sys

# ggml types
F32, F16 = 0, 1
# GGUF value types
U32, I32, F32V, BOOL, STR, ARR = 4, 5, 6, 7, 8, 9

FAMILIES = {
    # name: arch, n_embd, n_head, n_head_kv, head_dim, n_ff, n_vocab, extras
    "llama-3.1-8b": dict(arch="llama", embd=4096, head=32, kv=8, hd=128, ff=14336, vocab=128256,
                         rope=500000.0, ctx=131072),
    "qwen2.5-7b": dict(arch="qwen2", embd=3584, head=28, kv=4, hd=128, ff=18944, vocab=152064,
                       rope=1000000.0, ctx=131072, qkv_bias=True),
    "qwen3-8b": dict(arch="qwen3", embd=4096, head=32, kv=8, hd=128, ff=12288, vocab=151936,
                     rope=1000000.0, ctx=131072, qk_norm=True),
    "mistral-nemo-12b": dict(arch="llama", embd=5120, head=32, kv=8, hd=128, ff=14336, vocab=131072,
                             rope=1000000.0, ctx=131072),
    # MoE: 128 experts of width 768, 8 used (`ff` is the dense `feed_forward_length`, unused).
    "qwen3-30b-a3b": dict(arch="qwen3moe", embd=2048, head=32, kv=4, hd=128, ff=6144, vocab=151936,
                          rope=1000000.0, ctx=40960, qk_norm=True, experts=128, used=8, ff_exp=768),
    "gemma-2-9b": dict(arch="gemma2", embd=3584, head=16, kv=8, hd=256, ff=14336, vocab=256000,
                       rope=10000.0, ctx=8192, swa=4096, tied=True, post_norms=True, softcap=True),
    # Gemma 3 12B's text model (`text_config`): window 1024, 5 local layers to 1 global (llama.cpp's
    # `llama_model_gemma3::load_arch_hparams`: `load_swa_pattern(ml, 6)`, layer il is local when
    # il % 6 < 5), q/k norms per head, post-attention/post-FFN norms, no soft-capping. Traced on 6
    # layers (the last one global, as in the 48-layer 12B) and 8 (the last one local, as in the 4B
    # and 27B): 2 or 4 layers would hold no global layer at all.
    "gemma-3-12b": dict(arch="gemma3", embd=3840, head=16, kv=8, hd=256, ff=15360, vocab=262208,
                        rope=1000000.0, ctx=131072, swa=1024, tied=True, qk_norm=True,
                        post_norms=True, layers=(6, 8)),
    # Gemma 3 27B's text model: head dim 128 with n_head·head_dim (4096) below n_embd (5376).
    "gemma-3-27b": dict(arch="gemma3", embd=5376, head=32, kv=16, hd=128, ff=21504, vocab=262208,
                        rope=1000000.0, ctx=131072, swa=1024, tied=True, qk_norm=True,
                        post_norms=True, layers=(6, 8)),
}


def s(x):
    b = x.encode()
    return struct.pack("<Q", len(b)) + b


def kv(key, typ, val):
    out = s(key) + struct.pack("<I", typ)
    if typ == U32:
        out += struct.pack("<I", val)
    elif typ == I32:
        out += struct.pack("<i", val)
    elif typ == F32V:
        out += struct.pack("<f", val)
    elif typ == BOOL:
        out += struct.pack("<?", val)
    elif typ == STR:
        out += s(val)
    else:
        raise ValueError(typ)
    return out


def main():
    main_args(sys.argv[1], int(sys.argv[2]), sys.argv[3])


def main_args(fam, n_layer, path):
    f = FAMILIES[fam]
    a, e, hd = f["arch"], f["embd"], f["hd"]
    q, k = f["head"] * hd, f["kv"] * hd
    kvs = [
        kv("general.architecture", STR, a),
        kv("general.name", STR, f"{fam}-{n_layer}L-trace"),
        kv("general.alignment", U32, 32),
        kv(f"{a}.block_count", U32, n_layer),
        kv(f"{a}.context_length", U32, f["ctx"]),
        kv(f"{a}.embedding_length", U32, e),
        kv(f"{a}.feed_forward_length", U32, f["ff"]),
        kv(f"{a}.attention.head_count", U32, f["head"]),
        kv(f"{a}.attention.head_count_kv", U32, f["kv"]),
        kv(f"{a}.attention.key_length", U32, hd),
        kv(f"{a}.attention.value_length", U32, hd),
        kv(f"{a}.attention.layer_norm_rms_epsilon", F32V, 1e-6),
        kv(f"{a}.rope.freq_base", F32V, f["rope"]),
        kv(f"{a}.rope.dimension_count", U32, hd),
        kv(f"{a}.vocab_size", U32, f["vocab"]),
        # No tokenizer: llama.cpp adds `vocab_size` dummy tokens, which sets the logits' width.
        kv("tokenizer.ggml.model", STR, "none"),
    ]
    if "swa" in f:
        kvs += [
            kv(f"{a}.attention.sliding_window", U32, f["swa"]),
        ]
    if f.get("softcap"):
        kvs += [
            kv(f"{a}.attn_logit_softcapping", F32V, 50.0),
            kv(f"{a}.final_logit_softcapping", F32V, 30.0),
        ]
    if "experts" in f:
        kvs += [
            kv(f"{a}.expert_count", U32, f["experts"]),
            kv(f"{a}.expert_used_count", U32, f["used"]),
            kv(f"{a}.expert_feed_forward_length", U32, f["ff_exp"]),
        ]
    tensors = [("token_embd.weight", [e, f["vocab"]], F16), ("output_norm.weight", [e], F32)]
    if not f.get("tied"):
        tensors.append(("output.weight", [e, f["vocab"]], F16))
    for i in range(n_layer):
        b = f"blk.{i}."
        tensors += [
            (b + "attn_norm.weight", [e], F32),
            (b + "attn_q.weight", [e, q], F16),
            (b + "attn_k.weight", [e, k], F16),
            (b + "attn_v.weight", [e, k], F16),
            (b + "attn_output.weight", [q, e], F16),
            (b + "ffn_norm.weight", [e], F32),
        ]
        if "experts" in f:
            x, fe = f["experts"], f["ff_exp"]
            tensors += [
                (b + "ffn_gate_inp.weight", [e, x], F32),
                (b + "ffn_gate_exps.weight", [e, fe, x], F16),
                (b + "ffn_up_exps.weight", [e, fe, x], F16),
                (b + "ffn_down_exps.weight", [fe, e, x], F16),
            ]
        else:
            tensors += [
                (b + "ffn_gate.weight", [e, f["ff"]], F16),
                (b + "ffn_up.weight", [e, f["ff"]], F16),
                (b + "ffn_down.weight", [f["ff"], e], F16),
            ]
        if f.get("qkv_bias"):
            tensors += [(b + "attn_q.bias", [q], F32), (b + "attn_k.bias", [k], F32),
                        (b + "attn_v.bias", [k], F32)]
        if f.get("qk_norm"):
            tensors += [(b + "attn_q_norm.weight", [hd], F32), (b + "attn_k_norm.weight", [hd], F32)]
        if f.get("post_norms"):
            tensors += [(b + "post_attention_norm.weight", [e], F32),
                        (b + "post_ffw_norm.weight", [e], F32)]
    align = 32
    infos, off = b"", 0
    for name, shape, typ in tensors:
        n = 1
        for d in shape:
            n *= d
        nbytes = n * (4 if typ == F32 else 2)
        infos += s(name) + struct.pack("<I", len(shape))
        infos += b"".join(struct.pack("<Q", d) for d in shape)
        infos += struct.pack("<IQ", typ, off)
        off += (nbytes + align - 1) // align * align
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs) + infos
    head += b"\0" * ((-len(head)) % align)
    with open(path, "wb") as out:
        out.write(head)
        out.truncate(len(head) + off)  # a hole: the data reads as zeros, takes no disk


if __name__ == "__main__":
    main()
