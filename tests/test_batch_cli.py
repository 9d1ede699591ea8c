"""``cardgames batch`` and ``cardgames stats`` end to end: determinism across workers and
backends, kill-and-resume, comparisons, bad input, plots."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from cardgames.engine.agents import make_agents
from cardgames.engine.batch import executors, runner
from cardgames.engine.batch.executors import SerialExecutor
from cardgames.engine.batch.plot import _score_series, _win_figures, image_format
from cardgames.engine.batch.report import Run, p_text
from cardgames.engine.batch.stats import Summary
from cardgames.engine.core import play
from cardgames.engine.registry import load_game

CLI = [sys.executable, "-c", "from cardgames.cli.main import main; main()"]


def batch(run_cli, *args: str):
    result = run_cli("batch", "--game", "eiffel-tower", "--quiet", *args)
    assert result.exit_code == 0, result.output
    return result


def records(path: Path) -> list[bytes]:
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"", "the file must end with a whole line"
    return lines[1:-1]


def header_of(path: Path) -> dict:
    return orjson.loads(path.read_bytes().split(b"\n", 1)[0])


def stats_json(run_cli, *files: Path) -> dict:
    result = run_cli("stats", *map(str, files), "--format", "json")
    assert result.exit_code == 0, result.output
    return orjson.loads(result.stdout)


def test_records_are_the_games_results(run_cli, tmp_path):
    out = tmp_path / "r.jsonl"
    batch(run_cli, "--seeds", "40-49", "--workers", "1", "--out", str(out))
    header = orjson.loads(out.read_bytes().split(b"\n")[0])
    game = load_game("eiffel-tower")
    assert header["game"] == "eiffel-tower" and header["variants"] == [] and header["players"] == 1
    assert header["agents"] == ["greedy"] and header["rng"] == "native"
    assert header["config_sha256"] == game.spec.sha256
    agents = make_agents([], game)
    for line, seed in zip(records(out), range(40, 50), strict=True):
        assert orjson.loads(line) == {"seed": seed, **play(game, seed, agents).state.result()}


def test_same_records_and_stats_for_1_and_2_workers_and_dask(run_cli, tmp_path, monkeypatch):
    """The dask run starts a LocalCluster of 2 worker processes (a few seconds): the backend
    users get, not a threaded stand-in. Two workers even on a one-core machine, where batch
    would cap them to one."""
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr("cardgames.cli.batch._default_workers", lambda: 16)
    outputs = {}
    for name, extra in {"serial": ["--workers", "1"], "pool": ["--workers", "2"],
                        "dask": ["--backend", "dask", "--workers", "2"]}.items():
        out = tmp_path / f"{name}.jsonl"
        result = batch(run_cli, "--seeds", "100-699", "--out", str(out), "--format", "json", *extra)
        report = orjson.loads(result.stdout)
        assert report["games"] == 600 and report["file"] == str(out)
        del report["file"]
        outputs[name] = (out.read_bytes(), report)
    assert outputs["serial"] == outputs["pool"] == outputs["dask"]
    seeds = [orjson.loads(line)["seed"] for line in records(tmp_path / "pool.jsonl")]
    assert seeds == list(range(100, 700))
    # the statistics printed by batch are those stats recomputes from the file
    again = stats_json(run_cli, tmp_path / "dask.jsonl")["files"][0]
    assert again["figures"] == outputs["serial"][1]["figures"]


def test_workers_beyond_the_cores_are_capped_with_a_notice(run_cli, monkeypatch):
    """A hundred processes on two cores only share them (and each holds an engine in memory):
    the local backends run one per core, and say so; the results do not depend on the count."""
    monkeypatch.setattr("cardgames.cli.batch._default_workers", lambda: 1)
    capped = run_cli("batch", "--game", "eiffel-tower", "--seeds", "1-50", "--workers", "100", "--format", "json")
    assert capped.exit_code == 0
    assert "--workers 100: the run has 1 core here, so 1 worker plays it" in capped.stderr
    serial = run_cli("batch", "--game", "eiffel-tower", "--seeds", "1-50", "--workers", "1", "--format", "json")
    assert capped.stdout == serial.stdout and "core here" not in serial.stderr


def test_kill_and_resume(run_cli, tmp_path):
    out = tmp_path / "r.jsonl"
    seeds = range(0, 8000)
    args = ["batch", "--game", "eiffel-tower", "--seeds", "0-7999", "--workers", "2", "--out", str(out), "--quiet"]
    proc = subprocess.Popen([*CLI, *args], start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while (not out.exists() or out.read_bytes().count(b"\n") < 3) and time.monotonic() < deadline:
            assert proc.poll() is None, "the batch ended before it could be killed"
            time.sleep(0.005)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the batch and its pool workers: its own process group
        proc.wait()
    written = out.read_bytes()
    done = written.count(b"\n") - 1
    assert 2 <= done < len(seeds), "killed mid-run"
    for line in written.split(b"\n")[1:-1]:
        orjson.loads(line)  # every line whole
    # as if killed in the middle of a write: a torn last line
    with open(out, "ab") as handle:
        handle.write(b'{"seed":12345,"won":tr')
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-7999", "--workers", "2", "--out", str(out),
                     "--resume", "--format", "json")
    assert result.exit_code == 0, result.output
    assert "torn last line" in result.stderr and f"{done:,} already in" in result.stderr
    lines = records(out)
    assert sorted(orjson.loads(line)["seed"] for line in lines) == list(seeds)  # each seed exactly once
    resumed = orjson.loads(result.stdout)
    fresh = orjson.loads(batch(run_cli, "--seeds", "0-7999", "--workers", "2", "--format", "json").stdout)
    assert resumed["games"] == 8000 and resumed["figures"] == fresh["figures"]
    # resuming a complete file plays nothing and reports the same statistics
    again = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-7999", "--out", str(out), "--resume",
                    "--format", "json")
    assert "played 0 games" in again.stderr and orjson.loads(again.stdout)["figures"] == fresh["figures"]
    assert records(out) == lines


def test_resume_a_sub_range_reports_only_that_range(run_cli, tmp_path):
    out = tmp_path / "r.jsonl"
    batch(run_cli, "--seeds", "0-99", "--workers", "1", "--out", str(out))
    result = batch(run_cli, "--seeds", "50-149", "--workers", "1", "--out", str(out), "--resume", "--format", "json")
    assert orjson.loads(result.stdout)["games"] == 100
    assert sorted(orjson.loads(line)["seed"] for line in records(out)) == list(range(150))
    direct = orjson.loads(batch(run_cli, "--seeds", "50-149", "--workers", "1", "--format", "json").stdout)
    assert orjson.loads(result.stdout)["figures"] == direct["figures"]


def test_stats_detects_a_real_difference_and_none_between_seed_ranges(run_cli, tmp_path):
    plain, strict, later = tmp_path / "plain.jsonl", tmp_path / "strict.jsonl", tmp_path / "later.jsonl"
    batch(run_cli, "--seeds", "0-799", "--workers", "1", "--out", str(plain))
    batch(run_cli, "--seeds", "0-799", "--workers", "1", "--variant", "strict", "--out", str(strict))
    batch(run_cli, "--seeds", "800-1599", "--workers", "1", "--out", str(later))
    report = stats_json(run_cli, plain, strict, later)
    tests = {(t["file"], t["figure"]): t for t in report["comparisons"]}
    won = tests[(str(strict), "won")]
    # the same seeds: tested seed by seed; other seeds: as independent samples
    assert won["test"] == "mcnemar" and won["significant"] and won["difference"] < -0.2 and won["p_value"] < 1e-6
    assert won["difference_ci95_low"] < won["difference"] < won["difference_ci95_high"] < 0  # how large, too
    left = tests[(str(strict), "cards_left")]
    assert left["test"] == "paired-t" and left["significant"]
    same = [t for (file, _), t in tests.items() if file == str(later)]
    assert {t["figure"] for t in same} == {"won", "cards_left", "plays", "turns"}
    assert {t["test"] for t in same} == {"z", "welch-t"}
    assert not any(t["significant"] for t in same), same
    table = run_cli("stats", str(plain), str(strict))
    assert table.exit_code == 0
    assert "A: " in table.stdout and "(strict)" in table.stdout and "B vs A" in table.stdout
    assert "yes" in table.stdout.split("B vs A", 1)[1].splitlines()[0]
    csv = run_cli("stats", str(plain), str(strict), "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("file,game,variants,players,agents,config,figure,n,mean,ci95_low,ci95_high")
    assert csv[0].endswith("p_value,significant")
    config = header_of(strict)["config_sha256"][:12]
    assert any(line.startswith(f"{strict},eiffel-tower,strict,1,greedy,{config},won,800,") and line.endswith(",true")
               for line in csv)
    # the CI gate: exit 1 when a named figure differs, after the data, with the check on one line of stderr
    gate = run_cli("stats", str(plain), str(strict), "--fail-if-different", "won", "--format", "json")
    assert gate.exit_code == 1 and orjson.loads(gate.stdout)["comparisons"]
    assert gate.stderr.splitlines() == [f"check failed: won differs in {strict} from {plain} "
                                        f"(p = {p_text(won['p_value'])})"]  # as the table prints it
    passed = run_cli("stats", str(plain), str(later), "--fail-if-different", "won", "--fail-if-different", "plays")
    assert passed.exit_code == 0  # each gate that passed says so (a CI log then shows the check ran)
    said = passed.stderr.splitlines()
    assert [line.split(":")[0] for line in said] == ["--fail-if-different won", "--fail-if-different plays"]
    assert all(re.fullmatch(r"--fail-if-different \w+: no significant difference \(p = [0-9.e-]+\): passed", line)
               for line in said), said
    typo = run_cli("stats", str(plain), str(strict), "--fail-if-different", "wonn")  # a usage error: not a tripped gate
    assert typo.exit_code == 2 and typo.stdout == "" and "figure 'wonn' is not tested" in typo.stderr
    assert "did you mean 'won'" in typo.stderr
    alone = run_cli("stats", str(plain), "--fail-if-different", "won")
    assert alone.exit_code == 2 and "give two or more" in alone.stderr
    # a tolerance: tripped only by a significant difference larger than it (the CI author's walkthrough), and a
    # significant one within it said, so that a tolerance does not hide a change in silence
    drop = f"{won['difference']:.4g}"
    wide = run_cli("stats", str(plain), str(strict), "--fail-if-different", f"won:{-won['difference'] + 0.001:g}")
    assert wide.exit_code == 0 and wide.stderr.endswith(f", by {drop}, within the tolerance: passed\n")
    narrow = run_cli("stats", str(plain), str(strict), "--fail-if-different", f"won:{-won['difference'] - 0.001:g}",
                     "--fail-if-different", "plays:0")
    assert narrow.exit_code == 1 and narrow.stderr.splitlines()[-1].startswith(f"check failed: won differs in {strict}")
    assert f", by {drop}, more than {-won['difference'] - 0.001:g}; plays differs" in narrow.stderr
    for bad, words in [("won:-1", "must be a number, 0 or more"), ("won:nan", "must be a number"),
                       (":1", "a figure is needed before ':'"), ("won:x", "must be a number"),
                       ("", "'': a figure is needed (won, or won:0.01)")]:  # no ':' to be before (an analyst's)
        refused = run_cli("stats", str(plain), str(strict), "--fail-if-different", bad)
        assert refused.exit_code == 2 and refused.stdout == "" and words in refused.stderr, bad
    exact = run_cli("stats", str(plain), str(strict), "--fail-if-different", f"won:{-won['difference']!r}")
    assert exact.exit_code == 0  # "larger than DELTA": a difference of DELTA itself passes
    twice = run_cli("stats", str(plain), str(strict), "--fail-if-different", "won:0.1",
                    "--fail-if-different", "won:0.2")
    assert twice.exit_code == 2 and "two tolerances" in twice.stderr


def test_stats_names_the_configs_when_only_they_differ(run_cli, tmp_path):
    """A rule change made with --configs keeps every name: the table names each file's config."""
    from cardgames.engine.config import bundled_root

    plain, changed, folder = tmp_path / "plain.jsonl", tmp_path / "changed.jsonl", tmp_path / "configs"
    (folder / "games").mkdir(parents=True)
    game = (bundled_root() / "games" / "eiffel-tower.yaml").read_text()
    (folder / "games" / "eiffel-tower.yaml").write_text(game.replace("[1, 2, 3, 4, 5, 5]", "[1, 2, 3, 4, 5, 6]"))
    batch(run_cli, "--seeds", "0-49", "--workers", "1", "--out", str(plain))
    assert run_cli("--configs", str(folder), "batch", "--game", "eiffel-tower", "--quiet", "--seeds", "0-49",
                   "--workers", "1", "--out", str(changed)).exit_code == 0
    titles = run_cli("stats", str(plain), str(changed)).stdout.splitlines()[:2]
    hashes = [header_of(f)["config_sha256"][:12] for f in (plain, changed)]
    assert hashes[0] != hashes[1] and all(f"config {h}" in t for h, t in zip(hashes, titles, strict=True))
    assert f"config {hashes[0]}" not in run_cli("stats", str(plain), str(plain)).stdout.splitlines()[0]


