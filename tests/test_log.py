"""Game logs: format, replay, and the ways a log can be wrong."""

from __future__ import annotations

import copy
import errno
import io
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable

import orjson
import pytest

from cardgames.engine.agents import make_agents
from cardgames.engine.config import Catalog, bundled_root
from cardgames.engine.core import play
from cardgames.engine.errors import CardgamesError, LogError
from cardgames.engine.files import check_target, open_input, target_problem, write_atomic
from cardgames.engine.log import build_log, dumps, read_log, replay
from cardgames.engine.registry import load_game
from cardgames.engine.rng import RNG_NAME


@pytest.fixture(scope="module")
def log():
    game = load_game("eiffel-tower")
    return build_log(game, play(game, 7, make_agents([], game)))


NOT_THE_SEEDS = "^the deal in the log is not the deal the seed gives: "  # then where the two first differ


@pytest.fixture(scope="module")
def turup_log() -> dict[str, Any]:
    """A game of two rounds, so of two deals (the second made when round 2 starts)."""
    game = load_game("turup", (), 2)
    return build_log(game, play(game, 3, make_agents(["random"], game)))


def test_header(log):
    assert log["format"] == "cardgames-log" and log["version"] == 1
    assert log["rng"] == RNG_NAME and log["game"] == "eiffel-tower" and log["seed"] == 7
    assert log["agents"] == ["greedy"] and log["players"] == 1 and log["variants"] == []
    assert set(log["deal"]) == {"rows", "waste", "stock"}
    assert log["actions"][0]["player"] == 0 and "type" in log["actions"][0]["action"]
    assert list(orjson.loads(dumps(log))) == sorted(log)


@pytest.mark.parametrize("seed", range(300))
@pytest.mark.parametrize("agent", ["greedy", "random"])
def test_replay_round_trip(seed, agent):
    game = load_game("eiffel-tower")
    data = orjson.loads(dumps(build_log(game, play(game, seed, make_agents([agent], game)))))
    assert replay(data).result == data["result"]


@pytest.mark.parametrize("index", [0, 9, 60])
def test_tampered_action_names_its_step(log, index):
    bad = copy.deepcopy(log)
    bad["actions"][index]["action"] = {"type": "play", "row": 99}
    word = r'(\{"row":\d+,"type":"play"\}|\{"type":"turn"\})'
    with pytest.raises(LogError, match=f'^step {index + 1}: action {{"row":99,"type":"play"}} is not legal here '
                                       rf'\(legal here: ({word}(; |\)$))+'):
        replay(bad)


@pytest.mark.parametrize("legal, shown", [(lambda n: n > 3, "{}; {} more"), (lambda n: n == 3, "{}")])
def test_an_illegal_step_shows_what_was_legal_as_a_log_writes_it(log, legal, shown):
    """Three legal actions at most, then how many more (none said with exactly three): why a step is not among
    them (a CI maintainer met a bare "not legal here" on a log made before a row cap changed), as a log writes
    them (the narration's words of a Towers play, saying all it would cause, made a line of 900 characters)."""
    game = load_game("eiffel-tower")
    state, step = game.new_state(log["seed"]), 0
    while not legal(len(state.legal_actions())):  # to the first step with that many legal actions
        state.apply(game.action_from_json(log["actions"][step]["action"]))
        step += 1
    words = [orjson.dumps(game.action_to_json(a), option=orjson.OPT_SORT_KEYS).decode() for a in state.legal_actions()]
    bad = copy.deepcopy(log)
    bad["actions"][step]["action"] = {"type": "play", "row": 99}
    with pytest.raises(LogError) as raised:
        replay(bad)
    assert str(raised.value).endswith(f"(legal here: {shown.format('; '.join(words[:3]), len(words) - 3)})")


def test_swapped_actions_diverge_at_the_first_swap(log):
    bad = copy.deepcopy(log)
    kinds = [e["action"]["type"] for e in bad["actions"]]
    i = next(k for k in range(len(kinds) - 1) if kinds[k] == "turn" and kinds[k + 1] == "play")
    # Playing before turning: the play is judged against the previous waste card.
    bad["actions"][i], bad["actions"][i + 1] = bad["actions"][i + 1], bad["actions"][i]
    with pytest.raises(LogError, match=f"^step {i + 1}: "):
        replay(bad)


def test_unknown_action_type_and_wrong_player(log):
    bad = copy.deepcopy(log)
    bad["actions"][4]["action"] = {"type": "fly"}
    with pytest.raises(LogError, match='^step 5: unknown action type "fly"'):
        replay(bad)
    bad = copy.deepcopy(log)
    bad["actions"][2]["player"] = 1
    with pytest.raises(LogError, match="^step 3: the log says player 1 acted"):
        replay(bad)


def test_a_log_of_another_seed_is_refused_at_its_deal_not_at_a_step(log):
    """The deal is checked right after dealing: a log whose seed was edited (7 to 8) says its deal is
    not the seed's, rather than blaming whichever step first fails to fit the other deal."""
    where = r'at the deal\.rows\[0\]\[0\] the seed gives "4S#2", the log "2H"$'
    with pytest.raises(LogError, match=NOT_THE_SEEDS + where):
        replay({**copy.deepcopy(log), "seed": 8})


