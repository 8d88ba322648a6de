"""The whole game: a board, an edition, players, orders, phases, history and the end.

    >>> game = Game.new(edition="classic", players=["ann", "bob", "cy"], seed=7)
    >>> sorted(p for powers in game.players.values() for p in powers)[:3]
    ['AUSTRIA', 'ENGLAND', 'FRANCE']
    >>> [str(o) for o in game.submit("FRANCE", ["A Par-Bur", "A MAR S A PAR - BUR"])]
    ['A PAR - BUR', 'A MAR S A PAR - BUR']
    >>> str(game.process().phase), str(game.phase)
    ('S1901M', 'F1901M')

Each phase is a pipeline: the pending orders of the powers that play (a power in civil
disorder gives none) → :func:`realpolitik.adjudicator.adjudicate` → the edition's calendar
(:mod:`realpolitik.game.calendar`: retreats, centres, adjustments) → the end conditions
(:mod:`realpolitik.game.victory`). Retreat and adjustment phases in which nobody has a choice are
processed at once and recorded as skipped. Everything the game decides by chance (the
assignment of powers, the two-player coin toss) comes from the recorded ``seed``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from realpolitik.adjudicator import OrderResult, Reason, Resolution, adjudicate, builds_due
from realpolitik.adjudicator.legality import ORDERS_OF
from realpolitik.adjudicator.problem import build_problem
from realpolitik.errors import GameError, IllegalOrderError, OrderError, whole_number
from realpolitik.game.calendar import phases_of_year, play
from realpolitik.game.editions import Edition, Setup, edition, with_overrides
from realpolitik.game.records import CoinToss, Event, EventKind, Message, PhaseRecord, Status
from realpolitik.game.victory import GameResult, check_victory, form_alliances, most_units
from realpolitik.game.views import game_view
from realpolitik.legal import legal_orders
from realpolitik.maps import load_map
from realpolitik.maps.model import GameMap
from realpolitik.notation import parse_order, power_name, read_written
from realpolitik.notation.reasons import say
from realpolitik.notation.resolve import complete
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from realpolitik.phase import Phase, PhaseKind, Season
from realpolitik.position import Position
from realpolitik.rules import ForeignSupport, Rules
from realpolitik.vocab import PROVINCE, Power, Province, Unit, province_of

__all__ = ["CoinToss", "Game", "GameError", "Message", "PhaseRecord", "Status"]

_A_PHASE_OF_KIND = {
    PhaseKind.MOVEMENT: "a movement phase",
    PhaseKind.RETREATS: "a retreat phase",
    PhaseKind.ADJUSTMENTS: "an adjustment phase",
}
"""A phase of each kind, as an order refused for it says ("not an order of a retreat phase")."""


class _Said:
    """How :meth:`Game.submit` says it refuses an order: in English, naming the order as
    the game writes it; an order written in another language, in that language's words
    (the lexicon's message) and as it was written, as the reader says its own refusals."""

    def __init__(self, language: str = "en", text: str | None = None) -> None:
        self.language = language
        self.text = text

    def refused(
        self,
        who: Power,
        english: str,
        facts: _GameFacts,
        key: str,
        province: Province = "",
        *,
        order: Order | None = None,
        **words: str,
    ) -> IllegalOrderError:
        """The error: ``english`` (what the order is refused for), else the message ``key``
        of the order's language about ``province``."""
        if self.language == "en" or self.text is None:
            return IllegalOrderError(f"{who}: {english}", *([] if order is None else [str(order)]))
        message = say(key, self.language, game_map=facts.game_map, province=province, **words)
        if key != "second_order":  # (which quotes the first order: the second is this one)
            message = f'{message} ("{self.text}")'
        return IllegalOrderError(f"{who}: {message}", self.text)


# Per kind of phase: the orders it takes, and the (exact) types of those that need no
# checking but their unit's owner (not: a move read as a retreat, builds, waives).
_ORDERS_OF: dict[PhaseKind, tuple[tuple[type, ...], frozenset[type]]] = {
    kind: (types, frozenset(types) - {Build, Waive}) for kind, types in ORDERS_OF.items()
}
_UnitOrder = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build
GLOBAL = "GLOBAL"
_SEEDS = random.SystemRandom()  # a new game's seed, from the system's randomness


class _GameFacts:
    """What a game derives from its state (phase, position, status, players, rules): the
    board, who plays what, who is in civil disorder, who must order, the adjustments due,
    which orders the phase takes.

    Worked out once per state and reused (:meth:`Game._facts`; without it random play takes
    20% more instructions): the same facts are asked for several times in each phase
    (listing the legal orders, each submission, processing). The state is held, and
    compared, by identity: replacing any of its parts (as every change of a game does:
    positions, phases and statuses are immutable) makes new facts. The parts that not every
    phase needs are worked out at first use."""

    __slots__ = (
        "_due",
        "_must",
        "_teams",
        "allowed",
        "assignment",
        "direct",
        "disorder",
        "game_map",
        "kind",
        "left",
        "may_act",
        "phase",
        "played",
        "players",
        "position",
        "powers",
        "rules",
        "status",
        "tossed",
        "units",
    )
    phase: Phase
    position: Position
    status: Status
    assignment: Mapping[str, tuple[Power, ...]]
    rules: Rules
    game_map: GameMap
    powers: tuple[Power, ...]
    tossed: bool  # the neutral power of the coin toss is played now
    players: dict[str, tuple[Power, ...]]
    played: frozenset[Power]
    disorder: frozenset[Power]
    left: frozenset[Power]  # powers whose player left or conceded
    may_act: dict[Power, Power]  # the powers a player may act for now, each by its name
    kind: PhaseKind
    allowed: tuple[type, ...]
    direct: frozenset[type]
    units: Mapping[Province, Unit]
    _due: dict[Power, int] | None
    _must: tuple[Power, ...] | None
    _teams: dict[str, tuple[Power, ...]] | None

    def __init__(self, game: Game) -> None:
        """The facts of ``game`` now."""
        self.phase, self.position, self.status = game.phase, game.position, game.status
        self.assignment, self.rules = game.assignment, game.rules
        self.game_map = game.map_for(self.phase)
        self.powers = self.game_map.powers
        toss = self.status.coin_toss
        self.tossed = toss is not None and self.phase.year >= toss.from_year
        players = self.players = self.status.players(self.assignment, self.phase)
        self.played = frozenset(power for powers in players.values() for power in powers)
        s = self.status
        out = {p for p in self.powers if p not in self.played}
        left = self.left = s.conceded | s.disorder
        if game.edition.leaving == "disorder":
            self.disorder = frozenset(left | s.missed | out)
        else:  # a power whose player left just has no orders (conquista)
            self.disorder = frozenset(s.missed | out)
        self.may_act = {p: p for p in self.powers if p in self.played and p not in left}
        self._teams = None
        # what orders are checked against: the kinds of order of the phase, those of them
        # that are taken as they are if their unit is the power's (exact types), the units
        kind = self.kind = self.phase.kind
        self.allowed, self.direct = _ORDERS_OF[kind]
        pos = self.position
        self.units = (
            {prov: d.unit for prov, d in pos.dislodged.items()}
            if kind is PhaseKind.RETREATS
            else pos.units
        )
        self._due = None
        self._must = None

    def due(self) -> dict[Power, int]:
        """Builds (positive) or removals (negative) due per power (adjustment phases; else
        empty). Shared: copy it before handing it out."""
        if self._due is None:
            self._due = (
                builds_due(self.game_map, self.position, self.rules)
                if self.kind is PhaseKind.ADJUSTMENTS
                else {}
            )
        return self._due

    def must_order(self) -> tuple[Power, ...]:
        """The powers that may order and have a choice (see :meth:`Game.must_order`)."""
        if self._must is None:
            cd = (self.disorder - self.status.missed) | self.left
            pos = self.position
            if self.kind is PhaseKind.MOVEMENT:
                owners = {u.power for u in pos.units.values()}
            elif self.kind is PhaseKind.RETREATS:
                owners = {d.unit.power for d in pos.dislodged.values() if d.retreats}
            else:  # a power that must remove every unit it has has no choice either
                units = Counter(u.power for u in pos.units.values())
                owners = {p for p, count in self.due().items() if count > -units[p]}
            self._must = tuple([p for p in self.powers if p not in cd and p in owners])
        return self._must

    def teams(self) -> dict[str, tuple[Power, ...]]:
        """Each player's powers now, without conceded powers (who can still win)."""
        if self._teams is None:
            conceded = self.status.conceded
            self._teams = (
                {
                    name: tuple(p for p in powers if p not in conceded)
                    for name, powers in self.players.items()
                }
                if conceded
                else self.players
            )
        return self._teams


class Game:
    """A game of Diplomacy. Create one with :meth:`new` (or read a saved one with
    :func:`realpolitik.formats.savegame.game_from_json`); then per phase :meth:`submit`
    each power's orders and :meth:`process`."""

    def __init__(
        self,
        edition: Edition,
        setup: Setup,
        rules: Rules,
        seed: int,
        assignment: Mapping[str, tuple[Power, ...]],
        *,
        variant: str = "standard",
        last_year: int | None = None,
        clock: bool = True,
    ) -> None:
        self.edition = edition
        self.setup = setup
        self.rules = rules
        self.seed = seed
        self.assignment = dict(assignment)
        self.variant = variant
        self.last_year = last_year
        self.clock = clock
        self.phase = Phase(edition.first_year(setup), Season.SPRING, PhaseKind.MOVEMENT)
        self.position = Position.initial(self.game_map)
        self.start = self.position  # where the game began: the edition's start, or a set-up one
        self.history: list[PhaseRecord] = []
        self.messages: list[Message] = []
        self.result: GameResult | None = None
        self.votes: dict[Power, bool] = {}
        self.status = Status()
        self._orders: dict[Power, tuple[Order, ...]] = {}
        self._accepted: dict[Power, frozenset[Province]] = {}
        self._declared: dict[Power, tuple[Power, ...]] = {}
        self._known: _GameFacts | None = None  # the facts of the state last asked about

    # --- creation ------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        *,
        variant: str = "standard",
        edition: str = "classic",
        players: int | Sequence[str] | None = None,
        seed: int | None = None,
        assignment: Mapping[str, Power | Sequence[Power]] | None = None,
        rules: Rules | Mapping[str, str] | None = None,
        setup: str | None = None,
        last_year: int | None = None,
        clock: bool = True,
    ) -> Game:
        """A new game. ``players``: names (or a count: ``player 1``...; default one player
        per power, named after it). ``setup`` picks an option (1971's ``3a``/``3b``).
        Powers are dealt to players at random from ``seed`` (chosen and recorded if not
        given) unless ``assignment`` gives a player their setup group. ``rules`` replaces
        the edition's rules or overrides single choices (``{"4.D.8": "c"}``).
        ``last_year``: the agreed end of a shortened game (1971, grow)."""
        spec = _edition(edition)
        if spec.variant != variant:
            raise GameError(f"edition {spec.name} is played on the {spec.variant} variant")
        try:
            names = None if players is None else _names(players)
            count = players if isinstance(players, int) else None if names is None else len(names)
            chosen = spec.setup(count, setup)  # a count as given: "not -3", not "not 0"
            names = names or chosen.default_names()
            seed = _SEEDS.randrange(2**31) if seed is None else whole_number(seed, "seed")
            by_power = players is None and all(len(g) == 1 for g in chosen.groups)
            dealt = chosen.deal(names, assignment or {}, seed, by_power=by_power)
            if last_year is not None:
                spec.check_last_year(whole_number(last_year, "the last year"), chosen)
            game_rules = (
                rules if isinstance(rules, Rules) else with_overrides(spec.rules, rules or {})
            )
        except ValueError as exc:
            raise GameError(str(exc)) from None
        return cls(spec, chosen, game_rules, seed, dealt,
                   variant=variant, last_year=last_year, clock=clock)  # fmt: skip

    @classmethod
    def from_position(
        cls,
        position: Position | Mapping[str, Any],
        phase: Phase | str,
        *,
        edition: str = "classic",
        players: int | Sequence[str] | None = None,
        setup: str | None = None,
        rules: Rules | Mapping[str, str] | None = None,
        seed: int | None = None,
        last_year: int | None = None,
        assignment: Mapping[str, Power | Sequence[Power]] | None = None,
        coin_toss: str | None = None,
    ) -> Game:
        """A new game (the table as :meth:`new` makes it: ``players``, ``setup`` and
        ``assignment`` as there) that begins at ``position`` in ``phase`` instead of the
        edition's start: what-if play, a problem to solve, or a bot's look-ahead from the
        view it is shown (``PowerView.fork`` passes the view's position, phase, edition,
        rules and table). ``position`` is a :class:`Position` or the JSON contract's shape;
        it is checked against the board of ``phase`` (which must be a phase of the edition's
        calendar, not before its first year): a :class:`GameError` names what is wrong.
        A two-player game begun after its coin toss has made it, as the seed tosses it, or
        won by the player ``coin_toss`` names.

            >>> position = {"units": {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A MUN"]},
            ...             "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"]}}
            >>> game = Game.from_position(position, "F1905M", seed=1)
            >>> [str(o) for o in game.legal_orders("FRANCE")["FRANCE"]["BUR"]][:3]
            ['A BUR H', 'A BUR - BEL', 'A BUR - GAS']
        """
        game = cls.new(
            edition=edition, players=players, setup=setup, rules=rules, seed=seed,
            last_year=last_year, assignment=assignment,
        )  # fmt: skip
        try:
            at = phase if isinstance(phase, Phase) else Phase.parse(phase)
        except ValueError as exc:
            raise GameError(str(exc)) from None
        first = game.phase.year
        year = phases_of_year(game.edition, game.rules, at.year)
        if at.year < first or at not in year:
            raise GameError(
                f"{at} is not a phase of {game.edition.name}"
                + (f" (its first year is {first})" if at.year < first else "")
            )
        if at.year == first and year.index(at) < year.index(game.phase):
            # conquista's first reinforcements come in 1915: its game begins with S1914M
            raise GameError(f"{at} is not a phase of {game.edition.name} (it begins {game.phase})")
        game_map = game.map_for(at)
        data = position.to_json() if isinstance(position, Position) else position
        try:
            start = Position.from_json(data, game_map)
        except (ValueError, TypeError, AttributeError) as exc:
            raise GameError(f"the position does not fit the {game_map.name} board: {exc}") from None
        if (at.kind is PhaseKind.RETREATS) != bool(start.dislodged):
            raise GameError(f"{at}: dislodged units are given in a retreat phase, and only there")
        game.phase, game.position, game.start = at, start, start
        game._coin_toss()  # made by now in a game that came this far (see _step)
        if coin_toss is not None:
            game._won_toss(coin_toss)
        return game

    def _won_toss(self, player: str) -> None:
        """The coin toss, made (:meth:`_coin_toss`), won by ``player``."""
        neutral, toss = self.setup.neutral, self.status.coin_toss
        if neutral is None:
            raise GameError("there is no coin toss at this table")
        if toss is None:
            raise GameError(
                f"no coin is tossed by {self.phase} ({neutral.power} is neutral until "
                f"{neutral.until})"
            )
        if player not in self.assignment:
            names = ", ".join(sorted(self.assignment))
            raise GameError(f"the coin toss is won by one of the players ({names}), not {player!r}")
        self.status = replace(self.status, coin_toss=replace(toss, player=player))

    # --- who plays what ------------------------------------------------------------------
    @property
    def game_map(self) -> GameMap:
        """The board of the current phase."""
        return self.map_for(self.phase)

    def map_for(self, phase: Phase) -> GameMap:
        """The board of ``phase``: a neutral power's provinces are cut off until its year."""
        neutral = self.setup.neutral
        if neutral is not None and phase.year < neutral.until:
            return load_map(neutral.map)
        return load_map(self.edition.map_name(self.setup))

    @property
    def powers(self) -> tuple[Power, ...]:
        return self._facts().powers

    def _facts(self) -> _GameFacts:
        """The facts of the game's current state, worked out again when it changed."""
        known = self._known
        if (
            known is None
            or known.phase is not self.phase
            or known.position is not self.position
            or known.status is not self.status
            or known.assignment is not self.assignment
            or known.rules is not self.rules
        ):
            known = self._known = _GameFacts(self)
        return known

    @property
    def players(self) -> dict[str, tuple[Power, ...]]:
        """Each player's powers now (the coin toss adds the neutral power from its year)."""
        return dict(self._facts().players)

    def controller(self, power: Power) -> str | None:
        """The player of ``power`` (any case), or ``None`` (out of the game, or neutral); a
        :class:`GameError` for a power the board does not have."""
        facts = self._facts()
        power = self._known_power(facts, power)
        for name, powers in facts.players.items():
            if power in powers:
                return name
        return None

    def unplayed(self, phase: Phase | None = None) -> frozenset[Power]:
        """The powers of the board nobody plays in ``phase`` (default: now): the table's
        out powers (their units only hold) and a neutral power until the coin toss's year
        (a picture's legend sets them apart).

            >>> sorted(Game.new(players=5, seed=1).unplayed())
            ['GERMANY', 'ITALY']
        """
        if phase is None or phase == self.phase:
            facts = self._facts()
            return frozenset(p for p in facts.powers if p not in facts.played)
        players = self.status.players(self.assignment, phase)
        played = {p for powers in players.values() for p in powers}
        return frozenset(p for p in self.map_for(phase).powers if p not in played)

    @property
    def civil_disorder(self) -> frozenset[Power]:
        """Powers in civil disorder now: out of the game, neutral, without orders in this
        turn's movement phase (until they order again), and, where the edition has it for a
        player who leaves (:attr:`Edition.leaving`), left or conceded."""
        return self._facts().disorder

    def _check_power(self, power: Power) -> Power:
        return self._known_power(self._facts(), power)

    @staticmethod
    def _known_power(facts: _GameFacts, power: Power) -> Power:
        """``power`` (any case) if it is a power of the board, else a :class:`GameError`."""
        power = str(power).upper()
        if power not in facts.powers:
            raise GameError.said("unknown_power", name=power, powers=list(facts.powers))
        return power

    def _playing(self, power: Power, facts: _GameFacts | None = None) -> Power:
        """``power`` if the game is open and a player plays it now, else a
        :class:`GameError` (``facts``: those of the game now, if at hand)."""
        facts = facts or self._facts()
        known = facts.may_act.get(power)
        if known is not None and self.result is None:  # the usual case, checked at once
            return known
        self._open()
        power = self._known_power(facts, power)
        if power not in facts.played:
            raise GameError.said("nobody", power=power)
        status = self.status
        if power in status.conceded:
            raise GameError.said("conceded", power=power)
        if power in status.disorder:
            if self.edition.leaving == "disorder":
                raise GameError.said("disorder", power=power)
            raise GameError.said("left", power=power)
        return power

    def _open(self) -> None:
        if self.result is not None:
            result = self.result
            outcome = "drawn" if result.kind == "draw" else "winners"
            raise GameError.said(
                "game_over", reason=result.reason, outcome=outcome, winners=list(result.winners)
            )

    # --- orders --------------------------------------------------------------------------
    def must_order(self) -> list[Power]:
        """Powers that may order in this phase and have a choice to make (whether they did
        or not; a power that missed a turn may return by ordering); none once the game is
        over."""
        if self.result is not None:
            return []
        return list(self._facts().must_order())

    def waiting_for(self) -> list[Power]:
        """Powers whose orders the phase still waits for (not those in civil disorder)."""
        if self.result is not None:
            return []
        missed = self.status.missed
        must = self._facts().must_order()
        return [p for p in must if p not in self._orders and p not in missed]

    def _expected(self) -> list[Power]:
        missed = self.status.missed
        return [p for p in self._facts().must_order() if p not in missed]

    def builds_due(self) -> dict[Power, int]:
        """Builds (positive) or removals (negative) due per power in an adjustment phase;
        none once the game is over."""
        if self.result is not None:
            return {}
        return dict(self._facts().due())

    def submit(
        self, power: Power, orders: Iterable[str | Order], *, language: str = "en"
    ) -> list[Order]:
        """Set (replace) ``power``'s orders (a list, or any iterable) for this phase. Raises an
        :class:`~realpolitik.errors.OrderError` naming the first bad order (not understood,
        not an order of this phase, for a unit the power does not own, a second order for a
        unit) and then stores nothing. An order the board forbids (``A PAR - MUN``) is kept,
        as on paper: the adjudicator judges it ``illegal`` and the unit holds
        (:meth:`illegal_orders` says so beforehand; a bot's orders taken from
        :meth:`legal_orders` never are). Each order is stored with the units it names as the board
        has them (type, coast: :func:`~realpolitik.notation.resolve.complete`).
        Submitting (even nothing) ends a missed turn's disorder."""
        if isinstance(orders, str):  # else read letter by letter: 'order "A" is incomplete'
            raise TypeError(f"{power}: orders are a list of orders, not one string {orders!r}")
        if isinstance(orders, Mapping) or not isinstance(orders, Iterable):
            raise TypeError(f"{power}: orders are a list of orders, not {orders!r}")
        facts = self._facts()
        power = self._playing(power, facts)
        check, direct, units = self._check_order, facts.direct, facts.units
        parsed: list[Order] = []
        seen: dict[Province, str | Order] = {}  # each unit's order, as given
        order: Order
        prov: Province | None
        for item in orders:
            if type(item) in direct:
                # an order of legal_orders' kinds: only its unit's owner is checked here, as
                # _check_order ends (3.7% of random play's instructions, bench/ours.py); it
                # is completed only if it names a unit otherwise than the board (these
                # checks: +1.6%; calling complete for every order instead: +6.6%)
                given: _UnitOrder = item  # type: ignore[assignment]  # (by its type)
                loc = given.unit.location
                prov = loc if "/" not in loc else province_of(loc)
                unit = units.get(prov)
                if unit is None or unit.power != power:
                    order, prov = check(power, given, facts)  # raises
                elif unit.location != loc or unit.type is not given.unit.type:
                    order = complete(given, facts.position, facts.kind, facts.rules)
                else:
                    order = given
                    if type(given) is SupportMove or type(given) is SupportHold:
                        other: UnitRef | None = given.supported
                    else:
                        other = given.convoyed if type(given) is Convoy else None
                    if other is not None:
                        there = units.get(PROVINCE[other.location])
                        if there is not None and (
                            there.type is not other.type or there.location != other.location
                        ):
                            order = complete(given, facts.position, facts.kind, facts.rules)
            else:
                text = None
                if isinstance(item, str):
                    if not item.strip():
                        continue
                    try:
                        order = self._read(item, language, power, facts)
                    except OrderError as exc:
                        raise type(exc)(f"{power}: {exc}", item) from None
                    text = item.strip()
                else:
                    order = item
                order, prov = check(power, order, facts, _Said(language, text))
                order = complete(order, facts.position, facts.kind, facts.rules)
            if prov is not None:
                if prov in seen:
                    said = _Said(language, text if isinstance(item, str) else None)
                    earlier = seen[prov]
                    raise said.refused(
                        power, f"{order}: a second order for {prov}", facts, "second_order",
                        prov, text=earlier if isinstance(earlier, str) else str(earlier),
                    )  # fmt: skip
                seen[prov] = item
            parsed.append(order)
        self._orders[power] = tuple(parsed)
        if power in self.status.missed:
            self.status = replace(self.status, missed=self.status.missed - {power})
        return parsed

    @staticmethod
    def _read(text: str, language: str, power: Power, facts: _GameFacts) -> Order:
        """One order as written; in an adjustment phase read against the position, so that
        a bare unit is a build ("F Edi") or, for a unit on the board, a removal ("E Gal"),
        as the rulebooks write them. Otherwise the order as written, kept even where the
        board forbids it, for the adjudicator to judge; a text of several readings is the
        one the board allows ("F Edi - Nor": the Norwegian Sea, as that fleet cannot reach
        Norway), as :func:`~realpolitik.notation.read_written` reads it."""
        if facts.kind is PhaseKind.ADJUSTMENTS:
            return parse_order(
                text, game_map=facts.game_map, language=language, position=facts.position,
                power=power, phase=facts.phase, rules=facts.rules,
            )  # fmt: skip
        return read_written(
            text, game_map=facts.game_map, language=language, position=facts.position,
            power=power, phase=facts.phase, rules=facts.rules,
        )  # fmt: skip

    @staticmethod
    def _check_order(
        power: Power, order: Order, facts: _GameFacts, said: _Said | None = None
    ) -> tuple[Order, Province | None]:
        """``order`` as ``power`` may give it in this phase (a move in a retreat phase is
        read as the retreat), and the province of its unit (``None``: a waive); else an
        :class:`IllegalOrderError` saying why. :meth:`submit` checks the unit orders of the
        phase (``facts.direct``) itself, as the end of this does, and calls this for the
        others and to raise the error of a unit order it finds wrong."""
        said = said or _Said()
        kind = facts.kind
        if kind is PhaseKind.RETREATS and isinstance(order, Move) and not order.via_convoy:
            order = Retreat(order.unit, order.destination)
        if not isinstance(order, facts.allowed):
            what = f"{order} is not an order of {_A_PHASE_OF_KIND[kind]}"
            raise said.refused(power, what, facts, "wrong_phase", order=order)
        if isinstance(order, Waive):
            return order, None
        prov = province_of(order.unit.location)
        if isinstance(order, Build):  # for a province without a unit
            return order, prov
        unit = facts.units.get(prov)
        if unit is None:
            retreats = kind is PhaseKind.RETREATS
            where = "dislodged unit" if retreats else "unit"
            key = "not_dislodged" if retreats and prov in facts.position.units else "no_unit"
            what = f"{order}: there is no {where} in {prov}"
            raise said.refused(power, what, facts, key, prov, order=order)
        if unit.power != power:
            what = f"{order}: the unit in {prov} belongs to {unit.power}"
            owner = power_name(unit.power, said.language)
            raise said.refused(power, what, facts, "not_own_unit", prov, order=order, power=owner)
        return order, prov

    def orders(self, power: Power) -> list[Order]:
        """``power``'s pending orders for this phase."""
        return list(self._orders.get(self._check_power(power), ()))

    def pending_orders(self) -> dict[Power, tuple[Order, ...]]:
        """Every pending order of this phase (secret: for saving, not for showing)."""
        return dict(self._orders)

    def pending_accepted(self) -> dict[Power, frozenset[Province]]:
        return dict(self._accepted)

    def pending_declared(self) -> dict[Power, tuple[Power, ...]]:
        return dict(self._declared)

    def restore_pending(
        self,
        orders: Mapping[Power, tuple[Order, ...]],
        accepted: Mapping[Power, frozenset[Province]],
        declared: Mapping[Power, tuple[Power, ...]],
        votes: Mapping[Power, bool],
    ) -> None:
        """Put back the pending state of a saved game (no checks: it was checked before)."""
        self._orders, self._accepted = dict(orders), dict(accepted)
        self._declared, self.votes = dict(declared), dict(votes)

    def legal_orders(self, power: Power | None = None) -> dict[Power, dict[str, list[Order]]]:
        """Every legal order of ``power`` (or of every power that has a choice now), keyed by
        unit location, build province or ``"WAIVE"`` (see :mod:`realpolitik.legal`)."""
        facts = self._facts()
        able = () if self.result is not None else facts.must_order()
        if power is not None:
            power = self._known_power(facts, power)  # as the board names it
        found = legal_orders(facts.game_map, facts.position, facts.phase, facts.rules, power)
        if power is None:
            return {p: found.get(p, {}) for p in able}
        return {power: found.get(power, {}) if power in able else {}}

    def illegal_orders(self, power: Power, orders: Sequence[Order]) -> dict[int, Reason]:
        """The orders of ``power`` (as :meth:`submit` gave them) that the adjudicator would
        call illegal in the current phase, by index, with the reason. Nothing is adjudicated
        in a movement phase: its orders are judged on the board as the adjudicator judges
        them before resolving (:func:`~realpolitik.adjudicator.problem.build_problem`;
        legality never depends on the other powers' orders); a retreat's or adjustment's
        verdict is the phase's own judge of this power's orders alone, on the position.
        ``power`` is read as :meth:`submit` reads it (any case; one the board does not have
        is a :class:`GameError`)."""
        power = self._check_power(power)
        phase, position, rules, game_map = self.phase, self.position, self.rules, self.game_map
        if phase.kind is PhaseKind.MOVEMENT:
            return dict(build_problem(game_map, position, {power: list(orders)}, rules).illegal)
        outcomes = adjudicate(game_map, position, {power: list(orders)}, rules, phase).outcomes
        given = [o for o in outcomes if o.power == power and not o.implied]
        return {
            k: o.reason
            for k, o in enumerate(given[: len(orders)])
            if o.result is OrderResult.ILLEGAL and o.reason is not None
        }

    # --- conquista: accepted supports and alliances ----------------------------------------
    def accept_support(
        self, power: Power, supporters: Iterable[str], language: str = "en"
    ) -> list[Province]:
        """Conquista: ``power`` accepts, with its orders of this phase, the support of the
        other powers' units at ``supporters`` (``"A BUD"`` or ``"BUD"``; in another
        ``language`` as its orders name a unit: ``"E Gli"``); replaces its list."""
        power = self._playing(power)
        if isinstance(supporters, str):  # else read letter by letter: "'A' names no province"
            raise TypeError(
                f"{power}: supporters are a list of units, not one string {supporters!r}"
            )
        if (
            self.rules.foreign_support is not ForeignSupport.ACKNOWLEDGED
            or not self.phase.is_movement
        ):
            raise GameError.said("accept_phase")
        provs: list[Province] = []
        for text in supporters:
            prov = self._named_unit(text, language)
            unit = self.position.units.get(prov)
            if unit is None and prov not in self.game_map.provinces:
                key = "accept_unnamed" if language == "en" else "accept_unnamed_as"
                raise GameError.said(key, power=power, text=text, language=language)
            if unit is None:
                raise GameError.said("accept_no_unit", power=power, text=text)
            if unit.power == power:
                raise GameError.said("accept_own", power=power, unit=str(unit), text=text)
            provs.append(prov)
        self._accepted[power] = frozenset(provs)
        return sorted(self._accepted[power])  # (a unit named twice is accepted once)

    def _named_unit(self, text: str, language: str) -> Province:
        """The province of the unit ``text`` names: the board's id (``"A GAL"``, ``"GAL"``)
        in English, the unit as an order names it in another language (Spanish ``"E Gli"``,
        where ``"Gal"`` is Wales); ``""`` if it names none."""
        if language != "en" and text.strip():
            try:
                order = parse_order(text, game_map=self.game_map, language=language)
            except ValueError:
                return ""
            return province_of(order.unit.location) if isinstance(order, Hold) else ""
        return province_of(text.split()[-1]).upper() if text.strip() else ""

    def declare_alliance(self, power: Power, partners: Iterable[Power]) -> tuple[Power, ...]:
        """Conquista: ``power`` declares, with this phase's orders, an alliance with
        ``partners``; it is formed when every member declares the same alliance in the same
        phase (a new one replaces its members' old ones; no partners: leave the alliance).
        An alliance is made between players: the powers of one player (a three- or
        four-player table) are none."""
        power = self._playing(power)
        if isinstance(partners, str):  # else read letter by letter: "unknown power 'E'"
            raise TypeError(f"{power}: partners are a list of powers, not one string {partners!r}")
        if self.edition.victory_for(self.setup).alliance_years is None:
            raise GameError.said("no_alliance", edition=self.edition.name)
        if not self.phase.is_movement:
            raise GameError.said("alliance_phase")
        named = {self._check_power(p) for p in partners}
        others = named - {power}
        if named and not others:  # not a way to leave the alliance unawares
            raise GameError.said("alliance_alone", power=power)
        members = tuple(sorted(others | {power})) if others else ()
        player = self.controller(power)
        if members and all(self.controller(p) == player for p in members):
            # "los jugadores que la integran": an alliance is made between players
            every = "both" if len(members) == 2 else "all"
            raise GameError.said("alliance_one_player", members=members, every=every, player=player)
        self._declared[power] = members
        return members

    # --- processing ----------------------------------------------------------------------
    def process(self) -> Resolution:
        """Adjudicate this phase with the orders given (powers without orders in a movement
        phase fall into civil disorder, unless the edition says their units just hold), move
        to the next phase, process at once the retreat and adjustment phases in which nobody
        has a choice, and check the end. Returns this phase's :class:`Resolution` (its
        outcomes: each order's result and reason); every processed phase, those played at
        once too, is a :class:`PhaseRecord` in :attr:`history`."""
        self._open()
        resolution = self._step(skipped=False)
        while (
            self.result is None
            and self.phase.kind is not PhaseKind.MOVEMENT
            and not self._expected()
        ):
            self._step(skipped=True)
        return resolution

    def _step(self, *, skipped: bool) -> Resolution:
        facts = self._facts()
        phase, before, status = facts.phase, facts.position, facts.status
        movement = facts.kind is PhaseKind.MOVEMENT
        given, missing = self._orders, set()
        if movement and self.edition.missed_orders == "disorder":  # else its units just hold
            missed = status.missed
            missing = {p for p in facts.must_order() if p not in given and p not in missed}
        disorder = facts.disorder | missing if missing else facts.disorder
        orders = {p: o for p, o in sorted(given.items()) if p not in disorder}
        accepted = self._accepted_pairs(disorder) if movement else frozenset()
        turn = play(
            self.edition, facts.game_map, facts.rules, phase, before, orders,
            disorder=disorder, accepted=accepted,
        )  # fmt: skip
        events: list[Event] = []
        if missing:
            self.status = replace(self.status, missed=self.status.missed | missing)
            events.append(Event(EventKind.CIVIL_DISORDER, tuple(sorted(missing))))
        declared = self._declared  # the record keeps it: the next phase starts a new one
        if movement and declared:
            old = self.status.alliances
            alliances = form_alliances(old, declared, phase)
            self.status = replace(self.status, alliances=alliances)
            events += [
                Event(EventKind.ALLIANCE_ENDED, a.members) for a in old if a not in alliances
            ]
            events += [
                Event(EventKind.ALLIANCE_FORMED, a.members) for a in alliances if a not in old
            ]
        self.phase, self.position = turn.following, turn.after
        self._orders, self._accepted, self._declared = {}, {}, {}
        if (
            self.phase.kind is PhaseKind.MOVEMENT and self.status.missed
        ):  # a new turn: expected again
            self.status = replace(self.status, missed=frozenset())
        events += self._coin_toss()
        record = PhaseRecord(
            phase, before, orders, turn.resolution.outcomes, turn.after, skipped, disorder,
            accepted, declared, status, tuple(events),
        )  # fmt: skip
        self.history.append(record)
        ended = self._check_end(phase)
        if ended is not None:
            self.history[-1] = replace(record, events=(*record.events, ended))
        return turn.resolution

    def _accepted_pairs(self, disorder: frozenset[Power]) -> frozenset[tuple[Power, Province]]:
        if self.rules.foreign_support is not ForeignSupport.ACKNOWLEDGED:
            return frozenset()
        pairs = {
            (p, prov) for p, provs in self._accepted.items() if p not in disorder for prov in provs
        }
        played = self._facts().played
        nobody = {p for p in self.powers if p not in played}
        pairs |= {(p, prov) for p in nobody for prov in self.position.units}  # out: any help
        return frozenset(pairs)

    def _coin_toss(self) -> list[Event]:
        neutral = self.setup.neutral
        if neutral is None or self.status.coin_toss is not None:
            return []
        phase = self.phase
        due = phase.year >= neutral.until or (
            phase.year == neutral.until - 1 and phase.is_adjustments
        )
        if not due:
            return []
        winner = random.Random(f"{self.seed}/coin toss").choice(sorted(self.assignment))
        toss = CoinToss(neutral.power, winner, phase, neutral.until)
        self.status = replace(self.status, coin_toss=toss)
        return [Event(EventKind.COIN_TOSS, (neutral.power,), winner, neutral.until)]

    def _check_end(self, processed: Phase) -> Event | None:
        victory = self.edition.victory_for(self.setup)
        facts = self._facts()
        teams = facts.teams()
        found = check_victory(
            victory, facts.game_map, facts.position, teams, facts.status.alliances, processed
        )
        if found is not None:
            self._finish("victory", found[0], processed, found[1])
        elif self.last_year is not None and self.phase.year > self.last_year:
            winners, reason = most_units(self.position, teams, victory.per)
            self._finish("shortened", winners, processed, reason)
        elif self.phase.year > processed.year and (last := self._last_player()) is not None:
            # asked once a year (asked after every phase it cost 2.7% of random play)
            name, powers = last
            self._finish("victory", powers, processed, f"{name} is the last player on the board")
        elif self.votes and self._agreed_draw():  # the one who had not voted was eliminated
            voters = self.voters()
            self._finish("draw", voters, processed, f"draw agreed by {', '.join(voters)}")
        result = self.result
        return None if result is None else Event(EventKind.GAME_OVER, reason=result.reason)

    def _last_player(self) -> tuple[str, list[Power]] | None:
        """The one player still in the game, and its powers there, if there is just one
        (the game ends with the year in which it became so):
        the others' powers were eliminated (no unit, dislodged or not, and no centre to build
        from) or conceded (on a board too small for the victory count, as Grow's three-player
        one, the game would otherwise never end). Powers played by nobody do not count."""
        pos = self.position
        alive = {u.power for u in pos.units.values()}
        alive.update(pos.centers.values())
        alive.update(d.unit.power for d in pos.dislodged.values())
        alive -= self.status.conceded
        players = self._facts().players
        left = {name: [p for p in ps if p in alive] for name, ps in players.items()}
        still = [(name, powers) for name, powers in left.items() if powers]
        return still[0] if len(still) == 1 else None

    def _finish(self, kind: str, winners: Iterable[Power], phase: Phase, reason: str) -> None:
        won = tuple(sorted(winners))
        names = tuple(sorted({n for p in won if (n := self.controller(p)) is not None}))
        self.result = GameResult(kind, won, names, phase, reason)

    # --- the end: votes, concessions, disorder ---------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winners(self) -> tuple[Power, ...]:
        return () if self.result is None else self.result.winners

    def survivors(self) -> list[Power]:
        """Powers with a unit on the board (or dislodged)."""
        pos = self.position
        alive = {u.power for u in pos.units.values()} | {
            d.unit.power for d in pos.dislodged.values()
        }
        return [p for p in self.powers if p in alive]

    def voters(self) -> list[Power]:
        """Surviving powers whose player takes part: they decide a draw, and share it."""
        left = self.status.disorder | self.status.conceded
        return [p for p in self.survivors() if self.controller(p) is not None and p not in left]

    def vote_draw(self, power: Power, agree: bool = True) -> bool:
        """Record ``power``'s draw vote; when every voter agrees the game ends in a draw
        shared by them. Returns whether the game is now drawn."""
        if not isinstance(agree, bool):  # "no" would count as agreeing
            raise GameError(f"a draw vote is True or False, not {agree!r}")
        power = self._playing(power)
        if power not in self.voters():
            raise GameError.said("no_say", power=power)
        self.votes[power] = agree
        return self._draw_if_agreed()

    def _draw_if_agreed(self) -> bool:
        """When every voter has voted for a draw, the game ends in a draw shared by them
        (after a vote, or when a player who had not voted leaves or concedes; a phase that
        eliminates the one who had not voted ends the game in :meth:`_check_end`)."""
        if not self._agreed_draw():
            return False
        voters = self.voters()
        self._finish("draw", voters, self.phase, f"draw agreed by {', '.join(voters)}")
        return True

    def _agreed_draw(self) -> bool:
        """Whether every voter has voted for a draw."""
        voters = self.voters()
        return bool(voters) and all(self.votes.get(p) for p in voters)

    def concede(self, power: Power) -> bool:
        """``power`` concedes: it leaves the game for good, as a player who leaves (see
        :meth:`set_civil_disorder`), and cannot win. When the powers still playing all
        belong to one player, that player wins; when they had all voted for a draw, the
        game is drawn. Returns whether the game ended."""
        power = self._playing(power)
        self.status = replace(self.status, conceded=self.status.conceded | {power})
        self._forget_pending(power)
        self.votes.pop(power, None)
        playing = self.voters()
        names = {self.controller(p) for p in playing}
        if len(names) == 1:
            self._finish("concession", playing, self.phase, f"the others conceded to {names.pop()}")
            return True
        return self._draw_if_agreed()

    def set_civil_disorder(self, power: Power, on: bool = True) -> None:
        """A player leaves (``on``) or returns; its pending orders go. Where the edition
        says so (:attr:`Edition.leaving` ``"disorder"``: classic, 1971, grow) the power is
        in civil disorder: its units hold and do not support each other, its dislodged
        units are disbanded, it builds nothing and its removals follow the edition's rule.
        Conquista has no civil disorder: the power just has no orders (its units hold; its
        reinforcements stay due, placed if its player returns in time). Either way nobody
        orders for it, nor waits for it, until its player returns; if the players still in
        had all voted for a draw, the game is drawn."""
        self._open()
        power = self._check_power(power)
        if self.controller(power) is None:
            raise GameError.said("nobody", power=power)
        if power in self.status.conceded:
            raise GameError.said("conceded", power=power)
        s = self.status
        if on:
            self.status = replace(s, disorder=s.disorder | {power})
            self._forget_pending(power)
            self._draw_if_agreed()  # those still playing may all have voted for one
        else:
            self.status = replace(s, disorder=s.disorder - {power}, missed=s.missed - {power})

    def _forget_pending(self, power: Power) -> None:
        """A leaving power's orders of this phase go, with its acceptances and declaration
        (conquista's, given with the orders)."""
        self._orders.pop(power, None)
        self._accepted.pop(power, None)
        self._declared.pop(power, None)

    def send_message(self, sender: Power, recipient: str, text: str) -> Message:
        """Press: a message from a played power to another power or to all (``"GLOBAL"``),
        in a movement turn's diplomacy: the rulebooks allow no negotiation during the
        retreats or the adjustments."""
        if not isinstance(text, str) or not text.strip():
            raise GameError(f"a message is some text, not {text!r}")
        sender = self._playing(sender)
        if not self.setup.press:
            raise GameError(f"{self.setup.title or 'this table'}: no messages")
        if not self.phase.is_movement:
            raise GameError(
                f"no messages during {self.phase_name()}: negotiation comes before a "
                "movement turn's orders"
            )
        if not isinstance(recipient, str):
            raise GameError(
                f"a message goes to one power or to all ({GLOBAL!r}), not {recipient!r}"
            )
        recipient = recipient.upper()
        if recipient != GLOBAL:
            recipient = self._check_power(recipient)
        message = Message(self.phase, sender, recipient, text)
        self.messages.append(message)
        return message

    # --- forks, views, files -----------------------------------------------------------------
    def rollback(self, phase: Phase | str, *, orders: bool = False) -> Game:
        """A fork of the game at ``phase`` (a processed, not skipped phase, or the current
        one) as it stood when that phase was processed: its position, and its status then
        (who had left, conceded or was in civil disorder; a player who left or came back
        during the phase did so before it was processed); what-if play, this game
        unchanged. ``orders``: with the orders given in it (and conquista's supports
        accepted and alliances declared) pending again, to change one and play on (the
        current phase's own are dropped either way)."""
        try:
            target = phase if isinstance(phase, Phase) else Phase.parse(phase)
        except ValueError as exc:
            raise GameError(str(exc)) from None
        fork = self.copy()
        if target == self.phase:
            fork._orders, fork._accepted, fork._declared, fork.votes = {}, {}, {}, {}
            fork.result = None
            return fork
        for k, record in enumerate(self.history):
            if record.phase == target and not record.skipped:
                kept = {r.phase for r in self.history[:k]}
                fork.history = self.history[:k]
                fork.messages = [m for m in self.messages if m.phase in kept]
                fork.phase, fork.position, fork.status = (
                    record.phase,
                    record.position,
                    record.status,
                )
                fork._orders, fork._accepted, fork._declared, fork.votes = {}, {}, {}, {}
                fork.result = None
                if orders:
                    fork._orders, fork._declared = dict(record.orders), dict(record.declared)
                    for power, province in record.accepted:  # (those who gave orders)
                        if power in record.orders:
                            given = fork._accepted.get(power, frozenset())
                            fork._accepted[power] = given | {province}
                return fork
        played = ", ".join(str(r.phase) for r in self.history if not r.skipped)
        key = "rollback" if played else "rollback_none"
        raise GameError.said(key, target=str(target), phases=played)

    def copy(self) -> Game:
        """An independent copy (records and positions are immutable and shared): a fork to
        play on, as cheap as a few dicts. ``copy.copy`` and ``copy.deepcopy`` make it too."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.assignment = dict(self.assignment)
        twin.history = list(self.history)
        twin.messages = list(self.messages)
        twin.votes = dict(self.votes)
        twin._orders, twin._accepted = dict(self._orders), dict(self._accepted)
        twin._declared = dict(self._declared)
        return twin

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()  # what is shared is immutable: nothing deeper to copy

    def phase_name(self, phase: Phase | None = None) -> str:
        return self.edition.phase_name(phase or self.phase)

    def view(self, power: Power | None = None) -> dict[str, Any]:
        """The game as ``power`` may see it (``None``: an observer): JSON-able; pending
        orders, acceptances, declarations and messages of other powers are hidden."""
        return game_view(self, None if power is None else self._check_power(power))

    def __repr__(self) -> str:
        state = f"over: {self.result.reason}" if self.result else f"at {self.phase}"
        return f"<Game {self.edition.name} {self.setup.id}p {state}>"


def _names(players: int | Sequence[str]) -> list[str]:
    if isinstance(players, int) and not isinstance(players, bool):
        return [f"player {k}" for k in range(1, players + 1)]
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise GameError(f"players is a count or a list of names, not {players!r}")
    if not all(isinstance(p, str) for p in players):
        raise GameError(f"player names are text: {list(players)!r}")
    names = [p.strip() for p in players]
    if len(set(names)) != len(names) or not all(names):
        raise GameError("player names must be distinct and not empty")
    return names


def _edition(name: str) -> Edition:
    try:
        return edition(name)
    except ValueError as exc:
        raise GameError(str(exc)) from None
