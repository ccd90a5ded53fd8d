const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const runs = [
    { name: 'de-desktop', q: '?lang=de&model=llama-3.1-8b-instruct&gpu=rtx-4090', vp: { width: 1366, height: 900 }, cs: 'light', ctx: '32768' },
    { name: 'pl-phone-dark', q: '?lang=pl', vp: { width: 390, height: 844 }, cs: 'dark', ctx: '16384', full: true },
    { name: 'en-desktop-dark-paste', q: '?lang=en', vp: { width: 1366, height: 900 }, cs: 'dark', ctx: '16384', paste: true, scroll: true },
  ];
  for (const r of runs) {
    const page = await browser.newPage({ viewport: r.vp, colorScheme: r.cs });
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    await page.goto(server.url + r.q);
    await page.waitForSelector('[data-testid=verdict]');
    await page.waitForTimeout(500);
    if (r.paste) await page.getByTestId('pasted').fill('model weights take 14.99GiB; non_torch_memory takes 0.07GiB; PyTorch activation peak memory takes 1.26GiB; the rest of the memory reserved for KV Cache is 4.2GiB.');
    const before = await page.getByTestId('per-gpu-gib').textContent();
    await page.getByTestId('ctx').fill(r.ctx);
    await page.waitForFunction((b) => document.querySelector('[data-testid=per-gpu-gib]').textContent !== b, before);
    await page.waitForTimeout(600);
    if (r.full) { const h = await page.evaluate(() => document.documentElement.scrollHeight); for (let y = 0, i = 0; y < h; y += 1400, i++) await page.screenshot({ path: `/tmp/shots/${r.name}-${i}.png`, fullPage: true, clip: { x: 0, y, width: r.vp.width, height: Math.min(1400, h - y) } }); } else await page.screenshot({ path: `/tmp/shots/${r.name}.png` });
    if (r.scroll) { await page.getByTestId('measure').scrollIntoViewIfNeeded(); await page.waitForTimeout(300); await page.screenshot({ path: `/tmp/shots/${r.name}-measure.png` }); }
    console.log(r.name, page.url());
    await page.close();
  }
  await browser.close(); server.close();
})();
