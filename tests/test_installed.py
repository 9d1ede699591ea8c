"""End to end: the installed console script, run as a user would, from another directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

SCRIPT = Path(sys.executable).with_name("cardgames")


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_console_script_plays_and_replays(tmp_path):
    assert SCRIPT.exists(), f"console script not installed next to {sys.executable}"
    listed = run("list", "--format", "json", cwd=tmp_path)
    assert listed.returncode == 0 and any(r["id"] == "eiffel-tower" for r in orjson.loads(listed.stdout))
    first = run("simulate", "--game", "eiffel-tower", "--seed", "7", "--log", "g.json", cwd=tmp_path,
                env={"PYTHONHASHSEED": "1"})
    assert first.returncode == 0, first.stderr
    second = run("simulate", "--game", "eiffel-tower", "--seed", "7", cwd=tmp_path, env={"PYTHONHASHSEED": "2"})
    assert second.stdout == (tmp_path / "g.json").read_bytes()  # same bytes across processes
    replayed = run("replay", "g.json", cwd=tmp_path)
    assert replayed.returncode == 0 and replayed.stdout.startswith(b"ok:")


def test_python_m_runs_the_command_as_its_script_does(tmp_path: Path) -> None:
    """``python -m cardgames.cli`` is the command where its script is not on PATH (a packaging review found
    ``python -m cardgames.cli.main`` printing nothing): the same output and exit codes as the script."""
    as_module = [sys.executable, "-m", "cardgames.cli"]
    played = subprocess.run([*as_module, "simulate", "--game", "eiffel-tower", "--seed", "7"], cwd=tmp_path,
                            capture_output=True, timeout=120)
    assert played.returncode == 0 and played.stdout == run("simulate", "--game", "eiffel-tower", "--seed", "7",
                                                           cwd=tmp_path).stdout
    refused = subprocess.run([*as_module, "simulate", "--game", "nope", "--seed", "1"], cwd=tmp_path,
                             capture_output=True, timeout=120)
    assert refused.returncode == 1 and refused.stderr.decode().startswith("Error: unknown game 'nope'")


def test_user_error_has_no_traceback(tmp_path):
    result = run("simulate", "--game", "nope", "--seed", "1", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.decode().startswith("Error: unknown game 'nope'")
    assert b"Traceback" not in result.stderr


def test_a_reader_that_stops_early_is_not_an_error(tmp_path):
    """`cardgames list | head -1`: the pipe is closed before anything is written, so every write fails."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([str(SCRIPT), "list", "--format", "jsonl"], cwd=tmp_path, stdout=write_end,
                                stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write_end)
    assert result.returncode == 0 and result.stderr == b""


@pytest.mark.parametrize("args", [("--help",), ("-h",), ("--version",)])
def test_the_groups_own_help_into_a_closed_pipe_is_not_an_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    """`cardgames --help | head -1` exited 1 where a command's closed pipe exits 0 (a CI author's audit):
    Click answers the group's own options before any command runs, and its closed pipe is exit 1."""
    result = _closed_pipe_run(*args, cwd=tmp_path)
    assert result.returncode == 0 and result.stderr == b""


def _closed_pipe_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([str(SCRIPT), *args], cwd=cwd, stdout=write_end, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write_end)


