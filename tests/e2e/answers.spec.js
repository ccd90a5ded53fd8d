// Answers that never contradict themselves: the model picker shows what is computed,
// a vLLM verdict names its real reason, fixes load a scenario that fits, token counts take "32k".
const { test, expect } = require('@playwright/test');

require('./page-errors')(test, expect);

const shownModel = (page) => page.getByTestId('model').evaluate((s) => s.options[s.selectedIndex].textContent);

test('the picker shows the model that is computed, by mouse and by keyboard', async ({ page }) => {
  await page.goto('./');
  await page.locator('#model-filter').fill('gemma 2');
  await page.getByTestId('model').selectOption('gemma-2-2b-it');
  await expect(page.getByTestId('model-summary')).toContainText('Gemma 2 2B');
  expect(await shownModel(page)).toContain('Gemma 2 2B');

  await page.locator('#model-filter').fill('70b');
  await page.getByTestId('model').selectOption('llama-3.1-70b-instruct');
  await expect(page.getByTestId('model-summary')).toContainText('Llama 3.1 70B');
  expect(await shownModel(page)).toContain('Llama 3.1 70B');

  // Keyboard: every option is reachable and the one shown is the one computed.
  await page.getByTestId('model').focus();
  await page.keyboard.press('ArrowDown');
  const after = await shownModel(page);
  const summary = await page.getByTestId('model-summary').textContent();
  expect(summary).toContain(after.replace(/ \(.*$/, ''));
});

test('a pasted config.json is shown as such in the picker', async ({ page }) => {
  await page.goto('./');
  await page.locator('details summary').first().click();
  await page.getByTestId('config').fill(JSON.stringify({
    model_type: 'llama', hidden_size: 2048, intermediate_size: 8192, num_hidden_layers: 16,
    num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256,
  }));
  await expect(page.getByTestId('config-summary')).toBeVisible();
  expect(await shownModel(page)).not.toContain('Llama 3.1 8B');
});

test('vLLM that will not start says why, and a fix loads a scenario that fits', async ({ page }) => {
  await page.goto('./?model=llama-3.1-70b-instruct&weights=bf16&ctx=32768&seqs=8&gpu=h100-sxm-80gb&n=2&engine={"vllm":{}}');
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('max_model_len');
  await expect(verdict).toContainText('Does not fit');
  await expect(verdict).not.toContainText('needs');
  await expect(page.getByTestId('warnings')).not.toContainText('larger than the card');
  const fixes = page.getByTestId('fix');
  await expect(fixes.first()).toBeVisible();
  // The first fix is one that fits; following it gives a page whose verdict agrees.
  await expect(page.getByTestId('fixes')).toContainText('✔');
  await fixes.first().click();
  await expect(page.getByTestId('verdict')).toContainText('Fits');
});

test('vLLM at its own default fits; claiming the whole card does not, and the fix is the largest fraction that does', async ({ page }) => {
  await page.goto('./?model=llama-3.1-70b-instruct&weights=awq-int4-g128&ctx=32768&seqs=8&gpu=h100-sxm-80gb&n=2&engine={"vllm":{}}');
  await expect(page.getByTestId('verdict')).toContainText('Fits');
  await expect(page.getByTestId('verdict')).toContainText('requests of 32,768 tokens');
  await page.goto('./?model=llama-3.1-70b-instruct&weights=awq-int4-g128&ctx=32768&seqs=8&gpu=h100-sxm-80gb&n=2&engine={"vllm":{"gpu_memory_utilization":1.0}}');
  await expect(page.getByTestId('verdict')).not.toContainText('Fits');
  await expect(page.getByTestId('fixes')).toContainText('gpu_memory_utilization = 0.9');
});

test('token counts accept 32k', async ({ page }) => {
  await page.goto('./');
  await page.getByTestId('ctx').fill('32k');
  await expect.poll(() => page.url()).toContain('ctx=32768');
});

test('on a phone the verdict is on the first screen', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto('./');
  const box = await page.getByTestId('verdict').boundingBox();
  expect(box.y + box.height).toBeLessThan(844);
  await page.close();
});

