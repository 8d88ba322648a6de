// realpolitik browser UI. No game rules here: legal orders, checks, results and the map
// picture all come from the server (/api). Plain JavaScript, no build step.
"use strict";

const S = {
  user: null, lang: localStorage.getItem("rp_lang") || "en", i18n: {}, view: null,
  gameId: null, game: null, power: null, legal: {}, selected: null, lastMsg: 0,
  messages: [], poll: null, clock: null, offset: 0, mapKey: null, pendingJoin: null,
};

// --- helpers --------------------------------------------------------------------------
function t(key) { return (S.i18n[S.lang] && S.i18n[S.lang][key]) || (S.i18n.en && S.i18n.en[key]) || key; }

function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick" || k === "onchange" || k === "onsubmit") node[k] = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
}

async function api(method, path, body) {
  const opts = { method, headers: { "X-Requested-With": "realpolitik" }, credentials: "same-origin" };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const res = await fetch("/api" + path, opts);
  if (res.status === 204) return null;
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    const err = new Error((data && data.detail) || res.statusText);
    err.status = res.status;
    throw err;
  }
  return data;
}

function flash(message, isError) {
  const box = document.getElementById("flash");
  box.textContent = message;
  box.className = isError ? "error" : "info";
  box.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { box.hidden = true; }, isError ? 8000 : 2500);
}

async function guarded(fn) {
  try { return await fn(); } catch (e) { flash(e.message, true); return undefined; }
}

function view() { return document.getElementById("view"); }

// replaceChildren without the null/false placeholders of optional parts
function fill(node, ...kids) {
  node.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
}

function stopTimers() {
  clearInterval(S.poll); clearInterval(S.clock); S.poll = S.clock = null;
}

// --- start-up and routing ----------------------------------------------------------------
async function boot() {
  S.i18n = await (await fetch("/static/i18n.json")).json();
  const select = document.getElementById("language");
  select.value = S.lang;
  select.onchange = async () => {
    S.lang = select.value;
    localStorage.setItem("rp_lang", S.lang);
    if (S.user) await guarded(() => api("PUT", "/me/language", { language: S.lang }));
    translateStatic();
    S.mapKey = null;
    route();
  };
  document.getElementById("logout").onclick = async () => {
    await guarded(() => api("DELETE", "/sessions"));
    S.user = null; location.hash = ""; route();
  };
  window.addEventListener("hashchange", route);
  try { S.user = await api("GET", "/me"); } catch (e) { S.user = null; }
  if (S.user && !localStorage.getItem("rp_lang")) S.lang = S.user.language;
  select.value = S.lang;
  translateStatic();
  route();
}

function translateStatic() {
  document.documentElement.lang = S.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  document.getElementById("whoami").textContent = S.user ? S.user.username : "";
  document.getElementById("logout").hidden = !S.user;
}

