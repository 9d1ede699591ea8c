"""The command line, in process (CliRunner): output formats, exit codes, one-line errors."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
import time
from pathlib import Path

import orjson
import pytest
import yaml


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_help_lists_every_command_and_exit_code(run_cli, option):
    result = run_cli(option)
    assert result.exit_code == 0
    for name in ("list", "show", "validate", "deal", "simulate", "replay", "solve", "batch", "stats", "score",
                 "captures", "placements"):
        assert f"  {name} " in result.stdout
    codes = " ".join(result.stdout.split())  # the help's lines are wrapped to the terminal
    for code in ("0 success", "1 a check failed", "2 a usage error", "130 interrupted"):  # the README's list
        assert code in codes


def test_the_version_is_the_one_logs_record(run_cli):
    """``--version`` (the installed metadata, which setup.py reads from ENGINE_VERSION) says what every log
    and result file records as its ``engine_version``: one home for the version (a reviewer's finding: it
    had two, pyproject.toml's and ENGINE_VERSION)."""
    from cardgames.engine import ENGINE_VERSION

    result = run_cli("--version")
    assert result.exit_code == 0 and result.stdout.split()[-1] == ENGINE_VERSION


def test_list_formats(run_cli):
    table = run_cli("list")
    assert table.exit_code == 0 and "eiffel-tower" in table.stdout and "strict-eiffel-tower" in table.stdout
    rows = orjson.loads(run_cli("list", "--format", "json").stdout)
    ids = {r["id"] for r in rows}
    assert {"eiffel-tower", "strict-eiffel-tower"} <= ids
    reader = csv.DictReader(io.StringIO(run_cli("list", "--format", "csv").stdout))
    assert {r["id"] for r in reader} == ids
    lines = run_cli("list", "--format", "jsonl").stdout.splitlines()
    assert len(lines) == len(rows) and orjson.loads(lines[0])["id"] == rows[0]["id"]
    decks = {d["id"]: d for d in orjson.loads(run_cli("list", "--kind", "decks", "--format", "json").stdout)}
    assert decks["french"] == {"id": "french", "name": "French", "cards": 52, "suits": 4, "ranks": 13,
                               "designed_by_project": False}
    assert decks["squad"]["designed_by_project"] is True
    variants = {v["id"]: v for v in orjson.loads(run_cli("list", "--kind", "variants", "--format", "json").stdout)}
    assert (variants["strict"]["applies_to"], variants["strict"]["aliases"]) == (["pairing"], ["strict-{game}"])
    # the kind as an argument too (an analyst's `cardgames list variants` was an extra argument), not two kinds
    assert run_cli("list", "variants", "--format", "json").stdout == run_cli("list", "--kind", "variants", "--format",
                                                                             "json").stdout
    both = run_cli("list", "decks", "--kind", "variants")
    assert both.exit_code == 2 and "list decks or list --kind variants: give one kind" in both.stderr


def test_list_table_has_its_header_and_plain_cells_in_id_order(run_cli):
    """The table's header row names the columns; a list cell is its items, not a Python list; games come
    sorted by id, each followed by its aliases; YAML ends in one newline (a mutation audit's findings)."""
    lines = run_cli("list").stdout.splitlines()
    assert lines[0].split() == ["id", "name", "family", "deck", "players", "variants", "alias_of"]
    castle = next(line for line in lines if line.startswith("castle "))
    assert castle.split()[-1] == "strict" and "[" not in "".join(lines)
    rows = orjson.loads(run_cli("list", "--format", "json").stdout)
    ids = [row["id"] for row in rows]
    games = [row["id"] for row in rows if not row["alias_of"]]
    assert games == sorted(games) and ids[:4] == ["castle", "strict-castle", "eiffel-tower", "strict-eiffel-tower"]
    for fmt in ("yaml", "csv", "table"):
        out = run_cli("list", "--format", fmt).stdout
        assert out.endswith("\n") and not out.endswith("\n\n"), fmt


def test_list_decks_counts_every_card(run_cli):
    """A deck's cards are all of them: the Harrow deck's 54 are listed cards (no suits x ranks), the Tarock's
    78 hold 22 trumps beside its 4 x 14, the Hex A Deck's 68 four Wizards beside its 4 x 16."""
    decks = {row["id"]: row for row in orjson.loads(run_cli("list", "--kind", "decks", "--format", "json").stdout)}
    assert {d: decks[d]["cards"] for d in ("harrow", "tarock", "hex-a-deck", "french")} == \
        {"harrow": 54, "tarock": 78, "hex-a-deck": 68, "french": 52}


@pytest.mark.parametrize("templates, shown", [
    (3, "a-eiffel-tower, b-eiffel-tower, c-eiffel-tower ("),
    (5, "a-eiffel-tower, b-eiffel-tower, c-eiffel-tower and 2 more ("),
])
def test_list_names_the_clashing_aliases_it_leaves_out(run_cli, tmp_path, templates, shown):
    """Two variants of one game giving the same alias templates: each alias names two meanings, so none is
    listed, and the note names three and counts the rest."""
    (tmp_path / "variants").mkdir()
    aliases = ", ".join(f"'{letter}-{{game}}'" for letter in "abcde"[:templates])
    for vid in ("one", "two"):
        (tmp_path / "variants" / f"{vid}.yaml").write_text(
            f"id: {vid}\nname: {vid.title()}\napplies_to: [eiffel-tower]\naliases: [{aliases}]\n"
            "options: {strict: true}\n")
    result = run_cli("--configs", str(tmp_path), "list")
    assert result.exit_code == 0 and "a-eiffel-tower" not in result.stdout
    assert f"note: not listed, as each names more than one game or variant: {shown}" in result.stderr


def test_list_variants_gives_an_empty_description_when_a_file_has_none(run_cli, tmp_path):
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "bare.yaml").write_text("id: bare\nname: Bare\napplies_to: [eiffel-tower]\n"
                                                     "options: {strict: true}\n")
    rows = orjson.loads(run_cli("--configs", str(tmp_path), "list", "--kind", "variants", "--format", "json").stdout)
    assert next(row for row in rows if row["id"] == "bare")["description"] == ""


def test_list_csv_cells_read_as_a_person_would(run_cli):
    """csv: a list's names joined by spaces, no value an empty cell, the player range and the deck
    spelt out, an alias naming its game and variants; plain newlines (no \\r), which `tail -n +2 |
    wc -l` in the README counts."""
    result = run_cli("list", "--format", "csv")
    assert b"\r" not in result.stdout_bytes  # (Click's Result.stdout turns \r\n into \n)
    text = result.stdout
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(text))}
    assert rows["torqu"] == {"id": "torqu", "name": "Torqu", "family": "torqu", "deck": "1 x torqu",
                             "players": "2-8", "variants": "death partners dragons", "alias_of": ""}
    assert (rows["eiffel-tower"]["players"], rows["eiffel-tower"]["deck"]) == ("1", "2 x french")
    assert rows["turup"]["deck"] == "1-3 x french"  # one deck for 2-4 players, two for 5-7, three for 8-12
    assert rows["strict-eiffel-tower"] == {**rows["eiffel-tower"], "id": "strict-eiffel-tower",
                                           "name": "Strict Eiffel Tower", "variants": "",
                                           "alias_of": "eiffel-tower + strict"}


def test_yaml_is_yaml_in_the_datas_own_order(run_cli, tmp_path):
    """--format yaml writes YAML (not JSON, which a YAML reader also takes), keys in the order the
    command gives them (id first), and a name's letters as they are, not escaped."""
    from cardgames.engine.config import bundled_root

    text = (bundled_root() / "games" / "eiffel-tower.yaml").read_text()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "petite.yaml").write_text(
        text.replace("id: eiffel-tower", "id: petite").replace("name: Eiffel Tower",
                                                                "name: Tour Eiffel \u2013 petite"))
    listed = run_cli("--configs", str(tmp_path), "list", "--format", "yaml").stdout
    assert listed.startswith("- id: ") and "  name: Tour Eiffel \u2013 petite\n" in listed
    listed_json = run_cli("--configs", str(tmp_path), "list", "--format", "json").stdout
    assert yaml.safe_load(listed) == orjson.loads(listed_json)
    shown = run_cli("--configs", str(tmp_path), "show", "petite").stdout
    assert shown.splitlines()[:3] == ["id: petite", "name: Tour Eiffel \u2013 petite", "family: pairing"]
    deal = run_cli("deal", "eiffel-tower", "--seed", "7", "--format", "yaml").stdout
    assert deal.startswith("rows:\n")
    as_json = run_cli("deal", "eiffel-tower", "--seed", "7", "--format", "json").stdout
    assert yaml.safe_load(deal) == orjson.loads(as_json)


def test_show(run_cli):
    data = yaml.safe_load(run_cli("show", "strict-eiffel-tower").stdout)
    assert data["options"]["strict"] is True and data["variants"] == ["strict"]
    assert len(data["config_sha256"]) == 64
    as_json = orjson.loads(run_cli("show", "eiffel-tower", "--format", "json").stdout)
    assert as_json["deck"] == {"id": "french", "name": "French", "copies": 2, "cards": 104}
    orders = (["--variant", "dragons", "--variant", "death"], ["--variant", "death", "--variant", "dragons"])
    both = [orjson.loads(run_cli("show", "torqu", *args, "--format", "json").stdout) for args in orders]
    assert [shown["variants"] for shown in both] == [["dragons", "death"], ["death", "dragons"]]  # as applied
    assert both[0]["config_sha256"] == both[1]["config_sha256"]  # these two commute
    assert both[0]["file"].endswith(os.path.join("configs", "games", "torqu.yaml"))  # the file a designer copies
    # and every other file the config was read from, variants as applied (a designer's finding)
    assert both[0]["deck_file"].endswith(os.path.join("configs", "decks", "torqu.yaml"))
    assert [os.path.basename(f) for f in both[0]["variant_files"]] == ["dragons.yaml", "death.yaml"]
    assert data["variant_files"][0].endswith(os.path.join("configs", "variants", "strict.yaml"))


