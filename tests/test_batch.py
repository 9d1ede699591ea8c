"""Batch analyser units: seed ranges, seed sets, chunks, statistics, tests, result files."""

from __future__ import annotations

import concurrent.futures
import fractions
import io
import math
import os
import random as stdlib_random  # test data only: shuffling chunk orders, never game randomness
import signal
import types
from dataclasses import replace
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgames.engine.batch.compare import (
    ALPHA,
    Z95,
    betainc,
    compare_figure,
    student_t_critical,
    student_t_two_sided,
    two_proportion,
    welch,
    wilson,
)
from cardgames.engine.batch.executors import (
    DaskExecutor,
    ProcessExecutor,
    SerialExecutor,
    _start_worker,
    make_executor,
)
from cardgames.engine.batch.progress import Progress
from cardgames.engine.batch.report import (
    COLUMNS,
    Run,
    against_first,
    compared,
    comparisons,
    csv_rows,
    p_said,
    p_text,
    text_report,
)
from cardgames.engine.batch.results import (
    Reader,
    Writer,
    check_comparable,
    check_same_experiment,
    fold_records,
    make_header,
    read_summary,
)
from cardgames.engine.batch.runner import run_batch
from cardgames.engine.batch.seeds import Pace, SeedRange, SeedSet, chunk_size, chunks, parse_range
from cardgames.engine.batch.stats import Summary, _exact_sum, describe, percentiles
from cardgames.engine.batch.worker import Job, play_chunk, setup
from cardgames.engine.errors import CardgamesError, OptionConflictError
from cardgames.engine.registry import load_game


# -- seeds ------------------------------------------------------------------------------
def test_parse_range():
    assert parse_range("0-999999") == SeedRange(0, 999999)
    assert parse_range("0-999999").count == 1_000_000
    assert parse_range("0-18446744073709551615").count == 2**64
    assert parse_range("7") == SeedRange(7, 7)
    assert parse_range(" 3 - 5 ") == SeedRange(3, 5)
    assert parse_range("ms1-ms10") == SeedRange(1, 10, "ms")
    assert parse_range("18446744073709551615") == SeedRange(2**64 - 1, 2**64 - 1)


@pytest.mark.parametrize("text, words", [
    ("", "expected a range"), ("abc", "expected a range"), ("1-2-3", "expected a range"),
    ("-5", "expected a range"), ("10-5", "ends (5) before it starts (10)"), ("1-ms5", "same prefix"),
    ("0-18446744073709551616", "2**64-1"), ("1.5-3", "expected a range"),
    # the end at fault named: the whole range, two long ends, is clipped before it (an analyst's finding)
    ("18446744073709551615-18446744073709551616", ": 18446744073709551616 is no seed: seeds run 0..2**64-1"),
    ("18446744073709551616-18446744073709551617", ": 18446744073709551616 is no seed"),
])
def test_parse_range_rejects(text, words):
    with pytest.raises(CardgamesError, match=r"--seeds") as err:
        parse_range(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_single_seed_and_an_upper_case_prefix_read_as_ms_numbers() -> None:
    """``ms7`` is the range ms7-ms7 (its one end is both ends, prefix included), and the prefix is
    matched and kept in lower case whatever case it is typed in: ``MS1-ms5`` is ms1-ms5."""
    assert parse_range("ms7") == SeedRange(7, 7, "ms")
    assert parse_range("MS1-ms5") == SeedRange(1, 5, "ms")
    assert parse_range("Ms3") == SeedRange(3, 3, "ms")


def test_seed_set_keeps_runs():
    seeds = SeedSet()
    for seed in [5, 7, 6, 1, 2, 10]:
        assert seeds.add(seed)
    assert not seeds.add(6) and not seeds.add(1)
    assert (seeds.starts, seeds.stops, len(seeds)) == ([1, 5, 10], [3, 8, 11], 6)
    assert 7 in seeds and 8 not in seeds and 0 not in seeds
    assert list(seeds.missing(SeedRange(0, 12))) == [(0, 1), (3, 5), (8, 10), (11, 13)]
    assert list(seeds.missing(SeedRange(5, 7))) == []
    assert list(seeds.missing(SeedRange(6, 9))) == [(8, 10)]


def test_seed_set_inclusion_against_plain_sets():
    """``a <= b``, run by run, is plain sets' inclusion: sparse and dense sets, equal ones, empty ones."""
    rand = stdlib_random.Random(5)
    for _ in range(300):
        plain = [set(rand.sample(range(40), rand.randrange(0, 40))) for _ in range(2)]
        if rand.random() < 0.3:
            plain[1] |= plain[0]
        sets = []
        for values in plain:
            sets.append(SeedSet())
            for seed in sorted(values, key=lambda _: rand.random()):
                sets[-1].add(seed)
        assert (sets[0] <= sets[1]) == (plain[0] <= plain[1]) and (sets[1] <= sets[0]) == (plain[1] <= plain[0])


def test_seed_set_against_a_plain_set():
    rand = stdlib_random.Random(3)
    seeds, plain = SeedSet(), set()
    for _ in range(2000):
        seed = rand.randrange(300)
        assert seeds.add(seed) == (seed not in plain)
        plain.add(seed)
    assert len(seeds) == len(plain)
    missing = [s for a, b in seeds.missing(SeedRange(0, 310)) for s in range(a, b)]
    assert missing == sorted(set(range(311)) - plain)
    for _ in range(200):
        low = rand.randrange(320)
        high = rand.randrange(low, 330)
        missing = [s for a, b in seeds.missing(SeedRange(low, high)) for s in range(a, b)]
        assert missing == sorted(set(range(low, high + 1)) - plain)


def test_a_range_past_every_seed_done_is_missing_whole():
    """Resuming a file of seeds 0-9 with ``--seeds 20-29`` plays 20-29, not 10-29."""
    seeds = SeedSet()
    for seed in range(10):
        seeds.add(seed)
    assert list(seeds.missing(SeedRange(20, 29))) == [(20, 30)]


def test_chunks_cover_runs_in_order():
    runs = [(0, 5), (7, 8), (10, 14)]
    cut = list(chunks(iter(runs), 3))
    assert cut == [((0, 3),), ((3, 5), (7, 8)), ((10, 13),), ((13, 14),)]
    assert [s for c in cut for a, b in c for s in range(a, b)] == [0, 1, 2, 3, 4, 7, 10, 11, 12, 13]
    assert chunk_size(10, 2) == 16 and chunk_size(10**6, 2) == 1000 and chunk_size(10**5, 2) == 1000
    assert chunk_size(12_000, 2) == 750


def test_chunk_sizes_follow_the_games_speed():
    """``Pace``: 8 seeds a chunk until a chunk is measured, then 5 s worth of games, 1..largest;
    a callable size is asked again for each chunk."""
    pace = Pace(largest=1000)
    assert pace.size() == 8 and Pace(largest=3).size() == 3
    pace.record(8, 0.004)  # 0.5 ms a game: 10,000 games would take 5 s
    assert pace.size() == 1000
    pace.record(2, 20.0)  # 10 games in 20.004 s: 2.0004 s a game
    assert pace.size() == 2
    pace.record(1, 60.0)
    assert pace.size() == 1
    sizes = iter([2, 1, 3])
    assert list(chunks(iter([(0, 5), (9, 11)]), lambda: next(sizes, 10))) == [
        ((0, 2),), ((2, 3),), ((3, 5), (9, 10)), ((10, 11),)]


def test_a_chunk_measured_at_0_seconds_keeps_the_first_chunk_size() -> None:
    """A clock too coarse to see a fast chunk reports 0 s: no speed is measured yet, so chunks stay
    at the first size (8 seeds), rather than dividing by zero."""
    pace = Pace(largest=1000)
    pace.record(8, 0.0)
    assert pace.size() == 8


# -- statistics: hand-computed values --------------------------------------------------
def test_wilson_hand_computed():
    # p = 0.4, n = 100, z = 1.959964: centre 0.41920729 / 1.03841459, half-width 0.0942985
    low, high = wilson(40, 100)
    assert low == pytest.approx(0.309401, abs=1e-6) and high == pytest.approx(0.497997, abs=1e-6)
    # 0 successes in 10: the interval starts at 0 and its upper end is z^2/n / (1 + z^2/n) = 0.277533
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.277533, abs=1e-6)
    low, high = wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(1 - 0.277533, abs=1e-6)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)
    # the exact bounds at 0 and n successes, whatever the rounding of the formula would leave
    assert all(wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0 for n in range(1, 500))


def test_wilson_names_successes_outside_0_to_n() -> None:
    """More successes than games, or fewer than none, is the caller's error, said as such (not the
    square root's "math domain error" that the formula would raise on its own)."""
    for successes in (11, -1):
        with pytest.raises(ValueError, match=rf"^successes {successes} not in 0\.\.10$"):
            wilson(successes, 10)


def test_percentiles_nearest_rank_hand_computed():
    one_to_ten = {v: 1 for v in range(1, 11)}
    # ranks ceil(q/100 * 10): 1, 3, 5, 8, 10
    assert percentiles(one_to_ten, (5, 25, 50, 75, 95)) == [1, 3, 5, 8, 10]
    assert percentiles(one_to_ten, (100,)) == [10]
    weighted = {9: 6, 0: 3, 5: 1}  # sorted: 0 0 0 5 9 9 9 9 9 9
    assert percentiles(weighted, (5, 25, 30, 40, 50, 95)) == [0, 0, 0, 5, 9, 9]
    assert percentiles({42: 1}, (5,)) == [42]
    with pytest.raises(ValueError):
        percentiles({}, (50,))


def test_percentiles_are_exact_whatever_the_order_of_q():
    """Each q gets its own nearest rank, in whatever order the qs come, computed exactly: the 7th
    percentile of 1..100 is 7 (7 / 100 * 100 in floats is 7.000000000000001, whose ceiling is 8)."""
    one_to_hundred = {v: 1 for v in range(1, 101)}
    assert percentiles(one_to_hundred, (95, 5, 50)) == [95, 5, 50]
    assert percentiles(one_to_hundred, (7, 14, 28)) == [7, 14, 28]


@pytest.mark.parametrize("df, tabled", [(1, 12.7062), (2, 4.3027), (4, 2.7764), (9, 2.2622), (29, 2.0452),
                                        (120, 1.9799), (10**7, 1.9600)])
def test_the_t_interval_uses_the_tabled_critical_values(df, tabled):
    """The 97.5 % points of Student's t as any table gives them (to its four decimals); from ten million
    degrees of freedom the normal's 1.96, exactly the quantile the Wilson intervals use (1.959963984540054)."""
    assert round(student_t_critical(df), 4) == tabled
    if df >= 10**7:
        from scipy.stats import norm

        assert student_t_critical(df) == Z95 == pytest.approx(norm.ppf(0.975), rel=0, abs=1e-15)


@pytest.mark.parametrize("df", [1_000, 10_000, 100_000, 1_000_000, 9_999_999])
def test_the_t_interval_is_students_up_to_ten_million_degrees_of_freedom(df):
    """Between 1,000 and ten million degrees of freedom the t quantile is still Student's (scipy's to 1e-8), not
    the normal's (2.4e-7 off even at 9,999,999): four decimals cannot tell them apart, so a table could not."""
    from scipy.stats import t

    assert student_t_critical(df) == pytest.approx(t.ppf(0.975, df), rel=0, abs=1e-8)


def test_describe_hand_computed():
    # 2 4 4 4 5 5 7 9: mean 5, sum of squared deviations 32, sample sd sqrt(32/7)
    row = describe({2: 1, 4: 3, 5: 2, 7: 1, 9: 1})
    assert row["n"] == 8 and row["mean"] == 5.0
    assert row["sd"] == pytest.approx(math.sqrt(32 / 7), rel=1e-12)
    half = 2.364624251592784 * math.sqrt(32 / 7) / math.sqrt(8)  # Student's t, 7 degrees of freedom (tables: 2.3646)
    assert row["ci_low"] == pytest.approx(5 - half, rel=1e-12) and row["ci_high"] == pytest.approx(5 + half, rel=1e-12)
    assert [row[k] for k in ("min", "p5", "p25", "p50", "p75", "p95", "max")] == [2, 2, 4, 4, 5, 9, 9]
    one = describe({3: 1})
    assert one["sd"] is None and one["ci_low"] is None and one["ci_high"] is None and one["mean"] == 3.0


def test_describe_gives_the_sd_at_any_scale_of_the_values():
    """The hand-computed sample above times k: sd sqrt(32/7) k, whether the variance is beyond a
    float (k = 1e160 and up: about 4.6e320) or below its smallest (k = 1e-170: 4.6e-340, which
    came out as 0), and 0 exactly for equal values."""
    for k in (1.0, 1e100, 1e160, 1e300, 1e-100, 1e-170, 1e-300):
        row = describe({2 * k: 1, 4 * k: 3, 5 * k: 2, 7 * k: 1, 9 * k: 1})
        assert row["sd"] == pytest.approx(math.sqrt(32 / 7) * k, rel=1e-12), k
    assert describe({5: 3})["sd"] == 0.0


