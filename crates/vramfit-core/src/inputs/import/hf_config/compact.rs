//! What a scenario keeps of a pasted `config.json`: the arrays and objects the reader never
//! needs (more than [`MAX_CONFIG_ENTRIES`] entries, and the label maps of [`NEVER_READ`]) dropped.
//! A link writes the compacted config too (`adapters/query.rs`): a classifier's `id2label` map
//! made a link too long for a static server to accept.

use serde_json::Value;

/// Most entries an array or object of a pasted config keeps in a scenario; past it the entry is
/// dropped. Nothing the reader uses comes close (per-layer lists are at most 1024 long, the layer
/// ceiling); what does is what a config may carry beside the architecture (`id2label` maps,
/// tokenizer tables), which every copy of the scenario — one per fix tried — would otherwise
/// carry too.
pub const MAX_CONFIG_ENTRIES: usize = 4096;

/// Keys a config may carry that the reader never reads and that can be long: a classifier's label
/// maps.
pub const NEVER_READ: [&str; 2] = ["id2label", "label2id"];

/// `value` without the arrays and objects the reader never needs (more than
/// [`MAX_CONFIG_ENTRIES`] entries, or under a key of [`NEVER_READ`]), at any depth.
pub fn compact(value: &Value) -> Value {
    match value {
        Value::Array(a) => Value::Array(a.iter().map(compact).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| !NEVER_READ.contains(&k.as_str()))
                .filter(|(_, v)| match v {
                    Value::Array(a) => a.len() <= MAX_CONFIG_ENTRIES,
                    Value::Object(m) => m.len() <= MAX_CONFIG_ENTRIES,
                    _ => true,
                })
                .map(|(k, v)| (k.clone(), compact(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether [`compact`] would drop anything from `value`.
pub fn needs_compacting(value: &Value) -> bool {
    match value {
        Value::Array(a) => a.len() > MAX_CONFIG_ENTRIES || a.iter().any(needs_compacting),
        Value::Object(o) => {
            o.len() > MAX_CONFIG_ENTRIES
                || o.keys().any(|k| NEVER_READ.contains(&k.as_str()))
                || o.values().any(needs_compacting)
        }
        _ => false,
    }
}
