// Create a llama.cpp context on the CPU and exit: llama.cpp logs its own buffer sizes
// (`llama_context: CPU compute buffer size = … MiB`, `llama_kv_cache: … KV buffer size …`).
// Nothing is evaluated: no warm-up, no decode.
//
// usage: llama-trace MODEL.gguf n_ctx n_batch n_ubatch fa(0|1) type_k type_v n_seq [n_outputs_max] [kv_unified]
#include "llama.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static ggml_type parse_type(const char * s) {
    if (!strcmp(s, "f16")) return GGML_TYPE_F16;
    if (!strcmp(s, "f32")) return GGML_TYPE_F32;
    if (!strcmp(s, "q8_0")) return GGML_TYPE_Q8_0;
    if (!strcmp(s, "q4_0")) return GGML_TYPE_Q4_0;
    fprintf(stderr, "unknown cache type %s\n", s);
    exit(2);
}

int main(int argc, char ** argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: %s MODEL n_ctx n_batch n_ubatch fa type_k type_v n_seq [n_outputs_max] [kv_unified]\n", argv[0]);
        return 2;
    }
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    mp.use_extra_bufts = false;  // no weight repacking: weights are never read
    // llama.cpp's own dry run (`no_alloc`, as `llama-fit-params` uses): the weights, the KV cache
    // and the compute buffer are sized, not allocated; `~llama_context` checks that a real
    // allocation gives the same compute buffer size. LLAMA_TRACE_ALLOC=1 allocates for real
    // (the sparse GGUF is mapped; its zero pages are faulted in).
    mp.no_alloc = getenv("LLAMA_TRACE_ALLOC") == nullptr;
    if (mp.no_alloc) {
        mp.load_mode = LLAMA_LOAD_MODE_NONE;  // the dry run maps nothing
    }
    llama_model * model = llama_model_load_from_file(argv[1], mp);
    if (!model) return 1;
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = atoi(argv[2]);
    cp.n_batch = atoi(argv[3]);
    cp.n_ubatch = atoi(argv[4]);
    cp.flash_attn_type = atoi(argv[5]) ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
    cp.type_k = parse_type(argv[6]);
    cp.type_v = parse_type(argv[7]);
    cp.n_seq_max = atoi(argv[8]);
    if (argc > 9) cp.n_outputs_max = atoi(argv[9]);
    if (argc > 10) cp.kv_unified = atoi(argv[10]) != 0;
    cp.swa_full = false;  // as llama-cli / llama-server (`--swa-full` off); the API defaults to true
    cp.n_threads = 1;
    cp.n_threads_batch = 1;
    llama_context * ctx = llama_init_from_model(model, cp);
    if (!ctx) return 1;
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    return 0;
}
