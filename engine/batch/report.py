"""Statistics as data for the CLI: JSON objects, table rows and CSV rows, and comparisons.

A *run* is one set of results (a batch, or one result file): its header, its game count and
its figures (:meth:`~.stats.Summary.figures`). With several runs, every run after the first
is compared with the first, figure by figure (:func:`~.compare.compare_figure`), seed by seed
where both hold the same seeds (:mod:`.paired`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import CardgamesError
from ..wording import counted
from .compare import ALPHA, compare_figure
from .paired import Pairs
from .results import describe_header, first_line_giving
from .stats import PERCENTILES, HiddenFigure, Summary

COLUMNS = ["figure", "n", "mean", "ci95_low", "ci95_high", "sd", "min",
           *(f"p{q}" for q in PERCENTILES), "max"]
_KEYS = {"ci95_low": "ci_low", "ci95_high": "ci_high"}
#: The size from which the text table writes a figure with an exponent (:func:`_cell`).
EXPONENT_FROM = 1e15
COMPARISON_COLUMNS = ["difference", "difference_ci95_low", "difference_ci95_high", "test", "statistic", "p_value",
                      "significant"]


@dataclass
class Run:
    """One run in a report (a result file, or the batch just played): its header and summary, and the figures
    the report prints of it."""

    file: str | None  # the result file, if any
    header: dict[str, Any]
    summary: Summary
    categories: frozenset[str] = frozenset()  # met in the runs it is compared with (see :func:`compared`)
    paired: Pairs | None = None  # seed-by-seed sums against the first run, when both hold the same seeds

    @property
    def label(self) -> str:
        return self.file or "batch"

    @cached_property
    def figures(self) -> dict[str, dict[str, Any]]:
        try:
            return self.summary.figures(self.header["players"], self.categories, self.header.get("first_seat"))
        except ValueError as exc:  # a hidden figure is named at its first record's line (an analyst audit's finding)
            line = first_line_giving(self.file, exc.name) if isinstance(exc, HiddenFigure) and self.file else None
            raise CardgamesError(f"{self.label}{'' if line is None else f':{line}'}: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "header": self.header, "games": self.summary.games, "figures": self.figures}


def compared(runs: list[Run]) -> list[Run]:
    """The runs, each told the categories the others met, so that a value one file never took
    shows and compares as a rate of 0 there rather than as a missing figure."""
    met = frozenset().union(*(run.summary.categories() for run in runs))
    return [Run(run.file, run.header, run.summary, met) for run in runs]


def comparisons(runs: list[Run]) -> list[dict[str, Any]]:
    """Each later run against the first, for every figure both have."""
    base = runs[0]
    out = []
    for other in runs[1:]:
        for name, figure in base.figures.items():
            if name in other.figures:
                test = compare_figure(figure, other.figures[name], other.paired and other.paired.test(name))
                if test is not None:
                    out.append({"figure": name, "file": other.label, "against": base.label, **test})
    return out


def figure_rows(run: Run) -> list[dict[str, Any]]:
    """One row per figure with the :data:`COLUMNS` (cells a figure lacks are absent)."""
    rows = []
    for name, figure in run.figures.items():
        row = {"figure": name}
        for column in COLUMNS[1:]:
            key = _KEYS.get(column, column)
            if key in figure:
                row[column] = figure[key]
        rows.append(row)
    return rows


#: The columns that say which experiment a CSV row is of, so that rows of many runs, joined into one sheet,
#: keep it (an analyst's finding: only a file name and a hash did).
RUN_COLUMNS = ["file", "game", "variants", "players", "agents", "config"]


def against_first(runs: list[Run]) -> list[list[dict[str, Any]]]:
    """Each later run's comparisons with the first (:func:`comparisons`), one list a run, in their order:
    computed once for the gates, the tables and the CSV."""
    return [comparisons([runs[0], run]) for run in runs[1:]]


def csv_rows(runs: list[Run], each: list[list[dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Long format: one row per (file, figure), each naming its experiment (:data:`RUN_COLUMNS`); later
    files carry their comparison with the first (``each``, :func:`against_first`)."""
    rows = []
    for run, tests in zip(runs, [[], *each], strict=True):
        header = run.header
        experiment = dict(zip(RUN_COLUMNS, (run.file or "",  # no file: a batch without --out
                                            header["game"], "+".join(header["variants"]), header["players"],
                                            ",".join(header["agents"]), _config(run)), strict=True))
        by_figure = {t["figure"]: t for t in tests}
        for row in figure_rows(run):
            extra = by_figure.get(row["figure"], {})
            rows.append({**experiment, **row, **{k: extra[k] for k in COMPARISON_COLUMNS if k in extra}})
    return rows, [*RUN_COLUMNS, *COLUMNS, *(COMPARISON_COLUMNS if len(runs) > 1 else ())]


def _config(run: Run) -> str:
    """The start of the run's config hash: what tells two rule sets apart when the names agree."""
    return run.header["config_sha256"][:12]


def _engine(run: Run) -> str | None:
    """The cardgames version that wrote the run (every result file's header holds it)."""
    return run.header.get("engine_version")


