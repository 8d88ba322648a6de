// The game page: its header (phase, clock, power, draw votes), the players, and the
// refresh loop that keeps the board, orders, press and history up to date.
import { S, act, announce, api, busy, clearFlash, el, fill, flash, guarded, inviteCode, ordersDue, phaseShown, playing, powerName, t, view, whoPlays, withCode, word } from "./core.js";
import { loadLegal, renderBoard } from "./board.js";
import { renderOrders } from "./orders.js";
import { loadMessages, resetPress, showTitle } from "./press.js";
import { loadHistory, showResultsSince } from "./history.js";
import { REMIND, notifyButton, tellDeadline, tellPhase } from "./notify.js";

export async function showGame(gameId) {
  const page = S.page;  // (the page shown again meanwhile, in another language, say: it goes on)
  S.gameId = gameId; S.game = null; S.lastMsg = 0; S.messages = []; S.refused = [];
  S.shown = null; S.unseen = []; S.selection = null; S.zoom = undefined; S.zoomOfResults = false;
  resetPress();
  fill(view(), el("div", { id: "game", class: "game" },
    el("section", { id: "game-head", class: "card head" }),
    el("section", { id: "board", class: "card board" },
      el("div", { id: "stepper", class: "stepper" }),
      el("div", { id: "summary" }),
      el("div", { id: "map-wrap", class: "map-wrap" }, el("div", { id: "map", class: "map" })),
      el("div", { id: "map-legend", class: "legend-html" }),
      el("div", { id: "results-view" })),
    el("section", { id: "orders-panel", class: "card" }),
    el("section", { id: "messages-panel", class: "card" }),
    el("section", { id: "seats-panel", class: "card" })),
    // a phone's action bar (orders.js): the page's last part, kept in view at the bottom
    el("div", { id: "action-bar", class: "action-bar", hidden: true }));
  await refresh(true);
  if (S.gameId !== gameId || S.page !== page) return;  // left, or shown again, meanwhile
  if (!S.game) {  // no such game, or not mine to see: say so, and ask no more
    fill(view(), el("section", { id: "game-missing", class: "card" },
      el("p", {}, t("game_unavailable")), el("a", { href: "#" }, t("lobby"))));
    return;
  }
  S.clock = setInterval(tickClock, 1000);
  listen(gameId);
  if (S.toSeats) toSeats();
}

// The players' list brought into view (on a phone, the page's last card): where a bot's
// seat is taken over.
function toSeats() {
  S.toSeats = false;
  document.getElementById("seats-panel").scrollIntoView({ block: "start" });
}

// Take over the seat that plays ``power`` (a bot's, or one left empty; the server's join):
// the page then shows the game as its player's, the bot's orders of this phase listed, not
// ready. The button goes dead at once: a double click asks once.
function takeOver(power, button) {
  const g = S.game;
  button.disabled = true;
  return act(async () => {
    const done = await api("POST", `/games/${g.id}/join`, { power, code: inviteCode(g.id) || undefined });
    await refresh(true);
    flash(t("took_over", { powers: done.my_powers.map(powerName).join(", ") }));
  }).finally(() => { button.disabled = false; });
}

