//! The closed-form training estimate against its reference: the allocator replay
//! (`crates/vramfit-core/src/workloads/training/replay.rs`, feature `replay`, tests only), which allocates
//! and frees every tensor of a training step through an exact model of PyTorch's CUDA caching
//! allocator, step after step until the allocator's state repeats.
//!
//! For every calibration row of `tests/calibration/training.json` and a sweep of representative
//! scenarios (full / LoRA / QLoRA; fp32, autocast, bf16, master weights; checkpointing on and off;
//! AdamW, 8-bit AdamW, Adafactor, SGD; micro-batch 1–8; sequence 512–4096; ZeRO off and on;
//! BERT-large, Llama 3.2 1B, Llama 3.1 8B, Qwen2.5 7B), one table row: the closed form's per-GPU
//! total against the replay's reserved peak plus what lies outside the allocator (the same CUDA
//! context, cuBLAS workspace and NCCL buffers), the error, and both allocated peaks. The calibration
//! rows also give the replay against the measurement. Every row is printed.
//!
//! Asserted: on every row the closed form's allocated peak is at most [`ALLOCATED_UNDER`] % under
//! the replay's; the total is at most [`UNDER`] % under the replay and within [`BOTH`] % of it on
//! every row not in [`EXCLUDED`]. An excluded row names its [`Mechanism`] (what the closed form does
//! not model: mostly the caching allocator's cached segments beside the peak), its replay must
//! show that mechanism's evidence, and it must land in its window: still a miss (a stale exclusion
//! fails), and by no more than what it misses by now plus a margin. The allocated peak is at most
//! [`ALLOCATED_OVER`] % over the replay's, or the named row's own ceiling in
//! [`ALLOCATED_OVER_ROWS`]. The calibration rows are held tighter: the closed form within
//! [`BERT_BOTH`] / [`TORCHTUNE_BOTH`] % of the replay, and the replay within [`BERT_MEASURED`] /
//! [`TORCHTUNE_MEASURED`] % of the measurement. Every window and bound is what the row (or the
//! worst row of the group) achieves plus max(1 point, 30 % of it). The replay's
//! reserve on the sweep's large-vocabulary decoders is not itself measured (the torchtune rows
//! report torch's peak allocated); the BERT rows measure it (device memory) and agree.

use serde_json::{json, Value};
use vramfit_core::{prepare, training_replay, user_plan, ComponentId, Scenario};
use vramfit_tests::{calibration_file, training_case};

const GIB: f64 = (1u64 << 30) as f64;

/// The closed form may lie at most this far under the replay (%).
const UNDER: f64 = 5.0;
/// … and at most this far from it either way (%).
const BOTH: f64 = 10.0;

/// The closed form's allocated peak (its components less the allocator reserve and what lies
/// outside the allocator) may lie at most this far under the replay's, on every row (%).
const ALLOCATED_UNDER: f64 = 6.0;

/// … and at most this far over it, on every row not in [`ALLOCATED_OVER_ROWS`] (%).
const ALLOCATED_OVER: f64 = 9.1;

/// Rows whose allocated peak lies further over the replay's, each with its ceiling (%): the
/// closed form's phase sums count together tensors the replay never holds at once (the
/// backward's logits and gradients, the recomputed layer's activations; S21: ZeRO-3's gathered
/// temporaries).
const ALLOCATED_OVER_ROWS: &[(&str, f64)] = &[
    ("S03", 13.3),
    ("S05", 19.9),
    ("S10", 26.9),
    ("S14", 19.6),
    ("S21", 13.8),
];

/// The calibration rows against the replay: the closed form within this of it (%), BERT and
/// torchtune (T03 is excluded, with its window).
const BERT_BOTH: f64 = 2.7;
const TORCHTUNE_BOTH: f64 = 4.4;

/// The replay within this of the measurement (%): BERT's device memory, torchtune's peak
/// allocated.
const BERT_MEASURED: f64 = 2.2;
const TORCHTUNE_MEASURED: f64 = 8.0;

