// Recordwatch site: hash-routed permalinks rendered from the JSON twins.
// Source text is only ever inserted as text (textContent), never as markup.
"use strict";

const FORM = Number(document.body.dataset.form || "1");
// A manage link's "add another watch" opens the site with ?manage=TOKEN:
// kept for this tab's session (and taken out of the address bar), it goes
// with each watch request, which then counts as the address owner's.
const OWNER = (() => {
  const qs = new URLSearchParams(location.search);
  const tok = qs.get("manage");
  try {
    if (tok) {
      sessionStorage.setItem("rw-manage", tok);
      qs.delete("manage");
      history.replaceState(null, "", location.pathname + (qs.toString() ? "?" + qs : "") + location.hash);
    }
    return sessionStorage.getItem("rw-manage") || undefined;
  } catch (e) { return tok || undefined; }
})();
const LENSES = ["money", "land", "property", "rules", "meetings", "people"];
const view = document.getElementById("view");

// ---- the site's own words: the message files on the server
// (internal/record/locale, api/web/words_script.go), served as
// /static/words-<lang>.js (window.RW). t is a word with its %s filled in
// order; label is a machine value's label (the value itself when no table
// holds it); note is a service's note (key and arguments) in the page's
// language. A missing word shows as [[key]]: the tests catch it.
const RW = window.RW || { lang: "en", words: {}, labels: {}, notes: {} };
const ES = RW.lang === "es";

function t(key, ...args) {
  const w = RW.words[key];
  if (w === undefined || w === "") return "[[" + key + "]]";
  let i = 0;
  return w.replace(/%[sd]/g, () => String(args[i++]));
}

function label(kind, value) {
  const set = RW.labels[kind];
  return set && set[value] ? set[value] : value;
}

// note is a service's note (its key and arguments) in the page's language,
// from the message files' notes (RW.notes, as web's note template function
// says it); text, the service's English, is shown only for a note without
// a key. A note's inner parts (inner, parts of their own inside) are its
// last argument, said as the clauses of one sentence, or run on (join
// "run"), or each its own argument (join "args"), as record.Note says them.
function note(n, text) {
  const form = n && n.key && RW.notes && RW.notes[n.key];
  if (!form) return text || "";
  const parts = (n.inner || []).map(p => note(p));
  const args = (n.args || []).concat(!parts.length ? [] : n.join === "args" ? parts : [parts.join(n.join === "run" ? "" : "; ")]);
  let next = 0;
  return form.replace(/%(?:\[(\d+)\])?s/g, (m, k) => { const i = k ? +k - 1 : next; next = i + 1; return i < args.length ? args[i] : ""; });
}

// failure is an error answer's message in the page's language (its
// message_key), its English when the words hold no such note, else the
// HTTP status.
function failure(body, res) {
  const e = body && body.error;
  return (e && note(e.message_key, e.message)) || t("js.status", res.status);
}

// clauses is a list of notes said as the clauses of one sentence ("; ");
// text, the service's English, only when there is no list.
function clauses(ns, text) { return ns && ns.length ? ns.map(n => note(n)).join("; ") : (text || ""); }

function lensName(lens) { return RW.words["js.lens." + lens] ? t("js.lens." + lens) : label("lens", lens); }

// HOME is the shell's address in the page's language (?lang=es is part of
// every permalink); local keeps the language on a link to the site's own
// pages.
const HOME = ES ? "/?lang=es#" : "/#";

function local(href) {
  if (!ES || !href) return href;
  let u;
  try { u = new URL(href, location.href); } catch (e) { return href; }
  if (u.origin !== location.origin || /^\/(api|static|mcp|inv)\b/.test(u.pathname) || /\.(json|xml|ics)$/.test(u.pathname)) return href;
  if (u.pathname === "/" && u.hash) return HOME + u.hash.slice(1);
  u.searchParams.set("lang", "es");
  return u.pathname + u.search + u.hash;
}

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

function link(href, text, attrs) { return h("a", Object.assign({ href: local(href) }, attrs || {}), text); }

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
    const msg = failure(body, res);
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
  view.replaceChildren(h("p", { class: "loading", role: "status", "data-loading": what }, t("js.loading")));
}

function failure(title, err, twin) {
  render(h("h1", {}, title), h("div", { class: "error", role: "alert" }, err.message),
    twin ? h("p", { class: "twin" }, t("js.twin.machine"), link(twin, twin)) : null,
    h("p", {}, link(HOME, t("js.search.all"))));
}

// twinLinks are a view's machine-readable twins: [word key, address] pairs
function twinLinks(pairs) {
  return h("p", { class: "twin" }, pairs.filter(Boolean).map(([key, href]) => link(href, t(key), { "data-twin": key === "js.twin.json" ? "json" : null })));
}

