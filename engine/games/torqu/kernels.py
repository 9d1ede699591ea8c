"""The optimiser's inner loops, compiled with numba: the number side's memoised search, the
branch and bound over specials, and the enumeration of the specials within each suit.
:mod:`.optimise` and :mod:`.specials` hold the method (read their docstrings first), prepare
these arrays and read the results back; nothing here knows a card or a set kind.

Why compiled: both loops are tight integer work over a hash table of up to millions of
positions; in CPython (``optimise.py``'s loops until issue 4's sixth pass) they cost ~0.2 µs of
interpreter per step and made a 72-card tableau take seconds to minutes. The compiled loops make
the same choices (the first best in the same order, by the same strict comparisons), so the
values and the arrangements are the ones the Python code gave (the golden logs did not change).
:func:`~cardgames.engine.compiled.compiled` keeps the machine code on disk: only the first process of
an installation pays the compilation (some seconds); later ones load it (a fraction of a second).

Packed counts: :data:`.optimise.NUMBER_BITS` (4) bits per number, number n at bits 4(n-1), so up
to 16 numbers with up to 15 cards each fit one uint64 (checked by the caller).

Values are integers in quarters: every value here is points, card numbers and shares of a
Flush (``spare``, a quarter of the Flush's points plus a number), so four times it is an
integer and every sum and comparison is exact, the same on any machine.

The memo is an open-addressing table, three int64 words a slot: the packed counts, then
``value << 40 | bound << 16 | (pick + 2) << 8 | (j + 1)``: the plain value and the bound in 24
signed bits each (:data:`.optimise.VALUE_BITS`, checked by the caller), ``pick`` the set taken
there (an offset into the top number's shapes, at most 159 of them, :data:`FOUR_WILDS`, or
:data:`NO_PICK` when every card of the top number is left out), ``j`` the wild cards still free
(0 in the low byte marks an empty slot); then, at positions with no wild card free, the slacks
of numbers 1-8, a byte each (:func:`_slack_at`). :func:`number_best` stops with a failure flag
rather than fill its table past :data:`FULL_EIGHTHS` eighths; :func:`search` then doubles the table
(:func:`_grown`) and asks again, keeping every entry and its own place: the branch and bound is never
restarted (it used to be, from the root, which measured as 30-50 % of a 72-card tableau's time).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import objmode, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from ...compiled import compiled
from .optimise import NUMBER_BITS
from .specials import MAX_REALS, NO_SPECIAL, UNKNOWN

FOUR_WILDS = -1
NO_PICK = -2
_NO_BOUND = 1 << 60  # a bound no value reaches
# A table grows when five eighths full, not half: linear probing's lookups get a little longer, but
# fewer tables double, the largest among them (issue 4's twenty-eighth pass, 200 72-card tableaux: 9
# end one doubling smaller, the largest at 2^23 slots instead of 2^24; five runs alternated with the
# half-full code: 0.96 of its time, the peak memory 515 MiB against 795; four-player games 0.98).
FULL_EIGHTHS = 5
STACK = 1 << 9  # the number side's stack: one entry per real card and per four wild cards, and more
# From this many slots (6 MiB, beyond a core's L2 cache) a fresh position first asks for all its
# children's slots, then looks them up: the cache misses overlap instead of queueing (issue 4's
# sixteenth pass). In a smaller table the children are mostly cached and the extra hashing costs.
PREFETCH_SLOTS = 1 << 18
_FRESH, _AWAIT_REST, _AWAIT_FOUR = -1, -2, -3  # a stacked position's step before its shapes
_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)
assert NUMBER_BITS == 4, "_top_number's binary search is written for fields of 4 bits"
# Bit 4k for k >= 1: where a borrow enters number k + 1's field when one is subtracted from another.
_FIELD_LOWS = np.uint64(sum(1 << NUMBER_BITS * k for k in range(1, 64 // NUMBER_BITS)))


@compiled
def _home(tab, x, j):
    """The hashed slot of ``(x, j)``: where the search for its slot starts (:func:`_slot`)."""
    h = (x ^ (np.uint64(j) << np.uint64(60))) * _MIX1
    h = (h ^ (h >> np.uint64(31))) * _MIX2
    return np.int64(h >> np.uint64(29)) & (tab.shape[0] - 1)


def _prefetch(tab, i):
    """Ask the processor to start loading slot ``i`` of ``tab`` into its caches. Nothing in
    Python (``NUMBA_DISABLE_JIT=1``); compiled, ``llvm.prefetch`` (:func:`_prefetch_slot`)."""


@intrinsic
def _prefetch_slot(typingctx, tab, i):
    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        slot = cgutils.get_item_pointer(context, builder, signature.args[0], array, [args[1], zero], wraparound=False)
        byte_ptr, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(slot, byte_ptr), i32(0), i32(3), i32(1)])  # a read, kept close, data
        return context.get_dummy_value()
    return types.void(tab, i), codegen


@overload(_prefetch)
def _prefetch_compiled(tab, i):
    return lambda tab, i: _prefetch_slot(tab, i)


@compiled
def _slot(tab, x, j):
    """The slot holding ``(x, j)``, or the empty slot where it would go."""
    mask = tab.shape[0] - 1
    i = _home(tab, x, j)
    key = np.int64(x)
    while tab[i, 1] != 0 and (tab[i, 0] != key or (tab[i, 1] & 255) != j + 1):
        i = (i + 1) & mask
    return i


@compiled
def _value(tab, i):
    return tab[i, 1] >> 40


@compiled
def _bound(tab, i):
    return (tab[i, 1] << 24) >> 40


@compiled
def _store(tab, i, x, j, value, pick, bound):
    tab[i, 0] = np.int64(x)
    tab[i, 1] = (value << 40) | ((bound & 0xFFFFFF) << 16) | ((pick + 2) << 8) | (j + 1)
    tab[i, 2] = -1  # no slacks: every byte 255


@compiled
def _slack_at(tab, i, n):
    """The slack of number ``n`` (1 to :data:`SLACK_NUMBERS`) stored at slot ``i``, a position
    ``(x, 0)``: B(x) - B(x - e_n) - spare[n], what its bound loses beyond ``spare[n]`` when a
    card of number n is taken away, in quarters; 255 stands for 255 or more, or for no card of n
    (:func:`search` computes those when it needs them). :func:`number_best` fills it from the
    position's options: B(x - e_n) + spare[n] is the best bound of x with a card of n left out,
    which leaving the top number's cards out gives (n the top number: slack 0 below that
    option's bound), or any option whose child leaves a card of n out (the child's slack below
    that option's bound). So the slack is the least, over the options, of how far the option's
    bound falls short of B(x) plus its child's slack: a byte-wise minimum of byte-wise sums,
    kept relative to the best bound so far while the options are scanned."""
    return (tab[i, 2] >> (8 * (n - 1))) & 255


# Byte-wise arithmetic on the slacks' word (eight bytes in one uint64, no loop over them).
_HIGHS = np.uint64(0x8080808080808080)
_LOWS = np.uint64(0x7F7F7F7F7F7F7F7F)
_BYTE = np.uint64(0xFF)
_SEVEN = np.uint64(7)
_ONES = np.uint64(0x0101010101010101)
_NO_SLACKS = np.uint64(0xFFFFFFFFFFFFFFFF)
SLACK_NUMBERS = 8  # numbers 1-8 have a byte: their slacks' searches were the costly ones (every position above)


@compiled
def _spread(v):
    """``min(v, 255)`` in every byte."""
    return np.uint64(min(v, 255)) * _ONES


@compiled
def _add_bytes(a, b):
    """Each byte of ``a`` plus ``b`` (a byte, repeated in each byte of ``b``), at most 255."""
    s = ((a & _LOWS) + (b & _LOWS)) ^ ((a ^ b) & _HIGHS)
    carry = ((a & b) | ((a | b) & ~s)) & _HIGHS
    return s | ((carry >> _SEVEN) * _BYTE)


@compiled
def _min_bytes(a, c):
    """The smaller of each byte of ``a`` and ``c``."""
    low = (a | _HIGHS) - (c & _LOWS)  # bit 7 of a byte: a's low seven bits >= c's
    ge = ((a & ~c) | (~(a ^ c) & low)) & _HIGHS
    mask = (ge >> _SEVEN) * _BYTE
    return (c & mask) | (a & ~mask)


@compiled
def _pick(tab, i):
    return ((tab[i, 1] >> 8) & 0xFF) - 2


@compiled
def _grown(tab):
    """A table of twice the slots holding every entry of ``tab``, allocated by numpy (object
    mode, once per doubling). At 72 cards the tables reach 2^21-2^24 slots (50-400 MB), every probe
    a random access; numpy asks the operating system for huge pages for such arrays and numba's
    allocator does not, and with them the address translations stay cached (issue 4's ninth pass,
    200 tableaux: median 236 -> 221 ms; with another process busy on the memory, 16 tableaux'
    median was 0.43 s without huge pages and 0.33 s with them)."""
    slots, width = 2 * tab.shape[0], tab.shape[1]
    with objmode(new_tab="int64[:, :]"):
        new_tab = np.zeros((slots, width), np.int64)
    for i in range(tab.shape[0]):
        if tab[i, 1] != 0:
            s = _slot(new_tab, np.uint64(tab[i, 0]), (tab[i, 1] & 255) - 1)
            new_tab[s, :] = tab[i, :]
    return new_tab


@compiled
def _fits(x, delta, difference):
    """Whether every number's count in ``x`` is at least its count in ``delta``, given
    ``difference = x - delta``: a field that is short borrows from the next one up, and the
    borrows into each bit are ``x ^ delta ^ difference``; the top field's shows as ``x < delta``."""
    return x >= delta and ((x ^ delta ^ difference) & _FIELD_LOWS) == 0