/// Why a row misses the bound: a mechanism of the caching allocator (or of the closed form's phase
/// sums) that the closed form does not model. Each is checked on the row's replay (its evidence
/// must be there) and the row must still miss (a stale exclusion fails the test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mechanism {
    /// The eager, unchunked loss's freed segments idle beside a later peak beyond the one the
    /// closed form counts (`activations::cached_loss_segment`: `_log_softmax_backward_data`'s fp32
    /// block, idle at the forward's end): the 16-bit logits' block in the loss's backward (too
    /// small for its fp32 gradients), and the blocks the first step's lazily created optimizer
    /// states and temporaries take from the freed loss segments (the only free blocks that large),
    /// so that the next step's loss opens its own again and the old ones lie idle beside the
    /// backward's or the optimizer step's peak. Evidence: a free block of at least half the 16-bit
    /// logits at the replay's allocated peak.
    LossSegments,
    /// The replay's reserved peak falls in a later step, at a lower allocated peak: the first
    /// step's lazily created optimizer states take the blocks the next forward and backward had
    /// used. Evidence: most of the gap is reserved after the allocated peak.
    LaterStep,
    /// Blocks of one layer's MLP width (`b·s·I·c`: the transient or recomputed gate / up
    /// outputs) left between longer-lived tensors, one per layer. Evidence: two or more free
    /// blocks of that size (±3 %) at the allocated peak.
    MlpHoles,
    /// Over, not under: the closed form's backward phase holds half the logits beside every
    /// gradient, where the head's backward frees the logits before the layers' gradients exist.
    /// Evidence: the closed form's allocated peak is over the replay's by at least the gap.
    PhaseSum,
    /// Over, not under: the closed form counts `activations::cached_loss_segment` (one fp32
    /// logits block, `2 × logits` here) idle beside the peak, where the replay's first step
    /// (ZeRO-3: its gathered layers and sharded states) has taken part of that segment for
    /// tensors the closed form counts already. Evidence: the replay's whole reserve is smaller
    /// than that one segment.
    LossSegmentShared,
}

/// Rows kept out of the total's bound, with their mechanism and the window (signed %, both ends
/// included) the total's error must land in: outside −[`UNDER`] … +[`BOTH`] (still a miss), and
/// within what it misses by now widened by max(1 point, 30 %).
const EXCLUDED: &[(&str, Mechanism, (f64, f64))] = &[
    ("T03", Mechanism::MlpHoles, (-7.8, -5.0)),
    ("S05", Mechanism::PhaseSum, (10.0, 15.9)),
    ("S06", Mechanism::MlpHoles, (-7.2, -5.0)),
    ("S08", Mechanism::LossSegments, (-18.9, -10.1)),
    ("S10", Mechanism::LaterStep, (-11.9, -6.4)),
    ("S11", Mechanism::LossSegmentShared, (10.0, 14.1)),
    ("S26", Mechanism::MlpHoles, (-7.3, -5.0)),
];

