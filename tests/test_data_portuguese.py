"""The project's Portuguese is Brazilian Portuguese, as its one Portuguese source writes it:
seed 003, the Grow rulebook from São Paulo ("você", "Boêmia", "Romênia", "Armênia",
"MOSCOU", "retrocedimentos"). Every Portuguese text shipped (the notation lexicon, the web
page's words, the map's legend and titles) uses it; the European spellings of province
names still read, as the lexicon's aliases."""

from __future__ import annotations

import re

import pytest

from realpolitik import ARMY, FLEET
from realpolitik.data import read_json
from realpolitik.maps import load_map
from realpolitik.notation import format_date, parse_order
from realpolitik.orders import Hold, UnitRef
from realpolitik.phase import Phase
from tests.datakit import strings

# Province names as the book writes them (its example game and rules), each the lexicon's
# main name; then the Brazilian names the book does not write, with their European spelling.
BOOK_NAMES = {
    "BOH": "Boêmia",
    "RUM": "Romênia",
    "ARM": "Armênia",
    "MOS": "Moscou",
    "WAR": "Varsóvia",
    "SEV": "Sebastopol",
    "CON": "Constantinopla",
    "BUD": "Budapeste",
    "VEN": "Veneza",
    "NAP": "Nápoles",
    "MAR": "Marselha",
    "EDI": "Edimburgo",
    "BER": "Berlim",
    "TUN": "Tunísia",
    "NAF": "África do Norte",
    "HEL": "Baía de Heligoland",
    "TYS": "Mar Tirreno",
    "LYO": "Golfo de Lion",
}
BRAZILIAN_NAMES = {
    "BOH": ("Boêmia", "Boémia"),
    "RUM": ("Romênia", "Roménia"),
    "ARM": ("Armênia", "Arménia"),
    "MOS": ("Moscou", "Moscovo"),
    "LVN": ("Livônia", "Livónia"),
    "ION": ("Mar Jônico", "Mar Jónico"),
}
# Words and turns of phrase of European Portuguese that Brazilians do not write (in the sense
# the page uses them: "guardado" for saved, "ligação" for a link), as patterns on the
# lower-cased text.
EUROPEAN = [
    r"utilizador",
    r"palavra-passe",
    r"ecrã",
    r"telemóvel",
    r"ficheiro",
    r"boémia",
    r"roménia",
    r"arménia",
    r"moscovo",
    r"livónia",
    r"jónico",
    r"\baceites?\b",
    r"\bregisto",
    r"\bguardad[oa]s?\b",
    r"^guardar\b",  # "Guardar endereço": Brazil says "Salvar"
    r"\bpartilh",
    r"\bligação de convite",
    r"\bsem si\b",
    r"\b(está|estão|estou|estava|continua|fica) a \w+[aei]r\b",  # "está a acompanhar"
    r"^(as|os) (minhas|meus|suas|seus) ",  # "As minhas partidas", "As suas ordens"
    r"\ba sua própria\b",
    r"\blhe\b",  # "o realpolitik lhe envia": Brazil writes "envia para você"
]


def _portuguese_texts() -> dict[str, list[str]]:
    """Each shipped file's Portuguese texts (the lexicon's aliases aside: what it reads)."""
    lexicon = read_json("notation", "lexicon", "pt.json")
    return {
        "notation/lexicon/pt.json": list(strings(lexicon, frozenset({"aliases", "verbs"}))),
        "web/i18n.json": list(strings(read_json("web", "i18n.json")["pt"])),
        "render/data/legend_words.json": list(
            strings(read_json("render", "data", "legend_words.json")["pt"])
        ),
        "data/mail.json": list(strings(read_json("data", "mail.json")["pt"])),
        "data/moderator.json": list(strings(read_json("data", "moderator.json")["pt"])),
    }


@pytest.mark.parametrize("where", sorted(_portuguese_texts()))
def test_no_european_portuguese_in_the_shipped_texts(where: str) -> None:
    european = [
        (pattern, text)
        for text in _portuguese_texts()[where]
        for pattern in EUROPEAN
        if re.search(pattern, text.lower())
    ]
    assert not european, (where, european)


def test_the_lexicon_names_provinces_as_the_book_does() -> None:
    provinces = read_json("notation", "lexicon", "pt.json")["provinces"]
    named = {pid: provinces[pid]["long"] for pid in BOOK_NAMES}
    assert named == BOOK_NAMES
    for pid, (brazilian, european) in BRAZILIAN_NAMES.items():
        assert provinces[pid]["long"] == brazilian, pid
        assert european in provinces[pid].get("aliases", []), pid


@pytest.mark.parametrize("pid", sorted(BRAZILIAN_NAMES))
def test_both_spellings_still_read(pid: str) -> None:
    board = load_map("standard")
    fleet = board.provinces[pid].is_sea
    for name in BRAZILIAN_NAMES[pid]:
        text = f"{'A' if fleet else 'E'} de {name} permanece"
        order = parse_order(text, language="pt", game_map=board)
        assert order == Hold(UnitRef(FLEET if fleet else ARMY, pid)), name


def test_the_phases_are_named_as_the_book_names_them() -> None:
    lexicon = read_json("notation", "lexicon", "pt.json")
    assert lexicon["phase_kinds"]["R"] == "retrocedimentos"  # "Não há retrocedimentos."
    assert lexicon["seasons"]["grow"]["SPRING"] == ["Inverno"]  # "INVERNO DE 1901"
    assert lexicon["seasons"]["grow"]["FALL"] == ["Verão"]
    # "No final de cada ofensiva de verão é feito o acerto de unidades": not a season "Acerto"
    assert format_date(Phase.parse("W1901A"), "pt", "grow") == "Verão de 1901 (acertos)"


@pytest.mark.parametrize("where", sorted(_portuguese_texts()))
def test_dislodged_is_the_books_word_everywhere(where: str) -> None:
    """One word per idea: the book's "deslocada" (the lexicon's result word), not also
    "desalojada" on the page or the map."""
    assert read_json("notation", "lexicon", "pt.json")["results"]["dislodged"] == "deslocada"
    assert not [t for t in _portuguese_texts()[where] if "desaloj" in t.lower()], where
