"""Turup on the command line: captures, deal, simulate, replay, and bad input."""

from __future__ import annotations

import json
from pathlib import Path


def test_captures_json(run_cli):
    result = run_cli("captures", "--card", "5S", "--table", "3C,2D,KS,5H")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"captures": [["5H"], ["2D", "3C"], ["2D", "3C", "5H"]]}


def test_captures_reads_names_with_spaces_around(run_cli):
    """Spaces around a name are not part of it, and a --table of spaces alone is an empty pile
    (not an empty name: that is for two commas in a row)."""
    result = run_cli("captures", "--card", " 5S ", "--table", " 3C, 2D ,KS,5H")
    assert json.loads(result.stdout) == {"captures": [["5H"], ["2D", "3C"], ["2D", "3C", "5H"]]}
    assert json.loads(run_cli("captures", "--card", "5S", "--table", "  ").stdout) == {"captures": []}


def test_captures_text_and_repeated_names(run_cli):
    result = run_cli("captures", "--card", "TS", "--table", "4C,6D,6D", "--format", "text")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["4C 6D"]
    nothing = run_cli("captures", "--card", "QS", "--table", "3C,2D,KS,5H", "--format", "text")
    assert nothing.exit_code == 0 and "no capture" in nothing.stdout
    empty = run_cli("captures", "--card", "QS")
    assert json.loads(empty.stdout) == {"captures": []}


def test_captures_bad_input(run_cli):
    """A bad name says which option holds it (it did not: a bad-input audit's finding)."""
    for args, words in ((["--card", "5X", "--table", "3C"], "--card: unknown card '5X' in the french deck"),
                        (["--card", "5S", "--table", "3C,XX"], "--table: unknown card 'XX' in the french deck"),
                        (["--card", "5S", "--table", "3C#2"], "--table: card names must be plain"),
                        (["--card", "5S", "--table", "3C,3C,3C,3C"], "3C appears 4 times"),
                        (["--card", "5S", "--table", "5S,5S,5S,5S,5S,5S,5S,5S"], "5S appears 9 times"),
                        (["--card", " 5S ", "--table", "5S,5S,5S,5S,5S,5S,5S,5S"], "5S appears 9 times"),
                        (["--card", "", "--table", "2D"], "--card: card names must be plain")):
        result = run_cli("captures", *args)
        assert result.exit_code == 1
        assert result.stderr.startswith(f"Error: {words}") and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.output
    assert run_cli("captures", "--table", "3C").exit_code == 2


def test_deal_bad_player_count(run_cli):
    result = run_cli("deal", "turup", "--seed", "1", "--players", "13")
    assert result.exit_code == 2 and "2-12 players" in result.stderr  # a player count the game lacks: usage


def test_simulate_text_and_replay(run_cli, tmp_path):
    log = tmp_path / "turup.json"
    result = run_cli("simulate", "--game", "turup", "--seed", "12", "--players", "6", "--agent", "expert",
                     "--log", str(log))
    assert result.exit_code == 0
    data = json.loads(log.read_text())
    assert len(data["deal"]["rounds"]) == 6 and data["result"]["rounds"] == 6
    assert run_cli("replay", str(log)).exit_code == 0
    data["actions"][3]["action"]["take"] = ["K", "K", "K", "K", "K"]
    data["actions"][3]["action"]["type"] = "capture"
    log.write_text(json.dumps(data))
    bad = run_cli("replay", str(log))
    assert bad.exit_code == 1 and "step 4" in bad.stderr
    text = run_cli("simulate", "--game", "turup", "--seed", "12", "--format", "text")
    assert text.exit_code == 0 and "trails" in text.stdout and "result:" in text.stdout


def test_simulate_rounds_stop(run_cli):
    result = run_cli("simulate", "--game", "turup", "--seed", "3", "--rounds", "2", "--format", "jsonl")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["result"]["rounds"] == 2


