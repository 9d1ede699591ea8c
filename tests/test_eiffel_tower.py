"""Eiffel Tower's rules (seed 004 and PySolFC's layout), each from a small worked position."""

from __future__ import annotations

import pytest

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.errors import IllegalActionError
from cardgames.engine.games.pairing.rules import TURN, PairingState, Play
from cardgames.engine.registry import load_game


@pytest.fixture(scope="module")
def eiffel():
    return load_game("eiffel-tower")


@pytest.fixture(scope="module")
def strict():
    return load_game("strict-eiffel-tower")


def position(game, rows: list[str], waste: str, stock: list[str]) -> PairingState:
    """A hand-made position: 20 row cards, the waste card, then the stock (next card first).

    Only the named cards take part, so a short stock really is short.
    """
    return PairingState(game, game.deck.codes(rows + [waste] + stock))


# Row tops chosen so that no 6, 7 or 8 can ever be played (no 8, 7 or 6 on a row).
ROWS = "3D 5H JC KH 5S 5H#2 KC KC#2 2D JD AS 2C 4C 4H TC 2S 4S JS QC 4D".split()


def test_deal_shape(eiffel):
    state = eiffel.new_state(7)
    assert eiffel.layout == (1, 2, 3, 4, 5, 5)
    assert len(state.rows) == 20 and all(len(r) == 1 for r in state.rows)
    assert len(state.waste) == 1 and len(state.stock) == 83


@pytest.mark.parametrize("waste,row_card", [("9S", "5H"), ("KD", "AS"), ("QH", "2C"), ("JH", "3D"),
                                            ("TH", "4H"), ("7C", "7D"), ("AH", "KC")])
def test_values_sum_to_14_suits_ignored(eiffel, waste, row_card):
    rows = [row_card] + [c for c in ROWS if c != row_card][:19]
    state = position(eiffel, rows, waste, [])
    assert Play(0) in state.legal_actions()


def test_cards_that_do_not_sum_to_14_cannot_be_played(eiffel):
    state = position(eiffel, ["6S"] + ROWS[:19], "6D", [])
    assert Play(0) not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(Play(0))


def test_top_card_decides_and_rows_have_no_height_limit(eiffel):
    stock = ["3C", "JC#2", "3H", "JD#2", "3S", "JS#2"]
    state = position(eiffel, ROWS, "JH", stock)
    state.apply(Play(0))  # JH on 3D
    for _ in stock:
        state.apply(TURN)
        assert state.legal_actions()[0] == Play(0)  # a 3 goes on the J, a J on the 3: row 0 again
        state.apply(Play(0))
    assert len(state.rows[0]) == 8
    assert state.won()


def test_play_moves_the_waste_top_and_reveals_the_next(eiffel):
    state = position(eiffel, ROWS, "QS", ["9C"])
    assert state.legal_actions() == [Play(8), Play(11), Play(15), TURN]  # the 2s; then turning
    state.apply(TURN)
    assert state.legal_actions() == [Play(1), Play(4), Play(5)]  # 9C on a 5; stock empty: no turn
    state.apply(Play(1))
    assert eiffel.deck.name(state.waste[-1]) == "QS"
    assert eiffel.deck.name(state.rows[1][-1]) == "9C"
    assert state.legal_actions() == [Play(8), Play(11), Play(15)]


def test_won_when_stock_and_waste_are_empty(eiffel):
    state = position(eiffel, ROWS, "JH", ["9C"])
    state.apply(Play(0))
    assert state.legal_actions() == [TURN]
    state.apply(TURN)
    state.apply(Play(1))
    assert state.is_terminal() and state.won()
    assert state.result() == {"won": True, "cards_left": 0, "plays": 2, "turns": 1}
    assert state.returns() == [1.0]


def test_lost_when_no_move_remains_and_no_redeal(eiffel):
    state = position(eiffel, ROWS, "6S", ["6D"])
    assert state.legal_actions() == [TURN]
    state.apply(TURN)
    assert state.legal_actions() == []
    assert state.current_player is None
    assert state.result() == {"won": False, "cards_left": 2, "plays": 0, "turns": 1}
    assert state.returns() == [0.0]


def test_one_card_left_on_the_waste_is_a_loss(eiffel):
    """Won only when stock and waste are both empty (seed 004): a last card left on the waste that fits
    no row is a lost game, not a win one card short."""
    state = position(eiffel, ROWS, "6S", [])
    assert state.legal_actions() == []
    assert state.is_terminal() and not state.won()
    assert state.result() == {"won": False, "cards_left": 1, "plays": 0, "turns": 0}
    assert state.returns() == [0.0]


def test_strict_caps_the_waste_at_four(strict):
    assert strict.waste_cap == 4
    state = position(strict, ROWS, "6S", ["7D", "7C", "7H", "8H"])
    for _ in range(2):
        state.apply(TURN)
    assert TURN in state.legal_actions()  # three cards: may turn
    state.apply(TURN)
    assert len(state.waste) == 4
    assert state.legal_actions() == []  # full waste and 7H cannot be played: lost
    assert state.result()["cards_left"] == 5


def test_plain_eiffel_has_no_waste_cap(eiffel):
    state = position(eiffel, ROWS, "6S", ["7D", "7C", "7H", "8H"])
    for _ in range(4):
        state.apply(TURN)
    assert len(state.waste) == 5


def test_greedy_plays_whenever_it_can(eiffel):
    run = play(eiffel, 7, make_agents(["greedy"], eiffel))
    state = eiffel.new_state(7)
    for _, action in run.history:
        plays = [a for a in state.legal_actions() if a != TURN]
        assert (action != TURN) == bool(plays)
        state.apply(action)


def test_card_texts_are_readable(eiffel):
    state = position(eiffel, ROWS, "QS", ["9C"])
    assert eiffel.describe_action(state, TURN) == "turn 9C onto the waste"
    state.apply(TURN)
    assert eiffel.describe_action(state, Play(1)) == "play 9C onto row 2 (on 5H)"
    text = eiffel.render_deal(eiffel.new_state(1).deal_json())
    assert text.splitlines()[0].strip() and "stock: 83 cards" in text
    # the seed's tower, each line centred over the widest (cells of the widest name and two spaces)
    assert text.splitlines()[:6] == ["             3H#2", "           KS    2D", "       7S#2   TS    3S",
                                     "    8C#2   2H    QD   6C#2", "  AS   4S#2   4C    7D    TH",
                                     "  AD    4H   JD#2  7D#2  6H#2"]
