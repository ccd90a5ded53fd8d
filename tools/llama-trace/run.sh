#!/usr/bin/env bash
# Build llama.cpp for the CPU, write the trace GGUFs and sweep them into tests/traces/llama_cpp/.
# usage: tools/llama-trace/run.sh LLAMA_CPP_SRC   (see README.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [ ! -x "$here/.venv/bin/cmake" ]; then
  python3 -m venv "$here/.venv"
  "$here/.venv/bin/pip" install -q cmake ninja
fi
export PATH="$here/.venv/bin:$PATH"
"$here/build.sh" "$1" "$here/build"
gguf=${GGUF_DIR:-/tmp/llama-trace}
mkdir -p "$gguf"
cd "$here" && python3 sweep.py "$here/build" "$gguf" "$repo/tests/traces/llama_cpp"
