// History on the main board: a stepper through every processed phase; after a phase is
// processed the board first shows its orders and results, with what happened to me.
import { S, act, api, busy, el, fill, go, guarded, listed, place, powerName, t } from "./core.js";
import { cancel, focusOn, orderWords, putSvg, renderBoard, renderLegend, unitScale } from "./board.js";

export async function loadHistory() {
  const g = S.game;
  if (!g) return;
  const got = await guarded(() => api("GET", `/games/${g.id}/history?language=${S.lang}`));
  if (S.game !== g) return;  // the page moved on meanwhile (another game, or language)
  S.history = got || [];
  renderStepper();
}

function renderStepper() {
  const box = document.getElementById("stepper");
  if (!box) return;
  const list = S.history || [];
  const at = S.shown ? list.findIndex((h) => h.phase === S.shown) : list.length;
  const go = (i) => (i >= list.length ? showCurrent() : showPhase(list[i].phase));
  const label = S.shown ? `${t("results")} · ${list[at] ? list[at].name : S.shown}` : `${presentWord()} · ${S.game.names ? S.game.names.phase : S.game.phase}`;
  fill(box,
    el("button", { id: "step-prev", class: "small secondary", "aria-label": t("previous"), disabled: at <= 0, onclick: () => go(at - 1) }, "◀"),
    el("span", { id: "step-label", class: "step-label", "data-phase": S.shown || "" }, label),
    el("button", { id: "step-next", class: "small secondary", "aria-label": t("next"), disabled: !S.shown, onclick: () => go(at + 1) }, "▶"),
    S.shown ? el("button", { id: "step-now", class: "small", onclick: showCurrent }, t(over() ? "final_position" : "to_current")) : null,
    S.shown && mySandbox() && !S.shownSkipped ? el("button", { id: "play-from-here", class: "small secondary", onclick: () => playFrom(S.shown, list[at] ? list[at].name : S.shown) }, t("play_from_here")) : null,
    S.user && S.game.phase && !(S.shown && S.shownSkipped) ? el("button", { id: "sandbox-from-here", class: "small secondary", title: t("sandbox_from_here_hint"), onclick: () => sandboxFrom(S.shown || S.game.phase) }, t("sandbox_from_here")) : null);
}

// A new sandbox of mine at the position of ``phase`` (the one the stepper shows), opened:
// every power mine there, to try lines (the server gives it the public position only).
function sandboxFrom(phase) {
  return act(async () => {
    const box = await api("POST", `/games/${S.game.id}/sandbox`, { phase });
    go("#/game/" + box.id);
  });
}

// A sandbox of mine: I may take it back to a phase of its history.
const mySandbox = () => Boolean(S.game.settings && S.game.settings.sandbox && S.user && S.game.creator_id === S.user.id);

// Back to the start of ``phase`` (the phases after it are dropped), to play it again.
function playFrom(phase, name) {
  if (!confirm(t("confirm_play_from_here", { phase: name }))) return;
  return act(async () => {
    await api("POST", `/games/${S.game.id}/rollback`, { phase });
    S.shown = null; S.unseen = [];
    fill(document.getElementById("summary"));
    fill(document.getElementById("results-view"));
    const { refresh } = await import("./game.js");
    await refresh(true);
  });
}

// Whether the game is over: its last position is the final one, not the present.
const over = () => S.game.is_over || S.game.status === "finished";
const presentWord = () => t(over() ? "final_position" : "now");

// Both are busy (the page's work under way) until the board is drawn: a click on the
// stepper or on "continue" waits for a picture fetched, as a refresh does.
export function showCurrent() {
  return busy(async () => {
    S.shown = null; S.unseen = [];
    if (S.zoomOfResults) { S.zoom = undefined; S.zoomOfResults = false; }  // (see drawPhase)
    fill(document.getElementById("summary"));
    fill(document.getElementById("results-view"));
    renderStepper();
    await renderBoard();
  });
}

