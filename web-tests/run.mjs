// Browser tests of the Recordwatch site, run against a live service:
//   BASE=http://127.0.0.1:8080 SHOTS=./screenshots node web-tests/run.mjs
// Headless Debian Chromium driven by playwright-core. Each check opens a
// permalink shape, checks the real content it shows, follows the JSON-twin
// link and compares, and saves screenshots at 390 and 1440 px.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import assert from "node:assert/strict";

const BASE = process.env.BASE || "http://127.0.0.1:8080";
const SHOTS = process.env.SHOTS || "web-tests/screenshots";
const BASE2 = process.env.BASE2 || ""; // a Form 2 server, for the #vendor/ and #agency/ shapes
const ONLY = process.env.ONLY || "";
mkdirSync(SHOTS, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});

const results = [];
async function check(name, fn) {
  if (ONLY && !name.includes(ONLY)) return;
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}\n     ${String(err && err.stack || err).split("\n").slice(0, 6).join("\n     ")}`);
  }
}

async function page(width) {
  const ctx = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } });
  const p = await ctx.newPage();
  p.errors = [];
  p.on("pageerror", e => p.errors.push(e.message));
  p.on("console", m => { if (m.type() === "error") p.errors.push(m.text()); });
  return p;
}

async function shoot(p, name) {
  await p.screenshot({ path: `${SHOTS}/${name}-${p.viewportSize().width}.png`, fullPage: true });
}

// open a permalink at both widths; fn checks the page at each width
async function both(name, path, ready, fn) {
  for (const width of [1440, 390]) {
    const p = await page(width);
    await p.goto(BASE + path);
    await p.waitForSelector(ready, { timeout: 15000 });
    await fn(p, width);
    await shoot(p, name);
    assert.deepEqual(p.errors, [], `console errors on ${path} at ${width}px`);
    await p.context().close();
  }
}

// follow the view's JSON twin link and return the parsed body
async function twin(p) {
  const href = await p.getAttribute("[data-twin=json]", "href");
  assert.ok(href, "the view links its JSON twin");
  const res = await p.request.get(new URL(href, BASE).toString());
  assert.equal(res.status(), 200, `JSON twin ${href}`);
  return res.json();
}

await check("security headers: CSP forbids inline script", async () => {
  const p = await page(1440);
  const res = await p.goto(BASE + "/");
  const csp = res.headers()["content-security-policy"];
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  const inline = await p.$$eval("script:not([src])", s => s.length);
  assert.equal(inline, 0, "no inline scripts in the shell");
  await p.context().close();
});

// Every page kind (one layout, one template each: api/web/templates)
// opened in the browser: the page carries the site's Content-Security-Policy
// and nothing on it violates it — no inline style or script, nothing
// loaded from elsewhere. Violations are caught two ways: the document's
// securitypolicyviolation events (a listener added before any page script
// runs) and Chromium's console errors ("Refused to … Content Security
// Policy"). A control page with an inline style and script under the same
// policy proves the detector fires.
const PAGE_KINDS = [
  ["home (the shell, a view rendered)", "/#money?q=construction", "[data-total]", 200],
  ["vendor profile", "/vendors/denville-line-painting/", "h1", 200],
  ["agency profile", "/agencies/parks-and-recreation/", "h1", 200],
  ["contract", "/contracts/CT100220268808241", "h1", 200],
  ["contract analysis", "/contracts/analysis?group_by=agency", "h1", 200],
  ["land project", "/land-projects/2024Q0292", "h1", 200],
  ["land-use projects", "/land-projects?status=completed", "h1", 200],
  ["organization", "/organizations/NYC_GOID_000002/", "h1", 200],
  ["person", "/people/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12", "h1", 200],
  ["meeting", "/meetings/legistar:22632", "h1", 200],
  ["meetings calendar", "/meetings?from=2026-09-01&to=2026-09-30", "h1", 200],
  ["digest link that does not redirect", "/r/notice/20991231999", "h1", 404],
  ["watch link that cannot be used", "/manage/forged.token", "h1", 400],
];

async function cspPage() {
  const p = await page(1440);
  p.violations = [];
  await p.exposeFunction("__cspViolation", v => p.violations.push(v));
  await p.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", e =>
      window.__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile || location.href}:${e.lineNumber}`));
  });
  return p;
}

function cspErrors(p) {
  return p.violations.concat(p.errors.filter(e => /Content Security Policy/i.test(e)));
}

