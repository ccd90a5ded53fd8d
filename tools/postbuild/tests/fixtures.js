// Tiny wasm modules assembled by hand for the post-build program's tests, and a staging folder
// shaped like Trunk's (index.html, the app's JS and wasm, a language, the reader, the icon).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { uleb, sleb } = require('../wasm');

const bytes = (...parts) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))));
const vec = (items) => bytes(uleb(items.length), ...items);
const str = (s) => bytes(uleb(Buffer.byteLength(s)), Buffer.from(s, 'utf8'));
const section = (id, body) => bytes([id], uleb(body.length), body);

/** A module of `sections` (the header added). */
const wasmModule = (...sections) => bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], ...sections);

/** Type section: [[params], [results]] of value types (0x7f i32). */
const types = (list) => section(1, vec(list.map(([p, r]) => bytes([0x60], vec(p.map((t) => Buffer.from([t]))), vec(r.map((t) => Buffer.from([t])))))));

/** Import section: { module, field, func: typeIndex } or { module, field, memory: min pages }. */
const imports = (list) => section(2, vec(list.map((i) => {
  if (i.func !== undefined) return bytes(str(i.module), str(i.field), [0x00], uleb(i.func));
  return bytes(str(i.module), str(i.field), [0x02, 0x00], uleb(i.memory));
})));

/** Function section: each defined function's type index. */
const functions = (typeIndices) => section(3, vec(typeIndices.map((t) => uleb(t))));
/** Table section: `n` funcref tables of 1 entry. */
const tables = (n) => section(4, vec(Array.from({ length: n }, () => Buffer.from([0x70, 0x00, 0x01]))));
/** Memory section: one memory of `pages` pages. */
const memory = (pages) => section(5, vec([bytes([0x00], uleb(pages))]));
/** Export section: { name, memory: index } or { name, func: index }. */
const exportsOf = (list) => section(7, vec(list.map((e) => (e.memory !== undefined
  ? bytes(str(e.name), [0x02], uleb(e.memory)) : bytes(str(e.name), [0x00], uleb(e.func))))));
/** Element section: one active segment writing these functions into table 0 from slot 0. */
const elements = (funcs) => section(9, bytes([1, 0x00, 0x41, 0x00, 0x0b], vec(funcs.map((i) => uleb(i)))));
/** Code section: each body's instructions (no locals; `end` added). */
const code = (bodies) => section(10, vec(bodies.map((instrs) => {
  const body = bytes([0x00], instrs, [0x0b]);
  return bytes(uleb(body.length), body);
})));
/** Data section: active segments { offset, bytes } into memory 0. */
const data = (segments) => section(11, vec(segments.map((s) => bytes([0x00, 0x41], sleb(s.offset), [0x0b], uleb(s.bytes.length), s.bytes))));
/** Custom section `name` with `body`. */
const custom = (name, body = Buffer.alloc(0)) => section(0, bytes(str(name), body));
/** The `name` section with function names (Map index → name). */
const names = (map) => custom('name', (() => {
  const sub = vec([...map].map(([i, n]) => bytes(uleb(i), str(n))));
  return bytes([0x01], uleb(sub.length), sub);
})());

/** The memory a module starts with (its exported `memory`, instantiated without imports). */
function memoryOf(wasm, length) {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(wasm), {});
  return Buffer.from(exports.memory.buffer, 0, length);
}

/** A staging folder like Trunk's for the app: `vramfit-web-abc_bg.wasm` (`wasm`), its JS, an
 * index.html naming both with Trunk's start-up script and preloads, the icon, the web app
 * manifest, the reader's three files, German and the service worker. Returns its path. */
function staging(wasm) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-postbuild-test-'));
  const write = (rel, content) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  };
  write('vramfit-web-abc_bg.wasm', wasm);
  write('vramfit-web-abc.js', 'export function __vramfit_rest_source() {}\nasync function init() {}\nexport default init;\n');
  write('index.html', `<!doctype html>
<html lang="en">
<head>
  <title>t</title>
<script type="module">
import init, * as bindings from './vramfit-web-abc.js';
const wasm = await init({ module_or_path: './vramfit-web-abc_bg.wasm' });
</script>
  <style>
    /* a comment */
    body { margin : 0 ; }
  </style>
  <link rel="icon" href="./icon-0123456789abcdef.svg" integrity="sha384-x"/>
  <link rel="manifest" href="./manifest.webmanifest">
<link rel="modulepreload" href="./vramfit-web-abc.js" crossorigin="anonymous" integrity="sha384-old"><link rel="preload" href="./vramfit-web-abc_bg.wasm" crossorigin="anonymous" integrity="sha384-old" as="fetch" type="application/wasm"></head>
<body><div id="boot"></div></body>
</html>
`);
  write('icon-0123456789abcdef.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('manifest.webmanifest', '{"name":"t"}');
  write('vramfit-reader_loader.js', 'importScripts("./vramfit-reader.js");');
  write('vramfit-reader.js', '// reader');
  write('vramfit-reader_bg.wasm', wasmModule());
  write('lang/de.json', '{"Tagline":"Hallo"}');
  write('sw.js', '// sw');
  write('embed.js', '// embed');
  write('embed-example.html', '<!doctype html>');
  return dir;
}

module.exports = {
  bytes, vec, str, section, wasmModule, types, imports, functions, tables, memory, exportsOf, elements, code, data,
  custom, names, memoryOf, staging,
};
