"""The exact set-packing optimiser behind Torqu scoring.

Problem: split a bag of cards into disjoint four-card sets (and cards left out) to maximise
``sum(points of the sets) + sign * sum(own numbers of the cards in sets)``: ``sign`` is +1 for
a tableau (a card left out costs its number, so covering it gains it) and -1 for the hand
penalty. The constant ``-sign * sum(all numbers)`` is added by the caller.

Method: the set kinds split in two (see :mod:`.sets`, the one definition of the kinds):

* **number kinds** (Fifteen, Straight, Four of a Kind) depend only on the numbers: cards of one
  number are interchangeable for them, so the best packing of what is left into number kinds is
  a memoised search on the *count vector* (:class:`_NumberSide`). It values a group at the
  number kind's points even when the group is all one suit; that group is then also a suit-kind
  "special" below, worth more, so the relaxation never loses the optimum and never overstates
  (a group with a Mirror can always let it stand for a card of another suit);
* **specials** (:mod:`.specials`): every group whose best kind is card-specific (Flush,
  Straight Flush, Fifteen Flush, Perfect Four, including the Dragons variant's cross-suit Perfect
  Fours and groups completed by wild cards). A branch and bound chooses a disjoint selection of them; each node
  is valued exactly by the number side on the remaining counts, and pruned with two upper
  bounds: the number side only loses cards when specials are added, so each further special
  adds at most its own value; and a Lagrangian one, where the number side values each card it
  leaves out at its share of a Flush, so each further special adds at most its value minus
  that share of its cards (a plain Flush: nothing).

Speed (issue 4): exact, but the count-level search grows quickly with the cards and with wild
cards (figures: ``scripts/bench_torqu_score.py``), so its loops are compiled (:mod:`.kernels`),
and the number side's two values (the plain one and the bound's) share one pass and one table.
The "passes" these docstrings name (each a session's work on the scorer, with its measurements
and what it tried and did not keep) are recorded in ``docs/performance/torqu-scoring.md``.

Wild cards (Mirrors) are interchangeable except for their own numbers, so they are used in a
fixed order (best own-number term first) and only their count is tracked. On the number side a
wild card fills any member of a number kind; four wild cards alone make the best kind
:func:`.sets.complete` gives them.
"""

from __future__ import annotations

from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Callable, NamedTuple, Sequence, TypeVar

from ...errors import CardgamesError
from . import specials
from .sets import SET_SIZE, Ident, Pictures, Points, complete, most_points, number_patterns

if TYPE_CHECKING:
    import numpy as np

NEG = float("-inf")
QUARTER = 4  # the kernels count in quarter points: a share of a Flush is a quarter of its points
NUMBER_BITS = 4  # bits per number in the packed counts: 16 numbers of up to 15 cards in 64 bits
MAX_NUMBER = 64 // NUMBER_BITS
MAX_PER_NUMBER = (1 << NUMBER_BITS) - 1
# A number side's first table: 2^(SMALLEST_TABLE_BITS + cards // 4) slots, at most
# 2^(TABLE_START_BITS + (cards - 36) // 6) (2^16 up to 36 cards), at most 2^LARGEST_FIRST_BITS; it
# doubles when five eighths full (kernels.FULL_EIGHTHS; half full when the sizes below were measured).
# Measured on four-player games: 2^16 suits tableaux of 30-36 cards best
# (2^12-2^15 and 2^17-2^18 slower or no faster), while allocating it for a hand of a few cards
# doubles that call's time. At 72 cards the tables end at 2^21-2^24 slots: starting at 2^22 saved
# most of the doublings (issue 4's ninth pass, 200 tableaux: median 221 -> 206 ms, all 93.6 ->
# 88.6 s, two-word slots); with three words a slot, 2^21 (fourteenth pass, 200 tableaux with the
# third word: median 199 -> 179 ms, all 85.1 -> 84.6 s; with two words it gained nothing). Mirrors
# multiply the positions (a special a wild card completes takes fewer real cards): 72-card tableaux with
# three or four of them end at 2^22-2^24 slots, so a first table of the largest size gets one more bit
# per wild card beyond MANY_WILDS, sparing those doublings (twenty-eighth pass, 200 tableaux, five runs
# alternated with the previous code: all 0.93 of its time, p99 1.63 against 1.79 s at the median of
# the runs; one more bit from the second wild card on made the median slower: 53 of the 64 2-Mirror
# tableaux end at 2^21 slots, while 35 of the 42 with three end at 2^22 and 16 of the 17 with four at 2^23).
TABLE_START_BITS = 16
SMALLEST_TABLE_BITS = 10
LARGEST_FIRST_BITS = 21  # 72 cards' first table (48 MiB): more cards grow it as they need, not up front
MANY_WILDS = 2
# The most bits the wild cards add up front: the four Mirrors'. A designer's twelve wild cards asked for a
# 6 GiB first table (a config fuzzer's MemoryError); past four, tables grow as the search needs them.
MOST_WILD_BITS = 2


