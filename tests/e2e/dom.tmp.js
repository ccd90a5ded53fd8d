const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({ roots: { '/': '/tmp/distprof' } });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  const r = await page.evaluate(() => {
    const all = [...document.querySelectorAll('body *')];
    const hidden = all.filter(e => e.offsetParent === null && e.tagName !== 'OPTION' && getComputedStyle(e).position !== 'fixed');
    const byTag = {}; all.forEach(e => byTag[e.tagName] = (byTag[e.tagName] || 0) + 1);
    const sections = [...document.querySelectorAll('main > *, main > * > *')].map(e => [e.tagName + '.' + e.className + '#' + (e.getAttribute('data-testid')||''), e.querySelectorAll('*').length]);
    return { total: all.length, hidden: hidden.length, hiddenSample: hidden.slice(0, 12).map(e => e.tagName + '.' + e.className), byTag, sections };
  });
  console.log(JSON.stringify(r, null, 0));
  await browser.close(); server.close();
})();
