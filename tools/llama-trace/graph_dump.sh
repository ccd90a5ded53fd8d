#!/usr/bin/env bash
# Build `llama-trace-graph`: llama-trace linked with a copy of ggml-alloc.c that, when GA_TRACE is
# set, prints the reserved graph (GRAPH / LEAF / NODE lines: name, op, type, shape, bytes, view
# source, flags, sources) at the start of ggml_gallocr_alloc_graph_impl and ggml-alloc's own
# AT_PRINTF trace (each allocation with its offset, each in-place reuse, each free). That is what the
# core's graph replay (crates/vramfit-core/src/workloads/engine/llama_cpp/graph_alloc.rs) was checked against,
# node by node.
#
# usage: tools/llama-trace/graph_dump.sh LLAMA_CPP_SRC [BUILD_DIR]   (after build.sh)
#        GA_TRACE=1 BUILD_DIR/llama-trace-graph MODEL.gguf 4096 512 512 1 f16 f16 1 0 2>&1 | grep -E '^(LEAF|NODE)'
set -euo pipefail
src=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
build=${2:-$here/build}
b="$build/llama.cpp"
work="$build/alloc-trace"
mkdir -p "$work"
python3 - "$src/ggml/src/ggml-alloc.c" "$work/ggml-alloc.c" <<'PY'
import sys
s = open(sys.argv[1]).read()
s = s.replace('#define AT_PRINTF(...)\n',
    '#define AT_PRINTF(...) do { if (getenv("GA_TRACE")) fprintf(stderr, __VA_ARGS__); } while (0)\n', 1)
dump = r'''    if (getenv("GA_TRACE")) {
        fprintf(stderr, "GRAPH n_leafs=%d n_nodes=%d\n", graph->n_leafs, graph->n_nodes);
        for (int i = 0; i < graph->n_leafs; i++) { struct ggml_tensor * t = graph->leafs[i];
            fprintf(stderr, "LEAF %s op=%s bytes=%zu ext=%d flags=%d\n", t->name, ggml_op_name(t->op), ggml_nbytes(t), (t->data || t->buffer) ? 1 : 0, t->flags); }
        for (int i = 0; i < graph->n_nodes; i++) { struct ggml_tensor * t = graph->nodes[i];
            fprintf(stderr, "NODE %d %s op=%s type=%s ne=[%lld,%lld,%lld,%lld] bytes=%zu view=%s ext=%d flags=%d srcs=", i, t->name, ggml_op_name(t->op), ggml_type_name(t->type), (long long) t->ne[0], (long long) t->ne[1], (long long) t->ne[2], (long long) t->ne[3], ggml_nbytes(t), t->view_src ? t->view_src->name : "-", (t->data || t->buffer) ? 1 : 0, t->flags);
            for (int j = 0; j < GGML_MAX_SRC; j++) if (t->src[j]) fprintf(stderr, "%s|", t->src[j]->name);
            fprintf(stderr, "\n"); }
    }
'''
anchor = '    // allocate leafs\n'
assert anchor in s and 'AT_PRINTF(...) do' in s
s = s.replace(anchor, dump + anchor, 1)
open(sys.argv[2], 'w').write(s)
PY
cc -DGGML_SCHED_MAX_COPIES=4 -D_GNU_SOURCE -D_XOPEN_SOURCE=600 -I "$src/ggml/src" -I "$b/ggml/src" \
  -I "$src/ggml/include" -O0 -std=gnu11 -c "$work/ggml-alloc.c" -o "$work/ggml-alloc.o"
g++ -std=c++17 -O0 -I "$src/include" -I "$src/ggml/include" "$here/trace.cpp" -o "$build/llama-trace-graph" \
  "$work/ggml-alloc.o" "$b/src/libllama.a" "$b/ggml/src/libggml.a" "$b/ggml/src/libggml-cpu.a" \
  "$b/ggml/src/libggml-base.a" -lpthread -ldl -lm
echo "built $build/llama-trace-graph"
