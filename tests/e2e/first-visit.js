// What a first visit moves with the service worker active: every request the server answers from
// the navigation until the service worker's offline copy is complete and the network has been
// quiet for QUIET_MS, as a static host sends it (gzip -9, `cache-control: no-cache`), with ETags
// (a revalidation the file passes is a 304 without a body, counted as a request of 0 bytes) and
// without (every request a whole download: a host without validators, the worst case). Used by
// scripts/bench-first-visit.
//
//   node first-visit.js [--label LABEL] DIST_DIR [[--label LABEL] DIST_DIR …]   (default: dist/)
//   FIRST_VISIT_QUERIES='|?lang=de' (queries to load, `|`-separated; default: English and German)
//   FIRST_VISIT_ROUNDS=3 (visits of each; the median total is reported, with that visit's kinds)
//
// Each visit runs in a fresh browser context (no cache, no service worker); the builds are visited
// in turn, round after round. Prints Markdown tables: per server, build and query, the bytes and
// requests in all, and by kind of file.
const fs = require('fs');
const path = require('path');
const { serveDist, launchChromium } = require('./dist-server');

const QUIET_MS = 2000;
const QUERIES = (process.env.FIRST_VISIT_QUERIES ?? '|?lang=de').split('|');

const builds = [];
for (let i = 2; i < process.argv.length; i++) {
  let label = null;
  if (process.argv[i] === '--label') { label = process.argv[i + 1]; i += 2; }
  const dir = path.resolve(process.argv[i]);
  builds.push({ label: label || path.basename(dir), dir });
}
if (builds.length === 0) builds.push({ label: 'dist', dir: path.resolve(__dirname, '../../dist') });

/** The kind of a file, for the breakdown. */
function kind(p) {
  const name = p.split('/').pop();
  if (name === '' || name === 'index.html') return 'page';
  if (/^vramfit-web-[0-9a-f]+_rest\.wasm$/.test(name)) return 'wasm rest';
  if (/^vramfit-web-[0-9a-f]+_bg\.wasm$/.test(name)) return 'wasm primary';
  if (/^vramfit-web-[0-9a-f]+\.js$/.test(name)) return 'js';
  if (name.startsWith('vramfit-reader')) return 'reader';
  if (p.includes('/lang/')) return 'languages';
  return 'other';
}

/** Resolves once `page`'s service worker has a complete copy (the pointer cache names a cache
 * holding the page), or after 30 s. */
async function offlineCopyDone(page) {
  await page.waitForFunction(async () => {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return false;
    const meta = await caches.open('vramfit-current');
    const keys = await meta.keys();
    if (keys.length === 0) return false;
    const name = await (await meta.match(keys[0])).text();
    const cache = await caches.open(name);
    return !!(await cache.match(new URL('./', location.href).href));
  }, null, { timeout: 30_000, polling: 200 });
}

async function visit(browser, server, prefix, query) {
  const context = await browser.newContext();
  const page = await context.newPage();
  server.reset();
  await page.goto(`${server.url}${prefix}/${query}`);
  await page.locator('[data-testid=verdict]').waitFor();
  await offlineCopyDone(page);
  // Quiet: no new request for QUIET_MS (the rest of the wasm, a language, the worker's copy).
  let count = -1;
  while (count !== server.sent().length) {
    count = server.sent().length;
    await new Promise((r) => setTimeout(r, QUIET_MS));
  }
  const sent = server.sent().filter((r) => !r.path.endsWith('favicon.ico'));
  await context.close();
  return sent;
}

(async () => {
  const roots = Object.fromEntries(builds.map((b, i) => [`/b${i}/`, b.dir]));
  const rounds = Number(process.env.FIRST_VISIT_ROUNDS || 3);
  const browser = await launchChromium();
  const kinds = ['page', 'js', 'wasm primary', 'wasm rest', 'languages', 'reader', 'other'];
  const kb = (n) => n.toLocaleString('en-US');
  const bytesOf = (rs) => rs.reduce((s, r) => s + r.bytes, 0);
  const sum = (rs) => `${kb(bytesOf(rs))} / ${rs.length}`;
  const lines = [];
  for (const validators of [true, false]) {
    const server = await serveDist({ roots, gzip: true, validators });
    lines.push(`First visit with the service worker active, until its offline copy is complete and the network is quiet; ${validators ? 'a host with ETags (304s count as requests of 0 bytes)' : 'a host without validators (every request a whole download)'}; gzip -9 as sent, bytes / requests, median of ${rounds} visits:`);
    lines.push('');
    lines.push(`| build | query | total | ${kinds.join(' | ')} |`);
    lines.push(`|---|---|---:|${kinds.map(() => '---:').join('|')}|`);
    const visits = new Map();
    for (let round = 0; round < rounds; round++) {
      for (const [i] of builds.entries()) {
        for (const query of QUERIES) {
          const key = `${i} ${query}`;
          if (!visits.has(key)) visits.set(key, []);
          visits.get(key).push(await visit(browser, server, `b${i}`, query));
        }
      }
    }
    for (const [i, b] of builds.entries()) {
      for (const query of QUERIES) {
        const all = visits.get(`${i} ${query}`).sort((x, y) => bytesOf(x) - bytesOf(y));
        const sent = all[Math.floor(all.length / 2)];
        const by = kinds.map((k) => sum(sent.filter((r) => kind(r.path) === k)));
        const range = `${kb(bytesOf(all[0]))}–${kb(bytesOf(all[all.length - 1]))}`;
        lines.push(`| ${b.label} | ${query || '(English)'} | ${sum(sent)} (${range}) | ${by.join(' | ')} |`);
        if (process.env.FIRST_VISIT_LOG) {
          for (const r of sent) console.error(`${b.label} ${query}: ${r.path} ${r.bytes}${r.status ? ` ${r.status}` : ''}`);
        }
      }
    }
    lines.push('');
    server.close();
  }
  await browser.close();
  console.log(lines.join('\n'));
})().catch((e) => { console.error(e); process.exit(1); });
