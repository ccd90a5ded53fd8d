const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist();
  const browser = await launchChromium();
  for (const q of ['', '?lang=de', '?model=qwen3-8b&weights=bf16&ctx=32768&seqs=4&gpu=rtx-4090&lang=en']) {
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const page = await ctx.newPage();
    await page.route('**/*_rest.wasm', async (route) => { if (route.request().resourceType() === 'fetch') await new Promise(() => {}); await route.continue(); });
    await page.goto(server.url + q);
    await page.waitForSelector('[data-testid=verdict]');
    for (const wait of [0, 400]) {
      await page.waitForTimeout(wait);
      await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })));
      const how = await page.evaluate(() => (performance.getEntriesByName('vramfit:rest', 'mark')[0] || {}).detail || null);
      console.log(JSON.stringify(q), 'pagehide after', wait, 'ms → rest:', how, 'url:', await page.evaluate(() => location.search));
    }
    await ctx.close();
  }
  await browser.close(); server.close();
})();
