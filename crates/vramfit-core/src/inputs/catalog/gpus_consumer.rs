//! Consumer and workstation cards added to the GPU catalog: GeForce RTX 20/30/40/50, RTX A-series,
//! Ada and Blackwell workstation cards, Radeon RX 7000/9000 and Radeon PRO, Intel Arc.
//!
//! `reported_mib` follows the rules in `gpus.rs`: an `observed:` source quotes a public printout of
//! the total the framework sees (CUDA `deviceQuery` "Total amount of global memory" in MiB,
//! `torch.cuda.get_device_properties().total_memory`, a PyTorch out-of-memory message, or
//! `torch.xpu.get_device_properties()` on Intel); a `derived:` source names the `nvidia-smi` total
//! and the sibling whose driver reservation was subtracted, or the ROCm rule. Where several
//! printouts disagree the smallest non-WDDM one is used (Windows WDDM drivers report the whole frame
//! buffer, as `nvidia-smi` does). Capacities are the vendors' (also listed in Hugging Face's
//! hardware table, `huggingface.js` `packages/tasks/src/hardware-*.ts`); `bandwidth_gb_s` is the
//! vendor's memory-bandwidth specification. The entries are listed in [`super::GPUS`] in order of
//! reported memory.

use super::{Gpu, GpuArch, Interconnect, Segment, Vendor};

/// NVIDIA GeForce RTX 2060 6GB.
pub(super) const RTX_2060: Gpu = Gpu {
    id: "rtx-2060",
    name: "NVIDIA GeForce RTX 2060 6GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Turing,
    marketed_gb: 6,
    reported_mib: 5905,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 336,
    unified: false,
    source: source!("observed: deviceQuery 'Total amount of global memory: 5905 MBytes (6191382528 bytes)' (CUDA 10.1); a laptop RTX 2060 under Ubuntu shows 5935 MBytes"),
};

/// NVIDIA GeForce RTX 2060 SUPER 8GB.
pub(super) const RTX_2060_SUPER: Gpu = Gpu {
    id: "rtx-2060-super",
    name: "NVIDIA GeForce RTX 2060 SUPER 8GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Turing,
    marketed_gb: 8,
    reported_mib: 7979,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("observed: deviceQuery 7979 MBytes (8366784512 bytes) (CUDA 10.2)"),
};

/// NVIDIA GeForce RTX 2070 8GB.
pub(super) const RTX_2070: Gpu = Gpu {
    id: "rtx-2070",
    name: "NVIDIA GeForce RTX 2070 8GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Turing,
    marketed_gb: 8,
    reported_mib: 7982,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("observed: deviceQuery 7982 MBytes (8370061312 bytes) (CUDA 10.1; platform not stated, below the 8192 MiB a WDDM driver reports)"),
};

/// NVIDIA GeForce RTX 2080 8GB.
pub(super) const RTX_2080: Gpu = Gpu {
    id: "rtx-2080",
    name: "NVIDIA GeForce RTX 2080 8GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Turing,
    marketed_gb: 8,
    reported_mib: 7949,
    interconnect: Interconnect::NvLink(50),
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("observed: deviceQuery 7949 MBytes (8335327232 bytes) (Linux, CUDA 10.0); NVLink only with the two-card bridge"),
};

/// NVIDIA GeForce RTX 2080 Ti 11GB.
pub(super) const RTX_2080_TI: Gpu = Gpu {
    id: "rtx-2080-ti",
    name: "NVIDIA GeForce RTX 2080 Ti 11GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Turing,
    marketed_gb: 11,
    reported_mib: 10986,
    interconnect: Interconnect::NvLink(100),
    bandwidth_gb_s: 616,
    unified: false,
    source: source!("observed: deviceQuery 10986 MBytes (11519983616 bytes) (Linux, CUDA 10.1; 10989 MBytes in other Linux printouts); NVLink only with the two-card bridge"),
};

/// NVIDIA GeForce RTX 3050 6GB.
pub(super) const RTX_3050_6GB: Gpu = Gpu {
    id: "rtx-3050-6gb",
    name: "NVIDIA GeForce RTX 3050 6GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ampere,
    marketed_gb: 6,
    reported_mib: 5803,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 168,
    unified: false,
    source: source!("observed: deviceQuery 5803 MBytes (6085214208 bytes), 18 SMs (the 6 GB model), Linux, driver 13.2"),
};

