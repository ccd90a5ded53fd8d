const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({ roots: { '/': process.argv[2] || '/tmp/dn3' }, gzip: true });
  const browser = await launchChromium();
  const agg = {}; const self = {}; let readyT = [];
  const N = 5;
  for (let i = 0; i < N; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const t0 = Date.now();
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=verdict]');
    readyT.push(Date.now() - t0);
    const { profile } = await cdp.send('Profiler.stop');
    const byId = new Map(profile.nodes.map(n => [n.id, n]));
    const parent = new Map(); for (const n of profile.nodes) for (const c of (n.children||[])) parent.set(c, n.id);
    profile.samples.forEach((id, k) => {
      const d = (profile.timeDeltas[k] || 0) / 1000;
      const nm0 = byId.get(id).callFrame.functionName || '(anon)'; self[nm0] = (self[nm0]||0) + d;
      const seen = new Set(); let cur = id;
      while (cur !== undefined) { const nm = (byId.get(cur).callFrame.functionName || '(anon)').replace(/\[[0-9a-f]+\]/g,''); if (!seen.has(nm)) { agg[nm] = (agg[nm]||0) + d; seen.add(nm); } cur = parent.get(cur); }
    });
    await context.close();
  }
  console.log('ready ms', readyT);
  console.log('--- self');
  for (const [k, v] of Object.entries(self).sort((a,b)=>b[1]-a[1]).slice(0, 12)) console.log((v/N).toFixed(1).padStart(7), k.slice(0,130));
  console.log('--- inclusive');
  for (const [k, v] of Object.entries(agg).sort((a,b)=>b[1]-a[1]).slice(0, 60)) console.log((v/N).toFixed(1).padStart(7), k.slice(0,150));
  await browser.close(); server.close();
})();