def summary_of(records) -> Summary:
    """The summary of ``records``, added in order."""
    summary = Summary()
    for record in records:
        summary.add(record)
    return summary


def test_summary_solitaire():
    games = [(True, 0), (False, 10), (False, 4), (True, 0)]
    figures = summary_of({"won": won, "cards_left": left} for won, left in games).figures(1)
    assert list(figures) == ["won", "cards_left"]
    assert figures["won"]["count"] == 2 and figures["won"]["mean"] == 0.5
    assert (figures["won"]["ci_low"], figures["won"]["ci_high"]) == wilson(2, 4)
    assert figures["cards_left"]["mean"] == 3.5 and figures["cards_left"]["max"] == 10


def test_figures_read_their_numbers_as_numbers():
    """Headline figures first, then by name with every number in a name in numeric order: a 12-player Turup
    game's seats and its rounds (round10 after round9, not after round1, as text would sort them)."""
    record = {"scores": list(range(12)), "winners": [11], "moves": 3}
    record.update({f"round{r}_scores": list(range(12)) for r in (1, 2, 9, 10, 12)})
    names = list(summary_of([record]).figures(12))
    rounds = [name for name in names if name.startswith("round") and "[" not in name]
    assert rounds == ["round1_scores", "round2_scores", "round9_scores", "round10_scores", "round12_scores"]
    seats = [name for name in names if name.startswith("round10_scores[")]
    assert seats == [f"round10_scores[{s}]" for s in range(12)]
    assert names.index("moves") < names.index("round1_scores") < names.index("round1_scores[0]")
    assert names.index("round1_scores[11]") < names.index("round2_scores")


def synthetic_multiplayer() -> list[dict]:
    """Records shaped like the multiplayer conventions: scores, winners, moves, money, extras."""
    return [
        {"scores": [10, 4, 7], "winners": [0], "moves": 30, "coins": ["1.10", "-0.60", "-0.50"],
         "captures": [3, 1, 2], "matches": 2, "reason": "board"},
        {"scores": [5, 9, 9], "winners": [1, 2], "moves": 34, "coins": ["-2.00", "1.00", "1.00"],
         "captures": [0, 4, 4], "matches": 3, "reason": "board"},
        {"scores": [8, 2, 1], "winners": [0], "moves": 28, "coins": ["0.30", "-0.20", "-0.10"],
         "captures": [5, 0, 0], "matches": 2, "reason": "death"},
        {"scores": [0, 0, 0], "winners": [], "moves": 12, "coins": ["0.00", "0.00", "0.00"],
         "captures": [0, 0, 0], "matches": 1, "reason": "board", "bonus": None},
    ]


def test_summary_multiplayer_hand_computed():
    f = summary_of(synthetic_multiplayer()).figures(3, first_seat=0)
    assert list(f)[:7] == ["wins[0]", "wins[1]", "wins[2]", "ties", "no_winner", "first_player_advantage",
                           "scores"]
    assert [f[f"wins[{s}]"]["count"] for s in range(3)] == [2, 1, 1]
    assert f["wins[0]"]["n"] == 4 and f["ties"]["count"] == 1 and f["no_winner"]["count"] == 1
    # shares 2/4, 1/4, 1/4: fair share 1/3, seat 0 is 1/6 above it
    assert f["first_player_advantage"]["mean"] == pytest.approx(0.5 - 1 / 3)
    # pooled: 12 seats' values in 4 games; the inference is the games' (their mean over the seats)
    assert f["scores"]["n"] == 4 and f["scores"]["values"] == 12 and f["scores"]["mean"] == pytest.approx(55 / 12)
    assert f["scores[1]"]["mean"] == pytest.approx(15 / 4) and f["scores[1]"]["max"] == 9
    assert f["moves"]["mean"] == 26.0 and f["moves"]["p50"] == 28
    # money is exact: the seats' coins sum to 0 in every game, so the pooled mean is exactly 0
    assert f["coins"]["mean"] == 0.0 and f["coins[0]"]["mean"] == pytest.approx(-0.15)
    # ... and nothing varies from game to game: the seats, taken apart, would claim a spread
    assert f["coins"]["sd"] == 0.0 and f["coins"]["ci_low"] == f["coins"]["ci_high"] == 0.0
    assert f["coins[0]"]["sd"] > 0
    assert f["coins[0]"]["min"] == "-2.00" and f["coins[0]"]["max"] == "1.10"
    assert f["captures[0]"]["mean"] == 2.0 and f["matches"]["max"] == 3
    assert f["reason=board"]["count"] == 3 and f["reason=death"]["n"] == 4
    assert "bonus" not in f


def test_the_shares_of_wins_count_only_the_games_that_name_their_winners() -> None:
    """``winners`` is a game's own key: the win shares, ties and no-winner rates are over the games that give it
    (``winner_games``), not every game (a mutant that divided by every game passed: a mutation audit's finding)."""
    f = summary_of([{"winners": [0], "points": 3}, {"winners": [1], "points": 1}, {"points": 2},
                    {"points": 5}]).figures(2)
    assert (f["wins[0]"]["n"], f["wins[0]"]["count"], f["wins[0]"]["mean"]) == (2, 1, 0.5)
    assert (f["wins[1]"]["n"], f["ties"]["n"], f["no_winner"]["n"]) == (2, 2, 2)
    assert f["points"]["n"] == 4


def test_a_pooled_figure_averages_each_game_over_the_seats_with_a_value() -> None:
    """A seat's None is no value (skipped), so it is not a seat of the game's mean either: games
    [4, None, 2] and [1, 1, 1] have means 3 and 1 (not 2 and 1), so the pooled mean is 2 and its sd
    sqrt(((3 - 2)^2 + (1 - 2)^2) / 1) = sqrt(2), over 2 games and 5 values."""
    f = summary_of([{"scores": [4, None, 2]}, {"scores": [1, 1, 1]}]).figures(3)
    assert (f["scores"]["n"], f["scores"]["values"], f["scores"]["mean"]) == (2, 5, 2.0)
    assert f["scores"]["sd"] == pytest.approx(math.sqrt(2), rel=1e-12) and f["scores[1]"]["n"] == 1


def test_first_player_advantage_is_measured_against_the_average_seat():
    """The first seat's win share minus the average seat's: a tie counts for each of its winners, so
    the shares need not sum to 1, and a seat that never won is a share of 0, not left out."""
    summary = summary_of({"scores": [0, 0, 0, 0], "winners": winners} for winners in ([0], [1, 2], [0]))
    f = summary.figures(4, first_seat=0)
    assert [f[f"wins[{s}]"]["count"] for s in range(4)] == [2, 1, 1, 0] and f["wins[3]"]["n"] == 3
    # shares 2/3, 1/3, 1/3, 0: the average seat wins 1/3 of the games, seat 0 1/3 more. Game by game, seat 0's win
    # less the average seat's: 1 - 1/4, 0 - 2/4, 1 - 1/4, whose mean is 1/3 and whose t interval (sd sqrt(75)/12,
    # t(2) 4.302653) is 1/3 -+ 1.792772: the interval of a figure of its own, not the win share's moved by 1/3
    # (an analyst's finding: that one ignored the ties, and had no test between files)
    advantage = f["first_player_advantage"]
    assert advantage["mean"] == pytest.approx(2 / 3 - 1 / 3) and advantage["n"] == 3
    assert advantage["sd"] == pytest.approx(math.sqrt(75) / 12, rel=1e-12)
    assert (advantage["ci_low"], advantage["ci_high"]) == pytest.approx((1 / 3 - 1.792772, 1 / 3 + 1.792772), abs=1e-6)
    summary.add({"scores": [0, 0, 0, 0], "winners": [0, 1]})
    f = summary.figures(4, first_seat=0)
    assert f["first_player_advantage"]["mean"] == pytest.approx(3 / 4 - 3 / 8)  # shares 3/4, 2/4, 1/4, 0


def test_first_player_advantage_is_the_first_seats_and_absent_without_one() -> None:
    """Turup's first dealer, seat 0, plays last: the seat left of him moves first, and the figure is
    his. Where the deal decides who starts (Towers' alphabetical order), no seat is the first player."""
    summary = summary_of({"winners": winners} for winners in ([1], [1], [0], [2]))
    shares = [1 / 4, 2 / 4, 1 / 4]
    assert summary.figures(3, first_seat=1)["first_player_advantage"]["mean"] == pytest.approx(2 / 4 - 1 / 3)
    assert summary.figures(3, first_seat=0)["first_player_advantage"]["mean"] == pytest.approx(shares[0] - 1 / 3)
    assert "first_player_advantage" not in summary.figures(3)


def test_seats_that_won_beyond_players_count_in_the_average_seat() -> None:
    """``players`` names the seats that never won; seats that did win count whatever ``players`` says:
    with ``players`` 1 and wins by seats 1 and 2, the seats are 0, 1, 2 with shares 0, 1/2, 1/2, so
    the average seat wins 1/3 and seat 0 is 1/3 below it."""
    f = summary_of([{"winners": [1]}, {"winners": [2]}]).figures(1, first_seat=0)
    assert [f[f"wins[{s}]"]["count"] for s in range(3)] == [0, 1, 1]
    assert f["first_player_advantage"]["mean"] == pytest.approx(-1 / 3)


def test_summary_merge_is_order_independent():
    records = synthetic_multiplayer() * 5
    whole = summary_of(records)
    parts = [summary_of(records[start:start + 3]) for start in range(0, len(records), 3)]
    stdlib_random.Random(1).shuffle(parts)
    merged = Summary()
    for part in parts:
        merged.merge(part)
    assert merged == whole
    assert orjson.dumps(merged.figures(3)) == orjson.dumps(whole.figures(3))


def test_summary_rejects_unknown_values():
    with pytest.raises(ValueError, match="unsupported"):
        Summary().add({"odd": object()})


def test_an_empty_category_is_refused_not_dropped():
    """An empty text's key, ``reason=``, is the one that counts the figure's games: its games vanished from the
    figures without a word (an audit's finding); such a record is now refused."""
    summary = Summary()
    summary.add({"reason": "blocked"})
    with pytest.raises(ValueError, match="^figure 'reason' is empty text: a category needs a name$"):
        summary.add({"reason": ""})


# -- comparisons ------------------------------------------------------------------------
def test_two_proportion_hand_computed():
    # 40/100 vs 60/100: pooled 0.5, se sqrt(0.25 * 0.02) = 0.0707107, z = 2.828427, p = erfc(2)
    test = two_proportion(40, 100, 60, 100)
    assert test.statistic == pytest.approx(2.828427, abs=1e-6)
    assert test.p_value == pytest.approx(0.004677735, abs=1e-9)
    assert two_proportion(0, 50, 0, 80)[:3] == ("z", None, 1.0)
    # unequal sizes, 10/20 vs 60/100: the pooled proportion weighs the games, 70/120 (not the
    # mean of 0.5 and 0.6); se = sqrt(7/12 * 5/12 * (1/20 + 1/100)) = 0.1207615, z = 0.8280787
    test = two_proportion(10, 20, 60, 100)
    assert test.statistic == pytest.approx(0.8280787, abs=1e-7)
    assert test.p_value == pytest.approx(0.4076259, abs=1e-7)


def test_welch_against_scipy():
    stats = pytest.importorskip("scipy.stats")
    for args in [(1.0, 2.0, 30, 2.0, 3.0, 40), (9.24, 9.42, 20000, 58.7, 22.3, 2000), (5.0, 1.0, 5, 5.1, 4.0, 7)]:
        ours = welch(*args)
        ref = stats.ttest_ind_from_stats(args[3], args[4], args[5], args[0], args[1], args[2], equal_var=False)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-300)
    # hand-computed: means 0 and 1, sd 1 and 1, n 2 and 2: t = 1, df = 2; for 2 degrees of
    # freedom P(|T| >= t) = 1 - t / sqrt(t^2 + 2) = 1 - 1/sqrt(3) = 0.42265
    test = welch(0, 1, 2, 1, 1, 2)
    assert test.statistic == 1.0 and test.p_value == pytest.approx(1 - 1 / math.sqrt(3), abs=1e-12)
    assert student_t_two_sided(3.0, 2.0) == pytest.approx(1 - 3 / math.sqrt(11), abs=1e-12)
    # both sides constant: the same value is no difference (t = 0/0, no statistic), two values an infinite t
    assert welch(3, 0, 10, 3, 0, 10) == ("welch-t", None, 1.0, (0.0, 0.0))
    assert welch(3, 0, 10, 4, 0, 10) == ("welch-t", math.inf, 0.0, (1, 1))
    assert welch(4, 0, 9, 3, 0, 9).statistic == -math.inf
    # one game on a side has no spread to estimate: no test, not a verdict
    assert welch(1.0, 0.0, 1, 2.0, 1.0, 10) == welch(1.0, 1.0, 10, 2.0, 0.0, 1) == ("welch-t", None, None, None)


