"""The map (board.js) in a real browser: a year played by clicks on it (move, support,
Escape, a typed order refused) with the results drawn on it, a convoy by clicks, each
power's land told apart, units and labels legible, the legend's dislodged units."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from realpolitik.game import Game
from tests.gamekit import at
from tests.server.browserkit import (
    DESKTOP,
    GAME,
    PHONE,
    SHOTS,
    SHOWN_TEXT,
    click_province,
    continue_to_now,
    idle,
    in_language,
    legal,
    my_orders,
    open_at,
    phase,
    put_at_a_convoy,
    put_at_a_retreat,
    register_and_create,
    rewrite_stored_game,
    same_page_elsewhere,
    shot,
    until_phase_changes,
    watched,
)
from tests.server.conftest import LiveServer


def order_by_clicks(page: Any, unit: str, mode: str, option: dict[str, Any]) -> None:
    """A support or convoy given by clicks alone: the unit (at ``unit``, a legal-order key),
    the menu's ``mode``, the unit it names, then where that one goes; the order listed."""
    click_province(page, unit.split("/")[0])
    page.click(f'#order-menu button[data-mode="{mode}"]')
    click_province(page, option["target"])
    page.wait_for_selector("#rp-overlay .rp-target")
    click_province(page, option["dest"])
    page.wait_for_function(f"[...document.querySelectorAll('#my-orders li.order')].some("
                           f"e => e.dataset.order === '{option['order']}')")  # fmt: skip


def test_play_a_year_by_map_with_results_on_the_board(server: LiveServer, browser: Any) -> None:
    page, errors = watched(browser)
    register_and_create(page, server, "ada", players="7")
    assert phase(page) == "S1901M"
    assert page.inner_text("#phase").startswith("Spring 1901")
    shot(page, "1-start")
    options = legal(page)
    keys = [k for k in options if k != "WAIVE"]
    # a move by two clicks: the unit, then a highlighted province (one another unit supports)
    mover, move, supporter, support = next(
        (k, m, j, o) for k in keys for m in options[k] if m["kind"] == "move" and not m.get("via")
        for j in keys if j != k for o in options[j]
        if o["kind"] == "support" and o["target"] == k.split("/")[0] and o["dest"] == m["dest"]
    )  # fmt: skip
    click_province(page, mover.split("/")[0])
    page.wait_for_selector("#order-menu:not([hidden])")
    reach = page.evaluate("[...document.querySelectorAll('#rp-overlay .rp-reach')]"
                          ".map(e => e.dataset.province)")  # fmt: skip
    assert move["dest"] in reach and page.locator("#rp-overlay .rp-selected").count() == 1
    shot(page, "2-unit-selected")
    click_province(page, move["dest"])
    page.wait_for_function(f"[...document.querySelectorAll('#my-orders li.order')].some("
                           f"e => e.dataset.order === '{move['order']}')")  # fmt: skip
    idle(page)
    # a support by clicks alone: unit, Support, the supported unit, its destination
    order_by_clicks(page, supporter, "support", support)
    idle(page)
    # Escape cancels a selection
    other = next(k for k in keys if k not in (mover, supporter))
    click_province(page, other.split("/")[0])
    page.wait_for_selector("#order-menu:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#order-menu", state="hidden")
    assert page.locator("#rp-overlay .rp-mark").count() == 0
    # a typed order out of reach is refused with the reason, and nothing is replaced
    before = my_orders(page)
    unit = options[mover][0]["order"].split(" ")[0]
    reach = {o.get("dest") for o in options[mover]} | {mover.split("/")[0]}
    far = next(p for p in ("UKR", "TYR", "BOH", "BUR", "SIL", "GAL") if p not in reach)
    page.fill("#typed", f"{unit} {mover} - {far}")
    page.click("#submit-typed")
    page.wait_for_selector("#my-orders li.refused")
    assert my_orders(page) == before
    assert "cannot" in page.inner_text("#my-orders li.refused .reason")
    shot(page, "3-orders-refused")
    assert page.locator("#flash.error").is_visible()
    click_province(page, mover.split("/")[0])  # the next order given clears the refusal's flash
    click_province(page, move["dest"])  # (the same move again: the other units still free)
    idle(page)
    assert page.locator("#flash").is_hidden()
    page.click("#ready")  # units without orders: the page asks first
    page.on("dialog", lambda d: d.accept())
    if phase(page) == "S1901M":
        page.click("#ready")
    until_phase_changes(page, "S1901M")
    # the main board shows what happened, with the summary, before the new position
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == "S1901M"
    assert page.locator("#map svg").count() == 1 and page.locator("#results tr").count() >= 22
    shot(page, "4-results-on-board")
    page.click("#step-prev") if not page.is_disabled("#step-prev") else None
    continue_to_now(page)
    assert page.get_attribute("#step-label", "data-phase") == ""
    # the stepper flips back through the history and forward to now
    page.click("#step-prev")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === 'S1901M'")
    assert page.locator("#play-from-here").count() == 0  # (a sandbox's only)
    for panel in ("#messages-panel", "#seats-panel"):  # (a sandbox has neither)
        assert page.locator(panel).is_visible(), panel
    page.click("#step-next")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === ''")
    dupes = page.evaluate("(() => { const seen = {}; for (const e of document.querySelectorAll"
                          "('[id]')) seen[e.id] = (seen[e.id] || 0) + 1;"
                          " return Object.keys(seen).filter(k => seen[k] > 1); })()")  # fmt: skip
    assert dupes == [], dupes  # one map on the page, no id twice
    assert not errors, errors  # (no favicon 404 either)


