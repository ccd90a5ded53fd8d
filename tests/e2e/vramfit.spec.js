// End-to-end: the built app in real headless Chromium.
const { test, expect } = require('@playwright/test');

const perGpu = (page) => page.getByTestId('per-gpu-gib').textContent();
const totalGb = async (page) => parseFloat(await page.getByTestId('total-gb').textContent());

require('./page-errors')(test, expect);

test('default scenario shows a verdict, the components and a recommendation', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('verdict')).toContainText('Fits on 1 ×');
  await expect(page.getByTestId('model-summary')).toContainText('Llama 3.1 8B');
  await expect(page.getByTestId('row-weights')).toContainText('14.96');
  await expect(page.getByTestId('recommendation')).toBeVisible();
  await expect(page.getByTestId('rules')).toContainText('GB');
});

test('picking a model, context and sequences changes the numbers and the recommendation', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('verdict')).toBeVisible();
  const before = await perGpu(page);
  const bestBefore = await page.getByTestId('best').textContent();

  const totalBefore = await totalGb(page);
  await page.getByTestId('model').selectOption('qwen2.5-72b-instruct');
  await expect(page.getByTestId('model-summary')).toContainText('Qwen2.5 72B');
  // The whole deployment grows; per GPU it may not, when the plan spreads it over more cards.
  await expect.poll(() => totalGb(page)).toBeGreaterThan(totalBefore);
  expect(await perGpu(page)).not.toBe(before);
  await expect(page.getByTestId('best')).not.toHaveText(bestBefore);

  const totalModel = await totalGb(page);
  await page.getByTestId('ctx').fill('32768');
  await expect.poll(() => totalGb(page)).toBeGreaterThan(totalModel);
  const totalCtx = await totalGb(page);
  const bestCtx = await page.getByTestId('best').textContent();

  await page.getByTestId('seqs').fill('16');
  await expect.poll(() => totalGb(page)).toBeGreaterThan(totalCtx);
  // 72B at 32k × 16 sequences no longer fits the card that held 32k × 4: the plan changes.
  await expect(page.getByTestId('best')).not.toHaveText(bestCtx);
});

test('the search box filters the catalog', async ({ page }) => {
  await page.goto('./');
  await page.locator('#model-filter').fill('gemma 27');
  const options = await page.getByTestId('model').locator('option').allTextContents();
  expect(options.some((o) => o.includes('Gemma 2 27B'))).toBeTruthy();
  expect(options.some((o) => o.includes('Qwen'))).toBeFalsy();
});

test('a Hub name pasted into the search picks its model and the format it names', async ({ page }) => {
  await page.goto('./?lang=en&gpu=rtx-4090');
  await expect(page.getByTestId('verdict')).toBeVisible();
  const shown = (id) => page.locator(id).evaluate((s) => s.options[s.selectedIndex].textContent);
  await page.locator('#model-filter').fill('Qwen/Qwen2.5-7B-Instruct-AWQ');
  await expect.poll(() => shown('#model')).toContain('Qwen2.5 7B Instruct');
  expect(await shown('#weights')).toContain('AWQ');
  await expect.poll(() => page.url()).toContain('weights=awq-int4-g128');
  await page.locator('#model-filter').fill('meta-llama/Llama-3.1-8B');
  await expect.poll(() => shown("#model")).toBe("Llama 3.1 8B");
  expect(await shown('#weights')).toContain('AWQ');
});

test('a unified-memory machine is picked from the card list like any card', async ({ page }) => {
  await page.goto('./?model=qwen3-8b&lang=en');
  await page.getByTestId('gpu').selectOption('apple-m4-max-128gb');
  await expect(page.getByTestId('verdict')).toContainText('M4 Max');
  await expect.poll(() => page.url()).toContain('gpu=apple-m4-max-128gb');
});

test('a shared URL reproduces the same view', async ({ page, context }) => {
  await page.goto('./');
  await page.getByTestId('model').selectOption('mistral-7b-instruct-v0.3');
  await page.getByTestId('weights').selectOption('int8');
  await page.getByTestId('ctx').fill('16000');
  await page.getByTestId('gpu').selectOption('rtx-4090');
  await expect(page.getByTestId('verdict')).toContainText('RTX 4090');
  // The address bar follows the view after its paint.
  await expect.poll(() => page.url()).toMatch(/model=mistral-7b-instruct-v0\.3&weights=int8&ctx=16000.*gpu=rtx-4090/);
  const url = page.url();
  const verdict = await page.getByTestId('verdict').textContent();
  const table = await page.getByTestId('components').textContent();

  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByTestId('verdict')).toHaveText(verdict);
  await expect(other.getByTestId('components')).toHaveText(table);
  await expect(other.getByTestId('ctx')).toHaveValue('16000');
  await expect(other.getByTestId('weights')).toHaveValue('int8');
});

