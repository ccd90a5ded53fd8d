//! Tests of the allocator replay: every micro-batch frees what it allocates, every run matches
//! the reference allocator call by call, a device limit releases cached segments, the peak's
//! parts add up, and accumulation does not raise the peak beyond one micro-batch.

use super::super::{Checkpointing, LoraTargets, Method, Optimizer, Sharding, TrainPrecision};
use super::*;
use crate::inputs::catalog;

fn bert() -> ModelArch {
    crate::inputs::import::hf_config::parse_value(&serde_json::json!({
        "architectures": ["BertForSequenceClassification"], "model_type": "bert",
        "hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
        "num_attention_heads": 16, "vocab_size": 30522, "max_position_embeddings": 512,
        "type_vocab_size": 2}))
    .expect("bert")
}

/// What stays allocated between steps: weights, master, states, kept gradients.
fn persistent(s: &Sim) -> u64 {
    let k = |x: Kind| s.by_kind[x as usize];
    k(Kind::Weights) + k(Kind::Master) + k(Kind::States) + k(Kind::Gradients) + k(Kind::Adapters)
}

#[test]
fn a_micro_batch_frees_everything_it_allocates() {
    let l8 = catalog::model("llama-3.1-8b-instruct")
        .expect("catalog")
        .arch;
    let mixtral = catalog::model("mixtral-8x7b-instruct").map(|m| m.arch);
    let mut archs = vec![bert(), l8];
    archs.extend(mixtral);
    for a in archs {
        for t in [
            Train::default(),
            Train {
                precision: TrainPrecision::AmpFp16,
                flash_attention: false,
                ..Train::default()
            },
            Train {
                checkpointing: Checkpointing::Full,
                compiled: true,
                chunked_loss: true,
                ..Train::default()
            },
            Train {
                method: Method::Qlora,
                lora_targets: LoraTargets::AllLinear,
                checkpointing: Checkpointing::Full,
                ..Train::default()
            },
            Train {
                sharding: Sharding::Zero3,
                precision: TrainPrecision::MixedMaster,
                ..Train::default()
            },
            Train {
                trainable_top_layers: Some(2),
                optimizer: Optimizer::Adafactor,
                ..Train::default()
            },
        ] {
            let mut s = Sim::new(&a, &t, (1, 256, 4), u64::MAX, Stage::Whole);
            s.load();
            let loaded = s.al.allocated();
            s.micro_batch();
            s.optimizer_step();
            s.zero_grad();
            assert_eq!(s.al.allocated(), persistent(&s), "{:?} {t:?}", a.family);
            assert!(s.al.allocated() >= loaded);
            let k = |x: Kind| s.by_kind[x as usize];
            assert_eq!(
                k(Kind::Activations) + k(Kind::Logits) + k(Kind::Temporary),
                0
            );
        }
    }
}

/// The runs the replay is checked on: every calibration row (BERT-large under HF Trainer,
/// the torchtune recipes), the golden training scenarios, the fuzz corpus's training input,
/// and variants over sharding, pipeline and tensor parallelism, offload and MoE.
fn runs() -> Vec<(ModelArch, Train, u64, u64, u64)> {
    let model = |id: &str| catalog::model(id).map(|m| m.arch);
    let mut out = Vec::new();
    for (fp16, opt, ckpt) in [
        (false, Optimizer::Adamw, false),
        (false, Optimizer::Adamw, true),
        (true, Optimizer::Adamw, false),
        (true, Optimizer::Adamw, true),
        (false, Optimizer::Adafactor, false),
        (true, Optimizer::Adafactor, true),
        (false, Optimizer::Adamw8bit, false),
        (true, Optimizer::Adamw8bit, true),
    ] {
        for (batch, ga) in [(4, 1), (1, 4)] {
            let t = Train {
                precision: if fp16 {
                    TrainPrecision::AmpFp16
                } else {
                    TrainPrecision::Fp32
                },
                optimizer: opt,
                checkpointing: if ckpt {
                    Checkpointing::Full
                } else {
                    Checkpointing::None
                },
                gradient_accumulation: ga,
                foreach: false,
                flash_attention: false,
                grads_persist: true,
                // As the calibration runs them (torch ≤ 1.9's autocast lists).
                autocast_gelu_fp32: fp16,
                ..Train::default()
            };
            out.push((bert(), t, batch, 512, 1));
        }
    }
    let tune = Train {
        checkpointing: Checkpointing::Full,
        compiled: true,
        chunked_loss: true,
        ..Train::default()
    };
    let l8 = model("llama-3.1-8b-instruct");
    let l70 = model("llama-3.1-70b-instruct");
    for t in [
        Train {
            optimizer: Optimizer::PagedAdamw8bit,
            optimizer_in_backward: true,
            ..tune.clone()
        },
        Train {
            method: Method::Lora,
            lora_targets: LoraTargets::QueryValue,
            ..tune.clone()
        },
        Train {
            method: Method::Qlora,
            lora_targets: LoraTargets::AllLinear,
            ..tune.clone()
        },
        Train {
            method: Method::Qlora,
            lora_targets: LoraTargets::AllLinear,
            checkpointing: Checkpointing::Full,
            optimizer: Optimizer::PagedAdamw8bit,
            ..Train::default()
        },
        Train {
            precision: TrainPrecision::AmpBf16,
            ..Train::default()
        },
        Train {
            tensor_parallel: 2,
            pipeline_parallel: 2,
            ..tune.clone()
        },
        Train {
            sharding: Sharding::Zero2,
            gradient_accumulation: 3,
            ..Train::default()
        },
        Train {
            sharding: Sharding::Zero3,
            offload_params: true,
            offload_optimizer: true,
            ..tune.clone()
        },
    ] {
        out.extend(l8.map(|a| (a, t.clone(), 2, 2048, 4)));
    }
    out.extend(l70.map(|a| {
        let t = Train {
            method: Method::Lora,
            lora_rank: 16,
            lora_targets: LoraTargets::QueryKeyValue,
            sharding: Sharding::Zero3,
            ..tune.clone()
        };
        (a, t, 2, 2048, 8)
    }));
    out.extend(model("qwen2.5-7b-instruct").map(|a| {
        let t = Train {
            precision: TrainPrecision::MixedMaster,
            sharding: Sharding::Zero3,
            checkpointing: Checkpointing::Full,
            ..Train::default()
        };
        (a, t, 2, 4096, 4)
    }));
    out.extend(model("mixtral-8x7b-instruct").map(|a| {
        let t = Train {
            method: Method::Lora,
            lora_targets: LoraTargets::AllLinear,
            ..Train::default()
        };
        (a, t, 1, 1024, 1)
    }));
    // tests/fuzz/training-activations-max.json: every tensor saturates.
    out.extend(model("llama-3.1-405b").map(|a| {
        let t = Train {
            precision: TrainPrecision::Fp32,
            flash_attention: false,
            ..Train::default()
        };
        (a, t, 65536, 10_000_000, 64)
    }));
    out
}

