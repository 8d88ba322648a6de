// The lobby: my games, a new game, open games, games to watch.
import { S, act, api, busy, clearFlash, el, fill, go, guarded, ordersDue, redraw, setTitle, singular, t, view, whoPlays, word } from "./core.js";
import { tellPhase, tellPress } from "./notify.js";
import { unread as unreadOf } from "./press.js";

// "1 player", "2 players": ``n`` with the word for one or for several.
// one length for every phase of a game (seconds; "daily" is also the server's own preset)
const PHASE_LENGTHS = { hour: 3600, half_day: 43200, daily: 86400, two_days: 172800, three_days: 259200, week: 604800 };
const CUSTOM_PARTS = ["diplomacy", "orders", "retreats", "adjustments"];
const count = (n, one, many) => `${n} ${t(singular(n) ? one : many)}`;

// A game's button named with the game ("Open · Ann's game"): a screen reader tabbing
// through the lists heard "Open, Leave, Open, Leave" and no game.
const named = (label, g) => `${label} · ${g.name}`;

const aboutText = (e) => (S.i18n.en && S.i18n.en["about_" + e] ? t("about_" + e) : "");

// A new game's default name: "Partie d'anafrd" where the language elides before a vowel
// or an h (it has "game_of_elided": French), "Partie de bruno" otherwise.
function gameOf(user) {
  const elided = S.i18n[S.lang] && S.i18n[S.lang].game_of_elided;
  return elided && /^[aeiouyhàâäéèêëîïôöùûüœæ]/i.test(user) ? t("game_of_elided", { user }) : t("game_of", { user });
}

