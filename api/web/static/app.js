// Recordwatch site: hash-routed permalinks rendered from the JSON twins.
// Source text is only ever inserted as text (textContent), never as markup.
"use strict";

const FORM = Number(document.body.dataset.form || "1");
const LENSES = ["money", "land", "property", "rules", "meetings", "people"];
const LENS_NAMES = { search: "All records", money: "Money: procurement", land: "Land use", property: "Property disposition",
  rules: "Agency rules", meetings: "Hearings and meetings", people: "Changes in personnel" };
const view = document.getElementById("view");

// ---- tiny DOM helpers

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === undefined || kid === null || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

function link(href, text, attrs) { return h("a", Object.assign({ href }, attrs || {}), text); }

const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const count = new Intl.NumberFormat("en-US");

// one date format on every page (the server's too): YYYY-MM-DD, New York day
function fmtDate(s) {
  if (!s) return "";
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const d = new Date(s);
  if (isNaN(d)) return s;
  return d.toLocaleDateString("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "America/New_York" });
}

function fmtDateTime(s) {
  const d = new Date(s);
  if (isNaN(d)) return s || "";
  return fmtDate(s) + " " + d.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit", timeZone: "America/New_York" });
}

function enc(s) { return encodeURIComponent(s); }

async function getJSON(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  if (!res.ok) {
    const msg = (body && (body.error && body.error.message)) || ("The server answered " + res.status);
    const err = new Error(msg);
    err.status = res.status;
    err.body = body;
    throw err;
  }
  return body;
}

function render(...nodes) {
  view.replaceChildren(...nodes.flat(Infinity).filter(n => n !== null && n !== undefined && n !== false));
  view.removeAttribute("aria-busy");
  const h1 = view.querySelector("h1");
  if (h1) {
    h1.setAttribute("tabindex", "-1");
    // move focus to the new view after a navigation, not on first load
    if (navigated) h1.focus({ preventScroll: false });
  }
}

let navigated = false;

function loading(what) {
  view.setAttribute("aria-busy", "true");
  view.replaceChildren(h("p", { class: "loading", role: "status" }, "Loading " + what + "…"));
}

function failure(title, err, twin) {
  render(h("h1", {}, title), h("div", { class: "error", role: "alert" }, err.message),
    twin ? h("p", { class: "twin" }, "Machine-readable twin: ", link(twin, twin)) : null,
    h("p", {}, link("/#", "Search all records")));
}

function twinLinks(pairs) {
  return h("p", { class: "twin" }, pairs.filter(Boolean).map(([label, href]) => link(href, label, { "data-twin": label === "JSON" ? "json" : null })));
}

function setCurrentLens(lens) {
  document.querySelectorAll(".lenses a").forEach(a => {
    if (a.getAttribute("href") === "/#" + lens) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
}

// ---- shared pieces

function badges(flags) {
  if (!flags || !flags.length) return null;
  const cls = { rolling_deadline: "warn", invalid_amount: "bad", deadline_passed: "", open: "ok", source_html: "", multi_day: "", no_full_text: "warn" };
  return h("ul", { class: "badges", "aria-label": "Flags" }, flags.map(f => h("li", { class: "badge " + (cls[f.code] || ""), title: f.label, "data-flag": f.code }, f.label)));
}

function amountText(a) {
  if (!a) return null;
  if (a.valid) return money.format(a.value);
  return "Not a valid amount (source says “" + a.source_text + "”); excluded from amount filters and totals";
}

function deadlineText(d) {
  if (!d) return null;
  if (d.rolling) return "No fixed deadline (rolling)";
  return fmtDateTime(d.date) + (d.passed ? " (passed)" : "");
}

// countText prints a count with its relation: "10,000+" when the count is a
// lower bound ("gte": the search stopped counting at 10,000).
function countText(n, relation) {
  return count.format(n) + (relation === "gte" ? "+" : "");
}

function scopeBox(scope, total) {
  if (!scope) return null;
  const s = scope.searched || {};
  const what = [];
  if (s.terms && s.terms.length) what.push("words " + s.terms.join(", "));
  if (s.phrases && s.phrases.length) what.push("phrases " + s.phrases.map(p => "“" + p + "”").join(", "));
  if (s.excluded && s.excluded.length) what.push("excluding " + s.excluded.join(", "));
  const filters = Object.entries(s.filters || {}).map(([k, v]) => k.replace(/_/g, " ") + ": " + v);
  const sources = (scope.sources || []).map(src => [src.label || src.source,
    src.observed_at ? "observed " + fmtDate(src.observed_at) : null,
    src.first_source_date ? "source dates " + fmtDate(src.first_source_date) + " to " + fmtDate(src.last_source_date) : null,
    count.format(src.records) + " " + (src.record_type || "record") + (src.records === 1 ? "" : "s")].filter(Boolean).join(", "));
  const box = h("section", { class: "scope", "aria-label": "What this search covers", "data-scope": "" },
    h("strong", {}, "What was searched"),
    h("dl", {},
      h("dt", {}, "Searched"), h("dd", {}, (what.length ? what.join("; ") : "everything") + " in " + (s.lenses || ["all"]).join(", ")),
      filters.length ? [h("dt", {}, "Filters"), h("dd", {}, filters.join("; "))] : null,
      s.semantic ? [h("dt", {}, "Matched by"), h("dd", { "data-semantic": s.semantic.mode },
        (s.semantic.mode === "hybrid" ? "words and meaning: " + s.semantic.fusion + "; " : "meaning: ") + s.semantic.note +
        " (model " + s.semantic.model + ", " + count.format(s.semantic.vectors_held) + " notice vectors)")] : null,
      h("dt", {}, "Sources"), h("dd", {}, sources.join(" · ") || "none held"),
      h("dt", {}, "Corpus observed"), h("dd", {}, scope.corpus_observed_at ? fmtDate(scope.corpus_observed_at) : "not yet observed (a load has not completed)"),
      h("dt", {}, "Dates held"), h("dd", {}, fmtDate(scope.first_source_date) + " to " + fmtDate(scope.last_source_date) + " (not every date between is covered)"),
      h("dt", {}, "Held"), h("dd", {}, count.format(scope.records_in_corpus) + " records, " + count.format(scope.passages_in_corpus) + " passages"),
      h("dt", {}, "Matched"), h("dd", { "data-matched": String(total) }, countText(total, scope.matched_relation) +
        (scope.matched_relation === "gte" ? " (counted exactly up to " + count.format(total) + "; ask the API with exact_count=true for the exact figure)" : ""))));
  return box;
}

function absence(scope) {
  return h("div", { class: "absence", role: "note", "data-absence": "" },
    h("strong", {}, "No hits here does not mean no record exists."),
    h("ul", {}, (scope && scope.absence_rules || []).map(r => h("li", {}, r))));
}

// ---- search views: #<lens>?q=…&agency=…&m=…

const SEARCH_KEYS = ["q", "agency", "m", "vendor", "type", "from", "to", "sort", "open", "mode", "cursor"];

function apiParams(lens, p) {
  const a = new URLSearchParams();
  if (lens !== "search") a.set("lens", lens);
  for (const k of SEARCH_KEYS) {
    const v = p.get(k);
    if (!v) continue;
    a.set(k === "m" ? "min" : k, v);
  }
  // facets are counted for keyword search only (semantic.Service)
  if (!p.get("mode") || p.get("mode") === "keyword") a.set("facets", "true");
  return a;
}

function searchForm(lens, p) {
  const field = (name, label, type, attrs) => h("div", {},
    h("label", { for: "f-" + name }, label),
    h("input", Object.assign({ id: "f-" + name, name, type: type || "text", value: p.get(name) || "" }, attrs || {})));
  const sortSel = h("select", { id: "f-sort", name: "sort" },
    [["", "Best match / newest"], ["newest", "Newest first"], ["oldest", "Oldest first"], ["due", "Due soonest"], ["event", "Event soonest"], ["amount_desc", "Largest amount"]]
      .map(([v, l]) => h("option", { value: v, selected: (p.get("sort") || "") === v }, l)));
  const modeSel = h("select", { id: "f-mode", name: "mode" },
    [["", "The words as typed"], ["semantic", "By meaning"], ["hybrid", "Both"]]
      .map(([v, l]) => h("option", { value: v, selected: (p.get("mode") || "") === v }, l)));
  const form = h("form", { class: "filters", role: "search", "aria-label": "Search " + (LENS_NAMES[lens] || lens) },
    h("div", { class: "wide" }, h("label", { for: "f-q" }, "Keywords"),
      h("input", { id: "f-q", name: "q", type: "search", value: p.get("q") || "", placeholder: "e.g. construction \"pest management\" -queens", autocomplete: "off" })),
    h("details", { class: "wide more", open: window.innerWidth >= 700 || ["agency", "vendor", "m", "from", "to", "sort", "mode"].some(k => p.get(k)) },
      h("summary", {}, "More filters"),
      h("div", { class: "more-grid" },
        field("agency", "Agency (as printed)"),
        field("vendor", "Vendor"),
        field("m", "Minimum amount ($)", "text", { inputmode: "decimal", placeholder: "e.g. 500000 or 1.5m" }),
        field("from", "Published from", "date"),
        field("to", "Published to", "date"),
        h("div", {}, h("label", { for: "f-sort" }, "Order"), sortSel),
        h("div", {}, h("label", { for: "f-mode" }, "Match"), modeSel))),
    lens === "money" ? h("div", {}, h("label", { class: "check" }, h("input", { type: "checkbox", name: "open", value: "1", checked: p.get("open") === "1" }), "Open solicitations only")) : null,
    h("div", {}, h("button", { type: "submit" }, "Search")));
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const next = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (String(v).trim()) next.set(k, String(v).trim());
    const qs = next.toString();
    location.hash = "#" + lens + (qs ? "?" + qs : "");
  });
  return form;
}

function prettyID(id) {
  const s = String(id).replace(/-/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function facetList(lens, p, name, title, values, param, labels) {
  if (!values || !values.length) return null;
  return [h("h2", {}, title), h("ul", {}, values.map(f => {
    const next = new URLSearchParams(p);
    next.delete("cursor");
    let target = lens;
    if (param === "lens") target = f.value;
    else if (param === "year") { next.set("from", f.value + "-01-01"); next.set("to", f.value + "-12-31"); }
    else next.set(param, f.value);
    const label = f.label || (labels && labels[f.value]) || (param === "agency" || param === "lens" ? prettyID(f.value) : f.value);
    return h("li", {}, link("/#" + target + "?" + next.toString(), label), h("span", {}, count.format(f.count)));
  }))];
}

function hitItem(hit) {
  return h("li", { "data-request-id": hit.request_id },
    h("h3", {}, link("/#notice/" + enc(hit.request_id), hit.title || hit.request_id)),
    h("p", { class: "meta" }, hit.summary),
    badges(hit.flags),
    h("p", {}, h("button", { type: "button", class: "pin", "data-pin-kind": "notice", "data-pin-id": hit.request_id, "data-pin-title": hit.title || hit.request_id }, "Pin")),
    h("p", { class: "meta" },
      link(hit.links.agency, hit.agency), hit.vendor && hit.links.vendor ? [" · ", link(hit.links.vendor, hit.vendor)] : null,
      hit.pin && hit.links.matter ? [" · PIN ", link(hit.links.matter, hit.pin)] : null,
      " · ", link(hit.links.official, "Official notice", { rel: "noopener" })));
}

async function searchView(lens, p) {
  setCurrentLens(lens);
  loading("results");
  const api = "/api/search?" + apiParams(lens, p).toString();
  let res;
  try { res = await getJSON(api); } catch (err) { return failure(LENS_NAMES[lens] || "Search", err, api); }
  const feeds = res.feeds;
  const list = res.hits.length ? h("ol", { class: "results", "aria-label": "Results" }, res.hits.map(hitItem)) : absence(res.scope);
  let pager = null;
  if (res.next_cursor) {
    const next = new URLSearchParams(p);
    next.set("cursor", res.next_cursor);
    pager = h("p", { class: "pager" }, link("/#" + lens + "?" + next.toString(), "Next page →"));
  }
  const facets = res.facets || {};
  const agencyNames = {};
  for (const hit of res.hits) agencyNames[hit.agency_id] = hit.agency;
  render(
    h("h1", {}, LENS_NAMES[lens] || "Search"),
    searchForm(lens, p),
    h("div", { class: "layout" },
      // on a narrow screen the filters fold behind one control, so the
      // results come first; on a wide one they stand open beside them
      h("aside", { class: "facets", "aria-label": "Refine" },
        h("details", { class: "refine", open: window.matchMedia("(min-width: 900px)").matches },
          h("summary", {}, "Refine: lens, agency, notice type, year"),
          facetList(lens, p, "lens", "Lens", facets.lens, "lens", LENS_NAMES),
          facetList(lens, p, "agency", "Agency", facets.agency, "agency", agencyNames),
          facetList(lens, p, "notice_type", "Notice type", facets.notice_type, "type"),
          facetList(lens, p, "year", "Year", facets.year, "year"))),
      h("section", { "aria-label": "Results" },
        h("p", { role: "status", "data-total": String(res.total) }, countText(res.total, res.total_relation) + (res.total === 1 && res.total_relation !== "gte" ? " notice" : " notices")),
        twinLinks([["JSON", api], feeds ? ["Atom feed", feeds.atom] : null, feeds ? ["JSON Feed", feeds.json] : null,
          feeds ? ["Calendar (iCal)", feeds.ics] : null]),
        scopeBox(res.scope, res.total),
        list, pager,
        watchForm(lens, p))));
}

// "Watch this search": structured in Form 1, plain English with double opt-in in Form 2.
function watchForm(lens, p) {
  const status = h("p", { role: "status", class: "meta" });
  const email = h("input", { id: "w-email", name: "email", type: "email", required: true, autocomplete: "email" });
  const kids = [h("h2", {}, "Watch this search by email"),
    h("div", {}, h("label", { for: "w-email" }, "Email address"), email)];
  let describe = null;
  if (FORM === 2) {
    describe = h("textarea", { id: "w-text", name: "text", rows: "2", maxlength: "600", required: true },
      [lens !== "search" ? lens : "", p.get("q") || "", p.get("agency") ? "from " + p.get("agency") : "", p.get("m") ? "over $" + p.get("m") : ""].filter(Boolean).join(" "));
    kids.push(h("div", { class: "wide" }, h("label", { for: "w-text" }, "What to watch, in plain English"), describe));
  }
  const cadence = h("select", { id: "w-cadence", name: "cadence" },
    FORM === 2 ? h("option", { value: "" }, "As the request says (daily unless it says weekly)") : null,
    h("option", { value: "daily" }, "Daily (only on days with something new)"),
    h("option", { value: "weekly" }, "Weekly, on Mondays (a check-in when nothing is new)"));
  kids.push(h("div", {}, h("label", { for: "w-cadence" }, "How often"), cadence));
  kids.push(h("div", {}, h("button", { type: "submit" }, FORM === 2 ? "Send me a confirmation link" : "Create watch")), status);
  const form = h("form", { class: "filters", "aria-label": "Watch this search" }, kids);
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const body = FORM === 2 ? { email: email.value, text: describe.value, cadence: cadence.value || undefined }
      : { email: email.value, cadence: cadence.value, lens: lens === "search" ? "money" : lens, q: p.get("q") || undefined,
          agency: p.get("agency") ? [p.get("agency")] : undefined, vendor: p.get("vendor") ? [p.get("vendor")] : undefined,
          min: p.get("m") || undefined, awards: p.get("m") ? true : undefined };
    status.textContent = "Sending…";
    try {
      const res = await fetch("/api/watches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const out = await res.json().catch(() => ({}));
      status.textContent = res.ok ? (out.message || "Done: check your email.") : ((out.error && out.error.message) || "The watch could not be created (" + res.status + ").");
      if (res.ok && out.understood && out.understood.scope) status.textContent += " Understood as: " + out.understood.scope;
      if (res.ok && out.schedule) status.textContent += " Digests: " + out.schedule + ".";
    } catch (e) { status.textContent = "The watch could not be created: " + e.message; }
  });
  return form;
}

// "Follow": one object (a notice, a procurement matter), a mail when a
// followed field changes (old → new); Form 2 confirms by mail.
function followForm(kind, id) {
  const status = h("p", { role: "status", class: "meta" });
  const email = h("input", { name: "email", type: "email", required: true, autocomplete: "email", maxlength: "254", "aria-label": "Email address" });
  const form = h("form", { class: "follow", "aria-label": "Follow this " + kind, "data-follow": kind },
    h("label", {}, "Email me when it changes (old → new) ", email), " ", h("button", { type: "submit" }, "Follow"), status);
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    status.textContent = "Sending…";
    try {
      const res = await fetch("/api/watches", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: email.value, follow: { kind, id } }) });
      const out = await res.json().catch(() => ({}));
      status.textContent = res.ok ? (out.message || "Done: check your email.") : ((out.error && out.error.message) || "The follow could not be set up (" + res.status + ").");
    } catch (e) { status.textContent = "The follow could not be set up: " + e.message; }
  });
  return form;
}

