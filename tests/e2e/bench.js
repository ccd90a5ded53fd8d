// Time to interactive and input→update latency of the built app in headless Chromium.
// Used by scripts/bench; serves dist/ itself on a free port.
const { serveDist, launchChromium } = require('./dist-server');

(async () => {
  const server = await serveDist();
  const url = server.url;
  const browser = await launchChromium();
  const tti = [];
  const update = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('[data-testid=verdict]');
    tti.push(await page.evaluate(() => performance.now()));
    for (const v of ['16384', '32768', '65536', '8192']) {
      const ms = await page.evaluate(async (value) => {
        const input = document.querySelector('[data-testid=ctx]');
        const cell = document.querySelector('[data-testid=per-gpu-gib]');
        const before = cell.textContent;
        const t0 = performance.now();
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) {
          await new Promise((r) => setTimeout(r, 0));
        }
        return performance.now() - t0;
      }, v);
      update.push(ms);
    }
    await page.close();
  }
  const med = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
  console.log(`time to interactive (verdict shown), median of ${tti.length}: ${med(tti).toFixed(0)} ms`);
  console.log(`input → updated result, median of ${update.length}: ${med(update).toFixed(1)} ms`);
  await browser.close();
  server.close();
})().catch((e) => { console.error(e); process.exit(1); });
