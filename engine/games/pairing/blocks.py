"""An exact refutation for games without a row cap (Wizard's Tower and its Strict version): the play
split into nested blocks, whose outcomes are memoised without the waste below them; of a whole deal
under a waste cap, or of its projection onto a few pairs.

Why it is exact. The waste is a stack. If the card turned at stock index i is played once the
stock is at m, the cards i+1..m-1 were turned after it and lay above it, so all of them were
played first; and what they could do did not depend on the cards below card i, which no move
reaches while card i is on the waste. So "from rows S, with d free places on the waste, the cards
i..k-1 can all be turned and played, leaving rows S'" is a relation ``clear(i, S, d)`` on pairs
(k, S') that does not depend on the waste below: it holds (i, S) itself and, for each (m, S1) in
``clear(i + 1, S, d - 1)`` (card i turned and lying under them) and each S2 that playing card i
makes of S1, all of ``clear(m, S2, d)``. A position whose waste holds w cards and whose stock is
at s is won exactly when (stock end, some S') is in ``clear`` of the sequence "waste then stock"
from rows S with the cap's free places, the waste's cards taken as not yet turned: exact for a
deal (one card on the waste), a relaxation for a later position (its waste cards could then also
be played before the next one is turned), so a loss is a loss either way. Rows are interchangeable
without a row cap, so S is their count by top class: the search's own key without the waste.

Two moves are never needed (a wild-topped row can do all any row can, and a card played onto it
leaves the same row as on any row): a card goes onto a wild-topped row only when no row of its
partner class is open, and a wild card onto a wild-topped row only when no other row is open.

This is the only stage that refutes deals whose eight Wizards make every other relaxation winnable
(issue 3's twenty-fourth pass: Strict Wizard's Tower 62, open at 380 million positions of the plain
search, is lost after 190 million stored pairs); a won deal's relations grow without bound, so it
answers only "lost" or "undecided", within :data:`.efforts.BLOCK_EFFORT` stored pairs, and a win is left to
CP-SAT, which gives its line. Compiled with numba: a pair is one integer (stock index and each top
class's count in base ``radix``), each relation a slice of a chunk of the store, found by its
``(d, i, S)`` in an open-addressing table; the relations under computation (one per free place,
as d falls by one a level) each have their own set and work list. A relation of one free place
(each card played before the next is turned) is computed again each time it is needed instead of
stored, unless it holds :data:`_SMALL` pairs or more: most hold a few, but together they were about
half of all pairs (issue 3's twenty-fifth pass: a half to a third of the memory, and about the time, a
refutation took before). An uncapped waste is a cap of as many places as cards: a level above the cards
left from a relation's stock index is the same relation, so its memo key counts the level only up to them.

Projections. Keep the cards of a few pairs and every wild card, and every row as dealt, a row topped by
another pair's card taking only wild cards: a winning play of the deal, restricted to the kept cards, wins
this smaller game (the waste stays a stack, and no fuller than before; a kept card goes only onto its
partner or a wild card, and that row's top is the same in both games). So a lost projection is a lost
deal. Its rows of other pairs are one *dead* class, which no card but a wild one ever goes onto: a wild
card then goes onto a dead row if there is one (any other row can do all a dead row can). Without a
waste cap the whole deal's relations are far too many, but a projection has few classes, and a won one's
relations grow slowly enough for an effort of a few million pairs (:data:`.efforts.REFUTATIONS`) to decide
about half of them: Wizard's Tower deals 131, 240 and 529, which no other stage decides, are lost because one
three-pair projection each is (issue 3's thirtieth pass; each of the 56 decided or cut off within a second), and
seed 5 because one of five pairs is (thirty-first pass: 52 million pairs, 19 s), and Strict Wizard's Tower 870 and
508 because one of seven is (thirty-second pass).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import numpy as np

from ...compiled import compiled
from .efforts import BLOCK_EFFORT
from .rules import WILD, PairingState, pair_groups

_FIRST_BITS = 12  # a level's set and the memo's first table: 2^12 slots, doubled when half full
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SMALL = 64  # a relation of one free place with fewer pairs is computed again each time, not stored
_CHUNK = 1 << 22  # the store's pairs come in chunks of 2^22 (32 MB), so that it grows without copying
_OFFSET_BITS = 40  # a relation's place in the store: its chunk's index, then its offset in the chunk
_OFFSET_MASK = (1 << _OFFSET_BITS) - 1


@compiled
def _hash(key: np.uint64, mask: int) -> int:
    h = key * _MIX
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))


@compiled
def _find(keys: np.ndarray, key: np.uint64) -> int:
    """The slot of ``key`` (never 0: 0 marks a free slot) in the table ``keys``, or the free slot
    where it would go: the memo's, and each level's set."""
    mask = keys.shape[0] - 1
    s = _hash(key, mask)
    while keys[s] != 0 and keys[s] != key:
        s = (s + 1) & mask
    return s


@compiled
def _insert(table: np.ndarray, key: np.uint64) -> bool:
    """Put ``key`` in the set ``table``; whether it was new."""
    s = _find(table, key)
    if table[s] == key:
        return False
    table[s] = key
    return True


@compiled
def _add(sets, works, size, d: int, pair: np.uint64) -> None:
    """Add ``pair`` to the relation under computation at level ``d``, growing its set (and work
    list) when half full."""
    if 2 * (size[d] + 1) > sets[d].shape[0]:
        bigger = np.zeros(2 * sets[d].shape[0], np.uint64)
        for q in range(size[d]):
            _insert(bigger, works[d][q])
        sets[d] = bigger
        longer = np.empty(bigger.shape[0], np.uint64)
        longer[:size[d]] = works[d][:size[d]]
        works[d] = longer
    if _insert(sets[d], pair):
        works[d][size[d]] = pair
        size[d] += 1


@compiled
def _start(sets, works, size, done, d: int, pair: np.uint64) -> None:
    """Begin the relation of ``pair`` at level ``d``: its set emptied, ``pair`` its first member.
    The set's slots are freed last in first out, so that each is found along a chain of slots
    still held (clearing the whole table would cost its size, however few the last relation held)."""
    for q in range(size[d] - 1, -1, -1):
        sets[d][_find(sets[d], works[d][q])] = 0
    size[d] = 0
    done[d] = 0
    _add(sets, works, size, d, pair)


@compiled
def _key(d: int, pair: np.uint64, unit: np.uint64, n: int, level_unit: np.uint64) -> np.uint64:
    """The memo's key of the relation of ``pair`` at level ``d``. With ``n - i`` cards left from stock
    index i, more free places than that change nothing, so the level is counted up to ``n - i``: the
    relations of every level above it are one (an uncapped waste is the cap of ``n`` places)."""
    return np.uint64(min(d, n - np.int64(pair // unit))) * level_unit + pair


@compiled
def _lost(seq: np.ndarray, rows: np.uint64, radix: np.uint64, power: np.ndarray, partner: np.ndarray,
          dead: np.ndarray, cap: int, effort: int) -> tuple[int, int]:
    """(1 if lost, 0 if won, -1 if past ``effort`` pairs; pairs stored) for the card classes
    ``seq`` (waste bottom first, then the stock), rows packed in base ``radix`` (``power[c]`` is
    class c's digit, ``power[-1]`` a stock index's unit), ``cap`` free places on the waste.
    ``dead[t]``: no card of ``seq`` goes onto a row topped by class t but a wild card."""
    n = seq.shape[0]
    unit = power[power.shape[0] - 1]
    classes = power.shape[0] - 1
    sets = [np.zeros(1 << _FIRST_BITS, np.uint64) for _ in range(cap + 1)]
    works = [np.empty(1 << _FIRST_BITS, np.uint64) for _ in range(cap + 1)]
    size = np.zeros(cap + 1, np.int64)
    done = np.zeros(cap + 1, np.int64)
    keys = np.zeros(1 << _FIRST_BITS, np.uint64)
    first = np.zeros(1 << _FIRST_BITS, np.int64)
    length = np.zeros(1 << _FIRST_BITS, np.int64)
    entries = 0
    chunks = [np.empty(_CHUNK, np.uint64)]
    fill = 0  # pairs in the last chunk
    stored = 0
    level_unit = np.uint64(n + 1) * unit  # the memo's key: (d * (n + 1) + i) * unit + S
    single = np.empty(1, np.uint64)
    fresh = False  # whether level 1 holds the relation that level 2's next pair asks for, unstored
    d = cap
    _start(sets, works, size, done, d, rows)
    while True:
        if done[d] < size[d]:
            pair = works[d][done[d]]
            i = pair // unit
            if i >= n:
                done[d] += 1
                continue
            if d == 1:  # card i turned onto the last free place: it is played before any other is turned
                single[0] = pair + unit
                cleared = single
            else:
                s = _find(keys, _key(d - 1, pair + unit, unit, n, level_unit))
                if keys[s] != 0:
                    cleared = chunks[first[s] >> _OFFSET_BITS][first[s] & _OFFSET_MASK:][:length[s]]
                elif fresh:  # level 1 has just computed it, and it was not worth storing
                    fresh = False
                    cleared = works[1][:size[1]]
                else:  # clear(i + 1, below, d - 1) first
                    d -= 1
                    _start(sets, works, size, done, d, pair + unit)
                    continue
            c = seq[i]
            for after in cleared:
                tops = after % unit
                if c != WILD:
                    if (tops // power[partner[c]]) % radix:
                        _add(sets, works, size, d, after + power[c] - power[partner[c]])
                    elif tops % radix:
                        _add(sets, works, size, d, after + power[c] - power[WILD])
                else:
                    other = False  # whether a row not topped by a wild card is open
                    for t in range(1, classes):  # a dead row, if any, is the one to take
                        if dead[t] and (tops // power[t]) % radix:
                            other = True
                            _add(sets, works, size, d, after + power[WILD] - power[t])
                            break
                    if not other:
                        for t in range(1, classes):
                            if (tops // power[t]) % radix:
                                other = True
                                _add(sets, works, size, d, after + power[WILD] - power[t])
                    if not other:
                        _add(sets, works, size, d, after)
            if size[d] > effort:  # one relation alone past the effort (a won deal's do that)
                return -1, stored
            done[d] += 1
            continue
        if d == cap:
            for q in range(size[d]):
                if works[d][q] // unit == n:
                    return 0, stored
            return 1, stored
        if d == 1 and size[d] < _SMALL:
            fresh = True
            d = 2
            continue
        count = size[d]
        if stored + count > effort:
            return -1, stored
        if fill + count > chunks[-1].shape[0]:  # a new chunk: the store never moves, so never doubles
            chunks.append(np.empty(max(_CHUNK, count), np.uint64))
            fill = 0
        chunks[-1][fill:fill + count] = works[d][:count]
        if 2 * (entries + 1) > keys.shape[0]:
            old_keys, old_first, old_length = keys, first, length
            keys = np.zeros(2 * old_keys.shape[0], np.uint64)
            first = np.zeros(keys.shape[0], np.int64)
            length = np.zeros(keys.shape[0], np.int64)
            for q in range(old_keys.shape[0]):
                if old_keys[q] != 0:
                    s = _find(keys, old_keys[q])
                    keys[s], first[s], length[s] = old_keys[q], old_first[q], old_length[q]
        key = _key(d, works[d][0], unit, n, level_unit)  # a relation's first pair is its root
        s = _find(keys, key)
        keys[s], length[s] = key, count
        first[s] = ((len(chunks) - 1) << _OFFSET_BITS) + fill
        entries += 1
        fill += count
        stored += count
        d += 1


def _relation_lost(seq: list[int], tops: list[int], partner: list[int], cap: int | None,
                   effort: int) -> tuple[bool, int]:
    """(lost?, pairs stored) for the card classes ``seq`` (waste bottom first, then the stock) from
    the rows topped by the classes ``tops``, class c going onto a row of ``partner[c]`` (``WILD``:
    none but a wild-topped one), ``cap`` free places on the waste (None: no cap). Not lost also
    when the rows' counts do not fit one integer."""
    classes = len(partner)
    most = [0] * classes  # a class's rows are at most its cards and rows, wild-topped ones at most the wild ones
    for c in tops + seq:
        most[c] += 1
    radix = min(len(tops), max(most)) + 1
    unit = radix ** classes
    places = len(seq) if cap is None else cap
    if (places + 1) * (len(seq) + 1) * unit >= 1 << 64:
        return False, 0
    power = np.array([radix ** c for c in range(classes)] + [unit], np.uint64)
    present = set(seq)
    dead = np.array([False] + [partner[t] == WILD or partner[t] not in present for t in range(1, classes)])
    rows = sum(radix ** t for t in tops)
    verdict, stored = _lost(np.array(seq, np.int64), np.uint64(rows), np.uint64(radix), power,
                            np.array(partner, np.int64), dead, places, effort)
    return verdict == 1, int(stored)


