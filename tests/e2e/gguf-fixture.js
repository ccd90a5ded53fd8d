// Writers of GGUF files for the browser tests (layout: ggml/docs/gguf.md; type sizes:
// ggml-common.h). Only the header is written; the file is extended sparse to its full size.
const fs = require('fs');
const path = require('path');

const F32 = 0, Q4_K = 12, Q6_K = 14;
/** Bytes of `n` elements of a ggml type (block size, bytes per block: ggml-common.h). */
const typeBytes = (type, n) => ({ [F32]: n * 4, [Q4_K]: (n / 256) * 144, [Q6_K]: (n / 256) * 210 })[type];

function str(s) {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(b.length));
  return Buffer.concat([len, b]);
}
const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; };
const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; };
const f32 = (v) => { const b = Buffer.alloc(4); b.writeFloatLE(v); return b; };

/** A GGUF v3 file in `dir` with Llama 3.1 8B's shapes in a Q4_K_M-like mix, written sparse; returns its
 * path, the exact tensor bytes and the tensor count. */
function llamaGguf(dir) {
  const H = 4096, KV = 1024, FF = 14336, V = 128256, L = 32;
  const tensors = [['token_embd.weight', [H, V], Q4_K]];
  for (let i = 0; i < L; i++) {
    const b = `blk.${i}.`;
    tensors.push([b + 'attn_norm.weight', [H], F32], [b + 'attn_q.weight', [H, H], Q4_K],
      [b + 'attn_k.weight', [H, KV], Q4_K], [b + 'attn_v.weight', [H, KV], Q6_K],
      [b + 'attn_output.weight', [H, H], Q4_K], [b + 'ffn_norm.weight', [H], F32],
      [b + 'ffn_gate.weight', [H, FF], Q4_K], [b + 'ffn_up.weight', [H, FF], Q4_K],
      [b + 'ffn_down.weight', [FF, H], Q6_K]);
  }
  tensors.push(['output_norm.weight', [H], F32], ['output.weight', [H, V], Q6_K]);
  const kvs = [
    ['general.architecture', 8, str('llama')], ['general.name', 8, str('Llama 3.1 8B (test)')],
    ['general.file_type', 4, u32(15)], ['llama.block_count', 4, u32(L)],
    ['llama.context_length', 4, u32(131072)], ['llama.embedding_length', 4, u32(H)],
    ['llama.feed_forward_length', 4, u32(FF)], ['llama.attention.head_count', 4, u32(32)],
    ['llama.attention.head_count_kv', 4, u32(8)], ['llama.rope.freq_base', 6, f32(500000)],
    ['llama.vocab_size', 4, u32(V)],
  ];
  const parts = [Buffer.from('GGUF'), u32(3), u64(tensors.length), u64(kvs.length)];
  for (const [k, type, v] of kvs) parts.push(str(k), u32(type), v);
  let offset = 0, total = 0;
  for (const [name, ne, type] of tensors) {
    parts.push(str(name), u32(ne.length), ...ne.map(u64), u32(type), u64(offset));
    const bytes = typeBytes(type, ne.reduce((a, b) => a * b, 1));
    total += bytes;
    offset += Math.ceil(bytes / 32) * 32;
  }
  let header = Buffer.concat(parts);
  header = Buffer.concat([header, Buffer.alloc((32 - (header.length % 32)) % 32)]);
  const file = path.join(dir, 'Llama-3.1-8B-test-Q4_K_M.gguf');
  fs.writeFileSync(file, header);
  const last = tensors[tensors.length - 1];
  fs.truncateSync(file, header.length + offset - Math.ceil(typeBytes(last[2], last[1][0] * last[1][1]) / 32) * 32
    + typeBytes(last[2], last[1][0] * last[1][1]));
  return { file, tensorBytes: total, count: tensors.length };
}

module.exports = { llamaGguf, u32, u64, str };
