// Notices in this browser (opt-in, remembered here): while the page is in a background
// tab, the system tells of what the page hears (a new phase needing my orders, a message
// to me, a deadline near). The page's own news only: no service worker, no push. They are
// turned on in the account page, or from a game's page by its clock.
import { S, act, el, flash, go, ordersDue, phaseShown, t } from "./core.js";

const KEY = "rp_notify";  // "on": this browser's player asked for them

// Whether this browser has notifications at all (else nothing of them is shown).
export const supported = () => typeof window.Notification === "function";

// "on", "off", "blocked" (the browser refuses them: only its settings can change that) or
// "unable" (the browser shows none from a page: Chrome on Android, from a service worker only).
export function notifyState() {
  if (!supported()) return "off";
  if (Notification.permission === "denied") return "blocked";
  const asked = localStorage.getItem(KEY);
  if (asked === "unable") return "unable";
  return asked === "on" && Notification.permission === "granted" ? "on" : "off";
}

// A notice shown at once when they are turned on: what they will look like, and whether
// this browser shows them from a page at all. Returns whether it did.
function sample() {
  try {
    new Notification(t("notify_on"), { body: t("notify_sample"), tag: "realpolitik-on", lang: S.lang, icon: "/static/favicon.svg" });
    return true;
  } catch (e) {
    return false;
  }
}

// The browser's permission asked (on the player's click only): "granted", "denied" or
// "default" (the question dismissed). Older browsers answer by a callback, not a promise.
function askPermission() {
  return new Promise((resolve) => {
    const asked = Notification.requestPermission(resolve);
    if (asked && asked.then) asked.then(resolve, () => resolve("default"));
  });
}

// Notices turned on, on the player's click (the browser asks its permission then, if it
// has not been given): a sample shown at once and the choice remembered, or the browser's
// inability told. Returns the state it leaves (see :func:`notifyState`).
async function turnOn() {
  const answer = Notification.permission === "granted" ? "granted" : await askPermission();
  if (answer === "granted" && sample()) {
    localStorage.setItem(KEY, "on");
    flash(t("notify_on"));
  } else if (answer === "granted") {
    localStorage.setItem(KEY, "unable");
    flash(t("notify_unable"), true);
  }
  return notifyState();
}

// The game page's pointer to them while they are off and could be on (not blocked, not
// impossible here): a small button, by the game's clock, that turns them on as the
// account's choice does, and goes once they are. ``null`` when there is nothing to offer.
export function notifyButton() {
  if (!supported() || notifyState() !== "off") return null;
  return el("button", { id: "notify-game", class: "small secondary", title: t("notify_hint"),
    onclick: () => act(async () => {
      const state = await turnOn();
      if (state === "blocked") flash(t("notify_blocked"), true);  // (the account says it too)
      const button = document.getElementById("notify-game");  // (the head may be drawn anew)
      if (state !== "off" && button) button.remove();
    }) }, t("notify_short"));
}

// The account card's part: the checkbox and what it does (or why it cannot be ticked).
export function notifyPart() {
  if (!supported()) return null;
  const state = notifyState();
  const refused = state === "blocked" || state === "unable";
  const box = el("input", { id: "notify-browser", type: "checkbox", checked: state === "on", disabled: refused,
    "aria-describedby": "notify-status" });
  const status = el("div", { id: "notify-status", class: "muted small" + (refused ? " warn" : "") },
    t(refused ? "notify_" + state : "notify_hint"));
  const redraw = () => { const part = document.getElementById("notify-part"); if (part) part.replaceWith(notifyPart()); };
  box.onchange = () => act(async () => {
    if (!box.checked) {
      localStorage.removeItem(KEY);
      flash(t("notify_off"));
      return;
    }
    await turnOn();
    redraw();  // not granted: unticked, and blocked if the browser said no
  });
  return el("div", { id: "notify-part" }, el("label", { class: "check" }, box, t("notify_toggle")), status);
}

// Tell the player, if they asked for it in this browser and the page is not in view:
// ``tag`` names the news (the same news told again replaces its notice); a click on the
// notice brings the tab forward on ``game``'s page. Returns whether it was told.
export function notify(tag, title, body, game) {
  if (!document.hidden || notifyState() !== "on") return false;
  let notice;
  try {
    notice = new Notification(title, { body, tag: `realpolitik-${game}-${tag}`, renotify: true, lang: S.lang, icon: "/static/favicon.svg" });
  } catch (e) {
    return false;  // a browser that shows them from a service worker only (Chrome on Android)
  }
  notice.onclick = () => {
    window.focus();
    notice.close();
    if (location.hash !== `#/game/${game}`) go(`#/game/${game}`);
  };
  return true;
}

// A message's words as a notice shows them: short.
const gist = (text) => (text.length > 160 ? text.slice(0, 159) + "…" : text);

// A power's name as ``game`` (its state, as the server sends it) names it.
const named = (game, power) => (game.names && game.names.powers && game.names.powers[power]) || power;

// ``game`` (its state) in a new phase, or just started: told if my orders are due there.
// Returns whether it was told.
export function tellPhase(game) {
  const due = ordersDue(game);
  if (game.status !== "active" || !due.length) return false;
  return notify("phase", `${game.name} · ${phaseShown(game)}`, t("notify_phase", { powers: due.map((p) => named(game, p)).join(", ") }), game.id);
}

// Messages new in ``game`` (its state): those of others told, if I play there (one: who
// wrote, to whom and what; several: how many, and the last).
export function tellPress(game, messages) {
  const theirs = game.my_powers.length ? messages.filter((m) => !game.my_powers.includes(m.sender)) : [];
  if (!theirs.length) return false;
  const last = theirs[theirs.length - 1], sender = named(game, last.sender);
  const title = theirs.length > 1 ? t("notify_messages", { n: theirs.length })
    : t(last.recipients.length ? "notify_message" : "notify_message_all", { power: sender });
  return notify("press", `${game.name} · ${title}`, theirs.length > 1 ? `${sender}: ${gist(last.body)}` : gist(last.body), game.id);
}

// How near a deadline is told (as the server's reminder mail: an hour before).
export const REMIND = 3600;

// ``game`` (its state) due in ``left`` seconds: told if that is within ``REMIND`` and my
// orders there are not ready. Returns whether it was told.
export function tellDeadline(game, left) {
  const due = ordersDue(game);
  if (left <= 0 || left > REMIND || !due.length) return false;
  const powers = due.map((p) => named(game, p)).join(", ");
  return notify("deadline", `${game.name} · ${phaseShown(game)}`, t("notify_deadline", { minutes: Math.ceil(left / 60), powers }), game.id);
}