function setCurrentLens(lens) {
  document.querySelectorAll(".lenses a").forEach(a => {
    if (a.pathname === "/" && a.hash === "#" + lens) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
}

// ---- shared pieces

function badges(flags) {
  if (!flags || !flags.length) return null;
  const cls = { rolling_deadline: "warn", invalid_amount: "bad", deadline_passed: "", open: "ok", source_html: "", multi_day: "", no_full_text: "warn" };
  return h("ul", { class: "badges", "aria-label": t("js.flags") }, flags.map(f => {
    const text = RW.labels.flag && RW.labels.flag[f.code] ? label("flag", f.code) : f.label;
    return h("li", { class: "badge " + (cls[f.code] || ""), title: text, "data-flag": f.code }, text);
  }));
}

function amountText(a) {
  if (!a) return null;
  if (a.valid) return money.format(a.value);
  return t("js.amount.invalid", a.source_text);
}

function deadlineText(d) {
  if (!d) return null;
  if (d.rolling) return t("js.deadline.rolling");
  return fmtDateTime(d.date) + (d.passed ? t("js.deadline.passed") : "");
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
  if (s.terms && s.terms.length) what.push(t("js.scope.words", s.terms.join(", ")));
  if (s.phrases && s.phrases.length) what.push(t("js.scope.phrases", s.phrases.map(p => "“" + p + "”").join(", ")));
  if (s.excluded && s.excluded.length) what.push(t("js.scope.excluding", s.excluded.join(", ")));
  const filters = Object.entries(s.filters || {}).map(([k, v]) => label("filter", k) + ": " + v);
  const sources = (scope.sources || []).map(src => [src.label || label("source", src.source),
    src.observed_at ? t("js.scope.observed", fmtDate(src.observed_at)) : null,
    src.first_source_date ? t("js.scope.sourcedates", fmtDate(src.first_source_date), fmtDate(src.last_source_date)) : null,
    count.format(src.records) + " " + label("record_type", src.record_type || "record")].filter(Boolean).join(", "));
  const lenses = (s.lenses || ["all"]).map(l => l === "all" ? lensName("search") : label("lens", l)).join(", ");
  const box = h("section", { class: "scope", "aria-label": t("js.scope.aria"), "data-scope": "" },
    h("strong", {}, t("js.scope.title")),
    h("dl", {},
      h("dt", {}, t("js.scope.searched")), h("dd", {}, t("js.scope.in", what.length ? what.join("; ") : t("js.scope.everything"), lenses)),
      filters.length ? [h("dt", {}, t("js.scope.filters")), h("dd", {}, filters.join("; "))] : null,
      s.semantic ? [h("dt", {}, t("js.scope.matchedby")), h("dd", { "data-semantic": s.semantic.mode },
        (s.semantic.mode === "hybrid" ? t("js.scope.hybrid") + note(s.semantic.fusion_key, s.semantic.fusion) + "; " : t("js.scope.meaning")) + clauses(s.semantic.note_keys, s.semantic.note) +
        t("js.scope.model", s.semantic.model, count.format(s.semantic.vectors_held)))] : null,
      h("dt", {}, t("js.scope.sources")), h("dd", {}, sources.join(" · ") || t("js.scope.nosources")),
      h("dt", {}, t("js.scope.corpus")), h("dd", {}, scope.corpus_observed_at ? fmtDate(scope.corpus_observed_at) : t("js.scope.notobserved")),
      h("dt", {}, t("js.scope.dates")), h("dd", {}, t("js.scope.daterange", fmtDate(scope.first_source_date), fmtDate(scope.last_source_date))),
      h("dt", {}, t("js.scope.held")), h("dd", {}, t("js.scope.heldcount", count.format(scope.records_in_corpus), count.format(scope.passages_in_corpus))),
      h("dt", {}, t("js.scope.matched")), h("dd", { "data-matched": String(total) }, countText(total, scope.matched_relation),
        scope.matched_relation === "gte" ? [t("js.scope.lowerbound", count.format(total)), h("code", {}, "exact_count=true"), ")"] : null)));
  return box;
}

// WIDEN_PARAMS are the view's parameters each widening leaves out
// (notices.Widening.without).
const WIDEN_PARAMS = { due: ["open"], published: ["from", "to"], agency: ["agency"], type: ["type"], vendor: ["vendor"], amount: ["m"], words: ["q"] };

// absence says why a search lists nothing (its scope's typed empty answer)
// and, when the service found one, the nearest search that holds
// something, with a link to it (lens and p: the view's, to drop the
// constraint).
function absence(scope, widening, lens, p) {
  const empty = scope && scope.empty;
  let wider = null;
  if (widening && lens && p && WIDEN_PARAMS[widening.without]) {
    const q = new URLSearchParams(p);
    for (const k of WIDEN_PARAMS[widening.without]) q.delete(k);
    // open is solicitations due today or later: without its window, the solicitations
    if (widening.without === "due") q.set("type", "Solicitation");
    q.delete("cursor");
    wider = h("p", { "data-widening": widening.without }, note(widening.note_key, widening.note), " ", link(HOME + lens + "?" + q.toString(), t("js.widen.show")));
  }
  return h("div", { class: "absence", role: "note", "data-absence": "" },
    empty ? h("p", { "data-absence-type": empty.type }, h("strong", {}, t("js.absence.why")), " ", note(empty.note_key, empty.note)) : null,
    wider,
    h("strong", {}, t("js.absence.title")),
    h("ul", {}, scope && scope.absence_rule_keys ? scope.absence_rule_keys.map(n => h("li", {}, note(n))) : (scope && scope.absence_rules || []).map(r => h("li", {}, r))));
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
    [["", t("js.sort.best")], ["newest", t("js.sort.newest")], ["oldest", t("js.sort.oldest")], ["due", t("js.sort.due")], ["event", t("js.sort.event")], ["amount_desc", t("js.sort.amount")]]
      .map(([v, l]) => h("option", { value: v, selected: (p.get("sort") || "") === v }, l)));
  const modeSel = h("select", { id: "f-mode", name: "mode" },
    [["", t("js.mode.keyword")], ["semantic", t("js.mode.semantic")], ["hybrid", t("js.mode.hybrid")]]
      .map(([v, l]) => h("option", { value: v, selected: (p.get("mode") || "") === v }, l)));
  const form = h("form", { class: "filters", role: "search", "aria-label": t("js.form.aria", lensName(lens)) },
    h("div", { class: "wide" }, h("label", { for: "f-q" }, t("js.form.keywords")),
      h("input", { id: "f-q", name: "q", type: "search", value: p.get("q") || "", placeholder: t("js.form.placeholder"), autocomplete: "off" })),
    h("details", { class: "wide more", open: window.innerWidth >= 700 || ["agency", "vendor", "m", "from", "to", "sort", "mode"].some(k => p.get(k)) },
      h("summary", {}, t("js.form.more")),
      h("div", { class: "more-grid" },
        field("agency", t("js.form.agency")),
        field("vendor", t("js.form.vendor")),
        field("m", t("js.form.min"), "text", { inputmode: "decimal", placeholder: t("js.form.min.example") }),
        field("from", t("js.form.from"), "date"),
        field("to", t("js.form.to"), "date"),
        h("div", {}, h("label", { for: "f-sort" }, t("js.form.order")), sortSel),
        h("div", {}, h("label", { for: "f-mode" }, t("js.form.match")), modeSel))),
    lens === "money" ? h("div", {}, h("label", { class: "check" }, h("input", { type: "checkbox", name: "open", value: "1", checked: p.get("open") === "1" }), t("js.form.open"))) : null,
    h("div", {}, h("button", { type: "submit" }, t("js.form.submit"))));
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

function facetList(lens, p, name, title, values, param, names) {
  if (!values || !values.length) return null;
  return [h("h2", {}, title), h("ul", {}, values.map(f => {
    const next = new URLSearchParams(p);
    next.delete("cursor");
    let target = lens;
    if (param === "lens") target = f.value;
    else if (param === "year") { next.set("from", f.value + "-01-01"); next.set("to", f.value + "-12-31"); }
    else next.set(param, f.value);
    const text = param === "lens" ? lensName(f.value) : f.label || (names && names[f.value]) || (param === "agency" ? prettyID(f.value) : f.value);
    // notice types and agency names are the source's own words
    return h("li", {}, link(HOME + target + "?" + next.toString(), text, { "data-verbatim": param === "type" || param === "agency" ? "" : null }), h("span", {}, count.format(f.count)));
  }))];
}

// noticeSummary is a notice's one-line summary said in the page's
// language from the twin's fields (the JSON's summary is the service's
// English): type, agency, amount and vendor, and its dates in the site's
// one date format.
function noticeSummary(type, agency, amount, vendor, published, deadline, event) {
  const parts = [type, agency ? t("js.sum.by", agency) : null];
  if (amount && amount.valid) parts.push(money.format(amount.value) + (vendor ? t("js.sum.to", vendor) : ""));
  else if (vendor) parts.push(t("js.sum.vendor", vendor));
  if (published) parts.push(t("js.sum.published", fmtDate(published)));
  if (deadline && deadline.rolling) parts.push(t("js.deadline.rolling"));
  else if (deadline && deadline.date) parts.push(t("js.sum.due", fmtDate(deadline.date)));
  if (event) parts.push(t("js.sum.event", fmtDateTime(event)));
  return parts.filter(Boolean).join(" · ");
}

function hitSummary(hit) {
  return noticeSummary(hit.notice_type || hit.section, hit.agency, hit.amount, hit.vendor, hit.published, hit.deadline, hit.event_date);
}

function hitItem(hit) {
  return h("li", { "data-request-id": hit.request_id },
    h("h3", { "data-verbatim": "" }, link(HOME + "notice/" + enc(hit.request_id), hit.title || hit.request_id)),
    h("p", { class: "meta" }, hitSummary(hit)),
    badges(hit.flags),
    h("p", {}, h("button", { type: "button", class: "pin", "data-pin-kind": "notice", "data-pin-id": hit.request_id, "data-pin-title": hit.title || hit.request_id }, t("js.pin"))),
    h("p", { class: "meta" },
      link(hit.links.agency, hit.agency), hit.vendor && hit.links.vendor ? [" · ", link(hit.links.vendor, hit.vendor)] : null,
      hit.pin && hit.links.matter ? [t("js.hit.pin"), link(hit.links.matter, hit.pin)] : null,
      " · ", link(hit.links.official, t("js.twin.official"), { rel: "noopener" })));
}

async function searchView(lens, p) {
  setCurrentLens(lens);
  loading("results");
  const api = "/api/search?" + apiParams(lens, p).toString();
  let res;
  try { res = await getJSON(api); } catch (err) { return failure(lensName(lens), err, api); }
  const feeds = res.feeds;
  const list = res.hits.length ? h("ol", { class: "results", "aria-label": t("js.results") }, res.hits.map(hitItem)) : absence(res.scope, res.widening, lens, p);
  let pager = null;
  if (res.next_cursor) {
    const next = new URLSearchParams(p);
    next.set("cursor", res.next_cursor);
    pager = h("p", { class: "pager" }, link(HOME + lens + "?" + next.toString(), t("js.next")));
  }
  const beyond = await beyondNotices(lens, p);
  const facets = res.facets || {};
  const agencyNames = {};
  for (const hit of res.hits) agencyNames[hit.agency_id] = hit.agency;
  render(
    h("h1", {}, lensName(lens)),
    lens === "property" ? h("p", {}, link("/property-locations", t("js.property.map"), { "data-property-map": "" })) : null,
    searchForm(lens, p),
    h("div", { class: "layout" },
      // on a narrow screen the filters fold behind one control, so the
      // results come first; on a wide one they stand open beside them
      h("aside", { class: "facets", "aria-label": t("js.facets.aria") },
        h("details", { class: "refine", open: window.matchMedia("(min-width: 900px)").matches },
          h("summary", {}, t("js.facets.summary")),
          facetList(lens, p, "lens", t("js.facets.lens"), facets.lens, "lens"),
          facetList(lens, p, "agency", t("js.facets.agency"), facets.agency, "agency", agencyNames),
          facetList(lens, p, "notice_type", t("js.facets.type"), facets.notice_type, "type"),
          facetList(lens, p, "year", t("js.facets.year"), facets.year, "year"))),
      // the results' own heading (read, not shown): each result is an h3
      // under it whether the filters beside it are open or folded
      h("section", { "aria-labelledby": "results-h" },
        h("h2", { class: "vh", id: "results-h" }, t("js.results")),
        h("p", { role: "status", "data-total": String(res.total) }, t(res.total === 1 && res.total_relation !== "gte" ? "js.results.one" : "js.results.many", countText(res.total, res.total_relation))),
        twinLinks([["js.twin.json", api], feeds ? ["js.twin.atom", feeds.atom] : null, feeds ? ["js.twin.jsonfeed", feeds.json] : null,
          feeds ? ["js.twin.ical", feeds.ics] : null]),
        // the answer first (a phone's first screen holds the first
        // result), the records beyond notices it matched, then what was
        // searched
        list, pager,
        beyond,
        scopeBox(res.scope, res.total),
        watchForm(lens, p))));
}

// The records beyond notices a search of every record matches (Form 1):
// vendors, contracts and payments of the federated search, each with how
// it matched, and the browse routes that list every match. Nothing when
// none matched, a lens narrows the search or the read fails (the notice
// results stand on their own).
const BEYOND = ["vendors", "contracts", "payments", "agencies"];
async function beyondNotices(lens, p) {
  const q = (p.get("q") || "").trim();
  if (FORM !== 1 || lens !== "search" || !q) return null;
  const api = "/api/search/federated?" + new URLSearchParams({ q, collections: BEYOND.join(","), limit: "12" }).toString();
  let res;
  try { res = await getJSON(api); } catch (err) { return null; }
  if (!res.results || !res.results.length) return null;
  const counts = (res.collection_coverage || []).filter(c => c.matched > 0)
    .map(c => t("js.beyond.count", label("collection", c.collection), String(c.matched)));
  return h("section", { class: "beyond", "aria-label": t("js.beyond.title"), "data-beyond": String(res.results.length) },
    h("h2", {}, t("js.beyond.title")),
    h("p", { class: "meta" }, counts.join(" · ")),
    h("ul", {}, res.results.map(r => h("li", { "data-kind": r.kind },
      link(r.permalink || r.route, r.title), " ", h("small", {}, label("collection", r.collection) + " · " + r.match.rule)))),
    twinLinks([["js.twin.json", api]]));
}

// "Watch this search": structured in Form 1 (several agencies, categories,
// requirements, an amount floor and keywords, chosen from the values the
// watch API accepts: /api/watches/choices), plain English with double
// opt-in in Form 2; both preview what the watch would send before
// subscribing.
function watchForm(lens, p) {
  const status = h("p", { role: "status", class: "meta" });
  const email = h("input", { id: "w-email", name: "email", type: "email", required: true, autocomplete: "email" });
  const kids = [h("h2", {}, t("js.watch.title")),
    h("div", {}, h("label", { for: "w-email" }, t("js.email")), email)];
  let describe = null, fields = null;
  if (FORM === 2) {
    describe = h("textarea", { id: "w-text", name: "text", rows: "2", maxlength: "600", required: true },
      [lens !== "search" ? lens : "", p.get("q") || "", p.get("agency") ? "from " + p.get("agency") : "", p.get("m") ? "over $" + p.get("m") : ""].filter(Boolean).join(" "));
    kids.push(h("div", { class: "wide" }, h("label", { for: "w-text" }, t("js.watch.text")), describe));
  } else {
    fields = watchFields(lens, p);
    kids.push(watchWords(fields), fields.el);
  }
  const cadence = h("select", { id: "w-cadence", name: "cadence" },
    FORM === 2 ? h("option", { value: "" }, t("js.watch.asrequest")) : null,
    h("option", { value: "daily" }, t("js.watch.daily")),
    h("option", { value: "weekly" }, t("js.watch.weekly")));
  kids.push(h("div", {}, h("label", { for: "w-cadence" }, t("js.watch.often")), cadence));
  const preview = h("section", { class: "watch-preview wide", "aria-live": "polite", "data-watch-preview": "" });
  const previewButton = h("button", { type: "button", "data-watch-preview-button": "" }, t("js.watch.preview"));
  kids.push(h("div", {}, previewButton, " ", h("button", { type: "submit" }, FORM === 2 ? t("js.watch.confirm") : t("js.watch.create"))), status, preview);
  const form = h("form", { class: "filters", "aria-label": t("js.watch.aria"), "data-watch-form": "" }, kids);
  // what to watch: the same body for the preview and the watch
  const filter = () => FORM === 2 ? { text: describe.value } : fields.read();
  previewButton.addEventListener("click", () => showPreview(preview, filter()));
  if (fields) fields.previewTo = preview;
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const body = FORM === 2 ? { email: email.value, text: describe.value, cadence: cadence.value || undefined, manage: OWNER }
      : Object.assign({ email: email.value, cadence: cadence.value, manage: OWNER }, fields.read());
    status.textContent = t("js.sending");
    try {
      const res = await fetch("/api/watches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const out = await res.json().catch(() => ({}));
      status.textContent = res.ok ? (note(out.message_key, out.message) || t("js.done")) : t("js.watch.failed", failure(out, res));
      if (res.ok && out.understood && out.understood.scope) status.textContent += t("js.watch.understood") + scopeOf(out.understood);
      if (res.ok && out.schedule) status.textContent += t("js.watch.digests", out.schedule);
    } catch (e) { status.textContent = t("js.watch.failed", e.message); }
  });
  return form;
}

// scopeOf is a watch's scope as understood (understood.scope_key) in the
// page's language; its English (scope) when the answer has no key.
function scopeOf(u) { return note(u.scope_key, u.scope); }

// showPreview asks the watch API what body would deliver now and shows it
// in box (the count, how it was understood, the first matches or why
// there are none); the answer is returned (null when it failed).
async function showPreview(box, body) {
  box.replaceChildren(h("p", { class: "meta" }, t("js.watch.previewing")));
  try {
    const res = await fetch("/api/watches/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const out = await res.json().catch(() => ({}));
    if (!res.ok) {
      box.replaceChildren(h("p", { role: "alert" }, t("js.watch.previewfailed", failure(out, res))));
      return null;
    }
    box.setAttribute("data-total", String(out.total));
    box.replaceChildren(
      h("p", { "data-preview-total": String(out.total) }, t("js.watch.previewtotal", String(out.total))),
      out.understood && out.understood.scope ? h("p", { class: "meta", "data-watch-scope": "" }, t("js.watch.understood").trim() + " " + scopeOf(out.understood)) : null,
      out.hits && out.hits.length ? h("ol", { class: "results" }, out.hits.slice(0, 5).map(hitItem)) : absence(out.scope || {}));
    return out;
  } catch (e) { box.replaceChildren(h("p", { role: "alert" }, t("js.watch.previewfailed", e.message))); return null; }
}

// watchWords lets a Form 1 watch be said in plain English: the watch API
// reads the words (the same parser as Form 2's) and answers the
// structured request that makes the same watch (request), which fills
// the fields below; what the fields cannot show is kept and said.
function watchWords(fields) {
  const text = h("textarea", { id: "w-words", name: "text", rows: "2", maxlength: "600",
    placeholder: t("js.watch.wordsexample") });
  const read = h("button", { type: "button", "data-watch-words-button": "" }, t("js.watch.wordsread"));
  return h("div", { class: "wide watch-words", "data-watch-words": "" },
    h("label", { for: "w-words" }, t("js.watch.words")), text, " ", read,
    (read.addEventListener("click", async () => {
      if (!text.value.trim()) return;
      const out = await showPreview(fields.previewTo, { text: text.value });
      if (out && out.request) fields.fill(out.request, out.understood && scopeOf(out.understood));
    }), null));
}

// watchFields are the structured fields of a Form 1 watch, started from
// the search on screen; read() is the request's filter (the fields of
// POST /api/watches). The agencies, categories and requirements offered
// are the ones the watch API accepts (/api/watches/choices); until they
// load (or if they cannot), the watch is the search's own filter.
function watchFields(lens, p) {
  const wlens = lens === "search" ? "money" : lens;
  const q = h("input", { id: "w-q", name: "q", type: "text", maxlength: "300", value: p.get("q") || "" });
  const min = h("input", { id: "w-min", name: "min", type: "text", inputmode: "decimal", maxlength: "20", value: p.get("m") || "", placeholder: "100000" });
  const el = h("div", { class: "wide watch-fields", "data-watch-fields": "" },
    h("div", {}, h("label", { for: "w-q" }, t("js.watch.keywords")), q),
    h("div", {}, h("label", { for: "w-min" }, t("js.watch.min")), min));
  const more = h("div", { class: "watch-choices" });
  // kept: what a request read from plain English sets that no field
  // shows (vendors, boroughs, a maximum, dates…), or the whole request
  // when it is a watch of another kind than this page's; it is sent with
  // the fields until cleared
  let kept = null;
  const keptBox = h("p", { class: "meta", "data-watch-kept": "", hidden: true });
  el.appendChild(keptBox);
  el.appendChild(more);
  let agency = null, kind = null;
  const boxes = { category: [], requirement: [] };
  const list = v => v.length ? v : undefined;
  const checks = (name, legend, values, kindLabel) => h("fieldset", { "data-watch-choice": name },
    h("legend", {}, legend),
    values.map(v => {
      const box = h("input", { type: "checkbox", name, value: v, id: "w-" + name + "-" + v.replace(/[^a-z]/g, "-") });
      boxes[name].push(box);
      return h("label", { class: "check", for: box.id }, box, " ", label(kindLabel, v));
    }));
  getJSON("/api/watches/choices").then(c => {
    const given = p.get("agency") || "";
    agency = h("select", { id: "w-agency", name: "agency", multiple: true, size: "6" },
      c.agencies.map(a => h("option", { value: a.id, selected: !!given && (given === a.id || given === a.name) }, a.name + (a.inactive ? " " + t("js.watch.former") : ""))));
    // a long list on a phone: typing narrows the agencies shown (the
    // chosen ones stay)
    const narrow = h("input", { id: "w-agency-find", type: "search", maxlength: "60", "aria-controls": "w-agency",
      "aria-label": t("js.watch.agencyfind"), placeholder: t("js.watch.agencyfind") });
    narrow.addEventListener("input", () => {
      const words = narrow.value.toLowerCase().split(/\s+/).filter(Boolean);
      for (const o of agency.options) o.hidden = !o.selected && !words.every(w => o.textContent.toLowerCase().includes(w));
    });
    const parts = [h("div", {}, h("label", { for: "w-agency" }, t("js.watch.agencies")), narrow, agency,
      h("small", { class: "meta" }, t("js.watch.agencieshint", String(c.max_values))))];
    if (wlens === c.procurement_lens) {
      kind = h("select", { id: "w-kind", name: "kind" },
        h("option", { value: "bids", selected: !p.get("m") }, t("js.watch.bids")),
        h("option", { value: "awards", selected: !!p.get("m") }, t("js.watch.awards")));
      parts.push(h("div", {}, h("label", { for: "w-kind" }, t("js.watch.kind")), kind),
        checks("category", t("js.watch.categories"), c.categories, "watch_category"),
        checks("requirement", t("js.watch.requirements"), c.requirements, "watch_requirement"));
    }
    more.replaceChildren(...parts);
    el.setAttribute("data-watch-ready", "");
  }).catch(err => more.replaceChildren(h("p", { class: "meta" }, t("js.watch.choicesfailed", err.message))));
  const shown = ["lens", "q", "agency", "min", "category", "requirement", "bids", "awards"];
  const fill = (r, scope) => {
    const other = r.lens !== wlens;
    kept = {};
    for (const [k, v] of Object.entries(r)) {
      if ((other || !shown.includes(k)) && v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && !v.length)) kept[k] = v;
    }
    if (!other) {
      q.value = r.q || "";
      min.value = r.min != null ? String(r.min) : "";
      const want = new Set(r.agency || []);
      if (agency) { for (const o of agency.options) o.selected = want.has(o.value); } else if (want.size) kept.agency = [...want];
      for (const name of ["category", "requirement"]) {
        const vs = new Set(r[name] || []);
        for (const b of boxes[name]) b.checked = vs.has(b.value);
      }
      if (kind) kind.value = r.awards ? "awards" : "bids";
    }
    el.querySelectorAll("input, select").forEach(e => { e.disabled = other; });
    if (!Object.keys(kept).length) { kept = null; keptBox.hidden = true; return; }
    const clear = h("button", { type: "button", "data-watch-kept-clear": "" }, t("js.watch.keptclear"));
    clear.addEventListener("click", () => { kept = null; keptBox.hidden = true; el.querySelectorAll("input, select").forEach(e => { e.disabled = false; }); });
    keptBox.replaceChildren(t(other ? "js.watch.keptother" : "js.watch.kept", scope || ""), " ", clear);
    keptBox.hidden = false;
  };
  const read = () => {
    if (kept && kept.lens && kept.lens !== wlens) return Object.assign({}, kept);
    const chosen = name => boxes[name].filter(b => b.checked).map(b => b.value);
    const agencies = agency ? [...agency.selectedOptions].map(o => o.value) : (p.get("agency") ? [p.get("agency")] : []);
    const m = min.value.trim();
    return { lens: wlens, q: q.value.trim() || undefined, agency: list(agencies),
      vendor: p.get("vendor") ? [p.get("vendor")] : undefined, min: m || undefined,
      category: list(chosen("category")), requirement: list(chosen("requirement")),
      bids: kind && kind.value === "bids" && m ? true : undefined, // bids is what a watch without an amount follows already
      awards: kind ? (kind.value === "awards" ? true : undefined) : (m && wlens === "money" ? true : undefined), ...(kept || {}) };
  };
  return { el, read, fill, previewTo: null };
}

// "Follow": one object (a notice, a procurement matter), a mail when a
// followed field changes (old → new); Form 2 confirms by mail.
function followForm(kind, id) {
  const status = h("p", { role: "status", class: "meta" });
  const email = h("input", { name: "email", type: "email", required: true, autocomplete: "email", maxlength: "254", "aria-label": t("js.email") });
  const form = h("form", { class: "follow", "aria-label": t("js.follow.aria", label("pin_kind", kind)), "data-follow": kind },
    h("label", {}, t("js.follow.label") + " ", email), " ", h("button", { type: "submit" }, t("js.follow.button")), status);
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    status.textContent = t("js.sending");
    try {
      const res = await fetch("/api/watches", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: email.value, follow: { kind, id }, manage: OWNER }) });
      const out = await res.json().catch(() => ({}));
      status.textContent = res.ok ? (note(out.message_key, out.message) || t("js.done")) : t("js.follow.failed", failure(out, res));
    } catch (e) { status.textContent = t("js.follow.failed", e.message); }
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
      return render(h("h1", {}, t("js.notice.missing", id)),
        absence({ absence_rules: (err.body && err.body.absence_rules) || [] }),
        h("p", {}, t("js.notice.official"), link("https://a856-cityrecord.nyc.gov/RequestDetail/" + enc(id), t("js.notice.lookup"), { rel: "noopener" }), "."),
        twinLinks([["js.twin.json", api]]));
    }
    return failure(t("js.notice.title", id), err, api);
  }
  const n = v.notice;
  const facts = [
    [t("js.notice.agency"), link(v.links.agency, n.agency_name), n.agency_raw !== n.agency_name ? t("js.notice.printedas", n.agency_raw) : null],
    [t("js.notice.section"), n.section], [t("js.notice.type"), n.notice_type], [t("js.notice.category"), n.category], [t("js.notice.method"), n.selection_method],
    [t("js.notice.published"), fmtDate(n.start_date) + (n.end_date && n.end_date !== n.start_date ? t("js.notice.to", fmtDate(n.end_date)) : "")],
    [t("js.notice.deadline"), deadlineText(v.deadline)],
    [t("js.notice.amount"), amountText(v.amount)],
    [t("js.notice.vendor"), n.vendor_name ? (v.links.vendor ? link(v.links.vendor, n.vendor_name.trim()) : n.vendor_name.trim()) : textVendor(v)],
    [t("js.notice.pin"), n.pin ? link(v.links.matter, n.pin) : null],
    [t("js.notice.event"), n.event_date ? fmtDateTime(n.event_date) + (n.event_place ? t("js.notice.at", n.event_place) : "") : null],
    [t("js.notice.request"), n.request_id],
  ].filter(([, val]) => val);
  const payments = noticePayments(v.payments);
  render(
    h("h1", {}, n.title || t("js.notice.title", n.request_id)),
    h("p", {}, h("button", { type: "button", class: "pin", "data-pin-kind": "notice", "data-pin-id": n.request_id, "data-pin-title": n.title || n.request_id }, t("js.pin"))),
    h("p", { class: "summary", "data-summary": "" }, noticeSummary(n.notice_type || n.section, n.agency_name, v.amount, (n.vendor_name || "").trim(), n.start_date, v.deadline, n.event_date)),
    badges(v.flags),
    twinLinks([["js.twin.official", v.links.official], ["js.twin.opendata", v.links.open_data], ["js.twin.json", api]]),
    followForm("notice", n.request_id),
    h("dl", { class: "facts" }, facts.map(([k, ...val]) => [h("dt", {}, k), h("dd", {}, val)])),
    payments,
    priorCycleBlock(v.prior_cycle),
    (n.document_links || []).length ? [h("h2", {}, t("js.notice.documents")), h("ul", {}, n.document_links.map(d => h("li", {}, link(d, d, { rel: "noopener" }))))] : null,
    h("h2", {}, t("js.notice.fulltext")),
    v.full_text ? [ES ? h("p", { class: "meta" }, t("js.notice.verbatim")) : null, h("div", { class: "fulltext", "data-fulltext": "", "data-verbatim": "", lang: "en" }, v.full_text)] : h("p", {}, t("js.notice.notext")),
    h("p", { class: "meta" }, t("js.notice.observed", fmtDate(v.freshness && v.freshness.source_observed_at))));
}