// Server push: the game's event stream says when what I see of it changed, and the page
// fetches it then. Polling (every 2.5 s) only while the stream is down (the browser
// reconnects it) or where there is no EventSource.
function listen(gameId) {
  const poll = (on) => {
    clearInterval(S.poll);
    S.poll = on ? setInterval(() => refresh(false), 2500) : null;
  };
  if (!window.EventSource) { poll(true); return; }
  const source = new EventSource("/api" + withCode(`/games/${gameId}/events`));
  S.events = source;
  let news = null, timer = null;
  // when my orders were last given, here or in another tab of mine (undefined: not heard
  // yet; the page has just fetched them)
  let mine;
  const settle = () => {
    timer = null;
    if (S.gameId !== gameId || !news) return;
    // not while an action of mine is on its way (it refreshes the page itself), nor
    // under a player choosing an order when the board would be redrawn in the same phase
    // (the stream's first word: given after the page fetched the game, they are not shown)
    const given = news.my_orders || 0;
    const orders = mine !== undefined ? given !== mine : given > ((S.game && S.game.now) || 0);
    const redraw = S.game && ((news.phase === S.game.phase && news.version !== S.game.version) || orders);
    if (S.busy || (redraw && S.selection)) { timer = setTimeout(settle, 300); return; }
    const heard = news;
    news = null;
    mine = heard.my_orders || 0;
    if (!orders && known(heard)) return;
    // the press is fetched only if there is news of it; press alone: only the press
    const press = heard.message > (S.lastMsg || 0);
    if (press && !orders && onlyPress(heard)) busy(() => loadMessages());
    else if (orders) refresh(false, press).then(() => S.gameId === gameId && busy(renderBoard));  // my orders drawn
    else refresh(false, press);
  };
  source.addEventListener("change", (e) => {
    news = JSON.parse(e.data);
    if (!timer) timer = setTimeout(settle, 100);
  });
  source.onopen = () => poll(false);
  source.onerror = () => poll(true);  // the first change event after reconnecting says what was missed
}

// Whether the page shows what a change event announces already (my own action, say).
function known(news) {
  return onlyPress(news) && news.message <= (S.lastMsg || 0);
}

// Whether the game the page shows is the one announced, but for its press.
function onlyPress(news) {
  const g = S.game;
  if (!g || news.gone) return false;
  const ready = Object.values(g.ready || {}).filter(Boolean).length;
  const seated = (g.seats || []).filter((s) => s.taken).length;
  return news.version === g.version && news.phase === g.phase && news.status === g.status
    && news.deadline_at === g.deadline_at && news.press_until === g.press_until
    && news.ready === ready && news.seated === seated;
}

// Refreshes run one at a time, in order: one asked for while another runs waits for it,
// and several asked for meanwhile are one (its fetch starts after each was asked for, so
// it sees their changes). A game older than the one shown is never shown.
let chain = Promise.resolve();
let queued = null;

export function refresh(force, press = true) {
  if (queued) { queued.force = queued.force || force; queued.press = queued.press || press; return queued.done; }
  const next = { force, press };
  queued = next;
  next.done = chain.then(() => {
    queued = null;
    return busy(() => fetchAndShow(next.force, next.press));
  });
  chain = next.done.catch(() => {});
  return next.done;
}

// ``press``: fetch new press too (else only what the game's change asks to show again).
async function fetchAndShow(force, press) {
  const gameId = S.gameId;
  const game = await guarded(() => api("GET", `/games/${gameId}?language=${S.lang}`));
  if (!game || game.id !== S.gameId) return;
  const before = S.game;
  if (before && before.id === game.id && game.version < before.version) return;  // stale
  const changed = force || !before || before.version !== game.version || before.phase !== game.phase;
  await update(game, before, changed, press);
}

// Show ``game`` (``changed``: a new version: the board, orders and history again).
async function update(game, before, changed, press = true) {
  S.game = game;
  S.offset = game.now - Date.now() / 1000;
  tellNewPhase(game, before);
  if (!S.power || !game.my_powers.includes(S.power) || !playing(game).includes(S.power)) S.power = pickPower(game);
  renderHead();
  renderSeats();
  if (game.status === "forming") {
    fill(document.getElementById("map"), el("p", { id: "forming", class: "muted" }, t(formingHint(game), { n: game.seats.filter((s) => !s.taken && !s.player && !s.bot).length })),
      settingsList(game));
    renderOrders(true);  // nothing to order yet: no empty card, no action bar
    await loadMessages(press);
    return;
  }
  if (changed) {
    S.selection = null;
    // the phase shown last as the present: before this change, or in this browser's last visit
    const seenKey = `rp_seen_${game.id}`;
    const since = before ? before.phase : localStorage.getItem(seenKey);
    localStorage.setItem(seenKey, game.phase || "");
    const phaseMoved = Boolean(since) && since !== game.phase;
    if (phaseMoved) {  // the refusals go, and the message pointing to them ("see why in the list")
      if (S.refused.length) clearFlash();
      S.refused = [];
      S.zoom = undefined;  // a phone's board zooms again on where this phase's orders are given
    }
    // (after each wait, the page may have moved on: shown again, in another language)
    await loadLegal();
    if (S.game !== game) return;
    await loadHistory();
    if (S.game !== game) return;
    if (!(phaseMoved && await showResultsSince(since))) await renderBoard();
    if (S.game !== game) return;
    renderOrders(true);
  } else {
    renderOrders(false);
  }
  await loadMessages(press);
}

