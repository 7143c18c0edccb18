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
const out = { search: [], snippets: [], uploads: [], json_uploads: [], requests: [], axe: [], pages: [], cookies: [], set_cookie: [], focus: null };

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

// 5. Every other page surveyed.
await survey('home', (p) => p.goto(`${plan.base}/`));
await survey('record', (p) => p.goto(plan.record_url));
await survey('verify', (p) => p.goto(`${plan.base}/verify`));
await survey('not-found', (p) => p.goto(`${plan.base}/?q=${encodeURIComponent(plan.missing_query)}`));

await browser.close();
writeFileSync(outPath, JSON.stringify(out, null, 1));
