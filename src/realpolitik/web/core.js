// Shared by every module of the page: the state, translations, DOM and API helpers.
// No game rules here: legal orders, checks, results and the map picture come from /api.

export const S = {
  user: null, lang: localStorage.getItem("rp_lang") || "en", i18n: {},
  gameId: null, game: null, power: null, legal: {}, legalBy: {}, ownerOf: {}, lastMsg: 0, messages: [],
  poll: null, clock: null, events: null, onVisible: null, offset: 0, pendingJoin: null, refused: [],
  page: 0,  // counts the pages shown (route, the lobby): a page fetched late is not drawn
  toSeats: false,  // the game page shown next opens at its players (a bot's seat to take over)
  drafts: readDrafts(),  // what is typed and not given or sent yet (orders, a message): keepDrafts
};

// What is typed and not given or sent yet is kept while the page is drawn again, and in
// the tab's session storage (keepDrafts, at each change): a reload of the page (a thumb's
// pull-to-refresh on a phone) lost it. The tab's only: gone with it, and at logging out.
function readDrafts() {
  try { return JSON.parse(sessionStorage.getItem("rp_drafts") || "{}") || {}; } catch { return {}; }
}

export function keepDrafts() {
  try { sessionStorage.setItem("rp_drafts", JSON.stringify(S.drafts)); } catch { /* storage off or full: kept in the page */ }
}

// A touch screen (its main pointer a finger: a phone, a tablet; not a narrow window with a
// mouse), whose player taps rather than clicks.
const touch = window.matchMedia("(pointer: coarse)");

// Does the count ``n`` take the singular in the page's language? One does; in French
// and Portuguese zero does too ("0 bot", "0 lugar livre"), as the language's plural rules say.
export function singular(n) {
  return new Intl.PluralRules(S.lang).select(Number(n)) === "one";
}

export function t(key, vars) {
  // a count in the singular has its own words where the table the text comes from has
  // them ("1 removal due", "2 removals due": not "1 removal(s) due"); so has a touch
  // screen ("Tap a unit", not "Click a unit")
  const table = (S.i18n[S.lang] && S.i18n[S.lang][key]) ? S.i18n[S.lang] : (S.i18n.en || {});
  if (vars && vars.n !== undefined && table[key + "_one"] && singular(vars.n)) key += "_one";
  if (touch.matches && table[key + "_touch"]) key += "_touch";
  let text = (S.i18n[S.lang] && S.i18n[S.lang][key]) || (S.i18n.en && S.i18n.en[key]) || key;
  for (const [k, v] of Object.entries(vars || {})) text = text.replaceAll(`{${k}}`, v);
  return text;
}

// ``prefix + value`` translated, or ``value`` itself when there is no such word yet.
export function word(prefix, value) {
  const key = prefix + value;
  return (S.i18n[S.lang] && S.i18n[S.lang][key]) || (S.i18n.en && S.i18n.en[key]) || value;
}

// A power's name in the page's language (the server sends them with the game).
export function powerName(power) {
  const names = S.game && S.game.names && S.game.names.powers;
  return (names && names[power]) || (power ? power.charAt(0) + power.slice(1).toLowerCase() : "");
}

// Who plays what at a table (/api/meta's tables; a game's table): each player's powers
// where some play several, then the powers out of play and those off the board
export function whoPlays(table, name) {
  if (!table) return "";
  const said = [];
  if (table.groups.some((g) => g.length > 1)) said.push(table.groups.map((g) => g.map(name).join(" + ")).join("; ") + ".");
  if (table.out.length) said.push(`${t("table_out")}${t("colon")}${table.out.map(name).join(", ")}.`);
  if (table.absent.length) said.push(`${t("table_absent")}${t("colon")}${table.absent.map(name).join(", ")}.`);
  return said.join(" ");
}

// The powers someone plays, a person or a bot (not those out of a smaller table: their
// units only hold, and nobody reads what is written to them).
export function inPlay(game) {
  return new Set(((game && game.seats) || []).flatMap((s) => s.powers));
}

// My powers still in the game: not conceded (a conceded power acts and talks no more).
export function playing(game) {
  const out = game.conceded || [];
  return game.my_powers.filter((p) => !out.includes(p));
}

// A phase's name in the page's language ("Otoño de 1901"): the current one, one in the
// history, or the code itself when neither is known ("S1901M").
export function phaseName(code) {
  const g = S.game;
  if (g && code === g.phase && g.names) return g.names.phase;
  const past = (S.history || []).find((h) => h.phase === code);
  return past ? past.name : code;
}

