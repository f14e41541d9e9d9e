// Lots on the map (issue 48 item 5), run by run.mjs against a Form 1
// service whose MapPLUTO job has run against the replay fixture
// (browser_test.go: testdata/mappluto, rows constructed for tests): on
// /property-locations and on the land list, at 1440 and 390 px, a map mark
// placed at a lot is clicked and leads to its record, whose heading is the
// record's. A mark is an SVG link titled with its lot and record.
import assert from "node:assert/strict";

// markAtItsCentre is the first mark of the selector that a click at its
// centre reaches (marks may overlap: the one drawn on top takes the click).
async function markAtItsCentre(p, selector) {
  return p.evaluate(sel => {
    for (const a of document.querySelectorAll(sel)) {
      const r = a.getBoundingClientRect();
      if (!r.width) continue;
      a.scrollIntoView({ block: "center" });
      const b = a.getBoundingClientRect();
      const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      if (hit && hit.closest("a.mark") === a) return { href: a.getAttribute("href"), mark: a.dataset.mark, title: a.querySelector("title").textContent };
    }
    return null;
  }, selector);
}

export async function mapChecks({ check, page, shoot, BASE }) {
  await check("lots on the map: a property notice's lot mark leads to its notice (1440 and 390 px)", async () => {
    const json = await (await fetch(BASE + "/property-locations?format=json")).json();
    const titles = {};
    for (const r of json.records) for (const l of r.locations) if (l.kind === "lot") titles[r.request_id] = r.title;
    assert.ok(Object.keys(titles).length > 0, "some notice is placed at its lot (the MapPLUTO fixture was loaded)");
    for (const width of [1440, 390]) {
      const p = await page(width);
      await p.goto(BASE + "/property-locations");
      await p.waitForSelector('[data-chart="property-map"] a.mark');
      const marks = await p.locator('[data-chart="property-map"] a.mark').count();
      assert.ok(marks >= Object.keys(titles).length, `${marks} marks for ${Object.keys(titles).length} notices placed at a lot`);
      assert.ok(await p.locator("[data-unlocated] li").count() > 0, "the lots not placed are listed with why");
      const m = await markAtItsCentre(p, '[data-chart="property-map"] a.mark');
      assert.ok(m, "a mark can be clicked");
      const id = decodeURIComponent(m.href.split("#notice/")[1] || "");
      assert.ok(titles[id], `the mark ${m.mark} links to a notice placed at its lot (${m.href})`);
      assert.ok(m.title.startsWith(m.mark), `the mark is titled with its lot: ${m.title}`);
      await shoot(p, "map-property");
      await Promise.all([p.waitForURL(/#notice\//), p.click(`[data-chart="property-map"] a.mark[data-mark="${m.mark}"][href="${m.href}"]`)]);
      await p.waitForSelector("[data-fulltext], .summary", { timeout: 15000 });
      assert.equal((await p.textContent("h1")).trim(), titles[id].trim(), "the notice's page");
      assert.deepEqual(p.errors, [], `console errors at ${width}px`);
      await p.context().close();
    }
  });

  await check("lots on the map: a land project's mark on the list leads to its project (1440 and 390 px)", async () => {
    for (const width of [1440, 390]) {
      const p = await page(width);
      await p.goto(BASE + "/land-projects?limit=100");
      await p.waitForSelector('[data-chart="land-map"] a.mark');
      assert.ok(await p.locator('[data-chart="land-map"] path.lotshape').count() > 0, "a project's outline is drawn");
      const m = await markAtItsCentre(p, '[data-chart="land-map"] a.mark');
      assert.ok(m && m.href.startsWith("/land-projects/"), `a mark links to a project: ${m && m.href}`);
      const id = m.href.split("/land-projects/")[1];
      const project = await (await fetch(BASE + "/api/land-projects/" + id)).json();
      await shoot(p, "map-land");
      await Promise.all([p.waitForURL(new RegExp("/land-projects/" + id)), p.click(`[data-chart="land-map"] a.mark[href="${m.href}"][data-mark="${m.mark}"]`)]);
      await p.waitForSelector("h1");
      const h1 = (await p.textContent("h1")).replace(/\s+/g, " ").trim();
      assert.ok(h1.startsWith(project.project.name.replace(/\s+/g, " ").trim()) && h1.endsWith(id), `the project's page: ${h1}`);
      assert.deepEqual(p.errors, [], `console errors at ${width}px`);
      await p.context().close();
    }
  });
}