/// The sweep: (id, model, card, GPUs, `train` workload).
fn sweep() -> Vec<(&'static str, &'static str, &'static str, u32, Value)> {
    let l8 = "llama-3.1-8b-instruct";
    let l1 = "llama-3.2-1b-instruct";
    let q7 = "qwen2.5-7b-instruct";
    let h100 = "h100-sxm-80gb";
    let a100 = "a100-sxm-80gb";
    vec![
        // Full fine-tuning, pure bf16.
        (
            "S01",
            l8,
            h100,
            1,
            json!({"micro_batch": 1, "sequence_length": 2048, "checkpointing": "full"}),
        ),
        (
            "S02",
            l8,
            h100,
            1,
            json!({"micro_batch": 2, "sequence_length": 4096, "checkpointing": "full", "compiled": true, "chunked_loss": true}),
        ),
        (
            "S03",
            l8,
            h100,
            1,
            json!({"micro_batch": 4, "sequence_length": 1024, "checkpointing": "full", "optimizer": "adamw8bit"}),
        ),
        (
            "S04",
            l8,
            h100,
            1,
            json!({"micro_batch": 1, "sequence_length": 2048, "checkpointing": "full", "optimizer": "adafactor", "foreach": false}),
        ),
        (
            "S05",
            l8,
            h100,
            1,
            json!({"micro_batch": 8, "sequence_length": 512, "checkpointing": "full", "optimizer": "sgd"}),
        ),
        (
            "S06",
            l8,
            h100,
            1,
            json!({"micro_batch": 1, "sequence_length": 1024, "optimizer": "adamw8bit"}),
        ),
        (
            "S07",
            l8,
            h100,
            1,
            json!({"micro_batch": 2, "sequence_length": 2048, "checkpointing": "full", "foreach": false}),
        ),
        // ZeRO.
        (
            "S08",
            l8,
            a100,
            4,
            json!({"micro_batch": 1, "sequence_length": 4096, "checkpointing": "full", "sharding": "zero2"}),
        ),
        (
            "S09",
            l8,
            a100,
            8,
            json!({"micro_batch": 2, "sequence_length": 2048, "checkpointing": "full", "sharding": "zero3", "precision": "mixed_master"}),
        ),
        (
            "S10",
            l8,
            h100,
            8,
            json!({"micro_batch": 4, "sequence_length": 2048, "checkpointing": "full", "sharding": "zero1"}),
        ),
        (
            "S11",
            q7,
            a100,
            4,
            json!({"micro_batch": 2, "sequence_length": 4096, "checkpointing": "full", "sharding": "zero3"}),
        ),
        // fp32, autocast and master weights on a small model.
        (
            "S12",
            l1,
            h100,
            1,
            json!({"micro_batch": 4, "sequence_length": 1024, "precision": "fp32"}),
        ),
        (
            "S13",
            l1,
            h100,
            1,
            json!({"micro_batch": 8, "sequence_length": 512, "precision": "amp_bf16"}),
        ),
        (
            "S14",
            l1,
            h100,
            1,
            json!({"micro_batch": 2, "sequence_length": 2048, "precision": "amp_fp16", "checkpointing": "full", "optimizer": "adamw8bit"}),
        ),
        (
            "S15",
            l1,
            h100,
            2,
            json!({"micro_batch": 4, "sequence_length": 2048, "precision": "mixed_master", "checkpointing": "full", "sharding": "zero2"}),
        ),
        (
            "S16",
            l1,
            h100,
            1,
            json!({"micro_batch": 2, "sequence_length": 4096, "precision": "fp32", "checkpointing": "full", "optimizer": "sgd"}),
        ),
        (
            "S17",
            l1,
            h100,
            1,
            json!({"micro_batch": 1, "sequence_length": 4096, "precision": "amp_bf16", "optimizer": "adafactor", "foreach": false}),
        ),
        // LoRA.
        (
            "S18",
            l8,
            h100,
            1,
            json!({"method": "lora", "micro_batch": 2, "sequence_length": 2048}),
        ),
        (
            "S19",
            l8,
            h100,
            1,
            json!({"method": "lora", "lora_targets": "all_linear", "micro_batch": 4, "sequence_length": 1024, "checkpointing": "full"}),
        ),
        (
            "S20",
            l8,
            h100,
            1,
            json!({"method": "lora", "lora_targets": "query_key_value", "micro_batch": 8, "sequence_length": 512, "checkpointing": "full", "compiled": true, "chunked_loss": true}),
        ),
        (
            "S21",
            l8,
            a100,
            8,
            json!({"method": "lora", "lora_rank": 16, "lora_targets": "query_key_value", "micro_batch": 2, "sequence_length": 2048, "checkpointing": "full", "sharding": "zero3"}),
        ),
        (
            "S22",
            q7,
            a100,
            1,
            json!({"method": "lora", "lora_targets": "all_linear", "micro_batch": 2, "sequence_length": 2048, "checkpointing": "full"}),
        ),
        (
            "S23",
            l1,
            h100,
            1,
            json!({"method": "lora", "micro_batch": 4, "sequence_length": 1024, "precision": "fp32"}),
        ),
        // QLoRA.
        (
            "S24",
            l8,
            "rtx-4090",
            1,
            json!({"method": "qlora", "lora_targets": "all_linear", "micro_batch": 1, "sequence_length": 4096, "checkpointing": "full"}),
        ),
        (
            "S25",
            l8,
            h100,
            1,
            json!({"method": "qlora", "micro_batch": 2, "sequence_length": 2048}),
        ),
        (
            "S26",
            l8,
            "rtx-4090",
            1,
            json!({"method": "qlora", "lora_targets": "all_linear", "micro_batch": 4, "sequence_length": 1024, "checkpointing": "full", "compiled": true, "chunked_loss": true, "optimizer": "paged_adamw8bit"}),
        ),
        (
            "S27",
            q7,
            a100,
            1,
            json!({"method": "qlora", "lora_targets": "all_linear", "micro_batch": 1, "sequence_length": 4096}),
        ),
    ]
}

