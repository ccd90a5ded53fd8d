//! Every user-visible sentence comes from `vramfit-i18n`; this module maps the core's enums to
//! message keys in one exhaustive `match` each (a new core variant does not compile until it has
//! words), and fills the templates with locale-formatted numbers.

use crate::ui::field::{Input, Problem};
use crate::ui::numbers::{gb, gib, percent};
use vramfit_core::hf_config::ConfigError;
use vramfit_core::limits::RangeError;
use vramfit_core::{
    Attention, Checkpointing, ComponentId, EngineKind, ItemKind, LoraTargets, Method, Offload,
    Optimizer, Plan, RecommendBy, Sharding, Split, StackGap, StartFailure, TrainPrecision, Verdict,
    VerdictReason, Warning, WeightFormat,
};
use vramfit_i18n::{fill, Key, Locale, PluralKey};

/// The text of `k`.
pub fn t(l: Locale, k: Key) -> &'static str {
    l.text(k)
}

/// The text of `k` with its placeholders filled.
pub fn f(l: Locale, k: Key, args: &[(&str, &str)]) -> String {
    fill(l.text(k), args)
}

/// Name of a component.
pub fn component(l: Locale, id: ComponentId) -> &'static str {
    t(l, guide(id)[0])
}

/// Keys of a component: name, what it is, what makes it grow, how to shrink it, how to measure it.
pub fn guide(id: ComponentId) -> [Key; 5] {
    use Key::*;
    match id {
        ComponentId::Weights => [
            CompWeights,
            WhatWeights,
            GrowWeights,
            ShrinkWeights,
            MeasureWeights,
        ],
        ComponentId::LoraAdapters => [CompLora, WhatLora, GrowLora, ShrinkLora, MeasureLora],
        ComponentId::DraftWeights => [
            CompDraftWeights,
            WhatDraft,
            GrowDraft,
            ShrinkDraft,
            MeasureDraft,
        ],
        ComponentId::DraftKvCache => [CompDraftKv, WhatDraft, GrowDraft, ShrinkDraft, MeasureDraft],
        ComponentId::DraftActivations => [
            CompDraftCompute,
            WhatDraft,
            GrowDraft,
            ShrinkDraft,
            MeasureDraft,
        ],
        ComponentId::KvCache => [
            CompKvCache,
            WhatKvCache,
            GrowKvCache,
            ShrinkKvCache,
            MeasureKvCache,
        ],
        ComponentId::RecurrentState => [
            CompRecurrentState,
            WhatRecurrentState,
            GrowRecurrentState,
            ShrinkRecurrentState,
            MeasureRecurrentState,
        ],
        ComponentId::Activations => [
            CompActivations,
            WhatActivations,
            GrowActivations,
            ShrinkActivations,
            MeasureActivations,
        ],
        ComponentId::CudaContext => [
            CompCudaContext,
            WhatCudaContext,
            GrowCudaContext,
            ShrinkCudaContext,
            MeasureCudaContext,
        ],
        ComponentId::CublasWorkspace => [
            CompCublas,
            WhatCublas,
            GrowCublas,
            ShrinkCublas,
            MeasureCublas,
        ],
        ComponentId::CommunicationBuffers => {
            [CompNccl, WhatNccl, GrowNccl, ShrinkNccl, MeasureNccl]
        }
        ComponentId::EngineOverhead => [
            CompEngineOverhead,
            WhatEngineOverhead,
            GrowEngineOverhead,
            ShrinkEngineOverhead,
            MeasureEngineOverhead,
        ],
        ComponentId::CudaGraphs => [
            CompCudaGraphs,
            WhatCudaGraphs,
            GrowCudaGraphs,
            ShrinkCudaGraphs,
            MeasureCudaGraphs,
        ],
        ComponentId::RequestPool => [
            CompRequestPool,
            WhatRequestPool,
            GrowRequestPool,
            ShrinkRequestPool,
            MeasureRequestPool,
        ],
        ComponentId::AllocatorReserve => [
            CompAllocator,
            WhatAllocator,
            GrowAllocator,
            ShrinkAllocator,
            MeasureAllocator,
        ],
        ComponentId::MasterWeights => [
            CompMaster,
            WhatMaster,
            GrowMaster,
            ShrinkMaster,
            MeasureMaster,
        ],
        ComponentId::Adapters => [
            CompAdapters,
            WhatAdapters,
            GrowAdapters,
            ShrinkAdapters,
            MeasureAdapters,
        ],
        ComponentId::Gradients => [
            CompGradients,
            WhatGradients,
            GrowGradients,
            ShrinkGradients,
            MeasureGradients,
        ],
        ComponentId::OptimizerStates => [
            CompOptimizer,
            WhatOptimizer,
            GrowOptimizer,
            ShrinkOptimizer,
            MeasureOptimizer,
        ],
        ComponentId::Logits => [
            CompLogits,
            WhatLogits,
            GrowLogits,
            ShrinkLogits,
            MeasureLogits,
        ],
        ComponentId::TemporaryBuffers => [
            CompTemporary,
            WhatTemporary,
            GrowTemporary,
            ShrinkTemporary,
            MeasureTemporary,
        ],
        ComponentId::TextEncoders => [
            CompTextEncoders,
            WhatTextEncoders,
            GrowTextEncoders,
            ShrinkTextEncoders,
            MeasureTextEncoders,
        ],
        ComponentId::Denoiser => [
            CompDenoiser,
            WhatDenoiser,
            GrowDenoiser,
            ShrinkDenoiser,
            MeasureDenoiser,
        ],
        ComponentId::Vae => [CompVae, WhatVae, GrowVae, ShrinkVae, MeasureVae],
        ComponentId::VaeDecode => [
            CompVaeDecode,
            WhatVaeDecode,
            GrowVaeDecode,
            ShrinkVaeDecode,
            MeasureVaeDecode,
        ],
        ComponentId::PersistentData => [
            CompPersistent,
            WhatPersistent,
            GrowPersistent,
            ShrinkPersistent,
            MeasurePersistent,
        ],
        ComponentId::Intermediates => [
            CompIntermediates,
            WhatIntermediates,
            GrowIntermediates,
            ShrinkIntermediates,
            MeasureIntermediates,
        ],
        ComponentId::Caches => [
            CompCaches,
            WhatCaches,
            GrowCaches,
            ShrinkCaches,
            MeasureCaches,
        ],
        ComponentId::Workspaces => [
            CompWorkspaces,
            WhatWorkspaces,
            GrowWorkspaces,
            ShrinkWorkspaces,
            MeasureWorkspaces,
        ],
    }
}

