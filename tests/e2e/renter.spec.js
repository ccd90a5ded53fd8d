// The renter's decision in the page: speed and price under the verdict and in
// a one-line verdict that stays in view, the plans that fit as the core ranked them, the user's
// own price and ranking kept in the link, vLLM at its own default reading "fits", and the
// measurement the workload on screen needs.
const { test, expect } = require('@playwright/test');

require('./page-errors')(test, expect);

test('the default page says how fast and at what price, and the summary agrees with the table', async ({ page }) => {
  await page.goto('./?lang=en');
  await expect(page.getByTestId('verdict')).toContainText('Fits on 1 ×');
  const speed = page.getByTestId('speed');
  await expect(speed).toContainText('tok/s per request');
  await expect(page.getByTestId('cost')).toContainText('/h');
  await expect(page.getByTestId('verdict-bar')).toContainText('tok/s');
  // The first ranked offer is the plan shown: same $/h in the table and under the verdict.
  const first = page.getByTestId('offer-0');
  await expect(first).toBeVisible();
  const hour = (await first.locator('td').nth(5).textContent()).trim();
  await expect(page.getByTestId('cost')).toContainText(`$${hour}/h`);
  const perRequest = (await first.locator('td').nth(2).textContent()).trim();
  await expect(speed).toContainText(`≈ ${perRequest} tok/s per request`);
  // Offers never name a card the software cannot run on.
  await expect(page.getByTestId('offers')).not.toContainText('P40');
});

test('vLLM at its own default on a card that holds the model reads "fits" and names the requests its cache holds', async ({ page }) => {
  const engine = encodeURIComponent(JSON.stringify({ vllm: {} }));
  await page.goto(`./?lang=en&model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=h100-sxm-80gb&engine=${engine}`);
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('Fits on 1 ×');
  await expect(verdict).toContainText('requests of 8,192 tokens');
  await expect(verdict).not.toContainText('Tight');
  await expect(page.getByTestId('verdict-bar')).toContainText('✔');
});

test('a price typed for the card shown sets the cost exactly and travels in the link', async ({ page }) => {
  await page.goto('./?lang=en&gpu=l40s&n=2');
  await expect(page.getByTestId('verdict')).toContainText('L40S');
  await page.getByTestId('price').fill('1.25');
  await expect(page.getByTestId('cost')).toContainText('$2.50/h');
  await expect(page.getByTestId('cost')).toContainText('your price');
  await expect.poll(() => decodeURIComponent(page.url())).toContain('prices={"l40s":1.25}');
  await page.getByTestId('price').fill('abc');
  await expect(page.getByTestId('err-price')).not.toBeEmpty();
  await expect(page.getByTestId('price')).toHaveValue('abc');
});

test('ranking by speed reorders the offers and is kept in the link', async ({ page }) => {
  await page.goto('./?lang=en&model=llama-3.3-70b-instruct&ctx=32768&seqs=8');
  await expect(page.getByTestId('offers')).toContainText('price per hour');
  await page.getByTestId('rank').selectOption('speed');
  await expect(page.getByTestId('offers')).toContainText('ranked by speed');
  await expect.poll(() => page.url()).toContain('rank=speed');
  const speeds = await page.locator('[data-testid=offers-ranked] tr td:nth-child(4)').allTextContents();
  const n = speeds.map((s) => parseFloat(s.replace(/,/g, '')));
  for (let i = 1; i < n.length; i++) expect(n[i]).toBeLessThanOrEqual(n[i - 1]);
});

test('a training run gets a training step to measure, not a generate() script', async ({ page }) => {
  const train = encodeURIComponent(JSON.stringify({ method: 'qlora', micro_batch: 1, sequence_length: 2048, checkpointing: 'full' }));
  await page.goto(`./?lang=en&gpu=rtx-4090&train=${train}`);
  await expect(page.getByTestId('verdict')).toBeVisible();
  const script = page.getByTestId('script');
  await expect(script).toContainText('optimizer.step()');
  await expect(script).toContainText('get_peft_model');
  await expect(script).not.toContainText('generate(');
  await expect(page.getByTestId('tab-1')).toHaveCount(0);
});

test('with vLLM chosen, measuring opens on the vllm serve tab', async ({ page }) => {
  const engine = encodeURIComponent(JSON.stringify({ vllm: {} }));
  await page.goto(`./?lang=en&gpu=l40s&engine=${engine}`);
  await expect(page.getByTestId('script')).toContainText('vllm serve');
  await expect(page.getByTestId('tab-1')).toHaveAttribute('aria-selected', 'true');
});

test('in German the speed, the price and the offers are German, with German numbers', async ({ page }) => {
  await page.goto('./?lang=de');
  await expect(page.getByTestId('verdict')).toContainText('Passt auf 1 ×');
  await expect(page.getByTestId('speed')).toContainText('tok/s');
  await expect(page.getByTestId('cost')).toContainText(' $/h');
  await expect(page.getByTestId('cost')).toContainText(/\d,\d\d \$\/h/);
});

test('only the one-line verdict is read out, and a skip link leads to the answer', async ({ page }) => {
  await page.goto('./?lang=en');
  await expect(page.getByTestId('verdict-bar')).toHaveAttribute('aria-live', 'polite');
  await expect(page.locator('section.answer')).not.toHaveAttribute('aria-live', /.*/);
  await page.keyboard.press('Tab');
  await expect(page.locator('a.skip')).toBeFocused();
});

