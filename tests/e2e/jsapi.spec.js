// The JavaScript API (window.vramfit) from a test page: estimates equal the CLI's JSON for the same
// scenarios (computed here by the CLI binary), errors are the CLI's error objects, thrown.
const { test, expect } = require('@playwright/test');
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '../..');

const SCENARIOS = {
  serve_vllm: {
    version: 1, model: { catalog: 'llama-3.1-8b-instruct' }, weights: 'bf16', kv_cache: 'fp8',
    workload: { inference: { context_tokens: 16384, sequences: 8, prefill_chunk_tokens: 8192 } },
    hardware: { gpu: 'l40s', count: 1 }, headroom_percent: 10,
    engine: { vllm: { gpu_memory_utilization: 0.9, max_num_seqs: 64 } },
  },
  hf_config_two_cards: {
    model: { hf_config: { model_type: 'qwen2', hidden_size: 3584, intermediate_size: 18944,
      num_hidden_layers: 28, num_attention_heads: 28, num_key_value_heads: 4, vocab_size: 152064,
      tie_word_embeddings: false } },
    weights: 'int4', workload: { inference: { context_tokens: 32768, sequences: 16 } },
    hardware: { gpu_memory_gib: 23.55, count: 2 },
  },
  train_lora: {
    model: { catalog: 'qwen2.5-7b-instruct' }, weights: 'bf16',
    workload: { train: { method: 'lora', micro_batch: 4, sequence_length: 2048, lora_rank: 16 } },
    hardware: { gpu: 'a100-sxm-80gb', count: 1 },
  },
  image: {
    weights: 'bf16',
    workload: { generate_image: { pipeline: 'flux1-dev', width: 1024, height: 1024, batch: 1 } },
    hardware: { gpu: 'rtx-4090' },
  },
  unknown_model: { model: { catalog: 'no-such-model' }, weights: 'bf16',
    workload: { inference: { context_tokens: 8192, sequences: 1 } } },
  out_of_range: { model: { catalog: 'qwen3-8b' }, weights: 'bf16',
    workload: { inference: { context_tokens: 0, sequences: 1 } }, headroom_percent: 1 },
};

/** What `vramfit estimate FILE` prints for each scenario: {ok} from stdout or {err} from stderr. */
function cli(scenarios) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vramfit-cli-'));
  execFileSync('cargo', ['build', '-q', '-p', 'vramfit-cli'], { cwd: ROOT, stdio: 'inherit' });
  const target = process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target');
  const bin = path.join(target, 'debug', 'vramfit');
  const out = {};
  for (const [name, s] of Object.entries(scenarios)) {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(s, null, 2));
    try {
      out[name] = { ok: JSON.parse(execFileSync(bin, ['estimate', file], { encoding: 'utf8', stdio: 'pipe' })) };
    } catch (e) {
      out[name] = { err: JSON.parse(e.stderr) };
    }
  }
  return out;
}

let expected;
test.beforeAll(() => {
  test.setTimeout(600_000); // the first cargo build of the CLI
  expected = cli(SCENARIOS);
});

test('estimate() from a page that loads only the API equals the CLI, errors thrown as the CLI\'s objects', async ({ page }) => {
  page.on('pageerror', (e) => { throw e; });
  await page.goto('./js-api-example.html');
  await expect(page.locator('#verdict')).toContainText('fits on 1 × rtx-4090'); // the example ran
  await expect(page.locator('.answer')).toHaveCount(0); // no UI mounted
  const got = await page.evaluate(async (scenarios) => {
    const { ready } = await import('./api.js');
    const vramfit = await ready;
    const out = {};
    for (const [name, s] of Object.entries(scenarios)) {
      try { out[name] = { ok: vramfit.estimate(s) }; } catch (e) { out[name] = { err: e }; }
    }
    return out;
  }, SCENARIOS);
  expect(expected.serve_vllm.ok.kv_cache_bytes).toBeGreaterThan(0);
  expect(expected.unknown_model.err.error.kind).toBe('unknown_model');
  expect(expected.out_of_range.err.error.kind).toBe('invalid_fields');
  for (const name of Object.keys(SCENARIOS)) expect(got[name], name).toEqual(expected[name]);
});

test('window.vramfit in the app: catalog(), version, and a JSON error for bad input', async ({ page }) => {
  await page.goto('./');
  await page.waitForFunction(() => window.vramfit);
  const r = await page.evaluate(() => {
    const cat = window.vramfit.catalog();
    let bad;
    try { window.vramfit.estimate({ model: { catalog: 'qwen3-8b' }, weigths: 'bf16' }); } catch (e) { bad = e; }
    let notObject;
    try { window.vramfit.estimate(undefined); } catch (e) { notObject = e; }
    return {
      models: cat.models.map((m) => m.id), gpus: cat.gpus.map((g) => g.id),
      pipelines: cat.pipelines.map((p) => p.id), modelKeys: Object.keys(cat.models[0]).sort(),
      version: window.vramfit.version, bad, notObject, frozen: Object.isFrozen(window.vramfit),
    };
  });
  expect(r.models).toContain('llama-3.1-8b-instruct');
  expect(r.models.length).toBeGreaterThanOrEqual(50);
  expect(r.gpus).toContain('rtx-4090');
  // Unified-memory machines are cards like any other.
  expect(r.gpus).toContain('dgx-spark');
  expect(r.pipelines).toContain('flux1-dev');
  expect(r.modelKeys).toEqual(['arch', 'hf_aliases', 'hf_repo', 'id', 'name', 'published_counts_mtp', 'published_params', 'source']);
  const cargo = fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8');
  expect(r.version).toBe(cargo.match(/\[workspace\.package\][^[]*?version = "([^"]+)"/)[1]);
  expect(r.bad.error.kind).toBe('invalid_scenario_json');
  expect(r.bad.error.message).toContain('unknown field `weigths`');
  expect(r.notObject.error.kind).toBe('invalid_scenario_json');
  expect(r.frozen).toBe(true);
});