def test_narration_shows_each_round_where_it_starts(run_cli):
    """A new round deals fresh hands: the narration shows that deal before its first play, so
    no card seems to be played twice."""
    data = json.loads(run_cli("simulate", "--game", "turup", "--seed", "3", "--rounds", "2").stdout)
    text = run_cli("simulate", "--game", "turup", "--seed", "3", "--rounds", "2", "--format", "text").stdout
    lines = text.splitlines()
    assert [line for line in lines if line.startswith("round ") and " ends " not in line] == ["round 1:", "round 2:"]
    second = data["deal"]["rounds"][1]
    start = lines.index("round 2:")
    assert lines[start + 1] == "hand 0: " + " ".join(second["hands"][0])
    first_play_of_round_2 = next(line for line in lines[start:] if line.lstrip()[:1].isdigit())
    played = sum(1 for line in lines[:start] if line.lstrip()[:1].isdigit())
    assert first_play_of_round_2.lstrip().startswith(f"{played + 1}.")


def test_a_capture_written_out_of_deck_order_is_named_legal(run_cli, tmp_path):
    """The log writes a capture's ranks one way, in deck order: another order is refused with the way
    it is written, not as an illegal play (the capture itself is legal)."""
    log = tmp_path / "turup.json"
    assert run_cli("simulate", "--game", "turup", "--seed", "1", "--players", "2", "--log", str(log)).exit_code == 0
    data = json.loads(log.read_text())
    assert data["actions"][3]["action"] == {"rank": "9", "take": ["A", "8"], "type": "capture"}
    data["actions"][3]["action"]["take"] = ["8", "A"]
    log.write_text(json.dumps(data))
    bad = run_cli("replay", str(log))
    assert bad.exit_code == 1
    assert bad.stderr == (f'Error: {log}: '
                          'step 4: action {"rank":"9","take":["8","A"],"type":"capture"} is legal, but a log '
                          'writes it {"rank":"9","take":["A","8"],"type":"capture"}\n')
    data["actions"][3]["action"]["take"] = [{"a": 1}]  # not ranks at all: the usual refusal
    log.write_text(json.dumps(data))
    assert "step 4: action {" in run_cli("replay", str(log)).stderr


def test_narration_sums_up_each_round(run_cli):
    """After a round's last play: each seat's cards won, the round's winners, the cards for nobody, named."""
    args = ("simulate", "--game", "turup", "--players", "3", "--seed", "1")
    result = json.loads(run_cli(*args).stdout)["result"]
    lines = run_cli(*args, "--format", "text").stdout.splitlines()
    start = lines.index("round 3 ends (left for nobody: 1 card: TC):")
    assert result["round3_scores"] == [17, 17, 17] and result["leftover"] == 7
    assert lines[start + 1:start + 4] == [f"  player {s}: 17 cards won, wins the round (shared)" for s in range(3)]
    start = lines.index("round 1 ends (left for nobody: 1 card: TH):")
    assert result["round1_scores"] == [11, 17, 23]
    assert lines[start + 1:start + 4] == ["  player 0: 11 cards won", "  player 1: 17 cards won",
                                          "  player 2: 23 cards won, wins the round"]
    assert "round 2 ends (left for nobody: 5 cards: AD 3C 8C 9D TD):" in lines


def test_captures_text_puts_each_capture_on_its_own_line(run_cli) -> None:
    """--format text: one line per capture, its cards separated by spaces, in the game's order."""
    result = run_cli("captures", "--card", "5S", "--table", "3C,2D,KS,5H", "--format", "text")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["5H", "2D 3C", "2D 3C 5H"]


def test_captures_applies_its_variants(run_cli) -> None:
    """--variant is not ignored: a variant that is not Turup's is a usage error."""
    result = run_cli("captures", "--card", "5S", "--variant", "strict")
    assert result.exit_code == 2
    assert "variant 'strict' applies to pairing, not to turup (family turup)" in result.stderr


def designers_turup(folder: Path, game_id: str, deck: str) -> None:
    """A config folder holding ``game_id``: the bundled Turup on another deck line."""
    from cardgames.engine.config import bundled_root

    shipped = (bundled_root() / "games" / "turup.yaml").read_text()
    bundled_deck = "deck: {type: french, copies: 1, copies_by_players: {5: 2, 8: 3}}"
    assert bundled_deck in shipped
    (folder / "games").mkdir()
    (folder / "games" / f"{game_id}.yaml").write_text(
        shipped.replace("id: turup\n", f"id: {game_id}\n").replace(bundled_deck, deck))


