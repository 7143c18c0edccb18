// Playwright starts Chromium with a fresh profile in a temporary folder of its own (it refuses
// --user-data-dir for launch()) and removes it on close.
// Drives Debian's headless Chromium over the pages `pith serve` answers, and writes what it saw
// as JSON for tests/pages.rs to check: the page a search lands on, the text each copy button
// copies, the answer to each upload, every request the browser made, axe-core's serious and
// critical violations, page sizes and widths, and a screenshot of each page in light and dark
// at 360 and 1280 px.
//
// Usage: node run.mjs PLAN.json OUT.json
// PLAN: { chromium, base, small_base, screenshots, search: [{query}], uploads: [{name, path, small}],
//         json_uploads: [{name, path}] }
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const [planPath, outPath] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, 'utf8'));
const out = { search: [], snippets: [], uploads: [], json_uploads: [], requests: [], axe: [], pages: [], cookies: [], set_cookie: [], focus: null,
  first_screen: [], folded: null, drop: null, drop_keyboard: null };

const browser = await chromium.launch({
  executablePath: plan.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-default-apps', '--disable-extensions'],
});
mkdirSync(plan.screenshots, { recursive: true });

async function newContext(scheme, width) {
  const ctx = await browser.newContext({ colorScheme: scheme, viewport: { width, height: 800 } });
  ctx.on('request', (r) => out.requests.push(r.url()));
  ctx.on('response', async (r) => {
    const c = await r.headerValue('set-cookie');
    if (c) { out.set_cookie.push(r.url()); }
  });
  return ctx;
}