function route() {
  stopTimers();
  const hash = location.hash.replace(/^#\/?/, "");
  const [what, arg] = hash.split("/");
  if (what === "join" && arg) { S.pendingJoin = arg; }
  if (!S.user) { showAuth(); return; }
  if (S.pendingJoin) {
    const code = S.pendingJoin; S.pendingJoin = null;
    guarded(async () => {
      const game = await api("POST", "/invitations/" + encodeURIComponent(code));
      location.hash = "#/game/" + game.id;
    }).then((r) => { if (r === undefined) location.hash = ""; });
    return;
  }
  if (what === "game" && arg) { showGame(Number(arg)); return; }
  showLobby();
}

// --- accounts -------------------------------------------------------------------------
function showAuth() {
  const user = el("input", { id: "auth-user", name: "username", autocomplete: "username", required: true });
  const pass = el("input", { id: "auth-pass", name: "password", type: "password", autocomplete: "current-password", required: true });
  async function go(path) {
    await guarded(async () => {
      const body = { username: user.value.trim(), password: pass.value };
      if (path === "/accounts") body.language = S.lang;
      const session = await api("POST", path, body);
      S.user = session.user;
      translateStatic();
      route();
    });
  }
  fill(view(), el("section", { class: "card auth" },
    el("h1", { text: "realpolitik" }),
    el("label", {}, t("username"), user),
    el("label", {}, t("password"), pass),
    el("div", { class: "row" },
      el("button", { id: "login", onclick: () => go("/sessions") }, t("login")),
      el("button", { id: "register", class: "secondary", onclick: () => go("/accounts") }, t("register")))));
}

// --- lobby ------------------------------------------------------------------------------
async function showLobby() {
  const lists = await guarded(() => api("GET", "/games"));
  const meta = await guarded(() => api("GET", "/meta"));
  if (!lists || !meta) return;
  const gameItem = (g, action) => el("li", { class: "game-item", "data-game": g.id },
    el("span", { class: "game-name" }, g.name),
    el("span", { class: "muted" }, ` ${t(g.status)} ${g.phase || ""} · ${g.seats.filter((s) => s.taken || s.player || s.bot).length}/${g.seats.length}`),
    el("button", { class: "small", onclick: action.fn }, action.label));
  const open = (g) => ({ label: t("open"), fn: () => { location.hash = "#/game/" + g.id; } });
  const join = (g) => ({ label: t("join"), fn: () => guarded(async () => {
    await api("POST", `/games/${g.id}/join`, {}); location.hash = "#/game/" + g.id;
  }) });
  const field = (label, input) => el("label", {}, label, input);
  const name = el("input", { id: "new-name", value: `${S.user.username}'s game`, maxlength: 100 });
  const players = el("select", { id: "new-players" }, [7, 6, 5, 4, 3, 2].map((n) => el("option", { value: n }, n)));
  const edition = el("select", { id: "new-edition" }, meta.editions.map((e) => el("option", { value: e }, e)));
  const deadlines = el("select", { id: "new-deadlines" }, ["rulebook", "daily", "none"].map((d) => el("option", { value: d }, t(d))));
  const pressSel = el("select", { id: "new-press" }, meta.press.map((p) => el("option", { value: p }, t(p) === p ? p : t(p))));
  const bots = el("select", { id: "new-bots" }, [...meta.bots, ""].map((b) => el("option", { value: b }, b || t("none"))));
  const pub = el("input", { id: "new-public", type: "checkbox", checked: true });
  const startNow = el("input", { id: "new-start", type: "checkbox", checked: true });
  const create = async () => guarded(async () => {
    const game = await api("POST", "/games", {
      name: name.value, players: Number(players.value), edition: edition.value,
      deadlines: deadlines.value, press: pressSel.value, bots: bots.value || null,
      public: pub.checked, start: startNow.checked,
    });
    location.hash = "#/game/" + game.id;
  });
  fill(view(),
    el("section", { class: "card" }, el("h2", {}, t("my_games")),
      el("ul", { id: "my-games" }, lists.mine.map((g) => gameItem(g, open(g))))),
    el("section", { class: "card" }, el("h2", {}, t("create_game")),
      el("div", { class: "form" }, field(t("name"), name), field(t("players"), players), field(t("edition"), edition),
        field(t("deadlines"), deadlines), field(t("press"), pressSel), field(t("bots"), bots),
        el("label", { class: "check" }, pub, t("public")), el("label", { class: "check" }, startNow, t("start_now")),
        el("button", { id: "create-game", onclick: create }, t("create")))),
    el("section", { class: "card" }, el("h2", {}, t("open_games")),
      el("ul", { id: "open-games" }, lists.open.map((g) => gameItem(g, join(g))))),
    el("section", { class: "card" }, el("h2", {}, t("watch_games")),
      el("ul", { id: "watch-games" }, lists.watch.map((g) => gameItem(g, { label: t("watch"), fn: open(g).fn })))));
}

// --- the game ---------------------------------------------------------------------------
async function showGame(gameId) {
  S.gameId = gameId; S.game = null; S.selected = null; S.lastMsg = 0; S.messages = []; S.mapKey = null;
  S.historyPhase = null;
  fill(view(), el("div", { id: "game", class: "game" },
    el("section", { id: "game-head", class: "card head" }),
    el("section", { id: "board", class: "card board" },
      el("div", { id: "map", class: "map" }),
      el("div", { id: "map-legend", class: "muted" })),
    el("section", { id: "orders-panel", class: "card" }),
    el("section", { id: "messages-panel", class: "card" }),
    el("section", { id: "history-panel", class: "card" }),
    el("section", { id: "seats-panel", class: "card" })));
  await refresh(true);
  S.poll = setInterval(() => refresh(false), 2500);
  S.clock = setInterval(tickClock, 1000);
}

async function refresh(force) {
  const game = await guarded(() => api("GET", `/games/${S.gameId}?language=${S.lang}`));
  if (!game) return;
  const changed = force || !S.game || S.game.version !== game.version || S.game.phase !== game.phase;
  S.game = game;
  S.offset = game.now - Date.now() / 1000;
  if (!S.power || !game.my_powers.includes(S.power)) S.power = game.my_powers[0] || null;
  renderHead();
  renderSeats();
  if (game.status === "forming") {
    fill(document.getElementById("map"), el("p", { class: "muted" }, t("forming")));
    fill(document.getElementById("orders-panel"));
    return;
  }
  if (changed) {
    await busy(async () => {
      S.selected = null;
      S.ordersKey = null;
      await loadLegal();
      await renderMap();
      renderOrders();
      await renderHistory();
    });
  } else {
    renderOrders();
  }
  await loadMessages();
}

function tickClock() {
  const g = S.game;
  const box = document.getElementById("clock");
  if (!g || !box) return;
  const now = Date.now() / 1000 + S.offset;
  const fmt = (secs) => {
    secs = Math.max(0, Math.floor(secs));
    const h = Math.floor(secs / 3600), m = Math.floor((secs % 3600) / 60), s = secs % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(s).padStart(2, "0");
  };
  let text = g.deadline_at ? `${t("deadline")} ${fmt(g.deadline_at - now)}` : t("no_deadline");
  if (g.press_until && g.press_until > now && g.phase && g.phase.endsWith("M")) text += ` · ${t("press_closes")} ${fmt(g.press_until - now)}`;
  box.textContent = text;
}

function renderHead() {
  const g = S.game;
  const head = document.getElementById("game-head");
  const kids = [el("h2", {}, g.name), el("span", { id: "phase", class: "phase" }, g.phase || t(g.status)),
    el("span", { id: "clock", class: "clock" })];
  if (g.my_powers.length > 1) {
    const sel = el("select", { id: "power", onchange: () => { S.power = sel.value; S.mapKey = null; refresh(true); } },
      g.my_powers.map((p) => el("option", { value: p, selected: p === S.power }, p)));
    kids.push(sel);
  } else if (S.power) {
    kids.push(el("span", { id: "power", class: "power-tag" }, S.power));
  } else if (g.status !== "forming") {
    kids.push(el("span", { class: "muted" }, t("observer")));
  }
  if (g.status === "forming") {
    if (g.creator_id === S.user.id) kids.push(el("button", { id: "start", onclick: () => guarded(async () => { await api("POST", `/games/${g.id}/start`); refresh(true); }) }, t("start")));
    if (!g.is_player) kids.push(el("button", { id: "join", onclick: () => guarded(async () => { await api("POST", `/games/${g.id}/join`, {}); refresh(true); }) }, t("join")));
  }
  if (g.invite_code) {
    const link = `${location.origin}/#/join/${g.invite_code}`;
    kids.push(el("div", { class: "invite muted" }, t("invite") + ": ", el("code", { id: "invite-link" }, link)));
  }
  if (g.is_over || g.status === "finished") {
    kids.push(el("div", { id: "game-over", class: "over" }, `${t("game_over")} · ${t("winners")}: ${(g.winners || (g.result && g.result.winners) || []).join(", ")}`));
  } else if (S.power && g.status === "active") {
    kids.push(el("div", { class: "row" },
      el("button", { id: "vote-draw", class: "secondary small", onclick: () => guarded(async () => { await api("POST", `/games/${g.id}/draw`, { power: S.power, agree: true }); flash(t("saved")); refresh(true); }) }, t("draw")),
      el("button", { id: "concede", class: "secondary small", onclick: () => { if (confirm(t("confirm_concede"))) guarded(async () => { for (const p of g.my_powers) await api("POST", `/games/${g.id}/concede`, { power: p }); refresh(true); }); } }, t("concede"))));
  }
  fill(head, ...kids);
  tickClock();
}

function renderSeats() {
  const g = S.game;
  const rows = g.seats.map((s) => el("tr", {},
    el("td", {}, s.powers.join(", ") || `${t("seat")} ${s.seat}`),
    el("td", {}, s.player || (s.bot ? `${t("bot")} (${s.bot})` : t(s.taken ? "seat_taken" : "empty"))),
    el("td", {}, s.powers.map((p) => (g.centers && g.centers[p] !== undefined ? g.centers[p] : "")).join(" ")),
    el("td", {}, s.powers.map((p) => (g.ready && p in g.ready ? (g.ready[p] ? "✓" : "…") : "")).join(" "))));
  fill(document.getElementById("seats-panel"),
    el("h3", {}, t("players")),
    el("table", { id: "seats" }, el("tr", {}, el("th", {}, t("power")), el("th", {}, t("players")), el("th", {}, t("centers")), el("th", {}, t("ready"))), rows));
}

async function loadLegal() {
  S.legal = {};
  const g = S.game;
  if (!S.power || !g.orders || !g.orders[S.power] || !g.orders[S.power].to_act || g.status !== "active") return;
  S.legal = (await guarded(() => api("GET", `/games/${g.id}/legal?power=${S.power}&language=${S.lang}`))) || {};
}

async function renderMap() {
  const g = S.game;
  const key = `${g.id}:${g.version}:${S.power}:${S.lang}:${JSON.stringify(g.orders && g.orders[S.power] ? g.orders[S.power].orders : [])}`;
  if (key === S.mapKey) return;
  S.mapKey = key;
  const qs = new URLSearchParams({ language: S.lang });
  if (S.power) qs.set("power", S.power);
  const svg = await guarded(() => api("GET", `/games/${g.id}/map.svg?${qs}`));
  const box = document.getElementById("map");
  box.innerHTML = svg || "";
  const pic = box.querySelector("svg");
  if (pic) { pic.removeAttribute("width"); pic.removeAttribute("height"); pic.onclick = onMapClick; }
  markSelected();
}

// Which province an element of the server's SVG stands for: the element (or an ancestor)
// carries it as data-province / data-location, or as its id.
function provinceOf(node, svg) {
  for (let n = node; n && n !== svg.parentNode; n = n.parentNode) {
    if (!n.getAttribute) continue;
    const raw = n.getAttribute("data-province") || n.getAttribute("data-location") || n.getAttribute("data-loc") || n.id;
    if (!raw) continue;
    const m = String(raw).toUpperCase().match(/(?:^|[-_:])([A-Z]{3})(?:[\/_-]([A-Z]{2}))?$/);
    if (m) return m[1];
  }
  return null;
}

function keyFor(province) {
  return Object.keys(S.legal).find((k) => k.split("/")[0] === province) || null;
}

function onMapClick(ev) {
  const svg = ev.currentTarget;
  const prov = provinceOf(ev.target, svg);
  if (!prov) return;
  clickProvince(prov);
}

function clickProvince(prov) {
  if (!S.selected) {
    const key = keyFor(prov);
    if (key) selectKey(key);
    return;
  }
  const options = S.legal[S.selected] || [];
  if (S.selected.split("/")[0] === prov) {
    const hold = options.find((o) => o.kind === "hold");
    if (hold) { giveOrder(hold.order); return; }
    renderLegal(options);
    return;
  }
  const moves = options.filter((o) => (o.kind === "move" || o.kind === "retreat") && o.dest === prov && !o.via);
  if (moves.length === 1) { giveOrder(moves[0].order); return; }
  const mentioning = options.filter((o) => o.dest === prov || o.target === prov);
  if (mentioning.length) { renderLegal(mentioning); return; }
  const key = keyFor(prov);
  if (key) selectKey(key);
}

function selectKey(key) {
  S.selected = key;
  renderLegal(S.legal[key] || []);
  markSelected();
}

function markSelected() {
  const box = document.getElementById("map");
  for (const n of box.querySelectorAll(".rp-selected")) n.classList.remove("rp-selected");
  document.getElementById("map-legend").textContent = S.selected ? `${t("legal_orders")} ${S.selected}` : (Object.keys(S.legal).length ? t("select_unit") : "");
}

function renderLegal(options) {
  const box = document.getElementById("legal");
  if (!box) return;
  fill(box,
    el("h4", {}, `${t("legal_orders")} ${S.selected || ""}`),
    el("div", { class: "options" }, options.map((o) => el("button", {
      class: "legal-option small", "data-order": o.order, "data-kind": o.kind, onclick: () => giveOrder(o.order),
    }, o.text))));
}

// While an action is on its way, <body data-busy> (the tests wait for it to go).
async function busy(fn) {
  S.busy = (S.busy || 0) + 1;
  document.body.dataset.busy = "1";
  try { return await fn(); } finally { S.busy -= 1; if (!S.busy) delete document.body.dataset.busy; }
}

async function giveOrder(order) {
  await busy(async () => {
    const g = S.game;
    const res = await guarded(() => api("PUT", `/games/${g.id}/orders`, { power: S.power, orders: [order], merge: true, language: "en" }));
    if (!res) return;
    S.selected = null;
    S.ordersKey = null;
    await refresh(false);
    await renderMap();
    markSelected();
  });
}

function renderOrders() {
  const g = S.game;
  const panel = document.getElementById("orders-panel");
  if (!S.power || !g.orders || !g.orders[S.power] || g.status !== "active") { fill(panel); S.ordersKey = null; return; }
  const mine = g.orders[S.power];
  const key = JSON.stringify([g.version, S.lang, mine, Object.keys(S.legal)]);
  if (key === S.ordersKey) return;  // nothing new: keep the panel (and the player's place)
  S.ordersKey = key;
  if (document.activeElement && document.activeElement.id === "typed") {
    // don't rebuild the panel under the player's fingers; refresh the list only
    const list = document.getElementById("my-orders");
    if (list) fill(list, ...orderItems(mine));
    return;
  }
  const typed = el("textarea", { id: "typed", rows: 3, placeholder: t("typed_orders") });
  const readyBtn = el("button", {
    id: "ready", class: mine.ready ? "ready on" : "ready",
    onclick: () => busy(() => guarded(async () => { await api("POST", `/games/${g.id}/ready`, { power: S.power, ready: !mine.ready }); await refresh(true); })),
  }, mine.ready ? `✓ ${t("ready")}` : t("ready"));
  const waive = S.legal.WAIVE ? el("button", { id: "waive", class: "small secondary", onclick: () => giveOrder(S.legal.WAIVE[0].order) }, t("waive")) : null;
  const keys = Object.keys(S.legal).filter((k) => k !== "WAIVE");
  fill(panel,
    el("h3", {}, `${t("your_orders")} · ${S.power}`),
    mine.to_act ? null : el("p", { class: "muted" }, t("nothing_to_order")),
    el("ul", { id: "my-orders" }, orderItems(mine)),
    mine.missing && mine.missing.length ? el("p", { id: "missing", class: "warn" }, `${t("units_without_orders")}: ${mine.missing.join(", ")}`) : null,
    keys.length ? el("div", { id: "units", class: "units" }, keys.map((k) => el("button", { class: "unit small secondary", "data-key": k, onclick: () => selectKey(k) }, k))) : null,
    waive,
    el("div", { id: "legal" }),
    mine.to_act ? el("div", { class: "typed" }, typed,
      el("div", { class: "row" },
        el("button", { id: "submit-typed", onclick: () => submitTyped(typed) }, t("submit")),
        el("button", { id: "clear-orders", class: "secondary", onclick: () => replaceOrders([]) }, t("clear")))) : null,
    mine.to_act ? readyBtn : null);
  if (S.selected && S.legal[S.selected]) renderLegal(S.legal[S.selected]);
}

function orderItems(mine) {
  if (!mine.orders.length) return [el("li", { class: "muted" }, t("no_orders"))];
  return mine.orders.map((o) => el("li", { class: "order", "data-order": o.order },
    el("span", {}, o.text), " ",
    el("span", { class: "status" }, mine.ready ? `✓ ${t("ready")}` : "…"), " ",
    el("button", { class: "link", title: t("remove"), onclick: () => replaceOrders(mine.orders.filter((x) => x.order !== o.order).map((x) => x.order)) }, "✕")));
}

async function replaceOrders(orders) {
  await busy(async () => {
    const res = await guarded(() => api("PUT", `/games/${S.game.id}/orders`, { power: S.power, orders, language: "en" }));
    if (res) { S.ordersKey = null; await refresh(false); await renderMap(); }
  });
}

async function submitTyped(box) {
  const lines = box.value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!lines.length) return;
  await busy(async () => {
    const res = await guarded(() => api("PUT", `/games/${S.game.id}/orders`, { power: S.power, orders: lines, merge: true, language: S.lang }));
    if (res) { box.value = ""; box.blur(); flash(t("saved")); S.ordersKey = null; await refresh(false); await renderMap(); }
  });
}

