//! GPU catalog: what each card's driver really reports, sorted by reported memory. This file
//! holds the rules and the first entries; `gpus_consumer.rs`, `gpus_datacenter.rs` and
//! `gpus_unified.rs` hold the later ones under the same rules.
//!
//! # What `reported_mib` is
//!
//! `reported_mib` is the **total** device memory the driver hands to the framework, in MiB
//! (2^20 bytes): `torch.cuda.mem_get_info()[1]` (CUDA `cudaMemGetInfo` / ROCm `hipMemGetInfo`).
//! The same number appears as `torch.cuda.get_device_properties(i).total_memory`
//! (`cudaDeviceProp::totalGlobalMem`), as vLLM's `total_gpu_memory`, as "GPU 0 has a total
//! capacity of X GiB" in PyTorch's out-of-memory message, and as "Total amount of global memory"
//! in CUDA's `deviceQuery`. vLLM's budget is `reported × gpu_memory_utilization`, so fit checks are
//! judged against this figure and never against the marketing capacity (`marketed_gb`).
//!
//! It is **not** `nvidia-smi --query-gpu=memory.total`. On Linux, `nvidia-smi` counts the whole
//! frame buffer, including what the driver keeps for itself (`nvidia-smi -q -d MEMORY`,
//! "Reserved"); the CUDA total leaves that out. Pairs seen on the same card model:
//!
//! | card | `nvidia-smi` total | CUDA / torch total | driver keeps |
//! |---|---:|---:|---:|
//! | RTX 3060 12GB | 12288 | 11909 | 379 |
//! | RTX 4070 Ti SUPER | 16376 | 15934 | 442 |
//! | RTX 4090 | 24564 | 24115 | 449 |
//! | RTX A6000 | 49140 | 48676 | 464 |
//! | RTX 5090 | 32607 | 32117 | 490 |
//! | L40S / L20 (48 GB GDDR6, ECC on) | 46068 | 45589 | 479 |
//! | H100 80GB HBM3 (SXM) | 81559 | 81090 | 469 |
//! | H100 PCIe | 81559 | 81008 | 551 |
//! | H200 | 143771 | 143156 | 615 |
//! | B200 | 183359 | 182631 | 728 |
//!
//! The reservation is roughly constant within a family (it does not grow with capacity: 442 MiB
//! on a 16 GB Ada card, 449 MiB on a 24 GB one), so derivations below subtract it rather than
//! scale by a ratio. Windows / WSL (WDDM) report differently (an RTX 4090 shows 24563 MiB to torch
//! there); the catalog uses Linux figures, where vLLM, SGLang and most training run. Totals also
//! move by up to ~0.2 GiB between driver versions (a T4 has been seen at 14.56–14.75 GiB, an A10G
//! at 22.06–22.30 GiB); where the calibration file in the repository
//! (`tests/calibration/gpu_reported_memory.json`, each value with its public source) has a value it is used, otherwise the smallest
//! Linux observation, which is the conservative side for a fit check.
//!
//! # Observed entries
//!
//! Entries whose `source` starts with `observed:` carry a total seen in a public log: the
//! calibration file (vLLM start-up logs: H100 SXM 79.19 GiB, A100-SXM4-80GB 79.15 GiB,
//! A100 40GB 39.39 GiB, RTX 3090 23.58 GiB, RTX 4090 23.55 GiB, A10G 22.30 GiB, T4 14.56 GiB,
//! RTX 4060 8.00 GiB), or a `torch.cuda.get_device_properties()` / `deviceQuery` / vLLM / Unsloth
//! banner / PyTorch out-of-memory printout quoted in the entry (RTX 3060, RTX 4070 Ti SUPER,
//! RTX 5090, RTX A5000, RTX A6000, RTX 6000 Ada, L40S, H100 PCIe, H200, B200, MI250X, MI300X,
//! RX 7900 XTX; and, in `gpus_consumer.rs` / `gpus_datacenter.rs`, RTX 2060 / 2060 SUPER / 2070 /
//! 2080 / 2080 Ti, RTX 3050 6GB / 3060 Ti / 3070 / 3080 10GB / 3080 Ti, RTX 4060 Ti 16GB / 4080,
//! RTX 4000 Ada, Tesla P40 / P100 / V100 (four), A30, A40, L20, Intel Arc A770 16GB and Arc Pro
//! B60 via `torch.xpu`). GiB figures are converted as `round(GiB × 1024)`; `deviceQuery`'s
//! "MBytes" are MiB. Where printouts disagree, the smallest one that is not a Windows WDDM figure
//! is used (WDDM reports the whole frame buffer, like `nvidia-smi`).
//!
//! For the H200 the calibration file only has the `nvidia-smi` total (143771 MiB); the entry uses
//! the CUDA total seen in a `get_device_properties()` printout (143156 MiB) because, as the table
//! shows, the two differ by the driver reservation.
//!
//! # Derived entries
//!
//! Entries whose `source` starts with `derived:` follow one of two rules, named in the entry:
//!
//! - **NVIDIA, `nvidia-smi` total known:** `reported = nvidia-smi memory.total − R`, where `R` is
//!   the reservation measured on an observed sibling of the same generation and memory type (the
//!   table above). Where the sibling is the same board with the same `nvidia-smi` total (A10 / A10G,
//!   A100 80GB PCIe / SXM4, RTX 4080 SUPER / 4070 Ti SUPER, A800 / A100 SXM4, H800 / H100 SXM,
//!   L40 / L40S) this gives the sibling's value. The reservations used: Ampere GDDR6 379 MiB
//!   (RTX 3060; A2, A16), Ampere GDDR6X 430 (RTX 3090: 24576 − 24146; RTX 3070 Ti, 3090 Ti),
//!   Ampere workstation 450 (RTX A5000: 24564 − 24114; RTX A2000, A4000), Ada GDDR6X 442
//!   (RTX 4070 Ti SUPER; RTX 4070 / 4070 SUPER / 4070 Ti), Ada with ECC 479 (L40S), Hopper HBM3
//!   469 (H100 SXM; GH200 96GB, H20), Hopper HBM3e 615 (H200), Blackwell GDDR7 490 (RTX 5090;
//!   RTX 5060 / 5060 Ti / 5070 / 5070 Ti / 5080, RTX PRO 6000), Blackwell HBM3e 728 (B200; B300,
//!   GB200).
//! - **AMD (ROCm):** the runtime reports the installed VRAM less 16 MiB — MI300X 196592 = 192 × 1024
//!   − 16, MI250X GCD 65520 = 64 × 1024 − 16, RX 7900 XTX 24560 = 24 × 1024 − 16 (all observed) — so
//!   the other AMD parts use `marketed GiB × 1024 − 16` (RDNA4 cards included, which have no
//!   observation of their own yet).
//!
//! # Choices
//!
//! - **B200:** `marketed_gb` is 180, the HBM3e capacity per GPU as shipped in DGX B200
//!   (1,440 GB for eight). NVIDIA first announced B200 as "192 GB"; that is the same frame buffer
//!   in decimal units (`nvidia-smi` shows 183359 MiB = 192.3 × 10^9 bytes). `reported_mib` is the
//!   observed CUDA total either way.
//! - **MI250X:** PyTorch sees each of the two graphics compute dies (GCDs) as a separate 64 GB
//!   device, so the catalog models one GCD (`mi250x-gcd`); a "one MI250X" plan is two of them.
//! - **B300:** "288 GB" is decimal (`nvidia-smi` 275040 MiB = 288.4 × 10^9 bytes, 268.6 GiB).
//! - **A16, GB200:** a board or superchip with several GPUs is modelled per GPU, like the MI250X
//!   GCD: `a16` is one of the A16's four 16 GB GPUs, `gb200` one Blackwell GPU of a GB200 (186 GB
//!   in GB200 NVL72, the Grace memory not counted).
//!
//! `interconnect` is per GPU, bidirectional. Parts that only reach NVLink through an optional
//! two-card bridge (RTX 2080 / 2080 Ti / 3090 / 3090 Ti, RTX A5000/A6000, A30, A40, A100/H100 PCIe,
//! H100 NVL) are given the bridge figure; a plan wider than the bridged pair still crosses PCIe. `bandwidth_gb_s` is the vendor's
//! memory-bandwidth specification.

