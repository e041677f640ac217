"""Which series a plot's legend names but its picture does not show.

A series is *shown* when hiding it changes the rendered picture: it is
drawn with the figure's own renderer twice, with and without the series,
and the pixels inside its axes are compared. A line lying exactly under
another one of the same colour and dash, bars under taller bars, or points
outside the axes' limits change nothing and are reported. The legend's own
sample of the series is a separate artist, so it does not count as showing
the series.
"""

from __future__ import annotations

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import Container
from matplotlib.figure import Figure

#: A pixel counts as changed when a channel moves by more than this (of 255).
#: Two identical anti-aliased lines make their shared edge pixels darker than
#: one does, by at most a quarter of the colour's distance from the
#: background (56 for the darkest of the report colours on white); a series
#: that shows differs by its whole colour distance.
CHANNEL_STEP = 64
#: A series is shown when at least this many pixels change at 90 dpi: a
#: single marker of the default size covers about 30.
MIN_PIXELS = 8


def _artists(handle: Artist | Container) -> list[Artist]:
    """The drawn artists behind one legend handle (a bar chart's patches, an
    error bar's lines, or the artist itself)."""
    if isinstance(handle, Container):
        return [a for a in handle.get_children() if isinstance(a, Artist)]
    return [handle]


def _render(canvas: FigureCanvasAgg) -> np.ndarray:
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].astype(np.int16)


def _legend_entries(ax: Axes) -> list[tuple[str, list[Artist]]]:
    """(label, artists) of every labelled series the axes' legend names."""
    handles, labels = ax.get_legend_handles_labels()
    return [(label, _artists(h)) for h, label in zip(handles, labels, strict=True)]


def _changed_pixels(before: np.ndarray, after: np.ndarray) -> int:
    return int((np.abs(before - after).max(axis=2) > CHANNEL_STEP).sum())


def hidden_series(fig: Figure, dpi: float = 90) -> list[str]:
    """The labels of series named in a legend whose pixels the picture
    does not show (``"AXES TITLE: label"`` where the axes has a title).
    Each axes is drawn alone (the others hidden), so a panel of many costs
    what one panel costs."""
    panels = [(ax, _legend_entries(ax)) for ax in fig.axes]
    panels = [(ax, entries) for ax, entries in panels if entries]
    if not panels:
        return []
    old_dpi, old_canvas = fig.get_dpi(), fig.canvas
    shown = [ax.get_visible() for ax in fig.axes]
    canvas = FigureCanvasAgg(fig)
    fig.set_dpi(dpi)
    hidden = []
    try:
        for ax, entries in panels:
            for other in fig.axes:
                other.set_visible(other is ax)
            full = _render(canvas)
            for label, artists in entries:
                was = [a.get_visible() for a in artists]
                for a in artists:
                    a.set_visible(False)
                without = _render(canvas)
                for a, v in zip(artists, was, strict=True):
                    a.set_visible(v)
                if _changed_pixels(full, without) < MIN_PIXELS:
                    title = ax.get_title()
                    hidden.append(f"{title}: {label}" if title else label)
        return hidden
    finally:
        for other, v in zip(fig.axes, shown, strict=True):
            other.set_visible(v)
        fig.set_dpi(old_dpi)
        fig.set_canvas(old_canvas)
