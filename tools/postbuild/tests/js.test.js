// The JS module and the page: short import names (short-imports.js), the loader hooked into
// wasm-bindgen's module (loader.js), index.html's rewriting (html.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('crypto');
const { sections, importEntries } = require('../wasm');
const { shortenImports, shortName } = require('../short-imports');
const { withRuntime, loadTerser, minifyModule, REST_FIRST } = require('../loader');
const { withRest, withIntegrity, minifyCss, minifyStyles, integrity } = require('../html');
const f = require('./fixtures');

/** A module importing three functions from wasm-bindgen's JS (one twice) and one from elsewhere,
 * calling each from an export `run`. */
function bindgenModule() {
  const bg = './vramfit-web_bg.js';
  return f.wasmModule(
    f.types([[[], []]]),
    f.imports([{ module: bg, field: '__wbg_log_0123456789abcdef', func: 0 }, { module: 'env', field: 'other', func: 0 },
      { module: bg, field: '__wbg_now_fedcba9876543210', func: 0 }, { module: bg, field: '__wbindgen_init_externref_table', func: 0 },
      { module: bg, field: '__wbg_log_0123456789abcdef', func: 0 }]),
    f.functions([0]),
    f.exportsOf([{ name: 'run', func: 5 }]),
    f.code([[0x10, 0, 0x10, 1, 0x10, 2, 0x10, 3, 0x10, 4]]),
  );
}

/** wasm-bindgen's import object, as its JS module writes it. */
const BINDGEN_JS = `function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_log_0123456789abcdef: function(arg0) {
            calls.push('log');
        },
        __wbg_now_fedcba9876543210: function() {
            calls.push('now');
        },
        __wbindgen_init_externref_table: function() {
            calls.push('init');
        },
    };
    return {
        __proto__: null,
        "./vramfit-web_bg.js": import0,
    };
}`;

test('short import names: a, b, … under `w`, the same in the wasm and in the JS, which still run together', () => {
  assert.deepEqual([0, 1, 25, 26, 51, 52, 53, 52 + 52 * 52].map(shortName), ['a', 'b', 'z', 'A', 'Z', 'aa', 'ab', 'aaa']);
  const out = shortenImports(bindgenModule(), BINDGEN_JS);
  assert.equal(out.renamed, 3);
  const imports = importEntries(out.wasm, sections(out.wasm).find((s) => s.id === 2).body);
  assert.deepEqual(imports.map((i) => `${i.module}.${i.field}`), ['w.a', 'env.other', 'w.b', 'w.c', 'w.a']);
  assert.ok(!out.js.includes('0123456789abcdef') && out.js.includes('w: import0,'));
  // The renamed module instantiated with the renamed import object calls the same functions.
  const calls = [];
  const object = new Function('calls', `${out.js}\nreturn __wbg_get_imports();`)(calls);
  object.env = { other: () => calls.push('other') };
  new WebAssembly.Instance(new WebAssembly.Module(out.wasm), object).exports.run();
  assert.deepEqual(calls, ['log', 'other', 'now', 'init', 'log']);
});

test('short import names: nothing changes unless each import is one key of the import object', () => {
  const twice = BINDGEN_JS.replace('    };\n    return', '        __wbg_now_fedcba9876543210: function() {},\n    };\n    return');
  assert.match(shortenImports(bindgenModule(), twice).why, /__wbg_now_fedcba9876543210 is not one key/);
  assert.match(shortenImports(bindgenModule(), BINDGEN_JS.replace('"./vramfit-web_bg.js": import0,', '')).why, /no "\.\/vramfit-web_bg\.js": import0,/);
  const plain = f.wasmModule(f.types([[[], []]]), f.imports([{ module: 'env', field: 'x', func: 0 }]));
  assert.match(shortenImports(plain, BINDGEN_JS).why, /no imports from wasm-bindgen/);
});

