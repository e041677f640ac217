"""A self-contained HTML report: headings, text, tables and embedded plots."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib
from cycler import cycler

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

from seekplan.text import number  # noqa: E402

# One style for every report's plots: each series gets a colour and a dash
# pattern of its own, so a series lying on another (two strategies with the
# same busy drives) still shows through its gaps.
matplotlib.rcParams["axes.prop_cycle"] = cycler(
    color=["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"],
    linestyle=["-", (0, (5, 2)), (0, (1, 1.5)), (0, (5, 2, 1, 2)), (0, (8, 3)), "-",
               (0, (5, 2)), (0, (1, 1.5)), (0, (5, 2, 1, 2)), (0, (8, 3))],
)  # fmt: skip

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}
table{display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:right;vertical-align:top}
th{background:#f3f3f3} td:first-child,th:first-child{text-align:left}
td.prose{text-align:left;min-width:16em}
.holds{color:#1a7f37;font-weight:bold} .fails{color:#b42318;font-weight:bold}
code,pre{background:#f6f6f6;padding:0.1em 0.3em} img{max-width:100%}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
"""


def _cell(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return number(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return html.escape(str(v))


def _from_zero(fig: Figure) -> None:
    """Linear y axes of positive data start at zero, so a ratio read off the
    plot is the ratio of the heights."""
    for ax in fig.axes:
        if ax.get_yscale() == "linear":
            lo, hi = ax.get_ylim()
            if 0 < lo < hi:
                ax.set_ylim(bottom=0)


class Report:
    """Collects sections and writes one HTML file; plots are also saved as PNG."""

    def __init__(self, title: str, out_dir: str | Path) -> None:
        self.title = title
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._parts: list[str] = [f"<h1>{html.escape(title)}</h1>"]

    def heading(self, text: str) -> None:
        """A section heading."""
        self._parts.append(f"<h2>{html.escape(text)}</h2>")

    def text(self, text: str) -> None:
        """A paragraph of plain text."""
        self._parts.append(f"<p>{html.escape(text)}</p>")

    def code(self, text: str) -> None:
        """A preformatted block (commands, configs)."""
        self._parts.append(f"<pre>{html.escape(text)}</pre>")

    def table(self, rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> None:
        """A table of rows (dicts); columns default to the first row's keys."""
        if not rows:
            return
        cols = list(columns or rows[0].keys())
        head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
        body = "".join(
            "<tr>" + "".join(f"<td>{_cell(r.get(c, ''))}</td>" for c in cols) + "</tr>"
            for r in rows
        )
        self._parts.append(f"<table><tr>{head}</tr>{body}</table>")

    def claims(self, claims: Sequence[dict[str, Any]]) -> None:
        """The paper's findings, each marked holds / does not hold with evidence."""
        rows = []
        for c in claims:
            mark = "holds" if c["holds"] else "does not hold"
            css = "holds" if c["holds"] else "fails"
            rows.append(
                f"<tr><td>{html.escape(c['id'])}</td><td class='prose'>{html.escape(c['text'])}"
                f"</td><td class='{css}'>{mark}</td>"
                f"<td class='prose'>{html.escape(c['evidence'])}</td></tr>"
            )
        self._parts.append(
            "<table><tr><th>id</th><th>claim</th><th>result</th><th>evidence</th></tr>"
            + "".join(rows)
            + "</table>"
        )

    def figure(self, fig: Figure, name: str, caption: str = "") -> None:
        """Embeds a matplotlib figure and saves it as NAME.png beside the
        report; linear y axes of positive data start at zero, and a caption
        that only repeats a panel's title is left out."""
        _from_zero(fig)
        if caption and caption.strip() in {ax.get_title().strip() for ax in fig.axes}:
            caption = ""
        fig.savefig(self.out_dir / f"{name}.png", dpi=110, bbox_inches="tight")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
        data = base64.b64encode(buf.getvalue()).decode()
        cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        self._parts.append(
            f"<figure><img alt='{name}' src='data:image/png;base64,{data}'>{cap}</figure>"
        )

    def write(self, name: str = "report.html") -> Path:
        """Writes the page and returns its path."""
        path = self.out_dir / name
        page = (
            f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}"
            f"</title><style>{_STYLE}</style></head><body>{''.join(self._parts)}</body></html>"
        )
        path.write_text(page)
        return path