// The game's phase as the page shows it ("Otoño de 1901"; "forming" before it starts).
export function phaseShown(g) {
  return g.status === "forming" ? t("forming") : g.names ? g.names.phase : (g.phase || t(g.status));
}

// My powers with orders due in ``game``: asked to act and not ready yet.
export function ordersDue(game) {
  return game.my_powers.filter((p) => game.orders && game.orders[p] && game.orders[p].to_act && !game.orders[p].ready);
}

// The tab's title: the page's ``name`` ("realpolitik" alone without one), after what waits
// for me there, so that a tab in the background tells it: ``unread`` messages, "(3)", and
// orders ``due``, "●". The pages call it where they are drawn, and the address changed
// makes it plain at once (nothing of the page left is shown meanwhile).
export function setTitle(name = null, unread = 0, due = false) {
  document.title = [unread ? `(${unread})` : null, due ? "●" : null, name ? `${name} — realpolitik` : "realpolitik"]
    .filter(Boolean).join(" ");
}

// A unit in words, capitalised ("El ejército de Bohemia"; the server names every unit on
// the board), or "A BOH" itself when it is not named.
export function unitName(unit) {
  const names = S.game && S.game.names && S.game.names.units;
  const text = (names && names[unit]) || unit;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A province's name in the page's language ("Moscú"), its code if the server gave none;
// ``article``: as a sentence names it, with its article ("el Tirol", "the North Sea"); only
// ``true`` asks for it (``list.map(place)`` passes each item's index: "Grécia, a Sérvia").
export function place(code, article = false) {
  const names = S.game && S.game.names && S.game.names[article === true ? "places" : "provinces"];
  const prov = String(code).split("/")[0];
  return (names && names[prov]) || code;
}

// Words listed as a sentence lists them in the page's language, the last after "and"
// ("la Grèce, la Serbie et la Bulgarie"; "Greece, Serbia, and Bulgaria"); with commas
// alone where the browser cannot say it.
export function listed(words) {
  try { return new Intl.ListFormat(S.lang, { type: "conjunction" }).format(words); } catch (e) { return words.join(", "); }
}

export function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node[k] = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
}

// replaceChildren without the null/false placeholders of optional parts. The focus, if it
// was in ``node``, is not lost with what it was on (a keyboard's player was sent back to
// the page's top by every order given, vote, Ready or message sent): it goes to the control
// that stands for the same in the new content (see :func:`identity`), else to ``node``
// itself, from where Tab goes on.
export function fill(node, ...kids) {
  if (!node) return;
  const focused = document.activeElement;
  const was = focused && focused !== node && node.contains(focused) ? identity(focused, node) : null;
  node.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
  if (was !== null && !node.contains(document.activeElement)) refocus(node, was);
}

// What a control stands for across a redraw: its data-focus (two buttons for one thing,
// "Vote draw" and "Withdraw"), else its id, else its tag and data- attributes and those
// of the elements round it up to one with an id or ``root`` (the remove button of the
// order "A PAR - BUR"); not its class, which tells its state ("done", "on").
function identity(e, root) {
  const parts = [];
  for (let n = e; n && n !== root; n = n.parentElement) {
    if (n.dataset.focus) { parts.push("@" + n.dataset.focus); break; }
    if (n.id) { parts.push("#" + n.id); break; }
    parts.push([n.tagName, n.getAttribute("role"), ...[...n.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `${a.name}=${a.value}`)].join(" "));
  }
  return parts.join(" < ");
}

// The focus put back in ``node`` on the control of identity ``was`` (enabled and shown),
// else on ``node`` itself.
export function refocus(node, was) {
  const same = [...node.querySelectorAll("*")].find((e) => identity(e, node) === was && !e.disabled && e.getClientRects().length);
  if (same) { same.focus({ preventScroll: true }); return; }
  if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "-1");
  node.focus({ preventScroll: true });
}

// ``old`` (in the page) made to show what ``fresh`` (not in it) shows, with as few nodes
// replaced as that needs: a node equal to its new self is kept (its focus, what a click on
// it does: equal nodes stand for the same thing); one whose tag, attributes or number of
// children changed is replaced whole; the others are looked into. Returns the node shown.
export function redraw(old, fresh) {
  if (old.isEqualNode(fresh)) return old;
  const same = old.nodeType === Node.ELEMENT_NODE && old.tagName === fresh.tagName
    && old.childNodes.length && old.childNodes.length === fresh.childNodes.length
    && old.getAttributeNames().join() === fresh.getAttributeNames().join()
    && old.getAttributeNames().every((a) => old.getAttribute(a) === fresh.getAttribute(a));
  if (!same) { old.replaceWith(fresh); return fresh; }
  const pairs = [...old.childNodes].map((node, i) => [node, fresh.childNodes[i]]);
  for (const [was, now] of pairs) redraw(was, now);
  return old;
}

