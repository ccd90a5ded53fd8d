// Offline: the service worker keeps the app working with the server gone — the app and the
// visitor's language from the first visit, another language and the file reader once used online,
// everything once the page asks it to keep everything — and replaces its copy (whole, with what the
// visitor used) when a new build is served; the single-file build works opened from file://.
const { test, expect } = require('@playwright/test');
const { execFileSync } = require('child_process');
const http = require('http');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { writeManifest } = require('../../tools/postbuild/manifest');

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json' };
const QUERY = '?model=qwen3-8b&weights=bf16&ctx=16384&seqs=4&gpu=rtx-4090&lang=en';
/** What a copy holds after a first visit in English: the app (page, JS, both wasm modules, the
 * icons, the web app manifest) and its manifest; no language file, no reader. */
const APP = (files) => files.filter((f) => !/^(vramfit-web-|icon)/.test(f)).sort();
const APP_REST = ['', 'assets.json', 'manifest.webmanifest'];
const READER = ['vramfit-reader_loader.js', 'vramfit-reader.js', 'vramfit-reader_bg.wasm'];

/** Drops a (truncated) GGUF header on the page's file reader. */
async function dropFile(page) {
  await page.getByTestId('file-drop').locator('summary').click();
  await page.getByTestId('file-input').setInputFiles({ name: 'x.gguf', mimeType: 'application/octet-stream',
    buffer: Buffer.from('GGUF\x03\x00\x00\x00', 'latin1') });
  await expect(page.getByTestId('file-error')).toContainText('truncated');
}

/** Posts `message` to the page's service worker; resolves to its answer. */
function askWorker(page, message) {
  return page.evaluate((m) => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => resolve(e.data);
    navigator.serviceWorker.controller.postMessage(m, [channel.port2]);
  }), message);
}

/** Serves `dir` on `port` (0: a free one) until stop(), which also drops open connections. */
async function serve(dir, port = 0) {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(req.url.split('?')[0]).replace(/\/$/, '/index.html');
    fs.readFile(path.join(dir, rel), (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(rel)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    port: server.address().port,
    stop: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }),
  };
}

/** Once the page is controlled: the files of the one complete vramfit cache, when `ok(files)`. */
async function cachedFiles(page, ok = () => true) {
  await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller);
  let files;
  await expect.poll(async () => {
    files = await page.evaluate(async () => {
      const names = (await caches.keys()).filter((k) => /^vramfit-[0-9a-f]+$/.test(k));
      if (names.length !== 1) return null;
      const cache = await caches.open(names[0]);
      if (!(await cache.match(new URL('./', location.href).href))) return null;
      return (await cache.keys()).map((r) => new URL(r.url).pathname.split('/').pop()).sort();
    });
    return files !== null && ok(files);
  }, { timeout: 15_000 }).toBe(true);
  return files;
}

