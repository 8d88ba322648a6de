"""The moderator's printout in the table's language (``--language es|fr|pt``): a Spanish,
French or Portuguese table reads the phases, the powers, the results and their reasons,
who is away and whose orders are awaited in its words (they were English whatever
``--language`` said: only the orders and the reasons followed it)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from realpolitik.commands.printout import sentences
from realpolitik.data import read_json
from realpolitik.notation import LANGUAGES
from tests.test_cli_game import germany_attacks_burgundy, run

FALL_1901 = {
    "es": [
        "=== Otoño de 1901 (F1901M) ===",
        "  Francia     E Bor M                    desalojada",
        "  Alemania    E Ruh-Bor                  tiene éxito",
        "  Alemania    E Mun A E Ruh-Bor          apoyo dado",
        "  (las demás unidades se mantienen)",
        "  * Desorden civil (sin órdenes): Austria, Inglaterra, Rusia, Turquía",
        "Ahora: Otoño de 1901, retiradas (F1901R)",
        "  Francia     desalojada: E Bor (retiradas: Bel, Gas, Mar, Par, Pic)",
        "Desorden civil: Austria, Inglaterra, Italia, Rusia, Turquía",
        "Faltan las órdenes de: Francia",
    ],
    "fr": [
        "=== Automne 1901 (F1901M) ===",
        "  France      A Bur (H)                  délogée",
        "  Allemagne   A Ruh-Bur                  réussit",
        "  Allemagne   A Mun (S) A Ruh-Bur        soutien donné",
        "  (les autres unités tiennent)",
        "  * Désordre civil (aucun ordre) : Autriche, Angleterre, Russie, Turquie",
        "Maintenant : Automne 1901, retraites (F1901R)",
        "  France      délogée : A Bur (retraites : Bel, Gas, Mar, Par, Pic)",
        "Désordre civil : Autriche, Angleterre, Italie, Russie, Turquie",
        "En attente des ordres de : France",
    ],
    "pt": [
        "=== Outono de 1901 (F1901M) ===",
        "  França      E da Bur. permanece                  deslocada",
        "  Alemanha    E do Ruh. para Bur.                  realizado",
        "  Alemanha    E de Mun. apoia E do Ruh. para Bur.  apoio dado",
        "  (as demais unidades permanecem)",
        "  * Desordem civil (sem ordens): Áustria, Inglaterra, Rússia, Turquia",
        "Agora: Outono de 1901, retrocedimentos (F1901R)",
        "  França      deslocada: E da Bur. (retrocedimentos: Bel., Gas., Mar., Par., Pic.)",
        "Desordem civil: Áustria, Inglaterra, Itália, Rússia, Turquia",
        "Aguardando as ordens de: França",
    ],
}
"""``process`` of Fall 1901: Germany's supported attack dislodges France's army in
Burgundy; Italy left, four powers gave no orders."""


def _germany_attacks_burgundy(tmp_path: Path) -> str:
    """:func:`tests.test_cli_game.germany_attacks_burgundy`, Italy's player gone."""
    game = germany_attacks_burgundy(tmp_path)
    run("disorder", game, "ITALY")
    return game


@pytest.mark.parametrize("language", sorted(FALL_1901))
def test_process_prints_the_phase_in_the_tables_language(tmp_path: Path, language: str) -> None:
    game = _germany_attacks_burgundy(tmp_path)
    code, out = run("process", game, "--language", language)
    assert code == 0 and out.splitlines() == FALL_1901[language]
    code, out = run("history", game, "--phase", "F1901M", "--language", language)
    assert out.splitlines() == FALL_1901[language][:6]


