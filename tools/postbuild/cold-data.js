//! Moves the data only the rest of the code reads from the primary module to the rest's
//! (tools/postbuild).
//!
//! `wasm-split` splits functions, not data: every string and table stays in the primary module,
//! though half of them only the rest's functions read. Here the linker's map
//! (`crates/vramfit-web/build.rs`) says where each piece of data (a static, a string, a switch
//! table) lies and how long it is: its input sections, the linker's unit, where the symbol table
//! would cut some sections into symbols that share them (one of std's `.rodata` holds many). A
//! piece is *hot* when the primary's code names an address in it (an `i32.const`, a load's or
//! store's constant offset, either half of an `i64.const`, which is how LLVM stores a string's
//! pointer and length at once), or when a hot piece holds such an address (a pointer in a table);
//! every other piece is *cold*. The cold pieces' bytes leave the primary's data segments and become
//! the rest's: an active segment is written when its module is instantiated, and every function
//! that can read a cold piece lives in the rest, so it runs only once the rest is there (a
//! placeholder called earlier loads the rest first: runtime.js).
//!
//! Addresses outside the piece they are for: LLVM names some pieces by a base below them
//! (`piece − k` for an index that starts at 1) or an end past them (`piece + size + k`); a few of
//! the app's code relocations do. The linker keeps its relocations in the linked wasm
//! (`--emit-relocs`), so each such address counts for the piece it was written for. A constant
//! that wasm-opt may have folded later is covered by `REACH`: a constant in the code that does not
//! start a piece keeps every piece within `REACH` bytes of it hot (wider than the strays LLVM
//! writes).
//!
//! Nothing moves (the build says why) unless the map is the one the linker wrote for this wasm:
//! written in the same link as the linked wasm beside it, whose memory is byte for byte this
//! module's. After the move, the primary's memory with the rest's segments written over it must
//! be the memory it started with, and the rest writes no byte of a hot mutable piece (`.data`).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { readSegments, writeDataSection, initialMemory } = require('./data-segments');
const { leb, sections, customName, customBody, functionNames } = require('./wasm');

/** Bytes around a constant in the code (one that does not start a piece) whose pieces stay hot. */
const REACH = 64;
/** Rest segments are joined across at most this many bytes of read-only data (rewritten with the
 * bytes already there): fewer segment headers. */
const MAX_JOIN = 128;

/** The data pieces of a wasm-ld map (`--Map`): [{ addr, size, section, name }] by address. */
function mapPieces(text) {
  const pieces = [];
  let section = null;
  let inData = false;
  for (const line of text.split('\n')) {
    const m = line.match(/^\s+([0-9a-f]+|-)\s+[0-9a-f]+\s+([0-9a-f]+)\s(.*)$/);
    if (!m) continue;
    // Columns: an output section's name follows the size after one space, an input piece's after
    // nine, a symbol's after seventeen.
    const what = m[3];
    if (m[1] === '-') { inData = what === 'DATA'; continue; }
    if (!inData) continue;
    if (!what.startsWith(' ')) { section = what; continue; }
    const input = what.match(/^ {8}\S.*:\((.*)\)$/);
    const size = parseInt(m[2], 16);
    if (input && size > 0) pieces.push({ addr: parseInt(m[1], 16), size, section, name: input[1] });
  }
  return pieces.sort((a, b) => a.addr - b.addr);
}

/** Every address-sized constant the module's code and globals name (wasm-dis's text). */
function constants(wasmPath, features) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-cold-'));
  const wat = path.join(tmp, 'primary.wat');
  try {
    execFileSync('wasm-dis', [...features, wasmPath, '-o', wat], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (e) {
    fs.rmSync(tmp, { recursive: true });
    return null;
  }
  const text = fs.readFileSync(wat, 'utf8');
  fs.rmSync(tmp, { recursive: true });
  const values = new Set();
  let read = 0;
  let seen = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(' (data ')) continue; // a segment's own offset
    seen += line.split(/i32\.const|i64\.const|offset=/).length - 1;
    for (const m of line.matchAll(/i32\.const (-?\d+)\b|offset=(\d+)\b|i64\.const (-?\d+)\b/g)) {
      read += 1;
      if (m[1] !== undefined) values.add(Number(m[1]) >>> 0);
      else if (m[2] !== undefined) values.add(Number(m[2]));
      else {
        const v = BigInt.asUintN(64, BigInt(m[3]));
        values.add(Number(v & 0xffffffffn));
        values.add(Number(v >> 32n));
      }
    }
  }
  // Every constant read as a decimal number, or none trusted (a wasm-dis that writes them
  // otherwise would hide addresses).
  return read === seen && read > 0 ? values : null;
}