def test_a_reader_that_stops_early_does_not_turn_a_failure_into_a_pass(tmp_path):
    """`cardgames validate DIR | head -1` under ``set -o pipefail`` (a CI maintainer's finding: exit 0 on a
    config with an error): a command that has failed already exits 1 when its output finds the pipe closed.
    Each command here writes the output that says why it failed, then fails."""
    games = tmp_path / "designs" / "games"
    games.mkdir(parents=True)
    bundled = (Path(__file__).parents[1] / "configs" / "games" / "eiffel-tower.yaml").read_text()
    (games / "eiffel-tower.yaml").write_text(bundled.replace("row_cap: null", "row_cap: 3"))  # 20 rows x 3 < 104
    (tmp_path / "bad.json").write_text("{}")
    for variants, name in (((), "plain.jsonl"), (("--variant", "strict"), "strict.jsonl")):
        made = run("batch", "--game", "eiffel-tower", *variants, "--seeds", "1-200", "--out", name, "-q", cwd=tmp_path)
        assert made.returncode == 0, made.stderr
    # and says why, which it says after its output, lost with the pipe (a reviewer's finding: an empty stderr)
    for args, why in ((["--configs", "designs", "validate", "designs"], "1 config file checked: 1 error\n"),
                      (["--configs", "designs", "validate", "designs", "--format", "json"],
                       "1 config file checked: 1 error\n"),
                      (["replay", "bad.json", "--format", "json"], "Error: bad.json: "),
                      (["stats", "plain.jsonl", "strict.jsonl", "--fail-if-different", "won"],
                       "check failed: won differs in strict.jsonl from plain.jsonl (p "),
                      (["solve", "--game", "eiffel-tower", "--seed", "1", "--log", "line.json"],
                       "Error: eiffel-tower seed 1 is not winnable: no winning line to write\n"),
                      (["solve", "--game", "eiffel-tower", "--seed", "1", "--log", "line.json", "--format", "jsonl"],
                       "Error: eiffel-tower seed 1 is not winnable: no winning line to write\n")):
        result = _closed_pipe_run(*args, cwd=tmp_path)
        assert result.returncode == 1, (args, result.stderr)
        assert result.stderr.decode().startswith(why) and result.stderr.count(b"\n") == 1, (args, result.stderr)
    assert not (tmp_path / "line.json").exists()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_the_progress_bar_is_drawn_on_a_terminals_stderr_only(tmp_path):
    """stderr a terminal, stdout a pipe: the bar goes to the terminal, ending at 100%, and never into
    the statistics on stdout; --quiet draws nothing."""
    def batch(*extra: str) -> tuple[bytes, str]:
        terminal, stderr = os.openpty()
        try:
            done = subprocess.run([str(SCRIPT), "batch", "--game", "eiffel-tower", "--seeds", "0-9", "--workers", "1",
                                   *extra], cwd=tmp_path, stdout=subprocess.PIPE, stderr=stderr, timeout=120)
        finally:
            os.close(stderr)
        drawn = b""
        while True:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # Linux: the other end is closed
                break
            if not chunk:
                break
            drawn += chunk
        os.close(terminal)
        assert done.returncode == 0
        return done.stdout, drawn.decode().replace("\r\n", "\n")

    stdout, drawn = batch("--format", "json")
    assert orjson.loads(stdout)["games"] == 10 and b"%" not in stdout
    bar = drawn.split("\r")[-1].split("\n")[0]
    assert bar.startswith("[" + "#" * 24 + "] 100.0% 10/10 games") and "ETA 0s" in bar
    assert batch("--quiet")[1] == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_full_disk_on_stdout_is_one_line(tmp_path):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([str(SCRIPT), "list"], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                                timeout=120)
    assert result.returncode == 1
    assert result.stderr.decode() == "Error: cannot write the output: No space left on device\n"
    for option in ("--help", "--version"):  # written before any command runs
        with open("/dev/full", "wb") as full:
            result = subprocess.run([str(SCRIPT), option], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                                    timeout=120)
        assert result.returncode == 1
        assert result.stderr.decode() == "Error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("args", [["simulate", "--game", "eiffel-tower", "--seed", "1"], ["list"]])
def test_a_closed_stdout_is_one_line(tmp_path, args):
    """Started with stdout closed (``>&-``), a command would lose its data (the JSON writers
    failed with a traceback, the tables were silently dropped): refused before it runs."""
    result = subprocess.run([str(SCRIPT), *args], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            timeout=120, preexec_fn=lambda: os.close(1))
    assert result.returncode == 1
    assert result.stderr.decode() == "Error: stdout is closed (redirect it to /dev/null to discard the output)\n"


