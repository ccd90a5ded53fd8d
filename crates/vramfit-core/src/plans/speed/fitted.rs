//! The speed model's fitted efficiencies, and the error bands its calibration measures.
//!
//! Fitted on the published llama.cpp measurements in `tests/calibration/speed_llama_cpp.json`
//! (each row with its source; 80 rows: CUDA, ROCm, Vulkan and Metal, one to eight cards, 7B to
//! 120B, 4-bit to 16-bit), by least squares on the logarithm of predicted ÷ measured, one factor
//! per backend, per weight class and per memory kind — never per card. The test
//! `tests/tests/speed_calibration.rs` replays every row through [`crate::estimate`], prints the
//! table into `docs/accuracy-speed.md`, and fails when an error band below drifts from what the
//! rows measure.

/// The backend llama.cpp uses on a card (its vendor's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// NVIDIA CUDA.
    Cuda,
    /// AMD ROCm / HIP.
    Rocm,
    /// Vulkan (Intel Arc, and what the Vulkan rows measured).
    Vulkan,
    /// Apple Metal.
    Metal,
}

/// Share of the rated memory bandwidth a one-sequence decode step reaches on each backend, for
/// 16-bit weights on GDDR or unified memory.
pub fn decode_bandwidth_share(b: Backend) -> f64 {
    match b {
        Backend::Cuda => 0.875,
        Backend::Rocm => 0.694,
        Backend::Vulkan => 0.991,
        Backend::Metal => 0.857,
    }
}

/// Fixed time per decoder layer and token, seconds: kernel launches and the small operations
/// (norms, rope, attention at short context) that do not scale with the weights.
pub fn decode_layer_overhead_s(b: Backend) -> f64 {
    match b {
        Backend::Cuda => 33.0e-6,
        Backend::Rocm => 0.0,
        Backend::Vulkan => 135.0e-6,
        Backend::Metal => 146.0e-6,
    }
}

/// How a weight format's kernels keep up with the bandwidth, relative to 16-bit: quantised
/// blocks are dequantised on the fly, which costs the step some of its share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightClass {
    /// 16- or 32-bit floats.
    Float,
    /// 8-bit blocks (q8_0, int8, fp8).
    Eight,
    /// 4-bit and smaller blocks (q4_0, k-quants, GPTQ, AWQ, NF4, MXFP4).
    Four,
}

/// Decode bandwidth share of a weight class relative to 16-bit.
pub fn decode_class_share(c: WeightClass) -> f64 {
    match c {
        WeightClass::Float => 1.0,
        WeightClass::Eight => 0.936,
        WeightClass::Four => 0.893,
    }
}

/// HBM's share relative to GDDR in a one-sequence decode step: a batch of one keeps too few
/// reads in flight to fill the stacks (A100, H100, A30 rows all fall short by about as much).
pub const HBM_DECODE_SHARE: f64 = 0.618;

/// llama.cpp prefill: the rate reached is `prefill_scale(backend) × class × peak^PREFILL_EXPONENT`
/// TFLOPS — its kernels reach a falling share of a card's peak as the peak grows.
pub const PREFILL_EXPONENT: f64 = 0.832;

/// llama.cpp prefill scale per backend (TFLOPS at a peak of 1 TFLOPS).
pub fn prefill_scale(b: Backend) -> f64 {
    match b {
        Backend::Cuda => 0.906,
        Backend::Rocm => 1.356,
        Backend::Vulkan => 0.493,
        Backend::Metal => 1.653,
    }
}

/// llama.cpp prefill share of a weight class relative to 16-bit (the peak it is measured against
/// is the card's INT8 rate for quantised weights: llama.cpp's MMQ kernels multiply in int8).
pub fn prefill_class_share(c: WeightClass) -> f64 {
    match c {
        WeightClass::Float => 1.0,
        WeightClass::Eight => 0.462,
        WeightClass::Four => 0.557,
    }
}

/// Fixed prefill time per layer and prompt, seconds.
pub const PREFILL_LAYER_OVERHEAD_S: f64 = 10.0e-6;

/// Engines other than llama.cpp (vLLM, SGLang, Transformers) run prefill through cuBLAS /
/// hipBLAS GEMMs and FlashAttention: half of the card's dense peak is assumed (not fitted: the
/// calibration set holds llama.cpp only, so their bands are the llama.cpp bands widened by
/// [`UNCALIBRATED_BAND_FACTOR`]).
pub const GEMM_PREFILL_SHARE: f64 = 0.5;

/// How much wider the band is for an engine the calibration set does not hold.
pub const UNCALIBRATED_BAND_FACTOR: f64 = 1.5;

/// Rows of the calibration set the bands come from (the test checks the file holds as many).
pub const CALIBRATION_ROWS: usize = 80;

/// The decode error band, percent: the 80th percentile of |predicted ÷ measured − 1| over the
/// calibration rows, rounded up (the test holds it to the rows).
pub const DECODE_BAND_PERCENT: u32 = 14;

/// The prefill error band, percent, measured the same way.
pub const PREFILL_BAND_PERCENT: u32 = 37;
