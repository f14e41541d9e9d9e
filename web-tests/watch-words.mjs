// The contractor's watch said in plain English on the Form 1 site (issue
// 49, item 7): the words are read by the watch API (the parser Form 2
// uses), its structured request fills the form's fields, what no field
// shows (a borough) is kept and said, and the watch the form then
// previews is the one the words make; in Spanish, the preview says the
// scope the words make in Spanish (understood.scope_key). Kept apart from run.mjs
// (browser_test.go runs it):
//   BASE=http://127.0.0.1:8080 SHOTS=./screenshots node web-tests/watch-words.mjs
import { mkdirSync } from "node:fs";
import assert from "node:assert/strict";
import { BASE, SHOTS, WIDTHS, LANGS, launch, journeyPage, toSpanish } from "./journey.mjs";

const WORDS = process.env.WORDS || "construction awards over $100k from Parks in Brooklyn";
mkdirSync(SHOTS, { recursive: true });
const browser = await launch();

let failed = 0;
for (const lang of LANGS) for (const width of WIDTHS) {
  const { ctx, p, errors } = await journeyPage(browser, width);
  try {
    await p.goto(BASE + "/#search?q=parks");
    await p.waitForSelector("[data-watch-fields][data-watch-ready]", { timeout: 15000 });
    if (lang === "es") await toSpanish(p, "[data-watch-fields][data-watch-ready]");
    // typing narrows the long list of agencies (a phone's screen)
    const total = await p.$$eval("#w-agency option", os => os.length);
    await p.fill("#w-agency-find", "transport");
    const visible = await p.$$eval("#w-agency option", os => os.filter(o => !o.hidden).map(o => o.textContent));
    assert.ok(visible.length > 0 && visible.length < total && visible.every(v => /transport/i.test(v)), `narrowed to ${visible}`);
    await p.fill("#w-agency-find", "");
    const read = await (await p.request.post(BASE + "/api/watches/preview", { data: { text: WORDS } })).json();
    assert.ok(read.request, "the preview gives the structured request");
    await p.fill("#w-words", WORDS);
    await p.click("[data-watch-words-button]");
    await p.waitForSelector("[data-watch-kept]:not([hidden])", { timeout: 15000 });
    // the fields show the words' request
    assert.deepEqual(await p.$$eval("#w-agency option:checked", os => os.map(o => o.value)), read.request.agency, "the agency chosen");
    assert.deepEqual(await p.$$eval('[data-watch-choice="category"] input:checked', els => els.map(e => e.value)), read.request.category, "the category ticked");
    assert.equal(await p.inputValue("#w-kind"), read.request.awards ? "awards" : "bids", "awards or bids");
    assert.equal(Number(await p.inputValue("#w-min")), read.request.min, "the amount floor");
    assert.match(await p.textContent("[data-watch-kept]"), /Brooklyn/, "the borough no field shows is kept and said");
    // the words' scope, in the page's language
    const scope = await p.textContent("[data-watch-scope]");
    assert.ok(read.understood.scope_key && read.understood.scope_key.key, "the preview gives the scope as a note");
    if (lang === "es") {
      assert.ok(!scope.includes(read.understood.scope) && !/Contract awards|intents to award|of at least|in category/.test(scope), `the scope in Spanish: ${scope}`);
      assert.match(scope, /Adjudicaciones de contratos e intenciones de adjudicar de .*, de al menos \$100,000, en la categoría construcción/, "the scope in Spanish");
      assert.ok(!/Contract awards/.test(await p.textContent("[data-watch-kept]")), "the kept part says the scope in Spanish");
    } else {
      assert.ok(scope.includes(read.understood.scope), `the scope in English: ${scope}`);
    }
    // the form now previews the watch the words make
    const [req] = await Promise.all([
      p.waitForRequest(r => r.url().endsWith("/api/watches/preview") && r.method() === "POST" && !/"text"/.test(r.postData() || "")),
      p.click("[data-watch-preview-button]"),
    ]);
    const sent = JSON.parse(req.postData());
    const again = await (await p.request.post(BASE + "/api/watches/preview", { data: sent })).json();
    assert.deepEqual(again.understood.filter, read.understood.filter, "the form's watch is the one the words make");
    await p.waitForSelector("[data-watch-preview][data-total]", { timeout: 15000 });
    assert.ok(read.total > 0, "the words match what the sample holds");
    assert.equal(Number(await p.getAttribute("[data-watch-preview]", "data-total")), read.total, "the same count as the words");
    // cleared, the kept part is no longer sent
    await p.click("[data-watch-kept-clear]");
    const [req2] = await Promise.all([
      p.waitForRequest(r => r.url().endsWith("/api/watches/preview") && r.method() === "POST"),
      p.click("[data-watch-preview-button]"),
    ]);
    assert.equal(JSON.parse(req2.postData()).borough, undefined, "a cleared borough is not sent");
    await p.screenshot({ path: `${SHOTS}/watch-words-${lang}-${width}.png`, fullPage: true });
    assert.deepEqual(errors, [], "no script errors");
    console.log(`ok watch in plain words ${lang} ${width}px: "${WORDS}" → ${JSON.stringify(sent)} → ${read.total} now: ${scope}`);
  } catch (e) {
    failed++;
    console.log(`FAIL watch in plain words ${lang} ${width}px: ${e.message}`);
  } finally {
    await ctx.close();
  }
}
await browser.close();
process.exit(failed ? 1 : 0);
