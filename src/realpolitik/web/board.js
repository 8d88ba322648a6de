// The main map: the server's picture (legend cropped: the page has its own, translated),
// zoom and pan, and ordering by map: select a unit (it and the provinces it can reach are
// highlighted), choose hold / move / support / convoy in a small menu next to it, then the
// target. Escape, or a click on a province that is no target, cancels.
import { S, api, el, fill, guarded, place, powerName, t } from "./core.js";
import { focusUnit, renderOrders, submitOrders } from "./orders.js";

const MODES = ["move", "support", "convoy"];

// The legal orders of every power I play that has orders to give: by power (S.legalBy),
// and merged by unit (S.legal; no two powers share a unit or a home) with each key's power
// (S.ownerOf), so a click on any of my units orders for its own power.
export async function loadLegal() {
  const g = S.game;
  const powers = g.status === "active" && g.orders ? g.my_powers.filter((p) => g.orders[p] && g.orders[p].to_act) : [];
  const got = await Promise.all(powers.map((p) => guarded(() => api("GET", `/games/${g.id}/legal?power=${p}&language=${S.lang}`))));
  if (S.game !== g) return;  // the page moved on meanwhile (another game, or language)
  S.legalBy = {}; S.legal = {}; S.ownerOf = {};
  powers.forEach((p, i) => {
    S.legalBy[p] = got[i] || {};
    for (const [k, opts] of Object.entries(S.legalBy[p])) {
      if (k === "WAIVE") continue;
      S.legal[k] = opts; S.ownerOf[k] = p;
    }
  });
}

// The current position with the orders of all my powers, unless a past phase is shown
// (history.js).
export async function renderBoard() {
  if (S.shown || !S.game) return;
  const g = S.game, lang = S.lang;
  const qs = new URLSearchParams({ language: lang });
  for (const p of g.my_powers) qs.append("power", p);
  qs.append("unit_scale", unitScale());
  const svg = await guarded(() => api("GET", `/games/${g.id}/map.svg?${qs}`));
  if (!S.game || S.game.id !== g.id || S.shown || S.lang !== lang) return;  // the page moved on meanwhile
  putSvg(svg || "", true, g.names ? g.names.phase : g.phase);
  if (S.zoom === undefined) focusMine();
  renderLegend(g.position);
  highlight();
}

// The size the board's units are drawn at, times the plain picture's: larger on a phone. The
// server draws them so (map.svg's unit_scale), the rings round them, the arrows' ends and the
// centres' stars clear of them: enlarged here, the units hid the arrowheads drawn for 2.
export function unitScale() {
  return window.matchMedia("(max-width: 800px)").matches ? 2.4 : 2;
}

// On a phone the board opens zoomed on where I give orders (my units, a dislodged unit,
// the centres to build in), else on my units (the whole map is a tap away).
function focusMine() {
  const all = (S.game.position && S.game.position.units) || {};
  const ordered = Object.keys(S.legal);
  // a dislodged unit's retreats too: the places to tap next
  const retreats = Object.values(S.legal).flat().filter((o) => o.kind === "retreat" && o.dest).map((o) => o.dest);
  focusOn(ordered.length ? [...ordered, ...retreats] : S.game.my_powers.flatMap((p) => all[p] || []).map((u) => u.split(" ")[1]));
}

