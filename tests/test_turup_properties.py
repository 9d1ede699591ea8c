"""Turup properties over random seeds, player counts and agents: no card created or lost, every
legal action applies, every match ends, logs replay, the same seed gives the same bytes."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engine.agents import make_agents
from cardgames.engine.core import agent_rng, play
from cardgames.engine.log import build_log, dumps, replay
from cardgames.engine.registry import load_game

SEEDS = st.integers(0, 2**64 - 1)
PLAYERS = st.integers(2, 12)
AGENTS = st.sampled_from(["random", "greedy", "expert"])


@settings(max_examples=25)
@given(SEEDS, PLAYERS, AGENTS)
def test_cards_are_conserved_and_every_legal_action_applies(seed, players, agent):
    game = load_game("turup", players=players)
    deck = list(range(len(game.deck)))
    chooser = make_agents([agent], game)[0]
    rngs = [agent_rng(seed, s) for s in range(players)]
    state = game.new_state(seed)
    steps = 0
    while state.current_player is not None:
        assert sorted(state.all_cards()) == deck
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if steps % 7 == 0:  # every legal action applies (a sample of positions: cloning is slow)
            for action in legal[:12]:
                other = state.clone()
                other.apply(action)
                assert sorted(other.all_cards()) == deck
        player = state.current_player
        state.apply(chooser.choose(state, legal, rngs[player]))
        steps += 1
        assert steps < 200 * players * game.rounds, "the match does not end"
    assert sorted(state.all_cards()) == deck
    assert state.legal_actions() == [] and state.rounds_played == game.rounds
    assert len(state.deal_json()["rounds"]) == game.rounds


@settings(max_examples=15)
@given(SEEDS, PLAYERS, AGENTS)
def test_whole_matches_replay_and_are_deterministic(seed, players, agent):
    game = load_game("turup", players=players)
    seats = ([agent, "random"] * 6)[:players]
    run = play(game, seed, make_agents(seats, game))
    log = build_log(game, run)
    data = orjson.loads(dumps(log))  # through JSON, as a file would be
    report = replay(data)
    assert report.result == log["result"] and report.steps == len(run.history)
    again = play(game, seed, make_agents(seats, game))
    assert dumps(build_log(game, again)) == dumps(log)


@settings(max_examples=10)
@given(SEEDS, st.integers(1, 3))
def test_stopped_matches_replay(seed, rounds):
    game = load_game("turup", players=4)
    run = play(game, seed, make_agents(["random"], game), stop=lambda s: s.rounds_played >= rounds)
    assert run.state.rounds_played == rounds
    report = replay(orjson.loads(dumps(build_log(game, run))))
    assert report.result["rounds"] == rounds