def test_a_closed_stderr_discards_the_messages_only(tmp_path):
    """Started with stderr closed (``2>&-``), messages are discarded as asked, the data and exit codes
    kept: ``batch`` exited 1 with nothing on stdout, and an error went to stdout among the data (a CI
    persona's findings)."""
    def closed(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(SCRIPT), *args], cwd=tmp_path, capture_output=True, timeout=120,
                              preexec_fn=lambda: os.close(2))

    batch = closed("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--workers", "1", "--format", "json")
    assert batch.returncode == 0 and orjson.loads(batch.stdout)["games"] == 10
    bad = closed("deal", "eiffel-tower", "--seed", "x")
    assert bad.returncode == 1 and bad.stdout == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_stderr_that_cannot_be_written_loses_the_messages_only(tmp_path: Path) -> None:
    """``2>/dev/full``: a message that cannot be written does not fail the command that did its work
    (``simulate --log`` exited 1 having written the log, ``batch`` lost its statistics: a CI persona's
    findings); a failing command still exits 1."""
    def full_stderr(*args: str) -> subprocess.CompletedProcess:
        with open("/dev/full", "wb") as full:
            return subprocess.run([str(SCRIPT), *args], cwd=tmp_path, stdout=subprocess.PIPE, stderr=full,
                                  timeout=120)

    logged = full_stderr("simulate", "--game", "eiffel-tower", "--seed", "7", "--log", "game.json")
    assert logged.returncode == 0 and orjson.loads((tmp_path / "game.json").read_bytes())["seed"] == 7
    batch = full_stderr("batch", "--game", "eiffel-tower", "--seeds", "0-9", "--workers", "1", "--format", "json")
    assert batch.returncode == 0 and orjson.loads(batch.stdout)["games"] == 10
    assert full_stderr("deal", "eiffel-tower", "--seed", "x").returncode == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_full_disk_under_a_json_document_is_one_line(tmp_path: Path) -> None:
    """A JSON document smaller than stdout's buffer is flushed where it is written, so a full disk is
    the command's one-line error (exit 1), not Python's "Exception ignored" at exit (exit 120). Run
    with stdout block-buffered, as it is in a pipe or a file (PYTHONUNBUFFERED unset)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with open("/dev/full", "wb") as full:
        result = subprocess.run([str(SCRIPT), "deal", "eiffel-tower", "--seed", "7", "--format", "json"], cwd=tmp_path,
                                stdout=full, stderr=subprocess.PIPE, timeout=120, env=env)
    assert result.returncode == 1
    assert result.stderr.decode() == "Error: cannot write the output: No space left on device\n"


def _small_files() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # Python ignores SIGXFSZ: writes fail instead


@pytest.mark.skipif(sys.platform != "linux", reason="file size limits as on Linux")
def test_a_file_that_cannot_grow_is_named_in_one_line(tmp_path):
    for args, words in ((["batch", "--game", "eiffel-tower", "--seeds", "1-400", "--workers", "1", "--out", "r.jsonl"],
                         "Error: r.jsonl: cannot write: File too large; the games recorded so far are kept"),
                        (["simulate", "--game", "eiffel-tower", "--seed", "1", "--log", "g.json"],
                         "Error: cannot write g.json: File too large")):
        result = subprocess.run([str(SCRIPT), *args], cwd=tmp_path, capture_output=True, timeout=120,
                                preexec_fn=_small_files)
        assert result.returncode == 1 and result.stderr.decode().startswith(words)
        assert len(result.stderr.decode().splitlines()) == 1
    assert not (tmp_path / "g.json").exists() and not list(tmp_path.glob(".g.json.*"))  # no half log left


def test_torqu_plays_alike_with_its_kernels_uncompiled(tmp_path):
    """NUMBA_DISABLE_JIT=1 (numba's switch for debugging the kernels in Python) gives the same game,
    byte for byte: the kernels' numpy integers are turned into Python ints where they leave them
    (the log's JSON refused numpy.int64); and says nothing on stderr, where numpy's warnings of the
    integers' intended wrapping were (a determinism audit's finding)."""
    args = ("simulate", "--game", "torqu", "--players", "4", "--seed", "1", "--matches", "1")
    compiled = run(*args, cwd=tmp_path)
    uncompiled = run(*args, cwd=tmp_path, env={"NUMBA_DISABLE_JIT": "1"})
    assert compiled.returncode == 0 and uncompiled.returncode == 0, uncompiled.stderr[-300:]
    assert uncompiled.stdout == compiled.stdout
    assert not uncompiled.stderr, uncompiled.stderr[-300:]
