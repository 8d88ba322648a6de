"""What a Spanish, French or Portuguese player reads, checked as a reviewer would: every text
the page has in English is in each language with the same placeholders, no English is left in
it, and one idea keeps one word in a language (the rulebook's word: Spanish "enfrentamiento"
for a standoff, "disolución" for a removal, never "retirada", which is a retreat).

The texts are the shipped files: the page's words (``web/i18n.json``), the mails
(``data/mail.json``), the notation's written words (``notation/lexicon/*.json``, what it
reads aside), the map's legend (``render/data/legend_words.json``) and the moderator's
sentences (``data/moderator.json``)."""

from __future__ import annotations

import re
import string

import pytest

from realpolitik.data import read_json
from tests.datakit import strings

LANGUAGES = ("es", "fr", "pt")

# Texts the same in English and in a language, and why.
SAME_AS_ENGLISH = {
    "bot",  # the word each language's players use
    "bot_one",
    "bots_short",
    "edition_conquista",  # the Argentine book's title
    "table",  # French: a table of players
    "phase",
    "messages",
    "message",
    "centers",  # French: "Centres"
}


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def _texts(language: str) -> dict[str, list[str]]:
    """Each shipped file's texts in ``language`` (what the lexicon only reads left out)."""
    lexicon = read_json("notation", "lexicon", f"{language}.json")
    return {
        "web/i18n.json": list(strings(read_json("web", "i18n.json")[language])),
        "data/mail.json": list(strings(read_json("data", "mail.json")[language])),
        "data/moderator.json": list(strings(read_json("data", "moderator.json")[language])),
        "render/data/legend_words.json": list(
            strings(read_json("render", "data", "legend_words.json")[language])
        ),
        "notation/lexicon": list(
            strings(lexicon, frozenset({"aliases", "verbs", "fillers", "contractions"}))
        ),
    }


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("where", [("web", "i18n.json"), ("data", "mail.json")])
def test_every_text_in_each_language_with_the_same_placeholders(
    language: str, where: tuple[str, str]
) -> None:
    """A text missing in a language falls back to English on the page; a placeholder lost
    or renamed leaves "{n}" on screen or drops the number."""
    table = read_json(*where)
    english, words = table["en"], table[language]
    assert not english.keys() - words.keys(), sorted(english.keys() - words.keys())
    differ = {
        key: (sorted(_placeholders(english[key])), sorted(_placeholders(words[key])))
        for key in english
        if isinstance(english[key], str)
        and _placeholders(english[key]) != _placeholders(words[key])
    }
    assert not differ, differ


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_of_the_page_is_left_in_english(language: str) -> None:
    table = read_json("web", "i18n.json")
    english, words = table["en"], table[language]
    same = {
        key
        for key, text in words.items()
        if text == english.get(key) and re.search("[a-z]{3}", text) and key not in SAME_AS_ENGLISH
    }
    assert not same, sorted(same)


# Per language: a pattern no shipped text may match (lower-cased), and why.
NOT_THE_WORD = {
    "es": [
        (r"\brebot", "a standoff is the rulebook's 'enfrentamiento'"),
        (r"^choque$", "a standoff is the rulebook's 'enfrentamiento'"),
        (r"retiradas pendientes", "'retirada' is a retreat: a removal is a 'disolución'"),
        (r"unidad fue retirada", "'retirada' is a retreat: a removed unit is 'disuelta'"),
        (r"centros? de abastecimiento", "the rulebook's 'centro de suministro'"),
    ],
    "fr": [
        (
            r"\bsupport(er)?\b",
            "written 'soutien', as the page's 'Soutenir' (the 1971 book's 'support' is read)",
        ),
        (r"\bdélais?\b", "a deadline is an 'échéance' everywhere on the page"),
        (r"courriel", "a mail is a 'message', an address 'adresse électronique'"),
        (r"\brebond", "a standoff is the book's 'conflit', as in the reasons"),
        (r"’", "one apostrophe: the straight one, as in the other texts"),
    ],
    "pt": [
        (r"se mant[êe]m?\b", "a unit that holds 'permanece', the book's word"),
        (r"unidade foi retirada", "a removal is a 'remoção': the unit 'foi removida'"),
        (r"\bdevid[oa]s?\b", "a build or removal to make is 'pendente' (not the calque 'devida')"),
    ],
}


@pytest.mark.parametrize("language", sorted(NOT_THE_WORD))
def test_one_word_per_idea_the_rulebooks(language: str) -> None:
    found = [
        (where, text, why)
        for where, texts in _texts(language).items()
        for text in texts
        for pattern, why in NOT_THE_WORD[language]
        if re.search(pattern, text.lower())
    ]
    assert not found, found


def test_the_removals_heading_is_not_the_retreats_word() -> None:
    """Spanish: the adjustments' heading said "Retiradas", the retreats' word, above
    "disoluciones pendientes"."""
    words = read_json("web", "i18n.json")["es"]
    assert words["removals"] == "Disoluciones"
    assert "retirad" in read_json("notation", "lexicon", "es.json")["phase_kinds"]["R"]