/// BERT-large rows of the sweep (the calibration's architecture under today's defaults).
fn bert_sweep(bert: &Value) -> Vec<(&'static str, Value)> {
    let rows = [
        (
            "S28",
            json!({"micro_batch": 8, "sequence_length": 512, "precision": "fp32", "flash_attention": false}),
        ),
        (
            "S29",
            json!({"micro_batch": 8, "sequence_length": 512, "precision": "amp_fp16", "flash_attention": false}),
        ),
        (
            "S30",
            json!({"micro_batch": 1, "sequence_length": 512, "precision": "fp32", "optimizer": "adafactor", "foreach": false, "flash_attention": false}),
        ),
        (
            "S31",
            json!({"micro_batch": 4, "sequence_length": 512, "precision": "amp_bf16", "optimizer": "sgd", "checkpointing": "full", "flash_attention": false}),
        ),
    ];
    rows.into_iter()
        .map(|(id, train)| {
            (
                id,
                json!({
                    "model": {"hf_config": bert},
                    "weights": "fp32",
                    "workload": {"train": train},
                    "hardware": {"gpu": "a100-sxm-40gb", "count": 1},
                }),
            )
        })
        .collect()
}

/// What one row compares.
struct Row {
    id: String,
    path: &'static str,
    setting: String,
    closed: f64,
    closed_allocated: f64,
    cublas: f64,
    closed_reserve: f64,
    closed_phase: String,
    closed_parts: Vec<(ComponentId, u64)>,
    /// Bytes of the 16-bit (compute-width) logits and of one layer's MLP output.
    logits: f64,
    mlp: f64,
    replay: vramfit_core::ReplayPeak,
}

impl Row {
    /// Allocator reserve: the closed form's, the replay's (reserved − allocated peak), GiB.
    fn reserves(&self) -> (f64, f64) {
        (
            self.closed_reserve / GIB,
            (self.replay.reserved - self.replay.allocated) as f64 / GIB,
        )
    }

    /// Where the allocated peaks differ: closed form − replay per component, GiB (≥ 0.1 GiB).
    fn part_deltas(&self) -> String {
        let mut out = Vec::new();
        for &(id, replay) in &self.replay.parts {
            let closed = self
                .closed_parts
                .iter()
                .find(|(c, _)| *c == id)
                .map_or(0, |&(_, b)| b);
            let d = (closed as f64 - replay as f64) / GIB;
            if d.abs() >= 0.1 {
                out.push(format!("{id:?} {d:+.1}"));
            }
        }
        out.join(", ")
    }

