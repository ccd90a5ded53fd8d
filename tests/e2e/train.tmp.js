const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url + '?lang=en');
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(300);
  const sc = (extra) => ({ model: { catalog: 'llama-3.1-8b-instruct' }, weights: 'bf16', workload: { train: Object.assign({ micro_batch: 2, sequence_length: 2048 }, extra) }, hardware: { gpu: 'rtx-4090' } });
  const r = await page.evaluate((scs) => scs.map((s) => { const t0 = performance.now(); const e = window.vramfit.estimate(s); const t1 = performance.now(); const e2 = window.vramfit.estimate(Object.assign({}, s, { workload: { train: Object.assign({}, s.workload.train, { sequence_length: 3000 }) } })); const t2 = performance.now(); const e3 = window.vramfit.estimate(s); return [Math.round(t1 - t0), Math.round(t2 - t1), Math.round(performance.now() - t2), e.plan && e.plan.verdict]; }),
    [sc({ method: 'full' }), sc({ method: 'lora', lora_rank: 8 }), sc({ method: 'qlora', lora_rank: 8 })]);
  console.log('first / typed / repeat ms', JSON.stringify(r));
  // The UI: switch to training, time until the verdict changes.
  const t0 = Date.now();
  const before = await page.getByTestId('verdict').textContent();
  await page.locator('input[type=radio]').nth(1).check();
  await page.waitForFunction((b) => document.querySelector('[data-testid=verdict]').textContent !== b, before);
  console.log('switch to training, ms', Date.now() - t0, page.url());
  await page.screenshot({ path: '/tmp/shots/train.png' });
  await browser.close(); server.close();
})();