def test_one_file_given_twice_is_compared_by_position(run_cli, tmp_path):
    once = tmp_path / "once.jsonl"
    batch(run_cli, "--seeds", "0-49", "--workers", "1", "--out", str(once))
    table = run_cli("stats", str(once), str(once)).stdout
    assert "B vs A" in table and "B vs B" not in table


def test_one_game_has_no_spread(run_cli, tmp_path):
    """One game's standard deviation and interval are undefined, not 0: n/a, null in JSON."""
    one = tmp_path / "one.jsonl"
    batch(run_cli, "--seeds", "7-7", "--workers", "1", "--out", str(one))
    plays = stats_json(run_cli, one)["files"][0]["figures"]["plays"]
    assert plays["n"] == 1 and plays["sd"] is None and plays["ci_low"] is None and plays["ci_high"] is None
    row = next(line for line in run_cli("stats", str(one)).stdout.splitlines() if line.split()[:1] == ["plays"])
    assert row.split()[3:6] == ["n/a", "n/a", "n/a"]
    side = run_cli("stats", str(one), str(one)).stdout
    assert "[n/a]" in side and "Traceback" not in side


def test_table_and_csv_output(run_cli, tmp_path):
    loud = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-99", "--workers", "1")
    assert "played 100 games" in loud.stderr and "ETA" not in loud.stderr  # stderr is no terminal: no bar
    table = batch(run_cli, "--seeds", "0-99", "--workers", "1").stdout
    assert table.startswith("eiffel-tower (no variants), 1 player, agents greedy, rng native: 100 games")
    assert "ci95_low" in table and "cards_left" in table and "p95" in table and "pools the seats" not in table
    csv = batch(run_cli, "--seeds", "0-99", "--workers", "1", "--format", "csv").stdout.splitlines()
    assert csv[0] == ("file,game,variants,players,agents,config,"
                      "figure,n,mean,ci95_low,ci95_high,sd,min,p5,p25,p50,p75,p95,max")
    config = load_game("eiffel-tower").spec.sha256[:12]
    assert csv[1].startswith(f",eiffel-tower,,1,greedy,{config},won,100,")  # no file: no --out


def test_pysolfc_numbers(run_cli, tmp_path):
    out = tmp_path / "ms.jsonl"
    batch(run_cli, "--seeds", "ms1-ms5", "--rng", "pysolfc", "--workers", "1", "--out", str(out))
    header = orjson.loads(out.read_bytes().split(b"\n")[0])
    assert header["rng"] == "pysolfc" and header["seed_prefix"] == "ms"
    game = load_game("eiffel-tower")
    first = orjson.loads(records(out)[0])
    assert first == {"seed": 1, **play(game, "ms1", make_agents([], game), "pysolfc").state.result()}


def test_ms_numbers_from_32000_are_played_as_ms_numbers(run_cli, tmp_path):
    """Below 32000 an ms number deals as the plain number does; from 32000 on they differ (the FreeCell
    LCG for ms numbers, Mersenne Twister for plain ones): each record is the ms game's."""
    out = tmp_path / "ms.jsonl"
    batch(run_cli, "--seeds", "ms40000-ms40001", "--rng", "pysolfc", "--workers", "1", "--out", str(out))
    game = load_game("eiffel-tower")
    agents = make_agents([], game)
    for line, number in zip(records(out), (40000, 40001), strict=True):
        assert orjson.loads(line) == {"seed": number, **play(game, f"ms{number}", agents, "pysolfc").state.result()}
    ms, plain = (play(game, number, agents, "pysolfc").state.result() for number in ("ms40000", "40000"))
    assert ms != plain  # the premise: the prefix changes the game


def test_a_range_whose_last_seed_is_no_game_is_refused_before_playing(run_cli, tmp_path):
    """Both ends of --seeds are checked first: ms numbers run 1..2**33-1, so a range ending at ms8589934592
    is one line of error, and no results file is started (the range spans several chunks, which a check of
    each chunk as it comes would have played and written up to the last)."""
    out = tmp_path / "ms.jsonl"
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "ms8589934560-ms8589934592", "--rng", "pysolfc",
                     "--workers", "1", "--out", str(out), "--quiet")
    assert result.exit_code == 1 and "'ms8589934592': ms numbers run 1..2**33-1" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.parametrize("args, words, code", [
    (["--seeds", "10-5"], "ends (5) before it starts (10)", 1),
    (["--seeds", "a-b"], "expected a range A-B", 1),
    (["--seeds", "ms1-ms3"], "the ms prefix is for --rng pysolfc", 2),
    (["--seeds", "0-3", "--rng", "pysolfc"], "0 is not a game", 1),
    (["--seeds", "0-3", "--agent", "clever"], "unknown agent", 1),
    (["--seeds", "0-3", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask", 2),
    (["--seeds", "0-3", "--backend", "dask", "--scheduler", ""], "--scheduler needs an address", 2),
    # blanks are no address either: refused as a usage error, not tried as a scheduler to reach
    (["--seeds", "0-3", "--backend", "dask", "--scheduler", "  "], "--scheduler needs an address", 2),
])
def test_bad_batch_input(run_cli, args, words, code):
    result = run_cli("batch", "--game", "eiffel-tower", *args)
    assert result.exit_code == code
    assert words in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_out_file_rules(run_cli, tmp_path):
    out = tmp_path / "r.jsonl"
    batch(run_cli, "--seeds", "0-9", "--workers", "1", "--out", str(out))
    before = out.read_bytes()
    again = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(out))
    assert again.exit_code == 1 and "exists: pass --resume" in again.stderr
    other = run_cli("batch", "--game", "eiffel-tower", "--variant", "strict", "--seeds", "0-9", "--out", str(out),
                    "--resume")
    assert other.exit_code == 1 and "holds results of another run (variants [], this run ['strict'])" in other.stderr
    agents = run_cli("batch", "--game", "eiffel-tower", "--agent", "random", "--seeds", "0-9", "--out", str(out),
                     "--resume")
    assert agents.exit_code == 1 and "agents ['greedy']" in agents.stderr
    assert out.read_bytes() == before
    usage = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--resume")
    assert usage.exit_code == 2 and "--resume needs --out" in usage.stderr


def test_resume_refuses_a_file_of_another_engine_version(run_cli, tmp_path):
    """Results of two engine versions are not one experiment (docs/batch.md): --resume stops, file untouched."""
    out = tmp_path / "r.jsonl"
    batch(run_cli, "--seeds", "0-4", "--workers", "1", "--out", str(out))
    header, rest = out.read_bytes().split(b"\n", 1)
    older = orjson.dumps({**orjson.loads(header), "engine_version": "0.0.1"}) + b"\n" + rest
    out.write_bytes(older)
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--workers", "1", "--out", str(out),
                     "--resume")
    assert result.exit_code == 1 and "holds results of another run (engine_version '0.0.1'" in result.stderr
    assert out.read_bytes() == older


