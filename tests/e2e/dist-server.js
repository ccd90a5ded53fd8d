// Shared by the screenshot and benchmark drivers: serves dist/ on a free loopback port and launches
// Debian's Chromium with the flags this environment needs (no background networking).
const { chromium } = require('@playwright/test');
const http = require('http');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const dist = path.resolve(__dirname, '../../dist');
const types = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.json': 'application/json',
};

/**
 * Starts the server; resolves to `{ url, close, sent, reset }`. `roots` maps a URL prefix to a
 * folder (default: `/` → dist/). With `gzip: true` every response the browser accepts gzip for is
 * sent gzip -9 compressed, as a static host does; `sent()` lists `{ path, bytes }` of the bodies
 * sent since the last `reset()`. With `validators: true` each response carries an ETag, and a
 * request that names it gets 304 without a body (`bytes: 0`), as most static hosts answer a
 * revalidation; without, every request is a whole download.
 */
async function serveDist({ roots = { '/': dist }, gzip = false, validators = false } = {}) {
  let log = [];
  const cache = new Map();
  const prefixes = Object.keys(roots).sort((a, b) => b.length - a.length);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(req.url.split('?')[0]);
    const prefix = prefixes.find((p) => urlPath.startsWith(p));
    if (!prefix) { res.writeHead(404); res.end(); return; }
    const file = path.join(roots[prefix], urlPath.slice(prefix.length).replace(/(^|\/)$/, '$1index.html'));
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); log.push({ path: urlPath, bytes: 0 }); return; }
      const headers = { 'content-type': types[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-cache' };
      if (validators) {
        headers.etag = `"${require('crypto').createHash('sha1').update(data).digest('hex').slice(0, 16)}"`;
        if (req.headers['if-none-match'] === headers.etag) {
          res.writeHead(304, headers);
          res.end();
          log.push({ path: urlPath, bytes: 0, status: 304 });
          return;
        }
      }
      let body = data;
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        if (!cache.has(file)) cache.set(file, zlib.gzipSync(data, { level: 9 }));
        body = cache.get(file);
        headers['content-encoding'] = 'gzip';
      }
      headers['content-length'] = body.length;
      res.writeHead(200, headers);
      res.end(body);
      log.push({ path: urlPath, bytes: body.length });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => server.close(),
    sent: () => log.slice(),
    reset: () => { log = []; },
  };
}

/** Launches headless Chromium from /usr/bin (or $CHROMIUM). */
function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

module.exports = { serveDist, launchChromium };
