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
  re-checked (with every other pair whose cards can still block: a pair with no card left, or
  room for all of its cards whatever their order, adds nothing). This proves most unwinnable
  deals at once and cuts dead branches early.
* **The search cannot loop**: every move turns a card or places one.

Wild cards (the Fool, the Wizards) may move rows between pairs. The sub-games then also hold
every wild card and wild-topped row, and may play a wild card onto a *phantom* outside row
(``Subgames``): a relaxation, so a lost sub-game still proves a lost game, checked for every
pair after each move that involves a wild card. Without a row cap, a wild-topped row can do
all any row can, so the search never puts a wild card on one while another row exists, nor
another card on one while its own pair has a row for it. Under a row cap (Castle) the phantom
rows are also counted: each wild-topped row takes at most one card before it belongs to that
card's pair, so the pairs' least numbers of wild-topped rows (``Subgames.wild_cost``) must
fit in the wild-topped rows and wild cards left, and so must each two pairs' joint need with the
other pairs' own ones (``wild_rows_suffice``), checked at every node.

The pairs whose cards go onto wild-topped rows in a winning play are at most the pool, and hold every
pair needing some: outside each largest such set the game of the other pairs' rows and cards alone,
without wild cards (``tame.py``), must be winnable: this solver's own stages for capped games without
wild cards decide them (``wild_row_sets``, ``weave.py``), and when every one is lost the deal is. A
won one's line, with the other cards woven in, is often a win. When the needs take the whole pool,
each wild slot takes one card of a pair needing some: the games where the slots are given to those
pairs (``tame.slots_given``), for every way to give them, must not all be lost, and a won one's line
is woven too. Before the full search, a *hasty* one looks for a line with the cards of the pairs
needing none played at once onto their own roomiest row (``hasty_line``): most of them are easy, and
their many orders are what the full search drowns in; a line it finds is a win, and its failures
prove nothing (they are kept apart from the full search's memo). With a waste cap too (Strict
Castle), the two-pair bound is then tried for three pairs, one of them needing wild-topped rows
(``triples_short``).

Wild cards are also counted across pairs (``wild_cards_short``): a row changes pair only under a
wild card, so when the rows are fewer than the pairs, serving the waste's cards in the order they
must leave it is a paging problem whose least number of loads (Belady's furthest-next-use rule),
less the wild-topped rows, the wild cards left must cover. Checked at every node on such layouts
(``rows_short_of_pairs``: wild cards, no row cap); it is what proves Wizard's Tower deals lost on
layouts of a few rows, where the sub-games (every pair with all eight Wizards) hardly ever are,
and where their queries explode instead: there they are not asked (``Subgames.enabled``).

A sub-game query may explode (a pair of 48 cards under a row cap has too many waste orders): one
that takes more than ``SUBGAME_EFFORT`` new positions gives up, answering "winnable" (or a wild
cost of 0), which a pruning test may always do, and the search gets the budget instead.

Games without wild cards or row cap (Eiffel Tower and most of the family) get a second, exact
stage when the search has not decided within ``SEARCH_SHARE`` nodes (beyond its start-up
sub-game checks): the interval solver of
``intervals.py``, whose memo does not depend on the buried waste, so its effort is bounded by
the (stock index, row counters) pairs instead of growing with the waste's contents. The
search first because it settles most deals in a few hundred nodes; the interval stage
because it settles the rest in a bounded, if larger, number of cheaper nodes. When the interval
memo's key space is beyond ``INTERVAL_SPAN_LIMIT`` (Uta Pagoda's 50 pairs), the search keeps the
whole budget instead. The search's failed positions and sub-games are kept between its stages.

Where the search would decide alone without a row cap (Wizard's Tower, Uta Pagoda: wild cards, or an
interval memo too large), or the interval memo would be large (``BEAM_SPAN_LIMIT``: the other Uta Pagoda
deals, and the capped games without wild cards whose uncapped relaxation is large, Keshava's, Stuppa's,
Sun and Moon's; their interval stage then gets what is left), the search gets a tenth of the budget (at most
``BEAM_SEARCH_MOST`` nodes), then beam searches look for a line (``beam.py``): the search drowns in
the subtrees of its first few hundred moves, a beam judges each stock index's positions side by side.
Without wild cards, when a beam finds no line, the sub-game of the pairs of the cards it left stuck on
the waste is decided (a loss is a loss) and, when won, its line played out in the whole game: a win,
or a card in its way whose pair joins the sub-game (``refine.py``). Then the search resumes (or the
interval stage takes the rest).

Capped games first get a room check (``over_capacity``: a pair's cards must fit on the rows
that can ever serve it, and each class's cards on the places of its class: a row's free places
alternate between its pair's two classes), and, like wild-card games, one greedy playout (a win
is a line);
without wild cards, the interval solver run as if rows had no cap refutes further deals
(that game allows every move of the capped one), or finds a line that, with the roomiest row
named for each play, often keeps the cap and so wins, before the search resumes.

