// The orders panel, one part per power I play, all shown together: what the phase asks of
// it (moves, retreats and why, builds due), its orders with their status, orders refused
// with the reason, its units (the keyboard path to their legal orders), typed orders, and
// its Ready; above them, Ready for all my powers; and a phone's action bar, kept in view
// at the bottom of the screen: how far my orders are, and Ready.
import { S, act, announce, api, busy, clearFlash, el, errorText, fill, flash, guarded, inPlay, keepDrafts, place, powerName, t, unitName } from "./core.js";
import { cancel, choiceWords, orderWords, renderBoard, select, unitLabel } from "./board.js";

// The ids of a power's part of the panel: plain for the power in focus (the one whose unit
// was selected last; it sends press), suffixed for the others: each id is one.
const idOf = (name, p) => (p === S.power ? name : `${name}-${p}`);

// One list per power I play, all on the page together (stacked), with Ready for all above.
export function renderOrders(force) {
  const g = S.game;
  const panel = document.getElementById("orders-panel");
  if (!panel) return;
  // a conceded power gives no orders: its part would only say so (the head does)
  const powers = g.orders ? g.my_powers.filter((p) => g.orders[p] && !(g.conceded || []).includes(p)) : [];
  if (!powers.length || g.status !== "active") {
    fill(panel, g.status === "active" && !S.power ? el("p", { class: "muted" }, t("observer_hint")) : null);
    panel.hidden = !panel.childElementCount;
    renderBar([]);
    return;
  }
  panel.hidden = false;
  const key = JSON.stringify([g.version, S.lang, S.power, powers.map((p) => g.orders[p]), Object.keys(S.legal), S.refused]);
  if (!force && key === S.ordersKey) return;  // nothing new: keep the panel (and the player's place)
  S.ordersKey = key;
  renderBar(powers.filter((p) => g.orders[p].to_act));
  const typing = document.activeElement && document.activeElement.classList.contains("typed-box");
  if (typing) {  // not under the fingers: only the lists
    for (const p of powers) fill(panel.querySelector(`.power-orders[data-power="${p}"] .my-orders`), ...orderItems(p));
    return;
  }
  fill(panel, readyAllButton(powers), powers.map(powerOrders));
  if (S.selection) renderLegal(S.selection.key);
}

// What one power is asked, its orders with their status, its units, typed orders, Ready.
function powerOrders(p) {
  const mine = S.game.orders[p];
  const legal = S.legalBy[p] || {};
  const typed = el("textarea", { id: idOf("typed", p), class: "typed-box", rows: 3, placeholder: t("typed_orders"),
    "aria-label": `${t("typed_orders")} · ${powerName(p)}`, text: S.drafts[draftKey(p)] || null, oninput: () => { S.drafts[draftKey(p)] = typed.value; keepDrafts(); } });
  const keys = unitKeys(p);
  const ordered = orderedPlaces(p);
  return el("div", { class: "power-orders" + (p === S.power ? " focus" : ""), "data-power": p },
    el("h2", {}, `${t("your_orders")} · ${powerName(p)}`),
    mine.to_act ? phaseBrief(p) : el("p", { class: "muted" }, t("nothing_to_order")),
    el("ul", { id: idOf("my-orders", p), class: "my-orders" }, orderItems(p)),
    undecided(p).length ? el("p", { id: idOf("missing", p), class: "missing warn" }, `${t("units_without_orders")}${t("colon")}${undecided(p).map(place).join(", ")}`) : null,
    keys.length ? el("div", { id: idOf("unit-list", p), class: "units" }, keys.map((k) => el("button", {
      class: "unit small secondary" + (ordered.has(k.split("/")[0]) ? " done" : ""), "data-key": k, onclick: () => select(k) },
    ordered.has(k.split("/")[0]) ? "✓ " : "", unitLabel(k)))) : null,
    // (a waive only while a build is left to order: one more was refused, "only 3 adjustments due")
    legal.WAIVE && adjustmentsLeft(p, 1) > 0 ? el("button", { id: idOf("waive", p), class: "waive small secondary", onclick: () => submitOrders([legal.WAIVE[0].order], "en", p) }, t("waive")) : null,
    p === S.power ? el("div", { id: "legal" }) : null,
    mine.to_act ? conquistaBox(p) : null,
    mine.to_act ? el("div", { class: "typed" }, typed,
      el("div", { class: "row" },
        el("button", { id: idOf("submit-typed", p), class: "submit-typed", onclick: () => submitTyped(typed, p) }, t("submit")),
        el("button", { id: idOf("clear-orders", p), class: "clear-orders secondary", onclick: () => replaceOrders([], p) }, t("clear")))) : null,
    mine.to_act ? readyButton(p) : null,
    // orders changed after Ready: the new ones count, and Ready stays (said, not guessed)
    mine.to_act && mine.ready ? el("p", { id: idOf("ready-note", p), class: "ready-note muted small" }, t("ready_note")) : null);
}

