// realpolitik in the browser: start-up and routing. The page is plain ES modules, no build
// step: core (state, helpers), lobby (accounts, games, invitations), game (the game page),
// board (the map and ordering on it), orders (the orders panel), press, history.
import { S, act, api, busy, clearFlash, el, errorText, fill, flash, go, guarded, keepDrafts, keepInviteCode, setTitle, stopTimers, t, view, word } from "./core.js";
import { showGame } from "./game.js";
import { showLobby } from "./lobby.js";
import { notifyPart, supported as notices } from "./notify.js";

// (busy until the page is first shown: the language may be switched meanwhile)
const boot = () => busy(async () => {
  S.i18n = await (await fetch("/static/i18n.json")).json();
  // a browser with no language chosen on the page: its own, where the page has it (the
  // account's, once logged in, wins over it; a choice in the menu over both)
  if (!localStorage.getItem("rp_lang")) S.lang = browserLanguage();
  const select = document.getElementById("language");
  // busy from the switch on (the page's language attribute changes before its redraw)
  select.onchange = () => busy(async () => {
    S.lang = select.value;
    localStorage.setItem("rp_lang", S.lang);
    clearFlash();  // a message said in the old language
    if (S.user) await guarded(() => api("PUT", "/me/language", { language: S.lang }));
    translateStatic();
    await route();
  });
  document.getElementById("logout").onclick = () => logOut(false);
  window.addEventListener("hashchange", route);
  try { S.user = await api("GET", "/me"); } catch (e) { S.user = null; }
  if (S.user && !localStorage.getItem("rp_lang")) S.lang = S.user.language;
  select.value = S.lang;
  translateStatic();
  await route();
});

// The first of the browser's languages the page is written in ("fr" for "fr-FR"), else English.
function browserLanguage() {
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  return wanted.map((l) => String(l).toLowerCase().split("-")[0]).find((l) => l in S.i18n) || "en";
}

function translateStatic() {
  document.documentElement.lang = S.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  document.getElementById("language").setAttribute("aria-label", t("language"));
  const whoami = document.getElementById("whoami");
  whoami.textContent = S.user ? S.user.username : "";
  whoami.title = t("account");
  document.getElementById("logout").hidden = !S.user;
}

// Show the page the address names; done when it is drawn. Each call is a new page shown
// (S.page): a page still fetching when another is asked for draws nothing.
// A page shown after the first (a game opened from the lobby, the lobby from a game) takes
// the focus to its heading, where the focus was lost with the page left (a screen reader
// then says where it is, and Tab goes on from there); the focus left elsewhere (the
// language menu, the header's link) stays.
export async function route() {
  const first = !S.routed;
  S.routed = true;
  await showRoute();
  const now = document.activeElement;
  if (first || (now && now !== document.body && now !== view())) return;
  const heading = view().querySelector("h1, h2");
  if (!heading) return;
  heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
}

