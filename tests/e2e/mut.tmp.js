const { serveDist, launchChromium } = require('./dist-server');
(async () => {
  const server = await serveDist({});
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForTimeout(300); await page.evaluate(() => window.__bytag = true);
  const r = await page.evaluate(async () => {
    const counts = {};
    const where = (n) => { if (n.nodeType===1 && window.__bytag) return n.tagName + "." + (n.getAttribute("class")||"").split(" ")[0] + "@" + (n.closest("[data-testid]")||{dataset:{}}).dataset.testid; let e = n.nodeType === 1 ? n : n.parentElement; const path=[]; while (e && path.length < 40) { if (e.dataset && e.dataset.testid) { path.push(e.dataset.testid); } e = e.parentElement; } return path.slice(-3).reverse().join('>') || 'root'; };
    const obs = new MutationObserver((ms) => { for (const m of ms) { const k = m.type + ' ' + where(m.target); counts[k] = (counts[k]||0) + (m.addedNodes.length + m.removedNodes.length || 1); } });
    obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const input = document.querySelector('[data-testid=ctx]');
    const before = document.querySelector('[data-testid=per-gpu-gib]').textContent;
    input.value = '16384';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    while (document.querySelector('[data-testid=per-gpu-gib]').textContent === before) await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    obs.disconnect();
    return counts;
  });
  console.log(r);
  await browser.close(); server.close();
})();