/// A warning, in the workload's words where they differ (`training`: sequences and micro-batch;
/// `serving`: an LLM served by an engine, whose buffers are among the memory outside PyTorch).
pub fn warning(l: Locale, w: &Warning, training: bool, serving: bool) -> String {
    match w {
        Warning::WithinHeadroom if training => t(l, Key::WarnWithinHeadroomTrain).into(),
        Warning::DoesNotFit if training => t(l, Key::WarnDoesNotFitTrain).into(),
        Warning::WithinHeadroom => t(l, Key::WarnWithinHeadroom).into(),
        Warning::DoesNotFit => t(l, Key::WarnDoesNotFit).into(),
        Warning::NoPlanFits => t(l, Key::WarnNoPlan).into(),
        Warning::SoftwareDoesNotRun { gap } => f(
            l,
            Key::WarnSoftwareDoesNotRun,
            &[("why", &stack_gap(l, *gap))],
        ),
        Warning::ContextBeyondModel { max_position } => f(
            l,
            Key::WarnContextBeyondModel,
            &[("max", &l.count(PluralKey::Tokens, u64::from(*max_position)))],
        ),
        Warning::KvCacheDominates => t(l, Key::WarnKvDominates).into(),
        Warning::TensorParallelIndivisible {
            heads,
            kv_heads,
            count,
        } => f(
            l,
            Key::WarnTpIndivisible,
            &[
                ("count", &l.count(PluralKey::Gpus, u64::from(*count))),
                ("heads", &l.integer(u64::from(*heads))),
                ("kv", &l.integer(u64::from(*kv_heads))),
            ],
        ),
        Warning::PcieOnly => t(l, Key::WarnPcieOnly).into(),
        Warning::QuantizedWeights => t(l, Key::WarnQuantized).into(),
        Warning::ConcurrencyBelowSequences {
            max_concurrency_centi,
            sequences,
        } => f(
            l,
            Key::WarnConcurrency,
            &[
                ("x", &l.decimal(*max_concurrency_centi as f64 / 100.0, 2)),
                (
                    "seqs",
                    &l.count(PluralKey::Sequences, u64::from(*sequences)),
                ),
            ],
        ),
        Warning::HostMemory { bytes } => f(l, Key::WarnHostMemory, &[("gib", &gib(l, *bytes))]),
        Warning::TrainingHostMemory { bytes } => {
            f(l, Key::WarnTrainHost, &[("gib", &gib(l, *bytes))])
        }
        Warning::OffloadHostMemory { bytes } => {
            f(l, Key::WarnOffloadHost, &[("gib", &gib(l, *bytes))])
        }
        Warning::OutsideAllocator { bytes } => {
            let key = if serving {
                Key::WarnOutsideAllocator
            } else {
                Key::WarnOutsideAllocatorNoEngine
            };
            f(l, key, &[("gib", &gib(l, *bytes))])
        }
        Warning::ModelFiles { bytes } => f(l, Key::WarnModelFiles, &[("gb", &gb(l, *bytes))]),
        Warning::EngineWillNotStart { failure } => start_failure(l, failure),
        Warning::Saturated => t(l, Key::WarnSaturated).into(),
    }
}