def test_the_retreat_and_the_builds_in_spanish(tmp_path: Path) -> None:
    """``show`` (units, the dislodged unit and its retreats, centres, the phase, whose orders
    are awaited), ``orders`` (the warning of an illegal retreat, its fate) and the next
    ``process`` (a reason, the builds due) of a Spanish table."""
    game = _germany_attacks_burgundy(tmp_path)
    run("process", game)
    code, out = run("show", game, "--language", "es")
    assert code == 0
    assert out.splitlines()[0] == "Diplomacy, edición clásica (7 jugadores)"
    assert "  FRANCE: Francia\n" in out  # the player is named as the game names them
    assert out.split("Unidades:\n")[1].splitlines()[:3] == [
        "  Austria     E Bud, F Tri, E Vie",
        "  Inglaterra  F Edi, F Lon, E Liv",
        "  Francia     F Bre, E Esp",
    ]
    assert "  Francia     desalojada: E Bor (retiradas: Bel, Gas, Mar, Par, Pic)\n" in out
    assert "Centros de suministro:\n  Austria      3  Bud, Tri, Vie\n" in out
    assert "  Rusia        4  Mos, Seb, SPt, Var\n" in out
    assert out.endswith(
        "Ahora: Otoño de 1901, retiradas (F1901R)\n"
        "  Francia     desalojada: E Bor (retiradas: Bel, Gas, Mar, Par, Pic)\n"
        "Desorden civil: Austria, Inglaterra, Italia, Rusia, Turquía\n"
        "Faltan las órdenes de: Francia\n"
    )
    code, out = run("orders", game, "Francia", "E Bor - Mun", "--language", "es")
    assert out.splitlines() == [
        "Francia: 1 orden registrada para Otoño de 1901, retiradas.",
        "  atención: E Bor R Mun es ilegal (el ejército de Borgoña no puede retirarse a "
        "Munich): la unidad será disuelta",
        "Están todas las órdenes.",
    ]
    code, out = run("orders", game, "FRANCE", "--list", "--language", "es")
    assert out == "Francia, Otoño de 1901, retiradas:\n  E Bor R Mun\n"
    code, out = run("process", game, "--language", "es")
    assert "  Francia     Disolver E Bor             tiene éxito (sin orden de retirada)\n" in out
    assert "Ahora: Otoño de 1901, ajustes (W1901A)\n  Francia construye 2\n" in out
    code, out = run("legal", game, "FRANCE", "--language", "es")
    assert out.endswith("Francia construye 2\n")


@pytest.mark.parametrize(
    ("language", "lines"),
    [
        ("es", ["Francia: 2 órdenes registradas para Primavera de 1901.",
                "Faltan aún: Austria, Inglaterra, Alemania, Italia, Rusia, Turquía"]),
        ("fr", ["France : 2 ordres enregistrés pour Printemps 1901.",
                "Toujours en attente de : Autriche, Angleterre, Allemagne, Italie, Russie, "
                "Turquie"]),
        ("pt", ["França: 2 ordens registradas para Primavera de 1901.",
                "Ainda aguardando: Áustria, Inglaterra, Alemanha, Itália, Rússia, Turquia"]),
    ],
)  # fmt: skip
def test_a_new_game_and_its_first_orders(tmp_path: Path, language: str, lines: list[str]) -> None:
    game = str(tmp_path / "g.json")
    code, out = run("new", game, "--players", "ann,bob,cy", "--seed", "7", "--language", language)
    words = {
        "es": ("una partida nueva en", "  ann: Francia, Turquía", "Reloj: diplomacia 30 min"),
        "fr": ("une nouvelle partie dans", "  ann: France, Turquie", "Horloge : diplomatie 30"),
        "pt": ("uma partida nova em", "  ann: França, Turquia", "Relógio: diplomacia 30 min"),
    }[language]
    assert code == 0 and all(w in out for w in words), out
    parsed = {"es": ["E Par - Bor", "E Mar - Esp"], "fr": ["A Par-Bou", "A Mar-Esp"],
              "pt": ["E Par - Bor", "E Mar - Esp"]}[language]  # fmt: skip
    code, out = run("orders", game, "FRANCE", *parsed, "--language", language)
    assert code == 0 and out.splitlines() == lines
    code, out = run("orders", game, "FRANCE", "--list", "--language", language)
    assert out.splitlines()[0] == lines[0].split(" ")[0].rstrip(":") + ", " + {
        "es": "Primavera de 1901:", "fr": "Printemps 1901:", "pt": "Primavera de 1901:"
    }[language]  # fmt: skip


