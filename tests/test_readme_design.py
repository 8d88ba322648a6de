"""The README's design section ("where each rule lives" and one order from text to
result) names only what exists: every file it names is in the package, every function,
class or method it names is defined there (a rename that leaves the README behind fails
here). Read from the source (an AST walk); the walk-through's example runs as a doctest."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

from tests.test_imports import SRC, _modules

README = SRC.parent / "README.md"
PACKAGE = SRC / "realpolitik"


def _design_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Design: where each rule lives")
    return text[start : text.index("\n## ", start + 1)]


def _named() -> list[str]:
    """What the section names in code spans, outside its examples."""
    prose = re.sub(r"```.*?```", "", _design_section(), flags=re.S)
    return re.findall(r"`([^`]+)`", prose)


def _defined() -> set[str]:
    """Every name the package defines: functions, classes, methods, module-level names."""
    found: set[str] = set()
    for path in _modules(SRC).values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                found.add(node.target.id)
    return found


def _file(name: str) -> Path | None:
    """The package's file a span names (``game/calendar.py``, or ``legality.py`` alone
    where the table's row has named its package), or None."""
    exact = PACKAGE / name
    if exact.exists():
        return exact
    matches = [p for p in PACKAGE.rglob(Path(name).name) if p.as_posix().endswith(name)]
    return matches[0] if len(matches) == 1 else None


def test_the_design_section_names_files_that_exist() -> None:
    files = [n for n in _named() if re.fullmatch(r"[\w/]+\.(py|json)", n)]
    assert len(files) >= 10
    assert [n for n in files if _file(n) is None] == []


def test_the_design_section_names_functions_that_exist() -> None:
    defined = _defined()
    # a code span naming code: `name`, `a.b`, `a.b(...)`, `name`'s
    names = [
        re.split(r"[(\[]", n)[0]
        for n in _named()
        if re.fullmatch(r"[A-Za-z_][\w.]*(\(.*\))?", n) and not n.endswith(".py")
    ]
    parts = {part for n in names for part in n.split(".")}
    modules = {Path(p).stem for p in _modules(SRC).values()} | {
        name.rsplit(".", 1)[-1] for name in _modules(SRC)
    }
    known = defined | modules | set(dir(builtins))
    missing = sorted(p for p in parts if p not in known)
    assert len(names) >= 30
    assert missing == []
