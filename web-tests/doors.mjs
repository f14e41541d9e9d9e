// The reporter's path through the money (issue 47), against a live Form 1
// service: the search box → the vendor → its payments table → the CSV →
// a contract → its procurement matter → a notice with its payments, at
// 390 and 1440 px. Kept apart from run.mjs (browser_test.go runs both):
//   BASE=http://127.0.0.1:8080 SHOTS=./screenshots node web-tests/doors.mjs
import { mkdirSync } from "node:fs";
import assert from "node:assert/strict";
import { BASE, SHOTS, WIDTHS, LANGS, launch, journeyPage, englishOnly, toSpanish, assertSpanish, timings } from "./journey.mjs";

// a vendor of the bundled sample whose registrations share a PIN with
// City Record notices, so the path reaches a notice with joined records
const VENDOR = process.env.VENDOR || "Queens Community House";
mkdirSync(SHOTS, { recursive: true });

const browser = await launch();

let failed = 0;
let english = null;
const steps = [];
for (const lang of LANGS) for (const width of WIDTHS) {
  const { ctx, p, errors } = await journeyPage(browser, width);
  const shot = name => p.screenshot({ path: `${SHOTS}/doors-${name}-${lang}-${width}.png`, fullPage: true });
  const row = { journey: "reporter", lang, width };
  let t0 = Date.now();
  const step = name => { row[`${name} ms`] = Date.now() - t0; t0 = Date.now(); };
  const spanish = async where => { if (lang === "es") await assertSpanish(p, english, where); };
  try {
    if (!english) english = await englishOnly(p);
    // 1. the search box of every page: the vendor comes up beside the notices
    await p.goto(BASE + "/about");
    if (lang === "es") await toSpanish(p, "main h1");
    await spanish("about");
    t0 = Date.now();
    await p.fill("#site-q", VENDOR);
    await Promise.all([p.waitForURL(/#search\?q=/), p.press("#site-q", "Enter")]);
    await p.waitForSelector("[data-beyond]", { timeout: 15000 });
    step("search");
    await spanish("search");
    const vendorLink = p.locator('[data-beyond] li[data-kind="vendor"] a').first();
    assert.ok(await vendorLink.count() > 0, "the search offers the vendor");
    await shot("search");
    await Promise.all([p.waitForURL(/\/vendors\//), vendorLink.click()]);

    // 2. the vendor: its rows in a table, every row and the CSV linked
    await p.waitForSelector('table[data-table="entity-rows"]');
    step("vendor");
    await spanish("vendor");
    const shown = await p.locator('table[data-table="entity-rows"] tbody tr').count();
    assert.ok(shown > 0, "the vendor page lists its rows");
    const csvHref = await p.getAttribute('a[data-download="csv"]', "href");
    await shot("vendor");

    // 3. every row, and the CSV: the same rows, its scope first
    await Promise.all([p.waitForURL(/\/rows\?/), p.click('a[data-rows="all"]')]);
    step("rows");
    await spanish("rows");
    const total = Number(await p.getAttribute("[data-rows-total]", "data-rows-total"));
    assert.ok(total >= shown, `the row table holds ${total} rows`);
    const csv = await (await p.request.get(new URL(csvHref, BASE).toString())).text();
    const lines = csv.trim().split("\n");
    const data = lines.filter(l => !l.startsWith("# "));
    assert.ok(lines[0].startsWith("# Recordwatch rows"), "the CSV says what it is");
    assert.equal(data.length - 1, total, "the CSV holds every row");
    assert.ok(lines[lines.length - 1].startsWith(`# end: ${total} rows`), "the CSV says where it ends");
    await shot("rows");

    // 4. a contract its rows name (one whose procurement matter holds a
    // notice, read from the twins), then its matter
    const hrefs = await p.$$eval('table[data-table="rows"] td a[href*="/contracts/"]', as => as.map(a => a.getAttribute("href")));
    let pick = "";
    for (const href of hrefs) {
      const twinURL = new URL(href, BASE);
      twinURL.searchParams.delete("lang"); // the JSON twin speaks no language
      twinURL.pathname = twinURL.pathname.replace("/contracts/", "/api/contracts/");
      const c = await (await p.request.get(twinURL.toString())).json();
      if (!c.matter) continue;
      const m = await (await p.request.get(c.matter)).json();
      if (m.counts && m.counts.notices > 0) { pick = href; break; }
    }
    assert.ok(pick, "a linked contract's matter holds a notice");
    await Promise.all([p.waitForURL(/\/contracts\//), p.click(`table[data-table="rows"] td a[href="${pick}"]`)]);
    await p.waitForSelector("h1");
    t0 = Date.now();
    await spanish("contract");
    await shot("contract");
    const matter = p.locator('a[href*="/matters/"], a[href*="#matter/"]').first();
    assert.ok(await matter.count() > 0, "the contract links its procurement matter");
    await Promise.all([p.waitForURL(/matter/), matter.click()]);
    await p.waitForSelector("[data-step]", { timeout: 15000 });
    step("matter");
    await spanish("matter");
    await shot("matter");

    // 5. a notice of the matter, with the records its PIN joins
    const notice = p.locator('[data-step] a[href*="notice/"]').first();
    assert.ok(await notice.count() > 0, "the matter lists a notice");
    await Promise.all([p.waitForURL(/#notice\//), notice.click()]);
    await p.waitForSelector("[data-notice-payments]", { timeout: 15000 });
    step("notice");
    await spanish("notice");
    const joined = Number(await p.getAttribute("[data-notice-payments]", "data-notice-payments"));
    const id = decodeURIComponent(p.url().split("#notice/")[1]);
    const twin = await (await p.request.get(`${BASE}/api/notices/${encodeURIComponent(id)}`)).json();
    assert.equal(joined, (twin.payments.linked || []).length, "the notice shows every joined row of its twin");
    await shot("notice");
    assert.deepEqual(errors, [], "console errors");
    steps.push(row);
    console.log(`ok   the reporter's path at ${width} px (${lang}) (${total} rows, ${joined} joined to the notice)`);
  } catch (err) {
    failed++;
    console.log(`FAIL the reporter's path at ${width} px (${lang})\n     ${String(err && err.stack || err).split("\n").slice(0, 6).join("\n     ")}`);
    await shot("failed").catch(() => {});
  }
  await ctx.close();
}
console.log("\nthe reporter's path, step times (ms, as the machine serves them):");
console.table(steps);
console.log("the path's first page, 390 px (first screen as served; throttled phone: CPU ×4, Fast 3G):", JSON.stringify(await timings(browser, BASE + "/about", "main h1")));
await browser.close();
process.exit(failed ? 1 : 0);