LEGIBILITY = """() => {
    const svg = document.querySelector('#map svg');
    const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const unit = svg.querySelector('g.unit.army');
    const fills = {};
    for (const p of svg.querySelectorAll('path.province')) {
        const cls = [...p.classList].find(c => ['inactive', 'impassable'].includes(c));
        fills[p.id] = [p.getAttribute('fill'), cls || ''];
    }
    // the renderer draws an army 18 units wide
    return {width: unit.getBoundingClientRect().width, plain: 18 * k, fills};
}"""


def rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def test_legibility_on_a_reduced_grow_board(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "pia", edition="grow", players="4")
    assert page.inner_text("#phase").startswith("Winter 1901"), page.inner_text("#phase")
    seen = page.evaluate(LEGIBILITY)
    assert seen["width"] >= 2 * seen["plain"] * 0.95, seen["width"]  # units twice the size
    fills = seen["fills"]
    germany = rgb(fills["BER"][0])
    out = [rgb(f) for f, cls in fills.values() if cls]
    assert out and all(sum(abs(a - b) for a, b in zip(germany, o, strict=True)) > 60 for o in out)
    assert sum(rgb(fills["MOS"][0])) < 3 * 240 or fills["MOS"][1]  # Russia's land not white
    tints_apart_and_in_the_legend(page, 4)
    shot(page, "13-grow-4p")


TINTS = """() => {
    const map = {}, chips = {};
    for (const p of document.querySelectorAll('#map svg path.province[data-owner]')) {
        (map[p.dataset.owner] = map[p.dataset.owner] || new Set()).add(p.getAttribute('fill'));
    }
    for (const row of document.querySelectorAll('#map-legend tr[data-power]')) {
        chips[row.dataset.power] = row.querySelector('.swatch').dataset.tint;
    }
    return {map: Object.fromEntries(Object.entries(map).map(([k, v]) => [k, [...v]])), chips};
}"""


def tints_apart_and_in_the_legend(page: Any, powers: int) -> None:
    """Each power's land is one tint, clearly apart from every other power's (CIELAB), and
    its legend chip shows that tint."""
    from tests.test_render_style import APART, distance

    seen = page.evaluate(TINTS)
    assert len(seen["map"]) == powers, seen
    tints = {}
    for power, fills in seen["map"].items():
        assert len(fills) == 1, (power, fills)
        tints[power] = fills[0]
        assert seen["chips"][power] == fills[0], (power, seen["chips"])
    for a, b in itertools.combinations(sorted(tints), 2):
        assert distance(tints[a], tints[b]) >= APART, (a, tints[a], b, tints[b])


def test_every_power_s_land_is_told_apart_on_the_standard_board(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "tina", players="7")
    tints_apart_and_in_the_legend(page, 7)
    shot(page, "24-tints-standard")


HIDDEN_LABELS = """() => {
    const svg = document.querySelector('#map svg');
    const units = [...svg.querySelectorAll('g.unit')].map(u => u.getBoundingClientRect());
    const hidden = [];
    for (const label of svg.querySelectorAll('text.label')) {
        const r = label.getBoundingClientRect();
        // the part of the label under a unit, as a share of the label's area
        const under = Math.max(0, ...units.map(u =>
            Math.max(0, Math.min(r.right, u.right) - Math.max(r.left, u.left))
            * Math.max(0, Math.min(r.bottom, u.bottom) - Math.max(r.top, u.top))));
        if (under > 0.15 * r.width * r.height) hidden.push(label.textContent);
    }
    return hidden;
}"""