// On a phone, the board zoomed on ``places`` (provinces, "STP/SC" too); elsewhere whole.
export function focusOn(places) {
  S.zoom = null;
  const pic = document.querySelector("#map svg");
  if (!pic || !places.length || !window.matchMedia("(max-width: 800px)").matches) return;
  // (a past phase's picture names its provinces "h-BUD": its ids are not the board's)
  const shape = (at) => pic.querySelector(`[id="${at.split("/")[0]}"], [id="h-${at.split("/")[0]}"]`);
  const boxes = places.map(shape).filter(Boolean).map((p) => p.getBBox());
  if (!boxes.length) return;
  const x0 = Math.min(...boxes.map((b) => b.x)), x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y0 = Math.min(...boxes.map((b) => b.y)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
  const [, , w, h] = pic.dataset.full.split(" ").map(Number);
  const scale = Math.max(1, Math.min(2.5, 0.8 * Math.min(w / (x1 - x0 + 1), h / (y1 - y0 + 1))));
  S.zoom = { scale, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 };
  applyZoom(pic);
}

// Put a map picture on the board; ``interactive``: orders are given by clicking it;
// ``phase``: the name of the phase it shows, in the page's language.
export function putSvg(svgText, interactive, phase) {
  const box = document.getElementById("map");
  if (!box) return;
  box.innerHTML = svgText;
  const pic = box.querySelector("svg");
  if (!pic) return;
  // its title (a tooltip): the game and the phase, not the board's English description
  const title = pic.querySelector(":scope > title");
  if (title && phase) title.textContent = `${S.game.name} — ${phase}`;
  pic.removeAttribute("width"); pic.removeAttribute("height");
  const legend = pic.querySelector('[id$="legend"]');
  const [, , w, h] = (pic.getAttribute("viewBox") || "0 0 100 100").split(/\s+/).map(Number);
  let width = w;
  if (legend) {
    const rect = legend.querySelector("rect");
    if (rect) width = Number(rect.getAttribute("x")) || w;
    legend.remove();
  }
  pic.dataset.full = `0 0 ${width} ${h}`;
  // (the units drawn at unitScale() by the server)
  const blocks = labelBlocks(pic);
  enlargeLabels(blocks, unitScale() === 2 ? 1.7 : 1.25);
  clearLabels(pic, blocks);
  spreadLabels(blocks);
  // the orders over the labels: larger here, a label below its unit hid the head of an
  // arrow coming up to that unit
  const labels = pic.querySelector(':scope > g[id$="labels"]'), orders = pic.querySelector(':scope > g[id$="orders"]');
  if (labels && orders) orders.before(labels);
  pic.setAttribute("role", "img");
  pic.classList.toggle("interactive", interactive);
  applyZoom(pic);
  wireBoard(box);
  const wrap = document.getElementById("map-wrap");
  if (wrap && !wrap.querySelector(".zoom")) {  // (first: on a phone a row above the map, hiding none of it)
    wrap.prepend(el("div", { class: "zoom" },
      el("button", { class: "small secondary", id: "zoom-in", "aria-label": t("zoom_in"), onclick: () => zoomBy(1.5) }, "+"),
      el("button", { class: "small secondary", id: "zoom-out", "aria-label": t("zoom_out"), onclick: () => zoomBy(1 / 1.5) }, "−"),
      el("button", { class: "small secondary", id: "zoom-reset", "aria-label": t("zoom_reset"), onclick: () => { S.zoom = null; applyZoom(); } }, "⤢")));
  }
}

function applyZoom(pic) {
  pic = pic || document.querySelector("#map svg");
  if (!pic || !pic.dataset.full) return;
  const [, , w, h] = pic.dataset.full.split(" ").map(Number);
  const z = S.zoom;
  if (!z || z.scale <= 1) { pic.setAttribute("viewBox", pic.dataset.full); return; }
  const vw = w / z.scale, vh = h / z.scale;
  z.cx = Math.min(Math.max(z.cx, vw / 2), w - vw / 2);
  z.cy = Math.min(Math.max(z.cy, vh / 2), h - vh / 2);
  pic.setAttribute("viewBox", `${z.cx - vw / 2} ${z.cy - vh / 2} ${vw} ${vh}`);
}

function zoomBy(factor, cx, cy) {
  const pic = document.querySelector("#map svg");
  if (!pic) return;
  const [, , w, h] = pic.dataset.full.split(" ").map(Number);
  const z = S.zoom || { scale: 1, cx: w / 2, cy: h / 2 };
  z.scale = Math.min(6, Math.max(1, z.scale * factor));
  if (cx !== undefined) { z.cx = cx; z.cy = cy; }
  S.zoom = z.scale > 1 ? z : null;
  applyZoom(pic);
  placeMenu();
}

// Taps, drags and the wheel are read on the board's frame (#map), which stays while the
// picture in it is replaced (after an order, or news of the game): a tap pressed on one
// picture and lifted on the next is still a tap, on the board shown as it is lifted (the
// browser fires no click then, its press's element gone: the tap was lost). Dragging pans
// a zoomed map; a drag is no tap. Two fingers pinch it: apart zooms in, together out, the
// place between them kept under them (the browser pans the page up and down only, its own
// pinch held back by the map's touch-action: a pinch did nothing).
function wireBoard(box) {
  if (box.dataset.wired) return;
  box.dataset.wired = "1";
  const pic = () => box.querySelector("svg");
  let start = null, pinch = null;
  const fingers = new Map();  // the touches down on the board: pointerId -> {x, y}
  const apart = () => { const [a, b] = [...fingers.values()]; return Math.hypot(a.x - b.x, a.y - b.y); };
  const between = () => { const [a, b] = [...fingers.values()]; return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }; };
  const lift = (ev) => { fingers.delete(ev.pointerId); if (fingers.size < 2) pinch = null; };
  box.addEventListener("pointerdown", (ev) => {
    start = ev.isPrimary ? { x: ev.clientX, y: ev.clientY, moved: false, z: S.zoom && { ...S.zoom } } : null;
    if (ev.pointerType !== "touch") return;
    fingers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    const now = pic();
    if (fingers.size === 2 && now) {  // a pinch: no tap, no drag
      start = null;
      const mid = between();
      pinch = { apart: apart(), scale: (S.zoom && S.zoom.scale) || 1, at: svgPoint(now, mid.x, mid.y) };
    }
  });
  box.addEventListener("pointermove", (ev) => {
    const now = pic();
    if (fingers.has(ev.pointerId)) fingers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pinch && now && fingers.size === 2) { pinchTo(now, pinch, apart(), between()); return; }
    if (!start || !start.z || !now) return;
    const dx = ev.clientX - start.x, dy = ev.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 8) return;
    start.moved = true;
    const frame = now.getBoundingClientRect();
    const [, , vw] = now.getAttribute("viewBox").split(" ").map(Number);
    const k = vw / frame.width;
    S.zoom = { ...start.z, cx: start.z.cx - dx * k, cy: start.z.cy - dy * k };
    applyZoom(now);
    placeMenu();
  });
  box.addEventListener("pointercancel", (ev) => { start = null; lift(ev); });
  box.addEventListener("pointerup", (ev) => {
    lift(ev);
    const tap = start && !start.moved && ev.button === 0;
    start = null;
    const now = pic();
    if (!tap || !now || !now.classList.contains("interactive")) return;
    const node = document.elementFromPoint(ev.clientX, ev.clientY);
    if (!node || !now.contains(node)) return;
    tapped = ev.pointerType === "touch";
    clickProvince(provinceOf(node, now));
  });
  // a tap read here sends no click after it: the menu it opened, scrolled into view, may
  // lie under the finger by then (a build's menu in words: its order given at once)
  let tapped = false;
  box.addEventListener("touchend", (ev) => { if (tapped) ev.preventDefault(); tapped = false; }, { passive: false });
  box.addEventListener("wheel", (ev) => {
    const now = pic();
    if (!now || (!ev.ctrlKey && !S.zoom)) return;
    ev.preventDefault();
    const pt = svgPoint(now, ev.clientX, ev.clientY);
    zoomBy(ev.deltaY < 0 ? 1.25 : 0.8, pt.x, pt.y);
  }, { passive: false });
}

// The board zoomed by a pinch that began ``pinch.apart`` pixels apart at the scale
// ``pinch.scale``, its fingers now ``apart`` pixels apart: the map's point ``pinch.at``
// (where they began) under their middle ``mid`` (on the screen).
function pinchTo(pic, pinch, apart, mid) {
  const [, , w, h] = pic.dataset.full.split(" ").map(Number);
  const scale = Math.min(6, Math.max(1, (pinch.scale * apart) / pinch.apart));
  const frame = pic.getBoundingClientRect();
  const vw = w / scale, vh = h / scale;
  const fx = (mid.x - frame.left) / frame.width, fy = (mid.y - frame.top) / frame.height;
  S.zoom = scale > 1 ? { scale, cx: pinch.at.x - fx * vw + vw / 2, cy: pinch.at.y - fy * vh + vh / 2 } : null;
  applyZoom(pic);
  placeMenu();
}

function svgPoint(pic, x, y) {
  const p = pic.createSVGPoint(); p.x = x; p.y = y;
  return p.matrixTransform(pic.getScreenCTM().inverse());
}

// The scale a token's transform gives it (the product of its scale()s).
function tokenScale(transform) {
  return [...transform.matchAll(/scale\(\s*([-\d.e]+)\s*\)/g)].reduce((k, m) => k * Number(m[1]), 1);
}

// A unit's token (as the renderer draws it about its origin): its extent at scale 1.
const TOKEN = { army: [-9, -9, 9, 9], fleet: [-15, -12, 15, 6.5] };

// A label's lines (the renderer writes each line as a text): consecutive texts with the same x.
function labelBlocks(pic) {
  const blocks = [];
  for (const text of pic.querySelectorAll("text.label")) {
    const last = blocks[blocks.length - 1];
    if (last && last[0].getAttribute("x") === text.getAttribute("x") && last[last.length - 1].nextElementSibling === text) last.push(text);
    else blocks.push([text]);
  }
  return blocks;
}

