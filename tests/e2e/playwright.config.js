// Playwright drives Debian's Chromium (/usr/bin/chromium) against the built dist/, served by a
// local static server (port $E2E_PORT, default 4173). No browser download, no network beyond 127.0.0.1.
const { defineConfig } = require('@playwright/test');

const PORT = Number(process.env.E2E_PORT) || 4173;
module.exports = defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.js/,
  timeout: 30_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    // Served from a sub-path (/dist/) on purpose: the app must work from any sub-path.
    baseURL: `http://127.0.0.1:${PORT}/dist/`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `python3 -m http.server ${PORT} --bind 127.0.0.1 --directory ../..`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 20_000,
    stdout: 'ignore',
    stderr: 'ignore',
  },
});
