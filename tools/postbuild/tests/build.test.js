// The program end to end on small staging folders (main.js), the asset manifest (manifest.js) and
// the single-file build (single-file.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const os = require('os');
const { postBuild, onPath, keepFromEnv } = require('../main');
const { role, fnv1a, manifestOf, writeManifest, readManifest, FILE } = require('../manifest');
const { singleFile } = require('../single-file');
const { functionNames, sections, customName } = require('../wasm');
const f = require('./fixtures');

/** The app's wasm, small: two named functions and one without a name (`run`, exported, calls
 * both), one table holding the first, a memory with data. */
function appWasm({ tableCount = 1 } = {}) {
  return f.wasmModule(
    f.types([[[], [0x7f]]]),
    f.functions([0, 0, 0]),
    f.tables(tableCount),
    f.memory(1),
    f.exportsOf([{ name: 'memory', memory: 0 }, { name: 'run', func: 2 }]),
    f.elements([0]),
    f.code([[0x41, 1], [0x41, 2], [0x10, 0, 0x10, 1, 0x6a]]),
    f.data([{ offset: 1024, bytes: Buffer.from('first answer') }]),
    f.names(new Map([[0, 'vramfit_web::first::h0123456789abcdef'], [1, 'vramfit_web::later']])),
  );
}

const customs = (wasm) => sections(wasm).filter((s) => s.id === 0).map((s) => customName(wasm, s));
const quiet = () => {
  const lines = [];
  return { lines, say: (line) => lines.push(line) };
};
const NO_WASM_OPT = !onPath('wasm-opt') && 'no wasm-opt on PATH (source scripts/env.sh)';

test('roles by file name; a language\'s ?v= is FNV-1a as crates/vramfit-i18n computes it', () => {
  const roles = Object.fromEntries(['index.html', 'vramfit-web-0a1b.js', 'vramfit-web-0a1b_bg.wasm', 'vramfit-web-0a1b_rest.wasm',
    'vramfit-reader_loader.js', 'vramfit-reader.js', 'vramfit-reader_bg.wasm', 'lang/pl.json', 'manifest.webmanifest',
    'icon-0123456789abcdef.svg', 'icon.svg', 'sw.js', 'api.js', 'embed.js', 'js-api-example.html', 'notes.txt']
    .map((p) => [p, role(p).role]));
  assert.deepEqual(Object.values(roles), ['page', 'js', 'wasm', 'wasm-rest', 'reader', 'reader', 'reader', 'lang', 'manifest',
    'icon', 'icon', 'service-worker', 'embed', 'embed', 'example', 'other']);
  assert.equal(role('lang/pl.json').lang, 'pl');
  // FNV-1a 32's published test vectors.
  assert.deepEqual(['', 'a', 'foobar'].map((s) => fnv1a(Buffer.from(s))), ['811c9dc5', 'e40c292c', 'bf9cf968']);
});

test('the manifest: every file with its role, size and integrity; a version that changes with any file', () => {
  const dir = f.staging(appWasm());
  const m = writeManifest(dir);
  assert.equal(m.files.length, 13);
  assert.ok(!m.files.some((x) => x.path === FILE));
  const de = m.files.find((x) => x.path === 'lang/de.json');
  const bytes = fs.readFileSync(path.join(dir, 'lang/de.json'));
  assert.deepEqual(de, { path: 'lang/de.json', role: 'lang', lang: 'de', bytes: bytes.length,
    integrity: `sha384-${crypto.createHash('sha384').update(bytes).digest('base64')}`, url: `lang/de.json?v=${fnv1a(bytes)}` });
  assert.deepEqual(readManifest(dir), JSON.parse(fs.readFileSync(path.join(dir, FILE), 'utf8')));
  assert.equal(manifestOf(dir).version, m.version);
  fs.writeFileSync(path.join(dir, 'lang/de.json'), '{"Tagline":"Hallo!"}');
  assert.notEqual(manifestOf(dir).version, m.version);
  assert.throws(() => readManifest(dir), /lang\/de\.json is not the file assets\.json lists/);
  fs.rmSync(dir, { recursive: true });
});