// ---- notice view: #notice/<request_id>

async function noticeView(id) {
  setCurrentLens("");
  loading("notice " + id);
  const api = "/api/notices/" + enc(id);
  let v;
  try { v = await getJSON(api); } catch (err) {
    if (err.status === 404) {
      return render(h("h1", {}, "Notice " + id + " is not held here"),
        absence({ absence_rules: (err.body && err.body.absence_rules) || [] }),
        h("p", {}, "The official City Record may still have it: ", link("https://a856-cityrecord.nyc.gov/RequestDetail/" + enc(id), "look it up there", { rel: "noopener" }), "."),
        twinLinks([["JSON", api]]));
    }
    return failure("Notice " + id, err, api);
  }
  const n = v.notice;
  const facts = [
    ["Agency", link(v.links.agency, n.agency_name), n.agency_raw !== n.agency_name ? " (printed as “" + n.agency_raw + "”)" : null],
    ["Section", n.section], ["Notice type", n.notice_type], ["Category", n.category], ["Selection method", n.selection_method],
    ["Published", fmtDate(n.start_date) + (n.end_date && n.end_date !== n.start_date ? " to " + fmtDate(n.end_date) : "")],
    ["Deadline", deadlineText(v.deadline)],
    ["Amount", amountText(v.amount)],
    ["Vendor", n.vendor_name ? (v.links.vendor ? link(v.links.vendor, n.vendor_name.trim()) : n.vendor_name.trim()) : null],
    ["PIN", n.pin ? link(v.links.matter, n.pin) : null],
    ["Event", n.event_date ? fmtDateTime(n.event_date) + (n.event_place ? " at " + n.event_place : "") : null],
    ["Request ID", n.request_id],
  ].filter(([, val]) => val);
  const payments = v.payments && v.payments.length ? [h("h2", {}, "Payments dataset"), paymentsTable(v.payments)] : null;
  render(
    h("h1", {}, n.title || "Notice " + n.request_id),
    h("p", {}, h("button", { type: "button", class: "pin", "data-pin-kind": "notice", "data-pin-id": n.request_id, "data-pin-title": n.title || n.request_id }, "Pin")),
    h("p", { class: "summary", "data-summary": "" }, v.summary),
    badges(v.flags),
    twinLinks([["Official notice", v.links.official], ["Open Data row", v.links.open_data], ["JSON", api]]),
    followForm("notice", n.request_id),
    h("dl", { class: "facts" }, facts.map(([k, ...val]) => [h("dt", {}, k), h("dd", {}, val)])),
    payments,
    priorCycleBlock(v.prior_cycle),
    (n.document_links || []).length ? [h("h2", {}, "Documents"), h("ul", {}, n.document_links.map(d => h("li", {}, link(d, d, { rel: "noopener" }))))] : null,
    h("h2", {}, "Full text"),
    v.full_text ? h("div", { class: "fulltext", "data-fulltext": "" }, v.full_text) : h("p", {}, "The source row carries no full text."),
    h("p", { class: "meta" }, "Source observed " + fmtDate(v.freshness && v.freshness.source_observed_at) + ". The official notice is authoritative."));
}

