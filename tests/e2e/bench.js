// First load, time to ready and input→paint of built apps in headless Chromium, beside a plain
// reference page measured in the same run (so the ratio holds on a noisy machine). Used by
// scripts/bench. Usage:
//   node bench.js [--before DIST_DIR] [--names-after WASM] [--names-before WASM] [--core-after LINE]
//                 [--core-before LINE] [--counter DIST_DIR] [--peer NAME=DIR] [--docs FILE]
// "after" is dist/ of this checkout. Every response is served gzip -9 (as a static host sends it);
// the brotli figure is what the same requests weigh at brotli q11 (a host serving precompressed
// files). Each load runs in a fresh browser context (empty cache); BENCH_ROUNDS loads of each (5). Prints Markdown tables; with
// --docs FILE (or its older name --readme FILE; scripts/bench passes docs/performance.md), writes
// them between the perf markers of that file as well.
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { serveDist, launchChromium } = require('./dist-server');
const { analyse } = require('./wasm-size');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);

const dist = path.resolve(__dirname, '../../dist');
const apps = [{ label: 'after', dir: dist }];
if (args.before) apps.unshift({ label: 'before', dir: path.resolve(args.before) });

// The reference: a static page (HTML + inline CSS + one inline script) that shows the element the
// app's "ready" waits for, once the document has loaded.
const refDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-ref-'));
fs.writeFileSync(path.join(refDir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>reference</title><style>body{font-family:system-ui;margin:0}.top{padding:.8rem 1.2rem}</style></head>
<body><header class="top"><h1>reference</h1></header><main id="m"></main>
<script>addEventListener('DOMContentLoaded',()=>{const p=document.createElement('p');p.dataset.testid='verdict';p.textContent='ready';document.getElementById('m').append(p);});</script>
</body></html>`);

// The second reference (--counter): a plain Leptos counter (tools/bench-counter) built like the app,
// the floor of a Leptos page's time to ready on this machine (ready ÷ counter holds on a noisy
// one).
const counterDir = args.counter ? path.resolve(args.counter) : null;
// The peer (--peer NAME=DIR): another calculator's built page, served at /NAME/ (gpu_poor's `docs/`
// asks for its files under /gpu_poor/), measured in the same run; ready is its first render, the
// first element in its root (`--peer-ready`, default `#root > *`). Its requests to other origins
// (analytics) are aborted, as every page here has no network.
const [peerName, peerPath] = args.peer ? args.peer.split('=') : [null, null];
if (args.peer && (!peerName || !peerPath || ['ref', 'counter', 'before', 'after'].includes(peerName))) {
  console.error(`--peer wants NAME=DIR, NAME not ref, counter, before or after (got ${args.peer})`);
  process.exit(2);
}
const peerDir = peerPath ? path.resolve(peerPath) : null;
const peerReady = args['peer-ready'] || '#root > *';

const roots = { '/ref/': refDir };
if (counterDir) roots['/counter/'] = counterDir;
if (peerDir) roots[`/${peerName}/`] = peerDir;
for (const a of apps) roots[`/${a.label}/`] = a.dir;

// Resolves, in the page, to performance.now() when the verdict first exists (the peer: its first
// render, `window.__readySelector`).
// \`window.__painted\` resolves to when the frame showing it was painted, by Element Timing: the
// observer marks the element and what it holds before the frame renders (a MutationObserver's
// callback runs before rendering), and Chromium reports the paint time of each marked element
// with text (\`renderTime\`). Unlike a task queued after the next frame, it does not wait behind
// the page's own tasks or the driver's round trip.
const READY = `window.__painted = new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const times = list.getEntries().filter((e) => e.identifier === 'vramfit-bench').map((e) => e.renderTime || e.loadTime);
    if (times.length) resolve(Math.min(...times));
  }).observe({ type: 'element', buffered: true });
});
window.__ready = new Promise((resolve) => {
  const done = () => {
    const el = document.querySelector(window.__readySelector || '[data-testid=verdict]');
    if (!el) return false;
    resolve(performance.now());
    for (const e of [el, ...el.querySelectorAll('*')]) e.setAttribute('elementtiming', 'vramfit-bench');
    return true;
  };
  const mo = new MutationObserver(() => { if (done()) mo.disconnect(); });
  mo.observe(document, { childList: true, subtree: true });
});`;

const brotli = (file) => zlib.brotliCompressSync(fs.readFileSync(file), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const med = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const kb = (n) => n.toLocaleString('en-US');
// The app's own wasm (`vramfit-web-<hash>_bg.wasm`, and `…_rest.wasm` when split: tools/split-wasm),
// not the header reader's worker, which the page fetches only when a file is dropped.
const isAppWasm = (x) => /^vramfit-web-[0-9a-f]+_(bg|rest)\.wasm$/.test(x);

// A mobile link, as Lighthouse's mobile throttling and DevTools' "Slow 4G" define it (round trip
// 150 ms, 1.6 Mbps down, 750 kbps up), emulated by DevTools for the slow-link table.
const SLOW_LINK = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

async function load(browser, server, label, query = '', slow = false) {
  // Service workers blocked: the first load is what the page needs to be ready; the offline copy
  // the service worker then fetches in the background is reported apart (offlineCopy).
  const context = await browser.newContext({ serviceWorkers: 'block' });
  if (label === peerName) {
    await context.addInitScript(`window.__readySelector = ${JSON.stringify(peerReady)};`);
    await context.route((url) => !url.href.startsWith(server.url), (route) => route.abort());
  }
  await context.addInitScript(READY);
  const page = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_LINK);
  }
  page.on('pageerror', (e) => { console.error(`page error: ${label}/${query} (${slow ? 'mobile link' : 'loopback'})`); throw e; });
  server.reset();
  await page.goto(`${server.url}${label}/${query}`);
  const ready = await page.evaluate(() => window.__ready);
  // The load's timeline: when the wasm had arrived, when its main started and the page was built
  // (the app's User Timing marks `vramfit:main`, `vramfit:mounted`; absent in older builds), and
  // when the frame holding the verdict had been painted (the task after that frame's rendering).
  const timeline = await page.evaluate(async (readyAt) => {
    const painted = await new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)));
    const mark = (name) => (performance.getEntriesByName(name, 'mark')[0] || {}).startTime;
    const wasm = performance.getEntriesByType('resource').find((e) => /_bg\.wasm$/.test(e.name));
    // The files asked for before the verdict existed (the rest of a split wasm comes after).
    const early = performance.getEntriesByType('resource').filter((e) => e.startTime <= readyAt)
      .map((e) => new URL(e.name).pathname);
    // Element Timing's paint time, or null where it reports none within a second.
    const shown = await Promise.race([window.__painted, new Promise((r) => setTimeout(() => r(null), 1000))]);
    return { wasm: wasm && wasm.responseEnd, main: mark('vramfit:main'), built: mark('vramfit:mounted'), ready: readyAt, painted, shown, early };
  }, ready);
  // Let a language file the page asked for arrive before counting.
  await page.waitForLoadState('networkidle');
  const fcp = await page.evaluate(() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0);
  const sent = server.sent().filter((r) => r.bytes > 0 && !r.path.endsWith('favicon.ico'));
  const early = new Set(timeline.early);
  const beforeAnswer = sent.filter((r, i) => i === 0 || early.has(r.path));
  return { page, context, ready, fcp, sent, beforeAnswer, timeline };
}

