//! The generated PyTorch measurement script is valid Python for every golden scenario and format
//! family (`python3 -m py_compile`).

use vramfit_core::measure::pytorch_script;
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
            s.weights = vramfit_core::format::WeightFormat::from_id(weights).expect("format");
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
