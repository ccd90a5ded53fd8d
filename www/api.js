/* vramfit JavaScript API without the page (ES module, no dependencies):
 *   import { ready } from './api.js';            // from the folder that holds the app
 *   const vramfit = await ready;                  // {estimate, catalog, version}
 *   const est = vramfit.estimate({model: {catalog: 'qwen3-8b'}, weights: 'bf16',
 *     workload: {inference: {context_tokens: 32768, sequences: 4}}, hardware: {gpu: 'rtx-4090'}});
 * estimate() throws the CLI's error object ({error: {kind, …}}) for a bad scenario.
 * It reads index.html next to it for the hashed file names, then starts the same wasm as the app
 * (both parts, when it is split) with no UI (globalThis.vramfitHeadless). In the app's own page, window.vramfit is already set. */
const base = new URL('./', import.meta.url);

export const ready = (async () => {
  if (globalThis.vramfit) return globalThis.vramfit;
  const html = await (await fetch(new URL('index.html', base))).text();
  const js = html.match(/["'](\.\/[^"']+\.js)["']/);
  const wasm = html.match(/["'](\.\/[^"']+_bg\.wasm)["']/);
  if (!js || !wasm) throw new Error('vramfit: index.html names no app module');
  // The rest of a split wasm (tools/split-wasm), loaded after start-up or when first needed.
  const rest = html.match(/["'](\.\/[^"']+_rest\.wasm)["']/);
  globalThis.vramfitHeadless = true;
  const mod = await import(new URL(js[1], base).href);
  if (rest) mod.__vramfit_rest_source(new URL(rest[1], base).href);
  await mod.default({ module_or_path: new URL(wasm[1], base) });
  return globalThis.vramfit;
})();
