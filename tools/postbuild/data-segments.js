//! Merges a wasm module's active data segments that lie close together (tools/postbuild).
//!
//! wasm-opt's memory packing cuts the data into many segments around every run of zeros, which
//! saves raw bytes; but each segment costs a header (its offset and size, ≈ 7 bytes that gzip
//! barely compresses), while the zeros it cuts out cost almost nothing once gzipped. Segments
//! closer than `maxGap` bytes are joined here, the gap written as zeros: the memory the module
//! starts with is the same (a fresh memory is zero, and the segments do not overlap).
//!
//! Only a module whose segments are all active, at constant offsets into memory 0, is changed.
'use strict';
const { leb, uleb, sleb, sections } = require('./wasm');

/** Reads the data section at [at, end): [{ offset, bytes }] or null when a segment is not
 * `active, memory 0, i32.const offset`. */
function readSegments(bytes, at, end) {
  let n;
  [n, at] = leb(bytes, at);
  const segments = [];
  for (let i = 0; i < n; i++) {
    let flags;
    [flags, at] = leb(bytes, at);
    if (flags !== 0 || bytes[at] !== 0x41) return null;
    // i32.const's operand is a signed LEB; offsets here are below 2^31, so its bits read the same.
    let offset;
    [offset, at] = leb(bytes, at + 1);
    if (offset >= 2 ** 31 || bytes[at] !== 0x0b) return null;
    let size;
    [size, at] = leb(bytes, at + 1);
    segments.push({ offset, bytes: bytes.subarray(at, at + size) });
    at += size;
  }
  return at === end ? segments : null;
}

/** The module with its close data segments merged (`maxGap` bytes of zeros at most between
 * two joined segments), and the data count section updated. Unchanged if it has nothing to merge
 * or segments of another kind. */
function mergeDataSegments(bytes, maxGap) {
  const all = sections(bytes);
  const data = all.find((s) => s.id === 11);
  if (!data) return bytes;
  const segments = readSegments(bytes, data.body, data.end);
  if (!segments || segments.length < 2) return bytes;
  segments.sort((a, b) => a.offset - b.offset);
  const merged = [];
  for (const s of segments) {
    const last = merged[merged.length - 1];
    const lastEnd = last ? last.offset + last.size : -1;
    if (last && s.offset < lastEnd) return bytes; // overlapping: leave the module alone
    if (last && s.offset - lastEnd <= maxGap) {
      last.parts.push({ at: s.offset - last.offset, bytes: s.bytes });
      last.size = s.offset + s.bytes.length - last.offset;
    } else {
      merged.push({ offset: s.offset, size: s.bytes.length, parts: [{ at: 0, bytes: s.bytes }] });
    }
  }
  return writeDataSection(bytes, merged.map((m) => {
    const content = Buffer.alloc(m.size);
    for (const p of m.parts) Buffer.from(p.bytes).copy(content, p.at);
    return { offset: m.offset, bytes: content };
  }));
}

/** The module with its data section replaced by active segments [{ offset, bytes }] into memory
 * 0 (placed after the code section when it had none), and its data count section, if it has one,
 * updated. */
function writeDataSection(bytes, segments) {
  const body = [uleb(segments.length)];
  for (const s of segments) {
    body.push(Buffer.from([0x00, 0x41]), sleb(s.offset), Buffer.from([0x0b]), uleb(s.bytes.length), Buffer.from(s.bytes));
  }
  const dataBody = Buffer.concat(body);
  const data = Buffer.concat([Buffer.from([11]), uleb(dataBody.length), dataBody]);
  const all = sections(bytes);
  const hasData = all.some((s) => s.id === 11);
  const out = [bytes.subarray(0, 8)];
  for (const s of all) {
    if (s.id === 11) out.push(data);
    else if (s.id === 12) {
      const count = uleb(segments.length);
      out.push(Buffer.from([12]), uleb(count.length), count);
    } else {
      out.push(bytes.subarray(s.start, s.end));
      if (s.id === 10 && !hasData) out.push(data);
    }
  }
  return Buffer.concat(out);
}

/** The memory a module's active data segments write, as one buffer from the lowest offset (for
 * checking that a merge changed nothing); null if the segments are not all active. */
function initialMemory(bytes) {
  const data = sections(bytes).find((s) => s.id === 11);
  if (!data) return Buffer.alloc(0);
  const segments = readSegments(bytes, data.body, data.end);
  if (!segments) return null;
  const lo = Math.min(...segments.map((s) => s.offset));
  const hi = Math.max(...segments.map((s) => s.offset + s.bytes.length));
  const memory = Buffer.alloc(hi - lo);
  for (const s of segments) Buffer.from(s.bytes).copy(memory, s.offset - lo);
  return memory;
}

module.exports = { mergeDataSegments, initialMemory, readSegments, writeDataSection };
