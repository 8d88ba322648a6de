"""Words to candidate orders: the chart of readings and the language-independent grammar.

The words of an order are matched against the lexicon into a *chart*: ``edges[k][cls]``
lists the phrases starting at word ``k`` (their end, value and cost). Fillers can be skipped
anywhere. The grammar reads every complete order the chart allows, with the summed cost of
its readings::

    order  := waive | (build | disband) unit
            | unit [hold [place]] | unit (build | disband)
            | unit retreat place
            | unit [move] place (move place)* [via [unit]] [remark unit]
            | unit [hold [place]] support unit [hold | [move] place]
            | unit [hold [place]] convoy unit [move] place
    unit   := [power] [type] [power] place
    place  := province [coast] | coast province

A missing ``move`` word costs 1 (``A PAR BUR`` is a move, but ``A PAR S A MAR BUR`` prefers
its explicit reading). Only the end of a multi-step move counts (DATC 4.A.6).

Two passes: :func:`exact_chart` uses whole phrases only (the fast path); when it reads no
order, :func:`loose_chart` also splits glued words ("WarPru", "SA"), reads unique prefixes of
names ("Mar Neg.", "Burg"), a name by its first word alone, at a higher cost ("Black" for
the Black Sea) and corrects one-letter misspellings ("Silecia").
"""

from __future__ import annotations

from dataclasses import dataclass

from realpolitik.notation.lexicon import (
    COAST,
    FILLER,
    POWER,
    PROVINCE,
    REMARK,
    UNIT,
    VERB,
    Lexicon,
)
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
from realpolitik.vocab import UnitType, province_of

STEP = 32
"""A reading's cost is ``lexicon cost * STEP`` plus one per meaningful phrase: among readings
of equal cost, the one with fewer, longer phrases wins ("English Channel" is one place, not
"English" + "Channel")."""
IMPLICIT = STEP
"""Cost of a move (or supported / convoyed move) written without its move word."""
PREFIX = STEP
"""Extra cost of a name read from a prefix of its words."""
FIRST_WORD = 2 * STEP
"""Extra cost of a name of several words read from (a prefix of) its first word alone:
"Black" for the Black Sea, "Canal" for the Canal de la Mancha."""
FUZZY = 2 * STEP
"""Extra cost of a word read as a one-letter misspelling."""
MAX_WORDS = 48
MAX_LENGTH = 200
"""The longest text read as an order, in characters (the server refuses a longer one): a
longer one is too long before it is read, for reading a glued word costs its length squared
(an adjudicated line of 300 000 characters took 12 s)."""
END = "end"

_ARMY, _FLEET = UnitType("A"), UnitType("F")


Edge = tuple[str, int, int]
"""A phrase in the chart: its value, the word it ends before, its cost."""
_NONE: list[Edge] = []


Candidate = tuple[Order, int]


@dataclass(slots=True)
class Chart:
    """The readings of an order's words. ``uncovered`` is the first word nothing reads."""

    words: list[str]
    edges: list[dict[str, list[Edge]]]
    uncovered: int = -1


# --- charts ----------------------------------------------------------------------------
def _add_exact(words: list[str], lexicon: Lexicon) -> list[dict[str, list[Edge]]]:
    n = len(words)
    edges: list[dict[str, list[Edge]]] = [{} for _ in range(n + 1)]  # edges[n]: the end
    phrases, sizes = lexicon.phrases, lexicon.sizes
    for k in range(n):
        here = edges[k]
        for size in sizes.get(words[k], ()):
            if k + size > n:
                break
            readings = phrases.get(tuple(words[k : k + size]))
            if readings is None:
                continue
            for r in readings:
                cost = r.cost * STEP + (r.cls != FILLER)
                here.setdefault(r.cls, []).append((r.value, k + size, cost))
    return edges


def _first_uncovered(edges: list[dict[str, list[Edge]]]) -> int:
    reach = 0
    for k, here in enumerate(edges[:-1]):
        if k >= reach and not here:
            return k
        for found in here.values():
            for _, end, _ in found:
                reach = max(reach, end)
    return -1


def exact_chart(words: list[str], lexicon: Lexicon) -> Chart:
    """Whole phrases only."""
    edges = _add_exact(words, lexicon)
    return Chart(words, edges, _first_uncovered(edges))