@pytest.mark.parametrize("n1, n2, p1, p2", [(30, 30, 0.5, 0.5), (30, 40, 0.1, 0.3), (50, 50, 0.05, 0.02),
                                            (20, 20, 0.9, 0.6), (40, 25, 0.3, 0.35)])
def test_a_rates_difference_interval_keeps_its_level(n1, n2, p1, p2):
    """Newcombe's interval of p2 - p1, over every outcome of two binomials weighed by its exact probability:
    it holds the true difference in at least 93 % of samples (its level is 95 %; his 1998 paper finds it
    near that or above everywhere), where the normal interval falls far short at a rate near 0 or 1."""
    outcomes = [(math.comb(n1, k1) * p1 ** k1 * (1 - p1) ** (n1 - k1) * math.comb(n2, k2) * p2 ** k2
                 * (1 - p2) ** (n2 - k2), (k1, n1, k2, n2)) for k1 in range(n1 + 1) for k2 in range(n2 + 1)]
    coverage = sum(chance for chance, counts in outcomes
                   if two_proportion(*counts).interval[0] <= p2 - p1 <= two_proportion(*counts).interval[1])
    assert 0.93 <= coverage < 1


def test_welchs_interval_against_scipy():
    """Welch's interval is the difference -+ t(df) x se on Welch-Satterthwaite's df (scipy's t quantile): it
    excludes 0 exactly when p < 0.05."""
    stats = pytest.importorskip("scipy.stats")
    for args in [(1.0, 2.0, 30, 2.0, 3.0, 40), (9.24, 9.42, 20000, 58.7, 22.3, 2000), (5.0, 1.0, 5, 5.1, 4.0, 7)]:
        m1, s1, n1, m2, s2, n2 = args
        v1, v2 = s1 * s1 / n1, s2 * s2 / n2
        df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
        half = stats.t.ppf(0.975, df) * math.sqrt(v1 + v2)
        test = welch(*args)
        assert test.interval == pytest.approx((m2 - m1 - half, m2 - m1 + half), rel=1e-9)
        assert (test.interval[0] > 0 or test.interval[1] < 0) == (test.p_value < ALPHA)


def test_welch_is_the_same_at_any_scale_of_the_values() -> None:
    """t and its degrees of freedom do not change when every value is multiplied by k. Base sd sqrt(12),
    n 2 (variance of the mean 6); other sd 3, n 3 (variance of the mean 3); means 0 and 3: se = 3,
    t = 1, df = 9^2 / (6^2 / 1 + 3^2 / 2) = 2, p = 1 - 1/sqrt(3). From k = 1e100 the variances'
    squares (1e400) are beyond a float, from 1e160 the variances themselves, and from k = 1e-100
    (1e-400) down they are below its smallest: the same t and p all the same, not an error."""
    for k in (1.0, 1e100, 1e160, 1e-100, 1e-170):
        test = welch(0.0, math.sqrt(12) * k, 2, 3.0 * k, 3.0 * k, 3)
        assert test.statistic == pytest.approx(1.0, rel=1e-12), k
        assert test.p_value == pytest.approx(1 - 1 / math.sqrt(3), rel=1e-9), k


def test_welch_without_a_finite_spread_is_no_test() -> None:
    """A spread beyond a float (values of both signs near 1.7e308: the sd is infinite) leaves nothing to test with:
    no statistic and no p-value, as with one game on a side, never a verdict."""
    assert welch(0.0, math.inf, 3, 1.0, 1.0, 3) == welch(0.0, 1.0, 3, 1.0, math.inf, 3) == ("welch-t", None, None, None)


def test_welch_with_one_sd_dwarfing_the_other() -> None:
    """sd 1e100 in 2 games against sd 1e-100 in 3: the second mean is as good as exact, so se = 1e100 /
    sqrt(2), t = 1e100 / se = sqrt(2), df = 2 - 1 = 1 (Cauchy), and p = 1 - 2/pi * atan(sqrt(2)) =
    0.3918266; the sds' ratio squared (1e400) is beyond a float, but never computed."""
    test = welch(0.0, 1e100, 2, 1e100, 1e-100, 3)
    assert test.statistic == pytest.approx(math.sqrt(2), rel=1e-12)
    assert test.p_value == pytest.approx(1 - 2 / math.pi * math.atan(math.sqrt(2)), rel=1e-9)


def test_betainc_known_values():
    assert betainc(1, 1, 0.3) == pytest.approx(0.3)  # uniform
    assert betainc(2, 3, 0.4) == pytest.approx(0.5248)  # 1 - (1-x)^4 - 4x(1-x)^3 = 0.5248
    assert betainc(0.5, 0.5, 0.5) == pytest.approx(0.5)


def test_compare_figure_kinds():
    a, b = Summary(), Summary()
    for i in range(50):
        a.add({"won": i % 2 == 0, "left": i % 7})
        b.add({"won": i % 5 == 0, "left": i % 7})
    fa, fb = a.figures(1), b.figures(1)
    won = compare_figure(fa["won"], fb["won"])
    assert won["test"] == "z" and won["difference"] == pytest.approx(0.2 - 0.5) and won["significant"]
    left = compare_figure(fa["left"], fb["left"])
    assert left["test"] == "welch-t" and left["difference"] == 0.0 and not left["significant"]
    assert compare_figure(fa["won"], fb["left"]) is None


def test_a_category_one_file_never_met_is_a_rate_of_0_there():
    """``reason=stuck`` in 200 of A's 600 games and in none of B's: B reports it at 0 of its games
    where ``reason`` is present, and the two are compared; a file without the figure gets none."""
    from cardgames.engine.batch.report import Run, compared, comparisons

    a, b, c = Summary(), Summary(), Summary()
    for i in range(600):
        a.add({"won": False, "reason": "stuck" if i % 3 == 0 else "blocked"})
        b.add({"won": False, "reason": "blocked"} if i < 500 else {"won": False})
        c.add({"won": False})
    runs = compared([Run(name, {"players": 1}, s) for name, s in (("a", a), ("b", b), ("c", c))])
    stuck = runs[1].figures["reason=stuck"]
    assert (stuck["count"], stuck["n"], stuck["mean"]) == (0, 500, 0.0)
    assert (stuck["ci_low"], stuck["ci_high"]) == wilson(0, 500)
    assert "reason=stuck" not in runs[2].figures and "reason=stuck" not in b.figures(1)
    # a category is a rate among the games where its figure is present
    blocked = b.figures(1)["reason=blocked"]
    assert (blocked["count"], blocked["n"], blocked["mean"]) == (500, 500, 1.0)
    test = next(t for t in comparisons(runs) if t["file"] == "b" and t["figure"] == "reason=stuck")
    assert test["significant"] and test["difference"] == pytest.approx(-1 / 3)


def test_a_category_only_a_later_file_met_is_a_rate_of_0_in_the_first():
    """The categories are those every run met, the first's included: ``reason=stuck`` in 5 of B's 10
    games and in none of A's shows in A at 0 of its 10, and the two are compared."""
    a = summary_of([{"won": False, "reason": "blocked"}] * 10)
    b = summary_of([{"won": False, "reason": "stuck" if i < 5 else "blocked"} for i in range(10)])
    runs = compared([Run("a", REPORT_HEADER, a), Run("b", REPORT_HEADER, b)])
    stuck = runs[0].figures["reason=stuck"]
    assert (stuck["count"], stuck["n"], stuck["mean"]) == (0, 10, 0.0)
    assert [t["figure"] for t in comparisons(runs)] == ["won", "reason=blocked", "reason=stuck"]


# -- result files ---------------------------------------------------------------------
HEADER = {"format": "cardgames-batch", "version": 1, "engine_version": "0.1.0", "game": "eiffel-tower",
          "variants": [], "players": 1, "agents": ["greedy"], "rng": "native", "generator": "shake128-ctr/1",
          "seed_prefix": "", "config_sha256": "0" * 64}


def write_file(path, header, records, tail=b""):
    lines = [orjson.dumps(header)] + [orjson.dumps(r) for r in records]
    path.write_bytes(b"\n".join(lines) + b"\n" + tail)


def test_reader_ignores_a_torn_last_line(tmp_path):
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": 1, "won": True}, {"seed": 2, "won": False}], tail=b'{"seed": 3, "wo')
    reader = Reader(path)
    assert reader.header == HEADER
    assert [r["seed"] for _, r in reader.records()] == [1, 2]
    assert reader.torn and reader.good_end == path.stat().st_size - len(b'{"seed": 3, "wo')
    header, summary, torn = read_summary(path)
    assert torn and summary.games == 2


def test_a_whole_last_line_without_its_newline_is_read_and_resumed_after(tmp_path):
    """A file saved by an editor that drops the final newline: its last record was ignored as a torn
    line, and ``--resume`` cut it off (the CI audit's finding). It is whole JSON, so a kill cannot
    have cut it: it counts, and a resumed run ends it with its newline before writing on."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": 1, "won": True}, {"seed": 2, "won": False}])
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    reader = Reader(path)
    assert [r["seed"] for _, r in reader.records()] == [1, 2]
    assert not reader.torn and reader.good_end == path.stat().st_size
    writer = Writer(path, HEADER, reader.good_end)
    writer.write(b'{"seed":3,"won":true}\n')
    writer.close()
    assert path.read_bytes() == b"\n".join([orjson.dumps(HEADER), b'{"seed":1,"won":true}',
                                             b'{"seed":2,"won":false}', b'{"seed":3,"won":true}\n'])
    path.write_bytes(orjson.dumps(HEADER))  # a header alone, without its newline
    reader = Reader(path)
    assert reader.header == HEADER and not list(reader.records()) and not reader.torn


@pytest.mark.parametrize("tail", [b"null", b"null\n"])
def test_a_last_line_of_whole_json_that_is_no_record_is_an_error_with_or_without_its_newline(tmp_path, tail):
    """``null`` was taken for a torn line when its newline was missing (its value, None, was the parser's
    failure), so ``stats`` ignored it and ``--resume`` cut it off; with its newline it was an error."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": 1, "won": True}], tail=tail)
    reader = Reader(path)
    with pytest.raises(CardgamesError, match=r"r.jsonl:3: not a result record"):
        list(reader.records())


@pytest.mark.parametrize("key, value", [("format", "other"), ("version", 0), ("engine_version", "0.0.0"), ("game", "x"),
                                        ("variants", ["strict"]), ("players", 2), ("agents", ["random"]),
                                        ("rng", "pysolfc"), ("generator", "other/1"), ("seed_prefix", "ms"),
                                        ("config_sha256", "0" * 64)])
def test_resuming_names_each_identity_field_that_differs(key, value):
    """docs/batch.md: --resume names the first field of the header's identity that differs: each of them (listed
    here, not read from ``IDENTITY``, which a bug could shorten)."""
    wanted = make_header(load_game("eiffel-tower"), ["greedy"], "native", "")
    assert key in wanted
    with pytest.raises(CardgamesError, match=rf"\({key} "):
        check_same_experiment("r.jsonl", {**wanted, key: value}, wanted)


def test_each_write_reaches_the_file_at_once_and_close_syncs_it(tmp_path, monkeypatch):
    """Unbuffered, so a run killed after a write has that chunk on disk; closing syncs the file, once, and
    a batch closes its file."""

    synced = []
    monkeypatch.setattr(os, "fsync", synced.append)
    path = tmp_path / "r.jsonl"
    writer = Writer(path, HEADER, 0)
    writer.write(b'{"seed":0}\n')
    assert path.read_bytes().endswith(b'{"seed":0}\n') and synced == []
    writer.close()
    assert len(synced) == 1
    run_batch(load_game("eiffel-tower"), ["greedy"], "native", SeedRange(0, 3), out=str(tmp_path / "b.jsonl"))
    assert len(synced) == 2


def test_a_short_write_is_continued_not_dropped(tmp_path):
    """The kernel may take fewer bytes than asked (a nearly full disk, a signal): the rest is written after."""
    path = tmp_path / "r.jsonl"
    writer = Writer(path, HEADER, 0)
    real = writer._handle

    class Short:
        def write(self, data):
            return real.write(bytes(data[:3]))

        def __getattr__(self, name):
            return getattr(real, name)

    writer._handle = Short()
    writer.write(b'{"seed":0}\n{"seed":1}\n')
    writer.close()
    assert path.read_bytes() == orjson.dumps(HEADER) + b'\n{"seed":0}\n{"seed":1}\n'


