"""The package builds cleanly: a newcomer's first ``make run`` builds it, and the build
backend's deprecation warnings (screenfuls of them) were its first impression."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_builds_without_deprecation_warnings(tmp_path: Path) -> None:
    tree = tmp_path / "tree"  # a copy: the build leaves build/ and *.egg-info behind
    tree.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", tree / "src", ignore=skip)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "out")]
    run = subprocess.run([*command, str(tree)], capture_output=True, text=True, timeout=600)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said[-3000:]
    assert "BuildBackendWarning" not in said and "deprecated" not in said.lower(), said[-3000:]
    assert list((tmp_path / "out").glob("realpolitik-*.whl"))
