//! Times one llama.cpp compute-buffer estimate (`compute_buffer_bytes`: the graph build and the
//! allocator replay of `workloads/engine/llama_cpp/graph_alloc.rs`) over the traced families' shapes. Every
//! call has a context of its own, so none is answered by the memo of recent replays.
//! Run: `cargo run --release -p vramfit-core --example bench_llama_compute`.

use std::hint::black_box;
use std::time::Instant;
use vramfit_core::{compute_buffer_bytes, ComputeShape, GraphFamily};

fn shape(family: GraphFamily, flash_attn: bool, quantized: bool, streams: u64) -> ComputeShape {
    let moe = family == GraphFamily::Qwen3;
    ComputeShape {
        hidden: if moe { 2048 } else { 5120 },
        heads: 32,
        kv_heads: 8,
        head_dim: 128,
        n_ff: if moe { 768 * 8 } else { 14336 },
        experts_used: if moe { 8 } else { 0 },
        vocab: 152064,
        cells_per_stream: 32768 / streams,
        swa_cells_per_stream: Some(4608 / streams),
        ubatch: 512,
        outputs: streams,
        flash_attn,
        family: Some(family),
        experts: if moe { 128 } else { 0 },
        expert_ff: if moe { 768 } else { 0 },
        layers: 48,
        streams,
        seqs: streams,
        quantized_k: quantized,
        quantized_v: quantized,
        alignment: 128,
    }
}

fn main() {
    let mut shapes = Vec::new();
    for family in [
        GraphFamily::Llama,
        GraphFamily::Qwen2,
        GraphFamily::Qwen3,
        GraphFamily::Gemma2,
    ] {
        for (fa, q) in [(false, false), (true, false), (true, true)] {
            for streams in [1, 4] {
                shapes.push(shape(family, fa, q, streams));
            }
        }
    }
    let rounds: u64 = 2000;
    let start = Instant::now();
    let mut total = 0u64;
    for round in 0..rounds {
        for s in &shapes {
            let s = ComputeShape {
                cells_per_stream: s.cells_per_stream + 256 * round,
                ..*s
            };
            total = total.wrapping_add(compute_buffer_bytes(black_box(&s)));
        }
    }
    let per_call = start.elapsed().as_secs_f64() / (rounds as usize * shapes.len()) as f64;
    let mut slowest = 0f64;
    for s in &shapes {
        let t = Instant::now();
        for i in 0..500 {
            let s = ComputeShape {
                cells_per_stream: s.cells_per_stream + 256 * (rounds + i),
                ..*s
            };
            black_box(compute_buffer_bytes(black_box(&s)));
        }
        let each = t.elapsed().as_secs_f64() / 500.0;
        if std::env::args().any(|a| a == "-v") {
            println!(
                "{:?} fa={} quantized={} streams={}: {:.1} µs",
                s.family,
                s.flash_attn,
                s.quantized_k,
                s.streams,
                each * 1e6
            );
        }
        slowest = slowest.max(each);
    }
    println!(
        "{} shapes: mean {:.1} µs per call, slowest shape {:.1} µs (checksum {total})",
        shapes.len(),
        per_call * 1e6,
        slowest * 1e6
    );
}