@compiled
def _top_number(x):
    """The highest number with a card in ``x`` (not 0): a binary search over the 16 fields."""
    n = 1
    if x >> np.uint64(32):
        x >>= np.uint64(32)
        n += 8
    if x >> np.uint64(16):
        x >>= np.uint64(16)
        n += 4
    if x >> np.uint64(8):
        x >>= np.uint64(8)
        n += 2
    if x >> np.uint64(4):
        n += 1
    return n


@compiled
def number_best(tab, filled, spare, gain, four_wilds, has_four,
                sh_start, sh_delta, sh_wilds, sh_gain, stack_x, stack, x0, j0):
    """The number side's two values at ``(x0, j0)`` (see ``optimise._NumberSide``): (True, plain,
    bound), or (False, 0, 0) if the table must grow first. The recursion: leave every card of the
    top number n out (each worth nothing to the plain value and ``spare[n]`` to the bound), or
    take one of the shapes whose highest real card is n, whichever is worth most (for the plain
    value, the first in shape order on a tie: its ``pick``). Both values run over the same
    positions, so one pass computes them, and with no wild card free the slacks too (see
    :func:`_slack_at`). It runs on an explicit stack of positions being valued:
    ``stack_x`` their counts, ``stack`` rows of (wild cards free, step, plain value so far, pick
    so far, bound so far, slacks so far), where the step is :data:`_FRESH`, a wait for the child
    that leaves the top number out or for four wild cards' child, or the shape whose child is
    being valued; a position resumes there, so each child is probed about once. Each entry has fewer real cards
    (or four fewer wild cards) than the one below it, so the depth stays under :data:`STACK`."""
    limit = tab.shape[0] // 8 * FULL_EIGHTHS
    wilds = gain.shape[0] - 1
    c = _slot(tab, x0, j0)
    if tab[c, 1] != 0:
        return True, _value(tab, c), _bound(tab, c)
    stack_x[0] = x0
    stack[0, 0], stack[0, 1] = j0, _FRESH
    sp = 1
    while sp > 0:
        top = sp - 1
        x, j, step = stack_x[top], stack[top, 0], stack[top, 1]
        # An entry is pushed only when the table lacks it, and only its descendants (fewer cards)
        # are stored before it, so a fresh one is never in the table already.
        if step == _FRESH and filled[0] >= limit:
            return False, 0, 0
        slacks = _NO_SLACKS
        if x == 0:  # wild cards alone: left out, or four of them as a set
            value, pick = gain[wilds - j], NO_PICK
            bound = value + spare[0] * j
            if j >= 4 and has_four:
                c = _slot(tab, x, j - 4)
                if tab[c, 1] == 0:
                    stack[top, 1] = _AWAIT_FOUR
                    sp = _push(stack_x, stack, sp, x, j - 4)
                    continue
                if four_wilds + _value(tab, c) > value:
                    value, pick = four_wilds + _value(tab, c), FOUR_WILDS
                bound = max(bound, four_wilds + _bound(tab, c))
        else:
            n = _top_number(x)
            low = np.uint64(NUMBER_BITS * (n - 1))
            rest = x & ((np.uint64(1) << low) - np.uint64(1))  # every card of number n left out
            if step == _FRESH and tab.shape[0] >= PREFETCH_SLOTS:  # start loading every child's slot at once
                _prefetch(tab, _home(tab, rest, j))
                for k in range(sh_start[n], sh_start[n + 1]):
                    w = sh_wilds[k]
                    if w > j:
                        break
                    child = x - sh_delta[k]
                    if _fits(x, sh_delta[k], child):
                        _prefetch(tab, _home(tab, child, j - w))
            if step < 0:  # the child that leaves every card of number n out comes first
                c = _slot(tab, rest, j)
                if tab[c, 1] == 0:
                    stack[top, 1] = _AWAIT_REST
                    sp = _push(stack_x, stack, sp, rest, j)
                    continue
                value, pick, step = _value(tab, c), NO_PICK, sh_start[n]
                bound = spare[n] * np.int64(x >> low) + _bound(tab, c)
                slacks = np.uint64(tab[c, 2])
                if n <= SLACK_NUMBERS:  # leaving the top number's cards out leaves one of them out
                    slacks &= ~(_BYTE << np.uint64(8 * (n - 1)))
            else:
                value, pick, bound, slacks = stack[top, 2], stack[top, 3], stack[top, 4], np.uint64(stack[top, 5])
            waiting = False
            for k in range(step, sh_start[n + 1]):
                w = sh_wilds[k]
                if w > j:
                    break
                child = x - sh_delta[k]
                if not _fits(x, sh_delta[k], child):
                    continue
                c = _slot(tab, child, j - w)
                if tab[c, 1] == 0:
                    stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4] = k, value, pick, bound
                    stack[top, 5] = np.int64(slacks)
                    sp = _push(stack_x, stack, sp, child, j - w)
                    waiting = True
                    break
                if sh_gain[k] + _value(tab, c) > value:
                    value, pick = sh_gain[k] + _value(tab, c), k - sh_start[n]
                option = sh_gain[k] + _bound(tab, c)
                if j == 0:  # the slacks, relative to the best bound so far (see _slack_at)
                    if option > bound:
                        slacks = _min_bytes(_add_bytes(slacks, _spread(option - bound)), np.uint64(tab[c, 2]))
                        bound = option
                    elif bound - option < 255:
                        slacks = _min_bytes(slacks, _add_bytes(np.uint64(tab[c, 2]), _spread(bound - option)))
                else:
                    bound = max(bound, option)
            if waiting:
                continue
        c = _slot(tab, x, j)  # the slot is looked up again: inserts moved it
        _store(tab, c, x, j, value, pick, bound)
        if j == 0:
            tab[c, 2] = np.int64(slacks)
        filled[0] += 1
        sp -= 1
    c = _slot(tab, x0, j0)
    return True, _value(tab, c), _bound(tab, c)


