"""Torqu rules: the deal table, exposure, turns, the board, the variants, whole games and replay."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engine.agents import make_agents
from cardgames.engine.config import Catalog, bundled_root
from cardgames.engine.core import play
from cardgames.engine.errors import CardgamesError, IllegalActionError
from cardgames.engine.games.torqu.board import move_stones, spaces_for
from cardgames.engine.games.torqu.layout import Tableau
from cardgames.engine.games.torqu.rules import END_TURN, Draw, EndTurn, Lay
from cardgames.engine.log import build_log, dumps, replay
from cardgames.engine.registry import load_game

DEAL_TABLE = {2: (8, 16, 8, 8), 3: (5, 17, 8, 8), 4: (4, 16, 8, 8), 5: (4, 12, 8, 8), 6: (4, 16, 8, 7),
              7: (4, 12, 8, 7), 8: (4, 16, 7, 7)}


def with_options(variants: tuple, players: int, **options):
    """Torqu for ``players`` with ``variants`` and some options changed (no config file written)."""
    base = load_game("torqu", variants, players)
    return type(base)(dataclasses.replace(base.spec, options={**base.spec.options, **options}))


@pytest.mark.parametrize("players", sorted(DEAL_TABLE))
def test_the_deal_table(players):
    game = load_game("torqu", (), players)
    state = game.new_state(3)
    deal = game.current_deal(state)
    hand, center, primary, secondary = DEAL_TABLE[players]
    assert set(deal) == {"hands", "center", "primaries", "secondaries"}
    assert [len(h) for h in deal["hands"]] == [hand] * players
    assert len(deal["center"]) == center
    assert [len(s) for s in deal["primaries"]] == [primary] * 8
    assert [len(s) for s in deal["secondaries"]] == [secondary] * 8
    stacks = deal["primaries"] + deal["secondaries"]
    every = [c for h in deal["hands"] for c in h] + deal["center"] + [c for stack in stacks for c in stack]
    assert sorted(every) == sorted(game.deck.names)
    assert len(state.center.exposed()) == 9


def test_validate_facts_cover_every_player_count(run_cli):
    import json

    assert json.loads(run_cli("validate", "--format", "json").stdout)["facts"] == []  # asked for with --facts
    result = run_cli("validate", "--facts", "--format", "json")
    assert result.exit_code == 0
    facts = [f for f in json.loads(result.stdout)["facts"] if f["game"] == "torqu" and not f["variants"]]
    # the deck's cards beside those dealt, under the name every engine gives them (the CI author's walkthrough)
    assert {f["players"]: (f["cards"], f["dealt"], f["exposed"]) for f in facts} == {n: (160, 160, 9)
                                                                                      for n in range(2, 9)}


def test_validate_rejects_a_deck_the_scorer_cannot_count(tmp_path):
    """The scorer packs each number's count into 4 bits: two copies of the deck (20 cards of each
    number) are refused by ``check_config``, with the reason."""
    from cardgames.engine.games.torqu.rules import check_config

    data = yaml.safe_load((bundled_root() / "games" / "torqu.yaml").read_text())
    data["deck"]["copies"] = 2
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "torqu.yaml").write_text(yaml.safe_dump(data))
    spec = Catalog([tmp_path, bundled_root()]).resolve("torqu", (), 4)
    assert (("deck",), "deck torqu: the scorer handles up to 15 cards of one number, not 20") in check_config(spec)
    assert not check_config(Catalog().resolve("torqu", (), 4))


def test_the_scorer_refuses_numbers_it_cannot_pack_when_called_directly():
    """``check_config`` refuses such decks first; a script calling the scorer is told too, not numpy's error:
    a number 0 has no place in the packed counts, and 16 cards of one number overflow its 4 bits."""
    from cardgames.engine.games.torqu.optimise import pack_value
    from cardgames.engine.games.torqu.sets import Ident, Pictures

    points = load_game("torqu", (), 4).scorer.points
    zero = [Ident(0, 0, (1,))]
    with pytest.raises(CardgamesError, match="Torqu scoring: the scorer handles numbers from 1 to 16, not 0"):
        pack_value(zero, [], points, 1, 4, Pictures({1: tuple(zero)}))
    many = [Ident(suit, 5, (1,)) for suit in range(16)]
    with pytest.raises(CardgamesError, match="the scorer handles up to 15 cards of one number, not 16"):
        pack_value(many, [], points, 1, 16, Pictures({1: tuple(many)}))


@pytest.mark.parametrize("value", [-15, 0])
def test_validate_rejects_a_number_outside_the_scorers_range(run_cli, tmp_path, value):
    """A deck numbering a rank -15 (a fuzzer's) passed validate, then every game and ``score`` ended in
    numpy's traceback; 0 has no place in the packed counts either. Refused, at the game's deck line."""
    deck = (bundled_root() / "decks" / "torqu.yaml").read_text()
    assert '{id: "15", value: 15}' in deck
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "odd.yaml").write_text(
        deck.replace("id: torqu\n", "id: odd\n").replace('{id: "15", value: 15}', f'{{id: "15", value: {value}}}'))
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "odd-torqu.yaml").write_text(
        (bundled_root() / "games" / "torqu.yaml").read_text().replace("id: torqu\n", "id: odd-torqu\n")
        .replace("type: torqu", "type: odd"))
    result = run_cli("--configs", str(tmp_path), "score", "odd-torqu", "--cards", "Air-15,Air-14")
    assert result.exit_code == 1 and f"the scorer handles numbers from 1 to 16, not {value}" in result.stderr
    # the one finding: the points' room follows the numbers, so it is not said beside them ("up to -2^48 points")
    (tmp_path / "decks" / "odd.yaml").write_text(
        deck.replace("id: torqu\n", "id: odd\n").replace('{id: "16", value: 16}', '{id: "16", value: 1099511627776}'))
    report = run_cli("--configs", str(tmp_path), "validate", str(tmp_path))
    assert "not 1099511627776" in report.stdout and "options.points" not in report.stdout


def test_a_deck_of_three_suits_with_wild_cards_is_refused(tmp_path):
    """The number side lets a wild card fill any member of a Fifteen, Straight or Four of a Kind,
    which a deck of three suits cannot always give: three 5s and a Mirror would score a Four of a
    Kind of 5s that no fourth card can make (the number side valued it 78 where nothing is a set).
    So ``check_config`` refuses wild cards on such a deck, and the scorer refuses to score them; four
    suits, or no wild cards, pass, as do flush kinds worth exactly their plain kinds."""
    from cardgames.engine.games.torqu.optimise import fits_number_kinds, fits_wild_cards, pack_value
    from cardgames.engine.games.torqu.rules import check_config
    from cardgames.engine.games.torqu.sets import Ident, Pictures

    deck = yaml.safe_load((bundled_root() / "decks" / "torqu.yaml").read_text())
    deck["suits"] = [s for s in deck["suits"] if s["id"] in ("Air", "Earth", "Magic")]
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "torqu.yaml").write_text(yaml.safe_dump(deck))
    spec = Catalog([tmp_path, bundled_root()]).resolve("torqu", (), 4)
    assert (("deck",), "deck torqu: the scorer needs at least 4 suits for wild cards, not 3") in check_config(spec)

    fives = [Ident(suit, 5, (4 * suit + 1,)) for suit in range(3)]
    members = Pictures({4 * suit + 1: (fives[suit],) for suit in range(3)})
    points = load_game("torqu", (), 4).scorer.points
    with pytest.raises(CardgamesError, match="at least 4 suits for wild cards, not 3"):
        pack_value(fives, [13], points, 1, 3, members)
    assert pack_value(fives, [], points, 1, 3, members) == 0  # no wild card: nothing to refuse, and no set
    assert fits_wild_cards(4, True) is None and fits_wild_cards(3, False) is None
    # the bounds are inclusive: a flush kind worth just as much as its plain kind is still a special worth no less
    assert fits_number_kinds(points._replace(fifteen_flush=points.fifteen, straight_flush=points.straight)) is None


@pytest.mark.parametrize("old, new, key, message", [
    # a table slot holds a value in 24 signed bits: points that could overflow it for the largest
    # tableau and hand (80 cards) are refused at the points mapping's first line
    ("    perfect_four: 300\n", "    perfect_four: 200000\n", "    perfect_four:",
     "options.points: the scorer handles a set worth up to 104571 points for 80 cards, not 200000"),
    # the number side counts four numbers summing to 15 as a Fifteen whatever their suits: a Fifteen
    # Flush worth less would be overstated, so such points are refused at the key at fault
    ("    fifteen_flush: 180\n", "    fifteen_flush: 100\n", "    fifteen_flush:",
     "options.points.fifteen_flush: the scorer needs a Fifteen Flush worth at least a Fifteen, not 100 against 120"),
    ("    straight: 30\n", "    straight: 61\n", "    straight_flush:",
     "options.points.straight_flush: the scorer needs a Straight Flush worth at least a Straight, not 60 against 61"),
    # a list item's error is at the item's own line (a block list, so that it has a line of its own)
    ("  wild_cards: [Magic-13, Magic-14, Magic-15, Magic-16]\n",
     "  wild_cards:\n  - Magic-13\n  - Magic-14\n  - Magic-17\n  - Magic-16\n", "  - Magic-17",
     "options.wild_cards: no card 'Magic-17' in deck torqu"),
])
def test_validate_rejects_an_option_at_its_own_line(tmp_path, run_cli, old, new, key, message):
    """The engine's checks name the key they are about, so validate points at that key's line."""
    text = (bundled_root() / "games" / "torqu.yaml").read_text()
    assert old in text
    (tmp_path / "games").mkdir()
    written = text.replace(old, new)
    (tmp_path / "games" / "torqu.yaml").write_text(written)
    result = run_cli("--configs", str(tmp_path), "validate")
    assert result.exit_code == 1
    line = written[:written.index(key)].count("\n") + 1
    assert f"torqu.yaml:{line}: {message}" in result.output


def test_a_table_slot_round_trips_extreme_values():
    """The slot's second word packs value and bound (24 signed bits each), the pick and the wild
    cards free: each reads back as stored, at both ends of the range."""
    import numpy as np

    from cardgames.engine.games.torqu import kernels
    from cardgames.engine.games.torqu.optimise import VALUE_BITS

    top = (1 << (VALUE_BITS - 1)) - 1
    x = np.uint64(2 ** 64 - 1)  # every number's field full
    for value, bound, pick, j in [(top, -top - 1, kernels.NO_PICK, 0), (-top - 1, top, 158, 240),
                                  (-1, 0, kernels.FOUR_WILDS, 3)]:
        tab = np.zeros((8, 2), np.int64)
        i = kernels._slot(tab, x, j)
        kernels._store(tab, i, x, j, value, pick, bound)
        assert kernels._slot(tab, x, j) == i and kernels._slot(tab, x, j + 1) != i
        assert (kernels._value(tab, i), kernels._bound(tab, i), kernels._pick(tab, i)) == (value, bound, pick)


def test_exposure_geometry():
    t = Tableau.dealt(list(range(16 + 64 + 64)), 16, 8, 8)
    assert sorted(t.exposed()) == sorted([15] + [16 + 64 + 8 * i + 7 for i in range(8)])
    # Empty secondary 0 (across N and NE): neither N nor NE is exposed yet (7 and 1 still cover them).
    t.secondaries[0].clear()
    assert all(t.primaries[p][-1] not in t.exposed() for p in (0, 1))
    assert not any(t.take(t.primaries[p][-1]) for p in (0, 1))  # N is still under NW-N (7), NE under NE-E (1)
    t.secondaries[7].clear()  # now N (primary 0) has both its secondaries (7 and 0) empty
    assert t.primaries[0][-1] in t.exposed() and t.primaries[1][-1] not in t.exposed()
    t.secondaries[1].clear()
    assert t.primaries[1][-1] in t.exposed()


def test_personal_tableau_fills_centre_then_primaries_then_secondaries():
    """Laid in order, each stack named as the narration names where a card goes (a designer could not follow the
    order by hand): the centre, primaries N..NW, then secondaries, each across two primaries."""
    t = Tableau((4, 2, 2))
    places = []
    for card in range(36):
        places.append(t.next_place())
        t.lay(card)
    assert t.center == [0, 1, 2, 3] and t.primaries[0] == [4, 5] and t.secondaries[7] == [34, 35]
    assert not t.room() and t.next_place() is None
    assert places[:8] == ["centre stack"] * 4 + ["N primary"] * 2 + ["NE primary"] * 2
    assert places[18:22] == ["NW primary"] * 2 + ["N-NE secondary"] * 2 and places[34:] == ["NW-N secondary"] * 2


def test_each_stack_kind_keeps_its_own_capacity():
    """The option ``tableau`` gives the centre, the primaries and the secondaries each their own capacity: a
    secondary holds its own number of cards, not a primary's (the shipped rows give both the same)."""
    t = Tableau((3, 2, 1))
    for card in range(3 + 8 * 2 + 8 * 1):
        t.lay(card)
    assert t.center == [0, 1, 2] and t.primaries[7] == [17, 18]
    assert [len(s) for s in t.secondaries] == [1] * 8 and t.secondaries[0] == [19]
    assert not t.room() and t.next_place() is None


def test_a_card_taken_from_a_personal_tableau_is_refilled_first():
    """Death takes exposed cards from personal tableaus; the next card laid fills the first
    stack with room again, in laying order, however full the later stacks are."""
    t = Tableau((4, 2, 2))
    for card in range(36):
        t.lay(card)
    assert not t.take(5)  # the top of N, covered by NW-N and N-NE
    assert t.take(35)
    t.lay(100)
    assert t.secondaries[7] == [34, 100] and not t.room()
    assert t.take(3)
    t.lay(101)
    assert t.center == [0, 1, 2, 101] and not t.room()
    assert t.take(20) is False and t.take(21)  # the top of secondary 0 (N-NE), an earlier stack than the last laid
    t.lay(102)
    assert t.secondaries[0] == [20, 102] and not t.room()
    t = Tableau((4, 2, 2))
    for card in range(20):  # the centre and every primary full, no secondary yet: all exposed
        t.lay(card)
    assert t.take(5)
    t.lay(200)
    assert t.primaries[0] == [4, 200] and t.secondaries[0] == []
    t.lay(201)
    assert t.secondaries[0] == [201]


def test_a_copied_personal_tableau_keeps_its_capacity():
    """A state's clone copies its tableaus: the copy lays on, in laying order, under the same capacity, and
    the original is left as it was."""
    t = Tableau((4, 2, 2))
    for card in range(34):
        t.lay(card)
    copy = t.copy()
    copy.lay(100)
    copy.lay(101)
    assert copy.secondaries[6] == [32, 33] and copy.secondaries[7] == [100, 101] and not copy.room()
    assert t.secondaries[7] == [] and t.room()


def test_board_movement_rounding():
    assert [spaces_for(s, 100) for s in (150, 149, 99, 100, -99, -100, -150, 0)] == [2, 1, 0, 1, 0, -1, -2, 0]


def test_board_collisions_and_moving_back():
    # seat 1 scores more and moves first to 7; seat 0's target 7 is taken: it stops on 6.
    assert move_stones([5, 3], [200, 400], [0, 1], 100, 72, "step_back") == [6, 7]
    # ties: the given seat order decides who moves first.
    assert move_stones([0, 0], [300, 300], [1, 0], 100, 72, "step_back") == [2, 3]
    # moving back never goes below 0, where any number of stones fit.
    assert move_stones([2, 0], [-500, 0], [0, 1], 100, 72, "step_back") == [0, 0]
    assert move_stones([70, 72], [-250, 0], [0, 1], 100, 72, "step_back") == [67, 72]  # -2.5 rounds to -3
    assert move_stones([71, 0], [900, 0], [0, 1], 100, 72, "step_back") == [72, 0]


def test_a_stone_still_to_move_blocks_nobody():
    """Seat 1 (500) moves first, from 5 to 10, where seat 0 (200) stands until its own move to 12:
    seat 0 leaves that space, so seat 1 takes it under either option. (Blocked by it, seat 1 would
    stop on 9 and end behind the stone that scored less, against the seed's rule.)"""
    for collision in ("step_back", "lower_steps_back"):
        assert move_stones([10, 5], [200, 500], [0, 1], 100, 72, collision) == [12, 10]
    # seat 0 (200) lands on 4, which seat 1 (-150) then leaves for 2
    assert move_stones([2, 4], [200, -150], [0, 1], 100, 72, "step_back") == [4, 2]
    # a stone that does not move this match (0 points) does hold its space
    assert move_stones([10, 5], [0, 500], [0, 1], 100, 72, "step_back") == [10, 9]


def test_board_collisions_the_lower_score_steps_back():
    """``collision: lower_steps_back``: seat 1 (200) lands on seat 0 (50, not moving): seat 0 steps back,
    past seat 2 on 6 to 5; under ``step_back`` seat 1 stops on 5 itself. A tie, or an occupant who scored
    more, leaves the mover to step back as before."""
    assert move_stones([7, 5, 6], [50, 200, 0], [0, 1, 2], 100, 72, "lower_steps_back") == [5, 7, 6]
    assert move_stones([7, 5, 6], [50, 200, 0], [0, 1, 2], 100, 72, "step_back") == [7, 5, 6]
    assert move_stones([0, 0], [300, 300], [1, 0], 100, 72, "lower_steps_back") == [2, 3]
    assert move_stones([5, 3], [200, 400], [0, 1], 100, 72, "lower_steps_back") == [6, 7]
    # the one it lands on (0 points, not moving) is pushed back past the stones that hold 7 and 6 to 5,
    # which the mover has left
    assert move_stones([5, 8, 7, 6], [300, 0, 0, 0], [0, 1, 2, 3], 100, 72, "lower_steps_back") == [8, 5, 7, 6]


def test_a_turn_draw_then_lay_then_end():
    game = load_game("torqu", (), 4)
    state = game.new_state(5)
    assert state.current_player == 0
    draws = state.legal_actions()
    assert draws and all(type(a) is Draw for a in draws)
    for d in draws:
        a, b = (game.deck.by_name[n] for n in d.cards)
        assert a.suit == b.suit or abs(a.value - b.value) <= 1
    state.apply(draws[0])
    actions = state.legal_actions()
    assert type(actions[-1]) is EndTurn and all(type(a) is Lay for a in actions[:-1])
    assert len(actions) == 4 + 2 + 1
    state.apply(actions[0])
    assert len(state.tableaus[0].cards()) == 1
    state.apply(EndTurn())
    assert state.current_player == 1 and type(state.legal_actions()[0]) is Draw
    with pytest.raises(IllegalActionError):
        state.apply(Lay("Air-1"))


@pytest.mark.parametrize("hand, best", [
    (["Water-1", "Water-2"], ("Water-3", "Water-4")),  # a Perfect Four with the hand's cards of its suit
    (["Air-7", "Fire-7", "Earth-7"], ("Water-7", "Water-8")),  # a Four of a Kind with the hand's cards of its number
    # what a pair adds, not what it joins: Water-15 and 16 with this Perfect Four make 269 points, but cost 31
    (["Water-5", "Water-6", "Water-7", "Water-8"], ("Air-1", "Air-2")),
])
def test_greedy_draws_the_pair_that_adds_most_to_what_it_holds(hand, best):
    """docs/rules/torqu.md: greedy draws the pair that adds most to an exact arrangement of the cards it holds
    sharing a suit or a number with it, whatever the order of the draws; then it lays its first hand card."""
    game = load_game("torqu", (), 4)
    state = game.new_state(5)
    seat = state.current_player
    state.hands[seat] = [game.deck.by_name[name].code for name in hand]
    greedy = make_agents(["greedy"], game)[seat]
    draws = [Draw(("Plant-2", "Plant-3")), Draw(best), Draw(("Water-16", "Water-15"))]
    assert greedy.choose(state, draws, None) == greedy.choose(state, draws[::-1], None) == Draw(best)
    assert greedy.choose(state, [Lay(hand[1]), Lay(hand[0]), END_TURN], None) == Lay(hand[1])


def test_a_pair_is_one_suit_one_number_or_neighbouring_numbers():
    """The seed: "two cards of the same suit, the same number or a consecutive number"."""
    game = load_game("torqu", (), 4)
    code = game.deck.code

    def pair(a: str, b: str) -> bool:
        return code(b) in game.partner[code(a)] and code(a) in game.partner[code(b)]

    assert pair("Air-1", "Air-9")  # one suit, numbers far apart and in different pictures
    assert pair("Air-5", "Fire-5") and pair("Air-5", "Fire-6") and pair("Air-5", "Fire-4")
    assert not pair("Air-5", "Fire-7") and not pair("Air-5", "Fire-3")


def test_hands_are_dealt_one_card_at_a_time_from_the_dealers_left():
    game = load_game("torqu", (), 3)
    state = game.new_state(5)
    top_first = game.shuffled(5)[::-1]  # games deal from the shuffled list's end
    dealt = [(state.dealer + 1 + i) % 3 for i in range(6)]
    assert [state.hands[seat][i // 3] for i, seat in enumerate(dealt)] == top_first[:6]


def test_a_turn_ends_by_itself_once_the_hand_is_laid_out():
    game = load_game("torqu", (), 4)
    state = game.new_state(5)
    state.hands[0].clear()  # test surgery: the drawn pair will be the whole hand
    state.apply(state.legal_actions()[0])
    for lay in [a for a in state.legal_actions() if type(a) is Lay]:
        state.apply(lay)
    assert state.current_player == 1 and all(type(a) is Draw for a in state.legal_actions())
    assert state.moves == 3  # the draw and two lays: no EndTurn


@pytest.mark.parametrize("first_player, dealer, positions", [(0, 2, [13, 0, 12]), (2, 1, [12, 0, 13])])
def test_tied_stones_move_in_seat_order_from_the_dealers_left(monkeypatch, first_player, dealer, positions):
    """Seats 0 and 2 score 300 alike from space 10 and aim at space 13: the one first from the
    dealer's left moves first and takes it, the other steps back to 12. With dealer 2 that is seat 0;
    with dealer 1 (``first_player: 2``) seat 2, so the order is not seat order from seat 0."""
    game = with_options((), 3, first_player=first_player)
    state = game.new_state(5)
    assert state.dealer == dealer
    state.positions = [10, 0, 10]
    values = iter([300, 0, 300])
    monkeypatch.setattr(game.scorer, "tableau_value", lambda cards: next(values))
    monkeypatch.setattr(game.scorer, "hand_value", lambda cards: 0)
    monkeypatch.setattr(type(state), "_deal", lambda self: None)  # the next match is not needed
    state._end_match()
    assert state.positions == positions


@pytest.mark.parametrize("per_space, positions", [(100, [13, 0, 12]), (50, [16, 0, 13]), (250, [11, 0, 10])])
def test_points_per_space_sets_how_far_a_match_score_moves(monkeypatch, per_space, positions):
    """``points_per_space`` reaches the board (a test audit found no test naming it): seats 0 and 2 score 300
    and 150 from space 10, which is 3 and 2 spaces at 100 points a space (the seed's), 6 and 3 at 50, 1 and
    none at 250 (a score short of one space's points does not move a stone)."""
    game = with_options((), 3, points_per_space=per_space)
    state = game.new_state(5)
    state.positions = [10, 0, 10]
    values = iter([300, 0, 150])
    monkeypatch.setattr(game.scorer, "tableau_value", lambda cards: next(values))
    monkeypatch.setattr(game.scorer, "hand_value", lambda cards: 0)
    monkeypatch.setattr(type(state), "_deal", lambda self: None)  # the next match is not needed
    state._end_match()
    assert state.positions == positions


def test_no_wrap_from_16_to_1():
    game = load_game("torqu", (), 4)
    a, b = game.deck.code("Air-16"), game.deck.code("Earth-1")
    assert b not in game.partner[a]
    assert game.deck.code("Earth-15") in game.partner[a]


def test_dragons_pair_by_picture():
    plain, dragons = load_game("torqu", (), 4), load_game("torqu", ("dragons",), 4)
    rain_dragon, rain = plain.deck.code("Dragon-9"), plain.deck.code("Water-2")
    assert rain not in plain.partner[rain_dragon] and rain in dragons.partner[rain_dragon]


def test_partners_share_a_tableau_and_a_stone():
    game = load_game("torqu", ("partners",), 4)
    assert [game.owner(s) for s in range(4)] == [0, 1, 0, 1]
    state = game.new_state(1)
    assert len(state.tableaus) == 2 and len(state.positions) == 2
    with pytest.raises(CardgamesError, match="even number"):
        load_game("torqu", ("partners",), 3)
    with pytest.raises(CardgamesError, match="even number"):
        load_game("torqu", ("partners",), 2)


@pytest.mark.parametrize("times", ["once", "each"])
def test_partners_total_their_points(times):
    """The seed: "their points are totalled together". A team's match score is its tableau's
    score (once, or once for each partner: ``partners_tableau``) less both hand penalties."""
    game = with_options(("partners",), 4, partners_tableau=times)
    state = play(game, 3, make_agents(["random"] * 4, game)).state
    factor = {"once": 1, "each": 2}[times]
    for scores, details in zip(state.match_scores, state.match_details, strict=True):
        hands = details["hand_penalties"]
        for team in (0, 1):
            total = factor * details["tableau_scores"][team] - hands[team] - hands[team + 2]
            assert scores[team] == scores[team + 2] == total


def test_death_draws_second_card_from_other_tableaus():
    game = load_game("torqu", ("death",), 4)
    state = game.new_state(2)
    # Give seat 1 a tableau card that pairs with an exposed centre card.
    centre = state.center.exposed()[0]
    mate = next(c for c in sorted(game.partner[centre]) if c in state.hands[1])if any(
        c in state.hands[1] for c in game.partner[centre]) else None
    if mate is None:
        mate = state.hands[1][0]
        state.hands[1].remove(mate)
        state.tableaus[1].lay(mate)
    else:
        state.hands[1].remove(mate)
        state.tableaus[1].lay(mate)
    state._legal = None
    names = game.deck.names
    pairs = [d.cards for d in state.legal_actions()]
    from_tableau = [p for p in pairs if p[1] == names[mate]]
    assert all(p[0] in {names[c] for c in state.center.exposed()} for p in pairs)
    if mate in game.partner[centre]:
        assert (names[centre], names[mate]) in from_tableau
    # the owner never draws from their own tableau
    state._current = 1
    state._legal = None
    assert all(p[1] != names[mate] for p in (d.cards for d in state.legal_actions()))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_death_draws_take_their_first_card_from_the_centre_all_match_long(seed):
    """Deep into a Death match, with tableaus built, every draw still takes its first card from the centre: a
    mutant pairing two tableau cards was caught only by a whole game running past the hang guard."""
    game = load_game("torqu", ("death",), 3)
    state, choices, names = game.new_state(seed), random.Random(seed), game.deck.names
    for _ in range(120):
        if state.is_terminal():
            break
        centre = {names[c] for c in state.center.exposed()}
        legal = state.legal_actions()
        assert all(a.cards[0] in centre for a in legal if type(a) is Draw)
        state.apply(choices.choice(legal))


def test_death_with_partners_draws_only_from_the_other_teams_tableau():
    """The partner's tableau is the drawer's own (docs/rules/torqu.md, death): a card laid there
    is a second card for the other team, never for either partner."""
    game = load_game("torqu", ("death", "partners"), 4)
    state = game.new_state(2)
    centre, mate = next((c, m) for c in sorted(state.center.exposed()) for m in sorted(state.hands[0])
                        if m in game.partner[c])
    state.hands[0].remove(mate)
    state.tableaus[game.owner(0)].lay(mate)
    names = game.deck.names
    for seat, offered in ((0, False), (2, False), (1, True), (3, True)):
        state._current, state._legal = seat, None
        assert ((names[centre], names[mate]) in [d.cards for d in state.legal_actions()]) is offered, seat


# -- whole games, on a short board with small tableaus so that they run quickly ---------------

@pytest.fixture(scope="module")
def short_catalog(tmp_path_factory) -> Catalog:
    root = tmp_path_factory.mktemp("configs")
    data = yaml.safe_load((bundled_root() / "games" / "torqu.yaml").read_text())
    data["options"]["board_end"] = 6
    data["options"]["max_matches"] = 3  # 20-card tableaus: scoring stays in milliseconds
    data["options"]["tableau"] = {n: {"center": 4, "primary": 1, "secondary": 1} for n in range(2, 9)}
    (root / "games").mkdir()
    (root / "games" / "torqu.yaml").write_text(yaml.safe_dump(data))
    return Catalog([Path(root), bundled_root()])


@settings(max_examples=12)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 8),
       variant=st.sampled_from([(), ("death",), ("dragons",), ("partners",), ("death", "dragons")]))
def test_whole_games_keep_every_card_and_replay(short_catalog, seed, players, variant):
    if "partners" in variant:
        players = 6 if players < 7 else 8  # small shared tableaus keep hands (and scoring) small
    game = load_game("torqu", variant, players, short_catalog)
    state = game.new_state(seed)
    agents = make_agents(["random"], game)
    from cardgames.engine.core import agent_rng

    rngs = [agent_rng(seed, s) for s in range(players)]
    history = []
    for _ in range(20000):
        if state.current_player is None:
            break
        assert sorted(state.all_cards()) == list(range(160))
        seat = state.current_player
        action = agents[seat].choose(state, state.legal_actions(), rngs[seat])
        state.apply(action)
        history.append((seat, action))
    assert state.current_player is None
    result = state.result()
    assert 1 <= result["matches"] <= 3 and result["winners"]
    assert result["finished"] == (max(result["positions"]) == 6)
    run = play(game, seed, agents)
    log = build_log(game, run)
    assert [a for _, a in run.history] == [a for _, a in history]
    assert replay(log, short_catalog).result == result
    assert dumps(build_log(game, play(game, seed, make_agents(["random"], game)))) == dumps(log)


def test_a_game_stopped_early_names_its_leaders(short_catalog):
    """Stopped after one match as ``simulate --matches 1`` stops it, a game names the stones
    furthest along as its winners, as one ended by ``max_matches`` does (the whole-games test
    above); ``--matches`` used to name none."""
    game = load_game("torqu", (), 4, short_catalog)
    stopped = play(game, 3, make_agents(["random"], game), stop=lambda state: state.rounds_played >= 1)
    result = stopped.state.result()
    assert result["matches"] == 1 and not result["finished"]
    best = max(result["positions"])
    assert result["winners"] == [s for s in range(4) if result["positions"][s] == best]


def test_every_legal_action_applies(short_catalog):
    """Every action listed applies and keeps every card, Death's draws from other players'
    tableaux included (the walk lays its cards, so that the tableaux fill and offer them)."""
    game = load_game("torqu", ("death",), 5, short_catalog)
    state = game.new_state(11)
    chooser = random.Random(11)
    from_tableaux = 0
    for _ in range(400):
        if state.current_player is None:
            break
        legal = state.legal_actions()
        for action in legal:
            probe = state.clone()
            probe.apply(action)
            assert sorted(probe.all_cards()) == list(range(160))
            if type(action) is Draw:
                from_tableaux += game.deck.code(action.cards[1]) not in state.center.cards()
        lays = [a for a in legal if type(a) is Lay]
        state.apply(lays[0] if lays else chooser.choice(legal))
    assert from_tableaux > 0


def test_deal_json_only_grows_and_matches_count(short_catalog):
    game = load_game("torqu", (), 4, short_catalog)
    run = play(game, 9, make_agents(["random"], game), stop=lambda s: s.rounds_played >= 2)
    deals = run.state.deal_json()["matches"]
    assert len(deals) == run.state.rounds_played + (run.state.current_player is not None)
    assert deals[0]["dealer"] == 3 and (len(deals) < 2 or deals[1]["dealer"] == 0)
    fresh = game.new_state(9).deal_json()["matches"]
    assert deals[0] == fresh[0]


def test_first_player_names_who_opens_the_first_match():
    """The seed names no first dealer: ``first_player`` (default 0, the seat left of dealer seat n-1)
    plays first, the seat on its right deals; the deal then passes left each match."""
    game = load_game("torqu", (), 4)
    assert game.new_state(5).current_player == 0 and game.new_state(5).dealer == 3
    moved = with_options((), 4, first_player=2).new_state(5)
    assert moved.current_player == 2 and moved.dealer == 1
    assert moved.deal_json()["matches"][0]["hands"][2] == game.new_state(5).deal_json()["matches"][0]["hands"][0]
    # one config serves every player count: a seat number past the count wraps round
    wrapped = with_options((), 2, first_player=5).new_state(5)
    assert wrapped.current_player == 1 and wrapped.dealer == 0


def test_the_collision_option_reaches_the_board():
    """The same 6-player games under ``collision: lower_steps_back``: identical matches, and on some seed
    different stone positions (a stone landing on the space of one that does not move, so scored less)."""
    lower = with_options((), 6, collision="lower_steps_back")
    plain = load_game("torqu", (), 6)
    differ = 0
    for seed in range(1, 4):
        a = play(plain, seed, make_agents(["random"], plain)).state
        b = play(lower, seed, make_agents(["random"], lower)).state
        assert a.match_scores[0] == b.match_scores[0]
        differ += a.positions != b.positions
    assert differ


# -- gaps found by a mutation audit of rules.py, board.py and layout.py ----------------------

def test_a_match_under_the_first_card_drawn_cannot_be_drawn_with_it():
    """The seed: "Though a good match for the first card drawn may be under the first card drawn, the
    player may not pick it up. The two cards drawn must both be exposed at the same time." A hand-dealt
    centre: Water-2 lies on Water-3, Fire-2 and Air-9 top two secondaries, Water-1 is a primary they cover.
    Only Water-2 with Fire-2 may be drawn; ``apply`` refuses the covered match, a covered primary and an
    exposed card that does not pair (taking the cards one at a time would otherwise let Water-3 through)."""
    game = load_game("torqu", (), 4)
    state = game.new_state(5)
    code = game.deck.code
    centre = Tableau()
    centre.center = [code("Water-3"), code("Water-2")]
    centre.primaries[1] = [code("Water-1")]  # NE, under secondaries 0 and 1
    centre.secondaries[0], centre.secondaries[1] = [code("Fire-2")], [code("Air-9")]
    state.center, state._legal = centre, None
    assert [set(d.cards) for d in state.legal_actions()] == [{"Water-2", "Fire-2"}]
    for cards in (("Water-2", "Water-3"), ("Water-2", "Water-1"), ("Water-2", "Air-9")):
        with pytest.raises(IllegalActionError):
            state.apply(Draw(cards))
    assert centre.center == [code("Water-3"), code("Water-2")] and state.hands[0] == game.new_state(5).hands[0]


def _death_endgame(players: int, tableau: int):
    """A Death position, hand-dealt: the centre holds Air-1 alone (no pair within it), its only mate
    Earth-2 lies on ``tableau``'s personal tableau, and seat 0 is laying, about to end its turn."""
    game = load_game("torqu", ("death",), players)
    state = game.new_state(1)
    code = game.deck.code
    state.center = Tableau()
    state.center.center = [code("Air-1")]
    state.tableaus[tableau].lay(code("Earth-2"))
    state.phase, state._current, state._legal = "lay", 0, None
    return state


def test_death_skips_a_player_who_cannot_draw():
    """Death (docs/rules/torqu.md): "a player who cannot draw is skipped"; the seed plays the match
    "until all of the cards are taken from the center tableau". Seat 1 cannot draw (Air-1's only mate is
    on its own tableau), so the turn passes to seat 2, who may take it; the match does not end."""
    state = _death_endgame(3, 1)
    state.apply(EndTurn())
    assert state.rounds_played == 0 and state.current_player == 2
    assert [d.cards for d in state.legal_actions()] == [("Air-1", "Earth-2")]


def test_death_gives_the_only_player_who_can_draw_another_turn():
    """Death, two players: after seat 0's turn seat 1 cannot draw (Air-1's only mate is on its own
    tableau) but seat 0 can, from seat 1's tableau, so seat 0 draws again; once the centre is empty
    nobody can draw and the match ends."""
    state = _death_endgame(2, 1)
    state.apply(EndTurn())
    assert state.rounds_played == 0 and state.current_player == 0
    state.apply(Draw(("Air-1", "Earth-2")))
    state.apply(EndTurn())
    assert state.rounds_played == 1


def test_pair_wraps_makes_16_and_1_neighbours():
    """``pair_wraps: true`` (off by default: the seed's "two consecutive numbers" without a wrap) makes the
    highest and the lowest number consecutive for drawing, in either order, and nothing further apart."""
    game = with_options((), 4, pair_wraps=True)
    code = game.deck.code

    def pair(a: str, b: str) -> bool:
        return code(b) in game.partner[code(a)] and code(a) in game.partner[code(b)]

    assert pair("Air-16", "Earth-1") and pair("Air-16", "Earth-15")
    assert not pair("Air-16", "Earth-2") and not pair("Air-15", "Earth-1")


def test_a_dragon_pairs_with_its_picture_not_its_elements_suit():
    """Dragons: "The Rain Dragon card may be used with three Rain cards"; a Dragon counts as a card of
    the picture it is named for, and for everything else stays a Dragon. Dragon-9 (Rain Dragon) pairs with
    every Rain card (Water-1..4) but not with Water-13 or Water-5, which share only the Water suit with Rain."""
    game = load_game("torqu", ("dragons",), 4)
    code = game.deck.code
    mates = game.partner[code("Dragon-9")]
    assert all(code(f"Water-{n}") in mates for n in (1, 2, 3, 4))
    assert code("Water-13") not in mates and code("Water-5") not in mates


# -- gaps found by a second mutation audit of rules.py ----------------------------------------

def test_partners_refuse_an_odd_player_count():
    """The seed's Partners is for "an even numbered game": five and seven players are refused as three
    are (above), while 4, 6 and 8 make 2, 3 and 4 teams."""
    for players in (5, 7):
        with pytest.raises(CardgamesError, match="even number"):
            load_game("torqu", ("partners",), players)
    assert [load_game("torqu", ("partners",), n).teams for n in (4, 6, 8)] == [2, 3, 4]


def test_a_match_whose_first_player_cannot_draw_ends_at_once():
    """"When the center tableau is no longer playable, the match ends", even before its first turn. The shipped
    rows always expose a pair (nine exposed cards cannot all be two numbers apart), but a deal row that
    validate accepts can leave a single card exposed: match 1 is then scored at the deal, with no action."""
    from cardgames.engine.games.torqu.rules import check_config

    game = with_options((), 4, deal={"4": {"hand": 4, "center": 144, "primary": 0, "secondary": 0}},
                        exposed_at_start=1, max_matches=1)
    assert not check_config(game.spec)
    state = game.new_state(5)
    assert state.rounds_played == 1 and state.current_player is None and state.moves == 0
    assert state.match_details[0]["tableau_scores"] == [0, 0, 0, 0]


def test_death_draws_are_listed_in_card_order():
    """docs/rules/torqu.md (turn actions): "every legal pair, sorted by card order (Death: first from the
    centre)": draws whose second card lies on a personal tableau (Earth-2, on seat 1's) are merged into the
    centre's own pairs by their first card, then their second, not listed after them."""
    state = _death_endgame(2, 1)  # centre Air-1, Earth-2 on seat 1's tableau
    code = state.game.deck.code
    for i, name in enumerate(("Fire-9", "Fire-10", "Water-1")):
        state.center.secondaries[i] = [code(name)]
    state.phase, state._legal = "draw", None
    assert [d.cards for d in state.legal_actions()] == [("Air-1", "Earth-2"), ("Air-1", "Water-1"),
                                                        ("Water-1", "Earth-2"), ("Fire-9", "Fire-10")]


def test_partners_share_the_tableau_but_each_keeps_his_own_hand():
    """Partners: "each two players build on one personal tableau"; the hands stay each partner's own (each
    is charged his own hand penalty). Seat 2 draws into his hand, not seat 0's, and lays on the team's
    tableau (team 0)."""
    game = with_options(("partners",), 4, first_player=2)
    state = game.new_state(5)
    assert state.current_player == 2
    hands = [list(h) for h in state.hands]
    draw = state.legal_actions()[0]
    drawn = [game.deck.code(n) for n in draw.cards]
    state.apply(draw)
    assert state.hands[2] == hands[2] + drawn and state.hands[0] == hands[0]
    state.apply(Lay(draw.cards[0]))
    assert state.tableaus[0].cards() == drawn[:1] and state.tableaus[1].cards() == []
    assert state.hands[2] == hands[2] + drawn[1:]


def test_each_match_says_why_it_ended():
    """The narration names why a match ended (docs/rules/torqu.md): Death's match ends when the centre is
    empty; a plain one when no pair can be drawn from what is left. Here match 1 is not the game's last, so
    match 2 is dealt at once: the reason is the ended match's, not read from the new centre."""
    state = _death_endgame(2, 1)
    state.apply(EndTurn())
    state.apply(Draw(("Air-1", "Earth-2")))
    state.apply(EndTurn())
    assert state.rounds_played == 1 and len(state.center)  # match 2 dealt
    assert state.game.describe_deal_end(state)[0] == "match 1 ends (the centre is empty):"
    game = load_game("torqu", (), 2)
    state = game.new_state(1)
    code = game.deck.code
    state.center = Tableau()
    state.center.center, state.center.secondaries[0] = [code("Air-1")], [code("Fire-9")]  # no pair
    state.phase, state._current, state._legal = "lay", 0, None
    state.apply(EndTurn())
    assert state.rounds_played == 1 and len(state.center)
    assert game.describe_deal_end(state)[0] == "match 1 ends (no pair can be drawn):"


def test_a_clone_that_ends_the_match_leaves_the_original_in_it():
    """A clone is played on apart from its original (agents probe actions on clones): the clone's action that
    ends match 1 records the match and deals match 2 on the clone only."""
    state = _death_endgame(2, 1)
    state.apply(EndTurn())
    state.apply(Draw(("Air-1", "Earth-2")))
    probe = state.clone()
    probe.apply(EndTurn())
    assert probe.rounds_played == 1 and len(probe.deals) == 2
    assert len(probe.match_scores) == len(probe.match_details) == 1
    assert state.rounds_played == 0 and len(state.deals) == 1
    assert state.match_scores == [] and state.match_details == []


def test_partners_win_together():
    """Partners share a stone: both partners of the stone furthest along are winners, and the result
    names each seat's team (docs/rules/torqu.md, results)."""
    game = load_game("torqu", ("partners",), 4)
    state = game.new_state(1)
    state.positions = [3, 5]
    result = state.result()
    assert state.winners() == result["winners"] == [1, 3]
    assert result["teams"] == [0, 1, 0, 1] and result["scores"] == [3, 5, 3, 5]


def test_check_config_refuses_a_tableau_without_room_and_a_wrong_exposed_count():
    """``check_config``: a personal tableau row with no room, and a deal row leaving other than
    ``exposed_at_start`` cards exposed (the shipped rows leave 9), are refused at their rows."""
    from cardgames.engine.games.torqu.rules import check_config

    spec = load_game("torqu", (), 4).spec

    def errors(**options):
        return check_config(dataclasses.replace(spec, options={**spec.options, **options}))

    assert errors() == []
    empty = {**spec.options["tableau"], "4": {"center": 0, "primary": 0, "secondary": 0}}
    assert errors(tableau=empty) == [(("options", "tableau", "4"), "options.tableau for 4 players has no room")]
    small = {**spec.options["tableau"], "4": {"center": 3, "primary": 0, "secondary": 0}}  # no set fits
    assert errors(tableau=small) == [(("options", "tableau", "4"), "options.tableau for 4 players holds 3 cards, "
                                      "fewer than a set's 4: no set could ever score")]
    one = {**spec.options["tableau"], "4": {"center": 1, "primary": 0, "secondary": 0}}
    assert errors(tableau=one)[0][1].startswith("options.tableau for 4 players holds 1 card, fewer")
    four = {**spec.options["tableau"], "4": {"center": 4, "primary": 0, "secondary": 0}}
    assert errors(tableau=four) == []
    # every row leaves 9: the number they are held to is what to mend, said once at its line, not at each row (a
    # designer's finding: seven errors); one row leaving another count is that row's
    assert errors(exposed_at_start=8) == [(("options", "exposed_at_start"),
                                           "options.exposed_at_start is 8, but every row of options.deal leaves 9 "
                                           "exposed")]
    short = {**spec.options["deal"], "8": {"hand": 5, "center": 16, "primary": 7, "secondary": 7}}  # deals 168
    assert errors(deal=short, exposed_at_start=8) == [(("options", "exposed_at_start"), "options.exposed_at_start "
                                                       "is 8, but every row of options.deal leaves 9 exposed")]
    odd = {**spec.options["deal"], "4": {"hand": 4, "center": 16, "primary": 8, "secondary": 8},
           "5": {"hand": 8, "center": 0, "primary": 8, "secondary": 7}}  # no centre stack: 8 exposed
    assert errors(deal=odd, exposed_at_start=8) == [
        (("options", "deal", "4"), "options.deal for 4 players leaves 9 cards exposed, not 8")]


# -- gaps found by a second mutation audit of board.py and layout.py -------------------------

def test_a_stone_stepping_back_passes_a_taken_space_1_to_space_0():
    """Collisions: a stone whose target is taken steps back one space at a time to the nearest free one,
    and only space 0 holds any number. Seat 2 (200) aims at 2, held by seat 1; 1 is held by seat 0, so it
    goes on to 0, which seat 3 already holds. Under ``lower_steps_back`` seat 1 (0 points) is the one pushed
    from 2, past seat 0 on 1, to 0 as well."""
    assert move_stones([1, 2, 0, 0], [0, 0, 200, 0], [0, 1, 2, 3], 100, 72, "step_back") == [1, 2, 0, 0]
    assert move_stones([1, 2, 0, 0], [0, 0, 200, 0], [0, 1, 2, 3], 100, 72, "lower_steps_back") == [1, 0, 2, 0]


def test_a_stone_pushed_back_from_space_1_joins_the_stones_on_space_0():
    """``collision: lower_steps_back``: seat 0 (100) lands on space 1, held by seat 1 (0 points, not moving):
    seat 1 scored less, so it steps back, to space 0, which holds any number (seat 2 is there). Under
    ``step_back`` the mover itself stops on 0 instead."""
    assert move_stones([0, 1, 0], [100, 0, 0], [0, 1, 2], 100, 72, "lower_steps_back") == [1, 0, 0]
    assert move_stones([0, 1, 0], [100, 0, 0], [0, 1, 2], 100, 72, "step_back") == [0, 1, 0]


@pytest.mark.parametrize("players", sorted(DEAL_TABLE))
def test_deal_json_lists_each_stack_bottom_to_top_in_dealing_order(run_cli, players):
    """The deal (docs/rules/torqu.md, Dealer): after the hands, the pile's next cards go to the centre stack,
    then to the primaries N..NW, then to the secondaries N-NE..NW-N, each stack bottom to top; ``deal
    --format json`` lists them so, and the last card of the centre and of each secondary is the exposed one."""
    import json

    game = load_game("torqu", (), players)
    hand, center, primary, secondary = DEAL_TABLE[players]
    names = game.deck.names
    pile = [names[c] for c in game.shuffled(4)[::-1][players * hand:]]  # games deal from the shuffled list's end
    deal = json.loads(run_cli("deal", "torqu", "--seed", "4", "--players", str(players), "--format", "json").stdout)
    assert deal["center"] == pile[:center]
    pile = pile[center:]
    assert deal["primaries"] == [pile[primary * i:primary * (i + 1)] for i in range(8)]
    pile = pile[8 * primary:]
    assert deal["secondaries"] == [pile[secondary * i:secondary * (i + 1)] for i in range(8)]
    exposed = {names[c] for c in game.new_state(4).center.exposed()}
    assert exposed == {deal["center"][-1]} | {s[-1] for s in deal["secondaries"]}


@pytest.mark.parametrize("players", range(2, 9))
def test_a_personal_tableau_is_the_centre_halved_or_quartered(players):
    """The seed: personal tableaus are built as the centre (16/8/8) with each stack divided by 2 for 2 or 3
    players (centre 8, primaries and secondaries 4: 72 cards) and by 4 for 4 or more (4/2/2: 36 cards)."""
    game = load_game("torqu", (), players)
    tableau = game.new_state(1).tableaus[0]
    laid = 0
    while tableau.room():
        tableau.lay(1000 + laid)
        laid += 1
    divisor = 2 if players <= 3 else 4
    assert laid == 144 // divisor
    assert len(tableau.center) == 16 // divisor
    assert [len(s) for s in tableau.primaries] == [len(s) for s in tableau.secondaries] == [8 // divisor] * 8


def test_validate_bounds_the_points_by_the_deck_under_death(tmp_path, run_cli):
    """Under Death a hand that is never laid keeps taking second cards from the others' tableaux, past
    the 80 cards of a tableau and a dealt hand (an auditor's hoarding player held 110): points that fit
    80 cards but not 160 stopped such a game at its match's end. ``validate`` now refuses them under
    Death, at the points' line, and still accepts them without it."""
    text = (bundled_root() / "games" / "torqu.yaml").read_text()
    assert "    perfect_four: 300\n" in text
    (tmp_path / "games").mkdir()
    written = text.replace("    perfect_four: 300\n", "    perfect_four: 80000\n")
    (tmp_path / "games" / "torqu.yaml").write_text(written)
    result = run_cli("--configs", str(tmp_path), "validate")
    line = written[:written.index("    perfect_four:")].count("\n") + 1
    assert result.exit_code == 1 and result.output.count("torqu.yaml:") == 1
    assert (f"torqu.yaml:{line}: options.points: the scorer handles a set worth up to 52142 points for 160 cards, "
            f"not 80000 (every player count, death)") in result.output
