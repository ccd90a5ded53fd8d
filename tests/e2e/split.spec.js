// End-to-end: the app's wasm in two (tools/split-wasm). The first answer runs only the primary
// module; the rest loads after the frame that shows it. A function of the rest called earlier (an
// input during the download, a view the profile does not cover) loads the rest at once. If the
// views tools/split-wasm/profile.js covers start loading the rest on demand, keep.txt is stale:
// rerun the profile.
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');

const DIST = path.resolve(__dirname, '../../dist');

// The page's own requests only: a service worker that has claimed the page serves the rest from
// its copy, out of page.route's reach (its path is offline.spec.js's).
test.use({ serviceWorkers: 'block' });

require('./page-errors')(test, expect);

/** The wasm files the page requests, in order, with the time each request started. */
function wasmRequests(page) {
  const files = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.startsWith('vramfit-web-') && name.endsWith('.wasm')) files.push(name);
  });
  return files;
}

/** Holds the background load of the rest (a fetch) until the returned function is called; an
 * on-demand load (a synchronous request) is not held. */
async function holdBackgroundRest(page) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*_rest.wasm', async (route) => {
    if (route.request().resourceType() === 'fetch') await held;
    await route.continue();
  });
  return release;
}

const restMark = (page) => page.evaluate(() => {
  const m = performance.getEntriesByName('vramfit:rest', 'mark')[0];
  return m ? { at: m.startTime, how: m.detail } : null;
});

test('the build is split: a primary module and the rest, both named in index.html', async () => {
  const files = fs.readdirSync(DIST);
  const primary = files.filter((n) => /^vramfit-web-[0-9a-f]{1,16}_bg\.wasm$/.test(n));
  const rest = files.filter((n) => /^vramfit-web-[0-9a-f]{1,16}_rest\.wasm$/.test(n));
  expect(primary).toHaveLength(1);
  expect(rest).toEqual([primary[0].replace('_bg.wasm', '_rest.wasm')]);
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  expect(html).toContain(`'./${rest[0]}'`);
  // The first answer's module is the smaller part, not a token split.
  const size = (n) => fs.statSync(path.join(DIST, n)).size;
  expect(size(rest[0])).toBeGreaterThan(size(primary[0]) / 4);
});

for (const query of ['', '?lang=de', '?lang=pl', '?embed=1&model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=rtx-4090&lang=en']) {
  test(`the first answer needs only the primary module; the rest follows in the background (${query || 'default view'})`, async ({ page }) => {
    const files = wasmRequests(page);
    await page.goto(`./${query}`);
    await expect(page.locator('[data-testid=verdict], [data-testid=embed]').first()).toBeVisible();
    await expect.poll(() => restMark(page)).not.toBeNull();
    const rest = await restMark(page);
    expect(rest.how).toBe('background');
    const mounted = await page.evaluate(() => performance.getEntriesByName('vramfit:mounted', 'mark')[0].startTime);
    expect(rest.at).toBeGreaterThan(mounted);
    expect(files.map((n) => n.replace(/^vramfit-web-[0-9a-f]+/, ''))).toEqual(['_bg.wasm', '_rest.wasm']);
    if (!query.includes('embed')) {
      // What the first answer does not show is built once the rest is in (later.rs).
      await expect(page.getByTestId('file-input')).toBeAttached();
      await expect(page.locator('.guidance')).toBeVisible();
      await expect(page.locator('.guidance pre').first()).toContainText('torch');
    }
  });
}

test('a link to a view the profile leaves out fetches the rest beside the primary, once, and starts with both', async ({ page }) => {
  const files = wasmRequests(page);
  const train = encodeURIComponent(JSON.stringify({ method: 'qlora', lora_rank: 16, lora_targets: 'all_linear',
    micro_batch: 4, sequence_length: 2048, checkpointing: 'full', optimizer: 'paged_adamw8bit' }));
  await page.goto(`./?lang=en&model=llama-3.1-8b-instruct&gpu=rtx-4090&train=${train}`);
  await expect(page.getByTestId('replicas')).toContainText('Data parallel');
  const rest = await restMark(page);
  expect(rest && rest.how).toBe('before start');
  const main = await page.evaluate(() => performance.getEntriesByName('vramfit:main', 'mark')[0].startTime);
  expect(rest.at).toBeLessThan(main);
  await page.waitForLoadState('networkidle');
  expect(files.filter((n) => n.endsWith('_rest.wasm'))).toHaveLength(1);
});