def _matches(word: str, name_word: str) -> bool:
    return word == name_word or (len(word) >= 3 and name_word.startswith(word))


def _align(words: list[str], k: int, name: tuple[str, ...], fillers: frozenset[str]) -> int:
    """The end of ``name`` read from words ``k``... (each word a prefix of the name's word,
    fillers optional on both sides), or -1."""
    i, j, n = k, 0, len(words)
    while j < len(name):
        if i < n and _matches(words[i], name[j]):
            i, j = i + 1, j + 1
        elif i == k:
            return -1
        elif name[j] in fillers:
            j += 1
        elif i < n and words[i] in fillers:
            i += 1
        else:
            return -1
    return i


def _first_word(word: str, name: tuple[str, ...], fillers: frozenset[str]) -> bool:
    """Whether ``word`` may stand for the whole of ``name``, a name of several words: it is
    (a prefix of) the first, three letters or more and no filler."""
    return (
        len(name) > 1
        and len(word) >= 3
        and name[0].startswith(word)
        and word not in fillers
        and name[0] not in fillers
    )


def _has_prefix(word: str, lexicon: Lexicon) -> bool:
    if len(word) < 3:
        return False
    return any(name.words[0].startswith(word) for name in lexicon.names.get(word[:3], ()))


def _split(word: str, lexicon: Lexicon) -> list[str] | None:
    """A glued pair of known words ("warpru" -> "war", "pru"), if there is exactly one."""
    found = [
        [word[:i], word[i:]]
        for i in range(1, len(word))
        if (word[:i],) in lexicon.phrases and (word[i:],) in lexicon.phrases
    ]
    return found[0] if len(found) == 1 else None


def _near(a: str, b: str) -> bool:
    """At most one letter inserted, deleted, replaced or two letters swapped."""
    la, lb = len(a), len(b)
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    if abs(la - lb) != 1:
        return False
    if la > lb:
        a, b = b, a
    i = j = 0
    skipped = False
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            i += 1
        elif skipped:
            return False
        else:
            skipped = True
        j += 1
    return True


def loose_chart(words: list[str], lexicon: Lexicon) -> Chart:
    """Also glued words, unique prefixes of names and one-letter misspellings."""
    split: list[str] = []
    for word in words:
        parts = None
        if word not in lexicon.known and not _has_prefix(word, lexicon):
            parts = _split(word, lexicon)
        split.extend(parts or [word])
    words = split
    edges = _add_exact(words, lexicon)
    for k, word in enumerate(words):
        for name in lexicon.names.get(word[:3], ()):
            r = name.reading
            end = _align(words, k, name.words, lexicon.fillers)
            extra = PREFIX
            if end < 0 and _first_word(word, name.words, lexicon.fillers):
                end, extra = k + 1, FIRST_WORD
            if end < 0 or tuple(words[k:end]) == name.words:
                continue
            if end == k + 1 and any(w.cls == r.cls for w in lexicon.phrases.get((word,), ())):
                continue  # a whole word beats a prefix
            edges[k].setdefault(r.cls, []).append((r.value, end, r.cost * STEP + extra + 1))
    while (k := _first_uncovered(edges)) >= 0:
        word = words[k]
        if len(word) < 4:
            break
        for known, readings in lexicon.vocabulary.items():
            if abs(len(known) - len(word)) <= 1 and _near(word, known):
                for r in readings:
                    cost = r.cost * STEP + FUZZY + 1
                    edges[k].setdefault(r.cls, []).append((r.value, k + 1, cost))
        if not edges[k]:
            break
    return Chart(words, edges, _first_uncovered(edges))


