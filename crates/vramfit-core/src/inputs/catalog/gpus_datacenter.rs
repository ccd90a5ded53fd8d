//! Data-centre accelerators added to the GPU catalog: Pascal and Volta Teslas, Ampere A2/A16/A30/A40
//! and A800, Ada L20/L40, Hopper H800/H20, Blackwell GB200 and RTX PRO 6000 Server Edition, AMD
//! Instinct MI100.
//!
//! `reported_mib` follows the rules in `gpus.rs` (`observed:` a quoted public printout; `derived:`
//! the `nvidia-smi` total less a named sibling's driver reservation, or the ROCm rule). Tesla
//! P40/P100 and A-series figures are with ECC on, their default. `interconnect` is per GPU,
//! bidirectional; NVLink on the China-market A800/H800 is limited to 400 GB/s. `bandwidth_gb_s` is
//! the vendor's memory-bandwidth specification. The entries are listed in [`super::GPUS`] in order
//! of reported memory.

use super::{Gpu, GpuArch, Interconnect, Segment, Vendor};

/// NVIDIA Tesla V100-SXM2-16GB.
pub(super) const V100_SXM2_16GB: Gpu = Gpu {
    id: "v100-sxm2-16gb",
    name: "NVIDIA Tesla V100-SXM2-16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Volta,
    marketed_gb: 16,
    reported_mib: 16128,
    interconnect: Interconnect::NvLink(300),
    bandwidth_gb_s: 900,
    unified: false,
    source: source!("observed: deviceQuery 16128 MBytes (16911433728 bytes) (CUDA 11.0; 16144 MBytes on 12.4); PyTorch OOM messages on 16 GB V100s show 15.78 GiB (kchengiva/Shift-GCN#34)"),
};

/// NVIDIA Tesla V100-PCIE-16GB.
pub(super) const V100_PCIE_16GB: Gpu = Gpu {
    id: "v100-pcie-16gb",
    name: "NVIDIA Tesla V100-PCIE-16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Volta,
    marketed_gb: 16,
    reported_mib: 16152,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 900,
    unified: false,
    source: source!("observed: deviceQueryDrv 16152 MBytes (16936927232 bytes) (CUDA 9.0)"),
};

/// NVIDIA Tesla V100-PCIE-32GB.
pub(super) const V100_PCIE_32GB: Gpu = Gpu {
    id: "v100-pcie-32gb",
    name: "NVIDIA Tesla V100-PCIE-32GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Volta,
    marketed_gb: 32,
    reported_mib: 32480,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 900,
    unified: false,
    source: source!("observed: deviceQuery 32480 MBytes (34058272768 bytes) (CUDA 10.1)"),
};

/// NVIDIA Tesla V100-SXM2-32GB.
pub(super) const V100_SXM2_32GB: Gpu = Gpu {
    id: "v100-sxm2-32gb",
    name: "NVIDIA Tesla V100-SXM2-32GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Volta,
    marketed_gb: 32,
    reported_mib: 32510,
    interconnect: Interconnect::NvLink(300),
    bandwidth_gb_s: 900,
    unified: false,
    source: source!("observed: deviceQuery 32510 MBytes (34089730048 bytes) (CUDA 11.4); PyTorch OOM messages on 32 GB V100s show 31.74 GiB (liucongg/ChatGLM-Finetuning#73)"),
};

/// NVIDIA Tesla P100-PCIE-12GB.
pub(super) const P100_PCIE_12GB: Gpu = Gpu {
    id: "p100-pcie-12gb",
    name: "NVIDIA Tesla P100-PCIE-12GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Pascal,
    marketed_gb: 12,
    reported_mib: 12194,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 549,
    unified: false,
    source: source!("observed: deviceQuery 12194 MBytes (12786073600 bytes) (CUDA 8.0)"),
};

