//! The single-file build: the whole app in one HTML file that works opened from file:// (no
//! server, no network). scripts/single-file builds dist/ and calls
//!
//!   node tools/postbuild/single-file.js DIST OUT
//!
//! The files come from DIST's asset manifest (manifest.js), checked against it: the page; its
//! icons as data: URLs; the JS module and the wasm (base64, given to the module's init as bytes;
//! when split, the rest too, given to the loader as bytes); every language as a JSON data block
//! the app reads instead of fetching it (crates/vramfit-web/src/lang.rs). What only a server gives
//! goes: the preloads, the web app manifest. The file carries its own Content-Security-Policy,
//! computed from what it inlines: scripts and styles only by their SHA-256, WebAssembly
//! compilation, data: images, and no connection anywhere (default-src 'none'); a CSP already in
//! index.html is replaced by it.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { readManifest, one } = require('./manifest');

const sha256 = (text) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const TYPES = { '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon' };

/** The single file of the build in `dist`: { html, wasm (bytes inlined), rest (bytes inlined) }.
 * Throws on what it cannot inline. */
function singleFile(dist) {
  const manifest = readManifest(dist);
  const read = (file) => fs.readFileSync(path.join(dist, file.path));
  const page = one(manifest, 'page');
  const jsFile = one(manifest, 'js');
  const wasmFile = one(manifest, 'wasm');
  const restFile = one(manifest, 'wasm-rest');
  if (!page || !jsFile || !wasmFile) throw new Error('the manifest lists no page, JS module or wasm');
  let html = read(page).toString('utf8');
  const styleHashes = [];
  const scriptHashes = [];

  // Style blocks index.html holds (www/style.css, inlined by Trunk) run under the CSP by hash.
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)) styleHashes.push(sha256(m[1]));
  if (/<link\b[^>]*\brel="stylesheet"/.test(html)) throw new Error('index.html links a stylesheet: inline it (Trunk\'s rel="inline")');
  // Icons → data: URLs.
  for (const icon of manifest.files.filter((f) => f.role === 'icon')) {
    const type = TYPES[path.extname(icon.path)];
    html = html.replace(new RegExp(`(<link\\b[^>]*\\brel="icon"[^>]*\\bhref=")\\./${icon.path.replace(/\./g, '\\.')}"[^>]*>`, 'g'),
      () => `<link rel="icon" type="${type}" href="data:${type};base64,${read(icon).toString('base64')}">`);
  }
  if (/<link\b[^>]*\brel="icon"[^>]*\bhref="(?!data:)/.test(html)) throw new Error('index.html links an icon the manifest does not list');
  // What only a server gives: preloads, the web app manifest, a CSP to be recomputed.
  html = html.replace(/<link\b[^>]*\brel="(?:modulepreload|preload|manifest)"[^>]*>\s*/g, '');
  html = html.replace(/<meta\b[^>]*http-equiv="Content-Security-Policy"[^>]*>\s*/gi, '');

  // Trunk's start-up script (the module script importing the JS module) → the JS module, the rest
  // and the wasm as bytes.
  const start = [...html.matchAll(/<script type="module"[^>]*>([\s\S]*?)<\/script>/g)]
    .find((m) => m[1].includes(`'./${jsFile.path}'`));
  if (!start) throw new Error(`no start-up script importing ./${jsFile.path} in index.html`);
  let js = read(jsFile).toString('utf8');
  if (/^\s*import\b/m.test(js)) throw new Error(`${jsFile.path} imports other files (wasm-bindgen snippets): not supported`);
  const init = (js.match(/export default (\w+);/) || js.match(/\b(\w+) as default\b/) || [])[1];
  if (!init) throw new Error(`${jsFile.path} has no default export (wasm-bindgen --target web)`);
  if (restFile && !js.includes('function __vramfit_rest_source')) throw new Error(`${jsFile.path} cannot take the rest module (runtime.js missing)`);
  const bytes = (file) => `Uint8Array.from(atob("${read(file).toString('base64')}"), (c) => c.charCodeAt(0))`;
  const rest = restFile ? `__vramfit_rest_source(${bytes(restFile)});\n` : '';
  const script = `${js}
${rest}const bytes = ${bytes(wasmFile)};
await ${init}({ module_or_path: bytes });
`.replace(/<\/script/gi, '<\\/script');
  scriptHashes.push(sha256(script));
  html = html.replace(start[0], () => `<script type="module">${script}</script>`);

  // Inline classic scripts of index.html (www/panic.js, inlined by Trunk) run under the CSP by hash.
  for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) scriptHashes.push(sha256(m[1]));

  // The languages, as data blocks the app reads instead of fetching them
  // (crates/vramfit-web/src/lang.rs: `<script type="application/json" id="vramfit-lang-<tag>">`).
  const blocks = manifest.files.filter((f) => f.role === 'lang').map((f) => {
    const data = read(f).toString('utf8').replace(/<\/script/gi, '<\\/script');
    return `<script type="application/json" id="vramfit-lang-${f.lang}">${data}</script>`;
  });
  if (blocks.length) html = html.replace(/<\/head>/, () => `${blocks.join('\n')}\n</head>`);

  const csp = [
    "default-src 'none'",
    `script-src ${scriptHashes.join(' ')} 'wasm-unsafe-eval'`,
    `style-src ${styleHashes.join(' ')}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  html = html.replace(/<head>/, () => `<head>\n  <meta http-equiv="Content-Security-Policy" content="${csp}">`);
  return { html, wasm: wasmFile.bytes, rest: restFile ? restFile.bytes : 0 };
}

module.exports = { singleFile };

if (require.main === module) {
  const [dist, out] = process.argv.slice(2);
  if (!dist || !out) {
    console.error('usage: node tools/postbuild/single-file.js DIST OUT');
    process.exit(2);
  }
  try {
    const { html, wasm, rest } = singleFile(dist);
    fs.writeFileSync(out, html);
    console.log(`${out}: ${fs.statSync(out).size} bytes (wasm ${wasm}${rest ? ` + ${rest}` : ''} bytes inlined as base64)`);
  } catch (e) {
    console.error(`single-file: ${e.message}`);
    process.exit(1);
  }
}
