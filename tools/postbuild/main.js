//! The post-build program: Trunk's post-build hook (Trunk.toml), run in Trunk's staging folder
//! (TRUNK_STAGING_DIR) before it becomes dist/. For the app's page (README.md says more):
//!
//! 1. the wasm: split in two (split.js: `vramfit-web-<h>_bg.wasm` the primary module, the
//!    functions tools/split-wasm/keep.txt names and every function without a name;
//!    `vramfit-web-<h>_rest.wasm` the rest), or kept whole and saying why (VRAMFIT_SPLIT=off, no
//!    `wasm-split` on PATH, more than one table); its names and the linker's sections dropped;
//! 2. the JS module, when split: the loader appended (loader.js, runtime.js), wasm-bindgen's
//!    imports renamed short in it and in the primary (short-imports.js), minified by terser (or left
//!    as it is without terser, saying so);
//! 3. the three files renamed by a digest of their contents, and index.html rewritten (html.js):
//!    its start-up script, the preloads and their `integrity`, its inline stylesheet minified;
//! 4. the asset manifest `assets.json` written (manifest.js).
//!
//! VRAMFIT_SPLIT=names leaves the wasm whole and named (tools/split-wasm/profile.js profiles it).
//! A debug build (TRUNK_PROFILE other than release) gets only its manifest.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { splitModule, wholeBecause, wholeModule, readKeepList } = require('./split');
const { shortenImports } = require('./short-imports');
const { withRuntime, loadTerser, minifyModule } = require('./loader');
const { withRest, withIntegrity, minifyStyles } = require('./html');
const { writeManifest } = require('./manifest');

const KEEP = path.resolve(__dirname, '../split-wasm/keep.txt');

/** The list of functions to keep that `VRAMFIT_KEEP` names instead of keep.txt, or undefined.
 * tools/split-reach writes such a list (what a split declared in the source would keep), so that
 * its first module can be built and weighed like the profiled one. */
function keepFromEnv(env) {
  const file = env.VRAMFIT_KEEP;
  if (!file) return undefined;
  if (!fs.existsSync(file)) throw new Error(`VRAMFIT_KEEP names ${file}, which does not exist`);
  return fs.readFileSync(file, 'utf8');
}

/** Whether `tool` runs (it is on PATH). */
function onPath(tool) {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch (_) {
    return false;
  }
}

/**
 * Rewrites the build in `staging`. Options (each defaults to what Trunk and scripts/env.sh give):
 * `release` (TRUNK_PROFILE=release), `mode` (VRAMFIT_SPLIT: on, off, names), `linkMap`
 * (VRAMFIT_LINK_MAP), `has(tool)` (whether a tool is on PATH), `terser` (the module, or null),
 * `keep` (keep.txt's text, or the file VRAMFIT_KEEP names), `say(line)` (what the build prints). Returns what it did:
 * { app: false } for another page, else { app: true, split, whole (why, when whole), files }.
 */
async function postBuild(staging, {
  release = process.env.TRUNK_PROFILE === 'release',
  mode = process.env.VRAMFIT_SPLIT || 'on',
  linkMap = process.env.VRAMFIT_LINK_MAP,
  has = onPath,
  terser = undefined,
  keep = keepFromEnv(process.env),
  say = (line) => console.warn(`tools/postbuild: ${line}`),
} = {}) {
  // Trunk's file hash is a u64 in hex without leading zeros: 1–16 digits.
  const wasmName = fs.readdirSync(staging).find((n) => /^vramfit-web-[0-9a-f]{1,16}_bg\.wasm$/.test(n));
  if (!wasmName) return { app: false }; // another page (tools/bench-counter)
  const result = { app: true, split: false, whole: null };
  if (release && mode !== 'names') Object.assign(result, await rewrite(staging, wasmName, { mode, linkMap, has, terser, keep, say }));
  const htmlPath = path.join(staging, 'index.html');
  if (release) fs.writeFileSync(htmlPath, minifyStyles(fs.readFileSync(htmlPath, 'utf8')));
  result.files = writeManifest(staging).files.length;
  return result;
}

