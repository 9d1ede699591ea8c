"""Towers properties over random seeds, player counts, agents and options: cards and money are
conserved after every action, every legal action applies, games end, logs replay byte for byte."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from test_towers_support import towers_game

from cardgames.engine.agents import make_agents
from cardgames.engine.core import agent_rng, play
from cardgames.engine.log import build_log, dumps, replay
from cardgames.engine.registry import load_game

seeds = st.integers(0, 2**64 - 1)
players = st.integers(2, 4)
agents = st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=1)
options = st.fixed_dictionaries({
    "adjacency": st.sampled_from([8, 4]),
    "seating": st.sampled_from(["same_side", "two_sided"]),
    "no_play": st.sampled_from(["flee", "pass"]),
    "bonus_tower": st.sampled_from(["any", "same"]),
    "bonus_optional": st.booleans(),
    "first_player": st.sampled_from(["alphabetical", "seat0"]),
    "house_cut": st.sampled_from([0, 0.05, "0.125"]),
    "house_cut_from": st.sampled_from(["payee", "payer"]),
    "house_cut_on_flee": st.booleans(),
    "settlement": st.sampled_from(["net", "gross"]),
    "cache_size": st.integers(1, 6),
})


def check_conserved(state) -> None:
    assert sorted(state.all_cards()) == list(range(54))
    assert sum(state.net, Fraction(0)) + state.house == 0
    assert state.house >= 0


@given(seed=seeds, n=players, opts=options, agent=st.sampled_from(["random", "greedy"]))
def test_every_action_conserves_cards_and_money_and_games_end(seed, n, opts, agent):
    game = towers_game(n, **opts)
    state = game.new_state(seed)
    chooser = make_agents([agent], game)[0]
    rngs = [agent_rng(seed, s) for s in range(n)]
    check_conserved(state)
    history = []
    for _ in range(500):
        player = state.current_player
        if player is None:
            break
        actions = list(state.legal_actions())
        assert actions
        for action in actions:  # every legal action applies and keeps the invariants
            other = state.clone()
            other.apply(action)
            check_conserved(other)
        action = chooser.choose(state, actions, rngs[player])
        state.apply(action)
        history.append(action)
        check_conserved(state)
    assert state.current_player is None and state.legal_actions() == []
    result = state.result()
    assert sum(Fraction(v) for v in result["net"]) + Fraction(result["house"]) == 0
    assert result["moves"] == len(history)
    again = game.new_state(seed)
    for action in history:
        again.apply(action)
    assert again.result() == result


@given(seed=seeds, n=players, names=agents)
def test_logs_replay_and_are_deterministic(seed, n, names):
    game = load_game("towers", players=n)
    run = play(game, seed, make_agents(names, game))
    log = build_log(game, run)
    report = replay(log)
    assert report.result == log["result"] and report.steps == len(log["actions"])
    rerun = play(game, seed, make_agents(names, game))
    assert dumps(build_log(game, rerun)) == dumps(log)


@given(seed=seeds)
def test_clone_is_independent(seed):
    game = load_game("towers", players=3)
    state = game.new_state(seed)
    snapshot = state.snapshot()
    other = state.clone()
    while other.current_player is not None:
        other.apply(other.legal_actions()[0])
    assert state.snapshot() == snapshot
