// Press as conversations: one thread per set of correspondents (everyone, one power, a
// group), each with its unread count; the compose box writes to the open thread, or to
// the powers ticked for a new one. Closed, and saying so, when press is.
import { S, act, announce, api, el, fill, guarded, inPlay, keepDrafts, ordersDue, phaseName, phaseShown, playing, powerName, setTitle, t } from "./core.js";
import { tellPress } from "./notify.js";

export function resetPress() { S.lastMsg = 0; S.messages = []; S.thread = null; S.pressKey = null; S.pressHeard = null; }

// New press (``fetch`` false: none is known to be new: only show the panel again if the
// phase or my power changed).
export async function loadMessages(fetch = true) {
  const g = S.game;
  const fresh = fetch ? await guarded(() => api("GET", `/games/${g.id}/messages?after=${S.lastMsg}`)) : [];
  if (!fresh) return;
  const added = fresh.filter((m) => m.id > S.lastMsg && g.id === S.game.id);  // not twice (two loads at once)
  for (const m of added) { S.messages.push(m); S.lastMsg = Math.max(S.lastMsg, m.id); }
  if (fetch && g.id === S.game.id) {  // news after the press first shown is told (not what was there)
    if (S.pressHeard === g.id) { tellPress(S.game, added); announceMessages(added); }
    S.pressHeard = g.id;
  }
  const g2 = S.game;
  // (the history too: a message is dated by its phase's name once the history has it; the
  // press opening with a new phase draws the messages before the history is fetched)
  const key = [g2.id, g2.status, g2.phase, S.power, pressOpen(), (g2.conceded || []).join("+"), (S.history || []).length].join();
  if (added.length || key !== S.pressKey || !document.getElementById("threads")) { S.pressKey = key; renderMessages(); }
}

// Messages of others heard while the page is open, said by a screen reader: who writes, to
// whom, and what ("France writes to you: ...").
function announceMessages(messages) {
  const mine = S.game.my_powers;
  const theirs = messages.filter((m) => !mine.includes(m.sender));
  announce(theirs.map((m) => t(m.recipients.length ? "notify_message" : "notify_message_all", { power: powerName(m.sender) }) + t("colon") + m.body).join(" · "));
}

// Why the press is closed, as is true in the phase: the retreats and the adjustments have
// none; a movement's press closes before its orders are due.
function closedKey() {
  const kind = (S.game.phase || "").slice(-1);
  // (La Conquista's adjustments are its Spring reinforcements: no removals)
  const adjusting = S.game.settings && S.game.settings.edition === "conquista" ? "press_closed_reinforcements" : "press_closed_adjustments";
  return kind === "R" ? "press_closed_retreats" : kind === "A" ? adjusting : "press_closed_hint";
}

function pressOpen() {
  const g = S.game;
  if (g.status !== "active" || g.settings.press === "none") return false;
  if (g.settings.press_anytime) return true;
  const now = Date.now() / 1000 + S.offset;
  if (!(g.phase || "").endsWith("M")) return false;
  return !g.press_until || g.press_until > now;
}

// The thread of a message for the player of ``mine``: "*" for public, else the other
// powers in it, sorted.
function threadOf(m, mine = S.game.my_powers) {
  if (!m.recipients.length) return "*";
  const people = [m.sender, ...m.recipients].filter((p) => !mine.includes(p));
  return [...new Set(people)].sort().join("+") || "*";
}

// The newest message read in a thread of a game, kept in this browser.
const readKeyOf = (gameId, id) => `rp_read_${gameId}_${id}`;
const readKey = (id) => readKeyOf(S.game.id, id);

// Messages from others not read yet, each in its own thread (the threads' badges and the
// lobby's count agree: a message heard on the game page in a thread not open stays unread).
export function unread(gameId, mine, messages) {
  return messages.filter((m) => !mine.includes(m.sender)
    && m.id > Number(localStorage.getItem(readKeyOf(gameId, threadOf(m, mine))) || 0));
}

// The game page's title: the game and its phase, after the messages I have not read and a
// mark while orders are due for one of my powers (neither for a watcher).
export function showTitle() {
  const g = S.game;
  if (!g || g.id !== S.gameId) return;  // (a game left meanwhile)
  const waiting = g.my_powers.length ? unread(g.id, g.my_powers, S.messages).length : 0;
  setTitle(`${g.name} · ${phaseShown(g)}`, waiting, ordersDue(g).length > 0);
}

const threadName = (id) => (id === "*" ? t("everyone") : id.split("+").map(powerName).join(", "));

