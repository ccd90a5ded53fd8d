const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  for (const width of [1366, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(server.url + '?lang=en');
    await page.waitForSelector('[data-testid=verdict]');
    const r = await page.evaluate(() => {
      const s = document.querySelector('[data-testid=gpu]');
      const st = getComputedStyle(s);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
      const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
      return { room, w: s.clientWidth, cut: [...s.options].map((o) => [o.text, Math.round(ctx.measureText(o.text).width)]).filter((t) => t[1] > room) };
    });
    console.log(width, JSON.stringify(r));
  }
  await browser.close(); server.close();
})();
