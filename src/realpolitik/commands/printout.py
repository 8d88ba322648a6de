"""What the moderator's commands print, in the table's language (``--language en|es|fr|pt``).

The sentences are ``data/moderator.json``'s, in the four languages; what they name is said
where it is said already: phase names, power names, orders, result words and reasons by
:mod:`realpolitik.notation` (the rulebooks' words), the words the web page shares with the
printout (``Units``, ``Game over``, a phase's events) by ``web/i18n.json``. A template may
name one of the page's words as ``{web[units]}``. English is the game's own text: the
powers as the game writes them (``FRANCE``), the orders in its notation, the reasons and
events as ``str`` gives them.

>>> from realpolitik import Game
>>> game = Game.new(players=3, seed=7)
>>> Printout(game, "es").phase()
'Primavera de 1901'
>>> Printout(game, "pt").text("now", phase="Outono de 1901", code="F1901M")
'Agora: Outono de 1901 (F1901M)'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, TextIO

from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult, Outcome
from realpolitik.data import read_json
from realpolitik.errors import GameError, error_sentence, moderator_sentences
from realpolitik.game.records import Event, EventKind, PhaseRecord
from realpolitik.notation import (
    explain,
    format_order,
    format_place,
    format_unit,
    power_name,
    result_name,
)
from realpolitik.notation.lexicon import singular
from realpolitik.orders import Order, UnitRef
from realpolitik.phase import Phase
from realpolitik.render.legend import phase_name
from realpolitik.render.words import Words
from realpolitik.rules import Adjustments
from realpolitik.vocab import Location, Power, UnitType

if TYPE_CHECKING:
    from realpolitik.game import Game

__all__ = ["Printout", "refusal", "sentences"]


sentences = moderator_sentences
"""``data/moderator.json``: each language's sentences, by key."""


@cache
def _web_words() -> Mapping[str, Mapping[str, str]]:
    words: dict[str, dict[str, str]] = read_json("web", "i18n.json")
    return words


def refusal(error: GameError, language: str) -> str:
    """``error`` in ``language``: its sentence (:attr:`GameError.key`) with the powers it
    names in the language's words (``{of_power}``: after "of"), the edition and a game's
    outcome as the web page names them; in English, or without a sentence, as raised.

    >>> refusal(GameError.said("conceded", power="TURKEY"), "pt")
    'Turquia desistiu'
    """
    if language == "en" or not error.key:
        return str(error)
    web = _web_words()[language]
    words = dict(error.words)
    for name in ("powers", "winners", "members"):
        if name in words:
            sep = " + " if name == "members" else ", "
            words[name] = sep.join(power_name(p, language) for p in words[name])
    if "power" in words:
        words["of_power"] = power_name(words["power"], language, prep="de")
        words["power"] = power_name(words["power"], language)
    if "edition" in words:
        words["edition"] = web.get(f"edition_{words['edition']}", words["edition"])
    if "outcome" in words:
        words["outcome"] = web[words["outcome"]]
    return error_sentence(language, error.key).format(web=web, **words)


