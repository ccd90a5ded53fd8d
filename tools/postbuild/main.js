//! Trunk's post-build hook (Trunk.toml): splits the app's wasm in two (the first answer runs only
//! part of the functions; the others load after it, see runtime.js).
//!
//! In Trunk's staging folder it replaces `vramfit-web-<h>.js` + `vramfit-web-<h>_bg.wasm` with
//! `vramfit-web-<h2>.js` (wasm-bindgen's module + runtime.js), `vramfit-web-<h2>_bg.wasm` (the
//! primary module: the functions keep.txt names, and every function without a name) and
//! `vramfit-web-<h2>_rest.wasm` (the rest), `<h2>` a digest of the three, and rewrites index.html's
//! start-up script, preloads and their integrity hashes. Function names (kept by Trunk's wasm-opt
//! `-g` for this step) are dropped from the output.
//!
//! VRAMFIT_SPLIT=names leaves the build whole and named (tools/split-wasm/profile.js profiles it);
//! VRAMFIT_SPLIT=off, or no `wasm-split` on PATH, leaves it whole and drops the names.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const os = require('os');
const { execFileSync } = require('child_process');
const { functionNames, normalise, binaryenName } = require('./wasm-names');
const { REST_FIRST } = require('./profile');
const { minifyStyles } = require('../minify-style');
const { mergeDataSegments, initialMemory, withoutLinkerSections } = require('./data-segments');
const { moveColdData } = require('./cold-data');
const { shortenImports } = require('./short-imports');

const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types'];
const KEEP = path.join(__dirname, 'keep.txt');
/** Data segments closer than this are merged (data-segments.js): a much smaller gap merges too few
 * segments to matter, a much larger one writes more zeros than the headers it saves. */
const MAX_DATA_GAP = 128;

function fail(message) {
  console.error(`tools/split-wasm: ${message}`);
  process.exit(1);
}

function onPath(tool) {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch (_) {
    return false;
  }
}

const sha = (algo, data) => crypto.createHash(algo).update(data).digest();

/** wasm-bindgen's module with runtime.js, minified by terser (`.tools/`, scripts/setup) when it is
 * there: all of it loads before the first answer. Export names stay (the page and
 * api.js import them), and so does `__vramfit_rest_source`, which scripts/single-file calls from
 * code it appends to the module. Without terser the module is left as it is. */
async function minified(js) {
  let terser;
  try {
    terser = require(path.resolve(__dirname, '../../.tools/node_modules/terser'));
  } catch (_) {
    console.warn('tools/split-wasm: no terser in .tools/ (scripts/setup installs it): the JS stays unminified');
    return js;
  }
  const out = await terser.minify(js, {
    module: true,
    compress: { passes: 2 },
    mangle: { reserved: ['__vramfit_rest_source'] },
  });
  if (!out.code || !out.code.includes('function __vramfit_rest_source')) fail('terser lost __vramfit_rest_source');
  return out.code;
}