def test_resume_never_overwrites_a_file_that_is_not_ours(run_cli, tmp_path):
    """A file with no whole first line is started afresh only if it is this run's header, cut short."""
    stranger = tmp_path / "keep.json"
    stranger.write_bytes(b'{"important":"data"}')
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-2", "--out", str(stranger), "--resume")
    assert result.exit_code == 1 and "keep.json:1: not a batch result file" in result.stderr  # whole JSON: no header
    assert stranger.read_bytes() == b'{"important":"data"}'
    stranger.write_bytes(b'{"important":"da')  # no whole first line
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-2", "--out", str(stranger), "--resume")
    assert result.exit_code == 1 and "not a batch result file of this experiment" in result.stderr
    assert stranger.read_bytes() == b'{"important":"da'
    ours = tmp_path / "ours.jsonl"
    batch(run_cli, "--seeds", "0-2", "--workers", "1", "--out", str(ours))
    whole = ours.read_bytes()
    ours.write_bytes(whole[:whole.index(b"\n") // 2])  # killed while writing the header
    again = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-2", "--workers", "1", "--out", str(ours),
                    "--resume")
    assert again.exit_code == 0 and ours.read_bytes() == whole


def test_stats_refuses_another_game(run_cli, tmp_path):
    ours = tmp_path / "ours.jsonl"
    batch(run_cli, "--seeds", "0-9", "--workers", "1", "--out", str(ours))
    header = orjson.loads(ours.read_bytes().split(b"\n")[0])
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_bytes(orjson.dumps({**header, "game": "torqu", "players": 4, "agents": ["random"] * 4}) + b"\n"
                       + b'{"seed":0,"scores":[1,2,3,4],"winners":[3],"moves":40}\n')
    result = run_cli("stats", str(ours), str(theirs))
    assert result.exit_code == 1
    assert f"{theirs}: game 'torqu' differs from {ours}'s 'eiffel-tower'" in result.stderr
    resumed = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(theirs), "--resume")
    assert resumed.exit_code == 1 and "holds results of another run (game 'torqu'" in resumed.stderr
    log = run_cli("stats", str(Path(__file__).parent / "golden" / "eiffel-tower-p1-native-7-greedy.json"))
    assert log.exit_code == 1 and "not a batch result file" in log.stderr
    missing = run_cli("stats", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert f"{empty}: empty" in run_cli("stats", str(empty)).stderr
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(ours.read_bytes()[:20])
    result = run_cli("stats", str(torn))
    assert result.exit_code == 1 and f"{torn}:1: no whole header line" in result.stderr


def test_stats_refuses_edited_files_in_one_line(run_cli, tmp_path):
    """A result file is data a user can edit: a wrong header or record is one line at its place,
    never a traceback, a hang or a huge allocation (a seat 5,000,000, an amount 1e99999999)."""
    ours = tmp_path / "ours.jsonl"
    batch(run_cli, "--seeds", "0-2", "--workers", "1", "--out", str(ours))
    header = orjson.loads(ours.read_bytes().split(b"\n")[0])
    cases = [({}, b'{"seed":9,"winners":[5000000]}', ":2: winners must list seats 0..0"),
             ({}, b'{"seed":9,"winners":[[1]]}', ":2: winners must list seats"),
             ({"players": 10**9}, b"", ":1: header field 'players'"),
             ({"variants": [1]}, b"", ":1: header field 'variants'"),
             ({"agents": None}, b"", ":1: header field 'agents'"),
             ({"agents": ["greedy", "greedy"]}, b"", ":1: header names 2 agents for 1 player")]
    for change, record, words in cases:
        path = tmp_path / "edited.jsonl"
        path.write_bytes(orjson.dumps({**header, **change}) + b"\n" + (record + b"\n" if record else b""))
        result = run_cli("stats", str(path))
        assert result.exit_code == 1 and f"{path}{words}" in result.stderr, (change, record, result.stderr)
    path = tmp_path / "amount.jsonl"
    path.write_bytes(orjson.dumps(header) + b'\n{"seed":9,"x":"1e99999999","y":"-0.20"}\n')
    figures = stats_json(run_cli, path)["files"][0]["figures"]
    assert figures["x=1e99999999"]["count"] == 1 and figures["y"]["mean"] == -0.2  # a category; an amount


def test_stats_of_a_multiplayer_file(run_cli, tmp_path):
    """Synthetic multiplayer records (no multiplayer engine needed): per-seat shares and scores."""
    path = tmp_path / "mp.jsonl"
    header = {"format": "cardgames-batch", "version": 1, "engine_version": "0.1.0", "game": "turup",
              "variants": [], "players": 3, "agents": ["random"] * 3, "rng": "native",
              "generator": "shake128-ctr/1", "seed_prefix": "", "config_sha256": "f" * 64, "first_seat": 1}
    lines = [orjson.dumps(header)]
    for seed in range(30):
        winner = [seed % 3] if seed % 5 else [0, 1]
        lines.append(orjson.dumps({"seed": seed, "scores": [seed % 7, seed % 4, 3], "winners": winner,
                                   "moves": 20 + seed % 9, "coins": [f"{seed % 3}.50", "-1.25", "0.00"]}))
    path.write_bytes(b"\n".join(lines) + b"\n")
    figures = stats_json(run_cli, path)["files"][0]["figures"]
    assert [figures[f"wins[{s}]"]["count"] for s in range(3)] == [14, 14, 8]
    assert figures["ties"]["count"] == 6 and figures["scores[2]"]["sd"] == 0.0
    assert figures["coins[1]"]["min"] == "-1.25" and figures["moves"]["max"] == 28
    # seat 1 plays first (Turup's first dealer is seat 0): 14 of 30 against the average seat's 36 / 90
    assert figures["first_player_advantage"]["mean"] == pytest.approx(14 / 30 - 36 / 90)
    table = run_cli("stats", str(path))
    assert table.exit_code == 0 and "first_player_advantage" in table.stdout and "3 players" in table.stdout
    # the pooled rows explained under the table (one file or several), not where no figure pools seats
    note = "\n\nscores, like each figure above its own per-seat rows, pools the seats: its n, mean, sd and interval"
    assert note in table.stdout and note in run_cli("stats", str(path), str(path)).stdout
    for first, shown in ((None, False), ("absent", False), (3, "header field 'first_seat' must be a seat of the "
                                                               "3 players or null, not 3"), (True, "not true")):
        changed = {k: v for k, v in header.items() if k != "first_seat" or first != "absent"}
        if first != "absent":
            changed["first_seat"] = first
        path.write_bytes(b"\n".join([orjson.dumps(changed), *lines[1:]]) + b"\n")
        result = run_cli("stats", str(path), "--format", "json")
        if shown:  # a hand-edited header
            assert result.exit_code == 1 and f"{path}:1: " in result.stderr and shown in result.stderr
        else:  # no seat always moves first (Towers), or a file written before the header said which
            assert result.exit_code == 0 and "first_player_advantage" not in orjson.loads(result.stdout)["files"][0][
                "figures"]


def test_plot(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "p.png"
    out = tmp_path / "r.jsonl"
    quiet = batch(run_cli, "--seeds", "0-49", "--workers", "1", "--out", str(out), "--plot", str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and quiet.stderr == ""  # --quiet: not even the plot's
    two = tmp_path / "two.png"
    result = run_cli("stats", str(out), str(out), "--plot", str(two))
    assert result.exit_code == 0 and two.stat().st_size > 1000


def test_plot_draws_a_score_no_game_had_at_zero():
    """The score distribution's line went straight from one value seen to the next, drawing the
    values between at a neighbour's height."""
    from cardgames.engine.batch.plot import MAX_STEPS, distribution

    assert distribution({30: 1, 33: 3}) == ([30.0, 31.0, 32.0, 33.0], [0.25, 0.0, 0.0, 0.75], True)
    assert distribution({0.5: 1, 2.5: 3}) == ([0.5, 2.5], [0.25, 0.75], False)  # fractions: points
    assert distribution({0: 1, MAX_STEPS + 1: 1})[2] is False  # too wide a range for a step each
    assert distribution({0: 1, MAX_STEPS: 1})[2] is True  # the widest range still drawn in steps
    assert distribution({}) == ([], [], False)


def test_plot_file_names_are_checked_before_the_games(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.jsonl"
    for name, words in (("p.xyz", "matplotlib cannot write 'xyz' images"), ("", "--plot needs a file name")):
        result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(out), "--plot", name)
        assert result.exit_code == 1 and words in result.stderr and not out.exists()  # no game played
    assert image_format(str(tmp_path / "p.PNG")) == "png" and image_format(str(tmp_path / "p.Svg")) == "svg"
    bare = tmp_path / "plain"  # no extension: a PNG, written under exactly that name
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--workers", "1", "--plot", str(bare))
    assert result.exit_code == 0 and f"plot written to {bare}" in result.stderr
    assert bare.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and not (tmp_path / "plain.png").exists()


def test_a_plot_folder_that_cannot_be_written_is_refused_before_the_games(run_cli, tmp_path, monkeypatch):
    """Checked with ``os.access`` (faked here: the tests may run as root, who may write anywhere)."""
    import os

    pytest.importorskip("matplotlib")
    locked = tmp_path / "locked"
    locked.mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if str(path) == str(locked) else real(path, mode))
    out = tmp_path / "r.jsonl"
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(out),
                     "--plot", str(locked / "p.png"))
    assert result.exit_code == 1 and f"the folder {locked} is not writable" in result.stderr and not out.exists()


def test_plot_never_replaces_a_results_file_nor_comes_after_the_work(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    same = tmp_path / "r.png"
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(same), "--plot", str(same))
    assert result.exit_code == 1 and "also a results file" in result.stderr and not same.exists()
    out = tmp_path / "r.jsonl"
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(out),
                     "--plot", str(tmp_path / "nodir" / "p.png"))
    assert result.exit_code == 1 and "there is no folder" in result.stderr and not out.exists()
    batch(run_cli, "--seeds", "0-9", "--workers", "1", "--out", str(out))
    before = out.read_bytes()
    for target in (str(out), str(tmp_path / "nodir" / "p.png")):
        result = run_cli("stats", str(out), "--plot", target)
        assert result.exit_code == 1 and result.stdout == "" and out.read_bytes() == before