async function showRoute() {
  S.page += 1;
  stopTimers();
  setTitle();
  const [what, arg] = location.hash.replace(/^#\/?/, "").split("/");
  if (S.gameId !== null && !(what === "game" && Number(arg) === S.gameId)) {
    // the game page is left: its messages ("1 order refused: see why in the list") and
    // its loading (an answer still on its way) stay with it
    S.gameId = null;
    clearFlash();
  }
  if (what === "join" && arg) {
    sessionStorage.setItem("rp_join", arg);
  }
  if (what === "confirm" && arg) { await confirmEmail(arg); return; }
  const code = sessionStorage.getItem("rp_join");
  if (!S.user) { await showAuth(code); return; }
  if (code) {
    sessionStorage.removeItem("rp_join");
    await joinByCode(code);
    return;
  }
  if (what === "game" && arg) { await showGame(Number(arg)); return; }
  if (what === "account") { await showAccount(); return; }
  await showLobby();
}

// An invitation: take the seat, then land in the game (also when already seated there).
async function joinByCode(code) {
  const invited = await guarded(() => api("GET", "/invitations/" + encodeURIComponent(code)));
  if (!invited) { go("#"); return; }
  try {
    await api("POST", "/invitations/" + encodeURIComponent(code));
  } catch (e) {
    if (e.status !== 409) { go("#"); return; }
    // already seated: in silence; no seat left (taken meanwhile, or a bot took it when I
    // left), over: said, and the game shown to watch (it looked as if I had joined), its
    // code kept for its reads (an unlisted game); every seat played, some by bots: said
    // as a hint, and the game shown at its players, a bot's to take over
    keepInviteCode(invited.id, code);
    const choose = e.code === "choose_a_bot_seat";
    S.toSeats = choose;
    if (e.code && e.code !== "already_seated") flash(errorText(e), !choose);
  }
  go("#/game/" + invited.id);
}

// --- accounts -------------------------------------------------------------------------
// A form whose Enter key (and submit button) runs ``action``; the page says what is wrong
// in its own language, not the browser's validation bubbles.
function submitted(action, ...kids) {
  return el("form", { novalidate: true, onsubmit: (ev) => { ev.preventDefault(); action(); } }, ...kids);
}

async function showAuth(code) {
  const user = el("input", { id: "auth-user", name: "username", autocomplete: "username", required: true });
  const pass = el("input", { id: "auth-pass", name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 8 });
  async function submit(path) {
    if (!user.value.trim() || !pass.value) { flash(t("auth_blank"), true); return; }
    await guarded(async () => {
      const body = { username: user.value.trim(), password: pass.value };
      if (path === "/accounts") body.language = S.lang;
      const session = await api("POST", path, body);
      S.user = session.user;
      // logged in on a browser that has no language of its own: the account's (as a
      // page opened already logged in does), not English until the next reload
      if (!localStorage.getItem("rp_lang") && S.user.language) {
        S.lang = S.user.language;
        document.getElementById("language").value = S.lang;
      }
      clearFlash();
      translateStatic();
      await route();
    });
  }
  let invite = null;
  if (code) {
    const game = await guarded(() => api("GET", "/invitations/" + encodeURIComponent(code)));
    if (game) {
      invite = el("div", { id: "invited", class: "invited" },
        el("b", { class: "game-name" }, t("invited_to", { game: game.name })),
        el("div", { class: "muted" }, t("invited_by", { user: game.creator || "?", edition: word("edition_", game.edition), players: game.players })),
        el("div", {}, t("invited_hint")));
    }
  }
  // the form shown again (the language switched, the account check answered): what was
  // typed, and where, stays
  const before = { user: document.getElementById("auth-user"), pass: document.getElementById("auth-pass") };
  const focused = document.activeElement && document.activeElement.id;
  if (before.user) user.value = before.user.value;
  if (before.pass) pass.value = before.pass.value;
  fill(view(), el("section", { class: "card auth" },
    el("h1", { text: "realpolitik" }),
    invite,
    submitted(() => submit("/sessions"),
      el("label", {}, t("username"), user),
      el("label", {}, t("password"), pass),
      el("div", { class: "muted small" }, t("password_rule")),
      el("div", { class: "row" },
        el("button", { id: "login", type: "submit" }, t("login")),
        el("button", { id: "register", type: "button", class: "secondary", onclick: () => submit("/accounts") }, t("register"))))));
  if (focused === "auth-user") user.focus();
  else if (focused === "auth-pass") pass.focus();
}

// Log out: this session, or (``everywhere``) every session of the account.
async function logOut(everywhere) {
  await guarded(() => api("DELETE", everywhere ? "/sessions?everywhere=true" : "/sessions"));
  S.user = null; S.drafts = {}; keepDrafts(); go("#");
}

// The link of a confirmation mail (logged in or not): the address is confirmed, then the
// account is shown (the lobby or the log-in, without a session).
async function confirmEmail(token) {
  const done = await guarded(() => api("POST", "/email/confirm", { token }));
  if (done) flash(t("email_confirmed_now"));
  go(S.user ? "#/account" : "#");
}

// The browser's time zone ("Europe/Madrid"), sent with the address and the notices: the
// deadlines in mail are written in it. A zone the server does not know is not kept (the
// request is made again without it: mail then says UTC).
function browserZone() {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || null; } catch (e) { return null; }
}