/// NVIDIA GeForce RTX 3060 Ti 8GB.
pub(super) const RTX_3060_TI: Gpu = Gpu {
    id: "rtx-3060-ti",
    name: "NVIDIA GeForce RTX 3060 Ti 8GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ampere,
    marketed_gb: 8,
    reported_mib: 7972,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("observed: deviceQuery 7972 MBytes (8359641088 bytes) (Linux, CUDA 12.2); WSL shows 8192 MBytes"),
};

/// NVIDIA GeForce RTX 3070 8GB.
pub(super) const RTX_3070: Gpu = Gpu {
    id: "rtx-3070",
    name: "NVIDIA GeForce RTX 3070 8GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ampere,
    marketed_gb: 8,
    reported_mib: 7817,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("observed: deviceQuery 7817 MBytes (8197111808 bytes) (CUDA 12.8); 7949-7974 MBytes on CUDA 11.x Linux drivers, 8192 under WSL; PyTorch OOM messages show 7.78 GiB (meta-llama/codellama#82)"),
};

/// NVIDIA GeForce RTX 3070 Ti 8GB.
pub(super) const RTX_3070_TI: Gpu = Gpu {
    id: "rtx-3070-ti",
    name: "NVIDIA GeForce RTX 3070 Ti 8GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ampere,
    marketed_gb: 8,
    reported_mib: 7762,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 608,
    unified: false,
    source: source!("derived: nvidia-smi 8192 MiB (Linux, several printouts) minus the 430 MiB the driver keeps on the RTX 3090 (Ampere GDDR6X sibling: 24576 - 24146)"),
};

/// NVIDIA GeForce RTX 3080 10GB.
pub(super) const RTX_3080_10GB: Gpu = Gpu {
    id: "rtx-3080-10gb",
    name: "NVIDIA GeForce RTX 3080 10GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ampere,
    marketed_gb: 10,
    reported_mib: 9987,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 760,
    unified: false,
    source: source!("observed: deviceQuery 9987 MBytes (10472390656 bytes) (Linux, CUDA 12.0); PyTorch '9.78 GiB total capacity' (zai-org/CogVideo#34, Linux); Windows shows 10240 MBytes"),
};

/// NVIDIA GeForce RTX 3080 Ti 12GB.
pub(super) const RTX_3080_TI: Gpu = Gpu {
    id: "rtx-3080-ti",
    name: "NVIDIA GeForce RTX 3080 Ti 12GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ampere,
    marketed_gb: 12,
    reported_mib: 12045,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 912,
    unified: false,
    source: source!("observed: deviceQuery 12045 MBytes (12630491136 bytes) (CUDA 11.4); Windows shows 12288 MBytes"),
};

/// NVIDIA GeForce RTX 3090 Ti 24GB.
pub(super) const RTX_3090_TI: Gpu = Gpu {
    id: "rtx-3090-ti",
    name: "NVIDIA GeForce RTX 3090 Ti 24GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ampere,
    marketed_gb: 24,
    reported_mib: 24134,
    interconnect: Interconnect::NvLink(112),
    bandwidth_gb_s: 1008,
    unified: false,
    source: source!("derived: nvidia-smi 24564 MiB (Linux, several printouts) minus the 430 MiB the driver keeps on the RTX 3090 (Ampere GDDR6X sibling: 24576 - 24146); NVLink only with the two-card bridge"),
};

/// NVIDIA GeForce RTX 4060 Ti 16GB.
pub(super) const RTX_4060_TI_16GB: Gpu = Gpu {
    id: "rtx-4060-ti-16gb",
    name: "NVIDIA GeForce RTX 4060 Ti 16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ada,
    marketed_gb: 16,
    reported_mib: 15948,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 288,
    unified: false,
    source: source!("observed: deviceQuery 15948 MBytes (16722821120 bytes) (Linux, CUDA 13.1); 16380 MBytes, the nvidia-smi total, in WDDM printouts"),
};

/// NVIDIA GeForce RTX 4070 12GB.
pub(super) const RTX_4070: Gpu = Gpu {
    id: "rtx-4070",
    name: "NVIDIA GeForce RTX 4070 12GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ada,
    marketed_gb: 12,
    reported_mib: 11840,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 504,
    unified: false,
    source: source!("derived: nvidia-smi 12282 MiB (Linux, driver 530: meta-llama/llama#466, and other printouts) minus the 442 MiB the driver keeps on the RTX 4070 Ti SUPER (Ada GDDR6X sibling: 16376 - 15934)"),
};