@compiled
def _push(stack_x, stack, sp, x, j):
    if sp >= stack_x.shape[0]:
        raise RuntimeError("the number side's stack is deeper than its cards allow")
    stack_x[sp] = x
    stack[sp, 0], stack[sp, 1] = j, _FRESH
    return sp + 1


@compiled
def number_sets(tab, sh_start, sh_delta, sh_wilds, x, j, out):
    """The sets of the best packing at ``(x, j)``: each a global shape index or FOUR_WILDS,
    written to ``out``; returns how many, or -1 if ``(x, j)`` has not been valued yet."""
    if tab[_slot(tab, x, j), 1] == 0:
        return -1
    count = 0
    while True:
        pick = _pick(tab, _slot(tab, x, j))
        if pick == FOUR_WILDS:
            out[count] = FOUR_WILDS
            count += 1
            j -= 4
            continue
        if x == 0:
            return count
        n = _top_number(x)
        if pick == NO_PICK:
            x &= (np.uint64(1) << np.uint64(NUMBER_BITS * (n - 1))) - np.uint64(1)
            continue
        k = sh_start[n] + pick
        out[count] = k
        count += 1
        x -= sh_delta[k]
        j -= sh_wilds[k]


@compiled
def _clashes(k, sp_cards, sp_size, used):
    for t in range(sp_size[k]):
        if used[sp_cards[k, t]]:
            return True
    return False