def test_plot_through_a_symlink_is_still_the_results_file(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "real").mkdir()
    (tmp_path / "lnk").symlink_to(tmp_path / "real")
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(tmp_path / "lnk" / "r.png"),
                     "--plot", str(tmp_path / "real" / "r.png"))
    assert result.exit_code == 1 and "also a results file" in result.stderr
    assert not (tmp_path / "real" / "r.png").exists()


def test_scheduler_without_dask_is_refused_even_with_nothing_to_play(run_cli, tmp_path):
    done = tmp_path / "done.jsonl"
    batch(run_cli, "--seeds", "0-9", "--workers", "1", "--out", str(done))
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(done), "--resume",
                     "--scheduler", "tcp://127.0.0.1:1")
    assert result.exit_code == 2 and "--scheduler needs --backend dask" in result.stderr


def test_out_must_be_a_file(run_cli, tmp_path):
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", "-")
    assert result.exit_code == 2 and "--out needs a file" in result.stderr
    folder = tmp_path / "newdir"
    result = run_cli("simulate", "--game", "eiffel-tower", "--seed", "1", "--log", f"{folder}/")
    assert result.exit_code == 1 and "not a folder" in result.stderr and not folder.exists()
    for extra in ([], ["--resume"]):  # named as a folder, not as a file that exists or cannot be read
        result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", str(tmp_path), *extra)
        assert result.exit_code == 1
        assert result.stderr == f"Error: --out {tmp_path}: a file name, not a folder, is needed\n"
    for out, why in (("", "--out '': no file name"), (f"{folder}/games.jsonl", f"--out {folder}/games.jsonl: there is "
                                                                            f"no folder {folder}")):
        result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--out", out)  # as simulate --log says
        assert result.exit_code == 1 and result.stderr == f"Error: {why}\n"  # (was ": cannot write: No such ...")


def test_cli_import_stays_light():
    code = ("import sys; from cardgames.cli import batch; from cardgames.engine.batch import runner, report, plot; "
            "heavy = [m for m in ('dask', 'distributed', 'matplotlib', 'numpy') if m in sys.modules]; "
            "print(heavy); sys.exit(bool(heavy))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("game_id,games", [("turup", 12), ("towers", 12), ("torqu", 4)])
def test_real_multiplayer_games(run_cli, tmp_path, game_id, games):
    """Each multiplayer game's batch is the same on one worker and on two. Torqu plays fewer games: each
    of its 4-player games takes about a fifth of a second."""
    files = []
    for workers in ("1", "2"):
        out = tmp_path / f"{workers}.jsonl"
        result = run_cli("batch", "--game", game_id, "--seeds", f"0-{games - 1}", "--workers", workers,
                         "--out", str(out), "--quiet", "--format", "json")
        assert result.exit_code == 0, result.output
        files.append((out.read_bytes(), orjson.loads(result.stdout)["figures"]))
    assert files[0] == files[1]
    figures = files[0][1]
    players = orjson.loads(files[0][0].split(b"\n")[0])["players"]
    assert [f"wins[{s}]" for s in range(players)] == [n for n in figures if n.startswith("wins[")]
    assert figures["scores"]["values"] == games * players and figures["scores"]["n"] == figures["moves"]["n"] == games


def test_dask_scheduler_address(run_cli, tmp_path):
    """--scheduler: an existing cluster (here an in-process one with one threaded worker, which
    starts in well under a second) gives the same records as the serial run."""
    distributed = pytest.importorskip("dask.distributed")
    serial = tmp_path / "serial.jsonl"
    batch(run_cli, "--seeds", "0-199", "--workers", "1", "--out", str(serial))
    remote = tmp_path / "remote.jsonl"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        batch(run_cli, "--seeds", "0-199", "--backend", "dask", "--scheduler", cluster.scheduler_address,
              "--out", str(remote))
    assert remote.read_bytes() == serial.read_bytes()
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        unreachable = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--backend", "dask",
                              "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "never.jsonl"))
    assert unreachable.exit_code == 1 and "cannot start or reach Dask scheduler tcp://127.0.0.1:9" in unreachable.stderr
    assert not (tmp_path / "never.jsonl").exists()  # else the same command would then ask for --resume


def test_stats_and_dask_bad_input_is_one_line(run_cli, tmp_path):
    endless = tmp_path / "endless.jsonl"
    endless.write_bytes(b"{" * (17 << 20))
    result = run_cli("stats", str(endless))
    assert result.exit_code == 1 and f"{endless}:1: a line longer than 16 MiB: not a batch result file" in result.stderr
    good = tmp_path / "good.jsonl"
    batch(run_cli, "--seeds", "0-1", "--workers", "1", "--out", str(good))
    endless.write_bytes(good.read_bytes() + b"{" * (17 << 20))
    result = run_cli("stats", str(endless))
    assert result.exit_code == 1 and f"{endless}:4: a line longer than 16 MiB: not a result record" in result.stderr
    pytest.importorskip("dask.distributed")
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "1-3", "--backend", "dask", "--scheduler", "garbage")
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
    assert "cannot start or reach Dask scheduler garbage" in result.stderr


def test_dask_local_workers_leave_ctrl_c_to_the_batch(ctrl_c_raises):
    """The LocalCluster's workers ignore SIGINT, so Ctrl-C is the batch's alone, which closes the cluster
    and says how to resume (workers stopping on their own made their nannies print tracebacks first);
    the batch's own handler is never touched."""
    pytest.importorskip("dask.distributed")
    import signal

    from cardgames.engine.batch.executors import DaskExecutor

    before = signal.getsignal(signal.SIGINT)
    with DaskExecutor(1, None) as executor:
        assert signal.getsignal(signal.SIGINT) is before
        in_worker = executor._client.submit(signal.getsignal, signal.SIGINT, pure=False).result()
    assert in_worker == signal.SIG_IGN != before


def test_a_dask_local_clusters_error_logs_stay_off_stderr(capfd):
    """Its workers' error logs never reach the user: a worker whose heartbeat met the scheduler
    already closing, after a Ctrl-C, logged a traceback at ERROR (one run in ten under load).
    Every failure a batch must report reaches it through its tasks instead."""
    pytest.importorskip("dask.distributed")
    import logging

    from cardgames.engine.batch.executors import DaskExecutor

    with DaskExecutor(1, None) as executor:
        logger = logging.getLogger("distributed.worker")  # pickled by name: the worker's own logger
        executor._client.submit(logger.error, "a worker's error log", pure=False).result()
    assert "a worker's error log" not in capfd.readouterr().err


def test_a_dask_local_cluster_starts_with_ctrl_c_ignored(monkeypatch, ctrl_c_raises):
    """Its worker processes inherit the ignored SIGINT, so a Ctrl-C while they import Dask cannot
    stop them with tracebacks (which then made the cluster's close fail its assertions too)."""
    pytest.importorskip("dask.distributed")
    import dask.distributed

    from cardgames.engine.batch.executors import DaskExecutor

    seen = []

    class Recording:
        def __init__(self, *args, **kwargs):
            seen.append(signal.getsignal(signal.SIGINT))

        def close(self):
            pass

    monkeypatch.setattr(dask.distributed, "LocalCluster", Recording)
    monkeypatch.setattr(dask.distributed, "Client", Recording)
    before = signal.getsignal(signal.SIGINT)
    with DaskExecutor(2, None):
        assert signal.getsignal(signal.SIGINT) is before
    assert seen == [signal.SIG_IGN, signal.SIG_IGN]