await check("CSP detector: an inline style and script under the site's policy are reported", async () => {
  const p = await cspPage();
  const csp = (await (await p.request.get(BASE + "/")).headers())["content-security-policy"];
  await p.route(BASE + "/csp-control", route => route.fulfill({
    status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": csp },
    body: '<!doctype html><title>control</title><style>p{color:red}</style><p style="color:red">x</p><script>1</script>',
  }));
  await p.goto(BASE + "/csp-control");
  await p.waitForTimeout(300);
  const found = cspErrors(p);
  assert.ok(found.length >= 3, `the detector misses violations: ${JSON.stringify(found)}`);
  await p.context().close();
});

for (const [kind, path, ready, status] of PAGE_KINDS) {
  await check(`CSP holds on every page kind: ${kind} ${path}`, async () => {
    const p = await cspPage();
    const res = await p.goto(BASE + path);
    assert.equal(res.status(), status, `${path} status`);
    const csp = res.headers()["content-security-policy"] || "";
    assert.match(csp, /default-src 'none'/, `${path} carries the site's policy`);
    assert.doesNotMatch(csp, /unsafe-inline/);
    await p.waitForSelector(ready, { timeout: 15000 });
    await p.waitForLoadState("networkidle");
    assert.equal(await p.$$eval("[style], style, script:not([src])", els => els.length), 0, `${path} holds inline style or script`);
    assert.ok(await p.$("header.top nav .lenses") && await p.$("footer.foot") && await p.$("main#main-content"), `${path} is in the one layout`);
    assert.deepEqual(cspErrors(p), [], `CSP violations on ${path}`);
    await p.context().close();
  });
}

await check("search view #money?q=construction: results, scope, twin agrees", async () => {
  await both("search-money", "/#money?q=construction", "[data-total]", async p => {
    const total = Number(await p.getAttribute("[data-total]", "data-total"));
    assert.ok(total > 0, "construction has money notices");
    const ids = await p.$$eval(".results > li", els => els.map(e => e.dataset.requestId));
    const api = await twin(p);
    assert.equal(api.total, total);
    assert.deepEqual(api.hits.map(h => h.request_id), ids);
    const scope = await p.textContent("[data-scope]");
    assert.match(scope, /City Record Online/);
    assert.match(scope, /construction/);
    assert.equal(await p.getAttribute("[data-matched]", "data-matched"), String(total));
    const navCurrent = await p.getAttribute('.lenses a[aria-current="page"]', "href");
    assert.equal(navCurrent, "/#money");
  });
});

await check("search by meaning: #search?…&mode=semantic ranks elevator work first, says how it matched, twin agrees", async () => {
  await both("search-semantic", "/#search?q=lift+repair+in+apartment+buildings&mode=semantic", "[data-total]", async p => {
    const first = await p.textContent(".results > li");
    assert.match(first, /elevator/i);
    const ids = await p.$$eval(".results > li", els => els.map(e => e.dataset.requestId));
    const api = await twin(p);
    assert.deepEqual(api.hits.map(h => h.request_id), ids);
    assert.equal(api.scope.searched.semantic.mode, "semantic");
    assert.equal(await p.getAttribute("[data-semantic]", "data-semantic"), "semantic");
    assert.equal(await p.inputValue("#f-mode"), "semantic", "the form shows the mode");
  });
});