@compiled
def _keep_best(buf, found, limit, r):
    """Keep the best ``limit`` values met so far in ``buf[:found]``, descending, with ``r`` met now (np.sort
    would allocate); returns the new ``found``."""
    if found < limit:
        found += 1
    elif r <= buf[found - 1]:
        return found
    u = found - 1
    while u > 0 and buf[u - 1] < r:
        buf[u] = buf[u - 1]
        u -= 1
    buf[u] = r
    return found


@compiled
def _wild_parts(start, used, wilds, left, positive, sp_reduced, sp_cards, sp_size, sp_wilds, sp_group, sp_per,
                group_best, group_second, group_per, scratch, scratch0, wild_charge):
    """The specials' part of the Lagrangian bound (``optimise._Search`` explains it), in parts: returns (the
    suits' part, how many specials with wild cards are kept, their part).

    The suits' part: per suit, at most ``left // per`` disjoint specials fit (``per`` the fewest of its
    cards one takes): they add at most the suit's best reduced value and its second best for each other
    one (issue 4's fifteenth pass; the best for each, as before, was looser, and keeping more than two
    values per suit pruned no more and cost more). The specials with wild cards: the best ``wilds`` of
    their reduced values (each wild card charged a Flush share, ``wild_charge``) add up to their part;
    ``scratch0[:found]`` holds the best ``wilds`` of their values with no charge for their wild cards,
    descending, for :func:`_levels_bound` and :func:`_wild_bound` (the thirtieth pass)."""
    found = 0
    found0 = 0
    for p in range(np.searchsorted(positive, start), positive.shape[0]):
        k = positive[p]
        if sp_wilds[k] > wilds or _clashes(k, sp_cards, sp_size, used):
            continue
        r = sp_reduced[k]
        # a special with wild cards passed the test above only if ``wilds`` >= 1, so ``_keep_best`` has room
        if sp_wilds[k]:
            found = _keep_best(scratch, found, wilds, r)
            found0 = _keep_best(scratch0, found0, wilds, r + sp_wilds[k] * wild_charge)
        else:
            g = sp_group[k]
            if group_per[g] == 0:
                group_best[g], group_second[g], group_per[g] = r, 0, sp_per[k]
                continue
            if r > group_best[g]:
                group_best[g], group_second[g] = r, group_best[g]
            elif r > group_second[g]:
                group_second[g] = r
            group_per[g] = min(group_per[g], sp_per[k])
    wild_total = 0
    for u in range(found):
        wild_total += scratch[u]
    total = 0
    for g in range(group_per.shape[0]):
        if group_per[g]:
            fit = left[g] // group_per[g]
            if fit:
                total += group_best[g] + group_second[g] * (fit - 1)
            group_per[g] = 0
    return total, found0, wild_total


@compiled
def _levels_bound(levels, j, exact_j, wild_total, scratch0, found0):
    """The number side's part of a node's bound with the specials' wild cards: the least of
    ``exact_j + wild_total`` (B(x, j) with each wild card a special takes charged a Flush share) and
    the greatest over w of B(x, j - w) plus the w best values of specials with wild cards less their
    real cards' charges (``levels[i]`` an upper bound on B(x, i))."""
    old = exact_j + wild_total
    best = levels[j]
    add = 0
    for w in range(1, min(j, found0) + 1):
        add += scratch0[w - 1]
        t = levels[j - w] + add
        if t > best:
            best = t
    return min(old, best)


@compiled
def _level_at(lv, known, d, i, wild_step):
    """B(x, i) at the node of depth ``d`` if valued (and True), else an upper bound (and False): the
    highest level below it valued plus the steps between (``wild_step``), or :data:`_NO_BOUND`."""
    if known[d, i]:
        return lv[d, i], True
    m = i - 1
    while m >= 0 and not known[d, m]:
        m -= 1
    if m < 0:
        return _NO_BOUND, False
    v = lv[d, m]
    for t in range(m, i):
        v += wild_step[t]
    return v, False