def first_table_slots(cards: int, wilds: int) -> int:
    """The number side's first table size for a search over ``cards`` cards, ``wilds`` of them
    wild (see above)."""
    bits = min(SMALLEST_TABLE_BITS + cards // 4, TABLE_START_BITS + max(0, cards - 36) // 6, LARGEST_FIRST_BITS)
    if bits == LARGEST_FIRST_BITS:
        bits += min(max(0, wilds - MANY_WILDS), MOST_WILD_BITS)
    return 1 << bits


# A probe before the search (issue 4's fifteenth pass, ``_Search``): at most PROBE_NODES nodes valued
# below each of the root's children, for tableaux of PROBE_FROM_CARDS cards or more. Measured: 72 cards,
# 200 tableaux, median 172 -> 141 ms and all 75 -> 60 s (40 nodes the same, 250 slower); 54 cards
# faster, 44 the same, and four-player games (36 cards) 5-15 % slower with it, so not below 44. Since
# the thirty-first pass 30 nodes, not 100: with the aspirations below, the searches after the probe
# make up for the worse packings it meets more than its own time costs (even 1 node a child takes most
# of 100 nodes' time: valuing the root's children is the probe's cost, not its dives).
PROBE_NODES = 30
PROBE_FROM_CARDS = 44
# After the probe, searches ask for a packing worth the probe's value plus each of ASPIRATIONS points in
# turn, pruning below that value from the start, and the search proper runs only if none is met
# (``_Search``; issue 4's thirty-first pass). Measured on the 72-card benchmark's 200 tableaux: the
# probe (at 100 nodes) met the optimum on 68, and fell short by 30 points at the median and by 140 or
# more on one in ten; a search told the optimum from the start took 63.7 ms at the median and 23 s for
# all 200, the search after the probe 105 ms and 39 s (one 194 points short: 1.19 s, told 0.05 s). With
# these, alternated with the previous code: median 94-109 -> 86-93 ms, p99 0.99-1.18 -> 0.82-0.86 s.
ASPIRATIONS = (150, 60, 25)

# A value alone (a game's scoring) is handed to CP-SAT (:mod:`.aggregate`) once the search has valued
# VALUE_NODES nodes, with CPSAT_EFFORT deterministic seconds (``_Search._optimum``). Measured (issue 4's
# eighteenth pass): the 200 72-card benchmark tableaux take the search 1,896 nodes at the median,
# 52,633 at the 99th percentile and 239,717 at most, and CP-SAT is no faster on those (handed over at
# 100,000 nodes, their p99 rose from 1.44 to 1.91 s), so none of them is handed over; the 70-card
# Dragons tableau with four Mirrors of ``cardgames simulate --game torqu --players 2 --variant dragons
# --seed 3`` takes the search 2.3 million nodes (about a minute), CP-SAT 2.7 deterministic seconds.
VALUE_NODES = 300_000
CPSAT_EFFORT = 20.0

# A table slot is three int64 words (see :mod:`.kernels`): the packed counts, then the plain value and
# the bound in VALUE_BITS signed bits each, beside the set picked and the wild cards free (two words
# since the eleventh pass, down from three, so large tables miss the caches less: 30 of the 72-card
# benchmark's tableaux 13.6-14.0 s -> 11.3-12.4 s), then the slacks of numbers 1-8 (the fourteenth
# pass: a third word costs memory again, but the slacks' own searches it saves cost more).
VALUE_BITS = 24
TABLE_WORDS = 3


def fits_table_values(pts: Points, cards: int) -> str | None:
    """Why values of ``cards`` cards scored under ``pts`` might not fit a table slot, or None. In
    quarter points, a set of four cards adds at most its points and twice its numbers (a
    Straight's points count them once more), and a card left out at most its Flush share and
    twice the top number to the bound: so no value reaches ``cards * (points + flush + 16 * top)``.
    The Flush counts in every value, so where it alone leaves no room beside itself, its own limit
    is named (a designer's ``flush: 60000`` was told a set "up to 44601", and 52000 passed); else the
    set worth most's, the largest that passes."""
    most = max(pts.perfect_four, pts.fifteen_flush, pts.fifteen, pts.straight_flush, pts.straight,
               pts.four_of_a_kind * pts.top, pts.flush)
    room = ((1 << (VALUE_BITS - 1)) - 1) // cards - 16 * pts.top  # what points + flush may reach
    if most + pts.flush <= room:
        return None
    if 2 * pts.flush > room:
        return f"the scorer handles a Flush worth up to {room // 2} points for {cards} cards, not {pts.flush}"
    return f"the scorer handles a set worth up to {room - pts.flush} points for {cards} cards, not {most}"


def fits_packed_counts(low: int, top: int, most: int) -> str | None:
    """Why a deck cannot be scored (numbers outside 1..MAX_NUMBER, whose counts have no place in the
    packed counts, or more than MAX_PER_NUMBER cards of one number), or None."""
    if low < 1 or top > MAX_NUMBER:
        return f"the scorer handles numbers from 1 to {MAX_NUMBER}, not {low if low < 1 else top}"
    if most > MAX_PER_NUMBER:
        return f"the scorer handles up to {MAX_PER_NUMBER} cards of one number, not {most}"
    return None


def fits_number_kinds(pts: Points) -> tuple[str, str] | None:
    """Why the number side could overstate a packing under ``pts`` (the points key at fault and
    the reason), or None. It values four numbers as a Fifteen or a Straight whatever their suits,
    though a group of one suit is a Fifteen Flush or a Straight Flush instead: right only while
    those are worth at least as much, so that the group's true kind is a special worth no less."""
    for key, flush, plain, name in (("fifteen_flush", pts.fifteen_flush, pts.fifteen, "Fifteen"),
                                    ("straight_flush", pts.straight_flush, pts.straight, "Straight")):
        if flush < plain:
            return key, f"the scorer needs a {name} Flush worth at least a {name}, not {flush} against {plain}"
    return None


def fits_wild_cards(num_suits: int, wilds: bool) -> str | None:
    """Why wild cards cannot be scored on a deck of ``num_suits`` suits, or None. The number side
    lets a wild card fill any member of a Fifteen, Straight or Four of a Kind, which needs a card
    of that number free in some suit: a set holds at most four cards of one number, so four suits
    always leave one (and a second suit for a group that must not be all one suit)."""
    if wilds and num_suits < SET_SIZE:
        return f"the scorer needs at least {SET_SIZE} suits for wild cards, not {num_suits}"
    return None


def _kernels():
    """The compiled loops, imported on first use: numba takes a good part of a second to load,
    which commands that never score (``cardgames --help``) must not pay."""
    from . import kernels

    return kernels


class Packing(NamedTuple):
    """An optimal packing: its value and its sets as (real indices, wild cards used); with a node
    budget that ran out, the best packing found, ``proven`` False."""

    value: int
    sets: list[tuple[tuple[int, ...], int]]
    proven: bool = True


# A number-side set: the numbers of the real cards it takes, and how many wild cards.
NumberSet = tuple[tuple[int, ...], int]


class _Shapes(NamedTuple):
    """Every number-kind set as the kernels read them, grouped by the highest number of its real
    cards (``start[n]:start[n + 1]``), fewest wild cards first: what it subtracts from the packed
    counts, its wild cards and its value without the wild cards' own numbers. ``sets`` holds
    each one's (numbers, wild cards) for the arrangement."""

    start: np.ndarray
    delta: np.ndarray
    wilds: np.ndarray
    gain: np.ndarray
    sets: list[NumberSet]


class _NumberSide:
    """Best packing of counts into number kinds at ``(x, j)``: ``x`` the count of each number
    packed into one integer (:data:`NUMBER_BITS` bits per number, number n at bits
    ``NUMBER_BITS * (n - 1)``: hashing and subtracting a set are single integer operations),
    ``j`` wild cards still free. Its value is points plus ``sign`` times the real cards'
    numbers, plus ``gain[used wild cards]`` for all wild cards used by then (``J - j_final``), so
    values do not depend on who used the wild cards. It has two values, computed together since
    they run over the same positions: the *plain* one, where a card left out is worth nothing,
    and the *bound*, where it is worth ``spare[n]`` for number n and ``spare[0]`` for a wild card.
    All of these are in quarter points (:data:`QUARTER`), so the kernels add integers.

    The search is :func:`.kernels.number_best`: either no further set has a card of the top
    number n (they are all left out), or one does, taken from the shapes with that top number.
    Its memo is a table of numpy arrays (see :mod:`.kernels`) that grows when five eighths full. A table
    lives for one scoring call: keeping positions between calls was measured to cost more (a
    larger table, out of the processor's caches) than the few positions that recur save."""

    def __init__(self, pts: Points, sign: int, gain: tuple[int, ...], four_wilds: int | None,
                 spare: tuple[int, ...], cards: int):
        import numpy as np

        self.shapes = _all_shapes(pts, sign)
        self.spare = np.array(spare, np.int64)
        self.gain = np.array([QUARTER * g for g in gain], np.int64)
        self.four_wilds = QUARTER * (four_wilds or 0)  # points of a set of four wild cards ...
        self.has_four = four_wilds is not None  # ... if they make one
        wilds = len(gain) - 1  # gain[k]: what the first k wild cards used add
        self.tab = np.zeros((first_table_slots(cards, wilds), TABLE_WORDS), np.int64)  # a larger copy when outgrown
        self.filled = np.zeros(1, np.int64)

    def arguments(self) -> tuple:
        """The memo and constants in :func:`.kernels.number_best`'s argument order."""
        s = self.shapes
        return (self.tab, self.filled, self.spare, self.gain, self.four_wilds, self.has_four, s.start, s.delta,
                s.wilds, s.gain)

    def sets(self, x: int, j: int) -> list[NumberSet]:
        """The sets of the best plain packing for ``(x, j)``, a position the search has valued."""
        import numpy as np

        k = _kernels()
        out = np.empty(MAX_NUMBER * MAX_PER_NUMBER + j, np.int64)  # every set takes a real card or four wild cards
        count = k.number_sets(self.tab, self.shapes.start, self.shapes.delta, self.shapes.wilds, np.uint64(x), j, out)
        if count < 0:
            raise AssertionError("the search did not value the position it chose")
        return [((), SET_SIZE) if s == k.FOUR_WILDS else self.shapes.sets[s] for s in out[:count].tolist()]


def _wild_steps(pts: Points, sign: int, side: _NumberSide, gain: Sequence[int], wilds: int) -> list[int]:
    """Upper bounds, in quarters, on what one more wild card free adds to the number side's bound:
    B(x, i + 1) - B(x, i) <= step[i] for every count vector x (``kernels._wild_bound`` uses them). Take
    the best packing for (x, i + 1): if it leaves a wild card out, dropping that card loses its
    ``spare[0]`` less at least the smallest own-number gain; otherwise break a set S that holds one (w
    of them): its real cards are left out (each then worth its ``spare``), its other w - 1 wild cards
    too (each worth ``spare[0]`` but no longer gaining its own number, at most the best own number
    ``gain[1] - gain[0]``). Either way a packing for (x, i) is worth at most the step less."""
    if not wilds:
        return [0]
    spare0 = int(side.spare[0])
    owns = [QUARTER * (gain[k + 1] - gain[k]) for k in range(wilds)]
    best_own, least_own = max(owns), min(owns)
    most = _wild_shape_gains(pts, sign)
    steps = []
    for i in range(wilds):
        step = spare0 - least_own
        for w in range(1, min(i + 1, SET_SIZE - 1) + 1):
            if most[w] is not None:
                step = max(step, most[w] - (w - 1) * (spare0 - best_own))
        if side.has_four and i + 1 >= SET_SIZE:
            step = max(step, side.four_wilds - (SET_SIZE - 1) * (spare0 - best_own))
        steps.append(step)
    return steps


@lru_cache(maxsize=None)
def _wild_shape_gains(pts: Points, sign: int) -> tuple[int | None, ...]:
    """For w = 1..3 wild cards, the most a number-kind shape with w of them is worth beyond its real
    cards' shares of a Flush (``spare``), in quarters (None if no shape has w): :func:`_wild_steps`'s
    terms, the same for every tableau scored under ``pts`` and ``sign``."""
    shapes = _all_shapes(pts, sign)
    spare = _spare(pts, sign, 0)  # the real cards' shares do not depend on the wild cards
    most: list[int | None] = [None] * SET_SIZE
    for k, (numbers, w) in enumerate(shapes.sets):
        if w:
            term = int(shapes.gain[k]) - sum(spare[n] for n in numbers)
            most[w] = term if most[w] is None else max(most[w], term)
    return tuple(most)


def _shapes(pts: Points, sign: int, n: int) -> list[tuple[tuple[int, ...], int, int]]:
    """Every number-kind set whose highest real card has number ``n``, any other member
    possibly a wild card: (numbers of its real cards, wild cards, value without the wild cards'
    own numbers); fewest wild cards first."""
    best: dict[tuple[tuple[int, ...], int], int] = {}
    for numbers, points in number_patterns(pts):
        if n in numbers:
            others = list(numbers)
            others.remove(n)
            for reals in _subsets([m for m in others if m <= n]):
                _offer(best, (n, *reals), 3 - len(reals), points + sign * (n + sum(reals)))
    return [(numbers, wilds, value) for (numbers, wilds), value in sorted(best.items(),
                                                                         key=lambda kv: (kv[0][1], kv[0]))]


_SHAPES: dict[tuple[Points, int], _Shapes] = {}


def _all_shapes(pts: Points, sign: int) -> _Shapes:
    """:func:`_shapes` for every top number, as arrays, computed once per points and sign."""
    import numpy as np

    key = (pts, sign)
    if key not in _SHAPES:
        start, rows = [0, 0], []
        for n in range(1, pts.top + 1):
            rows += _shapes(pts, sign, n)
            start.append(len(rows))
        assert max(start[n + 1] - start[n] for n in range(1, pts.top + 1)) < 254, "a pick is one byte of a slot"
        _SHAPES[key] = _Shapes(
            np.array(start, np.int64),
            np.array([sum(1 << NUMBER_BITS * (m - 1) for m in numbers) for numbers, _, _ in rows], np.uint64),
            np.array([w for _, w, _ in rows], np.int64), np.array([QUARTER * v for _, _, v in rows], np.int64),
            [(numbers, w) for numbers, w, _ in rows])
    return _SHAPES[key]


def _offer(best: dict[tuple[tuple[int, ...], int], int], numbers: tuple[int, ...], wilds: int, value: int) -> None:
    """Keep the best value of each (real numbers, wild cards) group shape."""
    key = (tuple(sorted(numbers, reverse=True)), wilds)
    if value > best.get(key, NEG):
        best[key] = value


def _subsets(numbers: list[int]) -> set[tuple[int, ...]]:
    """Every sub-multiset of ``numbers`` (the members that are real cards, the rest wild)."""
    return {tuple(m for k, m in enumerate(numbers) if mask >> k & 1) for mask in range(1 << len(numbers))}


@lru_cache(maxsize=None)
def _spare(pts: Points, sign: int, best_wild: int) -> tuple[int, ...]:
    """What the bound counts a card left out worth, in quarter points: its share of a Flush, so
    that what a special takes from the number side is charged at least that. A wild card's is
    the share plus the best own number a wild card can add (index 0), number n's at index n."""
    return tuple([pts.flush + QUARTER * best_wild] + [max(0, pts.flush + QUARTER * sign * n)
                                                      for n in range(1, pts.top + 1)])


class _Search:
    """The branch and bound over specials. Each node (a selection of specials, in their order) is
    valued exactly by the number side on the counts they leave, and its subtree is pruned with two
    upper bounds on what further specials can add:

    * ``kernels._extra``: the number side only loses cards when specials are added, so each further
      special adds at most its own value: per suit, its best specials without wild cards, as
      many as fit in what is left of the suit; plus the best ``wilds`` specials with wild cards
      (each takes one at least), own numbers included;
    * ``kernels._wild_parts``, a Lagrangian one: the number side's bound B values each card it
      leaves out at its share of a Flush (``spare``), so a special's cards are worth at most
      ``spare`` each to it: F(x - a, j - b) <= B(x, j) - spare(a) - b * (spare_wild - best own
      number). A subtree is worth at most B(x, j) (or, without evaluating it, the parent's less
      the last special's charge) plus the positive reduced values of the specials still
      possible: one per wild card, and per suit as many as fit, counted as the suit's best one
      and then its second best (issue 4's fifteenth pass: the best for each was looser).

    Nearly every node is pruned on entry, by the parent's bound or its own B; on a 72-card tableau
    nearly all of those are a plain Flush added deep in the tree (a Flush's reduced value is 0, so
    the bounds above never rule one out before its B is computed). Hence a third, the *slacks*
    (``kernels._slack_prunes``, issue 4's eighth pass): B(x - a, j) <= B(x - e_n, j) - spare(a - e_n)
    for any card n of a, so a child is bounded by the parent's B less its charge less the largest
    of its cards' slacks, B(x, j) - B(x - e_n, j) - spare[n], each computed once per node and
    number when first needed. Measured on 72-card tableaux (seeds 0..29 of the benchmark): 95 %
    of the children's B computations go, the median time halves. Only at nodes with no wild card
    free: there a single's B opens many more positions than the children it spares (tried: the
    median rose again, 239 -> 271 ms allowing one wild card). Since the fourteenth pass the
    number side keeps the slacks of numbers 1-8 in its table, computed with B from the options'
    children (``kernels._slack_at``): those numbers' searches, which re-opened every position
    above the card's number, were most of the slacks' cost (a fifth of all positions go).

    With wild cards free the Lagrangian bound counted each twice: the number side's B(x, j) may put a
    wild card in a number kind, while the specials with wild cards, charged a Flush share a wild card,
    counted it again (a Mirror is worth 35-140 points more to B than that share on the benchmark's
    tableaux). So the number side is valued at every level of wild cards free, B(x, i) for i <= j, and a
    node is bounded by the greatest over w of B(x, j - w) plus the w best specials with wild cards,
    their wild cards uncharged (``kernels._wild_bound``; the least of that and the bound above). One more
    wild card free adds at most a step to B (``_wild_steps``: 137.5 points with the shipped points, a
    Four of a Kind of 16 completed), and a special that takes one is usually worth more (a Perfect Four
    277.5 points beyond its real cards' shares): then the terms with fewer of them are covered by the
    next one, and a node is bounded from the lower, cheaper levels, B(x, j) being valued only if the
    node's own packing could still beat the best (issue 4's thirtieth pass). A probe, which looks for a
    good packing and proves nothing, takes the node's own packing with its free wild cards left out
    instead. Exact: the optimum and the arrangement are the ones the search gave before.

    The bounds prune only below the best packing found so far, and the search, taking specials in
    their order, often meets the optimum late: on the twelve slowest of the 72-card benchmark's
    tableaux, after 37-99.6 % of its nodes (one Dragons tableau: after 868,818 of 869,014 nodes,
    where 665 sufficed with the optimum known). So a large tableau is first *probed* (issue 4's
    fifteenth pass): the same search, valuing at most :data:`PROBE_NODES` nodes below each of the
    root's children, which meets a packing at or near the optimum early; the search proper then
    prunes by it from the start, its positions already in the table. The arrangement returned is
    the one the search alone returns: both return the first packing in the search's order whose
    value is the optimum (what is pruned below a known value could not reach it, and the first
    optimal packing is still reached and, being above ``known`` - 1, taken).

    The search after a probe that fell short of the optimum explores every node whose bound is above the
    probe's value, far more than the optimum's proof needs (one 72-card tableau: 1.19 s against 0.05 s
    told the optimum). So searches first ask for more: a search that prunes from the start below the
    probe's value plus each of :data:`ASPIRATIONS` in turn, which is cheap when no packing is worth that
    much and, when one is, meets the optimum and proves it (issue 4's thirty-first pass). It returns the
    same arrangement, by the same argument: until it meets the first optimal packing in its order, its
    best is below the optimum, so that packing's nodes are never pruned. The same argument lets
    a search still going after :data:`VALUE_NODES` nodes be told CP-SAT's optimum and stop at that
    packing (:meth:`_optimum`).

    The loop itself is :func:`.kernels.search`; this class prepares its arrays and rebuilds the
    packing."""

    def __init__(self, reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int,
                 num_suits: int, picture_members: Pictures, budget: int | None = None):
        import numpy as np

        self.reals = reals
        self.budget = budget  # the most nodes the search proper values, or None (see :meth:`_optimum`)
        self.probed: int | None = None  # the probe's value, once it has run
        self.problem = (reals, wild_own, pts, sign, num_suits, picture_members)  # CP-SAT's, in :meth:`_optimum`
        self.known: int | None = None  # the search's ``known`` (it prunes by ``known`` - 1), once begun ...
        self.has_known = False  # ... and whether it has one
        own = sorted((sign * o for o in wild_own), reverse=True)
        gain = [0]
        for o in own:
            gain.append(gain[-1] + o)
        self.wilds = len(own)
        assert self.wilds < 255, "the wild cards free are one byte of a table slot"
        self.best_wild = max(0, own[0]) if own else 0
        # No packing is worth more than every set at the most points and every card's number term counted
        # if it gains, nor than each card's share of the most points plus its number term, for the cards
        # that gain by it (a hand's penalty counts a card's number against it in a set: the first alone
        # left whole suits' penalty unproven under `score --budget`, a small-commands audit's finding). Met,
        # that is the optimum, proven (whole suits, whose proof the search and CP-SAT could take hours over,
        # pack into Perfect Fours and meet it).
        most = most_points(pts)
        terms = [QUARTER * sign * c.number for c in reals] + [QUARTER * o for o in own]
        self.ceiling = min(QUARTER * most * (len(terms) // SET_SIZE) + sum(max(0, t) for t in terms),
                           sum(max(0, most + t) for t in terms))
        four = complete([], SET_SIZE, pts, num_suits, picture_members)
        four_points = None if four is None else four[1]
        numbers = np.array([c.number for c in reals], np.int64)
        faulty = fits_number_kinds(pts)
        low = int(numbers.min(initial=1))
        most = int(np.bincount(numbers - low).max(initial=0))  # cards of the commonest number, even below 1
        why = (fits_packed_counts(low, pts.top, most)
               or fits_table_values(pts, max(1, len(reals) + len(own))) or (faulty and faulty[1])
               or fits_wild_cards(num_suits, bool(own)))
        if why:
            raise CardgamesError(f"Torqu scoring: {why}")
        spare = _spare(pts, sign, self.best_wild)
        self.side = _NumberSide(pts, sign, tuple(gain), four_points, spare, len(reals) + self.wilds)
        self.wild_step = np.array(_wild_steps(pts, sign, self.side, gain, self.wilds), np.int64)
        self.numbers = numbers.tolist()
        unit = np.left_shift(np.uint64(1), (NUMBER_BITS * (numbers - 1)).astype(np.uint64))  # one card, packed
        self.unit = unit.tolist()
        self.counts = sum(self.unit)
        suit = np.array([c.suit for c in reals], np.int64)
        sp = self.specials = specials.find(reals, self.wilds, pts, sign, num_suits, picture_members, self.best_wild)
        value = QUARTER * sp.value
        charges, reduced, positive, with_wilds, group_start, by_group, uniform = _kernels().bound_terms(
            value, sp.cards, sp.size, sp.wilds, sp.group, sp.per, numbers, self.side.spare,
            spare[0] - QUARTER * self.best_wild, num_suits)
        self.arrays = (np.uint64(self.counts), self.wilds, np.bincount(suit, minlength=num_suits), unit, suit,
                       numbers, QUARTER * self.best_wild, value, sp.cards, sp.size, sp.wilds, sp.group, sp.per, charges,
                       reduced, positive, with_wilds, group_start, by_group, uniform)

    def value(self) -> int:
        """The optimum's value alone (all a game needs)."""
        return self._optimum(False)[0]

    def _optimum(self, sets: bool) -> tuple[int, list[int], bool]:
        """The optimum's value, if ``sets`` the specials it takes (else perhaps none), and True. A
        search still going after :data:`VALUE_NODES` nodes asks CP-SAT (:mod:`.aggregate`) for the
        optimum, whose proven value is the same number. A value alone is then that. For the sets the
        search goes on told it, and stops at the first packing worth it: the one it would return
        anyway (until it meets that packing its best is lower, so nothing it prunes on the way could
        hold it), without the proof that nothing is worth more. If CP-SAT proves nothing within
        :data:`CPSAT_EFFORT`, the search goes on to the end, pruning by the best it had found, its
        positions already in the table. A best found at ``ceiling`` is the optimum without CP-SAT (and
        a probe that meets it makes the search proper stop at the first packing worth it, in :meth:`_solve`).

        With a ``budget`` the search proper values at most that many nodes in all (CP-SAT is asked
        only past :data:`VALUE_NODES` of them, as without one): when they run out, the answer is the
        best packing found and False (:meth:`_best_found`; only an arrangement has a budget, as only
        its sets show what such a packing is worth). Whole suits can keep the proof going for hours,
        where ``cardgames score --budget`` still answers."""
        budget = self.budget
        found = self._solve(VALUE_NODES if budget is None else min(VALUE_NODES, budget))
        if found is not None:
            return *found, True
        if self._at_ceiling():
            proven: int | None = self.ceiling // QUARTER
        elif budget is not None and budget <= VALUE_NODES:
            return self._best_found()
        else:
            from .aggregate import packing_optimum

            proven = packing_optimum(*self.problem, effort=CPSAT_EFFORT)
        if proven is None:
            found = self._solve(0 if budget is None else budget - VALUE_NODES)
            if found is None:
                return self._best_found()
        elif not sets:
            return proven, [], True
        else:
            self.known = QUARTER * proven
            found = self._solve(stop=True)
            assert found is not None and found[0] == proven, "the search met no packing worth CP-SAT's optimum"
        assert found is not None, "a search without a node limit ends"
        return *found, True

    def _aspirations(self) -> list[int]:
        """The values the searches after the probe ask for in turn (see the class), in quarters: the
        probe's value plus each of :data:`ASPIRATIONS`, none above ``ceiling``."""
        assert self.probed is not None, "the aspirations follow the probe"
        return [target for target in (self.probed + QUARTER * delta for delta in ASPIRATIONS)
                if target <= self.ceiling]

    def _at_ceiling(self) -> bool:
        """Whether the best packing found is worth ``ceiling``, and so is the optimum (see ``ceiling``)."""
        return self.has_known and self.known == self.ceiling

    def _best_found(self) -> tuple[int, list[int], bool]:
        """The best packing a search that gave up had found (value ``self.known``), unproven. Its
        specials: if it was the probe's, the probe's again (it runs within its own limit); else the
        first packing worth it in a search told its value, which prunes at least as much as the
        search that found it and so meets it, or one worth as much, within that search's nodes."""
        value = self.known // QUARTER
        if self.known == self.probed:
            probed, chosen = self._probe()
            assert probed == self.known, "the probe is deterministic"
            return value, chosen, False
        found = self._solve(stop=True)
        assert found is not None and found[0] == value, "the search met no packing worth its best found"
        return value, found[1], False

    def _probe(self) -> tuple[int, list[int]]:
        """The probe (see the class): a good packing's value and specials, met within at most
        :data:`PROBE_NODES` nodes below each of the root's children."""
        value, length, chosen, _ = self._run(PROBE_NODES, 0, False, 0, False)
        return value, chosen[:length]

    def _run(self, probe: int, known: int, has_known: bool, most: int,
             stop: bool) -> tuple[int, int, list[int], int]:
        """One call of :func:`.kernels.search` on this problem, its table kept: (value, number of
        specials or -1 if it gave up, the specials' buffer, the nodes it valued)."""
        import numpy as np

        chosen_out = np.zeros(len(self.reals) // SET_SIZE + self.wilds + 2, np.int64)
        value, length, self.side.tab, nodes = _kernels().search(
            *self.arrays, *self.side.arguments(), self.wild_step, chosen_out, probe, known, has_known, most, stop)
        # Python ints, also when NUMBA_DISABLE_JIT=1 runs the kernel as numpy code
        return int(value), int(length), chosen_out.tolist(), int(nodes)

    def _solve(self, most: int = 0, stop: bool = False) -> tuple[int, list[int]] | None:
        """The optimum's value and the specials it takes (indices into ``self.specials``), or None
        if the search gave up after ``most`` nodes (0: never). Asked again, it prunes from the start
        just below the best packing it had found, so that it meets that packing again and knows its
        specials should it be the optimum (the probe and the aspirations run once, their nodes
        counted in ``most``). With ``stop`` it returns the first packing worth ``self.known`` (see
        :func:`.kernels.search`)."""
        if self.known is None:
            self.known, self.has_known = 0, len(self.reals) + self.wilds >= PROBE_FROM_CARDS
            if self.has_known:
                self.known = self.probed = self._probe()[0]
                for target in self._aspirations():
                    value, length, chosen, nodes = self._run(0, target, True, most, False)
                    if value >= target:  # the optimum; or, if it gave up, a packing worth ``value``
                        self.known = value
                        return None if length < 0 else (value // QUARTER, chosen[:length])
                    if most:
                        most -= nodes
                        if most <= 0:  # gave up (the kernel counts one node past ``most``) or none left
                            return None
        stop = stop or self._at_ceiling()
        value, length, chosen, _ = self._run(0, self.known, self.has_known, most, stop)
        if length < 0:  # gave up. Asked again, it prunes just below the best packing met so far, so it meets that
            # packing again: ``value``, or ``known`` if none beat it (the kernel then returns ``known`` - 1)
            self.known = max(self.known, value) if self.has_known else value
            self.has_known = True
            return None
        assert value % QUARTER == 0, "the search met no packing worth its known value (told: CP-SAT's optimum)"
        return value // QUARTER, chosen[:length]

    def run(self) -> Packing:
        """The optimum's value and its sets."""
        value, chosen, proven = self._optimum(True)
        counts, wilds, used = self.counts, self.wilds, set()
        sets: list[tuple[tuple[int, ...], int]] = []
        for k in chosen:
            cards = self.specials.members(k)
            counts -= sum(self.unit[i] for i in cards)
            used.update(cards)
            wilds -= int(self.specials.wilds[k])
            sets.append((cards, int(self.specials.wilds[k])))
        pool: dict[int, list[int]] = {}
        for i, n in enumerate(self.numbers):
            if i not in used:
                pool.setdefault(n, []).append(i)
        for numbers, w in self.side.sets(counts, wilds):
            sets.append((tuple(sorted(pool[n].pop(0) for n in numbers)), w))
        return Packing(value, sets, proven)


_Result = TypeVar("_Result")


def _interruptible(solve: Callable[..., _Result]) -> Callable[..., _Result]:
    """``solve`` with Ctrl-C raised as the KeyboardInterrupt it is. The compiled search calls
    back into Python to grow its table; an interrupt arriving there comes back out of the
    kernel as a SystemError chained to it, which every caller (the CLI, a serial batch, a
    worker) would otherwise take for a fault. The interrupt itself is raised again, so that its
    own class survives (a batch's SIGTERM, a KeyboardInterrupt of its own, exits 143, not 130)."""
    @wraps(solve)
    def run(*args, **kwargs) -> _Result:
        try:
            return solve(*args, **kwargs)
        except SystemError as exc:
            interrupt = _interrupt(exc)
            if interrupt is None:
                raise
            raise interrupt from None
    return run


def _interrupt(exc: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt that caused ``exc``, directly or down its chain, or None."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


@_interruptible
def pack(reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int, num_suits: int,
         picture_members: Pictures, budget: int | None = None) -> Packing:
    """The optimal packing of ``reals`` plus wild cards with own numbers ``wild_own`` (with a node
    ``budget``, perhaps the best found: see ``_Search._optimum``)."""
    return _Search(reals, wild_own, pts, sign, num_suits, picture_members, budget).run()


@_interruptible
def pack_value(reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int, num_suits: int,
               picture_members: Pictures) -> int:
    """The value of :func:`pack`'s packing, without rebuilding its sets: a game needs only this."""
    return _Search(reals, wild_own, pts, sign, num_suits, picture_members).value()
