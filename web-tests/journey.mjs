// What every browser journey shares (doors.mjs, watch.mjs; run.mjs launches
// the same way): the headless Chromium launch, and one page per width
// (390 × 844 phone, 1440 × 900 desktop) that collects script errors.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";

export const BASE = process.env.BASE || "http://127.0.0.1:8080";
export const SHOTS = process.env.SHOTS || "web-tests/screenshots";
export const WIDTHS = [1440, 390];

// launch starts the headless Chromium every suite uses.
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

// journeyPage opens a page of the width, with the script errors it meets
// collected in errors.
export async function journeyPage(browser, width) {
  const ctx = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } });
  const p = await ctx.newPage();
  const errors = [];
  p.on("pageerror", e => errors.push(e.message));
  p.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  return { ctx, p, errors };
}

// The languages a journey runs in: English, then Spanish (the switch
// clicked on the first page, every page after it checked).
export const LANGS = (process.env.LANGS || "en,es").split(",");

// siteWords are the site's word table in a language (/static/words-<lang>.js).
async function siteWords(p, lang) {
  const text = await (await p.request.get(`${BASE}/static/words-${lang}.js`)).text();
  return JSON.parse(text.replace(/^[^{]*/, "").replace(/;\s*$/, ""));
}

// englishOnly are the site's English words (and labels) that read
// differently in Spanish: none may stand alone on a Spanish page.
export async function englishOnly(p) {
  const en = await siteWords(p, "en"), es = await siteWords(p, "es");
  const out = new Set();
  for (const [k, v] of Object.entries(en.words || {})) if (v.length >= 6 && v !== (es.words || {})[k] && !/%[sdv]/.test(v)) out.add(v.trim());
  for (const [set, vals] of Object.entries(en.labels || {})) {
    for (const [k, v] of Object.entries(vals)) if (v.length >= 6 && v !== ((es.labels || {})[set] || {})[k]) out.add(v.trim());
  }
  return [...out];
}

// toSpanish clicks the page's language switch and waits for the Spanish page.
export async function toSpanish(p, ready) {
  await Promise.all([p.waitForURL(/[?&]lang=es/), p.click('.langs a[hreflang="es"]')]);
  if (ready) await p.waitForSelector(ready, { timeout: 15000 });
  await p.waitForLoadState("networkidle");
}

// assertSpanish checks the page shown is Spanish: <html lang=es>, and no
// element whose own text is one of the site's English words (record text,
// agencies' names as they are called, code and the switch back to English
// aside), no missing word ([[key]]).
export async function assertSpanish(p, english, where) {
  assert.equal(await p.getAttribute("html", "lang"), "es", `${where}: <html lang> is not es`);
  const own = await p.$$eval("body *", els => els.filter(e => e.checkVisibility() && !e.closest("[data-verbatim], code, script, style, [lang=en], svg, a[href*='/agencies/'], #w-agency")).map(e =>
    [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join("").replace(/\s+/g, " ").trim()).filter(Boolean));
  const found = [];
  for (const t of own) {
    if (t.includes("[[")) found.push(`a missing word: ${t.slice(0, 60)}`);
    if (english.includes(t.replace(/[:.·]$/, "").trim()) || english.includes(t)) found.push(`English "${t.slice(0, 60)}"`);
  }
  assert.deepEqual(found, [], `${where} (${p.url()}): English chrome on a Spanish page`);
}

// timings loads url at 390 px twice — as the machine serves it, and on the
// throttled phone profile the suite uses (CPU ×4, "Fast 3G") — and returns
// the first contentful paint and the moment ready shows, in ms (printed by
// each journey, never asserted).
export async function timings(browser, url, ready) {
  const out = {};
  for (const throttled of [false, true]) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const p = await ctx.newPage();
    if (throttled) {
      const cdp = await ctx.newCDPSession(p);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 562.5 / 3.75, downloadThroughput: 1.6 * 1024 * 1024 / 8 * 0.9, uploadThroughput: 750 * 1024 / 8 * 0.9 });
    }
    await p.goto(url, { waitUntil: "commit" });
    await p.waitForSelector(ready, { timeout: 30000 });
    const readyAt = await p.evaluate(() => performance.now());
    const fcp = await p.evaluate(() => new Promise(res => {
      const e = performance.getEntriesByName("first-contentful-paint")[0];
      if (e) return res(e.startTime);
      new PerformanceObserver(l => res(l.getEntries()[0].startTime)).observe({ type: "paint", buffered: true });
    }));
    const key = throttled ? "throttled phone" : "first screen";
    out[`${key} paint ms`] = Math.round(fcp);
    out[`${key} ready ms`] = Math.round(readyAt);
    await ctx.close();
  }
  return out;
}