def blocks_lost(state: PairingState, effort: int = BLOCK_EFFORT) -> tuple[bool, int]:
    """(lost?, pairs stored): is ``state`` proven lost by the block relation (the module's
    docstring)? False also when the relation is won (a win is found elsewhere, with its line),
    when it took more than ``effort`` pairs, and when the game is not one it applies to (a waste
    cap, no row cap: ``nested_blocks``) or its rows' counts do not fit one integer."""
    game = state.game
    if not game.nested_blocks:
        return False, 0
    seq = [game.card_class[c] for c in state.waste + state.stock[state.next:]]
    return _relation_lost(seq, list(state.tops), list(game.partner), game.waste_cap, effort)


def projection_lost(state: PairingState, pairs: Iterable[tuple[int, ...]], effort: int) -> tuple[bool, int]:
    """(lost?, pairs stored): is the game of ``pairs``' cards and every wild card, on all of the rows,
    lost? Then so is ``state`` (the module's docstring, "Projections"). Games with wild cards and no
    row cap. Each of ``pairs`` holds a class and its partner (``pair_groups``): a class kept without
    its partner would lose the rows it goes onto, and the projection would prove nothing."""
    game = state.game
    pairs = list(pairs)
    kept = sorted(c for pair in pairs for c in pair)
    partner = game.partner
    if any(partner[c] not in kept and partner[c] != WILD for c in kept):
        raise ValueError(f"a projection keeps pairs whole, not {pairs}")
    number = {c: k for k, c in enumerate(kept, 1)}  # 0 stays the wild class, len(kept) + 1 the dead rows
    number[WILD] = WILD
    dead = len(kept) + 1
    seq = [number[c] for c in (game.card_class[card] for card in state.waste + state.stock[state.next:])
           if c in number]
    tops = [number.get(t, dead) for t in state.tops]
    return _relation_lost(seq, tops, [WILD] + [number.get(partner[c], WILD) for c in kept] + [WILD],
                          game.waste_cap, effort)


def projections_lost(state: PairingState, size: int, effort: int, most: int | None = None) -> tuple[bool, int]:
    """(lost?, pairs stored): is some projection of ``state`` onto ``size`` pairs (all of them, if the
    game has no more) lost, each asked within ``effort`` pairs, in class order, until ``most`` pairs are
    stored in all? Games with wild cards and no row cap."""
    game = state.game
    if not game.wild_projections:
        return False, 0
    groups = pair_groups(game)
    total = 0
    for pairs in combinations(groups, min(size, len(groups))):
        if most is not None and total >= most:
            break
        lost, stored = projection_lost(state, pairs, effort if most is None else min(effort, most - total))
        total += stored
        if lost:
            return True, total
    return False, total
