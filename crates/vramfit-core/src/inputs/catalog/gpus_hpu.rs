//! Accelerators outside the CUDA / ROCm runtime model: Intel Gaudi (HPU). They run PyTorch through
//! `habana_frameworks` and vLLM through its HPU backend (HPU graphs, bucketed warm-up), whose memory
//! profile the engine models here do not describe; like the unified-memory machines they are picked
//! by id and left out of the recommender's list ([`super::GPUS`]).
//!
//! `reported_mib` is the total the HPU runtime gives PyTorch: observed on the Gaudi 2 in vLLM's HPU
//! start-up log ("(X GiB/94.62 GiB used)", `HabanaMemoryProfiler`, from the device total), i.e.
//! 96 GiB of HBM2e less 1,413 MiB; the Gaudi 3 keeps the same reservation (derived).
//! `interconnect` is the chip's integrated RoCE ports, all 24, bidirectional; `bandwidth_gb_s` is
//! Intel's HBM bandwidth.

use super::{Gpu, GpuArch, Interconnect, Segment, Vendor};

/// Intel Gaudi 2 (96GB HBM2e).
const GAUDI2: Gpu = Gpu {
    id: "gaudi2",
    name: "Intel Gaudi 2 96GB",
    vendor: Vendor::Intel,
    segment: Segment::DataCenter,
    arch: GpuArch::Gaudi,
    marketed_gb: 96,
    reported_mib: 96891,
    interconnect: Interconnect::Ethernet(600),
    bandwidth_gb_s: 2460,
    unified: false,
    source: source!(
        "observed: vLLM HPU start-up log 'Pre-loading model weights on hpu:0 took 15.05 GiB \
             of device memory (15.05 GiB/94.62 GiB used)' (vLLM Gaudi docs), 94.62 GiB = 96891 \
             MiB of the 96 GB HBM2e; 24 x 100 GbE RoCE on chip"
    ),
};

/// Intel Gaudi 3 (128GB HBM2e).
const GAUDI3: Gpu = Gpu {
    id: "gaudi3",
    name: "Intel Gaudi 3 128GB",
    vendor: Vendor::Intel,
    segment: Segment::DataCenter,
    arch: GpuArch::Gaudi,
    marketed_gb: 128,
    reported_mib: 129659,
    interconnect: Interconnect::Ethernet(1200),
    bandwidth_gb_s: 3700,
    unified: false,
    source: source!(
        "derived: 128 x 1024 - 1413 MiB, the reservation seen on the Gaudi 2 (98304 - 96891 \
             MiB, vLLM HPU log 94.62 GiB); 24 x 200 GbE RoCE on chip"
    ),
};

/// The HPUs, by reported memory.
pub static HPUS: &[Gpu] = &[GAUDI2, GAUDI3];
