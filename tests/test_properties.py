"""Invariants of every bundled game, over random seeds and random agents (hypothesis).

For each game (at its smallest and largest player count): no card is created or lost by any
action, every legal action applies (games of several matches or rounds are played for one there,
since every action is tried at every step), the whole game ends, the log replays to the same result,
and the same seed gives the same bytes. Every value of every interpretation switch plays a whole game
that ends and replays too.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engine.agents import make_agents
from cardgames.engine.config import Catalog
from cardgames.engine.core import play
from cardgames.engine.log import build_log, dumps, replay
from cardgames.engine.registry import load_game
from cardgames.engine.rng import SEED_MAX, Rng

SEEDS = st.integers(0, SEED_MAX)
MAX_STEPS = 20000
# A whole game's actions are many more than a round's (8-player Torqu: some 10,000 over 35-41 matches, and
# ``max_matches`` allows 200); past this many the game is taken as one that never ends.
MAX_GAME_STEPS = 200_000


# Game and player-count cases that cannot yet be played through in test time, and why. Their
# own test files cover the same invariants on reduced configs.
TOO_SLOW = {
    ("torqu", 2): "the 2-player case scores 72-card tableaux, 0.01-2 s each (median about 90 ms; issue 4's "
             "target is 50 ms), which the replays and trial moves here repeat for minutes; "
             "tests/test_torqu.py plays whole games on a 20-card tableau instead",
}


def game_cases():
    cat = Catalog()
    cases = []
    for gid in cat.ids("games"):
        players = cat.game(gid)["players"]
        for count in sorted({players["min"], players["max"]}):
            slow = TOO_SLOW.get((gid, count))
            marks = [pytest.mark.skip(reason=slow)] if slow else []
            cases.append(pytest.param(gid, count, marks=marks, id=f"{gid}-{count}p"))
    return cases


CASES = game_cases()


def one_round(state) -> bool:
    return state.rounds_played is not None and state.rounds_played >= 1


def whole_game(game, seed):
    """``game`` played out by random agents, stopped after ``MAX_GAME_STEPS`` actions (so that a game that
    never ends fails the test instead of hanging it)."""
    steps = iter(range(MAX_GAME_STEPS))
    run = play(game, seed, make_agents(["random"], game), stop=lambda state: next(steps, None) is None)
    assert run.state.is_terminal(), f"{game.id}: no end after {MAX_GAME_STEPS} actions"
    return run


@pytest.mark.parametrize("gid,players", CASES)
@settings(max_examples=6)
@given(seed=SEEDS, choice_seed=st.integers(0, 2**32))
def test_every_action_conserves_cards_and_applies(gid, players, seed, choice_seed):
    game = load_game(gid, players=players)
    state = game.new_state(seed)
    deck = sorted(range(len(game.deck)))
    assert sorted(state.all_cards()) == deck
    chooser = Rng(choice_seed, "test")
    for _ in range(MAX_STEPS):
        if state.is_terminal() or one_round(state):
            break
        actions = state.legal_actions()
        assert actions, "a game that is not over must offer an action"
        assert len(set(actions)) == len(actions), "legal actions must be distinct"
        clone = state.clone()
        for action in actions:  # every listed action applies (on copies)
            trial = clone.clone()
            trial.apply(action)
        state.apply(actions[chooser.below(len(actions))])
        assert sorted(state.all_cards()) == deck
    else:
        pytest.fail(f"{gid}: no end after {MAX_STEPS} actions")


@pytest.mark.parametrize("gid,players", CASES)
@settings(max_examples=4)
@given(seed=SEEDS)
def test_games_end_replay_and_repeat(gid, players, seed):
    """Whole games, every match or round of them (a test audit's finding: played for one round, a Turup
    whose rounds never stopped passed)."""
    game = load_game(gid, players=players)
    log = build_log(game, whole_game(game, seed))
    report = replay(log)
    assert report.result == log["result"]
    again = build_log(game, whole_game(game, seed))
    assert dumps(again) == dumps(log)


def test_agent_streams_do_not_change_the_deal():
    game = load_game("eiffel-tower")
    a = play(game, 11, make_agents(["random"], game))
    b = play(game, 11, make_agents(["greedy"], game))
    assert a.state.deal_json() == b.state.deal_json()


def option_flips():
    """Every interpretation switch of every multiplayer game (an option with named choices, or true/false)
    set to each value other than the bundled one: one case per game, option and value."""
    from cardgames.engine.registry import engine_module

    cat = Catalog()
    cases = []
    for gid in cat.ids("games"):
        spec = cat.resolve(gid)
        schema = engine_module(spec.engine).OPTIONS
        for key, field in schema.items():
            values = field.choices or ((True, False) if field.types == (bool,) else ())
            for value in values:
                if value != spec.options[key] and spec.engine != "pairing":  # pairing's one switch is Strict
                    cases.append(pytest.param(gid, key, value, id=f"{gid}-{key}-{value}"))
    return cases


@pytest.mark.parametrize("gid,key,value", option_flips())
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_every_option_value_plays_and_replays(tmp_path_factory, gid, key, value, seed):
    """A game played under any value of any switch, set as a user would (the game's file changed in a
    ``--configs`` folder), ends and replays from its log to the same result. Rare events stay rare
    here (a Towers pass, in about one random game in twenty, once failed to replay): their own tests
    replay them on chosen seeds."""
    import yaml

    from cardgames.engine.config import bundled_root

    root = tmp_path_factory.mktemp("configs")
    (root / "games").mkdir()
    config = yaml.safe_load((bundled_root() / "games" / f"{gid}.yaml").read_text())
    config["options"][key] = value
    (root / "games" / f"{gid}.yaml").write_text(yaml.safe_dump(config))
    catalog = Catalog([root, bundled_root()])
    game = load_game(gid, catalog=catalog)
    assert game.spec.options[key] == value
    log = build_log(game, whole_game(game, seed))
    assert replay(log, catalog).result == log["result"]
