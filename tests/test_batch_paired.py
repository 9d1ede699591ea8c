"""Paired comparisons of result files of the same seeds (``engine/batch/paired.py``): the tests
against hand-computed values, a record's figures named as the summaries name them, and the
files joined seed by seed whatever their order."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from cardgames.engine import ENGINE_VERSION
from cardgames.engine.batch.paired import Pairs, mcnemar, pair_files, paired_t
from cardgames.engine.batch.report import Run, compared, comparisons
from cardgames.engine.batch.results import FORMAT, VERSION
from cardgames.engine.batch.stats import Summary

HEADER = {"format": FORMAT, "version": VERSION, "engine_version": ENGINE_VERSION, "game": "turup", "variants": [],
          "players": 3, "agents": ["random"] * 3, "rng": "native", "generator": "shake128-ctr/1", "seed_prefix": "",
          "config_sha256": "ab" * 32, "first_seat": 1}


def write(path: Path, records: list[dict]) -> str:
    path.write_bytes(orjson.dumps(HEADER) + b"\n" + b"".join(orjson.dumps(r) + b"\n" for r in records))
    return str(path)


def test_mcnemar_is_the_exact_binomial_test_of_the_seeds_that_disagree():
    """1 seed true in the first file alone, 9 in the other alone: P(X <= 1) for X ~ binomial(10, 1/2) is
    11/1024, p twice that, 0.021484375; z = (9 - 1) / sqrt(10). 0 and 119 (a wider Eiffel Tower row, seeds
    0-1999): p = 2 * 2^-119. As many each way, or none: p = 1 (no statistic without a disagreement)."""
    test = mcnemar(1, 9, 100)
    assert test.name == "mcnemar" and test.statistic == pytest.approx(8 / math.sqrt(10), rel=1e-12)
    assert test.p_value == pytest.approx(22 / 1024, rel=1e-12)
    assert mcnemar(9, 1, 100).statistic == -test.statistic and mcnemar(9, 1, 100).p_value == test.p_value
    assert mcnemar(0, 119, 2000).p_value == pytest.approx(2.0 ** -118, rel=1e-9)
    assert mcnemar(3, 17, 50).p_value == pytest.approx(0.0025768280029296875, rel=1e-9)
    assert mcnemar(5, 5, 10).p_value == 1.0 and mcnemar(0, 0, 10)[:3] == ("mcnemar", None, 1.0)


def test_mcnemars_interval_is_bonett_and_prices_adjusted_wald():
    """1 seed true in the first file alone and 9 in the other, of 100: the difference is 8/100; one is added to
    each disagreeing count and two to the seeds, 2/102 and 10/102, so the interval is 8/102 -+ 1.959964 x
    sqrt((12/102 - (8/102)^2) / 102) = 0.0784314 -+ 0.0648003: 0.0136311 to 0.1432316."""
    assert mcnemar(1, 9, 100).interval == pytest.approx((0.0136311, 0.1432316), abs=1e-7)
    assert mcnemar(9, 1, 100).interval == pytest.approx((-0.1432316, -0.0136311), abs=1e-7)
    assert mcnemar(0, 6, 6).interval[1] == 1.0  # kept inside [-1, 1]
    assert mcnemar(2, 0, 2).interval[0] == -1.0  # on both sides (-1.35 unclamped: a mutation audit's finding)


@pytest.mark.parametrize("seeds, p12, p21", [(40, 0.1, 0.1), (40, 0.05, 0.2), (40, 0.02, 0.02), (100, 0.3, 0.1),
                                             (20, 0.1, 0.3), (100, 0.0, 0.4)])
def test_mcnemars_interval_keeps_its_level(seeds, p12, p21):
    """Over every outcome of ``seeds`` paired games (won by the first file alone with chance p12, by the other
    alone with p21), weighed by its exact multinomial probability, the interval holds the true difference
    p21 - p12 in at least 93 % of samples (its level is 95 %). An interval that held the number of disagreeing
    seeds fixed (a first draft) held it in 87 % at (40, 0.05, 0.2) and 47 % at (100, 0, 0.4): their number is
    uncertain too."""
    coverage = 0.0
    for first in range(seeds + 1):
        for other in range(seeds + 1 - first):
            chance = (math.factorial(seeds) / (math.factorial(first) * math.factorial(other)
                                               * math.factorial(seeds - first - other))
                      * p12 ** first * p21 ** other * (1 - p12 - p21) ** (seeds - first - other))
            low, high = mcnemar(first, other, seeds).interval
            coverage += chance if low <= p21 - p12 <= high else 0.0
    assert 0.93 <= coverage < 1


def test_the_paired_t_interval_against_scipy():
    """The one-sample t interval of the per-seed differences (scipy's ``ttest_1samp``'s own): it excludes 0
    exactly when p < 0.05."""
    stats = pytest.importorskip("scipy.stats")
    for differences in ([1, 2, 3, 4], [-3, 1, 0, 2, 5, -1], [0.5, 0.25, 1.5]):
        exact = [Fraction(d) for d in differences]
        test = paired_t(len(exact), sum(exact), sum(d * d for d in exact))
        ref = stats.ttest_1samp(differences, 0.0).confidence_interval(0.95)
        assert test.interval == pytest.approx((ref.low, ref.high), rel=1e-9)
        assert (test.interval[0] > 0 or test.interval[1] < 0) == (test.p_value < 0.05)


def test_the_paired_t_test_is_the_one_sample_t_test_of_the_differences():
    """Differences 1, 2, 3, 4: mean 2.5, variance (30 - 100/4) / 3 = 5/3, t = 2.5 / sqrt(5/12) = 3.8729833 on 3
    degrees of freedom, p = 0.0304663 (scipy's ttest_1samp agrees). Every seed moved alike: by nothing, p = 1;
    by something, t infinite and p = 0, in the direction of the move. One seed: no test."""
    test = paired_t(4, Fraction(10), Fraction(30))
    assert test.name == "paired-t" and test.statistic == pytest.approx(3.872983346207417, rel=1e-12)
    assert test.p_value == pytest.approx(0.030466291662170977, rel=1e-9)
    assert paired_t(4, Fraction(-10), Fraction(30)).statistic == -test.statistic
    assert paired_t(5, Fraction(0), Fraction(0)) == ("paired-t", None, 1.0, (0.0, 0.0))
    assert paired_t(5, Fraction(-10), Fraction(20)) == ("paired-t", -math.inf, 0.0, (-2.0, -2.0))
    assert paired_t(1, Fraction(3), Fraction(9)) == ("paired-t", None, None, None)
    huge = Fraction(10) ** 400  # sums beyond a float: still a test (differences huge, huge, huge + 1: t beyond one),
    # though no interval: its ends are beyond a float
    assert paired_t(3, 3 * huge + 1, 3 * huge * huge + 2 * huge + 1) == ("paired-t", math.inf, 0.0, None)
    assert paired_t(4, -10 * huge, 30 * huge * huge).p_value == pytest.approx(0.030466291662170977, rel=1e-9)


def test_a_records_figures_are_named_as_the_summaries_name_them():
    """Numbers, per-seat lists and the game's mean over its seats, the win shares of every seat, ties and no
    winner, true/false, the categories met anywhere (those not taken false), dotted names: each name that
    ``Summary.figures`` reports for the record, with the record's own value."""
    record = {"scores": [3, -1, 4], "winners": [2], "moves": 7, "money": "-0.25", "bust": False,
              "reason": "blocked", "detail": {"rounds": 2}, "skip": None}
    pairs = Pairs(3, {"reason=blocked", "reason=timeout"})
    values = pairs.values(record)
    assert values == {"scores[0]": 3, "scores[1]": -1, "scores[2]": 4, "scores": Fraction(2), "moves": 7,
                      "money": Fraction(-1, 4), "bust": False, "reason=blocked": True, "reason=timeout": False,
                      "detail.rounds": 2, "wins[0]": False, "wins[1]": False, "wins[2]": True, "ties": False,
                      "no_winner": False}
    summary = Summary()
    summary.add(record)
    named = set(summary.figures(3, {"reason=timeout"}, first_seat=1))
    assert set(values) == named - {"first_player_advantage"}
    # with the first seat: its win (none here) less the average seat's, 1 winner of 3 seats
    assert pairs.values(record, 1) == {**values, "first_player_advantage": Fraction(-1, 3)}
    assert set(pairs.values(record, 1)) == named
    assert pairs.values({"winners": [0, 1]})["ties"] and pairs.values({"winners": []})["no_winner"]
    flat = {"won": True, "cards_left": 3, "ratio": 0.5}  # a solitaire's record: its keys are its figures
    summary = Summary()
    summary.add(flat)
    assert pairs.values(flat) == flat and set(flat) == set(summary.figures(1))
    assert pairs.values({**flat, "rounds": None}) == flat and pairs.values({**flat, "money": "1.50"})["money"] == 1.5


def test_files_are_joined_seed_by_seed_whatever_their_order(tmp_path: Path):
    """won: seeds 1 and 3 won only in the first file, 4 only in the second: McNemar on 2 and 1. moves: the
    differences 1, 1, 2, 0, 4 over the seeds where both have it (seed 5 lacks it in the second file): n 5,
    though not tested seed by seed, as a seed holds it in one file only (the means shown are over 6 and 5
    games). The second file read in reverse, or in any order, gives the same sums."""
    first = [{"seed": s, "won": s in (1, 3), "moves": 10 + s} for s in range(6)]
    other = [{"seed": s, "won": s == 4, "moves": 10 + s + d} for s, d in zip(range(5), (1, 1, 2, 0, 4), strict=True)]
    other.append({"seed": 5, "won": False})
    a = write(tmp_path / "a.jsonl", first)
    shuffled = [other[i] for i in (3, 0, 5, 1, 4, 2)]
    for name, order in (("in-order", other), ("reversed", other[::-1]), ("shuffled", shuffled)):
        pairs = pair_files(a, write(tmp_path / f"{name}.jsonl", order), 3, ())
        assert pairs.rates == {"won": [6, 2, 1]}, name
        assert pairs.numbers == {"moves": [5, 8, 22]}, name
        assert pairs.test("won") == mcnemar(2, 1, 6) and pairs.test("moves") is None and pairs.unmatched == {"moves"}


def test_mcnemar_counts_only_the_seeds_the_files_disagree_on(tmp_path: Path):
    """Seeds won in both files (0-9) or in neither (16-19) say nothing about a difference: McNemar is asked
    about the six won only in the second file, not about sixteen "won in the first" as well."""
    first = [{"seed": s, "won": s < 10} for s in range(20)]
    other = [{"seed": s, "won": s < 16} for s in range(20)]
    pairs = pair_files(write(tmp_path / "a.jsonl", first), write(tmp_path / "b.jsonl", other), 3, ())
    assert pairs.rates == {"won": [20, 0, 6]} and pairs.test("won") == mcnemar(0, 6, 20)


def test_a_figure_the_files_never_hold_on_one_seed_is_compared_unpaired(tmp_path: Path):
    """y is on the first file's even seeds and the other's odd ones: no seed pairs it, so the files'
    y are compared as independent samples (Welch), while x, on every seed, is compared seed by seed.
    z is a number in one file and true/false in the other: no test either way."""
    first = [{"seed": s, "x": s, "z": s, **({"y": s} if s % 2 == 0 else {})} for s in range(6)]
    other = [{"seed": s, "x": s + 1, "z": s > 2, **({"y": s} if s % 2 else {})} for s in range(6)]
    a, b = write(tmp_path / "a.jsonl", first), write(tmp_path / "b.jsonl", other)
    summaries = []
    for records in (first, other):
        summary = Summary()
        for record in records:
            summary.add({k: v for k, v in record.items() if k != "seed"})
        summaries.append(summary)
    runs = compared([Run(a, HEADER, summaries[0]), Run(b, HEADER, summaries[1])])
    runs[1].paired = pair_files(a, b, 3, runs[0].categories)
    assert runs[1].paired.test("y") is None and runs[1].paired.test("z") is None
    assert [(t["figure"], t["test"]) for t in comparisons(runs)] == [("x", "paired-t"), ("y", "welch-t")]


def test_a_gate_finds_a_move_of_every_seed_that_the_deals_spread_hides(run_cli, tmp_path: Path):
    """moves = 100 x seed in the first file and one more on every seed in the second: the deals' spread
    (sd 29) hides a difference of 1 from Welch's test, but seed by seed every difference is 1, so the gate
    trips. The same change on other seeds is compared unpaired, and passes, as on seeds that only half
    overlap (the overlap alone would test other games than the means shown)."""
    base = write(tmp_path / "base.jsonl", [{"seed": s, "moves": 100 * s} for s in range(100)])
    new = write(tmp_path / "new.jsonl", [{"seed": s, "moves": 100 * s + 1} for s in range(100)])
    later = write(tmp_path / "later.jsonl", [{"seed": s, "moves": 100 * (s - 100) + 1} for s in range(100, 200)])
    gate = run_cli("stats", base, new, "--fail-if-different", "moves")
    # a p-value too small for a float is said so, not as 0 (an analyst's finding)
    assert gate.exit_code == 1 and gate.stderr == f"check failed: moves differs in {new} from {base} (p < 1e-300)\n"
    assert gate.stdout.splitlines()[-1].split() == ["moves", "B", "vs", "A", "1.0000", "[1.0000,", "1.0000]",
                                                    "paired-t", "inf", "<", "1e-300", "yes"]
    half = write(tmp_path / "half.jsonl", [{"seed": s, "moves": 100 * (s - 50) + 1} for s in range(50, 150)])
    for other in (later, half):
        passed = run_cli("stats", base, other, "--fail-if-different", "moves", "--format", "json")
        (test,) = orjson.loads(passed.stdout)["comparisons"]
        assert passed.exit_code == 0 and test["test"] == "welch-t" and test["p_value"] > 0.9, other


def test_a_figure_some_seeds_hold_in_one_file_only_is_compared_unpaired(run_cli, tmp_path: Path):
    """x is on seeds 0-4 of the first file and on every seed of the other: the pairs would be five games
    while the means shown are over five and ten, and the test's sign went against the difference's (an
    auditor's case). Such a figure is compared as independent samples, its sign the difference's."""
    base = write(tmp_path / "a.jsonl", [{"seed": s, "won": s % 2 == 0, **({"x": 0} if s < 5 else {})}
                                        for s in range(10)])
    other = write(tmp_path / "b.jsonl", [{"seed": s, "won": s % 2 == 0, "x": (1 if s % 2 else 2) if s < 5 else -100}
                                         for s in range(10)])
    result = run_cli("stats", base, other, "--fail-if-different", "x", "--format", "json")
    (test,) = [t for t in orjson.loads(result.stdout)["comparisons"] if t["figure"] == "x"]
    assert test["test"] == "welch-t" and test["difference"] == pytest.approx(-49.2)
    assert test["statistic"] < 0 and result.exit_code == 1


def test_the_first_player_advantage_is_tested_seed_by_seed_apart_from_ties(run_cli, tmp_path: Path):
    """Two players, seat 1 first: seat 1 wins seeds 0-19 alone and seat 0 seeds 20-39 in the first file; in the
    other, seeds 0-9 and 20-29 are ties. Seat 1's win share rises by 10 seeds (McNemar: 10 one way, none the
    other, p = 2^-9), though it gained nothing on the average seat: each game's advantage, its win less the
    average seat's (1 - 1/2 alone, -1/2 beaten, 1 - 2/2 tied), moves by -1/2 on seeds 0-9 and +1/2 on 20-29,
    a mean of 0. The
    gate on the advantage itself (an analyst's: it was not tested, and the wins the docs offered instead moved
    with the ties) passes, the one on the win share trips."""
    two = {**HEADER, "players": 2, "agents": ["random"] * 2}

    def results(path: Path, records: list[dict]) -> str:
        path.write_bytes(orjson.dumps(two) + b"\n" + b"".join(orjson.dumps(r) + b"\n" for r in records))
        return str(path)

    base = results(tmp_path / "a.jsonl", [{"seed": s, "winners": [1] if s < 20 else [0]} for s in range(40)])
    other = results(tmp_path / "b.jsonl", [{"seed": s, "winners": [0, 1] if s % 20 < 10 else [1] if s < 20 else [0]}
                                           for s in range(40)])
    pairs = pair_files(base, other, 2, (), (1, 1))
    assert pairs.numbers["first_player_advantage"] == [40, 0, Fraction(20, 4)]  # seeds, sum, squares of the moves
    assert pairs.test("first_player_advantage") == paired_t(40, Fraction(0), Fraction(5))
    advantage = run_cli("stats", base, other, "--fail-if-different", "first_player_advantage", "--format", "json")
    (test,) = [t for t in orjson.loads(advantage.stdout)["comparisons"] if t["figure"] == "first_player_advantage"]
    assert advantage.exit_code == 0 and test["test"] == "paired-t" and test["difference"] == 0
    assert test["p_value"] == 1.0
    share = run_cli("stats", base, other, "--fail-if-different", "wins[1]")
    assert share.exit_code == 1 and share.stderr.startswith("check failed: wins[1] differs")


def _two_players(path: Path, first_seat: int | None, records: list[dict]) -> str:
    """A two-player result file whose header names ``first_seat``."""
    header = {**HEADER, "players": 2, "agents": ["random"] * 2, "first_seat": first_seat}
    path.write_bytes(orjson.dumps(header) + b"\n" + b"".join(orjson.dumps(r) + b"\n" for r in records))
    return str(path)


def test_each_file_pairs_the_advantage_of_its_own_first_seat(run_cli, tmp_path: Path):
    """The same games (seat 1 wins seeds 0-14, seat 0 seeds 15-19) in files whose first seats differ (a variant
    that changes who starts): each seed's advantage is its own file's first seat's, +1/2 or -1/2, so the other
    file's is the opposite on every seed, a move of -1 on 15 seeds and +1 on 5 (a mutation audit's gap: one
    file's first seat taken for both, or the two swapped, passed)."""
    games = [{"seed": s, "winners": [1] if s < 15 else [0]} for s in range(20)]
    first, other = _two_players(tmp_path / "a.jsonl", 1, games), _two_players(tmp_path / "b.jsonl", 0, games)
    assert pair_files(first, other, 2, (), (1, 0)).numbers["first_player_advantage"] == [20, -10, 20]
    result = run_cli("stats", first, other, "--format", "json")
    (test,) = [t for t in orjson.loads(result.stdout)["comparisons"] if t["figure"] == "first_player_advantage"]
    assert test["test"] == "paired-t" and test["difference"] == -0.5 and test["statistic"] < 0 and test["significant"]


def test_a_result_key_named_first_player_advantage_is_refused_or_said_unlike(run_cli, tmp_path: Path):
    """A game's own key named like the derived figure: refused seed by seed where the header names a first seat
    (one would replace the other), and where one file's header names none, the two kinds are said apart."""
    with pytest.raises(ValueError, match="figure 'first_player_advantage' is both a key of the results"):
        Pairs(2, ()).values({"winners": [0], "first_player_advantage": 0.5}, 0)
    keyed = [{"seed": s, "winners": [s % 2], "first_player_advantage": 0.5} for s in range(6)]
    plain = [{"seed": s, "winners": [s % 2]} for s in range(6)]
    first, other = _two_players(tmp_path / "a.jsonl", None, keyed), _two_players(tmp_path / "b.jsonl", 1, plain)
    result = run_cli("stats", first, other)
    assert result.exit_code == 0
    assert f"first_player_advantage is a distribution in {first} and a difference in {other}: not compared" in \
        result.stderr


def test_a_pipe_is_compared_unpaired_and_said_so(tmp_path: Path):
    """A paired comparison reads its files twice, and a pipe's second reading is empty: the pipe's
    file is compared as an independent sample, with a notice, instead of in silence (an auditor's
    case, ``stats a.jsonl <(zcat b.jsonl.gz)``)."""
    import subprocess
    import sys

    base = write(tmp_path / "base.jsonl", [{"seed": s, "moves": 100 * s} for s in range(100)])
    new = (tmp_path / "new.jsonl")
    write(new, [{"seed": s, "moves": 100 * s + 1} for s in range(100)])
    cli = [sys.executable, "-c", "from cardgames.cli.main import main; main()"]
    piped = subprocess.run([*cli, "stats", base, "/dev/stdin", "--format", "json"], input=new.read_bytes(),
                           capture_output=True, check=True)
    assert [t["test"] for t in orjson.loads(piped.stdout)["comparisons"]] == ["welch-t"]
    assert piped.stderr.decode().startswith("/dev/stdin cannot be read twice (a pipe?)")


def test_stdin_is_a_file_named_dash_once(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``-`` reads stdin, as ``replay`` and ``score --input`` do (a CLI audit's finding: it was refused as
    a missing file): named <stdin>, compared unpaired as any pipe, and refused twice (one stdin). Even
    beside a file named ``-``, which would otherwise be read a second time to pair it."""
    base = write(tmp_path / "base.jsonl", [{"seed": s, "moves": 100 * s} for s in range(100)])
    new = Path(write(tmp_path / "new.jsonl", [{"seed": s, "moves": 100 * s + 1} for s in range(100)])).read_bytes()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_bytes(new)
    piped = run_cli("stats", base, "-", "--format", "json", input=new)
    assert piped.exit_code == 0
    assert [f["file"] for f in orjson.loads(piped.stdout)["files"]] == [base, "<stdin>"]
    assert piped.stderr.startswith("<stdin> cannot be read twice (a pipe?): <stdin> is compared with")
    twice = run_cli("stats", "-", "-", input=new)
    assert twice.exit_code == 2 and "- (stdin) can be read once" in twice.stderr
    empty = run_cli("stats", "-", input=b"")
    assert (empty.exit_code, empty.stderr) == (1, "Error: <stdin>: empty: no header line\n")


def test_overlapping_seeds_and_figures_of_two_kinds_are_said(run_cli, tmp_path: Path):
    """Seeds 0-99 against 1-100 share 99: compared unpaired, as always, but now said (an off-by-one range
    in a CI job loses the paired test's power). won true/false in one file and a number in the other: the
    table shows both, no test compares them, and a notice says why."""
    base = write(tmp_path / "a.jsonl", [{"seed": s, "won": s % 3 == 0, "moves": s} for s in range(100)])
    shifted = write(tmp_path / "b.jsonl", [{"seed": s, "won": int(s % 3 == 0), "moves": s} for s in range(1, 101)])
    result = run_cli("stats", base, shifted)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"{shifted} shares 99 of its 100 seeds with {base}: compared as independent samples (seed by seed needs "
        "the same seeds)",
        f"won is a proportion in {base} and a distribution in {shifted}: not compared"]


def test_two_keys_naming_one_figure_are_refused_not_counted_twice(run_cli, tmp_path: Path):
    """"a.b" beside a mapping "a" holding "b" name one figure: it was counted twice a game (n 4 in 2 games),
    and compared with itself it stopped with a traceback. Both are one clear error now."""
    path = write(tmp_path / "coll.jsonl", [{"seed": s, "a.b": s, "a": {"b": 2}} for s in range(2)])
    alone = run_cli("stats", path)
    assert alone.exit_code == 1 and alone.stderr.startswith(f"Error: {path}: figure 'a.b' has 4 values in 2 games")
    paired = run_cli("stats", path, path)
    assert paired.exit_code == 1 and "two keys of one result name figure 'a.b'" in paired.stderr
    one = write(tmp_path / "one.jsonl", [{"seed": 0, "a.b": 1, "a": {"b": 2}}])
    single = run_cli("stats", one)  # a single game too: 2 values in 1 game
    assert single.exit_code == 1 and single.stderr.startswith(f"Error: {one}: figure 'a.b' has 2 values in 1 game")


def test_a_result_key_named_like_a_win_share_is_refused_not_overwritten(run_cli, tmp_path: Path):
    """A game's own ``ties`` (tricks tied, about 2 a game) was replaced by the share of tied games that
    ``winners`` gives, in silence (a contributor's finding); ``wins`` per seat likewise hid ``wins[0]``.
    Both are now one clear error, alone and compared seed by seed, at the line of the first record giving the
    key (an analyst audit's finding: every other record error has one); stdin, read already, has none."""
    ties = write(tmp_path / "ties.jsonl", [{"seed": s, "scores": [s, 1, 0], "winners": [s % 2],
                                            **({"ties": s % 5} if s >= 3 else {})} for s in range(10)])
    alone = run_cli("stats", ties)
    assert alone.exit_code == 1 and alone.stderr == (
        f"Error: {ties}:5: figure 'ties' is both a key of the results and a share counted from their 'winners': "
        "the game's key needs another name\n")
    piped = run_cli("stats", "-", input=Path(ties).read_bytes())
    assert piped.exit_code == 1 and piped.stderr.startswith("Error: <stdin>: figure 'ties' is both")
    paired = Pairs(3, ()).values
    with pytest.raises(ValueError, match="figure 'ties' is both"):
        paired({"scores": [1, 2, 3], "winners": [0], "ties": 2})
    wins = write(tmp_path / "wins.jsonl", [{"seed": s, "winners": [0], "wins": [1, 0, 0]} for s in range(3)])
    assert run_cli("stats", wins).stderr.startswith(f"Error: {wins}:2: figure 'wins[0]' is both")
    fine = write(tmp_path / "fine.jsonl", [{"seed": s, "scores": [s, 1, 0], "winners": [s % 2], "tied_tricks": s % 5}
                                           for s in range(10)])
    assert run_cli("stats", fine).exit_code == 0
    # first_player_advantage is derived only from winners and a first seat: refused then, a figure like any else
    summary = Summary()
    for seed in range(4):
        summary.add({"winners": [seed % 2], "first_player_advantage": 0.5})
    with pytest.raises(ValueError, match="figure 'first_player_advantage' is both"):
        summary.figures(2, first_seat=0)
    assert summary.figures(2, first_seat=None)["first_player_advantage"]["mean"] == 0.5
    solitaire = Summary()
    solitaire.add({"won": True, "first_player_advantage": 0.5})
    assert solitaire.figures(1, first_seat=0)["first_player_advantage"]["mean"] == 0.5


def test_a_misspelt_gate_is_a_usage_error_before_a_cut_short_file(run_cli, tmp_path: Path):
    """Exit 2 says the gate is misconfigured, whatever else is wrong with the files (a run cut short is
    exit 1); on files of no games, the message says no figure is tested rather than listing none."""
    base = write(tmp_path / "a.jsonl", [{"seed": s, "moves": s} for s in range(10)])
    short = write(tmp_path / "b.jsonl", [{"seed": s, "moves": s} for s in range(5)])
    assert run_cli("stats", base, short, "--fail-if-different", "mvoes").exit_code == 2
    assert run_cli("stats", base, short, "--fail-if-different", "moves").exit_code == 1
    empty = write(tmp_path / "e.jsonl", [])
    result = run_cli("stats", empty, empty, "--fail-if-different", "won")
    assert result.exit_code == 2 and "not tested between these files: none is (files of no games?)" in result.stderr


def test_a_paired_t_of_no_mean_difference_is_zero_not_minus_zero():
    """Differences -1, 0, 1 sum to 0 but vary: t is 0, printed 0.0000, not -0.0000."""
    test = paired_t(3, Fraction(0), Fraction(2))
    assert test.statistic == 0.0 and math.copysign(1.0, test.statistic) == 1.0 and test.p_value == 1.0


def test_a_file_changed_between_its_two_readings_is_refused(tmp_path: Path):
    """``stats`` checks that two files hold the same seeds, then reads them again side by side: a record
    left without its twin then means a file changed in between, and pairing what was read would test
    other games than the summaries describe."""
    from cardgames.engine.errors import CardgamesError

    a = write(tmp_path / "a.jsonl", [{"seed": s, "moves": s} for s in range(5)])
    b = write(tmp_path / "b.jsonl", [{"seed": s, "moves": s} for s in range(1, 6)])
    with pytest.raises(CardgamesError, match="changed while it was read"):
        pair_files(a, b, 1, ())


@pytest.mark.parametrize("grown", [0, 1])
def test_a_file_that_grew_between_its_two_readings_is_named(tmp_path: Path, grown: int) -> None:
    """Either file gaining a seed since the check (a ``batch --resume`` still appending to it) is refused,
    and the message names that file: the extra records of the second file alone were silently left out."""
    from cardgames.engine.errors import CardgamesError

    paths = [write(tmp_path / f"{name}.jsonl", [{"seed": s, "moves": s} for s in range(6 if index == grown else 5)])
             for index, name in enumerate(("a", "b"))]
    said = f"^{re.escape(paths[grown])} changed while it was read: compare it again$"
    with pytest.raises(CardgamesError, match=said):
        pair_files(*paths, 1, ())


def test_files_of_another_deal_generator_are_not_paired(run_cli, tmp_path: Path):
    """Seed 7 under the native generator and under PySolFC's is two deals: the same seed numbers are no
    pairs (a docs audit's finding), so the files are compared as independent samples, and said to be."""
    base = write(tmp_path / "a.jsonl", [{"seed": s, "moves": 100 * s} for s in range(20)])
    other = tmp_path / "b.jsonl"
    other.write_bytes(orjson.dumps({**HEADER, "rng": "pysolfc", "generator": "pysolfc"}) + b"\n"
                      + b"".join(orjson.dumps({"seed": s, "moves": 100 * s + 1}) + b"\n" for s in range(20)))
    result = run_cli("stats", base, str(other), "--format", "json")
    assert [t["test"] for t in orjson.loads(result.stdout)["comparisons"]] == ["welch-t"]
    assert result.stderr == (f"{other} deals with another rng than {base} ('pysolfc', not 'native'): its seeds are "
                             "other deals, compared as independent samples\n")


def test_a_file_of_another_deal_generator_and_fewer_seeds_is_no_run_cut_short(run_cli, tmp_path: Path):
    """20,000 native seeds against 20 PySolFC numbers: the files hold other deals, so the notice names the
    generator, and the gate compares them, instead of calling the second a run cut short and refusing."""
    base = write(tmp_path / "a.jsonl", [{"seed": s, "moves": 100 * s} for s in range(1, 41)])
    other = tmp_path / "b.jsonl"
    other.write_bytes(orjson.dumps({**HEADER, "rng": "pysolfc", "generator": "pysolfc"}) + b"\n"
                      + b"".join(orjson.dumps({"seed": s, "moves": 200 * s - 50}) + b"\n" for s in range(1, 21)))
    result = run_cli("stats", base, str(other), "--format", "json", "--fail-if-different", "moves")  # equal means
    assert result.exit_code == 0 and [t["test"] for t in orjson.loads(result.stdout)["comparisons"]] == ["welch-t"]
    assert result.stderr == (f"{other} deals with another rng than {base} ('pysolfc', not 'native'): its seeds are "
                             "other deals, compared as independent samples\n"
                             "--fail-if-different moves: no significant difference (p = 1.0000): passed\n")