export async function showLobby() {
  const page = ++S.page;
  const lists = await guarded(() => api("GET", `/games?language=${S.lang}`));
  const meta = await guarded(() => api("GET", "/meta"));
  if (!lists || !meta || S.page !== page) return;  // another page shown meanwhile: it stays
  // how a game over ended, as its page's header says it ("Draw: Austria, England, ..." or
  // "Winners: France", the powers named in the page's language); null for a game not over
  const ended = (g) => {
    const winners = g.status === "finished" && g.result ? g.result.winners || [] : [];
    const named = (p) => ((meta.power_names || {})[S.lang] || {})[p] || p;
    return winners.length ? `${t(g.result.draw ? "drawn" : "winners", { n: winners.length })}${t("colon")}${winners.map(named).join(", ")}` : null;
  };
  const gameItem = (g, action, extra) => el("li", { class: "game-item", "data-game": g.id },
    el("span", { class: "game-name" }, g.name),
    // (a game under way needs no word for it: its phase says it; forming and finished do)
    // (a game forming has no phase yet: "forming · 1 person, …", not "forming · · 1 person")
    el("span", { class: "muted" }, " " + [g.status === "active" ? null : t(g.status), g.phase_name || g.phase || null,
      g.settings && g.settings.sandbox ? t("sandbox") : `${count(g.seats.filter((s) => s.taken || s.player).length, "person", "people")}, ${count(g.seats.filter((s) => s.bot).length, "bot_one", "bots_short")} / ${g.seats.length}`,
      ended(g),
    ].filter(Boolean).join(" · ")),
    g.details || null,
    el("button", { class: "small", "aria-label": named(action.label, g), onclick: action.fn }, action.label), extra);
  const open = (g) => ({ label: t("open"), fn: () => go("#/game/" + g.id) });
  // a join refused (seated from another tab, the last seat taken meanwhile) says why, and
  // the lists are fetched again: what this lobby showed was stale
  const join = (g) => ({ label: t("join"), fn: () => guarded(async () => {
    try { await api("POST", `/games/${g.id}/join`, {}); } catch (e) { news(); throw e; }
    clearFlash(); go("#/game/" + g.id);
  }) });
  // a game to watch with a bot's seat to take over: the game shown at its players, one to
  // choose (by its power, its centres, the board) and take over there
  const takeOver = (g) => (g.status === "active" && g.seats.some((s) => s.open && s.bot)
    ? el("button", { class: "small secondary take-over", "aria-label": named(t("take_over_a_bot"), g), onclick: () => { S.toSeats = true; clearFlash(); go("#/game/" + g.id); } }, t("take_over_a_bot"))
    : null);
  const leave = (g) => {
    if (g.settings && g.settings.sandbox) {  // played alone: deleted, not left (even once over)
      return el("button", {
        class: "small secondary delete", "aria-label": named(t("delete"), g), onclick: () => { if (confirm(t("confirm_delete_sandbox"))) act(async () => { await api("DELETE", `/games/${g.id}`); await showLobby(); }); },
      }, t("delete"));
    }
    return g.status === "finished" ? null : el("button", {
      class: "small secondary leave", "aria-label": named(t("leave"), g), onclick: () => { if (confirm(leaving(g))) act(async () => { await api("POST", `/games/${g.id}/leave`); await showLobby(); }); },
    }, t("leave"));
  };
  // what leaving does, asked before: a game under way goes on (a bot or civil disorder in
  // my seat); one forming frees my seat, or, mine, goes to the first friend seated (who
  // starts it), or is deleted if nobody else has joined (as the server does: games.leave)
  const leaving = (g) => {
    if (g.status !== "forming") return t("confirm_leave");
    if (g.creator_id !== S.user.id) return t("confirm_leave_seat");
    const heir = g.seats.find((s) => s.taken && s.player && s.player !== S.user.username);
    return heir ? t("confirm_leave_hand_over", { user: heir.player }) : t("confirm_leave_delete");
  };
  const field = (label, input) => el("label", {}, label, input);
  const name = el("input", { id: "new-name", value: gameOf(S.user.username), maxlength: 100 });
  const edition = el("select", { id: "new-edition" }, meta.editions.map((e) => el("option", { value: e }, word("edition_", e))));
  const players = el("select", { id: "new-players" });
  const tables = () => fill(players, (meta.players[edition.value] || [7]).slice().reverse().map((n) => el("option", { value: n }, n)));
  // the edition's tables for this many players, where it has several (1971's 3a and 3b)
  const setup = el("select", { id: "new-setup" });
  const setupField = el("label", {}, t("table"), setup);
  const setups = () => {
    const choices = ((meta.setups || {})[edition.value] || {})[players.value] || [];
    const title = (c) => {  // the table's title in the page's language, if there is one
      const key = `setup_${edition.value}_${c.id}`;
      return t(key) === key ? c.title : t(key);
    };
    fill(setup, choices.map((c) => el("option", { value: c.id }, title(c) === c.id ? c.id : `${c.id}: ${title(c)}`)));
    setupField.hidden = !choices.length;
  };
  // a shortened game (1971, grow): the final year the players agree, or none (to victory)
  const lastYear = el("input", { id: "new-last-year", type: "number", step: 1, placeholder: t("last_year_none") });
  const lastYearField = el("label", { title: t("last_year_hint") }, t("last_year"), lastYear);
  const lastYears = () => {
    const first = ((meta.shortened_game || {})[edition.value] || {})[players.value];
    lastYearField.hidden = !first;
    if (!first) lastYear.value = "";
    else Object.assign(lastYear, { min: first, max: first + meta.max_game_years });
  };
  // the edition's clock, one length for every phase, each part's own (in hours), or none
  const deadlines = el("select", { id: "new-deadlines" }, ["rulebook", ...Object.keys(PHASE_LENGTHS), "custom", "none"]
    .map((d) => el("option", { value: d, selected: d === "rulebook" }, t("deadline_" + d))));
  const maxHours = meta.max_deadline / 3600;  // the longest deadline the server allows
  const hours = Object.fromEntries(CUSTOM_PARTS.map((k) => [k, el("input", {
    id: "new-deadline-" + k, type: "number", min: 0, max: maxHours, step: "any", value: k === "orders" ? 0 : 24, placeholder: 0 })]));
  const parts = Object.fromEntries(CUSTOM_PARTS.map((k) => [k, field(t("deadline_hours_" + k), hours[k])]));
  const custom = el("div", { id: "new-deadlines-custom", class: "parts", hidden: true },
    Object.values(parts), el("p", { class: "muted small" }, t("deadline_custom_hint")));
  // La Conquista has no retreats, and its adjustments are its reinforcements
  const partsFit = () => {
    const conquista = edition.value === "conquista";
    parts.retreats.hidden = conquista;
    parts.adjustments.firstChild.textContent = t(conquista ? "deadline_hours_reinforcements" : "deadline_hours_adjustments");
  };
  const chosenDeadlines = () => {
    const every = PHASE_LENGTHS[deadlines.value];
    if (every) return { diplomacy: every, orders: 0, retreats: every, adjustments: every, first_diplomacy: every };
    if (deadlines.value !== "custom") return deadlines.value;
    const given = CUSTOM_PARTS.map((k) => [k, hours[k].value.trim() === "" ? 0 : Number(hours[k].value)]);
    const wrong = given.find(([, h]) => !(h >= 0 && h <= maxHours));  // (a typed "abc" is NaN)
    if (wrong) {
      hours[wrong[0]].focus();
      throw Object.assign(new Error(`${wrong[0]}: ${hours[wrong[0]].value}`),
        { code: "deadline_range", values: { hours: maxHours, days: maxHours / 24 } });
    }
    const secs = Object.fromEntries(given.map(([k, h]) => [k, Math.round(h * 3600)]));
    return { ...secs, first_diplomacy: secs.diplomacy };
  };
  const pressSel = el("select", { id: "new-press" }, meta.press.map((p) => el("option", { value: p }, word("press_", p))));
  // a table played without diplomacy (La Conquista's two players): no press, nothing to choose
  const pressFits = () => {
    const none = ((meta.without_press || {})[edition.value] || []).includes(Number(players.value));
    if (none) pressSel.value = "none";
    pressSel.disabled = none;
    pressSel.title = none ? t("press_table_none") : "";
  };
  // the edition in a sentence, and the table chosen where there are several: who plays what
  // who plays what at the table chosen, where it is not one power each on the whole board
  const tableLine = () => {
    const tables = (meta.tables || {})[edition.value] || {};
    const id = setupField.hidden ? Object.keys(tables).find((k) => tables[k].players === Number(players.value)) : setup.value;
    const table = tables[id];
    if (!table) return "";
    const said = whoPlays(table, (p) => ((meta.power_names || {})[S.lang] || {})[p] || p);
    return table.groups.some((g) => g.length > 1) ? `${t("table")} ${id}${t("colon")}${said}` : said;
  };
  const explain = () => { about.textContent = [aboutText(edition.value), tableLine()].filter(Boolean).join(" "); };
  edition.onchange = () => { tables(); setups(); lastYears(); pressFits(); partsFit(); explain(); };
  players.onchange = () => { setups(); lastYears(); pressFits(); explain(); };
  setup.onchange = explain;
  tables();
  setups();
  lastYears();
  pressFits();
  partsFit();
  const about = el("div", { id: "edition-about", class: "muted small" });
  explain();
  const bots = el("select", { id: "new-bots" }, [...meta.bots, ""].map((b) => el("option", { value: b }, b ? word("bot_", b) : t("none"))));
  const votes = el("select", { id: "new-draw-votes" }, ["public", "secret"].map((v) => el("option", { value: v }, t("draw_votes_" + v))));
  const pub = el("input", { id: "new-public", type: "checkbox", checked: true });
  const startNow = el("input", { id: "new-start", type: "checkbox", checked: true });
  // a sandbox: every power mine, alone; the choices of a game with others go
  const sandbox = el("input", { id: "new-sandbox", type: "checkbox" });
  const withOthers = [field(t("deadlines"), deadlines), custom, field(t("press"), pressSel), field(t("bots"), bots), field(t("draw_votes"), votes),
    el("label", { class: "check" }, pub, t("public")), el("label", { class: "check" }, startNow, t("start_now"))];
  const showCustom = () => { custom.hidden = sandbox.checked || deadlines.value !== "custom"; };
  deadlines.onchange = showCustom;
  sandbox.onchange = () => { for (const f of withOthers) f.hidden = sandbox.checked; showCustom(); };
  const create = async () => guarded(async () => {
    const table = { name: name.value, players: Number(players.value), edition: edition.value, setup: setupField.hidden ? null : setup.value,
      last_year: lastYearField.hidden || !lastYear.value.trim() ? null : Number(lastYear.value) };
    const game = await api("POST", "/games", sandbox.checked ? { ...table, sandbox: true } : {
      ...table, deadlines: chosenDeadlines(), press: pressSel.value, bots: bots.value || null,
      public: pub.checked, start: startNow.checked, draw_votes: votes.value,
    });
    clearFlash();  // an earlier refusal ("the final year must be...") is not the new game's
    go("#/game/" + game.id);
  });
  // my games and the games open to join, drawn again as news comes (the rest stays as it is)
  const myGames = () => (lists.mine.length ? el("ul", { id: "my-games" }, lists.mine.map((g) => gameItem(g, open(g), leave(g))))
    : el("p", { id: "my-games", class: "muted" }, t("no_games")));
  const openGames = () => (lists.open.length ? el("ul", { id: "open-games" }, lists.open.map((g) => gameItem(g, join(g))))
    : el("p", { id: "open-games", class: "muted" }, t("none_open")));
  const title = await withDetails(lists.mine);
  if (S.page !== page) return;
  setTitle(...title);
  let heard = heardOf(lists.mine);  // what was known of my games: news after it is told
  fill(view(), el("h1", { class: "sr-only" }, t("lobby")),  // (the page's title, said to a screen reader)
    el("section", { class: "card" }, el("h2", {}, t("my_games")), myGames()),
    el("section", { class: "card" }, el("h2", {}, t("create_game")),
      el("div", { class: "form" }, field(t("name"), name), field(t("edition"), edition), field(t("players"), players), setupField, lastYearField,
        el("label", { class: "check", title: t("sandbox_hint") }, sandbox, t("sandbox_choice")), withOthers,
        el("button", { id: "create-game", onclick: create }, t("create"))), about),
    el("section", { class: "card" }, el("h2", {}, t("open_games")), openGames()),
    el("section", { id: "watch-card", class: "card" }, el("h2", {}, t("watch_games")),
      lists.watch.length ? watchList(lists.watch, WATCH_STEP, (g) => gameItem(g, { label: t("watch"), fn: open(g).fn }, takeOver(g))) : el("p", { id: "watch-games", class: "muted" }, t("none_watch"))));
  // news of my games while the lobby stays open, a tab in the background too (its title
  // tells it), and at once when the tab is looked at again; not while an action is on its way
  // (busy while it looks, as a page's refresh is; ``S.busy`` 1 is this look itself)
  const news = () => {
    if (S.busy || S.page !== page) return undefined;
    return busy(async () => {
      const fresh = await api("GET", `/games?language=${S.lang}`).catch(() => null);  // (the next try will do)
      if (!fresh || S.page !== page) return;
      const title = await withDetails(fresh.mine);
      if (S.busy > 1 || S.page !== page) return;
      setTitle(...title);
      tellNews(fresh.mine, heard);
      heard = heardOf(fresh.mine);
      lists.mine = fresh.mine; lists.open = fresh.open;
      calmly(() => {
        redraw(document.getElementById("my-games"), myGames());
        redraw(document.getElementById("open-games"), openGames());
      });
    });
  };
  clearInterval(S.poll);
  S.poll = setInterval(news, LOBBY_NEWS);
  S.onVisible = news;
}

