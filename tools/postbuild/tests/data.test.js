// Merging close data segments (data-segments.js) and choosing the cold data (cold-data.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sections, leb } = require('../wasm');
const { mergeDataSegments, initialMemory, readSegments, writeDataSection } = require('../data-segments');
const { mapPieces, hotPieces, sameMemory } = require('../cold-data');
const f = require('./fixtures');

const seg = (offset, text) => ({ offset, bytes: Buffer.from(text) });

/** A module with one memory (exported) and these segments, with a data count section. */
function withData(segments, { dataCount = true } = {}) {
  return f.wasmModule(
    f.memory(1),
    f.exportsOf([{ name: 'memory', memory: 0 }]),
    ...(dataCount ? [f.section(12, Buffer.from([segments.length]))] : []),
    f.data(segments),
  );
}

const segmentsOf = (wasm) => {
  const d = sections(wasm).find((s) => s.id === 11);
  return readSegments(wasm, d.body, d.end);
};

test('segments closer than the gap merge, the memory they write stays identical, the data count follows', () => {
  const wasm = withData([seg(1024, 'hello'), seg(1032, 'world'), seg(1100, 'far'), seg(2000, 'alone'), seg(2010, 'x')]);
  const merged = mergeDataSegments(wasm, 64);
  const out = segmentsOf(merged);
  assert.deepEqual(out.map((s) => [s.offset, s.bytes.length]), [[1024, 79], [2000, 11]]);
  assert.equal(leb(merged, sections(merged).find((s) => s.id === 12).body)[0], 2);
  // The module still compiles, and instantiated it starts with the same memory.
  assert.deepEqual(f.memoryOf(merged, 4096), f.memoryOf(wasm, 4096));
  assert.deepEqual(initialMemory(merged), initialMemory(wasm));
  // Nothing closer than a gap of 0: unchanged segments.
  assert.equal(segmentsOf(mergeDataSegments(wasm, 0)).length, 5);
});

test('a module with overlapping, passive or no data segments is left as it is', () => {
  const overlapping = withData([seg(1024, 'hello'), seg(1026, 'xx')]);
  assert.equal(mergeDataSegments(overlapping, 64), overlapping);
  // A passive segment (flags 1): not this tool's to move.
  const passive = f.wasmModule(f.memory(1), f.section(11, Buffer.concat([Buffer.from([2]),
    Buffer.from([0x00, 0x41, 0x08, 0x0b, 0x01, 0x61]), Buffer.from([0x01, 0x01, 0x62])])));
  assert.equal(mergeDataSegments(passive, 64), passive);
  assert.equal(initialMemory(passive), null);
  const none = withData([], { dataCount: false });
  assert.equal(mergeDataSegments(none, 64), none);
});

test('writing a data section into a module without one puts it after the code', () => {
  const wasm = f.wasmModule(f.types([[[], []]]), f.functions([0]), f.memory(1), f.exportsOf([{ name: 'memory', memory: 0 }]), f.code([[]]));
  const out = writeDataSection(wasm, [seg(8, 'abc')]);
  assert.deepEqual(sections(out).map((s) => s.id), [1, 3, 5, 7, 10, 11]);
  assert.deepEqual(f.memoryOf(out, 11).subarray(8), Buffer.from('abc'));
  assert.equal(sameMemory(out, writeDataSection(wasm, [seg(8, 'a'), seg(9, 'bc')])), true);
  assert.equal(sameMemory(out, writeDataSection(wasm, [seg(8, 'abd')])), false);
});

// A linker map as wasm-ld writes it (`--Map`): output sections, input pieces, symbols.
const MAP = `    Addr      Off     Size Out     In      Symbol
       -        8        4 TYPE
       -       20       40 DATA
     400       21       30 .rodata
     400       21       10         a.o:(.rodata.first)
     400       21       10                 first_symbol
     410       31        8         a.o:(.rodata.second)
     418       39        0         a.o:(.rodata.empty)
     418       39        8         a.o:(.rodata.third)
     420       41       10 .data
     420       41       10         b.o:(.data.counter)
       -       60       10 CUSTOM(.debug_info)
     500       61       10         c.o:(.debug_info)
`;

test('the linker map\'s data pieces: address, size, output section and input name; empty pieces and other sections left out', () => {
  assert.deepEqual(mapPieces(MAP), [
    { addr: 0x400, size: 0x10, section: '.rodata', name: '.rodata.first' },
    { addr: 0x410, size: 8, section: '.rodata', name: '.rodata.second' },
    { addr: 0x418, size: 8, section: '.rodata', name: '.rodata.third' },
    { addr: 0x420, size: 0x10, section: '.data', name: '.data.counter' },
  ]);
});

test('hot data: what the primary\'s code names, what a hot piece points at, what a relocation names from outside; the rest is cold', () => {
  const pieces = [
    { addr: 1024, size: 16, section: '.rodata', name: 'a' }, // named by the code
    { addr: 1040, size: 8, section: '.rodata', name: 'b' }, // cold
    { addr: 1048, size: 8, section: '.rodata', name: 'c' }, // a points at it
    { addr: 1056, size: 8, section: '.rodata', name: 'd' }, // named by its end, via a relocation
    { addr: 1200, size: 8, section: '.rodata', name: 'e' }, // cold, far from every constant
    { addr: 1300, size: 8, section: '.rodata', name: 'f' }, // within REACH of a constant that starts no piece
  ];
  const memory = Buffer.alloc(300);
  memory.writeUInt32LE(1048, 4); // inside a: a pointer to c
  const stray = new Map([[1064, [1056]]]);
  const hot = hotPieces(pieces, new Set([1024, 2000, 1290]), memory, 1024, stray);
  assert.deepEqual([...hot], [1, 0, 1, 0, 0, 1]);
  // A constant that starts a piece keeps only that piece hot; a pointer in it to just past d
  // counts for d only through d's relocation.
  const memory2 = Buffer.alloc(300);
  memory2.writeUInt32LE(1064, 1200 - 1024);
  const names = (h) => [...h].map((x, i) => (x ? pieces[i].name : '')).filter(Boolean);
  assert.deepEqual(names(hotPieces(pieces, new Set([1200]), memory2, 1024, stray)), ['d', 'e']);
  assert.deepEqual(names(hotPieces(pieces, new Set([1200]), memory2, 1024, new Map())), ['e']);
});