/** Steps 1–3 for the app `wasmName` in `staging`. */
async function rewrite(staging, wasmName, { mode, linkMap, has, terser, keep, say }) {
  const stem = wasmName.replace(/_bg\.wasm$/, '');
  const wasmPath = path.join(staging, wasmName);
  const jsPath = path.join(staging, `${stem}.js`);
  const htmlPath = path.join(staging, 'index.html');
  let html = fs.readFileSync(htmlPath, 'utf8');

  const whole = wholeBecause(fs.readFileSync(wasmPath), mode, has);
  if (whole) {
    say(`the app's wasm stays whole: ${whole}`);
    const wasm = wholeModule(wasmPath);
    fs.writeFileSync(wasmPath, wasm);
    fs.writeFileSync(htmlPath, withIntegrity(html, { [wasmName]: wasm }));
    return { whole };
  }

  const wanted = readKeepList(keep ?? fs.readFileSync(KEEP, 'utf8'));
  const split = splitModule(wasmPath, wanted, linkMap);
  if (!split.moved) say(`all the data stays in the primary module: ${split.coldWhy}`);
  let { primary } = split;

  let js = withRuntime(fs.readFileSync(jsPath, 'utf8'));
  // Short names for wasm-bindgen's imports, in the primary and in the JS (short-imports.js).
  const short = shortenImports(primary, js);
  if (short.wasm) ({ wasm: primary, js } = short);
  else say(`wasm-bindgen's imports keep their names: ${short.why}`);
  if (terser === undefined) terser = loadTerser();
  if (terser) js = await minifyModule(js, terser);
  else say('no terser in .tools/ (scripts/setup installs it): the JS stays unminified');

  const digest = crypto.createHash('sha256').update(Buffer.concat([Buffer.from(js), primary, split.rest]))
    .digest('hex').slice(0, 16);
  const out = `vramfit-web-${digest}`;
  for (const p of [wasmPath, jsPath]) fs.rmSync(p);
  fs.writeFileSync(path.join(staging, `${out}.js`), js);
  fs.writeFileSync(path.join(staging, `${out}_bg.wasm`), primary);
  fs.writeFileSync(path.join(staging, `${out}_rest.wasm`), split.rest);
  html = withIntegrity(withRest(html, stem, out), { [`${out}.js`]: Buffer.from(js), [`${out}_bg.wasm`]: primary });
  fs.writeFileSync(htmlPath, html);

  const kb = (b) => `${(b.length / 1024).toFixed(0)} KiB`;
  const missing = wanted.size - split.found.size;
  // A list from tools/split-reach names functions the optimiser later inlines: not a stale profile.
  const list = keep === undefined ? 'keep.txt' : 'the list';
  const gone = keep === undefined ? 'gone: rerun tools/split-wasm/profile.js' : 'not in this build (inlined or gone)';
  console.log(`tools/postbuild: kept ${split.kept} of ${split.defined} functions `
    + `(${split.found.size} of ${list}'s ${wanted.size} names found${missing ? `; ${missing} ${gone}` : ''}); `
    + `primary ${kb(primary)}, rest ${kb(split.rest)}; ${(split.moved / 1024).toFixed(0)} KiB of data moved to the rest`);
  return { split: true };
}

module.exports = { postBuild, onPath, keepFromEnv };

if (require.main === module) {
  const staging = process.env.TRUNK_STAGING_DIR;
  if (!staging) {
    console.error('tools/postbuild: TRUNK_STAGING_DIR is not set (this runs as a Trunk hook)');
    process.exit(1);
  }
  postBuild(staging).catch((e) => {
    console.error(`tools/postbuild: ${e.stack || e}`);
    process.exit(1);
  });
}