@pytest.mark.parametrize("tail", [b'{"seed": 2', b'{"seed": 2, "won": false, "cards_left": 12, "moves": 40'])
def test_writer_keeps_whole_lines_and_truncates(tmp_path, tail):
    """Resuming cuts the file at ``keep``: a torn last line, shorter or longer than the record written
    after it, leaves no byte behind."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": 1, "won": True}], tail=tail)
    writer = Writer(path, HEADER, path.stat().st_size - len(tail))
    writer.write(b'{"seed":2,"won":false}\n')
    writer.close()
    assert path.read_bytes() == orjson.dumps(HEADER) + b'\n{"seed":1,"won":true}\n{"seed":2,"won":false}\n'


@pytest.mark.parametrize("content, words", [
    (b'{"format": "cardgames-log"}\n', "not a batch result file"),
    (b"hello\n", "not a batch result file"),
    # an editor's byte order mark before a whole header: said as such, not "no header" (an analyst audit's finding)
    (b"\xef\xbb\xbf" + orjson.dumps(HEADER) + b"\n", ":1: starts with a byte order mark (an editor's?)"),
    (orjson.dumps({**HEADER, "version": 9}) + b"\n", "version 9 is not supported"),
    # in JSON's spelling, and a missing version said as a missing field is (it was "version None")
    (orjson.dumps({**HEADER, "version": None}) + b"\n", ":1: result file version null is not supported"),
    (orjson.dumps({k: v for k, v in HEADER.items() if k != "version"}) + b"\n", ":1: header lacks version"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "won": true}\n[1, 2]\n', ":3: not a result record"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "won": true}\n{"seed": "x"}\n', ":3: not a result record"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "won": true}\ngarbage\n{"seed": 2}\n',  # not torn: whole
     ":3: not a result record: not JSON (unexpected character"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "won": true}\ngarbage\n', ":3: not a result record: not JSON"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "won": true}\n{"seed": 2, "cards_left": NaN}\n',
     ":3: not a result record: not JSON (unexpected character, expected a JSON value at column 27)"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "won": true}\n{"seed": 2}\n',  # it counted as a game without figures
     ":3: not a result record: seed 2 with no figure of its game"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "won": true}\n{"seed": 1, "won": false}\n', ":3: seed 1 appears twice"),
    (orjson.dumps(HEADER) + b'\n{"seed": -1}\n', ":2: seed -1 is out of range 0..2**64-1"),
    (orjson.dumps(HEADER) + b'\n{"seed": 18446744073709551616}\n', ":2: not a result record"),  # beyond orjson
    (b"", "empty"),
])
def test_bad_result_files(tmp_path, content, words):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert words in str(err.value) and str(path) in str(err.value)


def test_check_comparable():
    check_comparable([("a", HEADER), ("b", {**HEADER, "variants": ["strict"], "agents": ["random"]})])
    with pytest.raises(CardgamesError, match="b: game 'torqu' differs from a's 'eiffel-tower'.*keeps its id: give"):
        check_comparable([("a", HEADER), ("b", {**HEADER, "game": "torqu"})])
    with pytest.raises(CardgamesError, match="players 4 differs"):
        check_comparable([("a", HEADER), ("b", {**HEADER, "players": 4})])


@pytest.mark.parametrize("content, message", [
    (orjson.dumps({k: v for k, v in HEADER.items() if k not in ("rng", "seed_prefix")}) + b"\n",
     ":1: header lacks rng, seed_prefix"),
    (orjson.dumps({**HEADER, "version": True}) + b"\n", ":1: header field 'version' has the wrong type or value"),
    (orjson.dumps({**HEADER, "agents": [1]}) + b"\n", ":1: header field 'agents' has the wrong type or value"),
    (orjson.dumps({**HEADER, "players": 2}) + b"\n", ":1: header names 1 agent for 2 players"),
    (orjson.dumps(HEADER) + b'\n{"seed": true}\n', ":2: not a result record (a JSON object with an integer seed)"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "winners": [1]}\n', ":2: winners must list seats 0..0"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "winners": {}}\n', ":2: winners must list seats 0..0"),
    (orjson.dumps(HEADER) + b'\n{"seed": 1, "winners": [0, 0]}\n', ":2: winners lists a seat twice"),
    (b'{"format": "cardgames-batch"', ":1: no whole header line"),
])
def test_result_file_fields_of_the_wrong_kind_are_named_at_their_line(tmp_path, content, message):
    """A header names every identity field; true is no version or seed, agents are names, one a seat,
    winners a list of distinct seats (one named twice was counted twice, and one game's crashed the
    statistics); a first line without its newline and not whole JSON is a torn header."""
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert str(err.value).startswith(f"{path}{message}")


def test_the_largest_seed_is_a_valid_record(tmp_path):
    """Seeds run to 2**64-1 inclusive."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": 2**64 - 1, "won": True}])
    assert [r["seed"] for _, r in Reader(path).records()] == [2**64 - 1]


def test_a_header_of_no_players_is_refused(tmp_path):
    """A batch has at least one seat: players 0 (with agents []) is a header field of the wrong value."""
    path = tmp_path / "r.jsonl"
    write_file(path, {**HEADER, "players": 0, "agents": []}, [{"seed": 1, "won": True}])
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert str(err.value) == f"{path}:1: header field 'players' has the wrong type or value"


def test_resuming_refuses_a_file_of_another_config():
    """A file whose config hash differs is another experiment: resuming it is refused by that field."""
    with pytest.raises(CardgamesError) as err:
        check_same_experiment("r.jsonl", HEADER, {**HEADER, "config_sha256": "1" * 64})
    assert str(err.value).startswith(f"r.jsonl: holds results of another run (config_sha256 '{'0' * 64}', this run '")


def test_fold_records_folds_only_the_seeds_within_and_notes_every_seed(tmp_path):
    """A sub-range's summary holds its seeds' records only; every seed read is still noted as seen."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": s, "won": s == 2} for s in (1, 2, 3)])
    summary, seen = Summary(), SeedSet()
    assert fold_records(Reader(path), summary, seen, within={2}) == 1
    assert summary.games == 1 and all(not seen.add(s) for s in (1, 2, 3))


@pytest.mark.parametrize("twice", [2, 7])
def test_a_seed_found_twice_is_an_error_when_resuming_a_range_too(tmp_path, twice):
    """docs/batch.md: a seed appearing twice in a file is an error (it would be counted twice). ``--resume``
    folds the file with ``within`` its range: a seed twice inside the range (2) would be counted twice in
    the run's statistics, and one twice outside it (7) would still be a file that ``stats`` refuses."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": s, "won": True} for s in (1, 2, 7, twice)])
    with pytest.raises(CardgamesError, match=rf"r.jsonl:5: seed {twice} appears twice"):
        fold_records(Reader(path), Summary(), SeedSet(), within=SeedRange(0, 5))


@pytest.mark.parametrize("records, message", [
    ([{"seed": 1, "reason": "stuck"}, {"seed": 2, "reason": 3}],
     ":3: figure 'reason' is 3 here, but text in an earlier record"),
    ([{"seed": 1, "cards_left": 3}, {"seed": 2, "cards_left": True}],
     ":3: figure 'cards_left' is true here, but a number in an earlier record"),
    ([{"seed": 1, "reason": "stuck"}, {"seed": 2, "reason": True}],
     ":3: figure 'reason' is true here, but text in an earlier record"),
    ([{"seed": 1, "won": True}, {"seed": 2, "won": "yes"}],
     ":3: figure 'won' is \"yes\" here, but true/false in an earlier record"),
])
def test_a_figure_that_changes_kind_is_named_at_its_line(tmp_path: Path, records: list[dict], message: str) -> None:
    """A figure keeps its kind (a number, true/false or text) from record to record: text then a number,
    a number then true/false, text then true/false, true/false then text are each refused at the line
    of the change, rather than folded into two kinds of statistics under one name."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, records)
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert str(err.value) == f"{path}{message}"


def test_a_winner_without_a_team_is_named_at_its_line(tmp_path: Path) -> None:
    """``teams`` gives each seat's team: a winning seat 2 with teams [0, 1] has none, and is refused as
    a record the summary cannot read (at its line, not an IndexError)."""
    path = tmp_path / "r.jsonl"
    write_file(path, {**HEADER, "game": "torqu", "players": 4, "agents": ["random"] * 4},
               [{"seed": 1, "scores": [1, 2, 3, 4], "winners": [2], "teams": [0, 1]}])
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert str(err.value) == f"{path}:2: teams must give every seat's team as an integer"


def test_a_header_names_1_to_64_players_as_an_integer(tmp_path: Path) -> None:
    """64 players (MAX_PLAYERS, with 64 agents) is a valid header; ``true`` is no player count, even
    with one agent (true == 1 in Python)."""
    path = tmp_path / "r.jsonl"
    write_file(path, {**HEADER, "players": 64, "agents": ["random"] * 64}, [{"seed": 1, "winners": [63]}])
    header, summary, _ = read_summary(path)
    assert header["players"] == 64 and summary.wins == {63: {1: 1}}
    write_file(path, {**HEADER, "players": True}, [{"seed": 1, "won": True}])
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert str(err.value) == f"{path}:1: header field 'players' has the wrong type or value"


def test_true_is_no_winning_seat(tmp_path: Path) -> None:
    """Winners are seat numbers: ``true`` (equal to seat 1 in Python) is refused at its line."""
    path = tmp_path / "r.jsonl"
    write_file(path, {**HEADER, "players": 2, "agents": ["greedy"] * 2}, [{"seed": 1, "winners": [True]}])
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert str(err.value) == f"{path}:2: winners must list seats 0..1"


def test_progress_line():
    stream = io.StringIO()
    progress = Progress(enabled=True, stream=stream)
    progress.start(1000)
    progress.advance(250)
    assert "25.0%" in stream.getvalue() and "250/1,000" in stream.getvalue() and "ETA" in stream.getvalue()
    assert "/s" in progress.line(1.0) and "ETA 3s" in progress.line(1.0)
    progress.close()
    assert stream.getvalue().endswith("\n")
    unstarted = io.StringIO()  # closed before it started (Ctrl-C while batch --resume reads its file): no bar
    Progress(enabled=True, stream=unstarted).close()
    assert unstarted.getvalue() == "\n"
    silent = io.StringIO()
    quiet = Progress(enabled=False, stream=silent)
    quiet.start(1000)
    quiet.advance(1000)
    quiet.close()
    assert silent.getvalue() == ""


def test_ctrl_c_ends_the_pool_workers_without_waiting_for_their_chunks(tmp_path):
    """On Ctrl-C the process pool's workers are stopped mid-task: a task still running (here one
    that would write a file after a pause) never finishes, and no worker is left alive."""
    import time

    from cardgames.engine.batch.executors import ProcessExecutor

    marker = tmp_path / "finished"
    task = f"import pathlib, time; time.sleep(20); pathlib.Path({str(marker)!r}).touch()"
    with pytest.raises(KeyboardInterrupt):
        with ProcessExecutor(2) as executor:
            running = executor._pool.submit(exec, task)  # exec: a builtin, so spawned workers can unpickle it
            while not running.running():
                time.sleep(0.05)
            workers = list(executor._pool._processes.values())
            raise KeyboardInterrupt
    assert workers and not any(process.is_alive() for process in workers)
    assert not marker.exists()


def _proc_file(pid: int, name: str) -> str | None:
    """``/proc/PID/NAME``'s text; None once the process is gone (it may go between two reads)."""
    try:
        return Path(f"/proc/{pid}/{name}").read_text()
    except OSError:
        return None


def _proc_stat(pid: int) -> list[str] | None:
    """``/proc/PID/stat``'s fields after the command's name (state first, then the parent's pid); None once
    the process is gone."""
    text = _proc_file(pid, "stat")
    return None if text is None else text.rsplit(")", 1)[1].split()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers in /proc")
def test_a_batch_killed_outright_takes_its_pool_workers_with_it(tmp_path):
    """SIGKILL (an out-of-memory killer, a CI runner's hard timeout) gives a batch no chance to stop its
    pool: its workers, handed to init, waited on their task queue for ever (a determinism audit's finding).
    Each now ends within a second or so of its batch."""
    import subprocess
    import sys
    import time

    batch = subprocess.Popen([sys.executable, "-m", "cardgames.cli", "batch", "--game", "eiffel-tower", "--seeds",
                              "0-100000000", "--workers", "2", "--out", str(tmp_path / "results.jsonl")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline, workers = time.monotonic() + 120, []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
                       and (_proc_stat(int(entry.name)) or [None, None])[1] == str(batch.pid)
                       and "spawn_main" in (_proc_file(int(entry.name), "cmdline") or "")]
        assert len(workers) == 2, "the pool's workers did not start"
    finally:
        batch.kill()
        batch.wait()
    deadline = time.monotonic() + 30
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in workers if (_proc_stat(pid) or ["Z"])[0] != "Z"]  # a zombie has ended
    for pid in alive:  # a failure leaves none behind either
        os.kill(pid, signal.SIGKILL)
    assert not alive, "the workers outlived their batch"