// An unlisted game's invitation code, kept in this tab once its link was followed: the
// server shows such a game to its players and to whoever holds the code, so an invited
// visitor who found no free seat (bots in them, to take over) sees the game, and joins it.
export const inviteCode = (gameId) => sessionStorage.getItem(`rp_code_${gameId}`);
export const keepInviteCode = (gameId, code) => sessionStorage.setItem(`rp_code_${gameId}`, code);

// A read of a game (``/games/ID...``) with its invitation code, if this tab holds one.
export function withCode(path) {
  const game = /^\/games\/(\d+)/.exec(path);
  const code = game && inviteCode(game[1]);
  return code ? `${path}${path.includes("?") ? "&" : "?"}code=${encodeURIComponent(code)}` : path;
}

export async function api(method, path, body) {
  const opts = { method, headers: { "X-Requested-With": "realpolitik" }, credentials: "same-origin" };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const res = await fetch("/api" + (method === "GET" ? withCode(path) : path), opts);
  if (res.status === 204) return null;
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    const err = new Error((data && data.detail) || res.statusText);
    err.status = res.status;
    err.refused = data && data.refused;
    err.code = data && data.code;
    err.values = data && data.values;
    throw err;
  }
  return data;
}

export function flash(message, isError) {
  const box = document.getElementById("flash");
  box.textContent = message;
  box.className = isError ? "error" : "info";
  box.hidden = !message;
  // said by a screen reader: the flash, shown as it is filled, was a live region that
  // appears with its words, which a screen reader does not read
  announce(message);
  // a tap puts it away at once: on a phone it lies over the page (the refused orders it
  // points to, "see why in the list", were under it for 8 s)
  box.onclick = clearFlash;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { box.hidden = true; }, shownFor(message, isError));
}

// How long a flash stays (ms): an error 8 s; news 2.5 s ("Saved"), a long one the time to
// read it, 60 ms a character (a bot's seat taken over, 140 characters of what to do next,
// went in 2.5 s: five of its 25 words read).
const shownFor = (message, isError) => Math.max(isError ? 8000 : 2500, 60 * String(message || "").length);

// News the page hears said by a screen reader (a new phase, a message from another power),
// politely and without moving the focus: the page changed without a word before. The
// region is in the page from its start (one added with its words is not read).
export function announce(text) {
  const box = document.getElementById("announce");
  if (!box || !text) return;
  if (box.textContent !== text) { box.textContent = text; return; }
  box.textContent = "";  // the same words again (an order refused twice): a change to say
  setTimeout(() => { box.textContent = text; }, 50);
}

export function clearFlash() {
  clearTimeout(flash.timer);
  document.getElementById("flash").hidden = true;
}

// An error of the server in the page's language: by its code where the server gives one
// the page knows ("username_taken"), else the server's own words.
export function errorText(e) {
  const key = "error_" + e.code;
  if (!e.code || t(key) === key) return e.message;
  // the powers it names come as codes ("ENGLAND", "ITALY, TURKEY"): named in the page's language
  const values = { ...e.values };
  if (values.power) values.power = powerName(values.power);
  if (values.powers) values.powers = String(values.powers).split(", ").map(powerName).join(", ");
  return t(key, values);
}

// Runs fn; an error is shown and undefined returned. ``ok`` tells success from failure.
export async function guarded(fn) {
  try { return await fn(); } catch (e) { flash(errorText(e), true); return undefined; }
}

export const view = () => document.getElementById("view");

// While an action is on its way, <body data-busy> (the tests wait for it to go).
export async function busy(fn) {
  S.busy = (S.busy || 0) + 1;
  document.body.dataset.busy = "1";
  try { return await fn(); } finally { S.busy -= 1; if (!S.busy) delete document.body.dataset.busy; }
}

// A player's action (a request, then the page refreshed): busy until done, its error flashed.
export const act = (fn) => busy(() => guarded(fn));

export function stopTimers() {
  clearInterval(S.poll); clearInterval(S.clock); S.poll = S.clock = S.onVisible = null;
  if (S.events) { S.events.close(); S.events = null; }
}

// To ``hash`` ("#" is the lobby); the page is shown again even if it is there already
// (the lobby's address is "/" as well as "/#", where setting "#" changes nothing).
export function go(hash) {
  if ((location.hash || "#") === (hash || "#")) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}