/// Why an engine would refuse to start.
pub fn start_failure(l: Locale, fail: &StartFailure) -> String {
    match fail {
        StartFailure::NoRoomForKvCache => t(l, Key::FailNoRoom).into(),
        StartFailure::MaxModelLenTooLong {
            kv_tokens,
            max_model_len,
        } => f(
            l,
            Key::FailMaxModelLen,
            &[
                ("tokens", &l.count(PluralKey::Tokens, *kv_tokens)),
                ("len", &l.integer(*max_model_len)),
            ],
        ),
        StartFailure::BudgetExceedsFreeMemory => t(l, Key::FailBudget).into(),
    }
}

/// A field problem.
pub fn problem(l: Locale, input: Input, p: &Problem) -> String {
    match p {
        Problem::Empty => t(l, Key::ProblemEmpty).into(),
        Problem::NotWholeNumber => t(l, Key::ProblemNotWhole).into(),
        Problem::NotNumber => t(l, Key::ProblemNotNumber).into(),
        Problem::Range(RangeError::TooSmall { min }) => {
            f(l, Key::ProblemTooSmall, &[("min", &number(l, *min))])
        }
        // The only range check on the config box: its `quantization_config` module list.
        Problem::Range(RangeError::TooLarge { .. } | RangeError::Invalid)
            if input == Input::Config =>
        {
            f(
                l,
                Key::ProblemUnquantizedModules,
                &[(
                    "max",
                    &l.integer(vramfit_core::limits::MAX_UNQUANTIZED_MODULES as u64),
                )],
            )
        }
        Problem::Range(RangeError::TooLarge { max }) => {
            f(l, Key::ProblemTooLarge, &[("max", &number(l, *max))])
        }
        Problem::Range(RangeError::Between { min, max }) => f(
            l,
            Key::ProblemBetween,
            &[("min", &number(l, *min)), ("max", &number(l, *max))],
        ),
        Problem::Range(RangeError::NotMultiple { of }) => {
            f(l, Key::ProblemMultiple, &[("of", &of.to_string())])
        }
        Problem::Range(RangeError::Invalid) => match input {
            Input::GpuMemory => t(l, Key::ProblemCardOrMemory).into(),
            Input::Engine("cache_type_v") => t(l, Key::ProblemQuantizedVNeedsFa).into(),
            _ => t(l, Key::ProblemInvalid).into(),
        },
        Problem::Config(e) => config_error(l, e),
    }
}

/// A range bound as the locale writes it (integers grouped, fractions with two digits).
fn number(l: Locale, x: f64) -> String {
    if x.fract() == 0.0 && (0.0..1e15).contains(&x) {
        l.integer(x as u64)
    } else {
        l.decimal(x, 2)
    }
}

