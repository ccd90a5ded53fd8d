// Screenshots of the built app for review: desktop and phone, light and dark.
// Usage: node screenshot.js OUT_DIR [QUERY]   (serves dist/ itself)
const fs = require('fs');
const path = require('path');
const { serveDist, launchChromium } = require('./dist-server');

const out = path.resolve(process.argv[2] || '.');
const query = process.argv[3] || '';

(async () => {
  const server = await serveDist();
  const url = server.url + query;
  const browser = await launchChromium();
  fs.mkdirSync(out, { recursive: true });
  const shots = [
    { name: 'desktop', viewport: { width: 1440, height: 1000 }, colorScheme: 'light' },
    { name: 'desktop-dark', viewport: { width: 1440, height: 1000 }, colorScheme: 'dark' },
    { name: 'phone', viewport: { width: 390, height: 844 }, colorScheme: 'light', fullPage: true },
  ];
  for (const s of shots) {
    const page = await browser.newPage({ viewport: s.viewport, colorScheme: s.colorScheme });
    await page.goto(url);
    await page.waitForSelector('[data-testid=verdict]');
    // What follows the verdict once the rest of the code is in (platform/later.rs).
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(out, `${s.name}.png`), fullPage: !!s.fullPage });
    await page.close();
  }
  await browser.close();
  server.close();
})().catch((e) => { console.error(e); process.exit(1); });
