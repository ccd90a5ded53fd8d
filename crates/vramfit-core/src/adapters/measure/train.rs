//! The measurement script of a training or fine-tuning scenario: real optimizer steps (forward,
//! backward and step, with the scenario's method, precision, optimizer, checkpointing and
//! accumulation) in PyTorch with transformers, peft and bitsandbytes, printing the peak
//! allocated and reserved memory — what the training estimate predicts. Never the inference
//! script: a training run measured with `generate()` under `inference_mode` keeps no gradients,
//! optimizer state or saved activations.

use super::{py, repo};
use crate::scenario::{Scenario, Workload};
use crate::workloads::training::{
    Checkpointing, LoraTargets, Method, Optimizer, Sharding, TrainPrecision,
};

/// The training script for `s`; `None` unless `s` trains a model.
pub fn training_script(s: &Scenario) -> Option<String> {
    let Workload::Train(t) = &s.workload else {
        return None;
    };
    let (repo, _) = repo(s);
    // The weights' dtype as loaded, and the autocast around the forward (HF Trainer's `bf16=True`
    // / `fp16=True` keep fp32 weights; torchtune's pure bf16 loads them in bf16).
    let (dtype, autocast) = match t.precision {
        TrainPrecision::Fp32 => ("torch.float32", None),
        TrainPrecision::AmpFp16 => ("torch.float32", Some("torch.float16")),
        TrainPrecision::AmpBf16 | TrainPrecision::MixedMaster => {
            ("torch.float32", Some("torch.bfloat16"))
        }
        TrainPrecision::Bf16 => ("torch.bfloat16", None),
    };
    let quant = if t.method == Method::Qlora {
        let dq = if t.double_quant { "True" } else { "False" };
        format!("quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4', bnb_4bit_use_double_quant={dq}, bnb_4bit_compute_dtype=torch.bfloat16), ")
    } else {
        String::new()
    };
    let attn = if t.flash_attention { "sdpa" } else { "eager" };
    let checkpointing = match t.checkpointing {
        Checkpointing::None => String::new(),
        Checkpointing::Selective | Checkpointing::Full => "model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={'use_reentrant': False})\nmodel.config.use_cache = False\n".into(),
    };
    let targets = match t.lora_targets {
        LoraTargets::QueryValue => "['q_proj', 'v_proj']",
        LoraTargets::QueryKeyValue => "['q_proj', 'k_proj', 'v_proj']",
        LoraTargets::Attention => "['q_proj', 'k_proj', 'v_proj', 'o_proj']",
        LoraTargets::AllLinear => "'all-linear'",
    };
    let adapters = match t.method {
        Method::Full => String::new(),
        Method::Lora | Method::Qlora => {
            let prepare = if t.method == Method::Qlora {
                format!(
                    "model = prepare_model_for_kbit_training(model, use_gradient_checkpointing={})\n",
                    if t.checkpointing == Checkpointing::None { "False" } else { "True" }
                )
            } else {
                String::new()
            };
            format!(
                "from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training\n{prepare}model = get_peft_model(model, LoraConfig(r={r}, lora_alpha={a}, lora_dropout={d}, target_modules={targets}, task_type='CAUSAL_LM'))\n",
                r = t.lora_rank,
                a = 2 * t.lora_rank,
                d = if t.lora_dropout { "0.05" } else { "0.0" },
            )
        }
    };
    let optimizer = match t.optimizer {
        Optimizer::Adamw => "torch.optim.AdamW(params, lr=1e-5, foreach=FOREACH)",
        Optimizer::Adamw8bit => "bnb.optim.AdamW8bit(params, lr=1e-5)",
        Optimizer::PagedAdamw8bit => "bnb.optim.PagedAdamW8bit(params, lr=1e-5)",
        Optimizer::Adafactor => {
            "Adafactor(params, lr=1e-5, relative_step=False, scale_parameter=False)"
        }
        Optimizer::Sgd => "torch.optim.SGD(params, lr=1e-5, foreach=FOREACH)",
        Optimizer::SgdMomentum => "torch.optim.SGD(params, lr=1e-5, momentum=0.9, foreach=FOREACH)",
        Optimizer::Lion => "Lion(params, lr=1e-5)",
    };
    let optimizer_import = match t.optimizer {
        Optimizer::Adamw8bit | Optimizer::PagedAdamw8bit => "import bitsandbytes as bnb\n",
        Optimizer::Adafactor => "from transformers.optimization import Adafactor\n",
        Optimizer::Lion => "from lion_pytorch import Lion  # pip install lion-pytorch\n",
        _ => "",
    };
    let autocast_line = match autocast {
        Some(d) => format!("torch.autocast('cuda', dtype={d})"),
        None => "contextlib.nullcontext()".into(),
    };
    let scaler = if t.precision == TrainPrecision::AmpFp16 {
        "torch.amp.GradScaler('cuda')"
    } else {
        "None"
    };
    let sharded = if t.sharding != Sharding::Ddp || s.hardware.count > 1 {
        "# The plan runs on several GPUs: this script measures one GPU's step. Launch the same\n# steps under your FSDP / DeepSpeed / torchrun setup to measure the sharded run.\n"
    } else {
        ""
    };
    Some(format!(
        r#"#!/usr/bin/env python3
# vramfit measurement script: {steps} training steps (forward, backward, optimizer step) at the
# scenario's micro-batch, sequence length, method, precision, optimizer and checkpointing.
# Prints the peak allocated and reserved memory the training estimate predicts.
# Needs: torch, transformers, peft (LoRA / QLoRA), bitsandbytes (QLoRA, 8-bit optimizers).
# Run on the target GPU.
{sharded}import contextlib
import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig
{optimizer_import}
MODEL = '{repo}'
MICRO_BATCH = {micro_batch}
SEQ_LEN = {seq_len}
GRAD_ACCUM = {accum}
STEPS = {steps}
FOREACH = {foreach}

GIB = 2 ** 30
torch.cuda.init()
free0, total = torch.cuda.mem_get_info()
model = AutoModelForCausalLM.from_pretrained(MODEL, {quant}torch_dtype={dtype}, device_map='cuda:0', attn_implementation='{attn}')
{checkpointing}{adapters}model.train()
params = [p for p in model.parameters() if p.requires_grad]
optimizer = {optimizer}
scaler = {scaler}
weights = torch.cuda.memory_allocated() / GIB
vocab = model.config.get_text_config().vocab_size
torch.cuda.reset_peak_memory_stats()
for step in range(STEPS):
    for _ in range(GRAD_ACCUM):
        ids = torch.randint(100, vocab - 100, (MICRO_BATCH, SEQ_LEN), device='cuda:0')
        with {autocast_line}:
            loss = model(input_ids=ids, labels=ids).loss / GRAD_ACCUM
        (scaler.scale(loss) if scaler else loss).backward()
    if scaler:
        scaler.step(optimizer)
        scaler.update()
    else:
        optimizer.step()
    optimizer.zero_grad(set_to_none=True)
torch.cuda.synchronize()
allocated = torch.cuda.max_memory_allocated() / GIB
reserved = torch.cuda.max_memory_reserved() / GIB
used = (total - torch.cuda.mem_get_info()[0]) / GIB
print(f'weights_gib: {{weights:.3f}}')
print(f'max_memory_allocated_gib: {{allocated:.3f}}')
print(f'max_memory_reserved_gib: {{reserved:.3f}}')
print(f'device_used_gib: {{used:.3f}}  # includes the CUDA context; compare with nvidia-smi')
print(f'total_gib: {{total / GIB:.2f}}')
"#,
        repo = py(&repo),
        micro_batch = t.micro_batch,
        seq_len = t.sequence_length,
        accum = t.gradient_accumulation.max(1),
        steps = 3,
        foreach = if t.foreach { "True" } else { "False" },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn train(json: &str) -> Scenario {
        serde_json::from_str(&format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"train":{json}}},"hardware":{{"gpu":"rtx-4090"}}}}"#
        ))
        .expect("scenario")
    }

    #[test]
    fn a_qlora_run_gets_a_qlora_training_step() {
        let s = train(
            r#"{"method":"qlora","micro_batch":2,"sequence_length":2048,"checkpointing":"full","optimizer":"paged_adamw8bit"}"#,
        );
        let script = training_script(&s).expect("a script");
        for needle in [
            "load_in_4bit=True",
            "get_peft_model",
            "prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)",
            "gradient_checkpointing_enable",
            "bnb.optim.PagedAdamW8bit",
            ".backward()",
            "optimizer.step()",
            "MICRO_BATCH = 2",
            "SEQ_LEN = 2048",
            "max_memory_reserved",
        ] {
            assert!(script.contains(needle), "missing {needle}:\n{script}");
        }
        assert!(!script.contains("generate("));
        assert!(!script.contains("inference_mode"));
    }

    #[test]
    fn a_full_fp16_run_scales_its_loss() {
        let s = train(
            r#"{"method":"full","micro_batch":1,"sequence_length":512,"precision":"amp_fp16"}"#,
        );
        let script = training_script(&s).expect("a script");
        assert!(script.contains("GradScaler"));
        assert!(script.contains("torch.autocast('cuda', dtype=torch.float16)"));
        assert!(!script.contains("get_peft_model"));
    }

    #[test]
    fn serving_has_no_training_script() {
        let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":1}}}"#).expect("scenario");
        assert!(training_script(&s).is_none());
    }
}