/// NVIDIA Tesla P100-PCIE-16GB.
pub(super) const P100_PCIE_16GB: Gpu = Gpu {
    id: "p100-pcie-16gb",
    name: "NVIDIA Tesla P100-PCIE-16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Pascal,
    marketed_gb: 16,
    reported_mib: 16276,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 732,
    unified: false,
    source: source!("observed: deviceQueryDrv 16276 MBytes (17066885120 bytes) (CUDA 8.0); 16281 MBytes on driver 11.4"),
};

/// NVIDIA Tesla P40 24GB.
pub(super) const P40: Gpu = Gpu {
    id: "p40",
    name: "NVIDIA Tesla P40 24GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Pascal,
    marketed_gb: 24,
    reported_mib: 22919,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 346,
    unified: false,
    source: source!("observed: deviceQuery 22919 MBytes (24032378880 bytes) (Linux, CUDA 9.2 and 10.0) with ECC on, the default; with ECC off nvidia-smi shows 24451 MiB (xueyouluo/fsauor2018#7)"),
};

/// NVIDIA A2 16GB.
pub(super) const A2: Gpu = Gpu {
    id: "a2",
    name: "NVIDIA A2 16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Ampere,
    marketed_gb: 16,
    reported_mib: 14977,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 200,
    unified: false,
    source: source!("derived: nvidia-smi 15356 MiB (ECC on, Linux, several printouts) minus the 379 MiB the driver keeps on the RTX 3060 (Ampere GDDR6 sibling: 12288 - 11909)"),
};

/// NVIDIA A16 (one of four GPUs, 16GB).
pub(super) const A16: Gpu = Gpu {
    id: "a16",
    name: "NVIDIA A16 (one of four GPUs, 16GB)",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Ampere,
    marketed_gb: 16,
    reported_mib: 14977,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 200,
    unified: false,
    source: source!("derived: nvidia-smi 15356 MiB per GPU (ECC on, Linux, driver 580) minus the 379 MiB the driver keeps on the RTX 3060 (Ampere GDDR6 sibling: 12288 - 11909); the board carries four such GPUs, each its own device"),
};

/// NVIDIA A30 24GB.
pub(super) const A30: Gpu = Gpu {
    id: "a30",
    name: "NVIDIA A30 24GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Ampere,
    marketed_gb: 24,
    reported_mib: 24064,
    interconnect: Interconnect::NvLink(200),
    bandwidth_gb_s: 933,
    unified: false,
    source: source!("observed: PyTorch OOM message '23.50 GiB total capacity' (LHRLAB/ChatKBQA#2; 23.53 GiB in google/RB-Modulation#5); NVLink only with the two-card bridge"),
};

/// NVIDIA A40 48GB.
pub(super) const A40: Gpu = Gpu {
    id: "a40",
    name: "NVIDIA A40 48GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Ampere,
    marketed_gb: 48,
    reported_mib: 45618,
    interconnect: Interconnect::NvLink(112),
    bandwidth_gb_s: 696,
    unified: false,
    source: source!("observed: Unsloth start-up banner 'NVIDIA A40. Num GPUs = 1. Max memory: 44.549 GB. Platform: Linux.' (ECC on); NVLink only with the two-card bridge"),
};

/// NVIDIA L20 48GB.
pub(super) const L20: Gpu = Gpu {
    id: "l20",
    name: "NVIDIA L20 48GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Ada,
    marketed_gb: 48,
    reported_mib: 45589,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 864,
    unified: false,
    source: source!("observed: vLLM issue #14011 total 44.52 GiB (the L40S's AD102 48 GB GDDR6 board, ECC on; nvidia-smi 46068 MiB)"),
};

/// NVIDIA L40 48GB.
pub(super) const L40: Gpu = Gpu {
    id: "l40",
    name: "NVIDIA L40 48GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Ada,
    marketed_gb: 48,
    reported_mib: 45589,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 864,
    unified: false,
    source: source!("derived: nvidia-smi 46068 MiB (ECC on, Linux) minus the 479 MiB the driver keeps on the L40S (same board and total: 46068 - 45589)"),
};