test('no wasm-split on PATH: the wasm stays whole, without its names, and the build says so', { skip: NO_WASM_OPT }, async () => {
  const dir = f.staging(appWasm());
  const { lines, say } = quiet();
  const result = await postBuild(dir, { release: true, mode: 'on', has: (tool) => tool !== 'wasm-split', say });
  assert.deepEqual(lines, ['the app\'s wasm stays whole: no wasm-split on PATH (Debian: apt-get install binaryen)']);
  assert.equal(result.split, false);
  const wasm = fs.readFileSync(path.join(dir, 'vramfit-web-abc_bg.wasm'));
  assert.deepEqual(customs(wasm), []);
  assert.equal(new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports.run(), 3);
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  assert.ok(html.includes(`href="./vramfit-web-abc_bg.wasm" crossorigin="anonymous" integrity="sha384-${crypto.createHash('sha384').update(wasm).digest('base64')}"`));
  assert.ok(html.includes('<style>body{margin : 0;}</style>'));
  const roles = readManifest(dir).files.map((x) => x.role);
  assert.ok(roles.includes('wasm') && !roles.includes('wasm-rest'));
  fs.rmSync(dir, { recursive: true });
});

test('VRAMFIT_SPLIT=off, or a second table, keeps the wasm whole too, saying why', { skip: NO_WASM_OPT }, async () => {
  for (const [options, wasm, why] of [[{ mode: 'off' }, appWasm(), 'VRAMFIT_SPLIT=off'],
    [{}, appWasm({ tableCount: 2 }), '2 tables (build without reference types: scripts/env.sh)']]) {
    const dir = f.staging(wasm);
    const { lines, say } = quiet();
    await postBuild(dir, { release: true, has: () => true, say, ...options });
    assert.deepEqual(lines, [`the app's wasm stays whole: ${why}`]);
    fs.rmSync(dir, { recursive: true });
  }
});