/// A config.json problem.
pub fn config_error(l: Locale, e: &ConfigError) -> String {
    match e {
        ConfigError::NotJson { line, column } => f(
            l,
            Key::ConfigNotJson,
            &[("line", &line.to_string()), ("column", &column.to_string())],
        ),
        ConfigError::NotAnObject => t(l, Key::ConfigNotObject).into(),
        ConfigError::MissingKey { key } => f(l, Key::ConfigMissingKey, &[("key", key)]),
        ConfigError::InvalidValue { key } => f(l, Key::ConfigInvalidValue, &[("key", key)]),
        ConfigError::UnsupportedModelType { model_type } => {
            f(l, Key::ConfigUnsupported, &[("model_type", model_type)])
        }
        ConfigError::InconsistentHeads => t(l, Key::ConfigHeads).into(),
        ConfigError::ExpertsPerToken { active, experts } => f(
            l,
            Key::ConfigExpertsPerToken,
            &[
                ("active", &l.integer(u64::from(*active))),
                ("experts", &l.integer(u64::from(*experts))),
            ],
        ),
        ConfigError::TooLarge { key, max } => f(
            l,
            Key::ConfigTooLarge,
            &[("key", key), ("max", &l.integer(*max))],
        ),
    }
}

/// Display name of an engine select value.
pub fn engine_name(l: Locale, kind: Option<EngineKind>) -> &'static str {
    match kind {
        None => t(l, Key::EngineAny),
        // Transformers' entry names its `generate()`, in the page's language.
        Some(EngineKind::Transformers) => t(l, Key::EngineTransformers),
        Some(k) => k.name(),
    }
}

/// One line on how the engine allocates.
pub fn engine_hint(l: Locale, kind: Option<EngineKind>) -> &'static str {
    t(
        l,
        match kind {
            None => Key::HintAny,
            Some(EngineKind::Vllm) => Key::HintVllm,
            Some(EngineKind::Sglang) => Key::HintSglang,
            Some(EngineKind::LlamaCpp) => Key::HintLlamaCpp,
            Some(EngineKind::Transformers) => Key::HintTransformers,
        },
    )
}

/// A card in the card list: its name, and its memory when the name does not already say it
/// ("NVIDIA GeForce RTX 4090 24GB", not "… 24GB — 24 GB", which a narrow select cuts).
pub fn card_option(g: &vramfit_core::catalog::Gpu) -> String {
    let gb = format!("{}GB", g.marketed_gb);
    if g.name.replace(' ', "").contains(&gb) {
        g.name.to_string()
    } else {
        format!("{} — {} GB", g.name, g.marketed_gb)
    }
}

/// Picker label of a weight format.
pub fn format_label(l: Locale, fm: WeightFormat) -> String {
    match fm {
        WeightFormat::Fp32 | WeightFormat::Bf16 | WeightFormat::Fp16 => fm.id(),
        WeightFormat::Fp8 => t(l, Key::FormatFp8).into(),
        WeightFormat::Fp8Block => t(l, Key::FormatFp8Block).into(),
        WeightFormat::Int8 => t(l, Key::FormatInt8).into(),
        WeightFormat::Int4 => t(l, Key::FormatInt4).into(),
        WeightFormat::Gptq { bits, group } => f(
            l,
            Key::FormatGptq,
            &[("bits", &bits.to_string()), ("group", &group.to_string())],
        ),
        WeightFormat::Awq { group } => f(l, Key::FormatAwq, &[("group", &group.to_string())]),
        WeightFormat::BnbInt8 => "bitsandbytes int8".into(),
        WeightFormat::BnbNf4 {
            double_quant: false,
        } => t(l, Key::FormatNf4).into(),
        WeightFormat::BnbNf4 { double_quant: true } => t(l, Key::FormatNf4Dq).into(),
        WeightFormat::BnbFp4 {
            double_quant: false,
        } => t(l, Key::FormatFp4).into(),
        WeightFormat::BnbFp4 { double_quant: true } => t(l, Key::FormatFp4Dq).into(),
        WeightFormat::Mxfp4 => t(l, Key::FormatMxfp4).into(),
        WeightFormat::Gguf(p) => format!("GGUF {}", p.id().to_ascii_uppercase()),
    }
}

