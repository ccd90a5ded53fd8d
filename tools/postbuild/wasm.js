//! The wasm binary format, as much of it as the post-build program reads and writes: LEB128
//! numbers, the sections, the import section, the function count and the `name` section's
//! function names, and dropping the linker's custom sections.
'use strict';

/** An unsigned LEB128 at `at`: [value, the offset after it]. */
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

/** `value` as an unsigned LEB128. */
function uleb(value) {
  const out = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return Buffer.from(out);
}

/** `value` (a 32-bit integer) as a signed LEB128: `i32.const`'s operand. */
function sleb(value) {
  const out = [];
  for (;;) {
    const b = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (b & 0x40) === 0) || (value === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return Buffer.from(out);
    }
    out.push(b | 0x80);
  }
}

/** The module's sections: [{ id, start (its id byte), body, end }]. */
function sections(bytes) {
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    out.push({ id, start, body: at, end: at + size });
    at += size;
  }
  return out;
}

/** A custom section's name. */
function customName(bytes, section) {
  const [len, at] = leb(bytes, section.body);
  return Buffer.from(bytes.subarray(at, at + len)).toString('utf8');
}

/** Where a custom section's content starts (after its name). */
function customBody(bytes, section) {
  const [len, at] = leb(bytes, section.body);
  return at + len;
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
  let imported = 0;
  let defined = 0;
  let tables = 0;
  let memories = 0;
  const names = new Map();
  for (const s of sections(bytes)) {
    if (s.id === 2) {
      for (const { kind } of importEntries(bytes, s.body)) {
        if (kind === 0) imported++;
        else if (kind === 1) tables++;
        else if (kind === 2) memories++;
      }
    } else if (s.id === 3) {
      [defined] = leb(bytes, s.body);
    } else if (s.id === 4) {
      tables += leb(bytes, s.body)[0];
    } else if (s.id === 0 && customName(bytes, s) === 'name') {
      let j = customBody(bytes, s);
      while (j < s.end) {
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
  return { imported, defined, tables, memoriesImported: memories, names };
}

/** The module without the linker's custom sections (`linking`, `reloc.*`: the app's wasm is
 * linked with `--emit-relocs` for cold-data.js, and after wasm-bindgen and wasm-opt they are
 * stale). */
function withoutLinkerSections(bytes) {
  const out = [bytes.subarray(0, 8)];
  for (const s of sections(bytes)) {
    if (s.id === 0) {
      const name = customName(bytes, s);
      if (name === 'linking' || name.startsWith('reloc.')) continue;
    }
    out.push(bytes.subarray(s.start, s.end));
  }
  return Buffer.concat(out);
}

module.exports = {
  leb, uleb, sleb, sections, customName, customBody, importEntries, functionNames, withoutLinkerSections,
};
