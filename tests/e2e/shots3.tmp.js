const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const b = await launchChromium();
  const shots = [
    ['train-phone-es-dark', 390, 844, 'dark', '?lang=es&gpu=rtx-4090', 'train'],
    ['custom-desk-es', 1366, 900, 'light', '?lang=es&gpu=rtx-4090', 'custom'],
    ['llama-desk-pl-dark', 1366, 900, 'dark', '?lang=pl&model=qwen3-8b&weights=gguf-q4_k_m&ctx=32768&seqs=2&gpu=rtx-4060&engine={"llama_cpp":{}}', null],
    ['embed-phone-es', 390, 700, 'light', '?lang=es&embed=1&model=llama-3.1-8b-instruct&gpu=rtx-4090', null],
  ];
  for (const [name, w, h, scheme, q, wl] of shots) {
    const p = await b.newPage({ viewport: { width: w, height: h }, colorScheme: scheme });
    p.on('pageerror', (e) => console.log(name, 'ERR', e.message));
    await p.goto(server.url + q);
    await p.waitForSelector('[data-testid=verdict]').catch(() => {});
    if (wl) await p.getByTestId('workload-' + wl).check();
    await p.waitForTimeout(700);
    const H = await p.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0, i = 0; y < Math.min(H, h * 4); y += h, i++) {
      await p.evaluate((y) => window.scrollTo(0, y), y);
      await p.screenshot({ path: `/tmp/s3-${name}-${i}.png` });
    }
    console.log(name, H, p.url().slice(0, 250));
  }
  await b.close(); server.close();
})();
