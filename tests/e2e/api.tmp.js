const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(300);
  const r = await page.evaluate(() => {
    const u = new URL(location.href);
    const res = {};
    for (const ctx of [16384, 32768, 65536, 8192]) {
      const sc = {model: {catalog: "llama-3.1-8b-instruct"}, weights: "bf16", engine: {vllm: {}}, workload: {inference: {context_tokens: ctx, sequences: 1}}, hardware: {gpu: "rtx-4090"}};
      let t0 = performance.now(); let e;
      for (let i = 0; i < 10; i++) e = window.vramfit.estimate(sc);
      res[ctx] = ((performance.now() - t0)/10).toFixed(2);
    }
    return [location.href, res];
  });
  console.log(r);
  await browser.close(); server.close();
})();