// A new phase heard (or the game started): told by a notice while the page is in the
// background if my orders are due. A phase told with its deadline near already is not
// reminded of again.
function tellNewPhase(game, before) {
  if (!before || before.id !== game.id || (before.phase === game.phase && before.status === game.status)) return;
  const due = ordersDue(game);
  announce([phaseShown(game), due.length ? t("notify_phase", { powers: due.map(powerName).join(", ") }) : null].filter(Boolean).join(". "));
  if (tellPhase(game) && game.deadline_at && game.deadline_at - game.now <= REMIND) S.reminded = `${game.id}/${game.phase}`;
}

// A deadline near and my orders not ready: told once a phase (see :func:`tellDeadline`).
function remind(g, left) {
  const key = `${g.id}/${g.phase}`;
  if (S.reminded !== key && tellDeadline(g, left)) S.reminded = key;
}

// The power shown: one with orders to give first (not one with nothing to do), then one
// still playing (not conceded).
function pickPower(game) {
  const mine = game.my_powers, on = playing(game);
  return mine.find((p) => game.orders && game.orders[p] && game.orders[p].to_act) || on[0] || mine[0] || null;
}

// What a game forming waits for, said to whom can do something about it: its creator
// shares the link and starts it (with bots, if it has them); the others are told who
// starts it (they have neither the link nor Start); without bots, the last seat taken.
function formingHint(game) {
  const mine = game.creator_id === S.user.id;
  const bots = Boolean(game.settings && game.settings.bots);
  return mine ? (bots ? "forming_hint" : "forming_hint_no_bots") : (bots ? "forming_hint_guest" : "forming_hint_guest_no_bots");
}

function fmt(secs) {
  secs = Math.max(0, Math.floor(secs));
  const d = Math.floor(secs / 86400), h = Math.floor((secs % 86400) / 3600), m = Math.floor((secs % 3600) / 60), s = secs % 60;
  if (d) return `${d}d ${h}h`;
  return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(s).padStart(2, "0");
}

export function tickClock() {
  const g = S.game;
  const box = document.getElementById("clock");
  if (!g || !box) return;
  const now = Date.now() / 1000 + S.offset;
  if (g.status !== "active") { box.textContent = ""; return; }
  const at = (secs) => new Date((secs - S.offset) * 1000).toLocaleString(S.lang, { weekday: "short", hour: "2-digit", minute: "2-digit" });
  if (g.deadline_at) remind(g, g.deadline_at - now);
  // "Deadline in 19:57 (Thu 22:45)": a countdown said as one ("Deadline 19:57" read as a time of day)
  let text = g.deadline_at ? `${t("deadline_in", { left: fmt(g.deadline_at - now) })} (${at(g.deadline_at)})` : t("no_deadline");
  const pressOpen = g.press_until && g.press_until > now && g.phase && g.phase.endsWith("M");
  if (pressOpen) text += ` · ${t("press_closes_in", { left: fmt(g.press_until - now) })}`;
  else if (g.press_until && g.phase && g.phase.endsWith("M") && g.settings.press !== "none") text += ` · ${t("press_closed")}`;
  box.textContent = text;
  // the press closing by the clock (the server pushes nothing then): the compose box goes
  if (Boolean(pressOpen) !== S.pressWasOpen) { S.pressWasOpen = Boolean(pressOpen); loadMessages(false); }
}

