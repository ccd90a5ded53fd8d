const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(300);
  const r = await page.evaluate(async () => {
    const svg = document.querySelector('[data-testid=context-chart] svg');
    const fig = document.querySelector('[data-testid=context-chart]');
    const lim = document.querySelector('[data-testid=limits]');
    const firstLine = svg.firstElementChild; const html0 = svg.innerHTML;
    let n = 0; new MutationObserver((m) => { n += m.length; }).observe(svg, { childList: true });
    const input = document.querySelector('[data-testid=ctx]');
    const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
    input.value = '16384';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 50));
    return { sameSvg: svg === document.querySelector('[data-testid=context-chart] svg'), sameFig: fig === document.querySelector('[data-testid=context-chart]'), sameLim: lim === document.querySelector('[data-testid=limits]'), sameHtml: html0 === svg.innerHTML, a: html0.slice(-400), b: svg.innerHTML.slice(-400), d0: html0.length, sameLine: firstLine === document.querySelector('[data-testid=context-chart] svg').firstElementChild, n };
  });
  console.log(r);
  await browser.close(); server.close();
})();
