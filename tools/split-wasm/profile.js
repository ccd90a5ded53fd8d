//! Writes tools/split-wasm/keep.txt: the functions the first answer runs, for the views people land
//! on (SCENARIOS). Builds the app whole and with function names (VRAMFIT_SPLIT=names), loads each
//! view in headless Chromium while tracing V8's lazy compilation (a wasm function is compiled the
//! first time it runs), and writes the names of the functions that ran, normalised
//! (tools/postbuild/names.js), sorted. Rerun it when the build reports names gone, or a test finds
//! the first answer loading the rest on demand (tests/e2e/split.spec.js).
//!
//!   node tools/split-wasm/profile.js [QUERY …]   (needs scripts/setup --browser; default: SCENARIOS)
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { functionNames } = require('../postbuild/wasm');
const { normalise } = require('../postbuild/names');

const ROOT = path.resolve(__dirname, '../..');

/** The views whose first answer must not wait for the rest: the default page, each language, a
 * model that does not fit its card (its fixes follow the rest), and the embed widget. Links to the other
 * workloads and engines load the rest at once (their first answer ≈ the whole wasm's; their query
 * keys are REST_FIRST in tools/postbuild/loader.js). */
const SCENARIOS = [
  '',
  // Each language: its plural rules and number formats are code of their own.
  ...['de', 'es', 'fr', 'it', 'pl', 'sl'].map((tag) => `?lang=${tag}`),
  '?model=qwen3-8b&weights=bf16&ctx=32768&seqs=4&gpu=rtx-4090&lang=en',
  '?embed=1&model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=rtx-4090',
];
const VIEWPORTS = [{ width: 1366, height: 900 }, { width: 390, height: 844 }];

/** Functions never kept, even when a profiled view runs them: English's `later` texts
 * (vramfit-i18n's en.rs), so that its table and texts move to the rest (cold-data.js). A profiled
 * view that needs one of them then loads the rest on demand, which tests/e2e/split.spec.js
 * reports, instead of the primary silently keeping all of `LATER`'s text. */
const NEVER_KEEP = ['vramfit_i18n::en::later'];

/** Edits made before the rest is in (the stand-in hook never calls back, so it never is): each
 * must wait for the one download behind the busy sign (vramfit-web's `later.rs`), so the code of
 * that wait — a field's change, each workload's switch and its sign — belongs to the primary. */
async function editBeforeTheRest(page) {
  await page.getByTestId('ctx').fill('16384');
  await page.getByTestId('busy').waitFor();
  for (const kind of ['train', 'image', 'video', 'custom']) {
    await page.getByTestId(`workload-${kind}`).check();
    await page.getByTestId('busy-inputs').waitFor();
  }
  await page.getByTestId('workload-serve').check();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
}

async function main() {
  const { serveDist, launchChromium } = require(path.join(ROOT, 'tests/e2e/dist-server'));
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-profile-'));
  console.log(`building the whole app with function names into ${dist}`);
  execFileSync('bash', ['-c', `source scripts/env.sh && VRAMFIT_SPLIT=names web_release_build --dist "${dist}"`],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const wasmName = fs.readdirSync(dist).find((n) => /^vramfit-web-[0-9a-f]{1,16}_bg\.wasm$/.test(n));
  const { names } = functionNames(fs.readFileSync(path.join(dist, wasmName)));

  const server = await serveDist({ roots: { '/': dist }, gzip: true });
  const browser = await launchChromium();
  const ran = new Set();
  for (const viewport of VIEWPORTS) {
    for (const query of (process.argv.length > 2 ? process.argv.slice(2) : SCENARIOS)) {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport });
      const page = await context.newPage();
      // The build profiled is whole, without runtime.js: stand in for its hook, never calling back,
      // so what the app builds once the rest is in (vramfit-web's later.rs) stays out of the list.
      await page.addInitScript(() => { globalThis.__vramfit_after_rest = () => {}; });
      await browser.startTracing(page, { categories: ['v8.wasm', 'disabled-by-default-v8.wasm.detailed'] });
      await page.goto(server.url + query);
      await page.waitForSelector('[data-testid=verdict], [data-testid=embed]');
      await page.waitForLoadState('networkidle');
      // The frame that shows it (layout-driven code: charts, observers).
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
      // Without a card and with one (its card fields, the second card type): the views people
      // land on, as they would first edit them.
      if (query === '' || query.includes('gpu=')) {
        if (!query.includes('embed=')) await editBeforeTheRest(page);
      }
      // Leaving the page before the rest is in: the page-hide listener runs during the page's
      // dismissal, when Chromium refuses the synchronous request an on-demand load makes, so its
      // code must be in the primary (vramfit-web's url.rs writes the address bar there).
      await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })));
      const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
      let count = 0;
      for (const e of events) {
        if (e.name !== 'wasm.CompileLazy' || !e.args) continue;
        const name = names.get(e.args.func_index ?? e.args.function_index);
        if (name !== undefined) { ran.add(normalise(name)); count++; }
      }
      console.log(`${viewport.width} px ${query || '(default)'}: ${count} functions`);
      await context.close();
    }
  }
  await browser.close();
  server.close();
  fs.rmSync(dist, { recursive: true });
  const header = '# Functions the first answer runs (tools/split-wasm/profile.js writes this file; split.js keeps them in the primary module).\n';
  for (const name of NEVER_KEEP) ran.delete(name);
  fs.writeFileSync(path.join(__dirname, 'keep.txt'), header + [...ran].sort().join('\n') + '\n');
  console.log(`tools/split-wasm/keep.txt: ${ran.size} functions`);
}

module.exports = { SCENARIOS };
if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });
