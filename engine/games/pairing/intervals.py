"""The interval solver: an exact decision procedure for pairing games without wild cards or row cap.

Why it exists: the depth-first search in ``solver.py`` memoises whole positions (stock index,
waste, rows), so on hard deals it revisits the same stock cards under many different buried
wastes. But the waste is a stack: the cards buried under the waste's top never influence how
the cards *above* them are cleared. So the question "starting at stock card ``i`` with rows
``K``, which stock positions ``j`` can be reached with every card ``i..j-1`` turned *and*
played (the waste below untouched)?" has an answer, ``reach(i, K)``, that does not depend on
the waste below, and is shared by every position that meets it.

Without wild cards and row cap a pair class's rows never leave it, so the rows reduce to one
counter per pair class (rows topped by its lower value), and clearing cards ``i..j-1`` moves
the counters by a fixed amount (the sum of those cards' effects): ``reach`` is a bit set of
``j``. Its recurrence: card ``i`` is turned, the cards above it are cleared up to some ``m``
(a member of ``reach(i + 1, K)``), card ``i`` is played if its pair class allows it, then the
cards from ``m`` on are cleared. Under the Strict waste cap the free waste capacity ``d`` is
part of the key (each card turned on top of ``i`` has one place fewer).

The whole deal: the waste's cards are played top first, each after some stretch of the stock
has been cleared above it; the deal is won when the stock is cleared to its end with an empty
waste. Everything is exact; the node budget counts memoised ``reach`` entries.
"""

from __future__ import annotations

from typing import Any

from .rules import TURN, WILD, PairingGame, PairingState


class OutOfBudget(Exception):
    """The node budget ran out before the position was decided."""