test('after one visit the app works with the server gone, then updates whole on the next online visit', async ({ page }) => {
  page.on('pageerror', (e) => { throw e; });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-dist-'));
  fs.cpSync(DIST, dir, { recursive: true });
  let server = await serve(dir);
  try {
    await page.goto(server.url + QUERY);
    await expect(page.getByTestId('verdict')).toContainText('RTX 4090');
    const verdict = await page.getByTestId('verdict').textContent();
    const table = await page.getByTestId('components').textContent();
    const v1 = await cachedFiles(page);
    expect(v1.some((f) => f.endsWith('_bg.wasm'))).toBe(true);
    // Both parts of the split wasm (tools/split-wasm).
    expect(v1.some((f) => f.endsWith('_rest.wasm'))).toBe(true);
    // The page's CSS is inline in index.html (no stylesheet file to cache).
    expect(v1.some((f) => f.endsWith('.css'))).toBe(false);
    // The app and nothing else: an English visit caches no language, and the reader waits for a
    // dropped file.
    expect(APP(v1)).toEqual(APP_REST);

    // Another language and the file reader, used online, join the copy.
    await page.goto(server.url + QUERY.replace('lang=en', 'lang=de'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await dropFile(page);
    await cachedFiles(page, (files) => ['de.json', ...READER].every((f) => files.includes(f)));

    // Server gone: the same view, and it still computes.
    await server.stop();
    await page.goto(server.url + QUERY);
    await expect(page.getByTestId('verdict')).toHaveText(verdict);
    await expect(page.getByTestId('components')).toHaveText(table);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.layout')).display)).toBe('grid');
    await page.getByTestId('ctx').fill('65536');
    await expect(page.getByTestId('verdict')).not.toHaveText(verdict);
    await page.goto(server.url + '?model=llama-3.1-70b-instruct&gpu=h100-sxm-80gb&lang=en');
    await expect(page.getByTestId('model-summary')).toContainText('Llama 3.1 70B');
    // A link to training: its first answer runs code of the wasm's rest module. A page the service
    // worker controls loads that module from the worker's copy before it starts (a synchronous
    // request would not reach the worker: tools/postbuild/runtime.js).
    const train = encodeURIComponent(JSON.stringify({ method: 'qlora', lora_rank: 16, lora_targets: 'all_linear',
      micro_batch: 4, sequence_length: 2048, checkpointing: 'full', optimizer: 'paged_adamw8bit' }));
    await page.goto(server.url + `?lang=en&model=llama-3.1-8b-instruct&gpu=rtx-4090&train=${train}`);
    await expect(page.getByTestId('replicas')).toContainText('Data parallel');
    expect(await page.evaluate(() => performance.getEntriesByName('vramfit:rest', 'mark')[0].detail)).toBe('before start');
    // The language and the header reader used online, with the server still gone.
    await page.goto(server.url + QUERY.replace('lang=en', 'lang=de'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByTestId('workload-serve').locator('..')).not.toContainText('Serve an LLM');
    await dropFile(page);

    // A new build (new hashed names for the JS and the wasm) on the same address, online again.
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const stem = html.match(/vramfit-web-([0-9a-f]+)\.js/)[1];
    const oldNames = [`vramfit-web-${stem}.js`, `vramfit-web-${stem}_bg.wasm`, `vramfit-web-${stem}_rest.wasm`];
    const newNames = oldNames.map((n) => n.replace(stem, `${stem}0`));
    for (const [a, b] of oldNames.map((n, i) => [n, newNames[i]])) fs.renameSync(path.join(dir, a), path.join(dir, b));
    fs.writeFileSync(path.join(dir, 'index.html'), html.replaceAll(`vramfit-web-${stem}`, `vramfit-web-${stem}0`));
    // Its asset manifest, as the post-build program writes it (the service worker caches by it).
    writeManifest(dir);
    server = await serve(dir, server.port);
    await page.goto(server.url + QUERY);
    await expect(page.getByTestId('verdict')).toHaveText(verdict);
    const v2 = await cachedFiles(page, (files) => newNames.every((n) => files.includes(n)));
    for (const n of oldNames) expect(v2).not.toContain(n);
    // What the visitor used in the old copy is in the new one.
    expect(v2).toEqual(expect.arrayContaining(['de.json', ...READER]));

    // Offline again: the new copy is served, and only the new names are asked for.
    await server.stop();
    const asked = [];
    page.on('request', (r) => asked.push(r.url().split('/').pop()));
    await page.reload();
    await expect(page.getByTestId('verdict')).toHaveText(verdict);
    for (const n of newNames) expect(asked).toContain(n);
    for (const n of oldNames) expect(asked).not.toContain(n);
  } finally {
    await server.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a first visit caches the visitor\'s language with the app; asked to keep everything, the worker caches every language and the reader', async ({ page }) => {
  page.on('pageerror', (e) => { throw e; });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-dist-'));
  fs.cpSync(DIST, dir, { recursive: true });
  const server = await serve(dir);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'assets.json'), 'utf8'));
  const langs = manifest.files.filter((f) => f.role === 'lang');
  try {
    // The language the page asks for is the one the manifest lists, under the same URL.
    const asked = [];
    page.on('request', (r) => { if (r.url().includes('/lang/')) asked.push(r.url().replace(server.url, '')); });
    await page.goto(server.url + QUERY.replace('lang=en', 'lang=de'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    expect(asked[0]).toBe(langs.find((f) => f.lang === 'de').url);
    const first = await cachedFiles(page);
    expect(APP(first)).toEqual(['', 'assets.json', 'de.json', 'manifest.webmanifest']);
    const before = await askWorker(page, { type: 'cache-status' });
    expect(before.all).toBe(false);
    expect(before.missing.sort()).toEqual([...langs.filter((f) => f.lang !== 'de').map((f) => f.path), ...READER].sort());
    expect(before.missingBytes).toBeGreaterThan(0);

    // The "keep everything for offline use" control's message.
    const after = await askWorker(page, { type: 'cache-all' });
    expect(after).toMatchObject({ type: 'cache-all', all: true, missing: [], missingBytes: 0 });
    const all = await cachedFiles(page);
    expect(all).toEqual(expect.arrayContaining([...langs.map((f) => f.path.split('/').pop()), ...READER]));

    // Offline: a language never shown online, and the reader never used.
    await server.stop();
    await page.goto(server.url + QUERY.replace('lang=en', 'lang=pl'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
    await expect(page.getByTestId('verdict')).toContainText('RTX 4090');
    await dropFile(page);
    // Turned off again, only the open page's language stays (and the app).
    const off = await askWorker(page, { type: 'cache-all', enabled: false });
    expect(off.all).toBe(false);
    expect(off.cached.filter((f) => f.startsWith('lang/'))).toEqual(['lang/pl.json']);
  } finally {
    await server.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the footer\'s box keeps every language and the reader, says what that downloads, and lets them go', async ({ page }) => {
  page.on('pageerror', (e) => { throw e; });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-dist-'));
  fs.cpSync(DIST, dir, { recursive: true });
  const server = await serve(dir);
  try {
    await page.goto(server.url + QUERY);
    await cachedFiles(page);
    // Shown once the worker controls the page (a first visit: when it claims it), unticked, with
    // the download it would make.
    const box = page.getByTestId('keep-offline');
    await expect(box).toBeVisible();
    await expect(box).not.toBeChecked();
    const status = await askWorker(page, { type: 'cache-status' });
    const mb = (status.missingBytes / 1e6).toFixed(1);
    await expect(page.locator('.keep-offline')).toContainText(`${mb} MB to download`);
    await box.check();
    await expect(box).toBeChecked();
    await expect(page.locator('.keep-offline')).not.toContainText('MB');
    expect(await askWorker(page, { type: 'cache-status' })).toMatchObject({ all: true, missing: [] });
    // Remembered on the next visit; unticked, only what was used stays.
    await page.reload();
    await expect(page.getByTestId('keep-offline')).toBeChecked();
    await page.getByTestId('keep-offline').uncheck();
    await expect(page.getByTestId('keep-offline')).not.toBeChecked();
    expect((await askWorker(page, { type: 'cache-status' })).all).toBe(false);
  } finally {
    await server.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the single-file build opened from file:// gives the same verdict, under its own CSP', async ({ page }) => {
  execFileSync('bash', [path.join(ROOT, 'scripts/single-file'), '--no-build'], { cwd: ROOT, stdio: 'pipe' });
  await page.goto('./' + QUERY);
  const verdict = await page.getByTestId('verdict').textContent();
  const table = await page.getByTestId('components').textContent();
  expect(verdict).toContain('RTX 4090');

  const other = await page.context().newPage();
  const problems = [];
  other.on('pageerror', (e) => problems.push(String(e)));
  other.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  other.on('request', (r) => { if (!/^(file|data):/.test(r.url())) problems.push(`request ${r.url()}`); });
  await other.goto('file://' + path.join(ROOT, 'dist-single/vramfit.html') + QUERY);
  await expect(other.getByTestId('verdict')).toHaveText(verdict);
  await expect(other.getByTestId('components')).toHaveText(table);
  await other.getByTestId('ctx').fill('65536');
  await expect(other.getByTestId('verdict')).not.toHaveText(verdict);
  const csp = await other.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("default-src 'none'");
  // The inline stylesheet is allowed by its hash: the page is styled.
  expect(await other.evaluate(() => getComputedStyle(document.querySelector('.layout')).display)).toBe('grid');
  // Another language comes from the file's own data blocks, without a request.
  await other.goto('file://' + path.join(ROOT, 'dist-single/vramfit.html') + QUERY.replace('lang=en', 'lang=de'));
  await expect(other.getByTestId('verdict')).toContainText('RTX 4090');
  await expect(other.locator('html')).toHaveAttribute('lang', 'de');
  await expect(other.getByTestId('workload-serve').locator('..')).not.toContainText('Serve an LLM');
  expect(problems).toEqual([]);
});