// What a forming game will be, for those who join it: its edition, clock, press and bots.
function settingsList(g) {
  const s = g.settings;
  const span = (secs) => {  // "15 minutes", "1 day", in the page's language
    const [unit, n] = secs % 86400 === 0 ? ["day", secs / 86400] : secs % 3600 === 0 ? ["hour", secs / 3600] : ["minute", Math.round(secs / 60)];
    return new Intl.NumberFormat(S.lang, { style: "unit", unit, unitDisplay: "long" }).format(n);
  };
  // (La Conquista has no retreats, and its adjustments are its reinforcements)
  const conquista = s.edition === "conquista";
  const times = ["first_diplomacy", "diplomacy", "orders", "retreats", "adjustments"]
    .filter((k) => s.deadlines[k] > 0 && !(conquista && k === "retreats"))
    .map((k) => t(conquista && k === "adjustments" ? "deadline_part_reinforcements" : "deadline_part_" + k, { time: span(s.deadlines[k]) }));
  const item = (label, value) => el("li", {}, el("span", { class: "muted" }, label + t("colon")), value);
  // the table: who plays what (the pairs of four players, 1971's 3b...), where it is not
  // one power each on the whole board
  const table = whoPlays(g.table, powerName);
  return el("ul", { id: "game-settings", class: "settings" },
    item(t("edition"), word("edition_", s.edition)), item(t("players"), String(s.players)),
    table ? item(t("table"), s.setup ? `${s.setup}${t("colon")}${table}` : table) : null,
    item(t("deadlines"), times.length ? times.join(", ") : t("deadline_none")),
    item(t("press"), word("press_", s.press)), item(t("bots"), s.bots ? word("bot_", s.bots) : t("none")),
    item(t("draw_votes"), t("draw_votes_" + s.draw_votes)),
    s.last_year ? el("li", { id: "settings-last-year", title: t("last_year_hint") }, el("span", { class: "muted" }, t("last_year") + t("colon")),
      t("last_year_value", { year: s.last_year })) : null);
}

function renderHead() {
  const g = S.game;
  const head = document.getElementById("game-head");
  const sandbox = Boolean(g.settings && g.settings.sandbox);
  // a sandbox is played alone: no press, and nobody else at the table to list
  for (const id of ["messages-panel", "seats-panel"]) document.getElementById(id).hidden = sandbox;
  const kids = [el("h1", { class: "game-name" }, g.name), el("span", { id: "phase", class: "phase", "data-phase": g.phase || "" }, phaseShown(g)),
    el("span", { id: "clock", class: "clock" }),
    // a shortened game: the final year agreed (the forming game lists it with its settings)
    g.settings && g.settings.last_year && g.status === "active" ? el("span", { id: "last-year", class: "muted", title: t("last_year_hint") },
      `${t("last_year")}${t("colon")}${g.settings.last_year}`) : null, sandbox ? el("span", { id: "sandbox-tag", class: "power-tag", title: t("sandbox_hint") }, t("sandbox")) : null];
  const out = g.my_powers.filter((p) => (g.conceded || []).includes(p));
  if (S.power) {  // all my powers; data-power: the one in focus (whose unit was selected last)
    const name = (p) => (out.includes(p) ? `${powerName(p)} (${t("conceded")})` : powerName(p));
    kids.push(el("span", { id: "power", class: "power-tag" + (out.includes(S.power) ? " out" : ""), "data-power": S.power }, g.my_powers.map(name).join(" · ")));
  } else if (g.status !== "forming") {
    kids.push(el("span", { class: "muted" }, t("observer")));
  }
  // notices in this browser offered, by the clock, to whoever plays here (a game forming
  // tells of its start; a sandbox, played alone and without a clock, of nothing)
  const seated = g.status === "forming" ? g.is_player : g.status === "active" && playing(g).length > 0;
  if (seated && !sandbox) kids.push(notifyButton());
  if (g.status === "forming" && g.creator_id === S.user.id) {
    kids.push(el("button", { id: "start", onclick: () => act(async () => { await api("POST", `/games/${g.id}/start`); refresh(true); }) }, t("start")));
  }
  // a seat free: in a game forming, or left empty in a started one (taken over: its powers
  // played again); a bot's seat to take over: chosen in the players' list, which this shows
  // (the server says which seats are open: the same rule as its join)
  const free = g.seats.some((s) => s.open && !s.bot);
  if (!g.is_player && !sandbox && (g.status === "forming" || (g.status === "active" && free))) {
    kids.push(el("button", { id: "join", onclick: () => act(async () => { await api("POST", `/games/${g.id}/join`, { code: inviteCode(g.id) || undefined }); refresh(true); }) }, t("join")));
  }
  if (!g.is_player && g.status === "active" && g.seats.some((s) => s.open && s.bot)) {
    kids.push(el("button", { id: "take-over", class: "secondary", onclick: toSeats }, t("take_over_a_bot")));
  }
  // the creator's link, while the game forms or while the creator still plays in it
  // (a sandbox is played alone: nobody to invite)
  if (g.invite_code && !sandbox && (g.status === "forming" || (g.status === "active" && playing(g).length))) {
    const link = `${location.origin}/#/join/${g.invite_code}`;
    kids.push(el("div", { class: "invite muted" }, t("invite") + t("colon"), el("code", { id: "invite-link" }, link), " ",
      el("button", { class: "small secondary", id: "copy-invite", onclick: () => { navigator.clipboard && navigator.clipboard.writeText(link); flash(t("copied")); } }, t("copy"))));
  }
  kids.push(tableNews(g));  // (before the draw votes: who no longer votes)
  if (g.is_over || g.status === "finished") {
    const won = g.winners || (g.result && g.result.winners) || [];
    const winners = won.map(powerName).join(", ");
    // (a draw agreed: the powers sharing it, not "winners")
    kids.push(el("div", { id: "game-over", class: "over" }, `${t("game_over")} · ${t(g.draw ? "drawn" : "winners", { n: won.length })}${t("colon")}${winners}`));
  } else if (S.power && g.status === "active") {
    if (out.length) kids.push(el("p", { id: "conceded-note", class: "muted" }, t(playing(g).length ? "you_conceded_some" : "you_conceded", { powers: out.map(powerName).join(", ") })));
    if (playing(g).length && !sandbox) kids.push(drawBox());  // (a sandbox: nobody to draw with)
  }
  fill(head, ...kids);
  tickClock();
  showTitle();
}

// What became of the others' powers: conceded, left in civil disorder by their player, or
// left to a bot, each with who did it where the players are named ("rosa left, a bot plays
// on: Italy"). Said to every player and observer from the game's state and seats (after a
// reload too); my own powers are told by the conceded note. A seat taken again is no news:
// its leaver and its disorder or bot are gone with it (a conceded power stays out, and its
// conceder named, whoever plays the seat's other powers).
function tableNews(g) {
  if (g.status === "forming") return null;
  const out = g.conceded || [];
  const seatOf = (p) => g.seats.find((s) => s.powers.includes(p)) || {};
  const botted = g.seats.filter((s) => s.left && s.bot).flatMap((s) => s.powers).filter((p) => !out.includes(p));
  const told = [];
  const tell = (key, powers, who) => {
    // the powers of each player together, in the order given (a player unnamed: "")
    const by = new Map();
    for (const p of powers.filter((q) => !g.my_powers.includes(q))) {
      const player = who(p) || "";
      by.set(player, [...(by.get(player) || []), powerName(p)]);
    }
    for (const [player, names] of by) {
      const words = { powers: names.join(", "), player };
      told.push(t(player ? key + "_by" : key, words));
    }
  };
  tell("news_conceded", out, (p) => (seatOf(p).conceded_by || {})[p]);
  tell("news_disorder", g.disorder || [], (p) => seatOf(p).left_by);
  tell("news_bot", botted, (p) => seatOf(p).left_by);
  return told.length ? el("p", { id: "table-news", class: "news" }, told.join(" · ")) : null;
}

// Draw votes: who has voted (as the game's setting allows), and each of my powers' vote,
// given and withdrawn one power at a time.
function drawBox() {
  const g = S.game;
  const dv = g.draw_votes || { votes: [], voters: [], public: true };
  const mine = g.my_powers.filter((p) => dv.voters.includes(p));
  const voted = mine.filter((p) => dv.votes.includes(p));
  const vote = (p, agree) => act(async () => {
    await api("POST", `/games/${g.id}/draw`, { power: p, agree });
    await refresh(true);
  });
  // (public votes also name whose vote is missing: "1 of 2" alone left a player to work out
  // that a conceded power is not asked and that the draw waited for her)
  const missing = dv.voters.filter((p) => !dv.votes.includes(p)).map(powerName).join(", ");
  const status = dv.public
    ? (dv.votes.length ? t("draw_voted_by", { powers: dv.votes.map(powerName).join(", "), n: dv.votes.length, of: dv.voters.length })
      + (missing ? " · " + t("draw_still_to_vote", { powers: missing }) : "") : t("draw_none"))
    : (voted.length ? t("draw_you_voted_secret") : t("draw_secret"));
  let buttons;
  if (mine.length > 1) {
    buttons = el("span", { id: "draw-votes", class: "draw-votes" }, mine.map((p) => {
      const on = voted.includes(p);
      return el("button", { class: "secondary small draw-vote" + (on ? " on" : ""), "data-power": p, "aria-pressed": on ? "true" : "false",
        title: t(on ? "no_draw" : "draw"), onclick: () => vote(p, !on) }, `${on ? "✓ " : ""}${t("draw")} · ${powerName(p)}`);
    }));
  } else if (mine.length) {
    const on = voted.length > 0;
    buttons = on ? el("button", { id: "withdraw-draw", class: "secondary small", "data-focus": "draw", onclick: () => vote(mine[0], false) }, t("no_draw"))
      : el("button", { id: "vote-draw", class: "secondary small", "data-focus": "draw", onclick: () => vote(mine[0], true) }, t("draw"));
  }
  return el("div", { class: "row draw" },
    el("span", { id: "draw-status", class: "muted" }, status),
    buttons,
    el("button", { id: "concede", class: "secondary small", onclick: () => { if (confirm(t("confirm_concede", { powers: playing(g).map(powerName).join(", ") }))) act(async () => { for (const p of playing(g)) await api("POST", `/games/${g.id}/concede`, { power: p }); refresh(true); }); } }, t("concede")));
}

function renderSeats() {
  const g = S.game;
  const seats = g.seats.slice().sort((a, b) => (a.powers[0] || "").localeCompare(b.powers[0] || ""));
  // a seat a visitor may take in a game under way (a bot's, or one left empty): its button
  const takeable = (s) => !g.is_player && g.status === "active" && s.open;
  const takeButton = (s) => {
    const button = el("button", { class: "small take-over", "data-power": s.powers[0],
      title: t("take_over_title", { powers: s.powers.map(powerName).join(", ") }), onclick: () => takeOver(s.powers[0], button) }, t("take_over"));
    return button;
  };
  const rows = seats.map((s) => el("tr", {},
    el("td", {}, s.powers.map(powerName).join(", ") || `${t("seat")} ${s.seat}`),
    el("td", {}, s.player || (s.bot ? `${t("bot")} (${word("bot_", s.bot)})` : t(s.taken ? "seat_taken" : "empty")),
      s.powers.some((p) => (g.conceded || []).includes(p)) ? el("span", { class: "muted conceded" }, ` (${t("conceded")})`) : null,
      takeable(s) ? takeButton(s) : null),
    el("td", {}, s.powers.map((p) => (g.centers && g.centers[p] !== undefined ? g.centers[p] : "")).join(" ")),
    el("td", {}, s.powers.map((p) => (g.ready && p in g.ready ? (g.ready[p] ? "✓" : "…") : "")).join(" "))));
  fill(document.getElementById("seats-panel"),
    el("h2", {}, t("players")),
    el("table", { id: "seats" }, el("tr", {}, el("th", {}, t("power")), el("th", {}, t("player")), el("th", {}, t("centers")), el("th", {}, t("ready"))), rows));
}