// Earlier cycles of a solicitation's work (prior_cycle in the twin): each
// match with its tier, method, confidence and evidence.
function priorCycleBlock(pc) {
  if (!pc) return null;
  const items = (pc.matches || []).map(m => h("li", { "data-cycle-tier": m.tier },
    link(m.permalink, m.title), " — " + (m.notice_type || label("pin_kind", "notice")) + ", " + fmtDate(m.published),
    m.vendor_name ? ", " + m.vendor_name : "", m.amount != null ? ", $" + Number(m.amount).toLocaleString("en-US") : "",
    h("br"), h("small", {}, t("js.cycle.match", label("tier", m.tier), label("confidence", m.confidence)) + m.method + "; " + (m.evidence || []).join("; ")),
    (pc.last_award && pc.last_award.request_id === m.request_id ? pc.last_award.contracts || [] : []).map(c => [h("br"),
      h("small", {}, t("js.cycle.contract", c.contract_id) + (c.registered_amount != null ? ", $" + Number(c.registered_amount).toLocaleString("en-US") : "") +
        (c.registered_on ? t("js.cycle.registered", fmtDate(c.registered_on)) : "") + " (" + label("method", c.method) + ")")])));
  return h("section", { class: "prior-cycle", "aria-label": t("js.cycle.aria") },
    h("h2", {}, t("js.cycle.title")),
    h("p", { "data-cycle-summary": "" }, note(pc.summary_key, pc.summary)),
    items.length ? h("ul", {}, items) : null,
    pc.next_due ? h("p", {}, t("js.cycle.next", fmtDate(pc.next_due), note(pc.next_due_basis_key, pc.next_due_basis))) : null,
    h("p", { class: "meta" }, t("js.cycle.searched", note(pc.searched_key, pc.searched))));
}