await check("search submit: the URL holds the state", async () => {
  const p = await page(1440);
  await p.goto(BASE + "/#money");
  await p.waitForSelector("[data-total]");
  await p.fill("#f-q", "pest management");
  await p.fill("#f-agency", "Citywide Administrative Services");
  await p.press("#f-q", "Enter");
  await p.waitForFunction(() => location.hash.includes("q=pest"));
  const hash = await p.evaluate(() => location.hash);
  assert.match(hash, /^#money\?/);
  assert.match(hash, /agency=Citywide\+Administrative\+Services/);
  await p.waitForSelector("[data-total]");
  const before = await p.$$eval(".results > li", els => els.map(e => e.dataset.requestId));
  assert.ok(before.length > 0, "pest management has results");
  await p.reload();
  await p.waitForSelector("[data-total]");
  assert.equal(await p.inputValue("#f-q"), "pest management", "reload keeps the keywords");
  const after = await p.$$eval(".results > li", els => els.map(e => e.dataset.requestId));
  assert.deepEqual(after, before, "reload shows the same results");
  await shoot(p, "search-submitted");
  await p.context().close();
});

await check("no hits: scope and absence rules in plain words", async () => {
  await both("search-no-hits", "/#search?q=zzzqqq", "[data-absence]", async p => {
    assert.equal(await p.getAttribute("[data-total]", "data-total"), "0");
    const text = await p.textContent("[data-absence]");
    assert.match(text, /does not mean no record exists/);
    assert.match(await p.textContent("[data-scope]"), /records/);
    const api = await twin(p);
    assert.equal(api.total, 0);
    assert.equal(api.scope.absence_rules.length, 4);
  });
});

await check("notice view #notice/20140930007: summary, amount, full text, official link", async () => {
  await both("notice-award", "/#notice/20140930007", "[data-fulltext]", async p => {
    const summary = await p.textContent("[data-summary]");
    assert.match(summary, /\$1,158,788\.00/);
    assert.match(await p.textContent("[data-fulltext]"), /Williamsbridge NAACP/);
    assert.equal(await p.getAttribute("text=Official notice", "href"), "https://a856-cityrecord.nyc.gov/RequestDetail/20140930007");
    const api = await twin(p);
    assert.equal(api.summary, summary);
    assert.equal(api.notice.request_id, "20140930007");
    assert.match(await p.textContent("h1"), /CHILD CARE SERVICES/);
  });
});

await check("invalid amount is flagged, never shown as an amount", async () => {
  const p = await page(1440);
  await p.goto(BASE + "/#notice/20141031001");
  await p.waitForSelector("[data-fulltext], .summary");
  assert.ok(await p.$("[data-flag=invalid_amount]"), "invalid amount flag");
  const facts = await p.textContent(".facts");
  assert.match(facts, /Not a valid amount/);
  assert.doesNotMatch(facts, /\$-1/);
  await p.context().close();
});

await check("HTML in source text renders as text, not markup", async () => {
  await both("notice-html", "/#notice/20130621104", "[data-fulltext]", async p => {
    const box = await p.$("[data-fulltext]");
    assert.equal(await box.$$eval("strong, p, br, script", els => els.length), 0, "no elements from the source");
    const text = await box.textContent();
    assert.match(text, /OWNERS ARE WANTED BY THE PROPERTY CLERK/);
    assert.doesNotMatch(text, /<strong>|&nbsp;/);
    assert.ok(await p.$("[data-flag=source_html]"));
  });
});

await check("unknown notice: says not held, links the official record", async () => {
  const p = await page(1440);
  await p.goto(BASE + "/#notice/20991231999");
  await p.waitForSelector("[data-absence]");
  assert.match(await p.textContent("h1"), /not held here/);
  await shoot(p, "notice-missing");
  await p.context().close();
});

await check("keyboard: skip link, labelled controls, visible focus", async () => {
  const p = await page(1440);
  await p.goto(BASE + "/#money?q=parks");
  await p.waitForSelector("[data-total]");
  await p.keyboard.press("Tab");
  assert.equal(await p.evaluate(() => document.activeElement.textContent), "Skip to content");
  await p.keyboard.press("Enter");
  assert.equal(await p.evaluate(() => document.activeElement.id), "main-content");
  const unlabelled = await p.$$eval("input, select, textarea", els => els.filter(e => e.type !== "hidden" && !(e.labels && e.labels.length) && !e.getAttribute("aria-label")).map(e => e.name));
  assert.deepEqual(unlabelled, []);
  await p.focus("#f-q");
  const outline = await p.$eval("#f-q", e => getComputedStyle(e).outlineStyle);
  assert.notEqual(outline, "none", "focus is visible");
  await p.context().close();
});


// On a phone (390 px) no page scrolls sideways (wide tables scroll in their
// own box), and a search shows its first result after a handful of links,
// not after every filter link (the filters fold behind one control).
await check("phones: no page wider than 390 px; results before the filter links", async () => {
  for (const path of ["/vendors/denville-line-painting/", "/agencies/parks-and-recreation/", "/#money?q=construction",
    "/#search?q=construction", "/#notice/20140930007"]) {
    const p = await page(390);
    await p.goto(BASE + path);
    await p.waitForSelector("h1", { timeout: 15000 });
    await p.waitForLoadState("networkidle");
    const wide = await p.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `${path} is ${wide} px wide at 390 px`);
    await p.context().close();
  }
  const p = await page(390);
  await p.goto(BASE + "/#search?q=construction");
  await p.waitForSelector("ol.results li", { timeout: 15000 });
  const before = await p.evaluate(() => {
    const first = document.querySelector("ol.results li");
    let n = 0;
    for (const a of document.querySelectorAll("main a")) {
      if (!a.checkVisibility()) continue; // folded away (a closed <details> hides by content-visibility)
      if (a.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) n++;
    }
    return n;
  });
  assert.ok(before <= 8, `${before} visible links come before the first result at 390 px`);
  // the filters are one tap away
  await p.click("details.refine > summary");
  assert.ok(await p.isVisible(".facets a"), "the filters open");
  await p.context().close();
  // and are open on a wide screen
  const w = await page(1440);
  await w.goto(BASE + "/#search?q=construction");
  await w.waitForSelector("ol.results li", { timeout: 15000 });
  assert.ok(await w.isVisible(".facets a"), "the filters show at 1440 px");
  await w.context().close();
});