def test_a_worker_stopped_while_sending_its_result_does_not_hang_the_pool():
    """A worker stopped mid-send (Ctrl-C or SIGTERM while its chunk's result went back) left half a message in
    the result pipe: the pool's thread waited in recv() for the rest, and the shutdown with it (an audit's
    batch hung after SIGTERM, about one run in 20). Here the workers are stopped while 256 MiB are sent."""
    import select
    import threading

    executor = ProcessExecutor(1).__enter__()
    pool = executor._pool
    results = pool._result_queue
    try:
        pool.submit(os.getpid).result()  # the start-up tasks' results are in: the pipe is empty
        sent = pool.submit(bytes, 256 << 20)  # a builtin, which spawned workers unpickle
        assert select.select([results._reader], [], [], 60)[0]  # the worker has begun sending
        closing = threading.Thread(target=executor.__exit__, args=(KeyboardInterrupt, None, None), daemon=True)
        closing.start()
        closing.join(30)
        if sent.done() and sent.exception() is None:
            pytest.skip("the result was sent whole before the worker was stopped")
        assert not closing.is_alive(), "the pool's shutdown hangs"
    finally:
        results._writer.close()  # a failure must not hang the test run's exit too


def test_an_error_drops_the_chunks_still_queued_in_the_pool(tmp_path):
    """A batch that stops on an error (a game that raised, an output that failed) does not play
    the chunks it had queued ahead: with one worker busy for a while, only the task already handed
    to it ahead of time may still run, the four behind it are dropped (waiting for them all would
    make the error wait a window's worth of chunks)."""
    markers = [tmp_path / f"chunk{n}" for n in range(5)]
    with pytest.raises(CardgamesError, match="stop"):
        with ProcessExecutor(1) as executor:
            executor._pool.submit(exec, "import time; time.sleep(2)")  # exec: a builtin spawned workers unpickle
            for marker in markers:
                executor._pool.submit(exec, f"import pathlib; pathlib.Path({str(marker)!r}).touch()")
            raise CardgamesError("stop")
    assert sum(marker.exists() for marker in markers) <= 1


def test_a_read_error_is_named_as_one_with_its_line():
    """A file that opens but cannot be read (``/proc/self/mem``, a vanished mount) was reported as
    "cannot write the output" by the CLI's last resort."""
    from cardgames.engine.lines import bounded_lines

    class Failing(io.BytesIO):
        def readline(self, size: int = -1) -> bytes:
            if self.tell() >= 4:
                raise OSError(5, "Input/output error")
            return super().readline(size)

    lines = bounded_lines(Failing(b"one\ntwo\n"), 100, "results.jsonl", "a result file")
    assert next(lines) == (1, b"one\n")
    with pytest.raises(CardgamesError, match=r"^results.jsonl:2: cannot read: Input/output error$"):
        next(lines)


def test_winning_partners_are_one_win_not_a_tie():
    """Torqu's Partners lists both partners as winners: with ``teams``, a tie is two teams winning."""
    summary = Summary()
    summary.add({"scores": [5, 3, 5, 3], "winners": [0, 2], "teams": [0, 1, 0, 1]})
    summary.add({"scores": [5, 5, 5, 5], "winners": [0, 1, 2, 3], "teams": [0, 1, 0, 1]})
    f = summary.figures(4)
    assert f["ties"]["count"] == 1 and f["wins[0]"]["count"] == 2 and f["wins[1]"]["count"] == 1
    assert "teams" not in f and not any(name.startswith("teams[") for name in f)
    with pytest.raises(ValueError, match="teams must give every seat's team"):
        Summary().add({"winners": [3], "teams": [0, 1]})


# -- progress ----------------------------------------------------------------------------
def test_progress_line_is_drawn_exactly():
    """The bar's width, the percentage, the counts, the rate and the ETA (rounded to the nearest
    second, in h/m/s) of one line, all from the games done and the time taken."""
    progress = Progress(enabled=True, stream=io.StringIO())
    progress.start(1000)
    progress.done = 250
    assert progress.line(1.0) == "[######..................]  25.0% 250/1,000 games  250/s  ETA 3s "
    assert progress.line(0.0).endswith(" 0/s  ETA ? ")  # no time measured yet: no rate, no ETA
    assert progress.line(25.0).endswith(" 10/s  ETA 1m15s ")
    slow = Progress(enabled=True, stream=io.StringIO(), noun="deals")  # solve's hard deals: minutes each
    slow.start(3)
    slow.done = 1
    assert slow.line(128.0) == "[########................]  33.3% 1/3 deals  0.01/s  ETA 4m16s "
    slow.start(1000)
    slow.done = 250
    assert slow.line(100.0).endswith(" 2.50/s  ETA 5m00s ")  # under 10 a second, decimals (a mutation audit's gap)
    progress.done = 1
    for total, elapsed, eta in ((62, 1.0, "1m01s"), (3662, 1.0, "1h01m01s"), (120, 0.5, "1m00s"), (60, 0.5, "30s"),
                                (7200, 0.5, "1h00m00s")):
        progress.total = total  # 1 game done: the ETA is (total - 1) * elapsed seconds; 29.5 s is shown as 30 s
        assert progress.line(elapsed).endswith(f"ETA {eta} "), (total, elapsed)
    progress.total = progress.done = 7
    assert progress.line(1.0).startswith("[" + "#" * 24 + "] 100.0% 7/7 games")


