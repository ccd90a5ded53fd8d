const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(500);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking'] });
  await page.evaluate(async () => {
      const input = document.querySelector('[data-testid=ctx]');
      const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
      input.value = '16384';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  });
  await page.waitForTimeout(100);
  const buf = await browser.stopTracing();
  const ev = JSON.parse(buf.toString()).traceEvents;
  for (const e of ev) if (['Paint','Layout','UpdateLayoutTree','PaintImage','RasterTask'].includes(e.name) && e.ph==='X') console.log(e.name, (e.dur/1000).toFixed(2), (e.tdur/1000).toFixed(2), JSON.stringify(e.args.data || e.args.beginData || {}).slice(0, 200));
  const inv = {}; for (const e of ev) if (e.name.includes('Invalidat')) { const k = e.name + ' ' + ((e.args.data||{}).reason || ''); inv[k] = (inv[k]||0)+1; }
  console.log(inv);
  await browser.close(); server.close();
})();