    /// Whether the row's replay shows the mechanism's evidence.
    fn shows(&self, m: Mechanism) -> bool {
        let gap = self.replay.total() as f64 - self.closed;
        let free = &self.replay.free_at_peak;
        match m {
            Mechanism::LossSegments => free[0] as f64 >= self.logits / 2.0,
            Mechanism::LaterStep => {
                (self.replay.reserved - self.replay.reserved_at_peak) as f64 >= gap / 2.0
            }
            Mechanism::MlpHoles => {
                free.iter()
                    .filter(|&&b| (b as f64 - self.mlp).abs() <= 0.03 * self.mlp)
                    .count()
                    >= 2
            }
            Mechanism::PhaseSum => self.closed_allocated - self.replay.allocated as f64 >= -gap,
            Mechanism::LossSegmentShared => {
                gap < 0.0
                    && ((self.replay.reserved - self.replay.allocated) as f64) < 2.0 * self.logits
            }
        }
    }

    fn allocated_error(&self) -> f64 {
        (self.closed_allocated - self.replay.allocated as f64) / self.replay.allocated as f64
            * 100.0
    }

    fn error(&self) -> f64 {
        (self.closed - self.replay.total() as f64) / self.replay.total() as f64 * 100.0
    }
}

fn compare(id: &str, scenario: &Value) -> Row {
    let s = Scenario::from_json(&scenario.to_string()).unwrap_or_else(|e| panic!("{id}: {e}"));
    let prepared = prepare(&s).unwrap_or_else(|e| panic!("{id}: {e:?}"));
    let (plan, _) = user_plan(&s, &prepared).unwrap_or_else(|e| panic!("{id}: {e:?}"));
    let plan = plan.unwrap_or_else(|| panic!("{id}: no plan"));
    let bytes = |ids: &[ComponentId]| -> f64 {
        plan.per_gpu_components
            .iter()
            .filter(|c| ids.contains(&c.id))
            .map(|c| c.bytes as f64)
            .sum()
    };
    let outside = [
        ComponentId::CudaContext,
        ComponentId::CublasWorkspace,
        ComponentId::CommunicationBuffers,
    ];
    let closed = plan.per_gpu_bytes as f64;
    let c = if train_precision_fp32(&s) { 4.0 } else { 2.0 };
    let tokens = prepared_tokens(&s);
    let logits = tokens * f64::from(prepared.arch.vocab) * c;
    let mlp = tokens * f64::from(prepared.arch.intermediate) * c;
    let closed_allocated = closed - bytes(&outside) - bytes(&[ComponentId::AllocatorReserve]);
    let replay = training_replay(&s)
        .unwrap_or_else(|e| panic!("{id}: {e:?}"))
        .unwrap_or_else(|| panic!("{id}: no replay"));
    // The closed form and the replay count the same memory outside the allocator.
    assert_eq!(replay.outside as f64, bytes(&outside), "{id}");
    let train = &scenario["workload"]["train"];
    let path = match train["method"].as_str().unwrap_or("full") {
        "lora" => "LoRA",
        "qlora" => "QLoRA",
        _ => "full",
    };
    Row {
        id: id.to_string(),
        path,
        setting: train.to_string().replace('|', "/"),
        closed,
        closed_allocated,
        cublas: bytes(&[ComponentId::CublasWorkspace]),
        closed_reserve: bytes(&[ComponentId::AllocatorReserve]),
        logits,
        mlp,
        closed_phase: plan
            .peak_phase
            .map_or_else(|| "–".to_string(), |p| format!("{p:?}")),
        closed_parts: plan
            .per_gpu_components
            .iter()
            .map(|c| (c.id, c.bytes))
            .collect(),
        replay,
    }
}

/// Whether the run computes in fp32.
fn train_precision_fp32(s: &Scenario) -> bool {
    matches!(&s.workload, vramfit_core::Workload::Train(t) if t.precision == vramfit_core::TrainPrecision::Fp32)
}