@pytest.mark.parametrize(
    ("language", "vote", "over"),
    [
        ("es", "Turquía vota a favor de las tablas.",
         "Partida terminada · Tablas: Austria, Inglaterra, Francia, Alemania, Italia, Rusia, "
         "Turquía"),
        ("fr", "Turquie vote pour la partie nulle.",
         "Partie terminée · Partie nulle : Autriche, Angleterre, France, Allemagne, Italie, "
         "Russie, Turquie"),
        ("pt", "Turquia vota a favor do empate.",
         "Fim de jogo · Empate: Áustria, Inglaterra, França, Alemanha, Itália, Rússia, Turquia"),
    ],
)  # fmt: skip
def test_a_draw_in_the_tables_language(tmp_path: Path, language: str, vote: str, over: str) -> None:
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    code, out = run("draw", game, "AUSTRIA", "--language", language)
    assert "AUSTRIA" not in out and "ENGLAND" not in out, out
    for power in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        code, out = run("draw", game, power, "--language", language)
    assert code == 0 and out.splitlines() == [vote, over]
    for command in (["show"], ["history"], ["legal", "FRANCE"]):
        code, out = run(command[0], game, *command[1:], "--language", language)
        assert out.splitlines()[-1] == over, command


def test_conquista_in_spanish(tmp_path: Path) -> None:
    """The Argentine edition: a player who leaves, an alliance formed, a conceding power."""
    game = str(tmp_path / "g.json")
    run("new", game, "--edition", "conquista", "--seed", "1", "--no-clock")
    code, out = run("disorder", game, "ITALY", "--language", "es")
    assert out == (
        "El jugador de Italia se va: La Conquista no tiene desorden civil: sus unidades se "
        "mantienen sin órdenes y sus refuerzos quedan pendientes (nadie los coloca mientras "
        "su jugador no está).\n"
    )
    code, out = run("disorder", game, "ITALY", "--off", "--language", "pt")
    assert out == "O jogador da Itália volta.\n"
    run("orders", game, "FRANCE", "A PAR H", "--ally", "ENGLAND")
    run("orders", game, "ENGLAND", "A LVP H", "--ally", "FRANCE")
    code, out = run("orders", game, "ENGLAND", "--list", "--language", "es")
    assert out.endswith("  declara una alianza: Inglaterra+Francia\n")
    code, out = run("process", game, "--language", "es")
    assert "  * Alianza formada: Inglaterra + Francia\n" in out
    code, out = run("show", game, "--language", "es")
    assert "Alianzas: Inglaterra+Francia (formada en Primavera de 1914)\n" in out
    code, out = run("concede", game, "Rusia", "--language", "fr")
    assert code == 0 and out.startswith("Russie abandonne : La Conquista n'a pas de désordre")


def test_the_game_files_commands_in_portuguese(tmp_path: Path) -> None:
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1", "--no-clock")
    run("process", game)
    code, out = run("history", game, "--language", "pt")
    assert out.splitlines() == [
        "=== Primavera de 1901 (S1901M) ===",
        "  (todas as unidades permanecem)",
        "  * Desordem civil (sem ordens): Áustria, Inglaterra, França, Alemanha, Itália, "
        "Rússia, Turquia",
    ]
    fork = str(tmp_path / "fork.json")
    code, out = run("rollback", game, "S1901M", fork, "--language", "pt")
    assert out == f"{fork}: a partida como estava em Primavera de 1901 (S1901M)\n"
    code, out = run("history", fork, "--language", "fr")
    assert out == "Aucune phase n'a encore été jouée.\n"
    mila = str(tmp_path / "mila.json")
    code, out = run("mila-export", game, mila, "--language", "es")
    assert out == f"{mila}: 2 fases en el formato MILA, hasta Otoño de 1901 (F1901M)\n"
    code, out = run("mila-import", mila, str(tmp_path / "back.json"), "--language", "fr")
    assert code == 0 and "1 phase rejouée, maintenant en Automne 1901 (F1901M)" in out


@pytest.mark.parametrize(
    "command", ["process", "show", "history", "orders FRANCE --list", "legal FRANCE"]
)
def test_english_is_the_default(tmp_path: Path, command: str) -> None:
    """``--language en`` prints what the command prints without it (the README's session)."""
    game = _germany_attacks_burgundy(tmp_path)
    copy = tmp_path / "copy.json"
    copy.write_bytes(Path(game).read_bytes())
    argv = command.split()
    assert run(argv[0], game, *argv[1:]) == run(argv[0], str(copy), *argv[1:], "--language", "en")


def test_every_sentence_in_the_four_languages() -> None:
    """Each key of ``data/moderator.json`` in en, es, fr and pt; a template names only words
    the page has in that language (``{web[units]}``)."""
    texts = sentences()
    assert sorted(texts) == sorted(LANGUAGES)
    web = read_json("web", "i18n.json")
    for language, table in texts.items():
        assert table.keys() == texts["en"].keys(), language
        for key, text in table.items():
            fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
            named = {m.group(1) for f in fields if (m := re.fullmatch(r"web\[(\w+)\]", f))}
            assert named <= web[language].keys(), (language, key)


