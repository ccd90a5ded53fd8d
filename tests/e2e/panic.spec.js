// End-to-end: a wasm trap shows the panic panel in the page's language. Release builds abort at
// once on a panic (`-C panic=immediate-abort`, scripts/env.sh), so no Rust hook runs: the page's
// www/panic.js unhides the panel from the WebAssembly.RuntimeError. A real trap is raised here by a
// six-byte function whose body is `unreachable`, thrown out of a timer like a trapped handler.
const { test, expect } = require('@playwright/test');

test('a wasm trap shows the panic panel in the page language', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('./?lang=pl');
  await expect(page.locator('label[for=weights]')).toHaveText('Wagi');
  await expect(page.locator('#panic')).toBeHidden();
  // Not a trap: an ordinary error leaves the panel hidden.
  await page.evaluate(() => setTimeout(() => { throw new Error('not a trap'); }));
  await expect.poll(() => errors.length).toBe(1);
  await expect(page.locator('#panic')).toBeHidden();
  await page.evaluate(() => {
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0,
      7, 5, 1, 1, 102, 0, 0, 10, 5, 1, 3, 0, 0, 11]);
    const f = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f;
    setTimeout(() => f());
  });
  await expect(page.locator('#panic')).toBeVisible();
  await expect(page.locator('#panic-title')).toHaveText(/^W vramfit coś poszło nie tak/);
  await expect(page.locator('#panic-detail')).toContainText('unreachable');
  expect(errors.length).toBe(2);
});
