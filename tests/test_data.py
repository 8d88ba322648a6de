"""The shipped files: every pattern ``pyproject.toml`` ships names files that
:mod:`realpolitik.data` finds, and each JSON one reads."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from realpolitik.data import PACKAGE, read_json, shipped

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _patterns() -> list[str]:
    with PYPROJECT.open("rb") as f:
        patterns: list[str] = tomllib.load(f)["tool"]["setuptools"]["package-data"]["realpolitik"]
    return patterns


@pytest.mark.parametrize("pattern", _patterns())
def test_each_shipped_pattern_names_files_found_beside_the_modules(pattern: str) -> None:
    directory, _, glob = pattern.rpartition("/")
    found = sorted(shipped(*directory.split("/")).glob(glob)) if directory else [shipped(glob)]
    assert found and all(path.is_file() for path in found), pattern
    for path in found:
        if path.suffix == ".json":
            data = read_json(*path.relative_to(PACKAGE).parts)
            assert isinstance(data, dict | list), path


def test_the_files_are_those_the_readers_use() -> None:
    assert read_json("data", "variants.json")["editions"]
    assert shipped("web").is_dir()
    assert shipped("notation", "lexicon", "en.json").is_file()


def test_a_missing_file_is_not_found() -> None:
    with pytest.raises(FileNotFoundError):
        read_json("maps", "data", "no_such_board.json")
