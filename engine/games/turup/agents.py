"""Turup agents.

``greedy`` takes the most cards now: the capture with the most cards, else a trail. Ties go to
the first action in the legal order (so it trails its lowest rank when it cannot capture).

``expert`` scores each action as the cards it wins now minus what the next player can expect to
win from the community pile it leaves. The next player's hand is hidden, so the expert reasons
over the cards it has not seen (not in its hand, on the pile or in any won pile): for every rank,
the best capture a card of that rank could make on the new pile, and the chance that a hand of the
next player's size holds a card of that rank or a better one, drawn from the unseen cards. The
expectation of the best capture is then ``sum_i (b_i - b_(i+1)) * (1 - (1 - F_i) ** h)``, ranks
sorted by best capture ``b`` (descending), ``F_i`` the unseen share of the top ``i`` ranks and
``h`` the hand size. That chance treats the hand's cards as drawn with replacement: an
approximation (a hand of 4 from the unseen cards is drawn without), close while the unseen cards
far outnumber the hand, and cheap. Ties go to the first action in the legal order. It never looks
at hidden cards.
"""

from __future__ import annotations

from typing import Any, Sequence

from .rules import Capture, TurupGame, TurupState

#: Entries of the expert's best-capture memo kept before it is emptied (bounds a long batch's memory, as the
#: rules' own capture cache is bounded by ``rules.CACHE_LIMIT``; these entries are a pair of ints each, so more
#: are kept).
BEST_CAPTURE_LIMIT = 200_000


def gain(action: Any) -> int:
    """Cards an action wins now: the card played and the cards taken (0 for a trail)."""
    return len(action.take) + 1 if type(action) is Capture else 0


class GreedyAgent:
    """Takes the most cards now (the module's docstring)."""

    name = "greedy"

    def __init__(self, game: TurupGame):
        pass

    def choose(self, state: TurupState, actions: Sequence[Any], rng: Any) -> Any:
        best, most = actions[0], gain(actions[0])
        for action in actions:
            cards = gain(action)
            if cards > most:
                best, most = action, cards
        return best


class ExpertAgent:
    """Takes the most cards now less what the next player can expect to take from the pile left (the module's
    docstring)."""

    name = "expert"

    def __init__(self, game: TurupGame):
        self.game = game
        self.per_rank = [0] * len(game.rank_ids)
        for rank in game.rank_of:
            self.per_rank[rank] += 1
        self._best: dict[tuple[int, int], int] = {}

    def best_capture(self, rank: int, table: int) -> int:
        """Most cards a card of rank index ``rank`` wins on the packed pile ``table`` (0: none)."""
        key = (rank, table & self.game.masks[rank])
        best = self._best.get(key)
        if best is None:
            captures = self.game.captures(rank, table)
            best = max((len(c.take) for c in captures), default=-1) + 1
            if len(self._best) >= BEST_CAPTURE_LIMIT:
                self._best.clear()
            self._best[key] = best
        return best

    def choose(self, state: TurupState, actions: Sequence[Any], rng: Any) -> Any:
        if len(actions) == 1:
            return actions[0]
        game = self.game
        player = state.current_player
        unseen = self.unseen(state, player)
        total = sum(unseen)
        hand = self._next_hand(state, player)
        best, best_value = actions[0], None
        for action in actions:
            rank = game.rank_index[action.rank]
            if type(action) is Capture:
                table = state.tpack - sum(game.units[game.rank_index[r]] for r in action.take)
            else:
                table = state.tpack + game.units[rank]
            value = gain(action) - (self._threat(table, unseen, total, hand) if hand else 0.0)
            if best_value is None or value > best_value + 1e-12:
                best, best_value = action, value
        return best

    def unseen(self, state: TurupState, player: int) -> list[int]:
        """Cards of each rank index that ``player`` has not seen: not in his hand, on the pile or in
        any won pile (every card won was seen as it was taken): they are in the stock or the other hands."""
        unseen = list(self.per_rank)
        rank_of = self.game.rank_of
        for pile in (state.hands[player], *state.table, *state.won):
            for code in pile:
                unseen[rank_of[code]] -= 1
        return unseen

    def _next_hand(self, state: TurupState, player: int) -> int:
        """Cards the next player will hold when the turn passes (0 when the round ends first)."""
        hands = state.hands
        n = len(hands)
        for step in range(1, n):
            size = len(hands[(player + step) % n])
            if size:
                return size
        if len(hands[player]) > 1:
            return 0  # only this player still holds cards: nobody else plays on this pile
        dealt = state.next_deal_sizes()  # this is the last card in hand: the next deal comes first
        for step in range(1, n):
            if dealt[(player + step) % n]:
                return dealt[(player + step) % n]
        return 0

    def _threat(self, table: int, unseen: list[int], total: int, hand: int) -> float:
        if total <= 0:
            return 0.0
        bests = sorted(((self.best_capture(r, table), count) for r, count in enumerate(unseen) if count > 0),
                       reverse=True)
        expected, share = 0.0, 0
        for i, (best, count) in enumerate(bests):
            if best == 0:
                break
            share += count
            following = bests[i + 1][0] if i + 1 < len(bests) else 0
            expected += (best - following) * (1.0 - (1.0 - share / total) ** hand)
        return expected


AGENTS = {"greedy": GreedyAgent, "expert": ExpertAgent}