test('generation speaks its own words', async ({ page }) => {
  await page.goto('./?image={"pipeline":"flux1-dev","width":1024,"height":1024}&gpu=rtx-4060');
  await expect(page.getByTestId('verdict')).toContainText('Does not fit');
  await expect(page.getByTestId('fixes')).toBeVisible();
  const warnings = await page.getByTestId('warnings').textContent().catch(() => '');
  expect(warnings).not.toContain('Lower the context');
  // A diffusers pipeline has no serving engine: the memory outside PyTorch's allocator is the CUDA
  // context and NCCL, not "engine buffers" (found on a screenshot of FLUX.1 on an RTX 4090).
  expect(warnings).toContain("outside PyTorch's allocator (CUDA context, NCCL)");
  expect(warnings).not.toContain('engine');
  const max = await page.getByTestId('generation-max').textContent();
  expect(max).not.toMatch(/fits px/);
  const legend = await page.locator('.legend-line').textContent();
  expect(legend).not.toContain('largest context');
});

// Found by trying it on a phone: the training chart said "context", its advice said "lower the
// context or the sequences", and a curve climbing to terabytes pressed the card's label onto "0".
test('training speaks of sequences and the chart value labels never overlap', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./?lang=en&gpu=rtx-4090');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await page.getByTestId('workload-train').check();
  const chart = page.getByTestId('context-chart');
  await expect(chart.locator('figcaption')).toHaveText(/sequence length/);
  await expect(chart.locator('.legend-line')).toContainText('longest sequence');
  await expect(page.getByTestId('warnings')).toContainText('Shorten the sequences or the micro-batch');
  await expect(page.getByTestId('warnings')).not.toContainText('Lower the context');
  for (const url of ['./?lang=en&gpu=rtx-4090', './?lang=en&model=llama-3.1-8b-instruct&gpu=rtx-4090&ctx=32768&seqs=4']) {
    await page.goto(url);
    await expect(page.getByTestId('verdict')).toBeVisible();
    if (url === './?lang=en&gpu=rtx-4090') await page.getByTestId('workload-train').check();
    const boxes = await chart.locator('text.ylabel').evaluateAll((ts) => ts
      .map((t) => t.getBoundingClientRect()).map((r) => [r.top, r.bottom]));
    expect(boxes.length).toBeGreaterThanOrEqual(2);
    boxes.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < boxes.length; i++) expect(boxes[i][0]).toBeGreaterThanOrEqual(boxes[i - 1][1]);
  }
});

// Found on a phone: the image chart's 256–4096 px axis printed "1536" against "2048" and "3072"
// over "4096". Every chart's x-axis labels keep apart, in each workload, on a phone.
test('the x-axis labels of every chart keep apart on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const chart = page.getByTestId('context-chart');
  for (const workload of ['inference', 'train', 'image', 'video']) {
    await page.goto('./?lang=en&gpu=rtx-4090');
    await expect(page.getByTestId('verdict')).toBeVisible();
    if (workload !== 'inference') await page.getByTestId(`workload-${workload}`).check();
    await expect(chart).toBeVisible();
    const boxes = await chart.locator('text.tick:not(.ylabel)').evaluateAll((ts) => ts
      .map((t) => t.getBoundingClientRect()).map((r) => [r.left, r.right]));
    expect(boxes.length, workload).toBeGreaterThanOrEqual(4);
    boxes.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < boxes.length; i++) expect(boxes[i][0], workload).toBeGreaterThanOrEqual(boxes[i - 1][1]);
  }
});

test('typing a model in the search and Enter picks the first match', async ({ page }) => {
  await page.goto('./?lang=en');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await page.locator('#model-filter').fill('llama 3.3');
  await page.locator('#model-filter').press('Enter');
  await expect(page.getByTestId('model-summary')).toContainText('Llama 3.3');
});

test('the embed widget keeps the warnings that qualify its verdict', async ({ page }) => {
  await page.goto('./?embed=1&lang=pl&model=qwen3-30b-a3b&ctx=131072&seqs=1&gpu=h200');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('warnings')).toBeVisible();
  await expect(page.getByTestId('warnings')).toContainText('40');
});

// A plan that does not fit would not run: the page gives it no speed (it read "does not fit" beside
// "≈ 10 tok/s"), in the answer or the line that stays in view; its price per hour stays.
test('a plan that does not fit shows no speed, only its price per hour', async ({ page }) => {
  await page.goto('./?lang=en&model=llama-3.1-70b-instruct&ctx=32768&gpu=rtx-4090&n=2');
  await expect(page.getByTestId('verdict')).toContainText('Does not fit');
  await expect(page.getByTestId('cost')).toContainText('/h');
  await expect(page.getByTestId('speed')).toHaveCount(0);
  await expect(page.getByTestId('verdict-bar')).not.toContainText('tok/s');
  await expect(page.getByTestId('cost')).not.toContainText('million');
  // The price line does not start with the separator it had between speed and price.
  expect((await page.getByTestId('speed-line').textContent()).trim()).toMatch(/^\$/);
});
