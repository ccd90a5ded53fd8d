//! Unified-memory machines: the GPU shares the system RAM with the CPU and the operating system
//! (Apple silicon Macs, NVIDIA DGX Spark, Jetson AGX Orin, AMD MI300A and Ryzen AI Max+). They are not in [`super::GPUS`], which
//! the recommender walks: a plan of several such machines is not a tensor-parallel group, and
//! their memory is not the card's own. A scenario picks one by id (`"hardware": {"gpu": …}`).
//!
//! `reported_mib` is the most the GPU may hold:
//! - **NVIDIA (DGX Spark, Jetson):** observed, the CUDA total (`deviceQuery`, PyTorch), which is
//!   the whole RAM less firmware carve-outs; the OS and the CPU side use the same memory, so the
//!   usable part is smaller.
//! - **Apple:** derived by the macOS default GPU wired limit (`iogpu.wired_limit_mb` = 0): 2/3 of
//!   RAM up to 36 GB, 3/4 above; Metal reports it as `recommendedMaxWorkingSetSize`, which
//!   llama.cpp prints at start-up (21845.34 MiB on a 32 GB M1 Max in a llama.cpp PR #2011 comment,
//!   73728 MiB on a 96 GB M2 Max in llama.cpp issue #3213). The limit moves with the macOS version
//!   and with `sudo sysctl iogpu.wired_limit_mb=N`; the rule gives the default, rounded down to
//!   whole MiB. Memory sizes and bandwidths are Apple's specifications of each chip.
//!
//! - **AMD APUs (MI300A, Ryzen AI Max+ 395):** the GPU allocates system memory through the
//!   kernel's GTT (or, on Ryzen AI, a BIOS carve-out), capped by a limit that can be raised: the
//!   entry gives the documented default or the largest carve-out, as its source says.
//!
//! Metal has no CUDA context or cuBLAS workspace; the estimate's engine-neutral constants are
//! CUDA's and only approximate on a Mac.

use super::{Gpu, GpuArch, Interconnect, Segment, Vendor};

/// Where every Apple entry's `reported_mib` comes from.
const APPLE_RULE: &str = "derived: the macOS default GPU wired limit (iogpu.wired_limit_mb = 0), 2/3 of RAM up to \
     36 GB and 3/4 above, as Metal's recommendedMaxWorkingSetSize (llama.cpp prints 21845.34 MiB on \
     a 32 GB M1 Max, 73728 MiB on a 96 GB M2 Max); raised with sudo sysctl iogpu.wired_limit_mb";

/// NVIDIA DGX Spark (GB10, 128GB unified).
pub(super) const DGX_SPARK: Gpu = Gpu {
    id: "dgx-spark",
    name: "NVIDIA DGX Spark (GB10, 128GB unified)",
    vendor: Vendor::Nvidia,
    segment: Segment::Workstation,
    arch: GpuArch::Blackwell,
    marketed_gb: 128,
    reported_mib: 124547,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 273,
    unified: true,
    source: source!("observed: Unsloth start-up banner 'NVIDIA GB10. Num GPUs = 1. Max memory: 121.628 GB. Platform: Linux.'; vLLM 'Free memory on device (110.37/121.69 GiB)' (MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks#47); the 128 GB LPDDR5x is shared with the CPU and the OS"),
};

/// NVIDIA Jetson AGX Orin 64GB.
pub(super) const JETSON_AGX_ORIN_64GB: Gpu = Gpu {
    id: "jetson-agx-orin-64gb",
    name: "NVIDIA Jetson AGX Orin 64GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Embedded,
    arch: GpuArch::Ampere,
    marketed_gb: 64,
    reported_mib: 62841,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 205,
    unified: true,
    source: source!("observed: deviceQuery 62841 MBytes (65893089280 bytes), 16 SMs (JetPack 6, CUDA 12.6); the LPDDR5 is shared with the CPU and the OS"),
};