/// NVIDIA GeForce RTX 4070 SUPER 12GB.
pub(super) const RTX_4070_SUPER: Gpu = Gpu {
    id: "rtx-4070-super",
    name: "NVIDIA GeForce RTX 4070 SUPER 12GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ada,
    marketed_gb: 12,
    reported_mib: 11840,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 504,
    unified: false,
    source: source!("derived: nvidia-smi 12282 MiB (Linux printouts of the 220 W 'RTX 4070 ...' board) minus the 442 MiB the driver keeps on the RTX 4070 Ti SUPER (Ada GDDR6X sibling: 16376 - 15934)"),
};

/// NVIDIA GeForce RTX 4070 Ti 12GB.
pub(super) const RTX_4070_TI: Gpu = Gpu {
    id: "rtx-4070-ti",
    name: "NVIDIA GeForce RTX 4070 Ti 12GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ada,
    marketed_gb: 12,
    reported_mib: 11840,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 504,
    unified: false,
    source: source!("derived: nvidia-smi 12282 MiB (Linux and WDDM printouts) minus the 442 MiB the driver keeps on the RTX 4070 Ti SUPER (Ada GDDR6X sibling: 16376 - 15934)"),
};

/// NVIDIA GeForce RTX 4080 16GB.
pub(super) const RTX_4080: Gpu = Gpu {
    id: "rtx-4080",
    name: "NVIDIA GeForce RTX 4080 16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Ada,
    marketed_gb: 16,
    reported_mib: 16049,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 717,
    unified: false,
    source: source!("observed: torch.cuda.get_device_properties name='NVIDIA GeForce RTX 4080' total_memory=16049MB (platform not stated; not the WDDM figure); nvidia-smi 16376 MiB (Linux)"),
};

/// NVIDIA GeForce RTX 5060 8GB.
pub(super) const RTX_5060: Gpu = Gpu {
    id: "rtx-5060",
    name: "NVIDIA GeForce RTX 5060 8GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Blackwell,
    marketed_gb: 8,
    reported_mib: 7661,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("derived: 8151 MiB, the whole frame buffer a Windows deviceQuery reports (8546484224 bytes; WDDM reports what nvidia-smi does, and RTX 5060/5070 laptop boards show nvidia-smi 8151 MiB on Linux) minus the 490 MiB the driver keeps on the RTX 5090 (Blackwell GDDR7 sibling: 32607 - 32117)"),
};

/// NVIDIA GeForce RTX 5060 Ti 16GB.
pub(super) const RTX_5060_TI_16GB: Gpu = Gpu {
    id: "rtx-5060-ti-16gb",
    name: "NVIDIA GeForce RTX 5060 Ti 16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Blackwell,
    marketed_gb: 16,
    reported_mib: 15821,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("derived: nvidia-smi 16311 MiB (Linux, driver 580) minus the 490 MiB the driver keeps on the RTX 5090 (Blackwell GDDR7 sibling: 32607 - 32117)"),
};

/// NVIDIA GeForce RTX 5070 12GB.
pub(super) const RTX_5070: Gpu = Gpu {
    id: "rtx-5070",
    name: "NVIDIA GeForce RTX 5070 12GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Blackwell,
    marketed_gb: 12,
    reported_mib: 11737,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 672,
    unified: false,
    source: source!("derived: nvidia-smi 12227 MiB (Linux, several printouts) minus the 490 MiB the driver keeps on the RTX 5090 (Blackwell GDDR7 sibling: 32607 - 32117)"),
};

/// NVIDIA GeForce RTX 5070 Ti 16GB.
pub(super) const RTX_5070_TI: Gpu = Gpu {
    id: "rtx-5070-ti",
    name: "NVIDIA GeForce RTX 5070 Ti 16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Consumer,
    arch: GpuArch::Blackwell,
    marketed_gb: 16,
    reported_mib: 15813,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 896,
    unified: false,
    source: source!("derived: nvidia-smi 16303 MiB (Linux; the RTX 5080 total) minus the 490 MiB the driver keeps on the RTX 5090 (Blackwell GDDR7 sibling: 32607 - 32117)"),
};