def test_show_lists_the_agents_the_game_takes(run_cli):
    """Only `show` says what `--agent` takes (a designer found them only in an error)."""
    shown = orjson.loads(run_cli("show", "eiffel-tower", "--format", "json").stdout)
    assert shown["agents"] == ["greedy", "random", "solver"]
    assert orjson.loads(run_cli("show", "turup", "--format", "json").stdout)["agents"] == ["expert", "greedy", "random"]
    assert "lists the game's agents" in " ".join(run_cli("simulate", "--help").stdout.split())


def test_show_names_each_setting_once(run_cli):
    """The resolved config's top-level keys: the copies are the deck's (in "deck"), not also beside it,
    and the game's id is "id", not also "game"."""
    data = orjson.loads(run_cli("show", "torqu", "--format", "json").stdout)
    assert set(data) == {"id", "name", "family", "engine", "players", "options", "variants", "available_variants",
                         "deck", "agents", "config_sha256", "file", "deck_file", "variant_files"}


def test_show_tells_the_variants_applied_from_those_the_game_takes(run_cli):
    """``variants`` are the ones applied ([] for the plain game, though its file lists ``strict``: a designer read
    that [] as the file's list lost); ``available_variants`` what ``--variant`` takes, as ``list`` shows them."""
    plain = orjson.loads(run_cli("show", "eiffel-tower", "--format", "json").stdout)
    listed = {row["id"]: row for row in orjson.loads(run_cli("list", "--format", "json").stdout)}
    assert plain["variants"] == [] and plain["available_variants"] == listed["eiffel-tower"]["variants"] == ["strict"]
    strict = orjson.loads(run_cli("show", "strict-eiffel-tower", "--format", "json").stdout)
    assert strict["variants"] == ["strict"] and strict["available_variants"] == ["strict"]
    torqu = orjson.loads(run_cli("show", "torqu", "--variant", "death", "--format", "json").stdout)
    assert torqu["variants"] == ["death"] and torqu["available_variants"] == listed["torqu"]["variants"]
    assert {"death", "dragons", "partners"} <= set(torqu["available_variants"])


def test_list_variants_gives_every_row_the_same_fields(run_cli):
    """A variant with no alias (death) lists "aliases": [] in JSON, as strict lists its one: never null."""
    rows = {v["id"]: v for v in orjson.loads(run_cli("list", "--kind", "variants", "--format", "json").stdout)}
    assert rows["death"]["aliases"] == [] and all(isinstance(v["aliases"], list) for v in rows.values())


@pytest.mark.parametrize("args", [("torqu", "--variant", "dragons"), ("towers",), ("turup",), ("castle",)])
def test_show_says_what_each_option_means_in_yaml_comments(run_cli, args):
    """Each option is preceded by its schema's description, and the comments change no value."""
    from cardgames.engine.registry import engine_module

    text = run_cli("show", *args).stdout
    data = yaml.safe_load(text)
    assert data == orjson.loads(run_cli("show", *args, "--format", "json").stdout)
    schema = engine_module(data["engine"]).OPTIONS
    lines = text.splitlines()
    for key in data["options"]:
        at = lines.index(f"  {key}:" if isinstance(data["options"][key], (dict, list)) and data["options"][key]
                         else next(line for line in lines if line.startswith(f"  {key}: ")))
        assert schema[key].doc and lines[at - 1] == f"  # {schema[key].doc}", key


def test_validate_ok(run_cli):
    result = run_cli("validate")
    assert result.exit_code == 0, result.stdout
    assert "all valid" in result.stderr and result.stdout == ""  # the facts table only with --facts
    report = orjson.loads(run_cli("validate", "--format", "json").stdout)
    assert report["ok"] is True and report["errors"] == []


def test_validate_reports_file_and_line(run_cli, tmp_path):
    bad = tmp_path / "games" / "broken.yaml"
    bad.parent.mkdir()
    bad.write_text("id: broken\nname: Broken\nfamily: pairing\nengine: pairing\nplayers: {min: 1, max: 1, default: 1}\n"
                   "deck: {type: french, copies: 2}\noptions: {}\nvariants: [strict]\n")
    result = run_cli("validate", str(bad))
    assert result.exit_code == 1
    missing = ("missing keys 'layout', 'strict_layout', 'match', 'family_match', 'row_cap', 'strict', "
               "'strict_waste_cap' in 'options'")
    assert result.stdout == f"{bad}:7: {missing}\n"  # once: not again for the strict variant, which gives 'strict'
    assert result.stderr == "1 config file checked: 1 error\n"
    report = orjson.loads(run_cli("validate", str(bad), "--format", "json").stdout)
    assert report == {"ok": False, "checked": 1, "facts": [], "notes": [],
                      "errors": [{"file": str(bad), "line": 7, "message": missing}]}


def test_validate_counts_the_errors_not_the_files_in_its_summary(run_cli, tmp_path):
    """One file with several errors: the summary line counts the errors listed, not the files."""
    bad = tmp_path / "games" / "broken.yaml"
    bad.parent.mkdir()
    bad.write_text("id: broken\nname: 5\nfamily: pairing\nengine: pairing\nplayrs: 1\n"
                   "deck: {type: french, copies: two}\n")
    result = run_cli("validate", str(bad))
    assert result.exit_code == 1 and len(result.stdout.splitlines()) == 4  # playrs, name, the missing keys, copies
    assert result.stderr == "1 config file checked: 4 errors\n"


def test_validate_names_every_missing_key_in_one_error(run_cli, tmp_path):
    """A designer's new game lacking several options heard of them one run at a time, since a command
    stops at a file's first error: they are named together, in the schema's order."""
    bad = tmp_path / "games" / "broken.yaml"
    bad.parent.mkdir()
    bad.write_text("id: broken\nname: Broken\nfamily: pairing\nengine: pairing\nplayers: {min: 1, max: 1, default: 1}\n"
                   "deck: {type: french, copies: 2}\noptions: {layout: [3], match: 14}\nvariants: []\n")
    result = run_cli("--configs", str(tmp_path), "deal", "broken", "--seed", "1")
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {bad}:7: missing keys 'strict_layout', 'family_match', 'row_cap', 'strict', "
                             "'strict_waste_cap' in 'options'\n")


