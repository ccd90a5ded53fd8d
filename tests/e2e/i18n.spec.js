// End-to-end: every language loads translated, formats numbers its way, shows translated warnings,
// keeps lang= in the URL and sets <html lang>.
const { test, expect } = require('@playwright/test');

const LANGS = {
  en: { weights: 'Weights', warn: 'The KV cache is larger than the weights', comma: false },
  it: { weights: 'Pesi', warn: 'La cache KV è più grande dei pesi', comma: true },
  pl: { weights: 'Wagi', warn: 'Cache KV jest większy niż wagi', comma: true },
  sl: { weights: 'Uteži', warn: 'Predpomnilnik KV je večji od uteži', comma: true },
  de: { weights: 'Gewichte', warn: 'Der KV-Cache ist größer als die Gewichte', comma: true },
  fr: { weights: 'Poids', warn: 'Le cache KV est plus volumineux que les poids', comma: true },
  es: { weights: 'Pesos', warn: 'La caché KV es mayor que los pesos', comma: true },
};

require('./page-errors')(test, expect);

for (const [lang, want] of Object.entries(LANGS)) {
  test(`the page in ${lang}: label, number format, warning`, async ({ page }) => {
    // 32k context × 8 sequences: the KV cache outgrows the weights, so its warning shows.
    await page.goto(`./?model=llama-3.1-8b-instruct&ctx=32768&seqs=8&lang=${lang}`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.locator('label[for=weights]')).toHaveText(want.weights);
    const gib = await page.getByTestId('per-gpu-gib').textContent();
    expect(gib).toMatch(want.comma ? /^\d+,\d\d$/ : /^\d+\.\d\d$/);
    await expect(page.getByTestId('warnings')).toContainText(want.warn);
    await expect.poll(() => page.url()).toContain(`lang=${lang}`);
  });
}

test('the language switch translates in place and keeps the inputs', async ({ page }) => {
  await page.goto('./?lang=en');
  await page.getByTestId('ctx').fill('12345');
  await page.getByTestId('lang').selectOption('pl');
  await expect(page.locator('label[for=weights]')).toHaveText('Wagi');
  await expect(page.getByTestId('ctx')).toHaveValue('12345');
  await expect.poll(() => page.url()).toContain('lang=pl');
  // Bad input gets its message in Polish too.
  await page.getByTestId('ctx').fill('abc');
  await expect(page.getByTestId('err-ctx')).not.toHaveText('');
  await expect(page.getByTestId('err-ctx')).not.toContainText('Enter');
});

// The custom workload's example job names its items in the page's language (the form is made
// before a language file arrives, so the names are placeholders that follow the language); what
// the user types is theirs and stays.
test('the custom example names its items in the page language and follows a switch', async ({ page }) => {
  await page.goto('./?gpu=l4&lang=pl');
  await expect(page.locator('label[for=weights]')).toHaveText('Wagi');
  await page.getByTestId('workload-custom').check();
  const names = page.locator('[data-testid=custom] .item-name');
  await expect(names).toHaveCount(3);
  await expect(names.nth(0)).toHaveAttribute('placeholder', 'scena / wagi');
  await expect(names.nth(1)).toHaveAttribute('placeholder', 'bufory klatek');
  await names.nth(2).fill('mój bufor');
  await page.getByTestId('lang').selectOption('en');
  await expect(names.nth(0)).toHaveAttribute('placeholder', 'scene / weights');
  await expect(names.nth(2)).toHaveValue('mój bufor');
  // The example's total: 12 + 4 × 0.5 + 1 GiB of items beside the CUDA context.
  await expect(page.getByTestId('row-persistentdata').locator('td').first()).toHaveText('12.00');
});

test('the browser language is followed when the link has no lang', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('label[for=weights]')).toHaveText('Gewichte');
  await context.close();
});

test('measure it: scripts for the scenario and pasted vLLM log lines beside the estimate', async ({ page }) => {
  await page.goto('./?model=llama-3.1-8b-instruct&gpu=h100-sxm-80gb&lang=en');
  await expect(page.getByTestId('script')).toContainText("MODEL = 'meta-llama/Llama-3.1-8B-Instruct'");
  await page.getByTestId('tab-1').click();
  await expect(page.getByTestId('script')).toContainText('vllm serve meta-llama/Llama-3.1-8B-Instruct');
  await page.getByTestId('pasted').fill('model weights take 14.99GiB; non_torch_memory takes 0.07GiB; PyTorch activation peak memory takes 1.26GiB; the rest of the memory reserved for KV Cache is 54.95GiB.\nGPU KV cache size: 450,192 tokens');
  await expect(page.getByTestId('compare')).toContainText('14.99');
  await expect(page.getByTestId('compare')).toContainText('450,192');
  await page.getByTestId('pasted').fill('nothing useful');
  await expect(page.getByTestId('paste-nothing')).toBeVisible();
  await expect(page.getByTestId('checklist')).toContainText('8,192 tokens');
  await expect(page.getByTestId('faq')).toBeVisible();
});

test('no select cuts its choice in Polish, Slovenian or German, on a desktop or a phone', async ({ page }) => {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const lang of ['pl', 'sl', 'de']) {
      await page.goto(`./?lang=${lang}&engine={"vllm":{}}`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      for (const workload of ['serve', 'train', 'image', 'video', 'custom']) {
        await page.getByTestId(`workload-${workload}`).check();
        const cut = await page.evaluate(() => {
          const ctx = document.createElement('canvas').getContext('2d');
          return [...document.querySelectorAll('select')].filter((s) => s.offsetParent !== null).flatMap((s) => {
            const st = getComputedStyle(s);
            ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
            const text = s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '';
            // The room left by the padding and the drop-down arrow (≈ 20 px).
            const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
            return ctx.measureText(text).width > room ? [`${s.id || s.dataset.testid}: ${text}`] : [];
          });
        });
        expect(cut, `${lang}, ${workload}, ${width} px`).toEqual([]);
      }
    }
  }
});

// 158 models: with "(31.58 B)" after every name, 24 closed pickers were cut on a desktop and 33 on
// a phone; the count now follows only names that state no size.
test('every catalog model fits the closed model picker, on a desktop and a phone', async ({ page }) => {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const lang of ['en', 'pl']) {
      await page.goto(`./?lang=${lang}`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.locator('#model')).toBeVisible();
      const cut = await page.evaluate(() => {
        const s = document.querySelector('#model');
        const st = getComputedStyle(s);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
        const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
        return [...s.options].map((o) => o.text).filter((t) => ctx.measureText(t).width > room);
      });
      expect(cut, `${lang}, ${width} px`).toEqual([]);
    }
  }
});

test('a decimal typed with thousands separators reads as the page language writes it', async ({ page }) => {
  // Found by a user audit: "1,024" in English and "1.024" in German were read as 1.024 GiB.
  await page.goto('./?lang=en&model=llama-3.1-8b-instruct&mem=24');
  await page.getByTestId('mem').fill('1,024');
  await expect(page.getByTestId('verdict')).toContainText('1,024');
  await expect(page.getByTestId('verdict')).not.toContainText('1.02 GiB');
  await page.goto('./?lang=de&model=llama-3.1-8b-instruct&mem=24');
  await page.getByTestId('mem').fill('1.024');
  await expect(page.getByTestId('verdict')).toContainText('1.024');
  await page.getByTestId('mem').fill('2,5');
  await expect(page.getByTestId('verdict')).toContainText('2,5');
});