/// NVIDIA RTX A2000 12GB.
pub(super) const RTX_A2000_12GB: Gpu = Gpu {
    id: "rtx-a2000-12gb",
    name: "NVIDIA RTX A2000 12GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Workstation,
    arch: GpuArch::Ampere,
    marketed_gb: 12,
    reported_mib: 11832,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 288,
    unified: false,
    source: source!("derived: nvidia-smi 12282 MiB (ECC off, Linux) minus the 450 MiB the driver keeps on the RTX A5000 (Ampere workstation GDDR6 sibling: 24564 - 24114)"),
};

/// NVIDIA RTX A4000 16GB.
pub(super) const RTX_A4000: Gpu = Gpu {
    id: "rtx-a4000",
    name: "NVIDIA RTX A4000 16GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Workstation,
    arch: GpuArch::Ampere,
    marketed_gb: 16,
    reported_mib: 15926,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 448,
    unified: false,
    source: source!("derived: nvidia-smi 16376 MiB (ECC off, Linux) minus the 450 MiB the driver keeps on the RTX A5000 (Ampere workstation GDDR6 sibling: 24564 - 24114)"),
};

/// NVIDIA RTX 4000 Ada Generation 20GB.
pub(super) const RTX_4000_ADA: Gpu = Gpu {
    id: "rtx-4000-ada",
    name: "NVIDIA RTX 4000 Ada Generation 20GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Workstation,
    arch: GpuArch::Ada,
    marketed_gb: 20,
    reported_mib: 20475,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 360,
    unified: false,
    source: source!("observed: Unsloth start-up banner 'NVIDIA RTX 4000 Ada Generation. Num GPUs = 1. Max memory: 19.995 GB. Platform: Linux.' (torch total_memory / 2^30)"),
};

/// NVIDIA RTX PRO 6000 Blackwell Max-Q 96GB.
pub(super) const RTX_PRO_6000_MAX_Q: Gpu = Gpu {
    id: "rtx-pro-6000-blackwell-max-q",
    name: "NVIDIA RTX PRO 6000 Blackwell Max-Q 96GB",
    vendor: Vendor::Nvidia,
    segment: Segment::Workstation,
    arch: GpuArch::Blackwell,
    marketed_gb: 96,
    reported_mib: 97397,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 1792,
    unified: false,
    source: source!("derived: nvidia-smi 97887 MiB (300 W board, Linux) minus the 490 MiB the driver keeps on the RTX 5090 (Blackwell GDDR7 sibling: 32607 - 32117)"),
};