/// Tokens per micro-batch.
fn prepared_tokens(s: &Scenario) -> f64 {
    match &s.workload {
        vramfit_core::Workload::Train(t) => f64::from(t.micro_batch) * f64::from(t.sequence_length),
        _ => 0.0,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

#[test]
fn closed_form_against_the_allocator_replay() {
    let text = std::fs::read_to_string(calibration_file("training.json")).expect("training.json");
    let data: Value = serde_json::from_str(&text).expect("json");
    let cases = data["cases"].as_array().expect("cases");
    let mut rows = Vec::new();
    let mut measured_rows = Vec::new();
    let mut measured_failures = Vec::new();
    let mut bert = Value::Null;
    for case in cases {
        let id = case["id"].as_str().unwrap_or("?");
        let Some((scenario, measured, unit, _, allocated_only)) = training_case(case) else {
            // Every calibration row has a scenario: none is left out silently.
            panic!("{id}: no scenario");
        };
        if bert.is_null() && case["hf_config"].is_object() {
            bert = case["hf_config"].clone();
        }
        let row = compare(id, &scenario);
        // The replay as the row was measured: device memory (reserved + outside), or torch's peak
        // allocated (with the cuBLAS workspace, which PyTorch allocates through the allocator).
        let replay = if allocated_only {
            row.replay.allocated as f64 + row.cublas
        } else {
            row.replay.total() as f64
        } / unit;
        let closed = if allocated_only {
            row.closed_allocated + row.cublas
        } else {
            row.closed
        } / unit;
        let replay_err = (replay - measured) / measured * 100.0;
        let bound = if allocated_only {
            TORCHTUNE_MEASURED
        } else {
            BERT_MEASURED
        };
        if !vramfit_tests::within(replay_err, bound) {
            measured_failures.push(format!(
                "{id}: replay {replay_err:+.2} % of the measurement (±{bound} %)"
            ));
        }
        measured_rows.push(format!(
            "| {id} | {measured:.1} {} | {replay:.1} | {replay_err:+.1} % | {closed:.1} | {:+.1} % |",
            if allocated_only {
                "GiB (allocated)"
            } else {
                "MiB (device)"
            },
            (closed - measured) / measured * 100.0,
        ));
        rows.push(row);
    }
    for (id, model, gpu, count, train) in sweep() {
        let mut t = train;
        if t["micro_batch"].is_null() {
            t["micro_batch"] = json!(1);
        }
        let scenario = json!({
            "model": {"catalog": model},
            "weights": "bf16",
            "workload": {"train": t},
            "hardware": {"gpu": gpu, "count": count},
        });
        let mut row = compare(id, &scenario);
        row.setting = format!("{model} on {count} × {gpu}: {}", row.setting);
        rows.push(row);
    }
    for (id, scenario) in bert_sweep(&bert) {
        let mut row = compare(id, &scenario);
        row.setting = format!("BERT-large on a100-sxm-40gb: {}", row.setting);
        rows.push(row);
    }

    println!("| row | path | setting | closed form GiB | replay GiB (reserved + outside) | error | closed allocated GiB | replay allocated GiB | allocated Δ by part GiB | reserve GiB closed / replay | of it after the allocated peak GiB | largest free at the allocated peak MiB | phase closed / replay | steps | released GiB |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut failures = measured_failures;
    for r in &rows {
        let err = r.error();
        // NaN is outside every bound and in no window.
        let outside = !(-UNDER..=BOTH).contains(&err);
        let mark = match EXCLUDED.iter().find(|(id, _, _)| *id == r.id) {
            Some(&(_, m, (lo, hi))) => {
                if !r.shows(m) {
                    failures.push(format!(
                        "{}: excluded as {m:?}, which its replay does not show",
                        r.id
                    ));
                }
                if !outside {
                    failures.push(format!(
                        "{}: excluded as {m:?} but within the bound ({err:+.2} %)",
                        r.id
                    ));
                }
                if !(lo..=hi).contains(&err) {
                    failures.push(format!(
                        "{}: excluded as {m:?}, {err:+.2} %, outside its window {lo:+} … {hi:+} %",
                        r.id
                    ));
                }
                format!(" (excluded: {m:?})")
            }
            None if outside => {
                failures.push(format!("{}: {err:+.2} %", r.id));
                " **outside**".to_string()
            }
            None => {
                // The calibration rows, held tighter than the sweep.
                let group = match r.id.as_bytes().first() {
                    Some(b'B') => Some(BERT_BOTH),
                    Some(b'T') => Some(TORCHTUNE_BOTH),
                    _ => None,
                };
                if let Some(bound) = group.filter(|&b| !vramfit_tests::within(err, b)) {
                    failures.push(format!("{}: {err:+.2} % (±{bound} %)", r.id));
                    " **outside**".to_string()
                } else {
                    String::new()
                }
            }
        };
        let allocated = r.allocated_error();
        let over = ALLOCATED_OVER_ROWS
            .iter()
            .find(|(id, _)| *id == r.id)
            .map_or(ALLOCATED_OVER, |&(_, b)| b);
        if !(-ALLOCATED_UNDER..=over).contains(&allocated) {
            failures.push(format!(
                "{}: allocated peak {allocated:+.2} % of the replay's, outside −{ALLOCATED_UNDER} … +{over} %",
                r.id,
            ));
        }
        let (rc, rr) = r.reserves();
        println!(
            "| {} | {} | `{}` | {:.2} | {:.2} | {err:+.1} %{mark} | {:.2} | {:.2} | {} | {rc:.2} / {rr:.2} | {:.2} | {} | {} / {:?} | {} | {:.2} |",
            r.id,
            r.path,
            r.setting,
            r.closed / GIB,
            r.replay.total() as f64 / GIB,
            r.closed_allocated / GIB,
            r.replay.allocated as f64 / GIB,
            r.part_deltas(),
            (r.replay.reserved - r.replay.reserved_at_peak) as f64 / GIB,
            r.replay
                .free_at_peak
                .iter()
                .map(|&b| format!("{}", b >> 20))
                .collect::<Vec<_>>()
                .join(", "),
            r.closed_phase,
            r.replay.phase,
            r.replay.steps,
            r.replay.released as f64 / GIB,
        );
    }
    println!();
    let excluded = |r: &&Row| EXCLUDED.iter().any(|(id, _, _)| *id == r.id);
    // The summary docs/accuracy.md quotes, written by this test (never typed there).
    let mut summary = vec![
        "| path | rows | total: median, worst | allocated peak: median, worst | rows in the bound | their total: median, worst |".to_string(),
        "|---|---:|---|---|---:|---|".to_string(),
    ];
    for path in ["full", "LoRA", "QLoRA", "all"] {
        let of_path: Vec<&Row> = rows
            .iter()
            .filter(|r| path == "all" || r.path == path)
            .collect();
        let stats = |errs: Vec<f64>| {
            let worst = errs
                .iter()
                .copied()
                .fold(0.0, |w: f64, e| if e.abs() > w.abs() { e } else { w });
            format!("median {:+.1} %, worst {worst:+.1} %", median(errs))
        };
        summary.push(format!(
            "| {path} | {} | {} | {} | {} | {} |",
            of_path.len(),
            stats(of_path.iter().map(|r| r.error()).collect()),
            stats(of_path.iter().map(|r| r.allocated_error()).collect()),
            of_path.iter().filter(|r| !excluded(r)).count(),
            stats(
                of_path
                    .iter()
                    .filter(|r| !excluded(r))
                    .map(|r| r.error())
                    .collect()
            ),
        ));
    }
    let summary = summary.join("\n") + "\n";
    println!("{summary}");
    if let Err(e) = vramfit_tests::sync_accuracy_section("accuracy-replay", &summary) {
        failures.push(e);
    }
    println!();
    println!("| case | measured | replay | error | closed form | error |");
    println!("|---|---|---|---|---|---|");
    for m in &measured_rows {
        println!("{m}");
    }
    // A named row that is not in the table would hold nothing.
    for id in EXCLUDED
        .iter()
        .map(|e| e.0)
        .chain(ALLOCATED_OVER_ROWS.iter().map(|e| e.0))
    {
        assert!(rows.iter().any(|r| r.id == id), "{id}: no such row");
    }
    assert!(
        failures.is_empty(),
        "outside the bounds against the replay:\n{}",
        failures.join("\n")
    );
}
