// Screenshots of the built app for review: desktop and phone, light and dark.
// Usage: node screenshot.js OUT_DIR [QUERY]   (serves dist/ itself)
const { chromium } = require('@playwright/test');
const http = require('http');
const fs = require('fs');
const path = require('path');

const dist = path.resolve(__dirname, '../../dist');
const out = path.resolve(process.argv[2] || '.');
const query = process.argv[3] || '';
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };
const server = http.createServer((req, res) => {
  const file = path.join(dist, decodeURIComponent(req.url.split('?')[0]).replace(/\/$/, '/index.html'));
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(data);
  });
});

(async () => {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/${query}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
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
    await page.screenshot({ path: path.join(out, `${s.name}.png`), fullPage: !!s.fullPage });
    await page.close();
  }
  await browser.close();
  server.close();
})().catch((e) => { console.error(e); process.exit(1); });