// The results of every phase processed since ``since`` (the phase the page last showed
// as the present: before a push, or, on opening the game, in this browser's last visit),
// one after another, before the new position: a movement and the retreats done for a
// player in civil disorder are both told. False if there are none. Results still being read
// when more phases are processed keep their place: the new ones join the queue after them.
export async function showResultsSince(since) {
  const list = S.history || [];
  const reading = S.shown !== null && S.unseen.includes(S.shown) ? S.shown : null;
  const from = list.findIndex((h) => h.phase === (reading ? S.unseen[0] : since));
  S.unseen = from < 0 ? [] : list.slice(from).map((h) => h.phase);
  if (!S.unseen.length) return false;
  await showPhase(reading && S.unseen.includes(reading) ? reading : S.unseen[0], true);
  return true;
}

export function showPhase(phase, fresh) {
  return busy(() => drawPhase(phase, fresh));
}

async function drawPhase(phase, fresh) {
  const g = S.game;
  cancel();
  const list = S.history || [];
  const k = list.findIndex((h) => h.phase === phase);
  // both at once: a step back costs one round trip, not two (on a phone's network, felt)
  const [record, svg] = await Promise.all([
    guarded(() => api("GET", `/games/${g.id}/history/${phase}?language=${S.lang}`)),
    guarded(() => api("GET", `/games/${g.id}/map.svg?phase=${phase}&language=${S.lang}&unit_scale=${unitScale()}`)),
  ]);
  if (!record) return;
  S.shown = phase;
  S.shownSkipped = Boolean(record.skipped);  // (nobody had a choice in it: not one to play again)
  putSvg(svg || "", false, list[k] ? list[k].name : phase);
  renderLegend(record.position);
  let after = record.after || g.position;
  if (!record.after && k >= 0 && k + 1 < list.length) {  // (a record stored before "after")
    const next = await guarded(() => api("GET", `/games/${g.id}/history/${list[k + 1].phase}?language=${S.lang}`));
    if (next) after = next.position;
  }
  // a phone's first look at results (the game opened, a phase played): zoomed on my units,
  // where they stood and where they went (the whole board there draws units 5 px wide);
  // the present zooms on its own places to order again after them
  if (S.zoom === undefined || S.zoomOfResults) {
    const mine = (pos) => g.my_powers.flatMap((p) => ((pos && pos.units) || {})[p] || []).map((u) => u.split(" ")[1]);
    focusOn([...mine(record.position), ...mine(after)]);
    S.zoomOfResults = true;
  }
  renderStepper();
  renderSummary(record, after, fresh, list[k] ? list[k].name : phase, phase);
  renderResults(record);
}

// Why an entry's order failed, in the page's language (the server says it: ``said``;
// a record fetched without it gives the stored English).
const why = (e) => e.said || e.reason || "";

// La Conquista has no retreats: a dislodged unit is destroyed at once, whether or not it had
// somewhere to go (elsewhere "destroyed" is a unit dislodged with nowhere to retreat).
const noRetreats = () => Boolean(S.game && S.game.settings && S.game.settings.edition === "conquista");

// The unit of a hold's entry, as the summary names it: outside English in words, as the
// server gives it ("El ejército de París"), else its notation without the hold ("A PAR").
const holder = (e) => (S.lang !== "en" && e.subject ? e.subject : (e.text || e.order).split(" ").slice(0, -1).join(" "));