// Earlier cycles of a solicitation's work (prior_cycle in the twin): each
// match with its tier, method, confidence and evidence.
function priorCycleBlock(pc) {
  if (!pc) return null;
  const items = (pc.matches || []).map(m => h("li", { "data-cycle-tier": m.tier },
    link(m.permalink, m.title), " — " + (m.notice_type || "notice") + ", " + fmtDate(m.published),
    m.vendor_name ? ", " + m.vendor_name : "", m.amount != null ? ", $" + Number(m.amount).toLocaleString("en-US") : "",
    h("br"), h("small", {}, m.tier + " match (" + m.method + ", confidence " + m.confidence + "): " + (m.evidence || []).join("; ")),
    (pc.last_award && pc.last_award.request_id === m.request_id ? pc.last_award.contracts || [] : []).map(c => [h("br"),
      h("small", {}, "Registered contract " + c.contract_id + (c.registered_amount != null ? ", $" + Number(c.registered_amount).toLocaleString("en-US") : "") +
        (c.registered_on ? ", registered " + fmtDate(c.registered_on) : "") + " (" + c.method + ")")])));
  return h("section", { class: "prior-cycle", "aria-label": "Earlier cycles" },
    h("h2", {}, "Earlier cycles of this work"),
    h("p", { "data-cycle-summary": "" }, pc.summary),
    items.length ? h("ul", {}, items) : null,
    pc.next_due ? h("p", {}, "Next cycle possibly around " + fmtDate(pc.next_due) + " (" + pc.next_due_basis + ").") : null,
    h("p", { class: "meta" }, "Searched: " + pc.searched + ". No match does not mean no earlier cycle exists."));
}