/** The three lines of wasm-bindgen's module the loader hooks into, in their places. */
const MODULE_JS = `function __wbg_finalize_init(instance, module) {
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

test('the loader: appended to wasm-bindgen\'s module and hooked into its start-up; a module of another shape is refused', () => {
  const js = withRuntime(MODULE_JS, 'export function __vramfit_rest_source() {}\nconst first = /* REST_FIRST */ [];\n');
  assert.match(js, /const imports = __vramfit_imports\(__wbg_get_imports\(\)\);/);
  assert.match(js, /wasm\.__wbindgen_start\(\);\n {4}__vramfit_rest_schedule\(\);/);
  assert.match(js, /imports\);\n {4}await __vramfit_rest_before_start\(instance\);/);
  assert.ok(js.endsWith(`const first = ${JSON.stringify(REST_FIRST)};\n`));
  assert.throws(() => withRuntime(MODULE_JS.replace('wasm.__wbindgen_start();', '')), /changed shape/);
  assert.throws(() => withRuntime(MODULE_JS, 'no slot'), /REST_FIRST slot/);
  // The real runtime.js has its slot and the functions the hooks call.
  const real = withRuntime(MODULE_JS);
  for (const name of ['__vramfit_imports', '__vramfit_rest_schedule', '__vramfit_rest_before_start', 'export function __vramfit_rest_source']) {
    assert.ok(real.includes(name), name);
  }
});

test('terser keeps the exports and __vramfit_rest_source', { skip: !loadTerser() && 'no terser in .tools/ (scripts/setup)' }, async () => {
  const js = await minifyModule(withRuntime(MODULE_JS), loadTerser());
  assert.ok(js.length < withRuntime(MODULE_JS).length / 2);
  assert.match(js, /function __vramfit_rest_source\(/);
  assert.match(js, /export default \w+;|\bas default\b/); // what single-file.js looks for
});

const PAGE = `<head>
<script type="module">
import init, * as bindings from './vramfit-web-abc.js';
const wasm = await init({ module_or_path: './vramfit-web-abc_bg.wasm' });
</script>
<style>
  /* why */
  .a  >  b { margin : calc(1px + 2px) ;
  }
</style>
<link rel="modulepreload" href="./vramfit-web-abc.js" integrity="sha384-old"><link rel="preload" href="./vramfit-web-abc_bg.wasm" integrity="sha384-old" as="fetch"><link rel="icon" href="./icon.svg" integrity="sha384-icon"></head>`;

test('index.html: the start-up script tells the loader where the rest is; the files are renamed; Trunk\'s other shapes are refused', () => {
  const html = withRest(PAGE, 'vramfit-web-abc', 'vramfit-web-0123');
  assert.ok(html.includes(`bindings.__vramfit_rest_source('./vramfit-web-0123_rest.wasm');\nconst wasm = await init({ module_or_path: './vramfit-web-0123_bg.wasm' });`));
  assert.ok(html.includes(`from './vramfit-web-0123.js'`) && !html.includes('abc'));
  assert.throws(() => withRest(PAGE.replace('module_or_path', 'path'), 'vramfit-web-abc', 'x'), /start-up script changed shape/);
});

test('index.html: each link to a rewritten file gets its integrity, the others keep theirs', () => {
  const wasm = Buffer.from('wasm bytes');
  const html = withIntegrity(PAGE, { 'vramfit-web-abc_bg.wasm': wasm });
  const expected = `sha384-${crypto.createHash('sha384').update(wasm).digest('base64')}`;
  assert.equal(integrity(wasm), expected);
  assert.ok(html.includes(`href="./vramfit-web-abc_bg.wasm" integrity="${expected}"`));
  assert.ok(html.includes('href="./vramfit-web-abc.js" integrity="sha384-old"'));
  assert.ok(html.includes('integrity="sha384-icon"'));
});

test('the inline stylesheet: comments and spare whitespace go, calc()\'s spaces stay', () => {
  assert.equal(minifyCss('/* c */ .a  >  b { margin : calc(1px + 2px) ;\n }'), '.a > b{margin : calc(1px + 2px);}');
  assert.ok(minifyStyles(PAGE).includes('<style>.a > b{margin : calc(1px + 2px);}</style>'));
  assert.throws(() => minifyCss('a::after { content: "/* not a comment */" }'), /comments cannot be dropped/);
});