/** The addresses the linked module's code names outside the piece they are for (LLVM's bases
 * `piece − k` and ends `piece + size + k`, from its relocations: `--emit-relocs`,
 * crates/vramfit-web/build.rs), as Map(address → [address of the piece]); null without
 * relocations. */
function strayAddresses(bytes) {
  const all = sections(bytes);
  const named = (name) => all.find((s) => s.id === 0 && customName(bytes, s) === name);
  const linking = named('linking');
  const relocs = all.filter((s) => s.id === 0 && /^reloc\./.test(customName(bytes, s)));
  const dataSec = all.find((s) => s.id === 11);
  if (!linking || relocs.length === 0 || !dataSec) return null;
  const segments = readSegments(bytes, dataSec.body, dataSec.end);
  if (!segments) return null;
  const sleb = (at) => {
    let v = 0n;
    let shift = 0n;
    let b;
    do { b = bytes[at++]; v |= BigInt(b & 0x7f) << shift; shift += 7n; } while (b & 0x80);
    if (b & 0x40) v -= 1n << shift;
    return [Number(v), at];
  };
  // The symbol table (linking section, subsection 8): data symbols' addresses and sizes.
  const symbols = [];
  let at = customBody(bytes, linking);
  [, at] = leb(bytes, at); // version
  while (at < linking.end) {
    const type = bytes[at++];
    let len;
    [len, at] = leb(bytes, at);
    const end = at + len;
    if (type === 8) {
      let n;
      [n, at] = leb(bytes, at);
      for (let i = 0; i < n; i++) {
        const kind = bytes[at++];
        let flags;
        [flags, at] = leb(bytes, at);
        const symbol = {};
        const skipName = () => { let l; [l, at] = leb(bytes, at); at += l; };
        if (kind === 1) {
          skipName();
          if (!(flags & 0x10)) {
            let segment; let offset; let size;
            [segment, at] = leb(bytes, at);
            [offset, at] = leb(bytes, at);
            [size, at] = leb(bytes, at);
            if (segments[segment]) Object.assign(symbol, { addr: segments[segment].offset + offset, size });
          }
        } else if (kind === 3) [, at] = leb(bytes, at);
        else {
          [, at] = leb(bytes, at);
          if (!(flags & 0x10) || (flags & 0x40)) skipName();
        }
        symbols.push(symbol);
      }
    }
    at = end;
  }
  const MEMORY_ADDR = new Set([3, 4, 5, 11, 14, 15, 16, 17]);
  const WITH_ADDEND = new Set([3, 4, 5, 8, 9, 11, 14, 15, 16, 17, 21, 22, 23, 25]);
  const stray = new Map();
  for (const r of relocs) {
    let p = customBody(bytes, r);
    let n;
    [, p] = leb(bytes, p);
    [n, p] = leb(bytes, p);
    for (let i = 0; i < n; i++) {
      const type = bytes[p++];
      let index;
      let addend = 0;
      [, p] = leb(bytes, p);
      [index, p] = leb(bytes, p);
      if (WITH_ADDEND.has(type)) [addend, p] = sleb(p);
      const symbol = symbols[index];
      if (!MEMORY_ADDR.has(type) || !symbol || symbol.addr === undefined) continue;
      if (addend >= 0 && addend < symbol.size) continue;
      const v = symbol.addr + addend;
      if (!stray.has(v)) stray.set(v, []);
      stray.get(v).push(symbol.addr);
    }
  }
  return stray;
}

/** Whether two modules' data segments write the same bytes at the same addresses (wasm-opt may
 * drop zeros at a segment's ends). */