@pytest.mark.parametrize("kept", [None, 10], ids=["whole", "first-10-actions"])
def test_a_deal_cut_short_is_not_the_seeds_deal(log: dict[str, Any], kept: int | None) -> None:
    """A logged deal missing its last stock card is not the seed's deal (the seed's lists may only be
    shorter than the logged ones, by deals still to come): refused at the deal, not replayed and then
    blamed on missing actions, even in a log whose actions are cut short too."""
    bad = copy.deepcopy(log)
    bad["actions"] = bad["actions"][:kept]
    bad["deal"]["stock"].pop()
    with pytest.raises(LogError, match=NOT_THE_SEEDS + r"the deal\.stock holds 83 items from the seed, 82 in the log$"):
        replay(bad)


@pytest.mark.parametrize("kept", [None, -5], ids=["whole", "cut-in-round-2"])
def test_a_changed_later_deal_is_not_blamed_on_missing_actions(turup_log: dict[str, Any], kept: int | None) -> None:
    """Round 2's deal is made when round 2 starts, so two of its stock cards swapped in the log pass the
    check after the first deal; once the actions have replayed the deals differ, and the log says a deal the
    seed does not give, not that actions are missing: none are, or (a log cut short in round 2) the game has
    made that deal, so more actions would not make it the logged one."""
    bad = copy.deepcopy(turup_log)
    bad["actions"] = bad["actions"][:kept]
    stock = bad["deal"]["rounds"][1]["stock"]
    stock[-1], stock[-2] = stock[-2], stock[-1]
    where = r'at the deal\.rounds\[1\]\.stock\[38\] the seed gives "JD", the log "TD"$'
    with pytest.raises(LogError, match=NOT_THE_SEEDS + where):
        replay(bad)


@pytest.mark.parametrize("which,grow", [
    ("log", lambda deal: deal["stock"].append(deal["stock"][0])),  # one deal, a stock card too many
    ("turup_log", lambda deal: deal["rounds"].append(copy.deepcopy(deal["rounds"][0]))),  # a third round
], ids=["a-card-too-many", "a-round-too-many"])
def test_a_finished_games_longer_deal_is_not_the_seeds(request: pytest.FixtureRequest, which: str,
                                                       grow: Callable[[dict[str, Any]], None]) -> None:
    """A logged deal longer than the seed's passes the check after dealing (later deals only append), but
    once every action has replayed and the game is over no deal is still to come: the deal is not the seed's,
    and the log is not cut short (its actions all replayed and finished the game)."""
    bad = copy.deepcopy(request.getfixturevalue(which))
    grow(bad["deal"])
    where = r"the deal\.(stock|rounds) holds \d+ items from the seed, \d+ in the log$"
    with pytest.raises(LogError, match=NOT_THE_SEEDS + where):
        replay(bad)


def test_extra_action_after_the_end(log):
    bad = copy.deepcopy(log)
    bad["actions"].append({"player": 0, "action": {"type": "turn"}})
    with pytest.raises(LogError, match=f"^step {len(bad['actions'])}: the game was already over"):
        replay(bad)


def test_tampered_deal_and_result(log):
    bad = copy.deepcopy(log)
    bad["deal"]["rows"][0], bad["deal"]["rows"][1] = bad["deal"]["rows"][1], bad["deal"]["rows"][0]
    with pytest.raises(LogError, match="deal"):
        replay(bad)
    bad = copy.deepcopy(log)
    bad["result"]["won"] = not bad["result"]["won"]
    won, said = (orjson.dumps(value).decode() for value in (log["result"]["won"], bad["result"]["won"]))
    with pytest.raises(LogError, match=f"steps the result.won is {won}, but the log says {said}$"):
        replay(bad)
    bad = copy.deepcopy(log)
    del bad["result"]["plays"]
    with pytest.raises(LogError, match=r"the result.plays is \d+, but the log says missing$"):
        replay(bad)


def test_a_changed_result_is_named_where_it_differs(run_cli, tmp_path):
    """Naming the field: a long result cut to one line hid it (the audit's Turup scores)."""
    good = orjson.loads(run_cli("simulate", "--game", "turup", "--players", "3", "--seed", "4").stdout)
    bad = copy.deepcopy(good)
    bad["result"]["scores"][1] += 1
    with pytest.raises(LogError, match=rf"the result.scores\[1\] is {good['result']['scores'][1]}, but the log "
                                       rf"says {good['result']['scores'][1] + 1}$"):
        replay(bad)


def test_a_result_field_only_the_log_has_is_named(log: dict[str, Any]) -> None:
    """A field the log's result has and the game's has not is named as missing from the game's result."""
    bad = copy.deepcopy(log)
    bad["result"]["bonus"] = 1
    with pytest.raises(LogError, match=r"steps the result\.bonus is missing, but the log says 1$"):
        replay(bad)


def test_a_result_list_of_another_length_is_named_whole(turup_log: dict[str, Any]) -> None:
    """A list of another length (a score too many) is shown whole where it differs, as a LogError, not a
    crash comparing its items pairwise."""
    bad = copy.deepcopy(turup_log)
    bad["result"]["scores"].append(0)
    fresh, said = (orjson.dumps(s).decode() for s in (turup_log["result"]["scores"], bad["result"]["scores"]))
    with pytest.raises(LogError, match=rf"steps the result\.scores is {re.escape(fresh)}, but the log says "
                                       rf"{re.escape(said)}$"):
        replay(bad)


