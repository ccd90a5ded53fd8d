//! wasm-bindgen's JS module for a split build: runtime.js (the loader of the rest) appended and
//! hooked into wasm-bindgen's start-up, then the whole module minified with terser.
'use strict';
const fs = require('fs');
const path = require('path');

/** The query keys of the views tools/split-wasm/profile.js leaves out: the JSON-valued ones (a
 * pasted config, an engine, training, generation, a custom job), whose first answer runs code of
 * the rest (serde, their forms). A page with one of them fetches the rest beside the primary module
 * and starts once both are there (runtime.js), instead of fetching it on demand after the primary. */
const REST_FIRST = ['config', 'engine', 'train', 'image', 'video', 'custom'];

/** The lines of wasm-bindgen's module the runtime hooks into. */
const IMPORTS_AT = 'const imports = __wbg_get_imports();';
const START_AT = 'wasm.__wbindgen_start();';
const LOADED_AT = 'const { instance, module } = await __wbg_load(await module_or_path, imports);';

/** wasm-bindgen's module `js` with `runtime` (runtime.js's text) appended and hooked in: the
 * placeholders among the imports, the background load once started, the rest before start when
 * fetched early. Throws if wasm-bindgen's module or the runtime changed shape. */
function withRuntime(js, runtime = fs.readFileSync(path.join(__dirname, 'runtime.js'), 'utf8')) {
  for (const at of [IMPORTS_AT, START_AT, LOADED_AT]) {
    if (!js.includes(at)) throw new Error(`wasm-bindgen's module changed shape (no "${at}")`);
  }
  if (!runtime.includes('/* REST_FIRST */ []')) throw new Error('runtime.js lost its REST_FIRST slot');
  return js.replaceAll(IMPORTS_AT, 'const imports = __vramfit_imports(__wbg_get_imports());')
    .replace(START_AT, `${START_AT}\n    __vramfit_rest_schedule();`)
    .replace(LOADED_AT, `${LOADED_AT}\n    await __vramfit_rest_before_start(instance);`)
    + runtime.replace('/* REST_FIRST */ []', JSON.stringify(REST_FIRST));
}

/** terser from `.tools/` (scripts/setup installs it), or null. */
function loadTerser() {
  try {
    return require(path.resolve(__dirname, '../../.tools/node_modules/terser'));
  } catch (_) {
    return null;
  }
}

/** `js` minified by `terser` (all of it loads before the first answer). Export names stay (the
 * page and api.js import them), and so does `__vramfit_rest_source`, which single-file.js calls
 * from code it appends to the module. */
async function minifyModule(js, terser) {
  const out = await terser.minify(js, {
    module: true,
    compress: { passes: 2 },
    mangle: { reserved: ['__vramfit_rest_source'] },
  });
  if (!out.code || !out.code.includes('function __vramfit_rest_source')) throw new Error('terser lost __vramfit_rest_source');
  return out.code;
}

module.exports = { REST_FIRST, withRuntime, loadTerser, minifyModule };
