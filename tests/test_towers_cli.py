"""Towers on the command line: placements (the seed's example, bad input), deal, simulate, validate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

EXAMPLE = ["placements", "--card", "The Midwife", "--tower", "The Foreign Trader", "--played",
           "NG=The Rakshasa,LG=The Joke,LN=The Big Sky"]


def test_a_towers_deal_names_no_dealer(run_cli):
    """Towers has no dealer (the alphabetical first card decides who starts): the deal says who plays first only
    (a mutation audit's: a State's dealer defaulting to seat 0 would name one)."""
    lines = run_cli("deal", "towers", "--seed", "1").stdout.splitlines()
    assert lines[-1].startswith("first to play: player ") and not any(line.startswith("dealer") for line in lines)


def test_placements_example(run_cli):
    result = run_cli(*EXAMPLE)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"positions": ["LE", "NE"], "closed": False}


@pytest.mark.parametrize("tower", ["Books", "books", "Intelligence", "the foreign trader"])
def test_placements_tower_by_suit_or_foundation(run_cli, tower):
    result = run_cli("placements", "--card", "The Midwife", "--tower", tower, "--played",
                     "NG=The Rakshasa,LG=The Joke,LN=The Big Sky", "--format", "text")
    assert result.exit_code == 0 and result.stdout.strip() == "LE NE"


def test_placements_empty_tower_and_closed_tower(run_cli):
    result = run_cli("placements", "--card", "The Paladin", "--tower", "Hammers")
    assert json.loads(result.stdout) == {"positions": ["CG", "CN", "LE", "NE", "CE"], "closed": False}
    closed = ("NG=The Rakshasa,LG=The Joke,LN=The Big Sky,LE=The Midwife,CG=The Inquisitor,"
              "CN=The Hidden Truth,CE=The Theater")
    result = run_cli("placements", "--card", "The Wanderer", "--tower", "Books", "--played", closed)
    assert result.exit_code == 0 and json.loads(result.stdout) == {"positions": [], "closed": True}
    text = run_cli("placements", "--card", "The Wanderer", "--tower", "Books", "--played", closed, "--format", "text")
    assert text.stdout == "(no position: the tower is closed, no card fits it)\n"  # why nowhere (a rules expert's)
    crowded = "NG=The Rakshasa,LG=The Joke,LN=The Big Sky"  # open, but no place for the Cyclone's alignment
    text = run_cli("placements", "--card", "The Cyclone", "--tower", "Books", "--played", crowded, "--format", "text")
    assert text.stdout == "(no position: the card fits nowhere on this tower)\n"


@pytest.mark.parametrize("played, why", [
    ("NE=The Rakshasa", "NE=The Rakshasa cannot be played on a tower holding only its foundation (it would cover "
                        "the foundation's symbol)"),
    ("NG=The Rakshasa,LG=The Joke,CE=The Midwife", "CE=The Midwife cannot be played after NG=The Rakshasa, LG=The "
                                                   "Joke (CE is next to no played card's symbol)"),
    ("NG=The Rakshasa,LG=The Joke,LN=The Big Sky,NE=The Midwife,CG=The Inquisitor,CN=The Hidden Truth,CE=The Theater",
     "CE=The Theater cannot be played after NG=The Rakshasa, LG=The Joke, LN=The Big Sky, NE=The Midwife, CG=The "
     "Inquisitor, CN=The Hidden Truth (it would cover the symbol on NE)"),
    # the first card left out is named, not another (a mutation audit's): neither can be the first played
    ("NG=The Keep,LE=The Beating", "NG=The Keep cannot be played on a tower holding only its foundation (it would "
                                   "cover the foundation's symbol)"),
    # the first symbol covered, in position order: the Paladin on CG would cover CN's and CE's
    ("CN=The Forge,CG=The Paladin,CE=The Keep", "CG=The Paladin cannot be played after CN=The Forge, CE=The Keep (it "
                                                "would cover the symbol on CN)"),
])
def test_placements_says_why_no_legal_plays_make_a_layout(run_cli, played, why):
    """A layout no legal plays make is refused naming the card that cannot join the most that can be placed,
    and the rule it breaks (a rules expert's finding: no reason was given)."""
    result = run_cli("placements", "--card", "The Wanderer", "--tower", "Books", "--played", played)
    assert result.exit_code == 1
    assert result.stderr == f"Error: no sequence of legal plays puts the played cards on those positions: {why}\n"


def two_sided_configs(folder: Path) -> Path:
    """A config folder holding ``towers-across``: Towers with ``seating: two_sided``."""
    from cardgames.engine.config import bundled_root

    text = (bundled_root() / "games" / "towers.yaml").read_text()
    (folder / "games").mkdir()
    (folder / "games" / "towers-across.yaml").write_text(
        text.replace("id: towers", "id: towers-across").replace("seating: same_side", "seating: two_sided"))
    return folder


def test_placements_on_the_far_side(run_cli, tmp_path):
    """``--side far`` (a reviewer's finding: the command could not show it): under ``seating: two_sided`` the
    far side sees every offset negated, so the Cyclone (CE) goes where an LG card goes on an empty tower; a game
    seating everyone on one side has no far side: a usage error, exit 2, as a --rng the game does not take."""
    two_sided_configs(tmp_path)
    cyclone = ["placements", "--card", "The Cyclone", "--tower", "Keys"]
    for side, positions in (("far", ["CG", "CN", "LE", "NE", "CE"]), ("near", ["LG", "NG", "CG", "LN", "LE"])):
        result = run_cli("--configs", str(tmp_path), *cyclone, "--game", "towers-across", "--side", side)
        assert result.exit_code == 0 and json.loads(result.stdout) == {"positions": positions, "closed": False}, side
    result = run_cli(*cyclone, "--side", "far")
    assert result.exit_code == 2 and "seats every player on the near side (seating: same_side)" in result.stderr


def test_placements_take_a_house_rules_variant(run_cli, tmp_path):
    """A house rule is one variant file (the README): placements applies it as score and captures do, so a
    two-sided seating is checked without a copy of the game (the multiplayer walkthrough had to write one)."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "across.yaml").write_text(
        "id: across\nname: Across the table\napplies_to: [towers]\noptions: {seating: two_sided}\n")
    cyclone = ["--configs", str(tmp_path), "placements", "--card", "The Cyclone", "--tower", "Keys", "--side", "far"]
    result = run_cli(*cyclone, "--variant", "across")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"positions": ["CG", "CN", "LE", "NE", "CE"], "closed": False}
    assert run_cli(*cyclone).exit_code == 2


@pytest.mark.parametrize("played,tower,near,far", [
    ("NG=The Publican", "Hammers", ["LG", "LN"], ["CG", "CN"]),  # laid from across: an LE card on NG
    ("LN=The Avalanche,LE=The Empty Throne", "Shields", [], ["LG", "NG"]),  # one card from each side
])
def test_placements_take_cards_laid_from_either_side(run_cli, tmp_path, played, tower, near, far):
    """Under ``seating: two_sided`` a card on a tower may have been laid from across (an audit's finding: the
    command judged every played card as laid from the asking side, and refused layouts real games make); the
    same layouts under ``same_side`` are refused, no one there seeing the offsets negated."""
    two_sided_configs(tmp_path)
    joke = ["placements", "--card", "The Joke", "--tower", tower, "--played", played]
    for side, positions in (("near", near), ("far", far)):
        result = run_cli("--configs", str(tmp_path), *joke, "--game", "towers-across", "--side", side)
        assert result.exit_code == 0, (side, result.stderr)
        assert json.loads(result.stdout) == {"positions": positions, "closed": False}, side
    assert "no sequence" in run_cli(*joke).stderr


@pytest.mark.parametrize("args,words", [
    (["--card", "The Midwyfe", "--tower", "Books"], "unknown card 'The Midwyfe' in the harrow deck; did you mean "
                                                    "'The Midwife'"),
    (["--card", "The Midwife", "--tower", "Swords"], "unknown tower"),
    (["--card", "The Owl", "--tower", "Books"], "foundation"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "XX=The Joke"], "unknown position"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "XX = The Joke"], "unknown position 'XX':"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "NG The Joke"], "POSITION=CARD"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "NG= "], "'NG=' is not POSITION=CARD"),
    (["--card", "The Midwife", "--tower", "Books", "--played", " =The Joke"], "'=The Joke' is not POSITION=CARD"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "NG=The Joke,LG=The Joke"], "The Joke appears twice"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "NG=The Midwife"], "The Midwife appears twice"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "NG=The Joke,NG=The Dance"], "share position NG"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "NG=The Twin"], "foundation"),
    # The Paladin (LG) on LG, the Rakshasa (LE) on NE: each would cover the foundation.
    (["--card", "The Midwife", "--tower", "Books", "--played", "LG=The Paladin"], "no sequence"),
    (["--card", "The Midwife", "--tower", "Books", "--played", "CG=The Inquisitor,NE=The Rakshasa"], "no sequence"),
])
def test_placements_bad_input(run_cli, args, words):
    result = run_cli("placements", *args)
    assert result.exit_code == 1
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_placements_missing_option_is_a_usage_error(run_cli):
    assert run_cli("placements", "--card", "The Midwife").exit_code == 2


def test_deal_and_simulate_and_replay(run_cli, tmp_path):
    deal = run_cli("deal", "towers", "--seed", "7", "--format", "json")
    assert deal.exit_code == 0
    data = json.loads(deal.stdout)
    assert len(data["towers"]) == 6 and len(data["caches"]) == 4 and len(data["stock"]) == 36
    assert run_cli("deal", "towers", "--seed", "7", "--players", "2").exit_code == 0
    # a cache's cards with their suits and alignments, on which a placement depends (a teacher's finding)
    drawn = run_cli("deal", "towers", "--seed", "7", "--players", "3").stdout.splitlines()
    assert "player 0 cache: The Rabbit Prince (Keys CN), The Publican (Stars CG), The Betrayal (Crowns NE)" in drawn
    log = tmp_path / "towers.json"
    sim = run_cli("simulate", "--game", "towers", "--seed", "7", "--agent", "random", "--log", str(log))
    assert sim.exit_code == 0
    result = json.loads(sim.stdout)
    assert {"scores", "winners", "moves", "soldes", "fled", "net", "house", "closed_towers"} <= set(result)
    assert run_cli("replay", str(log)).exit_code == 0
    text = run_cli("simulate", "--game", "towers", "--seed", "7", "--format", "text")
    assert text.exit_code == 0 and "plays" in text.stdout and "result:" in text.stdout
    assert run_cli("simulate", "--game", "towers", "--seed", "7", "--players", "5").exit_code == 2  # a usage error


def test_a_game_with_a_pass_replays(run_cli, tmp_path):
    """Under ``no_play: pass`` a player without a play may pass or flee, and a logged pass replays as the
    pass it is: Pass and Flee have no fields, so they are equal tuples and must be told apart by type.
    Seed 4 with random agents passes at step 8."""
    from cardgames.engine.config import bundled_root

    (tmp_path / "games").mkdir()
    towers = (bundled_root() / "games" / "towers.yaml").read_text()
    assert towers.count("  no_play: flee\n") == 1
    (tmp_path / "games" / "towers.yaml").write_text(towers.replace("  no_play: flee\n", "  no_play: pass\n"))
    log = tmp_path / "towers.json"
    configs = ("--configs", str(tmp_path))
    assert run_cli(*configs, "simulate", "--game", "towers", "--seed", "4", "--agent", "random",
                   "--log", str(log)).exit_code == 0
    assert json.loads(log.read_text())["actions"][7]["action"] == {"type": "pass"}
    result = run_cli(*configs, "replay", str(log))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("ok: towers seed 4: ")


def test_validate_and_show(run_cli):
    result = run_cli("validate")
    assert result.exit_code == 0, result.stdout + result.stderr
    shown = run_cli("show", "towers", "--format", "json")
    assert shown.exit_code == 0 and "house_cut" in shown.stdout


def test_validate_facts_leave_out_a_player_count_that_cannot_deal(run_cli, tmp_path):
    """Caches of 13 cards: 4 players need 52 of the 48 stock cards. That count is an error at the
    option's line, and has no facts (they would show a stock of -4 cards); 2 and 3 players keep theirs."""
    from cardgames.engine.config import bundled_root

    (tmp_path / "games").mkdir()
    towers = (bundled_root() / "games" / "towers.yaml").read_text()
    assert towers.count("  cache_size: 3\n") == 1
    (tmp_path / "games" / "towers.yaml").write_text(towers.replace("  cache_size: 3\n", "  cache_size: 13\n"))
    result = run_cli("--configs", str(tmp_path), "validate", "--facts", "--format", "json")
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and [(e["line"], e["message"]) for e in report["errors"]] == [
        (18, "4 caches of 13 need 52 cards; the stock holds 48 (4 players)")]
    facts = {f["players"]: (f["cards"], f["stock_after_deal"]) for f in report["facts"] if f["game"] == "towers"}
    assert facts == {2: (54, 22), 3: (54, 9)}


@pytest.mark.parametrize("ability", ["5", "null", "[]"])
def test_a_suit_ability_that_is_no_name_is_refused_at_the_games_deck_line(run_cli, tmp_path, ability):
    """A tower is named by its suit's ability: a number there passed validate, then ended ``placements`` in a
    traceback (a config fuzzer's). Refused by validate and by every command, in one line."""
    from cardgames.engine.config import bundled_root

    deck = (bundled_root() / "decks" / "harrow.yaml").read_text()
    assert deck.count("ability: Strength,") == 1
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "harrow.yaml").write_text(deck.replace("ability: Strength,", f"ability: {ability},"))
    words = "suit Hammers's ability must be a name (text), not"
    checked = run_cli("--configs", str(tmp_path), "validate")
    assert checked.exit_code == 1 and words in checked.stdout
    result = run_cli("--configs", str(tmp_path), "placements", "--card", "The Paladin", "--tower", "Hammers")
    assert result.exit_code == 1 and words in result.stderr and result.stderr.count("\n") == 1