def test_validate_refuses_a_missing_path(run_cli, tmp_path):
    result = run_cli("validate", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 1 and "no such file" in result.stdout


def test_validate_says_it_does_not_read_stdin(run_cli):
    """``-`` is stdin for the commands that read data; validate was told "-: no such file" (an audit's finding)."""
    result = run_cli("validate", "-", input="id: x\n")
    assert result.exit_code == 2 and "validate reads config files and folders, not stdin ('-')" in result.stderr


def test_deal_json_shape(run_cli):
    deal = orjson.loads(run_cli("deal", "eiffel-tower", "--seed", "7", "--format", "json").stdout)
    assert set(deal) == {"rows", "waste", "stock"}
    assert len(deal["rows"]) == 20 and len(deal["waste"]) == 1 and len(deal["stock"]) == 83
    names = [c for row in deal["rows"] for c in row] + deal["waste"] + deal["stock"]
    assert all(len(n) == 2 or (len(n) == 4 and n[2] == "#") for n in names)
    assert len(set(names)) == 104


def test_deal_pysolfc_number(run_cli):
    deal = orjson.loads(run_cli("deal", "eiffel-tower", "--seed", "ms1", "--rng", "pysolfc", "--format", "json").stdout)
    assert [r[0][:2] for r in deal["rows"]][:4] == ["3D", "5H", "JC", "KH"]


def test_simulate_prints_a_log_that_replays(run_cli, tmp_path):
    result = run_cli("simulate", "--game", "eiffel-tower", "--seed", "7")
    assert result.exit_code == 0
    log = orjson.loads(result.stdout)
    assert log["format"] == "cardgames-log" and log["seed"] == 7
    path = tmp_path / "log.json"
    path.write_bytes(result.stdout_bytes)
    replayed = run_cli("replay", str(path))
    assert replayed.exit_code == 0
    assert replayed.stdout == f"ok: eiffel-tower seed 7: {len(log['actions'])} actions replayed; the deal and the " \
                              f"result match\n"
    strict = tmp_path / "strict.json"
    strict.write_bytes(run_cli("simulate", "--game", "strict-eiffel-tower", "--seed", "7").stdout_bytes)
    assert run_cli("replay", str(strict)).stdout.startswith("ok: eiffel-tower + strict seed 7:")
    as_json = orjson.loads(run_cli("replay", str(strict), "--format", "json").stdout)
    assert as_json == {"ok": True, "game": "eiffel-tower", "variants": ["strict"], "seed": 7,
                       "steps": len(orjson.loads(strict.read_bytes())["actions"]),
                       "result": orjson.loads(strict.read_bytes())["result"], "config_changed": False}
    from_stdin = run_cli("replay", "-", input=result.stdout_bytes)
    assert from_stdin.exit_code == 0


@pytest.mark.parametrize("game, players", [("towers", 3), ("turup", 5), ("torqu", 6), ("eiffel-tower", 1)])
def test_deal_text_says_who_plays_first(run_cli, game, players):
    """Who starts follows each game's rule (Towers: the alphabetically first card; Turup and Torqu: the
    dealer's left), which a reader of the deal could not see (the multiplayer walkthrough's finding); a
    solitaire says nothing."""
    from cardgames.engine.registry import load_game

    for seed in (1, 2, 3):
        last = run_cli("deal", game, "--players", str(players), "--seed", str(seed)).stdout.splitlines()[-1]
        first = load_game(game, (), players).new_state(seed).current_player
        assert (last == f"first to play: player {first}") == (players > 1), (game, seed, last)


def test_replay_json_reports_a_failure_on_stdout_too(run_cli, tmp_path):
    """With --format json a script reads the verdict from stdout: a log that does not replay gives
    {"ok": false, "error": ...} there, the same one line on stderr, and exit 1 (the multiplayer walkthrough's
    finding: stdout stayed empty)."""
    log = orjson.loads(run_cli("simulate", "--game", "eiffel-tower", "--seed", "7").stdout)
    log["result"]["turns"] += 1
    path = tmp_path / "bad.json"
    path.write_bytes(orjson.dumps(log))
    for target in (str(path), str(tmp_path / "missing.json")):
        result = run_cli("replay", target, "--format", "json")
        error = result.stderr.removeprefix("Error: ").rstrip("\n")
        assert result.exit_code == 1 and orjson.loads(result.stdout) == {"ok": False, "error": error}
    assert run_cli("replay", str(path)).stdout == ""  # text: the error alone, on stderr


def test_replay_current_config_says_the_config_changed(run_cli, tmp_path):
    """A log made before a config change: refused, naming --current-config; replayed with it, the ok line
    and the JSON say the config changed (a CI maintainer gating logs on a rules change)."""
    log = tmp_path / "g.json"
    log.write_bytes(run_cli("simulate", "--game", "eiffel-tower", "--seed", "7").stdout_bytes)
    (tmp_path / "cfg" / "games").mkdir(parents=True)
    bundled = (Path(__file__).parents[1] / "configs" / "games" / "eiffel-tower.yaml").read_text()
    (tmp_path / "cfg" / "games" / "eiffel-tower.yaml").write_text(bundled.replace("strict_waste_cap: 4",
                                                                                  "strict_waste_cap: 5"))
    configs = ("--configs", str(tmp_path / "cfg"))
    refused = run_cli(*configs, "replay", str(log))
    assert refused.exit_code == 1 and refused.stderr.rstrip().endswith("--current-config replays it under this one)")
    text = run_cli(*configs, "replay", str(log), "--current-config")
    assert text.exit_code == 0 and text.stdout.startswith("ok: eiffel-tower seed 7: ")
    said = " actions replayed under a config changed since the log was made; the deal and the result match"
    assert said in text.stdout
    data = orjson.loads(run_cli(*configs, "replay", str(log), "--current-config", "--format", "json").stdout)
    assert data["ok"] is True and data["config_changed"] is True
    same = run_cli("replay", str(log), "--current-config", "--format", "json")
    assert orjson.loads(same.stdout)["config_changed"] is False


def test_simulate_log_file_and_text(run_cli, tmp_path):
    path = tmp_path / "g.json"
    result = run_cli("simulate", "--game", "strict-eiffel-tower", "--seed", "ms3", "--rng", "pysolfc",
                     "--log", str(path))
    assert result.exit_code == 0 and "log written" in result.stderr
    log = orjson.loads(path.read_bytes())
    assert log["rng"] == "pysolfc" and log["seed"] == "ms3" and log["variants"] == ["strict"]
    assert orjson.loads(result.stdout) == log["result"] and result.stdout.count("\n") == 1  # one line, as in the README
    assert run_cli("replay", str(path)).exit_code == 0
    text = run_cli("simulate", "--game", "eiffel-tower", "--seed", "7", "--format", "text").stdout
    assert "   1. " in text
    *_, said, last = text.splitlines()  # as the README's `| tail -4` shows them: why it ended, then the result
    assert said == "lost: the stock is used up, and the waste's top card, 7S, fits no row (22 cards left)"
    assert last.startswith("result: {") and orjson.loads(last[len("result: "):]) == \
        orjson.loads(run_cli("simulate", "--game", "eiffel-tower", "--seed", "7").stdout)["result"]


def test_simulate_log_dash_is_the_log_alone_on_stdout(run_cli):
    """--log - is stdout (the README): the whole log there, as without --log, and nothing else:
    neither the result line a --log file leaves on stdout nor a "log written to -" message."""
    args = ("simulate", "--game", "strict-eiffel-tower", "--seed", "7")
    for fmt in ("json", "jsonl"):
        piped = run_cli(*args, "--log", "-", "--format", fmt)
        assert piped.exit_code == 0 and piped.stderr == ""
        assert piped.stdout_bytes == run_cli(*args, "--format", fmt).stdout_bytes


@pytest.mark.parametrize("args", [
    ("captures", "--card", "5S", "--table", "3C,2D,KS,5H"),
    ("placements", "--card", "The Midwife", "--tower", "Books", "--played", "NG=The Rakshasa,LG=The Joke"),
    ("deal", "eiffel-tower", "--seed", "7", "--format", "json"),
    ("list", "--kind", "decks", "--format", "json"),
    ("show", "eiffel-tower", "--format", "json"),  # its own emit_json call (a mutation audit's gap)
])
def test_json_output_is_pretty_printed(run_cli, args):
    """--format json is indented with sorted keys (the README shows captures and placements
    "(pretty-printed)"); one line a document is what jsonl is for."""
    result = run_cli(*args)
    assert result.exit_code == 0
    assert result.stdout == json.dumps(json.loads(result.stdout), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_simulate_is_identical_across_runs(run_cli):
    a = run_cli("simulate", "--game", "eiffel-tower", "--seed", "99", "--agent", "random", "--format", "jsonl")
    b = run_cli("simulate", "--game", "eiffel-tower", "--seed", "99", "--agent", "random", "--format", "jsonl")
    assert a.stdout_bytes == b.stdout_bytes and a.stdout_bytes.count(b"\n") == 1


@pytest.mark.parametrize("args,message", [
    (["deal", "eifel-tower", "--seed", "1"], "unknown game 'eifel-tower'; did you mean 'eiffel-tower'"),
    (["deal", "EIFFEL-TOWER", "--seed", "1"], "unknown game 'EIFFEL-TOWER'; did you mean 'eiffel-tower'?"),
    (["deal", "eiffel-tower", "--seed", "-1"], "seed -1 is out of range"),
    (["deal", "eiffel-tower", "--seed", "x7"], "seed must be an integer"),
    (["deal", "eiffel-tower", "--seed", "18446744073709551616"], "out of range"),
    (["deal", "eiffel-tower", "--seed", "1_0"], "seed must be an integer"),
    (["deal", "eiffel-tower", "--seed", "--5"], "seed must be an integer"),
    (["deal", "eiffel-tower", "--seed", "\u0663"], "seed must be an integer"),
    (["batch", "--game", "eiffel-tower", "--seeds", "\u0663-\u0665"], "expected a range A-B of integers"),
    (["deal", "eiffel-tower", "--seed", "0", "--rng", "pysolfc"], "invalid PySolFC game number"),
    (["deal", "eiffel-tower", "--seed", "1", "--variant", "strikt"], "unknown variant 'strikt'"),
    (["deal", "eiffel-tower", "--seed", "1", "--variant", "zzz"],
     "unknown variant 'zzz' for eiffel-tower; known: strict"),
    (["simulate", "--game", "torqu", "--seed", "1", "--agent", "expert"],
     "unknown agent 'expert' for torqu; known: greedy, random"),
    (["deal", "zzzz", "--seed", "1"], "known: `cardgames list` shows them)"),
    (["simulate", "--game", "eiffel-tower", "--seed", "1", "--agent", "gredy"], "did you mean 'greedy'"),
])
def test_bad_input_is_one_line_exit_1(run_cli, args, message):
    result = run_cli(*args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_logs_config_hash_is_a_line_of_its_own(run_cli, tmp_path):
    """docs/log-format.md's CI recipe compares a game played again with its pinned log leaving out the line
    holding the config's hash (which any config change changes): that line must hold the hash alone, and the
    rest be the same for a config change that plays the game alike (a Strict waste cap, for the base game)."""
    from cardgames.engine.config import bundled_root

    configs = tmp_path / "configs" / "games"
    configs.mkdir(parents=True)
    text = (bundled_root() / "games" / "eiffel-tower.yaml").read_text()
    configs.joinpath("eiffel-tower.yaml").write_text(text.replace("strict_waste_cap: 4", "strict_waste_cap: 5"))
    logs = []
    for extra in ((), ("--configs", str(tmp_path / "configs"))):
        path = tmp_path / f"log{len(logs)}.json"
        assert run_cli(*extra, "simulate", "--game", "eiffel-tower", "--seed", "7", "--log", str(path)).exit_code == 0
        logs.append(path.read_text().splitlines())
    hashed = [[line for line in log if "config_sha256" in line] for log in logs]
    assert all(len(lines) == 1 and re.fullmatch(r'  "config_sha256": "[0-9a-f]{64}",', lines[0]) for lines in hashed)
    assert hashed[0] != hashed[1]
    assert [line for line in logs[0] if line not in hashed[0]] == [line for line in logs[1] if line not in hashed[1]]


def test_replay_errors(run_cli, tmp_path):
    missing = run_cli("replay", str(tmp_path / "none.json"))
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    log = orjson.loads(run_cli("simulate", "--game", "eiffel-tower", "--seed", "5").stdout)
    log["actions"][3]["action"] = {"type": "play", "row": 42}
    path = tmp_path / "bad.json"
    path.write_bytes(orjson.dumps(log))
    result = run_cli("replay", str(path))
    # the file named, for a CI job replaying a folder of golden logs (the CI author's walkthrough)
    assert result.exit_code == 1 and result.stderr.startswith(f"Error: {path}: step 4: action")
    result = run_cli("replay", "-", input=path.read_bytes())
    assert result.exit_code == 1 and result.stderr.startswith("Error: <stdin>: step 4: action")


def test_failed_simulate_keeps_an_existing_log(run_cli, tmp_path):
    path = tmp_path / "keep.json"
    path.write_text("precious")
    result = run_cli("simulate", "--game", "eiffel-tower", "--seed", "bad", "--log", str(path))
    assert result.exit_code == 1 and path.read_text() == "precious"


@pytest.mark.parametrize("args,message", [
    (["simulate", "--game", "eiffel-tower", "--seed", "1", "--matches", "2"], "--matches/--rounds applies to games"),
    (["solve", "--game", "eiffel-tower"], "exactly one of --seed S or --seeds A-B"),
    (["solve", "--game", "eiffel-tower", "--seed", "1", "--seeds", "1-2"], "exactly one of --seed S or --seeds"),
    (["solve", "--game", "eiffel-tower", "--seeds", "1-2", "--log", "x.json"], "--log needs a single --seed"),
    (["solve", "--game", "eiffel-tower", "--seed", "3", "--sat-effort", "nan"], "not a number"),
    (["score", "torqu"], "exactly one of --cards or --input"),
    (["score", "torqu", "--cards", ""], "--cards is empty"),
    (["score", "torqu", "--cards", "  "], "--cards is empty"),
    (["score", "torqu", "--cards", "Air-1,,Air-2"], "--cards: card 2 of 3 is empty"),
    (["captures", "--card", "5S", "--table", "3C,,2D"], "--table: card 2 of 3 is empty (two commas?)"),
    (["captures", "--card", "5S", "--table", "3C, ,2D"], "--table: card 2 of 3 is empty (two commas?)"),
    (["placements", "--card", "The Midwife", "--tower", "Books", "--played", "NG=The Rakshasa,"],
     "--played: item 2 of 2 is empty"),
    (["--configs", "no/such/folder", "list"], "does not exist"),
    (["deal", "turup", "--seed", "1", "--rng", "pysolfc"], "--rng pysolfc is not available for turup"),
    (["deal", "eiffel-tower", "--seed", "ms3"], "the ms prefix is for --rng pysolfc"),
    (["deal", "eiffel-tower", "--seed", "MS3"], "the ms prefix is for --rng pysolfc"),
    (["solve", "--game", "eiffel-tower", "--seeds", "ms1-ms2"], "--seeds ms1-ms2: the ms prefix is for --rng pysolfc"),
    (["deal", "eiffel-tower", "--seed", "1", "--players", "3"], "for 1 player, not 3"),
    (["deal", "eiffel-tower", "--seed", "1", "--variant", "death"],
     "variant 'death' applies to torqu, not to eiffel-tower (family pairing)"),
    (["deal", "torqu", "--seed", "1", "--players", "3", "--variant", "partners"], "even number of players"),
    (["simulate", "--game", "turup", "--players", "2", "--seed", "1", "--agent", "random", "--agent", "random",
      "--agent", "random"], "3 agents given for 2 players"),
    # a game the command does not play (a newcomer's finding: these said exit 1, as bad input)
    (["solve", "--game", "torqu", "--seed", "1"],
     "Error: solve applies to the pairing solitaires; torqu is played by the torqu engine"),
    (["score", "eiffel-tower", "--cards", "AS"], "Error: score applies to Torqu games; eiffel-tower is played by the "
                                                 "pairing engine"),
    (["placements", "--game", "torqu", "--card", "x", "--tower", "y"],
     "Error: placements applies to Towers games; torqu is played by the torqu engine"),
    (["captures", "--game", "eiffel-tower", "--card", "x", "--table", "y"],
     "Error: captures applies to Turup games; eiffel-tower is played by the pairing engine"),
])
def test_argument_combinations_are_usage_errors(run_cli, args, message):
    result = run_cli(*args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args,message,command", [
    (["deal", "eiffel-tower"], "Missing option '--seed'", "cardgames deal"),
    (["simulat"], "Did you mean 'simulate'?", "cardgames"),
    (["deal", "eiffel-tower", "--seed", "1", "--format", "xml"], "'xml' is not one of", "cardgames deal"),
    (["deal", "eiffel-tower", "--seed", "1", "--players", "abc"], "'abc' is not a valid integer", "cardgames deal"),
    (["deal", "eiffel-tower", "--seed", "1", "--players", "0"], "0 is not in the range 1<=x<=64", "cardgames deal"),
    (["--", "-x"], "No such option '-x'", "cardgames"),
    (["--configs", "no/such/folder", "list"], "does not exist", "cardgames"),
    (["deal", "eiffel-tower", "--seed", "ms3"], "the ms prefix is for --rng pysolfc", "cardgames deal"),
    (["deal", "--game", "eiffel-tower"], "deal takes the game as its argument, 'cardgames deal GAME ...'",
     "cardgames deal"),
    (["deal", "eiffel-tower", "--seed", "1", "--sed", "2"], "No such option '--sed'. Did you mean '--seed'?",
     "cardgames deal"),  # the GAME-argument hint is for --game alone
    (["deal", "eiffel-tower", "--seed", "1", "--format"], "Option '--format' requires an argument.",
     "cardgames deal"),  # Click gives this error no command: it named the group's help (an audit's finding)
    (["batch", "--game"], "Option '--game' requires an argument.", "cardgames batch"),
    (["--configs"], "Option '--configs' requires an argument.", "cardgames"),
    (["deal", "eiffel-tower", "--seed", "1", "--configs", "my"],
     "No such option '--configs' after the command: the config folders go before it, "
     "'cardgames --configs DIR deal ...'",
     "cardgames deal"),  # a designer walkthrough put it there, and got no hint
    (["batch", "--config", "my"], "No such option '--config' after the command", "cardgames batch"),
    (["simulate", "eiffel-tower", "--seed", "1"], "Missing option '--game': simulate takes the game as an option, "
     "'cardgames simulate --game eiffel-tower ...'", "cardgames simulate"),  # a newcomer's: the game was ignored
    (["solve", "my tower", "--seed", "1"], "'cardgames solve --game 'my tower' ...'", "cardgames solve"),
    (["batch", "--seeds", "1-3"], "Missing option '--game'. (see", "cardgames batch"),  # no game typed: Click's
])
def test_usage_errors_are_one_line_naming_the_help(run_cli, args, message, command):
    """Click's own usage block and hint made three lines; each error is one, ending with the help to read."""
    result = run_cli(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert result.stderr.rstrip().endswith(f"(see '{command} --help')")


@pytest.mark.parametrize("layout, message", [
    ({}, "holds no games/, decks/ or variants/ folder with .yaml files"),
    ({"game/eiffel-tower.yaml": "eiffel-tower.yaml"}, "holds no games/, decks/ or variants/ folder with .yaml files"),
    ({"games/eiffel-tower.yml": "eiffel-tower.yaml"}, "games/eiffel-tower.yml: not read: config files end in .yaml"),
    ({"games/eiffel-tower.yaml": "eiffel-tower.yaml", "variants/wide.yml": "eiffel-tower.yaml"},
     "variants/wide.yml: not read: config files end in .yaml"),
    ({"games/eiffel-tower.yaml": "eiffel-tower.yaml", "games/Grove.YAML": "eiffel-tower.yaml"},
     "games/Grove.YAML: not read: config files end in .yaml"),
    ({"games/eiffel-tower.yaml": "eiffel-tower.yaml", "games/more/grove.yaml": "eiffel-tower.yaml"},
     "games/more: not read: config files end in .yaml and lie directly in games/, decks/ or variants/"),
])
def test_a_configs_folder_the_catalog_would_not_read_is_a_usage_error(run_cli, tmp_path, layout, message):
    """A --configs folder of the wrong shape (an empty one, a game/ folder, files saved as .yml or .YAML, a
    folder of games inside games/) left
    every command on the bundled rules without a word: a CI gate then passed without playing the
    change (an auditor's finding). It is a usage error, from the option and from CARDGAMES_CONFIGS."""
    from cardgames.engine.config import bundled_root

    for name, source in layout.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((bundled_root() / "games" / source).read_text())
    for args, env, said in ((["--configs", str(tmp_path)], None, "Invalid value for '--configs'"),
                            ([], {"CARDGAMES_CONFIGS": str(tmp_path)}, "CARDGAMES_CONFIGS")):
        result = run_cli(*args, "batch", "--game", "eiffel-tower", "--seeds", "1-2", env=env)
        assert result.exit_code == 2 and message in result.stderr and result.stdout == ""
        assert result.stderr.startswith(f"Error: {said}: ")
    (tmp_path / "games").mkdir(exist_ok=True)
    (tmp_path / "games" / "my-tower.yaml").write_text(
        (bundled_root() / "games" / "eiffel-tower.yaml").read_text().replace("id: eiffel-tower", "id: my-tower"))
    for unread in [*tmp_path.rglob("*.yml"), *tmp_path.rglob("*.YAML"), *tmp_path.rglob("more/*")]:
        unread.unlink()
    if (tmp_path / "games" / "more").exists():
        (tmp_path / "games" / "more").rmdir()
    assert run_cli("--configs", str(tmp_path), "deal", "my-tower", "--seed", "1").exit_code == 0


def test_a_bare_cardgames_shows_the_help(run_cli):
    """The help itself (on stderr, as Click gives it), not an error line around it."""
    result = run_cli()
    assert "Commands:" in result.output
    assert result.stderr.startswith("Usage: cardgames ") and "Error" not in result.stderr


@pytest.mark.parametrize("args", [
    ["list", "--format", "text"],
    ["solve", "--game", "eiffel-tower", "--seed", "1", "--format", "table"],
    ["deal", "eiffel-tower", "--seed", "1", "--format", "table"],
])
def test_text_and_table_name_the_same_format(run_cli, args):
    other = "table" if args[-1] == "text" else "text"
    result = run_cli(*args)

    def timeless(text: str) -> list[str]:  # solve's last column is its time, which sets the columns' widths
        return [re.sub("-+", "-", word) for word in re.sub(r"\d+\.\d+", "", text).split()]

    assert result.exit_code == 0 and timeless(result.stdout) == timeless(run_cli(*args[:-1], other).stdout)


def test_extra_config_folder(run_cli, tmp_path, monkeypatch):
    """--configs DIR, or CARDGAMES_CONFIGS (the help and the README say so)."""
    from cardgames.engine.config import bundled_root

    text = (bundled_root() / "games" / "eiffel-tower.yaml").read_text()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "tiny-tower.yaml").write_text(
        text.replace("id: eiffel-tower", "id: tiny-tower").replace("[1, 2, 3, 4, 5, 5]", "[1, 2]"))
    deal = orjson.loads(run_cli("--configs", str(tmp_path), "deal", "tiny-tower", "--seed", "3", "--format",
                                "json").stdout)
    assert len(deal["rows"]) == 3 and len(deal["stock"]) == 100
    monkeypatch.setenv("CARDGAMES_CONFIGS", str(tmp_path))
    assert orjson.loads(run_cli("deal", "tiny-tower", "--seed", "3", "--format", "json").stdout) == deal


def test_config_folders_from_the_environment_are_named_as_such(run_cli, tmp_path):
    """CARDGAMES_CONFIGS's errors named ``--configs``, an option the user never gave, and an empty entry
    (``:dir:``, PATH's separators at its ends) was refused as a folder named '' (an audit's finding)."""
    from cardgames.engine.config import bundled_root

    missing = run_cli("list", env={"CARDGAMES_CONFIGS": str(tmp_path / "nowhere")})
    assert missing.exit_code == 2 and missing.stderr.startswith(
        f"Error: CARDGAMES_CONFIGS: there is no folder {tmp_path / 'nowhere'} (see 'cardgames --help')")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "my-tower.yaml").write_text(
        (bundled_root() / "games" / "eiffel-tower.yaml").read_text().replace("id: eiffel-tower", "id: my-tower"))
    listed = run_cli("list", env={"CARDGAMES_CONFIGS": f"{os.pathsep}{tmp_path}{os.pathsep}"})
    assert listed.exit_code == 0 and "my-tower" in listed.stdout


def test_an_unknown_deck_points_at_the_deck_listing(run_cli, tmp_path):
    """Said at the game file's line; too many decks to list in one line, so the hint names the
    command that lists decks, not games."""
    from cardgames.engine.config import bundled_root

    text = (bundled_root() / "games" / "eiffel-tower.yaml").read_text()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "odd-tower.yaml").write_text(
        text.replace("id: eiffel-tower", "id: odd-tower").replace("type: french", "type: zzzz"))
    result = run_cli("--configs", str(tmp_path), "deal", "odd-tower", "--seed", "1")
    assert result.exit_code == 1
    assert f"{tmp_path / 'games' / 'odd-tower.yaml'}:12: unknown deck 'zzzz'" in result.stderr
    assert f"`cardgames --configs {tmp_path} list --kind decks` shows them" in result.stderr  # with the folder


