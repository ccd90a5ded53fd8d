// End-to-end: serving engines, real formats, the inverse answers and the chart.
const { test, expect } = require('@playwright/test');

require('./page-errors')(test, expect);

test('vLLM reports KV cache, tokens and concurrency like its start-up log', async ({ page }) => {
  await page.goto('./');
  await page.getByTestId('gpu').selectOption('h100-sxm-80gb');
  await page.getByTestId('engine').selectOption('vllm');
  await expect(page.getByTestId('engine-report')).toContainText('KV cache capacity');
  const tokens = async () => parseInt((await page.getByTestId('kv-tokens').textContent()).replace(/\D/g, ''), 10);
  const before = await tokens();
  expect(before).toBeGreaterThan(100000);
  await page.getByTestId('gpu_memory_utilization').fill('0.5');
  await expect.poll(tokens).toBeLessThan(before);
  await expect(page.getByTestId('util-range')).toBeVisible();
  await expect(page.getByTestId('context-chart')).toBeVisible();
  await expect.poll(() => page.url()).toContain('engine=');
  // A bad knob gets a message at the field.
  await page.getByTestId('gpu_memory_utilization').fill('1.7');
  await expect(page.getByTestId('err-gpu_memory_utilization')).toContainText('at most 1');
});

test('llama.cpp with a GGUF file and partial offload reports host RAM', async ({ page }) => {
  await page.goto('./');
  await page.getByTestId('weights').selectOption('gguf-q4_k_m');
  await page.getByTestId('engine').selectOption('llama_cpp');
  await page.getByTestId('n_gpu_layers').fill('10');
  await expect(page.getByTestId('host-ram')).toContainText('GiB');
  await expect(page.getByTestId('warnings')).toContainText('host RAM');
});

test('the inverse answers change with the card', async ({ page }) => {
  await page.goto('./?model=qwen2.5-7b-instruct&gpu=rtx-4090&ctx=8192&seqs=4');
  const max = async () => parseInt((await page.getByTestId('max-context').textContent()).replace(/\D/g, ''), 10);
  const small = await max();
  await page.getByTestId('gpu').selectOption('a100-sxm-80gb');
  await expect.poll(max).toBeGreaterThan(small);
  await expect(page.getByTestId('max-sequences')).toContainText('at this context');
});

test('a MoE model with an FP8 checkpoint gets a multi-GPU plan', async ({ page }) => {
  await page.goto('./?model=deepseek-v3&weights=fp8-block&ctx=16384&seqs=8');
  await expect(page.getByTestId('model-summary')).toContainText('DeepSeek');
  await expect(page.getByTestId('verdict')).toContainText('(tensor parallel)');
});

test('training mode: knobs change the budget and the peak phase is named', async ({ page }) => {
  await page.goto('./?model=llama-3.1-8b-instruct&gpu=a100-sxm-80gb&lang=en');
  await page.getByTestId('workload-train').check();
  await expect(page.getByTestId('peak-phase')).toContainText('Peak set by');
  await expect(page.getByTestId('row-optimizerstates')).toBeVisible();
  const total = async () => parseFloat((await page.getByTestId('per-gpu-gib').textContent()).replace(',', ''));
  const full = await total();
  await page.getByTestId('method').selectOption('lora');
  await expect.poll(total).toBeLessThan(full);
  await expect(page.getByTestId('row-adapters')).toBeVisible();
  const lora = await total();
  await page.getByTestId('checkpointing').selectOption('full');
  await expect.poll(total).toBeLessThan(lora);
  await expect(page.getByTestId('max-context')).toContainText('Longest sequence');
  await page.getByTestId('micro_batch').fill('0');
  await expect(page.getByTestId('err-micro_batch')).toContainText('at least 1');
  await expect.poll(() => page.url()).toContain('train=');
});

// torchtune's chunked cross-entropy pays only compiled: in eager mode every chunk's fp32
// log-softmax stays saved until backward; compiled, only the 16-bit logits do.
test('training: compiling a chunked cross-entropy shrinks the logits row, and its advice says so', async ({ page }) => {
  await page.goto('./?model=llama-3.1-8b-instruct&gpu=rtx-4090&lang=en');
  await page.getByTestId('workload-train').check();
  await page.getByTestId('method').selectOption('qlora');
  await page.getByTestId('chunked_loss').check();
  const logits = page.getByTestId('row-logits').locator('td').first();
  const gib = async () => parseFloat((await logits.textContent()).replace(',', ''));
  await expect.poll(gib).toBeGreaterThan(1);
  const eager = await gib();
  await page.getByTestId('compiled').check();
  await expect.poll(gib).toBeLessThan(eager / 2);
  await page.getByTestId('row-logits').locator('summary').click();
  await expect(page.getByTestId('row-logits')).toContainText('compiled with torch.compile');
});

// peft's adapter dropout keeps, per adapted linear, its own dropped input and a bool mask
// (traced: tools/trace/train_trace.py); the form sets it and the activations follow.
// For training the recommendation's replicas are data-parallel copies with a smaller micro-batch,
// not "independent requests".
test('training: replicas are offered as data parallel with a smaller micro-batch', async ({ page }) => {
  const train = encodeURIComponent(JSON.stringify({ method: 'qlora', lora_rank: 16, lora_targets: 'all_linear', micro_batch: 4, sequence_length: 2048, checkpointing: 'full', optimizer: 'paged_adamw8bit' }));
  await page.goto(`./?lang=en&model=llama-3.1-8b-instruct&gpu=rtx-4090&train=${train}`);
  await expect(page.getByTestId('replicas')).toContainText('Data parallel');
  await expect(page.getByTestId('replicas')).toContainText(/micro-batch of [1-3] sequences?/);
  await expect(page.getByTestId('replicas')).not.toContainText('requests');
  // Paged 8-bit AdamW keeps its states in host RAM: the warning says training holds them, not
  // "the engine".
  await expect(page.getByTestId('warnings')).toContainText('Training keeps 0.08 GiB in host RAM');
  await expect(page.getByTestId('warnings')).not.toContainText('engine');
  // The 128k-vocabulary logits are half this budget: the first fix is a compiled chunked loss,
  // and following it keeps the rest of the scenario.
  await expect(page.getByTestId('fix').first()).toContainText('chunked cross-entropy + torch.compile');
  await page.getByTestId('fix').first().click();
  await expect(page.getByTestId('chunked_loss')).toBeChecked();
  await expect(page.getByTestId('compiled')).toBeChecked();
  await expect(page.getByTestId('verdict')).toContainText('Fits');
});