use super::{gpus_consumer, gpus_datacenter, Gpu, GpuArch, Interconnect, Segment, Vendor};

/// Every discrete GPU in the catalog, sorted by `reported_mib` ascending (ties keep a stable order:
/// the earlier entry first). The entries added later are defined in `gpus_consumer.rs` and
/// `gpus_datacenter.rs` and listed here in their place.
///
/// Covers consumer, workstation and data-centre cards from NVIDIA, AMD and Intel, 6 GB to 288 GB.
/// Unified-memory machines are in [`super::UNIFIED_MEMORY`].
pub static GPUS: &[Gpu] = &[
    gpus_consumer::RTX_3050_6GB,
    gpus_consumer::RTX_2060,
    gpus_consumer::RTX_5060,
    gpus_consumer::RTX_3070_TI,
    gpus_consumer::RTX_3070,
    gpus_consumer::RTX_2080,
    gpus_consumer::RTX_3060_TI,
    gpus_consumer::RTX_2060_SUPER,
    gpus_consumer::RTX_2070,
    gpus_consumer::RX_7600,
    gpus_consumer::RX_9060_XT_8GB,
    Gpu {
        id: "rtx-4060",
        name: "NVIDIA GeForce RTX 4060 8GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Ada,
        marketed_gb: 8,
        reported_mib: 8188,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 272,
        unified: false,
        source: source!(
            "observed: vLLM issue #13882 total 8.00 GiB (calibration file); equals the \
                 nvidia-smi total 8188 MiB, so it may be a WDDM/WSL figure; a Linux driver \
                 likely reports ~400 MiB less"
        ),
    },
    gpus_consumer::RTX_3080_10GB,
    gpus_consumer::RTX_2080_TI,
    gpus_consumer::RTX_5070,
    gpus_consumer::RTX_A2000_12GB,
    gpus_consumer::RTX_4070,
    gpus_consumer::RTX_4070_SUPER,
    gpus_consumer::RTX_4070_TI,
    Gpu {
        id: "rtx-3060",
        name: "NVIDIA GeForce RTX 3060 12GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Ampere,
        marketed_gb: 12,
        reported_mib: 11909,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 360,
        unified: false,
        source: source!(
            "observed: vLLM issue #27934 (driver 580, Linux) 'Free memory on device \
                 (6.44/11.63 GiB)'; torch total_memory printouts 11931-12044 MiB on older \
                 drivers; nvidia-smi 12288 MiB"
        ),
    },
    gpus_consumer::RTX_3080_TI,
    gpus_datacenter::P100_PCIE_12GB,
    gpus_consumer::RX_7700_XT,
    Gpu {
        id: "t4",
        name: "NVIDIA Tesla T4 16GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Turing,
        marketed_gb: 16,
        reported_mib: 14909,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 320,
        unified: false,
        source: source!(
            "observed: vLLM logs in public notebooks, total 14.56 GiB (calibration file); \
                 other drivers show 14.74 GiB (torch total_memory 15095-15109 MiB); nvidia-smi \
                 15360 MiB"
        ),
    },
    gpus_datacenter::A2,
    gpus_datacenter::A16,
    gpus_consumer::ARC_A770_16GB,
    Gpu {
        id: "rtx-5080",
        name: "NVIDIA GeForce RTX 5080 16GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Blackwell,
        marketed_gb: 16,
        reported_mib: 15813,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 960,
        unified: false,
        source: source!(
            "derived: nvidia-smi 16303 MiB (Linux driver 610) minus the 490 MiB the driver \
                 keeps on the RTX 5090 (GDDR7 sibling: 32607 nvidia-smi - 32117 CUDA total)"
        ),
    },
    gpus_consumer::RTX_5070_TI,
    gpus_consumer::RTX_5060_TI_16GB,
    gpus_consumer::RTX_A4000,
    Gpu {
        id: "rtx-4070-ti-super",
        name: "NVIDIA GeForce RTX 4070 Ti SUPER 16GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Ada,
        marketed_gb: 16,
        reported_mib: 15934,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 672,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties total_memory=15934MB (another \
                 printout 15974MB); nvidia-smi 16376 MiB"
        ),
    },
    Gpu {
        id: "rtx-4080-super",
        name: "NVIDIA GeForce RTX 4080 SUPER 16GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Ada,
        marketed_gb: 16,
        reported_mib: 15934,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 736,
        unified: false,
        source: source!(
            "derived: nvidia-smi 16376 MiB minus the 442 MiB the driver keeps on the RTX \
                 4070 Ti SUPER (same AD103, 16 GB GDDR6X, same nvidia-smi total)"
        ),
    },
    gpus_consumer::RTX_4060_TI_16GB,
    gpus_consumer::RTX_4080,
    gpus_datacenter::V100_SXM2_16GB,
    gpus_datacenter::V100_PCIE_16GB,
    gpus_datacenter::P100_PCIE_16GB,
    gpus_consumer::RX_7600_XT,
    gpus_consumer::RX_7800_XT,
    gpus_consumer::RX_7900_GRE,
    gpus_consumer::RX_9060_XT_16GB,
    gpus_consumer::RX_9070,
    gpus_consumer::RX_9070_XT,
    gpus_consumer::RX_7900_XT,
    gpus_consumer::RTX_4000_ADA,
    Gpu {
        id: "l4",
        name: "NVIDIA L4 24GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Ada,
        marketed_gb: 24,
        reported_mib: 22555,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 300,
        unified: false,
        source: source!(
            "derived: nvidia-smi 23034 MiB (ECC on; Modal table, GCP g2) minus the 479 MiB \
                 the driver keeps on the L40S/L20 (Ada GDDR6 with ECC: 46068 - 45589)"
        ),
    },
    Gpu {
        id: "a10g",
        name: "NVIDIA A10G 24GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Ampere,
        marketed_gb: 24,
        reported_mib: 22835,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 600,
        unified: false,
        source: source!(
            "observed: AWS G5 guide, total 22.30 GiB (calibration file); a recent \
                 cu130 printout shows total_memory=22587MB"
        ),
    },
    Gpu {
        id: "a10",
        name: "NVIDIA A10 24GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Ampere,
        marketed_gb: 24,
        reported_mib: 22835,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 600,
        unified: false,
        source: source!(
            "derived: same GA102 24 GB GDDR6 board with ECC as the A10G (nvidia-smi \
                 23028 MiB, Modal table), so taken equal to the A10G's observed total"
        ),
    },
    gpus_datacenter::P40,
    gpus_consumer::ARC_PRO_B60,
    gpus_datacenter::A30,
    Gpu {
        id: "rtx-a5000",
        name: "NVIDIA RTX A5000 24GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Workstation,
        arch: GpuArch::Ampere,
        marketed_gb: 24,
        reported_mib: 24114,
        interconnect: Interconnect::NvLink(112),
        bandwidth_gb_s: 768,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties total_memory=24114MB (another \
                 printout 24138MB); nvidia-smi 24564 MiB"
        ),
    },
    Gpu {
        id: "rtx-4090",
        name: "NVIDIA GeForce RTX 4090 24GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Ada,
        marketed_gb: 24,
        reported_mib: 24115,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 1008,
        unified: false,
        source: source!(
            "observed: vLLM logs total_gpu_memory 23.55 GiB (calibration file; vLLM issue \
                 #11550); nvidia-smi 24564 MiB"
        ),
    },
    gpus_consumer::RTX_3090_TI,
    Gpu {
        id: "rtx-3090",
        name: "NVIDIA GeForce RTX 3090 24GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Ampere,
        marketed_gb: 24,
        reported_mib: 24146,
        interconnect: Interconnect::NvLink(112),
        bandwidth_gb_s: 936,
        unified: false,
        source: source!(
            "observed: vLLM issue #10517 total_gpu_memory 23.58 GiB (calibration file); \
                 nvidia-smi 24576 MiB"
        ),
    },
    Gpu {
        id: "rx-7900-xtx",
        name: "AMD Radeon RX 7900 XTX 24GB",
        vendor: Vendor::Amd,
        segment: Segment::Consumer,
        arch: GpuArch::Rdna,
        marketed_gb: 24,
        reported_mib: 24560,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 960,
        unified: false,
        source: source!(
            "observed: torch (ROCm 6.4) get_device_properties total_memory=24560MB \
                 (= 24 x 1024 - 16)"
        ),
    },
    Gpu {
        id: "rtx-5090",
        name: "NVIDIA GeForce RTX 5090 32GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Consumer,
        arch: GpuArch::Blackwell,
        marketed_gb: 32,
        reported_mib: 32117,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 1792,
        unified: false,
        source: source!(
            "observed: deviceQuery 'Total amount of global memory: 32117 MBytes \
                 (33677180928 bytes)' (driver 570, Linux); nvidia-smi 32607 MiB"
        ),
    },
    gpus_datacenter::V100_PCIE_32GB,
    gpus_datacenter::V100_SXM2_32GB,
    gpus_consumer::RADEON_PRO_W7800,
    gpus_consumer::RADEON_AI_PRO_R9700,
    gpus_datacenter::MI100,
    Gpu {
        id: "a100-sxm-40gb",
        name: "NVIDIA A100-SXM4-40GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Ampere,
        marketed_gb: 40,
        reported_mib: 40334,
        interconnect: Interconnect::NvLink(600),
        bandwidth_gb_s: 1555,
        unified: false,
        source: source!(
            "observed: vLLM logs total 39.38-39.56 GiB (calibration file: issue #16570, \
                 AWS p4d, Colab); 39.39 GiB used; nvidia-smi 40960 MiB"
        ),
    },
    Gpu {
        id: "l40s",
        name: "NVIDIA L40S 48GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Ada,
        marketed_gb: 48,
        reported_mib: 45589,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 864,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties total_memory=45589MB (ECC on); \
                 vLLM issue #14011 shows the same 44.52 GiB on the L20 (same AD102 48 GB \
                 board); nvidia-smi 46068 MiB"
        ),
    },
    gpus_datacenter::L20,
    gpus_datacenter::L40,
    gpus_datacenter::A40,
    Gpu {
        id: "rtx-6000-ada",
        name: "NVIDIA RTX 6000 Ada Generation 48GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Workstation,
        arch: GpuArch::Ada,
        marketed_gb: 48,
        reported_mib: 48622,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 960,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties total_memory=48622MB (ECC off); \
                 nvidia-smi 49140 MiB"
        ),
    },
    Gpu {
        id: "rtx-a6000",
        name: "NVIDIA RTX A6000 48GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Workstation,
        arch: GpuArch::Ampere,
        marketed_gb: 48,
        reported_mib: 48676,
        interconnect: Interconnect::NvLink(112),
        bandwidth_gb_s: 768,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties total_memory=48676MB (ECC off); \
                 nvidia-smi 49140 MiB"
        ),
    },
    Gpu {
        id: "radeon-pro-w7900",
        name: "AMD Radeon PRO W7900 48GB",
        vendor: Vendor::Amd,
        segment: Segment::Workstation,
        arch: GpuArch::Rdna,
        marketed_gb: 48,
        reported_mib: 49136,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 864,
        unified: false,
        source: source!(
            "derived: 48 x 1024 - 16 MiB, the ROCm rule observed on the RX 7900 XTX \
                 (24560 = 24 x 1024 - 16, same RDNA3 GDDR6)"
        ),
    },
    gpus_consumer::RADEON_PRO_W7800_48GB,
    Gpu {
        id: "mi210",
        name: "AMD Instinct MI210 64GB",
        vendor: Vendor::Amd,
        segment: Segment::DataCenter,
        arch: GpuArch::Cdna,
        marketed_gb: 64,
        reported_mib: 65520,
        interconnect: Interconnect::Xgmi(300),
        bandwidth_gb_s: 1638,
        unified: false,
        source: source!(
            "derived: 64 x 1024 - 16 MiB, as observed on one MI250X GCD (same CDNA2, \
                 64 GB HBM2e); Infinity Fabric via bridge, 3 links x 100 GB/s"
        ),
    },
    Gpu {
        id: "mi250x-gcd",
        name: "AMD Instinct MI250X (one GCD, 64GB)",
        vendor: Vendor::Amd,
        segment: Segment::DataCenter,
        arch: GpuArch::Cdna,
        marketed_gb: 64,
        reported_mib: 65520,
        interconnect: Interconnect::Xgmi(400),
        bandwidth_gb_s: 1638,
        unified: false,
        source: source!(
            "observed: torch (ROCm) get_device_properties name='AMD Instinct MI250X' \
                 total_memory=65520MB per device; PyTorch sees each GCD of the 128 GB OAM as \
                 one device; bandwidth and 800 GB/s Infinity Fabric halved per GCD"
        ),
    },
    Gpu {
        id: "h100-pcie-80gb",
        name: "NVIDIA H100 PCIe 80GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Hopper,
        marketed_gb: 80,
        reported_mib: 81008,
        interconnect: Interconnect::NvLink(600),
        bandwidth_gb_s: 2000,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties name='NVIDIA H100 PCIe' \
                 total_memory=81008MB; nvidia-smi 81559 MiB; NVLink only with the two-card \
                 bridge"
        ),
    },
    Gpu {
        id: "a100-sxm-80gb",
        name: "NVIDIA A100-SXM4-80GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Ampere,
        marketed_gb: 80,
        reported_mib: 81050,
        interconnect: Interconnect::NvLink(600),
        bandwidth_gb_s: 2039,
        unified: false,
        source: source!(
            "observed: vLLM logs / Unsloth banner 'Max memory: 79.151 GB', total \
                 79.15 GiB (calibration file; 79.25-79.33 GiB on other drivers); nvidia-smi \
                 81920 MiB"
        ),
    },
    Gpu {
        id: "a100-pcie-80gb",
        name: "NVIDIA A100 80GB PCIe",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Ampere,
        marketed_gb: 80,
        reported_mib: 81050,
        interconnect: Interconnect::NvLink(600),
        bandwidth_gb_s: 1935,
        unified: false,
        source: source!(
            "derived: same 80 GB HBM2e frame buffer and nvidia-smi total (81920 MiB) as the \
                 A100-SXM4-80GB, so taken equal to its observed total; NVLink only with the \
                 two-card bridge"
        ),
    },
    gpus_datacenter::A800_SXM_80GB,
    Gpu {
        id: "h100-sxm-80gb",
        name: "NVIDIA H100 80GB HBM3 (SXM)",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Hopper,
        marketed_gb: 80,
        reported_mib: 81090,
        interconnect: Interconnect::NvLink(900),
        bandwidth_gb_s: 3350,
        unified: false,
        source: source!(
            "observed: vLLM logs total 79.19-79.22 GiB (calibration file: PR #10511, \
                 #12126); torch total_memory=81090MB printout; nvidia-smi 81559 MiB"
        ),
    },
    gpus_datacenter::H800,
    Gpu {
        id: "h100-nvl",
        name: "NVIDIA H100 NVL 94GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Hopper,
        marketed_gb: 94,
        reported_mib: 95279,
        interconnect: Interconnect::NvLink(600),
        bandwidth_gb_s: 3900,
        unified: false,
        source: source!(
            "derived: nvidia-smi 95830 MiB minus the 551 MiB the driver keeps on the H100 \
                 PCIe (Hopper PCIe sibling: 81559 - 81008); NVLink via the pair bridge"
        ),
    },
    Gpu {
        id: "rtx-pro-6000-blackwell",
        name: "NVIDIA RTX PRO 6000 Blackwell 96GB",
        vendor: Vendor::Nvidia,
        segment: Segment::Workstation,
        arch: GpuArch::Blackwell,
        marketed_gb: 96,
        reported_mib: 97397,
        interconnect: Interconnect::PcieOnly,
        bandwidth_gb_s: 1792,
        unified: false,
        source: source!(
            "derived: nvidia-smi 97887 MiB (Workstation Edition, driver 580) minus the \
                 490 MiB the driver keeps on the RTX 5090 (same GB202, GDDR7)"
        ),
    },
    gpus_consumer::RTX_PRO_6000_MAX_Q,
    gpus_datacenter::RTX_PRO_6000_SERVER,
    Gpu {
        id: "gh200-96gb",
        name: "NVIDIA GH200 480GB (96GB HBM3 GPU)",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Hopper,
        marketed_gb: 96,
        reported_mib: 97402,
        interconnect: Interconnect::NvLink(900),
        bandwidth_gb_s: 4000,
        unified: false,
        source: source!(
            "derived: nvidia-smi 97871 MiB minus the 469 MiB the driver keeps on the H100 \
                 SXM (HBM3 Hopper sibling: 81559 - 81090); GPU memory only, the Grace LPDDR5X \
                 is not counted"
        ),
    },
    gpus_datacenter::H20,
    Gpu {
        id: "h200",
        name: "NVIDIA H200 141GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Hopper,
        marketed_gb: 141,
        reported_mib: 143156,
        interconnect: Interconnect::NvLink(900),
        bandwidth_gb_s: 4800,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties name='NVIDIA H200' \
                 total_memory=143156MB (Modal example); nvidia-smi 143771 MiB (calibration \
                 file) includes the driver's 615 MiB reservation"
        ),
    },
    Gpu {
        id: "gh200-144gb",
        name: "NVIDIA GH200 144G HBM3e",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Hopper,
        marketed_gb: 144,
        reported_mib: 146216,
        interconnect: Interconnect::NvLink(900),
        bandwidth_gb_s: 4900,
        unified: false,
        source: source!(
            "derived: nvidia-smi 146831 MiB minus the 615 MiB the driver keeps on the H200 \
                 (HBM3e Hopper sibling: 143771 - 143156); GPU memory only"
        ),
    },
    Gpu {
        id: "b200",
        name: "NVIDIA B200 180GB",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Blackwell,
        marketed_gb: 180,
        reported_mib: 182631,
        interconnect: Interconnect::NvLink(1800),
        bandwidth_gb_s: 8000,
        unified: false,
        source: source!(
            "observed: torch.cuda.get_device_properties name='NVIDIA B200' \
                 total_memory=182631MB (another printout 182642MB; torchao PR #4002 \
                 178.35 GiB); nvidia-smi 183359 MiB; 180 GB as in DGX B200, launch figure \
                 192 GB is the same buffer in decimal GB"
        ),
    },
    gpus_datacenter::GB200,
    Gpu {
        id: "mi300x",
        name: "AMD Instinct MI300X 192GB",
        vendor: Vendor::Amd,
        segment: Segment::DataCenter,
        arch: GpuArch::Cdna,
        marketed_gb: 192,
        reported_mib: 196592,
        interconnect: Interconnect::Xgmi(896),
        bandwidth_gb_s: 5300,
        unified: false,
        source: source!(
            "observed: torch (ROCm) get_device_properties name='AMD Instinct MI300X' \
                 total_memory=196592MB (= 192 x 1024 - 16); 7 Infinity Fabric links x 128 GB/s"
        ),
    },
    Gpu {
        id: "mi325x",
        name: "AMD Instinct MI325X 256GB",
        vendor: Vendor::Amd,
        segment: Segment::DataCenter,
        arch: GpuArch::Cdna,
        marketed_gb: 256,
        reported_mib: 262128,
        interconnect: Interconnect::Xgmi(896),
        bandwidth_gb_s: 6000,
        unified: false,
        source: source!(
            "derived: 256 x 1024 - 16 MiB, the ROCm rule observed on the MI300X (same CDNA3 \
                 package, HBM3e)"
        ),
    },
    Gpu {
        id: "b300",
        name: "NVIDIA B300 288GB (HGX B300 / GB300)",
        vendor: Vendor::Nvidia,
        segment: Segment::DataCenter,
        arch: GpuArch::Blackwell,
        marketed_gb: 288,
        reported_mib: 274312,
        interconnect: Interconnect::NvLink(1800),
        bandwidth_gb_s: 8000,
        unified: false,
        source: source!(
            "derived: nvidia-smi 275040 MiB ('NVIDIA B300 SXM6 AC', driver 580) minus the \
                 728 MiB the driver keeps on the B200 (183359 - 182631); 288 GB is decimal \
                 (268.6 GiB)"
        ),
    },
    Gpu {
        id: "mi355x",
        name: "AMD Instinct MI355X 288GB",
        vendor: Vendor::Amd,
        segment: Segment::DataCenter,
        arch: GpuArch::Cdna,
        marketed_gb: 288,
        reported_mib: 294896,
        interconnect: Interconnect::Xgmi(1075),
        bandwidth_gb_s: 8000,
        unified: false,
        source: source!(
            "derived: 288 x 1024 - 16 MiB, the ROCm rule observed on the MI300X (CDNA4, \
                 8 x 36 GiB HBM3e); 7 Infinity Fabric links x 153.6 GB/s"
        ),
    },
];