// Province labels ``k`` times the renderer's size (its size suits the map at its own scale,
// about 6 px tall on a desktop's board), each label's lines about the same middle.
function enlargeLabels(blocks, k) {
  for (const lines of blocks) {
    const size = Number(lines[0].getAttribute("font-size")) || 10;
    const middle = Number(lines[0].getAttribute("y")) + (lines.length - 1) * size * 0.55 - size * 0.36;
    const top = middle - (lines.length - 1) * k * size * 0.55 + k * size * 0.36;
    lines.forEach((line, i) => {
      line.setAttribute("font-size", (k * size).toFixed(1));
      line.setAttribute("stroke-width", (k * (Number(line.getAttribute("stroke-width")) || 2.4)).toFixed(1));
      line.setAttribute("y", (top + i * k * size * 1.1).toFixed(1));
    });
  }
}

// Province labels the enlarged units would hide move just below the unit (each label's
// lines together), and below a centre's star there: the renderer places them for units of
// its own size.
// The box a label's lines take (about 0.68 of the font size a letter).
function labelBox(lines) {
  const size = Number(lines[0].getAttribute("font-size")) || 10;
  const x = Number(lines[0].getAttribute("x"));
  const first = Number(lines[0].getAttribute("y")), last = Number(lines[lines.length - 1].getAttribute("y"));
  const half = 0.34 * size * Math.max(...lines.map((l) => l.textContent.length));
  return { left: x - half, right: x + half, top: first - 0.75 * size, bottom: last + 0.25 * size };
}

// Labels set on each other (enlarged, or one moved below a unit onto its neighbour's: "Apu."
// and "Rom.") move apart, each half the way, across the side where they overlap least (as
// the browser measures them: capitals are wider than the estimate above), a little space
// left between two side by side.
function spreadLabels(blocks) {
  const boxes = blocks.map((lines) => {
    const all = lines.map((line) => line.getBBox());
    const gap = 0.2 * (Number(lines[0].getAttribute("font-size")) || 10);  // (side by side, not one word)
    return { left: Math.min(...all.map((b) => b.x)) - gap, right: Math.max(...all.map((b) => b.x + b.width)) + gap,
      top: Math.min(...all.map((b) => b.y)), bottom: Math.max(...all.map((b) => b.y + b.height)) };
  });
  const shift = (k, dx, dy) => {
    for (const line of blocks[k]) {
      line.setAttribute("x", (Number(line.getAttribute("x")) + dx).toFixed(1));
      line.setAttribute("y", (Number(line.getAttribute("y")) + dy).toFixed(1));
    }
    const b = boxes[k];
    b.left += dx; b.right += dx; b.top += dy; b.bottom += dy;
  };
  for (let round = 0, moved = true; moved && round < 4; round++) {
    moved = false;
    boxes.forEach((a, i) => boxes.forEach((b, j) => {
      if (j <= i) return;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w <= 0 || h <= 0 || !(a.bottom > a.top && b.bottom > b.top)) return;  // (a hidden map measures 0)
      moved = true;
      if (w < h) {
        const s = ((w + 1) / 2) * (a.left + a.right < b.left + b.right ? 1 : -1);
        shift(i, -s, 0); shift(j, s, 0);
      } else {
        const s = ((h + 1) / 2) * (a.top + a.bottom < b.top + b.bottom ? 1 : -1);
        shift(i, 0, -s); shift(j, 0, s);
      }
    }));
  }
}

function clearLabels(pic, blocks) {
  const boxes = [];
  for (const unit of pic.querySelectorAll("g.unit")) {
    const tr = unit.getAttribute("transform") || "";
    const at = /translate\(\s*([-\d.e]+)[ ,]+([-\d.e]+)\s*\)/.exec(tr);
    if (!at) continue;
    const scale = tokenScale(tr);
    const [x0, y0, x1, y1] = TOKEN[unit.classList.contains("fleet") ? "fleet" : "army"];
    const x = Number(at[1]), y = Number(at[2]);
    boxes.push({ left: x + x0 * scale, top: y + y0 * scale, right: x + x1 * scale, bottom: y + y1 * scale });
  }
  // the centres' stars, drawn by the server clear of the units: a label moved below its unit
  // goes below a star there too (Constantinople's name hid its star)
  const stars = [...pic.querySelectorAll("path.center")].map((star) => {
    const b = star.getBBox();
    return { left: b.x, top: b.y, right: b.x + b.width, bottom: b.y + b.height };
  });
  const hits = (box, among) => among.filter((b) => box.right > b.left && box.left < b.right && box.bottom > b.top && box.top < b.bottom);
  for (const lines of blocks) {
    const size = Number(lines[0].getAttribute("font-size")) || 10;
    const first = Number(lines[0].getAttribute("y"));
    const box = labelBox(lines);
    const hit = hits(box, boxes);
    if (!hit.length) continue;
    let dy = Math.max(...hit.map((b) => b.bottom)) + 0.85 * size - first;
    const star = hits({ ...box, top: box.top + dy, bottom: box.bottom + dy }, stars);
    if (star.length) dy = Math.max(...star.map((b) => b.bottom)) + 0.85 * size - first;
    for (const line of lines) line.setAttribute("y", (Number(line.getAttribute("y")) + dy).toFixed(1));
  }
}

