// Press: the messages I may read, and the compose box (closed, and saying so, when press is).
import { S, api, el, fill, guarded, powerName, t } from "./core.js";

export function resetPress() { S.lastMsg = 0; S.messages = []; }

export async function loadMessages() {
  const g = S.game;
  const fresh = await guarded(() => api("GET", `/games/${g.id}/messages?after=${S.lastMsg}`));
  if (!fresh) return;
  for (const m of fresh) { S.messages.push(m); S.lastMsg = Math.max(S.lastMsg, m.id); }
  renderMessages();
}

function pressOpen() {
  const g = S.game;
  if (g.status !== "active" || g.settings.press === "none") return false;
  if (g.settings.press_anytime) return true;
  const now = Date.now() / 1000 + S.offset;
  if (!(g.phase || "").endsWith("M")) return false;
  return !g.press_until || g.press_until > now;
}

function renderMessages() {
  const g = S.game;
  const panel = document.getElementById("messages-panel");
  if (!panel) return;
  const who = (p) => powerName(p);
  const list = S.messages.length ? el("ul", { id: "messages", class: "messages" }, S.messages.map((m) => el("li", { class: m.recipients.length ? "private" : "public" },
    el("b", {}, who(m.sender)), el("span", { class: "muted" }, ` → ${m.recipients.length ? m.recipients.map(who).join(", ") : t("everyone")} · ${m.phase}`),
    el("div", {}, m.body)))) : el("p", { id: "messages", class: "muted" }, t("no_messages"));
  const existing = document.getElementById("compose");
  if (existing && existing.contains(document.activeElement)) {
    const old = document.getElementById("messages");
    if (old) old.replaceWith(list);
    return;
  }
  const kids = [el("h3", {}, t("messages")), list];
  if (S.power && g.settings.press !== "none" && g.status === "active") {
    if (!pressOpen()) {
      kids.push(el("p", { id: "press-closed", class: "muted" }, t("press_closed_hint")));
    } else {
      const bots = new Set(g.seats.filter((s) => s.bot).flatMap((s) => s.powers));
      const others = (g.powers || []).filter((p) => !g.my_powers.includes(p));
      const body = el("textarea", { id: "message-body", rows: 2, "aria-label": t("message") });
      const boxes = others.map((p) => el("label", { class: "check small" }, el("input", { type: "checkbox", value: p, class: "recipient" }), who(p), bots.has(p) ? ` (${t("bot")})` : ""));
      const send = () => guarded(async () => {
        const to = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
        await api("POST", `/games/${g.id}/messages`, { sender: S.power, recipients: to, body: body.value });
        body.value = "";
        await loadMessages();
      });
      kids.push(el("div", { id: "compose" }, g.settings.press === "full" ? el("div", { class: "muted" }, `${t("to")}: ${t("to_hint")}`) : null,
        g.settings.press === "full" ? el("div", { class: "recipients" }, boxes) : null, body,
        el("button", { id: "send-message", onclick: send }, t("send"))));
    }
  } else if (g.settings.press === "none") {
    kids.push(el("p", { class: "muted" }, t("press_none")));
  }
  fill(panel, ...kids);
  if (list.scrollHeight) list.scrollTop = list.scrollHeight;
}
