const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({ roots: { '/': process.env.DIST || '/tmp/distprof' } });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(500);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'blink.user_timing', 'v8.execute'] });
  const times = [];
  for (let i = 0; i < 20; i++) {
    const v = ['16384', '32768', '65536', '8192'][i % 4];
    times.push(await page.evaluate(async (value) => {
      const input = document.querySelector('[data-testid=ctx]');
      const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) {
        await new Promise((r) => setTimeout(r, 0));
      }
      const t2 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return [t2 - t0, performance.now() - t0];
    }, v));
  }
  const buf = await browser.stopTracing();
  const ev = JSON.parse(buf.toString()).traceEvents;
  const agg = new Map();
  for (const e of ev) { if (e.ph === "X" && e.dur) agg.set(e.name, (agg.get(e.name) || 0) + e.dur); if (e.name === "UpdateLayoutTree" && e.dur > 2000) console.log("ULT", (e.dur/1000).toFixed(1), JSON.stringify(e.args).slice(0,200)); }
  console.log(JSON.stringify(times.map(t => t.map(x => x.toFixed(1)))));
  for (const [k, v] of [...agg.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000 / 20).toFixed(2).padStart(8), 'ms/input', k);
  await browser.close(); server.close();
})();