class IntervalSolver:
    """Decide one position of a game with ``game.simple`` (no wilds, no row cap) exactly."""

    def __init__(self, game: PairingGame, state: PairingState, budget: int, relax_cap: bool = False):
        """``relax_cap``: decide the position as if rows had no cap. That game allows every move of
        the capped one, so "lost without the cap" proves "lost with it" (a cheap refutation for
        the capped games); a win without the cap proves nothing, and no line is offered."""
        if game.has_wilds or (game.row_cap is not None and not relax_cap):
            raise ValueError("the interval solver needs a game without wild cards or row cap")
        self.game, self.state, self.budget = game, state, budget
        self.nodes = 0
        card_class, accepts = game.card_class, game.accepts
        classes = len(accepts)
        partner = [max(acc) for acc in accepts]  # WILD (0) when a class has no partner
        group_rows = [0] * classes  # rows per pair group, the group named by its smaller class
        group_low = [0] * classes  # rows of each pair group topped by its lower class
        for top in state.tops:
            g = min(top, partner[top]) if partner[top] != WILD else top
            group_rows[g] += 1
            group_low[g] += top == g
        left = [0] * classes  # cards of each class still to play
        for c in list(state.stock[state.next:]) + state.waste:
            left[card_class[c]] += 1
        # A pair whose counter can never block a card (room for every lower card still to come,
        # and enough lower-topped rows for every upper card) is free: its stock cards are played
        # the moment they are turned and touch no other pair, so they leave the stock entirely.
        self.free = [False] * classes
        for c in range(1, classes):
            p = partner[c]
            g = min(c, p)
            if p == WILD or group_rows[g] == 0:
                continue
            self.free[c] = p == c or (group_low[g] + left[g] <= group_rows[g] and group_low[g] >= left[max(c, p)])
        # Counter encoding: K = sum over two-valued groups of (rows topped by the lower class) * base.
        self.base = [0] * classes
        self.size = [1] * classes
        self.kind = [0] * classes  # +1: lower class (raises the counter), -1: upper, 0: pairs with itself, None: never
        weight = 1
        for c in range(1, classes):
            p = partner[c]
            g = min(c, p) if p != WILD else c
            if p == WILD or group_rows[g] == 0:
                self.kind[c] = None
                continue
            if self.free[c]:
                continue
            if c == g:
                self.base[c], self.size[c] = weight, group_rows[g] + 1
                weight *= group_rows[g] + 1
            self.kind[c] = 1 if c < p else -1
        for c in range(1, classes):
            if self.kind[c] == -1:
                self.base[c], self.size[c] = self.base[partner[c]], self.size[partner[c]]
        k0 = 0
        for top in state.tops:
            if self.kind[top] == 1:
                k0 += self.base[top]
        self.k0 = k0
        self.seq = [card_class[c] for c in state.stock[state.next:] if not self.free[card_class[c]]]
        # the waste keeps its free cards (as cards that pair with anything), so its height stays true
        self.waste = [card_class[c] for c in state.waste]
        self.delta = [self.kind[c] * self.base[c] if self.kind[c] else 0 for c in range(classes)]
        prefix = [0]
        for c in self.seq:
            prefix.append(prefix[-1] + self.delta[c])
        self.prefix = prefix
        self.cap = game.waste_cap
        self.last = [c not in self.seq[i + 1:] for i, c in enumerate(self.seq)]  # no later card of its class
        self.span, self.width = weight, len(self.seq) + 1  # the memo key packs (d, k, i) into one integer
        self.memo: dict[int, int] = {}
        self.won_memo: dict[tuple[int, int, int], bool] = {}

    # -- the recurrence ----------------------------------------------------------------
    def playable(self, c: int, k: int) -> bool:
        """May a card of class ``c`` be played when the counters read ``k``?"""
        kind = self.kind[c]
        if kind is None:
            return False
        if kind == 0:
            return True
        count = (k // self.base[c]) % self.size[c]
        return count < self.size[c] - 1 if kind == 1 else count > 0

    def reach(self, i: int, k: int, d: int) -> int:
        """Bit set of ``j``: the stock's cards ``i..j-1`` can be turned and all played from counters ``k``
        with at most ``d`` of them on the waste at once (``d`` is ignored without a Strict cap).

        Two shortcuts, both the forced-play argument of ``solver.py``: a card that pairs with its own
        class, or the last card of its class, when playable at once, is best played at once (burying it
        only delays a move that no card above it can benefit from), so the other choices are not tried.
        """
        memo, span, width = self.memo, self.span, self.width
        key = (d * span + k) * width + i
        found = memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        out = 1 << i
        seq = self.seq
        if i < len(seq) and d > 0:
            c = seq[i]
            kind, step = self.kind[c], self.delta[c]
            if kind == 0 or (self.last[i] and self.playable(c, k)):
                out |= self.reach(i + 1, k + step, d)
            elif kind is not None:
                inner_d = d - 1 if self.cap is not None else d
                inner = self.reach(i + 1, k, inner_d)
                shift = k - self.prefix[i + 1]
                prefix, reach = self.prefix, self.reach
                base, top = self.base[c], self.size[c] - 1
                high = kind == 1
                outer = d * span
                while inner:
                    low = inner & -inner
                    inner ^= low
                    m = low.bit_length() - 1
                    k1 = shift + prefix[m]
                    count = (k1 // base) % (top + 1)
                    if (count < top) if high else (count > 0):
                        k2 = k1 + step
                        got = memo.get((outer + k2) * width + m)
                        out |= got if got is not None else reach(m, k2, d)
        memo[key] = out
        return out

    def room(self, t: int) -> int:
        """Free waste capacity with ``t`` waste cards below (1 stands for unlimited)."""
        return 1 if self.cap is None else self.cap - t

    def winnable_from(self, t: int, i: int, k: int) -> bool:
        """Can the game be won with the waste's bottom ``t`` cards, the stock from ``i`` and counters ``k``?"""
        key = (t, i, k)
        known = self.won_memo.get(key)
        if known is not None:
            return known
        result = False
        if t == 0:
            result = bool(self.reach(i, k, self.room(0)) >> len(self.seq) & 1)
        else:
            for m, k2 in self._waste_plays(t, i, k):
                if self.winnable_from(t - 1, m, k2):
                    result = True
                    break
        self.won_memo[key] = result
        return result

    def _waste_plays(self, t: int, i: int, k: int):
        """Ways to play waste card ``t - 1``: clear the stock up to ``m`` above it, then play it."""
        c = self.waste[t - 1]
        bits = self.reach(i, k, self.room(t))
        while bits:
            low = bits & -bits
            bits ^= low
            m = low.bit_length() - 1
            k1 = k + self.prefix[m] - self.prefix[i]
            if self.playable(c, k1):
                yield m, k1 + self.delta[c]

    def winnable(self) -> bool:
        """The verdict alone."""
        return self.winnable_from(len(self.waste), 0, self.k0)

    # -- the winning line ----------------------------------------------------------------
    def solve(self) -> list[Any] | None:
        """A winning line of actions, or None when the position is lost."""
        if self.game.row_cap is not None:
            raise ValueError("a line found without the row cap may break it")
        if not self.winnable():
            return None
        return self._to_actions(self._moves())

    def capped_line(self) -> list[Any] | None:
        """With ``relax_cap``, once the uncapped game is known won: its winning line, naming for each
        play the roomiest legal row, if that keeps the row cap all along and wins; else None.

        Most winnable capped deals need the cap only here and there; a line that the real rules
        accept to the end is a real win, found at the interval solver's cost instead of the
        search's. None proves nothing."""
        if not self.winnable():
            return None
        try:
            line = self._to_actions(self._moves(), roomiest=True)
        except _NoRow:
            return None
        return line

    def _moves(self) -> list[int | None]:
        """The winning moves (the position is won): None turns a card, a class plays the waste's top."""
        self.budget = float("inf")  # the verdict is in: finding the line must not fail on the budget
        moves: list[int | None] = []
        t, i, k = len(self.waste), 0, self.k0
        while t:
            c = self.waste[t - 1]
            m, k2 = next((m, k2) for m, k2 in self._waste_plays(t, i, k) if self.winnable_from(t - 1, m, k2))
            self._clear(i, k, self.room(t), m, moves)
            moves.append(c)
            t, i, k = t - 1, m, k2
        self._clear(i, k, self.room(0), len(self.seq), moves)
        return moves

    def _clear(self, i: int, k: int, d: int, j: int, moves: list[int | None]) -> None:
        """Append the moves that turn and play stock cards ``i..j-1`` (a member of ``reach(i, k, d)``)."""
        while i < j:
            c = self.seq[i]
            inner_d = d - 1 if self.cap is not None else d
            shift = k - self.prefix[i + 1]
            m = next(m for m in range(i + 1, j + 1)
                     if self.reach(i + 1, k, inner_d) >> m & 1 and self.playable(c, shift + self.prefix[m])
                     and self.reach(m, shift + self.prefix[m] + self.delta[c], d) >> j & 1)
            moves.append(None)
            self._clear(i + 1, k, inner_d, m, moves)
            moves.append(c)
            i, k = m, shift + self.prefix[m] + self.delta[c]

    def _to_actions(self, moves: list[int | None], roomiest: bool = False) -> list[Any]:
        """Name real rows (rows of one top class are interchangeable: the first legal one, or with
        ``roomiest`` the lowest) and put back the free pairs' stock cards, each played as soon as it
        is turned."""
        position = self.state.clone()
        card_class, free = self.game.card_class, self.free
        line: list[Any] = []

        def do(action: Any) -> None:
            position.apply(action)
            line.append(action)

        def play() -> None:
            plays = [a for a in position.legal_actions() if a is not TURN]
            if not plays:
                raise _NoRow
            do(min(plays, key=lambda a: len(position.rows[a.row])) if roomiest else plays[0])

        for move in moves:
            if move is None:
                do(TURN)
                while free[card_class[position.waste[-1]]]:
                    play()
                    do(TURN)
            else:
                play()
        while position.next < len(position.stock):  # free cards left at the stock's end
            do(TURN)
            play()
        if not position.won():
            raise _NoRow
        return line


class _NoRow(Exception):
    """A line of the uncapped game found no row for a card under the cap."""