/// AMD Radeon RX 7600 8GB.
pub(super) const RX_7600: Gpu = Gpu {
    id: "rx-7600",
    name: "AMD Radeon RX 7600 8GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 8,
    reported_mib: 8176,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 288,
    unified: false,
    source: source!("derived: 8 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon RX 7600 XT 16GB.
pub(super) const RX_7600_XT: Gpu = Gpu {
    id: "rx-7600-xt",
    name: "AMD Radeon RX 7600 XT 16GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 16,
    reported_mib: 16368,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 288,
    unified: false,
    source: source!("derived: 16 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon RX 7700 XT 12GB.
pub(super) const RX_7700_XT: Gpu = Gpu {
    id: "rx-7700-xt",
    name: "AMD Radeon RX 7700 XT 12GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 12,
    reported_mib: 12272,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 432,
    unified: false,
    source: source!("derived: 12 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon RX 7800 XT 16GB.
pub(super) const RX_7800_XT: Gpu = Gpu {
    id: "rx-7800-xt",
    name: "AMD Radeon RX 7800 XT 16GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 16,
    reported_mib: 16368,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 624,
    unified: false,
    source: source!("derived: 16 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon RX 7900 GRE 16GB.
pub(super) const RX_7900_GRE: Gpu = Gpu {
    id: "rx-7900-gre",
    name: "AMD Radeon RX 7900 GRE 16GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 16,
    reported_mib: 16368,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 576,
    unified: false,
    source: source!("derived: 16 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon RX 7900 XT 20GB.
pub(super) const RX_7900_XT: Gpu = Gpu {
    id: "rx-7900-xt",
    name: "AMD Radeon RX 7900 XT 20GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 20,
    reported_mib: 20464,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 800,
    unified: false,
    source: source!("derived: 20 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon RX 9060 XT 8GB.
pub(super) const RX_9060_XT_8GB: Gpu = Gpu {
    id: "rx-9060-xt-8gb",
    name: "AMD Radeon RX 9060 XT 8GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 8,
    reported_mib: 8176,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 320,
    unified: false,
    source: source!("derived: 8 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16); RDNA4, the rule is taken over from RDNA3"),
};

/// AMD Radeon RX 9060 XT 16GB.
pub(super) const RX_9060_XT_16GB: Gpu = Gpu {
    id: "rx-9060-xt-16gb",
    name: "AMD Radeon RX 9060 XT 16GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 16,
    reported_mib: 16368,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 320,
    unified: false,
    source: source!("derived: 16 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16); RDNA4, the rule is taken over from RDNA3"),
};

/// AMD Radeon RX 9070 16GB.
pub(super) const RX_9070: Gpu = Gpu {
    id: "rx-9070",
    name: "AMD Radeon RX 9070 16GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 16,
    reported_mib: 16368,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 640,
    unified: false,
    source: source!("derived: 16 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16); RDNA4, the rule is taken over from RDNA3"),
};

/// AMD Radeon RX 9070 XT 16GB.
pub(super) const RX_9070_XT: Gpu = Gpu {
    id: "rx-9070-xt",
    name: "AMD Radeon RX 9070 XT 16GB",
    vendor: Vendor::Amd,
    segment: Segment::Consumer,
    arch: GpuArch::Rdna,
    marketed_gb: 16,
    reported_mib: 16368,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 640,
    unified: false,
    source: source!("derived: 16 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16); RDNA4, the rule is taken over from RDNA3"),
};

/// AMD Radeon PRO W7800 32GB.
pub(super) const RADEON_PRO_W7800: Gpu = Gpu {
    id: "radeon-pro-w7800",
    name: "AMD Radeon PRO W7800 32GB",
    vendor: Vendor::Amd,
    segment: Segment::Workstation,
    arch: GpuArch::Rdna,
    marketed_gb: 32,
    reported_mib: 32752,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 576,
    unified: false,
    source: source!("derived: 32 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon PRO W7800 48GB.
pub(super) const RADEON_PRO_W7800_48GB: Gpu = Gpu {
    id: "radeon-pro-w7800-48gb",
    name: "AMD Radeon PRO W7800 48GB",
    vendor: Vendor::Amd,
    segment: Segment::Workstation,
    arch: GpuArch::Rdna,
    marketed_gb: 48,
    reported_mib: 49136,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 864,
    unified: false,
    source: source!("derived: 48 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16)"),
};

/// AMD Radeon AI PRO R9700 32GB.
pub(super) const RADEON_AI_PRO_R9700: Gpu = Gpu {
    id: "radeon-ai-pro-r9700",
    name: "AMD Radeon AI PRO R9700 32GB",
    vendor: Vendor::Amd,
    segment: Segment::Workstation,
    arch: GpuArch::Rdna,
    marketed_gb: 32,
    reported_mib: 32752,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 640,
    unified: false,
    source: source!("derived: 32 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX (24560 = 24 x 1024 - 16); RDNA4, the rule is taken over from RDNA3"),
};

/// Intel Arc A770 16GB.
pub(super) const ARC_A770_16GB: Gpu = Gpu {
    id: "arc-a770-16gb",
    name: "Intel Arc A770 16GB",
    vendor: Vendor::Intel,
    segment: Segment::Consumer,
    arch: GpuArch::Xe,
    marketed_gb: 16,
    reported_mib: 15473,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 560,
    unified: false,
    source: source!("observed: torch.xpu.get_device_properties name='Intel(R) Arc(TM) A770 Graphics' total_memory=15473MB (Level Zero; the same in printouts from drivers 1.3.27642 to 1.6.32567)"),
};

/// Intel Arc Pro B60 24GB.
pub(super) const ARC_PRO_B60: Gpu = Gpu {
    id: "arc-pro-b60",
    name: "Intel Arc Pro B60 24GB",
    vendor: Vendor::Intel,
    segment: Segment::Workstation,
    arch: GpuArch::Xe,
    marketed_gb: 24,
    reported_mib: 23256,
    interconnect: Interconnect::PcieOnly,
    bandwidth_gb_s: 456,
    unified: false,
    source: source!("observed: torch.xpu.get_device_properties name='Intel(R) Arc(TM) Pro B60 Graphics' total_memory=23256MB (Ubuntu 24.04, Level Zero driver 1.13.36015)"),
};