function paymentsTable(rows) {
  const cols = Object.keys(rows[0]).slice(0, 6);
  return h("div", { class: "table-scroll", tabindex: "0" }, h("table", {},
    h("thead", {}, h("tr", {}, cols.map(c => h("th", { scope: "col" }, c.replace(/_/g, " "))))),
    h("tbody", {}, rows.map(r => h("tr", {}, cols.map(c => h("td", {}, typeof r[c] === "object" ? JSON.stringify(r[c]) : r[c])))))));
}

// ---- generic profile views (vendor, agency, matter, shared investigation)

function valueNode(v) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) {
    if (!v.length) return "none";
    if (typeof v[0] !== "object") return v.join(", ");
    return h("div", { class: "table-scroll", tabindex: "0" }, recordsTable(v));
  }
  if (typeof v === "object") return h("dl", { class: "facts" }, Object.entries(v).filter(([k]) => k !== "absence_rules").map(([k, x]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, valueNode(x))]));
  if (typeof v === "string" && /^https?:\/\//.test(v)) return link(v, v, { rel: "noopener" });
  if (typeof v === "string" && v.startsWith("/")) return link(v, v);
  return String(v);
}

function recordsTable(rows) {
  const cols = [];
  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) if (!cols.includes(k) && cols.length < 8 && typeof r[k] !== "object") cols.push(k);
  return h("table", {},
    h("thead", {}, h("tr", {}, cols.map(c => h("th", { scope: "col" }, c.replace(/_/g, " "))))),
    h("tbody", {}, rows.slice(0, 200).map(r => h("tr", {}, cols.map(c => {
      if (c === "request_id" && r[c]) return h("td", {}, link("/#notice/" + enc(r[c]), r[c]));
      const x = r[c];
      return h("td", { class: typeof x === "number" ? "num" : null }, typeof x === "number" && /amount|total|value|dollar/.test(c) ? money.format(x) : valueNode(x));
    })))));
}