// --- messages ---------------------------------------------------------------------------
async function loadMessages() {
  const g = S.game;
  const fresh = await guarded(() => api("GET", `/games/${g.id}/messages?after=${S.lastMsg}`));
  if (!fresh) return;
  for (const m of fresh) { S.messages.push(m); S.lastMsg = Math.max(S.lastMsg, m.id); }
  renderMessages();
}

function renderMessages() {
  const g = S.game;
  const panel = document.getElementById("messages-panel");
  const list = el("ul", { id: "messages", class: "messages" }, S.messages.map((m) => el("li", { class: m.recipients.length ? "private" : "public" },
    el("b", {}, m.sender), el("span", { class: "muted" }, ` → ${m.recipients.length ? m.recipients.join(", ") : t("everyone")} · ${m.phase}`),
    el("div", {}, m.body))));
  const existing = document.getElementById("compose");
  if (existing && existing.contains(document.activeElement)) {
    const old = document.getElementById("messages");
    if (old) old.replaceWith(list);
    return;
  }
  const kids = [el("h3", {}, t("messages")), list];
  if (S.power && g.settings.press !== "none") {
    const others = (g.powers || []).filter((p) => p !== S.power);
    const body = el("textarea", { id: "message-body", rows: 2 });
    const boxes = others.map((p) => el("label", { class: "check small" }, el("input", { type: "checkbox", value: p, class: "recipient" }), p));
    const send = () => guarded(async () => {
      const to = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
      await api("POST", `/games/${g.id}/messages`, { sender: S.power, recipients: to, body: body.value });
      body.value = "";
      await loadMessages();
    });
    kids.push(el("div", { id: "compose" }, el("div", { class: "muted" }, `${t("to")}: ${t("to_hint")}`),
      g.settings.press === "full" ? el("div", { class: "recipients" }, boxes) : null, body,
      el("button", { id: "send-message", onclick: send }, t("send"))));
  }
  fill(panel, ...kids);
  list.scrollTop = list.scrollHeight;
}

