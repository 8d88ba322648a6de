// The orders panel, one part per power I play, all shown together: what the phase asks of
// it (moves, retreats and why, builds due), its orders with their status, orders refused
// with the reason, its units (the keyboard path to their legal orders), typed orders, and
// its Ready; above them, Ready for all my powers.
import { S, act, api, busy, clearFlash, el, errorText, fill, flash, guarded, inPlay, place, powerName, t, unitName } from "./core.js";
import { cancel, orderWords, renderBoard, select, unitLabel } from "./board.js";

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
    return;
  }
  panel.hidden = false;
  const key = JSON.stringify([g.version, S.lang, S.power, powers.map((p) => g.orders[p]), Object.keys(S.legal), S.refused]);
  if (!force && key === S.ordersKey) return;  // nothing new: keep the panel (and the player's place)
  S.ordersKey = key;
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
  const typed = el("textarea", { id: idOf("typed", p), class: "typed-box", rows: 3, placeholder: t("typed_orders") });
  const gone = choiceless(p);
  const keys = Object.keys(legal).filter((k) => k !== "WAIVE" && !gone.has(k.split("/")[0]));
  // the units (or build provinces) with an order: "A BER B", "F STP/SC - BOT" name them second
  const ordered = new Set(mine.orders.map((o) => (o.order.split(" ")[1] || "").split("/")[0]));
  return el("div", { class: "power-orders" + (p === S.power ? " focus" : ""), "data-power": p },
    el("h3", {}, `${t("your_orders")} · ${powerName(p)}`),
    mine.to_act ? phaseBrief(p) : el("p", { class: "muted" }, t("nothing_to_order")),
    el("ul", { id: idOf("my-orders", p), class: "my-orders" }, orderItems(p)),
    undecided(p).length ? el("p", { id: idOf("missing", p), class: "missing warn" }, `${t("units_without_orders")}${t("colon")}${undecided(p).map(place).join(", ")}`) : null,
    keys.length ? el("div", { id: idOf("unit-list", p), class: "units" }, keys.map((k) => el("button", {
      class: "unit small secondary" + (ordered.has(k.split("/")[0]) ? " done" : ""), "data-key": k, onclick: () => select(k) },
    ordered.has(k.split("/")[0]) ? "✓ " : "", unitLabel(k)))) : null,
    // (a waive only while a build is left to order: one more was refused, "only 3 adjustment(s) due")
    legal.WAIVE && buildsLeft(p) > 0 ? el("button", { id: idOf("waive", p), class: "waive small secondary", onclick: () => submitOrders([legal.WAIVE[0].order], "en", p) }, t("waive")) : null,
    p === S.power ? el("div", { id: "legal" }) : null,
    mine.to_act ? conquistaBox(p) : null,
    mine.to_act ? el("div", { class: "typed" }, typed,
      el("div", { class: "row" },
        el("button", { id: idOf("submit-typed", p), class: "submit-typed", onclick: () => submitTyped(typed, p) }, t("submit")),
        el("button", { id: idOf("clear-orders", p), class: "clear-orders secondary", onclick: () => replaceOrders([], p) }, t("clear")))) : null,
    mine.to_act ? readyButton(p) : null);
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
    const removed = mine.orders.filter((o) => / D$/.test(o.order)).length;
    const left = due > 0 ? buildsLeft(p) : Math.max(0, -due - removed);
    let text;
    // all ordered: said so (it still said "You can build in" the centres just built in)
    if (due !== 0 && !left) text = t(due > 0 ? "builds_done" : "removals_done", { n: Math.abs(due) });
    else if (due > 0) text = t("builds_due", { n: due, left, places: [...new Set(homes)].map(place).join(", ") || "—" });
    else if (due < 0) text = t("removals_due", { n: -due, left });
    else text = t("nothing_to_order");
    return el("p", { id, class: "brief " + (due !== 0 && !left ? "muted" : "warn") }, text);
  }
  const units = Object.keys(legal).length;
  return el("p", { id, class: "brief muted" }, t("orders_given", { n: mine.orders.length, of: units }));
}

// The builds ``p`` has still to order (or waive) this adjustment phase.
function buildsLeft(p) {
  const g = S.game;
  const orders = g.orders[p].orders;
  const given = orders.filter((o) => / B$/.test(o.order) || o.order === "WAIVE").length;
  return Math.max(0, ((g.adjustments || {})[p] || 0) - given);
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
    el("button", { class: "link", title: t("remove"), "aria-label": t("remove"), onclick: () => replaceOrders(mine.orders.filter((x) => x.order !== o.order).map((x) => x.order), p) }, "✕")));
  const refused = (S.refused || []).filter((r) => r.power === p).map((r) => el("li", { class: "order refused", "data-refused": r.order },
    el("span", { class: "status" }, "✗"), " ", el("span", {}, r.order), " — ", el("span", { class: "reason" }, r.reason)));
  // ("no orders yet" only where orders are asked: not under "nothing to order this phase")
  if (!items.length && !refused.length) return mine.to_act ? [el("li", { class: "muted" }, t("no_orders"))] : [];
  return [...items, ...refused];
}

