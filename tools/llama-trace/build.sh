#!/usr/bin/env bash
# Build llama.cpp (CPU only, libllama + ggml, static) and the `llama-trace` tool against it.
#
# usage: tools/llama-trace/build.sh LLAMA_CPP_SRC [BUILD_DIR]
#   LLAMA_CPP_SRC: a llama.cpp checkout (its commit is recorded), or an extracted tree; for a tree
#   without .git set LLAMA_CPP_SOURCE to say where it came from (recorded instead of a commit).
# Needs cmake and ninja (e.g. `pip install cmake ninja` in tools/llama-trace/.venv).
# Nothing is evaluated by the tool, so the build is -O0: graph reservation sizes tensors by shape,
# and the compute buffer does not depend on the optimisation level.
set -euo pipefail
src=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
build=${2:-$here/build}
mkdir -p "$build"
if git -C "$src" rev-parse HEAD >/dev/null 2>&1; then
  echo "ggml-org/llama.cpp $(git -C "$src" rev-parse HEAD)" > "$build/llama.cpp-source.txt"
else
  echo "${LLAMA_CPP_SOURCE:?set LLAMA_CPP_SOURCE for a tree without .git}" > "$build/llama.cpp-source.txt"
fi
cmake -G Ninja -S "$src" -B "$build/llama.cpp" \
  -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DGGML_OPENMP=OFF -DGGML_LLAMAFILE=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
  -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_COMMON=OFF -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O0 -DCMAKE_CXX_FLAGS_RELEASE=-O0
nice -n 19 cmake --build "$build/llama.cpp" --target llama -j"${JOBS:-2}"
b="$build/llama.cpp"
g++ -std=c++17 -O0 -I "$src/include" -I "$src/ggml/include" "$here/trace.cpp" -o "$build/llama-trace" \
  "$b/src/libllama.a" "$b/ggml/src/libggml.a" "$b/ggml/src/libggml-cpu.a" "$b/ggml/src/libggml-base.a" \
  -lpthread -ldl -lm
echo "built $build/llama-trace from $(cat "$build/llama.cpp-source.txt")"
