const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(500);
  for (let round = 0; round < 3; round++)
  for (const v of ['16384', '32768', '65536', '8192']) {
    const r = await page.evaluate(async (value) => {
      const input = document.querySelector('[data-testid=ctx]');
      const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const tSync = performance.now() - t0;
      const changedSync = document.querySelector('[data-testid=per-gpu-gib]').textContent !== before;
      let polls = 0;
      while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) {
        polls++; await new Promise((r) => setTimeout(r, 0));
      }
      const tText = performance.now() - t0;
      const tRaf = await new Promise((r) => requestAnimationFrame(() => r(performance.now() - t0)));
      await new Promise((r) => setTimeout(r, 0));
      return { tSync, changedSync, polls, tText, tRaf, total: performance.now() - t0, n: document.querySelectorAll('*').length };
    }, v);
    console.log(JSON.stringify(r));
  }
  await browser.close(); server.close();
})();