@pytest.mark.slow
def test_ctrl_c_while_a_dask_cluster_starts_prints_no_traceback(tmp_path):
    """A terminal's Ctrl-C reaches the whole process group, Dask's workers included. Sent at
    moments spread over a local cluster's start and first games, it never prints a traceback: it
    stops the batch (130), or, while the cluster starts, is ignored and the batch ends (0), or
    it meets the interpreter shutting down after the batch has ended (killed by the signal, as any
    Python program then is). The moments count from the CLI's own code running, as the process itself
    says through a pipe: a Ctrl-C while the interpreter still starts meets no code of ours (a loaded
    machine once made 0.4 s such a moment, and a start-up timed in another process varies as much)."""
    pytest.importorskip("dask.distributed")
    args = ["batch", "--game", "eiffel-tower", "--seeds", "1-10000", "--backend", "dask", "--workers", "2", "--quiet"]
    for delay in (0.4, 0.8, 1.2, 1.6, 2.4):
        ready, tell = os.pipe()
        started = f"import os; from cardgames.cli.main import main; os.write({tell}, b'.'); os.close({tell}); main()"
        proc = subprocess.Popen([sys.executable, "-c", started, *args], start_new_session=True, pass_fds=(tell,),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(tell)
        with os.fdopen(ready, "rb") as reading:
            assert reading.read(1) == b".", "the CLI never started"
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode in (0, 130, -signal.SIGINT), (delay, proc.returncode, err.decode()[-2000:])
        assert "Traceback" not in err.decode(), (delay, err.decode()[-2000:])


@pytest.mark.parametrize("lines, words", [
    (['{"seed":1,"won":true,"a=b":true}'], ":2: figure name 'a=b' holds '='"),  # was a KeyError
    (['{"seed":1,"won":true}', '{"seed":2,"won":3}'],
     ":3: figure 'won' is 3 here, but true/false in an earlier record"),
    (['{"seed":1,"cards_left":0}', '{"seed":2,"cards_left":"x"}'], ":3: figure 'cards_left' is \"x\" here"),
    (['{"seed":1,"won":true}', '{"seed":2,"won":"%s"}' % ("y" * 5000)],  # clipped, as long values are
     ":3: figure 'won' is \"%s... here, but true/false in an earlier record" % ("y" * 36)),
    # orjson keeps a key's last value: the seed given twice slipped past "appears twice", won counted as true
    (['{"seed":1,"won":true}', '{"seed":1,"seed":2,"won":false,"won":true}'], ':3: key "seed" given twice'),
    (['{"seed":1,"won":true,"x":{"a":1,"b":{"c":[{"d":1,"d":2}]}}}'], ':2: key "d" given twice'),  # nested
    (['{"seed":1,"scores":[1,2],"won":true}'], ":2: scores must give 1 value, one a seat"),  # a one-player file
])
def test_stats_names_a_record_it_cannot_read(run_cli, tmp_path, lines, words):
    good = tmp_path / "good.jsonl"
    batch(run_cli, "--seeds", "0-1", "--workers", "1", "--out", str(good))
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(good.read_bytes().split(b"\n", 1)[0] + b"\n" + "".join(f"{line}\n" for line in lines).encode())
    result = run_cli("stats", str(bad))
    assert result.exit_code == 1 and result.stderr.startswith(f"Error: {bad}{words}") and result.stderr.count("\n") == 1


def test_records_whose_colons_outnumber_their_keys_are_read_as_written(run_cli, tmp_path):
    """A record with more colons than keys (text holding one, a nested object) is read again to look for a key
    given twice, and, holding none, counted as any other; a per-seat ``scores`` of the right length is too."""
    good = tmp_path / "good.jsonl"
    batch(run_cli, "--seeds", "0-1", "--workers", "1", "--out", str(good))
    odd = tmp_path / "odd.jsonl"
    odd.write_bytes(good.read_bytes().split(b"\n", 1)[0] + b'\n{"seed":1,"won":true,"note":"a:b","x":{"a":1}}\n'
                    b'{"seed":2,"won":false,"note":"c","x":{"a":2},"scores":[5]}\n')
    figures = stats_json(run_cli, odd)["files"][0]["figures"]
    assert figures["won"]["n"] == 2 and figures["x.a"]["n"] == 2 and figures["scores"]["n"] == 1


def test_a_header_giving_a_key_twice_is_refused(run_cli, tmp_path):
    """The header too (``--resume`` compares it field by field): orjson would keep the second ``players``."""
    good = tmp_path / "good.jsonl"
    batch(run_cli, "--seeds", "0-1", "--workers", "1", "--out", str(good))
    header, rest = good.read_bytes().split(b"\n", 1)
    assert b'"players":1,' in header
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(header.replace(b'"players":1,', b'"players":1,"players":2,') + b"\n" + rest)
    result = run_cli("stats", str(bad))
    assert result.exit_code == 1 and result.stderr == f'Error: {bad}:1: key "players" given twice\n'


def test_resume_refuses_a_record_giving_a_key_twice(run_cli, tmp_path):
    """``--resume`` reads the file as ``stats`` does: a seed given twice (orjson keeps the last, 2) is refused
    with its line, the file untouched, where the batch once took seed 2 as played and played only seed 3."""
    out = tmp_path / "r.jsonl"
    batch(run_cli, "--seeds", "1-1", "--workers", "1", "--out", str(out))
    with open(out, "ab") as handle:
        handle.write(b'{"seed":1,"seed":2,"won":false,"cards_left":5,"plays":1,"turns":1}\n')
    before = out.read_bytes()
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "1-3", "--out", str(out), "--resume")
    assert result.exit_code == 1 and result.stderr == f'Error: {out}:3: key "seed" given twice\n'
    assert out.read_bytes() == before


def test_stats_of_values_near_the_float_limit(run_cli, tmp_path):
    """x's variance is beyond a float but its sd, 2e308 / sqrt(3), is not, and is given; y's spread,
    sqrt(2) times as large, is beyond a float: infinite, not an OverflowError."""
    good = tmp_path / "good.jsonl"
    batch(run_cli, "--seeds", "0-1", "--workers", "1", "--out", str(good))
    huge = tmp_path / "huge.jsonl"
    records_ = [f'{{"seed":{s},"x":{v}e308,"y":{v * 1.7}e308}}\n' for s, v in ((1, 1), (2, -1), (3, 1))]
    huge.write_bytes(good.read_bytes().split(b"\n", 1)[0] + b"\n" + "".join(records_).encode())
    figures = stats_json(run_cli, huge)["files"][0]["figures"]
    assert figures["x"]["n"] == 3 and figures["x"]["sd"] == pytest.approx(1e308 / 3**0.5 * 2, rel=1e-15)
    assert figures["y"]["n"] == 3 and figures["y"]["sd"] is None  # infinite: JSON has no infinity (orjson: null)
    assert "inf" in run_cli("stats", str(huge)).stdout.splitlines()[-1]
    x_row = next(line.split() for line in run_cli("stats", str(huge)).stdout.splitlines() if line.split()[:1] == ["x"])
    assert x_row[:4] == ["x", "3", "3.3333e+307", "-inf"]  # not 308 digits (a CLI fuzzer's finding)


def test_stats_compares_files_of_values_near_the_float_limit(run_cli, tmp_path: Path) -> None:
    """Files of huge or tiny values are put side by side without a traceback. x's spread is beyond a
    float (an infinite sd): its means have no test (n/a), which is no difference. y (0, 1e100, 2e100
    against 1e100, 2e100, 3e100) and z (the same times 1e-200) have sds 1e100 and 1e-100, whose
    squares' squares leave a float: they are tested as any other, t = 1 / sqrt(2 / 3) = sqrt(1.5) = 1.2247.
    The files hold other seeds (0-2 and 3-5), so they are independent samples; on the same seeds they
    are tested seed by seed, exactly: x's differences -2v, 2v, -2v (v = 1.7e308) have mean -2v/3 and
    variance 16v^2/3, so t = -0.5 and p = 1 - 0.5 / sqrt(2.25) = 2/3 on 2 degrees of freedom; y and z
    moved every seed alike (to the floats' rounding): p far below 0.05."""
    good = tmp_path / "good.jsonl"
    batch(run_cli, "--seeds", "0-1", "--workers", "1", "--out", str(good))
    header = good.read_bytes().split(b"\n", 1)[0] + b"\n"
    files = []
    for name, xs, steps, first in (("a", ("1.7e308", "-1.7e308", "1.7e308"), (0, 1, 2), 0),
                                   ("b", ("-1.7e308", "1.7e308", "-1.7e308"), (1, 2, 3), 3),
                                   ("paired", ("-1.7e308", "1.7e308", "-1.7e308"), (1, 2, 3), 0)):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(header + "".join(f'{{"seed":{s},"x":{x},"y":{n}e100,"z":{n}e-100}}\n'
                                          for s, (x, n) in enumerate(zip(xs, steps, strict=True), first)).encode())
        files.append(path)
    report = stats_json(run_cli, *files)
    tests = {(t["file"], t["figure"]): t for t in report["comparisons"]}
    x = tests[(str(files[1]), "x")]
    assert (x["test"], x["statistic"], x["p_value"], x["significant"]) == ("welch-t", None, None, False)
    for figure in ("y", "z"):
        test = tests[(str(files[1]), figure)]
        assert test["statistic"] == pytest.approx(1.5 ** 0.5, rel=1e-9), figure
        assert test["p_value"] > 0.05 and not test["significant"], figure
    x = tests[(str(files[2]), "x")]
    assert (x["test"], x["statistic"], x["significant"]) == ("paired-t", -0.5, False)
    assert x["p_value"] == pytest.approx(2 / 3)
    assert all(tests[(str(files[2]), figure)]["p_value"] < 1e-6 for figure in ("y", "z"))
    table = run_cli("stats", *map(str, files[:2]))
    assert table.exit_code == 0 and "Traceback" not in table.output
    assert next(line for line in table.stdout.splitlines() if line.split()[:2] == ["x", "B"]).split()[-3:] == [
        "n/a", "n/a", "no"]


def test_workers_default_to_every_core_and_a_scheduler_is_not_capped(run_cli, monkeypatch):
    """No --workers: one a core. More than the cores: capped, and said in the plural; with --scheduler
    the workers are a remote cluster's, never capped by this machine's cores."""
    asked = []
    monkeypatch.setattr("cardgames.cli.batch._default_workers", lambda: 3)
    monkeypatch.setattr(runner, "make_executor", lambda backend, workers, scheduler: asked.append(workers)
                        or SerialExecutor())
    batch(run_cli, "--seeds", "0-9")
    capped = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--workers", "5")
    assert capped.exit_code == 0 and "--workers 5: the run has 3 cores here, so 3 workers play it (" in capped.stderr
    remote = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--workers", "5", "--backend", "dask",
                     "--scheduler", "tcp://127.0.0.1:1")
    assert remote.exit_code == 0 and "cores here" not in remote.stderr
    assert asked == [3, 3, 5]


