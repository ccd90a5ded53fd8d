//! The app's wasm in two (tools/split-wasm/README.md): Binaryen's `wasm-split` keeps the functions
//! tools/split-wasm/keep.txt names (and every function without a name: wasm-bindgen's shims) in the
//! primary module and moves every other one to the rest; then the data only the rest reads moves
//! with it (cold-data.js), the primary's close data segments are merged (data-segments.js) and the
//! linker's sections are dropped from both.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { functionNames, withoutLinkerSections } = require('./wasm');
const { normalise, binaryenName } = require('./names');
const { mergeDataSegments, initialMemory } = require('./data-segments');
const { moveColdData } = require('./cold-data');

/** The wasm features Binaryen's tools must accept for the app's module. */
const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types'];
/** Data segments closer than this are merged (data-segments.js): a much smaller gap merges too few
 * segments to matter, a much larger one writes more zeros than the headers it saves. */
const MAX_DATA_GAP = 128;

/** keep.txt's names: one a line, `#` starts a comment line. */
function readKeepList(text) {
  return new Set(text.split('\n').filter((l) => l && !l.startsWith('#')));
}

/** What `wasm-split --keep-funcs` is given for the module `bytes`: each defined function whose
 * normalised name is in `wanted`, by its escaped name, and each function without a name, by its
 * index among the defined functions. { keep, found (the wanted names found), defined } */
function keepFunctions(bytes, wanted) {
  const { imported, defined, names } = functionNames(bytes);
  const keep = [];
  const found = new Set();
  for (let i = imported; i < imported + defined; i++) {
    const name = names.get(i);
    if (name === undefined) keep.push(String(i - imported));
    else if (wanted.has(normalise(name))) {
      keep.push(binaryenName(name));
      found.add(normalise(name));
    }
  }
  return { keep, found, defined };
}

/** Why the module `bytes` stays whole, or null: `mode` (VRAMFIT_SPLIT) `off`, no `wasm-split`
 * (`has(tool)` says whether a tool is on PATH), or more than one table (Binaryen 108's wasm-split
 * points the second table's export at the first: reference types). */
function wholeBecause(bytes, mode, has) {
  if (mode === 'off') return 'VRAMFIT_SPLIT=off';
  if (!has('wasm-split')) return 'no wasm-split on PATH (Debian: apt-get install binaryen)';
  const { tables } = functionNames(bytes);
  if (tables !== 1) return `${tables} tables (build without reference types: scripts/env.sh)`;
  return null;
}

/** The whole module as it ships: names and debug sections dropped (wasm-opt), linker sections
 * dropped. */
function wholeModule(wasmPath) {
  execFileSync('wasm-opt', [...FEATURES, '--strip-debug', wasmPath, '-o', wasmPath]);
  return withoutLinkerSections(fs.readFileSync(wasmPath));
}

/**
 * Splits the named module at `wasmPath`. `wanted`: keep.txt's names; `linkMap`: the linker's map
 * (VRAMFIT_LINK_MAP), the linked wasm beside it. Returns { primary, rest, kept, defined, found,
 * moved, coldWhy }; throws if merging the data segments changed the memory.
 */
function splitModule(wasmPath, wanted, linkMap) {
  const bytes = fs.readFileSync(wasmPath);
  const { keep, found, defined } = keepFunctions(bytes, wanted);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-split-'));
  try {
    const keepFile = path.join(tmp, 'keep.txt');
    fs.writeFileSync(keepFile, `${keep.join('\n')}\n`);
    const primaryTmp = path.join(tmp, 'primary.wasm');
    const restTmp = path.join(tmp, 'rest.wasm');
    execFileSync('wasm-split', [...FEATURES, '--keep-funcs', `@${keepFile}`, '--export-prefix=%', '--placeholder-namespace=p',
      '-o1', primaryTmp, '-o2', restTmp, wasmPath], { stdio: ['ignore', 'ignore', 'inherit'] });
    // The data only the rest reads moves into the rest (cold-data.js); the linker's map says where
    // each piece of data is (scripts/env.sh sets VRAMFIT_LINK_MAP, crates/vramfit-web/build.rs).
    const cold = moveColdData({
      primary: fs.readFileSync(primaryTmp),
      rest: fs.readFileSync(restTmp),
      primaryPath: primaryTmp,
      original: bytes,
      mapPath: linkMap,
      linked: linkMap && linkMap.replace(/\.map$/, '.wasm'),
      features: FEATURES,
    });
    const primary = withoutLinkerSections(mergeDataSegments(cold.primary, MAX_DATA_GAP));
    const before = initialMemory(cold.primary);
    if (before && !before.equals(initialMemory(primary))) throw new Error('merging data segments changed the initial memory');
    const rest = withoutLinkerSections(cold.rest);
    return { primary, rest, kept: keep.length, defined, found, moved: cold.moved, coldWhy: cold.why };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { FEATURES, MAX_DATA_GAP, readKeepList, keepFunctions, wholeBecause, wholeModule, splitModule };
