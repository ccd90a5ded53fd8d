// Embed mode: the widget in an iframe on a page of another origin (the loader www/embed.js), its
// height and state messages, show= and theme=, and the full app's "Embed" snippet.
const { test, expect } = require('@playwright/test');
const http = require('http');

const APP = `http://127.0.0.1:${Number(process.env.E2E_PORT) || 4173}/dist/`; // playwright.config.js's server
const SCENARIO = 'model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=rtx-4090&lang=en';

/** A host page on its own origin (localhost, another port) holding the given widgets. */
async function hostPage(body, { loader = true } = {}) {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head>
<body style="margin:0;font-family:sans-serif"><h1 style="font-size:16px;margin:8px">A page that embeds vramfit</h1>
${body}
<script>
  window.heights = []; window.states = [];
  addEventListener('message', (e) => {
    if (e.data && e.data.type === 'vramfit:height') heights.push(e.data.height);
    if (e.data && e.data.type === 'vramfit:state') states.push(e.data);
  });
</script>
${loader ? `<script src="${APP}embed.js"></script>` : ''}</body></html>`;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://localhost:${server.address().port}/`, close: () => server.close() };
}

const widget = (params) => `<div data-vramfit="${params.replace(/&/g, '&amp;')}"></div>`;
const frameOf = (page) => page.frameLocator('iframe[data-vramfit-frame]').first();

/** A 400 px wide screenshot of the whole host page (the viewport grown to it: a cross-origin
 * iframe paints only within the viewport). */
async function shoot(page, file) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 400, height });
  await page.screenshot({ path: file });
  await page.setViewportSize({ width: 400, height: 600 });
}

test.describe('embedded widget', () => {
  test.use({ viewport: { width: 400, height: 600 } });

  test('from another origin: height message, the iframe grows, dark theme, only the app\'s origin', async ({ page }, info) => {
    const host = await hostPage(widget(`${SCENARIO}&show=model,ctx,seqs,gpu&theme=dark`));
    const foreign = [];
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith(APP) && !u.startsWith(host.url)) foreign.push(u);
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));
    try {
      await page.goto(host.url);
      const frame = frameOf(page);
      await expect(frame.getByTestId('verdict')).toContainText('RTX 4090');
      await expect.poll(() => page.evaluate(() => window.heights.length)).toBeGreaterThan(0);
      const posted = await page.evaluate(() => window.heights[window.heights.length - 1]);
      expect(posted).toBeGreaterThan(420); // taller than the loader's initial 420 px
      const iframe = page.locator('iframe[data-vramfit-frame]');
      await expect.poll(async () => (await iframe.boundingBox()).height).toBe(posted);
      // The whole widget is visible inside the iframe: no inner scroll bar.
      const inner = await frame.locator('html').evaluate((el) => [el.scrollHeight, window.innerHeight]);
      expect(inner[0]).toBeLessThanOrEqual(inner[1]);

      // Dark theme, whatever the system says.
      const bg = await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg).toBe('rgb(13, 17, 23)');
      // Only the inputs named in show=, the answer before them.
      for (const id of ['model', 'ctx', 'seqs', 'gpu']) await expect(frame.locator(`#${id}`)).toBeVisible();
      for (const id of ['weights', 'kv', 'headroom', 'count']) await expect(frame.locator(`#${id}`)).toHaveCount(0);
      const order = await frame.locator('.embed').evaluate((el) =>
        [...el.children].map((c) => c.className));
      expect(order[0]).toContain('answer');
      // The link to the full calculator carries the scenario and opens a new tab.
      const link = frame.getByTestId('open-full');
      await expect(link).toHaveAttribute('target', '_blank');
      expect(await link.evaluate((a) => a.href)).toBe(`${APP}?model=llama-3.1-8b-instruct&weights=bf16&ctx=8192&seqs=4&gpu=rtx-4090&headroom=10&lang=en`);
      await shoot(page, info.outputPath('embed-dark-400.png'));

      // Editing an input re-estimates, and the parent can ask for the state.
      await frame.locator('#ctx').fill('131072');
      await expect(frame.getByTestId('verdict')).not.toContainText('Fits on');
      await page.evaluate(() => document.querySelector('iframe').contentWindow.postMessage({ type: 'vramfit:get' }, '*'));
      await expect.poll(() => page.evaluate(() => window.states.length)).toBe(1);
      const state = await page.evaluate(() => window.states[0]);
      expect(state.scenario.workload.inference.context_tokens).toBe(131072);
      expect(state.scenario.model).toEqual({ catalog: 'llama-3.1-8b-instruct' });
      expect(state.estimate.plan.card.gpu).toBe('rtx-4090');
      expect(state.estimate.plan.verdict).toBe('does_not_fit');
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      host.close();
    }
  });

  test('light theme against a dark system, and a read-only card without show=', async ({ page }, info) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const host = await hostPage(widget(`${SCENARIO}&theme=light`));
    try {
      await page.goto(host.url);
      const frame = frameOf(page);
      await expect(frame.getByTestId('verdict')).toContainText('Fits on 1 × NVIDIA GeForce RTX 4090');
      const bg = await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg).toBe('rgb(251, 251, 253)');
      await expect(frame.getByTestId('embed-inputs')).toHaveCount(0);
      await expect(frame.getByTestId('recommendation')).toBeVisible();
      await expect.poll(() => page.evaluate(() => window.heights.length)).toBeGreaterThan(0);
      const posted = await page.evaluate(() => window.heights[window.heights.length - 1]);
      await expect.poll(async () => (await page.locator('iframe').boundingBox()).height).toBe(posted);
      await shoot(page, info.outputPath('embed-light-400.png'));
    } finally {
      host.close();
    }
  });

  test('lang= translates the widget; at 320 px nothing overflows sideways', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 600 });
    const host = await hostPage(widget(SCENARIO.replace('lang=en', 'lang=de') + '&show=ctx,gpu'));
    try {
      await page.goto(host.url);
      const frame = frameOf(page);
      await expect(frame.getByTestId('open-full')).toContainText('Im vollständigen Rechner öffnen');
      await expect(frame.locator('html')).toHaveAttribute('lang', 'de');
      const [scroll, client] = await frame.locator('html').evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scroll).toBeLessThanOrEqual(client);
    } finally {
      host.close();
    }
  });
});