// Where the orders typed for ``p`` and not given yet are kept (``S.drafts``), so that the
// panel drawn again (an order clicked on the map, the language changed) shows them still:
// by game, phase and power.
const draftKey = (p) => `orders ${S.game.id} ${S.game.phase} ${p}`;

// The units (or build centres) of ``p`` offered to order: those with a choice to make.
function unitKeys(p) {
  const gone = choiceless(p);
  return Object.keys(S.legalBy[p] || {}).filter((k) => k !== "WAIVE" && !gone.has(k.split("/")[0]));
}

// The provinces of ``p``'s units (or builds) with an order: "A BER B", "F STP/SC - BOT"
// name them second.
function orderedPlaces(p) {
  return new Set(S.game.orders[p].orders.map((o) => (o.order.split(" ")[1] || "").split("/")[0]));
}

// How far the orders of ``powers`` are this phase, their counts added up, as the phase's
// brief says it: "Units ordered: 3 of 5.", "2 builds due, 1 still to order.", "1 removal
// due: ordered." (the brief of one power, and the phone's action bar for all that act).
function progress(powers) {
  const g = S.game;
  if (!(g.phase || "").endsWith("A")) {
    const keys = powers.map((p) => [unitKeys(p), orderedPlaces(p)]);
    const n = keys.reduce((sum, [ks, done]) => sum + ks.filter((k) => done.has(k.split("/")[0])).length, 0);
    return t("units_ordered", { n, of: keys.reduce((sum, [ks]) => sum + ks.length, 0) });
  }
  const said = (sign, left, done) => {  // the builds (sign 1) or the removals (-1) of powers
    const due = powers.map((p) => sign * ((g.adjustments || {})[p] || 0)).filter((d) => d > 0);
    if (!due.length) return null;
    const n = due.reduce((a, b) => a + b, 0), still = powers.reduce((sum, p) => sum + adjustmentsLeft(p, sign), 0);
    return t(still ? left : done, { n, left: still });
  };
  const builds = reinforcing() ? "reinforcements" : "builds";
  return [said(1, `${builds}_left`, `${builds}_done`), said(-1, "removals_due", "removals_done")].filter(Boolean).join(" ")
    || t("nothing_to_order");
}

// La Conquista: its adjustments are the Spring reinforcements (told by their own words).
const reinforcing = () => Boolean(S.game.settings && S.game.settings.edition === "conquista");

// The builds (``sign`` 1) or removals (-1) ``p`` has still to order this adjustment phase
// (a waive counts as a build); 0 if it has none of them due.
function adjustmentsLeft(p, sign) {
  const g = S.game;
  const due = sign * ((g.adjustments || {})[p] || 0);
  if (due <= 0) return 0;
  const given = g.orders[p].orders.filter((o) => (sign > 0 ? / B$/.test(o.order) || o.order === "WAIVE" : / D$/.test(o.order))).length;
  return Math.max(0, due - given);
}

// A phone's action bar (the page's CSS shows it on a narrow screen only, kept at the bottom
// of the screen while the page scrolls): how far the orders of my ``powers`` that act this
// phase are, and their Ready; none while I have nothing to do. Its Ready is the short word
// even for several powers (the count beside it is theirs; the long words, "Pronto com todas
// as minhas potências", squeezed the count into five lines, the bar a seventh of the screen).
function renderBar(powers) {
  const bar = document.getElementById("action-bar");
  if (!bar) return;
  bar.hidden = !powers.length;
  if (!powers.length) { fill(bar); return; }
  fill(bar, el("span", { id: "bar-progress", class: "bar-progress" }, progress(powers)),
    el("button", { id: "bar-ready", class: "ready" + (allReady(powers) ? " on" : ""), onclick: onReady(powers),
      title: powers.length > 1 ? t("ready_all") : null }, readyLabel(powers, true)));
}

