"""Config files that are hostile by size: alias bombs and huge values."""

from __future__ import annotations

import pytest

from seekplan.config import MAX_QUOTED_CHARS, load_yaml, quote
from seekplan.errors import SeekplanError

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)


def test_an_alias_bomb_is_refused_quickly(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    assert len(BOMB) < 500
    with pytest.raises(SeekplanError, match="aliases are expanded"):
        load_yaml(path)


def test_a_few_aliases_are_fine(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("base: &b {drives: 4}\nlibrary: *b\n")
    assert load_yaml(path) == {"base": {"drives": 4}, "library": {"drives": 4}}


@pytest.mark.parametrize("command", ["recall", "archive", "media"])
def test_every_simulator_refuses_a_bomb_with_exit_2(cli, tmp_path, command):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    r = cli("simulate", command, path, "--out", tmp_path / "out")
    assert r.exit_code == 2, r.output
    assert "aliases" in r.output and len(r.output) < 2_000


def test_quoted_values_are_cut_short():
    assert quote(5) == "5"
    long = quote("x" * 10_000)
    assert len(long) < MAX_QUOTED_CHARS + 40 and "10,002 characters" in long