def test_captures_of_a_designers_turup_game(run_cli, tmp_path) -> None:
    """--game takes a designer's Turup game, its deck and copies (four decks: four 3C on the table, which Turup's
    three refuse), as placements takes a Towers game (a designer's finding: captures knew Turup alone); a game of
    another engine is a usage error."""
    designers_turup(tmp_path, "turup-four", "deck: {type: french, copies: 4}")
    table = ("--card", "3S", "--table", "3C,3C,3C,3C")
    four = run_cli("--configs", str(tmp_path), "captures", "--game", "turup-four", *table)
    assert four.exit_code == 0 and json.loads(four.stdout) == {"captures": [["3C"] * n for n in range(1, 5)]}
    three = run_cli("--configs", str(tmp_path), "captures", *table)
    assert three.exit_code == 1 and three.stderr.startswith("Error: 3C appears 4 times, but turup uses at most 3")
    other = run_cli("captures", "--game", "towers", *table)
    assert other.exit_code == 2 and "towers is played by the towers engine" in other.stderr


def test_a_deck_numbered_to_a_hundred_plays_to_its_end(run_cli, tmp_path):
    """Turup on the Uta Karuta deck (two suits of poems 1-100), a designer's YAML alone: its games
    used to stop on a 99 ("too many cards of values 1-98", seed 3) or run out of memory listing
    the partitions of a large value (``captures``); now they play to their end and replay."""
    designers_turup(tmp_path, "turup-uta", "deck: {type: uta-karuta, copies: 1}")
    configs = ("--configs", str(tmp_path))
    log = tmp_path / "uta.json"
    result = run_cli(*configs, "simulate", "--game", "turup-uta", "--seed", "3", "--players", "2", "--log", str(log))
    assert result.exit_code == 0, result.stderr
    assert json.loads(log.read_text())["result"]["rounds"] == 2
    assert run_cli(*configs, "replay", str(log)).exit_code == 0


def test_a_card_of_a_large_value_costs_no_table_that_size(run_cli, tmp_path):
    """A designer's ten worth 50,000: the capture listing's runs used to be a table of every count up
    to 126 for every value up to the card's (3.5 GB to deal); now one run per count a pile can
    hold, a few megabytes."""
    import tracemalloc

    from cardgames.engine.config import bundled_root

    bundled = bundled_root()
    (tmp_path / "decks").mkdir()
    (tmp_path / "games").mkdir()
    deck = (bundled / "decks" / "french.yaml").read_text()
    assert "{id: T, name: Ten, value: 10}" in deck
    (tmp_path / "decks" / "bigten.yaml").write_text(
        deck.replace("id: french\n", "id: bigten\n").replace("value: 10}", "value: 50000}"))
    (tmp_path / "games" / "turup-bigten.yaml").write_text(
        (bundled / "games" / "turup.yaml").read_text().replace("id: turup\n", "id: turup-bigten\n")
        .replace("type: french", "type: bigten"))
    tracemalloc.start()
    try:
        result = run_cli("--configs", str(tmp_path), "deal", "turup-bigten", "--seed", "1")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0, result.stderr
    assert peak < 50 << 20, peak
    # past MAX_VALUE a deck is refused, at the game's line, before any table is built (a fuzzer's 2^31 hung)
    (tmp_path / "decks" / "bigten.yaml").write_text(
        deck.replace("id: french\n", "id: bigten\n").replace("value: 10}", "value: 2147483648}"))
    refused = run_cli("--configs", str(tmp_path), "deal", "turup-bigten", "--seed", "1")
    assert refused.exit_code == 1 and "every numeral rank needs an integer value from 1 to 100,000" in refused.stderr
    from cardgames.engine.config import Catalog
    from cardgames.engine.games.turup.rules import MAX_VALUE, check_config

    for value, refused in ((MAX_VALUE, False), (MAX_VALUE + 1, True)):  # the bound is inclusive
        (tmp_path / "decks" / "bigten.yaml").write_text(
            deck.replace("id: french\n", "id: bigten\n").replace("value: 10}", f"value: {value}}}"))
        spec = Catalog.with_folders([tmp_path]).resolve("turup-bigten", (), 2)
        assert any("from 1 to 100,000" in text for _, text in check_config(spec)) is refused, value
