//! Short names for the JS functions the primary module imports (tools/postbuild).
//!
//! wasm-bindgen names each import after its Rust function and a 16-digit hash
//! (`__wbg_timeout_6d701c12be1d4627`, under the module `./vramfit-web_bg.js`), and the names
//! appear twice before the first answer: in the wasm's import section and as the keys of the JS
//! import object. The hashes do not compress. Here both get short names (`a`, `b`, … under the
//! module `w`): the wasm's import section is rewritten, and each key of wasm-bindgen's import
//! object (`__wbg_get_imports`) with it. Nothing changes unless every import is found exactly once
//! as a key there.
'use strict';
const { importEntries, sections, uleb } = require('./wasm');

/** The module wasm-bindgen imports its JS under (`./<name>_bg.js`), and the short one. */
const BINDGEN_MODULE = /^\.\/[\w.-]+_bg\.js$/;
const SHORT_MODULE = 'w';

const name = (s) => Buffer.concat([uleb(Buffer.byteLength(s)), Buffer.from(s)]);

/** `i` as a short identifier: a … z, A … Z, then two letters and more. */
function shortName(i) {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let s = '';
  do {
    s = letters[i % letters.length] + s;
    i = Math.floor(i / letters.length) - 1;
  } while (i >= 0);
  return s;
}

/** { wasm, js } with wasm-bindgen's imports renamed in both, or null (and why) when the JS does not
 * hold each import exactly once as a key of its import object. */
function shortenImports(wasm, js) {
  const all = sections(wasm);
  const imports = all.find((s) => s.id === 2);
  if (!imports) return { why: 'no import section' };
  // Rewrite the import section, collecting the renames.
  const renames = new Map();
  let bindgen = null;
  const entries = importEntries(wasm, imports.body);
  const body = [uleb(entries.length)];
  for (const entry of entries) {
    let { module, field } = entry;
    if (BINDGEN_MODULE.test(module)) {
      if (bindgen !== null && bindgen !== module) return { why: `imports from ${bindgen} and ${module}` };
      bindgen = module;
      if (!renames.has(field)) renames.set(field, shortName(renames.size));
      module = SHORT_MODULE;
      field = renames.get(field);
    }
    body.push(name(module), name(field), wasm.subarray(entry.descStart, entry.descEnd));
  }
  if (renames.size === 0) return { why: 'no imports from wasm-bindgen\'s JS' };
  // The JS: each name once, as a key of the import object (`        name: function`).
  let out = js;
  for (const [long, short] of renames) {
    const key = new RegExp(`\\n(\\s+)${long}:( function| \\()`, 'g');
    const found = out.match(key);
    if (!found || found.length !== 1) return { why: `${long} is not one key of the import object` };
    out = out.replace(key, `\n$1${short}:$2`);
  }
  const moduleKey = `"${bindgen}": import0,`;
  if (out.split(moduleKey).length !== 2) return { why: `no ${moduleKey} in the JS` };
  out = out.replace(moduleKey, `${SHORT_MODULE}: import0,`);
  const section = Buffer.concat(body);
  const parts = [wasm.subarray(0, 8)];
  for (const s of all) {
    if (s.id === 2) parts.push(Buffer.from([2]), uleb(section.length), section);
    else parts.push(wasm.subarray(s.start, s.end));
  }
  return { wasm: Buffer.concat(parts), js: out, renamed: renames.size };
}

module.exports = { shortenImports, shortName };
