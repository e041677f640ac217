"""Every command the README and docs/ show runs as written from the
repository root (issue 38): the ```sh blocks are read from the Markdown, so
a renamed option or a missing example file fails here, not for a newcomer.

How each line is run:
- a ``seekplan`` line runs in-process (the CLI as installed) in a scratch
  directory holding ``examples/`` (so outputs land there), and must exit 0;
- a block with a background job (a line ending in ``&``: the service) runs
  as one bash script with ``seekplan`` on PATH and a free port in place of
  the one written, and must exit 0;
- lines in NOT_RUN are only parsed (every option and argument must be
  accepted, every ``examples/`` file must exist), each for the reason given;
- ```python blocks that start with an import run in the scratch directory.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import typer
from serve_support import free_port

from seekplan.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)

# Command prefixes that are parsed but not run, and why.
NOT_RUN = {
    "./dev": "the set-up and test suite themselves (CI runs ./dev test)",
    "cta-admin": "CTA's own tool, run at a CTA site",
    "seekplan serve": "a service in the foreground (the README's background run is run)",
    "seekplan ltfs": "needs a mounted LTFS volume (tests/test_ltfs_copy.py covers it)",
    "seekplan reproduce sandsta": "minutes of CPU (tests/test_reproduce_sandsta.py runs it small)",
    "seekplan reproduce bluewaters": "tens of seconds (tests/test_archive.py runs it small)",
    "seekplan reproduce balafoutis": "tens of seconds (tests/test_media.py runs it small)",
    "seekplan reproduce johnson-miller": "tens of seconds (tests/test_johnson_miller.py)",
}


@dataclass(frozen=True)
class Block:
    """One fenced code block: its page, first line (1-based) and text."""

    page: Path
    line: int
    lang: str
    text: str

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(lang: str) -> list[Block]:
    found = []
    for page in PAGES:
        text = page.read_text()
        for m in FENCE.finditer(text):
            if m.group(1) == lang:
                line = text.count("\n", 0, m.start()) + 2
                found.append(Block(page, line, lang, m.group(2)))
    return found


def command_lines(block: Block) -> list[str]:
    """The block's commands: continuation lines joined, comments dropped."""
    joined = block.text.replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            out.append(shlex.join(words))
    return out


def not_run_reason(command: str) -> str | None:
    return next((why for prefix, why in NOT_RUN.items() if command.startswith(prefix)), None)


SH_BLOCKS = blocks("sh")


def test_the_pages_have_command_blocks():
    # The README's first lines are the set-up commands; a page rewritten
    # into another fence would silently drop out of this test.
    assert len(SH_BLOCKS) >= 12
    assert any("./dev demo" in b.text for b in SH_BLOCKS if b.page.name == "README.md")


def parse_only(args: list[str]) -> None:
    """Parses ``seekplan ARGS`` as the CLI would, without running it."""
    command: click.Command = typer.main.get_command(app)
    ctx = command.make_context("seekplan", list(args))
    while isinstance(command, click.Group):
        rest = [*ctx._protected_args, *ctx.args]
        name, sub, rest = command.resolve_command(ctx, rest)
        assert sub is not None and name is not None
        command = sub
        ctx = command.make_context(name, rest, parent=ctx)


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A directory that looks like the repository root to a command."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _is_script(block: Block) -> bool:
    return any(line.rstrip().endswith("&") for line in block.text.splitlines())


@pytest.mark.parametrize("block", [b for b in SH_BLOCKS if not _is_script(b)], ids=str)
def test_command_block_runs_as_written(block, scratch, cli):
    for command in command_lines(block):
        words = shlex.split(command)
        for word in words:
            if word.startswith("examples/"):
                assert (ROOT / word).exists(), f"{block}: {command}: {word} is not shipped"
        if not_run_reason(command) is not None:
            if words[0] == "seekplan":
                parse_only(words[1:])
            elif words[0] == "./dev":
                assert (ROOT / "dev").exists()
            continue
        assert words[0] == "seekplan", f"{block}: {command}: only seekplan lines run here"
        r = cli(*words[1:])
        assert r.exit_code == 0, f"{block}: {command}\n{r.output}"


@pytest.mark.parametrize("block", [b for b in SH_BLOCKS if _is_script(b)], ids=str)
def test_service_block_runs_as_written(block, scratch):
    for name in ("curl", "bash"):
        if shutil.which(name) is None:
            from system_packages import ensure_debian_packages

            ensure_debian_packages([name], f"{block}")
    port = free_port()
    script = re.sub(r"\b8080\b", str(port), block.text)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", f"trap 'kill $(jobs -p) 2>/dev/null' EXIT\n{script}"],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, f"{block}\n{run.stdout}\n{run.stderr}"
    assert '"completedAt"' in run.stdout or '"files"' in run.stdout, run.stdout


@pytest.mark.parametrize(
    "block", [b for b in blocks("python") if b.text.startswith(("import", "from"))], ids=str
)
def test_python_block_runs_as_written(block, scratch, capsys):
    exec(compile(block.text, str(block), "exec"), {"__name__": "__doc_example__"})


def test_generated_examples_are_what_the_generator_writes(tmp_path):
    # The examples are data a newcomer runs; they must come from the
    # script beside them (seeded), not from an edit nobody can repeat.
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "generate.py"), str(tmp_path)], check=True
    )
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert written
    for rel in written:
        assert (tmp_path / rel).read_bytes() == (ROOT / "examples" / rel).read_bytes(), rel
