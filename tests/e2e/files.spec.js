// The user's own checkpoint files: the header reader (a web worker fetched on the first drop)
// reads only the header of a multi-gigabyte GGUF, shows the exact bytes, puts the architecture and
// format into the scenario (so the link works without the file), and refuses crafted headers with
// a sentence in the page's language. Files are written here, sparse: only the header takes disk.
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { llamaGguf, u32, u64 } = require('./gguf-fixture');

test('a GGUF header is read in the page in under a second and becomes the scenario', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-files-'));
  try {
    const { file, tensorBytes, count } = llamaGguf(dir);
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(4.5e9);
    const foreign = [];
    page.on('request', (r) => { if (!r.url().startsWith(`http://127.0.0.1:${Number(process.env.E2E_PORT) || 4173}/`)) foreign.push(r.url()); });
    page.on('pageerror', (e) => { throw e; });
    const loaded = [];
    page.on('response', (r) => loaded.push(r.url().split('/').pop()));
    await page.goto('./?model=qwen3-8b&weights=bf16&ctx=8192&seqs=1&gpu=rtx-4090&lang=en');
    await expect(page.getByTestId('verdict')).toContainText('RTX 4090');
    // The reader is not part of the first load.
    expect(loaded.some((n) => n.startsWith('vramfit-reader'))).toBe(false);

    await page.getByTestId('file-drop').locator('summary').click();
    await expect(page.getByTestId('file-drop')).toContainText('nothing leaves your machine');
    const start = Date.now();
    await page.getByTestId('file-input').setInputFiles(file);
    await expect(page.getByTestId('file-result')).toBeVisible();
    const ms = Date.now() - start;
    console.log(`read the header of a ${(size / 1e9).toFixed(2)} GB GGUF in ${ms} ms (worker start included)`);
    expect(ms).toBeLessThan(1000);
    expect(loaded.some((n) => n === 'vramfit-reader_bg.wasm')).toBe(true);

    await expect(page.getByTestId('file-tensors')).toHaveText(String(count));
    await expect(page.getByTestId('file-bytes')).toContainText(`(${tensorBytes.toLocaleString('en-US')} B)`);
    await expect(page.getByTestId('file-arch')).toContainText('block_count 32');
    await expect(page.getByTestId('file-applied')).toContainText('exact weight bytes');
    await expect(page.getByTestId('file-check')).toContainText('gguf-q4_k_m');
    // The scenario now holds the file's architecture (as a config.json) and format.
    await expect(page.getByTestId('weights')).toHaveValue('gguf-q4_k_m');
    await expect(page.getByTestId('model')).toHaveValue('');
    await expect(page.getByTestId('config-summary')).toContainText('32 layers');
    // The weights on the card are the file's exact bytes (one GPU: the whole model).
    await expect(page.getByTestId('row-weights')).toContainText((tensorBytes / 2 ** 30).toFixed(2));
    await expect.poll(() => page.url()).toContain(`weights_bytes=${tensorBytes}`);
    const verdict = await page.getByTestId('verdict').textContent();
    const total = await page.getByTestId('per-gpu-gib').textContent();
    // A shared link reproduces it without the file.
    await expect.poll(() => page.url()).toContain('q4_k_m');
    const other = await page.context().newPage();
    await other.goto(page.url());
    await expect(other.getByTestId('verdict')).toHaveText(verdict);
    await expect(other.getByTestId('per-gpu-gib')).toHaveText(total);
    expect(foreign).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a crafted header is refused at once, in the page language, and nothing typed is lost', async ({ page }) => {
  // 43 bytes: one metadata key whose string length is 2^63 (the gguf-py hang, llama.cpp #27188).
  const crafted = Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1),
    Buffer.from([0, 0, 0, 0, 0, 0, 0, 0x80]), Buffer.from('general.a'), u32(0), Buffer.alloc(2)]);
  await page.goto('./?model=qwen3-8b&weights=bf16&ctx=20000&seqs=1&gpu=rtx-4090&lang=de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const verdict = await page.getByTestId('verdict').textContent();
  await page.getByTestId('file-drop').locator('summary').click();
  await page.getByTestId('file-input').setInputFiles({ name: 'evil.gguf', mimeType: 'application/octet-stream', buffer: crafted });
  await expect(page.getByTestId('file-error')).toContainText('Der Header ist nicht lesbar');
  await expect(page.getByTestId('file-error')).toContainText('length_past_end');
  await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello world, not a model') });
  await expect(page.getByTestId('file-error')).toContainText('Keine safetensors-, GGUF-');
  // The scenario is untouched.
  await expect(page.getByTestId('ctx')).toHaveValue('20000');
  await expect(page.getByTestId('model')).toHaveValue('qwen3-8b');
  await expect(page.getByTestId('verdict')).toHaveText(verdict);
});

test('a model config.json dropped where weights go becomes the model estimated', async ({ page }) => {
  await page.goto('./?lang=en&gpu=rtx-4090');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await page.getByTestId('file-drop').locator('summary').click();
  const config = { architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 2048, intermediate_size: 8192,
    num_hidden_layers: 16, num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256 };
  await page.getByTestId('file-input').setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(config)) });
  await expect(page.getByTestId('file-config')).toBeVisible();
  await expect(page.getByTestId('file-error')).toHaveCount(0);
  await expect(page.getByTestId('config')).toHaveValue(/"hidden_size": ?2048/);
  await expect(page.getByTestId('model-summary')).not.toContainText('Llama 3.1 8B');
});