class Printout:
    """The moderator's printout of ``game`` in ``language``."""

    def __init__(self, game: Game, language: str = "en") -> None:
        self.game = game
        self.language = language
        self.sentences = sentences()[language]  # a KeyError: --language is checked first
        self.web = _web_words()[language]

    # --- words ---------------------------------------------------------------------------
    def text(self, key: str, **words: Any) -> str:
        """The sentence ``key`` with its ``words`` (and the page's, ``{web[...]}``); a
        ``count`` in the singular takes ``key_one`` where there is one ("1 orden
        registrada", "2 órdenes registradas": not "orden(es) registrada(s)")."""
        count = words.get("count")
        one = f"{key}_one"
        if isinstance(count, int) and one in self.sentences and singular(count, self.language):
            key = one
        return self.sentences[key].format(web=self.web, **words)

    def phase(self, phase: Phase | None = None) -> str:
        """A phase's name: "Spring 1901", "Primavera de 1901", "Automne 1901, retraites" (as
        the web page and the map name it: "Automne 1901 (retraites)" read "(retraites)
        (F1901R)" where its code follows)."""
        if self.language == "en":
            return self.game.phase_name(phase)
        words = Words(self.language, edition=self.game.edition.name)
        return phase_name(phase or self.game.phase, words)

    def power(self, power: Power) -> str:
        return power if self.language == "en" else power_name(power, self.language)

    def powers(self, powers: Iterable[Power], sep: str = ", ") -> str:
        return sep.join(self.power(p) for p in powers)

    def of_power(self, power: Power) -> str:
        """A power after "of", as the language joins them: "de Francia", "da França"."""
        return power_name(power, self.language, prep="de")

    def title(self) -> str:
        """The edition's title: "Diplomacy, the 2000 Avalon Hill rulebook", "Diplomacy,
        edición clásica"."""
        edition = self.game.edition
        return self.text("edition_title", title=edition.title, edition=self.edition())

    def edition(self) -> str:
        """The edition's name as the web page says it ("clásica", "La Conquista")."""
        name = self.game.edition.name
        return self.web.get(f"edition_{name}", name)

    def no_disorder(self) -> str:
        """What a player's leaving means where the edition has no civil disorder."""
        return self.text("no_disorder", name=self.game.edition.name, edition=self.edition())

    @property
    def width(self) -> int:
        """The column of the powers' names: 8 in English, wide enough for the longest."""
        if self.language == "en":
            return 8
        return max(8, 1 + max((len(self.power(p)) for p in self.game.powers), default=0))

    def order(self, order: Order) -> str:
        """``order`` in the language's short notation (English: as the game writes it)."""
        if self.language == "en":
            return str(order)
        return format_order(order, self.language, game_map=self.game.game_map)

    def unit(self, text: str) -> str:
        """A unit as the game's view writes it (``"A PAR"``) in the language's notation."""
        letter, _, location = text.partition(" ")
        ref = UnitRef(UnitType(letter), location)
        return format_unit(ref, self.language, game_map=self.game.game_map)

    def place(self, loc: Location) -> str:
        return format_place(loc, self.language, game_map=self.game.game_map)

    def result(self, result: OrderResult) -> str:
        return result.value if self.language == "en" else result_name(result, self.language)

    def reason(self, reason: Reason) -> str:
        return explain(reason, self.language, game_map=self.game.game_map)

    def builds(self, power: Power, count: int) -> str:
        """``FRANCE builds 2``, ``Francia disuelve 1``; conquista's reinforcements in its
        book's verb, ``Francia incorpora 2`` ("Para la incorporación de nuevas fuerzas")."""
        reinforcing = self.game.rules.adjustments is Adjustments.REINFORCEMENTS
        key = ("reinforces" if reinforcing else "builds") if count > 0 else "removes"
        return self.text(key, power=self.power(power), count=abs(count))

    def game_over(self) -> str:
        """The end of the game: its reason in English; in another language, as the web page
        says it: the winners, or the powers sharing a draw."""
        result = self.game.result
        if result is None:
            return str(self.web["game_over"])
        outcome = self.web["drawn" if result.kind == "draw" else "winners"]
        powers = self.powers(result.winners)
        return self.text("game_over", reason=result.reason, outcome=outcome, powers=powers)

    def event(self, event: Event) -> str:
        """A phase's event (civil disorder, an alliance, a coin toss, the end)."""
        if self.language == "en":
            return str(event)
        if event.kind is EventKind.GAME_OVER:
            return self.game_over()
        if event.kind is EventKind.COIN_TOSS:
            words = {"power": self.power(event.powers[0]), "player": event.player}
            return self.web["event_coin_toss"].format(year=event.year, **words)
        sep = ", " if event.kind is EventKind.CIVIL_DISORDER else " + "
        return self.web[f"event_{event.kind.value}"].format(powers=self.powers(event.powers, sep))

    # --- what the commands print ---------------------------------------------------------
    def record(self, record: PhaseRecord, out: TextIO) -> None:
        """A processed phase: each order, its result and why; its events."""
        skipped = self.text("skipped") if record.skipped else ""
        out.write(f"=== {self.phase(record.phase)} ({record.phase}){skipped} ===\n")
        shown = [o for o in record.outcomes if not _silent_hold(o, record.phase)]
        by_power: dict[Power, list[Outcome]] = {}
        for outcome in shown:
            by_power.setdefault(outcome.power, []).append(outcome)
        width = self.width
        said = {id(o): self.order(o.order) for o in shown}
        column = max((len(order) + 1 for order in said.values()), default=0)  # (the results)
        column = max(26, column)  # in one column, set apart from the longest order
        for power in self.game.edition.reading(by_power):
            for o in by_power[power]:
                fate = f", {self.result(o.fate)}" if o.fate not in (None, o.result) else ""
                reason = "" if o.reason is None else f" ({self.reason(o.reason)})"
                order, result = said[id(o)], self.result(o.result)
                line = f"{self.power(power):{width}} {order:{column}} {result}{fate}{reason}"
                out.write(f"  {line}\n")
        if len(shown) < len(record.outcomes):
            out.write(f"  {self.text('others_hold' if shown else 'every_unit_holds')}\n")
        for event in record.events:
            out.write(f"  * {self.event(event)}\n")

    def status(self, out: TextIO) -> None:
        """The phase now: its name, the builds due, the clock, who is away, whose orders the
        phase waits for (or the end of the game)."""
        game = self.game
        if game.result is not None:
            out.write(f"{self.game_over()}\n")
            return
        out.write(f"{self.text('now', phase=self.phase(), code=game.phase)}\n")
        if game.last_year is not None:  # a shortened game (1971, grow)
            out.write(f"{self.text('final_year', year=game.last_year)}\n")
        for power, count in game.builds_due().items():
            out.write(f"  {self.builds(power, count)}\n")
        self.dislodged(game.view()["dislodged"], out)  # the retreats due, as the builds
        if game.clock:
            first = not any(r.phase.is_movement for r in game.history)
            clock = game.edition.clock_for(game.setup).for_phase(game.phase, first)
            parts = [
                self.text(f"clock_{k}", minutes=v) if v else self.text(f"clock_no_{k}")
                for k, v in clock.items()
                if v is not None
            ]
            out.write(f"{self.text('clock', parts=', '.join(parts))}\n")
        alive = set(game.survivors())
        nobody = {p for p in game.powers if game.controller(p) is None} & alive
        disorder = sorted(game.civil_disorder & alive - nobody)
        left = (game.status.disorder | game.status.conceded) & alive - game.civil_disorder
        if nobody:  # out of the game, or neutral until a coin toss: not civil disorder
            out.write(f"{self.text('nobody', powers=self.powers(sorted(nobody)))}\n")
        if disorder:
            out.write(f"{self.text('civil_disorder', powers=self.powers(disorder))}\n")
        if left:  # an edition without civil disorder (conquista)
            out.write(f"{self.text('player_left', powers=self.powers(sorted(left)))}\n")
        waiting = game.waiting_for()
        if waiting:
            out.write(f"{self.text('waiting', powers=self.powers(waiting))}\n")

    def dislodged(self, dislodged: Mapping[str, Any], out: TextIO) -> None:
        """The dislodged units of a retreat phase (a view's ``dislodged``), each with
        where it may retreat."""
        for power, entries in dislodged.items():
            for d in entries:
                options = ", ".join(map(self.place, d["retreats"])) or self.text("no_retreat")
                padded = f"{self.power(power):{self.width}}"
                line = self.text(
                    "dislodged", power=padded, unit=self.unit(d["unit"]), options=options
                )
                out.write(f"  {line}\n")

    def show(self, view: Mapping[str, Any], out: TextIO) -> None:
        """The board as ``show`` prints it: the players, units, dislodged units, centres,
        alliances and (for a power) its pending orders; then the status (a finished game
        has no orders to come: the status says how it ended)."""
        game, width = self.game, self.width
        title = self.title()
        line = self.text("show_title", title=title, name=game.edition.name, setup=view["setup"])
        out.write(f"{line}\n")
        for player, powers in view["players"].items():
            out.write(f"  {player}: {self.powers(powers)}\n")
        out.write(f"{self.text('units')}\n")
        for power, units in view["units"].items():
            out.write(f"  {self.power(power):{width}} {', '.join(map(self.unit, units))}\n")
        out.write(f"{self.text('centres')}\n")
        for power, centers in view["centers"].items():
            places = ", ".join(map(self.place, centers))
            out.write(f"  {self.power(power):{width}} {len(centers):2}  {places}\n")
        if game.status.alliances:  # conquista: an alliance two years old may win together
            formed = [
                self.text(
                    "alliance_formed",
                    members=self.powers(a.members, "+"),
                    phase=self.phase(a.formed),
                )
                for a in game.status.alliances
            ]
            out.write(f"{self.text('alliances', alliances='; '.join(formed))}\n")
        power = view["power"]
        if power and view["orders"].get(power) and game.result is None:
            orders = "; ".join(self.order(o) for o in game.orders(power))
            named = {"power": self.power(power), "of_power": self.of_power(power)}
            line = self.text("orders_of", orders=orders, **named)
            out.write(f"{line}\n")
        self.status(out)


def _silent_hold(outcome: Outcome, phase: Phase) -> bool:
    """Whether ``outcome`` goes unsaid among "the other units hold": the hold of a unit
    given no order in a movement phase that stood (one dislodged or destroyed is said)."""
    return outcome.implied and phase.is_movement and outcome.result is OrderResult.STANDS