// --- history ----------------------------------------------------------------------------
async function renderHistory() {
  const g = S.game;
  const phases = (await guarded(() => api("GET", `/games/${g.id}/history`))) || [];
  const panel = document.getElementById("history-panel");
  fill(panel, el("h3", {}, t("history")),
    el("div", { id: "history", class: "options" }, phases.map((p) => el("button", {
      class: "small secondary history-phase", "data-phase": p.phase, onclick: () => showPhase(p.phase),
    }, p.phase))),
    el("div", { id: "history-view" }));
}

async function showPhase(phase) {
  const g = S.game;
  const record = await guarded(() => api("GET", `/games/${g.id}/history/${phase}?language=${S.lang}`));
  const svg = await guarded(() => api("GET", `/games/${g.id}/map.svg?phase=${phase}&language=${S.lang}`));
  if (!record) return;
  const pic = el("div", { class: "map history-map" });
  pic.innerHTML = svg || "";
  const s = pic.querySelector("svg");
  if (s) { s.removeAttribute("width"); s.removeAttribute("height"); }
  const rows = [];
  for (const [power, entries] of Object.entries(record.orders)) {
    for (const e of entries) {
      rows.push(el("tr", { class: "result-" + e.result }, el("td", {}, power), el("td", {}, e.text || e.order),
        el("td", {}, t(e.result) + (e.unit ? `, ${t(e.unit)}` : "")), el("td", { class: "muted" }, e.reason || "")));
    }
  }
  fill(document.getElementById("history-view"),
    el("h4", {}, `${t("results")} · ${phase}`), pic,
    el("table", { id: "results", class: "results" }, rows));
}

document.addEventListener("DOMContentLoaded", boot);
