//! index.html as the post-build program rewrites it: the start-up script that Trunk writes, told
//! where the rest of the wasm is; the files renamed; the `integrity` of the links to rewritten
//! files; the inline stylesheet minified (www/style.css, inlined by Trunk, which the first answer
//! waits for). Strings in, strings out.
'use strict';
const crypto = require('crypto');

/** The Subresource Integrity value of `bytes`: `sha384-<base64>`. */
function integrity(bytes) {
  return `sha384-${crypto.createHash('sha384').update(bytes).digest('base64')}`;
}

/** Trunk's start-up script for the app `stem` (`vramfit-web-<h>`): the line that starts it. */
function startLine(stem) {
  return `const wasm = await init({ module_or_path: './${stem}_bg.wasm' });`;
}

/** `html` with the app `stem` renamed `out` (the JS, the wasm), and the start-up script telling
 * the loader where the rest is (`./<out>_rest.wasm`) before it starts the app. Throws if Trunk's
 * start-up script changed shape. */
function withRest(html, stem, out) {
  const start = startLine(stem);
  if (!html.includes(start)) throw new Error(`index.html: Trunk's start-up script changed shape (no "${start}")`);
  return html.replace(start, `bindings.__vramfit_rest_source('./${out}_rest.wasm');\n${start}`)
    .replaceAll(stem, out);
}

/** `html` with the `integrity` of each `<link>` to `./name` set to `bytes`'s (files: { name: bytes }). */
function withIntegrity(html, files) {
  for (const [name, bytes] of Object.entries(files)) {
    const value = integrity(bytes);
    html = html.replace(new RegExp(`(<link[^>]*href="\\./${name.replace(/\./g, '\\.')}"[^>]*integrity=")[^"]*"`, 'g'), `$1${value}"`);
  }
  return html;
}

/** A stylesheet without its comments and spare whitespace, as far as is safe without parsing CSS:
 * comments go, each run of whitespace becomes one space (calc()'s spaces around + and - stay), and
 * spaces beside `{`, `}` and `;` go. Throws if a string holds `/*`. */
function minifyCss(css) {
  if (/["'][^"'\n]*\/\*/.test(css)) throw new Error('a string holds "/*": comments cannot be dropped by pattern');
  return css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').replace(/\s*([{};])\s*/g, '$1').trim();
}

/** `html` with each `<style>` block minified. */
function minifyStyles(html) {
  return html.replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style>)/g, (_, open, css, close) => open + minifyCss(css) + close);
}

module.exports = { integrity, startLine, withRest, withIntegrity, minifyCss, minifyStyles };
