//! The generated PyTorch measurement script is valid Python for every golden scenario and format
//! family (`python3 -m py_compile`).

use vramfit_core::measure::{diffusers_script, llama_server_command, pytorch_script, vllm_command};
use vramfit_core::Scenario;
use vramfit_tests::repo_root;

#[test]
fn generated_pytorch_scripts_compile() {
    let dir = repo_root().join("tests").join("scenarios");
    let out = std::env::temp_dir().join(format!("vramfit-scripts-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("temp dir");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/scenarios") {
        let path = entry.expect("entry").path();
        if path.to_string_lossy().ends_with(".expected.json") {
            continue;
        }
        let Ok(s) =
            serde_json::from_str::<Scenario>(&std::fs::read_to_string(&path).expect("read"))
        else {
            continue;
        };
        for weights in [
            "bf16",
            "fp16",
            "bnb-nf4-dq",
            "bnb-int8",
            "gptq-int4-g128",
            "gguf-q4_k_m",
        ] {
            let mut s = s.clone();
            s.weights = vramfit_core::WeightFormat::from_id(weights).expect("format");
            let file = out.join(format!("s{n}.py"));
            std::fs::write(&file, pytorch_script(&s)).expect("write");
            let status = std::process::Command::new("python3")
                .args(["-m", "py_compile"])
                .arg(&file)
                .status()
                .expect("python3 runs");
            assert!(
                status.success(),
                "{} with {weights} does not compile",
                path.display()
            );
            n += 1;
        }
    }
    assert!(n >= 30, "only {n} scripts checked");
    let _ = std::fs::remove_dir_all(&out);
}

fn compiles(name: &str, code: &str) {
    let out = std::env::temp_dir().join(format!("vramfit-{}-{name}.py", std::process::id()));
    std::fs::write(&out, code).expect("write");
    let status = std::process::Command::new("python3")
        .args(["-m", "py_compile"])
        .arg(&out)
        .status()
        .expect("python3 runs");
    let _ = std::fs::remove_file(&out);
    assert!(status.success(), "{name} does not compile:\n{code}");
}

fn scenario(json: &str) -> Scenario {
    serde_json::from_str(json).expect("scenario")
}

#[test]
fn generated_diffusers_scripts_compile() {
    for (name, json) in [
        (
            "flux",
            r#"{"workload":{"generate_image":{"pipeline":"flux1-dev","width":1024,"height":768,"batch":2,"offload":"model","vae_tiling":true,"drop_text_encoders":["t5_xxl"]}},"weights":"bf16"}"#,
        ),
        (
            "wan",
            r#"{"workload":{"generate_video":{"pipeline":"wan21-t2v-1.3b","width":832,"height":480,"frames":81,"offload":"sequential","guidance":false}},"weights":"bf16"}"#,
        ),
    ] {
        let code = diffusers_script(&scenario(json)).expect("a generation script");
        compiles(name, &code);
    }
    assert!(diffusers_script(&Scenario::example()).is_none());
}

/// The script loads the denoiser in the dtype the budget counts: Wan's transformer is stored in
/// fp32, so "as the checkpoint" measures fp32, and a bf16 denoiser measures bf16 (a user audit
/// found the budget at 4 bytes a parameter beside a script loading bf16).
#[test]
fn the_diffusers_script_loads_the_dtype_the_budget_counts() {
    let wan = |format: &str| {
        diffusers_script(&scenario(&format!(
            r#"{{"workload":{{"generate_video":{{"pipeline":"wan21-t2v-14b","width":1280,"height":720,"frames":81{format}}}}}}}"#
        )))
        .expect("a generation script")
    };
    assert!(wan("").contains("torch_dtype=torch.float32"));
    assert!(wan(r#","denoiser_format":"bf16""#).contains("torch_dtype=torch.bfloat16"));
    let flux = diffusers_script(&scenario(
        r#"{"workload":{"generate_image":{"pipeline":"flux1-dev","width":1024,"height":1024}}}"#,
    ))
    .expect("a generation script");
    assert!(flux.contains("torch_dtype=torch.bfloat16"));
}

#[test]
fn multi_gpu_pytorch_script_uses_every_gpu() {
    let s = scenario(
        r#"{"model":{"catalog":"llama-3.1-70b-instruct"},"weights":"awq-int4-g128","workload":{"inference":{"context_tokens":32768,"sequences":8}},"hardware":{"gpu":"h100-sxm-80gb","count":2}}"#,
    );
    let code = pytorch_script(&s);
    assert!(
        code.contains("device_map='auto'") && code.contains("range(2)"),
        "{code}"
    );
    compiles("tp2", &code);
}

#[test]
fn commands_follow_the_scenario() {
    // A quantised model on two cards with an fp8 cache: 70B AWQ, 8 sequences, 2 GPUs.
    let s = scenario(
        r#"{"model":{"catalog":"llama-3.1-70b-instruct"},"weights":"awq-int4-g128","kv_cache":"fp8","workload":{"inference":{"context_tokens":32768,"sequences":8}},"hardware":{"gpu":"h100-sxm-80gb","count":2},"engine":{"vllm":{}}}"#,
    );
    let v = vllm_command(&s);
    for flag in [
        "--max-model-len 32768",
        "--max-num-seqs 8",
        "--tensor-parallel-size 2",
        "--quantization awq",
        "--kv-cache-dtype fp8",
    ] {
        assert!(v.contains(flag), "{flag} missing:\n{v}");
    }
    let mut s = s.clone();
    s.weights = vramfit_core::WeightFormat::from_id("gguf-q6_k").expect("format");
    let l = llama_server_command(&s);
    assert!(
        l.contains("Q6_K.gguf") && l.contains("-np 8") && l.contains("--tensor-split 1,1"),
        "{l}"
    );
    s.weights = vramfit_core::WeightFormat::Bf16;
    assert!(llama_server_command(&s).contains("BF16.gguf"));
}