def test_an_unknown_game_says_how_to_read_a_folder_of_ones_own(run_cli, tmp_path):
    """With no folder of the user's own and no close name, an unknown game points at --configs, in the
    command the user typed; a close name's "did you mean" is hint enough, and a folder read (here from
    the environment, whose folders every command reads alike) means the user knows the option."""
    result = run_cli("deal", "fork", "--seed", "1")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert result.stderr.rstrip().endswith("; a game of your own is read with `cardgames --configs DIR deal ...`")
    assert "of your own" not in run_cli("simulate", "--game", "eifel-tower").stderr
    variant = run_cli("batch", "--game", "turup", "--variant", "last-capturer", "--seeds", "1-3")
    assert variant.exit_code == 1 and variant.stderr == (
        "Error: unknown variant 'last-capturer' for turup (none known); a variant of your own is read with "
        "`cardgames --configs DIR batch ...`\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "grove.yaml").write_text(_bundled_game_text("eiffel-tower").replace(
        "id: eiffel-tower", "id: grove"))
    from cardgames.engine import CONFIGS_ENV

    assert "of your own" not in run_cli("deal", "fork", "--seed", "1", env={CONFIGS_ENV: str(tmp_path)}).stderr


def test_a_hint_naming_a_command_names_the_configs_folders_given(run_cli, tmp_path):
    """An error in a designer's config read with --configs says `cardgames --configs DIR validate`: the bare
    command reads only the bundled configs and found them all valid (the designer walkthrough's finding)."""
    folder = tmp_path / "my configs"
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "fork.yaml").write_text(_bundled_game_text("eiffel-tower").replace(
        "id: eiffel-tower", "id: fork").replace("match: 14", "match: 15"))
    result = run_cli("--configs", str(folder), "deal", "fork", "--seed", "1")
    assert result.exit_code == 1
    assert result.stderr.rstrip().endswith(f"(`cardgames --configs '{folder}' validate` lists them all)")
    checked = run_cli("--configs", str(folder), "validate")
    assert checked.exit_code == 1 and "fork.yaml" in checked.stdout + checked.stderr