async function main() {
  const staging = process.env.TRUNK_STAGING_DIR;
  if (!staging) fail('TRUNK_STAGING_DIR is not set (this runs as a Trunk hook)');
  if (process.env.TRUNK_PROFILE !== 'release') return;
  // Trunk's file hash is a u64 in hex without leading zeros: 1–16 digits.
  const wasmName = fs.readdirSync(staging).find((n) => /^vramfit-web-[0-9a-f]{1,16}_bg\.wasm$/.test(n));
  if (!wasmName) return; // another page (tools/bench-counter)
  const stem = wasmName.replace(/_bg\.wasm$/, '');
  const wasmPath = path.join(staging, wasmName);
  const jsPath = path.join(staging, `${stem}.js`);
  const htmlPath = path.join(staging, 'index.html');
  const mode = process.env.VRAMFIT_SPLIT || 'on';
  if (mode === 'names') return;
  const bytes = fs.readFileSync(wasmPath);
  const { imported, defined, tables, names } = functionNames(bytes);
  let whole = mode === 'off' ? 'VRAMFIT_SPLIT=off' : null;
  if (!whole && !onPath('wasm-split')) whole = 'no wasm-split on PATH (Debian: apt-get install binaryen)';
  // Binaryen 108's wasm-split points the second table's export at the first (reference types).
  if (!whole && tables !== 1) whole = `${tables} tables (build without reference types: scripts/env.sh)`;
  if (whole) {
    console.warn(`tools/split-wasm: the app's wasm stays whole: ${whole}`);
    execFileSync('wasm-opt', [...FEATURES, '--strip-debug', wasmPath, '-o', wasmPath]);
    fs.writeFileSync(wasmPath, withoutLinkerSections(fs.readFileSync(wasmPath)));
    rehash(htmlPath, [wasmPath]);
    return;
  }

  // The functions to keep: keep.txt's (normalised) names, and every function without a name
  // (wasm-bindgen's generated shims; Binaryen calls them by their index among defined functions).
  const wanted = new Set(fs.readFileSync(KEEP, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')));
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
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-split-'));
  const keepFile = path.join(tmp, 'keep.txt');
  fs.writeFileSync(keepFile, `${keep.join('\n')}\n`);
  const primaryTmp = path.join(tmp, 'primary.wasm');
  const restTmp = path.join(tmp, 'rest.wasm');
  execFileSync('wasm-split', [...FEATURES, '--keep-funcs', `@${keepFile}`, '--export-prefix=%', '--placeholder-namespace=p',
    '-o1', primaryTmp, '-o2', restTmp, wasmPath], { stdio: ['ignore', 'ignore', 'inherit'] });
  // The data only the rest reads moves into the rest (cold-data.js); the linker's map says where
  // each piece of data is (scripts/env.sh sets VRAMFIT_LINK_MAP, crates/vramfit-web/build.rs).
  const linkMap = process.env.VRAMFIT_LINK_MAP;
  const cold = moveColdData({
    primary: fs.readFileSync(primaryTmp),
    rest: fs.readFileSync(restTmp),
    primaryPath: primaryTmp,
    original: bytes,
    mapPath: linkMap,
    linked: linkMap && linkMap.replace(/\.map$/, '.wasm'),
    features: FEATURES,
  });
  if (!cold.moved) console.warn(`tools/split-wasm: all the data stays in the primary module: ${cold.why}`);
  let primary = withoutLinkerSections(mergeDataSegments(cold.primary, MAX_DATA_GAP));
  const before = initialMemory(cold.primary);
  if (before && !before.equals(initialMemory(primary))) fail('merging data segments changed the initial memory');
  const rest = withoutLinkerSections(cold.rest);
  fs.rmSync(tmp, { recursive: true });

  // wasm-bindgen's module: the placeholders among the imports, the background load once started.
  let js = fs.readFileSync(jsPath, 'utf8');
  const importsAt = 'const imports = __wbg_get_imports();';
  const startAt = 'wasm.__wbindgen_start();';
  const loadedAt = 'const { instance, module } = await __wbg_load(await module_or_path, imports);';
  for (const at of [importsAt, startAt, loadedAt]) {
    if (!js.includes(at)) fail(`${stem}.js: wasm-bindgen's module changed shape (no "${at}")`);
  }
  const runtime = fs.readFileSync(path.join(__dirname, 'runtime.js'), 'utf8');
  if (!runtime.includes('/* REST_FIRST */ []')) fail('runtime.js lost its REST_FIRST slot');
  js = js.replaceAll(importsAt, 'const imports = __vramfit_imports(__wbg_get_imports());')
    .replace(startAt, `${startAt}\n    __vramfit_rest_schedule();`)
    .replace(loadedAt, `${loadedAt}\n    await __vramfit_rest_before_start(instance);`)
    + runtime.replace('/* REST_FIRST */ []', JSON.stringify(REST_FIRST));
  // Short names for wasm-bindgen's imports, in the primary and in the JS (short-imports.js).
  const short = shortenImports(primary, js);
  if (short.wasm) ({ wasm: primary, js } = short);
  else console.warn(`tools/split-wasm: wasm-bindgen's imports keep their names: ${short.why}`);
  js = await minified(js);

  const digest = sha('sha256', Buffer.concat([Buffer.from(js), primary, rest])).toString('hex').slice(0, 16);
  const out = `vramfit-web-${digest}`;
  for (const p of [wasmPath, jsPath]) fs.rmSync(p);
  fs.writeFileSync(path.join(staging, `${out}.js`), js);
  fs.writeFileSync(path.join(staging, `${out}_bg.wasm`), primary);
  fs.writeFileSync(path.join(staging, `${out}_rest.wasm`), rest);

  let html = fs.readFileSync(htmlPath, 'utf8');
  const start = `const wasm = await init({ module_or_path: './${stem}_bg.wasm' });`;
  if (!html.includes(start)) fail(`index.html: Trunk's start-up script changed shape (no "${start}")`);
  html = html.replace(start, `bindings.__vramfit_rest_source('./${out}_rest.wasm');\n${start}`)
    .replaceAll(stem, out);
  fs.writeFileSync(htmlPath, html);
  rehash(htmlPath, [path.join(staging, `${out}.js`), path.join(staging, `${out}_bg.wasm`)]);

  const kb = (b) => `${(b.length / 1024).toFixed(0)} KiB`;
  const missing = wanted.size - found.size;
  console.log(`tools/split-wasm: kept ${keep.length} of ${defined} functions `
    + `(${found.size} of keep.txt's ${wanted.size} names found${missing ? `; ${missing} gone: rerun tools/split-wasm/profile.js` : ''}); `
    + `primary ${kb(primary)}, rest ${kb(rest)}; ${(cold.moved / 1024).toFixed(0)} KiB of data moved to the rest`);
}

/** Rewrites the `integrity` of index.html's links to these files. */
function rehash(htmlPath, files) {
  let html = fs.readFileSync(htmlPath, 'utf8');
  for (const file of files) {
    const name = path.basename(file);
    const integrity = `sha384-${sha('sha384', fs.readFileSync(file)).toString('base64')}`;
    html = html.replace(new RegExp(`(<link[^>]*href="\\./${name.replace(/\./g, '\\.')}"[^>]*integrity=")[^"]*"`, 'g'), `$1${integrity}"`);
  }
  fs.writeFileSync(htmlPath, html);
}

main()
  .then(() => {
    const staging = process.env.TRUNK_STAGING_DIR;
    const htmlPath = path.join(staging, 'index.html');
    const app = staging && fs.readdirSync(staging).some((n) => /^vramfit-web-[0-9a-f]{1,16}\.js$/.test(n));
    if (process.env.TRUNK_PROFILE === 'release' && app) minifyStyles(htmlPath);
  })
  .catch((e) => fail(e.stack || String(e)));
