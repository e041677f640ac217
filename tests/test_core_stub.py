"""The type stub of the compiled core declares every name it exports, and
no name it does not (so type checkers and readers see the real surface)."""

from __future__ import annotations

import ast
from pathlib import Path

from seekplan import _core

STUB = Path(_core.__file__).parent / "_core.pyi"


def _declared() -> dict[str, ast.AST]:
    tree = ast.parse(STUB.read_text())
    named = {
        node.name: node for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)
    }
    constants = {
        node.target.id: node
        for node in tree.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    return named | constants


def test_every_export_is_declared_and_nothing_else():
    exported = {n for n in dir(_core) if not n.startswith("_")}
    assert set(_declared()) == exported


def test_declared_parameters_match_the_extension_signatures():
    declared = _declared()
    for name, node in declared.items():
        if not isinstance(node, ast.FunctionDef):
            continue
        signature = getattr(getattr(_core, name), "__text_signature__", None)
        assert signature, name
        real = [
            p.strip().split("=")[0].lstrip("*")
            for p in signature.strip("()").split(",")
            if p.strip() and p.strip() not in ("/", "*", "$module")
        ]
        assert [a.arg for a in node.args.args] == real, name


def test_benchmarks_refuse_a_test_build():
    import pytest

    from seekplan.build import debug_assertions, require_release_build

    # ./dev test's ci build checks debug assertions; a release build does not.
    if debug_assertions():
        with pytest.raises(SystemExit, match="release build"):
            require_release_build()
    else:
        assert require_release_build() is None


def test_both_build_kinds_are_told_apart(monkeypatch):
    # Whichever build this run has, the other branch is reached too.
    import pytest

    from seekplan import _core
    from seekplan.build import require_release_build

    monkeypatch.setattr(_core, "DEBUG_ASSERTIONS", True)
    with pytest.raises(SystemExit, match="run ./dev demo"):
        require_release_build()
    monkeypatch.setattr(_core, "DEBUG_ASSERTIONS", False)
    assert require_release_build() is None
