const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({ roots: { '/': process.env.DIST || '/tmp/distprof' } });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  page.on('console', m => console.log('console:', m.text().slice(0,300))); page.on('pageerror', e => console.log('err:', e.message.slice(0,300)));
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const times = [];
  await cdp.send('Profiler.start');
  for (let i = 0; i < 20; i++) {
    const v = ['16384', '32768', '65536', '8192'][i % 4];
    times.push(await page.evaluate(async (value) => {
      const input = document.querySelector('[data-testid=ctx]');
      const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const t1 = performance.now();
      while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) {
        await new Promise((r) => setTimeout(r, 0));
      }
      const t2 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return [t1 - t0, t2 - t0, performance.now() - t0];
    }, v));
  }
  const { profile } = await cdp.send('Profiler.stop');
  console.log(JSON.stringify(times.map(t => t.map(x => x.toFixed(1)))));
  // self time by function
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas; let total = 0;
  profile.samples.forEach((id, i) => { const n = byId.get(id); const k = n.callFrame.functionName || '(anon ' + n.callFrame.url.split('/').pop() + ')'; self.set(k, (self.get(k) || 0) + (dt[i] || 0)); total += dt[i] || 0; });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 45);
  for (const [k, v] of top) console.log((v / 1000).toFixed(1).padStart(8), 'ms', k.slice(0, 150));
  await browser.close(); server.close();
})();
