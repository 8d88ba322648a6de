"""Rule choices as data: presets, overrides and validation."""

from __future__ import annotations

import pytest

from realpolitik.rules import ISSUES, PRESETS, Rules, rules_for


def test_presets() -> None:
    assert set(PRESETS) == {"datc", "classic", "1971", "grow", "conquista"}
    assert rules_for("datc") == Rules(name="datc")
    classic = rules_for("classic")
    differ = {i for i, c in classic.choices().items() if c != Rules().choice(i)}
    assert differ == {"4.A.2", "4.A.3", "4.A.5", "4.D.8"}
    assert classic.choice("4.A.2") == "c" and classic.choice("4.D.8") == "b"
    old = rules_for("1971")
    assert {i for i, c in old.choices().items() if c != Rules().choice(i)} == {
        "4.A.1", "4.A.2", "4.A.3", "4.A.5", "4.D.8"
    }  # fmt: skip
    assert rules_for("grow").choices() == classic.choices()
    assert rules_for("conquista").choices() == {**classic.choices(), "4.A.1": "a"}


def test_every_issue_is_an_option() -> None:
    ids = [issue.id for issue in ISSUES]
    assert len(ids) == len(set(ids))
    assert {"4.A.1", "4.A.2", "4.A.3", "4.A.4", "4.A.5", "4.A.6", "4.A.7", "4.B.4", "4.D.8"} <= set(
        ids
    )
    for issue in ISSUES:
        for choice in issue.choices:
            assert Rules().with_choice(issue.id, choice).choice(issue.id) == choice


def test_overrides_and_errors() -> None:
    assert rules_for("classic").with_choice("4.D.8", "c").choice("4.D.8") == "c"
    assert rules_for("classic", convoy_paradox="f").choice("4.A.2") == "f"
    with pytest.raises(ValueError, match="unknown rules"):
        rules_for("diplomacy2")
    with pytest.raises(ValueError, match=r"4\.A\.2.*'z'"):
        Rules(convoy_paradox="z")  # type: ignore[arg-type]  # a letter from outside, checked
    with pytest.raises(ValueError, match=r"unknown rule issue"):
        Rules().with_choice("4.Z.9", "a")
    with pytest.raises(ValueError, match="unknown rule option"):
        rules_for("datc", nonsense="a")
