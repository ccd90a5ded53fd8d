// Screenshots of one view for a review by eye: desktop 1366 light, phone 390 dark (full page),
// and the text of the answer. Usage: node look.js OUT_PREFIX [QUERY]
const fs = require('fs');
const { serveDist, launchChromium } = require('./dist-server');

(async () => {
  const [prefix, query = ''] = process.argv.slice(2);
  const server = await serveDist();
  const browser = await launchChromium();
  const shots = [
    { name: 'desktop', viewport: { width: 1366, height: 900 }, colorScheme: 'light', fullPage: false },
    { name: 'phone', viewport: { width: 390, height: 844 }, colorScheme: 'dark', fullPage: true },
  ];
  for (const s of shots) {
    const page = await browser.newPage({ viewport: s.viewport, colorScheme: s.colorScheme });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url + query);
    await page.waitForSelector('[data-testid=verdict]');
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${prefix}-${s.name}.png`, fullPage: s.fullPage });
    if (s.name === 'desktop') {
      const text = await page.locator('section.answer').innerText();
      fs.writeFileSync(`${prefix}-answer.txt`, text);
    }
    if (errors.length) console.error('page errors:', errors);
    await page.close();
  }
  await browser.close();
  server.close();
})().catch((e) => { console.error(e); process.exit(1); });
