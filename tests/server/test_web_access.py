"""The page for a player who cannot use a mouse or cannot see the screen, in a real browser:
every order given by the keyboard alone, the focus never lost, what the map shows said in
words, and text readable against its background (WCAG AA)."""

from __future__ import annotations

from typing import Any

from tests.server.browserkit import (
    back_to_the_lobby,
    guest_joins,
    host_a_table,
    idle,
    in_language,
    my_orders,
    register_and_create,
    watched,
)
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


# The element with the focus, as a screen reader names it: its tag, id and text.
FOCUSED = """() => { const e = document.activeElement;
  return e ? `${e.tagName}#${e.id} ${(e.textContent || '').trim().slice(0, 40)}` : 'none'; }"""


def tab_to(page: Any, selector: str, *, back: bool = False, presses: int = 120) -> None:
    """Tab (Shift-Tab with ``back``) until the focus is on an element matching ``selector``,
    as a player without a mouse reaches it."""
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {selector}; the focus: {page.evaluate(FOCUSED)}")


def focus_is(page: Any, selector: str) -> None:
    """The focus is on ``selector`` once the page is idle; else say where it is."""
    idle(page)
    if not page.evaluate("(s) => document.activeElement.matches(s)", selector):
        raise AssertionError(f"focus on {page.evaluate(FOCUSED)}, not {selector}")


def test_the_focus_stays_where_the_keyboard_player_is(server: LiveServer, browser: Any) -> None:
    """Playing by the keyboard alone, the focus is never lost to the page's top: an order
    given from a unit's legal orders leaves it on that unit's button (now ✓), Escape from
    them too, an order taken back by its ✕ too, a message sent on Send, Ready on Ready
    (the new phase's, the bots being ready), and the game opened from the lobby on the
    game's heading. Each of them sent it to the body."""
    page, errors = watched(browser)
    register_and_create(page, server, "adalbrand", players="7")
    back_to_the_lobby(page)
    page.focus("#home")
    tab_to(page, "#my-games .game-item button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#map svg")
    focus_is(page, "#game-head h1")
    tab_to(page, "#unit-list button.unit")
    key = page.evaluate("document.activeElement.dataset.key")
    page.keyboard.press("Enter")
    idle(page)
    tab_to(page, '#legal .legal-option[data-kind="hold"]')
    page.keyboard.press("Escape")
    focus_is(page, f'#unit-list button.unit[data-key="{key}"]')
    page.keyboard.press("Enter")
    idle(page)
    tab_to(page, '#legal .legal-option[data-kind="hold"]')
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
    focus_is(page, f'#unit-list button.unit[data-key="{key}"]')
    assert page.evaluate("document.activeElement.textContent").startswith("✓")
    tab_to(page, "#my-orders li.order button", back=True)
    page.keyboard.press("Enter")
    page.wait_for_function("!document.querySelector('#my-orders li.order.ok')")
    focus_is(page, f'#unit-list button.unit[data-key="{key}"]')
    tab_to(page, "#message-body")
    page.keyboard.type("Peace in our time")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#messages li")
    focus_is(page, "#send-message")
    before = page.get_attribute("#phase", "data-phase")
    page.once("dialog", lambda dialog: dialog.accept())  # (units without orders: Ready asks)
    tab_to(page, "#ready", back=True)
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.getElementById('phase').dataset.phase !== '{before}'")
    focus_is(page, "#ready")
    assert errors == []


def test_a_draw_voted_by_the_keyboard_keeps_the_focus(server: LiveServer, browser: Any) -> None:
    """A draw vote given by the keyboard leaves the focus on the button that takes it back
    (Withdraw, in the place of Vote draw), and withdrawn on Vote draw again: the head drawn
    again sent it to the page's body. (Two people at the table: one vote draws no game.)"""
    page, errors = watched(browser)
    link = host_a_table(page, server, "gerlindis", "Gerlindis's table", players="7")
    guest_joins(server, link, "hadubrand")
    page.reload()
    page.wait_for_selector("#start")
    idle(page)
    tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#vote-draw")
    tab_to(page, "#vote-draw")
    page.keyboard.press("Enter")
    page.wait_for_selector("#withdraw-draw")
    focus_is(page, "#withdraw-draw")
    page.keyboard.press("Enter")
    page.wait_for_selector("#vote-draw")
    focus_is(page, "#vote-draw")
    assert errors == []