def test_units_leave_the_province_labels_readable(server: LiveServer, browser: Any) -> None:
    """No province's label is hidden by a unit (drawn at twice the renderer's size) on the
    standard board, on a desktop and on a phone."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "lena", players="7")
    hidden = page.evaluate(HIDDEN_LABELS)
    if SHOTS:
        page.locator("#map").screenshot(path=str(Path(SHOTS) / "25-labels.png"))
    assert hidden == [], hidden
    phone = same_page_elsewhere(browser, page, PHONE, "#map svg")
    assert phone.evaluate(HIDDEN_LABELS) == []


HIDDEN_STARS = """() => {
    const svg = document.querySelector('#map svg');
    const over = [...svg.querySelectorAll('g.unit, text.label')]
        .map(e => e.getBoundingClientRect());
    const hidden = [];
    for (const star of svg.querySelectorAll('path.center')) {
        const s = star.getBoundingClientRect();
        if (over.some(r => Math.min(r.right, s.right) - Math.max(r.left, s.left) > 1
                && Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top) > 1)) {
            hidden.push(star.dataset.province);
        }
    }
    return hidden;
}"""


def test_the_centres_stars_show_beside_the_units_and_labels(
    server: LiveServer, browser: Any
) -> None:
    """The stars of the supply centres lay under the page's larger units (the server drew
    them for units of the plain size), and a name moved below its unit could lie on a star
    put there (Constantinople's). No star is under a unit or a label, on a desktop and on a
    phone."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "stella", players="7")
    assert page.evaluate(HIDDEN_STARS) == []
    phone = same_page_elsewhere(browser, page, PHONE, "#map svg")
    assert phone.evaluate(HIDDEN_STARS) == []


CROWDED_LABELS = """() => {
    const svg = document.querySelector('#map svg');
    const blocks = [];  // a label's lines together: consecutive texts at one x
    for (const t of svg.querySelectorAll('text.label')) {
        const r = t.getBoundingClientRect();
        const last = blocks[blocks.length - 1];
        if (last && last.x === t.getAttribute('x') && last.el.nextElementSibling === t) {
            Object.assign(last, {el: t, text: `${last.text} ${t.textContent}`,
                bottom: Math.max(last.bottom, r.bottom), left: Math.min(last.left, r.left),
                right: Math.max(last.right, r.right)});
        } else {
            blocks.push({x: t.getAttribute('x'), el: t, text: t.textContent,
                         left: r.left, right: r.right, top: r.top, bottom: r.bottom});
        }
    }
    const crowded = [];
    blocks.forEach((a, i) => blocks.slice(i + 1).forEach(b => {
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        // (side by side, closer than a fifth of their height reads as one word: "Tos.Rom.Apu.")
        const near = 0.2 * Math.min(a.bottom - a.top, b.bottom - b.top);
        if (w > -near && h > 1) crowded.push(`${a.text} | ${b.text}`);
    }));
    return crowded;
}"""


def test_province_labels_never_overlap_each_other(server: LiveServer, browser: Any) -> None:
    """The page writes the province labels larger than the renderer and moves those a unit
    would hide below it: on a desktop Portuguese "Apu." ran into "Rom.", and on a Grow
    board Rome's label, moved below Italy's fleet, onto "APU" (found by the pictures tour).
    No two labels overlap, on a desktop and on a phone, in English and Portuguese."""
    for user, edition, players in (("pictor", "classic", "7"), ("pictrix", "grow", "4")):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        register_and_create(page, server, user, edition=edition, players=players)
        assert page.evaluate(CROWDED_LABELS) == [], edition
        in_language(page, "pt", "document.documentElement.lang === 'pt'")
        assert page.evaluate(CROWDED_LABELS) == [], edition
        if SHOTS:
            page.locator("#map").screenshot(path=str(Path(SHOTS) / f"27-labels-{edition}.png"))
        phone = same_page_elsewhere(browser, page, PHONE, "#map svg")
        assert phone.evaluate(CROWDED_LABELS) == [], edition
        phone.close()
        page.close()


RING_AND_UNIT = """() => {
    const svg = document.querySelector('#map svg');
    const ring = svg.querySelector('g.order.hold circle:last-child').getBoundingClientRect();
    const x = (ring.left + ring.right) / 2, y = (ring.top + ring.bottom) / 2;
    const unit = [...svg.querySelectorAll('g.unit')].map(u => u.getBoundingClientRect())
        .find(r => r.left < x && x < r.right && r.top < y && y < r.bottom);
    return {ring: [ring.width, ring.height], unit: [unit.width, unit.height]};
}"""


def test_a_hold_ring_shows_round_the_unit(server: LiveServer, browser: Any) -> None:
    """The page draws units twice the picture's size: a hold ring drawn for the plain size
    lay under its unit, unseen (found by the pictures tour). The ring is round the unit."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "pictura", players="7")
    hold = next(o for opts in legal(page).values() for o in opts if o["kind"] == "hold")
    page.fill("#typed", hold["order"])
    page.click("#submit-typed")
    page.wait_for_selector("#map svg g.order.hold")
    idle(page)
    seen = page.evaluate(RING_AND_UNIT)
    assert seen["ring"][0] > seen["unit"][0] and seen["ring"][1] > seen["unit"][1], seen
    shot(page, "28-hold-ring")


LABELS_OVER_ARROWHEADS = """() => {
    const svg = document.querySelector('#map svg');
    const over = [];
    for (const move of svg.querySelectorAll('g.order.move')) {
        const head = [...move.querySelectorAll('path')].pop();
        const h = head.getBoundingClientRect();
        for (const label of svg.querySelectorAll('text.label')) {
            const r = label.getBoundingClientRect();
            const hit = r.left < h.right && h.left < r.right
                && r.top < h.bottom && h.top < r.bottom;
            // (a label after the arrowhead in the picture is painted over it)
            if (hit && head.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING) {
                over.push(label.textContent);
            }
        }
    }
    return over;
}"""


def put_in_rome_and_venice(server: LiveServer, game_id: int, power: str) -> None:
    """``power``'s armies in Rome and Venice at F1901M (Rome's may move up to Venice)."""

    def italy(game: Game) -> None:
        centers = game.position.to_json()["centers"]
        at(game, "F1901M", {"units": {power: ["A ROM", "A VEN"]}, "centers": centers})

    rewrite_stored_game(server, game_id, italy)


def test_no_label_hides_an_arrowhead(server: LiveServer, browser: Any) -> None:
    """The page writes the labels larger, and those under a unit just below it: a move
    coming up from Rome to Venice ended under the label "VEN", which was painted over it, so
    that the arrow pointed nowhere (found by the pictures tour). Arrows are drawn over the
    labels."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "pictoris", put_in_rome_and_venice)
    page.fill("#typed", "A ROM - VEN")
    page.click("#submit-typed")
    page.wait_for_selector("#map svg g.order.move")
    idle(page)
    assert page.evaluate(LABELS_OVER_ARROWHEADS) == []
    shot(page, "29-arrow-over-label")


