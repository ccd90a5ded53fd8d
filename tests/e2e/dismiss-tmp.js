const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist();
  const browser = await launchChromium();
  for (const mode of ['hold', 'slow']) {
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const page = await ctx.newPage();
    const errs = [];
    page.on('pageerror', (e) => errs.push(String(e).slice(0, 200)));
    page.on('console', (m) => { if (m.type() === 'error') errs.push('console: ' + m.text().slice(0, 200)); });
    if (mode === 'hold') await ctx.route(/_rest\.wasm/, () => {});
    else { const cdp = await ctx.newCDPSession(page); await cdp.send('Network.enable'); await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 }); }
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=verdict]');
    await page.waitForTimeout(100);
    await page.goto('about:blank');
    await page.waitForTimeout(300);
    console.log(mode, JSON.stringify(errs));
    await ctx.close();
  }
  await browser.close(); server.close();
})();