def test_the_map_s_units_and_centres_are_said_in_words(server: LiveServer, browser: Any) -> None:
    """The map is a picture (a screen reader says its name, the game and phase): where each
    power's units stand and which centres it holds are said in the legend's rows, in the
    page's language (only their counts were: a player who cannot see the map could not
    know where anyone's armies were)."""
    page, errors = watched(browser)
    register_and_create(page, server, "sigiswinth", players="7")
    row = page.locator('#map-legend tr[data-power="AUSTRIA"]')
    said = row.aria_snapshot()
    for words in (
        "Army · Vienna",
        "Army · Budapest",
        "Fleet · Trieste",
        "Budapest, Trieste, Vienna",
    ):
        assert words in said, said
    hidden = row.locator(".sr-only").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert hidden and max(hidden) <= 1  # (said, not shown: the map shows them)
    in_language(
        page, "fr", "document.querySelector('#map-legend').textContent.includes('Autriche')"
    )
    said = page.locator('#map-legend tr[data-power="AUSTRIA"]').aria_snapshot()
    assert "Armée · Vienne" in said and "Flotte · Trieste" in said, said
    assert errors == []


def test_a_message_and_a_new_phase_are_announced(server: LiveServer, browser: Any) -> None:
    """What the page hears is said to a screen reader without moving the focus (a polite
    live region): a message another player writes ("France writes to you: ..."), and the
    new phase once everyone is ready, with the orders it asks of me. The page changed
    without a word."""
    import httpx

    page, errors = watched(browser)
    link = host_a_table(page, server, "ermentrude", "Ermentrude's table", players="7")
    guest = guest_joins(server, link, "folkhard")
    page.click("#start")
    page.wait_for_selector("#ready")
    idle(page)
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    mine = page.get_attribute("#power", "data-power")
    url = f"{server.url}/api/games/{game_id}"
    theirs = httpx.get(url, headers=guest).json()["my_powers"][0]
    said = httpx.post(
        f"{url}/messages",
        headers=guest,
        json={"sender": theirs, "recipients": [mine], "body": "Shall we talk about Tyrol?"},
    )
    assert said.status_code == 201, said.text
    status = page.locator("#announce")
    assert status.get_attribute("role") == "status"
    told = f"{theirs.title()} writes to you: Shall we talk about Tyrol?"
    page.wait_for_function("(t) => document.getElementById('announce').textContent === t", arg=told)
    ready = {"power": theirs, "ready": True, "phase": "S1901M"}
    assert httpx.post(f"{url}/ready", headers=guest, json=ready).status_code == 200
    page.once("dialog", lambda dialog: dialog.accept())  # (units without orders: Ready asks)
    page.click("#ready")
    page.wait_for_function("document.getElementById('phase').dataset.phase === 'F1901M'")
    idle(page)
    assert status.text_content() == f"Fall 1901 Movement. Your orders are due: {mine.title()}"
    assert errors == []


def test_the_map_s_order_menu_is_a_group_named_by_its_unit(
    server: LiveServer, browser: Any
) -> None:
    """The small menu a unit chosen opens by the map is said as a group of buttons named by
    the unit, in the page's language ("Ordres pour Flotte · Naples"): it was an ARIA menu
    without a name and without menu items (a screen reader's "menu" whose buttons are no
    items of it, and whose arrow keys do nothing)."""
    page, errors = watched(browser)
    register_and_create(page, server, "radegunde", players="7")
    in_language(page, "fr", "document.documentElement.lang === 'fr'")
    tab_to(page, "#unit-list button.unit")
    unit = page.evaluate("document.activeElement.textContent")
    page.keyboard.press("Enter")
    page.wait_for_selector("#order-menu:not([hidden])")
    idle(page)
    menu = page.get_by_role("group", name=f"Ordres pour {unit}")
    assert menu.count() == 1
    assert menu.get_by_role("button", name="Annuler").count() == 1
    assert page.get_by_role("menu").count() == 0
    assert errors == []