// The registrations and payments a notice's PIN joins (payments in the
// twin): totals that add the same procurement, registered vs paid by
// fiscal year, and every joined row with its amount, date, the contract it
// names and how it was linked (method, confidence, same procurement).
function noticePayments(p) {
  if (!p || !p.totals) return null;
  const money = a => a && a.display ? note(a.display_key, a.display) : "";
  const tot = p.totals;
  const rows = (p.linked || []).map(l => {
    const e = l.entry || {};
    return h("tr", { "data-row-id": e.id, "data-link-method": l.method },
      h("td", {}, e.date ? fmtDate(e.date) : ""), h("td", {}, label("row_kind", e.kind)),
      h("td", { "data-verbatim": "" }, e.vendor || ""),
      h("td", {}, e.contract_id ? link("/contracts/" + enc(e.contract_id), e.contract_id) : ""),
      h("td", { class: "n" }, e.amount ? (e.amount.valid ? e.amount.display : t("js.pay.invalid")) : ""),
      h("td", {}, label("method", l.method) + ", " + label("confidence", l.confidence) + (l.same_procurement ? "" : t("js.pay.apart"))));
  });
  const ledger = tot.registered_vs_paid;
  return h("section", { class: "notice-payments", "data-notice-payments": String((p.linked || []).length) },
    h("h2", {}, t("js.notice.payments")),
    h("p", {}, t("js.pay.totals", String(tot.payments.count), money(tot.payments.amount), String(tot.contracts.count), money(tot.contracts.amount))),
    ledger && (ledger.by_fiscal_year || []).length ? h("p", {}, ledger.by_fiscal_year.map(y => (y.fiscal_year ? "FY" + y.fiscal_year : t("js.pay.undated")) + ": " +
      t("js.pay.year", money(y.registered), money(y.paid)) + (y.both_held ? t("js.pay.both") : "")).join(" · ")) : null,
    rows.length ? h("div", { class: "table-scroll", tabindex: "0" }, h("table", { "data-table": "notice-payments" },
      h("thead", {}, h("tr", {}, ["js.pay.date", "js.pay.kind", "js.pay.vendor", "js.pay.contract", "js.pay.amount", "js.pay.linked"].map(k => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, rows))) : null,
    p.complete === false ? h("p", { class: "meta" }, t("js.pay.incomplete")) : null,
    p.matter ? h("p", {}, link(HOME + "matter/" + enc(p.pin), t("js.pay.matter", p.pin))) : null,
    h("p", { class: "meta" }, p.absence_note || ""));
}

// ---- procurement matter: #matter/<pin>

async function matterView(pin) {
  setCurrentLens("");
  loading("procurement matter " + pin);
  const api = "/api/matters/" + enc(pin);
  let v;
  try { v = await getJSON(api); } catch (err) {
    return render(h("h1", {}, t("js.matter.title", pin)), h("div", { class: "error", role: "alert" }, err.message),
      err.status === 404 ? absence({ absence_rules: (err.body && (err.body.absence_rules || err.body.absence_notes)) || [] }) : null,
      twinLinks([["js.twin.json", api]]));
  }
  const money2 = a => a && a.display ? note(a.display_key, a.display) : "";
  const steps = (v.timeline || []).map(st => h("li", { "data-step": st.step },
    h("h3", {}, (st.date ? fmtDate(st.date) + " — " : "") + stepName(st.step || st.record || "")),
    st.notice ? h("p", {}, link(HOME + "notice/" + enc(st.notice.request_id), st.notice.title || st.notice.request_id), " · ", hitSummary(st.notice)) :
      h("p", {}, [st.title, st.agency, st.vendor, money2(st.amount)].filter(Boolean).join(" · "),
        st.entry && st.entry.kind === "contract" && st.entry.contract_id ? [" · ", link("/contracts/" + enc(st.entry.contract_id), t("js.matter.contract", st.entry.contract_id))] : (st.contract_id ? " · " + st.contract_id : "")),
    st.link ? h("p", { class: "meta", "data-link-method": st.link.method }, t("js.matter.linked", label("method", st.link.method), label("confidence", st.link.confidence)) + (RW.labels.method_note && RW.labels.method_note[st.link.method] ? label("method_note", st.link.method) : st.link.note)) : null));
  const tot = v.totals || {};
  // the timeline drawn on the server (api/pictures.go): SVG with its text
  // alternative, parsed as SVG (never as HTML) and placed before the list
  const picture = h("figure", { class: "chart", "data-chart": "matter-timeline" });
  render(
    h("h1", {}, t("js.matter.title", v.pin)),
    h("p", { class: "summary" }, note(v.kind_note_key, v.kind_note)),
    twinLinks([["js.twin.json", api]]),
    followForm("matter", v.pin),
    h("dl", { class: "facts" },
      h("dt", {}, t("js.matter.pin")), h("dd", {}, v.pin),
      v.base_pin && v.base_pin !== v.pin ? [h("dt", {}, t("js.matter.base")), h("dd", {}, v.base_pin)] : null,
      v.prefix_pin ? [h("dt", {}, t("js.matter.prefix")), h("dd", {}, v.prefix_pin)] : null,
      h("dt", {}, t("js.matter.awarded")), h("dd", {}, money2(tot.awarded)),
      h("dt", {}, t("js.matter.registered")), h("dd", {}, money2(tot.registered)),
      h("dt", {}, t("js.matter.paid")), h("dd", {}, money2(tot.paid))),
    tot.note ? h("p", { class: "meta" }, note(tot.note_key, tot.note)) : null,
    h("h2", {}, t("js.matter.timeline")),
    steps.length ? [picture, h("ol", { class: "results", "data-timeline": "" }, steps)] : h("p", {}, t("js.matter.nosteps")),
    v.scope ? scopeBox(v.scope, v.scope.matched) : null,
    absence({ absence_rule_keys: v.absence_note_keys, absence_rules: v.absence_notes || [] }));
  if (steps.length) drawPicture(picture, "/pictures/matter-timeline?pin=" + enc(v.pin) + (ES ? "&lang=es" : ""));
}

// stepName is a matter step in words: "contract (pending received)" is
// the contract step with its status as the source printed it
function stepName(step) {
  const m = /^(\w+) \((.*)\)$/.exec(step);
  if (m && RW.labels.step && RW.labels.step[m[1]]) return label("step", m[1]) + " (" + m[2].replace(/_/g, " ") + ")";
  return RW.labels.step && RW.labels.step[step] ? label("step", step) : step.replace(/_/g, " ");
}

// drawPicture fetches a server-drawn SVG picture and puts it in fig with
// its description as the caption; an SVG document parsed as XML runs no
// script, and only its svg element is taken
async function drawPicture(fig, url) {
  try {
    const res = await fetch(url, { headers: { Accept: "image/svg+xml" } });
    if (!res.ok) throw new Error(String(res.status));
    const doc = new DOMParser().parseFromString(await res.text(), "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.localName !== "svg" || doc.querySelector("parsererror, script, foreignObject")) throw new Error("not a picture");
    const desc = svg.querySelector("desc");
    fig.replaceChildren(document.importNode(svg, true), h("figcaption", { class: "note" }, desc ? desc.textContent : ""));
  } catch (e) {
    fig.replaceChildren(h("p", { class: "meta" }, t("js.matter.picture")));
  }
}

// ---- shared investigation: #investigation/shared/<id>

async function investigationView(id) {
  setCurrentLens("");
  loading("shared investigation");
  const api = "/inv/" + enc(id);
  let v;
  try { v = await getJSON(api); } catch (err) {
    const gone = err.status === 410 ? t("js.inv.expired") : null;
    return render(h("h1", {}, t("js.inv.title")), h("div", { class: "error", role: "alert" }, gone || err.message), twinLinks([["js.twin.json", api]]));
  }
  let changes = null;
  try { changes = await getJSON(api + "/changes"); } catch (e) { changes = null; }
  const changed = {};
  for (const c of (changes && changes.items) || []) changed[c.kind + ":" + c.id] = c;
  render(
    h("h1", {}, v.title),
    h("p", { class: "meta" }, t("js.inv.pinned", fmtDateTime(v.created_at), fmtDate(v.expires_at))),
    twinLinks([["js.twin.json", api], ["js.twin.changes", api + "/changes"]]),
    h("ol", { class: "results", "data-items": "" }, v.items.map(it => {
      const ps = it.pinned_state || {};
      const c = changed[it.kind + ":" + it.id];
      const href = it.links && it.links.view ? it.links.view : null;
      return h("li", { "data-kind": it.kind, "data-id": it.id },
        h("h3", {}, label("pin_kind", it.kind) + ": ", href ? link(href, ps.title || ps.name || it.id) : (ps.title || ps.name || it.id)),
        it.note ? h("p", {}, it.note) : null,
        h("p", { class: "meta" }, t("js.inv.whenpinned") + [ps.status ? label("availability", ps.status) : null, ps.published || ps.last_published,
          ps.records !== undefined ? t("js.scope.records", count.format(ps.records)) : null].filter(Boolean).join(" · ")),
        c ? h("p", { class: "badge " + (c.comparison === "unchanged" ? "ok" : "warn"), "data-change": c.comparison },
          c.comparison === "unchanged" ? t("js.inv.unchanged") : t("js.inv.now", label("comparison", c.comparison) +
            ((c.changed_fields || []).length ? " (" + c.changed_fields.map(f => label("field", f).replace(/_/g, " ")).join(", ") + ")" : ""))) : null);
    })),
    absence({ absence_rules: [t("js.inv.rule")] }));
}

// textVendor is the vendor read from the text of an award or intent that
// has no vendor field (the notice's vendor_from_text), said to be read from
// the text, with whether totals count it; null when none was read.
function textVendor(v) {
  const r = v.vendor_from_text;
  if (!r || !(r.name || (r.names || []).length)) return null;
  const names = r.name ? (v.links.vendor && r.counted ? link(v.links.vendor, r.name) : r.name) : r.names.join("; ");
  const how = r.counted ? "js.notice.vendortext.counted" : r.names ? "js.notice.vendortext.several" : "js.notice.vendortext.uncounted";
  return [names, " ", h("small", {}, t(how))];
}

// ---- vendor and agency profiles (#vendor/<name>, #agency/<name> in Form 2)

function amt(a) { return a && a.display ? a.display : "—"; }

function smallTable(cols, rows) {
  return h("div", { class: "table-scroll", tabindex: "0" }, h("table", {},
    h("thead", {}, h("tr", {}, cols.map(([head, , num]) => h("th", { scope: "col", class: num ? "num" : null }, head)))),
    h("tbody", {}, rows.map(r => h("tr", {}, cols.map(([, get, num]) => h("td", { class: num ? "num" : null }, get(r))))))));
}

function noticeList(hits) {
  if (!hits || !hits.length) return h("p", {}, t("js.none.held"));
  return h("ol", { class: "results" }, hits.map(hitItem));
}

function paymentsBlock(pay) {
  if (!pay) return null;
  return [h("h2", {}, t("js.payments.title")),
    h("p", {}, t("js.payments.line", count.format(pay.contracts.count), amt(pay.contracts.amount), count.format(pay.payments.count), amt(pay.payments.amount))),
    pay.extent_words ? h("p", { class: "meta extent" }, pay.extent_words) : null,
    pay.note ? h("p", { class: "meta" }, pay.note) : null];
}

function profileFailure(title, api, err) {
  return render(h("h1", {}, title), h("div", { class: "error", role: "alert" }, err.message),
    err.status === 404 ? absence({ absence_rules: (err.body && (err.body.absence_rules || err.body.absence_notes)) || [] }) : null,
    twinLinks([["js.twin.json", api]]));
}

async function vendorView(name) {
  setCurrentLens("");
  loading("vendor " + name);
  const api = "/api/vendors/" + enc(name);
  let v;
  try { v = await getJSON(api); } catch (err) { return profileFailure(t("js.vendor.title", name), api, err); }
  const aw = v.awards || {};
  render(
    h("h1", {}, v.name),
    h("p", { class: "summary" }, t("js.vendor.stem", v.stem) + (v.first_date ? t("js.vendor.dates", fmtDate(v.first_date), fmtDate(v.last_date)) : "")),
    twinLinks([["js.twin.json", api], v.links && v.links.mentions ? ["js.twin.mentions", v.links.mentions] : null]),
    h("h2", {}, t("js.spellings")),
    h("ul", { "data-variants": "" }, (v.variants || []).map(x => h("li", {}, x.name + " (" + label("source", x.source) + ", " + count.format(x.records) + ")"))),
    h("h2", {}, t("js.awards.intents")),
    h("p", {}, t("js.awards.total", count.format(aw.total || 0), amt(aw.amount)) +
      (aw.without_valid_amount ? t("js.awards.invalid", count.format(aw.without_valid_amount)) : "")),
    (aw.by_fiscal_year || []).length ? smallTable([[t("js.fy"), r => "FY" + r.fiscal_year], [t("js.notices"), r => r.count, true], [t("js.valid.amounts"), r => amt(r.amount), true]], aw.by_fiscal_year) : null,
    (aw.agencies || []).length ? [h("h2", {}, t("js.agencies")), h("ul", {}, aw.agencies.map(a => h("li", {}, link(FORM === 2 ? HOME + "agency/" + enc(a.name) : a.profile, a.name), t("js.agency.count", count.format(a.count), amt(a.amount)))))] : null,
    h("h2", {}, t("js.notices")), noticeList(aw.notices),
    paymentsBlock(v.payments),
    v.scope ? scopeBox(v.scope, v.scope.matched) : null,
    absence({ absence_rule_keys: v.absence_note_keys, absence_rules: v.absence_notes || [] }));
}

async function agencyView(name) {
  setCurrentLens("");
  loading("agency " + name);
  const api = "/api/agencies/" + enc(name);
  let v;
  try { v = await getJSON(api); } catch (err) { return profileFailure(t("js.agency.title", name), api, err); }
  const no = v.notices || {}, aw = v.awards || {};
  const facet = (title, rows, kind) => rows && rows.length ? [h("h3", {}, title), h("ul", {}, rows.map(r => h("li", {}, (kind ? label(kind, r.value) : r.value) + ": " + count.format(r.count))))] : null;
  render(
    h("h1", {}, v.name),
    h("p", { class: "summary" }, t("js.agency.id", v.id) + ((v.acronyms || []).length ? " · " + v.acronyms.join(", ") : "")),
    twinLinks([["js.twin.json", api], ["js.twin.crosswalk", "/agencies"]]),
    h("h2", {}, t("js.agency.spellings")),
    h("ul", { "data-variants": "" }, (v.variants || []).map(x => h("li", {}, x.raw_string + t("js.agency.variant", label("method", x.method), count.format(x.records))))),
    h("h2", {}, t("js.notices")),
    h("p", {}, t("js.agency.notices", count.format(no.total || 0)) + (no.first ? ", " + t("js.scope.daterange", fmtDate(no.first), fmtDate(no.last)) : "")),
    facet(t("js.agency.bylens"), no.by_lens, "lens"), facet(t("js.agency.bytype"), no.by_type),
    h("h3", {}, t("js.agency.recent")), noticeList(no.recent),
    h("h2", {}, t("js.agency.awards")),
    h("p", {}, t("js.agency.awardstotal", count.format(aw.total || 0), amt(aw.amount))),
    (aw.top_vendors || []).length ? smallTable([[t("js.vendor"), r => link(FORM === 2 ? HOME + "vendor/" + enc(r.stem) : r.profile, r.stem)], [t("js.notices"), r => r.count, true], [t("js.valid.amounts"), r => amt(r.amount), true]], aw.top_vendors) : null,
    paymentsBlock(v.payments),
    v.scope ? scopeBox(v.scope, v.scope.matched) : null,
    absence({ absence_rule_keys: v.absence_note_keys, absence_rules: v.absence_notes || [] }));
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
  const week = document.getElementById("week"); // this week's lists (home.html) belong to the home view only
  if (week) week.hidden = !!head || path !== "/";
  if (!head) return searchView("search", p);
  if ((m = head.match(/^notice\/(.+)$/))) return noticeView(decodeURIComponent(m[1]));
  if ((m = head.match(/^vendor\/(.+)$/))) return vendorView(decodeURIComponent(m[1]));
  if ((m = head.match(/^agency\/(.+)$/))) return agencyView(decodeURIComponent(m[1]));
  if ((m = head.match(/^matter\/(.+)$/))) return matterView(decodeURIComponent(m[1]));
  if ((m = head.match(/^investigation\/shared\/(.+)$/))) return investigationView(decodeURIComponent(m[1]));
  if (head === "search" || LENSES.includes(head)) return searchView(head, p);
  if (head === "main-content") return;
  render(h("h1", {}, t("js.notfound")), h("p", {}, t("js.notfound.view", decodeURIComponent(head))), h("p", {}, link(HOME, t("js.search.all"))));
}

document.querySelector("[data-skip]").addEventListener("click", ev => {
  ev.preventDefault();
  document.getElementById("main-content").focus();
});
// the language switch keeps the view shown: its link carries the view's
// hash (the server renders it for the page's path and query only)
function switchKeepsView() {
  for (const a of document.querySelectorAll(".langs a[hreflang]")) {
    const u = new URL(a.href, location.href);
    u.hash = location.hash;
    a.href = u.pathname + u.search + u.hash;
  }
}
window.addEventListener("hashchange", () => { navigated = true; route(); switchKeepsView(); });
route();
switchKeepsView();