// The page's own legend, in the player's language: each power's colour, centres and units
// (in a retreat, also its units dislodged, by the provinces they must retreat from).
export function renderLegend(position) {
  const g = S.game;
  const box = document.getElementById("map-legend");
  if (!box || !g || !g.powers) return;
  const pic = document.querySelector("#map svg");
  const colour = (p) => {
    const unit = pic && (pic.querySelector(`g.unit.${p.toLowerCase()} path`) || pic.querySelector(`.center.${p.toLowerCase()}`));
    return unit ? unit.getAttribute("fill") : "#ccc";
  };
  // the chip: the power's land tint (as on the map), framed in its units' colour
  const land = (p) => {
    const owned = pic && pic.querySelector(`path.province[data-owner="${p}"]`);
    return owned ? owned.getAttribute("fill") : colour(p);
  };
  const units = (position && position.units) || {};
  // where each power's units stand and which centres it holds, in words for a screen reader
  // (the map is a picture: its units, by their colours, were said nowhere but by count)
  const said = (names) => (names.length ? el("span", { class: "sr-only" }, t("colon"), names.join(", ")) : null);
  const dislodged = (position && position.dislodged) || {};
  const unitsOf = (p) => {
    const out = (dislodged[p] || []).map((d) => d.unit.split(" ")[1]);
    return [(units[p] || []).length, said((units[p] || []).map((u) => `${t(u[0] === "A" ? "army" : "fleet")} · ${place(u.split(" ")[1])}`)), out.length ? el("span", { class: "dislodged", title: t("legend_dislodged_hint") },
      " ", t("legend_dislodged", { n: out.length, places: out.map(place).join(", ") })) : null];
  };
  // the centres of the position shown (a phase of the history: then, not now)
  const centresOf = (p) => (position && position.centers ? (position.centers[p] || []).length : (g.centers ? g.centers[p] : ""));
  // the powers nobody plays (a table's out powers, a neutral one) last, under their heading
  const nobody = g.unplayed || [];
  const apart = g.powers.filter((p) => nobody.includes(p));
  const row = (p) => el("tr", { "data-power": p, class: nobody.includes(p) ? "unplayed" : null },
    el("td", {}, el("span", { class: "swatch", "data-tint": land(p), style: `background:${land(p)};box-shadow:inset 0 0 0 3px ${colour(p)}` }), " ", powerName(p)),
    el("td", {}, centresOf(p), said(((position && position.centers) || {})[p] ? position.centers[p].map(place) : [])),
    el("td", {}, unitsOf(p)));
  // La Conquista's alliances standing now (an alliance's centres win together): not under
  // a past phase, which they may postdate
  const alliances = position === g.position ? g.alliances || [] : [];
  const allied = (a) => el("tr", { class: "alliance", "data-powers": a.members.join(" ") },
    el("td", {}, t("legend_alliance", { powers: a.members.map(powerName).join(" + "), since: a.since })),
    el("td", {}, a.members.reduce((n, p) => n + Number(centresOf(p) || 0), 0)), el("td", {}));
  fill(box, el("table", { class: "legend-table" },
    el("tr", {}, el("th", {}, t("power")), el("th", {}, t("centers")), el("th", {}, t("units"))),
    g.powers.filter((p) => !nobody.includes(p)).map(row),
    alliances.map(allied),
    apart.length ? el("tr", { class: "unplayed-heading" }, el("th", { colspan: "3", class: "muted small" }, t("legend_unplayed"))) : null,
    apart.map(row)),
  el("div", { class: "muted small key" }, t("legend_key")));
}