await check("vendor profile /vendors/<stem>/ (Form 1): variants, awards, twin agrees", async () => {
  await both("vendor-form1", "/vendors/denville-line-painting/", "h1", async p => {
    assert.match(await p.textContent("h1"), /Denville Line Painting/i);
    const body = await p.textContent("main");
    assert.match(body, /DENVILLE LINE PAINTING INC/);
    assert.match(body, /\$26,895,000\.00/);
    const api = await twin(p);
    assert.equal(api.stem, "DENVILLE LINE PAINTING");
    assert.equal(api.awards.total, 3);
    assert.ok(api.variants.length >= 2, "suffix variants resolve to one profile");
  });
  const p = await page(1440);
  const res = await p.goto(BASE + "/vendors/denville-line-painting-inc/");
  assert.equal(new URL(p.url()).pathname, "/vendors/denville-line-painting/", "a suffix variant redirects to the stem");
  assert.equal(res.status(), 200);
  await p.context().close();
});

await check("agency profile /agencies/<id>/ (Form 1)", async () => {
  await both("agency-form1", "/agencies/parks-and-recreation/", "h1", async p => {
    assert.match(await p.textContent("h1"), /Parks and Recreation/);
    const api = await twin(p);
    assert.equal(api.id, "parks-and-recreation");
  });
});

await check("procurement matter #matter/<pin>: solicitation then award, with link methods", async () => {
  await both("matter", "/#matter/81626W0043001", "[data-timeline]", async p => {
    const steps = await p.$$eval("[data-timeline] > li", els => els.map(e => e.dataset.step));
    const sol = steps.indexOf("solicitation"), award = steps.findIndex(s => /award/.test(s));
    assert.ok(sol >= 0 && award > sol, `solicitation before award in ${steps}`);
    const methods = await p.$$eval("[data-link-method]", els => els.map(e => e.dataset.linkMethod));
    assert.ok(methods.includes("exact"), "steps say how they were linked");
    const api = await twin(p);
    assert.equal(api.timeline.length, steps.length);
  });
});

await check("shared investigation #investigation/shared/<id>", async () => {
  const p0 = await page(1440);
  const res = await p0.request.post(BASE + "/inv", { data: { title: "Thermoplastic markings", items: [
    { kind: "notice", id: "20141022026", note: "DOT award <b>not markup</b>".replace(/<[^>]+>/g, "") },
    { kind: "matter", id: "81626W0043001" }] } });
  assert.equal(res.status(), 201, await res.text());
  const { id } = await res.json();
  await p0.context().close();
  await both("investigation", "/#investigation/shared/" + id, "[data-items]", async p => {
    assert.equal(await p.textContent("h1"), "Thermoplastic markings");
    const kinds = await p.$$eval("[data-items] > li", els => els.map(e => e.dataset.kind));
    assert.deepEqual(kinds, ["notice", "matter"]);
    assert.ok(await p.$("[data-change=unchanged]"), "pinned state compared with now");
    const api = await twin(p);
    assert.equal(api.id, id);
  });
});

if (BASE2) {
  await check("Form 2 vendor #vendor/<name> and agency #agency/<name>", async () => {
    for (const [name, path, ready] of [["vendor-form2", "/#vendor/Denville%20Line%20Painting%2C%20Inc", "h1"], ["agency-form2", "/#agency/Parks%20and%20Recreation", "h1"]]) {
      for (const width of [1440, 390]) {
        const p = await page(width);
        await p.goto(BASE2 + path);
        await p.waitForSelector("[data-twin=json]");
        const h1 = await p.textContent("h1");
        assert.match(h1, name.startsWith("vendor") ? /Denville/i : /Parks and Recreation/);
        const href = await p.getAttribute("[data-twin=json]", "href");
        const api = await (await p.request.get(new URL(href, BASE2).toString())).json();
        assert.equal(api.status, "found");
        await shoot(p, name);
        assert.deepEqual(p.errors, []);
        await p.context().close();
      }
    }
  });
}

await browser.close();
const failed = results.filter(r => !r.ok);
console.log(`\n${results.length - failed.length} passed, ${failed.length} failed; screenshots in ${SHOTS}`);
process.exit(failed.length ? 1 : 0);