async function profileView(kind, title, api) {
  setCurrentLens("");
  loading(kind);
  let v;
  try { v = await getJSON(api); } catch (err) {
    return render(h("h1", {}, title), h("div", { class: "error", role: "alert" }, err.message),
      err.status === 404 ? absence({ absence_rules: (err.body && err.body.absence_rules) || ["No hits does not mean no record exists."] }) : null,
      twinLinks([["JSON", api]]));
  }
  const heading = v.name || v.canonical_name || v.title || v.pin || title;
  const sections = Object.entries(v).filter(([k]) => !["name", "title", "absence_rules", "absence_notes", "scope", "status", "links"].includes(k));
  render(h("h1", {}, heading), twinLinks([["JSON", api]]),
    v.scope ? scopeBox(v.scope, v.scope.matched) : null,
    sections.map(([k, x]) => h("section", { "data-section": k }, h("h2", {}, k.replace(/_/g, " ")), valueNode(x))),
    absence({ absence_rules: v.absence_rules || v.absence_notes || [] }));
}

// ---- procurement matter: #matter/<pin>

async function matterView(pin) {
  setCurrentLens("");
  loading("procurement matter " + pin);
  const api = "/api/matters/" + enc(pin);
  let v;
  try { v = await getJSON(api); } catch (err) {
    return render(h("h1", {}, "Procurement matter " + pin), h("div", { class: "error", role: "alert" }, err.message),
      err.status === 404 ? absence({ absence_rules: (err.body && (err.body.absence_rules || err.body.absence_notes)) || ["No hits does not mean no record exists."] }) : null,
      twinLinks([["JSON", api]]));
  }
  const money2 = a => a && a.display ? a.display : "";
  const steps = (v.timeline || []).map(st => h("li", { "data-step": st.step },
    h("h3", {}, (st.date ? fmtDate(st.date) + " — " : "") + (st.step || st.record || "").replace(/_/g, " ")),
    st.notice ? h("p", {}, link("/#notice/" + enc(st.notice.request_id), st.notice.title || st.notice.request_id), " · ", st.notice.summary) :
      h("p", {}, [st.title, st.agency, st.vendor, money2(st.amount)].filter(Boolean).join(" · "),
        st.entry && st.entry.kind === "contract" && st.entry.contract_id ? [" · ", link("/contracts/" + enc(st.entry.contract_id), "Contract " + st.entry.contract_id)] : (st.contract_id ? " · " + st.contract_id : "")),
    st.link ? h("p", { class: "meta", "data-link-method": st.link.method }, "Linked by " + st.link.method + ": " + st.link.note) : null));
  const t = v.totals || {};
  render(
    h("h1", {}, "Procurement matter " + v.pin),
    h("p", { class: "summary" }, v.kind_note || ""),
    twinLinks([["JSON", api]]),
    followForm("matter", v.pin),
    h("dl", { class: "facts" },
      h("dt", {}, "PIN"), h("dd", {}, v.pin),
      v.base_pin && v.base_pin !== v.pin ? [h("dt", {}, "Base PIN"), h("dd", {}, v.base_pin)] : null,
      v.prefix_pin ? [h("dt", {}, "10-character base"), h("dd", {}, v.prefix_pin)] : null,
      h("dt", {}, "Awarded"), h("dd", {}, money2(t.awarded)),
      h("dt", {}, "Registered"), h("dd", {}, money2(t.registered)),
      h("dt", {}, "Paid"), h("dd", {}, money2(t.paid))),
    t.note ? h("p", { class: "meta" }, t.note) : null,
    h("h2", {}, "Timeline"),
    steps.length ? h("ol", { class: "results", "data-timeline": "" }, steps) : h("p", {}, "No steps are held."),
    v.scope ? scopeBox(v.scope, v.scope.matched) : null,
    absence({ absence_rules: v.absence_notes || [] }));
}