// --- ordering by map ---------------------------------------------------------------------
const options = () => (S.selection ? S.legal[S.selection.key] || [] : []);

function keyFor(province) {
  return Object.keys(S.legal).find((k) => k !== "WAIVE" && k.split("/")[0] === province) || null;
}

// Which province an element of the server's SVG stands for (its id, or data-province).
function provinceOf(node, svg) {
  for (let n = node; n && n !== svg.parentNode; n = n.parentNode) {
    if (!n.getAttribute) continue;
    const raw = n.getAttribute("data-province") || n.id;
    if (raw && /^[A-Z]{3}$/.test(raw)) return raw;
  }
  return null;
}

export function clickProvince(prov) {
  const sel = S.selection;
  if (!sel) { const key = prov && keyFor(prov); if (key) select(key); return; }
  const here = sel.key.split("/")[0];
  const opts = options();
  if (sel.mode === "move") {
    if (prov === here) {
      const hold = opts.find((o) => o.kind === "hold");
      if (hold) { giveOrder(hold.order); return; }
    }
    const moves = opts.filter((o) => (o.kind === "move" || o.kind === "retreat") && o.dest === prov);
    const direct = moves.filter((o) => !o.via);
    if (direct.length === 1 || (moves.length === 1)) { giveOrder((direct[0] || moves[0]).order); return; }
    if (moves.length) { showMenu(moves.map(optionButton), t("choose_order")); return; }
  } else if (!sel.target) {
    const kind = sel.mode;
    if (opts.some((o) => o.kind === kind && o.target === prov)) { sel.target = prov; highlight(); showMenu(modeMenu(), t(kind + "_dest_hint")); return; }
  } else {
    const found = opts.filter((o) => o.kind === sel.mode && o.target === sel.target && o.dest === prov);
    if (found.length === 1) { giveOrder(found[0].order); return; }
    if (found.length) { showMenu(found.map(optionButton), t("choose_order")); return; }
  }
  const other = prov && keyFor(prov);
  if (other && other !== sel.key) { select(other); return; }
  cancel();
}

export async function select(key) {
  if (S.shown) {  // a past phase is on the board: back to the position to order on
    const { showCurrent } = await import("./history.js");
    await showCurrent();
  }
  const opts = S.legal[key] || [];
  const kinds = new Set(opts.map((o) => o.kind));
  const mode = kinds.has("move") || kinds.has("retreat") ? "move" : null;
  const owner = S.ownerOf[key];
  if (owner && owner !== S.power) { S.power = owner; renderOrders(true); }  // its list takes the focus
  S.selection = { key, mode, target: null };
  if (!shownOnTheMap(key)) {  // (a desktop's map: whole again)
    focusOn([key, ...opts.filter((o) => (o.kind === "move" || o.kind === "retreat") && o.dest).map((o) => o.dest)]);
    applyZoom();
  }
  highlight();
  showMenu(modeMenu(), mode ? t(kinds.has("retreat") ? "retreat_hint" : "move_hint") : t("choose_order"));
  document.dispatchEvent(new CustomEvent("rp-select", { detail: key }));
}

// Whether the middle of ``key``'s province is in the part of the board shown (a unit picked
// from the list on a map zoomed elsewhere was highlighted out of view: the map turns to it).
function shownOnTheMap(key) {
  const pic = document.querySelector("#map svg");
  const shape = pic && pic.querySelector(`[id="${key.split("/")[0]}"]`);
  if (!shape || !S.zoom) return true;
  const b = shape.getBBox(), [x, y, w, h] = pic.getAttribute("viewBox").split(" ").map(Number);
  const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
  return x <= cx && cx <= x + w && y <= cy && cy <= y + h;
}

export function cancel() {
  S.selection = null;
  highlight();
  hideMenu();
  document.dispatchEvent(new CustomEvent("rp-select", { detail: null }));
}

function setMode(mode) {
  S.selection.mode = mode; S.selection.target = null;
  highlight();
  showMenu(modeMenu(), t(mode + "_hint"));
}

function optionButton(o) {
  const owner = foreignOwner(o);
  return el("button", { class: "small menu-option" + (owner ? " needs-accept" : ""), "data-order": o.order, "data-kind": o.kind,
    title: owner ? t("needs_accept", { power: powerName(owner) }) : (o.long || null), onclick: () => giveOrder(o.order) },
  choiceWords(o), owner ? ` ⚑ ${powerName(owner)}` : "");
}

