"""Turup rules: deals, short last deals, turn order, dealer rotation, rounds, scoring, options."""

from __future__ import annotations

import dataclasses
from itertools import product
from math import prod

import pytest

from cardgames.engine.agents import make_agents
from cardgames.engine.config import bundled_root
from cardgames.engine.core import play
from cardgames.engine.errors import IllegalActionError
from cardgames.engine.games.turup.agents import ExpertAgent, GreedyAgent, gain
from cardgames.engine.games.turup.rules import Capture, Trail, TurupGame, check_config, deal_facts
from cardgames.engine.registry import load_game

SHORT = {6: 4, 7: 16, 8: 24, 9: 8, 10: 32, 11: 20, 12: 8}


def with_options(players: int, **options) -> TurupGame:
    """Turup with some options changed (what a variant overlay would do)."""
    spec = load_game("turup", players=players).spec
    return TurupGame(dataclasses.replace(spec, options={**spec.options, **options}))


def first_action(state):
    """The greedy choice: a policy that captures keeps the pile small (always trailing would
    pile up 100 cards, whose captures number in the millions)."""
    return GreedyAgent(state.game).choose(state, state.legal_actions(), None)


def set_position(state, player: int, hand: list[str], pile: list[str]) -> None:
    """Give ``player`` the hand ``hand`` and the turn, on a community pile of ``pile`` (card names)."""
    game, code = state.game, state.game.deck.code
    state.current_player = player
    state.hands[player] = [code(name) for name in hand]
    state.table = [[] for _ in game.rank_ids]
    for name in pile:
        state.table[game.rank_of[code(name)]].append(code(name))
    for cards in state.table:
        cards.sort()
    state.tpack = game.pack([code(name) for name in pile])
    state._legal = None


@pytest.mark.parametrize("players,decks", [(2, 1), (4, 1), (5, 2), (7, 2), (8, 3), (12, 3)])
def test_decks_by_player_count(players, decks):
    assert len(load_game("turup", players=players).deck) == 52 * decks


def test_short_last_deal_facts():
    for players in range(2, 13):
        facts = deal_facts(load_game("turup", players=players).spec)
        assert facts["short_deal_cards"] == SHORT.get(players, 0), players


def test_a_deal_packet_larger_than_a_hand_is_refused(tmp_path, run_cli):
    """``deal_packet: 5`` with hands of 4 was accepted and dealt as 4 (the designer audit's finding)."""
    (tmp_path / "games").mkdir()
    turup = (bundled_root() / "games" / "turup.yaml").read_text()
    assert "  deal_packet: 1\n" in turup
    (tmp_path / "games" / "turup.yaml").write_text(turup.replace("  deal_packet: 1\n", "  deal_packet: 5\n"))
    result = run_cli("validate", str(tmp_path))
    line = turup.splitlines().index("  deal_packet: 1") + 1
    assert result.exit_code == 1 and result.stdout.splitlines() == [
        f"{tmp_path / 'games' / 'turup.yaml'}:{line}: options.deal_packet 5 is more than a hand (hand_size 4): each "
        "player would get his whole hand at once; write 4 (every player count)"]
    # a packet of a whole hand is allowed (each player gets his 4 at once): only more is refused
    (tmp_path / "games" / "turup.yaml").write_text(turup.replace("  deal_packet: 1\n", "  deal_packet: 4\n"))
    assert run_cli("validate", str(tmp_path)).exit_code == 0


def test_validate_reports_short_deals(run_cli):
    import json

    result = run_cli("validate", "--facts", "--format", "json")
    assert result.exit_code == 0, result.output
    facts = {f["players"]: f["short_deal_cards"] for f in json.loads(result.stdout)["facts"] if f["game"] == "turup"}
    assert facts == {p: SHORT.get(p, 0) for p in range(2, 13)}
    text = run_cli("validate", "--facts")
    rows = [line.split() for line in text.stdout.splitlines() if line.startswith("turup ")]
    assert [int(row[-1]) for row in rows] == [SHORT.get(p, 0) for p in range(2, 13)]