@compiled
def _wild_bound(lv, known, d, j, found0, scratch0, wild_step, wild_total):
    """The number side's part of the bound of the node at depth ``d`` with ``j`` wild cards free, the
    specials from some point on bounded as :func:`_wild_parts` left them: the least of B(x, j) plus
    ``wild_total`` (each wild card a special takes charged a Flush share) and the greatest over w of
    B(x, j - w) plus the w best of ``scratch0`` (the specials with wild cards, their wild cards not
    charged: the number side no longer has them). Terms for w below ``top`` are left out: while the
    w-th best special is worth at least ``wild_step[j - w - 1]``, which bounds B(x, j - w) - B(x, j - w - 1),
    the term for w - 1 is at most the term for w. Levels not valued count at :func:`_level_at`'s
    bound. Returns (bound, the level whose value would tighten it or -1)."""
    deep = min(j, found0)
    top = 0
    while top < deep and scratch0[top] >= wild_step[j - top - 1]:
        top += 1
    add = 0
    for w in range(top):
        add += scratch0[w]
    bound, need = -_NO_BOUND, -1
    for w in range(top, deep + 1):
        v, exact = _level_at(lv, known, d, j - w, wild_step)
        if v + add > bound:
            bound, need = v + add, (-1 if exact else j - w)
        if w < deep:
            add += scratch0[w]
    v, exact = _level_at(lv, known, d, j, wild_step)
    if exact and v + wild_total < bound:
        bound, need = v + wild_total, -1
    return bound, need


@compiled
def _extra(start, used, wilds, left, with_wilds, best_wild, sp_value, sp_cards, sp_size, sp_wilds, sp_per,
           group_start, group_idx, uniform):
    """An upper bound on what specials from ``start`` on can add (``optimise._Search``): the best
    ``wilds`` specials with wild cards, and per suit as many of its specials without as fit in
    its cards left, the first of them (``group_idx`` holds each suit's in order of value)."""
    total = 0
    if wilds:
        found = 0
        for p in range(np.searchsorted(with_wilds, start), with_wilds.shape[0]):
            k = with_wilds[p]
            if sp_wilds[k] > wilds or _clashes(k, sp_cards, sp_size, used):
                continue
            total += sp_value[k] + sp_wilds[k] * best_wild
            found += 1
            if found == wilds:
                break
    for g in range(group_start.shape[0] - 1):
        idx = group_idx[group_start[g]:group_start[g + 1]]
        first = np.searchsorted(idx, start)
        per = 0  # the fewest of the suit's cards a special still possible takes
        for p in range(first, idx.shape[0]):
            k = idx[p]
            if (per == 0 or sp_per[k] < per) and not _clashes(k, sp_cards, sp_size, used):
                per = sp_per[k]
                if uniform[g]:
                    break
        fit = left[g] // per if per else 0
        for p in range(first, idx.shape[0]):
            if fit == 0:
                break
            k = idx[p]
            if not _clashes(k, sp_cards, sp_size, used):
                total += sp_value[k]
                fit -= 1
    return total


@compiled
def _slack_prunes(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds, sh_gain, stack_x,
                  stack, slack, x, j, exact, k, sp_cards, sp_size, unit, card_number, need, known_only):
    """Whether special ``k``'s child of the node ``(x, j)`` (number side bound ``exact``) is
    pruned by the node's *slacks*: 1 if so, 0 if not, -1 if the table must grow first (the slacks
    found so far are kept). The slack of number n, ``slack[n]`` (read from the table for numbers
    1-8, see :func:`_slack_at`; otherwise -1 until computed here, once per node and number), is
    what the bound loses beyond ``spare[n]`` when one card of number n is taken away:
    ``exact - B(x - e_n, j) - spare[n]``. A child that takes that card and others is
    bounded through ``B(x - e_n, j)`` less the others' charges, so its bound is lower than the
    plain charge bound by its cards' largest slack; ``need`` is how much lower it must be to be
    pruned. The slacks already computed are read first; with ``known_only``, only those."""
    for t in range(sp_size[k]):
        if slack[card_number[sp_cards[k, t]]] >= need:
            return 1
    if known_only:
        return 0
    for t in range(sp_size[k]):
        i = sp_cards[k, t]
        n = card_number[i]
        if slack[n] < 0:
            ok, _, single = number_best(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds,
                                        sh_gain, stack_x, stack, x - unit[i], j)
            if not ok:
                return -1
            slack[n] = exact - single - spare[n]
            if slack[n] >= need:
                return 1
    return 0


@compiled
def _number_value(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds, sh_gain, stack_x,
                  stack, x, wilds):
    """:func:`number_best` at (``x``, ``wilds`` free), the table doubled and asked again each time it is full:
    (the table, the plain value, the bound's)."""
    while True:
        ok, plain, value = number_best(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds,
                                       sh_gain, stack_x, stack, x, wilds)
        if ok:
            return tab, plain, value
        tab = _grown(tab)


@compiled
def _value_levels(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds, sh_gain, stack_x,
                  stack, lv, known, plains, d, x, j, found0, scratch0, wild_step, wild_total, base, best, prune):
    """Value the number side at the levels of wild cards free that the bound of the node at depth ``d``
    asks for (:func:`_wild_bound`), cheapest first, until ``base`` plus the bound is at most ``best`` (when
    ``prune``) or no level would tighten it: with a special that takes a wild card still possible, B(x, j)
    itself (the costly level) is seldom needed. Each level's value goes to ``lv``, its plain value to
    ``plains``; returns (the table, the bound)."""
    while True:
        b, need = _wild_bound(lv, known, d, j, found0, scratch0, wild_step, wild_total)
        if (prune and base + b <= best) or need < 0:
            return tab, b
        tab, plain, level = _number_value(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta,
                                          sh_wilds, sh_gain, stack_x, stack, x, need)
        lv[d, need], plains[d, need], known[d, need] = level, plain, True


