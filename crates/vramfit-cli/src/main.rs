//! `vramfit`: reads a scenario JSON (file or `-` for stdin) and prints the estimate as JSON.
//!
//! ```text
//! vramfit estimate scenario.json
//! echo '{"model":{"catalog":"qwen2.5-7b-instruct"},"weights":"bf16",
//!        "workload":{"inference":{"context_tokens":32768,"sequences":8}},
//!        "hardware":{"gpu":"l40s","count":1}}' | vramfit estimate -
//! ```
//! `vramfit script pytorch|train|diffusers|vllm|llama-server FILE|-` prints the measurement script or command line
//! for the scenario. `vramfit catalog models|gpus|pipelines` prints a catalog as a JSON array.
//! `vramfit runs-on GPU [--count N] [--engine E]` lists every catalog model in its common formats
//! on the card (fits, largest context, decode tokens/s).
//! `vramfit inspect FILE [FILE …]` reads safetensors / GGUF headers (shards or splits of one model
//! together) and prints their exact weights as JSON.
//! Errors go to stderr as one JSON object (`{"error": …}`) with exit code 1 (bad scenario) or 2
//! (bad command line / unreadable file).

use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "usage: vramfit estimate FILE|-                          scenario JSON in, estimate JSON out
       vramfit script pytorch|train|diffusers|vllm|llama-server FILE|-  the measurement script / command
       vramfit catalog models|gpus|pipelines             a catalog as JSON (ids, names, repo ids, sizes, sources)
       vramfit inspect FILE [FILE ...]                   safetensors / GGUF headers in, exact weights JSON out
       vramfit runs-on GPU [--count N] [--engine E]      every catalog model on the card: fits, largest context, tokens/s";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [cmd, paths @ ..] = args.as_slice() {
        if cmd == "inspect" && !paths.is_empty() {
            return match vramfit_cli::inspect::inspect_paths(paths) {
                Ok((json, _)) => {
                    println!("{json}");
                    ExitCode::SUCCESS
                }
                Err((code, json)) => {
                    eprintln!("{json}");
                    ExitCode::from(code)
                }
            };
        }
    }
    if let [cmd, rest @ ..] = args.as_slice() {
        if cmd == "runs-on" {
            return match vramfit_cli::runs_on(rest) {
                Ok(json) => {
                    println!("{json}");
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!(
                        "{}",
                        serde_json::json!({"error": {"kind": "usage", "message": message}})
                    );
                    eprintln!("{USAGE}");
                    ExitCode::from(2)
                }
            };
        }
    }
    if let [cmd, which] = args.as_slice() {
        if cmd == "catalog" {
            return match vramfit_cli::catalog(which) {
                Some(json) => {
                    println!("{json}");
                    ExitCode::SUCCESS
                }
                None => {
                    eprintln!("{USAGE}");
                    ExitCode::from(2)
                }
            };
        }
    }
    let (kind, path) = match args.as_slice() {
        [cmd, path] if cmd == "estimate" => (None, path),
        [cmd, kind, path]
            if cmd == "script"
                && ["pytorch", "train", "diffusers", "vllm", "llama-server"]
                    .contains(&kind.as_str()) =>
        {
            (Some(kind.as_str()), path)
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let text = match read_input(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "{}",
                serde_json::json!({"error": {"kind": "io", "path": path, "message": e.to_string()}})
            );
            return ExitCode::from(2);
        }
    };
    let result = match kind {
        Some(kind) => vramfit_cli::script(kind, &text),
        None => vramfit_cli::run(&text),
    };
    match result {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(json) => {
            eprintln!("{json}");
            ExitCode::from(1)
        }
    }
}

fn read_input(path: &str) -> std::io::Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
    }
}