# Two orders for France in each language, and what 0, 1 and 2 of them are said to be.
PLURALS = {
    "en": (["A PAR - BUR", "A MAR H"],
           ["0 orders recorded", "1 order recorded", "2 orders recorded"]),
    "es": (["E Par-Bor", "E Mar M"],
           ["0 órdenes registradas", "1 orden registrada", "2 órdenes registradas"]),
    "fr": (["A Par-Bur", "A Mar (H)"],
           ["0 ordre enregistré", "1 ordre enregistré", "2 ordres enregistrés"]),
    "pt": (["E de Par. para Bur.", "E de Mar. permanece"],
           ["0 ordem registrada", "1 ordem registrada", "2 ordens registradas"]),
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(PLURALS))
def test_a_count_takes_its_plural_in_each_language(tmp_path: Path, language: str) -> None:
    """ "2 orden(es) registrada(s)" read as a form, not a sentence: each count is written in
    the singular or the plural its language gives it (French and Portuguese: 0 singular)."""
    orders, expected = PLURALS[language]
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    said = []
    for count in range(3):
        _, out = run("orders", game, "FRANCE", *(orders[:count] or [""]), "--language", language)
        said.append(next((e for e in expected if e in out), out))
    assert said == expected


def test_conquista_s_reinforcements_are_said_with_its_book_s_verb(tmp_path: Path) -> None:
    """La Conquista's reinforcements come "para la incorporación de nuevas fuerzas": the
    moderator says 'Francia incorpora 1', not that it builds (its verb in each language)."""
    from realpolitik.formats.savegame import game_to_json
    from realpolitik.game import Game
    from tests.gamekit import at

    data = {
        "units": {"FRANCE": ["A BEL"], "ENGLAND": ["A LVP"]},
        "centers": {"FRANCE": ["BEL", "PAR", "BRE", "MAR"], "ENGLAND": ["LON", "LVP", "EDI"]},
    }
    game = at(Game.new(edition="conquista", seed=1), "S1915A", data)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_to_json(game)))
    said = {"es": "Francia incorpora 1", "pt": "França incorpora 1", "en": "FRANCE brings in 1"}
    for language, line in said.items():
        code, out = run("show", str(path), "--language", language)
        assert code == 0 and f"  {line}\n" in out, out


def test_a_unit_dislodged_without_an_order_is_said_and_its_retreats_are_due(
    tmp_path: Path,
) -> None:
    """A unit that had no order and was dislodged is in the phase's printout (it was hidden
    among "the other units hold"), and the retreat phase that follows names the units that
    must retreat and where they may go, as an adjustment phase names the builds due."""
    game = germany_attacks_burgundy(tmp_path)
    run("orders", game, "FRANCE", "F BRE H")  # nothing for the army in Burgundy
    code, out = run("process", game)
    assert code == 0
    assert "  FRANCE   A BUR H                    dislodged (no order)\n" in out
    assert out.split("Now: Fall 1901 retreats (F1901R)\n")[1].startswith(
        "  FRANCE   dislodged: A BUR (retreats: BEL, GAS, MAR, PAR, PIC)\n"
    )
    code, out = run("history", game, "--language", "es", "--phase", "F1901M")
    assert "  Francia     E Bor M                    desalojada (sin orden)\n" in out
    code, out = run("show", game)
    assert out.count("dislodged: A BUR") == 1


def test_the_results_stand_in_one_column_however_long_the_orders(tmp_path: Path) -> None:
    """Portuguese orders run longer than the column kept for them ("E de Mun. apoia E do
    Ruh. para Bur."): the results stay in one column, apart from every order (they ran on
    after the long ones, "... para Bur. apoio dado", and out of line with the others)."""
    game = _germany_attacks_burgundy(tmp_path)
    code, out = run("process", game, "--language", "pt")
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("  ") and "(" not in line]
    orders = [line for line in lines if line.split()[0] in ("França", "Alemanha")]
    assert len(orders) == 3
    column = {len(line) - len(line.split("  ")[-1]) for line in orders}
    assert len(column) == 1, orders
    assert {line.split("  ")[-1].strip() for line in orders} == {
        "deslocada", "realizado", "apoio dado"
    }  # fmt: skip