def test_stats_says_it_ignores_a_torn_last_line(run_cli, tmp_path):
    """A file whose run was killed mid-write is read up to its last whole line, and the user told so."""
    out = tmp_path / "r.jsonl"
    batch(run_cli, "--seeds", "0-4", "--workers", "1", "--out", str(out))
    whole = orjson.loads(run_cli("stats", str(out), "--format", "json").stdout)
    with open(out, "ab") as handle:
        handle.write(b'{"seed":9,"won":tr')
    torn = run_cli("stats", str(out), "--format", "json")
    assert torn.exit_code == 0 and torn.stderr == f"{out}: ignoring a torn last line (was the run stopped?)\n"
    assert orjson.loads(torn.stdout) == whole
    out.write_bytes(out.read_bytes()[:-len(b'{"seed":9,"won":tr')].rstrip(b"\n"))  # whole, its newline dropped
    unended = run_cli("stats", str(out), "--format", "json")
    assert unended.exit_code == 0 and unended.stderr == "" and orjson.loads(unended.stdout) == whole


def interrupt_after_first_chunk(monkeypatch):
    """Ctrl-C as the batch asks for its second chunk; returns the real ``play_chunk``."""
    real = executors.play_chunk
    calls = []

    def interrupted(job, chunk):
        calls.append(chunk)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(job, chunk)

    monkeypatch.setattr(executors, "play_chunk", interrupted)
    return real


def test_ctrl_c_keeps_the_chunks_written_and_says_how_to_resume(run_cli, tmp_path, monkeypatch):
    """Stopped after its first chunk (8 seeds), a batch with --out exits 130, says how many games it
    played and to resume; the file holds those games, and --resume plays only the rest."""
    real = interrupt_after_first_chunk(monkeypatch)
    out = tmp_path / "r.jsonl"
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-19", "--workers", "1", "--out", str(out))
    assert result.exit_code == 130
    assert result.stderr == "interrupted after 8 games; continue with the same command and --resume\n"
    assert [orjson.loads(line)["seed"] for line in out.read_bytes().split(b"\n")[1:-1]] == list(range(8))
    monkeypatch.setattr(executors, "play_chunk", real)
    resumed = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-19", "--workers", "1", "--out", str(out),
                      "--resume")
    assert resumed.exit_code == 0 and "played 12 games" in resumed.stderr and "; 8 already in" in resumed.stderr


def test_sigterm_stops_the_workers_too_and_says_how_to_resume(tmp_path):
    """``kill`` (SIGTERM, a CI job's timeout) used to end the parent alone: its worker processes
    kept stdout open, so whatever read the batch's output never finished. Now it stops as Ctrl-C
    does: the pipe closes, the exit is 143 (128 + SIGTERM), the file holds whole lines and says so."""
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen([*CLI, "batch", "--game", "eiffel-tower", "--seeds", "0-10000000", "--workers", "2",
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while (not out.exists() or out.read_bytes().count(b"\n") < 2) and time.monotonic() < deadline:
        time.sleep(0.1)  # the first chunk written: the workers are playing
    proc.send_signal(signal.SIGTERM)  # the batch alone, as `kill PID` does
    try:
        stdout, stderr = proc.communicate(timeout=60)  # the pipe closes: no worker holds it
    finally:
        proc.kill()  # a batch still running (the test failed): not left behind
    assert proc.returncode == 143 and stdout == b""
    words = stderr.decode()
    assert words.startswith("terminated after ") and words.endswith(" games; continue with the same command and "
                                                                     "--resume\n"), words
    lines = out.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) > 2 and [orjson.loads(line)["seed"] for line in lines[1:-1]] == list(
        range(len(lines) - 2))


def test_ctrl_c_without_a_results_file_names_no_resume(run_cli, monkeypatch):
    """Without --out there is no file to continue: the message says how far the batch got and that its games
    are lost, and how a run keeps them next time (not "--resume" alone, an option that refuses to run without
    --out; an analyst's walkthrough lost 25,000 games to a Ctrl-C and learnt of --out only from the docs)."""
    interrupt_after_first_chunk(monkeypatch)
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-19", "--workers", "1")
    assert result.exit_code == 130 and result.stderr == (
        "interrupted after 8 games (not kept: with --out FILE a run keeps its games, and --resume finishes it)\n")


def test_quiet_keeps_the_workers_notice_off_stderr(run_cli, monkeypatch):
    """--quiet: no messages on stderr, the notice that --workers was capped to the cores included."""
    monkeypatch.setattr("cardgames.cli.batch._default_workers", lambda: 1)
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "1-5", "--workers", "4", "--quiet")
    assert result.exit_code == 0 and result.stderr == ""


def test_stats_says_where_its_plot_went(run_cli, tmp_path):
    """As batch does: the plot's file named on stderr, stdout left to the statistics."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.jsonl"
    batch(run_cli, "--seeds", "0-9", "--workers", "1", "--out", str(out))
    png = tmp_path / "s.png"
    result = run_cli("stats", str(out), "--plot", str(png), "--format", "json")
    assert result.exit_code == 0 and result.stderr == f"plot written to {png}\n"
    assert orjson.loads(result.stdout)["files"] and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_draws_wins_and_scores_per_seat_for_one_file_and_per_file_for_several():
    """The left panel's figures are the seats' win shares ('won' for a solitaire); the right panel's
    series are one a seat, in seat order (seat 10 after seat 9), for one file, else the files'
    pooled scores; a solitaire's is cards_left, not the first figure by name."""
    many = Summary()
    many.add({"scores": list(range(11)), "winners": [10], "moves": 40})
    run = Run("m.jsonl", {"players": 11}, many)
    assert _win_figures(run) == [f"wins[{s}]" for s in range(11)]
    name, series = _score_series([run])
    assert name == "scores" and series == [(f"seat {s}", {s: 1}) for s in range(11)]
    name, series = _score_series([run, Run("n.jsonl", {"players": 11}, many)])
    assert name == "scores" and [label for label, _ in series] == ["m.jsonl", "n.jsonl"]
    assert series[0][1] == {s: 1 for s in range(11)}
    solitaire = Summary()
    solitaire.add({"won": True, "cards_left": 0, "plays": 3})
    alone = Run("s.jsonl", {"players": 1}, solitaire)
    assert _win_figures(alone) == ["won"] and _score_series([alone]) == ("cards_left", [("s.jsonl", {0: 1})])


def test_plot_names_only_win_figures_on_the_left_and_falls_back_to_a_games_own_number() -> None:
    """The left panel holds 'won' and 'wins[s]' only, not every figure whose name starts like them;
    a game with none of scores, cards_left or moves still gets its first numeric figure (by name)
    drawn on the right, not an empty panel."""
    summary = Summary()
    summary.add({"won": True, "wasted": 3, "plays": 7})
    run = Run("w.jsonl", {"players": 1}, summary)
    assert _win_figures(run) == ["won"]
    assert _score_series([run]) == ("plays", [("w.jsonl", {7: 1})])


