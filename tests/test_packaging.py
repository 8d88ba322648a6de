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


def test_the_version_is_written_once(tmp_path: Path) -> None:
    """``realpolitik.__version__`` is the version: the package's metadata reads it (a
    dynamic field) and the web API reports it (the review found it written in 3 places)."""
    import tomllib

    import realpolitik
    from realpolitik.server.app import create_app
    from realpolitik.server.settings import Settings

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "realpolitik.__version__"}
    database = f"sqlite:///{tmp_path / 'version.sqlite3'}"
    app = create_app(Settings(database_url=database, scheduler=False))
    assert app.version == realpolitik.__version__
    server = (ROOT / "src" / "realpolitik" / "server" / "app.py").read_text(encoding="utf-8")
    assert realpolitik.__version__ not in server


def test_the_dev_extra_names_the_other_extras_instead_of_copying_them() -> None:
    """What CI installs (``dev``) is the extras the tests need plus the tools; a
    dependency of an extra is written once, in that extra."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    dev = extras["dev"]
    assert dev[0] == "realpolitik[server,render,env,ray]"
    copied = {d for name in ("server", "render", "env", "ray") for d in extras[name]} & set(dev)
    assert copied == set()


def test_the_package_docstring_runs_as_typed_in_a_fresh_interpreter() -> None:
    """``help(realpolitik)``'s examples import what they use (pytest's doctests run them
    in the module's namespace, where ``legal_orders`` was there without an import)."""
    import doctest

    import realpolitik

    test = doctest.DocTestParser().get_doctest(realpolitik.__doc__ or "", {}, "help", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test, out=lambda text: None)
    assert test.examples and runner.summarize(verbose=False).failed == 0