test('a debug build gets only its manifest; VRAMFIT_SPLIT=names keeps the names; another page is left alone', async () => {
  const dir = f.staging(appWasm());
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  assert.deepEqual(await postBuild(dir, { release: false, say: assert.fail }), { app: true, split: false, whole: null, files: 13 });
  assert.equal(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'), html);
  await postBuild(dir, { release: true, mode: 'names', say: assert.fail });
  assert.deepEqual(customs(fs.readFileSync(path.join(dir, 'vramfit-web-abc_bg.wasm'))), ['name']);
  fs.rmSync(path.join(dir, 'vramfit-web-abc_bg.wasm'));
  fs.rmSync(path.join(dir, FILE));
  assert.deepEqual(await postBuild(dir, { release: true }), { app: false });
  assert.ok(!fs.existsSync(path.join(dir, FILE)));
  fs.rmSync(dir, { recursive: true });
});

/** wasm-bindgen's module, reduced to what the loader hooks into. */
const MODULE_JS = `let wasm;
function __wbg_get_imports() {
    return { __proto__: null };
}
function __wbg_finalize_init(instance, module) {
    wasm = instance.exports;
    wasm.__wbindgen_start();
    return wasm;
}
async function __wbg_init(module_or_path) {
    const imports = __wbg_get_imports();
    const { instance, module } = await __wbg_load(await module_or_path, imports);
    return __wbg_finalize_init(instance, module);
}
export default __wbg_init;
`;

test('with wasm-split: the primary keeps keep.txt\'s functions and the unnamed ones, the rest the others; renamed by digest; index.html and the manifest follow',
  { skip: !onPath('wasm-split') && 'no wasm-split on PATH (Debian: apt-get install binaryen)' }, async () => {
    const dir = f.staging(appWasm());
    fs.writeFileSync(path.join(dir, 'vramfit-web-abc.js'), MODULE_JS);
    const { lines, say } = quiet();
    const result = await postBuild(dir, { release: true, mode: 'on', has: () => true, keep: 'vramfit_web::first\n', linkMap: undefined, say });
    assert.equal(result.split, true);
    assert.match(lines[0], /all the data stays in the primary module: no linker map/);
    const m = readManifest(dir);
    const file = (r) => m.files.find((x) => x.role === r);
    const stem = file('js').path.replace(/\.js$/, '');
    assert.match(stem, /^vramfit-web-[0-9a-f]{16}$/);
    assert.equal(file('wasm').path, `${stem}_bg.wasm`);
    assert.equal(file('wasm-rest').path, `${stem}_rest.wasm`);
    assert.ok(!fs.existsSync(path.join(dir, 'vramfit-web-abc_bg.wasm')));
    const primary = fs.readFileSync(path.join(dir, file('wasm').path));
    const rest = fs.readFileSync(path.join(dir, file('wasm-rest').path));
    assert.equal(functionNames(primary).defined, 2); // `first` and the unnamed `run`
    assert.equal(functionNames(rest).defined, 1); // `later`
    assert.deepEqual(customs(primary), []);
    // Instantiated as the loader does (placeholders under `p`, the rest importing the primary's
    // exports), the two compute what the whole did.
    const placeholders = new Proxy({}, { get: () => () => { throw new Error('placeholder called'); } });
    const first = new WebAssembly.Instance(new WebAssembly.Module(primary), { p: placeholders });
    assert.throws(() => first.exports.run(), /placeholder called/);
    new WebAssembly.Instance(new WebAssembly.Module(rest), { primary: first.exports });
    assert.equal(first.exports.run(), 3);
    const js = fs.readFileSync(path.join(dir, file('js').path), 'utf8');
    assert.match(js, /__vramfit_rest_source/);
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    assert.ok(html.includes(`bindings.__vramfit_rest_source('./${stem}_rest.wasm');`));
    assert.ok(html.includes(`href="./${stem}_bg.wasm" crossorigin="anonymous" integrity="${file('wasm').integrity}"`));
    assert.ok(html.includes(`href="./${stem}.js" crossorigin="anonymous" integrity="${file('js').integrity}"`));
    fs.rmSync(dir, { recursive: true });
  });

test('the single file: the page with the JS, the wasm, the icon and the languages inline, under a CSP of their hashes', () => {
  const dir = f.staging(appWasm());
  assert.throws(() => singleFile(dir), /assets\.json/);
  writeManifest(dir);
  const { html, wasm, rest } = singleFile(dir);
  assert.deepEqual([wasm, rest], [appWasm().length, 0]);
  assert.ok(!/rel="(modulepreload|preload|manifest)"/.test(html));
  assert.match(html, /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml;base64,/);
  assert.ok(html.includes('<script type="application/json" id="vramfit-lang-de">{"Tagline":"Hallo"}</script>'));
  assert.ok(html.includes(`atob("${appWasm().toString('base64')}")`));
  const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)[1];
  assert.match(csp, /^default-src 'none'; script-src 'sha256-[^']+' 'wasm-unsafe-eval'; style-src 'sha256-[^']+'; img-src data:/);
  const script = html.match(/<script type="module">([\s\S]*?)<\/script>/)[1];
  assert.ok(csp.includes(`'sha256-${crypto.createHash('sha256').update(script).digest('base64')}'`));
  assert.match(script, /await init\(\{ module_or_path: bytes \}\);\n$/);
  fs.rmSync(dir, { recursive: true });
});

test('VRAMFIT_KEEP names another list of functions to keep; a missing file is an error, not keep.txt', () => {
  assert.equal(keepFromEnv({}), undefined);
  assert.equal(keepFromEnv({ VRAMFIT_KEEP: '' }), undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-keep-'));
  const file = path.join(dir, 'reach.txt');
  fs.writeFileSync(file, '# declared\nvramfit_web::first\n');
  assert.equal(keepFromEnv({ VRAMFIT_KEEP: file }), '# declared\nvramfit_web::first\n');
  assert.throws(() => keepFromEnv({ VRAMFIT_KEEP: path.join(dir, 'nope.txt') }), /VRAMFIT_KEEP names .*nope\.txt, which does not exist/);
  fs.rmSync(dir, { recursive: true });
});
