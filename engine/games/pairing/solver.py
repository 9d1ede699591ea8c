"""An exact solver for the pairing solitaires: can this deal be won, and how?

The player is assumed to know the stock's order, so a deal is a one-player puzzle. Three facts
keep the search small (see docs/rules/pairing.md, "The solver"):

* **Rows reduce to counters.** A row's top card only ever alternates between the two classes
  of its pair (v and match - v), so rows with the same top class (and, under a row cap, the
  same height) are interchangeable. The search state is the number of rows of each (top class,
  height) kind, the waste's classes, and how far into the stock the player is; full rows drop
  out. Failed states are memoised on that canonical key.
* **Pairs are independent sub-games.** Without wild cards, a card of one pair only ever goes
  onto rows of that pair. Project a winning play onto one pair's cards and it is still a
  winning play of the smaller game made of that pair's rows and cards alone (the waste, being
  a stack, stays a stack under projection, and never grows beyond the Strict cap). So if any
  pair's sub-game is lost, the whole position is lost. Each sub-game (a few dozen cards of two
  values) is solved exactly and memoised; after every move only the pair that moved is
  re-checked. This proves most unwinnable deals at once and cuts dead branches early.
* **The search cannot loop**: every move turns a card or places one.

Wild cards (the Fool, the Wizards) may move rows between pairs, so the sub-game check is used
only once every wild card is on a row and covered; until then the plain memoised search runs.

Games without wild cards or row cap (Eiffel Tower and most of the family) get a second, exact
stage when the search has not decided within ``SEARCH_SHARE`` nodes: the interval solver of
``intervals.py``, whose memo does not depend on the buried waste, so its effort is bounded by
the (stock index, row counters) pairs instead of growing with the waste's contents. The
search first because it settles most deals in a few hundred nodes; the interval stage
because it settles the rest in a bounded, if larger, number of cheaper nodes.

Capped games first get a room check (``over_capacity``: a pair's cards must fit on the rows
that can ever serve it), and, like wild-card games, one greedy playout (a win is a line);
without wild cards, the interval solver run as if rows had no cap refutes further deals
(that game allows every move of the capped one) before the search resumes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .intervals import IntervalSolver
from .intervals import OutOfBudget as IntervalsOutOfBudget
from .rules import TURN, WILD, PairingGame, PairingState, Play

DEFAULT_BUDGET = 2_000_000  # search nodes, sub-game nodes and interval-solver entries included
# A search node costs some ten times an interval entry: games that only have the search (wild
# cards in play) get this default instead, so that an undecided deal costs seconds, not minutes.
SEARCH_ONLY_BUDGET = 300_000
SEARCH_SHARE = 2_000  # nodes the depth-first search gets before the interval stage takes over


@dataclass
class Solution:
    """The verdict on one position: ``winnable`` is None when the node budget ran out."""

    winnable: bool | None
    nodes: int
    seconds: float
    line: list[Any] = field(default_factory=list)


class _Subgames:
    """Exact, memoised solutions of the sub-games of one deal made of a few pairs' cards alone.

    A sub-game is named by its tuple of pair groups; its state is (how many of its cards have
    been turned, its waste cards bottom to top, its rows' counts by (top class, height) kind).
    Sub-games of several pairs prune their own search with their one-pair sub-games.
    """

    def __init__(self, solver: "Solver", seq_classes: list[int]):
        self.solver = solver
        self.seq = seq_classes
        self.group = solver.group
        self.memo: dict[tuple, bool] = {}
        self.accepts = solver.game.accepts
        self.cap = solver.game.row_cap
        self.waste_cap = solver.game.waste_cap
        self.info: dict[tuple[int, ...], tuple] = {}

    def _info(self, gs: tuple[int, ...]) -> tuple:
        """(stock classes, row kinds, row kind -> position, per group: turned count by prefix length)."""
        info = self.info.get(gs)
        if info is None:
            group = self.group
            stock = bytes(c for c in self.seq if group[c] in gs)
            keys = [k for g in gs for k in self.solver.keys_of_group[g]]
            where = {k: i for i, k in enumerate(keys)}
            prefix = {}
            for g in gs:
                counts = [0]
                for c in stock:
                    counts.append(counts[-1] + (group[c] == g))
                prefix[g] = counts
            info = self.info[gs] = (stock, keys, where, prefix)
        return info

    def project(self, gs: tuple[int, ...], turned: int, waste: bytes, counts: tuple[int, ...],
                g: int) -> tuple[int, bytes, tuple[int, ...]]:
        """The state of one-pair sub-game ``g`` seen from sub-game ``gs``."""
        _, keys, _, prefix = self._info(gs)
        group = self.group
        return (prefix[g][turned], bytes(c for c in waste if group[c] == g),
                tuple(n for n, k in zip(counts, keys, strict=True) if group[k[0]] == g))

    def winnable(self, gs: tuple[int, ...], turned: int, waste: bytes, counts: tuple[int, ...]) -> bool:
        memo_key = (gs, turned, waste, counts)
        known = self.memo.get(memo_key)
        if known is not None:
            return known
        self.solver.nodes += 1
        if self.solver.nodes > self.solver.budget:
            raise _OutOfBudget
        stock, keys, where, _ = self._info(gs)
        result = False
        if turned == len(stock) and not waste:
            result = True
        else:
            children = []
            if waste:
                top = waste[-1]
                accepts = self.accepts[top]
                cap = self.cap
                for j, (cls, height) in enumerate(keys):
                    if not counts[j] or cls not in accepts:
                        continue
                    after = list(counts)
                    after[j] -= 1
                    new_height = height + 1 if cap is not None else 0
                    if cap is None or new_height < cap:
                        after[where[(top, new_height)]] += 1
                    children.append((turned, waste[:-1], tuple(after), top))
            if turned < len(stock) and (self.waste_cap is None or len(waste) < self.waste_cap):
                children.append((turned + 1, waste + stock[turned:turned + 1], counts, stock[turned]))
            for t, w, n, moved in children:
                if len(gs) > 1:
                    g = self.group[moved]
                    if not self.winnable((g,), *self.project(gs, t, w, n, g)):
                        continue
                if self.winnable(gs, t, w, n):
                    result = True
                    break
        self.memo[memo_key] = result
        return result


class Solver:
    """Solves positions of one game; build once per game, call :meth:`solve` per position."""

    def __init__(self, game: PairingGame, budget: int | None = None):
        """``budget``: nodes per position; None for the default (``DEFAULT_BUDGET``, or
        ``SEARCH_ONLY_BUDGET`` for games with wild cards, where only the search applies)."""
        self.game = game
        self.budget = budget if budget is not None else SEARCH_ONLY_BUDGET if game.has_wilds else DEFAULT_BUDGET
        card_class = game.card_class
        classes = sorted(set(card_class) | {c for acc in game.accepts[1:] for c in acc if c != WILD})
        # a pair group is named by its smaller class; the wild class is its own group
        self.group = [0] * len(game.accepts)
        for c in range(1, len(game.accepts)):
            partners = [p for p in game.accepts[c] if p != WILD]
            self.group[c] = min([c, *partners])
        self.groups = sorted({self.group[c] for c in classes if c != WILD})
        heights = list(range(1, game.row_cap)) if game.row_cap is not None else [0]
        # every (top class, height) row kind that is still open, numbered
        self.keys = [(c, h) for c in range(len(game.accepts)) for h in heights]
        self.key_index = {k: i for i, k in enumerate(self.keys)}
        self.keys_of_group = {g: [k for k in self.keys if k[0] != WILD and self.group[k[0]] == g] for g in self.groups}
        self.key_ids_of_group = {g: [self.key_index[k] for k in ks] for g, ks in self.keys_of_group.items()}
        self.nodes = 0

    # -- public ------------------------------------------------------------------------
    def solve(self, state: PairingState) -> Solution:
        """Decide ``state`` (any position, not only a fresh deal) and find a winning line."""
        start = time.perf_counter()
        self.nodes = 0
        if self.over_capacity(state):
            return Solution(False, 0, time.perf_counter() - start)
        if not self.game.simple:
            line = self.greedy_line(state)
            if line is not None:
                return Solution(True, 0, time.perf_counter() - start, line)
        staged = self.game.simple and self.budget > SEARCH_SHARE
        relaxable = not self.game.has_wilds and self.game.row_cap is not None and self.budget > SEARCH_SHARE
        budget = self.budget
        if staged or relaxable:
            self.budget = SEARCH_SHARE
        try:
            line = self._search(state)
            verdict = line is not None
        except _OutOfBudget:
            line, verdict = None, None
        finally:
            self.budget = budget
        if verdict is None and relaxable:
            # the uncapped game allows every move of this one: lost there means lost here
            relaxed = IntervalSolver(self.game, state, budget - self.nodes, relax_cap=True)
            try:
                if not relaxed.winnable():
                    verdict, line = False, None
            except IntervalsOutOfBudget:
                pass
            self.nodes += relaxed.nodes
            if verdict is None and self.nodes < budget:
                try:
                    line = self._search(state)
                    verdict = line is not None
                except _OutOfBudget:
                    pass
        if verdict is None and staged:
            intervals = IntervalSolver(self.game, state, budget - self.nodes)
            try:
                line = intervals.solve()
                verdict = line is not None
            except IntervalsOutOfBudget:
                pass
            self.nodes += intervals.nodes
        return Solution(verdict, self.nodes, time.perf_counter() - start, line or [])

    def greedy_line(self, state: PairingState) -> list[Any] | None:
        """The ``greedy`` agent's line from ``state`` if it wins, else None.

        With wild cards or a row cap the search finds wins slowly, and greedy play wins many of
        the winnable deals (it never looks at the stock, and uses no randomness): one playout
        settles those deals before any search.
        """
        from .agents import GreedyAgent

        agent = GreedyAgent(self.game)
        position = state.clone()
        line = []
        while position.current_player is not None:
            action = agent.choose(position, position.legal_actions(), None)
            position.apply(action)
            line.append(action)
        return line if position.won() else None

    def over_capacity(self, state: PairingState) -> bool:
        """Is some pair's card count beyond the room its rows can ever offer (row cap only)?

        Every card still to play takes one place on a row topped, at that moment, by its pair or
        by a wild card. Rows never leave their pair except through a wild card: a row may serve
        a pair only if it is in that pair now, is wild-topped now, or is one of the rows the wild
        cards still to place will land on (at most one row each, so the roomiest others).
        """
        game = self.game
        cap = game.row_cap
        if cap is None:
            return False
        card_class, group = game.card_class, self.group
        rooms: dict[int, list[int]] = {}
        for row in state.rows:
            rooms.setdefault(group[card_class[row[-1]]], []).append(cap - len(row))
        left: dict[int, int] = {}
        wilds = 0
        for c in list(state.stock[state.next:]) + state.waste:
            cls = card_class[c]
            if cls == WILD:
                wilds += 1
            else:
                left[group[cls]] = left.get(group[cls], 0) + 1
        wild_room = sum(rooms.get(WILD, []))
        if sum(left.values()) + wilds > wild_room + sum(sum(r) for g, r in rooms.items() if g != WILD):
            return True
        for g, need in left.items():
            others = sorted((x for h, r in rooms.items() if h not in (g, WILD) for x in r), reverse=True)
            if need > sum(rooms.get(g, [])) + wild_room + sum(others[:wilds]):
                return True
        return False

    # -- the search ----------------------------------------------------------------------
    def _search(self, state: PairingState) -> list[Any] | None:
        """Depth-first search, plays before turns, with do/undo on one mutable position."""
        game = self.game
        card_class, accepts, cap, waste_cap = game.card_class, game.accepts, game.row_cap, game.waste_cap
        keys, key_index, group = self.keys, self.key_index, self.group
        seq_cls = [card_class[c] for c in state.stock[state.next:]]
        n_seq = len(seq_cls)
        subgames = _Subgames(self, seq_cls)
        # rows_of[k]: the real rows of kind k (so the line names rows); counts[k] = len(rows_of[k])
        rows_of: list[list[int]] = [[] for _ in keys]
        for r, row in enumerate(state.rows):
            height = len(row) if cap is not None else 0
            if cap is None or height < cap:
                rows_of[key_index[(card_class[row[-1]], height)]].append(r)
        counts = [len(rs) for rs in rows_of]
        waste = [card_class[c] for c in state.waste]
        turned = dict.fromkeys(self.groups, 0)
        wild_later = [0] * (n_seq + 1)  # wild cards still in the stock from each position on
        for i in range(n_seq - 1, -1, -1):
            wild_later[i] = wild_later[i + 1] + (seq_cls[i] == WILD)
        wild_keys = [key_index[k] for k in keys if k[0] == WILD]
        group_keys = self.key_ids_of_group
        idx = 0

        def pairs_free() -> bool:
            """True once no wild card can ever again move a row from one pair to another."""
            return not game.has_wilds or (wild_later[idx] == 0 and WILD not in waste
                                          and not any(counts[k] for k in wild_keys))

        def subgame_ok(g: int) -> bool:
            if not subgames.winnable((g,), turned[g], bytes(c for c in waste if group[c] == g),
                                     tuple(counts[k] for k in group_keys[g])):
                return False
            for h in self.groups:
                if h == g:
                    continue
                gs = (g, h) if g < h else (h, g)
                if not subgames.winnable(gs, turned[g] + turned[h], bytes(c for c in waste if group[c] in gs),
                                         tuple(counts[k] for k in group_keys[gs[0]] + group_keys[gs[1]])):
                    return False
            return True

        class_left = [0] * len(accepts)  # cards of each class not yet turned
        for c in seq_cls:
            class_left[c] += 1
        simple = game.simple

        def moves() -> list[tuple]:
            """Moves to try, last first: every kind of row the waste's top may go on, then the turn.

            Forced play (no row cap, no wild cards): when the top card can be played and no card
            of its class is left in the stock, playing it now is never worse than burying it
            (whatever is played above it in the meantime only gains from its pair's counter
            having moved), so the turn is not tried.
            """
            found: list[tuple] = []
            if waste:
                top = waste[-1]
                acc = accepts[top]
                found = [("play", k) for k in range(len(counts) - 1, -1, -1) if counts[k] and keys[k][0] in acc]
                if found and simple and (class_left[top] == 0 or acc == {WILD, top}):
                    return found
            if idx < n_seq and (waste_cap is None or len(waste) < waste_cap):
                found.insert(0, ("turn",))
            return found

        if cap is not None and len(waste) + n_seq > sum(counts[k] * (cap - keys[k][1]) for k in range(len(keys))):
            return None  # not enough room left on the rows (each play uses one place: checked once)
        if pairs_free() and not all(subgame_ok(g) for g in self.groups):
            return None
        failed: set[tuple] = set()
        line: list[Any] = []
        frames = [moves()]  # per depth: the moves still to try there
        done: list[tuple] = []  # the moves made, to undo them

        def undo() -> None:
            nonlocal idx
            move = done.pop()
            line.pop()
            if move[0] == "turn":
                c = waste.pop()
                if c != WILD:
                    turned[group[c]] -= 1
                class_left[c] += 1
                idx -= 1
            else:
                _, k, new_k, row, c = move
                if new_k is not None:
                    rows_of[new_k].pop()
                    counts[new_k] -= 1
                rows_of[k].append(row)
                counts[k] += 1
                waste.append(c)

        while True:
            if idx == n_seq and not waste:
                return line
            options = frames[-1]
            if not options:
                failed.add((idx, bytes(waste), bytes(counts)))
                frames.pop()
                if not done:
                    return None
                undo()
                continue
            move = options.pop()
            self.nodes += 1
            if self.nodes > self.budget:
                raise _OutOfBudget
            if move[0] == "turn":
                c = seq_cls[idx]
                waste.append(c)
                if c != WILD:
                    turned[group[c]] += 1
                class_left[c] -= 1
                idx += 1
                line.append(TURN)
                done.append(move)
            else:
                k = move[1]
                c = waste.pop()
                row = rows_of[k].pop()
                counts[k] -= 1
                height = keys[k][1] + 1 if cap is not None else 0
                new_k = key_index[(c, height)] if cap is None or height < cap else None
                if new_k is not None:
                    rows_of[new_k].append(row)
                    counts[new_k] += 1
                line.append(game.plays[row])
                done.append(("play", k, new_k, row, c))
            key = (idx, bytes(waste), bytes(counts))
            dead = key in failed
            if not dead and c != WILD and pairs_free() and not subgame_ok(group[c]):
                failed.add(key)
                dead = True
            if dead:
                undo()
            else:
                frames.append(moves())


class _OutOfBudget(Exception):
    """The node budget ran out before the position was decided."""


def solve_deal(game: PairingGame, seed: int | str, rng: str = "native", budget: int | None = None) -> Solution:
    """Deal ``seed`` and decide it."""
    return Solver(game, budget).solve(game.new_state(game.check_seed(seed, rng), rng))


__all__ = ["DEFAULT_BUDGET", "SEARCH_ONLY_BUDGET", "Play", "Solution", "Solver", "solve_deal"]