def text_report(runs: list[Run], each: list[list[dict[str, Any]]]) -> str:
    """The human-readable report: a table for one run; side by side, then the tests (``each``,
    :func:`against_first`), for several."""
    from tabulate import tabulate

    if len(runs) == 1:
        run = runs[0]
        rows = [[_cell(row[c]) if c in row else "" for c in COLUMNS] for row in figure_rows(run)]
        title = f"{describe_header(run.header)}: {counted(run.summary.games, 'game')}"
        table = tabulate(rows, headers=COLUMNS, disable_numparse=True, stralign="right")
        return title + "\n\n" + table + _pooled_note(runs) + _first_seat_note(runs)
    letters = [chr(ord("A") + i) if i < 26 else f"F{i}" for i in range(len(runs))]
    # configs changed with --configs (a rule change, no variant) show only in their hash, and a change of the engine's
    # code only in its version (an analyst's finding: two runs read alike): each named when they differ
    configs = len({_config(run) for run in runs}) > 1
    engines = len({_engine(run) for run in runs}) > 1
    lines = []
    for letter, run in zip(letters, runs, strict=True):
        told = (f", config {_config(run)}" if configs else "") + (f", engine {_engine(run)}" if engines else "")
        games = counted(run.summary.games, "game")
        lines.append(f"{letter}: {run.label}: {describe_header(run.header)}{told}: {games}")
    names: list[str] = []
    for run in runs:
        names.extend(n for n in run.figures if n not in names)
    side = [[name, *(_interval(run.figures.get(name)) for run in runs)] for name in names]
    lines += ["", tabulate(side, headers=["figure", *letters], disable_numparse=True, stralign="right")]
    # Each later run against the first, lettered by position (one file may be given twice).
    table = [[t["figure"], f"{letter} vs A", _cell(t["difference"]), _span(t), t["test"], _cell(t["statistic"]),
              p_text(t["p_value"]), "yes" if t["significant"] else "no"]
             for letter, tests in zip(letters[1:], each, strict=True) for t in tests]
    if table:
        lines += ["", tabulate(table, headers=["figure", "files", "difference", f"{1 - ALPHA:.0%} interval", "test",
                                               "statistic", "p_value", f"significant (p<{ALPHA:g})"],
                               disable_numparse=True, stralign="right")]
    return "\n".join(lines) + _pooled_note(runs) + _first_seat_note(runs)


def _pooled_note(runs: list[Run]) -> str:
    """A line under the tables when a figure pools the seats (``scores`` above ``scores[0]``...): its sd
    beside its range puzzled a reader who had not read docs/batch.md (0.7 beside 19 to 76)."""
    pooled = next((name for run in runs for name, figure in run.figures.items() if "values" in figure), None)
    if pooled is None:
        return ""
    return (f"\n\n{pooled}, like each figure above its own per-seat rows, pools the seats: its n, mean, sd and "
            "interval are of each game's mean over its seats; its min, max and percentiles, of the seats' values "
            "(docs/batch.md)")


def _first_seat_note(runs: list[Run]) -> str:
    """A line under the tables of a game of several players saying whose advantage ``first_player_advantage``
    is, or why there is none: the seat was in the JSON header alone, and the row's absence unexplained (an
    analyst's finding)."""
    if runs[0].header["players"] < 2 or not any(name.startswith("wins[") for run in runs for name in run.figures):
        return ""  # a solitaire, or results without winners: no seat's win share to speak of
    seats = [run.header.get("first_seat") for run in runs]
    if all(seat is None for seat in seats):
        if all("first_seat" in run.header for run in runs):
            return "\n\nno first_player_advantage: the deal decides who plays first (docs/batch.md)"
        # not "the deal decides" (an analyst audit's finding, a Turup file whose header lacked it)
        return ("\n\nno first_player_advantage: the header does not say who plays first (a file written before "
                "cardgames recorded it; docs/batch.md)")
    if len(set(seats)) == 1:
        whose = f"seat {seats[0]}"
    else:
        whose = "the seat (" + ", ".join(f"{run.label}: {'none' if seat is None else seat}"
                                         for run, seat in zip(runs, seats, strict=True)) + ")"
    return (f"\n\nfirst_player_advantage: the win share of {whose}, who plays first in each game's first deal, "
            "less the average seat's (docs/batch.md)")


def _span(test: dict[str, Any]) -> str:
    """A comparison's interval of the difference as the text table prints it, ``[-0.0412, -0.0198]``."""
    if test["difference_ci95_low"] is None:
        return "n/a"
    return f"[{_cell(test['difference_ci95_low'])}, {_cell(test['difference_ci95_high'])}]"


def _cell(value: Any) -> str:
    """A figure as the text table prints it: four decimals, or four digits and an exponent from
    :data:`EXPONENT_FROM` (``.4f`` wrote every one of 1e307's 308 digits, and widened the column to them:
    a CLI fuzzer's finding)."""
    if value is None:  # a figure that is undefined here (one game's spread, a test with no statistic)
        return "n/a"
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < EXPONENT_FROM else f"{value:.4e}"
    return str(value)


def p_said(value: float | None) -> str:
    """A p-value in a sentence: "p = 0.0123", or "p < 1e-300" where :func:`p_text` says "< 1e-300"."""
    text = p_text(value)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def p_text(value: float | None) -> str:
    """A p-value as the tables and a gate's message print it: four decimals (more where four would
    round it onto the significance level, and show 0.0500 beside "yes": as many as keep it off), or
    two digits below 1e-4; a p-value too small for a float, computed as 0, as "< 1e-300" (an analyst read
    "0.0e+00" as a p-value of zero)."""
    if value is None:
        return "n/a"
    if value == 0:
        return "< 1e-300"
    if value < 1e-4:
        return f"{value:.1e}"
    digits = 4
    while float(f"{value:.{digits}f}") == ALPHA and value != ALPHA:  # a float has 17 significant digits at most
        digits += 1
    return f"{value:.{digits}f}"


def _interval(figure: dict[str, Any] | None) -> str:
    if figure is None:
        return ""
    if figure["ci_low"] is None:
        return f"{figure['mean']:.4f} [n/a]"
    return f"{figure['mean']:.4f} [{figure['ci_low']:.4f}, {figure['ci_high']:.4f}]"
