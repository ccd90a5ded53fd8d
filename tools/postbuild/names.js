//! Function names across builds and tools: Rust's symbols without what changes from build to build
//! (tools/split-wasm/keep.txt lists them so), and the escaped form Binaryen's tools match
//! (`wasm-split --keep-funcs`).
'use strict';

/** A Rust symbol without what changes from build to build: crate disambiguators (`core[0a1b…]`),
 * legacy hashes (`::h0123…`) and the `.1234` suffixes that make duplicate names unique. */
function normalise(name) {
  return name
    .replace(/\[[0-9a-f]{6,}\]/g, '')
    .replace(/::h[0-9a-f]{16}\b/g, '')
    .replace(/\.\d+$/, '');
}

/** The name Binaryen's tools use for a function: the characters a text-format identifier cannot
 * hold written as `\xx`, byte by byte of their UTF-8 (wasm-split --keep-funcs matches these). */
function binaryenName(name) {
  const ok = /[0-9A-Za-z!#$%&'*+\-./:<=>?@\\^_`|~]/;
  let out = '';
  for (const ch of name) {
    if (ok.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `\\${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

module.exports = { normalise, binaryenName };