/// NVIDIA A800-SXM4-80GB.
pub(super) const A800_SXM_80GB: Gpu = Gpu {
    id: "a800-sxm-80gb",
    name: "NVIDIA A800-SXM4-80GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Ampere,
    marketed_gb: 80,
    reported_mib: 81050,
    interconnect: Interconnect::NvLink(400),
    bandwidth_gb_s: 2039,
    unified: false,
    source: source!("derived: nvidia-smi 81920 MiB (Linux, several printouts), the A100-SXM4-80GB total, so taken equal to its observed total; NVLink limited to 400 GB/s"),
};

/// NVIDIA H800 80GB (SXM).
pub(super) const H800: Gpu = Gpu {
    id: "h800",
    name: "NVIDIA H800 80GB (SXM)",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Hopper,
    marketed_gb: 80,
    reported_mib: 81090,
    interconnect: Interconnect::NvLink(400),
    bandwidth_gb_s: 3350,
    unified: false,
    source: source!("derived: nvidia-smi 81559 MiB (700 W SXM board, Linux) minus the 469 MiB the driver keeps on the H100 SXM (same total: 81559 - 81090); NVLink limited to 400 GB/s"),
};

/// NVIDIA H20 96GB.
pub(super) const H20: Gpu = Gpu {
    id: "h20",
    name: "NVIDIA H20 96GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Hopper,
    marketed_gb: 96,
    reported_mib: 97402,
    interconnect: Interconnect::NvLink(900),
    bandwidth_gb_s: 4000,
    unified: false,
    source: source!("derived: nvidia-smi 97871 MiB (Linux, several printouts) minus the 469 MiB the driver keeps on the H100 SXM (HBM3 Hopper sibling: 81559 - 81090)"),
};

/// NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB.
pub(super) const RTX_PRO_6000_SERVER: Gpu = Gpu {
    id: "rtx-pro-6000-blackwell-server",
    name: "NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Blackwell,
    marketed_gb: 96,
    reported_mib: 97397,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 1792,
    unified: false,
    source: source!("derived: nvidia-smi 97887 MiB (600 W passive board, ECC on, driver 580, Linux) minus the 490 MiB the driver keeps on the RTX 5090 (Blackwell GDDR7 sibling: 32607 - 32117)"),
};

/// NVIDIA GB200 (one Blackwell GPU, 186GB).
pub(super) const GB200: Gpu = Gpu {
    id: "gb200",
    name: "NVIDIA GB200 (one Blackwell GPU, 186GB)",
    vendor: Vendor::Nvidia,
    segment: Segment::DataCenter,
    arch: GpuArch::Blackwell,
    marketed_gb: 186,
    reported_mib: 188743,
    interconnect: Interconnect::NvLink(1800),
    bandwidth_gb_s: 8000,
    unified: false,
    source: source!("derived: nvidia-smi 189471 MiB (Linux, driver 580, several printouts) minus the 728 MiB the driver keeps on the B200 (183359 - 182631); 186 GB per GPU as in GB200 NVL72 (13.4 TB for 72 GPUs); the Grace LPDDR5X is not counted"),
};

/// AMD Instinct MI100 32GB.
pub(super) const MI100: Gpu = Gpu {
    id: "mi100",
    name: "AMD Instinct MI100 32GB",
    vendor: Vendor::Amd,
    segment: Segment::DataCenter,
    arch: GpuArch::Cdna,
    marketed_gb: 32,
    reported_mib: 32752,
    interconnect: Interconnect::Xgmi(276),
    bandwidth_gb_s: 1229,
    unified: false,
    source: source!("derived: 32 x 1024 - 16 MiB, the ROCm rule observed on one MI250X GCD and the MI300X (CDNA, HBM2); Infinity Fabric via bridge, 3 links x 92 GB/s"),
};