/// A catalog card's name, or its id where the catalog has none.
pub fn gpu_name(id: &str) -> &str {
    vramfit_core::catalog::gpu(id).map_or(id, |g| g.name)
}

/// Name of a plan's card.
pub fn card_name(l: Locale, plan: &Plan) -> String {
    match plan.card.gpu.and_then(vramfit_core::catalog::gpu) {
        Some(g) => g.name.to_string(),
        None => f(
            l,
            Key::CardCustom,
            &[("gib", &gib(l, plan.card.capacity_bytes))],
        ),
    }
}

/// "2 × NVIDIA H100 (tensor parallel)".
pub fn plan_title(l: Locale, plan: &Plan) -> String {
    if !plan.per_card.is_empty() {
        return mixed_title(l, plan);
    }
    let base = f(
        l,
        Key::PlanTitle,
        &[
            ("count", &plan.count.to_string()),
            ("card", &card_name(l, plan)),
        ],
    );
    let how = match plan.split {
        Split::Single => return base,
        Split::TensorParallel => Key::SplitTensorParallel,
        Split::Layers => Key::SplitLayers,
        Split::Replicas => Key::SplitReplicas,
        Split::DataParallel => Key::SplitDataParallel,
        Split::Sharded => Key::SplitSharded,
    };
    format!("{base} ({})", t(l, how))
}

/// A mixed machine: each run of one kind of card in device order ("1 × RTX 5090 + 1 × RTX
/// 4080"), the split, and the card whose figures the verdict gives.
fn mixed_title(l: Locale, plan: &Plan) -> String {
    let mut runs: Vec<(&str, u32)> = Vec::new();
    for c in &plan.per_card {
        match runs.last_mut() {
            Some((id, n)) if *id == c.gpu => *n += 1,
            _ => runs.push((c.gpu, 1)),
        }
    }
    let cards = runs
        .iter()
        .map(|(id, n)| {
            f(
                l,
                Key::PlanTitle,
                &[("count", &n.to_string()), ("card", gpu_name(id))],
            )
        })
        .collect::<Vec<_>>()
        .join(" + ");
    let how = match plan.split {
        Split::TensorParallel => Key::SplitTensorParallel,
        _ => Key::SplitLayers,
    };
    let limit = plan
        .per_card
        .iter()
        .find(|c| c.sets_limit)
        .map(|c| format!("; {} {}", gpu_name(c.gpu), t(l, Key::PerCardLimit)))
        .unwrap_or_default();
    format!("{cards} ({}{limit})", t(l, how))
}

/// The one-sentence verdict, worded from the core's reason (never re-decided here). An engine
/// that sizes its own pool (vLLM, SGLang) claims the same bytes whatever changes, so its "fits"
/// names what changes: the requests of `context` tokens its KV cache holds.
pub fn verdict(l: Locale, plan: &Plan, context: u64) -> String {
    let used = plan.per_gpu_bytes;
    let cap = plan.card.capacity_bytes;
    let free = cap.saturating_sub(used);
    let title = plan_title(l, plan);
    let args = [
        ("plan", title.as_str()),
        ("used", &gib(l, used)),
        ("cap", &gib(l, cap)),
        ("free", &gib(l, free)),
        ("pct", &percent(l, free, cap)),
    ];
    match plan.reason {
        VerdictReason::FitsWithHeadroom => match plan.kv.filter(|k| k.budget_bytes.is_some()) {
            Some(k) => f(
                l,
                Key::VerdictFitsPool,
                &[
                    ("plan", title.as_str()),
                    ("x", &l.decimal(k.max_concurrency_centi() as f64 / 100.0, 2)),
                    ("tokens", &l.count(PluralKey::Tokens, context)),
                    ("seqs", &l.integer(u64::from(plan.sequences_per_replica))),
                    ("used", &gib(l, used)),
                    ("cap", &gib(l, cap)),
                ],
            ),
            None => f(l, Key::VerdictFits, &args),
        },
        VerdictReason::IntoHeadroom => f(l, Key::VerdictTight, &args),
        VerdictReason::ConcurrencyBelowSequences {
            max_concurrency_centi,
            sequences,
        } => f(
            l,
            Key::VerdictTightConcurrency,
            &[
                ("plan", &title),
                ("x", &l.decimal(max_concurrency_centi as f64 / 100.0, 2)),
                ("seqs", &l.count(PluralKey::Sequences, u64::from(sequences))),
            ],
        ),
        VerdictReason::OverCapacity | VerdictReason::WeightsAlone => {
            f(l, Key::VerdictDoesNotFit, &args)
        }
        // The engine's own reason, not "larger than the card": its budget may well fit.
        VerdictReason::EngineWillNotStart { failure } => format!(
            "{} — {title}: {}",
            capitalized(t(l, Key::WordDoesNotFit)),
            start_failure(l, &failure)
        ),
        VerdictReason::NothingFits => t(l, Key::VerdictNoCard).into(),
        VerdictReason::SoftwareDoesNotRun { gap } => f(
            l,
            Key::VerdictDoesNotRun,
            &[("plan", &title), ("why", &stack_gap(l, gap))],
        ),
    }
}