// ---- shared investigation: #investigation/shared/<id>

async function investigationView(id) {
  setCurrentLens("");
  loading("shared investigation");
  const api = "/inv/" + enc(id);
  let v;
  try { v = await getJSON(api); } catch (err) {
    const gone = err.status === 410 ? "This shared investigation has expired (snapshots live 90 days)." : null;
    return render(h("h1", {}, "Shared investigation"), h("div", { class: "error", role: "alert" }, gone || err.message), twinLinks([["JSON", api]]));
  }
  let changes = null;
  try { changes = await getJSON(api + "/changes"); } catch (e) { changes = null; }
  const changed = {};
  for (const c of (changes && changes.items) || []) changed[c.kind + ":" + c.id] = c;
  render(
    h("h1", {}, v.title),
    h("p", { class: "meta" }, "Pinned " + fmtDateTime(v.created_at) + " · readable until " + fmtDate(v.expires_at)),
    twinLinks([["JSON", api], ["Changes since pinned (JSON)", api + "/changes"]]),
    h("ol", { class: "results", "data-items": "" }, v.items.map(it => {
      const ps = it.pinned_state || {};
      const c = changed[it.kind + ":" + it.id];
      const href = it.links && it.links.view ? it.links.view : null;
      return h("li", { "data-kind": it.kind, "data-id": it.id },
        h("h3", {}, it.kind + ": ", href ? link(href, ps.title || ps.name || it.id) : (ps.title || ps.name || it.id)),
        it.note ? h("p", {}, it.note) : null,
        h("p", { class: "meta" }, "When pinned: " + [ps.status, ps.published || ps.last_published, ps.records !== undefined ? ps.records + " records" : null].filter(Boolean).join(" · ")),
        c ? h("p", { class: "badge " + (c.comparison === "unchanged" ? "ok" : "warn"), "data-change": c.comparison },
          c.comparison === "unchanged" ? "Unchanged since pinned" : "Now: " + c.comparison + ((c.changed_fields || []).length ? " (" + c.changed_fields.join(", ") + ")" : "")) : null);
    })),
    absence({ absence_rules: ["Each state of a record is checked on its own: a change here says only what this service holds now."] }));
}