def _bundled_game_text(game: str) -> str:
    from cardgames.engine.config import bundled_root

    return (bundled_root() / "games" / f"{game}.yaml").read_text()


LONG = "9" * 5000  # int() refuses over 4,300 digits with an error of its own
ZEROS = "0" * 5000  # ... leading zeros included


@pytest.mark.parametrize("args, words", [
    (["deal", "eiffel-tower", "--seed", LONG], "is out of range 0..2**64-1"),
    (["deal", "eiffel-tower", "--seed", "1e5"], "seed must be an integer 0..2**64-1, not '1e5'"),
    (["deal", "eiffel-tower", "--rng", "pysolfc", "--seed", LONG], "invalid PySolFC game number"),
    (["deal", "eiffel-tower", "--rng", "pysolfc", "--seed", "\u0663"], "invalid PySolFC game number"),
    (["batch", "--game", "eiffel-tower", "--seeds", f"1-{LONG}"], "seeds run 0..2**64-1"),
    (["solve", "--game", "eiffel-tower", "--seeds", "1_0-1_1"], "expected a range A-B"),
    (["solve", "--game", "eiffel-tower", "--seeds", "0-18446744073709551616"], "seeds run 0..2**64-1"),
    (["solve", "--game", "eiffel-tower", "--rng", "pysolfc", "--seeds", "ms1-ms99999999999", "--format", "jsonl"],
     "invalid PySolFC game number 'ms99999999999'"),  # both ends checked before the first deal is solved
    (["deal", "eiffel-tower", "--rng", "pysolfc", "--seed", f"ms{ZEROS}99999999999"], "ms numbers run 1..2**33-1"),
    (["deal", "eiffel-tower", "--rng", "pysolfc", "--seed", ZEROS], "0 is not a game"),
    (["deal", "eiffel-tower", "--seed", f"-{ZEROS}1"], "is out of range 0..2**64-1"),
])
def test_bad_seeds_are_one_short_line(run_cli, args, words):
    result = run_cli(*args)
    assert result.exit_code == 1 and words in result.stderr and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and len(result.stderr) < 200


def test_a_usage_error_naming_a_folder_with_a_line_break_is_one_line(run_cli, tmp_path):
    """A usage error quotes what it was given as it is: a --configs folder whose name holds a line break
    split the message over two lines before :class:`OneLineUsageError` escaped it."""
    folder = tmp_path / "configs\nx"
    folder.mkdir()
    result = run_cli("--configs", str(folder), "list")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "configs\\nx holds no games/, decks/ or variants/ folder" in result.stderr


def test_an_ms_seed_without_pysolfc_is_one_short_line(run_cli):
    result = run_cli("deal", "eiffel-tower", "--seed", f"ms{ZEROS}7")
    assert result.exit_code == 2 and "the ms prefix is for --rng pysolfc" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and len(result.stderr) < 200