/// AMD Instinct MI300A (CDNA3 APU, 128GB HBM3 shared with its Zen 4 cores).
pub(super) const MI300A: Gpu = Gpu {
    id: "mi300a",
    name: "AMD Instinct MI300A 128GB (unified HBM3)",
    vendor: Vendor::Amd,
    segment: Segment::DataCenter,
    arch: GpuArch::Cdna,
    marketed_gb: 128,
    reported_mib: 98304,
    interconnect: Interconnect::Xgmi(512),
    bandwidth_gb_s: 5300,
    unified: true,
    source: source!(
        "derived: 96 GiB, the default HIP device-allocator limit on the MI300A (ROCm docs, \
             how-to/system-optimization/mi300a.rst, PR #3587: 'only possible to allocate 96 GiB \
             out of a possible 128 GiB', raised through the amdttm module's page limit); the \
             128 GB HBM3 is shared with the CPU cores and the OS; 4 Infinity Fabric links x \
             128 GB/s"
    ),
};

/// AMD Ryzen AI Max+ 395 (Strix Halo, Radeon 8060S, 128GB LPDDR5X unified).
pub(super) const RYZEN_AI_MAX_395_128GB: Gpu = Gpu {
    id: "ryzen-ai-max-395-128gb",
    name: "AMD Ryzen AI Max+ 395 128GB (Radeon 8060S, unified)",
    vendor: Vendor::Amd,
    segment: Segment::Workstation,
    arch: GpuArch::Rdna,
    marketed_gb: 128,
    reported_mib: 98304,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 256,
    unified: true,
    source: source!(
        "observed: 96 GiB either way the GPU gets its memory: the largest BIOS UMA \
             carve-out (mem_info_vram_total 103079215104, which ROCm sees from kernel 6.16.9, \
             ROCm/legacy-rocm-build#5444) or a GTT of the same size set by \
             ttm.pages_limit=25165824 (llama.cpp HIP 'Total VRAM: 98304 MiB', \
             noamsto/nix-amd-ai#42); with a 512 MB carve-out and no kernel setting the GTT \
             default is half the RAM ('63968M of GTT memory ready', antirez/ds4#475)"
    ),
};

