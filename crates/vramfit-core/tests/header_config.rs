//! A model's `config.json` dropped where weights go is named as such (it once read as a
//! "malformed or crafted" header), whatever its file name.

use vramfit_core::header::{inspect, ErrorKind, InputFile, RefusalClass};

#[test]
fn a_config_json_is_said_to_be_one() {
    let config =
        br#"{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096}"#;
    for name in ["config.json", "download (1)"] {
        let err = inspect(&[InputFile {
            name,
            bytes: config,
            size: config.len() as u64,
        }])
        .expect_err("not weights");
        assert_eq!(err.kind, ErrorKind::ModelConfig, "{name}");
        assert_eq!(err.kind.class(), RefusalClass::ModelConfig);
    }
    // An index is still read as one.
    let index =
        br#"{"metadata":{"total_size":8},"weight_map":{"w":"model-00001-of-00001.safetensors"}}"#;
    let err = inspect(&[InputFile {
        name: "model.safetensors.index.json",
        bytes: index,
        size: index.len() as u64,
    }])
    .expect_err("the shard is missing");
    assert_ne!(err.kind, ErrorKind::ModelConfig);
}