test('an input before the rest has arrived waits for the one download with a busy sign, and the answer follows the input', async ({ page }) => {
  // The background request for the rest is held until released.
  let release;
  const held = new Promise((r) => { release = r; });
  let restRequests = 0;
  await page.route('**/*_rest.wasm', async (route) => {
    restRequests += 1;
    await held;
    await route.continue();
  });
  await page.goto('./?lang=en&model=llama-3.1-8b-instruct&gpu=rtx-4090');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect.poll(() => restRequests).toBe(1);
  expect(await restMark(page)).toBeNull();
  // What the first answer does not show waits for the rest (later.rs).
  await expect(page.locator('.guidance')).toHaveCount(0);
  // Training runs code the first answer did not: a busy sign stands in while the rest loads, and
  // nothing asks for the rest a second time.
  await page.getByTestId('workload-train').check();
  await expect(page.getByTestId('busy-inputs')).toContainText('Loading the rest of the app');
  await expect(page.getByTestId('busy')).toBeVisible();
  expect(restRequests).toBe(1);
  release();
  await expect(page.getByTestId('components')).toContainText(/optimizer|Optimizer/);
  await expect(page.getByTestId('busy')).toHaveCount(0);
  await expect(page.getByTestId('busy-inputs')).toHaveCount(0);
  const rest = await restMark(page);
  expect(rest && rest.how).toBe('background');
  await expect(page.locator('.guidance')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(restRequests).toBe(1);
  // The page keeps answering.
  await page.getByTestId('workload-serve').check();
  await page.getByTestId('ctx').fill('16384');
  await expect(page.getByTestId('verdict')).toContainText('RTX 4090');
});

test('leaving the page before the rest has arrived needs only the primary: a page being left may not load it', async ({ page }) => {
  // Chromium refuses the synchronous request of an on-demand load while a page is dismissed, so
  // code the page-hide listener runs in the rest would throw as the visitor leaves (and show the
  // panic panel on a page kept for the back button). The listener writes the address bar.
  const release = await holdBackgroundRest(page);
  await page.goto('./?model=qwen3-8b&gpu=rtx-4090');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })));
  expect(await restMark(page)).toBeNull();
  await expect.poll(() => page.evaluate(() => location.search)).toContain('lang=en');
  release();
  await expect.poll(() => restMark(page)).not.toBeNull();
  expect((await restMark(page)).how).toBe('background');
});

test('a rest that cannot be loaded when it is needed shows the panic panel, not a silent wrong page', async ({ page }) => {
  const errors = [];
  page.removeAllListeners('pageerror');
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route('**/*_rest.wasm', (route) => route.abort());
  await page.goto('./?lang=en');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await page.getByTestId('workload-train').check();
  await expect(page.locator('#panic')).toBeVisible();
  await expect(page.locator('#panic-detail')).toContainText('rest of the app');
});

test('the data only the rest reads ships in the rest: the primary holds the first answer\'s texts, not the later ones, short import names and no linker sections', async () => {
  const files = fs.readdirSync(DIST);
  const read = (re) => fs.readFileSync(path.join(DIST, files.find((n) => re.test(n))));
  const primary = read(/^vramfit-web-[0-9a-f]{1,16}_bg\.wasm$/);
  const rest = read(/^vramfit-web-[0-9a-f]{1,16}_rest\.wasm$/);
  // English `first` (vramfit-i18n en.rs): the tagline. English `later`: a question of the FAQ.
  const tagline = 'GPU memory budget, computed in your browser.';
  const faq = 'Does a second GPU double the memory?';
  expect(primary.includes(tagline)).toBe(true);
  expect(primary.includes(faq)).toBe(false);
  expect(rest.includes(faq)).toBe(true);
  // wasm-bindgen's imports under short names (short-imports.js): its module name and hashes are gone.
  expect(/_bg\.js|__wbg_\w+_[0-9a-f]{16}/.test(primary.toString('latin1'))).toBe(false);
  for (const module of [primary, rest]) {
    expect(module.includes('reloc.CODE')).toBe(false);
    expect(module.includes(Buffer.from('\x07linking'))).toBe(false);
  }
});

