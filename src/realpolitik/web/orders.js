// The orders panel: what the phase asks of me (moves, retreats and why, builds due), my
// orders with their status, orders refused with the reason, the list of a unit's legal
// orders (the keyboard path), typed orders, and Ready.
import { S, api, busy, el, fill, flash, guarded, place, powerName, t } from "./core.js";
import { cancel, orderWords, renderBoard, select, unitLabel } from "./board.js";

export function renderOrders(force) {
  const g = S.game;
  const panel = document.getElementById("orders-panel");
  if (!panel) return;
  if (!S.power || !g.orders || !g.orders[S.power] || g.status !== "active") {
    fill(panel, g.status === "active" && !S.power ? el("p", { class: "muted" }, t("observer_hint")) : null);
    panel.hidden = !panel.childElementCount;
    return;
  }
  panel.hidden = false;
  const mine = g.orders[S.power];
  const key = JSON.stringify([g.version, S.lang, S.power, mine, Object.keys(S.legal), S.refused]);
  if (!force && key === S.ordersKey) return;  // nothing new: keep the panel (and the player's place)
  S.ordersKey = key;
  if (document.activeElement && document.activeElement.id === "typed") {
    fill(document.getElementById("my-orders"), ...orderItems(mine));  // not under the fingers
    return;
  }
  const typed = el("textarea", { id: "typed", rows: 3, placeholder: t("typed_orders") });
  const keys = Object.keys(S.legal).filter((k) => k !== "WAIVE");
  // the units (or build provinces) with an order: "A BER B", "F STP/SC - BOT" name them second
  const ordered = new Set(mine.orders.map((o) => (o.order.split(" ")[1] || "").split("/")[0]));
  fill(panel,
    el("h3", {}, `${t("your_orders")} · ${powerName(S.power)}`),
    mine.to_act ? phaseBrief(mine) : el("p", { class: "muted" }, t("nothing_to_order")),
    el("ul", { id: "my-orders" }, orderItems(mine)),
    mine.missing && mine.missing.length ? el("p", { id: "missing", class: "warn" }, `${t("units_without_orders")}: ${mine.missing.map(place).join(", ")}`) : null,
    keys.length ? el("div", { id: "unit-list", class: "units" }, keys.map((k) => el("button", {
      class: "unit small secondary" + (ordered.has(k.split("/")[0]) ? " done" : ""), "data-key": k, onclick: () => select(k) },
    ordered.has(k.split("/")[0]) ? "✓ " : "", unitLabel(k)))) : null,
    S.legal.WAIVE ? el("button", { id: "waive", class: "small secondary", onclick: () => submitOrders([S.legal.WAIVE[0].order], "en") }, t("waive")) : null,
    el("div", { id: "legal" }),
    mine.to_act ? conquistaBox(mine) : null,
    mine.to_act ? el("div", { class: "typed" }, typed,
      el("div", { class: "row" },
        el("button", { id: "submit-typed", onclick: () => submitTyped(typed) }, t("submit")),
        el("button", { id: "clear-orders", class: "secondary", onclick: () => replaceOrders([]) }, t("clear")))) : null,
    mine.to_act ? readyButton(mine) : null,
    readyAllButton(),
    otherPowers());
  if (S.selection) renderLegal(S.selection.key);
}

// What this phase asks: retreats (why, where to), builds or removals due, moves left.
function phaseBrief(mine) {
  const g = S.game;
  const kind = (g.phase || "").slice(-1);
  if (kind === "R") {
    const mineDislodged = (g.position.dislodged && g.position.dislodged[S.power]) || [];
    return el("div", { id: "phase-brief", class: "brief" }, mineDislodged.map((d) => el("p", { class: "warn" },
      t("dislodged_from", { unit: unitLabel(d.unit.split(" ")[1]), from: d.attacker_from ? place(d.attacker_from) : "?" }), " ",
      d.retreats.length ? t("can_retreat_to", { places: d.retreats.map(place).join(", ") }) : t("no_retreat"))));
  }
  if (kind === "A") {
    const due = (g.adjustments || {})[S.power] || 0;
    const homes = Object.keys(S.legal).filter((k) => (S.legal[k] || []).some((o) => o.kind === "build")).map((k) => k.split("/")[0]);
    const given = mine.orders.filter((o) => / B$/.test(o.order)).length;
    const removed = mine.orders.filter((o) => / D$/.test(o.order)).length;
    const waived = mine.orders.filter((o) => o.order === "WAIVE").length;
    let text;
    if (due > 0) text = t("builds_due", { n: due, left: Math.max(0, due - given - waived), places: [...new Set(homes)].map(place).join(", ") || "—" });
    else if (due < 0) text = t("removals_due", { n: -due, left: Math.max(0, -due - removed) });
    else text = t("nothing_to_order");
    return el("p", { id: "phase-brief", class: "brief warn" }, text);
  }
  const units = Object.keys(S.legal).length;
  return el("p", { id: "phase-brief", class: "brief muted" }, t("orders_given", { n: mine.orders.length, of: units }));
}

function orderItems(mine) {
  const items = mine.orders.map((o) => el("li", { class: "order ok", "data-order": o.order },
    el("span", { class: "status", title: t("order_ok") }, "✓"), " ",
    el("span", { title: o.long || null }, orderWords(o)), " ",
    el("button", { class: "link", title: t("remove"), "aria-label": t("remove"), onclick: () => replaceOrders(mine.orders.filter((x) => x.order !== o.order).map((x) => x.order)) }, "✕")));
  const refused = (S.refused || []).map((r) => el("li", { class: "order refused", "data-refused": r.order },
    el("span", { class: "status" }, "✗"), " ", el("span", {}, r.order), " — ", el("span", { class: "reason" }, r.reason)));
  if (!items.length && !refused.length) return [el("li", { class: "muted" }, t("no_orders"))];
  return [...items, ...refused];
}