# --- the grammar -------------------------------------------------------------------------
class Parser:
    """Every complete order a chart allows. ``far``/``expected``: where reading stopped."""

    def __init__(self, chart: Chart, track: bool = False) -> None:
        self.words = chart.words
        self.edges = chart.edges
        n = len(self.words)
        self.n = n
        skips: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
        skips[n] = [(n, 0)]
        for k in range(n - 1, -1, -1):
            fillers = self.edges[k].get(FILLER)
            if not fillers:
                skips[k] = [(k, 0)]
                continue
            best: dict[int, int] = {k: 0}
            for _, end, cost in fillers:
                for k2, c2 in skips[end]:
                    if k2 == n:
                        continue  # no filler ends an order: "E Par a" is cut off, not a hold
                    if best.get(k2, 1 << 30) > cost + c2:
                        best[k2] = cost + c2
            skips[k] = sorted(best.items())
        self.skips = skips
        self.track = track
        self.far = -1
        self.expected: set[str] = set()
        self._reads: dict[tuple[int, str], list[Edge]] = {}
        self._units: dict[int, list[tuple[UnitRef, int, int]]] = {}
        self._places: dict[int, list[tuple[str, int, int]]] = {}

    def _expect(self, k: int, cls: str) -> None:
        if cls == COAST and k == self.n:
            return  # a coast is optional: never what a text that ends there lacks
        if k > self.far:
            self.far, self.expected = k, {cls}
        elif k == self.far:
            self.expected.add(cls)

    def read(self, k: int, cls: str) -> list[Edge]:
        """(value, end, cost) of every ``cls`` phrase at ``k``, after optional fillers."""
        key = (k, cls)
        out = self._reads.get(key)
        if out is not None:
            return out
        skips, edges = self.skips[k], self.edges
        if len(skips) == 1:
            out = edges[k].get(cls, _NONE)
            if not out and self.track:
                self._expect(k, cls)
        else:
            out = []
            for k2, c in skips:
                found = edges[k2].get(cls)
                if found:
                    out.extend([(v, end, c + cost) for v, end, cost in found] if c else found)
                elif self.track:
                    self._expect(k2, cls)
        self._reads[key] = out
        return out

    def places(self, k: int) -> list[tuple[str, int, int]]:
        cached = self._places.get(k)
        if cached is not None:
            return cached
        out: list[tuple[str, int, int]] = []
        for prov, k1, c1 in self.read(k, PROVINCE):
            out.append((prov, k1, c1))
            for coast, k2, c2 in self.read(k1, COAST):
                out.append((f"{prov}/{coast}", k2, c1 + c2))
        for coast, k1, c1 in self.read(k, COAST):
            for prov, k2, c2 in self.read(k1, PROVINCE):
                out.append((f"{prov}/{coast}", k2, c1 + c2))
        self._places[k] = out
        return out

    def units(self, k: int) -> list[tuple[UnitRef, int, int]]:
        cached = self._units.get(k)
        if cached is not None:
            return cached
        out: list[tuple[UnitRef, int, int]] = []
        for p1, k1, c1 in [("", k, 0), *self.read(k, POWER)]:
            for t, k2, c2 in [("", k1, 0), *self.read(k1, UNIT)]:
                seconds = [("", k2, 0)]
                if not p1:
                    seconds += self.read(k2, POWER)
                for p2, k3, c3 in seconds:
                    kind = None if not t else _ARMY if t == "A" else _FLEET
                    for loc, k4, c4 in self.places(k3):
                        ref = UnitRef(kind, loc, p1 or p2 or None)
                        out.append((ref, k4, c1 + c2 + c3 + c4))
        self._units[k] = out
        return out

    # --- orders --------------------------------------------------------------------------
    def orders(self) -> list[Candidate]:
        """Complete orders with their cost (the cheapest reading of each)."""
        best: dict[Order, int] = {}
        for order, end, cost in self._order(0):
            done = False
            for k, c in self.skips[end]:
                if k == self.n:
                    if best.get(order, 1 << 30) > cost + c:
                        best[order] = cost + c
                    done = True
            if not done and self.track:
                for k, _ in self.skips[end]:
                    self._expect(k, END)
        return sorted(best.items(), key=lambda item: item[1])

    def _order(self, k: int) -> list[tuple[Order, int, int]]:
        out: list[tuple[Order, int, int]] = []
        for power, k0, c0 in [("", k, 0), *self.read(k, POWER)]:  # "Rusia retira E Gal"
            for verb, k1, c1 in self.read(k0, VERB):
                if verb == "waive" and not power:
                    out.append((Waive(), k1, c1))
                elif verb in ("build", "disband"):
                    for unit, k2, c2 in self.units(k1):
                        if power and unit.power is None:
                            unit = UnitRef(unit.type, unit.location, power)
                        order: Order = Build(unit) if verb == "build" else Disband(unit)
                        out.append((order, k2, c0 + c1 + c2))
        for unit, k1, c1 in self.units(k):
            out.append((Hold(unit), k1, c1))
            out.extend((o, k2, c1 + c2) for o, k2, c2 in self._tail(unit, k1))
        return out

    def _tail(self, unit: UnitRef, k: int) -> list[tuple[Order, int, int]]:
        out: list[tuple[Order, int, int]] = []
        for verb, k1, c1 in self.read(k, VERB):
            if verb == "hold":
                stays = [(k1, c1)]  # "queda en Serbia": the unit's own place may follow
                stays += [(k2, c1 + c2) for loc, k2, c2 in self.places(k1) if _same(loc, unit)]
                for k2, c2 in stays:
                    out.append((Hold(unit), k2, c2))
                    for v, k3, c3 in self.read(k2, VERB):
                        if v in ("support", "convoy"):
                            out.extend(
                                (o, k4, c2 + c3 + c4) for o, k4, c4 in self._aid(unit, v, k3)
                            )
            elif verb == "build":
                out.append((Build(unit), k1, c1))
            elif verb == "disband":
                out.append((Disband(unit), k1, c1))
            elif verb == "retreat":
                out.extend((Retreat(unit, loc), k2, c1 + c2) for loc, k2, c2 in self.places(k1))
            elif verb == "move":
                for loc, k2, c2 in self.places(k1):
                    out.extend(self._move_rest(unit, loc, k2, c1 + c2))
            elif verb in ("support", "convoy"):
                out.extend((o, k2, c1 + c2) for o, k2, c2 in self._aid(unit, verb, k1))
        for loc, k1, c1 in self.places(k):
            out.extend(self._move_rest(unit, loc, k1, c1 + IMPLICIT))
        return out

    def _move_rest(
        self, unit: UnitRef, dest: str, k: int, cost: int, depth: int = 0
    ) -> list[tuple[Order, int, int]]:
        out: list[tuple[Order, int, int]] = [(Move(unit, dest), k, cost)]
        out.extend(self._remark(Move(unit, dest), k, cost))
        for verb, k1, c1 in self.read(k, VERB):
            if verb == "move" and depth < 8 and unit.type is not _FLEET:
                # a convoy path, only its end counts: an army's (a fleet is not convoyed)
                for loc, k2, c2 in self.places(k1):
                    out.extend(self._move_rest(unit, loc, k2, cost + c1 + c2, depth + 1))
            elif verb == "via":
                via = Move(unit, dest, True)
                ends = [(k1, cost + c1)]
                ends += [(k2, cost + c1 + c2) for _, k2, c2 in self.units(k1)]
                for k2, c2 in ends:
                    out.append((via, k2, c2))
                    out.extend(self._remark(via, k2, c2))
        return out

    def _remark(self, order: Order, k: int, cost: int) -> list[tuple[Order, int, int]]:
        """ "apoyado por el de Munich": a note naming a unit, which changes nothing."""
        out: list[tuple[Order, int, int]] = []
        for _, k1, c1 in self.read(k, REMARK):
            out.extend((order, k2, cost + c1 + c2) for _, k2, c2 in self.units(k1))
        return out

    def _aid(self, unit: UnitRef, verb: str, k: int) -> list[tuple[Order, int, int]]:
        out: list[tuple[Order, int, int]] = []
        for target, k1, c1 in self.units(k):
            if verb == "support":
                out.append((SupportHold(unit, target), k1, c1))
            dests: list[tuple[str, int, int]] = []
            for v, k2, c2 in self.read(k1, VERB):
                if v == "move":
                    dests += [(loc, k3, c1 + c2 + c3) for loc, k3, c3 in self.places(k2)]
                elif v == "hold" and verb == "support":
                    out.append((SupportHold(unit, target), k2, c1 + c2))
            dests += [(loc, k2, c1 + c2 + IMPLICIT) for loc, k2, c2 in self.places(k1)]
            for loc, k2, c2 in dests:
                aid: Order = (
                    SupportMove(unit, target, loc)
                    if verb == "support"
                    else Convoy(unit, target, loc)
                )
                out.append((aid, k2, c2))
        return out


def _same(loc: str, unit: UnitRef) -> bool:
    return province_of(loc) == unit.province


__all__ = [
    "END",
    "FIRST_WORD",
    "FUZZY",
    "IMPLICIT",
    "MAX_LENGTH",
    "MAX_WORDS",
    "PREFIX",
    "STEP",
    "Candidate",
    "Chart",
    "Edge",
    "Parser",
    "exact_chart",
    "loose_chart",
]