// ---- vendor and agency profiles (#vendor/<name>, #agency/<name> in Form 2)

function amt(a) { return a && a.display ? a.display : "—"; }

function smallTable(cols, rows) {
  return h("div", { class: "table-scroll", tabindex: "0" }, h("table", {},
    h("thead", {}, h("tr", {}, cols.map(([label, , num]) => h("th", { scope: "col", class: num ? "num" : null }, label)))),
    h("tbody", {}, rows.map(r => h("tr", {}, cols.map(([, get, num]) => h("td", { class: num ? "num" : null }, get(r))))))));
}

function noticeList(hits) {
  if (!hits || !hits.length) return h("p", {}, "None held.");
  return h("ol", { class: "results" }, hits.map(hitItem));
}

function paymentsBlock(pay) {
  if (!pay) return null;
  return [h("h2", {}, "Payments dataset (Checkbook NYC)"),
    h("p", {}, count.format(pay.contracts.count) + " contract registrations (" + amt(pay.contracts.amount) + " registered value) · " +
      count.format(pay.payments.count) + " payments (" + amt(pay.payments.amount) + " paid)"),
    pay.extent_words ? h("p", { class: "meta extent" }, pay.extent_words) : null,
    pay.note ? h("p", { class: "meta" }, pay.note) : null];
}

function profileFailure(title, api, err) {
  return render(h("h1", {}, title), h("div", { class: "error", role: "alert" }, err.message),
    err.status === 404 ? absence({ absence_rules: (err.body && (err.body.absence_rules || err.body.absence_notes)) || ["No hits does not mean no record exists."] }) : null,
    twinLinks([["JSON", api]]));
}

