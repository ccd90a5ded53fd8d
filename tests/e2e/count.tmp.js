const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  const r = await page.evaluate(() => {
    const out = {};
    const ans = document.querySelector('section.answer');
    for (const c of ans.children) out['answer>' + c.tagName + '.' + c.className + (c.dataset.testid||'')] = c.querySelectorAll('*').length + 1;
    const g = document.querySelector('.guidance');
    for (const c of g.children) out['guidance>' + c.tagName + '.' + c.className+ (c.dataset.testid||'')] = c.querySelectorAll('*').length + 1;
    const inp = document.querySelector('main.layout').children[0];
    out['inputs'] = inp.querySelectorAll('*').length;
    out.total = document.querySelectorAll('*').length;
    return out;
  });
  console.log(r);
  await browser.close(); server.close();
})();