def test_changed_config_is_detected(log, tmp_path):
    shutil.copytree(bundled_root(), tmp_path / "cfg", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = tmp_path / "cfg" / "games" / "eiffel-tower.yaml"
    path.write_text(path.read_text().replace("strict_waste_cap: 4", "strict_waste_cap: 5"))
    with pytest.raises(LogError, match="different config of eiffel-tower") as raised:
        replay(log, Catalog([tmp_path / "cfg"]))
    # config folders are one cause a newcomer met: said, with the way out
    assert str(raised.value).endswith("or were read from other config folders (a log made with --configs replays "
                                      "with the same --configs; --current-config replays it under this one)")


def test_current_config_replays_a_log_under_a_changed_config(log, tmp_path):
    """After a rules change, a CI gate asks whether recorded logs still play: with ``current_config`` the log is
    replayed under the config found here, the report saying the config changed; a step the new rules refuse is
    named as any illegal step is."""
    shutil.copytree(bundled_root(), tmp_path / "cfg", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = tmp_path / "cfg" / "games" / "eiffel-tower.yaml"
    bundled = path.read_text()
    path.write_text(bundled.replace("strict_waste_cap: 4", "strict_waste_cap: 5"))  # no effect on the plain game
    report = replay(log, Catalog([tmp_path / "cfg"]), current_config=True)
    assert report.config_changed and report.result == log["result"]
    assert not replay(log, current_config=True).config_changed
    path.write_text(bundled.replace("row_cap: null", "row_cap: 6"))  # the fewest cards a row that hold the deck
    state, first = load_game("eiffel-tower").new_state(log["seed"]), 0
    while True:  # to the first play onto a row of six cards
        action = log["actions"][first]["action"]
        first += 1
        if action["type"] == "play" and len(state.rows[action["row"]]) == 6:
            break
        state.apply(state.game.action_from_json(action))
    turn = re.escape('(legal here: {"type":"turn"}')
    with pytest.raises(LogError, match=rf"^step {first}: action .* is not legal here {turn}"):
        replay(log, Catalog([tmp_path / "cfg"]), current_config=True)


@pytest.mark.parametrize("content,message", [
    (b"", "not valid JSON"),
    (b'{"format": "cardgames-log", "version": 1, "rng"', "not valid JSON"),
    (b"[1, 2]", "not a cardgames log"),
    # a batch result file, its header alone or with records (an analyst's: "not valid JSON (truncated or
    # corrupted?)"), is said to be one, and what reads it
    (b'{"format": "cardgames-batch", "version": 1}', r"log\.json: a batch result file, not a game log: `cardgames "
                                                      r"stats` reads it"),
    (b'{"format": "cardgames-batch", "version": 1}\n{"seed": 1, "won": true}\n', "a batch result file, not a game"),
    (b'{"format": "cardgames-other"}\n{"seed": 1}\n', "not valid JSON"),
    (b'{"format": "cardgames-log", "version": 9}', "version 9 is not supported"),
    (b'{"format": "cardgames-log", "version": 1}', "missing field 'rng'"),
    # orjson places a bad byte at line 1 column 1 (an audit's finding): its own line and byte are named
    (b'{"format": "cardgames-log",\n "version": 1,\n "rng": "caf\xe9"}', r"log\.json:3: not UTF-8 text \(byte 55\)$"),
    # past orjson's own depth limit (1024) the nesting was "not valid JSON (truncated or corrupted?)" (a log audit's)
    (b'{"format": "cardgames-log",\n "actions": [' + b"[" * 1100 + b"]" * 1100 + b"]}",
     r"log\.json:2: nests values more than 32 levels deep \(column 10[0-9][0-9]\); no log does$"),
])
def test_unreadable_logs(tmp_path, content, message):
    path = tmp_path / "log.json"
    path.write_bytes(content)
    with pytest.raises(LogError, match=message):
        read_log(path)


def test_truncated_log_file(tmp_path, log):
    path = tmp_path / "log.json"
    path.write_bytes(dumps(log)[:500])
    with pytest.raises(LogError, match="truncated"):
        read_log(path)


def test_a_log_over_the_size_limit_is_refused_as_too_large(tmp_path: Path, log: dict[str, Any],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A log of exactly ``MAX_LOG_BYTES`` is read; one byte more is refused by its size, not read cut to
    the limit (which here would drop only the final newline and leave a log that reads)."""
    path = tmp_path / "log.json"
    path.write_bytes(dumps(log))
    size = path.stat().st_size
    monkeypatch.setattr("cardgames.engine.log.MAX_LOG_BYTES", size)
    assert read_log(path) == orjson.loads(dumps(log))
    monkeypatch.setattr("cardgames.engine.log.MAX_LOG_BYTES", size - 1)
    with pytest.raises(LogError, match=rf"^{re.escape(str(path))}: larger than .+; not a game log$"):
        read_log(path)


def test_write_atomic_keeps_old_content_on_failure(tmp_path):
    path = tmp_path / "out.json"
    path.write_bytes(b"old")

    with pytest.raises(TypeError):
        write_atomic(path, object())  # type: ignore[arg-type]
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    write_atomic(path, b"new")
    assert path.read_bytes() == b"new"


@pytest.mark.parametrize("where,value,message", [
    (("actions", 0, "action", "row"), "float",
     r'^step 1: action {"row":(\d+)\.0,"type":"play"} is legal, but a log writes it {"row":\1,"type":"play"}$'),
    (("actions", 0, "player"), False, "^step 1: field 'player' must be a seat number, not false$"),
    (("actions", 0, "player"), "0", "^step 1: field 'player' must be a seat number, not \"0\"$"),
    (("result", "won"), "int", "the result.won is (true|false), but the log says [01]$"),
    (("agents",), [], "field 'agents' must name one agent per seat"),
    (("agents",), ["greedy", "greedy"], "field 'agents' must name one agent per seat"),
    (("agents",), ["zzz"],
     r'^field \'agents\': eiffel-tower has no agent "zzz" \(its agents: greedy, random, solver\)$'),
])
def test_values_are_compared_as_written(log, where, value, message):
    """6.0 or true where the engine writes 6 or 1 is not the same log (Python would say equal)."""
    bad = copy.deepcopy(log)
    first = next(i for i, e in enumerate(bad["actions"]) if e["action"]["type"] == "play")
    holder = bad
    path = [first if k == 0 and where[0] == "actions" else k for k in where]
    for key in path[:-1]:
        holder = holder[key]
    old = holder[path[-1]]
    holder[path[-1]] = float(old) if value == "float" else int(old) if value == "int" else value
    message = message.replace("step 1", f"step {first + 1}") if where[0] == "actions" else message
    with pytest.raises(LogError, match=message):
        replay(bad)


def test_write_atomic_targets(tmp_path, capfdbinary):
    """A symbolic link's file is replaced (the link stays), permissions are kept or follow the umask,
    ``-`` is stdout, and a pipe is written into rather than renamed over."""
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_bytes(b"old")
    real.chmod(0o644)
    link.symlink_to(real)
    write_atomic(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    mask = os.umask(0o027)
    try:
        write_atomic(tmp_path / "fresh.json", b"x")
        write_atomic(real, b"newer")  # kept, not the umask's 0o640
        assert os.umask(0o027) == 0o027, "reading the umask must set it back"
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o640
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    write_atomic("-", b"to stdout\n")
    assert capfdbinary.readouterr().out == b"to stdout\n"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    # a daemon: were the pipe renamed over, the reader would wait on it for ever, and so would pytest's exit
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_atomic(fifo, b"through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(CardgamesError, match="no file name"):
        write_atomic("", b"x")


@pytest.mark.parametrize("field,value,message", [
    ("seed", "7", 'field \'seed\' is "7"; a log writes this seed as 7'),
    ("seed", "ms7", 'the log\'s seed "ms7"'),
    ("rng", "pysolfc", "field 'seed' is 7; a log writes this seed as \"7\""),  # PySolFC numbers are text
    ("players", 3, "the log's game \"eiffel-tower\", 3 players cannot be set up here: eiffel-tower is for 1 player"),
    ("rng", "mt19937", "log uses generator \"mt19937\"; this engine has"),
    ("variants", ["death"], "the log's game \"eiffel-tower\" --variant death, 1 player cannot be set up here"),
    ("game", "compass-rose", "unknown game 'compass-rose'"),  # a designer's, whose folder is not given:
    ("game", "compass-rose", "(a log made with --configs replays with the same --configs)"),
])
def test_a_logs_own_fields_are_log_errors(log, field, value, message):
    """What the log says is checked as the log's: a LogError (exit 1), never a usage error."""
    bad = {**copy.deepcopy(log), field: value}
    with pytest.raises(LogError, match=re.escape(message)):
        replay(bad)


@pytest.mark.parametrize("field", ["version", "players"])
def test_true_is_not_a_number_in_a_log(tmp_path, log, field):
    """JSON's true is not 1 (Python would take it for one): the header is wrong, said so."""
    path = tmp_path / "bad.json"
    path.write_bytes(dumps({**log, field: True}))
    with pytest.raises(LogError, match=f"field '{field}' has the wrong type"):
        read_log(path)


@pytest.mark.parametrize("text, said", [
    (b"18446744073709551616", "an integer or a string is needed, not a whole number past 64 bits (read as "
                              "1.8446744073709552e+19; JSON readers keep 64 bits at most)"),
    (b"-9223372036854775809", "an integer or a string is needed, not a whole number past 64 bits (read as "
                              "-9.223372036854776e+18;"),
    # the same float: no way to tell it from the whole number once read
    (b"1.8446744073709552e+19", "an integer or a string is needed, not a whole number past 64 bits"),
    (b"1e19", "an integer or a string is needed, not 1e+19"),  # a float within 64 bits was written a float
    (b"7.5", "an integer or a string is needed, not 7.5"),
    (b"7.0", "an integer or a string is needed, not 7.0"),
    (b"[7]", "an integer or a string is needed, not [7]")])
def test_a_seed_of_the_wrong_type_is_shown(tmp_path, log, text, said):
    """The message says what a field needs and shows what it got: a seed one past 2**64 - 1, which the JSON
    reader can only take as a float, is seen to be that number, not merely "the wrong type"."""
    path = tmp_path / "bad.json"
    path.write_bytes(dumps({**log, "seed": 0}).replace(b'"seed": 0', b'"seed": ' + text))
    with pytest.raises(LogError, match=re.escape(f"field 'seed' has the wrong type: {said}")):
        read_log(path)


@pytest.mark.parametrize("old, new, said", [
    (b'"seed":7,', b'"seed":7,"seed":8,', 'key "seed" given twice'),
    (b'"won":', b'"won":true,"won":', 'field "result": key "won" given twice'),
    (b'"player":0}', b'"player":0,"player":0}', 'step 1: key "player" given twice')])
def test_a_key_given_twice_is_refused_where_it_is(tmp_path, log, old, new, said):
    """orjson keeps the last of two values for one key without a word (a CLI audit's finding: a log whose
    result said ``"won": true, "won": false`` replayed as a match): refused, naming the field or step."""
    path = tmp_path / "twice.json"
    raw = dumps(log, pretty=False)
    assert raw.count(old) >= 1
    path.write_bytes(raw.replace(old, new, 1))
    with pytest.raises(LogError, match=re.escape(f"twice.json: {said}; a log writes each key once")):
        read_log(path)
    path.write_bytes(raw)
    assert read_log(path) == orjson.loads(raw)


@pytest.mark.parametrize("value", [None, 5, True, 1.5, "abc", {}])
def test_actions_that_are_not_a_list_have_the_wrong_type(tmp_path, log, value):
    """``actions`` of null, a number or true is said to have the wrong type, like a string or a mapping (a
    reviewer's finding: the nesting check walked it first and stopped on a TypeError, a traceback)."""
    path = tmp_path / "bad.json"
    path.write_bytes(dumps({**log, "actions": value}))
    with pytest.raises(LogError, match="field 'actions' has the wrong type"):
        read_log(path)


def test_variants_and_agents_must_be_names(tmp_path, log):
    for field, value in (("variants", [1]), ("agents", [["greedy"]])):
        path = tmp_path / "bad.json"
        path.write_bytes(dumps({**log, field: value}))
        with pytest.raises(LogError, match=f"field '{field}' must list names"):
            read_log(path)


def test_a_variant_listed_twice_is_refused(tmp_path):
    """The game applies a variant once, so ``["strict", "strict"]`` matched the config's hash and replayed
    "ok" (a log audit's finding): simulate names each variant once, and a log naming one twice is refused."""
    game = load_game("eiffel-tower", ("strict",))
    data = build_log(game, play(game, 7, make_agents(["greedy"], game)))
    path = tmp_path / "twice.json"
    path.write_bytes(dumps({**data, "variants": ["strict", "strict"]}))
    with pytest.raises(LogError, match=r"twice.json: field 'variants' lists \"strict\" twice; a log names each"):
        read_log(path)
    path.write_bytes(dumps(data))
    assert replay(read_log(path)).steps == len(data["actions"])


def test_a_multi_deal_log_cut_short_says_actions_are_missing():
    game = load_game("turup", (), 2)
    data = build_log(game, play(game, 3, make_agents(["random"], game)))
    data["actions"] = data["actions"][:30]
    with pytest.raises(LogError, match="actions are missing"):
        replay(data)


@pytest.mark.parametrize("game_id,players", [("eiffel-tower", 1), ("towers", 4)])
def test_a_one_deal_log_cut_short_says_actions_may_be_missing(game_id: str, players: int) -> None:
    """A log of one deal whose last action was cut off replays to a game not yet over: the error says so and
    asks whether actions are missing, rather than only naming the first result field that differs (an audit's
    finding: "after 18 steps the result.fled[2] is 0, but the log says 1")."""
    game = load_game(game_id, (), players)
    data = build_log(game, play(game, 3, make_agents(["random"], game)))
    data["actions"] = data["actions"][:-1]
    with pytest.raises(LogError, match=rf"^after the log's {len(data['actions'])} steps the game is not over and "
                                       r"the result\..* but the log says .*: are actions missing \(was the log cut"):
        replay(data)


def test_an_action_entry_with_another_field_is_malformed(log):
    """A step is a player and an action, nothing more: anything else is not this format."""
    bad = copy.deepcopy(log)
    bad["actions"][3]["note"] = "x"
    with pytest.raises(LogError, match="^step 4: malformed entry"):
        replay(bad)


@pytest.mark.parametrize("entry", [None, 7, "play", ["player", "action"]])
def test_an_action_entry_that_is_no_mapping_is_malformed(log, entry):
    """Said as such, not a TypeError's traceback (a fuzzer's finding: a null entry was read before it was
    checked)."""
    bad = copy.deepcopy(log)
    bad["actions"][0] = entry
    with pytest.raises(LogError, match=r"^step 1: malformed entry "):
        replay(bad)


def test_a_long_value_is_cut_to_one_short_line(log: dict[str, Any]) -> None:
    """A value shown in an error is its JSON cut to 120 characters, the last three "...", however long."""
    bad = copy.deepcopy(log)
    bad["actions"][3]["note"] = "x" * 500
    with pytest.raises(LogError) as err:
        replay(bad)
    shown = str(err.value).removeprefix("step 4: malformed entry ")
    assert shown.startswith('{"action":') and shown.endswith("x...") and len(shown) == 120


@pytest.mark.parametrize("change,words", [
    (lambda action: action.update(extra=1), "a \"play\" action has 'row' (this one: unknown field \"extra\")"),
    (lambda action: action.pop("row"), "a \"play\" action has 'row' (this one: no field 'row')"),
])
def test_an_action_with_wrong_fields_says_which(log, change, words):
    bad = copy.deepcopy(log)
    first = next(i for i, e in enumerate(bad["actions"]) if e["action"]["type"] == "play")
    change(bad["actions"][first]["action"])
    with pytest.raises(LogError, match=f"^step {first + 1}: {re.escape(words)}$"):
        replay(bad)


@pytest.mark.parametrize("action", [{"row": 0}, {"type": ["play"], "row": 0}, {"type": 1, "row": 0}])
def test_an_action_without_a_text_type_is_malformed(log: dict[str, Any], action: dict[str, Any]) -> None:
    """An action's ``type`` names its kind as text: none, a list or a number is a malformed action at its
    step (not an unknown type None, nor Python's "unhashable type")."""
    bad = copy.deepcopy(log)
    first = next(i for i, e in enumerate(bad["actions"]) if e["action"]["type"] == "play")
    bad["actions"][first]["action"] = action
    with pytest.raises(LogError, match=f"^step {first + 1}: malformed action "):
        replay(bad)


@pytest.mark.parametrize("action, words", [
    ({"type": "y" * 3000}, "unknown action type \"yyy"),
    ({"type": "play", "row": 0, "z" * 3000: 1}, "a \"play\" action has 'row' (this one: unknown field \"zzz"),
    ({"type": 1, "row": "x" * 3000}, "malformed action {\"row\":\"xxx"),
])
def test_a_long_action_is_named_in_one_short_line(log: dict[str, Any], action: dict[str, Any], words: str) -> None:
    """An action's type, field names and whole form are cut short in its error like any other value in a
    log, so a corrupted action of thousands of characters still gives a line that can be read."""
    bad = copy.deepcopy(log)
    bad["actions"][0]["action"] = action
    with pytest.raises(LogError) as err:
        replay(bad)
    assert str(err.value).startswith(f"step 1: {words}") and len(str(err.value)) < 200


def test_a_malformed_action_is_quoted_as_the_log_writes_it(log: dict[str, Any]) -> None:
    """In JSON, as the log holds it (null, true, double quotes), not as Python shows it (None, True): an
    auditor's finding, the one message of a log that quoted it in Python's spelling."""
    bad = copy.deepcopy(log)
    bad["actions"][0]["action"] = {"type": None, "x": True}
    with pytest.raises(LogError, match=r'^step 1: malformed action \{"type":null,"x":true\}$'):
        replay(bad)


def test_write_atomic_errors_name_the_file(tmp_path, monkeypatch):
    """An OSError of the write is one CardgamesError naming the file, whether written straight (a device) or
    through the temporary file (left behind neither), and a symbolic link loop is refused, not replaced; the
    temporary file goes beside the target, not in the system's temporary folder."""
    if os.path.exists("/dev/full"):
        with pytest.raises(CardgamesError, match="^cannot write /dev/full: No space left on device$"):
            write_atomic("/dev/full", b"x")
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    with pytest.raises(CardgamesError, match="^cannot write .*loop.json: Too many levels of symbolic links$"):
        write_atomic(loop, b"x")
    assert loop.is_symlink()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    write_atomic(tmp_path / "beside.json", b"x")
    assert (tmp_path / "beside.json").read_bytes() == b"x"

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CardgamesError, match="^cannot write .*out.json: No space left on device$"):
        write_atomic(tmp_path / "out.json", b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["beside.json", "loop.json"]
    stdout = io.BytesIO()  # a buffered stdout (pytest's own is not): flushed at once, before anything after it
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(stdout)))
    write_atomic("-", b"to stdout\n")
    assert stdout.getvalue() == b"to stdout\n"


def test_an_unreadable_input_names_the_reason_without_errno(tmp_path):
    """``open_input`` of a missing file: "<path>: cannot read: No such file or directory"."""
    with pytest.raises(CardgamesError) as err:
        open_input(tmp_path / "missing.json")
    assert str(err.value) == f"{tmp_path / 'missing.json'}: cannot read: No such file or directory"


def test_a_closed_stdin_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Started with stdin closed (``cardgames replay - <&-``) Python has no ``sys.stdin``: reading ``-`` said
    so in a traceback (an audit's finding), now in the one line every unreadable input gets."""
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(LogError, match=r"^<stdin>: cannot read: stdin is closed$"):
        open_input("-", LogError)


def test_a_folder_without_write_or_search_permission_is_refused(tmp_path, monkeypatch):
    """The temporary file needs the folder writable and searchable (checked with os.access, which
    root always passes, hence the stand-in): either missing is refused, a bare name's folder
    named '.'; ``-`` (stdout) and a device need no temporary file there."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "access", lambda path, mode: not mode & os.X_OK)  # writable, not searchable
    assert target_problem("out.json") == "the folder . is not writable"
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert target_problem(str(tmp_path / "out.json")) == f"the folder {tmp_path} is not writable"
    check_target("-")
    assert target_problem(os.devnull) is None  # a device is written straight: its folder takes no file


def test_an_empty_output_name_is_shown_quoted():
    """An empty --out is named as '' in the error, not as nothing."""
    with pytest.raises(CardgamesError) as err:
        check_target("")
    assert str(err.value) == "cannot write '': no file name"


@pytest.mark.parametrize("command", [("replay",), ("stats",), ("score", "torqu", "--input")])
def test_an_empty_input_name_is_shown_quoted(run_cli, command):
    """An empty input file name is named as '' too, by every command reading one (was "Error: : cannot read")."""
    result = run_cli(*command, "")
    assert result.exit_code == 1 and result.stderr == "Error: cannot read '': no file name\n"


def test_a_missing_folder_is_named_as_given(tmp_path, monkeypatch):
    """A relative name's missing folder is named as the user wrote it, not as an absolute path."""
    monkeypatch.chdir(tmp_path)
    assert target_problem("nodir/g.json") == "there is no folder nodir"


def test_a_file_where_a_folder_belongs_is_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``notes.txt/g.json`` where notes.txt is a file: said so, not "there is no folder notes.txt", which
    sends the user looking for a missing folder, nor an unwritable folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x")
    assert target_problem("notes.txt/g.json") == "notes.txt is a file, not a folder"
    assert target_problem("notes.txt/sub/g.json") == "there is no folder notes.txt/sub"


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("where, said", [
    (lambda log, deep: log["actions"][0].__setitem__("player", deep), "step 1"),
    (lambda log, deep: log["actions"][0]["action"].__setitem__("row", deep), "step 1"),
    (lambda log, deep: log["agents"].__setitem__(0, deep), "field \"agents\""),
    (lambda log, deep: log["result"].__setitem__("won", deep), "field \"result\""),
])
@pytest.mark.parametrize("depth", [40, 300, 1000])
def test_a_log_nested_too_deep_is_one_line_naming_where(tmp_path, log, where, said, depth):
    """Values nested 255 levels or more crashed replay with a traceback: orjson, which quotes them in the
    messages, writes 254 at most, and Python recurses 1,000 (the fuzzing audit's finding)."""
    bad = copy.deepcopy(log)
    where(bad, _nested(depth))
    path = tmp_path / "deep.json"
    path.write_text(_json_deep(bad))  # as text: orjson writes no deeper than 254 levels
    with pytest.raises(LogError) as err:
        read_log(path)
    assert str(err.value) == f"{path}: {said} nests values more than 32 levels deep; no log does"


def _json_deep(value: Any) -> str:
    """JSON text of ``value`` without recursion limits (deep lists written iteratively)."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list):
        depth, inner = 0, value
        while isinstance(inner, list) and len(inner) == 1 and isinstance(inner[0], list):
            depth, inner = depth + 1, inner[0]
        return "[" * depth + _json_deep(inner) + "]" * depth
    if isinstance(value, list):
        return "[" + ",".join(_json_deep(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{orjson.dumps(k).decode()}:{_json_deep(v)}" for k, v in value.items()) + "}"
    return orjson.dumps(value).decode()


def test_a_dangling_symlinks_missing_folder_is_its_targets(tmp_path):
    """``--log link.json``, a symlink into a folder that does not exist, named the link's own folder, which
    does (the fuzzing audit's finding)."""
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere" / "x.json")
    assert target_problem(link) == f"there is no folder {tmp_path / 'nowhere'}"


@pytest.mark.parametrize("field, value", [("game", "L" * 5000), ("variants", ["L" * 5000]), ("seed", "1" * 5000),
                                          ("rng", "L" * 5000), ("agents", ["L" * 5000]), ("version", "L" * 5000)])
def test_a_logs_long_values_are_clipped_in_its_one_line_error(log, field, value):
    """A 5,000-character game, variant, seed, generator, agent or version made a 5-10 KB error line (the
    fuzzing audit's finding): each is quoted cut short, as every other value is."""
    with pytest.raises(LogError) as err:
        replay({**copy.deepcopy(log), field: value}) if field != "version" else _read_with(log, field, value)
    shown = str(err.value)
    assert len(shown) < 400 and ("LLLLLLLLLL..." in shown or "1111111111..." in shown), shown


def _read_with(log: dict[str, Any], field: str, value: Any) -> None:
    """``read_log`` on ``log`` with ``field`` set to ``value`` (the header's checks live there)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.json"
        path.write_bytes(orjson.dumps({**log, field: value}))
        read_log(path)


@pytest.mark.parametrize("field", ["engine_version", "rng", "game", "variants", "players", "seed", "config_sha256",
                                   "agents", "deal", "actions", "result"])
def test_each_required_field_missing_is_named(tmp_path: Path, log: dict[str, Any], field: str) -> None:
    """Every field the log format calls required is checked as such: a log without ``engine_version`` crashed with
    a KeyError in a mutant that every other test let through (an audit's finding)."""
    bad = copy.deepcopy(log)
    del bad[field]
    path = tmp_path / "g.json"
    path.write_bytes(dumps(bad))
    with pytest.raises(LogError) as err:
        read_log(path)
    assert str(err.value) == f"{path}: missing field {field!r}"


@pytest.mark.parametrize("where, said, above", [
    (lambda log, deep: log.__setitem__("note", deep), 'field "note"', 1),
    (lambda log, deep: log["result"].__setitem__("won", deep), 'field "result"', 2),
    (lambda log, deep: log["actions"][0].__setitem__("player", deep), "step 1", 3),
    (lambda log, deep: log["actions"][0]["action"].__setitem__("row", deep), "step 1", 4),
])
def test_a_log_may_nest_32_levels_and_no_more(tmp_path, log, where, said, above):
    """The limit counts every level, the log's own and the actions' list's included: 32 read, 33 refused at the
    part that holds them (``above``: the levels over the nested value)."""
    for levels, refused in ((32, False), (33, True)):
        bad = copy.deepcopy(log)
        where(bad, _nested(levels - above))
        path = tmp_path / "deep.json"
        path.write_text(_json_deep(bad))
        if refused:
            with pytest.raises(LogError, match=f"^{re.escape(f'{path}: {said} nests values more than 32 levels')}"):
                read_log(path)
        else:
            read_log(path)


def test_a_deal_with_another_field_is_refused_before_the_actions(log: dict[str, Any]) -> None:
    """The deal is checked before any action: a field it does not have is a deal the seed does not give, not
    an action found illegal later."""
    bad = copy.deepcopy(log)
    bad["deal"]["extra"] = 1
    bad["actions"][0]["action"] = {"type": "play", "row": 99}
    with pytest.raises(LogError, match=NOT_THE_SEEDS + r"at the deal\.extra the seed gives nothing, the log 1$"):
        replay(bad)


def test_a_changed_result_names_the_steps_and_the_first_field_in_key_order(log: dict[str, Any]) -> None:
    """With two result fields changed, the first in sorted key order is named, after as many steps as the log has."""
    bad = copy.deepcopy(log)
    bad["result"]["plays"] += 1
    bad["result"]["turns"] += 1
    with pytest.raises(LogError, match=rf"^after {len(log['actions'])} steps the result\.plays is "
                                       rf"{log['result']['plays']}, but the log says {log['result']['plays'] + 1}$"):
        replay(bad)


def test_towers_pass_and_flee_are_told_apart(tmp_path: Path) -> None:
    """Towers' pass and flee have no fields, so they are equal tuples: a log's pass must replay as the engine's
    pass (``no_play: pass``), not be matched to a flee and refused."""
    (tmp_path / "games").mkdir()
    towers = (bundled_root() / "games" / "towers.yaml").read_text()
    assert towers.count("no_play: flee") == 1
    (tmp_path / "games" / "towers.yaml").write_text(towers.replace("no_play: flee", "no_play: pass"))
    catalog = Catalog([tmp_path, bundled_root()])
    game = load_game("towers", (), 2, catalog)
    data = orjson.loads(dumps(build_log(game, play(game, 1, make_agents([], game)))))
    assert {"type": "pass"} in [entry["action"] for entry in data["actions"]]
    assert replay(data, catalog).result == data["result"]


def test_a_log_naming_an_alias_reports_the_resolved_game(tmp_path: Path, run_cli) -> None:
    """``strict-eiffel-tower`` in a log's game is resolved as on the command line, and the report names what was
    replayed (the resolved game and its variants), not the log's words."""
    data = orjson.loads(run_cli("simulate", "--game", "strict-eiffel-tower", "--seed", "3").stdout)
    data["game"], data["variants"] = "strict-eiffel-tower", []
    path = tmp_path / "alias.json"
    path.write_bytes(dumps(data))
    result = run_cli("replay", str(path))
    assert result.exit_code == 0 and result.stdout.startswith("ok: eiffel-tower + strict seed 3: ")


def test_the_log_names_each_seats_agent_in_seat_order():
    """Replay needs no agent, so only this pins which seat played which (the first seat is listed first)."""
    game = load_game("turup", (), 2)
    run = play(game, 5, make_agents(["random", "greedy"], game))
    assert build_log(game, run)["agents"] == ["random", "greedy"]


@pytest.mark.parametrize("field, value, words", [
    ("version", "x" * 100, 'log version "' + "x" * 36 + '... is not supported (this is version 1)'),  # 40 long
    ("deal", None, "field 'deal' has the wrong type: a mapping is needed, not null"),
    ("variants", ["a", 1], 'field \'variants\' must list names (strings), not ["a",1]'),
])
def test_a_logs_header_values_are_quoted_as_the_log_writes_them(tmp_path, log, field, value, words):
    """In JSON's spelling (null, double quotes, no spaces), cut short: the log's own (a mutation audit's)."""
    path = tmp_path / "log.json"
    path.write_bytes(orjson.dumps({**log, field: value}))
    with pytest.raises(LogError) as err:
        read_log(path)
    assert str(err.value) == f"{path}: {words}"


def test_the_first_key_given_twice_is_named() -> None:
    """Two keys each given twice in one object: the first met is named (a mutation audit's gap)."""
    from cardgames.engine.jsonkeys import read_keyed

    assert read_keyed('{"cards": [1], "cards": [2], "x": 1, "x": 2}').twice == "cards"
    assert read_keyed('{"cards": [1]}').twice is None
