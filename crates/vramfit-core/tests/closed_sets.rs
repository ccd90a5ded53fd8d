//! Every closed set the page lists from the core (`ALL`, `id()`): each value once, and each `id`
//! the spelling a scenario uses (serde's), so an option the page offers always parses back. (A
//! variant missing from `closed_set!`'s list does not compile: `id` is an exhaustive match.)

use serde::{de::DeserializeOwned, Serialize};
use vramfit_core::{
    Attention, Checkpointing, ItemKind, LoraTargets, Method, Offload, Optimizer, Sharding,
    TrainPrecision,
};

fn holds<T: Copy + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned>(
    all: &[T],
    id: impl Fn(T) -> &'static str,
) {
    for (i, &v) in all.iter().enumerate() {
        assert_eq!(serde_json::to_value(v).expect("serialises"), id(v), "{v:?}");
        let back: T = serde_json::from_value(serde_json::Value::from(id(v))).expect("parses");
        assert_eq!(back, v);
        assert!(!all[..i].contains(&v), "{v:?} twice");
    }
}

#[test]
fn each_id_is_the_scenarios_spelling_and_each_value_is_listed_once() {
    holds(&Method::ALL, Method::id);
    holds(&LoraTargets::ALL, LoraTargets::id);
    holds(&TrainPrecision::ALL, TrainPrecision::id);
    holds(&Optimizer::ALL, Optimizer::id);
    holds(&Checkpointing::ALL, Checkpointing::id);
    holds(&Sharding::ALL, Sharding::id);
    holds(&Attention::ALL, Attention::id);
    holds(&Offload::ALL, Offload::id);
    holds(&ItemKind::ALL, ItemKind::id);
}