/** Input → repainted result, ms: set the context field, wait for the new total, then a frame. */
async function inputToPaint(page) {
  const times = [];
  for (const v of ['16384', '32768', '65536', '8192']) {
    times.push(await page.evaluate(async (value) => {
      const input = document.querySelector('[data-testid=ctx]');
      const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) {
        await new Promise((r) => setTimeout(r, 0));
      }
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t0;
    }, v));
  }
  return times;
}

(async () => {
  const server = await serveDist({ roots, gzip: true });
  const browser = await launchChromium();
  const refs = ['ref', ...(counterDir ? ['counter'] : []), ...(peerDir ? [peerName] : [])];
  const labels = [...refs, ...apps.map((a) => a.label)];
  const isRef = (label) => refs.includes(label);
  const dirOf = (label) => ({ ref: refDir, counter: counterDir, [peerName]: peerDir }[label] || apps.find((a) => a.label === label).dir);
  const ready = Object.fromEntries(labels.map((l) => [l, []]));
  const fcp = Object.fromEntries(labels.map((l) => [l, []]));
  const paint = Object.fromEntries(apps.map((a) => [a.label, []]));
  const timeline = Object.fromEntries(labels.map((l) => [l, []]));
  const first = {};
  const answer = {};
  // A warm-up load of each (the browser's own start-up costs are not the app's).
  for (const l of labels) { const r = await load(browser, server, l); await r.context.close(); }
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round loads the builds in reverse order, so neither build always follows the
    // other (input → paint read 3–8 ms higher for "after" in four runs that always loaded it
    // second, and not in an A/B apart).
    for (const l of round % 2 ? labels.slice().reverse() : labels) {
      const r = await load(browser, server, l);
      ready[l].push(r.ready);
      fcp[l].push(r.fcp);
      timeline[l].push(r.timeline);
      if (!first[l]) { first[l] = r.sent; answer[l] = r.beforeAnswer; }
      if (!isRef(l)) paint[l].push(...(await inputToPaint(r.page)));
      await r.context.close();
    }
  }
  // The same first load over a mobile link (3 loads each, interleaved): the round trips and bytes
  // a loopback hides.
  const slow = Object.fromEntries(labels.map((l) => [l, []]));
  for (let round = 0; round < 3; round++) {
    for (const l of labels) {
      const r = await load(browser, server, l, '', true);
      slow[l].push(r);
      await r.context.close();
    }
  }
  // Another language: what its first load adds (the data file).
  const other = {};
  for (const a of apps) {
    const r = await load(browser, server, a.label, '?lang=pl');
    other[a.label] = r.sent;
    await r.context.close();
  }
  await browser.close();
  server.close();

  const weigh = (label, sent) => {
    const dir = dirOf(label);
    const gzip = sent.reduce((s, r) => s + r.bytes, 0);
    const br = sent.reduce((s, r) => s + brotli(path.join(dir, r.path.slice(label.length + 2) || 'index.html')), 0);
    return { gzip, br, requests: sent.length };
  };
  const refReady = med(ready.ref);
  const NAMES = { ref: 'reference (static page)', counter: 'reference (Leptos counter)', ...(peerDir ? { [peerName]: `peer: ${peerName} (first render)` } : {}) };
  const counterReady = counterDir ? med(ready.counter) : null;
  const peerReadyMs = peerDir ? med(ready[peerName]) : null;
  const lines = [];
  lines.push(`First load (English) and time to ready, headless Chromium, loopback, gzip -9 as sent; median of ${ROUNDS} fresh loads each, interleaved with a static reference page:`);
  lines.push('');
  const vsCounter = (counterDir ? ' ready ÷ Leptos counter |' : '') + (peerDir ? ` ready ÷ ${peerName} |` : '');
  lines.push(`| build | wasm raw | wasm gzip | wasm brotli | first load gzip | first load brotli | requests | before the first answer (gzip) | + Polish (gzip) | first paint ms | ready ms | ready ÷ reference |${vsCounter} input → paint ms |`);
  lines.push(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${counterDir ? '---:|' : ''}${peerDir ? '---:|' : ''}---:|`);
  for (const l of labels) {
    const w = weigh(l, first[l]);
    const r = med(ready[l]);
    let wasm = ['–', '–', '–'];
    let plus = '–';
    let ip = '–';
    if (l === 'counter') {
      const file = path.join(dirOf(l), fs.readdirSync(dirOf(l)).find((x) => x.endsWith('_bg.wasm')));
      wasm = [kb(fs.statSync(file).size), kb(zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length), kb(brotli(file))];
    }
    if (!isRef(l)) {
      // Both modules of a split build (primary + rest), shown as their sum and its parts.
      const files = fs.readdirSync(dirOf(l)).filter(isAppWasm).sort().map((f) => path.join(dirOf(l), f));
      const each = files.map((file) => [fs.statSync(file).size, zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length, brotli(file)]);
      wasm = [0, 1, 2].map((k) => {
        const total = kb(each.reduce((sum, e) => sum + e[k], 0));
        return each.length > 1 ? `${total} (${each.map((e) => kb(e[k])).join(' + ')})` : total;
      });
      plus = kb(weigh(l, other[l]).gzip - w.gzip);
      ip = med(paint[l]).toFixed(1);
    }
    const name = NAMES[l] || l;
    const c = (counterDir ? ` ${(r / counterReady).toFixed(2)} |` : '') + (peerDir ? ` ${(r / peerReadyMs).toFixed(2)} |` : '');
    lines.push(`| ${name} | ${wasm.join(' | ')} | ${kb(w.gzip)} | ${kb(w.br)} | ${w.requests} | ${kb(weigh(l, answer[l]).gzip)} | ${plus} | ${med(fcp[l]).toFixed(0)} | ${r.toFixed(0)} | ${(r / refReady).toFixed(1)} |${c} ${ip} |`);
  }
  // Where the time to a first answer goes, up to the verdict rendered (what a user waits for), not
  // only built.
  const stage = (l, k) => {
    const v = timeline[l].map((t) => t[k]).filter((x) => typeof x === 'number');
    return v.length === timeline[l].length ? med(v).toFixed(0) : '–';
  };
  lines.push('');
  lines.push(`Time to a first answer, split (ms from navigation start, median of the same ${ROUNDS} loads): the wasm has arrived; its \`main\` starts (download and compile done); the page is built and in the document; the verdict is in the DOM ("ready" above); "verdict painted": the task after the next frame (style, layout, paint of the whole page; it also waits for the page's tasks queued before it and for the driver's round trip); "verdict shown": the paint time Element Timing reports for the verdict's text (the peer: its first render's). "–": the build sets no such mark.`);
  lines.push('');
  lines.push(`| build | wasm arrived | wasm main | page built | ready | verdict painted | painted ÷ Leptos counter |${peerDir ? ` painted ÷ ${peerName} |` : ''} verdict shown |${peerDir ? ` shown ÷ ${peerName} |` : ''}`);
  lines.push(`|---|---:|---:|---:|---:|---:|---:|${peerDir ? '---:|' : ''}---:|${peerDir ? '---:|' : ''}`);
  const counterPainted = counterDir ? Number(stage('counter', 'painted')) : null;
  const peerPainted = peerDir ? Number(stage(peerName, 'painted')) : null;
  const peerShown = peerDir ? Number(stage(peerName, 'shown')) : null;
  for (const l of labels) {
    const name = NAMES[l] || l;
    const p = stage(l, 'painted');
    const shown = stage(l, 'shown');
    const vsPeer = peerDir ? ` ${(Number(p) / peerPainted).toFixed(2)} |` : '';
    const shownVsPeer = peerDir ? ` ${shown === '–' || !peerShown ? '–' : (Number(shown) / peerShown).toFixed(2)} |` : '';
    lines.push(`| ${name} | ${stage(l, 'wasm')} | ${stage(l, 'main')} | ${stage(l, 'built')} | ${stage(l, 'ready')} | ${p} | ${counterPainted ? (Number(p) / counterPainted).toFixed(2) : '–'} |${vsPeer} ${shown} |${shownVsPeer}`);
  }
  lines.push('');
  lines.push('The same first load over a mobile link (DevTools emulation of Lighthouse\'s mobile throttling: 150 ms round trip, 1.6 Mbps down, 750 kbps up; median of 3 loads each, ms from navigation start):');
  lines.push('');
  lines.push('| build | first paint | ready | verdict painted | verdict shown |');
  lines.push('|---|---:|---:|---:|---:|');
  for (const l of labels) {
    const name = NAMES[l] || l;
    const m = (f) => (slow[l].every((r) => typeof f(r) === 'number') ? med(slow[l].map(f)).toFixed(0) : '–');
    lines.push(`| ${name} | ${m((r) => r.fcp)} | ${m((r) => r.ready)} | ${m((r) => r.timeline.painted)} | ${m((r) => r.timeline.shown)} |`);
  }
  if (args['core-after']) {
    lines.push('');
    lines.push('Re-estimate in the core (native, release; `estimate` with the recommendation over the GPU catalog):');
    lines.push('');
    if (args['core-before']) lines.push(`- before: ${args['core-before']}`);
    lines.push(`- after: ${args['core-after']}`);
  }
  const files = (dir, sub = '') => fs.readdirSync(path.join(dir, sub), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(dir, path.join(sub, e.name)) : [path.join(sub, e.name)]));
  lines.push('');
  lines.push('Files of each build (raw / gzip -9 / brotli q11; `lang/` files load only with their language):');
  lines.push('');
  lines.push('| build | file | raw | gzip | brotli |');
  lines.push('|---|---|---:|---:|---:|');
  for (const a of apps) {
    for (const f of files(a.dir).sort()) {
      const buf = fs.readFileSync(path.join(a.dir, f));
      const name = f.replace(/-[0-9a-f]{1,16}(_bg|_rest)?\./, '$1.');
      lines.push(`| ${a.label} | ${name} | ${kb(buf.length)} | ${kb(zlib.gzipSync(buf, { level: 9 }).length)} | ${kb(brotli(path.join(a.dir, f)))} |`);
    }
  }
  // What the service worker stores after the first visit, as a static host sends it: fetched in
  // the background once the page is ready, not part of the first load above. A build with an asset
  // manifest (tools/postbuild/manifest.js): its files of the roles the worker caches up front
  // (UP_FRONT in www/sw.js; an English visit adds no language); an older one: index.html, every
  // './…' file it names and its ON_DEMAND list. scripts/bench-first-visit measures the visit itself.
  const OFFLINE = new Set(['page', 'js', 'wasm', 'wasm-rest', 'icon', 'manifest']);
  lines.push('');
  lines.push('The offline copy the service worker then fetches in the background (gzip -9):');
  lines.push('');
  for (const a of apps) {
    let named;
    if (fs.existsSync(path.join(a.dir, 'assets.json'))) {
      const manifest = JSON.parse(fs.readFileSync(path.join(a.dir, 'assets.json'), 'utf8'));
      named = new Set(manifest.files.filter((f) => OFFLINE.has(f.role)).map((f) => f.path));
    } else {
      const html = fs.readFileSync(path.join(a.dir, 'index.html'), 'utf8');
      const sw = fs.existsSync(path.join(a.dir, 'sw.js')) ? fs.readFileSync(path.join(a.dir, 'sw.js'), 'utf8') : '';
      named = new Set([...html.matchAll(/["'](\.\/[^"'?#\s]+)["']/g)].map((m) => m[1].slice(2)));
      const onDemand = (sw.match(/const ON_DEMAND = [^;]*;/) || [''])[0];
      for (const m of onDemand.matchAll(/'\.\/([^']+)'/g)) named.add(m[1]);
      if (/lang\/\$\{tag\}\.json/.test(onDemand)) for (const t of ['de', 'es', 'fr', 'it', 'pl', 'sl']) named.add(`lang/${t}.json`);
      named.add('index.html');
    }
    let total = 0;
    for (const f of named) {
      const file = path.join(a.dir, f);
      if (fs.existsSync(file)) total += zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
    }
    lines.push(`- ${a.label}: ${kb(total)} B in ${named.size} files`);
  }
  const builds = apps.map((a) => ({ label: a.label, dir: a.dir, names: args[`names-${a.label}`] }));
  const sections = builds.map((b) => {
    const f = fs.readdirSync(b.dir).find((x) => isAppWasm(x) && x.endsWith('_bg.wasm'));
    return analyse(path.join(b.dir, f));
  });
  lines.push('');
  lines.push('The shipped wasm by section (a split build\'s primary module: what the first answer loads; raw / gzip of the section alone):');
  lines.push('');
  lines.push(`| section | ${builds.map((b) => b.label).join(' | ')} |`);
  lines.push(`|---|${builds.map(() => '---:').join('|')}|`);
  const secNames = [...new Set(sections.flatMap((s) => s.sections.map((x) => x.name)))];
  for (const n of secNames) {
    lines.push(`| ${n} | ${sections.map((s) => { const x = s.sections.find((y) => y.name === n); return x ? `${kb(x.raw)} / ${kb(x.gzip)}` : '–'; }).join(' | ')} |`);
  }
  const named = builds.map((b) => (b.names && fs.existsSync(b.names) ? analyse(b.names).crates : null));
  if (named.every((c) => c)) {
    lines.push('');
    lines.push('Code by crate (the same build with function names kept; a generic function counts for the crate that defines it, so views the app instantiates count for `tachys`; raw / gzip alone):');
    lines.push('');
    lines.push(`| crate | ${builds.map((b) => b.label).join(' | ')} |`);
    lines.push(`|---|${builds.map(() => '---:').join('|')}|`);
    const top = [...new Set(named.flatMap((c) => c.slice(0, 14).map((x) => x.name)))];
    for (const n of top) {
      lines.push(`| ${n} | ${named.map((c) => { const x = c.find((y) => y.name === n); return x ? `${kb(x.raw)} / ${kb(x.gzip)}` : '–'; }).join(' | ')} |`);
    }
  }
  const text = lines.join('\n');
  console.log(text);
  const docs = args.docs || args.readme;
  if (docs) {
    const doc = fs.readFileSync(docs, 'utf8');
    const start = '<!-- perf:start -->';
    const end = '<!-- perf:end -->';
    const a = doc.indexOf(start);
    const b = doc.indexOf(end);
    if (a < 0 || b < a) throw new Error(`${docs} has no ${start} … ${end} block`);
    fs.writeFileSync(docs, `${doc.slice(0, a + start.length)}\n${text}\n${doc.slice(b)}`);
  }
  fs.rmSync(refDir, { recursive: true, force: true });
})().catch((e) => { console.error(e); process.exit(1); });
