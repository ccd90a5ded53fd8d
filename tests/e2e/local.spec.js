// Local and multi-GPU depth (issue 31) where its users look for it: MoE experts in host RAM in
// the llama.cpp box, a speculative proposer beside the model, a second card type, vLLM's release
// regimes; the numbers on screen agree with the flags the commands print.
const { test, expect } = require('@playwright/test');

require('./page-errors')(test, expect);

const engine = (e) => encodeURIComponent(JSON.stringify(e));

test('MoE experts in host RAM: the fix names the layers, the field takes them, the command prints the flag', async ({ page }) => {
  await page.goto(`./?lang=en&model=qwen3-30b-a3b&weights=gguf-q4_k_m&ctx=8192&seqs=1&gpu=rtx-3060&engine=${engine({ llama_cpp: {} })}`);
  await expect(page.getByTestId('verdict')).toContainText('Does not fit on 1 ×');
  const fix = page.getByTestId('fix').filter({ hasText: '--n-cpu-moe' }).first();
  await expect(fix).toBeVisible();
  const layers = (await fix.textContent()).match(/--n-cpu-moe (\d+)/)[1];
  await page.getByTestId('n_cpu_moe').fill(layers);
  await expect(page.getByTestId('verdict')).toContainText('Fits on 1 ×');
  await expect(page.getByTestId('script')).toContainText(`--n-cpu-moe ${layers}`);
  await expect(page).toHaveURL(new RegExp(`n_cpu_moe%22%3A${layers}|n_cpu_moe":${layers}`));
  // Decode now reads experts from host RAM: the speed line says so by its band (not calibrated).
  await expect(page.getByTestId('speed')).toBeVisible();
  // A dense model has no such field.
  await page.goto(`./?lang=en&model=llama-3.1-8b-instruct&weights=gguf-q4_k_m&gpu=rtx-3060&engine=${engine({ llama_cpp: {} })}`);
  await expect(page.getByTestId('n_gpu_layers')).toBeVisible();
  await expect(page.getByTestId('n_cpu_moe')).toHaveCount(0);
});

test('a draft model is offered from the model\'s vocabulary, appears by name in the budget and in the command', async ({ page }) => {
  await page.goto(`./?lang=en&model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=h100-sxm-80gb&engine=${engine({ vllm: {} })}`);
  const spec = page.getByTestId('spec');
  await expect(spec.locator('option[value="llama-3.2-1b-instruct"]')).toHaveCount(1);
  const options = await spec.locator('option').evaluateAll((os) => os.map((o) => o.value));
  // Qwen's vocabulary is not Llama's; Llama 3.1 8B ships no MTP layers.
  expect(options.some((o) => o.startsWith('qwen'))).toBe(false);
  expect(options).not.toContain('mtp');
  await spec.selectOption('llama-3.2-1b-instruct');
  await expect(page.getByTestId('row-draftweights')).toBeVisible();
  await expect(page.getByTestId('row-draftkvcache')).toBeVisible();
  await expect(page.getByTestId('script')).toContainText('--speculative-config');
  await expect(page.getByTestId('script')).toContainText('meta-llama/Llama-3.2-1B-Instruct');
  await expect(page).toHaveURL(/spec=/);
  // Its colour is its own.
  const bg = await page.locator('.dot.seg-draftweights').evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(bg).not.toBe('rgba(0, 0, 0, 0)');
});

test('MTP layers are offered for a model that ships them, in Polish', async ({ page }) => {
  await page.goto(`./?lang=pl&model=deepseek-v3&weights=fp8&ctx=8192&seqs=16&gpu=h200&n=8&engine=${engine({ vllm: {} })}`);
  const spec = page.getByTestId('spec');
  await expect(spec.locator('option[value="mtp"]')).toHaveText('warstwy MTP modelu');
  await spec.selectOption('mtp');
  await expect(page.getByTestId('row-draftweights')).toContainText('Wagi modelu szkicowego');
  await expect(page.getByTestId('script')).toContainText('"method":"mtp"');
});

test('a second card type: each card with what it holds, the one that sets the limit named, the split in the command', async ({ page }) => {
  await page.goto(`./?lang=en&model=llama-3.3-70b-instruct&weights=gguf-q4_k_m&ctx=8192&seqs=1&gpu=rtx-5090&engine=${engine({ llama_cpp: {} })}`);
  await expect(page.getByTestId('verdict')).toContainText('Does not fit');
  await page.getByTestId('gpu2').selectOption('rtx-4080');
  const table = page.getByTestId('per-card');
  await expect(table).toBeVisible();
  await expect(page.getByTestId('card-rtx-5090')).toBeVisible();
  await expect(page.getByTestId('card-rtx-4080')).toContainText('sets the limit');
  await expect(page.getByTestId('verdict')).toContainText('RTX 4080');
  await expect(page.getByTestId('script')).toContainText('--tensor-split 31.0,15.3');
  await expect(page).toHaveURL(/gpus=/);
  // The link opens on the same machine.
  await page.reload();
  await expect(page.getByTestId('gpu2')).toHaveValue('rtx-4080');
  await expect(page.getByTestId('card-rtx-4080')).toContainText('sets the limit');
});

test('vLLM\'s release regimes come from the core, the newest first', async ({ page }) => {
  await page.goto(`./?lang=en&model=llama-3.1-8b-instruct&gpu=h100-sxm-80gb&engine=${engine({ vllm: {} })}`);
  const version = page.getByTestId('vllm_version');
  await expect(version).toHaveValue('v1-0.29');
  const labels = await version.locator('option').allTextContents();
  expect(labels[0]).toBe('V1 (0.29+)');
  expect(labels).toHaveLength(4);
});