// What the summary tells of one order's entry in a phase's results: [class, text], or
// null for a unit that had no order and held unharmed (every order given is told: a move,
// a hold that stood, a support given or cut, a convoy available or disrupted); a disband
// ordered, in a retreat or an adjustment phase, is told as a removal. ``idle``: its
// power gave no orders at all (the summary says so once, not again for each unit);
// ``adjusting``: the phase is an adjustment (a disband not ordered is a removal the rules made);
// ``nowhere``: the provinces of dislodged units that had nowhere to retreat.
export function fateLine(e, idle = false, adjusting = false, nowhere = new Set()) {
  const text = e.text || e.order;
  // outside English the order as a sentence, without its full stop (a notation's last
  // period is an abbreviation's: "E de Bud. para Gal.")
  const words = orderWords({ ...e, text });
  const order = words === e.long ? words.replace(/\.$/, "") : words;
  const reason = why(e);
  if (e.unit === "dislodged" || e.result === "dislodged") {
    if (e.implied && / H$/.test(e.order)) {  // no order: it held (the words of the hold left out)
      const unit = holder(e);
      return ["bad", idle ? t("sum_dislodged", { order: unit, reason: "" }) : t("sum_dislodged_unordered", { unit })];
    }
    return ["bad", t("sum_dislodged", { order, reason: reason ? ` (${reason})` : "" })];
  }
  if (e.unit === "destroyed" || e.result === "destroyed") return ["bad", t(noRetreats() ? "sum_destroyed_no_retreats" : "sum_destroyed", { order })];
  if (e.implied && / D$/.test(e.order)) {
    // a removal not ordered: the rules chose the unit (the player is told why, not "civil disorder")
    if (adjusting) return ["bad", t("sum_removed_unordered", { order })];
    if (nowhere.has(e.order.split(" ")[1].split("/")[0])) return ["bad", t("sum_destroyed", { order })];
    return ["bad", t("sum_disbanded", { order, reason })];
  }
  if (e.result === "succeeds") {  // an adjustment done: a build, a removal, a build waived
    if (e.order === "WAIVE") return ["ok", t("sum_waived")];
    if (/ B$/.test(e.order)) return ["ok", t("sum_built", { order })];
    if (/ D$/.test(e.order)) return ["ok", t("sum_removed", { order })];
  }
  const said = order + t("colon") + t(e.result);
  if (e.result === "illegal" || e.result === "invalid") return ["bad", `${said} (${reason})`];
  // a support cut: its reason says it whole ("support cut by an attack", not "support cut — cut …")
  if (e.result === "cut" && reason) return ["bad", order + t("colon") + reason];
  if (["fails", "cut", "disrupted"].includes(e.result)) return ["bad", `${said}${reason ? " — " + reason : ""}`];
  if (e.implied) return null;
  // a hold that stood: only that it held ("El ejército de París se mantuvo"; its order's
  // words and a result word said the verb twice: "O exército de Paris permanece: permanece")
  if (e.result === "stands") return ["ok", t("sum_stood", { unit: holder(e) })];
  return ["ok", said];
}

// A unit of ``power`` without an order that held against an attack: told, with the attacks
// ("F TRI had no order and held against A VEN - TRI"; outside English each as a sentence);
// it was left out as a unit held unharmed, and the player learnt of the attack only from the
// map. Null for any other entry.
function heldAgainst(e, record, power) {
  if (!e.implied || !/ H$/.test(e.order) || e.result !== "stands") return null;
  const here = e.order.split(" ")[1].split("/")[0];
  const attacks = Object.entries(record.orders).filter(([q]) => q !== power).flatMap(([, entries]) => entries)
    .filter((x) => { const m = /^[AF] \S+ - (\S+)/.exec(x.order); return m && m[1].split("/")[0] === here; })
    .map((x) => {
      const words = orderWords({ ...x, text: x.text || x.order });
      // a sentence within the line: no capital, no full stop ("l'armée de Venise se déplace vers Trieste")
      return words === x.long ? words.charAt(0).toLowerCase() + words.slice(1).replace(/\.$/, "") : words;
    });
  if (!attacks.length) return null;
  return ["ok", t("sum_held_attacked", { unit: holder(e), attacks: listed(attacks) })];
}

// What happened to my powers (or to everyone, for an observer) in a phase: [power or null,
// class, text] lines.
// A phase's event in the page's language: civil disorder, an alliance formed or ended, a
// coin toss, the end of the game. (An event stored before events had kinds is its English.)
export function eventText(event) {
  if (typeof event === "string") return event;
  const powers = (event.powers || []).map(powerName);
  if (event.kind === "game_over") return t("game_over");  // the header names the winners
  if (event.kind === "coin_toss") return t("event_coin_toss", { power: powers[0], player: event.player, year: event.year });
  const key = "event_" + event.kind;
  return t(key) === key ? event.text : t(key, { powers: powers.join(event.kind === "civil_disorder" ? ", " : " + ") });
}