def test_a_seed_is_read_alike_with_or_without_surrounding_spaces(run_cli):
    """``--seeds ' 7'`` and PySolFC's numbers always took surrounding whitespace; ``--seed ' 7'`` refused it."""
    plain = run_cli("deal", "eiffel-tower", "--seed", "7", "--format", "json")
    for padded in (" 7", "7\n", "\t7 "):
        result = run_cli("deal", "eiffel-tower", "--seed", padded, "--format", "json")
        assert result.exit_code == 0 and result.stdout == plain.stdout


@pytest.mark.parametrize("zeros", [24, 5000])
def test_leading_zeros_do_not_count_against_a_seeds_length(run_cli, zeros):
    """A seed is a number: 25 digits of which 24 are leading zeros are seed 7, not out of range. With 5,000
    zeros ``--seed`` printed a traceback (int() counts them towards its 4,300 digits), and ``--seeds`` refused
    the range as out of range."""
    padded, plain = (run_cli("deal", "eiffel-tower", "--seed", s, "--format", "json") for s in ("0" * zeros + "7", "7"))
    assert padded.exit_code == 0 and padded.stdout == plain.stdout
    padded, plain = (run_cli("solve", "--game", "eiffel-tower", "--seeds", s, "--format", "jsonl")
                     for s in (f"{'0' * zeros}7-{'0' * zeros}8", "7-8"))
    assert padded.exit_code == 0 and [orjson.loads(line)["winnable"] for line in padded.stdout.splitlines()] == \
        [orjson.loads(line)["winnable"] for line in plain.stdout.splitlines()]


def test_solve_reads_seed_ranges_as_batch_does(run_cli):
    result = run_cli("solve", "--game", "eiffel-tower", "--seeds", "ms1-ms2", "--rng", "pysolfc", "--format", "jsonl")
    assert result.exit_code == 0
    assert [json.loads(line)["seed"] for line in result.stdout.splitlines()] == ["ms1", "ms2"]


def test_log_to_stdout_and_narration_do_not_mix(run_cli):
    result = run_cli("simulate", "--game", "eiffel-tower", "--seed", "1", "--log", "-", "--format", "text")
    assert result.exit_code == 2 and "--log - puts the log on stdout" in result.stderr


def _interrupted_search(*args, **kwargs):
    """What the compiled search raises when Ctrl-C arrives while it has called back into Python."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as exc:
        raise SystemError("<built-in method _grown> returned a result with an exception set") from exc


def test_ctrl_c_inside_compiled_code_aborts_cleanly(run_cli, monkeypatch):
    """numba hands a KeyboardInterrupt raised under its compiled code back as a chained
    SystemError: every command still sees a Ctrl-C, so ``score`` answers "Aborted!" (not a
    traceback) and a serial batch its resume hint, both with exit code 130."""
    from cardgames.engine.games.torqu import optimise

    monkeypatch.setattr(optimise._Search, "run", _interrupted_search)
    monkeypatch.setattr(optimise._Search, "value", _interrupted_search)
    result = run_cli("score", "torqu", "--cards", "Air-1,Air-2,Air-3,Air-4")
    assert result.exit_code == 130 and "Aborted!" in result.stderr
    result = run_cli("batch", "--game", "torqu", "--players", "4", "--seeds", "1-2", "--workers", "1")
    assert result.exit_code == 130 and "interrupted after 0 games" in result.stderr


class _InterruptedFinalizer:
    """An object whose finalizer meets a Ctrl-C (as Dask's ``Future.__del__`` did, while a batch waited), or
    ``raised``: the CLI's SIGTERM."""

    raised: type[KeyboardInterrupt] = KeyboardInterrupt

    def __del__(self):
        raise self.raised


def _search_meeting_ctrl_c_in_a_finalizer(*args, **kwargs):
    _InterruptedFinalizer()
    waited = time.monotonic() + 5
    while time.monotonic() < waited:  # the Ctrl-C, sent again, lands here
        pass
    raise AssertionError("the Ctrl-C was lost")


@pytest.mark.parametrize("thread_signals", [True, False])
@pytest.mark.parametrize("sigterm", [False, True])
def test_a_ctrl_c_in_a_finalizer_aborts_without_a_traceback(run_cli, monkeypatch, ctrl_c_raises, thread_signals,
                                                            sigterm):
    """Python cannot raise a Ctrl-C out of a ``__del__``: it printed it with a traceback and went on. The CLI
    raises it again in the code that runs next, so the command stops as on any Ctrl-C (exit 130); also
    where threads cannot signal each other (Windows). A SIGTERM stays one, exit 143: a CI script tells a
    timeout from a Ctrl-C by it (a mutant that sent a Ctrl-C again for both passed: a mutation audit's finding)."""
    import signal

    from cardgames.cli import interrupts
    from cardgames.engine.games.torqu import optimise

    if not thread_signals:
        monkeypatch.delattr(signal, "pthread_kill")
    if sigterm:
        monkeypatch.setattr(_InterruptedFinalizer, "raised", interrupts.Terminated)
    hook = sys.unraisablehook
    monkeypatch.setattr(optimise._Search, "run", _search_meeting_ctrl_c_in_a_finalizer)
    monkeypatch.setattr(optimise._Search, "value", _search_meeting_ctrl_c_in_a_finalizer)
    result = run_cli("score", "torqu", "--cards", "Air-1,Air-2,Air-3,Air-4")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == ((143, "Terminated.") if sigterm else
                                                                  (130, "Aborted!"))
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    assert sys.unraisablehook is hook  # put back once the command ends


def test_sigterm_inside_compiled_code_stays_a_sigterm(run_cli, monkeypatch):
    """The CLI turns SIGTERM (a CI job's timeout) into a KeyboardInterrupt of its own, which exits 143. Arriving
    while the compiled search had called back into Python, it came back out as a plain Ctrl-C, exit 130
    (a docs audit's finding): the interrupt found down the chain is raised again, its class kept."""
    from cardgames.cli import interrupts
    from cardgames.engine.games.torqu import optimise

    def terminated_search(*args, **kwargs):
        try:
            raise interrupts.Terminated
        except KeyboardInterrupt as exc:
            raise SystemError("<built-in method _grown> returned a result with an exception set") from exc

    monkeypatch.setattr(optimise._Search, "value", terminated_search)
    result = run_cli("batch", "--game", "torqu", "--players", "4", "--seeds", "1-2", "--workers", "1")
    assert result.exit_code == 143 and "terminated after 0 games" in result.stderr
    # a command without a handler of its own: the CLI's, in the words and code of a SIGTERM (a mutation audit's gap)
    monkeypatch.setattr(optimise._Search, "run", terminated_search)
    result = run_cli("score", "torqu", "--cards", "Air-1,Air-2,Air-3,Air-4")
    assert result.exit_code == 143 and result.stderr == "Terminated.\n"


def test_a_real_system_error_in_the_scorer_is_not_hidden(run_cli, monkeypatch):
    from cardgames.engine.games.torqu import optimise

    monkeypatch.setattr(optimise._Search, "run", lambda *a, **k: (_ for _ in ()).throw(SystemError("a real fault")))
    with pytest.raises(SystemError, match="a real fault"):
        run_cli("score", "torqu", "--cards", "Air-1,Air-2,Air-3,Air-4")


def test_a_log_that_cannot_be_written_is_refused_before_the_game(run_cli, tmp_path, monkeypatch):
    """A typo in --log's folder used to cost the whole game (minutes for 2-player Torqu) first."""
    from cardgames.engine import core

    monkeypatch.setattr(core, "play", lambda *a, **k: pytest.fail("the game was played"))
    for command in (["simulate", "--game", "torqu", "--players", "2"], ["solve", "--game", "eiffel-tower"]):
        result = run_cli(*command, "--seed", "3", "--log", str(tmp_path / "nodir" / "g.json"))
        assert result.exit_code == 1
        assert result.stderr == f"Error: cannot write {tmp_path / 'nodir' / 'g.json'}: there is no folder " \
                                f"{tmp_path / 'nodir'}\n"


def test_a_read_only_log_is_kept(run_cli, tmp_path, monkeypatch):
    """A --log its owner made read-only was replaced by the rename, where `>` in a shell refuses (the
    fuzzing audit's finding). Checked with ``os.access`` (faked here: the tests may run as root, who,
    in a shell as here, may replace anything)."""
    import os

    kept = tmp_path / "kept.json"
    kept.write_bytes(b"a golden log\n")
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: not (str(path) == str(kept) and mode & os.W_OK)
                        and real(path, mode))
    for command in (["simulate", "--game", "eiffel-tower"], ["solve", "--game", "eiffel-tower"]):
        result = run_cli(*command, "--seed", "3", "--log", str(kept))
        assert (result.exit_code, result.stderr) == (1, f"Error: cannot write {kept}: the file is read-only\n")
        assert kept.read_bytes() == b"a golden log\n"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a file size limit for the child (RLIMIT_FSIZE) is POSIX's")
@pytest.mark.parametrize("command", [("simulate", "--game", "eiffel-tower", "--seed", "3"),
                                     ("solve", "--game", "eiffel-tower", "--seed", "4")])
def test_a_log_cut_short_leaves_the_one_it_was_to_replace(tmp_path, command):
    """A write that fails part way (a full disk; here a file size limit of 8 KiB) leaves the old log whole:
    the new one is written beside it and renamed over it only once complete."""
    import resource
    import subprocess

    kept = tmp_path / "kept.json"
    kept.write_bytes(b"a golden log\n" * 2000)
    limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))  # noqa: E731
    result = subprocess.run([sys.executable, "-c", "from cardgames.cli.main import main; main()", *command,
                             "--log", str(kept)], capture_output=True, preexec_fn=limit)
    assert result.returncode == 1 and result.stderr.decode().startswith("Error: ")
    assert kept.read_bytes() == b"a golden log\n" * 2000