async function vendorView(name) {
  setCurrentLens("");
  loading("vendor " + name);
  const api = "/api/vendors/" + enc(name);
  let v;
  try { v = await getJSON(api); } catch (err) { return profileFailure("Vendor " + name, api, err); }
  const aw = v.awards || {};
  render(
    h("h1", {}, v.name),
    h("p", { class: "summary" }, "Vendor name stem " + v.stem + (v.first_date ? " · records from " + fmtDate(v.first_date) + " to " + fmtDate(v.last_date) : "")),
    twinLinks([["JSON", api], v.links && v.links.mentions ? ["Full-text mentions (JSON)", v.links.mentions] : null]),
    h("h2", {}, "Spellings"),
    h("ul", { "data-variants": "" }, (v.variants || []).map(x => h("li", {}, x.name + " (" + x.source + ", " + x.records + ")"))),
    h("h2", {}, "Awards and intents"),
    h("p", {}, count.format(aw.total || 0) + " notices; valid amounts total " + amt(aw.amount) +
      (aw.without_valid_amount ? "; " + aw.without_valid_amount + " without a valid amount (not counted)" : "")),
    (aw.by_fiscal_year || []).length ? smallTable([["Fiscal year", r => "FY" + r.fiscal_year], ["Notices", r => r.count, true], ["Valid amounts", r => amt(r.amount), true]], aw.by_fiscal_year) : null,
    (aw.agencies || []).length ? [h("h2", {}, "Agencies"), h("ul", {}, aw.agencies.map(a => h("li", {}, link(FORM === 2 ? "/#agency/" + enc(a.name) : a.profile, a.name), ": " + a.count + " notices, " + amt(a.amount))))] : null,
    h("h2", {}, "Notices"), noticeList(aw.notices),
    paymentsBlock(v.payments),
    v.scope ? scopeBox(v.scope, v.scope.matched) : null,
    absence({ absence_rules: v.absence_notes || [] }));
}

async function agencyView(name) {
  setCurrentLens("");
  loading("agency " + name);
  const api = "/api/agencies/" + enc(name);
  let v;
  try { v = await getJSON(api); } catch (err) { return profileFailure("Agency " + name, api, err); }
  const no = v.notices || {}, aw = v.awards || {};
  const facet = (title, rows) => rows && rows.length ? [h("h3", {}, title), h("ul", {}, rows.map(r => h("li", {}, r.value + ": " + count.format(r.count))))] : null;
  render(
    h("h1", {}, v.name),
    h("p", { class: "summary" }, "Canonical id " + v.id + ((v.acronyms || []).length ? " · " + v.acronyms.join(", ") : "")),
    twinLinks([["JSON", api], ["Agency crosswalk", "/agencies"]]),
    h("h2", {}, "Spellings in the sources"),
    h("ul", { "data-variants": "" }, (v.variants || []).map(x => h("li", {}, x.raw_string + " — " + x.method + ", " + x.records + " records"))),
    h("h2", {}, "Notices"),
    h("p", {}, count.format(no.total || 0) + " notices" + (no.first ? ", " + fmtDate(no.first) + " to " + fmtDate(no.last) : "")),
    facet("By lens", no.by_lens), facet("By notice type", no.by_type),
    h("h3", {}, "Recent"), noticeList(no.recent),
    h("h2", {}, "Awards"),
    h("p", {}, count.format(aw.total || 0) + " award and intent notices; valid amounts total " + amt(aw.amount)),
    (aw.top_vendors || []).length ? smallTable([["Vendor", r => link(FORM === 2 ? "/#vendor/" + enc(r.stem) : r.profile, r.stem)], ["Notices", r => r.count, true], ["Valid amounts", r => amt(r.amount), true]], aw.top_vendors) : null,
    paymentsBlock(v.payments),
    v.scope ? scopeBox(v.scope, v.scope.matched) : null,
    absence({ absence_rules: v.absence_notes || [] }));
}

// ---- router

function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/vendors\/([^/]+)\/?$/))) return vendorView(decodeURIComponent(m[1]));
  if ((m = path.match(/^\/agencies\/([^/]+)\/?$/))) return agencyView(decodeURIComponent(m[1]));
  const raw = location.hash.replace(/^#/, "");
  const [head, query] = raw.split("?");
  const p = new URLSearchParams(query || "");
  if (!head) return searchView("search", p);
  if ((m = head.match(/^notice\/(.+)$/))) return noticeView(decodeURIComponent(m[1]));
  if ((m = head.match(/^vendor\/(.+)$/))) return vendorView(decodeURIComponent(m[1]));
  if ((m = head.match(/^agency\/(.+)$/))) return agencyView(decodeURIComponent(m[1]));
  if ((m = head.match(/^matter\/(.+)$/))) return matterView(decodeURIComponent(m[1]));
  if ((m = head.match(/^investigation\/shared\/(.+)$/))) return investigationView(decodeURIComponent(m[1]));
  if (head === "search" || LENSES.includes(head)) return searchView(head, p);
  if (head === "main-content") return;
  render(h("h1", {}, "Page not found"), h("p", {}, "No view is called “" + decodeURIComponent(head) + "”. "), h("p", {}, link("/#", "Search all records")));
}

document.querySelector("[data-skip]").addEventListener("click", ev => {
  ev.preventDefault();
  document.getElementById("main-content").focus();
});
window.addEventListener("hashchange", () => { navigated = true; route(); });
route();
