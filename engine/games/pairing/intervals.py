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
waste. Everything is exact; the node budget counts memoised ``reach`` entries and the positions
``winnable_from`` tries (it goes move by move and stops at the first win).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .budget import OutOfBudget
from .rules import TURN, WILD, PairingGame, PairingState


class IntervalSolver:
    """Decide one position of a game with ``game.simple`` (no wilds, no row cap) exactly."""

    def __init__(self, game: PairingGame, state: PairingState, budget: int, relax_cap: bool = False):
        """``relax_cap``: decide the position as if rows had no cap. That game allows every move of
        the capped one, so "lost without the cap" proves "lost with it" (a cheap refutation for
        the capped games); a win without the cap proves nothing, and no line is offered."""
        if game.has_wilds or (game.row_cap is not None and not relax_cap):
            raise ValueError("the interval solver needs a game without wild cards or row cap")
        self.game, self.state = game, state
        self.budget: float = budget  # infinite once the verdict is in (:meth:`_moves`)
        self.nodes = 0
        card_class, accepts = game.card_class, game.accepts
        classes = len(accepts)
        partner = game.partner
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
        # +1: lower class (raises the counter), -1: upper, 0: free (above: pairs with itself, or never blocked;
        # only on the waste, since ``seq`` leaves free cards out), None: never playable
        self.kind = [0] * classes
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
        # the next card of the same class after each stock card (len(seq) when none): see ``reach``
        self.next_same = [next((j for j in range(i + 1, len(self.seq)) if self.seq[j] == c), len(self.seq))
                          for i, c in enumerate(self.seq)]
        self.loose = self._loose()
        self.span, self.width = weight, len(self.seq) + 1  # the memo key packs (d, k, i) into one integer
        self.memo: dict[int, int] = {}
        self.won_memo: dict[tuple[int, int, int], bool] = {}
        self.last_at = [-1] * classes  # the last stock index of each class (-1: none)
        for i, c in enumerate(self.seq):
            self.last_at[c] = i

    def _loose(self) -> list[list[tuple[int, int, int, int]]]:
        """Per stock index ``i``: (base, size, low, high) for each counted pair whose counter, anywhere in
        ``low..high``, can block none of its cards from ``i`` on, whatever their order (``low`` = its
        upper cards to come: enough lower-topped rows for all of them; ``high`` = its rows less its
        lower cards to come: room for all of them). ``reach(i, k, d)`` is then the same for every such
        value, so ``reach`` keys them all by ``low`` (a pair with no card left is the common case)."""
        seq, kind, base, size = self.seq, self.kind, self.base, self.size
        lows = [c for c in range(1, len(kind)) if kind[c] == 1]
        left = {c: 0 for c in lows}  # lower cards from i on
        upper = {c: 0 for c in lows}  # upper cards from i on
        low_of = {c: c for c in lows}
        for c in range(1, len(kind)):
            if kind[c] == -1:
                low_of[c] = next(x for x in lows if base[x] == base[c])
        out: list[list[tuple[int, int, int, int]]] = [[] for _ in range(len(seq) + 1)]
        for i in range(len(seq), -1, -1):
            if i < len(seq) and kind[seq[i]] in (1, -1):
                c = seq[i]
                (left if kind[c] == 1 else upper)[low_of[c]] += 1
            out[i] = [(base[c], size[c], upper[c], size[c] - 1 - left[c]) for c in lows
                      if upper[c] + left[c] < size[c] - 1]
        return out

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

        The forced-play argument of ``solver.py``, widened: when card ``i`` (class ``x``) is playable at
        once, burying it while the cards ``i+1..m-1`` above it are cleared, with no card of class ``x``
        among them (``m <= next_same[i]``), is never better than playing it at once: in between, its
        row's counter stands one step further (still within bounds, since it was playable at ``k`` and
        only the partner class moves it back meanwhile), which only the partner class's cards see, and
        they gain from it; the waste below holds one card fewer. So those choices are all inside
        ``reach(i + 1, k + step)``, and only burials past the next card of its class are tried apart.
        A card that pairs with its own class is always played at once.
        """
        memo, span, width = self.memo, self.span, self.width
        for base, size, low, high in self.loose[i]:
            count = (k // base) % size
            if low < count <= high:
                k -= (count - low) * base
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
            now = self.playable(c, k)  # may be played at once
            later = self._burials(i, now) if kind else 0
            if later:
                inner_d = d - 1 if self.cap is not None else d
                inner = self.reach(i + 1, k, inner_d) & later
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
            if now:
                out |= self.reach(i + 1, k + step, d)
        memo[key] = out
        return out

    def _burials(self, i: int, now: bool) -> int:
        """Bit mask of the stock positions ``m`` worth clearing up to before card ``i`` is played: all, or
        when it may be played at once, only those past the next card of its class (see ``reach``)."""
        after = self.next_same[i] if now else -1
        return -1 << (after + 1) if after < len(self.seq) else 0

    def room(self, t: int) -> int:
        """Free waste capacity with ``t`` waste cards below (1 stands for unlimited)."""
        return 1 if self.cap is None else self.cap - t

    def winnable_from(self, t: int, i: int, k: int) -> bool:
        """Can the game be won with the waste's bottom ``t`` cards, the stock from ``i`` and counters ``k``?

        Tried move by move (``_onwards``), stopping at the first win: unlike ``reach``, whose sets are
        complete, a won deal is then often settled after a small part of the ``reach`` closure.
        Each position counts as a node, as a ``reach`` entry does.
        """
        key = (t, i, k)
        known = self.won_memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        result = (not t and i == len(self.seq)) or any(self.winnable_from(*after) for after in self._onwards(t, i, k))
        self.won_memo[key] = result
        return result

    def _onwards(self, t: int, i: int, k: int) -> Iterator[tuple[int, int, int]]:
        """The positions (waste cards, stock index, counters) a winning play may go on to from this one.

        Its next move plays the waste's top card, or turns card ``i``, which must then be played
        before that waste card: at once, or once the cards turned above it are cleared up to some
        ``m`` in ``reach(i + 1, k, d)``. Forced plays, as in ``reach``: a playable card ``i`` is buried only
        past the next card of its class, and a playable waste top with no card of its class left in
        the stock is played at once (turning first could only help the cards of its own class).
        """
        n = len(self.seq)
        if t:
            w = self.waste[t - 1]
            if self.playable(w, k):
                yield t - 1, i, k + self.delta[w]
                if self.last_at[w] < i:
                    return
        if i == n or self.room(t) <= 0:
            return
        c = self.seq[i]
        kind, step = self.kind[c], self.delta[c]
        now = self.playable(c, k)
        if now:
            yield t, i + 1, k + step
        later = self._burials(i, now) if kind else 0
        if later:
            inner = self.reach(i + 1, k, self.room(t + 1)) & later
            while inner:
                low = inner & -inner
                inner ^= low
                m = low.bit_length() - 1
                k1 = k + self.prefix[m] - self.prefix[i + 1]
                if self.playable(c, k1):
                    yield t, m, k1 + step

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
        while t or i < len(self.seq):
            after = next(after for after in self._onwards(t, i, k) if self.winnable_from(*after))
            if after[0] < t:
                moves.append(self.waste[t - 1])
            else:
                moves.append(None)
                self._clear(i + 1, k, self.room(t + 1), after[1], moves)
                moves.append(self.seq[i])
            t, i, k = after
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