// Lists drawn again by ``change`` (see :func:`redraw`: what shows the same stays as it
// is, and the page's scroll with it) where the player is: the focus, if its button was
// replaced, on the button that stands for the same (the same game's, the same action).
function calmly(change) {
  const focused = document.activeElement;
  const item = focused && focused.closest && focused.closest(".game-item");
  const mark = item && focused.tagName === "BUTTON" ? [item.dataset.game, focused.className] : null;
  change();
  if (mark && !focused.isConnected) {
    const same = [...document.querySelectorAll(`.game-item[data-game="${mark[0]}"] button`)].find((b) => b.className === mark[1]);
    if (same) same.focus({ preventScroll: true });
  }
}

const LOBBY_NEWS = 60_000;  // ms between the lobby's looks at my games
document.addEventListener("visibilitychange", () => { if (!document.hidden && S.onVisible) S.onVisible(); });

// Each of my active games' details (``game.details``: see :func:`myGameDetails`); returns
// the tab's title (:func:`setTitle`'s arguments): the games awaiting my orders, and the
// messages I have not read.
async function withDetails(mine) {
  const details = await Promise.all(mine.map((g) => (g.status === "active" ? myGameDetails(g) : null)));
  mine.forEach((g, i) => { g.details = details[i] && details[i].node; g.news = details[i]; });
  const due = details.filter((d) => d && d.due).length;
  return [due ? count(due, "title_game_due", "title_games_due") : null, details.reduce((n, d) => n + (d ? d.unread : 0), 0), due > 0];
}

