// Counts the DOM writes one input causes in the answer: attribute writes, and nodes added or
// removed, per context change on the default page (median of five changes). Serves dist/ itself.
// Usage: node tests/e2e/dom-writes.js [DIST]   (prints one JSON line)
'use strict';
const path = require('path');
const { serveDist, launchChromium } = require('./dist-server');

const dist = path.resolve(process.argv[2] || path.join(__dirname, '../../dist'));

(async () => {
  const server = await serveDist({ roots: { '/': dist } });
  const url = `${server.url}?lang=en&gpu=h100-sxm-80gb`;
  const browser = await launchChromium();
  const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  await page.goto(url);
  await page.getByTestId('verdict').waitFor();
  await page.waitForTimeout(500);
  const rows = [];
  for (const ctx of ['16384', '65536', '8192', '32768', '4096']) {
    await page.evaluate(() => {
      window.__m = { attrs: 0, nodes: 0 };
      window.__obs = new MutationObserver((ms) => {
        for (const m of ms) {
          if (m.type === 'attributes') window.__m.attrs += 1;
          else window.__m.nodes += m.addedNodes.length + m.removedNodes.length;
        }
      });
      window.__obs.observe(document.querySelector('.answer'), { subtree: true, attributes: true, childList: true });
    });
    const before = await page.getByTestId('per-gpu-gib').textContent();
    await page.getByTestId('ctx').fill(ctx);
    await page.waitForFunction((b) => document.querySelector('[data-testid=per-gpu-gib]').textContent !== b, before);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    rows.push(await page.evaluate(() => { window.__obs.disconnect(); return window.__m; }));
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(JSON.stringify({ attribute_writes: median(rows.map((r) => r.attrs)), nodes_added_or_removed: median(rows.map((r) => r.nodes)), each: rows }));
  await browser.close();
  server.close();
})().catch((e) => { console.error(e); process.exit(1); });