def test_progress_redraws_at_most_5_times_a_second_but_always_at_the_end(monkeypatch):
    """Redrawing on every chunk would flood a slow terminal; the last games are always drawn. The
    clock starts when the games to play are known, not while a file to resume is read."""
    clock = [50.0]
    monkeypatch.setattr("cardgames.engine.batch.progress.time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    stream = io.StringIO()
    progress = Progress(enabled=True, stream=stream)
    clock[0] = 100.0
    progress.start(10)
    progress.advance(3)
    progress.advance(3)  # the same instant: not drawn
    assert stream.getvalue().count("\r") == 1 and "3/10" in stream.getvalue()
    clock[0] += Progress.INTERVAL
    progress.advance(1)
    progress.advance(3)  # the same instant, but the last games
    last = stream.getvalue().split("\r")[-1]
    assert stream.getvalue().count("\r") == 3 and last.startswith("[" + "#" * 24) and " 50/s " in last  # 10 in 0.2 s


def test_an_interrupted_runs_bar_is_redrawn_with_every_game_done_when_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after games the bar skipped (drawn at most 5 times a second): closing draws it once more, so that it
    shows every game done, as the "stopped after N games" message after it says, not the last draw's fewer."""
    clock = [100.0]
    monkeypatch.setattr("cardgames.engine.batch.progress.time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    stream = io.StringIO()
    progress = Progress(enabled=True, stream=stream)
    progress.start(10)
    clock[0] += 1.0
    progress.advance(3)
    progress.advance(4)  # the same instant: not drawn
    progress.close()
    last = stream.getvalue().split("\r")[-1]
    assert last.endswith("\n") and "7/10 games" in last and "3/10" not in last


def test_progress_goes_to_stderr_and_stays_silent_with_nothing_to_play(capsys):
    """Progress is stderr's (stdout holds the statistics); a batch with nothing left to play draws
    no bar, not even its closing newline."""
    progress = Progress(enabled=True)
    progress.start(2)
    progress.advance(2)
    progress.close()
    out, err = capsys.readouterr()
    assert out == "" and "2/2 games" in err and err.endswith("\n")
    idle = Progress(enabled=True)
    idle.start(0)
    idle.close()
    assert capsys.readouterr() == ("", "")


# -- comparisons ---------------------------------------------------------------------------


def _text_report(runs):
    """The report of ``runs`` as ``stats`` prints it: with each later run's comparisons with the first."""
    return text_report(runs, against_first(runs))


def test_significance_is_at_p_below_0_05_hand_computed():
    """1 win in 4 games against 4 in 4: pooled 5/8, se = sqrt(5/8 * 3/8 * (1/4 + 1/4)) = 0.3423266,
    z = 0.75 / se = 2.1908902, p = erfc(z / sqrt 2) = 0.0284597: a difference at the 5% level
    (not at 1%)."""
    base = {"kind": "proportion", "n": 4, "count": 1, "mean": 0.25}
    other = {"kind": "proportion", "n": 4, "count": 4, "mean": 1.0}
    test = compare_figure(base, other)
    assert test["statistic"] == pytest.approx(2.1908902, abs=1e-7)
    assert test["p_value"] == pytest.approx(0.0284597, abs=1e-7) and test["significant"] and ALPHA == 0.05
    # a difference row (first_player_advantage) is a mean of each game's number: Welch's test, as a distribution's
    spread = {"sd": 0.5}
    assert compare_figure({**base, **spread, "kind": "difference"}, {**other, **spread, "kind": "difference"})[
        "test"] == "welch-t"
    assert compare_figure({**base, **spread, "kind": "difference"}, {**other, **spread}) is None  # kinds unlike
    assert compare_figure({**base, "n": 0}, other) is None and compare_figure(base, {**other, "n": 0}) is None


def test_compare_figure_gives_each_file_its_own_spread_and_games() -> None:
    """Welch's test takes each file's own sd and n: base sd sqrt(12) in 2 games, other sd 3 in 3 games,
    means 0 and 3: t = 1 on 2 degrees of freedom, p = 1 - 1/sqrt(3) = 0.4226497 (see
    test_welch_is_the_same_at_any_scale_of_the_values); the sds or the ns swapped would give
    t = 3 / sqrt(4.5 + 4) = 1.0289."""
    base = {"kind": "distribution", "n": 2, "mean": 0.0, "sd": math.sqrt(12)}
    other = {"kind": "distribution", "n": 3, "mean": 3.0, "sd": 3.0}
    test = compare_figure(base, other)
    assert test["test"] == "welch-t" and test["difference"] == 3.0
    assert test["statistic"] == pytest.approx(1.0, rel=1e-12)
    assert test["p_value"] == pytest.approx(1 - 1 / math.sqrt(3), rel=1e-9) and not test["significant"]


def test_a_p_value_of_exactly_0_05_is_not_significant(monkeypatch):
    """docs/batch.md: significant means p < 0.05, so p = 0.05 itself is no difference (the test is
    stubbed: no counts give exactly 0.05)."""
    from cardgames.engine.batch import compare

    monkeypatch.setattr(compare, "two_proportion", lambda *counts: compare.Test("z", 1.96, ALPHA))
    base = {"kind": "proportion", "n": 4, "count": 1, "mean": 0.25}
    other = {"kind": "proportion", "n": 4, "count": 4, "mean": 1.0}
    assert compare_figure(base, other)["significant"] is False


def test_comparisons_refuse_impossible_arguments():
    """No games on a side: no z test; no degrees of freedom or x outside [0, 1]: an error, not a number."""
    assert two_proportion(0, 0, 3, 10) == two_proportion(3, 10, 0, 0) == ("z", None, None, None)
    with pytest.raises(ValueError, match="degrees of freedom"):
        student_t_two_sided(1.0, 0.0)
    for x in (-0.1, 1.1):
        with pytest.raises(ValueError, match=r"x must be in \[0, 1\]"):
            betainc(2, 3, x)
    assert betainc(2, 3, 0.0) == 0.0 and betainc(2, 3, 1.0) == 1.0


# -- reports: hand-computed tables --------------------------------------------------------
REPORT_HEADER = {"game": "eiffel-tower", "variants": [], "players": 1, "agents": ["greedy"], "rng": "native",
                 "config_sha256": "ab" * 32}


def test_report_table_hand_computed():
    """1 win in 4 games, cards left 0 2 4 10. won: Wilson (z = 1.959964) centre (0.25 + z^2/8) / (1 + z^2/4)
    = 0.3724727, half-width z * sqrt(0.25 * 0.75 / 4 + z^2/64) / (1 + z^2/4) = 0.3268854. cards_left: mean 4,
    squared deviations 16 + 4 + 0 + 36, sd sqrt(56/3) = 4.3204938, interval 4 -+ t * sd / 2 = 4 -+ 6.8748698 (t =
    3.1824463, Student's with 3 degrees of freedom);
    nearest ranks ceil(q/100 * 4): 1 1 2 3 4, the values 0 0 2 4 10."""
    records = [{"won": w, "cards_left": c} for w, c in ((True, 0), (False, 2), (False, 4), (False, 10))]
    run = Run("a.jsonl", REPORT_HEADER, summary_of(records))
    lines = text_report([run], []).splitlines()
    assert lines[0] == "eiffel-tower (no variants), 1 player, agents greedy, rng native: 4 games" and lines[1] == ""
    assert lines[2].split() == COLUMNS
    assert lines[4].split() == ["won", "4", "0.2500", "0.0456", "0.6994"]
    assert lines[5].split() == ["cards_left", "4", "4.0000", "-2.8749", "10.8749", "4.3205",
                                "0", "0", "0", "2", "4", "10", "10"]
    rows, columns = csv_rows([run], [])
    # each row names its experiment, so that rows of many runs joined into one sheet keep it (an analyst's finding)
    experiment = {"file": "a.jsonl", "game": "eiffel-tower", "variants": "", "players": 1, "agents": "greedy",
                  "config": "ab" * 6}
    assert columns == [*experiment, *COLUMNS] and [row["figure"] for row in rows] == ["won", "cards_left"]
    assert rows[0] == {**experiment, "figure": "won", "n": 4, "mean": 0.25,
                       "ci95_low": pytest.approx(0.0455873, abs=1e-7), "ci95_high": pytest.approx(0.6993582, abs=1e-7)}
    unsaved = csv_rows([Run(None, {**REPORT_HEADER, "variants": ["strict", "x"], "agents": ["a", "b"]}, run.summary)],
                       [])
    assert {k: unsaved[0][0][k] for k in experiment} == {**experiment, "file": "", "variants": "strict+x",
                                                        "agents": "a,b"}
    assert rows[1]["sd"] == pytest.approx(4.3204938, abs=1e-7) and rows[1]["ci95_low"] == pytest.approx(-2.8748698)
    assert [rows[1][c] for c in ("min", "p5", "p25", "p50", "p75", "p95", "max")] == [0, 0, 0, 2, 4, 10, 10]


def test_comparison_table_hand_computed():
    """A: 1 win in 4, cards left 0 2 4 10; B: 3 in 4, cards left 0 0 1 3; C: 4 in 4, none left.
    won, B vs A: pooled 1/2, se sqrt(1/4 * 1/2), z = 0.5 / 0.3535534 = 1.4142, p = erfc(1) = 0.1573.
    cards_left, B vs A: variances of the means 56/3/4 and 2/4, t = -3 / sqrt(31/6) = -1.3198.
    won, C vs A: z = 2.1909, p = 0.0285 < 0.05 (see test_significance_is_at_p_below_0_05_hand_computed).
    The intervals of a rate's difference are Newcombe's, from the Wilson intervals in the side-by-side table:
    B vs A, 0.5 - hypot(0.75 - 0.3006, 0.6994 - 0.25) = -0.1355 to 0.5 + hypot(0.9544 - 0.75, 0.25 - 0.0456) =
    0.7891; C vs A, 0.75 - hypot(1 - 0.5101, 0.6994 - 0.25) = 0.0852 to 0.75 + (0.25 - 0.0456) = 0.9544. For the
    cards left, C vs A: C has no spread, so Welch's interval is A's own t interval shifted, -4 -+ 6.8749.
    D: 0 wins in 50, E: 50 in 50: se 0.1, z = 10, p = erfc(10 / sqrt 2) = 1.5e-23, written in e-notation."""
    a = summary_of([{"won": w, "cards_left": c} for w, c in ((True, 0), (False, 2), (False, 4), (False, 10))])
    b = summary_of([{"won": w, "cards_left": c} for w, c in ((True, 0), (True, 0), (True, 1), (False, 3))])
    c = summary_of([{"won": True, "cards_left": 0}] * 4)
    runs = compared([Run("a.jsonl", REPORT_HEADER, a), Run("b.jsonl", REPORT_HEADER, b),
                     Run("c.jsonl", REPORT_HEADER, c)])
    lines = _text_report(runs).splitlines()
    assert lines[:3] == [f"{letter}: {name}.jsonl: eiffel-tower (no variants), 1 player, agents greedy, rng native: "
                         "4 games" for letter, name in (("A", "a"), ("B", "b"), ("C", "c"))]
    side = {line.split()[0]: line for line in lines[6:8]}
    assert side["won"].split() == ["won", "0.2500", "[0.0456,", "0.6994]", "0.7500", "[0.3006,", "0.9544]",
                                   "1.0000", "[0.5101,", "1.0000]"]
    tests = [line.split() for line in lines if " vs A " in line]
    assert tests[0] == ["won", "B", "vs", "A", "0.5000", "[-0.1355,", "0.7891]", "z", "1.4142", "0.1573", "no"]
    assert tests[1][:5] + tests[1][7:9] == ["cards_left", "B", "vs", "A", "-3.0000", "welch-t", "-1.3198"]
    assert tests[2] == ["won", "C", "vs", "A", "0.7500", "[0.0852,", "0.9544]", "z", "2.1909", "0.0285", "yes"]
    assert tests[3][:7] == ["cards_left", "C", "vs", "A", "-4.0000", "[-10.8749,", "2.8749]"]
    rows, columns = csv_rows(runs, against_first(runs))
    assert columns[:7] == ["file", "game", "variants", "players", "agents", "config", "figure"] and columns[-7:] == [
        "difference", "difference_ci95_low", "difference_ci95_high", "test", "statistic", "p_value", "significant"]
    assert rows[2]["difference_ci95_low"] == pytest.approx(-0.1355, abs=1e-4)
    assert [(row["file"], row["figure"], row.get("test")) for row in rows] == [
        ("a.jsonl", "won", None), ("a.jsonl", "cards_left", None), ("b.jsonl", "won", "z"),
        ("b.jsonl", "cards_left", "welch-t"), ("c.jsonl", "won", "z"), ("c.jsonl", "cards_left", "welch-t")]
    assert rows[4]["config"] == "ab" * 6 and rows[4]["significant"] and not rows[2]["significant"]
    d, e = summary_of([{"won": False}] * 50), summary_of([{"won": True}] * 50)
    far_runs = compared([Run("d", REPORT_HEADER, d), Run("e", REPORT_HEADER, e)])
    far = _text_report(far_runs).splitlines()[-1]
    assert far.split() == ["won", "B", "vs", "A", "1.0000", "[0.8991,", "1.0000]", "z", "10.0000", "1.5e-23", "yes"]


def test_p_values_from_0_0001_up_are_written_with_four_decimals():
    """0 wins in 20 against 9 in 20: pooled 9/40, se = sqrt(9/40 * 31/40 * (1/20 + 1/20)) = 0.1320511,
    z = 0.45 / se = 3.4077710, p = erfc(z / sqrt 2) = 0.000655: 0.0007, as any p of 0.0001 or more; only
    smaller ones are written in e-notation."""
    a = summary_of([{"won": False}] * 20)
    b = summary_of([{"won": i < 9} for i in range(20)])
    last = _text_report(compared([Run("a", REPORT_HEADER, a), Run("b", REPORT_HEADER, b)])).splitlines()[-1]
    assert last.split() == ["won", "B", "vs", "A", "0.4500", "[0.1995,", "0.6579]", "z", "3.4078", "0.0007", "yes"]


def test_a_p_value_of_exactly_0_0001_is_written_with_four_decimals(monkeypatch: pytest.MonkeyPatch) -> None:
    """0.0001 itself is the smallest p written as a decimal (0.0001), not 1.0e-04 (the test is stubbed:
    no counts give exactly 0.0001)."""
    from cardgames.engine.batch import compare

    monkeypatch.setattr(compare, "two_proportion", lambda *counts: compare.Test("z", 3.8906, 1e-4))
    a = summary_of([{"won": False}] * 20)
    b = summary_of([{"won": i < 9} for i in range(20)])
    last = _text_report(compared([Run("a", REPORT_HEADER, a), Run("b", REPORT_HEADER, b)])).splitlines()[-1]
    assert last.split() == ["won", "B", "vs", "A", "0.4500", "n/a", "z", "3.8906", "0.0001", "yes"]


def test_the_side_by_side_table_has_a_row_for_a_figure_only_a_later_file_has():
    """A figure the first file lacks (its records never held the field) still has its row, blank under A:
    B's cards left 2 4 6, mean 4, sd 2, interval 4 -+ t * 2 / sqrt 3 = 4 -+ 4.9683 (t = 4.3026527, Student's with 2
    degrees of freedom)."""
    a = summary_of([{"won": True}] * 3)
    b = summary_of([{"won": False, "cards_left": c} for c in (2, 4, 6)])
    lines = _text_report(compared([Run("a", REPORT_HEADER, a), Run("b", REPORT_HEADER, b)])).splitlines()
    rows = [line.split() for line in lines if line.split()[:1] == ["cards_left"]]
    assert rows == [["cards_left", "4.0000", "[-0.9683,", "8.9683]"]]


def test_one_file_given_twice_carries_its_comparison_in_its_later_row_only():
    """CSV rows of the first file are the base: no test columns, even when the same file comes again."""
    run = Run("a.jsonl", REPORT_HEADER, summary_of([{"won": i % 2 == 0} for i in range(10)]))
    rows, _ = csv_rows([run, run], against_first([run, run]))
    assert "test" not in rows[0] and rows[1]["test"] == "z" and rows[1]["p_value"] == 1.0


def test_runs_past_the_26th_are_lettered_f_and_their_position():
    """Letters run out after Z: the 27th run is F26, in its title line and in its comparison."""
    runs = [Run(f"r{i}", REPORT_HEADER, summary_of([{"won": True}, {"won": i % 2 == 0}])) for i in range(27)]
    lines = _text_report(runs).splitlines()
    assert lines[25].startswith("Z: r25: ") and lines[26].startswith("F26: r26: ")
    assert lines[-1].split()[:4] == ["won", "F26", "vs", "A"]


# -- worker, executors, runner --------------------------------------------------------------
def eiffel_job(**changes):
    game = load_game("eiffel-tower")
    return replace(Job(game.id, (), 1, ("greedy",), "native", "", (), game.spec.sha256, records=True), **changes)


def test_a_chunk_of_several_runs_plays_and_counts_every_seed():
    """A chunk may join runs (the gaps a resumed file leaves): its game count is all their seeds, its
    lines one a seed in order, each a record with its seed first (the result-file format)."""
    result = play_chunk(eiffel_job(), ((0, 2), (5, 7)))
    assert result.games == 4 and result.summary.games == 4
    lines = result.lines.split(b"\n")
    assert lines[-1] == b"" and [orjson.loads(line)["seed"] for line in lines[:-1]] == [0, 1, 5, 6]
    assert all(line.startswith(b'{"seed":') for line in lines[:-1])
    quiet = play_chunk(eiffel_job(records=False), ((0, 2), (5, 7)))
    assert quiet.lines == b"" and quiet.summary == result.summary


def test_a_rules_refusal_mid_game_names_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that refuses mid-game (a Turup pile too large to list) stops the chunk with an error naming the
    batch seed whose game it was: without it, a user of a million-game batch cannot replay the game."""
    import cardgames.engine.core as core

    played: list[int] = []

    def refusing(*args: object, **kwargs: object) -> object:
        played.append(len(played))
        if len(played) == 3:  # the third game of the chunk: seed 6
            raise CardgamesError("the pile is too large to list")
        return real(*args, **kwargs)

    real = core.play_out
    monkeypatch.setattr(core, "play_out", refusing)
    with pytest.raises(CardgamesError, match=r"^seed 6: the pile is too large to list$"):
        play_chunk(eiffel_job(), ((4, 9),))


def test_a_worker_with_other_configs_refuses_the_job():
    """A worker (a remote Dask one, say) whose configs hash otherwise would play other rules."""
    with pytest.raises(CardgamesError, match="its configs differ from the parent's"):
        setup(eiffel_job(config_sha256="0" * 64))


def test_the_executor_follows_backend_and_workers():
    """One worker plays in this process; more start a pool of that many; dask its own cluster."""
    assert isinstance(make_executor("process", 1, None), SerialExecutor)
    pool = make_executor("process", 2, None)
    assert isinstance(pool, ProcessExecutor) and pool.workers == 2
    dask = make_executor("dask", 3, None)
    assert isinstance(dask, DaskExecutor) and (dask.workers, dask.scheduler) == (3, None)
    with pytest.raises(OptionConflictError):
        make_executor("process", 2, "tcp://127.0.0.1:1")


def test_the_pool_starts_every_worker_at_once_with_ctrl_c_ignored(monkeypatch, ctrl_c_raises):
    """Its workers are spawned (the same on every system) while SIGINT is ignored, so that a Ctrl-C
    while they import cannot print tracebacks; the batch's own handler is restored after."""
    seen = []

    class Recording:
        def __init__(self, workers, mp_context, initializer, initargs):
            seen.append(("start", signal.getsignal(signal.SIGINT), workers, mp_context.get_start_method(),
                         initializer, initargs))

        def submit(self, fn, *args):
            seen.append(("submit", signal.getsignal(signal.SIGINT)))

        def shutdown(self, **kwargs):
            pass

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    with ProcessExecutor(3):
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert seen == [("start", signal.SIG_IGN, 3, "spawn", _start_worker, (os.getpid(), None, None)),
                    *[("submit", signal.SIG_IGN)] * 3]


def test_a_pools_workers_say_their_first_compile_once_for_them_all(monkeypatch):
    """A fresh install's first Torqu batch sat with no bar and no word while its workers compiled numba's loops
    (the parent, which plays nothing, said nothing): the workers are given the parent's announcer, and the
    first of them to compile says it, the others not (one flag for the pool)."""
    import multiprocessing

    from cardgames.engine import compiled
    from cardgames.engine.batch import executors

    said: list[str] = []
    monkeypatch.setattr(executors, "announcer", lambda: said.append)
    with ProcessExecutor(2) as executor:
        parent, say, told = executor._pool._initargs
        assert parent == os.getpid() and say == said.append and told.value == 0
    told = multiprocessing.get_context("spawn").Value("b", 0)
    sigint = signal.getsignal(signal.SIGINT)
    watched: list[int] = []
    monkeypatch.setattr(executors, "_exit_with_parent", watched.append)  # not this test run's own exit
    try:
        for _ in range(3):  # each worker's start, then its first compile
            _start_worker(os.getpid(), said.append, told)
            compiled.announcer()(compiled.COMPILING)
        assert said == [compiled.COMPILING] and signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        assert watched == [os.getpid()] * 3
    finally:
        signal.signal(signal.SIGINT, sigint)
        compiled.announce(None)


def test_pool_workers_ignore_ctrl_c_and_a_dead_one_is_one_error():
    """Ctrl-C is the batch's to handle; a worker killed (out of memory) ends the batch with a hint
    to resume, not a BrokenProcessPool traceback."""
    with ProcessExecutor(1) as executor:
        assert executor._pool.submit(signal.getsignal, signal.SIGINT).result() == signal.SIG_IGN
        for process in list(executor._pool._processes.values()):
            process.kill()
            process.join()
        with pytest.raises(CardgamesError, match="a worker process died .*rerun with --resume"):
            list(executor.map(eiffel_job(), [((0, 1),)]))


def test_run_batch_counts_and_reports_exactly_the_seeds_it_plays(tmp_path):
    """Resuming a file with a gap (seeds 5-9 missing) over a longer range plays the gap and the new
    seeds, in chunks that join them: the progress total, the chunks reported, the games played and
    reused are counted seed by seed, and the file ends up as a fresh run's, in its order."""
    game = load_game("eiffel-tower")
    fresh, out = tmp_path / "fresh.jsonl", tmp_path / "r.jsonl"
    run_batch(game, ["greedy"], "native", SeedRange(0, 29), out=str(fresh))
    lines = fresh.read_bytes().split(b"\n")
    out.write_bytes(b"\n".join(lines[:6] + lines[11:21]) + b"\n")  # seeds 0-4 and 10-19
    started, reported = [], []
    outcome = run_batch(game, ["greedy"], "native", SeedRange(0, 29), out=str(out), resume=True,
                        on_start=started.append, on_chunk=reported.append)
    assert started == [15] and sum(reported) == 15 and (outcome.played, outcome.reused) == (15, 15)
    assert outcome.summary.games == 30 and not outcome.torn
    assert sorted(out.read_bytes().split(b"\n")) == sorted(fresh.read_bytes().split(b"\n"))


@pytest.mark.parametrize("resume", [False, True])
def test_a_result_file_that_appears_while_the_batch_plays_is_left_alone(tmp_path, resume):
    """The file is made with the first results, so another batch given the same new ``--out`` could
    start it meanwhile: opened for writing, it was cut off and both runs exited 0 (an analyst audit's
    finding). Now the later one stops, the other's file as it was."""
    game = load_game("eiffel-tower")
    out = tmp_path / "r.jsonl"
    theirs = b'{"format":"cardgames-batch","their":"header"}\n{"seed":0,"won":true}\n'
    with pytest.raises(CardgamesError, match=rf"^{out} appeared after this batch began \(another batch writing it\?\)"):
        run_batch(game, ["greedy"], "native", SeedRange(0, 4), out=str(out), resume=resume,
                  on_start=lambda games: out.write_bytes(theirs))
    assert out.read_bytes() == theirs


def test_a_result_file_is_locked_while_a_batch_writes_it(tmp_path):
    """Two batches resuming one file each wrote at its own offset, over the other's lines: a batch holds
    the file's lock while it writes (a new file from its creation, a resumed one from its reading), and
    another is refused with one line, the file untouched; the lock ends with the batch."""
    from cardgames.engine.batch.results import locked

    game = load_game("eiffel-tower")
    out = tmp_path / "r.jsonl"
    refused = []

    def try_another(games):
        with pytest.raises(CardgamesError, match=rf"^{out} is being written by another batch: let it finish"):
            locked(out)
        refused.append(games)

    run_batch(game, ["greedy"], "native", SeedRange(0, 4), out=str(out), on_chunk=try_another)
    assert refused  # a new file, locked from its creation
    run_batch(game, ["greedy"], "native", SeedRange(0, 9), out=str(out), resume=True, on_chunk=try_another)
    assert len(refused) > 1  # a resumed one, and the first batch's lock had ended with it
    written = out.read_bytes()
    holder = locked(out)
    try:
        with pytest.raises(CardgamesError, match="is being written by another batch"):
            run_batch(game, ["greedy"], "native", SeedRange(0, 19), out=str(out), resume=True)
    finally:
        holder.close()
    assert out.read_bytes() == written
    run_batch(game, ["greedy"], "native", SeedRange(0, 19), out=str(out), resume=True)


def test_resuming_a_finished_file_still_cuts_its_torn_line(tmp_path):
    """Nothing left to play, but a torn last line (a second run killed mid-write) is cut off all the
    same, so the file ends in a whole line; a header cut short is torn too, and started afresh."""
    game = load_game("eiffel-tower")
    out = tmp_path / "r.jsonl"
    run_batch(game, ["greedy"], "native", SeedRange(0, 4), out=str(out))
    whole = out.read_bytes()
    out.write_bytes(whole + b'{"seed":3,"wo')
    started = []
    outcome = run_batch(game, ["greedy"], "native", SeedRange(0, 4), out=str(out), resume=True,
                        on_start=started.append)
    assert started == [0] and outcome.played == 0 and outcome.reused == 5 and outcome.torn
    assert out.read_bytes() == whole
    out.write_bytes(whole[:whole.index(b"\n") // 2])
    outcome = run_batch(game, ["greedy"], "native", SeedRange(0, 4), out=str(out), resume=True)
    assert outcome.torn and outcome.played == 5 and out.read_bytes() == whole


def test_a_dask_schedulers_workers_are_its_threads(monkeypatch):
    """On a cluster the window of chunks in flight follows its threads (all its workers'), and at
    least one, even before any worker has joined; a local cluster is the workers asked for."""
    dask_distributed = pytest.importorskip("dask.distributed")

    threads = {}

    class Client:
        def __init__(self, *args, **kwargs):
            pass

        def nthreads(self):
            return threads

        def wait_for_workers(self, n, timeout):  # one has joined (its threads may not be counted yet)
            pass

        def close(self):
            pass

    monkeypatch.setattr(dask_distributed, "Client", Client)
    monkeypatch.setattr(dask_distributed, "LocalCluster", lambda *args, **kwargs: Client())
    for found, workers in (({"tcp://a": 2, "tcp://b": 3}, 5), ({}, 1)):
        threads.clear()
        threads.update(found)
        with DaskExecutor(7, "tcp://127.0.0.1:8786") as executor:
            assert executor.workers == workers
    with DaskExecutor(2, None) as executor:
        assert executor.workers == 2


# -- chunking and the window of chunks in flight (mutation-testing audit) --------------------
def test_run_batch_sizes_chunks_by_the_measured_speed_and_the_executors_workers(tmp_path, monkeypatch) -> None:
    """After the first chunks of 8 seeds, each chunk holds what the games measured so far say takes
    5 s, capped so that every one of the executor's workers (a cluster's threads, not the count
    asked for) keeps busy: with games measured as fast and 4 workers, 640 seeds are played 8 then
    20 at a time, every seed once and in order."""
    from cardgames.engine.batch import runner

    clock = [0.0]

    def tick() -> float:  # a worker's clock: every chunk is measured at 1 ms, far under 5 s
        clock[0] += 0.001
        return clock[0]

    class FourWorkers(SerialExecutor):
        workers = 4

    monkeypatch.setattr("cardgames.engine.batch.worker.time", types.SimpleNamespace(perf_counter=tick))
    monkeypatch.setattr(runner, "make_executor", lambda backend, workers, scheduler: FourWorkers())
    reported: list[int] = []
    out = tmp_path / "r.jsonl"
    outcome = run_batch(load_game("eiffel-tower"), ["greedy"], "native", SeedRange(0, 639), workers=1, out=str(out),
                        on_chunk=reported.append)
    assert reported == [8] + [20] * 31 + [12] and outcome.played == outcome.summary.games == 640
    assert [orjson.loads(line)["seed"] for line in out.read_bytes().split(b"\n")[1:-1]] == list(range(640))


def test_the_pool_keeps_a_bounded_window_of_chunks_queued_beyond_the_running_ones(monkeypatch) -> None:
    """Each worker has chunks queued behind the one it plays (no worker waits for IPC), but never
    more than ``workers * WINDOW_PER_WORKER`` are in flight (memory stays flat whatever the batch
    size); results come back in submission (seed) order, every chunk once."""
    from cardgames.engine.batch import executors

    submitted: list[object] = []

    class Done:
        def __init__(self, value: object):
            self.value = value

        def result(self) -> object:
            return self.value

    class Immediate:  # a pool whose tasks are done as soon as submitted
        def __init__(self, *args: object, **kwargs: object):
            pass

        def submit(self, fn, *args):
            if fn is executors.play_chunk:
                submitted.append(args[1])
            return Done(fn(*args))

        def shutdown(self, **kwargs: object) -> None:
            pass

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Immediate)
    window = 2 * executors.WINDOW_PER_WORKER
    chunks_ = [((seed, seed + 1),) for seed in range(window + 4)]
    in_flight, seeds = [], []
    with ProcessExecutor(2) as executor:
        for handed, result in enumerate(executor.map(eiffel_job(), chunks_), 1):
            in_flight.append(len(submitted) - handed)  # submitted, and not yet handed back
            seeds += [orjson.loads(line)["seed"] for line in result.lines.split(b"\n")[:-1]]
    assert window > 2 and in_flight == [window] * 4 + list(range(window - 1, -1, -1))
    assert seeds == list(range(window + 4)) and submitted == chunks_


def test_a_local_cluster_whose_client_cannot_connect_is_closed_and_named(monkeypatch) -> None:
    """A LocalCluster started for the run but not reached (its client fails) is closed again, not
    left running with its worker processes, and the failure is one error naming it."""
    dask_distributed = pytest.importorskip("dask.distributed")
    closed: list[str] = []

    class Cluster:
        def __init__(self, *args: object, **kwargs: object):
            pass

        def close(self) -> None:
            closed.append("cluster")

    def client(*args: object, **kwargs: object):
        raise OSError("connection refused")

    monkeypatch.setattr(dask_distributed, "LocalCluster", Cluster)
    monkeypatch.setattr(dask_distributed, "Client", client)
    refused = "cannot start or reach Dask scheduler a local cluster: connection refused"
    with pytest.raises(CardgamesError, match=refused):
        with DaskExecutor(2, None):
            pass
    assert closed == ["cluster"]


def test_the_progress_bar_is_full_only_when_every_game_is_done() -> None:
    """The bar's '#'s are the whole 24ths done, rounded down: 99 games of 100 leave it one short of
    full, and 1 of 16 (1.5 24ths) draws one."""
    progress = Progress(enabled=True, stream=io.StringIO())
    progress.start(100)
    progress.done = 99
    assert progress.line(1.0).startswith("[" + "#" * 23 + ".]  99.0% 99/100 games")
    progress.total, progress.done = 16, 1
    assert progress.line(1.0).startswith("[#" + "." * 23 + "]")


def test_a_line_of_exactly_the_limit_is_read() -> None:
    """The limit is the longest line allowed, newline included: a line of ``limit`` bytes is read,
    one of ``limit + 1`` is refused with its line number."""
    from cardgames.engine.lines import bounded_lines

    assert list(bounded_lines(io.BytesIO(b"1234567\n12\n"), 8, "r.jsonl", "a result file")) == \
        [(1, b"1234567\n"), (2, b"12\n")]
    with pytest.raises(CardgamesError, match=r"^r.jsonl:2: a line longer than 8 bytes: not a result file$"):
        list(bounded_lines(io.BytesIO(b"12\n12345678\n"), 8, "r.jsonl", "a result file"))


@pytest.mark.parametrize("game_id, players, option, value, first", [
    ("turup", 2, None, None, 1), ("turup", 7, "first_dealer", 6, 0), ("turup", 12, "first_dealer", 14, 3),
    ("torqu", 3, None, None, 0), ("torqu", 4, "first_player", 6, 2), ("torqu", 4, "partners", True, 0),
    ("towers", 3, "first_player", "seat0", 0), ("towers", 4, None, None, None), ("eiffel-tower", 1, None, None, 0),
])
def test_a_result_files_header_names_the_seat_that_moves_first(game_id, players, option, value, first) -> None:
    """``first_seat``, on which ``first_player_advantage`` is measured, is the seat whose turn a new
    game's state gives, on every seed; or null where the deal decides (Towers' alphabetical order)."""
    game = load_game(game_id, (), players)
    if option is not None:
        game = type(game)(replace(game.spec, options={**game.spec.options, option: value}))
    assert make_header(game, ["random"] * players, "native", "")["first_seat"] == first
    starters = {game.new_state(seed).current_player for seed in range(12)}
    assert starters == {first} if first is not None else len(starters) > 1


def test_a_p_value_is_never_printed_as_the_significance_level_beside_its_verdict():
    """0.04996 printed 0.0500 beside "yes" (the statistics audit's finding): where four decimals would
    round onto the level, as many more are shown as keep it off; six were not always enough (0.0499999
    printed 0.050000 beside "yes", a later audit's finding)."""
    assert p_text(0.04996) == "0.04996" and p_text(0.05004) == "0.05004" and p_text(ALPHA) == "0.0500"
    assert p_text(0.0499999) == "0.0499999" and p_text(0.05000001) == "0.05000001"
    below = math.nextafter(ALPHA, 0)
    assert float(p_text(below)) == below != ALPHA
    assert p_text(0.5) == "0.5000" and p_text(3.1e-05) == "3.1e-05" and p_text(None) == "n/a"
    assert p_text(0.0) == "< 1e-300" and p_text(5e-324) == "4.9e-324"  # 0: below what a float holds
    assert p_said(0.0) == "p < 1e-300" and p_said(0.5) == "p = 0.5000"


@pytest.mark.parametrize("line, message", [
    (b'{"seed": 3, "won": [true]}', ":4: figure 'won' is a list here, but true/false in an earlier record"),
    (b'{"seed": 3, "won": {"a": 1}}', ":4: figure 'won' is a mapping here, but true/false in an earlier record"),
    (b'{"seed": 3, "won": 4}', ":4: figure 'won' is 4 here, but true/false in an earlier record"),
    (b'{"seed": 3, "cards": 4}', ":4: figure 'cards' is 4 here, but a list in an earlier record"),
    (b'{"seed": 3, "won": ' + b"[" * 500 + b"1" + b"]" * 500 + b"}", ":4: figure 'won' is a list here"),
    (b'{"seed": 3, "deep": ' + b'{"a":' * 1000 + b"1" + b"}" * 1000 + b"}", ":4: values nested too deeply"),
])
def test_a_figure_that_changes_shape_or_nests_too_deep_is_named_at_its_line(tmp_path, line, message):
    """A figure turned into a list or a mapping in one record was read as another figure, the first's n
    quietly smaller; nested hundreds of levels deep it crashed ``stats`` (the fuzzing audit's findings)."""
    path = tmp_path / "r.jsonl"
    write_file(path, HEADER, [{"seed": 1, "won": True, "cards": [1, 2]}, {"seed": 2, "won": False, "cards": [3]}],
               tail=line + b"\n")
    with pytest.raises(CardgamesError) as err:
        read_summary(path)
    assert str(err.value).startswith(f"{path}{message}")


def test_workers_that_fail_at_once_leave_no_file(monkeypatch, tmp_path) -> None:
    """The results file is started with the first results: workers that cannot play the job (a remote Dask
    cluster whose configs differ, a Dask audit's case) left a header-only file, which then asked for --resume."""
    from cardgames.engine.batch import runner

    class Refusing(SerialExecutor):
        def map(self, job, chunks):
            raise CardgamesError("worker tcp://10.0.0.2:4000 played eiffel-tower with config 0123, not 4567: its "
                                 "configs differ from the parent's")
            yield  # a generator, as the executors' maps are

    monkeypatch.setattr(runner, "make_executor", lambda backend, workers, scheduler: Refusing())
    out = tmp_path / "r.jsonl"
    with pytest.raises(CardgamesError, match="configs differ"):
        run_batch(load_game("eiffel-tower"), ["greedy"], "native", SeedRange(0, 9), workers=1, out=str(out))
    assert not out.exists()


def test_the_job_names_its_config_folders_absolutely(monkeypatch, tmp_path) -> None:
    """A Dask cluster's workers may run in another folder: a relative --configs sent as it was named another
    folder there, or none, and the workers refused the job as of other configs."""
    from cardgames.engine.batch import runner

    jobs: list[Job] = []

    class Watching(SerialExecutor):
        def map(self, job, chunks):
            jobs.append(job)
            return super().map(job, chunks)

    (tmp_path / "mine" / "games").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(runner, "make_executor", lambda backend, workers, scheduler: Watching())
    run_batch(load_game("eiffel-tower"), ["greedy"], "native", SeedRange(0, 1), workers=1, config_dirs=("mine",))
    assert jobs[0].config_dirs == (str(tmp_path / "mine"),)


def test_a_dask_worker_killed_under_its_chunk_is_the_same_one_line_as_a_pools(monkeypatch) -> None:
    """Dask gives up on a task whose workers keep dying with KilledWorker, which ended the batch in a
    traceback; it is the process pool's one line, saying how to finish the batch."""
    pytest.importorskip("distributed")
    from distributed.scheduler import KilledWorker

    from cardgames.engine.batch import executors

    def dying(*args: object):
        raise KilledWorker("play_chunk-1", None, 3)
        yield

    monkeypatch.setattr(executors, "_ordered", dying)
    executor = DaskExecutor(1, None)  # not entered: map only hands the client to _ordered
    executor._client = None
    with pytest.raises(CardgamesError, match=r"^a worker process died \(out of memory\? killed\?\): with --out, "
                                             r"rerun with --resume to finish the batch$"):
        list(executor.map(eiffel_job(), [((0, 1),)]))


@pytest.mark.parametrize("address", ["tls://127.0.0.1:1", "ucx://127.0.0.1:1"])
def test_a_scheduler_address_dask_cannot_use_is_one_line(address) -> None:
    """tls:// without certificates and ucx:// without its package made Dask raise TypeError, which ended the
    batch in a traceback; like an address it cannot parse, it is named in one line."""
    pytest.importorskip("distributed")
    with pytest.raises(CardgamesError, match=f"^cannot start or reach Dask scheduler {address}: "):
        with DaskExecutor(1, address):
            pass


def test_a_sigterm_while_a_local_cluster_starts_waits_for_it_then_closes_it(monkeypatch, ctrl_c_raises) -> None:
    """A SIGTERM that came while the LocalCluster was being made stopped the batch with the cluster half
    made, closed by Dask's exit hook with a traceback, its workers' folders left behind. It is held until
    the cluster is up, then raised, and the executor closes the cluster it now has."""
    dask_distributed = pytest.importorskip("dask.distributed")

    class Stopped(BaseException):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stopped

    events: list[str] = []

    class Cluster:
        def __init__(self, *args: object, **kwargs: object):
            signal.raise_signal(signal.SIGTERM)  # as `kill` would, mid-start
            events.append("cluster made")

        def close(self) -> None:
            events.append("cluster closed")

    class Client:
        def __init__(self, *args: object, **kwargs: object):
            events.append("client made")

        def close(self) -> None:
            events.append("client closed")

    monkeypatch.setattr(dask_distributed, "LocalCluster", Cluster)
    monkeypatch.setattr(dask_distributed, "Client", Client)
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stopped):
            with DaskExecutor(2, None):
                events.append("ran")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert events == ["cluster made", "client made", "client closed", "cluster closed"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C's handler is back


def test_a_scheduler_with_no_worker_is_named_instead_of_waited_on_for_ever(monkeypatch) -> None:
    """A scheduler that no worker joins made the batch wait for ever without a word; it is given Dask's connect
    timeout to get one, then named in one line (and the client closed)."""
    dask_distributed = pytest.importorskip("dask.distributed")
    asked: list[object] = []

    class Client:
        def __init__(self, *args: object, **kwargs: object):
            pass

        def wait_for_workers(self, n: int, timeout: object) -> None:
            asked.append((n, timeout))
            raise TimeoutError("Only 0/1 workers arrived after 30s")

        def close(self) -> None:
            asked.append("closed")

    monkeypatch.setattr(dask_distributed, "Client", Client)
    with pytest.raises(CardgamesError, match=r"^cannot start or reach Dask scheduler tcp://10\.0\.0\.9:8786: "
                                             r"Only 0/1 workers arrived after 30s$"):
        with DaskExecutor(2, "tcp://10.0.0.9:8786"):
            pass
    assert asked == [(1, "30s"), "closed"]


def test_a_mean_interval_stays_finite_while_the_sd_does():
    """Values of both signs near 1.7e308 have an sd a float holds (1.79e308) and an interval of +-1.28e308 about
    their mean: t times the sd, taken first, overflowed to an interval of -inf..inf (an audit's finding)."""
    values = {1.7e308: 5, -1.7e308: 5}
    row = describe(values)
    assert math.isfinite(row["sd"]) and math.isfinite(row["ci_high"]) and row["ci_low"] == -row["ci_high"]
    assert row["ci_high"] == pytest.approx(2.2621571627409915 * (row["sd"] / math.sqrt(10)))


def test_a_games_float_values_are_summed_exactly():
    """A game's mean over its seats is exact, as the docs promise: floats were summed as floats, so that
    [1e16, 1, -1e16, 1] lost its ones (a pooled mean of 0.125 where the games' exact means average 0.375)
    and [1.5e308, 1.5e308, ...] overflowed to a traceback (an audit's finding)."""
    cancel = Summary()
    for last in (0, 1, 0, 1):
        cancel.add({"scores": [1e16, 1, -1e16, last]})
    assert cancel.figures(4)["scores"]["mean"] == 0.375
    huge = Summary()
    for last in range(3):
        huge.add({"scores": [1.5e308, 1.5e308, 1.0, float(last)]})
    assert huge.figures(4)["scores"]["mean"] == 0.75e308


@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-2**70, 2**70)), min_size=1))
def test_the_exact_sum_of_a_games_seats_is_the_sum_of_their_fractions(numbers):
    """The one-denominator sum (a float's denominator is a power of two, so the largest is a common one) is
    exactly the sum of each number's Fraction, subnormals, huge floats and big ints included."""
    assert _exact_sum(numbers) == sum(map(fractions.Fraction, numbers), fractions.Fraction(0))


