const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const b = await launchChromium();
  const shots = [
    ['qwen35-phone-de', 390, 844, 'dark', '?lang=de&model=qwen3.5-35b-a3b&weights=bf16&ctx=32768&seqs=8&gpu=h100-sxm-80gb&n=1&engine={"vllm":{}}'],
    ['nemo3-desk-fr', 1366, 900, 'light', '?lang=fr&model=nemotron-3-nano-30b-a3b&weights=bf16&ctx=65536&seqs=4&gpu=l40s&n=2&engine={"sglang":{"tp_size":2}}'],
    ['glm-search-desk-en', 1366, 900, 'dark', '?lang=en&gpu=h100-sxm-80gb&n=4', 'search'],
  ];
  for (const [name, w, h, scheme, q, act] of shots) {
    const p = await b.newPage({ viewport: { width: w, height: h }, colorScheme: scheme });
    p.on('pageerror', (e) => console.log(name, 'ERR', e.message));
    await p.goto(server.url + q);
    await p.waitForSelector('[data-testid=verdict]');
    if (act === 'search') { await p.locator('#model-filter').fill('zai-org/GLM-4.5-Air-FP8'); await p.waitForTimeout(500); }
    await p.screenshot({ path: `/tmp/s4-${name}-0.png` });
    const er = p.getByTestId('engine-report'); if (await er.count()) { await er.scrollIntoViewIfNeeded(); await p.screenshot({ path: `/tmp/s4-${name}-1.png` }); }
    console.log(name, (await p.getByTestId('verdict').textContent()).slice(0, 200), '|', p.url().length);
  }
  await b.close(); server.close();
})();
