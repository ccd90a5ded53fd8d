"""Meta-device trace of one LoRA / QLoRA training step of a tiny Llama (issue #16).

Builds `transformers.LlamaForCausalLM` on the `meta` device from Llama-3.1-8B's config.json widths
(hidden 4096, intermediate 14336, 32 heads, 8 KV heads, vocab 128256, untied head) with 2 and 4
layers, in bf16, and runs one training step -- forward on `input_ids` with `labels=input_ids`
(transformers' own loss: `LlamaForCausalLM.forward` -> `ForCausalLMLoss`, which upcasts the
logits with `logits.float()` and calls `F.cross_entropy(..., reduction="sum") / num_items` or
`"mean"`, fp32 log-softmax saved for backward; the model output is dropped before backward as
`Trainer.compute_loss` does), then `loss.backward()` -- under trace.py's `Tracker`
(every op output's storage from creation to its last reference, 512-byte blocks). The frozen base
weights, the LoRA adapters and the buffers are counted from the start (`weights`, `adapters`), so
the figures are what `torch.cuda.memory_allocated` would read, less kernel workspaces.

Paths:
- LoRA: every target `nn.Linear` wrapped in `LoraLinear`, peft's `LoraLayer` forward
  (`peft/tuners/lora/layer.py`, `Linear.forward`): `base_layer(x) + lora_B(lora_A(dropout(x))) *
  scaling`, `dropout` = `nn.Identity` for p = 0 (peft: `lora_dropout > 0.0` else `nn.Identity()`),
  `nn.Dropout(p)` otherwise, with CUDA's fused kernel's allocations (`CudaDropout`): each adapted
  linear then saves its own dropout output (`lora_A`'s input) and bool mask, 3 bytes an input
  element, instead of one shared 16-bit input. Adapters in bf16 as torchtune holds them (peft's default
  `autocast_adapter_dtype=True` would upcast them to fp32 and cast `x` to fp32: not traced).
  Targets q,v (`query_value`) or all seven linears (`all_linear`).
- QLoRA: the layers' linears as trace.py's `NF4Linear` (bitsandbytes `Linear4bit`, no double
  quantisation; embeddings and `lm_head` stay bf16, transformers' `modules_to_not_convert`), with a
  training forward: `MatMul4Bit` is an `autograd.Function` that saves only the packed weight
  (`ctx.tensors = (None, B)`) and dequantises again in backward
  (`grad_A = grad_output @ dequantize_4bit(B).to(grad_output.dtype).t()`), so the dequantised
  weight is a temporary in both directions and never saved.
- Checkpointing: `model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=
  {"use_reentrant": False})` (what HF Trainer and torchtune use).

Attention: transformers' `sdpa` path with no mask (`is_causal=True`, GQA passed as
`enable_gqa=True` by `use_gqa_in_sdpa`), which CUDA runs with the flash kernel for bf16
(`sdp_utils.cpp` `can_use_flash_attention` checks `check_batch_size_and_num_heads_dense<true
/*supports GQA*/>`: k and v are not repeated to the query heads). Flash is emulated as an
`autograd.Function` from PyTorch's `_scaled_dot_product_flash_attention` and flash-attention's
`mha_fwd` / `mha_bwd` (`flash_api.cpp`): forward allocates the output (`empty_like` of the
(B, L, H, D) query, returned transposed) and the fp32 log-sum-exp (B, H, L), saves q, k, v, out
and lse; backward allocates dq, dk, dv, fp32 `softmax_d` (B, H, L rounded to 128) and fp32
`dq_accum` (B, L rounded, H, D), and with GQA the expanded dk / dv (B, L, H, D) that are summed
over each group. The meta device's math path (scores materialised) is not used.

The adapters' gradients are traced (op outputs of backward, kept in `.grad`). Not traced: the
optimizer state and step (the core counts them apart; the Rust test runs the core with plain SGD
so that its adapters component is the adapters and their gradients), cuBLAS workspaces, the CUDA
context and the allocator's slack.

Usage: `tools/trace/.venv/bin/python tools/trace/train_trace.py [--out FILE]` (see README.md).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("vramfit_trace", Path(__file__).with_name("trace.py"))
vt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vt)  # also patches F.scaled_dot_product_attention (inference); replaced below

import transformers  # noqa: E402

META = vt.META
BF16 = torch.bfloat16

# `find_packed_sequence_indices` reads the position ids' values (`.item()`), which meta tensors
# lack; for one unpacked sequence per row (these traces) it returns None on a real device.
import transformers.masking_utils  # noqa: E402

transformers.masking_utils.find_packed_sequence_indices = lambda position_ids: None

# meta-llama/Llama-3.1-8B config.json (only the layer count changed).
LLAMA31_8B = dict(vocab_size=128256, hidden_size=4096, intermediate_size=14336, num_attention_heads=32,
                  num_key_value_heads=8, head_dim=128, hidden_act="silu", rms_norm_eps=1e-5,
                  rope_theta=500000.0, max_position_embeddings=131072, tie_word_embeddings=False,
                  attention_bias=False, mlp_bias=False,
                  rope_scaling={"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                "original_max_position_embeddings": 8192, "rope_type": "llama3"})
SOURCE = "meta-llama/Llama-3.1-8B config.json (num_hidden_layers 2 and 4)"


# --- flash attention as the CUDA kernels allocate it ---------------------------------------------


def _round(n: int, m: int) -> int:
    return (n + m - 1) // m * m


class FlashAttn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, scale):
        b, h, lq, d = q.shape
        out = torch.empty((b, lq, h, d), dtype=q.dtype, device=q.device).transpose(1, 2)
        lse = torch.empty((b, h, lq), dtype=torch.float32, device=q.device)
        ctx.save_for_backward(q, k, v, out, lse)
        return out

    @staticmethod
    def backward(ctx, dout):
        q, k, v, out, lse = ctx.saved_tensors
        b, h, lq, d = q.shape
        hk, lk = k.shape[1], k.shape[2]
        dout = dout.contiguous()
        dq = torch.empty((b, lq, h, d), dtype=q.dtype, device=q.device).transpose(1, 2)
        dk = torch.empty((b, lk, hk, d), dtype=k.dtype, device=k.device).transpose(1, 2)
        dv = torch.empty((b, lk, hk, d), dtype=v.dtype, device=v.device).transpose(1, 2)
        softmax_d = torch.empty((b, h, _round(lq, 128)), dtype=torch.float32, device=q.device)
        dq_accum = torch.empty((b, _round(lq, 128), h, _round(d, 32)), dtype=torch.float32, device=q.device)
        if hk != h:
            dk_exp = torch.empty((b, lk, h, d), dtype=k.dtype, device=k.device)
            dv_exp = torch.empty((b, lk, h, d), dtype=v.dtype, device=v.device)
            del dk_exp, dv_exp
        del softmax_d, dq_accum, dout
        return dq, dk, dv, None


def sdpa_flash_train(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                     enable_gqa=False):
    assert attn_mask is None and dropout_p == 0.0, "flash path: no mask, no attention dropout"
    return FlashAttn.apply(query, key, value, scale)


F.scaled_dot_product_attention = sdpa_flash_train
torch.nn.functional.scaled_dot_product_attention = sdpa_flash_train


# --- LoRA / QLoRA modules ------------------------------------------------------------------------


class CudaDropout(torch.autograd.Function):
    """`nn.Dropout` in training as CUDA runs it (`F.dropout` -> `native_dropout`, the fused kernel
    of `aten/src/ATen/native/cuda/Dropout.cu`: the output and a bool mask, `empty_like(self,
    dtype=kBool)`; the mask saved for `native_dropout_backward`). The meta device would take the
    CPU path instead (`_dropout_impl`: a noise tensor in the input's dtype, saved by the `mul`)."""

    @staticmethod
    def forward(ctx, x, p):
        out = torch.empty_like(x)
        mask = torch.empty_like(x, dtype=torch.bool)
        ctx.save_for_backward(mask)
        return out

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return torch.empty_like(grad), None


class Dropout(torch.nn.Module):
    def __init__(self, p: float):
        super().__init__()
        self.p = p

    def forward(self, x):
        return CudaDropout.apply(x, self.p)


class LoraLinear(torch.nn.Module):
    """peft `lora.Linear.forward`: `base_layer(x) + lora_B(lora_A(dropout(x))) * scaling`."""

    def __init__(self, base: torch.nn.Module, in_f: int, out_f: int, r: int, alpha: int, dropout: float):
        super().__init__()
        self.base_layer = base
        self.lora_dropout = Dropout(dropout) if dropout > 0 else torch.nn.Identity()
        self.lora_A = torch.nn.Linear(in_f, r, bias=False, device=META, dtype=BF16)
        self.lora_B = torch.nn.Linear(r, out_f, bias=False, device=META, dtype=BF16)
        self.scaling = alpha / r

    def forward(self, x):
        result = self.base_layer(x)
        return result + self.lora_B(self.lora_A(self.lora_dropout(x))) * self.scaling


class MatMul4Bit(torch.autograd.Function):
    """bitsandbytes `MatMul4Bit` (autograd/_functions.py): dequantise, linear, free; saves only
    the packed weight; backward dequantises again for grad_A."""

    @staticmethod
    def forward(ctx, x, packed, shape, dtype):
        w = torch.empty(shape, dtype=dtype, device=x.device)  # dequantize_4bit(B).to(A.dtype)
        out = F.linear(x, w)
        del w
        ctx.save_for_backward(packed)
        ctx.shape, ctx.dtype = shape, dtype
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (packed,) = ctx.saved_tensors
        w = torch.empty(ctx.shape, dtype=ctx.dtype, device=grad_out.device)
        grad_a = torch.matmul(grad_out, w)
        del w
        return grad_a, None, None, None


class NF4TrainLinear(vt.NF4Linear):
    def forward(self, x):
        out = MatMul4Bit.apply(x, self.weight, self.shape, self.dtype)
        return out if self.bias is None else out + self.bias


LINEARS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
TARGETS = {"query_value": ["q_proj", "v_proj"], "all_linear": LINEARS}


def build(layers: int, path: str, rank: int, targets: str, dropout: float, ckpt: bool):
    cfg = transformers.LlamaConfig(**LLAMA31_8B, num_hidden_layers=layers)
    cfg._attn_implementation = "sdpa"
    cfg.use_cache = False  # training scripts set it (a DynamicCache would hold K/V until the output dies)
    with torch.device(META):
        m = transformers.LlamaForCausalLM(cfg)
    m = m.to(BF16)
    m.requires_grad_(False)
    for layer in m.model.layers:
        for parent in (layer.self_attn, layer.mlp):
            for name in LINEARS:
                lin = getattr(parent, name, None)
                if lin is None:
                    continue
                base = NF4TrainLinear(lin, BF16) if path == "qlora" else lin
                if name in TARGETS[targets]:
                    new = LoraLinear(base, lin.in_features, lin.out_features, rank, 2 * rank, dropout)
                else:
                    new = base
                setattr(parent, name, new)
    for n, p in m.named_parameters():
        p.requires_grad_("lora_" in n)
    m.train()
    if ckpt:
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    return m, cfg


def storage_bytes(ts) -> int:
    seen, n = set(), 0
    for t in ts:
        k = id(t.untyped_storage())
        if k not in seen:
            seen.add(k)
            n += vt.round_block(t.untyped_storage().nbytes())
    return n


def step(layers, path, rank, targets, dropout, ckpt, batch, seq) -> dict:
    gc.collect()
    m, cfg = build(layers, path, rank, targets, dropout, ckpt)
    tr = vt.Tracker()
    frozen = [p for n, p in m.named_parameters() if "lora_" not in n] + list(m.buffers())
    adapters = [p for n, p in m.named_parameters() if "lora_" in n]
    for t in frozen + adapters:
        tr.track(t)
    weights = storage_bytes(frozen)
    adapter_bytes = storage_bytes(adapters)
    start = tr.current
    ids = torch.zeros((batch, seq), dtype=torch.int64, device=META)
    t0 = time.time()
    with tr:
        tr.track(ids)
        loss = m(input_ids=ids, labels=ids).loss
        fwd_end = tr.current
        fwd_peak = tr.peak
        tr.reset_peak()
        loss.backward()
        del loss
        gc.collect()
        end = tr.current
    bwd_peak = tr.peak
    grads = storage_bytes([p.grad for p in adapters if p.grad is not None])
    del m
    gc.collect()
    return {
        "layers": layers, "path": path, "lora_rank": rank, "lora_targets": targets, "lora_dropout": dropout,
        "checkpointing": ckpt, "batch": batch, "seq": seq,
        "weights_bytes": weights, "adapter_bytes": adapter_bytes, "adapter_grad_bytes": grads,
        "start_bytes": start, "forward_peak_bytes": fwd_peak, "forward_end_bytes": fwd_end,
        "backward_peak_bytes": bwd_peak, "peak_bytes": max(fwd_peak, bwd_peak), "end_bytes": end,
        "ops": tr.ops, "seconds": round(time.time() - t0, 2),
    }


PATHS = [
    # (path, rank, targets, dropout)
    ("lora", 8, "query_value", 0.0),
    ("lora", 16, "all_linear", 0.0),
    ("lora", 16, "all_linear", 0.05),
    ("qlora", 8, "query_value", 0.0),
    ("qlora", 16, "all_linear", 0.0),
]
SHAPES = [(1, 512), (2, 2048)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "tests" / "traces" / "training"
                                         / "llama-tiny.json"))
    ap.add_argument("--quick", action="store_true", help="one point, printed")
    a = ap.parse_args()
    if a.quick:
        print(json.dumps(step(2, "lora", 8, "query_value", 0.0, False, 1, 512), indent=1))
        return
    points = []
    for (path, rank, targets, dropout) in PATHS:
        for ckpt in (False, True):
            for layers in (2, 4):
                for (b, s) in SHAPES:
                    r = step(layers, path, rank, targets, dropout, ckpt, b, s)
                    print(f"{path} r{rank} {targets} p={dropout} ckpt={ckpt} L{layers} b{b} s{s}: "
                          f"peak {r['peak_bytes'] / 2**20:.0f} MiB fwd-end {r['forward_end_bytes'] / 2**20:.0f} "
                          f"({r['seconds']} s)", file=sys.stderr)
                    r.pop("ops")
                    r.pop("seconds")
                    points.append(r)
    rec = {
        "model": "llama-tiny", "source": SOURCE,
        "config": {k: v for k, v in LLAMA31_8B.items() if k != "rope_scaling"},
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
        "loss": "transformers ForCausalLMLoss (logits.float(), F.cross_entropy), not chunked",
        "points": points,
    }
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