def test_a_convoy_by_clicks(server: LiveServer, browser: Any) -> None:
    """The fleet, "convoy", the army, then where it goes: the convoy is ordered."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "rosalind", put_at_a_convoy)
    convoys = [(k, o) for k, opts in legal(page).items() for o in opts if o["kind"] == "convoy"]
    assert convoys and all(k == "NTH" for k, _ in convoys), convoys
    fleet, convoy = next((k, o) for k, o in convoys if o["dest"] == "NWY")
    order_by_clicks(page, fleet, "convoy", convoy)
    assert convoy["order"] == "F NTH C A YOR - NWY", convoy
    shot(page, "14-convoy")


# A power's units in the legend during a retreat: those on the board, and those dislodged.
LEGEND_DISLODGED = {
    "en": "0 + 1 dislodged (Bohemia)",
    "es": "0 + 1 desalojada (Bohemia)",
    "fr": "0 + 1 délogée (Bohême)",
    "pt": "0 + 1 deslocada (Boêmia)",
}


def test_the_legend_counts_the_units_dislodged_in_a_retreat(
    server: LiveServer, browser: Any
) -> None:
    """During a retreat the legend under the map counted only the units on the board: my
    army dislodged from Bohemia, the one unit to order, was in no row ("0"). Its power's row
    tells it, marked as dislodged and where it retreats from, in every language."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    _, other = open_at(page, server, "delphine", put_at_a_retreat)
    power = page.get_attribute("#power", "data-power") or ""

    def units(p: str) -> str:
        return str(
            page.eval_on_selector(f'#map-legend tr[data-power="{p}"] td:nth-child(3)', SHOWN_TEXT)
        )

    page.locator("#map-legend").scroll_into_view_if_needed()
    shot(page, "legend-dislodged-phone", full=False)
    for lang, told in LEGEND_DISLODGED.items():
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert units(power) == told, lang
        assert units(other) == "2", lang  # (Munich's army moved in, Tyrolia's): none dislodged
    wide = same_page_elsewhere(browser, page, DESKTOP, "#map-legend tr[data-power]")
    wide.locator("#map-legend").scroll_into_view_if_needed()
    shot(wide, "legend-dislodged-desktop", full=False)
    wide.close()