@pytest.mark.parametrize("players", sorted(SHORT))
def test_short_last_deal_round_robin_from_dealers_left(players):
    game = load_game("turup", players=players)
    state = game.new_state(3)
    while state.stock:
        state.apply(first_action(state))
    # The deal that emptied the stock was the short one: one card at a time from the dealer's left.
    sizes = [len(state.hands[(state.dealer + 1 + i) % players]) for i in range(players)]
    short = SHORT[players]
    assert sizes == [short // players + (1 if i < short % players else 0) for i in range(players)]
    assert state.current_player == (state.dealer + 1) % players
    # Play goes on, skipping empty hands, until every hand is empty; then the next round is dealt.
    while state.rounds_played == 0:
        assert state.hands[state.current_player]
        state.apply(first_action(state))
    assert len(state.deals) == 2


def test_short_last_deal_discard():
    game = with_options(6, short_deal="discard")
    state = game.new_state(3)
    while state.rounds_played == 0:
        state.apply(first_action(state))
    # 6 players, two decks: 100 cards after the community pile, four deals of 24 and 4 cards short of a fifth,
    # which are set aside: with the 4 the table holds at the end (seed 3), 8 cards go to nobody, where a
    # round-robin deal plays the 4 and leaves the table's 6 (a test audit's finding: ">= 4" held for both)
    assert len(state.round_leftover[0]) == 8
    assert sum(state.round_scores[0]) + len(state.round_leftover[0]) == 104
    robin = with_options(6, short_deal="round_robin").new_state(3)
    while robin.rounds_played == 0:
        robin.apply(first_action(robin))
    assert len(robin.round_leftover[0]) == 6


@pytest.mark.parametrize("short_deal", ["discard", "round_robin"])
def test_a_stock_of_exactly_one_deal_is_dealt_in_full(short_deal):
    """4 players, one deck: 48 cards after the community pile, three whole deals of 4 x 4. The last
    deal is a full one, so ``short_deal`` never applies: nothing is set aside, every hand gets 4."""
    state = with_options(4, short_deal=short_deal).new_state(3)
    while len(state.stock) > 16:
        state.apply(first_action(state))
    assert state.next_deal_sizes() == [4, 4, 4, 4]
    while state.stock:  # the last hand card played deals the rest
        state.apply(first_action(state))
    assert state.set_aside == [] and [len(h) for h in state.hands] == [4, 4, 4, 4]


def test_deal_layout_and_json(run_cli):
    import json

    result = run_cli("deal", "turup", "--seed", "5", "--players", "4", "--format", "json")
    assert result.exit_code == 0
    deal = json.loads(result.stdout)
    assert set(deal) == {"hands", "community", "stock"}
    assert [len(h) for h in deal["hands"]] == [4, 4, 4, 4]
    assert len(deal["community"]) == 4 and len(deal["stock"]) == 52 - 20
    assert len({*deal["community"], *deal["stock"], *(c for h in deal["hands"] for c in h)}) == 52
    text = run_cli("deal", "turup", "--seed", "5", "--players", "12")
    assert text.exit_code == 0 and "hand 11:" in text.stdout


def test_deal_order_one_card_at_a_time_from_dealers_left():
    game = load_game("turup", players=3)
    state = game.new_state(11)
    order = [game.deck.name(c) for c in reversed(game.shuffled(11, deal_number=0))]
    hands = state.deals[0]["hands"]
    dealer = state.dealer
    seats = [(dealer + 1 + i) % 3 for i in range(3)]
    assert [hands[seats[i % 3]][i // 3] for i in range(12)] == order[:12]
    assert state.deals[0]["community"] == order[12:16]
    assert state.deals[0]["stock"] == order[16:]


def test_dealer_rotates_and_left_of_dealer_leads():
    game = load_game("turup", players=4)
    state = game.new_state(9)
    leaders = []
    seen = 0
    while state.current_player is not None:
        if len(state.deals) > seen:
            seen = len(state.deals)
            leaders.append((state.dealer, state.current_player))
        state.apply(first_action(state))
    assert leaders == [(0, 1), (1, 2), (2, 3), (3, 0)]
    assert [d["dealer"] for d in state.deal_json()["rounds"]] == [0, 1, 2, 3]
    assert state.rounds_played == 4


def test_rounds_are_distinct_deals_and_the_record_only_grows():
    game = load_game("turup", players=2)
    state = game.new_state(4)
    first = state.deal_json()
    while state.current_player is not None:
        state.apply(first_action(state))
    deals = state.deal_json()["rounds"]
    assert deals[0] == first["rounds"][0] and len(deals) == 2
    assert deals[0]["stock"] != deals[1]["stock"]


def test_the_seed_example_wins_four_cards():
    """Q, 10 and 5 in hand; community 3, 2, K, 5: the 5 takes 2, 3 and 5, four cards in all."""
    game = load_game("turup", players=2)
    state = game.new_state(1)
    player = state.current_player
    set_position(state, player, ["QS", "TS", "5S"], ["3C", "2D", "KS", "5H"])
    legal = state.legal_actions()
    assert legal == [Trail("5"), Capture("5", ("5",)), Capture("5", ("2", "3")), Capture("5", ("2", "3", "5")),
                     Trail("T"), Capture("T", ("2", "3", "5")), Trail("Q")]
    state.apply(Capture("5", ("2", "3", "5")))
    assert sorted(game.deck.name(c) for c in state.won[player]) == ["2D", "3C", "5H", "5S"]
    assert [game.deck.name(c) for pile in state.table for c in pile] == ["KS"]


def test_trail_is_always_allowed_and_forced_without_capture():
    game = load_game("turup", players=4)
    for seed, can_capture in ((2, True), (4, False)):  # seed 2: a queen takes a queen; seed 4: nothing to take
        state = game.new_state(seed)
        legal = state.legal_actions()
        ranks = sorted({game.rank_of[c] for c in state.hands[state.current_player]})
        trails = [game.trails[r] for r in ranks]
        assert [a for a in legal if type(a) is Trail] == trails  # every card in hand may trail ...
        assert (legal != trails) == can_capture  # ... and with no capture, trailing is all there is


def test_capture_compulsory_option():
    game = with_options(4, capture_optional=False)
    for seed in range(1, 30):
        state = game.new_state(seed)
        while state.current_player is not None and state.rounds_played == 0:
            legal = state.legal_actions()
            kinds = {type(a) for a in legal}
            assert kinds in ({Trail}, {Capture})
            state.apply(legal[-1])


def test_illegal_actions_are_rejected():
    game = load_game("turup", players=4)
    state = game.new_state(2)
    hand_ranks = {game.rank_ids[game.rank_of[c]] for c in state.hands[state.current_player]}
    missing = next(r for r in game.rank_ids if r not in hand_ranks)
    with pytest.raises(IllegalActionError):
        state.apply(Trail(missing))
    with pytest.raises(IllegalActionError):
        state.apply(Capture(next(iter(sorted(hand_ranks))), ("K", "K", "K", "K", "K")))


def test_leftovers_go_to_last_capturer():
    game = with_options(4, leftovers="last_capturer", rounds=1)
    run = play(game, 8, make_agents(["random"], game))
    assert sum(run.state.result()["scores"]) == 52
    assert not any(run.state.table)
    plain = load_game("turup", players=4)
    result = play(plain, 8, make_agents(["random"], plain)).state.result()
    assert sum(result["scores"]) + result["leftover"] == 52 * 4


def test_result_conventions_and_round_figures():
    game = load_game("turup", players=3)
    run = play(game, 21, make_agents(["greedy"], game))
    result = run.state.result()
    assert result["rounds"] == 3 and result["moves"] == len(run.history)
    rounds = [result[f"round{k}_scores"] for k in (1, 2, 3)]
    assert result["scores"] == [sum(r[s] for r in rounds) for s in range(3)]
    assert result["winners"] == [s for s in range(3) if result["scores"][s] == max(result["scores"])]
    assert sum(result["round_wins"]) >= 3
    assert sum(run.state.returns()) == pytest.approx(1.0)


def test_round_wins_scoring():
    """Seed 1, greedy: seat 2 takes the most cards (54), but seats 0 and 2
    each win two rounds: total_cards names seat 2, round_wins seats 0 and 2."""
    game = with_options(3, match_scoring="round_wins")
    state = play(game, 1, make_agents(["greedy"], game)).state
    result = state.result()
    assert result["round_wins"] == [2, 1, 2] and result["winners"] == [0, 2]
    assert state.returns() == [0.5, 0.0, 0.5]  # a tie splits the win
    plain = load_game("turup", players=3)
    result = play(plain, 1, make_agents(["greedy"], plain)).state.result()
    assert result["scores"] == [45, 50, 54] and result["winners"] == [2]


def test_rounds_option_and_matches_stop():
    game = with_options(5, rounds=2)
    run = play(game, 3, make_agents(["random"], game))
    assert run.state.rounds_played == 2 and len(run.state.deal_json()["rounds"]) == 2
    full = load_game("turup", players=5)
    stopped = play(full, 3, make_agents(["random"], full), stop=lambda s: s.rounds_played >= 1)
    assert stopped.state.rounds_played == 1 and stopped.state.current_player is not None


def test_bad_configs_are_reported():
    problems = check_config(with_options(12, hand_size=20).spec)
    assert problems and "first deal needs" in str(problems[0])


def test_first_dealer_counts_seats_modulo_the_player_count():
    """One config serves 2 to 12 players, so a seat number past the count wraps round. ``first_seat``, which a
    batch's header gives its first-player figure by, is the seat that plays first: the dealer's left (a mutant
    that named the dealer's seat passed every test: a mutation audit's finding)."""
    game = with_options(4, first_dealer=6)
    state = game.new_state(3)
    assert state.dealer == 2 and state.current_player == game.first_seat == 3
    assert with_options(4, first_dealer=3).first_seat == 0


def test_greedy_takes_the_most_cards():
    game = load_game("turup", players=4)
    agent = make_agents(["greedy"], game)[0]
    for seed in range(1, 20):
        state = game.new_state(seed)
        while state.current_player is not None and state.rounds_played == 0:
            legal = state.legal_actions()
            choice = agent.choose(state, legal, None)
            assert gain(choice) == max(gain(a) for a in legal)
            state.apply(choice)


def test_expert_avoids_leaving_an_easy_capture():
    """With a 5 or a 9 to trail and nothing to take, the expert keeps the pile hard to take."""
    game = load_game("turup", players=2)
    expert = make_agents(["expert"], game)[0]
    state = game.new_state(1)
    code = game.deck.code
    player = state.current_player
    set_position(state, player, ["5S", "KS"], ["5H", "5D", "5C"])
    # Taking all three fives (4 cards, empty pile) beats any trail or smaller take.
    assert expert.choose(state, state.legal_actions(), None) == Capture("5", ("5", "5", "5"))
    state.hands[player] = [code("2S"), code("KS")]
    state._legal = None
    # Trailing the 2 would let a 7 take 5 + 2; trailing the K is safer (only a king matches it).
    assert expert.choose(state, state.legal_actions(), None) == Trail("K")


def test_the_expert_values_each_action_by_the_pile_it_leaves():
    """In whole games, each choice among several actions is the first with the most cards won now less the
    threat on the pile that action leaves, read off a clone after it (the golden logs alone caught an expert
    that forgot the cards a capture takes off the pile: a mutation audit's finding)."""
    chosen = 0
    for players in (2, 3, 4):
        game = load_game("turup", players=players)
        expert = ExpertAgent(game)
        for seed in range(1, 6):
            state = game.new_state(seed)
            while state.current_player is not None:
                actions = state.legal_actions()
                choice = expert.choose(state, actions, None)
                player = state.current_player
                hand = expert._next_hand(state, player)
                if len(actions) > 1 and hand:
                    unseen = expert.unseen(state, player)
                    values = []
                    for action in actions:
                        after = state.clone()
                        after.apply(action)
                        values.append(gain(action) - expert._threat(after.tpack, unseen, sum(unseen), hand))
                    best = max(values)
                    assert choice == actions[next(i for i, v in enumerate(values) if v > best - 1e-12)]
                    chosen += 1
                state.apply(choice)
    assert chosen > 500


def test_what_the_expert_has_not_seen_is_the_stock_and_the_other_hands():
    """The expert's unseen cards, rank by rank, are exactly those in the stock and the other
    players' hands, at every turn of a whole 3-player game: the hand, the pile and the won piles
    are all it subtracts, and it subtracts each once."""
    game = load_game("turup", players=3)
    expert = ExpertAgent(game)
    state = game.new_state(4)
    turns = 0
    while state.current_player is not None:
        player = state.current_player
        hidden = [0] * len(game.rank_ids)
        for code in [*state.stock, *(c for seat, hand in enumerate(state.hands) if seat != player for c in hand)]:
            hidden[game.rank_of[code]] += 1
        assert expert.unseen(state, player) == hidden
        state.apply(first_action(state))
        turns += 1
    assert turns > 40


def test_the_experts_threat_is_the_mean_best_capture_of_the_next_hand():
    """The expert's threat against its definition: over every hand of h cards drawn one at a time
    from the unseen cards (with replacement, as its formula has it), the mean of the most cards the
    hand's best card wins on the pile; a rank that captures nothing wins 0. A card captured or
    trailed wins itself too."""
    game = load_game("turup", players=2)
    expert = ExpertAgent(game)
    code = game.deck.code
    pile = game.pack([code(name) for name in ("2H", "3D", "5C", "9S", "KH")])
    unseen = [4 - (rank % 3) for rank in range(len(game.rank_ids))]
    total = sum(unseen)
    bests = [max((len(c.take) + 1 for c in game.captures(rank, pile)), default=0) for rank in range(len(unseen))]
    assert len(set(bests)) >= 4 and 0 in bests
    for h in (1, 2, 3):
        mean = sum(prod(unseen[r] for r in hand) * max(bests[r] for r in hand)
                   for hand in product(range(len(unseen)), repeat=h)) / total ** h
        assert expert._threat(pile, unseen, total, h) == pytest.approx(mean, rel=1e-12)
    assert gain(Capture("5", ("5", "5", "5"))) == 4 and gain(Trail("K")) == 0


def test_deal_in_packets_and_community_first():
    game = with_options(3, deal_packet=4, community_first=True)
    state = game.new_state(11)
    order = [game.deck.name(c) for c in reversed(game.shuffled(11, deal_number=0))]
    seats = [(state.dealer + 1 + i) % 3 for i in range(3)]
    assert state.deals[0]["community"] == order[:4]
    assert [state.deals[0]["hands"][s] for s in seats] == [order[4:8], order[8:12], order[12:16]]


@pytest.mark.parametrize("players", [2, 4])
def test_players_who_always_trail_play_to_the_end(players):
    """Trailing is always legal, so with one deck the pile can grow to every card; the capture
    listing must still work there (a ten on all 36 numerals A-9 has 44,543 captures)."""
    game = load_game("turup", players=players)
    state = game.new_state(5)
    biggest = 0
    while state.current_player is not None:
        legal = state.legal_actions()
        state.apply(next((a for a in legal if type(a) is Trail), legal[0]))
        biggest = max(biggest, sum(len(cards) for cards in state.table))
    assert biggest >= 40 and state.result()["rounds"] == state.rounds_played >= 1


@pytest.mark.parametrize("players, left, seed, short_deal, sizes", [
    (6, 4, 3, "round_robin", [0, 1, 1, 1, 1, 0]), (6, 4, 3, "discard", [0] * 6),
    (7, 16, 1, "round_robin", [2, 3, 3, 2, 2, 2, 2]),
])
def test_the_expert_expects_the_next_players_share_of_a_short_deal(players, left, seed, short_deal, sizes):
    """Six players, four cards left in the stock: a round-robin short deal gives the dealer's left
    four seats one card each, so the player after the dealer does hold a card when the pile passes
    (the expert used to expect none, from 4 // 6); a discarded stock gives nobody any. Seven players,
    sixteen cards: the next player's share is 3, the dealer's own 2 (a mutation audit's finding: a
    share counted from the dealer himself went unseen where the dealer's share was 0)."""
    game = with_options(players, short_deal=short_deal)
    state = game.new_state(seed)
    while not (len(state.stock) == left and sum(map(len, state.hands)) == 1):
        state.apply(state.legal_actions()[-1])
    player = state.current_player
    assert player == state.dealer == 0
    assert state.next_deal_sizes() == sizes
    expert = make_agents(["expert"], game)[0]
    assert expert._next_hand(state, player) == sizes[1]
    rounds = state.rounds_played
    state.apply(state.legal_actions()[-1])
    if short_deal == "round_robin":
        assert [len(hand) for hand in state.hands] == sizes
    else:  # the stock is set aside: the round is over, and the next one deals afresh
        assert state.rounds_played == rounds + 1


@pytest.mark.parametrize("short_deal", ["round_robin", "discard"])
def test_the_narration_says_when_the_stock_is_dealt(short_deal):
    """The play that empties the last hand says what the stock then does (the multiplayer walkthrough's
    finding: hands were dealt again unsaid): a full deal, a short one seat by seat, or a stock set aside;
    each as the state shows it after the play."""
    game = with_options(6, short_deal=short_deal)
    state = game.new_state(3)
    said = []
    while state.rounds_played == 0:
        action = first_action(state)
        text = game.describe_action(state, action)
        stock = len(state.stock)
        state.apply(action)
        if "; " in text:
            said.append(text.split("; ", 1)[1])
            sizes = sorted({len(hand) for hand in state.hands})
            if "deals 4 cards to each player" in text:
                assert sizes == [4]
            elif "one at a time" in text:
                assert sum(map(len, state.hands)) == stock == 4 and not state.stock
    short = ("the stock's last 4 cards are dealt one at a time (1 to player 1, 1 to player 2, 1 to player 3, "
             "1 to player 4)" if short_deal == "round_robin" else "the stock's last 4 cards are too few to deal: "
             "set aside")
    assert said == ["the dealer deals 4 cards to each player"] * 3 + [short]


def test_a_full_deal_gives_everyone_a_hand():
    state = load_game("turup", players=4).new_state(1)
    assert state.next_deal_sizes() == [4, 4, 4, 4]


def test_narration_names_the_cards_and_counts_the_card_played():
    """The docs' narration example: a nine on A, 8, 9, 9 wins five cards, the nine played included;
    the nines taken are the lowest codes (spades before hearts)."""
    game = load_game("turup", players=4)
    state = game.new_state(1)
    set_position(state, 2, ["9D", "KC"], ["9H", "AS", "8S", "9S"])
    capture = Capture("9", ("A", "8", "9", "9"))
    assert capture in state.legal_actions()
    assert game.describe_action(state, capture) == "player 2 plays 9D and takes AS 8S 9S 9H (5 cards)"
    assert game.describe_action(state, Trail("K")) == "player 2 trails KC"


def test_deal_packets_that_do_not_divide_the_hand():
    """``deal_packet: 3`` with hands of 4: a packet of 3 to each player from the dealer's left, then
    the last card each; nobody gets more than ``hand_size``."""
    game = with_options(3, deal_packet=3)
    state = game.new_state(11)
    order = [game.deck.name(c) for c in reversed(game.shuffled(11, deal_number=0))]
    seats = [(state.dealer + 1 + i) % 3 for i in range(3)]
    hands = state.deals[0]["hands"]
    assert [hands[s] for s in seats] == [order[0:3] + [order[9]], order[3:6] + [order[10]],
                                         order[6:9] + [order[11]]]
    assert state.deals[0]["community"] == order[12:16]


@pytest.mark.parametrize("players", sorted(SHORT))
def test_next_deal_sizes_foretell_a_short_round_robin_deal(players):
    """Before the short last deal, ``next_deal_sizes`` gives each seat's share of it: the stock
    dealt one card at a time from the dealer's left, so some seats get several cards (7 players:
    16 cards, 3 each to the first two seats and 2 to the rest)."""
    game = load_game("turup", players=players)
    state = game.new_state(3)
    while not (len(state.stock) < 4 * players and sum(map(len, state.hands)) == 1):
        state.apply(first_action(state))
    sizes = state.next_deal_sizes()
    assert sum(sizes) == SHORT[players]
    state.apply(first_action(state))  # the last hand card: the short deal follows
    assert [len(hand) for hand in state.hands] == sizes


def test_leftovers_go_to_the_last_capturer_not_the_last_player():
    """``leftovers: last_capturer``, two players, seat 0 (the dealer, who plays last) always trails:
    seat 1 is the last capturer, so the pile left at the end is his and seat 0 wins nothing."""
    game = with_options(2, leftovers="last_capturer", rounds=1)
    state = game.new_state(5)
    captured = False
    while state.current_player is not None:
        legal = state.legal_actions()
        if state.current_player == 0:
            action = next(a for a in legal if type(a) is Trail)
        else:
            action = first_action(state)
            captured = captured or type(action) is Capture
        state.apply(action)
    assert captured
    assert state.result()["round1_scores"] == [0, 52] and state.result()["leftover"] == 0
    # the narration says who took the table's cards and which, not only that none were left (a designer's finding)
    swept = state.round_swept[-1]
    assert swept is not None and swept[0] == 1 and swept[1]
    names = " ".join(map(game.deck.name, swept[1]))
    assert game.describe_deal_end(state)[0] == (f"round 1 ends (player 1, the last to capture, takes the table's "
                                                f"{len(swept[1])} card{'s' * (len(swept[1]) > 1)}: {names}; left for "
                                                "nobody: 0 cards):")
    assert state.clone().round_swept == state.round_swept


def test_a_first_deal_that_uses_the_whole_deck_fits():
    """Two players, hands of 24 and 4 community cards: 52 cards, exactly one deck, accepted; one
    more community card does not fit."""
    assert check_config(with_options(2, hand_size=24).spec) == []
    problems = check_config(with_options(2, hand_size=24, community_size=5).spec)
    assert problems and "the first deal needs 53 cards" in str(problems[0])


def test_leftovers_of_a_round_without_a_capture_count_for_nobody():
    """``leftovers: last_capturer`` when every player trails every card: nobody captured, so there
    is no last capturer and the whole deck stays on the pile, counting for nobody."""
    game = with_options(2, leftovers="last_capturer", rounds=1)
    state = game.new_state(5)
    while state.current_player is not None:
        state.apply(next(a for a in state.legal_actions() if type(a) is Trail))
    result = state.result()
    assert result["round1_scores"] == [0, 0] and result["leftover"] == 52
    assert state.round_swept == [None] and game.describe_deal_end(state)[0].startswith("round 1 ends (left for nobody")


def test_a_capture_takes_the_lowest_codes_of_a_pile_built_in_play():
    """Rules page: "The physical cards are chosen by a fixed rule: lowest card code first ... within each rank
    taken." A nine trailed onto a pile that holds 9H is the 9S, a lower code: one nine taken is the 9S."""
    game = load_game("turup", players=4)
    code = game.deck.code
    state = game.new_state(1)
    player = state.current_player
    set_position(state, player, ["9S", "KC"], ["9H"])
    state.apply(Trail("9"))
    following = state.current_player
    state.hands[following] = [code("9D"), code("KD")]
    state._legal = None
    capture = Capture("9", ("9",))
    assert game.describe_action(state, capture) == f"player {following} plays 9D and takes 9S (2 cards)"
    state.apply(capture)
    assert [game.deck.name(c) for pile in state.table for c in pile] == ["9H"]


def test_expert_breaks_ties_by_the_legal_order():
    """The expert: "Ties go to the first action in the legal order." A queen or a king trailed on an
    empty pile, with as many of each unseen, leave the same threat: the queen, first in deck order."""
    game = load_game("turup", players=2)
    expert = ExpertAgent(game)
    state = game.new_state(1)
    player = state.current_player
    set_position(state, player, ["KS", "QS"], [])
    assert state.legal_actions() == [Trail("Q"), Trail("K")]
    assert expert.choose(state, state.legal_actions(), None) == Trail("Q")


def test_scores_include_the_cards_won_in_the_round_under_way():
    """``scores``: cards won by each seat over the match so far, the current round's included."""
    game = load_game("turup", players=3)
    state = game.new_state(2)
    player = state.current_player
    set_position(state, player, ["5S", "KS"], ["5H", "2C"])
    state.apply(Capture("5", ("5",)))
    assert state.rounds_played == 0
    expected = [0, 0, 0]
    expected[player] = 2
    assert state.scores() == expected and state.result()["scores"] == expected


def test_set_aside_cards_count_for_nobody_even_with_last_capturer():
    """Rules page: "Set-aside cards of a ``discard`` short deal count for nobody either way": six players, two
    decks, 4 cards set aside; the last capturer gets the pile, not them."""
    game = with_options(6, short_deal="discard", leftovers="last_capturer", rounds=1)
    state = play(game, 3, make_agents(["greedy"], game)).state
    result = state.result()
    assert result["leftover"] == 4 and sum(result["scores"]) == 100


def test_the_last_capturer_is_the_last_of_the_same_round():
    """``leftovers: last_capturer`` gives the pile left at the end of a round to the last player who
    captured in it: a round without a capture leaves its pile to nobody, whoever captured the round before."""
    game = with_options(2, leftovers="last_capturer", rounds=2)
    state = game.new_state(7)  # a second deal whose pile of trails stays cheap to list
    while state.rounds_played == 0:
        state.apply(first_action(state))
    assert sum(state.round_scores[0]) == 52  # round 1 had captures: its last capturer took the pile
    while state.current_player is not None:
        state.apply(next(a for a in state.legal_actions() if type(a) is Trail))
    result = state.result()
    assert result["round2_scores"] == [0, 0] and result["leftover"] == 52


def test_compulsory_capture_still_offers_every_capture_of_every_card():
    """``capture_optional: false`` "makes capturing compulsory whenever any card in hand can capture":
    the trails go, but every capture of every card in hand stays legal."""
    game = with_options(2, capture_optional=False)
    state = game.new_state(1)
    set_position(state, state.current_player, ["5S", "7S", "KS"], ["5H", "2C", "KH"])
    assert state.legal_actions() == [Capture("5", ("5",)), Capture("7", ("2", "5")), Capture("K", ("K",))]


@pytest.mark.parametrize("community_first", [False, True])
def test_community_size_and_hand_size_options_set_the_deal(community_first):
    """``hand_size``: cards dealt to each player in every deal; ``community_size``: cards dealt face
    up to the community pile at the start of a round (either dealing order)."""
    game = with_options(3, hand_size=5, community_size=2, community_first=community_first)
    state = game.new_state(11)
    deal = state.deals[0]
    assert [len(hand) for hand in deal["hands"]] == [5, 5, 5]
    assert len(deal["community"]) == 2 and len(deal["stock"]) == 52 - 15 - 2
    for _ in range(15):  # every hand played out: the redeal gives 5 cards each again
        state.apply(Trail(game.rank_ids[game.rank_of[state.hands[state.current_player][0]]]))
    assert [len(hand) for hand in state.hands] == [5, 5, 5] and len(state.stock) == 52 - 30 - 2


def test_compulsory_capture_without_a_capture_lets_every_card_trail():
    """``capture_optional: false`` only takes the trails away when some card can capture; with nothing to
    take (5, 7 and K on {2, 9}) every card in hand may still be trailed, not just the lowest."""
    game = with_options(2, capture_optional=False)
    state = game.new_state(1)
    set_position(state, state.current_player, ["5S", "7S", "KS"], ["2C", "9H"])
    assert state.legal_actions() == [Trail("5"), Trail("7"), Trail("K")]


def test_leftovers_go_to_the_last_capturer_when_he_is_seat_0():
    """``leftovers: last_capturer`` with seat 0 the last capturer: seat 1 always trails, seat 0 (the
    dealer) takes what he can, so the pile left at the end is seat 0's. Seat 0 is a capturer like any
    other, not "nobody" (a falsy seat number)."""
    game = with_options(2, leftovers="last_capturer", rounds=1)
    state = game.new_state(5)
    while state.current_player is not None:
        legal = state.legal_actions()
        if state.current_player == 1:
            state.apply(next(a for a in legal if type(a) is Trail))
        else:
            state.apply(first_action(state))
    swept = state.round_swept[-1]
    assert swept is not None and swept[0] == 0 and swept[1]
    assert state.result()["round1_scores"] == [52, 0] and state.result()["leftover"] == 0


def test_a_first_deal_of_exactly_half_the_deck_in_community_is_blamed_on_the_hands():
    """``check_config`` says a first deal too big at the community's line only when the community pile takes
    *more than* half the deck: 26 community cards of 52 (and two hands of 14: 54 cards) are the hands' fault."""
    problems = check_config(with_options(2, hand_size=14, community_size=26).spec)
    assert problems and problems[0][0] == ("options", "hand_size")
    assert "the first deal needs 54 cards" in problems[0][1]


def test_a_crowded_first_pile_is_refused_only_in_more_than_half_the_deals(monkeypatch):
    """Rules page: ``validate`` refuses a ``community_size`` at which, "in more than half of the deals of seeds
    1-8", the first player's captures cannot be listed: 4 deals of 8 is half, accepted; 5 is refused."""
    spec = load_game("turup", players=2).spec
    for stopped, refused in ((4, False), (5, True)):
        monkeypatch.setattr(TurupGame, "first_move_problem",
                            lambda self, state, stopped=stopped: "too many" if state.seed <= stopped else None)
        problems = check_config(spec)
        assert bool(problems) == refused, stopped
    assert "in 5 of 8 deals" in problems[0][1]


def test_the_first_move_problem_names_the_highest_card_that_fails():
    """``first_move_problem`` asks the first player's cards highest first ("the highest fails first"): with a
    9 and a 10 in hand on three decks' every A-8 (96 cards), both are past the sub-pile limit, and the 10 is
    the one named."""
    game = load_game("turup", players=12)
    state = game.new_state(1)
    pile = [card for card in game.deck.names if card[0] in "A2345678"]
    assert len(pile) == 96
    set_position(state, state.current_player, ["9S", "TS"], pile)
    problem = game.first_move_problem(state)
    assert problem is not None and "every capture of a 10 " in problem
