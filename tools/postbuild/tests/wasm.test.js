// The wasm binary format helpers (wasm.js) and the name normalisation and escaping (names.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { leb, uleb, sleb, sections, customName, importEntries, functionNames, withoutLinkerSections } = require('../wasm');
const { normalise, binaryenName } = require('../names');
const { keepFunctions, readKeepList } = require('../split');
const f = require('./fixtures');

test('LEB128: unsigned numbers read back; i32.const offsets encode signed', () => {
  for (const v of [0, 1, 127, 128, 624485, 2 ** 31, 2 ** 32 - 1]) {
    const b = uleb(v);
    assert.deepEqual(leb(b, 0), [v, b.length]);
  }
  assert.deepEqual([...sleb(63)], [0x3f]);
  assert.deepEqual([...sleb(64)], [0xc0, 0x00]); // bit 6 set: one more byte, or it would read negative
  assert.deepEqual([...sleb(-1)], [0x7f]);
  assert.deepEqual([...sleb(1048576)], [0x80, 0x80, 0xc0, 0x00]);
});

/** Two imported functions, one imported memory, three defined functions (two named), one table. */
function sample() {
  return f.wasmModule(
    f.types([[[], []]]),
    f.imports([{ module: 'env', field: 'a', func: 0 }, { module: 'env', field: 'b', func: 0 },
      { module: 'env', field: 'memory', memory: 1 }]),
    f.functions([0, 0, 0]),
    f.tables(1),
    f.code([[], [], []]),
    f.custom('linking', Buffer.from([2])),
    f.custom('reloc.CODE', Buffer.from([3, 0])),
    f.names(new Map([[2, 'vramfit::keep::h0123456789abcdef'], [3, 'core[1a2b3c4d5e6f7a8b]::fmt::write.17']])),
  );
}

test('the sections, the imports and the function names of a module', () => {
  const wasm = sample();
  assert.doesNotThrow(() => new WebAssembly.Module(wasm));
  const ids = sections(wasm).map((s) => s.id);
  assert.deepEqual(ids, [1, 2, 3, 4, 10, 0, 0, 0]);
  const imports = importEntries(wasm, sections(wasm)[1].body);
  assert.deepEqual(imports.map((i) => [i.module, i.field, i.kind]), [['env', 'a', 0], ['env', 'b', 0], ['env', 'memory', 2]]);
  const { imported, defined, tables, memoriesImported, names } = functionNames(wasm);
  assert.deepEqual({ imported, defined, tables, memoriesImported }, { imported: 2, defined: 3, tables: 1, memoriesImported: 1 });
  assert.deepEqual([...names], [[2, 'vramfit::keep::h0123456789abcdef'], [3, 'core[1a2b3c4d5e6f7a8b]::fmt::write.17']]);
});

test('the linker\'s sections are dropped, the others kept', () => {
  const wasm = sample();
  const out = withoutLinkerSections(wasm);
  const customs = sections(out).filter((s) => s.id === 0).map((s) => customName(out, s));
  assert.deepEqual(customs, ['name']);
  assert.equal(out.length, wasm.length - f.custom('linking', Buffer.from([2])).length - f.custom('reloc.CODE', Buffer.from([3, 0])).length);
  assert.doesNotThrow(() => new WebAssembly.Module(out));
});

test('names lose what changes between builds: crate disambiguators, legacy hashes, duplicate suffixes', () => {
  assert.equal(normalise('core[1a2b3c4d5e6f7a8b]::fmt::write'), 'core::fmt::write');
  assert.equal(normalise('vramfit_web::app::App::h0123456789abcdef'), 'vramfit_web::app::App');
  assert.equal(normalise('<T as alloc::string::ToString>::to_string.42'), '<T as alloc::string::ToString>::to_string');
  // A short bracketed part or a version-like suffix in the middle is not a hash.
  assert.equal(normalise('f[abc]::g.1::h'), 'f[abc]::g.1::h');
});

test('names are escaped as Binaryen writes them: what an identifier cannot hold as \\xx, byte by byte', () => {
  assert.equal(binaryenName('core::fmt::write'), 'core::fmt::write');
  assert.equal(binaryenName('<&T as Debug>::fmt'), '<&T\\20as\\20Debug>::fmt');
  assert.equal(binaryenName('f(a,b){}[]'), 'f\\28a\\2cb\\29\\7b\\7d\\5b\\5d');
  assert.equal(binaryenName('é"'), '\\c3\\a9\\22');
});

test('the functions to keep: keep.txt\'s names found after normalising, and every function without a name by index', () => {
  const wanted = readKeepList('# a comment\nvramfit::keep\n\nnot::there\n');
  assert.deepEqual([...wanted], ['vramfit::keep', 'not::there']);
  const { keep, found, defined } = keepFunctions(sample(), wanted);
  // Defined functions: index 0 (named keep), 1 (named, not wanted), 2 (no name).
  assert.deepEqual(keep, ['vramfit::keep::h0123456789abcdef', '2']);
  assert.deepEqual([...found], ['vramfit::keep']);
  assert.equal(defined, 3);
});