/// Apple M1 Pro 16GB (unified).
pub(super) const APPLE_M1_PRO_16GB: Gpu = Gpu {
    id: "apple-m1-pro-16gb",
    name: "Apple M1 Pro 16GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 16,
    reported_mib: 10922,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 200,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M1 Pro 32GB (unified).
pub(super) const APPLE_M1_PRO_32GB: Gpu = Gpu {
    id: "apple-m1-pro-32gb",
    name: "Apple M1 Pro 32GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 32,
    reported_mib: 21845,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 200,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M1 Max 32GB (unified).
pub(super) const APPLE_M1_MAX_32GB: Gpu = Gpu {
    id: "apple-m1-max-32gb",
    name: "Apple M1 Max 32GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 32,
    reported_mib: 21845,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M1 Max 64GB (unified).
pub(super) const APPLE_M1_MAX_64GB: Gpu = Gpu {
    id: "apple-m1-max-64gb",
    name: "Apple M1 Max 64GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 64,
    reported_mib: 49152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M1 Ultra 64GB (unified).
pub(super) const APPLE_M1_ULTRA_64GB: Gpu = Gpu {
    id: "apple-m1-ultra-64gb",
    name: "Apple M1 Ultra 64GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 64,
    reported_mib: 49152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 800,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M1 Ultra 128GB (unified).
pub(super) const APPLE_M1_ULTRA_128GB: Gpu = Gpu {
    id: "apple-m1-ultra-128gb",
    name: "Apple M1 Ultra 128GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 128,
    reported_mib: 98304,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 800,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Pro 16GB (unified).
pub(super) const APPLE_M2_PRO_16GB: Gpu = Gpu {
    id: "apple-m2-pro-16gb",
    name: "Apple M2 Pro 16GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 16,
    reported_mib: 10922,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 200,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Pro 32GB (unified).
pub(super) const APPLE_M2_PRO_32GB: Gpu = Gpu {
    id: "apple-m2-pro-32gb",
    name: "Apple M2 Pro 32GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 32,
    reported_mib: 21845,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 200,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Max 32GB (unified).
pub(super) const APPLE_M2_MAX_32GB: Gpu = Gpu {
    id: "apple-m2-max-32gb",
    name: "Apple M2 Max 32GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 32,
    reported_mib: 21845,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Max 64GB (unified).
pub(super) const APPLE_M2_MAX_64GB: Gpu = Gpu {
    id: "apple-m2-max-64gb",
    name: "Apple M2 Max 64GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 64,
    reported_mib: 49152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Max 96GB (unified).
pub(super) const APPLE_M2_MAX_96GB: Gpu = Gpu {
    id: "apple-m2-max-96gb",
    name: "Apple M2 Max 96GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 96,
    reported_mib: 73728,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Ultra 64GB (unified).
pub(super) const APPLE_M2_ULTRA_64GB: Gpu = Gpu {
    id: "apple-m2-ultra-64gb",
    name: "Apple M2 Ultra 64GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 64,
    reported_mib: 49152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 800,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Ultra 128GB (unified).
pub(super) const APPLE_M2_ULTRA_128GB: Gpu = Gpu {
    id: "apple-m2-ultra-128gb",
    name: "Apple M2 Ultra 128GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 128,
    reported_mib: 98304,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 800,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M2 Ultra 192GB (unified).
pub(super) const APPLE_M2_ULTRA_192GB: Gpu = Gpu {
    id: "apple-m2-ultra-192gb",
    name: "Apple M2 Ultra 192GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 192,
    reported_mib: 147456,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 800,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Pro 18GB (unified).
pub(super) const APPLE_M3_PRO_18GB: Gpu = Gpu {
    id: "apple-m3-pro-18gb",
    name: "Apple M3 Pro 18GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 18,
    reported_mib: 12288,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 150,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Pro 36GB (unified).
pub(super) const APPLE_M3_PRO_36GB: Gpu = Gpu {
    id: "apple-m3-pro-36gb",
    name: "Apple M3 Pro 36GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 36,
    reported_mib: 24576,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 150,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Max 36GB (unified).
pub(super) const APPLE_M3_MAX_36GB: Gpu = Gpu {
    id: "apple-m3-max-36gb",
    name: "Apple M3 Max 36GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 36,
    reported_mib: 24576,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 300,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Max 48GB (unified).
pub(super) const APPLE_M3_MAX_48GB: Gpu = Gpu {
    id: "apple-m3-max-48gb",
    name: "Apple M3 Max 48GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 48,
    reported_mib: 36864,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Max 64GB (unified).
pub(super) const APPLE_M3_MAX_64GB: Gpu = Gpu {
    id: "apple-m3-max-64gb",
    name: "Apple M3 Max 64GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 64,
    reported_mib: 49152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Max 96GB (unified).
pub(super) const APPLE_M3_MAX_96GB: Gpu = Gpu {
    id: "apple-m3-max-96gb",
    name: "Apple M3 Max 96GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 96,
    reported_mib: 73728,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 300,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Max 128GB (unified).
pub(super) const APPLE_M3_MAX_128GB: Gpu = Gpu {
    id: "apple-m3-max-128gb",
    name: "Apple M3 Max 128GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 128,
    reported_mib: 98304,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 400,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Ultra 96GB (unified).
pub(super) const APPLE_M3_ULTRA_96GB: Gpu = Gpu {
    id: "apple-m3-ultra-96gb",
    name: "Apple M3 Ultra 96GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 96,
    reported_mib: 73728,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 819,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Ultra 256GB (unified).
pub(super) const APPLE_M3_ULTRA_256GB: Gpu = Gpu {
    id: "apple-m3-ultra-256gb",
    name: "Apple M3 Ultra 256GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 256,
    reported_mib: 196608,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 819,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M3 Ultra 512GB (unified).
pub(super) const APPLE_M3_ULTRA_512GB: Gpu = Gpu {
    id: "apple-m3-ultra-512gb",
    name: "Apple M3 Ultra 512GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 512,
    reported_mib: 393216,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 819,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M4 Pro 24GB (unified).
pub(super) const APPLE_M4_PRO_24GB: Gpu = Gpu {
    id: "apple-m4-pro-24gb",
    name: "Apple M4 Pro 24GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 24,
    reported_mib: 16384,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 273,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M4 Pro 48GB (unified).
pub(super) const APPLE_M4_PRO_48GB: Gpu = Gpu {
    id: "apple-m4-pro-48gb",
    name: "Apple M4 Pro 48GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 48,
    reported_mib: 36864,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 273,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M4 Pro 64GB (unified).
pub(super) const APPLE_M4_PRO_64GB: Gpu = Gpu {
    id: "apple-m4-pro-64gb",
    name: "Apple M4 Pro 64GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 64,
    reported_mib: 49152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 273,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M4 Max 36GB (unified).
pub(super) const APPLE_M4_MAX_36GB: Gpu = Gpu {
    id: "apple-m4-max-36gb",
    name: "Apple M4 Max 36GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 36,
    reported_mib: 24576,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 410,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M4 Max 48GB (unified).
pub(super) const APPLE_M4_MAX_48GB: Gpu = Gpu {
    id: "apple-m4-max-48gb",
    name: "Apple M4 Max 48GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 48,
    reported_mib: 36864,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 546,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M4 Max 64GB (unified).
pub(super) const APPLE_M4_MAX_64GB: Gpu = Gpu {
    id: "apple-m4-max-64gb",
    name: "Apple M4 Max 64GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 64,
    reported_mib: 49152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 546,
    unified: true,
    source: APPLE_RULE,
};

/// Apple M4 Max 128GB (unified).
pub(super) const APPLE_M4_MAX_128GB: Gpu = Gpu {
    id: "apple-m4-max-128gb",
    name: "Apple M4 Max 128GB (unified)",
    vendor: Vendor::Apple,
    segment: Segment::Consumer,
    arch: GpuArch::AppleSilicon,
    marketed_gb: 128,
    reported_mib: 98304,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 546,
    unified: true,
    source: APPLE_RULE,
};

/// Every unified-memory machine: NVIDIA first, then Apple by chip and memory size.
pub static UNIFIED_MEMORY: &[Gpu] = &[
    DGX_SPARK,
    JETSON_AGX_ORIN_64GB,
    MI300A,
    RYZEN_AI_MAX_395_128GB,
    APPLE_M1_PRO_16GB,
    APPLE_M1_PRO_32GB,
    APPLE_M1_MAX_32GB,
    APPLE_M1_MAX_64GB,
    APPLE_M1_ULTRA_64GB,
    APPLE_M1_ULTRA_128GB,
    APPLE_M2_PRO_16GB,
    APPLE_M2_PRO_32GB,
    APPLE_M2_MAX_32GB,
    APPLE_M2_MAX_64GB,
    APPLE_M2_MAX_96GB,
    APPLE_M2_ULTRA_64GB,
    APPLE_M2_ULTRA_128GB,
    APPLE_M2_ULTRA_192GB,
    APPLE_M3_PRO_18GB,
    APPLE_M3_PRO_36GB,
    APPLE_M3_MAX_36GB,
    APPLE_M3_MAX_48GB,
    APPLE_M3_MAX_64GB,
    APPLE_M3_MAX_96GB,
    APPLE_M3_MAX_128GB,
    APPLE_M3_ULTRA_96GB,
    APPLE_M3_ULTRA_256GB,
    APPLE_M3_ULTRA_512GB,
    APPLE_M4_PRO_24GB,
    APPLE_M4_PRO_48GB,
    APPLE_M4_PRO_64GB,
    APPLE_M4_MAX_36GB,
    APPLE_M4_MAX_48GB,
    APPLE_M4_MAX_64GB,
    APPLE_M4_MAX_128GB,
];
