// End-to-end: what the first load fetches. English is in the wasm; another language is fetched
// once from lang/<tag>.json (English meanwhile, and English for good if the file cannot be had);
// before the wasm runs, the static page shows its frame and a placeholder the app replaces.
const { test, expect } = require('@playwright/test');

test.beforeEach(async ({ page }) => {
  page.on('pageerror', (e) => { throw e; });
});

/** Records the language files the page requests. */
function langRequests(page) {
  const files = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.includes('/lang/')) files.push(path.split('/').pop());
  });
  return files;
}

test('English needs no language file; another language is fetched once', async ({ page }) => {
  const files = langRequests(page);
  await page.goto('./?lang=en');
  await expect(page.getByTestId('verdict')).toBeVisible();
  expect(files).toEqual([]);
  await page.getByTestId('lang').selectOption('fr');
  await expect(page.locator('label[for=weights]')).toHaveText('Poids');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.getByTestId('lang').selectOption('en');
  await expect(page.locator('label[for=weights]')).toHaveText('Weights');
  await page.getByTestId('lang').selectOption('fr');
  await expect(page.locator('label[for=weights]')).toHaveText('Poids');
  expect(files).toEqual(['fr.json']);
});

test('a language file that cannot be fetched leaves the page working in English', async ({ page }) => {
  await page.route('**/lang/*.json*', (route) => route.abort());
  await page.goto('./?lang=de&ctx=4096');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.locator('label[for=weights]')).toHaveText('Weights');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect.poll(() => page.url()).toContain('lang=de');
  await page.getByTestId('ctx').fill('8192');
  await expect(page.getByTestId('err-ctx')).toHaveText('');
});

test('before the wasm runs the page shows its frame and a placeholder; the app replaces it', async ({ page }) => {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  await page.goto('./', { waitUntil: 'domcontentloaded' });
  await expect(page.locator('#boot h1')).toHaveText('vramfit');
  await expect(page.locator('#boot .boot-wait')).toBeVisible();
  release();
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.locator('#boot')).toHaveCount(0);
  await expect(page.locator('h1')).toHaveCount(1);
});

// An input re-renders the answer only: touching <html lang> restyled all ~1,300 elements on every
// keystroke (33 ms of style recalc per input), and the address bar follows after the paint.
test('an input changes the answer without touching <html> and the address bar follows', async ({ page }) => {
  await page.goto('./?lang=en');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await page.evaluate(() => {
    window.__rootMutations = 0;
    new MutationObserver((m) => { window.__rootMutations += m.length; })
      .observe(document.documentElement, { attributes: true });
  });
  const total = page.getByTestId('per-gpu-gib');
  for (const ctx of ['16384', '65536', '8192']) {
    const before = await total.textContent();
    await page.getByTestId('ctx').fill(ctx);
    await expect(total).not.toHaveText(before);
    await expect.poll(() => page.url()).toContain(`ctx=${ctx}`);
  }
  expect(await page.evaluate(() => window.__rootMutations)).toBe(0);
  expect(await page.title()).toContain('vramfit');
});