// An order offered to choose (the menu's, the legal options'): as :func:`orderWords` says
// it, but in words on a screen without hover, where the notation's tooltip never shows
// (a phone's player saw "A ANK B" and "F ANK B" alone).
export function choiceWords(o) {
  return o.long && o.order !== "WAIVE" && window.matchMedia("(hover: none)").matches ? o.long : orderWords(o);
}

// An order as a sentence outside English, whose short notations are cryptic to newcomers;
// a waive, whose notation is a bare keyword ("WAIVE"), as the page's button says it.
export function orderWords(o) {
  if (o.order === "WAIVE") return t("waive");
  return S.lang !== "en" && o.long ? o.long : o.text;
}

// La Conquista: a support of another power's unit counts only if that power accepts it
// (another of my own powers too: each power's orders must say so).
function foreignOwner(o) {
  const g = S.game;
  if (o.kind !== "support" || !g.settings || g.settings.edition !== "conquista") return null;
  const at = (prov) => Object.keys(g.position.units || {}).find((p) => g.position.units[p].some((u) => u.split(" ")[1].split("/")[0] === prov));
  const owner = at(o.target), supporter = at(o.order.split(" ")[1].split("/")[0]);
  return owner && owner !== supporter ? owner : null;
}

// The menu of a selected unit: its order kinds; orders without a target given at once.
function modeMenu() {
  const sel = S.selection;
  const opts = options();
  const kinds = new Set(opts.map((o) => o.kind));
  const out = [];
  for (const o of opts) if (["hold", "disband", "build", "waive"].includes(o.kind)) out.push(optionButton(o));
  for (const mode of MODES) {
    if (!kinds.has(mode) && !(mode === "move" && kinds.has("retreat"))) continue;
    const label = mode === "move" && kinds.has("retreat") ? t("mode_retreat") : t("mode_" + mode);
    out.push(el("button", { class: "small mode" + (sel.mode === mode ? " on" : ""), "data-mode": mode, onclick: () => setMode(mode) }, label));
  }
  if (sel.target) {
    for (const o of opts.filter((x) => x.kind === sel.mode && x.target === sel.target)) out.push(optionButton(o));
  }
  return out;
}

function showMenu(buttons, hint) {
  const wrap = document.getElementById("map-wrap");
  if (!wrap) return;
  let menu = document.getElementById("order-menu");
  // (a group of buttons named by its unit, not an ARIA menu: that asks for menu items and
  // arrow keys, and a screen reader said an unnamed "menu" of no items)
  if (!menu) { menu = el("div", { id: "order-menu", class: "order-menu", role: "group" }); wrap.append(menu); }
  const sel = S.selection;
  menu.setAttribute("aria-label", `${t("legal_orders")} ${unitLabel(sel.key)}`);
  fill(menu,
    el("div", { class: "menu-head" }, el("b", {}, unitLabel(sel.key)),
      el("button", { class: "link close", "aria-label": t("cancel"), onclick: cancel }, "✕")),
    el("div", { class: "menu-hint muted" }, hint),
    el("div", { class: "menu-buttons" }, buttons));
  menu.hidden = false;
  placeMenu();
}

// "Army · MOS": the unit of a key (or the province to build in), in the player's words.
export function unitLabel(key) {
  const g = S.game;
  const prov = key.split("/")[0];
  const power = S.ownerOf[key] || S.power;
  const here = ((g && g.position && g.position.units && g.position.units[power]) || []).find((u) => u.split(" ")[1].split("/")[0] === prov)
    || (((g && g.position && g.position.dislodged && g.position.dislodged[power]) || []).map((d) => d.unit).find((u) => u.split(" ")[1].split("/")[0] === prov));
  if (!here) return key === "WAIVE" ? t("waive") : `${t("build_in")} ${place(key)}`;
  return `${t(here[0] === "A" ? "army" : "fleet")} · ${place(key)}`;
}

function hideMenu() {
  const menu = document.getElementById("order-menu");
  if (menu) menu.hidden = true;
}