@pytest.mark.parametrize("terminal", [True, False])
def test_numba_compiling_is_said_on_a_terminal_only(monkeypatch, terminal):
    """An installation's first Torqu game sat silent for some 17 s while numba compiled its loops: on a terminal
    a note now says so, on a line of its own (a progress bar's line cleared first); a pipe or a file (a CI log, a
    test) gets nothing, so that stderr stays the command's own messages."""
    import io

    import numba

    from cardgames.cli import main as module
    from cardgames.engine import compiled

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return terminal

    stderr = Terminal()
    monkeypatch.setattr(compiled._FirstCompile, "say", None)  # restored after the test
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "argv", ["cardgames", "--version"])
    with pytest.raises(SystemExit):
        module.main()
    compiled._FirstCompile.listen()
    assert numba.njit(lambda x: x + 5)(1) == 6
    assert stderr.getvalue() == (f"\r\x1b[Knote: {compiled.COMPILING}\n" if terminal else "")


def test_validate_lists_facts_only_when_asked(run_cli):
    """``--facts`` adds each game's deal facts; without it the JSON report's list is empty, not all of them."""
    assert orjson.loads(run_cli("validate", "--format", "json").stdout)["facts"] == []
    assert len(orjson.loads(run_cli("validate", "--facts", "--format", "json").stdout)["facts"]) > 30
    # the text table has a column for every engine's facts, not only the first row's (a mutant that took the
    # first row's keys dropped Torqu's, Turup's and Towers': a mutation audit's finding)
    header = run_cli("validate", "--facts").stdout.splitlines()[0].split()
    assert {"hand", "center", "towers", "caches", "short_deal_cards"} <= set(header)


def test_a_jsonl_log_file_is_one_line(run_cli, tmp_path):
    """docs/log-format.md: pretty with --format json, one line with --format jsonl, in a --log file too."""
    for fmt, lines in (("jsonl", 1), ("json", None)):
        log = tmp_path / f"{fmt}.json"
        assert run_cli("simulate", "--game", "eiffel-tower", "--seed", "3", "--format", fmt,
                       "--log", str(log)).exit_code == 0
        count = len(log.read_bytes().splitlines())
        assert count == lines if lines else count > 100
        assert run_cli("replay", str(log)).exit_code == 0


def test_a_message_naming_a_file_with_a_line_break_is_one_line(run_cli, tmp_path):
    """A message, like an error, escapes what would break its line or drive the terminal: the file is
    written under its own name, the message names it in one line."""
    log = tmp_path / "bad\nname\x1b.json"
    result = run_cli("simulate", "--game", "eiffel-tower", "--seed", "3", "--log", str(log))
    assert result.exit_code == 0 and log.exists()
    assert result.stderr == f"log written to {tmp_path}/bad\\nname\\x1b.json\n"


@pytest.mark.parametrize("args", [
    ("replay", "{d}"),
    ("simulate", "--game", "eiffel-tower", "--seed", "1", "--log", "{d}"),
    ("solve", "--game", "eiffel-tower", "--seed", "1", "--log", "{d}"),
    ("batch", "--game", "eiffel-tower", "--seeds", "1-3", "--out", "{d}", "-q"),
    ("score", "torqu", "--input", "{d}"),
    ("stats", "{d}"),
])
def test_a_folder_where_a_file_belongs_is_bad_input(run_cli, tmp_path, args):
    """Exit 1 and one line, as for a missing file: Click's own path checks said 2 with a usage block."""
    result = run_cli(*(a.format(d=tmp_path) for a in args))
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and str(tmp_path) in result.stderr and "Usage" not in result.stderr


def test_validate_json_exits_1_when_a_check_fails(run_cli, tmp_path):
    """--format json reports the errors as data and still exits 1 (a CI script reads the exit code), and says
    the verdict on stderr as text does: a CI log that keeps stdout in a file showed only the exit code."""
    bad = tmp_path / "games" / "broken.yaml"
    bad.parent.mkdir()
    bad.write_text("id: broken\n")
    result = run_cli("validate", str(bad), "--format", "json")
    assert result.exit_code == 1 and orjson.loads(result.stdout)["ok"] is False
    errors = len(orjson.loads(result.stdout)["errors"])
    assert result.stderr == f"1 config file checked: {errors} error{'s' * (errors > 1)}\n"
    valid = run_cli("validate", "--format", "json")
    assert valid.exit_code == 0 and valid.stderr.endswith(" checked: all valid\n")


def test_simulate_narrates_on_stdout_even_with_a_log_file(run_cli, tmp_path) -> None:
    """--format text with --log FILE: the log goes to the file and the narration still to stdout,
    its first line naming the game, the seed and every seat's agent."""
    path = tmp_path / "g.json"
    result = run_cli("simulate", "--game", "eiffel-tower", "--seed", "7", "--agent", "random", "--format", "text",
                     "--log", str(path))
    assert result.exit_code == 0 and orjson.loads(path.read_bytes())["seed"] == 7
    assert result.stdout.splitlines()[0] == "Eiffel Tower, seed 7, agents random"
    assert result.stdout.splitlines()[-1].startswith("result: {")


@pytest.mark.parametrize("typo,command", [("solv", "solve"), ("dael", "deal"), ("replai", "replay"),
                                          ("Simulate", "simulate"), ("LIST", "list")])
def test_a_mistyped_command_suggests_the_close_one(run_cli, typo: str, command: str) -> None:
    """A one- or two-letter slip in a command name still gets its suggestion, as do capitals (the names are
    :func:`.wording.close_names`, as for a game or a card: ``LIST`` was too far from ``list`` for difflib)."""
    result = run_cli(typo)
    assert result.exit_code == 2 and f"No such command {typo!r}. Did you mean {command!r}?" in result.stderr


def test_a_command_far_from_every_other_gets_no_suggestion(run_cli) -> None:
    result = run_cli("zzzzzz")
    assert result.exit_code == 2 and "No such command 'zzzzzz'." in result.stderr and "mean" not in result.stderr


def test_list_json_marks_a_game_itself_as_no_alias(run_cli) -> None:
    """In JSON a game that is no alias has ``alias_of: null`` (csv shows it as an empty cell)."""
    rows = {r["id"]: r for r in orjson.loads(run_cli("list", "--format", "json").stdout)}
    assert rows["eiffel-tower"]["alias_of"] is None
    assert rows["strict-eiffel-tower"]["alias_of"] == "eiffel-tower + strict"


def test_an_error_quoting_a_logs_control_characters_stays_one_line(run_cli, tmp_path):
    """A log's value with a line separator or a terminal escape reached stderr raw (the fuzzing audit)."""
    golden = os.path.join(os.path.dirname(__file__), "golden", "eiffel-tower-p1-native-7-greedy.json")
    with open(golden, "rb") as handle:
        log = orjson.loads(handle.read())
    log["actions"][0]["player"] = "x\u2028y\x1b[31mz"
    path = tmp_path / "ctl.json"
    path.write_bytes(orjson.dumps(log))
    result = run_cli("replay", str(path))
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "\x1b" not in result.stderr
    assert "\u2028" not in result.stderr and "x\\u2028y\\u001b[31mz" in result.stderr