test('pasting a config.json estimates that model', async ({ page }) => {
  await page.goto('./');
  await page.getByText('or paste a config.json').click();
  const config = {
    architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_size: 3584,
    intermediate_size: 18944, num_hidden_layers: 28, num_attention_heads: 28,
    num_key_value_heads: 4, vocab_size: 152064, max_position_embeddings: 32768,
    tie_word_embeddings: false, torch_dtype: 'bfloat16',
  };
  await page.getByTestId('config').fill(JSON.stringify(config, null, 2));
  await expect(page.getByTestId('config-summary')).toContainText('7.62 B');
  await expect(page.getByTestId('model-summary')).toContainText('Pasted config.json');
  await expect.poll(() => page.url()).toContain('config=');
});

test('bad input shows a message at the field and keeps the last result and the text', async ({ page }) => {
  await page.goto('./');
  const before = await perGpu(page);
  await page.getByTestId('ctx').fill('abc');
  await expect(page.getByTestId('err-ctx')).toContainText('whole number');
  await expect(page.getByTestId('ctx')).toHaveValue('abc');
  await expect(page.getByTestId('stale')).toBeVisible();
  expect(await perGpu(page)).toBe(before);

  await page.getByTestId('ctx').fill('-5');
  await expect(page.getByTestId('err-ctx')).toContainText('at least 1');
  await page.getByTestId('ctx').fill('');
  await expect(page.getByTestId('err-ctx')).toContainText('Enter a value');
  await page.getByTestId('ctx').fill('99999999999');
  await expect(page.getByTestId('err-ctx')).toContainText('at most');
  await page.getByTestId('headroom').fill('2');
  await expect(page.getByTestId('err-headroom')).toContainText('at least 5');

  await page.getByText('or paste a config.json').click();
  await page.getByTestId('config').fill('{"model_type": "llama", "num_hidden_layers": 2');
  await expect(page.getByTestId('err-config')).toContainText('not valid JSON');
  await page.getByTestId('config').fill('{"model_type": "llama", "num_hidden_layers": 2}');
  await expect(page.getByTestId('err-config')).toContainText('hidden_size');
  expect(await perGpu(page)).toBe(before);
});

test('a hand-edited URL falls back field by field with a visible note', async ({ page }) => {
  await page.goto('./?model=qwen3-8b&ctx=-5&seqs=lots&gpu=no-such-card&headroom=1&weights=int4');
  await expect(page.getByTestId('url-notes')).toContainText('ctx=-5');
  await expect(page.getByTestId('url-notes')).toContainText('gpu=no-such-card');
  await expect(page.getByTestId('model-summary')).toContainText('Qwen3 8B');
  await expect(page.getByTestId('weights')).toHaveValue('int4');
  await expect(page.getByTestId('verdict')).toBeVisible();
});

test('a long hand-edited value in a note wraps inside the page on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`./?model=qwen3-8b&gpu=${'x'.repeat(300)}&weights_bytes=${'9'.repeat(40)}`);
  const notes = page.getByTestId('url-notes');
  await expect(notes).toContainText('weights_bytes=');
  const [scroll, client] = await notes.evaluate((e) => [e.scrollWidth, e.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('the page makes no request to another origin and works from a sub-path', async ({ page }) => {
  const foreign = [];
  page.on('request', (r) => { if (!r.url().startsWith(`http://127.0.0.1:${Number(process.env.E2E_PORT) || 4173}/`)) foreign.push(r.url()); });
  await page.goto('./');
  await expect(page.getByTestId('verdict')).toBeVisible();
  expect(foreign).toEqual([]);
});

test('every budget component has its own colour in the bar and legend', async ({ page }) => {
  // A hybrid model on vLLM shows the most serving components (recurrent state included).
  await page.goto('./?lang=en&model=granite-4.0-h-small&weights=bf16&ctx=131072&seqs=8&gpu=h100-sxm-80gb&engine={"vllm":{}}');
  await expect(page.getByTestId('row-recurrentstate')).toBeVisible();
  const dots = await page.locator('.dot[class*="seg-"]').evaluateAll((els) => els.map((e) => [e.className, getComputedStyle(e).backgroundColor]));
  expect(dots.length).toBeGreaterThan(5);
  for (const [cls, bg] of dots) expect(bg, cls).not.toBe('rgba(0, 0, 0, 0)');
});
