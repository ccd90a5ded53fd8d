const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({ roots: { '/': process.argv[2] || '/tmp/dn' } });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  page.on('console', m => console.log('console', m.text()));
  page.on('pageerror', e => console.log('err', e.message));
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]', {timeout: 10000});
  await page.waitForTimeout(500);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  for (let i = 0; i < 10; i++) for (const v of ['16384', '32768', '65536', '8192']) {
    await page.evaluate(async (value) => {
      const input = document.querySelector('[data-testid=ctx]');
      const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }, v);
  }
  const { profile } = await cdp.send('Profiler.stop');
  // self time per function, and inclusive time for selected
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const parent = new Map(); for (const n of profile.nodes) for (const c of (n.children||[])) parent.set(c, n.id);
  const self = {}, incl = {};
  const dt = profile.timeDeltas; let total = 0;
  profile.samples.forEach((id, i) => {
    const d = (dt[i] || 0) / 1000; total += d;
    const n = byId.get(id); const name = n.callFrame.functionName || '(anon)';
    self[name] = (self[name]||0) + d;
    const seen = new Set(); let cur = id;
    while (cur !== undefined) { const nm = byId.get(cur).callFrame.functionName || '(anon)'; if (!seen.has(nm)) { incl[nm] = (incl[nm]||0) + d; seen.add(nm); } cur = parent.get(cur); }
  });
  const per = 40;
  const near = {};
  profile.samples.forEach((id, i) => {
    const d = (dt[i] || 0) / 1000; let cur = id; let hasAttr=false; let hasRebuild=false; const chain=[];
    while (cur !== undefined) { const nm = byId.get(cur).callFrame.functionName || ''; if (nm.includes('AnyAttribute')) hasAttr = true; if (nm.includes('rebuild')) hasRebuild=true; if (nm.includes('vramfit_web')) chain.push(nm.replace(/\[[0-9a-f]+\]/g,'').slice(0,110)); cur = parent.get(cur); }
    if (hasRebuild) { const k = chain.slice(0,2).join(' <- '); near[k] = (near[k]||0)+d; }
  });
  console.log('--- rebuild samples by nearest vramfit_web frames');
  for (const [k, v] of Object.entries(near).sort((a,b)=>b[1]-a[1]).slice(0, 25)) console.log((v/per).toFixed(2).padStart(7), k);

  console.log('--- self ms/input');
  for (const [k, v] of Object.entries(self).sort((a,b)=>b[1]-a[1]).slice(0, 25)) console.log((v/per).toFixed(2).padStart(7), k.slice(0,120));
  console.log('--- inclusive ms/input');
  for (const [k, v] of Object.entries(incl).sort((a,b)=>b[1]-a[1]).slice(0, 60)) console.log((v/per).toFixed(2).padStart(7), k.slice(0,140));
  await browser.close(); server.close();
})();