// ``whole``: the compose box too, even with the focus in it (else it is kept as it is,
// with what is being written).
function renderMessages(whole = false) {
  const g = S.game;
  const panel = document.getElementById("messages-panel");
  if (!panel) return;
  const threads = new Map([["*", []]]);
  for (const m of S.messages) {
    const id = threadOf(m);
    if (!threads.has(id)) threads.set(id, []);
    threads.get(id).push(m);
  }
  if (S.thread && !threads.has(S.thread)) threads.set(S.thread, []);
  const open = S.thread || "*";
  const shown = threads.get(open);
  // (the open thread is read, but not in a tab in the background: its title counts it)
  if (shown.length && !document.hidden) localStorage.setItem(readKey(open), String(shown[shown.length - 1].id));
  // the lobby asks only for press after the last message before the first unread one
  const left = unread(g.id, g.my_powers, S.messages);
  const seen = left.length ? Math.min(...left.map((m) => m.id)) - 1 : S.lastMsg;
  if (seen) localStorage.setItem("rp_read_" + g.id, String(seen));
  // (the open thread said selected, as its colour shows it: a screen reader heard tabs
  // and never which one was open)
  const tabs = el("div", { id: "threads", class: "threads", role: "tablist", "aria-label": t("messages") }, [...threads.keys()].map((id) => {
    const n = id === open ? 0 : unread(g.id, g.my_powers, threads.get(id)).length;
    return el("button", { class: "small thread" + (id === open ? " on" : ""), role: "tab", "aria-selected": id === open ? "true" : "false", "data-thread": id,
      onclick: () => { S.thread = id; renderMessages(); } }, threadName(id), n ? el("span", { class: "badge" }, n) : null);
  }));
  const list = shown.length ? el("ul", { id: "messages", class: "messages" }, shown.map((m) => el("li", { class: m.recipients.length ? "private" : "public" },
    el("b", {}, powerName(m.sender)), el("span", { class: "muted", "data-phase": m.phase }, ` · ${phaseName(m.phase)}`), el("div", { dir: "auto" }, m.body))))
    : el("p", { id: "messages", class: "muted" }, t("no_messages"));
  const existing = document.getElementById("compose");
  if (!whole && existing && existing.contains(document.activeElement)) {
    const old = document.getElementById("messages");
    if (old) old.replaceWith(list);
    const oldTabs = document.getElementById("threads");
    if (oldTabs) oldTabs.replaceWith(tabs);
    showTitle();
    return;
  }
  const kids = [el("h2", {}, t("messages")), tabs, list];
  if (S.power && g.status === "active" && (g.conceded || []).includes(S.power)) {
    kids.push(el("p", { id: "press-conceded", class: "muted" }, t("press_conceded")));  // as the server says
  } else if (S.power && g.settings.press !== "none" && g.status === "active") {
    kids.push(pressOpen() ? compose(open) : el("p", { id: "press-closed", class: "muted" }, t(closedKey())));
  } else if (g.settings.press === "none") {
    kids.push(el("p", { class: "muted" }, t("press_none")));
  }
  fill(panel, ...kids);
  if (list.scrollHeight) list.scrollTop = list.scrollHeight;
  showTitle();
}

// The tab brought back to the front: what the open thread got meanwhile is read now.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && S.game && S.game.id === S.gameId && document.getElementById("threads")) renderMessages();
});

function compose(open) {
  const g = S.game;
  const bots = new Set(g.seats.filter((s) => s.bot).flatMap((s) => s.powers));
  const played = inPlay(g);
  const others = (g.powers || []).filter((p) => !g.my_powers.includes(p) && played.has(p));
  // what is written and not sent yet, and to whom, outlives the box: it is drawn again when
  // a message comes in (with the focus elsewhere, a click on the map), or the language changes
  const draft = S.drafts["press " + g.id] || (S.drafts["press " + g.id] = { body: "", to: [] });
  const body = el("textarea", { id: "message-body", rows: 2, "aria-label": t("message"), text: draft.body || null,
    oninput: () => { draft.body = body.value; keepDrafts(); } });
  // "To: …" says where the message goes: the powers ticked, else the open thread (it said
  // "To: everyone" with Germany ticked, and the message went to Germany alone)
  const toLine = el("div", { id: "compose-to", class: "muted" }, t("to") + t("colon") + threadName(open));
  const ticked = () => boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
  const retell = () => {
    const to = ticked();
    draft.to = to;
    keepDrafts();
    toLine.textContent = t("to") + t("colon") + threadName(to.length ? [...to].sort().join("+") : open);
  };
  // a player of several powers writes as one of them, chosen here ("From: France"): it went
  // from the power in focus, said nowhere (France's ally got it from Austria); what the
  // choice shows is what is sent
  const mine = playing(g);
  const from = mine.length > 1 ? el("select", { id: "compose-from", "aria-label": t("from"), onchange: () => { draft.from = from.value; keepDrafts(); } },
    mine.map((p) => el("option", { value: p, selected: p === (mine.includes(draft.from) ? draft.from : S.power) }, powerName(p)))) : null;
  const boxes = others.map((p) => el("label", { class: "check small" }, el("input", { type: "checkbox", value: p, class: "recipient", checked: draft.to.includes(p), onchange: retell }), powerName(p), bots.has(p) ? ` (${t("bot")})` : ""));
  retell();
  // busy until the message is shown; the box says at once the thread written to (the
  // Send button has the focus: a redraw for news heard meanwhile would keep the old box)
  const send = () => act(async () => {
    let to = open === "*" ? [] : open.split("+");
    if (ticked().length) to = ticked();
    await api("POST", `/games/${g.id}/messages`, { sender: from ? from.value : S.power, recipients: to, body: body.value });
    body.value = "";
    Object.assign(draft, { body: "", to: [] });
    keepDrafts();
    S.thread = to.length ? [...to].sort().join("+") : "*";
    renderMessages(true);
    await loadMessages();
  });
  return el("div", { id: "compose" },
    from ? el("label", { id: "compose-from-line", class: "muted" }, t("from") + t("colon"), from) : null,
    toLine,
    g.settings.press === "full" ? el("details", { class: "new-thread", open: draft.to.length > 0 }, el("summary", {}, t("new_conversation")),
      el("div", { class: "muted small" }, t("to_hint")), el("div", { class: "recipients" }, boxes)) : null,
    body, el("button", { id: "send-message", onclick: send }, t("send")));
}
