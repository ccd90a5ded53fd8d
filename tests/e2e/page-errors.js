// Page errors are collected and asserted after each test: a throw inside the 'pageerror'
// listener is lost once the test's last await has passed, so a late error went unseen.
// Usage: `require('./page-errors')(test, expect);` at the top of a spec.
module.exports = function watchPageErrors(test, expect) {
  let errors = [];
  test.beforeEach(async ({ page }) => {
    errors = [];
    page.on('pageerror', (e) => errors.push(e));
  });
  test.afterEach(() => {
    expect(errors, 'page errors').toEqual([]);
  });
};
