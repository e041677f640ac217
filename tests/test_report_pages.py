"""Every kind of report, opened in a real browser (Chromium, issue 38): the
page fits its width (wide tables scroll inside themselves), every plot
loads with a paragraph above it saying what it shows, no table shows a raw
nan or an exponent, a screenshot is not blank, and every series a legend
names shows in the plot's picture (``seekplan.report.visibility``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from system_packages import chromium_path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
WIDTH = 1000


def _reports(cli, root: Path) -> dict[str, Path]:
    """One report of each kind, made by the CLI from the shipped examples."""
    study = root / "study.yaml"
    study.write_text("algorithms: [sptf, clust-req]\nlambdas: [10, 30]\nruns: 1\nrounds: 200\n")
    runs = {
        "recall": ("simulate", "recall", EXAMPLES / "recall.yaml"),
        "archive": ("simulate", "archive", EXAMPLES / "archive.yaml"),
        "media": ("simulate", "media", study, "--workers", "1"),
        "demo": ("demo",),
        "dcache": ("reproduce", "dcache", "--quick", "--workers", "1"),
        # Its Table 4 made the page 1,511 px wide before tables scrolled.
        "johnson-miller": ("reproduce", "johnson-miller", "--quick", "--workers", "1"),
        "mounts": (
            "simulate",
            "mounts",
            "--trace",
            EXAMPLES / "mounts-trace.csv",
            "--drives",
            "8",
            "--sweep",
            "dismount_delay=0,300",
            "--policy",
            "lru,belady",
            "--workers",
            "1",
        ),
    }
    out = {}
    for name, args in runs.items():
        r = cli(*args, "--out", root / name)
        assert r.exit_code == 0, f"{name}: {r.output}"
        out[name] = root / name / "report.html"
    return out


def test_every_report_fits_the_page_and_shows_its_plots(cli, tmp_path, monkeypatch):
    from PIL import Image
    from playwright.sync_api import sync_playwright

    from seekplan.report.html import Report
    from seekplan.report.visibility import hidden_series

    executable = chromium_path()
    drawn: list[tuple[str, str, list[str]]] = []
    embed = Report.figure

    def figure_checked(self: Report, fig: Any, name: str, caption: str = "") -> None:
        drawn.append((self.title, name, hidden_series(fig)))
        embed(self, fig, name, caption)

    monkeypatch.setattr(Report, "figure", figure_checked)
    reports = _reports(cli, tmp_path)
    hidden = [d for d in drawn if d[2]]
    assert not hidden, f"series a legend names but the plot does not show: {hidden}"
    assert len(drawn) >= 10, drawn
    checked = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": WIDTH, "height": 800})
        for name, path in reports.items():
            page.goto(path.as_uri())
            facts = page.evaluate(
                """() => ({
                    scroll: document.documentElement.scrollWidth,
                    images: [...document.images].map(i => i.naturalWidth),
                    told: [...document.images].map(
                        i => (i.closest('figure').previousElementSibling || {}).tagName),
                    cells: [...document.querySelectorAll('td')].map(td => td.innerText),
                })"""
            )
            shot = tmp_path / f"{name}.png"
            page.screenshot(path=str(shot), full_page=True)
            checked[name] = facts
            assert facts["scroll"] <= WIDTH, f"{name}: the page is {facts['scroll']} px wide"
            assert all(w > 0 for w in facts["images"]), f"{name}: a plot did not load"
            untold = [k for k, tag in enumerate(facts["told"]) if tag != "P"]
            assert not untold, f"{name}: plots {untold} have no paragraph saying what they show"
            bad = [c for c in facts["cells"] if c.strip() == "nan" or re.search(r"\de-\d", c)]
            assert not bad, f"{name}: cells {bad[:5]}"
            colours = Image.open(shot).convert("L").getextrema()
            assert colours[0] < 128 < colours[1], f"{name}: blank screenshot"
        browser.close()
    assert checked["recall"]["images"] and checked["media"]["images"], json.dumps(checked)[:300]