@compiled
def search(counts, wilds, left, unit, card_suit, card_number, best_wild,
           sp_value, sp_cards, sp_size, sp_wilds, sp_group, sp_per, sp_charge, sp_reduced,
           positive, with_wilds, group_start, group_idx, uniform, tab, filled, spare,
           gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds, sh_gain, wild_step, chosen_out, probe, known,
           has_known, most, stop):
    """The branch and bound over specials (``optimise._Search``): returns (best value, number of
    specials in ``chosen_out``, the number side's table: ``tab`` or a larger copy of it, the nodes
    valued). The best is minus infinity until the root is valued (``found``), or ``known`` - 1 with
    ``has_known`` (a value some packing reaches: the search then prunes by it from the start).
    With ``probe`` > 0 it is a probe: below each of the root's children it values at most that
    many nodes, which finds a good packing quickly, not a proven best (``optimise._Search``).
    With ``most`` > 0 it gives up once it has valued that many nodes: the number of specials is
    then -1, and the best value that of the best packing found, or ``known`` - 1 if none beat it.
    With ``stop`` (and ``has_known``) it returns the first packing worth ``known`` or more, without
    going on to prove that none is worth more: for a ``known`` proven the optimum, the packing the
    whole search would return."""
    stack_x = np.empty(STACK, np.uint64)
    stack = np.empty((STACK, 6), np.int64)
    left = left.copy()  # cards left of each suit, changed as specials are taken
    groups = left.shape[0]
    group_best = np.zeros(groups, np.int64)
    group_second = np.zeros(groups, np.int64)
    group_per = np.zeros(groups, np.int64)
    scratch = np.empty(max(1, sp_value.shape[0]), np.int64)
    used = np.zeros(unit.shape[0], np.bool_)
    depth = unit.shape[0] // 4 + wilds + 2
    f_start = np.zeros(depth, np.int64)
    f_k = np.zeros(depth, np.int64)
    f_counts = np.zeros(depth, np.uint64)
    f_wilds = np.zeros(depth, np.int64)
    f_value = np.zeros(depth, np.int64)
    f_bound = np.zeros(depth, np.int64)
    f_exact = np.zeros(depth, np.int64)
    f_here = np.zeros(depth, np.int64)
    chosen = np.zeros(depth, np.int64)
    slack = np.empty((depth, spare.shape[0]), np.int64)
    scratch0 = np.empty(max(1, sp_value.shape[0]), np.int64)
    f_lv = np.zeros((depth, wilds + 1), np.int64)  # upper bounds on B(x, i) on entry, i = 0..j
    lv = np.zeros((depth, wilds + 1), np.int64)  # B(x, i), where ``known``
    known_lv = np.zeros((depth, wilds + 1), np.bool_)
    plains = np.zeros((depth, wilds + 1), np.int64)  # the number side's plain value at B(x, i)'s packing
    wild_charge = spare[0] - best_wild
    best, best_len, found = 0, 0, False
    if has_known:
        best, found = known - 1, True
    f_bound[0] = _NO_BOUND  # the root is never pruned
    f_lv[0, :] = _NO_BOUND
    f_counts[0], f_wilds[0] = counts, wilds
    spent = 0  # nodes valued below the root's current child (a probe stops at ``probe``)
    nodes = 0  # nodes valued (the search gives up after ``most``)
    d = 0
    mode = 0  # 0: enter the node at depth d; 1: go on with its children; 2: leave it
    while True:
        if mode == 0:
            if probe and d > 1 and spent >= probe:
                mode = 2
                continue
            x, j, value = f_counts[d], f_wilds[d], f_value[d]
            extra, found0, wild_total = _wild_parts(f_start[d], used, j, left, positive, sp_reduced, sp_cards, sp_size,
                                                    sp_wilds, sp_group, sp_per, group_best, group_second, group_per,
                                                    scratch, scratch0, wild_charge)
            entry = extra + _levels_bound(f_lv[d], j, f_bound[d], wild_total, scratch0, found0)
            mode = 2
            if found and value + entry <= best:
                continue
            if found and d > 0 and f_wilds[d - 1] == 0:
                need = value + entry - best
                pruned = -1
                while pruned < 0:
                    pruned = _slack_prunes(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta,
                                           sh_wilds, sh_gain, stack_x, stack, slack[d - 1], f_counts[d - 1], 0,
                                           f_exact[d - 1], chosen[d - 1], sp_cards, sp_size, unit, card_number, need,
                                           False)
                    if pruned < 0:
                        tab = _grown(tab)
                if pruned:
                    continue
            spent += 1
            nodes += 1
            if most and nodes > most:
                return best, -1, tab, nodes
            # the levels the bound needs; only the node's own packing could still ask for B(x, j) below
            known_lv[d, :] = False
            tab, b = _value_levels(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds,
                                   sh_gain, stack_x, stack, lv, known_lv, plains, d, x, j, found0, scratch0, wild_step,
                                   wild_total, value + extra, best, found)
            if found and value + extra + b <= best:
                continue
            exact, valued = _level_at(lv, known_lv, d, j, wild_step)
            plain = plains[d, j] if valued else 0
            if probe and not valued and known_lv[d, 0]:
                # a probe looks for a good packing, not a proof: rather than valuing B(x, j) for the node's own
                # packing, it takes the one that leaves the free wild cards out (level 0's, their own numbers
                # taken back out of it)
                left_out = value + plains[d, 0] - gain[wilds] + gain[wilds - j]
                if left_out > best:
                    best, best_len, found = left_out, d, True
                    chosen_out[:d] = chosen[:d]
            elif not found or value + exact > best:  # the node's own packing could beat the best: value it
                if not valued:
                    tab, plain, exact = _number_value(tab, filled, spare, gain, four_wilds, has_four, sh_start,
                                                      sh_delta, sh_wilds, sh_gain, stack_x, stack, x, j)
                    lv[d, j], plains[d, j], known_lv[d, j] = exact, plain, True
                    valued = True
            here = value + exact  # the node's own value is at most this: if no better than the best, its
            if valued and (not found or here > best):  # children's test keeps this looser figure
                here = value + plain
                if not found or here > best:
                    best, best_len, found = here, d, True
                    chosen_out[:d] = chosen[:d]
                    if stop:
                        return best, best_len, tab, nodes
            f_exact[d], f_here[d], f_k[d] = exact, here, f_start[d]
            slack[d, :] = -1
            if j == 0:  # the table's slacks (_slack_at); the others are computed when needed
                c = _slot(tab, x, 0)
                for n in range(1, min(SLACK_NUMBERS + 1, spare.shape[0])):
                    s = _slack_at(tab, c, n)
                    if s < 255:
                        slack[d, n] = s
            mode = 1
        elif mode == 1:
            x, j, value, exact, here = f_counts[d], f_wilds[d], f_value[d], f_exact[d], f_here[d]
            mode = 2
            if d == 0:
                spent = 0
            elif probe and spent >= probe:
                continue
            bound = -1  # the node's bound from the specials before k on: valid, looser, for k
            for k in range(f_k[d], sp_value.shape[0]):
                if sp_wilds[k] > j or _clashes(k, sp_cards, sp_size, used):
                    continue
                if j == 0 and bound > best:  # the slacks known, against the last bound: no scan of the specials
                    if _slack_prunes(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds,
                                     sh_gain, stack_x, stack, slack[d], x, 0, exact, k, sp_cards, sp_size, unit,
                                     card_number, bound - best, True):
                        continue
                if here + _extra(k, used, j, left, with_wilds, best_wild, sp_value, sp_cards, sp_size, sp_wilds,
                                 sp_per, group_start, group_idx, uniform) <= best:
                    break
                extra, found0, wild_total = _wild_parts(k, used, j, left, positive, sp_reduced, sp_cards, sp_size,
                                                        sp_wilds, sp_group, sp_per, group_best, group_second,
                                                        group_per, scratch, scratch0, wild_charge)
                tab, b = _value_levels(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta, sh_wilds,
                                       sh_gain, stack_x, stack, lv, known_lv, plains, d, x, j, found0, scratch0,
                                       wild_step, wild_total, value + extra, best, True)
                bound = value + extra + b
                if bound <= best:
                    break
                if j == 0:  # the slacks again, against the bound from k on (the child's own, tighter, on entry)
                    pruned = -1
                    while pruned < 0:
                        pruned = _slack_prunes(tab, filled, spare, gain, four_wilds, has_four, sh_start, sh_delta,
                                               sh_wilds, sh_gain, stack_x, stack, slack[d], x, 0, exact, k, sp_cards,
                                               sp_size, unit, card_number, bound - best, False)
                        if pruned < 0:
                            tab = _grown(tab)
                    if pruned:
                        continue
                child = x
                for t in range(sp_size[k]):
                    i = sp_cards[k, t]
                    used[i] = True
                    child -= unit[i]
                    left[card_suit[i]] -= 1
                chosen[d], f_k[d] = k, k
                d += 1
                f_start[d], f_counts[d], f_wilds[d] = k + 1, child, j - sp_wilds[k]
                real_charge = sp_charge[k] - sp_wilds[k] * wild_charge
                for i in range(f_wilds[d] + 1):
                    v, _ = _level_at(lv, known_lv, d - 1, i, wild_step)
                    f_lv[d, i] = v - real_charge if v < _NO_BOUND else _NO_BOUND
                v, _ = _level_at(lv, known_lv, d - 1, j, wild_step)
                f_value[d], f_bound[d] = value + sp_value[k], (v - sp_charge[k] if v < _NO_BOUND else _NO_BOUND)
                f_lv[d, f_wilds[d]] = min(f_lv[d, f_wilds[d]], f_bound[d])
                mode = 0
                break
        else:
            if d == 0:
                return best, best_len, tab, nodes
            d -= 1
            k = chosen[d]
            for t in range(sp_size[k]):
                i = sp_cards[k, t]
                used[i] = False
                left[card_suit[i]] += 1
            f_k[d] = k + 1
            mode = 1


