"""The block relation's efforts, and which of its refutations the solver asks of a game, in turn
(:mod:`.blocks` holds the relation itself).

Plain data and a small function, kept apart from :mod:`.blocks` because that module compiles its loops
with numba, which takes a good part of a second to load: the solver decides whether a game asks any
refutation at all, and the report names them in its budget cell, without loading it.
"""

from __future__ import annotations

from .rules import PairingGame, pair_groups

# Pairs stored at most per position: 8 bytes each, about 14 at the peak with the tables around them (Strict
# Wizard's Tower 62: 190 million pairs, 2.6 GB). Set when every relation of one free place was stored, as the
# smallest round figure above seed 62's need then (275 million); kept, so that every verdict stands.
BLOCK_EFFORT = 300_000_000
# Its effort as the solver's first stage for games with wild cards (Strict Wizard's Tower): 57 of seeds 1..100's 70 lost
# deals are refuted within it, each in under 0.4 s, where the search and the wild-row bound took seconds; a won deal
# pays 0.2-0.6 s for it (issue 3's twenty-sixth pass).
EARLY_EFFORT = 1_000_000
#: In :data:`REFUTATIONS`, the block relation of the whole deal rather than of a projection.
WHOLE_DEAL = None
# The refutations the solver asks after CP-SAT, in turn: the projections onto ``size`` pairs (games with wild cards and
# no row cap), with the pairs stored at most for each and for all of that size together, and the whole deal's relation
# (:data:`WHOLE_DEAL`; games with a waste cap and no row cap). Wizard's Tower's lost projections of three pairs hold
# 0.15-1.7 million pairs; about half of the won ones finish within 3 million, at about three million a second (issue 3's
# thirtieth pass). Seed 5 has none lost onto three pairs or four (its 70 of four, within 60 million pairs each); onto
# five, its first projection, pairs 1-16 to 5-12, is lost at 51.9 million pairs in 19 s (thirty-first pass). Strict
# Wizard's Tower 870 has none lost onto five or six pairs, nor is the whole deal within its effort; onto seven, its
# sixth projection (without pairs 3-14) is lost at 13.4 million pairs in 9 s, and so is 508's at 7.2 million
# (thirty-second pass). The totals bound what a deal no refutation decides pays: 300 million pairs for five pairs and
# 480 million for seven, about two and four minutes. Seven come last, after the whole deal: only deals every other stage
# leaves open pay for them (of Strict Wizard's Tower's seeds 1..1000, 401, 508 and 870).
REFUTATIONS = ((3, 3_000_000, None), (5, 60_000_000, 300_000_000), (WHOLE_DEAL, BLOCK_EFFORT, None),
               (7, 60_000_000, 480_000_000))


def refutations(game: PairingGame) -> list[tuple[int | None, int, int | None]]:
    """The entries of :data:`REFUTATIONS` that apply to ``game``, in turn: what the solver asks after CP-SAT, and
    what the report's budget cell names. A projection only in games with wild cards and no row cap, and none past
    one keeping every pair (it would ask the same again); the whole deal only under a waste cap without a row cap."""
    groups = len(pair_groups(game)) if game.wild_projections else 0
    applying, whole = [], False
    for size, effort, most in REFUTATIONS:
        if size is WHOLE_DEAL and game.nested_blocks:
            applying.append((size, effort, most))
        elif size is not WHOLE_DEAL and game.wild_projections and not whole:
            applying.append((size, effort, most))
            whole = size >= groups
    return applying