export function summaryLines(record, after, phase) {
  const g = S.game;
  const powers = g.my_powers.length ? g.my_powers : Object.keys(record.orders);
  const lines = [];
  for (const p of powers) {
    // (units hold in a movement phase; retreats and removals not ordered are told each; in
    // a sandbox, where one person plays every power, a power left alone is no news)
    const sandbox = Boolean(g.settings && g.settings.sandbox);
    const idle = g.my_powers.length > 0 && !sandbox && phase.endsWith("M") && (record.orders[p] || []).length > 0 && record.orders[p].every((e) => e.implied);
    if (idle) lines.push([p, "bad", t("sum_no_orders")]);
    // (a retreat's disband with nowhere to go is told as the movement told it)
    const stuck = ((record.position && record.position.dislodged) || {})[p] || [];
    const nowhere = new Set(stuck.filter((d) => !(d.retreats || []).length).map((d) => d.unit.split(" ")[1].split("/")[0]));
    for (const e of record.orders[p] || []) {
      const line = fateLine(e, idle, phase.endsWith("A"), nowhere) || heldAgainst(e, record, p);
      if (line) lines.push([p, ...line]);
    }
    const before = new Set((record.position.centers || {})[p] || []);
    const now = new Set(((after && after.centers) || {})[p] || []);
    const lost = [...before].filter((c) => !now.has(c)), won = [...now].filter((c) => !before.has(c));
    // each centre as a sentence names it, the last after "and" ("a pris la Grèce et la
    // Serbie", "ganhou a Grécia")
    const named = (centres) => listed(centres.map((c) => place(c, true)));
    if (lost.length) lines.push([p, "bad", t("sum_lost", { places: named(lost) })]);
    if (won.length) lines.push([p, "ok", t("sum_gained", { places: named(won) })]);
  }
  // what happened to everyone: the phase's events, powers eliminated
  for (const event of record.events || []) lines.push([null, "event", eventText(event)]);
  const alive = (pos, p) => ((pos.units || {})[p] || []).length + ((pos.centers || {})[p] || []).length > 0;
  for (const p of Object.keys(record.orders)) {
    if (after && alive(record.position, p) && !alive(after, p)) lines.push([null, "event", t("sum_eliminated", { power: powerName(p) })]);
  }
  return lines;
}

function renderSummary(record, after, fresh, name, phase) {
  const g = S.game;
  const lines = summaryLines(record, after, phase);
  const box = document.getElementById("summary");
  fill(box, el("div", { class: "summary" + (fresh ? " fresh" : "") },
    el("b", {}, fresh ? t("just_processed", { phase: name }) : name),
    lines.length ? el("ul", { id: "summary-list" }, lines.map(([p, cls, text]) => el("li", { class: cls }, p && (g.my_powers.length > 1 || !g.my_powers.length) ? powerName(p) + t("colon") + text : text)))
      : el("p", { class: "muted" }, t("sum_nothing")),
    fresh ? continueButton() : null));
  // fresh results out of sight (a phone's player who pressed Ready at the foot of the
  // page): brought into view, unless the player is typing
  const r = box.getBoundingClientRect();
  const typing = document.activeElement && /^(TEXTAREA|INPUT)$/.test(document.activeElement.tagName);
  if (fresh && !typing && (r.top < 0 || r.top > window.innerHeight - 40)) box.scrollIntoView({ block: "start" });
}

// After fresh results: on to the next phase processed meanwhile, or to the present.
function continueButton() {
  const g = S.game;
  const unseen = S.unseen || [];
  const next = unseen[unseen.indexOf(S.shown) + 1];
  const item = next && (S.history || []).find((h) => h.phase === next);
  return el("button", { id: "continue", class: "small", onclick: () => (next ? showPhase(next, true) : showCurrent()) },
    next || !over() ? t("continue_to", { phase: next ? (item ? item.name : next) : (g.names ? g.names.phase : g.phase) }) : t("continue_to_final"));
}

function renderResults(record) {
  const rows = [];
  for (const [power, entries] of Object.entries(record.orders)) {
    for (const e of entries) {
      const said = (word) => t(word === "destroyed" && noRetreats() ? "destroyed_no_retreats" : word);
      const fate = e.unit && e.unit !== e.result ? `, ${said(e.unit)}` : "";
      // (the order as a sentence outside English; its notation on hover)
      rows.push(el("tr", { class: "result-" + e.result }, el("td", {}, powerName(power)), el("td", { title: e.text || e.order }, orderWords({ ...e, text: e.text || e.order })),
        el("td", {}, said(e.result) + fate), el("td", { class: "muted" }, why(e))));
    }
  }
  fill(document.getElementById("results-view"), el("details", { class: "results-box" },
    el("summary", {}, t("all_results")), el("table", { id: "results", class: "results" }, rows)));
}
