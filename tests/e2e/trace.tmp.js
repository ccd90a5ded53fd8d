const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist(process.argv[2] ? { roots: { '/': process.argv[2] } } : {});
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(500);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute','blink.user_timing'] });
  for (const v of ['16384', '32768', '65536', '8192','16384', '32768', '65536', '8192']) {
    await page.evaluate(async (value) => {
      const input = document.querySelector('[data-testid=ctx]');
      const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
      performance.mark('start');
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      performance.mark('end');
    }, v);
    await page.waitForTimeout(100);
  }
  const buf = await browser.stopTracing();
  const ev = JSON.parse(buf.toString()).traceEvents;
  const main = ev.filter(e => e.name === 'FunctionCall' || e.name==='TimerFire'|| e.name==='EventDispatch' || e.name==='RunMicrotasks' || e.name==='FireAnimationFrame');
  const agg = {};
  for (const e of ev) if (e.ph === "X" && e.tdur) { agg[e.name] = (agg[e.name]||0) + e.tdur/1000; }
  const top = Object.entries(agg).sort((a,b)=>b[1]-a[1]).slice(0,30);
  for (const [k,v] of top) console.log((v/8).toFixed(2).padStart(8), k);
  await browser.close(); server.close();
})();