def test_the_open_conversation_is_said_selected(server: LiveServer, browser: Any) -> None:
    """The conversations are tabs: the open one is said selected (a screen reader heard
    "tab" for each and never which was open, shown only by its colour), and choosing one by
    the keyboard keeps the focus on it."""
    page, errors = watched(browser)
    register_and_create(page, server, "theodelinde", players="7")
    to = page.locator("#compose input.recipient").first
    power = str(to.get_attribute("value"))
    page.click("#compose details summary")
    to.check()
    page.fill("#message-body", "A word in private")
    page.click("#send-message")
    page.wait_for_selector(f'#threads [data-thread="{power}"].on')
    idle(page)
    tabs = page.get_by_role("tablist", name="Messages")
    named = power.title()
    assert tabs.get_by_role("tab", selected=True).all_inner_texts() == [named]
    assert tabs.get_by_role("tab", selected=False).all_inner_texts() == ["everyone"]
    tab_to(page, '#threads [data-thread="*"]', back=True)
    page.keyboard.press("Enter")
    page.wait_for_selector('#threads [data-thread="*"].on')
    focus_is(page, '#threads [data-thread="*"]')
    assert tabs.get_by_role("tab", selected=True).all_inner_texts() == ["everyone"]
    assert errors == []


def test_a_refusal_is_said_with_its_reason(server: LiveServer, browser: Any) -> None:
    """An order refused is said to a screen reader, with why: the flash that tells it was a
    live region appearing with its words (which a screen reader does not read), and the
    reason stood only in the list, elsewhere on the page."""
    page, errors = watched(browser)
    register_and_create(page, server, "waltburga", players="7")
    tab_to(page, "#typed")
    page.keyboard.type("hello world")
    tab_to(page, "#submit-typed")
    page.keyboard.press("Enter")
    page.wait_for_selector("#my-orders li.refused")
    idle(page)
    shown = page.inner_text("#flash")
    reason = page.inner_text("#my-orders li.refused .reason")
    told = str(page.text_content("#announce"))
    assert told.startswith(shown) and reason in told, (told, shown, reason)
    assert page.get_attribute("#announce", "role") == "status"
    assert errors == []


def test_buttons_repeated_in_a_list_name_what_they_act_on(server: LiveServer, browser: Any) -> None:
    """A screen reader tabbing through the lobby heard "Open, Leave, Open, Leave" and no
    game, and through my orders "remove, remove": each such button is named with its game
    or its order (its shown word first, as a voice command says it)."""
    page, errors = watched(browser)
    register_and_create(page, server, "kunigundis", players="7")
    for kind in ("hold", "hold"):
        page.locator("#unit-list button.unit:not(.done)").first.click()
        idle(page)
        page.click(f'#legal .legal-option[data-kind="{kind}"]')
        idle(page)
    orders = my_orders(page)
    assert len(orders) == 2
    removes = page.locator("#my-orders li.order button").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert removes == [f"remove · {order}" for order in orders]
    back_to_the_lobby(page)
    page.fill("#new-name", "Second table")
    page.select_option("#new-deadlines", "none")
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    back_to_the_lobby(page)
    mine = page.locator("#my-games")
    for game in ("kunigundis's game", "Second table"):
        assert mine.get_by_role("button", name=f"Open · {game}", exact=True).count() == 1
        assert mine.get_by_role("button", name=f"Leave · {game}", exact=True).count() == 1
    assert errors == []