// Views the profile covers and serving views it does not (several cards, a hybrid model, a custom
// card, an answer that does not fit): the answer built before the rest is in must read exactly as
// it does once the rest is in. What follows the rest (the fixes, the limits and chart, the
// recommendation with offers, the rules of thumb: `answer/sections.rs`, `workload/form.rs`) is left
// out of the comparison, and must be there once the rest is in. Data moved to the rest by mistake (tools/postbuild/cold-data.js)
// would read as zeros there: an empty text, a wrong number.
for (const query of [
  '?lang=en',
  '?lang=de&model=qwen3-8b&weights=bf16&ctx=32768&seqs=4&gpu=rtx-4090',
  '?lang=en&model=llama-3.1-70b-instruct&gpu=h100-sxm-80gb&n=4&ctx=65536&seqs=16',
  '?lang=pl&model=qwen3-next-80b-a3b-instruct&gpu=h200&n=2',
  '?lang=en&model=llama-3.1-8b-instruct&mem=20&ctx=131072&seqs=2&headroom=5',
  '?embed=1&model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=rtx-4090',
]) {
  test(`an answer built before the rest is in reads as it does after (${query})`, async ({ page }) => {
    const release = await holdBackgroundRest(page);
    await page.goto(`./${query}`);
    const answer = page.locator('section.answer').first();
    await expect(page.locator('[data-testid=verdict], [data-testid=embed]').first()).toBeVisible();
    const LATER = '.guidance, [data-testid=fixes], [data-testid=fixes-pending], [data-testid=limits], [data-testid=generation-limits], [data-testid=recommendation], [data-testid=rules]';
    const text = () => answer.evaluate((el, later) => {
      const copy = el.cloneNode(true);
      for (const part of copy.querySelectorAll(later)) part.remove();
      return copy.innerText;
    }, LATER);
    const before = await text();
    const early = await restMark(page);
    const pendingBefore = await answer.getByTestId('fixes-pending').count();
    release();
    await expect.poll(() => restMark(page)).not.toBeNull();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await text()).toBe(before);
    expect(before).toMatch(/\d/);
    await expect(answer.locator('[data-testid=recommendation]')).toBeVisible();
    if (!query.startsWith('?embed=1')) await expect(answer.locator('[data-testid=limits]')).toBeVisible();
    // A plan that does not fit: one line holds the place of its fixes until they arrive with the
    // rest (each of these views has some).
    if (/does_not_fit/.test(await answer.getByTestId('verdict').first().getAttribute('class'))) {
      if (early === null) expect(pendingBefore).toBe(1);
      await expect(answer.getByTestId('fix').first()).toBeVisible();
    }
    await expect(answer.getByTestId('fixes-pending')).toHaveCount(0);
    // A profiled view built it without the rest at all (the others load it on demand for code, as
    // before the data moved).
    if (query === '?lang=en' || query.startsWith('?embed=1')) expect(early).toBeNull();
  });
}

// On a phone the answer is first on screen but after the inputs in the document: what arrives with
// the rest (the fixes in place of their placeholder, the limits and the recommendation above the
// inputs) must not move what the user is reading. Without `overflow-anchor: none` on the inputs
// and the placeholder (style.css), Chromium anchored the scroll to the inputs and the view jumped
// two thousand pixels down to the offers.
test.describe(() => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('on a phone, what arrives with the rest does not move the warnings being read', async ({ page }) => {
    const release = await holdBackgroundRest(page);
    await page.goto('./?lang=en&model=qwen3-8b&weights=bf16&ctx=32768&seqs=4&gpu=rtx-4090');
    await expect(page.getByTestId('fixes-pending')).toBeVisible();
    const warning = page.getByTestId('warnings').locator('li').first();
    // The pending line and the warnings in view, as someone reading the answer has them.
    await page.getByTestId('fixes-pending').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const top = () => warning.evaluate((el) => el.getBoundingClientRect().top);
    const before = await top();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(844);
    release();
    await expect(page.getByTestId('fix').first()).toBeAttached();
    await expect(page.getByTestId('recommendation')).toBeAttached();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(Math.abs((await top()) - before)).toBeLessThan(4);
  });
});

// The fixes belong to the answer on screen: they arrive with the rest even when the fields hold
// something else at that moment (here a value being typed that is not a number yet), and stay
// when the field is back to what the answer was for. Before, the answer kept no fixes until a
// different valid scenario was estimated.
test('the fixes arrive with the rest while a field holds an unfinished edit', async ({ page }) => {
  const release = await holdBackgroundRest(page);
  await page.goto('./?lang=en&model=qwen3-8b&weights=bf16&ctx=32768&seqs=4&gpu=rtx-4090');
  await expect(page.getByTestId('fixes-pending')).toBeVisible();
  await page.getByTestId('ctx').fill('32k7');
  await expect(page.getByTestId('err-ctx')).not.toHaveText('');
  release();
  await expect(page.getByTestId('fix').first()).toBeVisible();
  await expect(page.getByTestId('fixes-pending')).toHaveCount(0);
  await page.getByTestId('ctx').fill('32768');
  await expect(page.getByTestId('err-ctx')).toHaveText('');
  await expect(page.getByTestId('fix').first()).toBeVisible();
  await expect(page.getByTestId('verdict')).toContainText('RTX 4090');
});
