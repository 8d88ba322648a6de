"""The page for a player who cannot use a mouse or cannot see the screen, in a real browser:
every order given by the keyboard alone, the focus never lost, what the map shows said in
words, and text readable against its background (WCAG AA)."""

from __future__ import annotations

from typing import Any

from tests.server.browserkit import back_to_the_lobby, idle, register_and_create, watched
from tests.server.conftest import LiveServer

# Each piece of text shown (its own words, not its children's) whose colour against the
# background it is drawn on is below WCAG AA: 4.5:1, or 3:1 for large text (24 px, or
# bold 18.66 px). The background is the first opaque one up the tree; opacities are blended.
LOW_CONTRAST = """() => {
  const rgba = (s) => {
    const m = s.match(/[\\d.]+/g).map(Number);
    return m.length > 3 ? m : [...m, 1];
  };
  const linear = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  const lum = (c) => 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  const under = (e) => {
    for (let n = e; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0.5) return c;
    }
    return [255, 255, 255, 1];
  };
  const opacity = (e) => {
    let k = 1;
    for (let n = e; n; n = n.parentElement) k *= Number(getComputedStyle(n).opacity);
    return k;
  };
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    if (e.closest("svg") || !e.getClientRects().length) continue;
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(e), bg = under(e), ink = rgba(style.color);
    const k = ink[3] * opacity(e);
    const fg = [0, 1, 2].map((i) => ink[i] * k + bg[i] * (1 - k));
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05), size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const what = `${e.tagName}.${e.className} "${e.textContent.trim().slice(0, 40)}"`;
    if (ratio < (large ? 3 : 4.5)) out.push(`${ratio.toFixed(2)}: ${what}`);
  }
  return out;
}"""


def test_text_is_readable_against_its_background(server: LiveServer, browser: Any) -> None:
    """Every piece of text on the log-in page, the game page and the lobby meets WCAG AA's
    contrast (the muted grey, #777 on white, was 4.48:1: the password rule, the phase's
    brief, "No orders yet", "To: everyone", the lobby's game lines)."""
    page, errors = watched(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#auth-user")
    idle(page)
    assert page.evaluate(LOW_CONTRAST) == []
    register_and_create(page, server, "wilgefort", players="7")
    assert page.evaluate(LOW_CONTRAST) == []
    back_to_the_lobby(page)
    assert page.evaluate(LOW_CONTRAST) == []
    assert errors == []