def test_list_of_games_names_a_variant_it_cannot_read(run_cli, tmp_path):
    """A variant file that cannot be read dropped out of the games' listing (its variant and aliases
    gone, Turup's must-turup among them) without a word. The listing still works (a broken variant
    stops only what may use it), and a note names the file."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "must-capture.yaml").write_text("")
    result = run_cli("--configs", str(tmp_path), "list", "--format", "csv")
    assert result.exit_code == 0 and "eiffel-tower" in result.stdout and "must-turup" not in result.stdout
    path = tmp_path / "variants" / "must-capture.yaml"
    assert result.stderr == f"note: not listed, as it cannot be read: {path}:1: file is empty\n"


@pytest.mark.parametrize("kind, folder, shown", [("games", "games", "eiffel-tower"), ("decks", "decks", "french")])
def test_list_shows_the_files_it_can_read_then_fails_on_the_one_it_cannot(run_cli, tmp_path, kind, folder, shown):
    """One broken game or deck file in a --configs folder listed nothing (a designer's finding): the others
    are listed, then the broken file's error, exit 1, as for variants."""
    (tmp_path / folder).mkdir()
    path = tmp_path / folder / "bad.yaml"
    path.write_text("id: bad\nname: [unclosed\n")
    result = run_cli("--configs", str(tmp_path), "list", "--kind", kind, "--format", "csv")
    assert result.exit_code == 1 and shown in result.stdout
    assert result.stderr.startswith(f"Error: {path}:3: YAML syntax error")


@pytest.mark.parametrize("words,expected", [
    ("cardgames simulate --game strict-e", ["strict-eiffel-tower", "strict-equinox"]),  # an alias too
    ("cardgames deal wiz", ["wizards-tower"]),  # the argument, as --game
    ("cardgames simulate --game torqu --variant d", ["death", "dragons"]),
    ("cardgames --configs {my} deal my", ["my-tower"]),  # a designer's folder is read as the command would
])
def test_the_shell_completes_game_and_variant_ids(run_cli, tmp_path, words, expected):
    """Bash's completion (``eval "$(_CARDGAMES_COMPLETE=bash_source cardgames)"``, README) offers the ids a
    command would take; files that cannot be read are offered by name, with no error in the shell's line."""
    (tmp_path / "games").mkdir()
    eiffel = (Path(__file__).resolve().parents[1] / "configs" / "games" / "eiffel-tower.yaml").read_text()
    (tmp_path / "games" / "my-tower.yaml").write_text(eiffel.replace("id: eiffel-tower", "id: my-tower"))
    words = words.format(my=tmp_path)
    env = {"_CARDGAMES_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
    result = run_cli(env=env)
    assert result.exit_code == 0 and result.stdout.splitlines() == [f"plain,{name}" for name in expected]
    for kind in ("games", "variants"):
        (tmp_path / kind).mkdir(exist_ok=True)
        (tmp_path / kind / "bad.yaml").write_text("id: [\n")
    for line, cword in ((f"cardgames --configs {tmp_path} deal b", "4"),
                        (f"cardgames --configs {tmp_path} deal torqu --variant b", "6")):
        broken = run_cli(env={**env, "COMP_WORDS": line, "COMP_CWORD": cword})
        assert (broken.exit_code, broken.stdout, broken.stderr) == (0, "plain,bad\n", "")


def test_the_shell_does_not_complete_an_alias_of_two_meanings(run_cli, tmp_path):
    """A designer's variant making ``strict-{game}`` as the bundled strict does: every command refuses the
    name, so completion does not offer it (the game ids stay)."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "stern.yaml").write_text(
        "id: stern\nname: Stern\napplies_to: [pairing]\naliases: ['strict-{game}']\noptions: {strict: true}\n")
    line = f"cardgames --configs {tmp_path} deal strict-eif"
    env = {"_CARDGAMES_COMPLETE": "bash_complete", "COMP_WORDS": line, "COMP_CWORD": "4"}
    assert run_cli(env=env).stdout.strip() == ""  # bash gets an empty line: no word
    assert run_cli(env={**env, "COMP_WORDS": line.replace("strict-eif", "eif")}).stdout == "plain,eiffel-tower\n"


@pytest.mark.parametrize("args, ending", [
    (("--game", "turup", "--players", "4", "--seed", "1"),
     lambda r: f"the match ends after {r['rounds']} rounds: cards won "
               + ", ".join(f"player {s} {n}" for s, n in enumerate(r["scores"])) + f": player {r['winners'][0]} wins"),
    (("--game", "towers", "--players", "3", "--seed", "7"),
     lambda r: "the game is over (no player still in can play a card): net coins "
               + ", ".join(f"player {s} {n}" for s, n in enumerate(r["net"]))
               + ": players " + " and ".join(map(str, r["winners"])) + " share the win"),
    (("--game", "towers", "--players", "2", "--seed", "23"),  # both still in: nobody can play
     lambda r: "the game is over (no player still in can play a card): net coins "
               + ", ".join(f"player {s} {n}" for s, n in enumerate(r["net"])) + ": player 0 wins"),
    (("--game", "towers", "--players", "2", "--seed", "1"),
     lambda r: "the game is over (only player 1 is still in): net coins "
               + ", ".join(f"player {s} {n}" for s, n in enumerate(r["net"])) + ": player 1 wins"),
    (("--game", "torqu", "--players", "4", "--seed", "1"),
     lambda r: f"player {r['winners'][0]}'s stone reaches space 72: player {r['winners'][0]} wins"),
    (("--game", "turup", "--players", "4", "--seed", "1", "--rounds", "1"),
     lambda r: f"stopped after round 1, as asked: the game is not over (player {r['winners'][0]} leads)"),
    # Partners win as one team, not as two players sharing a win (a reviewer's finding)
    (("--game", "torqu", "--players", "4", "--variant", "partners", "--seed", "2"),
     lambda r: "players {0} and {1}'s stone reaches space 72: players {0} and {1} win".format(*r["winners"])),
    (("--game", "torqu", "--players", "4", "--variant", "partners", "--seed", "2", "--matches", "1"),
     lambda r: "stopped after match 1, as asked: the game is not over (players {0} and {1} lead)".format(
         *r["winners"])),
])
def test_narration_ends_by_saying_why_and_who_won(run_cli, args, ending):
    """The line before the result says why the game ended and who won (a teacher's finding: every game ended
    on the result's JSON alone), read here against that JSON."""
    lines = run_cli("simulate", *args, "--format", "text").stdout.splitlines()
    result = orjson.loads(lines[-1].removeprefix("result: "))
    assert lines[-2] == ending(result)


@pytest.mark.parametrize("game, players", [("turup", "3"), ("towers", "4"), ("torqu", "2"), ("eiffel-tower", "1")])
def test_narration_opens_with_the_deal_as_deal_draws_it(run_cli, game, players):
    """Who plays first, which ``deal`` says, the narration said nowhere (a teacher's finding): it now opens with
    ``deal``'s own drawing, first player included (a solitaire has none)."""
    drawn = run_cli("deal", game, "--players", players, "--seed", "2").stdout
    short = ("--matches", "1") if game in ("turup", "torqu") else ()  # games of several deals: the first
    told = run_cli("simulate", "--game", game, "--players", players, "--seed", "2", *short, "--format", "text")
    assert drawn in told.stdout
    assert ("first to play: player " in drawn) == (players != "1")


@pytest.mark.parametrize("args", [("--game", "eiffel-tower", "--seed", "7"),
                                  ("--game", "turup", "--players", "3", "--seed", "4", "--rounds", "2"),
                                  ("--game", "towers", "--players", "3", "--seed", "7")])
def test_replay_narrate_tells_the_game_as_simulate_does(run_cli, tmp_path, args):
    """A teacher with a log (a solver's line, one from elsewhere) could only check it: ``--narrate`` tells it,
    the same words simulate's narration of the same game has, then the verdict; not with JSON."""
    log = tmp_path / "g.json"
    told = run_cli("simulate", *args, "--format", "text", "--log", str(log)).stdout
    replayed = run_cli("replay", str(log), "--narrate")
    assert replayed.exit_code == 0
    narration, verdict = replayed.stdout.rsplit("\n\n", 1)
    # a game stopped early is said to stop where the log ends, not "as asked"
    assert narration + "\n" == told.replace(", as asked: ", ", where the log ends: ") and verdict.startswith("ok: ")
    assert ("where the log ends" in narration) == ("--rounds" in args)
    refused = run_cli("replay", str(log), "--narrate", "--format", "json")
    assert refused.exit_code == 2 and refused.stdout == ""


@pytest.mark.parametrize("args", [("--game", "eiffel-tower", "--seed", "7"),
                                  ("--game", "towers", "--players", "3", "--seed", "7"),
                                  ("--game", "torqu", "--players", "4", "--seed", "3", "--matches", "2")])
def test_a_log_cut_short_with_its_result_made_to_match_is_refused(run_cli, tmp_path, args):
    """A log whose actions stop before the game ends, its result the position's there, replayed "ok" (a log
    audit's finding; simulate writes no such log: one deal plays to its end, --matches stops at a match's end).
    Refused, narrated or not, and a log that ends where --matches stops still replays."""
    from cardgames.engine.registry import load_game

    log = tmp_path / "g.json"
    run_cli("simulate", *args, "--log", str(log))
    whole = orjson.loads(log.read_bytes())
    assert run_cli("replay", str(log)).exit_code == 0
    data = dict(whole)
    game = load_game(data["game"], data["variants"], data["players"])
    state = game.new_state(data["seed"])
    data["actions"] = data["actions"][:len(data["actions"]) // 2]  # mid-deal: Torqu's second match has 150+ steps
    for entry in data["actions"]:
        state.apply(game.action_from_json(entry["action"]))
    data["result"], data["deal"] = state.result(), state.deal_json()
    log.write_bytes(orjson.dumps(data))
    for extra in ((), ("--narrate",)):
        told = run_cli("replay", str(log), *extra)
        assert told.exit_code == 1 and told.stderr == (
            f"Error: {log}: after the log's {len(data['actions'])} steps the game is not over"
            f"{'' if state.rounds_played is None else ', nor at the end of a match, where simulate may stop'}: "
            "actions are missing (was the log cut short?)\n"), told.stderr


def test_a_replay_failure_in_json_is_the_same_one_line_as_on_stderr(run_cli, tmp_path):
    """The JSON verdict's ``error`` is the stderr line without ``Error: ``, escaped alike: a log's name with a line
    break or a terminal escape reads the same in both, not raw in the JSON (a script matching one against the
    other, or showing the JSON's on a terminal)."""
    missing = tmp_path / "bad\nname\x1b.json"
    result = run_cli("replay", str(missing), "--format", "json")
    error = result.stderr.removeprefix("Error: ").rstrip("\n")
    assert result.exit_code == 1 and "\\n" in error and "\n" not in error
    assert orjson.loads(result.stdout) == {"ok": False, "error": error}


def test_a_command_leaves_the_signal_handlers_as_it_found_them(run_cli):
    """The CLI takes SIGTERM and Python's unraisable hook only while a command runs (.interrupts): a program that
    runs a command in process (the tests, a notebook) keeps its own after it, success or failure alike."""
    import signal

    before = signal.getsignal(signal.SIGTERM), sys.unraisablehook
    assert run_cli("list", "--format", "json").exit_code == 0
    assert run_cli("deal", "nope", "--seed", "1").exit_code == 1
    assert (signal.getsignal(signal.SIGTERM), sys.unraisablehook) == before
