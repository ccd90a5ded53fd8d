# Sourced by the scripts: puts the project's tools on PATH.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.tools/node_modules/binaryen/bin:$HOME/.cargo/bin:$PATH"