// What this phase asks of ``p``: retreats (why, where to), builds or removals due, moves left.
function phaseBrief(p) {
  const g = S.game;
  const mine = g.orders[p];
  const legal = S.legalBy[p] || {};
  const id = idOf("phase-brief", p);
  const kind = (g.phase || "").slice(-1);
  if (kind === "R") {
    const mineDislodged = (g.position.dislodged && g.position.dislodged[p]) || [];
    return el("div", { id, class: "brief" }, mineDislodged.map((d) => el("p", { class: "warn" },
      t("dislodged_" + d.unit[0], { unit: unitName(d.unit), from: d.attacker_from ? place(d.attacker_from) : "?" }), " ",
      d.retreats.length ? t("can_retreat_to", { places: d.retreats.map((r) => place(r, true)).join(", ") }) : t("no_retreat"))));
  }
  if (kind === "A") {
    const due = (g.adjustments || {})[p] || 0;
    // the centres still free to build in (not one built in already)
    const built = new Set(mine.orders.filter((o) => / B$/.test(o.order)).map((o) => o.order.split(" ")[1].split("/")[0]));
    const homes = Object.keys(legal).filter((k) => (legal[k] || []).some((o) => o.kind === "build")).map((k) => k.split("/")[0]).filter((h) => !built.has(h));
    const left = adjustmentsLeft(p, Math.sign(due));
    // all ordered: said so (it still said "You can build in" the centres just built in);
    // La Conquista's builds are its Spring reinforcements, counted by its own rule: said so
    let text = progress([p]);
    const places = [...new Set(homes)].map(place).join(", ") || "—";
    if (due > 0 && left) text += " " + t(reinforcing() ? "reinforcements_rule" : "can_build_in", { places });
    return el("p", { id, class: "brief " + (due !== 0 && !left ? "muted" : "warn") }, text);
  }
  return el("p", { id, class: "brief muted" }, `${progress([p])} ${t("pick_unit")}`);
}

// The provinces of ``p``'s dislodged units with nowhere to retreat: nothing to decide there
// (each is disbanded), so none is offered to order or told as without orders.
function choiceless(p) {
  const g = S.game;
  if (!(g.phase || "").endsWith("R")) return new Set();
  const mine = ((g.position && g.position.dislodged) || {})[p] || [];
  return new Set(mine.filter((d) => !d.retreats.length).map((d) => d.unit.split(" ")[1].split("/")[0]));
}

// The units of ``p`` still without an order that have a choice to make.
function undecided(p) {
  const gone = choiceless(p);
  return (S.game.orders[p].missing || []).filter((k) => !gone.has(k.split("/")[0]));
}

function orderItems(p) {
  const mine = S.game.orders[p];
  const items = mine.orders.map((o) => el("li", { class: "order ok", "data-order": o.order },
    el("span", { class: "status", title: t("order_ok") }, "✓"), " ",
    el("span", { title: o.long || null }, orderWords(o)), " ",
    // (named with its order: a screen reader tabbing through heard "remove" for each)
    el("button", { class: "link", title: t("remove"), "aria-label": `${t("remove")} · ${orderWords(o)}`, onclick: () => removeOrder(o.order, p) }, "✕")));
  const refused = (S.refused || []).filter((r) => r.power === p).map((r) => el("li", { class: "order refused", "data-refused": r.order },
    el("span", { class: "status" }, "✗"), " ", el("span", {}, r.order), " — ", el("span", { class: "reason" }, r.reason)));
  // ("no orders yet" only where orders are asked: not under "nothing to order this phase")
  if (!items.length && !refused.length) return mine.to_act ? [el("li", { class: "muted" }, t("no_orders"))] : [];
  return [...items, ...refused];
}

// A power's Ready (or not ready, once it is).
function readyButton(p) {
  const ready = allReady([p]);
  return el("button", { id: idOf("ready", p), class: ready ? "ready on" : "ready", "data-power": p, onclick: onReady([p]) }, readyLabel([p]));
}

// Ready, the one home of what it does (a power's button, Ready for all and the phone's
// action bar all do this): ``powers`` (mine, each asked to act) ready, asking first where
// one has orders missing; or, all of them ready already, not ready. The click acts on the
// phase drawn (``g``, as the button was drawn), not on one heard of since: a Ready for a
// phase processed meanwhile is refused by the server, and the page says so.
function onReady(powers) {
  const g = S.game;
  const all = allReady(powers);
  const waiting = powers.filter((p) => !g.orders[p].ready);
  return () => act(async () => {
    if (!all && !waiting.every(confirmReady)) return;
    const { refresh } = await import("./game.js");
    try {
      for (const p of all ? powers : waiting) await api("POST", `/games/${g.id}/ready`, { power: p, ready: !all, phase: g.phase });
    } finally {
      await refresh(true);  // refused too: "the game has moved on" shows over the new phase
    }
  });
}

const allReady = (powers) => powers.every((p) => S.game.orders[p].ready);