test('the full app\'s Embed button shows the snippet for the current scenario', async ({ page, context }) => {
  await page.goto(`./?${SCENARIO}`);
  await expect(page.getByTestId('verdict')).toBeVisible();
  await page.getByTestId('ctx').fill('16384');
  await page.getByTestId('embed').click();
  const snippet = page.getByTestId('embed-snippet');
  await expect(snippet).toHaveValue(/ctx=16384/);
  const code = await snippet.inputValue();
  expect(code).toContain('<div data-vramfit="model=llama-3.1-8b-instruct&amp;weights=bf16&amp;ctx=16384&amp;seqs=4&amp;gpu=rtx-4090&amp;headroom=10&amp;lang=en&amp;show=model,ctx,seqs,gpu"></div>');
  expect(code).toContain(`<script src="${APP}embed.js" async></script>`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-snippet').click();
  await expect(page.getByTestId('copy-snippet')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  // The snippet works as it is, pasted into another page.
  const host = await hostPage(code, { loader: false });
  try {
    await page.goto(host.url);
    await expect(frameOf(page).locator('#ctx')).toHaveValue('16384');
    await expect(frameOf(page).getByTestId('verdict')).toContainText('RTX 4090');
  } finally {
    host.close();
  }
});

test('the embed example page (docs/embed-example.html, copied into dist/) shows both widgets', async ({ page }, info) => {
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto('./embed-example.html');
  const frames = page.frameLocator('iframe[data-vramfit-frame]');
  await expect(frames.nth(0).getByTestId('verdict')).toContainText('RTX 4090');
  await expect(frames.nth(1).getByTestId('model-summary')).toContainText('Qwen2.5 72B');
  await expect(frames.nth(1).getByTestId('embed-inputs')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('embed-example.png'), fullPage: true });
});

test('a widget without lang= opens in the browser language, its texts fetched before it is built', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto(`${APP}?embed=1&model=llama-3.1-8b-instruct&ctx=8192&seqs=4&gpu=rtx-4090`);
  await expect(page.getByTestId('verdict')).toContainText('Passt auf 1 × NVIDIA GeForce RTX 4090');
  await expect(page.getByTestId('verdict')).toContainText(',');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await context.close();
});
