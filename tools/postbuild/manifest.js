//! The asset manifest, `assets.json` beside index.html: every file of the version with its role,
//! size and Subresource Integrity hash. The service worker (www/sw.js) caches by it, and the
//! single-file build (single-file.js) inlines by it; neither reads index.html to find the files.
//!
//!   { "version": "<16 hex digits: a digest of every path and hash>",
//!     "files": [{ "path": "vramfit-web-<h>_bg.wasm", "role": "wasm", "bytes": 592808,
//!                 "integrity": "sha384-…" },
//!               { "path": "lang/de.json", "role": "lang", "lang": "de",
//!                 "url": "lang/de.json?v=<FNV-1a>", … }, …] }
//!
//! Roles (by file name): `page` index.html; `js` the app's JS module; `wasm` the app's wasm (the
//! primary module when split, else the whole); `wasm-rest` the rest of a split wasm; `icon`;
//! `manifest` the web app manifest; `reader` the header reader's worker (its loader, JS and wasm);
//! `lang` a language's texts, with its tag and the URL the app asks for (`?v=` the file's
//! FNV-1a, as crates/vramfit-i18n/src/data.rs computes it); `service-worker`; `embed` the scripts
//! other pages load (embed.js, api.js); `example` the example pages; `other` anything else.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { integrity } = require('./html');

const FILE = 'assets.json';

/** The role of the file at `rel` (a path relative to dist/, with `/`), and for a language its tag. */
function role(rel) {
  const name = rel.split('/').pop();
  if (rel === 'index.html') return { role: 'page' };
  if (/^vramfit-web-[0-9a-f]+\.js$/.test(rel)) return { role: 'js' };
  if (/^vramfit-web-[0-9a-f]+_bg\.wasm$/.test(rel)) return { role: 'wasm' };
  if (/^vramfit-web-[0-9a-f]+_rest\.wasm$/.test(rel)) return { role: 'wasm-rest' };
  if (/^vramfit-reader(_loader\.js|\.js|_bg\.wasm)$/.test(rel)) return { role: 'reader' };
  const lang = rel.match(/^lang\/([a-z]{2,3})\.json$/);
  if (lang) return { role: 'lang', lang: lang[1] };
  if (rel === 'manifest.webmanifest') return { role: 'manifest' };
  if (/\.(svg|png|ico)$/.test(name) && !rel.includes('/')) return { role: 'icon' };
  if (rel === 'sw.js') return { role: 'service-worker' };
  if (rel === 'embed.js' || rel === 'api.js') return { role: 'embed' };
  if (/\.html$/.test(rel)) return { role: 'example' };
  return { role: 'other' };
}

/** FNV-1a (32 bits) of `bytes`, as 8 hex digits: a language file's `?v=`. */
function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** Every file under `dir`, relative, with `/`, sorted; the manifest itself left out. */
function filesUnder(dir, sub = '') {
  return fs.readdirSync(path.join(dir, sub), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, path.posix.join(sub, e.name)) : [path.posix.join(sub, e.name)]))
    .filter((rel) => rel !== FILE)
    .sort();
}

/** The manifest of the build in `dir`. */
function manifestOf(dir) {
  const files = filesUnder(dir).map((rel) => {
    const bytes = fs.readFileSync(path.join(dir, rel));
    const entry = { path: rel, ...role(rel), bytes: bytes.length, integrity: integrity(bytes) };
    if (entry.role === 'lang') entry.url = `${rel}?v=${fnv1a(bytes)}`;
    return entry;
  });
  const version = crypto.createHash('sha256')
    .update(files.map((f) => `${f.path} ${f.integrity}\n`).join(''))
    .digest('hex').slice(0, 16);
  return { version, files };
}

/** Writes `dir`/assets.json; returns the manifest. */
function writeManifest(dir) {
  const manifest = manifestOf(dir);
  // One file a line: readable, and compact for the service worker that fetches it.
  const files = manifest.files.map((f) => JSON.stringify(f)).join(',\n');
  fs.writeFileSync(path.join(dir, FILE), `{"version":${JSON.stringify(manifest.version)},"files":[\n${files}\n]}\n`);
  return manifest;
}

/** The manifest `dir`/assets.json, checked against the files: each is there, with its size and
 * hash. Throws otherwise (a dist/ changed after the build). */
function readManifest(dir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, FILE), 'utf8'));
  for (const f of manifest.files) {
    const bytes = fs.readFileSync(path.join(dir, f.path));
    if (bytes.length !== f.bytes || integrity(bytes) !== f.integrity) throw new Error(`${f.path} is not the file ${FILE} lists`);
  }
  return manifest;
}

/** The one file of `role` in `manifest` (null if none; throws if several). */
function one(manifest, r) {
  const found = manifest.files.filter((f) => f.role === r);
  if (found.length > 1) throw new Error(`${found.length} files of role ${r}`);
  return found[0] || null;
}

module.exports = { FILE, role, fnv1a, manifestOf, writeManifest, readManifest, one };
