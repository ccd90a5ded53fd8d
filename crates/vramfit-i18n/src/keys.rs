//! The message keys. Adding a key breaks English's `match` until it has a text, and the tests until
//! every data file (`lang/<tag>.json`) has it at its place.

macro_rules! keys {
    ($(#[$doc:meta])* $name:ident { $($key:ident),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum $name { $($key),* }
        impl $name {
            /// Every key.
            pub const ALL: &'static [$name] = &[$($name::$key),*];
        }
    };
}

keys! {
    /// A user-visible sentence or label (templates may hold `{name}` placeholders).
    Key {
        Tagline, Footer, UrlNotesIntro, LanguageLabel, CopyLink, LinkCopied, PanicTitle,
        EmbedButton, EmbedIntro, Copied, OpenFull,
        InputsAria, AnswerAria,
        ModelLegend, SearchCatalog, SearchPlaceholder, PasteConfig, ConfigLabel, ConfigRead,
        UseCatalogModel,
        FormatsLegend, WeightsLabel, KvCacheLabel, KvAsCompute,
        WorkloadLegend, ContextLabel, SequencesLabel, ChunkLabel,
        GpusLegend, CardLabel, RecommendCard, OtherCard, CardMemoryLabel, CountLabel, HeadroomLabel,
        EngineLegend, EngineLabel, EngineAny, EngineTransformers,
        HintAny, HintVllm, HintSglang, HintLlamaCpp, HintTransformers,
        VllmMaxNumSeqs, VllmBatched, VllmGeneration, VllmEager,
        SglangMemFraction, SglangChunk,
        LlamaNgl, LlamaFlash, LlamaCtk, LlamaCtv, LlamaUnified, LlamaNCpuMoe, LlamaCpuMoe, LlamaHostBandwidth,
        CompDraftWeights, CompDraftKv, CompDraftCompute, WhatDraft, GrowDraft, ShrinkDraft, MeasureDraft, SpecLabel, SpecNone, SpecMtp, SpecTokens, FixNoSpec,
        SecondCardLabel, SecondCardNone, SecondCountLabel, PerCardCaption, PerCardUsed, PerCardLimit, KvGibAllCards, BusyRest,
        FormatFp8, FormatFp8Block, FormatInt8, FormatInt4, FormatGptq, FormatAwq,
        FormatNf4, FormatNf4Dq, FormatFp4, FormatFp4Dq, FormatMxfp4,
        ProblemEmpty, ProblemNotWhole, ProblemNotNumber, ProblemTooSmall, ProblemTooLarge,
        ProblemInvalid,
        ProblemQuantizedVNeedsFa, ProblemCardOrMemory, ProblemBetween, ProblemMultiple,
        ConfigNotJson, ConfigNotObject, ConfigMissingKey, ConfigInvalidValue, ConfigUnsupported,
        ConfigHeads, ConfigTooLarge, ProblemUnquantizedModules,
        CompWeights, CompLora, CompKvCache, CompRecurrentState, CompActivations, CompCudaContext, CompCublas, CompNccl,
        CompEngineOverhead, CompCudaGraphs, CompRequestPool, CompAllocator,
        WhatWeights, WhatLora, WhatKvCache, WhatRecurrentState, WhatActivations, WhatCudaContext, WhatCublas, WhatNccl,
        WhatEngineOverhead, WhatCudaGraphs, WhatRequestPool, WhatAllocator,
        GrowWeights, GrowLora, GrowKvCache, GrowRecurrentState, GrowActivations, GrowCudaContext, GrowCublas, GrowNccl,
        GrowEngineOverhead, GrowCudaGraphs, GrowRequestPool, GrowAllocator,
        ShrinkWeights, ShrinkLora, ShrinkKvCache, ShrinkRecurrentState, ShrinkActivations, ShrinkCudaContext,
        ShrinkCublas, ShrinkNccl,
        ShrinkEngineOverhead, ShrinkCudaGraphs, ShrinkRequestPool, ShrinkAllocator,
        MeasureWeights, MeasureLora, MeasureKvCache, MeasureRecurrentState, MeasureActivations, MeasureCudaContext,
        MeasureCublas, MeasureNccl,
        MeasureEngineOverhead, MeasureCudaGraphs, MeasureRequestPool, MeasureAllocator,
        GuideWhat, GuideGrow, GuideShrink, GuideMeasure,
        WarnWithinHeadroom, WarnDoesNotFit, WarnNoPlan, WarnContextBeyondModel, WarnKvDominates,
        WarnTpIndivisible, WarnPcieOnly, WarnQuantized, WarnConcurrency, WarnHostMemory,
        WarnOutsideAllocator, WarnModelFiles, WarnOffloadHost, WarnTrainHost,
        WarnOutsideAllocatorNoEngine,
        WarnSaturated,
        FailNoRoom, FailMaxModelLen, FailBudget,
        VerdictFits, VerdictTight, VerdictDoesNotFit, VerdictTightConcurrency, VerdictNoCard,
        WordFits, WordTight, WordDoesNotFit,
        PlanTitle, SplitTensorParallel, SplitLayers, SplitReplicas, CardCustom,
        StaleNote, ModelSummary, ModelSummaryWindow, PastedConfig, ParamsSuffix,
        PerGpu, PerGpuTimes, ColComponent, TotalPerGpu, AllGpus, CardCapacity, HeadroomLine,
        BarAria,
        EngineReportTitle, ClaimedAtStart, KvGib, StateGib, KvTokens, MaxConcurrency, KvTokensPerGroup, HostRam,
        LimitsTitle, MaxContext, NoneFits, MaxSequences, UtilRange, UtilNone,
        ChartCaption, ChartLegend, ChartAria,
        RecTitle, RecBest, RecReplicas, RecReplicasTrain, RecNone, SingleCards,
        RulesTitle, RuleWeightsOnly, RuleTwoGb, RuleThisEstimate,
        ChecklistTitle, CheckInput, CheckConcurrency, CheckFormat, CheckPeaks, CheckDevice,
        CheckHeadroom,
        CheckRepeat, CheckQuality, CheckHostDisk,
        MeasureTitle, MeasureIntro, MeasureLookVllm, MeasureLookLlama, MeasureLookPytorch,
        CopyScript,
        PasteLabel, PastePlaceholder, PasteTitle, ColEstimated, ColMeasured, PasteNothing,
        MeasuredAllocated, MeasuredReserved, MeasuredDevice,
        FaqTitle, FaqFileQ, FaqFileA, FaqSecondGpuQ, FaqSecondGpuA, FaqPrecisionQ, FaqPrecisionA,
        FaqBigCardQ, FaqBigCardA,
        WorkloadLabel, WorkloadServe, WorkloadTrain, WorkloadImage, WorkloadVideo, WorkloadCustom,
        TrainLegend, TrainMethod, MethodFull, MethodLora, MethodQlora, LoraRank, LoraTargetsLabel,
        TargetsQv, TargetsQkv, TargetsAttention, TargetsAllLinear, MicroBatch, SequenceLength,
        GradAccum, PrecisionLabel, PrecFp32, PrecAmpFp16, PrecAmpBf16, PrecMixedMaster, PrecBf16,
        OptimizerLabel, OptAdamw8bit, OptPaged, OptSgd, OptSgdMomentum, OptInBackward,
        CheckpointingLabel, CkptNone, CkptSelective, CkptFull, FlashAttention, Compiled,
        ChunkedLoss, LoraDropout, TopLayers, ShardingLabel, ShardDdp, ShardZero1, ShardZero2, ShardZero3,
        ShardHybrid, TensorParallelLabel, PipelineParallelLabel, OffloadOptimizer, OffloadParams,
        SplitDataParallel, SplitSharded, PeakPhase, PhaseForward, PhaseBackward, PhaseOptimizerStep,
        PhaseTextEncoding, PhaseDenoising, PhaseDecoding, MaxSeqLen, MaxMicroBatch, CompMaster,
        CompAdapters, CompGradients, CompOptimizer, CompLogits, CompTemporary, CompTextEncoders,
        CompDenoiser, CompVae, CompVaeDecode, CompPersistent, CompIntermediates, CompCaches,
        CompWorkspaces, WhatMaster, WhatAdapters, WhatGradients, WhatOptimizer, WhatLogits,
        WhatTemporary, WhatTextEncoders, WhatDenoiser, WhatVae, WhatVaeDecode, WhatPersistent,
        WhatIntermediates, WhatCaches, WhatWorkspaces, GrowMaster, GrowAdapters, GrowGradients,
        GrowOptimizer, GrowLogits, GrowTemporary, GrowTextEncoders, GrowDenoiser, GrowVae,
        GrowVaeDecode, GrowPersistent, GrowIntermediates, GrowCaches, GrowWorkspaces, ShrinkMaster,
        ShrinkAdapters, ShrinkGradients, ShrinkOptimizer, ShrinkLogits, ShrinkTemporary,
        ShrinkTextEncoders, ShrinkDenoiser, ShrinkVae, ShrinkVaeDecode, ShrinkPersistent,
        ShrinkIntermediates, ShrinkCaches, ShrinkWorkspaces, MeasureMaster, MeasureAdapters,
        MeasureGradients, MeasureOptimizer, MeasureLogits, MeasureTemporary, MeasureTextEncoders,
        MeasureDenoiser, MeasureVae, MeasureVaeDecode, MeasurePersistent, MeasureIntermediates,
        MeasureCaches, MeasureWorkspaces, GenLegend, PipelineLabel, WidthLabel, HeightLabel,
        FramesLabel, BatchLabel, GuidanceLabel, AttentionLabel, AttnSdpa, AttnNaive, OffloadLabel,
        OffloadNone, OffloadModel, OffloadSequential, VaeTiling, VaeSlicing, DropT5, DenoiserFormat,
        TextEncoderFormat, AsCheckpoint, CustomLegend, CustomHint, ItemName, ItemKind, ItemSize,
        ItemCount, AddItem, RemoveItem, ExampleItemScene, ExampleItemFrames, ExampleItemWorkspace, MaxResolution, MaxFrames, ResolutionChart, FramesChart,
        FileDropTitle, FileDropPrompt, FileDropPrivacy, FileDropReading, FileDropRefused, FileTensors, FileExactWeights, FileElements, FileArch, FileFiles, FileEstimateCheck, FileApplied, FileNoModel, FileBrowserError, FileReaderUnavailable, HeaderNotRecognized, HeaderMixedFormats, HeaderTruncated, HeaderTooLarge, HeaderUnsupportedVersion, HeaderShardSet, HeaderMalformed, PageTitle, ChartLegendImage, ChartLegendVideo, ChartCaptionSequence, ChartLegendSequence, WarnDoesNotFitTrain, WarnWithinHeadroomTrain, NoImageFits, NoFramesFit, GuidanceDistilled,
        VerdictFitsPool, SpeedServing, SpeedServingOne, SpeedTraining, SpeedGeneration, Seconds, Milliseconds, UsdPerHour, UsdPerMillion, PriceReference, PriceUser, OffersTitle, RankPrice, RankCostPerToken, RankSpeed, ColPlan, ColGibPerGpu, ColTokPerRequest, ColTokAll, ColFirstToken, ColPerHour, ColPerMillion, ColSpeed, ColWhere, AvailCloud, AvailMarketplace, AvailBuy, SideBySideTitle, NoPrice, RankLabel, ReachLabel, ReachCloud, ReachMarketplace, ReachBuy, PriceLabel, PriceHint, PriceHintNone, ProblemPrice, LeftOutTitle, GapEngine, GapBitsandbytes, GapBf16, GapFp8, GapInt4, GapMxfp4, GapFlashAttention, SpeedHowTitle, SpeedHow, SpeedMeasure, SkipToAnswer, RunsOnTitle, RunsOnIntro, RunsOnShow, ColModel, ColFormat, ColMaxContext, ModelSummaryTrain, HeaderModelConfig, HeaderModelConfigUsed, KeepOffline, KeepOfflineSize, BusyFixes, VerdictDoesNotRun, WarnSoftwareDoesNotRun, WordWillNotRun, GuideMakeItRun, TrainedMaximum, SpeedHowSteps, SpeedMeasureSteps, CheckHeadroomPool, ConfigExpertsPerToken,
    }
}

keys! {
    /// A phrase with a count, declined by CLDR plural category (`{n}` is the count).
    PluralKey { Tokens, Sequences, Gpus, Requests, Layers }
}