// Every check a page gets: axe-core, size, width, and screenshots in both schemes and widths.
async function survey(name, open) {
  for (const scheme of ['light', 'dark']) {
    for (const width of [360, 1280]) {
      const ctx = await newContext(scheme, width);
      const page = await ctx.newPage();
      const resp = await open(page);
      await page.waitForLoadState('load');
      const file = join(plan.screenshots, `${name}-${scheme}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const dims = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        bytes: new TextEncoder().encode(document.documentElement.outerHTML).length,
      }));
      const body = resp ? await resp.body() : Buffer.alloc(0);
      out.pages.push({ name, scheme, width, status: resp ? resp.status() : 0, screenshot: file,
        html_bytes: body.length, scroll_width: dims.scroll, client_width: dims.client,
        csp: resp ? await resp.headerValue('content-security-policy') : null });
      if (width === 1280) {
        // Through the DevTools protocol, which the page's policy does not govern (an inline
        // script tag would be refused by it, as it should be).
        await page.evaluate(axeSource);
        const result = await page.evaluate(async () =>
          // eslint-disable-next-line no-undef
          axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }));
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') {
            out.axe.push({ page: name, scheme, id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) });
          }
        }
      }
      out.cookies.push(...(await ctx.cookies()));
      await ctx.close();
    }
  }
}

async function upload(page, base, path) {
  await page.goto(`${base}/verify`);
  await page.setInputFiles('#pdf', path);
  const [resp] = await Promise.all([
    page.waitForNavigation(),
    page.click('input[type=submit]'),
  ]);
  return resp;
}

// 1. Search lands on the record page.
{
  const ctx = await newContext('light', 1280);
  const page = await ctx.newPage();
  for (const s of plan.search) {
    await page.goto(`${plan.base}/`);
    await page.fill('#q', s.query);
    const [resp] = await Promise.all([page.waitForNavigation(), page.press('#q', 'Enter')]);
    out.search.push({ query: s.query, url: page.url(), status: resp.status(),
      number: await page.locator('#number').textContent().catch(() => null),
      h1: await page.locator('h1').first().textContent() });
  }
  // Keyboard: the first Tab reaches the skip link, and focus is drawn.
  await page.goto(`${plan.base}/`);
  await page.keyboard.press('Tab');
  out.focus = await page.evaluate(() => {
    const e = document.activeElement;
    const s = getComputedStyle(e);
    return { tag: e.tagName, text: e.textContent, outline: s.outlineStyle, visible: e.getBoundingClientRect().left >= 0 };
  });
  await ctx.close();
}

// 2. Every copy button copies its snippet.
{
  const ctx = await newContext('light', 1280);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: plan.base });
  const page = await ctx.newPage();
  await page.goto(plan.record_url);
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const blocks = await page.locator('pre[data-copy]').count();
  for (let i = 0; i < blocks; i++) {
    const pre = page.locator('pre[data-copy]').nth(i);
    const label = await pre.getAttribute('data-copy');
    await page.getByRole('button', { name: `Copy ${label}`, exact: true }).click();
    await page.waitForFunction((l) => document.getElementById('copy-status').textContent === `Copied ${l}`, label);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    out.snippets.push({ label, copied });
    await page.evaluate(() => { document.getElementById('copy-status').textContent = ''; });
  }
  await ctx.close();
}

// 3. Uploads through the form, and each answer page surveyed.
for (const u of plan.uploads) {
  const base = u.small ? plan.small_base : plan.base;
  const ctx = await newContext('light', 1280);
  const page = await ctx.newPage();
  const resp = await upload(page, base, u.path);
  out.uploads.push({ name: u.name, status: resp.status(), h1: await page.locator('h1').textContent(),
    verdict: await page.locator('.verdict').textContent().catch(() => null),
    text: await page.locator('main').innerText() });
  await ctx.close();
  await survey(`verify-${u.name}`, (p) => upload(p, base, u.path));
}

// 4. The same files as a script sends them, for JSON.
for (const u of plan.json_uploads) {
  const r = await fetch(`${plan.base}/verify?file=${encodeURIComponent(u.name)}`, {
    method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/pdf' },
    body: readFileSync(u.path),
  });
  out.json_uploads.push({ name: u.name, status: r.status, body: await r.text() });
}

// 6. The record page's first screen (1280 x 800), in both schemes: where the number, title,
// authors, status, LaTeX line and badge are, what is folded, and how tall the page is.
for (const scheme of ['light', 'dark']) {
  const ctx = await newContext(scheme, 1280);
  const page = await ctx.newPage();
  await page.goto(plan.record_url);
  await page.waitForLoadState('load');
  const file = join(plan.screenshots, `record-first-screen-${scheme}-1280.png`);
  await page.screenshot({ path: file });
  const seen = await page.evaluate(() => {
    const place = (sel) => {
      const e = document.querySelector(sel);
      if (!e) { return null; }
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, visible: e.checkVisibility() && r.height > 0 };
    };
    const shown = [...document.querySelectorAll('pre[data-copy]')]
      .filter((p) => p.checkVisibility()).map((p) => p.getAttribute('data-copy'));
    const snippets = [...document.querySelectorAll('pre[data-copy]')].filter((p) =>
      / (flat|flat square|with the whole number|with a qr code of the record page)$/.test(p.getAttribute('data-copy')));
    return {
      viewport: window.innerHeight,
      height: document.documentElement.scrollHeight,
      places: {
        number: place('#number'), title: place('h1'), authors: place('.authors'),
        status: place('#status'), latex: place('pre[data-copy="the LaTeX lines"]'),
        badge: place('.badge-line img'),
      },
      shown,
      // Each format's snippet in a <details> of its own, closed when the page opens.
      snippets: snippets.length,
      snippets_in_own_details: snippets.filter((p) => {
        const d = p.closest('details');
        return d && !d.open && d.querySelectorAll('pre[data-copy]').length === 1;
      }).length,
      open_details: document.querySelectorAll('details[open]').length,
    };
  });
  out.first_screen.push({ scheme, screenshot: file, ...seen });
  if (scheme === 'light') {
    // Opening every fold shows every snippet; the page stays readable without them open.
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    out.folded = await page.evaluate(() => ({
      shown: [...document.querySelectorAll('pre[data-copy]')].filter((p) => p.checkVisibility()).length,
      all: document.querySelectorAll('pre[data-copy]').length,
      height_open: document.documentElement.scrollHeight,
    }));
    await page.screenshot({ path: join(plan.screenshots, 'record-unfolded-light-1280.png'), fullPage: true });
  }
  await ctx.close();
}

// 7. The check page's drop zone: a PDF dragged onto it is checked, and the field in it is
// reached and opened by keyboard.
{
  const ctx = await newContext('light', 1280);
  const page = await ctx.newPage();
  await page.goto(`${plan.base}/verify`);
  const bytes = readFileSync(plan.drop_file).toString('base64');
  const dt = await page.evaluateHandle((b64) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const t = new DataTransfer();
    t.items.add(new File([bin], 'matched.pdf', { type: 'application/pdf' }));
    return t;
  }, bytes);
  await page.dispatchEvent('.drop', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('.drop', 'dragover', { dataTransfer: dt });
  const over = await page.evaluate(() => document.querySelector('.drop').classList.contains('over'));
  await page.screenshot({ path: join(plan.screenshots, 'verify-drag-over-light-1280.png') });
  const [resp] = await Promise.all([
    page.waitForNavigation(),
    page.dispatchEvent('.drop', 'drop', { dataTransfer: dt }),
  ]);
  out.drop = { over, status: resp.status(), url: page.url(),
    verdict: await page.locator('.verdict').textContent().catch(() => null) };
  await page.screenshot({ path: join(plan.screenshots, 'verify-dropped-light-1280.png'), fullPage: true });

  // By keyboard: Tab from the page's start until the file field has focus, then Space opens
  // the file chooser, and the chosen file is checked on Enter at the button.
  await page.goto(`${plan.base}/verify`);
  let tabs = 0;
  let onField = false;
  while (tabs < 20 && !onField) {
    await page.keyboard.press('Tab');
    tabs += 1;
    onField = await page.evaluate(() => document.activeElement && document.activeElement.id === 'pdf');
  }
  const ring = await page.evaluate(() => getComputedStyle(document.querySelector('.drop')).outlineStyle);
  let chooser = null;
  if (onField) {
    [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 20000 }).catch(() => null),
      page.keyboard.press('Space')]);
  }
  let verdict = null;
  if (chooser) {
    await chooser.setFiles(plan.drop_file);
    await page.keyboard.press('Tab');
    const [r2] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    verdict = { status: r2.status(), text: await page.locator('.verdict').textContent().catch(() => null) };
  }
  out.drop_keyboard = { tabs, on_field: onField, ring, chooser: chooser !== null, verdict };
  await ctx.close();
}

// 5. Every other page surveyed.
await survey('home', (p) => p.goto(`${plan.base}/`));
await survey('record', (p) => p.goto(plan.record_url));
await survey('verify', (p) => p.goto(`${plan.base}/verify`));
await survey('not-found', (p) => p.goto(`${plan.base}/?q=${encodeURIComponent(plan.missing_query)}`));

await browser.close();
writeFileSync(outPath, JSON.stringify(out, null, 1));