@compiled
def _combinations(m, r):
    """How many ways to choose r of m."""
    if r > m:
        return 0
    out = 1
    for i in range(r):
        out = out * (m - i) // (i + 1)
    return out


@compiled
def suit_specials(suit, number, table, offset, base, wilds, sign, best_wild):
    """The one-suit specials (``specials.find``): every group of up to ``wilds`` (at most three)
    wild cards and the rest of its four real cards of one suit, valued from ``table``. Returns
    (value, cards, size, wild cards, suit) arrays of the groups that can add value, in
    :func:`special_order`, and the groups missing from the table as rows of (wild cards, suit,
    entry, real cards)."""
    num_suits = table.shape[0]
    starts = np.zeros(num_suits + 1, np.int64)  # the cards of suit s: members[starts[s]:starts[s + 1]]
    for i in range(suit.shape[0]):
        starts[suit[i] + 1] += 1
    room = 0
    for s in range(num_suits):
        for w in range(wilds + 1):
            room += _combinations(starts[s + 1], MAX_REALS - w)
    starts = np.cumsum(starts)
    members = np.empty(suit.shape[0], np.int64)
    fill = starts[:-1].copy()
    for i in range(suit.shape[0]):
        members[fill[suit[i]]] = i
        fill[suit[i]] += 1
    value, size, wild, group = (np.empty(room, np.int64), np.empty(room, np.int64), np.empty(room, np.int64),
                                np.empty(room, np.int64))
    cards = np.zeros((room, MAX_REALS), np.int64)
    missing = np.empty((room, 3 + MAX_REALS), np.int64)
    count = lacking = 0
    pos = np.empty(MAX_REALS, np.int64)
    nums = np.empty(MAX_REALS, np.int64)
    for s in range(num_suits):
        lo, m = starts[s], starts[s + 1] - starts[s]
        for w in range(wilds + 1):
            r = MAX_REALS - w
            if r > m:
                continue
            for t in range(r):
                pos[t] = t
            while True:
                for t in range(r):  # the numbers, ascending by insertion (sorting a view allocates)
                    c, u = number[members[lo + pos[t]]], t
                    while u > 0 and nums[u - 1] > c:
                        nums[u] = nums[u - 1]
                        u -= 1
                    nums[u] = c
                entry, total = 0, 0
                for t in range(r):
                    entry = entry * base + nums[t]
                    total += nums[t]
                entry += offset[w]
                points = table[s, entry]
                if points == UNKNOWN:
                    missing[lacking, 0], missing[lacking, 1], missing[lacking, 2] = w, s, entry
                    for t in range(r):
                        missing[lacking, 3 + t] = members[lo + pos[t]]
                    lacking += 1
                elif points != NO_SPECIAL and points + sign * total + w * best_wild > 0:
                    value[count], size[count], wild[count], group[count] = points + sign * total, r, w, s
                    for t in range(r):
                        cards[count, t] = members[lo + pos[t]]
                    count += 1
                i = r - 1  # the next combination of r of the m members
                while i >= 0 and pos[i] == m - r + i:
                    i -= 1
                if i < 0:
                    break
                pos[i] += 1
                for t in range(i + 1, r):
                    pos[t] = pos[t - 1] + 1
    value, cards, size, wild, group = value[:count], cards[:count], size[:count], wild[:count], group[:count]
    order = special_order(value, cards, size, wild, best_wild)
    return value[order], cards[order], size[order], wild[order], group[order], missing[:lacking]


