// The resident's journey (issue 49), against a live Form 1 service: from
// the home page, only clicks (and typing into the site's own forms): the
// the land-use list, a search by the project's address, the project "50-20
// 108th Street Rezoning" (2024Q0113: the bundled Council meetings, real
// Legistar rows, name its application numbers, so it has real hearings),
// its hearings first, the Follow form, then the project's hearings
// calendar with those hearings in it; at 390 and 1440 px, in English
// and in Spanish (the language switch clicked on the home page, every page
// after it checked for English chrome). First-screen and throttled-phone
// timings are printed, not asserted. Kept apart from run.mjs
// (browser_test.go runs it):
//   BASE=http://127.0.0.1:8080 SHOTS=./screenshots node web-tests/resident.mjs
import { mkdirSync, readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { BASE, SHOTS, WIDTHS, LANGS, launch, journeyPage, englishOnly, toSpanish, assertSpanish, timings } from "./journey.mjs";

const PROJECT = process.env.PROJECT || "2024Q0113";
const NAME = process.env.NAME || "50-20 108th Street Rezoning";
const ADDRESS = process.env.ADDRESS || "50-20 108th Street";
mkdirSync(SHOTS, { recursive: true });

const browser = await launch();
let failed = 0;
let english = null;
const steps = [];

for (const lang of LANGS) {
  for (const width of WIDTHS) {
    const { ctx, p, errors } = await journeyPage(browser, width);
    const shot = name => p.screenshot({ path: `${SHOTS}/resident-${name}-${lang}-${width}.png`, fullPage: true });
    const row = { journey: "resident", lang, width };
    const timed = async (name, fn) => { const t0 = Date.now(); await fn(); row[`${name} ms`] = Date.now() - t0; };
    const spanish = async where => { if (lang === "es") await assertSpanish(p, english, where); };
    try {
      if (!english) english = await englishOnly(p);
      // 1. the home page; in Spanish, the language switch
      await timed("home", async () => { await p.goto(BASE + "/"); await p.waitForSelector("main h1"); await p.waitForLoadState("networkidle"); });
      if (lang === "es") await toSpanish(p, "main h1");
      await spanish("home");

      // 2. the land-use projects, from the site's navigation
      await timed("land list", () => Promise.all([p.waitForURL(/\/land-projects(\?|$)/), p.click('header nav a[href^="/land-projects"]')]));
      await p.waitForSelector("main h1");
      await spanish("land list");

      // 3. the project found by its address
      await p.fill('main form input[name="word"]', ADDRESS);
      await timed("search", () => Promise.all([p.waitForURL(/word=/), p.click('main form[action="/land-projects"] button[type="submit"]')]));
      const hit = p.locator(`main a[href*="/land-projects/${PROJECT}"]`).first();
      assert.ok(await hit.count() > 0, `the search for "${ADDRESS}" finds ${PROJECT}`);
      await spanish("land search");
      await shot("search");

      // 4. the project: its hearings come first (before the decision path),
      // the next one first when one is held
      await timed("project", () => Promise.all([p.waitForURL(new RegExp(`/land-projects/${PROJECT}`)), hit.click()]));
      await p.waitForSelector("#hearings");
      assert.ok((await p.textContent("main h1")).includes(NAME), `the project page is ${NAME}`);
      const order = await p.$$eval("main h2", hs => hs.map(h => h.id || h.textContent.trim()));
      const hearingsAt = order.indexOf("hearings-h");
      assert.ok(hearingsAt >= 0 && hearingsAt <= 1, `the hearings are among the first sections: ${order.join(" | ")}`);
      const hearings = await p.$$eval("#hearings li[data-hearing]", ls => ls.map(l => l.dataset.hearing));
      assert.ok(hearings.length > 0, `the project's real hearings are listed (${await p.textContent("#hearings")})`);
      assert.ok(hearings[0] === "next" || !hearings.includes("next"), `the next hearing is listed first: ${hearings}`);
      row.hearings = hearings.join(",");
      // on a phone the hearings' heading is on the first screen
      const top = await p.$eval("#hearings h2", e => Math.round(e.getBoundingClientRect().bottom + scrollY));
      row["hearings px"] = top;
      assert.ok(width > 500 || top <= 844, `the hearings' heading ends at ${top} px on a 844 px screen`);
      await spanish("project");
      await shot("project");

      // 5. follow it (the Follow form)
      await p.fill("form.follow input[type=email]", `resident-${lang}-${width}@example.org`);
      await timed("follow", () => Promise.all([p.waitForURL(/\/follow/), p.click("form.follow button[type=submit]")]));
      await p.waitForSelector("main h1");
      assert.match(await p.textContent("main h1"), new RegExp(PROJECT), "the follow page names the project");
      await spanish("follow");
      await shot("follow");

      // 6. back to the project, and its hearings calendar
      await p.goBack();
      await p.waitForSelector("#hearings a[data-twin=ics]");
      const [download] = await Promise.all([p.waitForEvent("download"), p.click("#hearings a[data-twin=ics]")]);
      const ics = readFileSync(await download.path(), "utf8");
      assert.match(ics, /^BEGIN:VCALENDAR/, "the calendar link gives a calendar");
      assert.ok(ics.includes(PROJECT) || ics.includes(ADDRESS), "the calendar is the project's");
      row["calendar events"] = (ics.match(/BEGIN:VEVENT/g) || []).length;
      assert.equal(row["calendar events"], hearings.length, "the calendar holds the hearings the page lists");
      assert.deepEqual(errors, [], "no script errors");
      steps.push(row);
      console.log(`ok   the resident's journey at ${width} px (${lang}): ${row.hearings}; calendar with ${row["calendar events"]} events`);
    } catch (err) {
      failed++;
      console.log(`FAIL the resident's journey at ${width} px (${lang})\n     ${String(err && err.stack || err).split("\n").slice(0, 6).join("\n     ")}`);
      await shot("failed").catch(() => {});
    }
    await ctx.close();
  }
}
const t = await timings(browser, BASE + "/", "main h1");
console.log("\nthe resident's journey, step times (ms, as the machine serves them):");
console.table(steps);
console.log("the journey's first page, 390 px (first screen as served; throttled phone: CPU ×4, Fast 3G):", JSON.stringify(t));
await browser.close();
process.exit(failed ? 1 : 0);