function sameMemory(a, b) {
  const image = (bytes) => {
    const data = sections(bytes).find((s) => s.id === 11);
    const segments = data ? readSegments(bytes, data.body, data.end) : [];
    if (!segments) return null;
    const bytesAt = new Map();
    for (const s of segments) s.bytes.forEach((v, i) => { if (v !== 0) bytesAt.set(s.offset + i, v); });
    return bytesAt;
  };
  const x = image(a);
  const y = image(b);
  if (!x || !y || x.size !== y.size) return false;
  for (const [addr, v] of x) if (y.get(addr) !== v) return false;
  return true;
}

/** Which pieces are hot: named by `values` (within REACH), or pointed at by a hot piece. */
function hotPieces(pieces, values, memory, base, stray) {
  const lo = pieces[0].addr;
  const hi = pieces[pieces.length - 1].addr + pieces[pieces.length - 1].size;
  const hot = new Uint8Array(pieces.length);
  const work = [];
  // The piece holding `addr`, or -1 (padding, or outside the data).
  const at = (addr) => {
    let a = 0;
    let b = pieces.length - 1;
    while (a < b) {
      const m = (a + b + 1) >> 1;
      if (pieces[m].addr <= addr) a = m; else b = m - 1;
    }
    return addr >= pieces[a].addr && addr < pieces[a].addr + pieces[a].size ? a : -1;
  };
  const why = new Array(pieces.length);
  const mark = (i, reason) => {
    if (i >= 0 && !hot[i]) { hot[i] = 1; why[i] = reason; work.push(i); }
  };
  // An address: the piece it is in, and the pieces LLVM named it for when it lies outside them
  // (stray). A constant in the code within REACH of a piece it does not start also keeps the
  // pieces around it hot (a base or an end wasm-opt may have folded after LLVM).
  const named = (v, reach, reason) => {
    if (v < lo - reach || v > hi + reach) return;
    const i = at(v);
    mark(i, reason);
    for (const addr of stray.get(v) || []) mark(at(addr), `${reason} (relocation)`);
    if (i >= 0 && pieces[i].addr === v) return;
    for (let r = 1; r <= reach; r++) { mark(at(v + r), reason); mark(at(v - r), reason); }
  };
  for (const v of values) named(v, REACH, `code names ${v}`);
  // A pointer in a hot piece (the linker wrote it: a piece's address plus an offset, within the
  // piece unless its relocation says otherwise).
  while (work.length) {
    const from = work.pop();
    const p = pieces[from];
    for (let a = p.addr; a + 4 <= p.addr + p.size; a++) {
      const o = a - base;
      if (o >= 0 && o + 4 <= memory.length) named(memory.readUInt32LE(o), 0, `${p.name} points at it`);
    }
  }
  if (process.env.VRAMFIT_COLD_REPORT) {
    fs.writeFileSync(process.env.VRAMFIT_COLD_REPORT, pieces.map((p, i) => `${hot[i] ? 'hot ' : 'cold'} ${p.addr} ${p.size} ${p.section} ${p.name}${hot[i] ? ` (${why[i]})` : ''}`).join('\n') + '\n');
  }
  return hot;
}

/**
 * { primary, rest, moved } with the cold data moved; or { primary, rest, moved: 0, why } unchanged.
 * `original` is the whole module before the split (Trunk's), `mapPath` the linker's map, `linked`
 * the wasm the linker wrote beside it.
 */