/// Why the software does not run on a card (`vramfit_core::StackGap`).
pub fn stack_gap(l: Locale, g: StackGap) -> String {
    match g {
        StackGap::Engine { engine } => f(l, Key::GapEngine, &[("engine", engine.name())]),
        StackGap::Bitsandbytes => t(l, Key::GapBitsandbytes).into(),
        StackGap::Bf16 => t(l, Key::GapBf16).into(),
        StackGap::Fp8 => t(l, Key::GapFp8).into(),
        StackGap::Int4Kernels => t(l, Key::GapInt4).into(),
        StackGap::Mxfp4 => t(l, Key::GapMxfp4).into(),
        StackGap::FlashAttention => t(l, Key::GapFlashAttention).into(),
    }
}

/// `word` with its first letter in upper case (a sentence start). ASCII only: the one word it is
/// given starts with an ASCII letter in every language (`vramfit-i18n`'s test
/// `capitalised_words_start_in_ascii`), and `char::to_uppercase` would bring the Unicode case
/// tables into the wasm.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| {
        std::iter::once(c.to_ascii_uppercase())
            .chain(chars)
            .collect()
    })
}

/// The phase that sets the peak.
pub fn phase(l: Locale, p: vramfit_core::PeakPhase) -> &'static str {
    use vramfit_core::PeakPhase as P;
    t(
        l,
        match p {
            P::Forward => Key::PhaseForward,
            P::Backward => Key::PhaseBackward,
            P::OptimizerStep => Key::PhaseOptimizerStep,
            P::TextEncoding => Key::PhaseTextEncoding,
            P::Denoising => Key::PhaseDenoising,
            P::Decoding => Key::PhaseDecoding,
        },
    )
}

/// Icon that goes with the verdict (always beside words, never alone).
pub fn verdict_icon(v: Verdict) -> &'static str {
    match v {
        Verdict::Fits => "✔",
        Verdict::Tight => "⚠",
        Verdict::DoesNotFit => "✖",
    }
}

/// Short word for a verdict.
pub fn verdict_word(l: Locale, v: Verdict) -> &'static str {
    t(
        l,
        match v {
            Verdict::Fits => Key::WordFits,
            Verdict::Tight => Key::WordTight,
            Verdict::DoesNotFit => Key::WordDoesNotFit,
        },
    )
}

/// Short word for a plan's verdict: "will not run" where the software does not run on its card
/// (the memory may fit), else [`verdict_word`].
pub fn plan_word(l: Locale, plan: &Plan) -> &'static str {
    match plan.reason {
        VerdictReason::SoftwareDoesNotRun { .. } => t(l, Key::WordWillNotRun),
        _ => verdict_word(l, plan.verdict),
    }
}

/// The ranking's words.
pub fn rank_name(l: Locale, by: RecommendBy) -> &'static str {
    t(
        l,
        match by {
            RecommendBy::Price => Key::RankPrice,
            RecommendBy::CostPerToken => Key::RankCostPerToken,
            RecommendBy::Speed => Key::RankSpeed,
        },
    )
}

