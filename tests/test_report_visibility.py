"""The check that a plot shows every series its legend names
(``seekplan.report.visibility``): it must catch a series drawn exactly
under another and let through series that only touch or cross."""

from __future__ import annotations

from matplotlib.figure import Figure

from seekplan.report.visibility import hidden_series


def _axes() -> tuple[Figure, object]:
    fig = Figure(figsize=(4, 3))
    return fig, fig.add_subplot(1, 1, 1)


def test_two_identical_lines_are_both_hidden():
    # Either can go without changing the picture: the reader cannot tell
    # which series the one line shown is.
    fig, ax = _axes()
    ax.plot([0, 1, 2], [1, 2, 3], color="C0", ls="-", label="a")
    ax.plot([0, 1, 2], [1, 2, 3], color="C0", ls="-", label="b")
    ax.legend()
    assert hidden_series(fig) == ["a", "b"]


def test_crossing_and_dashed_coincident_lines_are_shown():
    fig, ax = _axes()
    ax.plot([0, 1, 2], [1, 2, 3], color="C0", ls="-", label="solid")
    ax.plot([0, 1, 2], [1, 2, 3], color="C1", ls="--", label="dashed on it")
    ax.plot([0, 1, 2], [3, 2, 1], color="C2", label="crossing")
    ax.legend()
    assert hidden_series(fig) == []


def test_bars_behind_taller_bars_and_points_off_the_axes_are_hidden():
    fig, ax = _axes()
    ax.set_title("panel")
    ax.bar([0, 1], [5, 5], color="C0", label="tall")
    ax.bar([0, 1], [2, 2], color="C0", label="short", zorder=0)
    ax.plot([10], [10], "o", label="outside")
    ax.set_xlim(-1, 2)
    ax.set_ylim(0, 6)
    ax.legend()
    assert sorted(hidden_series(fig)) == ["panel: outside", "panel: short"]


def test_each_panel_is_judged_alone_and_the_figure_is_left_as_it_was():
    fig = Figure(figsize=(6, 3))
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    left.plot([0, 1], [0, 1], label="left")
    right.plot([0, 1], [0, 1], label="right")
    right.plot([0, 1], [0, 1], color="C0", label="under")
    left.legend()
    right.legend()
    dpi = fig.get_dpi()
    assert hidden_series(fig) == ["under"]
    assert fig.get_dpi() == dpi and left.get_visible() and right.get_visible()