test('training: LoRA dropout grows the saved activations', async ({ page }) => {
  await page.goto('./?model=llama-3.1-8b-instruct&gpu=h100-sxm-80gb&lang=en');
  await page.getByTestId('workload-train').check();
  await page.getByTestId('method').selectOption('lora');
  await page.getByTestId('lora_targets').selectOption('all_linear');
  const acts = page.getByTestId('row-activations').locator('td').first();
  const gib = async () => parseFloat((await acts.textContent()).replace(',', ''));
  await expect.poll(gib).toBeGreaterThan(0);
  const off = await gib();
  await page.getByTestId('lora_dropout').check();
  await expect.poll(gib).toBeGreaterThan(off);
  await expect.poll(() => page.url()).toContain('lora_dropout');
});

test('image and video generation: pipeline, offload and the largest size that fits', async ({ page }) => {
  await page.goto('./?gpu=rtx-4090&lang=en');
  await page.getByTestId('workload-image').check();
  await expect(page.getByTestId('row-denoiser')).toBeVisible();
  await expect(page.getByTestId('peak-phase')).toContainText('Peak set by');
  const total = async () => parseFloat((await page.getByTestId('per-gpu-gib').textContent()).replace(',', ''));
  const resident = await total();
  await page.getByTestId('offload').selectOption('sequential');
  await expect.poll(total).toBeLessThan(resident);
  await expect(page.getByTestId('generation-max')).toContainText('px');
  await page.getByTestId('width').fill('1000');
  await expect(page.getByTestId('err-width')).toContainText('multiple');

  await page.getByTestId('workload-video').check();
  await expect(page.getByTestId('frames')).toHaveValue('81');
  await page.getByTestId('frames').fill('80');
  await expect(page.getByTestId('err-frames')).not.toHaveText('');
  await page.getByTestId('frames').fill('49');
  await expect(page.getByTestId('generation-max')).toContainText('frames');
  await expect.poll(() => page.url()).toContain('video=');
});

test('custom workload: items add up and bad sizes are flagged at the row', async ({ page }) => {
  await page.goto('./?gpu=l4&lang=en');
  await page.getByTestId('workload-custom').check();
  await expect(page.getByTestId('row-persistentdata')).toBeVisible();
  const total = async () => parseFloat((await page.getByTestId('per-gpu-gib').textContent()).replace(',', ''));
  const before = await total();
  await page.getByTestId('add-item').click();
  await page.getByTestId('item-size-3').fill('2.5');
  await expect.poll(total).toBeGreaterThan(before);
  await page.getByTestId('item-size-3').fill('lots');
  await expect(page.getByTestId('err-item-3')).toContainText('number');
  await expect(page.getByTestId('stale')).toBeVisible();
});

// vLLM prints a hybrid model's pool per layer group and its concurrency over the attention group:
// side by side the two read as a contradiction unless the page says why (found reading them).
test('a hybrid model under vLLM explains why concurrency exceeds capacity ÷ context', async ({ page }) => {
  await page.goto('./?lang=en&model=qwen3.5-35b-a3b&weights=bf16&ctx=32768&seqs=8&gpu=h100-sxm-80gb&n=1&engine={"vllm":{}}');
  await expect(page.getByTestId('kv-tokens')).toBeVisible();
  const tokens = Number((await page.getByTestId('kv-tokens').textContent()).match(/[\d,]+/)[0].replace(/,/g, ''));
  const x = Number((await page.getByTestId('max-concurrency').textContent()).match(/([\d.]+)×/)[1]);
  expect(x).toBeGreaterThan(tokens / 32768);
  await expect(page.getByTestId('kv-per-group')).toContainText('layer groups');
  await page.goto('./?lang=en&model=llama-3.1-8b-instruct&gpu=rtx-4090&engine={"vllm":{}}');
  await expect(page.getByTestId('kv-tokens')).toBeVisible();
  await expect(page.getByTestId('kv-per-group')).toHaveCount(0);
});

// Gemma 4 31B's summary said "KV cache 880 KiB per token" beside a 65.96 GiB cache holding 747,696
// tokens (≈ 92 KiB each): past its 1,024-token window only the 10 global layers grow.
test('a sliding-window model states what a token costs past the window', async ({ page }) => {
  await page.goto('./?lang=en&model=gemma-4-31b-it&weights=bf16&ctx=65536&seqs=8&gpu=h200&engine={"vllm":{}}');
  await expect(page.getByTestId('model-summary')).toContainText('880 KiB per token (bf16), 80 KiB per token past the 1,024-token window');
  await page.goto('./?lang=en&model=llama-3.1-8b-instruct&gpu=rtx-4090');
  await expect(page.getByTestId('model-summary')).toContainText('128 KiB per token (bf16)');
  await expect(page.getByTestId('model-summary')).not.toContainText('window');
});