def test_a_figure_named_with_a_long_number_is_sorted_without_reading_it():
    """A run of 5,000 digits in a figure's name (past int()'s 4,300: a reviewer's ``stats`` failed) sorts by
    its length, shorter numbers first."""
    names = list(summary_of([{"x" + "7" * 5000: 1, "x9": 2, "x10": 3}]).figures(1))
    assert names == ["x9", "x10", "x" + "7" * 5000]


@pytest.mark.parametrize("names, read", [(["x9", "x01"], ["x01", "x9"]),  # leading zeros do not lengthen a number
                                         (["x1", "x01"], ["x01", "x1"]),  # and ties break by the name itself
                                         (["a", "2x"], ["2x", "a"]),  # a number before a letter
                                         (["x\u0664", "x\u0663", "x4"], ["x4", "x\u0663", "x\u0664"]),  # ASCII only
                                         (["x\u0662", "x10"], ["x10", "x\u0662"]),  # another script's 2 is no number
                                         (["x02", "x1"], ["x1", "x02"])])  # digits compared without their zeros
def test_figure_names_sort_as_read(names, read):
    """The reading order's number runs (a mutation audit's gaps): by value, zeros aside, ties by name; digits of
    other scripts are text, compared as written (their zeros are not ASCII's, a reviewer's finding)."""
    assert list(summary_of([{name: 1 for name in names}]).figures(1)) == read