// Next to the selected unit, inside the map, and where it covers none of the provinces a
// click can use now (those highlighted), if there is room. On a phone, just under the map:
// the map is too small for a menu over it not to hide the provinces to tap next.
function placeMenu() {
  const menu = document.getElementById("order-menu");
  const wrap = document.getElementById("map-wrap");
  const sel = S.selection;
  if (!menu || menu.hidden || !wrap || !sel) return;
  const docked = window.matchMedia("(max-width: 800px)").matches;
  menu.classList.toggle("docked", docked);
  if (docked) {
    menu.style.left = menu.style.top = "";
    // in view above the action bar kept at the screen's foot (it hid the last options)
    const r = menu.getBoundingClientRect();
    const bar = document.getElementById("action-bar");
    const floor = bar && bar.offsetHeight ? Math.min(bar.getBoundingClientRect().top, window.innerHeight) : window.innerHeight;
    if (r.bottom > floor) window.scrollBy(0, Math.min(r.bottom - floor + 8, r.top));
    else if (r.top < 0) menu.scrollIntoView({ block: "nearest" });
    return;
  }
  const path = document.querySelector(`#map svg [id="${sel.key.split("/")[0]}"]`);
  const w = wrap.getBoundingClientRect();
  let x = w.width / 2, y = 20;
  if (path) {
    const r = path.getBoundingClientRect();
    x = r.left - w.left + r.width / 2; y = r.top - w.top + r.height / 2;
  }
  const mw = menu.offsetWidth, mh = menu.offsetHeight;
  const inside = (left, top) => [
    Math.max(0, Math.min(left, w.width - mw)), Math.max(0, Math.min(top, w.height - mh))];
  const marks = [...document.querySelectorAll("#rp-overlay .rp-mark")].map((m) => m.getBoundingClientRect())
    .map((r) => ({ left: r.left - w.left, top: r.top - w.top, right: r.right - w.left, bottom: r.bottom - w.top }));
  const covers = ([left, top]) => marks.some((r) =>
    r.left < left + mw && r.right > left && r.top < top + mh && r.bottom > top);
  const span = marks.reduce((a, r) => ({ left: Math.min(a.left, r.left), top: Math.min(a.top, r.top),
    right: Math.max(a.right, r.right), bottom: Math.max(a.bottom, r.bottom) }),
  { left: x, top: y, right: x, bottom: y });
  const tries = [[x + 24, y - mh / 2], [x - 24 - mw, y - mh / 2], [x - mw / 2, y + 28], [x - mw / 2, y - 28 - mh],
    [span.right + 8, y - mh / 2], [span.left - 8 - mw, y - mh / 2], [x - mw / 2, span.bottom + 8],
    [x - mw / 2, span.top - 8 - mh]].map(([l, t]) => inside(l, t));
  const [left, top] = tries.find((at) => !covers(at)) || tries[0];
  menu.style.left = `${left}px`;
  menu.style.top = `${top}px`;
}

// Highlight the selected unit and the provinces a click can use now.
export function highlight() {
  const pic = document.querySelector("#map svg");
  if (!pic) return;
  let layer = pic.querySelector("#rp-overlay");
  if (!layer) {
    layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
    layer.id = "rp-overlay";
    layer.setAttribute("pointer-events", "none");
    const provinces = pic.querySelector('[id$="provinces"]');
    if (provinces) provinces.after(layer); else pic.append(layer);
  }
  layer.replaceChildren();
  const sel = S.selection;
  const mark = (prov, cls) => {
    const src = pic.querySelector(`[id="${prov}"]`);
    if (!src) return;
    const copy = src.cloneNode(false);
    copy.removeAttribute("id");
    copy.setAttribute("class", "rp-mark " + cls);
    copy.dataset.province = prov;
    layer.append(copy);
  };
  if (!sel) return;
  const opts = options();
  const targets = new Set();
  if (sel.mode === "move") {
    for (const o of opts) if ((o.kind === "move" || o.kind === "retreat") && o.dest) targets.add(o.dest);
  } else if (sel.mode && !sel.target) {
    for (const o of opts) if (o.kind === sel.mode && o.target) targets.add(o.target);
  } else if (sel.mode) {
    for (const o of opts) if (o.kind === sel.mode && o.target === sel.target && o.dest) targets.add(o.dest);
    mark(sel.target, "rp-target");
  }
  for (const p of targets) mark(p, "rp-reach");
  mark(sel.key.split("/")[0], "rp-selected");
}

export async function giveOrder(order) {
  hideMenu();
  const power = S.selection ? S.ownerOf[S.selection.key] : S.power;
  S.selection = null;
  await submitOrders([order], "en", power);
}

// Escape cancels; from the unit's legal orders or the map's menu, the focus goes back to
// the unit's button (it was lost with them).
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !S.selection) return;
  const key = S.selection.key;
  const inside = document.activeElement && document.activeElement.closest && document.activeElement.closest("#legal, #order-menu");
  cancel();
  if (inside) focusUnit(key);
});