// "Ready" ("✓ Ready" once it is); for several powers "Ready for all my powers" (``short``:
// "Ready" still).
function readyLabel(powers, short = false) {
  return `${allReady(powers) ? "✓ " : ""}${t(powers.length > 1 && !short ? "ready_all" : "ready")}`;
}

// Ready with orders typed and not given (Ready under the box, not Give orders), builds
// unused, removals not ordered or units without orders asks first.
function confirmReady(p) {
  const g = S.game;
  const mine = g.orders[p];
  const who = g.my_powers.length > 1 ? powerName(p) + t("colon") : "";
  const typed = (S.drafts[draftKey(p)] || "").split("\n").map((s) => s.trim()).filter(Boolean);
  if (typed.length && !confirm(who + t("confirm_typed", { lines: typed.join("; ") }))) return false;
  if ((g.phase || "").endsWith("A")) {
    const due = (g.adjustments || {})[p] || 0;
    const given = mine.orders.length;
    if (due > 0 && given < due) return confirm(who + t("confirm_builds_left", { n: due - given }));
    if (due < 0 && given < -due) return confirm(who + t("confirm_removals_left", { n: -due - given }));
  } else if (undecided(p).length) {
    return confirm(who + t("confirm_missing", { units: undecided(p).map(place).join(", ") }));
  }
  return true;
}

// The legal orders of the selected unit as buttons (the keyboard path).
export function renderLegal(key) {
  const box = document.getElementById("legal");
  if (!box) return;
  if (!key) { fill(box); return; }
  const opts = S.legal[key] || [];
  fill(box,
    el("h3", {}, `${t("legal_orders")} ${unitLabel(key)}`),
    el("div", { class: "options" }, opts.map((o) => el("button", {
      class: "legal-option small secondary", "data-order": o.order, "data-kind": o.kind, title: o.long || null, onclick: () => submitOrders([o.order], "en"),
    }, choiceWords(o)))));
}
document.addEventListener("rp-select", (ev) => renderLegal(ev.detail));

// The orders refused of my powers but ``power``: listed until that power's own are given
// again (another power's orders given meanwhile took them away, its lines left unexplained).
const othersRefused = (power) => S.refused.filter((r) => r.power !== power);

// Give orders (merged into mine): refused ones are listed with the reason, nothing stored.
export async function submitOrders(orders, language, power = S.power) {
  return busy(async () => {
    const g = S.game;
    try {
      await api("PUT", `/games/${g.id}/orders`, { power, orders, merge: true, language, phase: g.phase });
      S.refused = othersRefused(power);
      clearFlash();  // an earlier refusal's error does not stay over this success
    } catch (e) {
      if (!e.refused) {
        if (e.code === "phase_moved") await (await import("./game.js")).refresh(true);  // shown under the words
        flash(errorText(e), true);
        return false;
      }
      S.refused = [...othersRefused(power), ...e.refused.map((r) => ({ ...r, power }))];
      // orders given together are taken together: with one refused, none of them is given
      const said = t(orders.length > e.refused.length ? "typed_refused" : "orders_refused", { n: e.refused.length });
      flash(said, true);
      // (a screen reader hears why, too: the list is elsewhere on the page)
      announce(`${said}${t("colon")}${e.refused.map((r) => `${r.order} — ${r.reason}`).join("; ")}`);
      renderOrders(true);
      cancel();
      return false;
    }
    cancel();
    const { refresh } = await import("./game.js");
    await refresh(false);
    await renderBoard();
    renderOrders(true);
    if (orders.length === 1) backToUnit(power, orders[0]);
    return true;
  });
}

// The focus, lost with the option it was on (the legal orders or the map's menu, gone with
// the order given; an order's ✕), on the button of the unit ``order`` is for: that unit's
// order is said on it, and the next unit is a Tab away. Left where it is if not lost.
function backToUnit(power, order) {
  const now = document.activeElement;
  if (now && now !== document.body && now !== document.getElementById("orders-panel")) return;
  const prov = (order.split(" ")[1] || "").split("/")[0];
  const unit = [...document.querySelectorAll(`.power-orders[data-power="${power}"] button.unit`)].find((b) => b.dataset.key.split("/")[0] === prov);
  if (unit) unit.focus({ preventScroll: true });
}

// The focus on the button of the unit (or centre) ``key`` in the list of units.
export function focusUnit(key) {
  const unit = [...document.querySelectorAll("#orders-panel button.unit")].find((b) => b.dataset.key === key);
  if (unit) unit.focus({ preventScroll: true });
}

