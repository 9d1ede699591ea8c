"""``--plot FILE.png``: win rate with its interval and the score distribution, per seat or per file.

matplotlib (extra ``cardgames[plot]``) is imported only here, only when a plot is asked for,
with the non-interactive Agg backend so no display is needed.

The figure has two panels:

* left: the win figures with their Wilson 95% intervals: ``won`` for solitaires, ``wins[s]``
  per seat for the others; one bar a file when several files are compared;
* right: the distribution of the headline score (``scores`` for multiplayer games, per seat
  for one file; ``cards_left`` for solitaires), as the fraction of games at each value.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from ..errors import CardgamesError
from ..files import target_problem, write_atomic
from .report import Run

_SCORE_FIGURES = ("scores", "cards_left", "moves")


def _win_figures(run: Run) -> list[str]:
    return [n for n in run.figures if n == "won" or n.startswith("wins[")]


def _score_series(runs: list[Run]) -> tuple[str, list[tuple[str, dict[Any, int]]]]:
    """The figure to draw and the histograms to draw for it, with their labels."""
    hists = runs[0].summary.hists
    name = next((n for n in _SCORE_FIGURES if n in hists), next(iter(sorted(hists)), None))
    if name is None:
        return "", []
    if len(runs) == 1:
        seats = sorted((n for n in hists if n.startswith(f"{name}[")), key=lambda n: int(n[len(name) + 1:-1]))
        if seats:
            return name, [(f"seat {n[len(name) + 1:-1]}", hists[n]) for n in seats]
        return name, [(runs[0].label, hists[name])]
    return name, [(run.label, run.summary.hists.get(name, {})) for run in runs]


#: The widest range of integer values drawn as a step line (a bin for every integer in it).
MAX_STEPS = 5000


def distribution(hist: dict[Any, int]) -> tuple[list[float], list[float], bool]:
    """A histogram's values and fractions of games, and whether to draw them as steps: integer
    values over a range of at most ``MAX_STEPS`` get a step for every integer, a value no game had
    at 0 (a line between the values seen would draw the gaps at their neighbours' heights);
    other values are drawn as points, for the same reason."""
    total = sum(hist.values()) or 1
    values = sorted(hist)
    if values and all(float(v).is_integer() for v in values) and values[-1] - values[0] <= MAX_STEPS:
        grid = range(int(values[0]), int(values[-1]) + 1)
        return [float(v) for v in grid], [hist.get(v, 0) / total for v in grid], True
    return [float(v) for v in values], [hist[v] / total for v in values], False


def image_format(path: str, keep: Sequence[str] = ()) -> str:
    """The image format ``path`` asks for: its extension, PNG without one. Checked before any game
    is played or any table printed, so that no work is wasted: a file name in a folder that
    exists and can be written, none of the files ``keep`` (the results read or written),
    matplotlib, a format it writes."""
    if not path:
        raise CardgamesError("--plot needs a file name")
    problem = target_problem(path)
    if problem is not None:
        raise CardgamesError(f"--plot {path}: {problem}")
    for other in keep:
        if os.path.realpath(other) == os.path.realpath(path) or (
                os.path.exists(path) and os.path.exists(other) and os.path.samefile(other, path)):
            raise CardgamesError(f"--plot {path}: that is also a results file; it would be overwritten")
    try:
        import matplotlib
    except ImportError:
        raise CardgamesError("--plot needs matplotlib: pip install 'cardgames[plot]'") from None
    matplotlib.use("Agg")
    from matplotlib.backend_bases import FigureCanvasBase

    known = FigureCanvasBase.get_supported_filetypes()
    fmt = Path(path).suffix[1:].lower() or "png"
    if fmt not in known:
        raise CardgamesError(f"--plot {path}: matplotlib cannot write {fmt!r} images (it writes "
                             f"{', '.join(sorted(known))})")
    return fmt


def plot(runs: list[Run], path: str) -> None:
    """Draw the runs' figure into ``path`` (format from its extension), written atomically."""
    import io

    fmt = image_format(path)
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    title = runs[0].header["game"] + (" (" + "+".join(runs[0].header["variants"]) + ")"
                                      if len(runs) == 1 and runs[0].header["variants"] else "")
    fig.suptitle(f"{title}: {', '.join(f'{run.summary.games:,}' for run in runs)} games")

    names = _win_figures(runs[0])
    width = 0.8 / len(runs)
    for index, run in enumerate(runs):
        rows = [run.figures.get(n) for n in names]
        xs = [i + (index - (len(runs) - 1) / 2) * width for i in range(len(names))]
        means = [r["mean"] if r else 0.0 for r in rows]
        errors = [[r["mean"] - r["ci_low"] if r else 0.0 for r in rows],
                  [r["ci_high"] - r["mean"] if r else 0.0 for r in rows]]
        left.bar(xs, means, width, yerr=errors, capsize=4, label=run.label)
    left.set_xticks(range(len(names)), names)
    left.set_ylabel("rate (Wilson 95% interval)")
    left.set_title("win rate" if names == ["won"] else "win share per seat")
    if len(runs) > 1:
        left.legend(fontsize="small")

    name, series = _score_series(runs)
    for label, hist in series:
        xs, fractions, stepped = distribution(hist)
        if stepped:
            right.step(xs, fractions, where="mid", label=label)
        else:
            right.plot(xs, fractions, ".", label=label)
    right.set_ylim(bottom=0)
    right.set_xlabel(name)
    right.set_ylabel("fraction of games")
    right.set_title(f"distribution of {name}" if name else "no numeric figure")
    if len(series) > 1:
        right.legend(fontsize="small")
    fig.tight_layout()
    image = io.BytesIO()
    try:
        fig.savefig(image, format=fmt, dpi=100)
    finally:
        plt.close(fig)
    write_atomic(path, image.getvalue())

