//! Reads a wasm module's function names (the `name` custom section) and normalises Rust's
//! symbol names so that a list of them survives a rebuild (tools/split-wasm).
'use strict';

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

/** The entries of an import section whose body starts at `at`: [{ module, field, kind, descStart,
 * descEnd }], the description (kind byte and type) being bytes[descStart, descEnd). */
function importEntries(bytes, at) {
  const entries = [];
  let n;
  [n, at] = leb(bytes, at);
  const string = () => {
    let len;
    [len, at] = leb(bytes, at);
    const s = Buffer.from(bytes.subarray(at, at + len)).toString('utf8');
    at += len;
    return s;
  };
  for (let k = 0; k < n; k++) {
    const module = string();
    const field = string();
    const descStart = at;
    const kind = bytes[at++];
    let flags;
    if (kind === 0) [, at] = leb(bytes, at);
    else if (kind === 1) { at++; [flags, at] = leb(bytes, at); [, at] = leb(bytes, at); if (flags & 1) [, at] = leb(bytes, at); }
    else if (kind === 2) { [flags, at] = leb(bytes, at); [, at] = leb(bytes, at); if (flags & 1) [, at] = leb(bytes, at); }
    else if (kind === 3) at += 2;
    else if (kind === 4) { at++; [, at] = leb(bytes, at); }
    else throw new Error(`import kind ${kind} not understood`);
    entries.push({ module, field, kind, descStart, descEnd: at });
  }
  return entries;
}

/** { imported: number of imported functions, defined: number of defined functions, tables: number
 *   of tables (imported and defined), memoriesImported: number of imported memories,
 *   names: Map(function index (imports first) → name) } */
function functionNames(bytes) {
  let at = 8;
  let imported = 0;
  let defined = 0;
  let tables = 0;
  let memories = 0;
  const names = new Map();
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    const end = at + size;
    if (id === 2) {
      for (const { kind } of importEntries(bytes, at)) {
        if (kind === 0) imported++;
        else if (kind === 1) tables++;
        else if (kind === 2) memories++;
      }
    } else if (id === 3) {
      [defined] = leb(bytes, at);
    } else if (id === 4) {
      const [n] = leb(bytes, at);
      tables += n;
    } else if (id === 0) {
      let len;
      let j;
      [len, j] = leb(bytes, at);
      const section = Buffer.from(bytes.subarray(j, j + len)).toString('utf8');
      j += len;
      if (section === 'name') {
        while (j < end) {
          const sub = bytes[j++];
          let subSize;
          [subSize, j] = leb(bytes, j);
          const subEnd = j + subSize;
          if (sub === 1) {
            let n;
            let k = j;
            [n, k] = leb(bytes, k);
            for (let i = 0; i < n; i++) {
              let index;
              let l;
              [index, k] = leb(bytes, k);
              [l, k] = leb(bytes, k);
              names.set(index, Buffer.from(bytes.subarray(k, k + l)).toString('utf8'));
              k += l;
            }
          }
          j = subEnd;
        }
      }
    }
    at = end;
  }
  return { imported, defined, tables, memoriesImported: memories, names };
}

/** A Rust symbol without what changes from build to build: crate disambiguators (`core[0a1b…]`),
 * legacy hashes (`::h0123…`) and the `.1234` suffixes that make duplicate names unique. */
function normalise(name) {
  return name
    .replace(/\[[0-9a-f]{6,}\]/g, '')
    .replace(/::h[0-9a-f]{16}\b/g, '')
    .replace(/\.\d+$/, '');
}

/** The name Binaryen's tools use for a function: the characters a text-format identifier cannot
 * hold written as `\xx` (wasm-split --keep-funcs matches these). */
function binaryenName(name) {
  const ok = /[0-9A-Za-z!#$%&'*+\-./:<=>?@\\^_`|~]/;
  let out = '';
  for (const ch of name) {
    if (ok.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `\\${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

module.exports = { functionNames, importEntries, normalise, binaryenName, leb };