LABEL_HEIGHTS = """() => [...document.querySelectorAll('#map svg text.label')]
    .map(l => l.getBoundingClientRect().height).sort((a, b) => a - b)"""


def test_province_labels_are_legible_at_the_default_zoom(server: LiveServer, browser: Any) -> None:
    """On a desktop the whole board's province labels are at least 9 px tall (they were 6: the
    renderer's size, for a map drawn at its own scale); on a phone (opened zoomed on my units,
    as far as they lie apart) they stay under half a unit's token so as not to crowd it."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "lila", players="7")
    heights = page.evaluate(LABEL_HEIGHTS)
    if SHOTS:
        page.locator("#map").screenshot(path=str(Path(SHOTS) / "26-labels-desktop.png"))
    phone = same_page_elsewhere(browser, page, PHONE, "#map svg")
    on_phone = phone.evaluate(LABEL_HEIGHTS)
    if SHOTS:
        phone.locator("#map").screenshot(path=str(Path(SHOTS) / "26-labels-phone.png"))
    assert heights[0] >= 9, heights[:5]
    token = phone.evaluate(
        "() => Math.min(...[...document.querySelectorAll('#map svg g.unit')]"
        ".map(u => u.getBoundingClientRect().height))"
    )
    assert on_phone[-1] < 0.5 * token, (on_phone[-1], token)


def test_the_legend_of_a_past_phase_counts_its_centres_then(
    server: LiveServer, browser: Any
) -> None:
    """A phase of the history shows its position: the legend's centres with it (it counted
    each power's centres of the present beside the units of then: "Germany 5 centres, 3
    units" in the Winter of 1901 of a Grow game, found by the edition tour)."""
    page, errors = watched(browser, accept_dialogs=True)
    register_and_create(page, server, "octaviana", edition="grow", bots="heuristic")
    for now in ("S1901M", "F1901M"):  # a year of bots taking centres
        page.click("#ready")
        until_phase_changes(page, now)
        continue_to_now(page)
    game = page.evaluate(GAME)
    assert sum(game["centers"].values()) > 22, game["centers"]  # some neutral centres taken

    def centres() -> dict[str, str]:
        rows = page.locator("#map-legend tr[data-power]").evaluate_all(
            f"rows => rows.map(r => [r.dataset.power, ({SHOWN_TEXT})(r.cells[1])])")  # fmt: skip
        return dict(rows)

    assert centres() == {p: str(n) for p, n in game["centers"].items()}  # now: the present
    while page.get_attribute("#step-label", "data-phase") != "S1901M":  # back to the start
        page.click("#step-prev")
        idle(page)
    start = {p: "4" if p == "RUSSIA" else "3" for p in game["powers"]}
    assert centres() == start, centres()
    assert not errors, errors


def test_the_legend_sets_apart_the_powers_nobody_plays(server: LiveServer, browser: Any) -> None:
    """A table of five leaves Germany and Italy out (their units only hold): the legend
    under the map listed them among the powers in play. They come last, under a heading
    saying so, in the page's language."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "quintus", players="5")

    def rows() -> list[str]:
        found: list[str] = page.locator("#map-legend tr").evaluate_all(
            "rows => rows.slice(1).map(r => r.dataset.power"
            " ? r.dataset.power + (r.classList.contains('unplayed') ? ' (out)' : '')"
            " : r.textContent)"
        )
        return found

    played = ["AUSTRIA", "ENGLAND", "FRANCE", "RUSSIA", "TURKEY"]
    assert rows() == [*played, "Not played: their units only hold", "GERMANY (out)", "ITALY (out)"]
    page.locator("#map-legend").scroll_into_view_if_needed()
    shot(page, "legend-unplayed", full=False)
    in_language(page, "es", "document.documentElement.lang === 'es'")
    assert rows()[5] == "Sin jugador: sus unidades solo se mantienen"