// The games to watch: the newest ``n`` (the server lists them newest first), and a button
// for more (``item``: a game's line).
const WATCH_STEP = 10;
function watchList(games, n, item) {
  const more = games.length - n;
  const list = el("ul", { id: "watch-games" }, games.slice(0, n).map(item));
  const button = more > 0 ? el("button", { id: "more-watch", class: "small secondary", onclick: () => {
    const card = document.getElementById("watch-card");
    const next = watchList(games, n + WATCH_STEP, item);
    card.querySelector("#watch-games").replaceWith(next[0]);
    const old = card.querySelector("#more-watch");
    if (old) old.replaceWith(...next.slice(1)); else card.append(...next.slice(1));
  } }, t("show_more", { n: Math.min(more, WATCH_STEP) })) : null;
  return button ? [list, button] : [list];
}

// For one of my games: its line's details (``node``: my powers, whether orders are due, the
// deadline, unread messages), whether orders are due (``due``), the messages unread (``unread``).
async function myGameDetails(g) {
  let state, fresh;
  try {
    state = await api("GET", `/games/${g.id}?language=${S.lang}`);
    fresh = await api("GET", `/games/${g.id}/messages?after=${Number(localStorage.getItem("rp_read_" + g.id) || 0)}`);
  } catch (e) { return null; }
  const names = (state.names && state.names.powers) || {};
  const mine = state.my_powers;
  const due = ordersDue(state);
  const ready = mine.filter((p) => state.orders[p] && state.orders[p].to_act && state.orders[p].ready);
  const left = state.deadline_at ? Math.max(0, state.deadline_at - state.now) : null;
  // (the minutes begun count: "1 min" while under a minute is left, not "0 min")
  const minutes = left === null ? null : Math.ceil(left / 60);
  const hours = left === null ? null : (minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`);
  const waiting = unreadOf(g.id, mine, fresh), unread = waiting.length;
  const node = el("span", { class: "game-details" },
    el("span", { class: "power-tag" }, mine.map((p) => names[p] || p).join(", ")),
    due.length ? el("span", { class: "due" }, t("orders_due")) : ready.length ? el("span", { class: "ok" }, `✓ ${t("ready")}`) : null,
    hours ? el("span", { class: "muted" }, t("deadline_in", { left: hours })) : null,
    unread ? el("span", { class: "unread" }, t("unread", { n: unread })) : null);
  return { node, due: due.length > 0, unread, state, waiting };
}

// What the lobby knows of each of my games (by id): its phase and status, the last
// message unread.
function heardOf(mine) {
  return new Map(mine.map((g) => [g.id, {
    phase: g.phase, status: g.status, last: Math.max(0, ...(g.news ? g.news.waiting : []).map((m) => m.id)),
  }]));
}

// News of my games since the lobby's last look (``heard``), told by notices while the
// page is in the background: a new phase where my orders are due, messages unread.
function tellNews(mine, heard) {
  for (const g of mine) {
    const was = heard.get(g.id);
    if (!g.news || !was) continue;
    const { state, waiting } = g.news;
    if (state.phase !== was.phase || state.status !== was.status) tellPhase(state);
    tellPress(state, waiting.filter((m) => m.id > was.last));
  }
}
