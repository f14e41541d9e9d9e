// Recordwatch pin list: pin records from any page (a "Pin" button, data-pin-kind
// and data-pin-id), keep the list in this browser only (localStorage), show it,
// and share it through POST /inv as the permalink /#investigation/shared/<id>.
// The SPEC's limits are shown before they bite: 50 records, a 32 KB body, 10
// shares a day from one address. Text is inserted as text only.
"use strict";
(function () {
  const KEY = "recordwatch.pins";
  const MAX_ITEMS = 50, MAX_BYTES = 32768;
  // the words come from the server's one table, written on the list's own
  // section by the layout (data-w-*)
  const box = document.getElementById("pins");
  const lang = document.body.dataset.lang;
  const w = (name, n) => { const v = box && box.dataset["w" + name]; return v === undefined ? "[[" + name + "]]" : v.replace(/%[sd]/, String(n)); };
  const T = {
    pin: w("Pin"), pinned: w("Pinned"), remove: w("Remove"), full: w("Full"), big: w("Big"),
    title: w("Title"), shared: w("Shared"), failed: w("Failed"), count: n => w("Count", n)
  };
  function load() {
    try { const v = JSON.parse(localStorage.getItem(KEY) || "[]"); return Array.isArray(v) ? v : []; } catch (e) { return []; }
  }
  function save(list) { try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* storage off: the list lives for this page */ } }
  function body(list) {
    return { title: T.title + " " + new Date().toISOString().slice(0, 10),
      items: list.map(p => p.note ? { kind: p.kind, id: p.id, note: p.note } : { kind: p.kind, id: p.id }) };
  }
  function say(msg, href) {
    const out = box && box.querySelector("[data-pin-result]");
    if (!out) return;
    out.textContent = msg;
    if (href) { const a = document.createElement("a"); a.href = href; a.textContent = href; a.dataset.shared = "1"; out.append(a); }
  }
  function render() {
    const list = load();
    document.querySelectorAll("[data-pin-kind]").forEach(b => {
      const on = list.some(p => p.kind === b.dataset.pinKind && p.id === b.dataset.pinId);
      if (b.getAttribute("aria-pressed") !== String(on)) b.setAttribute("aria-pressed", String(on));
      if (b.textContent !== (on ? T.pinned : T.pin)) b.textContent = on ? T.pinned : T.pin;
    });
    if (!box) return;
    box.hidden = list.length === 0;
    const ol = box.querySelector("[data-pins]");
    ol.replaceChildren(...list.map((p, i) => {
      const li = document.createElement("li");
      li.dataset.kind = p.kind;
      li.dataset.id = p.id;
      li.append(document.createTextNode((p.note || p.id) + " "));
      const rm = document.createElement("button");
      rm.type = "button"; rm.className = "secondary pin"; rm.textContent = T.remove; rm.dataset.pinRemove = String(i);
      li.append(rm);
      return li;
    }));
    const size = new Blob([JSON.stringify(body(list))]).size;
    const share = box.querySelector("[data-pin-share]");
    share.disabled = list.length === 0 || size > MAX_BYTES;
    box.querySelector("[data-pin-count]") && (box.querySelector("[data-pin-count]").textContent = T.count(list.length) + " · " + Math.ceil(size / 1024) + " KB / 32 KB");
    if (size > MAX_BYTES) say(T.big);
  }
  document.addEventListener("click", async ev => {
    const t = ev.target.closest("button");
    if (!t) return;
    if (t.dataset.pinKind) {
      const list = load();
      const i = list.findIndex(p => p.kind === t.dataset.pinKind && p.id === t.dataset.pinId);
      if (i >= 0) list.splice(i, 1);
      else if (list.length >= MAX_ITEMS) { say(T.full); return; }
      else list.push({ kind: t.dataset.pinKind, id: t.dataset.pinId, note: (t.dataset.pinTitle || "").slice(0, 500) });
      save(list); render();
    } else if (t.dataset.pinRemove !== undefined) {
      const list = load(); list.splice(Number(t.dataset.pinRemove), 1); save(list); render();
    } else if (t.dataset.pinClear !== undefined) {
      save([]); render(); say("");
    } else if (t.dataset.pinShare !== undefined) {
      t.disabled = true;
      try {
        const res = await fetch("/inv", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body(load())) });
        const out = await res.json().catch(() => null);
        if (res.status !== 201 || !out) throw new Error((out && out.error && out.error.message) || String(res.status));
        say(T.shared, location.origin + (lang === "es" ? "/?lang=es#" : "/#") + "investigation/shared/" + encodeURIComponent(out.id));
      } catch (e) { say(T.failed + e.message); }
      t.disabled = false;
    }
  });
  // the shell renders its views later: mark the pin buttons a view adds
  // (only added buttons outside the list itself, so rendering never loops)
  new MutationObserver(ms => {
    if (ms.some(m => !(box && box.contains(m.target)) && [...m.addedNodes].some(n => n.nodeType === 1 && (n.matches("[data-pin-kind]") || n.querySelector("[data-pin-kind]"))))) render();
  }).observe(document.getElementById("main-content") || document.body, { childList: true, subtree: true });
  render();
})();