@compiled
def special_order(value, cards, size, wild, best_wild):
    """The specials' order (``specials.find``): highest value with the wild cards' best own
    numbers first; then by real cards, their set of indices read as a binary number (that is,
    their indices in descending order compared in turn, a shorter list first on a tie); then
    fewer wild cards. The indices are packed a byte each: a tableau the scorer accepts has at
    most 16 numbers of 15 cards, fewer than 255 cards."""
    n = value.shape[0]
    key = np.empty(n, np.int64)
    desc = np.empty(MAX_REALS, np.int64)
    for k in range(n):
        r = size[k]
        for t in range(r):  # insertion sort, descending: np.sort would allocate an array per special
            c, u = cards[k, t], t
            while u > 0 and desc[u - 1] < c:
                desc[u] = desc[u - 1]
                u -= 1
            desc[u] = c
        code = 0
        for t in range(MAX_REALS):
            code = code * 256 + (desc[t] + 1 if t < r else 0)
        key[k] = code * 4 + wild[k]
    order = np.argsort(key, kind="mergesort")
    first = -(value + wild * best_wild)
    return order[np.argsort(first[order], kind="mergesort")]


@compiled
def bound_terms(value, cards, size, wild, group, per, number, spare, wild_charge, num_suits):
    """What the bounds of ``search`` read about the specials (``optimise._Search``): each one's
    charge (its real cards' ``spare`` plus ``wild_charge`` per wild card) and reduced value
    (value less charge), the indices of those with a positive reduced value and of those with
    wild cards, and those without wild cards by suit (``by_group[group_start[g]:group_start[g +
    1]]``, in order) with whether each suit's take the same number of its cards (``uniform``)."""
    n = value.shape[0]
    charges = np.empty(n, np.int64)
    reduced = np.empty(n, np.int64)
    positive = np.empty(n, np.int64)
    with_wilds = np.empty(n, np.int64)
    group_start = np.zeros(num_suits + 1, np.int64)
    n_positive = n_wild = 0
    for k in range(n):
        c = wild[k] * wild_charge
        for t in range(size[k]):
            c += spare[number[cards[k, t]]]
        charges[k], reduced[k] = c, value[k] - c
        if reduced[k] > 0:
            positive[n_positive] = k
            n_positive += 1
        if wild[k]:
            with_wilds[n_wild] = k
            n_wild += 1
        else:
            group_start[group[k] + 1] += 1
    group_start = np.cumsum(group_start)
    by_group = np.empty(group_start[-1], np.int64)
    fill = group_start[:-1].copy()
    uniform = np.ones(num_suits, np.bool_)
    for k in range(n):
        if not wild[k]:
            g = group[k]
            if fill[g] > group_start[g] and per[by_group[group_start[g]]] != per[k]:
                uniform[g] = False
            by_group[fill[g]] = k
            fill[g] += 1
    return charges, reduced, positive[:n_positive], with_wilds[:n_wild], group_start, by_group, uniform
