"""The pairing family: all 17 games and their Strict versions deal, play, replay and keep their caps."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engine.agents import make_agents
from cardgames.engine.config import Catalog, bundled_root
from cardgames.engine.core import play
from cardgames.engine.games.pairing.rules import WILD, Play, Turn
from cardgames.engine.log import build_log, replay
from cardgames.engine.registry import load_game

GAMES = sorted(g for g in Catalog().ids("games") if Catalog().game(g)["engine"] == "pairing")
ALL = GAMES + [f"strict-{g}" for g in GAMES]
DATA = Path(__file__).parent / "data" / "pairing"
BUNDLED = bundled_root()


def test_seventeen_games_and_their_strict_versions(run_cli):
    assert len(GAMES) == 17
    out = run_cli("list", "--format", "json")
    import orjson

    ids = {row["id"] for row in orjson.loads(out.stdout)}
    assert set(ALL) <= ids


def check_play(game, seed: int, agent: str) -> None:
    """Play a game step by step, checking conservation and every cap after each action."""
    state = game.new_state(seed)
    before = Counter(state.all_cards())
    assert sorted(before) == list(range(len(game.deck)))
    agents = make_agents([agent], game)
    from cardgames.engine.core import agent_rng

    rng = agent_rng(seed, 0)
    steps = 0
    while state.current_player is not None:
        actions = state.legal_actions()
        action = agents[0].choose(state, actions, rng)
        if game.waste_cap is not None and type(action) is Turn:
            assert len(state.waste) < game.waste_cap
        state.apply(action)
        steps += 1
        assert Counter(state.all_cards()) == before
        if game.row_cap is not None:
            assert max(len(r) for r in state.rows) <= game.row_cap
        if game.waste_cap is not None:
            assert len(state.waste) <= game.waste_cap
        for row in state.rows:  # every card sits on a card it pairs with (or on / as a wild)
            for low, high in zip(row, row[1:], strict=False):
                assert game.pairs(low, high)
    assert steps <= 2 * len(game.deck)
    assert state.legal_actions() == []


@pytest.mark.parametrize("name", ALL)
def test_every_game_deals_plays_and_replays(name):
    game = load_game(name)
    for agent in ("greedy", "random"):
        check_play(game, 11, agent)
        run = play(game, 11, make_agents([agent], game))
        log = build_log(game, run)
        assert replay(log).result == run.state.result()
        assert build_log(game, play(game, 11, make_agents([agent], game))) == log


@settings(max_examples=25)
@given(name=st.sampled_from(ALL), seed=st.integers(0, 2**64 - 1), agent=st.sampled_from(["greedy", "random"]))
def test_property_caps_conservation_termination(name, seed, agent):
    check_play(load_game(name), seed, agent)


def test_caps_and_decks_as_the_issue_lists():
    caps = {"eiffel-tower": (None, 4), "new-eiffel-tower": (6, 5), "castle": (4, 5), "hootch": (None, 3),
            "keshava": (6, 6), "keshava-xii": (7, 7), "stuppa": (4, 6), "sun-and-moon": (5, 6), "temple": (None, 5),
            "uta-pagoda": (None, 6), "wizards-tower": (None, 5)}
    sizes = {"castle": 156, "hootch": 96, "keshava": 240, "keshava-xii": 288, "stuppa": 192, "sun-and-moon": 216,
             "temple": 150, "uta-pagoda": 400, "wizards-tower": 136, "new-eiffel-tower": 156, "eiffel-tower": 104}
    for name, (row_cap, waste_cap) in caps.items():
        assert load_game(name).row_cap == row_cap
        assert load_game(name).waste_cap is None
        assert load_game(f"strict-{name}").waste_cap == waste_cap
        assert len(load_game(name).deck) == sizes[name]
    # the specialty games' waste caps are the project's: the smallest from 5 that puts the Strict
    # game's winnable rate in issue 3's band (pairing.md)
    specialty = {"equinox": 5, "shrimp-basket": 7, "squad": 5, "sunbow": 6, "tigers-cave": 6, "vault": 5}
    for name, waste_cap in specialty.items():
        game = load_game(name)
        assert game.spec.deck["designed_by_project"] is True
        assert game.row_cap is None and load_game(f"strict-{name}").waste_cap == waste_cap


def test_the_stats_page_describes_the_games_as_configured():
    """``docs/rules/pairing-stats.md`` has one row per game and Strict version, and the deck, cards,
    rows, lines and caps it gives are the configs' now: a layout or cap changed without running
    ``scripts/pairing_report.py`` again would leave rates measured on another game."""
    page = (Path(__file__).parents[1] / "docs" / "rules" / "pairing-stats.md").read_text()
    rows = [line.split(" | ") for line in page.splitlines() if line.startswith("| ") and not line.startswith("| game ")]
    described = {cells[0].removeprefix("| "): cells[1:6] for cells in rows}
    assert sorted(described) == sorted(ALL)
    for name, cells in described.items():
        game = load_game(name)
        layout = ", ".join(map(str, game.layout))
        assert cells == [f"{game.deck.copies} x {game.deck.id}", str(len(game.deck)), f"{game.num_rows} ({layout})",
                         str(game.row_cap or "none"), str(game.waste_cap or "none")], name


def test_validate_facts_show_each_games_deal():
    """``validate --facts`` printed nothing for a pairing game (the designer audit's finding): each game
    and its Strict version now shows its rows, cards, stock after the deal, the rows' room and the waste cap."""
    from cardgames.engine.validate import validate

    facts = {(f["game"], tuple(f["variants"])): f for f in validate().facts
             if f["game"] in ("eiffel-tower", "hootch", "castle")}
    shown = {key: (f["rows"], f["cards"], f["stock_after_deal"], f["row_room"], f["waste_cap"])
             for key, f in facts.items()}
    assert shown == {("eiffel-tower", ()): (20, 104, 83, None, None),
                     ("eiffel-tower", ("strict",)): (20, 104, 83, None, 4),
                     ("hootch", ()): (15, 96, 80, None, None), ("hootch", ("strict",)): (24, 96, 71, None, 3),
                     ("castle", ()): (60, 156, 95, 240, None), ("castle", ("strict",)): (60, 156, 95, 240, 5)}


def test_tarock_trumps_pair_to_22_and_the_fool_is_wild():
    game = load_game("castle")
    code = game.deck.code
    assert game.pairs(code("VII"), code("XV")) and not game.pairs(code("VII"), code("XIV"))
    assert game.pairs(code("3C"), code("CH")) and not game.pairs(code("3C"), code("KH"))
    assert not game.pairs(code("3C"), code("XII"))
    assert game.card_class[code("Fool")] == WILD
    for other in ("AC", "XXI", "Fool#2"):
        assert game.pairs(code("Fool"), code(other)) and game.pairs(code(other), code("Fool"))
    wizards = load_game("wizards-tower")
    assert sum(c == WILD for c in wizards.card_class) == 8
    assert wizards.pairs(wizards.deck.code("1C"), wizards.deck.code("KD"))  # 1 + 16 = 17


@pytest.mark.parametrize("game_id", ["castle", "eiffel-tower", "wizards-tower"])
def test_each_class_has_the_one_partner_the_match_rule_gives(game_id):
    """``partner``, which every solver stage reads, is the class whose cards a class's cards go onto: the
    match rule's, seen through ``pairs`` (a Fool or Wizard has none: it goes onto anything)."""
    game = load_game(game_id)
    for card, cls in enumerate(game.card_class):
        onto = {game.card_class[top] for top in range(len(game.deck)) if game.pairs(top, card)} - {WILD}
        assert onto == (set(game.card_class) - {WILD} if cls == WILD else {game.partner[cls]})
        assert game.partner_of[card] == game.partner[cls]
    code = game.deck.code
    if game_id == "castle":
        assert game.partner[game.card_class[code("VII")]] == game.card_class[code("XV")]  # 7 + 15 = 22
        assert game.partner[game.card_class[code("XI")]] == game.card_class[code("XI")]
        assert game.partner[WILD] == WILD
    elif game_id == "eiffel-tower":
        assert game.partner[game.card_class[code("3C")]] == game.card_class[code("JH")]  # 3 + 11 = 14


def test_a_wild_topped_row_takes_any_card_and_a_wild_card_goes_on_any_row():
    """Wizard's Tower (wild cards, no row cap): a 12 (C) goes on a 5 (5 + 12 = 17) or on a Wizard,
    not on a 6; a Wizard goes on every row."""
    game = load_game("wizards-tower")
    code = game.deck.code
    state = game.new_state(1)
    state.place([[code("5C")], [code("Wizard1")], [code("6C")]], [code("CD")], [code("Wizard2")])
    assert state.legal_actions() == [Play(0), Play(1), Turn()]  # rows in order, whatever tops them
    state.place([[code("Wizard1")], [code("5C")], [code("6C")]], [code("Wizard2")], [])
    assert state.legal_actions() == [Play(0), Play(1), Play(2)]


def test_row_cap_blocks_a_full_row():
    """Castle's cap is 4 cards a row: the waste card that may go on a row of 3 may not on a row of 4."""
    game = load_game("castle")
    state = game.new_state(5)
    top = state.rows[0][-1]
    state.waste[-1] = next(c for c in range(len(game.deck)) if game.pairs(top, c) and game.card_class[c] != WILD)
    state.rows[0] = [top] * 3  # test surgery: the waste card now goes on row 0, of 3 cards ...
    state._update()
    assert Play(0) in state.legal_actions()
    state.rows[0] = [top] * 4  # ... and no longer once the row is full
    state._update()
    assert Play(0) not in state.legal_actions()


def test_deal_text_draws_the_layout(run_cli):
    out = run_cli("deal", "castle", "--seed", "3")
    lines = out.stdout.splitlines()
    layout = load_game("castle").layout
    assert [len(line.split()) for line in lines[:len(layout)]] == list(layout)


@pytest.mark.parametrize("name", GAMES)
def test_a_strict_version_deals_its_own_layout_if_it_has_one(name):
    options = Catalog().game(name)["options"]
    strict = load_game(f"strict-{name}")
    assert load_game(name).layout == tuple(options["layout"])
    assert strict.layout == tuple(options["strict_layout"] or options["layout"])
    assert len(strict.new_state(1).rows) == sum(strict.layout)


def test_strict_hootch_draws_its_own_layout(run_cli):
    lines = run_cli("deal", "strict-hootch", "--seed", "3").stdout.splitlines()
    assert [len(line.split()) for line in lines[:6]] == [1, 3, 5, 5, 5, 5]
    assert lines[6] == "(rows 1-24, line by line from the top, left to right; a card's copy in deck 2 is marked #2)"
    assert lines[7] == ""
    three = run_cli("deal", "new-eiffel-tower", "--seed", "3").stdout  # what #3 means too (a reviewer's finding)
    assert "(rows 1-38, line by line from the top, left to right; a card's copy in deck N (2-3) is marked #N)" in three


def test_validate_accepts_all_and_rejects_a_bad_match(run_cli):
    assert run_cli("validate").exit_code == 0
    bad = run_cli("--configs", str(DATA), "validate", str(DATA / "games" / "bad-match.yaml"))
    assert bad.exit_code == 1
    assert "match value must be 5" in bad.stdout + bad.stderr
    line = (DATA / "games" / "bad-match.yaml").read_text().splitlines().index("  match: 9") + 1
    assert f"bad-match.yaml:{line}: options.match is 9" in bad.stdout + bad.stderr  # the key's own line


@pytest.mark.parametrize("family_match, words", [
    ("{trump: 23}", "family_match.trump is 23 but the trump cards run from 1 to 21, so their match value must be 22"),
    ("{trump: 22, joker: 5}", "names family 'joker', which no card of deck tarock has"),
])
def test_validate_rejects_a_family_match_that_does_not_fit(run_cli, tmp_path, family_match, words):
    (tmp_path / "games").mkdir()
    castle = (BUNDLED / "games" / "castle.yaml").read_text()
    assert "family_match: {trump: 22}" in castle
    (tmp_path / "games" / "castle.yaml").write_text(castle.replace("{trump: 22}", family_match))
    result = run_cli("--configs", str(tmp_path), "validate", str(tmp_path / "games" / "castle.yaml"))
    assert result.exit_code == 1 and words in result.stdout + result.stderr
    line = castle[:castle.index("family_match:")].count("\n") + 1
    assert f"castle.yaml:{line}: " in result.stdout + result.stderr


def test_unknown_game_is_one_line(run_cli):
    out = run_cli("deal", "castel", "--seed", "1")
    assert out.exit_code == 1 and "did you mean" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("name", ["castle", "wizards-tower"])
def test_greedy_keeps_wild_topped_rows_then_the_most_room(name):
    """Where the rows differ (wild cards, a row cap), greedy plays on a row whose top is not wild when
    it can, and among those on a shortest one (the most room left), even when a wild-topped row is
    shorter; each case is met on these deals."""
    game = load_game(name)
    agent = make_agents(["greedy"], game)[0]
    kept_wild = 0
    for seed in range(1, 31):
        state = game.new_state(seed)
        while state.current_player is not None:
            actions = state.legal_actions()
            choice = agent.choose(state, actions, None)
            rows = [a.row for a in actions if type(a) is Play]
            if type(choice) is Play and len(rows) > 1:
                plain = [r for r in rows if state.tops[r] != WILD] or rows
                assert choice.row in plain
                assert len(state.rows[choice.row]) == min(len(state.rows[r]) for r in plain)
                kept_wild += any(len(state.rows[r]) < len(state.rows[choice.row]) for r in set(rows) - set(plain))
            state.apply(choice)
    assert kept_wild


@pytest.mark.parametrize("waste, row", [("Wizard2", 2), ("CC", 2), ("PD", 1)])
def test_greedy_puts_a_wild_card_where_its_rows_class_is_most_common(waste, row):
    """agents.py's steps 3 and 4: a wild waste card goes on a row whose top's class the most tops share (that
    class survives on the others), never on the wild top; a plain card on the lowest row it may go on."""
    game = load_game("wizards-tower")
    code = game.deck.codes
    state = game.new_state(1)
    state.place([code(["Wizard1"]), code(["3S"]), code(["5C"]), code(["5H"])], code([waste]), code(["AD"]))
    agent = make_agents(["greedy"], game)[0]
    actions = state.legal_actions()
    assert Play(0) in actions and agent.choose(state, actions, None) == Play(row)


def test_row_cap_holds_for_a_wild_card_and_on_a_wild_topped_row():
    """The row cap binds wild cards too (pairing.md: "a wild card does not go on a full row"): in Castle
    (cap 4) the Fool goes on any row but a full one, and a card goes on a wild-topped row only while it has
    room; a full row refuses both, whatever tops it, and a row filled by a play refuses the next card."""
    game = load_game("castle")
    code = game.deck.codes
    state = game.new_state(1)
    state.place([code(["AC", "KC", "AD", "KD"]), code(["2C", "QC", "2D"]), code(["XXI"])], code(["Fool"]), [])
    assert state.legal_actions() == [Play(1), Play(2)]  # the Fool: not on the full row 0
    state.place([code(["2C", "QC", "2D", "Fool"]), code(["XX", "II", "Fool#2"]), code(["AC", "KC", "AD", "KD"]),
                 code(["KS"])], code(["KH", "AH"]), code(["AS"]))
    assert state.legal_actions() == [Play(1), Play(3), Turn()]  # AH: wild-topped row 1 and the K, not the full rows
    state.apply(Play(1))
    assert len(state.rows[1]) == 4
    assert state.legal_actions() == [Turn()]  # KH: the wild-topped rows are full now, and a K takes no K


def test_clone_copies_the_counts_and_is_independent():
    """A clone is the same position with the same plays and turns counted (``result``, which the solvers
    and logs read), and moves on it leave the original alone: its rows, waste, row tops and the rows
    listed by top, as the original's later plays show."""
    game = load_game("eiffel-tower")
    code = game.deck.code
    state = game.new_state(1)
    state.place([[code("3D")], [code("5H")]], [code("JH")], [code("9C"), code("9S"), code("6S")])
    state.apply(Play(0))  # JH on 3D
    state.apply(Turn())
    copy, before = state.clone(), state.snapshot()
    assert copy.result() == state.result() == {"won": False, "cards_left": 3, "plays": 1, "turns": 1}
    assert copy.snapshot() == before and copy.legal_actions() == state.legal_actions() == [Play(1), Turn()]
    copy.apply(Play(1))  # 9C on 5H, in the copy only
    assert copy.result() == {"won": False, "cards_left": 2, "plays": 2, "turns": 1}
    assert state.result() == {"won": False, "cards_left": 3, "plays": 1, "turns": 1} and state.snapshot() == before
    state.apply(Turn())
    assert state.legal_actions() == [Play(1), Turn()]  # 9S on the original's 5H, still its top
    state.apply(Play(1))
    assert state.legal_actions() == [Turn()]  # 9C does not go on the 9S


def test_snapshot_shows_only_the_stock_still_to_turn():
    """``snapshot`` is the position now: rows bottom first, the waste, and the stock's cards not yet turned
    (a turned card is on the waste, not also in the stock)."""
    game = load_game("eiffel-tower")
    code = game.deck.code
    state = game.new_state(1)
    state.place([[code("3D")], [code("5H")]], [code("JH")], [code("9C"), code("6S")])
    state.apply(Play(0))
    state.apply(Turn())
    assert state.snapshot() == {"rows": [["3D", "JH"], ["5H"]], "waste": ["9C"], "stock": ["6S"]}
    assert sorted(state.all_cards()) == sorted(code(n) for n in ["3D", "JH", "5H", "9C", "6S"])


def test_the_rules_pages_game_of_your_own_works_as_written(run_cli, tmp_path):
    """docs/rules/pairing.md's "Adding a game of your own": its two YAML files, copied from the page, make a
    game that validates, deals, has its Strict version, and solves to the rates the page states; the
    solver's line replays to a win. A page a designer copies from must not rot."""
    import re

    page = (Path(__file__).parent.parent / "docs" / "rules" / "pairing.md").read_text()
    section = page.split("## Adding a game of your own", 1)[1].split("\n## ", 1)[0]
    for name in ("decks/triad.yaml", "games/fan.yaml"):
        text = re.search(rf"`my/{name}`[^\n]*:\n\n```yaml\n(.*?)```", section, re.S).group(1)
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    mine = ("--configs", str(tmp_path))
    assert run_cli(*mine, "validate", str(tmp_path)).exit_code == 0
    listed = run_cli(*mine, "list", "--format", "json").stdout
    assert '"fan"' in listed and '"strict-fan"' in listed
    assert run_cli(*mine, "deal", "fan", "--seed", "1").exit_code == 0
    stated = re.findall(r"--game (\S+) --seeds 1-1000 > \S+\n(\d+/1000 winnable, 0 undecided)", section)
    assert [game for game, _ in stated] == ["fan", "strict-fan"]
    for game, summary in stated:
        assert run_cli(*mine, "solve", "--game", game, "--seeds", "1-1000").stderr == summary + "\n"
    log = tmp_path / "win.json"
    played = run_cli(*mine, "simulate", "--game", "fan", "--seed", "4", "--agent", "solver", "--log", str(log))
    assert played.exit_code == 0
    assert run_cli(*mine, "replay", str(log)).exit_code == 0 and '"won": true' in log.read_text()


@pytest.mark.parametrize("game_id, seed, said", [
    ("eiffel-tower", 3, "won: every card is on a row"),
    ("eiffel-tower", 7, "lost: the stock is used up, and the waste's top card, 7S, fits no row (22 cards left)"),
    ("strict-eiffel-tower", 7, "lost: the waste holds 4 cards, its cap, so the stock cannot be turned, and the "
                               "waste's top card, JS#2, fits no row (80 cards left)"),
    ("castle", 1, "lost: the stock is used up, and the waste's top card, 8H, goes only onto full rows (row cap 4) "
                  "(19 cards left)"),
])
def test_narration_says_why_the_game_ended(game_id, seed, said):
    """The last words before the result (a teacher's finding: a game ended on its JSON alone): won, or what
    stopped it, the waste's top card checked against every row here."""
    game = load_game(game_id)
    state = play(game, seed, make_agents([], game)).state
    assert game.describe_end(state) == [said]
    if not state.won():
        card = state.waste[-1]
        fitting = [row for row in state.rows if game.pairs(row[-1], card)]
        assert all(len(row) == game.row_cap for row in fitting) and bool(fitting) == ("full rows" in said)


def test_a_waste_cap_of_one_is_one_card(tmp_path):
    """"the waste holds 1 card", not "1 cards" (a designer's strict_waste_cap: 1)."""
    (tmp_path / "games").mkdir()
    one = (bundled_root() / "games" / "eiffel-tower.yaml").read_text()
    assert "strict_waste_cap: 4" in one
    (tmp_path / "games" / "eiffel-tower.yaml").write_text(one.replace("strict_waste_cap: 4", "strict_waste_cap: 1"))
    game = load_game("strict-eiffel-tower", catalog=Catalog.with_folders([tmp_path]))
    state = play(game, 7, make_agents([], game)).state
    assert game.describe_end(state)[0].startswith("lost: the waste holds 1 card, its cap, so the stock cannot be ")


def test_a_one_deck_game_says_nothing_of_copies(run_cli, tmp_path):
    """The drawing's legend names copy marks only where a deal has copies: a designer's one-deck game has none."""
    (tmp_path / "games").mkdir()
    one = (Path(__file__).parents[1] / "configs" / "games" / "eiffel-tower.yaml").read_text()
    assert "deck: {type: french, copies: 2}" in one
    one = one.replace("id: eiffel-tower", "id: one-deck").replace("copies: 2", "copies: 1")
    (tmp_path / "games" / "one-deck.yaml").write_text(one)
    lines = run_cli("--configs", str(tmp_path), "deal", "one-deck", "--seed", "1").stdout.splitlines()
    assert "(rows 1-20, line by line from the top, left to right)" in lines


def test_a_card_without_a_value_is_named(tmp_path):
    """Wizards whose ``wild: true`` a designer left out: named, and why a value is needed (it was "some of the
    suited cards have no value", the Wizards being of no suit)."""
    from cardgames.engine.validate import validate

    (tmp_path / "decks").mkdir()
    deck = (bundled_root() / "decks" / "hex-a-deck.yaml").read_text()
    assert deck.count("  wild: true\n") == 4
    (tmp_path / "decks" / "hex-a-deck.yaml").write_text(deck.replace("  wild: true\n", ""))
    errors = [str(e).split(": ", 1)[1] for e in validate([str(tmp_path)]).errors]
    assert errors[0] == ("options.match is 17 but in deck hex-a-deck card 'Wizard1' and 3 more have no value: every "
                         "card pairs by its value, save a wild one (wild: true) (its deck is "
                         + str(tmp_path / "decks" / "hex-a-deck.yaml") + ")")


def eiffel_with(tmp_path, **options) -> list[str]:
    """validate's errors for Eiffel Tower with some options of its YAML replaced (``key="old -> new"``)."""
    from cardgames.engine.validate import validate

    (tmp_path / "games").mkdir()
    text = (bundled_root() / "games" / "eiffel-tower.yaml").read_text()
    for key, change in options.items():
        old, new = change.split(" -> ")
        assert f"{key}: {old}" in text
        text = text.replace(f"{key}: {old}", f"{key}: {new}")
    (tmp_path / "games" / "eiffel-tower.yaml").write_text(text)
    return [str(e) for e in validate([str(tmp_path)]).errors]


@pytest.mark.parametrize("row_cap, waste_cap, refused", [
    ("104", "104", []), ("105", "104", ["row_cap"]), ("104", "105", ["strict_waste_cap"])])
def test_caps_as_large_as_the_deck_are_accepted(tmp_path, row_cap, waste_cap, refused):
    """``validate`` refuses a ``row_cap`` or ``strict_waste_cap`` larger than the deck (pairing.md), not one
    equal to it: a waste cap of all 104 cards is a legal (if toothless) Strict game."""
    errors = eiffel_with(tmp_path, row_cap=f"null -> {row_cap}", strict_waste_cap=f"4 -> {waste_cap}")
    assert [key for key in ("row_cap", "strict_waste_cap") if any(f"options.{key} is 105" in e for e in errors)] \
        == refused
    assert len(errors) == len(refused)


@pytest.mark.parametrize("layout, ok", [("[1, 2, 3, 4, 5, 6, 7, 8, 3]", True), ("[1, 2, 3, 4, 5, 6, 7, 8, 2]", False)])
def test_an_odd_row_cap_lets_a_row_take_its_top_class_twice(tmp_path, layout, ok):
    """A row of 3 alternates a, b, a: it takes two cards of one class (half the cap, rounded up), so each of
    Eiffel Tower's six pairs (8 cards a class) needs 6 rows, not 8, and the 7s 3: 39 rows are enough under
    a row cap of 3, 38 are not (``validate``'s room check, pairing.md)."""
    errors = eiffel_with(tmp_path, row_cap="null -> 3", layout=f"[1, 2, 3, 4, 5, 5] -> {layout}")
    if ok:
        assert errors == []
    else:
        assert len(errors) == 1 and "the pairs need 39 rows (6 pairs 6 rows each, 1 pair 3 rows)" in errors[0]