With wild cards and a waste cap but no row cap (Strict Wizard's Tower), the block relation
(``blocks.py``) comes first, within a small effort: it refutes most lost deals in milliseconds, where
the search and the bound below take seconds, and costs a won deal a fraction of a second. What the
stages leave undecided there then meets the wild-row partition bound (``wildrows.py``): the least
plays onto wild-topped rows of the projections onto groups of pairs, summed over a partition of the
pairs, must fit in the wild-topped rows and wild cards left, in all and by each stock index (the plays
made by then against the wild cards come by then); the phantom-row argument of the sub-games, for
groups of up to six pairs, searched by compiled code.

What all of that leaves undecided goes to a CP-SAT model of the whole position (``cpsat.py``):
CP-SAT's single search, then its portfolio, each within ``sat_effort`` deterministic seconds. It finds
the wins whose Wizards' rows the search never reaches, and refutes the capped deals no relaxation here
refutes. It comes last because the stages above settle most deals in milliseconds, and it costs a
second or more. Then the block relation's refutations (``efforts.REFUTATIONS``): for games with wild cards and
no row cap, the block relation of each projection onto three pairs and every wild card, then onto five (lost, so
is the deal: ``blocks.projections_lost``), the only stage that proves a Wizard's Tower deal lost; under a waste cap
without a row cap, the block relation of the whole deal at its full effort; last, projections onto seven pairs.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, Iterator

from ...errors import CardgamesError
from .beam import BeamOutOfNodes, beam_line
from .budget import OutOfBudget
from .cpsat import sat_verdict
from .efforts import EARLY_EFFORT, WHOLE_DEAL, refutations
from .intervals import IntervalSolver
from .refine import refine
from .rules import TURN, WILD, PairingGame, PairingState, Play
from .subgames import Subgames
from .tame import projection, slots_given, wild_slots, without_wild_cards
from .weave import outside, rest_line, weave, wild_row_sets

if TYPE_CHECKING:
    from .wildrows import Projections

DEFAULT_BUDGET = 2_000_000  # search nodes, sub-game nodes and interval-solver entries included
# A search node costs some ten times an interval entry, and games with wild cards have no interval stage
# (their stages are searches: depth-first, beams, and the checks around them), so they get this default
# instead: an undecided deal costs seconds before the CP-SAT stage, not minutes.
SEARCH_ONLY_BUDGET = 300_000
SEARCH_SHARE = 5_000  # nodes the depth-first search gets (beyond its start-up checks) before the interval stage
# An interval memo keyed by more counter values than this cannot be bounded (Uta Pagoda: some 20 pairs of
# 2-4 rows give 10^12): the search, whose pair sub-games bite hard with many pairs, gets the budget instead.
INTERVAL_SPAN_LIMIT = 10**9
# Above this many counter values the search and the beams go first, the interval stage gets the rest (Uta Pagoda
# deals with 2-4 rows on every pair: 10^7-10^9; Eiffel Tower's and Temple's deals stay below 10^5).
BEAM_SPAN_LIMIT = 10**6
SUBGAME_EFFORT = 100_000  # new sub-game positions one query from the search may take before it gives up
HASTY_SHARE = 0.25  # the share of the budget the hasty search for a line gets (row cap and wild cards)
HASTY_EFFORT = 2_000  # ``SUBGAME_EFFORT`` during the hasty search
WILD_SETS_SHARE = 0.2  # the share of the budget the sets of pairs using wild-topped rows get when the needs leave room
SLOTS_SHARE = 0.6  # the share of the budget the games of ``tame.slots_given`` get (when the needs take the pool)
WEAVE_EFFORT = 20_000  # positions one weave of a line (``weave.weave``) may take
TRIPLE_SHARE = 0.15  # the share of the budget the three-pair wild-row checks get (row cap and wild cards)
TRIPLE_EFFORT = 2_000  # ``SUBGAME_EFFORT`` for each of them
BEAM_SEARCH_FIRST = 0.1  # where the beams run: the search's share of the budget before them
BEAM_SEARCH_MOST = 30_000  # and at most this many nodes (Uta Pagoda's quick verdicts take fewer; more only slowed it)
BEAM_SHARE = 0.5  # the beam searches' share of the budget (then the search resumes with the rest)
BEAM_WIDTH = 32  # the first beam search's width (positions kept per stock index); doubled after each failure
SAT_EFFORT = 60.0  # deterministic seconds each CP-SAT search gets on a position the other stages left undecided


@dataclass
class Solution:
    """The verdict on one position: ``winnable`` is None when the node budget ran out."""

    winnable: bool | None
    nodes: int
    seconds: float
    line: list[Any] = field(default_factory=list)


@dataclass
class _SearchMemo:
    """What the search learns about one position, kept across its stages: the canonical
    positions proven lost, and the deal's pair sub-games."""

    failed: set[tuple]
    subgames: Subgames


# A position's waste and row counts are packed one class or count a byte (memo keys that hash fast).
BYTE_MOST = 255


def _beyond_packing(game: PairingGame) -> str | None:
    """Why ``game``'s positions do not fit the solver's bytes (more classes than a byte numbers, or
    possibly more rows showing one class than a byte counts), or None: the games' configs stay far
    inside, but a designer's deck need not."""
    if len(game.accepts) > BYTE_MOST + 1:
        return f"its cards fall into {len(game.accepts) - 1} value classes, at most {BYTE_MOST} are supported"
    per_class = Counter(game.card_class)
    most = max(min(game.num_rows, n) for n in per_class.values())
    if most > BYTE_MOST:
        return f"up to {most} of its rows can show one value class, at most {BYTE_MOST} are supported"
    return None


@contextmanager
def _recursion_for(cards: int) -> Iterator[None]:
    """Python's recursion limit raised, for the time of a solve, to what a deal of ``cards`` cards may
    need: the sub-games' and intervals' searches recurse a level a move, two moves a card (a designer's
    deck of sixteen copies overflowed the default 1,000). From Python 3.11 such pure-Python recursion no
    longer grows the C stack, so the larger limit is safe."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, 4 * cards + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


class Solver:
    """Solves positions of one game; build once per game, call :meth:`solve` per position."""

    def __init__(self, game: PairingGame, budget: int | None = None, sat_effort: float | None = None,
                 refute_effort: int | None = None):
        """``budget``: nodes per position; None for the default (``DEFAULT_BUDGET``, or
        ``SEARCH_ONLY_BUDGET`` for games with wild cards, which have no interval stage).
        ``sat_effort``: the CP-SAT stage's deterministic seconds per search (``cpsat.SEARCHES``) and
        position; 0 for none, None for ``SAT_EFFORT``. ``refute_effort``: the most work each refutation
        stage of :meth:`solve` may do, below its own effort: the pairs a block relation stores (a
        projection's, the whole deal's: ``blocks.py``), the positions the wild-row bound's queries and
        stages take (``wildrows.py``); 0 for none of those stages, None for their own efforts alone.
        With the other two it bounds a position's work: neither of them limits these stages."""
        problem = _beyond_packing(game)
        if problem:
            raise CardgamesError(f"the solver cannot take {game.id}: {problem}")
        self.game = game
        self.sat_effort = SAT_EFFORT if sat_effort is None else sat_effort
        self.refute_effort = refute_effort
        self.budget = budget if budget is not None else SEARCH_ONLY_BUDGET if game.has_wilds else DEFAULT_BUDGET
        card_class = game.card_class
        partner = game.partner
        classes = sorted(set(card_class) | set(partner[1:]) - {WILD})
        # a pair group is named by its smaller class; the wild class is its own group
        self.group = [0] + [c if partner[c] == WILD else min(c, partner[c]) for c in range(1, len(partner))]
        self.groups = sorted({self.group[c] for c in classes if c != WILD})
        # each pair group's (lower, upper) class; one class twice for a class that pairs with itself
        self.classes_of = {g: (g, max(c for c in classes if c != WILD and self.group[c] == g)) for g in self.groups}
        heights = list(range(1, game.row_cap)) if game.row_cap is not None else [0]
        # every (top class, height) row kind that is still open, numbered
        self.keys = [(c, h) for c in range(len(game.accepts)) for h in heights]
        self.key_index = {k: i for i, k in enumerate(self.keys)}
        self.keys_of_group = {g: [k for k in self.keys if k[0] != WILD and self.group[k[0]] == g] for g in self.groups}
        self.key_ids_of_group = {g: [self.key_index[k] for k in ks] for g, ks in self.keys_of_group.items()}
        self.wild_key_ids = frozenset(self.key_index[k] for k in self.keys if k[0] == WILD)
        self.nodes = 0

    # -- public ------------------------------------------------------------------------
    def solve(self, state: PairingState) -> Solution:
        """Decide ``state`` (any position, not only a fresh deal) and find a winning line: for games with
        wild cards and a waste cap but no row cap, first the block relation (``blocks.py``) within
        ``EARLY_EFFORT`` stored pairs, which refutes most of their lost deals in milliseconds; then the staged
        solver within the node budget, then, if it left the position undecided, the wild-row bound
        (:meth:`wild_rows_short`, games with wild cards and a waste cap but no row cap), then the
        CP-SAT model (``cpsat.py``) within ``sat_effort`` deterministic seconds for each of its searches,
        then the block relation's refutations in turn (:meth:`_refuted`): they refute but give no line, and
        come last because a won deal's relations grow up to their efforts."""
        with _recursion_for(len(self.game.card_class)):
            return self._solve(state)

    def _solve(self, state: PairingState) -> Solution:
        """:meth:`solve`, with the recursion limit raised for its deal."""
        start = time.perf_counter()
        early = 0
        if self.game.wild_blocks and self.refute_effort != 0:  # numba, which the block relation loads, is loaded anyway
            from .blocks import blocks_lost  # (for the wild-row bound)

            lost, early = blocks_lost(state, self._refute_effort(EARLY_EFFORT))
            if lost:
                return Solution(False, early, time.perf_counter() - start)
        staged = self._staged(state)
        solution = Solution(staged.winnable, early + staged.nodes, time.perf_counter() - start, staged.line)
        if solution.winnable is None and self.game.wild_blocks and self.refute_effort != 0:
            lost, nodes = self.wild_rows_short(state)
            solution = Solution(False if lost else None, solution.nodes + nodes, time.perf_counter() - start)
        if solution.winnable is None and self.sat_effort:
            found = sat_verdict(self.game, state, self.sat_effort)
            solution = Solution(found.winnable, solution.nodes + found.branches, time.perf_counter() - start,
                                found.line)
        if solution.winnable is None and self.refute_effort != 0:
            solution = self._refuted(state, solution, start)
        return solution

    def _refuted(self, state: PairingState, solution: Solution, start: float) -> Solution:
        """``solution`` (undecided) after the block relation's refutations that apply to the game
        (``efforts.refutations``) in turn, until one proves the deal lost: projections onto a few pairs, and the
        whole deal's relation."""
        stages = refutations(self.game)
        if not stages:
            return solution
        from .blocks import blocks_lost, projections_lost  # numba loads slowly

        for size, effort, most in stages:
            if size is WHOLE_DEAL:
                lost, stored = blocks_lost(state, self._refute_effort(effort))
            else:
                lost, stored = projections_lost(state, size, self._refute_effort(effort),
                                                most if most is None else self._refute_effort(most))
            solution = Solution(False if lost else None, solution.nodes + stored, time.perf_counter() - start)
            if lost:
                break
        return solution

    def _refute_effort(self, own: int) -> int:
        """A refutation's effort: its stage's ``own``, or ``refute_effort`` if that is less."""
        return own if self.refute_effort is None else min(own, self.refute_effort)

    def wild_rows_short(self, state: PairingState) -> tuple[bool, int]:
        """(lost?, nodes): do the pairs' least plays onto wild-topped rows, summed over some
        partition into groups, exceed the wild-topped rows and wild cards left, in all or by some
        stock index (``wildrows.py``)? Games with wild cards and a waste cap, without a row cap
        (Strict Wizard's Tower)."""
        from .wildrows import STAGE_NODES, partition_short

        projections, pool = self.projections(state)
        return partition_short(projections, self.groups, pool, self._refute_effort(STAGE_NODES)), projections.nodes

    def projections(self, state: PairingState) -> tuple["Projections", int]:
        """The projections onto groups of pairs at ``state`` (``wildrows.py``) and the pool: the
        wild-topped rows now and the wild cards still to place."""
        from .wildrows import QUERY_NODES, Projections

        card_class = self.game.card_class
        projections = Projections(state.tops, [card_class[c] for c in state.waste],
                                  [card_class[c] for c in state.stock[state.next:]], self.group, self.game.accepts,
                                  WILD, self.game.waste_cap, self._refute_effort(QUERY_NODES))
        return projections, self._root(state)[2]

    def _staged(self, state: PairingState) -> Solution:
        """Decide ``state`` with the staged solver (everything but CP-SAT) within the node budget."""
        start = time.perf_counter()
        self.nodes = 0
        if self.over_capacity(state):
            return Solution(False, 0, time.perf_counter() - start)
        if not self.game.simple:
            line = self.greedy_line(state)
            if line is not None:
                return Solution(True, 0, time.perf_counter() - start, line)
        game, budget = self.game, self.budget
        staged = game.simple and budget > SEARCH_SHARE
        relaxable = not game.has_wilds and game.row_cap is not None and budget > SEARCH_SHARE
        intervals = IntervalSolver(game, state, budget, relax_cap=relaxable) if staged or relaxable else None
        if intervals is not None and intervals.span > INTERVAL_SPAN_LIMIT:
            intervals = None  # too many counters (Uta Pagoda's 50 pairs): the search gets the whole budget
        memo = self.search_memo(state)
        if game.has_wilds and game.row_cap is not None:
            try:
                needs = self.wild_needs(state, memo.subgames)
                verdict, line = self.wild_row_sets(state, memo.subgames, needs)
            except OutOfBudget:
                return Solution(None, self.nodes, time.perf_counter() - start)
            if verdict is not None:
                return Solution(verdict, self.nodes, time.perf_counter() - start, line)
            line = self.hasty_line(state, memo, frozenset(g for g, need in needs[0].items() if need == 0))
            if line is not None:
                return Solution(True, self.nodes, time.perf_counter() - start, line)
            # with a waste cap the three-pair sub-games stay small; without one most of their queries give
            # up, and on Castle they cost the search more deals than they refuted (seeds 1..1000: 614 against 574)
            if game.waste_cap is not None and self.triples_short(state, memo.subgames, needs):
                return Solution(False, self.nodes, time.perf_counter() - start)
        if ((intervals is None or intervals.span > BEAM_SPAN_LIMIT) and (game.row_cap is None or not game.has_wilds)
                and budget > SEARCH_SHARE and not (game.has_wilds and game.waste_cap is not None)):
            # the interval stage, if any, gets what the search and the beams leave
            line, verdict = self._search_and_beam(state, memo, resume=intervals is None)
        else:
            line, verdict = self._search_within(state, SEARCH_SHARE if intervals is not None else None, memo)
        if verdict is None and intervals is not None:
            intervals.budget = budget - self.nodes
            try:
                if relaxable:
                    # the uncapped game allows every move of this one: lost there means lost here;
                    # won there, its line may well keep the cap (then it is a real win)
                    if not intervals.winnable():
                        verdict = False
                    else:
                        line = intervals.capped_line()
                        verdict = True if line is not None else None
                else:
                    line = intervals.solve()
                    verdict = line is not None
            except OutOfBudget:
                pass
            self.nodes += intervals.nodes
            if verdict is None and relaxable and self.nodes < budget:
                line, verdict = self._search_within(state, None, memo)
        return Solution(verdict, self.nodes, time.perf_counter() - start, line or [])

    def _search_and_beam(self, state: PairingState, memo: _SearchMemo,
                         resume: bool = True) -> tuple[list[Any] | None, bool | None]:
        """(line, verdict) where the search would decide alone (no row cap, no interval stage: Wizard's
        Tower, Uta Pagoda and Strict Uta Pagoda; not with wild cards and a waste cap, where the beams die
        early and only took the search's nodes: Strict Wizard's Tower), or before a large interval stage
        (``resume`` False: then the search does not resume, the interval stage gets the rest; with a row
        cap only without wild cards, where the refined sub-games' lines name the very rows): the search
        within ``BEAM_SEARCH_FIRST`` of the budget, at most ``BEAM_SEARCH_MOST`` nodes (it settles the easy
        deals, most lost ones included), then beam searches (``beam.py``) of doubling widths from
        ``BEAM_WIDTH`` within ``BEAM_SHARE`` of the budget, then the search again (its failed positions
        kept) with the rest. A beam's line is a win. Without wild cards, when a beam finds none, the
        sub-games of the pairs of the cards it left on the waste, grown from their lines (``refine.py``),
        decide many deals either way."""
        budget = self.budget
        line, verdict = self._search_within(state, min(int(budget * BEAM_SEARCH_FIRST), BEAM_SEARCH_MOST), memo)
        if verdict is not None:
            return line, verdict
        stop = min(budget, self.nodes + int(budget * BEAM_SHARE))
        width = BEAM_WIDTH
        tried: set[frozenset[int]] = set()
        try:
            while True:
                found = beam_line(self, state, width, stop)
                if found.line is not None:
                    return found.line, True
                pairs = frozenset(self.group[c] for c in found.stuck if c != WILD)
                if not self.game.has_wilds and pairs not in tried:
                    tried.add(pairs)
                    verdict, line = refine(self, state, pairs, stop)
                    if verdict is not None:
                        return line, verdict
                if not found.pruned:
                    break  # it kept every position: a wider beam would find nothing more
                width *= 2
        except BeamOutOfNodes:
            pass
        if self.nodes >= budget or not resume:
            return None, None
        return self._search_within(state, None, memo)

    def rows_by_kind(self, state: PairingState) -> list[list[int]]:
        """The open rows of each row kind (``self.keys``: top class, and height under a row cap) at
        ``state``, ascending; full rows are left out. Rows of one kind are interchangeable."""
        card_class, cap = self.game.card_class, self.game.row_cap
        rows_of: list[list[int]] = [[] for _ in self.keys]
        for r, row in enumerate(state.rows):
            height = len(row) if cap is not None else 0
            if cap is None or height < cap:
                rows_of[self.key_index[(card_class[row[-1]], height)]].append(r)
        return rows_of

    def decide(self, game: PairingGame, state: PairingState, budget: int) -> Solution:
        """``state`` (a position of ``game``, often a sub-game or a relaxation of this solver's) decided
        by a fresh solver within ``budget`` nodes, which count in this solver's ``nodes``."""
        solution = Solver(game, budget, sat_effort=0, refute_effort=self.refute_effort).solve(state)
        self.nodes += solution.nodes
        return solution

    def search_memo(self, state: PairingState) -> _SearchMemo:
        """A fresh memo for searching ``state``."""
        card_class = self.game.card_class
        subgames = Subgames(self, [card_class[c] for c in state.stock[state.next:]], SUBGAME_EFFORT)
        # there each pair's sub-game holds every wild card for itself and is nearly always won, only
        # slowly: its queries gave up after their effort, spending the budget before the search began
        # (Wizard's Tower on 1-4 rows), which ``wild_cards_short`` then decides
        subgames.enabled = not self.rows_short_of_pairs(state)
        return _SearchMemo(set(), subgames)

    def rows_short_of_pairs(self, state: PairingState) -> bool:
        """Wild cards, no row cap and fewer rows than pairs: rows must change pairs (under wild
        cards) for every pair to be served, which ``wild_cards_short`` counts; on other layouts
        its count hardly ever bites (it cost 15 % more time a node on Strict Wizard's Tower and
        pruned nothing measured), so it is checked only here, and the sub-games only elsewhere."""
        return self.game.has_wilds and self.game.row_cap is None and len(state.rows) < len(self.groups)

    def _search_within(self, state: PairingState, share: int | None,
                       memo: _SearchMemo) -> tuple[list[Any] | None, bool | None]:
        """(line, verdict) of the search given ``share`` nodes beyond its start-up checks (None: the
        rest of the budget); verdict None when they ran out."""
        budget = self.budget
        try:
            line = self._search(state, share, memo)
            return line, line is not None
        except OutOfBudget:
            return None, None
        finally:
            self.budget = budget

    def greedy_line(self, state: PairingState) -> list[Any] | None:
        """The ``greedy`` agent's line from ``state`` if it wins, else None.

        With wild cards or a row cap the search finds wins slowly, and greedy play wins many of
        the winnable deals (it never looks at the stock, and uses no randomness): one playout
        settles those deals before any search.
        """
        line, left = self.greedy_playout(state)
        return line if not left else None

    def greedy_playout(self, state: PairingState) -> tuple[list[Any], int]:
        """The ``greedy`` agent's line from ``state`` and the cards it leaves (0: a win)."""
        from .agents import GreedyAgent

        agent = GreedyAgent(self.game)
        position = state.clone()
        line = []
        while position.current_player is not None:
            action = agent.choose(position, position.legal_actions(), None)
            position.apply(action)
            line.append(action)
        return line, position.cards_left()

    def over_capacity(self, state: PairingState) -> bool:
        """Is some pair's card count beyond the room its rows can ever offer (row cap only)?

        Every card still to play takes one place on a row topped, at that moment, by its pair or
        by a wild card. Rows never leave their pair except through a wild card: a row may serve
        a pair only if it is in that pair now, is wild-topped now, or is one of the rows the wild
        cards still to place will land on (at most one row each, so the roomiest others).

        The same holds per class: a row's top alternates between its pair's two classes, so until
        a wild card lands on it each free place on it can only ever take a card of one class (the
        partner of the top card's class, then the top's own, and so on); a wild-topped row's
        places may take any class. A row a wild card lands on gives a class at most all its free
        places but one (the wild card's); at most one row per wild card still to place. So a
        class with more cards to play than its places, plus the largest such gains of as many
        rows as there are wild cards to place, is lost. (Without wild cards a play fills a place
        of its own class, so the slack never changes: a check at the start of a solve suffices.)
        """
        game = self.game
        cap = game.row_cap
        if cap is None:
            return False
        card_class, group = game.card_class, self.group
        if self._short_of_places(state):
            return True
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

    def _root(self, state: PairingState) -> tuple[list[int], bytes, int]:
        """(open rows by kind, the waste's classes, the pool: wild-topped rows now plus wild cards
        still to place) at ``state``, as sub-game queries from the search's memo take them (row cap)."""
        card_class = self.game.card_class
        counts = [len(rows) for rows in self.rows_by_kind(state)]
        waste = bytes(card_class[c] for c in state.waste)
        pool = (sum(n for n, key in zip(counts, self.keys, strict=True) if key[0] == WILD)
                + sum(card_class[c] == WILD for c in [*state.stock[state.next:], *state.waste]))
        return counts, waste, pool

    def wild_needs(self, state: PairingState, subgames: Subgames) -> tuple[dict[int, int], int]:
        """({pair group: its least need of wild-topped rows}, the pool) at ``state`` (row cap and wild
        cards only; see ``Subgames.wild_cost``)."""
        counts, waste, pool = self._root(state)
        # the memo's stock is the position's from its next card on, so its index starts at 0
        return {g: subgames.wild_cost((g,), 0, waste, counts) for g in self.groups}, pool

    def triples_short(self, state: PairingState, subgames: Subgames, needs: tuple[dict[int, int], int]) -> bool:
        """Is some pair needing wild-topped rows, with some two other pairs, unable to win their
        three-pair sub-game within what the other pairs' own needs leave of the pool? Then
        ``state`` is lost: the bound :meth:`wild_rows_suffice` applies to two pairs, for three.
        Within ``TRIPLE_SHARE`` of the budget, each query giving up (proving nothing) after
        ``TRIPLE_EFFORT`` positions; on Castle's hard deals one pair needs the whole pool and
        three pairs' cards block each other on the waste where no two do."""
        own, pool = needs
        total = sum(own.values())
        if total > pool:
            return False  # the search finds it at once
        counts, waste, _ = self._root(state)
        budget, given_up = self.budget, set(subgames.costly_costs)
        self.budget = min(budget, self.nodes + int(budget * TRIPLE_SHARE))
        subgames.effort = TRIPLE_EFFORT
        try:
            for p in (g for g in self.groups if own[g]):
                for q, r in combinations([g for g in self.groups if g != p], 2):
                    gs = tuple(sorted((p, q, r)))
                    if not subgames.fits(gs, 0, waste, counts, pool - total + own[p] + own[q] + own[r]):
                        return True
            return False
        except OutOfBudget:
            return False
        finally:
            self.budget = budget
            subgames.effort = SUBGAME_EFFORT
            subgames.costly_costs = given_up

    def wild_row_sets(self, state: PairingState, subgames: Subgames,
                      needs: tuple[dict[int, int], int]) -> tuple[bool | None, list[Any]]:
        """(verdict, line) from the pairs' least needs of wild-topped rows (``needs``, from :meth:`wild_needs`)
        and ``weave.py``: False when, for every largest set B of pairs that may play onto wild-topped rows
        (``weave.wild_row_sets``), the game of the other pairs without wild cards is lost; True with a line
        when a won one's line, the other cards woven in (``weave.weave``), wins; else None.

        Each of those games is decided by this solver's own stages for games without wild cards. When the
        needs take the whole pool there is one B (the pairs needing some), whose game gets the rest of the
        budget, as it has since the sixth pass (out of it: :class:`OutOfBudget`). Otherwise the sets B get
        ``WILD_SETS_SHARE`` of the budget in all, and two pairs needing none whose two-pair sub-game is lost
        with no wild-topped row (``Subgames.fits`` with bound 0, giving up after ``HASTY_EFFORT`` positions)
        rule out every B holding neither (one of them must play onto a wild-topped row). When the needs take
        the whole pool and that one game is won without a woven line, :meth:`_slots_given` has the last word."""
        own, pool = needs
        sets = list(wild_row_sets(own, pool))
        if not sets:
            return None, []  # the needs alone exceed the pool: the search finds it at once
        whole = sum(own.values()) == pool
        budget, given_up = self.budget, set(subgames.costly_costs)
        if not whole:
            self.budget = min(budget, self.nodes + int(budget * WILD_SETS_SHARE))
        lost_pairs: list[frozenset[int]] = []
        refuted = True
        try:
            if not whole:
                counts, waste, _ = self._root(state)
                subgames.effort = HASTY_EFFORT
                lost_pairs = [frozenset(gs) for gs in combinations([g for g in self.groups if not own[g]], 2)
                              if not subgames.fits(gs, 0, waste, counts, 0)]
            sets = [chosen for chosen in sets if all(pairs & set(chosen) for pairs in lost_pairs)]
            rests = [projection(state, outside(self, chosen)) for chosen in sets]
            tame = without_wild_cards(self.game)
            # first the games a greedy playout wins (most won ones: one playout each, no search)
            playouts = [Solver(tame).greedy_playout(rest) for rest in rests]
            for chosen, (sub_line, left) in zip(sets, playouts, strict=True):
                if not left:
                    refuted = False
                    line = weave(self, state, chosen, sub_line, self._weave_effort())
                    if line is not None:
                        return True, line
            # then the others, those the playout came closest to winning first (likelier won: their lines are
            # what a weave needs; the losses are what a refutation needs, and it needs them all)
            order = sorted(range(len(sets)), key=lambda i: playouts[i][1])
            for chosen, rest in ((sets[i], rests[i]) for i in order if playouts[i][1]):
                verdict = self.decide(tame, rest, self.budget - self.nodes)
                if verdict.winnable is False:
                    continue
                refuted = False
                if verdict.winnable is None:
                    if whole:
                        raise OutOfBudget
                    break
                line = weave(self, state, chosen, verdict.line, self._weave_effort())
                if line is not None:
                    return True, line
            if whole and not refuted:
                return self._slots_given(state, own)
        except OutOfBudget:
            if whole:
                raise
            refuted = False
        finally:
            self.budget = budget
            subgames.effort = SUBGAME_EFFORT
            subgames.costly_costs = given_up
        return (False if refuted else None), []

    def _slots_given(self, state: PairingState, own: dict[int, int]) -> tuple[bool | None, list[Any]]:
        """When the pairs' least needs (``own``) take the whole pool, each wild slot (``tame.wild_slots``) takes
        one card of a pair needing some: for each way to give the slots to those pairs (pair ``g`` gets
        ``own[g]`` of them) and to choose each one's first card's class, the games of ``tame.slots_given``
        (without wild cards; each wild card still to play given its new row as it lies or opened, every
        subset in turn). False when for every way one of those games is lost (``slots_given`` says why that
        is a loss); True with a line when a won one's line, cut to the pairs needing none
        (``weave.rest_line``: it leaves the others room on the waste), weaves (``weave.weave``); else None.
        Within ``SLOTS_SHARE`` of the budget (past it: None)."""
        needing = [g for g in self.groups if own[g]]
        firsts = [c for g in needing for c in sorted(set(self.classes_of[g]))]
        rows, cards = wild_slots(state)
        openings = [frozenset(s) for k in range(cards + 1) for s in combinations(range(rows, rows + cards), k)]
        chosen = tuple(needing)
        budget = self.budget
        self.budget = min(budget, self.nodes + int(budget * SLOTS_SHARE))
        try:
            for choice in product(firsts, repeat=rows + cards):
                if any(sum(self.group[c] == g for c in choice) != own[g] for g in needing):
                    continue
                for opened in openings:
                    given = slots_given(state, list(choice), opened)
                    winnable, given_line = self._beam_first(given)
                    if winnable is False:
                        break  # this choice is refuted
                    if winnable is None:
                        return None, []
                    line = weave(self, state, chosen, rest_line(self, state, opened, chosen, given_line),
                                 self._weave_effort())
                    if line is not None:
                        return True, line
                else:
                    return None, []  # every opening of this choice won: no refutation
        finally:
            self.budget = budget
        return False, []

    def _beam_first(self, state: PairingState) -> tuple[bool | None, list[Any]]:
        """(verdict, line) on ``state`` (a game without wild cards) within the budget left, its nodes counted
        here: first a beam search of width ``BEAM_WIDTH`` and the sub-game of the pairs it left stuck, grown
        from its lines (``refine.py``), then, if they did not settle it, the solver's own stages. (On the
        games of ``tame.slots_given`` the sub-games settle in some 10,000 nodes what the uncapped relaxation
        settles in 100,000-200,000: Castle seed 574.)"""
        sub = Solver(state.game, self.budget - self.nodes)
        try:
            found = beam_line(sub, state, BEAM_WIDTH, sub.budget)
            if found.line is not None:
                self.nodes += sub.nodes
                return True, found.line
            verdict, line = refine(sub, state, frozenset(self.group[c] for c in found.stuck), sub.budget)
        except BeamOutOfNodes:
            verdict, line = None, []
        self.nodes += sub.nodes
        if verdict is not None:
            return verdict, line
        solution = self.decide(state.game, state, max(0, self.budget - self.nodes))
        return solution.winnable, solution.line

    def _weave_effort(self) -> int:
        """The nodes one weave may take: ``WEAVE_EFFORT``, within the budget."""
        return max(0, min(WEAVE_EFFORT, self.budget - self.nodes))

    def hasty_line(self, state: PairingState, memo: _SearchMemo, hasty: frozenset[int]) -> list[Any] | None:
        """A winning line found by the search with the ``hasty`` pairs' cards played at once onto
        their own rows (see :meth:`_search`) within ``HASTY_SHARE`` of the budget, its sub-game
        queries giving up after ``HASTY_EFFORT`` positions; None if it found none (which proves
        nothing). Under a row cap with wild cards, the pairs needing no wild-topped row are
        mostly easy, and their many orders are what the full search drowns in; a line is a line."""
        budget, subgames = self.budget, memo.subgames
        given_up = set(subgames.costly), set(subgames.costly_costs)
        self.budget = min(budget, self.nodes + int(budget * HASTY_SHARE))
        subgames.effort, subgames.pairwise = HASTY_EFFORT, False
        try:
            return self._search(state, None, _SearchMemo(set(), subgames), hasty)
        except OutOfBudget:
            return None
        finally:
            self.budget = budget
            subgames.effort, subgames.pairwise = SUBGAME_EFFORT, True
            # a query that gave up under the smaller effort may not under the full one
            subgames.costly, subgames.costly_costs = given_up

    def wild_cards_short(self, waste: list[int], counts: list[int], class_left: list[int]) -> bool:
        """Are the wild cards left too few to change rows' pairs as often as the waste needs? (Asked
        where :meth:`rows_short_of_pairs`.)

        A row's top changes pair only when a wild card goes onto it (a card of its pair keeps the
        pair; a card onto a wild-topped row gives the row that card's pair). So, seen as a cache
        whose slots are the open rows and whose contents are their tops' pairs, a winning play
        serves each card from a slot holding its pair, or *loads* the pair into a wild-topped
        slot: one there now, or one a wild card still to place makes. The waste's cards leave it
        top first, so they are requests in that order; the stock's cards, interleaved, only add
        requests and loads. Belady's rule (on a miss, drop the pair whose next request is
        furthest) gives the least number of loads for the waste's requests; a pair with cards
        only in the stock and on no row needs one more each. The loads beyond the wild-topped
        rows must each take a wild card still to place (in the waste or the stock).

        Values are ignored (a row of the pair may have the wrong one on top: the stock's cards
        can turn it), so this is a relaxation: True proves the position lost."""
        group, wild_keys = self.group, self.wild_key_ids
        rows = sum(counts)
        wild_rows = sum(counts[k] for k in wild_keys)
        on_rows = {group[self.keys[k][0]] for k in range(len(counts)) if counts[k] and k not in wild_keys}
        requests = [group[c] for c in reversed(waste) if c != WILD]
        never = len(requests)
        following = [never] * len(requests)  # the index of the next request of the same pair
        first: dict[int, int] = {}
        for i in range(len(requests) - 1, -1, -1):
            following[i] = first.get(requests[i], never)
            first[requests[i]] = i
        cached = {g: first.get(g, never) for g in on_rows}  # each cached pair's next request
        loads = 0
        for i, g in enumerate(requests):
            if g not in cached:
                loads += 1
                if len(cached) >= rows:
                    del cached[max(cached, key=cached.__getitem__)]
            cached[g] = following[i]
        for g in self.groups:
            lo, hi = self.classes_of[g]
            if g not in first and g not in on_rows and (class_left[lo] or class_left[hi]):
                loads += 1
        return loads - wild_rows > class_left[WILD] + waste.count(WILD)

    def wild_rows_suffice(self, subgames: Subgames, idx: int, waste: bytes, counts: list[int], pool: int,
                          moved: tuple[int, ...] | None = None) -> bool:
        """Do the pairs' least needs of wild-topped rows (``Subgames.wild_cost``) add up to at most
        ``pool``, the wild-topped rows now plus the wild cards still to place? If not, the position
        (``idx`` stock cards turned, the waste's classes, open rows by kind) is lost. The needs of
        two pairs together may exceed the sum of their own: for each pair of ``moved`` (default:
        every pair) and each other, their joint need stands in for their two own ones."""
        own = {}
        for g in self.groups:
            own[g] = subgames.wild_cost((g,), idx, waste, counts)
        total = sum(own.values())
        if total > pool:
            return False
        for g in self.groups if moved is None else moved:
            for h in self.groups:
                if h != g and not subgames.fits((min(g, h), max(g, h)), idx, waste, counts,
                                                pool - total + own[g] + own[h]):
                    return False
        return True

    def _short_of_places(self, state: PairingState) -> bool:
        """The per-class half of :meth:`over_capacity` (row cap only)."""
        card_class = self.game.card_class
        need = [0] * len(self.game.accepts)
        for c in list(state.stock[state.next:]) + state.waste:
            need[card_class[c]] += 1
        return self.short_of_places([(card_class[row[-1]], len(row)) for row in state.rows], need)

    def short_of_places(self, rows: list[tuple[int, int]], need: list[int]) -> bool:
        """Is some class short of places (see :meth:`over_capacity`) on rows of these (top class,
        height), with ``need[c]`` cards of class ``c`` still to play?"""
        game = self.game
        cap, accepts = game.row_cap, game.accepts
        wilds = need[WILD]
        frees = [cap - height for _, height in rows]
        places = [[0] * len(rows) for _ in accepts]  # places[c][r]: row r's places for class c
        for r, (top, _) in enumerate(rows):
            free = frees[r]
            if top == WILD:
                for c in range(1, len(accepts)):
                    places[c][r] = free
                continue
            partner = game.partner[top]
            if partner != WILD:
                places[partner][r] += (free + 1) // 2
                places[top][r] += free // 2
        for c in range(1, len(accepts)):
            if not need[c]:
                continue
            if wilds:
                gains = sorted((max(0, free - 1 - own) for free, own in zip(frees, places[c], strict=True)),
                               reverse=True)
                if need[c] > sum(places[c]) + sum(gains[:wilds]):
                    return True
            elif need[c] > sum(places[c]):
                return True
        return False

    # -- the search ----------------------------------------------------------------------
    def _search(self, state: PairingState, share: int | None, memo: _SearchMemo,
                hasty: frozenset[int] = frozenset()) -> list[Any] | None:
        """Depth-first search, plays before turns, with do/undo on one mutable position; ``share``
        bounds its nodes beyond the start-up checks (None: the budget does). ``hasty``: pair groups
        whose card on the waste's top, when a row of its own pair takes it, goes onto the roomiest
        such row at once (no other move tried): a search for a line, not a proof, so its failed
        positions must go into a memo of their own."""
        game = self.game
        card_class, accepts, cap, waste_cap = game.card_class, game.accepts, game.row_cap, game.waste_cap
        keys, key_index, group = self.keys, self.key_index, self.group
        failed, subgames = memo.failed, memo.subgames
        seq_cls = subgames.seq
        n_seq = len(seq_cls)
        rows_of = self.rows_by_kind(state)  # the real rows of each kind (so the line names rows)
        counts = [len(rs) for rs in rows_of]
        waste = [card_class[c] for c in state.waste]
        classes_of = self.classes_of
        group_keys = self.key_ids_of_group
        idx = 0

        def quiet(h: int, in_waste: list[int]) -> bool:
            """Can pair ``h``'s cards never block anything? Then a sub-game of ``h`` and another pair
            is won exactly when the other's own is (play each card of ``h`` as it is turned)."""
            lo, hi = classes_of[h]
            x, y = class_left[lo] + in_waste[lo], class_left[hi] + in_waste[hi]
            if lo == hi:  # a class that pairs with itself, or with no class at all
                return not y or (simple and lo in accepts[lo] and counts[key_index[(lo, 0)]] > 0)
            if not x + y:
                return True
            return simple and counts[key_index[(hi, 0)]] >= x and counts[key_index[(lo, 0)]] >= y

        def subgame_ok(g: int) -> bool:
            """Are pair ``g``'s sub-game and its sub-games with each other (not quiet) pair winnable?"""
            here = bytes(waste)
            if not subgames.check((g,), idx, here, counts):
                return False
            in_waste = [0] * len(accepts)
            for c in waste:
                in_waste[c] += 1
            return all(subgames.check((g, h) if g < h else (h, g), idx, here, counts)
                       for h in self.groups if h != g and not quiet(h, in_waste))

        # the wild-row count bound only under a row cap: without one (Wizard's Tower) the pairs' needs,
        # alone or two by two, stayed below the eight Wizards on every deal measured, at a cost
        wild_keys = [key_index[k] for k in keys if k[0] == WILD] if game.has_wilds and cap is not None else []

        def wild_pool_ok(moved: tuple[int, ...] | None) -> bool:
            """Do the pairs' wild costs fit in the wild-topped rows and wild cards left (always yes
            without wild cards or row cap)? ``moved``: the pairs whose joint needs with another may
            have changed (None: all). See ``Subgames._cost``."""
            if not wild_keys:
                return True
            pool = sum(counts[k] for k in wild_keys) + class_left[WILD] + waste.count(WILD)
            return self.wild_rows_suffice(subgames, idx, bytes(waste), counts, pool, moved)

        def short_of_places() -> bool:
            """The per-class room check on this position (after a wild card moved: without one the
            slack cannot change)."""
            need = list(class_left)
            for c in waste:
                need[c] += 1
            rows = [keys[k] for k in range(len(keys)) for _ in range(counts[k])]
            return self.short_of_places(rows, need)

        class_left = [0] * len(accepts)  # cards of each class not yet turned
        for c in seq_cls:
            class_left[c] += 1
        simple = game.simple

        uncapped_wilds = game.has_wilds and cap is None
        wild_key = key_index[(WILD, 0)] if uncapped_wilds else None

        def spare(move: tuple) -> tuple[float, int]:
            """How well the pair of a row kind can spare one row: its rows per card still to come
            (search order only: the first line tried is then likelier to win)."""
            k = move[1]
            g = group[keys[k][0]]
            if g == WILD:
                return (-1.0, k)
            lo, hi = classes_of[g]
            rows = sum(counts[j] for j in group_keys[g])
            return (rows / (1 + class_left[lo] + (class_left[hi] if hi != lo else 0) + waste.count(lo)
                            + (waste.count(hi) if hi != lo else 0)), k)

        def moves() -> list[tuple]:
            """Moves to try, last first: every kind of row the waste's top may go on, then the turn.

            Forced play (no row cap, no wild cards): when the top card can be played and no card
            of its class is left in the stock, playing it now is never worse than burying it
            (whatever is played above it in the meantime only gains from its pair's counter
            having moved), so the turn is not tried.

            Without a row cap a wild-topped row can do all that any other row can (it takes every
            card, and becomes what it takes), so a position with a wild-topped row in place of
            another row is never worse: a wild card is not played onto a wild-topped row when
            another row exists, and another card not onto one when its own pair has a row for it.
            """
            found: list[tuple] = []
            if waste:
                top = waste[-1]
                acc = accepts[top]
                found = [("play", k) for k in range(len(counts) - 1, -1, -1) if counts[k] and keys[k][0] in acc]
                if found and simple and (class_left[top] == 0 or acc == {WILD, top}):
                    return found
                if hasty and group[top] in hasty:
                    own = [move for move in found if keys[move[1]][0] != WILD]
                    if own:
                        return own[-1:]
                if len(found) > 1 and uncapped_wilds and found[-1][1] == wild_key:
                    found.pop()
                if top == WILD and len(found) > 1:
                    found.sort(key=spare)  # tried last first: the row its pair can best spare
            if idx < n_seq and (waste_cap is None or len(waste) < waste_cap):
                found.insert(0, ("turn",))
            return found

        if cap is not None and len(waste) + n_seq > sum(counts[k] * (cap - keys[k][1]) for k in range(len(keys))):
            return None  # not enough room left on the rows (each play uses one place: checked once)
        paging = self.rows_short_of_pairs(state)
        if ((paging and self.wild_cards_short(waste, counts, class_left)) or not wild_pool_ok(None)
                or not all(subgame_ok(g) for g in self.groups)):
            return None
        if share is not None:
            self.budget = min(self.budget, self.nodes + share)
        line: list[Any] = []
        frames = [moves()]  # per depth: the moves still to try there
        done: list[tuple] = []  # the moves made, to undo them

        def undo() -> None:
            nonlocal idx
            move = done.pop()
            line.pop()
            if move[0] == "turn":
                c = waste.pop()
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
                raise OutOfBudget
            if move[0] == "turn":
                c = seq_cls[idx]
                waste.append(c)
                class_left[c] -= 1
                moved = (c,)
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
                moved = (c, keys[k][0])
            key = (idx, bytes(waste), bytes(counts))
            dead = key in failed
            if not dead:
                # a wild card moved, or a row left the wild ones: every pair's sub-games changed
                checks = self.groups if WILD in moved else (group[c],)
                if ((paging and self.wild_cards_short(waste, counts, class_left)) or not wild_pool_ok(checks)
                        or (cap is not None and WILD in moved and short_of_places())
                        or not all(subgame_ok(g) for g in checks)):
                    failed.add(key)
                    dead = True
            if dead:
                undo()
            else:
                frames.append(moves())


__all__ = ["DEFAULT_BUDGET", "SEARCH_ONLY_BUDGET", "Play", "Solution", "Solver"]