function readyButton(mine) {
  const g = S.game;
  return el("button", {
    id: "ready", class: mine.ready ? "ready on" : "ready",
    onclick: () => busy(() => guarded(async () => {
      if (!mine.ready && !confirmReady(mine)) return;
      await api("POST", `/games/${g.id}/ready`, { power: S.power, ready: !mine.ready });
      const { refresh } = await import("./game.js");
      await refresh(true);
    })),
  }, mine.ready ? `✓ ${t("ready")}` : t("ready"));
}

// Ready with builds unused or units without orders asks first.
function confirmReady(mine) {
  const g = S.game;
  if ((g.phase || "").endsWith("A")) {
    const due = (g.adjustments || {})[S.power] || 0;
    const given = mine.orders.length;
    if (due > 0 && given < due) return confirm(t("confirm_builds_left", { n: due - given }));
  } else if (mine.missing && mine.missing.length) {
    return confirm(t("confirm_missing", { units: mine.missing.join(", ") }));
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
export async function submitOrders(orders, language) {
  return busy(async () => {
    const g = S.game;
    try {
      await api("PUT", `/games/${g.id}/orders`, { power: S.power, orders, merge: true, language });
      S.refused = [];
    } catch (e) {
      if (!e.refused) { flash(e.message, true); return false; }
      S.refused = e.refused;
      flash(t("orders_refused", { n: e.refused.length }), true);
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

async function replaceOrders(orders) {
  await busy(async () => {
    const res = await guarded(() => api("PUT", `/games/${S.game.id}/orders`, { power: S.power, orders, language: "en" }));
    if (!res) return;
    S.refused = [];
    const { refresh } = await import("./game.js");
    await refresh(false);
    await renderBoard();
    renderOrders(true);
  });
}

async function submitTyped(box) {
  const lines = box.value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!lines.length) return;
  box.blur();
  if (await submitOrders(lines, S.lang)) { box.value = ""; flash(t("saved")); }
}

// La Conquista: the foreign units whose support I accept, and the alliance I declare; both
// go with this phase's orders.
function conquistaBox(mine) {
  const g = S.game;
  if (!g.settings || g.settings.edition !== "conquista" || !(g.phase || "").endsWith("M")) return null;
  const accepted = new Set((mine.accept || []).map((u) => u.split(" ").pop()));
  const allies = new Set(mine.ally || []);
  const foreign = Object.entries(g.position.units || {}).filter(([p]) => !g.my_powers.includes(p));
  const unitBoxes = foreign.map(([p, units]) => el("div", { class: "accept-row" }, el("b", {}, powerName(p)), " ",
    units.map((u) => el("label", { class: "check small" }, el("input", { type: "checkbox", class: "accept", value: u, checked: accepted.has(u.split(" ")[1].split("/")[0]) || accepted.has(u.split(" ")[1]) }), u))));
  const powerBoxes = (g.powers || []).filter((p) => !g.my_powers.includes(p)).map((p) => el("label", { class: "check small" },
    el("input", { type: "checkbox", class: "ally", value: p, checked: allies.has(p) }), powerName(p)));
  const save = () => busy(async () => {
    const panel = document.getElementById("conquista");
    const accept = [...panel.querySelectorAll("input.accept:checked")].map((i) => i.value);
    const ally = [...panel.querySelectorAll("input.ally:checked")].map((i) => i.value);
    const ok = await guarded(() => api("PUT", `/games/${g.id}/orders`, { power: S.power, orders: [], merge: true, language: "en", accept, ally }));
    if (!ok) return;
    flash(t("saved"));
    const { refresh } = await import("./game.js");
    await refresh(true);
  });
  return el("details", { id: "conquista", class: "conquista", open: accepted.size || allies.size ? true : null },
    el("summary", {}, t("conquista_acts")),
    el("p", { class: "muted small" }, t("accept_hint")), el("div", { class: "accept-list" }, unitBoxes),
    el("p", { class: "muted small" }, t("ally_hint")), el("div", { class: "recipients" }, powerBoxes),
    el("button", { id: "save-conquista", class: "small", onclick: save }, t("save")));
}

// A player of several powers: Ready for all of them at once.
function readyAllButton() {
  const g = S.game;
  const waiting = g.my_powers.filter((p) => g.orders[p] && g.orders[p].to_act && !g.orders[p].ready);
  if (g.my_powers.length < 2 || !waiting.length) return null;
  return el("button", {
    id: "ready-all", class: "secondary",
    onclick: () => busy(() => guarded(async () => {
      for (const p of waiting) await api("POST", `/games/${g.id}/ready`, { power: p, ready: true });
      const { refresh } = await import("./game.js");
      await refresh(true);
    })),
  }, t("ready_all"));
}

// A player of several powers sees the others' orders here too, and switches with a click.
function otherPowers() {
  const g = S.game;
  const others = g.my_powers.filter((p) => p !== S.power && g.orders[p]);
  if (!others.length) return null;
  return el("div", { id: "other-powers", class: "other-powers" }, others.map((p) => {
    const o = g.orders[p];
    return el("div", { class: "other-power", "data-power": p },
      el("button", { class: "link switch", onclick: async () => { S.power = p; S.selection = null; S.refused = []; const { refresh } = await import("./game.js"); refresh(true); } },
        powerName(p)), " ",
      o.to_act ? (o.ready ? `✓ ${t("ready")}` : t("n_orders", { n: o.orders.length })) : t("nothing_to_order"),
      o.orders.length ? el("div", { class: "muted small" }, o.orders.map((x) => orderWords(x)).join(" · ")) : null);
  }));
}