async function withZone(method, path, body) {
  const zone = browserZone();
  if (!zone) return api(method, path, body);
  try {
    return await api(method, path, { ...body, time_zone: zone });
  } catch (e) {
    if (e.code !== "time_zone_unknown") throw e;
    return api(method, path, body);
  }
}

// The email address for notices (only if the server sends mail): set it, see whether it
// is confirmed, turn each kind of notice on or off; the time zone of mail goes with them.
function emailPart(me) {
  const input = el("input", { id: "account-email", type: "email", autocomplete: "email", maxlength: 254, value: me.email || "" });
  const before = document.getElementById("account-email");
  if (before) input.value = before.value;  // shown again (the language switched)
  const status = !me.email ? t("email_none") : me.email_confirmed ? t("email_confirmed") : t("email_unconfirmed", { email: me.email });
  async function save() {
    await act(async () => {
      const now = await withZone("PUT", "/me/email", { email: input.value.trim() || null });
      await showAccount();
      flash(now.email && !now.email_confirmed ? t("email_sent", { email: now.email }) : t("email_saved"));
    });
  }
  const notice = (kind) => {
    const box = el("input", { id: "notice-" + kind, type: "checkbox", checked: me.notices[kind] });
    box.onchange = () => act(async () => {
      const now = await withZone("PUT", "/me/notices", { [kind]: box.checked });
      const zone = document.getElementById("notices-zone");
      if (zone) zone.textContent = t("notices_zone", { zone: now.time_zone || "UTC" });
      flash(t("notices_saved"));
    });
    return el("label", { class: "check" }, box, t("notice_" + kind));
  };
  return [
    el("hr"),
    submitted(save,
      el("label", {}, t("email"), input),
      el("div", { id: "email-status", class: "muted small" }, status),
      el("div", { class: "row" }, el("button", { id: "save-email", type: "submit" }, t("save_email")))),
    el("div", {}, notice("phase"), notice("deadline")),
    el("div", { class: "muted small" }, t("notices_hint")),
    el("div", { id: "notices-zone", class: "muted small" }, t("notices_zone", { zone: me.time_zone || "UTC" })),
  ];
}

// The account (the username in the header): change the password, the email address and
// its notices, notices in this browser, log out everywhere.
async function showAccount() {
  const page = S.page;
  const me = await guarded(() => api("GET", "/me"));
  if (page !== S.page) return;  // another page was asked for meanwhile
  const field = (id, autocomplete) => el("input", { id, type: "password", autocomplete, required: true, minlength: 8 });
  const current = field("account-current", "current-password"), fresh = field("account-new", "new-password");
  // shown again (the language switched): what was typed stays
  for (const input of [current, fresh]) {
    const before = document.getElementById(input.id);
    if (before) input.value = before.value;
  }
  async function change() {
    if (!current.value || !fresh.value) { flash(t("password_blank"), true); return; }
    await act(async () => {
      await api("PUT", "/me/password", { current_password: current.value, new_password: fresh.value });
      current.value = fresh.value = "";
      flash(t("password_changed"));
    });
  }
  setTitle(t("account"));
  fill(view(), el("section", { class: "card auth" },
    el("h1", {}, t("account"), el("span", { class: "muted" }, " · ", S.user.username)),
    submitted(change,
      el("label", {}, t("current_password"), current),
      el("label", {}, t("new_password"), fresh),
      el("div", { class: "muted small" }, t("password_rule")),
      el("div", { class: "row" }, el("button", { id: "change-password", type: "submit" }, t("change_password")))),
    me && me.mail ? emailPart(me) : null,
    notices() ? [el("hr"), notifyPart()] : null,
    el("hr"),
    el("div", { class: "muted small" }, t("logout_everywhere_hint")),
    el("div", { class: "row" },
      el("button", { id: "logout-everywhere", class: "secondary", onclick: () => logOut(true) }, t("logout_everywhere")))));
}

document.addEventListener("DOMContentLoaded", boot);
