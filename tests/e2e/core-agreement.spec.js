// The page's numbers against the core, so the two never disagree: every golden scenario
// (tests/scenarios/*.json, whose estimate the core wrote to NAME.expected.json) opened as a link,
// in English and German; the verdict, the per-GPU total and every component row on screen must be
// the core's.
const fs = require('fs');
const path = require('path');
const { test, expect } = require('@playwright/test');

const dir = path.resolve(__dirname, '../scenarios');
const names = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json')).sort();

/** The scenario as link parameters, as `query::to_pairs` writes them. */
function link(s) {
  const p = new URLSearchParams();
  const m = s.model;
  if (m && m.catalog !== undefined) p.set('model', m.catalog);
  else if (m && m.hf_config) p.set('config', JSON.stringify(m.hf_config));
  else p.set('model', '');
  // Without `weights` the link reads the format a pre-quantised repo id names, as the CLI does.
  if (s.weights) p.set('weights', s.weights);
  if (s.kv_cache) p.set('kv', s.kv_cache);
  const w = s.workload;
  if (w.inference) {
    p.set('ctx', String(w.inference.context_tokens));
    p.set('seqs', String(w.inference.sequences));
    if (w.inference.prefill_chunk_tokens && w.inference.prefill_chunk_tokens !== 8192) p.set('chunk', String(w.inference.prefill_chunk_tokens));
  }
  for (const [key, param] of [['train', 'train'], ['custom', 'custom'], ['generate_image', 'image'], ['generate_video', 'video']]) {
    if (w[key]) p.set(param, JSON.stringify(w[key]));
  }
  const h = s.hardware || {};
  if (h.gpu) p.set('gpu', h.gpu);
  if (h.gpu_memory_gib !== undefined) p.set('mem', String(h.gpu_memory_gib));
  if (h.count && h.count !== 1) p.set('n', String(h.count));
  if (h.cuda_context_mib !== undefined) p.set('cuda_ctx', String(h.cuda_context_mib));
  if (s.headroom_percent !== undefined) p.set('headroom', String(s.headroom_percent));
  if (s.engine) p.set('engine', JSON.stringify(s.engine));
  if (s.weights_bytes) p.set('weights_bytes', String(s.weights_bytes));
  if (s.unquantized_modules) p.set('unquantized', JSON.stringify(s.unquantized_modules));
  return p.toString();
}

/** GiB with two decimals as the page writes them: Rust's `{:.2}`, whose exact ties go to the even
 *  hundredth (2.125 → 2.12), grouped and with the decimal mark of the language. */
function gib(bytes, lang) {
  const x = bytes / 2 ** 30;
  const scaled = x * 100;
  let cents = Math.round(scaled);
  if (Math.abs(scaled - Math.trunc(scaled)) === 0.5 && cents % 2 !== 0) cents -= 1;
  const [int, frac] = (cents / 100).toFixed(2).split('.');
  const sep = lang === 'de' ? ['.', ','] : [',', '.'];
  const grouped = int.length >= 4 ? int.replace(/\B(?=(\d{3})+(?!\d))/g, sep[0]) : int;
  return `${grouped}${sep[1]}${frac}`;
}

for (const name of names) {
  const scenario = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  const expected = JSON.parse(fs.readFileSync(path.join(dir, name.replace(/\.json$/, '.expected.json')), 'utf8'));
  if (!expected.plan) continue; // an invalid scenario: the page keeps its fields and says why
  for (const lang of ['en', 'de']) {
    test(`${name} (${lang}) reads as the core estimated it`, async ({ page }) => {
      const errors = [];
      page.on('pageerror', (e) => errors.push(e));
      await page.goto(`./?lang=${lang}&${link(scenario)}`);
      const verdict = page.getByTestId('verdict');
      await expect(verdict).toHaveClass(new RegExp(`\\b${expected.plan.verdict}\\b`));
      await expect(page.getByTestId('per-gpu-gib')).toHaveText(gib(expected.plan.per_gpu_bytes, lang));
      for (const c of expected.plan.per_gpu_components) {
        const row = page.getByTestId(`row-${c.id.replace(/_/g, '')}`);
        await expect(row.locator('td').first()).toHaveText(gib(c.bytes, lang));
      }
      expect(errors).toEqual([]);
    });
  }
}
