// A Chromium trace of the path from navigation to the painted verdict (a report; asserts nothing).
// Loads the default page fresh (no service worker, gzip -9 as a static host sends it), records a
// performance trace, and prints: when each step happened (the module's and the wasm's arrival,
// `vramfit:main`, `vramfit:mounted`, the verdict in the document, the first paint after it) and
// what the main thread spent its time on before the verdict, by kind of work. Run at 1× and 4×
// CPU (a mid-range phone); median of ROUNDS loads.
// Usage: node tests/e2e/trace-load.js [DIST] [--json FILE]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { serveDist, launchChromium } = require('./dist-server');

const argv = process.argv.slice(2);
const jsonOut = argv.includes('--json') ? argv[argv.indexOf('--json') + 1] : null;
const dist = path.resolve(argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--json') || path.join(__dirname, '../../dist'));
const ROUNDS = 5;
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'v8.wasm', 'loading'];

/** Main-thread work by kind: the trace event names that make each up (top-level slices only). */
const KINDS = {
  'parse HTML': ['ParseHTML'],
  'compile / instantiate wasm': ['v8.wasm.compileModule', 'v8.wasm.compiledModule', 'v8.wasm.streamFromResponseCallback', 'wasm.InstantiateModule', 'v8.wasm.finishedStreaming'],
  'run JS and wasm': ['EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'RunMicrotasks', 'TimerFire', 'EventDispatch', 'V8.Execute'],
  'style and layout': ['UpdateLayoutTree', 'Layout', 'RecalculateStyles', 'ParseAuthorStyleSheet'],
  'paint': ['Paint', 'PaintImage', 'UpdateLayer', 'Layerize', 'PrePaint', 'Commit'],
};

async function oneLoad(browser, url, cpu) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  await page.addInitScript(() => {
    new MutationObserver((_, o) => {
      if (document.querySelector('[data-testid=verdict]')) {
        performance.mark('vramfit:verdict-in-dom');
        requestAnimationFrame(() => setTimeout(() => performance.mark('vramfit:verdict-painted'), 0));
        o.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const file = path.join(os.tmpdir(), `vramfit-trace-${process.pid}.json`);
  await browser.startTracing(page, { path: file, categories: CATEGORIES });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('vramfit:verdict-painted').length > 0);
  await browser.stopTracing();
  const marks = await page.evaluate(() => Object.fromEntries(
    performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
  const resources = await page.evaluate(() => performance.getEntriesByType('resource')
    .map((r) => ({ name: r.name.split('/').pop().split('?')[0], end: r.responseEnd })));
  const events = JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents;
  fs.unlinkSync(file);
  await context.close();
  return { marks, resources, busy: mainThreadBusy(events, marks['vramfit:verdict-painted']) };
}

/** Milliseconds of main-thread work by kind, from navigation to `until` (ms): the outermost slice
 * of a known kind counts (a slice inside it is part of it); `tasks` is the time in tasks at all,
 * `other` what the kinds leave of it. */
function mainThreadBusy(events, until) {
  const main = events.find((e) => e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain');
  const nav = events.find((e) => e.name === 'navigationStart');
  if (!main || !nav) return {};
  const start = nav.ts;
  const end = start + until * 1000;
  const onMain = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.ts >= start && e.ts <= end)
    .sort((a, b) => a.ts - b.ts);
  const known = Object.fromEntries(Object.entries(KINDS).flatMap(([k, names]) => names.map((n) => [n, k])));
  const busy = {};
  let reach = 0;
  for (const e of onMain.filter((x) => known[x.name])) {
    if (e.ts < reach) continue;
    reach = e.ts + (e.dur || 0);
    busy[known[e.name]] = (busy[known[e.name]] || 0) + (e.dur || 0) / 1000;
  }
  let tasks = 0;
  reach = 0;
  for (const e of onMain.filter((x) => x.name === 'RunTask' || x.name === 'ThreadControllerImpl::RunTask')) {
    if (e.ts < reach) continue;
    reach = e.ts + (e.dur || 0);
    tasks += (e.dur || 0) / 1000;
  }
  busy['other'] = Math.max(0, tasks - Object.values(busy).reduce((x, y) => x + y, 0));
  busy['all tasks'] = tasks;
  return busy;
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

(async () => {
  const server = await serveDist({ roots: { '/': dist }, gzip: true });
  const browser = await launchChromium();
  const report = {};
  for (const cpu of [1, 4]) {
    const loads = [];
    for (let i = 0; i < ROUNDS; i += 1) loads.push(await oneLoad(browser, `${server.url}?lang=en`, cpu));
    const at = (name) => median(loads.map((l) => l.marks[name] ?? NaN));
    const arrived = (re) => median(loads.map((l) => Math.max(...l.resources.filter((r) => re.test(r.name)).map((r) => r.end))));
    const kinds = [...new Set(loads.flatMap((l) => Object.keys(l.busy)))];
    report[`${cpu}x CPU`] = {
      steps_ms: {
        'JS module in': arrived(/^vramfit-web-.*\.js$/),
        'primary wasm in': arrived(/_bg\.wasm$/),
        'vramfit:main (wasm starts)': at('vramfit:main'),
        'first estimate starts': at('vramfit:estimate-start'),
        'first estimate done': at('vramfit:estimated'),
        'vramfit:mounted (page built)': at('vramfit:mounted'),
        'verdict in the document': at('vramfit:verdict-in-dom'),
        'verdict painted': at('vramfit:verdict-painted'),
      },
      main_thread_ms_before_verdict: Object.fromEntries(kinds.map((k) => [k, median(loads.map((l) => l.busy[k] || 0))])),
    };
  }
  await browser.close();
  server.close();
  for (const [cpu, r] of Object.entries(report)) {
    console.log(`\n${cpu}, median of ${ROUNDS} loads`);
    for (const [k, v] of Object.entries(r.steps_ms)) console.log(`  ${k.padEnd(32)} ${v.toFixed(1)} ms`);
    console.log('  main thread before the verdict painted:');
    for (const [k, v] of Object.entries(r.main_thread_ms_before_verdict).sort((a, b) => b[1] - a[1])) console.log(`    ${k.padEnd(30)} ${v.toFixed(1)} ms`);
  }
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2));
})().catch((e) => { console.error(e); process.exit(1); });
