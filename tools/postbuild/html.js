//! Called by Trunk's post-build hook (tools/split-wasm/split.js, the app's release builds): drops
//! the comments and the spare whitespace of index.html's inline stylesheet (www/style.css, inlined
//! by Trunk), which the first answer waits for. Only what is safe without parsing
//! CSS: comments go, each run of whitespace becomes one space (calc()'s spaces around + and -
//! stay), and spaces beside `{`, `}` and `;` go. The tags stay as Trunk writes them (the service
//! worker and scripts/single-file read them).
'use strict';
const fs = require('fs');

function minify(css) {
  if (/["'][^"'\n]*\/\*/.test(css)) throw new Error('a string holds "/*": comments cannot be dropped by pattern');
  return css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').replace(/\s*([{};])\s*/g, '$1').trim();
}

/** Minifies the `<style>` blocks of the page at `htmlPath`, in place. */
function minifyStyles(htmlPath) {
  const html = fs.readFileSync(htmlPath, 'utf8');
  fs.writeFileSync(htmlPath, html.replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style>)/g, (_, open, css, close) => open + minify(css) + close));
}

module.exports = { minify, minifyStyles };