/// The replay's allocator (bucketed free lists, device limit) against the reference
/// allocator as first written: every call of every run gets the same bytes, and the
/// reserved and allocated peaks are the same.
#[test]
fn every_run_replays_as_on_the_reference_allocator() {
    for (a, t, batch, seq, world) in runs() {
        let stages: &[Stage] = if t.pipeline_parallel > 1 {
            &[Stage::First, Stage::Last]
        } else {
            &[Stage::Whole]
        };
        for &stage in stages {
            let mut s = Sim::new(&a, &t, (batch, seq, world), u64::MAX, stage);
            s.al.trace = Some(Default::default());
            s.run_steps();
            let r = s.result();
            let trace = s.al.trace.take().unwrap_or_default();
            let peak = allocator::reference::check(&trace, r.reserved, &s.al.free_blocks());
            assert_eq!(peak, r.allocated, "{:?} {t:?}", a.family);
            assert!(!trace.calls.is_empty());
        }
    }
}

/// Under a limit between what the run must hold at once and what it reserves unconstrained,
/// the replay releases cached segments and reserves less; the allocated peak is the same.
#[test]
fn a_device_limit_releases_cached_segments() {
    let a = catalog::model("llama-3.1-8b-instruct")
        .expect("catalog")
        .arch;
    let t = Train {
        checkpointing: Checkpointing::Full,
        ..Train::default()
    };
    let free = replay(&a, &t, 2, 7168, 1, u64::MAX);
    assert!(free.requested <= free.allocated && free.allocated < free.reserved);
    let limit = free.allocated + (free.reserved - free.allocated) / 4;
    let held = replay(&a, &t, 2, 7168, 1, limit);
    assert_eq!(free.released, 0);
    assert!(held.released > 0);
    assert!(held.reserved < free.reserved, "{held:?}");
    // Far below the requests: out of memory, the reserved peak passes the limit.
    let oom = replay(&a, &t, 2, 7168, 1, free.requested / 2);
    assert!(oom.reserved > free.requested / 2);
}

#[test]
fn peak_parts_add_up_and_the_state_repeats() {
    let a = bert();
    let t = Train {
        precision: TrainPrecision::Fp32,
        foreach: false,
        flash_attention: false,
        grads_persist: true,
        ..Train::default()
    };
    let r = replay(&a, &t, 4, 512, 1, u64::MAX);
    assert_eq!(r.parts.iter().sum::<u64>(), r.allocated);
    assert!(r.reserved >= r.allocated);
    assert!(r.steps < MAX_STEPS, "no fixed point in {} steps", r.steps);
    // fp32 BERT-large: weights, gradients and two Adam moments (4 × 1.34 GB) plus 24 layers
    // of 340 MiB saved activations at batch 4.
    let gib = r.allocated as f64 / f64::from(1u32 << 30);
    assert!((12.9..13.3).contains(&gib), "{gib}");
}

#[test]
fn gradient_accumulation_does_not_raise_the_peak_beyond_one_micro_batch() {
    let a = bert();
    let base = Train {
        precision: TrainPrecision::Fp32,
        foreach: false,
        flash_attention: false,
        grads_persist: true,
        ..Train::default()
    };
    let one = replay(&a, &base, 1, 512, 1, u64::MAX);
    let four = replay(
        &a,
        &Train {
            gradient_accumulation: 4,
            ..base
        },
        1,
        512,
        1,
        u64::MAX,
    );
    assert_eq!(one.allocated, four.allocated);
}