async function replaceOrders(orders, power) {
  await busy(async () => {
    const res = await guarded(() => api("PUT", `/games/${S.game.id}/orders`, { power, orders, language: "en", phase: S.game.phase }));
    if (!res) return;
    S.refused = othersRefused(power);
    const { refresh } = await import("./game.js");
    await refresh(false);
    await renderBoard();
    renderOrders(true);
  });
}

// One order of ``power`` taken back: the others are those the server has now, not the ones
// this page drew (the same player's other tab or phone may have given more since, and the
// page drawn before them replaced them all with its own list, losing them).
async function removeOrder(order, power) {
  const now = await busy(() => guarded(() => api("GET", `/games/${S.game.id}/orders?power=${power}`)));
  if (!now || now.phase !== S.game.phase) return;
  await replaceOrders(now.orders.map((x) => x.order).filter((x) => x !== order), power);
  backToUnit(power, order);
}

async function submitTyped(box, power) {
  const lines = box.value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!lines.length) return;
  const text = box.value;
  const key = draftKey(power);
  box.blur();
  delete S.drafts[key];  // given: the panel is drawn again with the box empty
  keepDrafts();
  if (await submitOrders(lines, S.lang, power)) { box.value = ""; flash(t("saved")); return; }
  // refused: the panel was drawn again (the reasons listed); the lines come back in its
  // box, to be corrected (the good ones were not given either), and it keeps the focus, so
  // that news heard meanwhile leaves it as it is
  S.drafts[key] = text;
  keepDrafts();
  const again = document.getElementById(idOf("typed", power));
  if (again) { again.value = text; again.focus(); }
}

// La Conquista: the foreign units whose support I accept, and the alliance I declare; both
// go with this phase's orders.
function conquistaBox(p) {
  const g = S.game;
  const mine = g.orders[p];
  if (!g.settings || g.settings.edition !== "conquista" || !(g.phase || "").endsWith("M")) return null;
  const accepted = new Set((mine.accept || []).map((u) => u.split(" ").pop()));
  const allies = new Set(mine.ally || []);
  const played = inPlay(g);  // (a power out of the table never supports, nor allies)
  // (another power of mine too: its support of this one's units counts only if accepted here)
  const foreign = Object.entries(g.position.units || {}).filter(([q]) => q !== p && played.has(q));
  const unitBoxes = foreign.map(([q, units]) => el("div", { class: "accept-row" }, el("b", {}, powerName(q)), " ",
    units.map((u) => el("label", { class: "check small", title: unitName(u) }, el("input", { type: "checkbox", class: "accept", value: u, checked: accepted.has(u.split(" ")[1].split("/")[0]) || accepted.has(u.split(" ")[1]) }),
      `${t(u[0] === "A" ? "army" : "fleet")} · ${place(u.split(" ")[1])}`))));
  const powerBoxes = (g.powers || []).filter((p) => !g.my_powers.includes(p) && played.has(p)).map((p) => el("label", { class: "check small" },
    el("input", { type: "checkbox", class: "ally", value: p, checked: allies.has(p) }), powerName(p)));
  const save = () => busy(async () => {
    const accept = [...panel.querySelectorAll("input.accept:checked")].map((i) => i.value);
    const ally = [...panel.querySelectorAll("input.ally:checked")].map((i) => i.value);
    const ok = await guarded(() => api("PUT", `/games/${g.id}/orders`, { power: p, orders: [], merge: true, language: "en", accept, ally, phase: g.phase }));
    if (!ok) return;
    flash(t("saved"));
    const { refresh } = await import("./game.js");
    await refresh(true);
  });
  const panel = el("details", { id: idOf("conquista", p), class: "conquista", open: accepted.size || allies.size ? true : null },
    el("summary", {}, t("conquista_acts")),
    el("p", { class: "muted small" }, t("accept_hint")), el("div", { class: "accept-list" }, unitBoxes),
    // (no alliance to offer when every power in play is mine: a sandbox)
    powerBoxes.length ? [el("p", { class: "muted small" }, t("ally_hint")), el("div", { class: "recipients" }, powerBoxes)] : null,
    el("button", { id: idOf("save-conquista", p), class: "small", onclick: save }, t("save")));
  return panel;
}

// A player of several powers: Ready for all of them at once (asking first where one has
// orders missing), or, once all are ready, not ready for all.
function readyAllButton(powers) {
  const acting = powers.filter((p) => S.game.orders[p].to_act);
  if (acting.length < 2) return null;
  const all = allReady(acting);
  return el("button", { id: "ready-all", class: "ready-all" + (all ? " on" : ""), "aria-pressed": all ? "true" : "false", onclick: onReady(acting) },
    readyLabel(acting));
}