function readyButton(p) {
  const g = S.game;
  const mine = g.orders[p];
  return el("button", {
    id: idOf("ready", p), class: mine.ready ? "ready on" : "ready", "data-power": p,
    onclick: () => act(async () => {
      if (!mine.ready && !confirmReady(p)) return;
      await api("POST", `/games/${g.id}/ready`, { power: p, ready: !mine.ready, phase: g.phase });
      const { refresh } = await import("./game.js");
      await refresh(true);
    }),
  }, mine.ready ? `✓ ${t("ready")}` : t("ready"));
}

// Ready with builds unused, removals not ordered or units without orders asks first.
function confirmReady(p) {
  const g = S.game;
  const mine = g.orders[p];
  const who = g.my_powers.length > 1 ? powerName(p) + t("colon") : "";
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
    el("h4", {}, `${t("legal_orders")} ${unitLabel(key)}`),
    el("div", { class: "options" }, opts.map((o) => el("button", {
      class: "legal-option small secondary", "data-order": o.order, "data-kind": o.kind, title: o.long || null, onclick: () => submitOrders([o.order], "en"),
    }, orderWords(o)))));
}
document.addEventListener("rp-select", (ev) => renderLegal(ev.detail));

// Give orders (merged into mine): refused ones are listed with the reason, nothing stored.
export async function submitOrders(orders, language, power = S.power) {
  return busy(async () => {
    const g = S.game;
    try {
      await api("PUT", `/games/${g.id}/orders`, { power, orders, merge: true, language, phase: g.phase });
      S.refused = [];
      clearFlash();  // an earlier refusal's error does not stay over this success
    } catch (e) {
      if (!e.refused) { flash(errorText(e), true); return false; }
      S.refused = e.refused.map((r) => ({ ...r, power }));
      // orders given together are taken together: with one refused, none of them is given
      flash(t(orders.length > e.refused.length ? "typed_refused" : "orders_refused", { n: e.refused.length }), true);
      renderOrders(true);
      cancel();
      return false;
    }
    cancel();
    const { refresh } = await import("./game.js");
    await refresh(false);
    await renderBoard();
    renderOrders(true);
    return true;
  });
}

async function replaceOrders(orders, power) {
  await busy(async () => {
    const res = await guarded(() => api("PUT", `/games/${S.game.id}/orders`, { power, orders, language: "en", phase: S.game.phase }));
    if (!res) return;
    S.refused = [];
    const { refresh } = await import("./game.js");
    await refresh(false);
    await renderBoard();
    renderOrders(true);
  });
}

async function submitTyped(box, power) {
  const lines = box.value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!lines.length) return;
  const text = box.value;
  box.blur();
  if (await submitOrders(lines, S.lang, power)) { box.value = ""; flash(t("saved")); return; }
  // refused: the panel was drawn again (the reasons listed), its box empty; the lines come
  // back in it, to be corrected (the good ones were not given either), and it keeps the
  // focus, so that news heard meanwhile leaves it as it is
  const again = document.getElementById(idOf("typed", power));
  if (again && !again.value) { again.value = text; again.focus(); }
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
  const foreign = Object.entries(g.position.units || {}).filter(([p]) => !g.my_powers.includes(p) && played.has(p));
  const unitBoxes = foreign.map(([p, units]) => el("div", { class: "accept-row" }, el("b", {}, powerName(p)), " ",
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
    el("p", { class: "muted small" }, t("ally_hint")), el("div", { class: "recipients" }, powerBoxes),
    el("button", { id: idOf("save-conquista", p), class: "small", onclick: save }, t("save")));
  return panel;
}

// A player of several powers: Ready for all of them at once (asking first where one has
// orders missing), or, once all are ready, not ready for all.
function readyAllButton(powers) {
  const g = S.game;
  const acting = powers.filter((p) => g.orders[p].to_act);
  if (acting.length < 2) return null;
  const waiting = acting.filter((p) => !g.orders[p].ready);
  const all = !waiting.length;
  return el("button", {
    id: "ready-all", class: "ready-all" + (all ? " on" : ""), "aria-pressed": all ? "true" : "false",
    onclick: () => act(async () => {
      if (!all && !waiting.every(confirmReady)) return;
      for (const p of all ? acting : waiting) await api("POST", `/games/${g.id}/ready`, { power: p, ready: !all, phase: g.phase });
      const { refresh } = await import("./game.js");
      await refresh(true);
    }),
  }, all ? `✓ ${t("ready_all")}` : t("ready_all"));
}