test('on a phone the one-line verdict stays in view while the card fields change', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto('./?lang=en');
  await page.getByTestId('headroom').scrollIntoViewIfNeeded();
  await page.getByTestId('headroom').fill('20');
  const bar = await page.getByTestId('verdict-bar').boundingBox();
  expect(bar.y).toBeGreaterThanOrEqual(-1);
  expect(bar.y).toBeLessThan(60);
  await page.close();
});

test("one KV cache control: a link's vLLM fp8 flag shows in the KV select and the model line", async ({ page }) => {
  const engine = encodeURIComponent(JSON.stringify({ vllm: { kv_cache_dtype: 'fp8' } }));
  await page.goto(`./?lang=en&gpu=l40s&engine=${engine}`);
  await expect(page.getByTestId('model-summary')).toContainText('(fp8)');
  await expect(page.locator('#kv')).toHaveValue('fp8');
  await expect(page.locator('#kv_cache_dtype')).toHaveCount(0);
  await expect(page.getByTestId('script')).toContainText('--kv-cache-dtype fp8');
});

test('vLLM --kv-cache-memory sets the pool, the command carries it, a bad size is named and kept', async ({ page }) => {
  const engine = encodeURIComponent(JSON.stringify({ vllm: {} }));
  await page.goto(`./?lang=en&gpu=rtx-4090&ctx=8192&seqs=4&engine=${engine}`);
  await page.getByTestId('kv_cache_memory').fill('4');
  await expect(page.getByTestId('kv-gib')).toContainText('4.00');
  await expect(page.getByTestId('script')).toContainText('--kv-cache-memory 4294967296');
  await expect.poll(() => decodeURIComponent(page.url())).toContain('"kv_cache_memory_bytes":4294967296');
  await page.getByTestId('kv_cache_memory').fill('-3');
  await expect(page.getByTestId('err-kv_cache_memory')).not.toBeEmpty();
  await expect(page.getByTestId('kv_cache_memory')).toHaveValue('-3');
});

test('a card its software does not run on reads "will not run" with the reason, not "fits", and its fixes make it run', async ({ page }) => {
  // FP8 weights on a Turing T4 under vLLM: the memory fits (13.45 of 14.56 GiB), the kernels do
  // not exist; the offers' own list leaves the T4 out for the same reason.
  await page.goto('./?model=llama-3.1-8b-instruct&weights=fp8&ctx=4096&seqs=1&gpu=t4&engine=%7B%22vllm%22%3A%7B%7D%7D&lang=en');
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('Will not run on 1 × NVIDIA Tesla T4 16GB: fp8 weights need');
  await expect(verdict).not.toContainText('Fits');
  await expect(page.getByTestId('verdict-bar')).toContainText('✖ will not run');
  // No speed for what does not run; the price of the card stays.
  await expect(page.getByTestId('speed')).toHaveCount(0);
  await expect(page.getByText('Largest context per sequence that fits')).toHaveCount(0);
  const fixes = page.getByTestId('fixes');
  await expect(fixes).toContainText('What would make it run');
  for (const text of await page.getByTestId('fix').allInnerTexts()) expect(text).not.toMatch(/^Weights: fp8/);
  // The fix to a format the card runs leads to a page that says it fits.
  await page.getByTestId('fix').filter({ hasText: 'Weights:' }).first().click();
  await expect(verdict).toContainText('Fits on 1 × NVIDIA Tesla T4 16GB');
});

test('an image pipeline is no server: its offers have one speed column and no price per token, and its notes time steps', async ({ page }) => {
  await page.goto('./?image=%7B%22pipeline%22%3A%22sdxl%22%2C%22width%22%3A1024%2C%22height%22%3A1024%2C%22batch%22%3A2%7D&gpu=rtx-3060&lang=en');
  const offers = page.getByTestId('offers');
  await expect(offers).toBeVisible();
  const heads = await offers.locator('thead th').allInnerTexts();
  expect(heads.join(' | ')).not.toMatch(/tok\/s|first token|per M/i);
  const how = page.getByTestId('speed-how');
  await how.locator('summary').click();
  await expect(how).toContainText('time a few steps of your own training loop or pipeline');
  await expect(how).not.toContainText('llama-bench');
});

test("the checklist's headroom line says what it is for an engine that fills its own pool, and the card's line otherwise", async ({ page }) => {
  const engine = encodeURIComponent(JSON.stringify({ vllm: {} }));
  await page.goto(`./?lang=en&model=llama-3.1-8b-instruct&ctx=8192&seqs=16&gpu=h100-sxm-80gb&engine=${engine}`);
  const checklist = page.getByTestId('checklist');
  await expect(checklist).toContainText('The engine fills the fraction it claims (gpu_memory_utilization) with KV cache by design');
  await expect(checklist).not.toContainText('Keep 10 % free: stay below');
  await page.goto('./?lang=en&model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=rtx-4090');
  // 10 % of the 4090's 23.55 GiB kept free.
  await expect(page.getByTestId('checklist')).toContainText('Keep 10 % free: stay below 21.19 GiB per card.');
});
