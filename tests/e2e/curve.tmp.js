const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  const r = await page.evaluate(() => {
    const sc = (ctx) => ({model: {catalog: "llama-3.1-8b-instruct"}, weights: "bf16", workload: {inference: {context_tokens: ctx, sequences: 4}}, hardware: {gpu: "rtx-4090"}, headroom_percent: 10});
    const a = window.vramfit.estimate(sc(8192)), b = window.vramfit.estimate(sc(16384));
    return [JSON.stringify(a.context_curve) === JSON.stringify(b.context_curve), a.context_curve.slice(0,2), b.context_curve.slice(0,2), a.limits, b.limits];
  });
  console.log(JSON.stringify(r));
  await browser.close(); server.close();
})();