function moveColdData({ primary, rest, primaryPath, original, mapPath, linked, features }) {
  const keep = (why) => ({ primary, rest, moved: 0, why });
  if (!mapPath || !fs.existsSync(mapPath)) return keep(`no linker map (${mapPath || 'VRAMFIT_LINK_MAP unset'})`);
  if (!fs.existsSync(linked)) return keep(`no linked wasm at ${linked}`);
  if (Math.abs(fs.statSync(mapPath).mtimeMs - fs.statSync(linked).mtimeMs) > 5000) {
    return keep('the linker map is not from the link that wrote the wasm');
  }
  const memory = initialMemory(original);
  if (!memory || !sameMemory(original, fs.readFileSync(linked))) return keep('the linked wasm\'s data is not this module\'s');
  const secs = sections(primary);
  const dataSec = secs.find((s) => s.id === 11);
  const segments = dataSec && readSegments(primary, dataSec.body, dataSec.end);
  if (!segments || segments.length === 0) return keep('the primary\'s data segments are not all active');
  const base = Math.min(...segments.map((s) => s.offset));
  const before = initialMemory(primary);
  const originalData = sections(original).find((s) => s.id === 11);
  if (!originalData) return keep('the module has no data');
  const originalBase = Math.min(...readSegments(original, originalData.body, originalData.end).map((s) => s.offset));
  if (!before.equals(memory) || originalBase !== base) return keep('the split changed the data');
  if (functionNames(rest).memoriesImported !== 1) return keep('the rest does not import the memory');
  const pieces = mapPieces(fs.readFileSync(mapPath, 'utf8'));
  if (pieces.length === 0) return keep('the linker map lists no data');
  const linkedBytes = fs.readFileSync(linked);
  const stray = strayAddresses(linkedBytes);
  if (!stray) return keep('the linked wasm has no relocations (crates/vramfit-web/build.rs links with --emit-relocs)');
  const values = constants(primaryPath, features);
  if (!values) return keep('wasm-dis did not give every constant of the primary as a number');
  const hot = hotPieces(pieces, values, memory, base, stray);

  // The cold pieces' bytes (within the memory the segments write), the touching ones joined.
  const cold = [];
  pieces.forEach((p, i) => {
    const start = Math.max(p.addr, base);
    const end = Math.min(p.addr + p.size, base + memory.length);
    if (hot[i] || end <= start) return;
    const last = cold[cold.length - 1];
    if (last && last.end === start && last.section === p.section) last.end = end;
    else cold.push({ start, end, section: p.section });
  });
  const moved = cold.reduce((s, c) => s + c.end - c.start, 0);
  if (moved === 0) return keep('no cold data');
  // The rest's segments: the cold ranges, joined across up to MAX_JOIN bytes of read-only data
  // (written again with the bytes already there, which no code can have changed).
  const restRanges = [];
  for (const c of cold) {
    const last = restRanges[restRanges.length - 1];
    if (last && last.section === '.rodata' && c.section === '.rodata' && c.start - last.end <= MAX_JOIN) last.end = c.end;
    else restRanges.push({ ...c });
  }

  // Rewriting is harmless only for read-only bytes: no range of the rest may cover a hot piece
  // of mutable data.
  pieces.forEach((p, i) => {
    if (!hot[i] || p.section === '.rodata') return;
    if (restRanges.some((r) => r.start < p.addr + p.size && p.addr < r.end)) {
      throw new Error(`cold-data.js: the rest would rewrite ${p.name}, mutable and hot`);
    }
  });

  // The primary: its memory with the cold ranges zeroed (a fresh memory is zero), as segments
  // split around them.
  const hotMemory = Buffer.from(memory);
  for (const c of cold) hotMemory.fill(0, c.start - base, c.end - base);
  const primarySegments = [];
  for (const s of segments) {
    let from = s.offset;
    const end = s.offset + s.bytes.length;
    for (const c of cold) {
      if (c.end <= from || c.start >= end) continue;
      if (c.start > from) primarySegments.push({ offset: from, bytes: hotMemory.subarray(from - base, c.start - base) });
      from = Math.max(from, c.end);
    }
    if (from < end) primarySegments.push({ offset: from, bytes: hotMemory.subarray(from - base, end - base) });
  }
  const restSegments = restRanges.map((c) => ({ offset: c.start, bytes: memory.subarray(c.start - base, c.end - base) }));
  const newPrimary = writeDataSection(primary, primarySegments);
  const newRest = writeDataSection(rest, restSegments);

  // The check: the primary's memory, with the rest's segments written over it, is the original.
  const after = Buffer.alloc(memory.length);
  for (const s of [...primarySegments, ...restSegments]) Buffer.from(s.bytes).copy(after, s.offset - base);
  if (!after.equals(memory)) throw new Error('cold-data.js: moving the data changed the memory');
  return { primary: newPrimary, rest: newRest, moved };
}

module.exports = { moveColdData, mapPieces, hotPieces, sameMemory, REACH };