def test_ctrl_c_ends_the_progress_bars_line_before_its_message(run_cli, monkeypatch) -> None:
    """With the bar drawn (stderr a terminal), an interrupted batch ends the bar's line first, so
    its message stands on a line of its own instead of trailing the bar."""
    from cardgames.engine.batch import progress

    class Drawn(progress.Progress):
        def __init__(self, enabled: bool, stream=None):
            super().__init__(True, stream)

    monkeypatch.setattr(progress, "Progress", Drawn)
    interrupt_after_first_chunk(monkeypatch)
    result = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-19", "--workers", "1")
    assert result.exit_code == 130 and result.stderr.startswith("\r[")
    assert result.stderr.endswith(" \ninterrupted after 8 games (not kept: with --out FILE a run keeps its games, "
                                  "and --resume finishes it)\n")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_game_refused_mid_batch_names_its_seed(run_cli, tmp_path, workers):
    """A designer's Turup deal of 70 community cards from two decks: validate passes it (a pile that size, each
    value in its share of the deck, can be listed), but a capture listing of seed 12 is refused at its 35th step
    (the pile's sub-piles past the limit). The batch stops with that refusal, the seed and the step it met it
    at, which the designer can replay with ``simulate --seed``. (96 cards, used before, are now refused by
    validate.)"""
    (tmp_path / "games").mkdir()
    from cardgames.engine.config import bundled_root

    turup = (bundled_root() / "games" / "turup.yaml").read_text()
    big = (turup.replace("id: turup\n", "id: turup-pile\n").replace("community_size: 4", "community_size: 70")
           .replace("deck: {type: french, copies: 1, copies_by_players: {5: 2, 8: 3}}",
                    "deck: {type: french, copies: 2}")
           .replace("players: {min: 2, max: 12, default: 4}", "players: {min: 2, max: 2, default: 2}"))
    assert big.count("70") == 1 and "copies: 2}" in big and "max: 2," in big
    (tmp_path / "games" / "turup-pile.yaml").write_text(big)
    result = run_cli("--configs", str(tmp_path), "batch", "--game", "turup-pile", "--seeds", "1-20", "--workers",
                     workers, "--quiet", "--out", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: seed 12: step 35: the community pile holds too many cards of values 1-9")


def test_a_run_cut_short_is_named_and_fails_a_gate(run_cli, tmp_path):
    """A compared file holding part of the first's seeds (a batch job that timed out, an artifact never
    finished with --resume) passed a gate on a partial sample with no word, or only a torn-line notice
    (an auditor's finding). It is named, and a gate refuses it; other seed ranges altogether still pass."""
    whole, later = tmp_path / "whole.jsonl", tmp_path / "later.jsonl"
    batch(run_cli, "--seeds", "0-99", "--workers", "1", "--out", str(whole))
    batch(run_cli, "--seeds", "100-199", "--workers", "1", "--out", str(later))
    lines = whole.read_bytes().split(b"\n")
    for name, data, count in (("clean.jsonl", b"\n".join(lines[:41]) + b"\n", 40),
                              ("torn.jsonl", b"\n".join(lines[:41]) + b"\n" + lines[41][:20], 40)):
        cut = tmp_path / name
        cut.write_bytes(data)
        said = f"{cut} holds {count} seeds of the 100 in {whole} (a run cut short? --resume finishes it)"
        for files in ((whole, cut), (cut, whole)):
            gate = run_cli("stats", *map(str, files), "--fail-if-different", "won")
            assert gate.exit_code == 1 and gate.stdout == ""
            assert gate.stderr.splitlines()[-1] == f"Error: --fail-if-different compares whole runs, but {said}"
            shown = run_cli("stats", *map(str, files))
            assert shown.exit_code == 0 and said in shown.stderr.splitlines()
    assert run_cli("stats", str(whole), str(later), "--fail-if-different", "won").exit_code == 0


def test_a_gate_needs_its_figure_tested_against_every_later_file(run_cli, tmp_path):
    """A gated figure one later file lacks passed when another later file had it (an audit's finding: the
    gate looked for the figure among all the comparisons): now a usage error naming that file. A file of
    no games, its header alone, is a run cut short: exit 1, not a figure missing (exit 2)."""
    base = tmp_path / "base.jsonl"
    batch(run_cli, "--seeds", "0-99", "--workers", "1", "--out", str(base))
    lines = base.read_bytes().split(b"\n")
    lacking = tmp_path / "lacking.jsonl"
    lacking.write_bytes(b"\n".join([lines[0], *(orjson.dumps({k: v for k, v in orjson.loads(line).items()
                                                              if k != "won"}) for line in lines[1:] if line)]) + b"\n")
    gate = run_cli("stats", str(base), str(base), str(lacking), "--fail-if-different", "won")
    assert gate.exit_code == 2 and gate.stdout == ""
    assert f"figure 'won' is not tested between {base} and {lacking}, which lacks it" in gate.stderr
    assert run_cli("stats", str(base), str(base), str(lacking), "--fail-if-different", "plays").exit_code == 0
    header = tmp_path / "header.jsonl"
    header.write_bytes(lines[0] + b"\n")
    gate = run_cli("stats", str(base), str(header), "--fail-if-different", "won")
    assert gate.exit_code == 1 and gate.stdout == "" and "holds 0 seeds of the 100" in gate.stderr


def test_a_gate_refuses_a_file_of_no_games_first_or_of_another_rng(run_cli, tmp_path):
    """A file of its header alone is a run cut short (exit 1) wherever it stands: first, it was called a
    figure not tested (exit 2, "files of no games?", beside a file of 100); of another deal generator, whose
    seeds are not compared seed by seed, the gate passed, exit 0, having tested nothing."""
    base, other = tmp_path / "base.jsonl", tmp_path / "other.jsonl"
    batch(run_cli, "--seeds", "0-99", "--workers", "1", "--out", str(base))
    batch(run_cli, "--seeds", "1-20", "--workers", "1", "--rng", "pysolfc", "--out", str(other))
    header, other_header = tmp_path / "header.jsonl", tmp_path / "other-header.jsonl"
    header.write_bytes(base.read_bytes().split(b"\n")[0] + b"\n")
    other_header.write_bytes(other.read_bytes().split(b"\n")[0] + b"\n")
    for files, said in [((header, base), f"{header} holds 0 seeds of the 100 in {base}"),
                        ((base, other_header), f"{other_header} holds no games, a header alone"),
                        ((other_header, base), f"{other_header} holds no games, a header alone")]:
        gate = run_cli("stats", *map(str, files), "--fail-if-different", "won")
        assert gate.exit_code == 1 and gate.stdout == "", gate.output
        assert gate.stderr.splitlines()[-1].startswith(f"Error: --fail-if-different compares whole runs, but {said}")
        assert run_cli("stats", *map(str, files)).exit_code == 0
    tested = run_cli("stats", str(base), str(other), "--fail-if-different", "won:0.5")  # games in both: tested
    assert tested.exit_code == 0 and "passed" in tested.stderr and "holds" not in tested.stderr


def test_a_gate_on_a_figure_with_no_test_says_so(run_cli, tmp_path):
    """A side of a single game has no Welch test: a gate on it passed with no word, as if it had found no
    difference (the statistics audit's finding). It still passes, but says it checked nothing."""
    one, other = tmp_path / "one.jsonl", tmp_path / "other.jsonl"
    batch(run_cli, "--seeds", "0", "--workers", "1", "--out", str(one))
    batch(run_cli, "--seeds", "1", "--workers", "1", "--out", str(other))
    gate = run_cli("stats", str(one), str(other), "--fail-if-different", "plays", "--fail-if-different", "won")
    assert gate.exit_code == 0
    assert gate.stderr == (f"--fail-if-different plays: no test between {other} and {one} (a side with a single "
                           "game, or a spread beyond a float): the gate checks nothing there\n"
                           "--fail-if-different won: no significant difference (p = 1.0000): passed\n")
    as_json = run_cli("stats", str(one), str(other), "--fail-if-different", "plays", "--fail-if-different", "won",
                      "--format", "json")
    assert [(g["figure"], g["passed"], g["tested"]) for g in orjson.loads(as_json.stdout)["gates"]] == [
        ("plays", True, False), ("won", True, True)]
    # tested only where every comparison tested it (a mutation audit's: any one of them was taken for all)
    many, more = tmp_path / "many.jsonl", tmp_path / "more.jsonl"
    batch(run_cli, "--seeds", "2-21", "--workers", "1", "--out", str(many))
    batch(run_cli, "--seeds", "22-41", "--workers", "1", "--out", str(more))
    mixed = run_cli("stats", str(many), str(one), str(more), "--fail-if-different", "plays:100", "--format", "json")
    assert [(g["figure"], g["passed"], g["tested"]) for g in orjson.loads(mixed.stdout)["gates"]] == [
        ("plays", True, False)]


def test_a_file_given_twice_is_said_to_be_compared_with_itself(run_cli, tmp_path):
    """``stats a.jsonl a.jsonl`` (a typo for b.jsonl): every test n/a, any gate passed, so it is said."""
    path = tmp_path / "a.jsonl"
    batch(run_cli, "--seeds", "1-20", "--workers", "1", "--out", str(path))
    dotted = os.path.join(str(tmp_path), ".", "a.jsonl")  # another spelling of the same file (pathlib drops ".")
    same = run_cli("stats", str(path), dotted)
    assert same.exit_code == 0
    assert same.stderr.splitlines()[0] == f"{dotted} is the same file as {path}: it is compared with itself"
    # a command failing on another file says its error alone (a fuzzer's: the notice came first)
    towers = tmp_path / "towers.jsonl"
    assert run_cli("batch", "--game", "towers", "--seeds", "1-2", "--workers", "1", "--out", str(towers)).exit_code == 0
    failing = run_cli("stats", str(path), dotted, str(towers))
    assert failing.exit_code == 1 and failing.stderr.startswith("Error: ") and failing.stderr.count("\n") == 1


def test_pysolfc_ms_numbers_are_other_deals_than_plain_numbers(run_cli, tmp_path):
    """PySolFC's ms1 and 1 are other deals: files of seeds 1-40 and ms1-ms40 are compared as independent samples,
    with a notice, not seed by seed; and a file of one kind is not resumed with the other."""
    plain, ms = tmp_path / "plain.jsonl", tmp_path / "ms.jsonl"
    batch(run_cli, "--rng", "pysolfc", "--seeds", "1-40", "--workers", "1", "--out", str(plain))
    batch(run_cli, "--rng", "pysolfc", "--seeds", "ms1-ms40", "--workers", "1", "--out", str(ms))
    shown = run_cli("stats", str(plain), str(ms), "--format", "json")
    assert shown.exit_code == 0
    assert {c["figure"]: c["test"] for c in orjson.loads(shown.stdout)["comparisons"]}["won"] == "z"
    assert shown.stderr.splitlines() == [f"{ms} deals with another seed_prefix than {plain} ('ms', not ''): its "
                                         "seeds are other deals, compared as independent samples"]
    resumed = run_cli("batch", "--game", "eiffel-tower", "--quiet", "--rng", "pysolfc", "--seeds", "ms1-ms3",
                      "--workers", "1", "--out", str(plain), "--resume")
    assert resumed.exit_code == 1 and resumed.stderr.splitlines()[-1] == (
        f"Error: {plain}: holds results of another run (seed_prefix '', this run 'ms'): resume with the same "
        "options, or choose another --out")


def test_every_gate_is_checked_not_only_the_first(run_cli, tmp_path):
    """With two gates, the second tripping fails the run though the first passes."""
    base, flipped = tmp_path / "base.jsonl", tmp_path / "flipped.jsonl"
    batch(run_cli, "--seeds", "0-39", "--workers", "1", "--out", str(base))
    lines = base.read_bytes().split(b"\n")
    flipped.write_bytes(b"\n".join([lines[0], *(orjson.dumps({**orjson.loads(line), "won": True})
                                                for line in lines[1:] if line)]) + b"\n")
    gate = run_cli("stats", str(base), str(flipped), "--fail-if-different", "plays", "--fail-if-different", "won")
    assert gate.exit_code == 1 and gate.stderr.splitlines()[-1].startswith(
        f"check failed: won differs in {flipped} from {base} (p = ")
    as_json = run_cli("stats", str(base), str(flipped), "--fail-if-different", "plays", "--fail-if-different",
                      "won:0.01", "--format", "json")
    assert as_json.exit_code == 1  # each gate's verdict in the JSON too, for a job reading it (a CI persona's wish)
    assert orjson.loads(as_json.stdout)["gates"] == [
        {"figure": "plays", "tolerance": 0.0, "passed": True, "tested": True},
        {"figure": "won", "tolerance": 0.01, "passed": False, "tested": True}]
    assert "gates" not in orjson.loads(run_cli("stats", str(base), str(flipped), "--format", "json").stdout)


def test_blank_lines_in_a_result_file_hold_no_record(run_cli, tmp_path):
    """A blank line (an editor's last one, files joined) is skipped, as ``score --input`` skips one: ``stats``
    refused a file ending in one as "not a result record" (a CI persona's finding)."""
    base, spaced = tmp_path / "base.jsonl", tmp_path / "spaced.jsonl"
    batch(run_cli, "--seeds", "0-9", "--workers", "1", "--out", str(base))
    header, *records = base.read_bytes().splitlines(keepends=True)
    spaced.write_bytes(b"".join([header, b"\n", *records[:5], b"  \n", *records[5:], b"\n"]))
    read = [orjson.loads(run_cli("stats", str(path), "--format", "json").stdout)["files"][0]["figures"]
            for path in (base, spaced)]
    assert read[0] == read[1] and read[0]["won"]["n"] == 10
    resumed = run_cli("batch", "--game", "eiffel-tower", "--seeds", "0-14", "--workers", "1", "--out", str(spaced),
                      "--resume", "--quiet")
    assert resumed.exit_code == 0 and orjson.loads(run_cli("stats", str(spaced), "--format", "json").stdout)[
        "files"][0]["figures"]["won"]["n"] == 15


def _drawn(monkeypatch: pytest.MonkeyPatch, runs: list[Run], path: Path):
    """The figure ``plot`` draws for ``runs``, kept open (``plot`` closes it once written)."""
    import matplotlib.pyplot as plt

    from cardgames.engine.batch.plot import plot

    figures = []
    subplots = plt.subplots

    def keep(*args, **kwargs):
        fig, axes = subplots(*args, **kwargs)
        figures.append(fig)
        return fig, axes

    monkeypatch.setattr(plt, "subplots", keep)
    monkeypatch.setattr(plt, "close", lambda fig=None: None)
    plot(runs, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return figures[0]


def test_plot_draws_each_files_win_rate_at_its_tick_with_its_own_interval(monkeypatch, tmp_path) -> None:
    """Two files' win rates are side by side about the 'won' tick, each bar at its file's rate, its error bar
    from that file's Wilson low to its high (an asymmetric interval: low and high must not swap); the right
    panel's x axis names the score drawn and its y axis the fractions; the title names variants for one file
    only."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    from matplotlib.container import ErrorbarContainer

    runs = []
    for file, wins in (("a.jsonl", 1), ("b.jsonl", 9)):
        summary = Summary()
        for game in range(10):
            summary.add({"won": game < wins, "cards_left": 0 if game < wins else 5})
        runs.append(Run(file, {"players": 1, "game": "eiffel-tower", "variants": []}, summary))
    fig = _drawn(monkeypatch, runs, tmp_path / "p.png")
    try:
        left, right = fig.axes
        bars = list(left.patches)
        assert [round(bar.get_x() + bar.get_width() / 2, 6) for bar in bars] == [-0.2, 0.2]
        assert [bar.get_height() for bar in bars] == [0.1, 0.9]
        errorbars = [c for c in left.containers if isinstance(c, ErrorbarContainer)]
        for container, run in zip(errorbars, runs, strict=True):
            (segment,) = container.lines[2][0].get_segments()
            ends = sorted(y for _, y in segment)
            figure = run.figures["won"]
            assert ends == pytest.approx([figure["ci_low"], figure["ci_high"]])
        assert [t.get_text() for t in left.get_xticklabels()] == ["won"]
        assert (right.get_xlabel(), right.get_ylabel()) == ("cards_left", "fraction of games")
        assert fig.texts[0].get_text() == "eiffel-tower: 10, 10 games"
    finally:
        plt.close(fig)
    runs[0].header["variants"] = ["strict"]  # one file's variants are not the comparison's title
    fig = _drawn(monkeypatch, runs, tmp_path / "p.png")
    assert fig.texts[0].get_text() == "eiffel-tower: 10, 10 games"
    plt.close(fig)
    fig = _drawn(monkeypatch, runs[:1], tmp_path / "p.png")
    assert fig.texts[0].get_text() == "eiffel-tower (strict): 10 games"
    plt.close(fig)


def test_stats_of_files_of_no_games_say_so(run_cli, tmp_path: Path) -> None:
    """A result file of its header alone (a batch stopped before its first chunk) printed an empty table and exit 0
    without a word: a CI job summarising a batch that played nothing passed (an analyst's finding). It is named on
    stderr as a run cut short, the statistics unchanged; beside a file of games, the cut-short notice names it."""
    full = tmp_path / "full.jsonl"
    batch(run_cli, "--seeds", "0-9", "--out", str(full))
    header = tmp_path / "header.jsonl"
    header.write_bytes(full.read_bytes().split(b"\n")[0] + b"\n")
    alone = run_cli("stats", str(header))
    assert alone.exit_code == 0 and ": 0 games" in alone.stdout
    assert alone.stderr == f"{header} holds no games, a header alone (a run cut short? --resume finishes it)\n"
    both = run_cli("stats", str(header), str(header), "--format", "json")
    assert both.exit_code == 0 and f"{header}, {header} hold no games" in both.stderr
    beside = run_cli("stats", str(full), str(header))
    assert "holds no games" not in beside.stderr and f"{header} holds 0 seeds of the 10 in {full}" in beside.stderr


def test_stats_names_the_engine_version_of_each_file_when_they_differ(run_cli, tmp_path: Path) -> None:
    """Runs of two cardgames versions (a change to the engine's code, every name alike) read as the same
    experiment, where ``batch --resume`` tells them apart (an analyst's finding): each file's line names its
    version when they differ, as the config hash is named when configs differ, and neither when they agree."""
    from cardgames.engine import ENGINE_VERSION

    new = tmp_path / "new.jsonl"
    batch(run_cli, "--seeds", "0-9", "--out", str(new))
    old = tmp_path / "old.jsonl"
    written = f'"engine_version":"{ENGINE_VERSION}"'.encode()
    old.write_bytes(new.read_bytes().replace(written, b'"engine_version":"0.0.1"', 1))
    assert old.read_bytes() != new.read_bytes()
    heads = run_cli("stats", str(old), str(new)).stdout.splitlines()[:2]
    assert heads[0].endswith(", engine 0.0.1: 10 games") and heads[1].endswith(f", engine {ENGINE_VERSION}: 10 games")
    assert ", engine " not in run_cli("stats", str(new), str(new)).stdout.splitlines()[0]


def test_resume_on_a_file_not_there_yet_starts_it(run_cli, tmp_path: Path) -> None:
    """docs/batch.md: ``--resume`` on a file that does not exist starts it, as without ``--resume`` (a CI job may
    pass it on every run, its first included): the same bytes as a plain run, exit 0."""
    plain, resumed = tmp_path / "plain.jsonl", tmp_path / "resumed.jsonl"
    batch(run_cli, "--seeds", "0-9", "--out", str(plain))
    batch(run_cli, "--seeds", "0-9", "--out", str(resumed), "--resume")
    assert resumed.read_bytes() == plain.read_bytes()


def test_stats_says_whose_first_player_advantage_it_is_or_why_there_is_none(run_cli, tmp_path: Path) -> None:
    """The seat behind ``first_player_advantage`` was in the JSON header alone, and a Towers table lacked the row
    unexplained (an analyst's finding): a line under the tables names the seat (each file's, where they differ),
    or says the deal decides who starts; a solitaire's table has no such line."""
    turup, towers, solo = tmp_path / "turup.jsonl", tmp_path / "towers.jsonl", tmp_path / "solo.jsonl"
    for game, path in (("turup", turup), ("towers", towers)):
        played = run_cli("batch", "--game", game, "--players", "2", "--seeds", "0-5", "--out", str(path), "--quiet")
        assert played.exit_code == 0, played.output
    batch(run_cli, "--seeds", "0-5", "--out", str(solo))
    first = orjson.loads(turup.read_bytes().split(b"\n")[0])["first_seat"]
    said = run_cli("stats", str(turup)).stdout
    assert "first_player_advantage " in said and said.endswith(
        f"\n\nfirst_player_advantage: the win share of seat {first}, who plays first in each game's first deal, "
        "less the average seat's (docs/batch.md)\n")
    said = run_cli("stats", str(towers)).stdout
    assert "first_player_advantage " not in said
    assert said.endswith("\n\nno first_player_advantage: the deal decides who plays first (docs/batch.md)\n")
    assert "first_player_advantage" not in run_cli("stats", str(solo)).stdout
    other = tmp_path / "other.jsonl"
    lines = turup.read_bytes().split(b"\n")
    other.write_bytes(b"\n".join([orjson.dumps({**orjson.loads(lines[0]), "first_seat": 1 - first}), *lines[1:]]))
    said = run_cli("stats", str(turup), str(other)).stdout
    assert f"the win share of the seat ({turup}: {first}, {other}: {1 - first}), who plays first" in said
    old = tmp_path / "old.jsonl"  # a file written before first_seat was recorded: no reason made up for it
    header = orjson.loads(lines[0])
    del header["first_seat"]
    old.write_bytes(b"\n".join([orjson.dumps(header), *lines[1:]]))
    said = run_cli("stats", str(old)).stdout
    assert "first_player_advantage " not in said and said.endswith(
        "\n\nno first_player_advantage: the header does not say who plays first (a file written before cardgames "
        "recorded it; docs/batch.md)\n")


@pytest.mark.parametrize("played, seconds, said", [
    (300, 0.04, "played 300 games in 0.04s (7,500 games/s)"),  # it said "in 0.0s"
    (2, 17.1, "played 2 games in 17.1s (0.12 games/s)"),  # it said "0 games/s" (Torqu at four players)
    (1, 0.5, "played 1 game in 0.50s (2 games/s)"),
    (0, 0.0, "played 0 games in 0.00s (0 games/s)"),  # a resumed run with nothing left to play
])
def test_a_batchs_closing_line_says_its_time_and_pace_to_two_figures(played, seconds, said) -> None:
    """The closing line of a batch, fast or slow, says its time and its games a second to two figures at least."""
    from cardgames.cli.batch import played_said

    assert played_said(played, seconds) == said
