const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({ roots: { '/': process.env.DIST || '/tmp/distprof' }, gzip: true });
  const browser = await launchChromium();
  const runs = [];
  let agg = new Map(), self = new Map();
  const N = 5;
  for (let i = 0; i < N; i++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=verdict]');
    const t = await page.evaluate(() => ({ ready: performance.now(), nav: performance.getEntriesByType('navigation')[0].responseEnd,
      res: performance.getEntriesByType('resource').map(r => [r.name.split('/').pop().slice(0, 30), Math.round(r.startTime), Math.round(r.responseEnd)]) }));
    const { profile } = await cdp.send('Profiler.stop');
    runs.push(t);
    const byId = new Map(profile.nodes.map(n => [n.id, n]));
    const parent = new Map(); for (const n of profile.nodes) for (const c of (n.children || [])) parent.set(c, n.id);
    profile.samples.forEach((id, j) => { let n = byId.get(id); if (!/from_iter|shortest|createElement|innerHTML|decodeText/.test(n.callFrame.functionName)) return; const chain = []; let p = id; for (let d = 0; d < 6 && p; d++) { chain.push(byId.get(p).callFrame.functionName.slice(0, 70)); p = parent.get(p); } const k = chain.join(' < '); globalThis.chains = globalThis.chains || new Map(); chains.set(k, (chains.get(k) || 0) + (profile.timeDeltas[j] || 0)); });
    profile.samples.forEach((id, j) => { const n = byId.get(id); const k = n.callFrame.functionName || '(anon ' + n.callFrame.url.split('/').pop() + ')'; self.set(k, (self.get(k) || 0) + (profile.timeDeltas[j] || 0)); });
    await context.close();
  }
  for (const r of runs) console.log(Math.round(r.ready), JSON.stringify(r.res));
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / 1000 / N).toFixed(1).padStart(8), 'ms', k.slice(0, 140));
  for (const [k, v] of [...globalThis.chains.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log((v / 1000 / N).toFixed(1).padStart(8), 'ms', k);
  await browser.close(); server.close();
})();