/// Where a card can be had, in a word.
pub fn availability_name(l: Locale, a: vramfit_core::catalog::Availability) -> &'static str {
    use vramfit_core::catalog::Availability as A;
    t(
        l,
        match a {
            A::Cloud => Key::AvailCloud,
            A::Marketplace => Key::AvailMarketplace,
            A::Buy => Key::AvailBuy,
        },
    )
}

/// The training method on its picker.
pub fn method(l: Locale, m: Method) -> &'static str {
    t(
        l,
        match m {
            Method::Full => Key::MethodFull,
            Method::Lora => Key::MethodLora,
            Method::Qlora => Key::MethodQlora,
        },
    )
}

/// LoRA's target modules on their picker.
pub fn lora_targets(l: Locale, x: LoraTargets) -> &'static str {
    t(
        l,
        match x {
            LoraTargets::QueryValue => Key::TargetsQv,
            LoraTargets::QueryKeyValue => Key::TargetsQkv,
            LoraTargets::Attention => Key::TargetsAttention,
            LoraTargets::AllLinear => Key::TargetsAllLinear,
        },
    )
}

/// Training precision on its picker.
pub fn precision(l: Locale, p: TrainPrecision) -> &'static str {
    t(
        l,
        match p {
            TrainPrecision::Bf16 => Key::PrecBf16,
            TrainPrecision::MixedMaster => Key::PrecMixedMaster,
            TrainPrecision::AmpBf16 => Key::PrecAmpBf16,
            TrainPrecision::AmpFp16 => Key::PrecAmpFp16,
            TrainPrecision::Fp32 => Key::PrecFp32,
        },
    )
}

/// An optimizer on its picker (the plain ones by their own names).
pub fn optimizer(l: Locale, o: Optimizer) -> &'static str {
    match o {
        Optimizer::Adamw => "AdamW",
        Optimizer::Adafactor => "Adafactor",
        Optimizer::Lion => "Lion",
        Optimizer::Adamw8bit => t(l, Key::OptAdamw8bit),
        Optimizer::PagedAdamw8bit => t(l, Key::OptPaged),
        Optimizer::SgdMomentum => t(l, Key::OptSgdMomentum),
        Optimizer::Sgd => t(l, Key::OptSgd),
    }
}

/// Activation checkpointing on its picker.
pub fn checkpointing(l: Locale, c: Checkpointing) -> &'static str {
    t(
        l,
        match c {
            Checkpointing::None => Key::CkptNone,
            Checkpointing::Selective => Key::CkptSelective,
            Checkpointing::Full => Key::CkptFull,
        },
    )
}

/// Data-parallel sharding on its picker.
pub fn sharding(l: Locale, x: Sharding) -> &'static str {
    t(
        l,
        match x {
            Sharding::Ddp => Key::ShardDdp,
            Sharding::Zero1 => Key::ShardZero1,
            Sharding::Zero2 => Key::ShardZero2,
            Sharding::Zero3 => Key::ShardZero3,
            Sharding::Hybrid => Key::ShardHybrid,
        },
    )
}

/// A diffusion pipeline's attention on its picker.
pub fn attention(l: Locale, a: Attention) -> &'static str {
    t(
        l,
        match a {
            Attention::Sdpa => Key::AttnSdpa,
            Attention::Naive => Key::AttnNaive,
        },
    )
}

/// A diffusion pipeline's CPU offload on its picker.
pub fn offload(l: Locale, o: Offload) -> &'static str {
    t(
        l,
        match o {
            Offload::None => Key::OffloadNone,
            Offload::Model => Key::OffloadModel,
            Offload::Sequential => Key::OffloadSequential,
        },
    )
}

/// A custom item's kind on its picker.
pub fn item_kind(l: Locale, k: ItemKind) -> &'static str {
    t(
        l,
        match k {
            ItemKind::Persistent => Key::CompPersistent,
            ItemKind::Intermediate => Key::CompIntermediates,
            ItemKind::Cache => Key::CompCaches,
            ItemKind::Workspace => Key::CompWorkspaces,
        },
    )
}
