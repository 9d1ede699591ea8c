"""Helpers for the Towers tests: games with chosen options, states with chosen caches, and an
independent brute-force statement of the placement rule (cell sets, not the engine's tables)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from cardgames.engine.config import Catalog
from cardgames.engine.games.towers.rules import TowersGame, TowersState

POSITIONS = ("LG", "NG", "CG", "LN", "CN", "LE", "NE", "CE")
XY = {"L": -1, "N": 0, "C": 1, "G": 1, "E": -1}


def cell(name: str) -> tuple[int, int]:
    return (0, 0) if name == "N" else (XY[name[0]], XY[name[1]])


def towers_game(players: int = 4, **options) -> TowersGame:
    spec = Catalog().resolve("towers", (), players)
    if options:
        spec = replace(spec, options=MappingProxyType({**spec.options, **options}))
    return TowersGame(spec)


def state_with(game: TowersGame, caches: list[list[str]], stock: list[str] | None = None) -> TowersState:
    """A fresh state whose caches are ``caches`` (names) and whose stock, top first, is ``stock``
    followed by every other non-foundation card in deck order."""
    deck = game.deck
    chosen = [deck.code(n) for cache in caches for n in cache] + [deck.code(n) for n in stock or []]
    rest = [c for c in range(len(deck)) if c not in chosen and not game.is_foundation[c]]
    top_first = chosen + rest
    return TowersState(game, list(reversed(top_first)))


def covered(alignment: str, position: str) -> set[tuple[int, int]]:
    """The nine table cells a card covers when its ``alignment`` symbol lies on ``position``."""
    (ax, ay), (bx, by) = cell(alignment), cell(position)
    cx, cy = bx - ax, by - ay
    return {(cx + dx, cy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}


def brute_legal(alignment: str, position: str, occupied: set[str], adjacency: int = 8) -> bool:
    """The seed's four conditions, stated on cell sets."""
    if position in occupied:
        return False
    cells = covered(alignment, position)
    symbols = {cell(p) for p in occupied}
    if (0, 0) in cells or cells & symbols:
        return False
    if not symbols:
        return True
    bx, by = cell(position)
    near = {(bx + dx, by + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
            and (adjacency == 8 or dx == 0 or dy == 0)}
    return bool(near & symbols)


def brute_closed(occupied: set[str], adjacency: int = 8) -> bool:
    """Closed: no card of any alignment fits anywhere."""
    return not any(brute_legal(a, p, occupied, adjacency) for a in POSITIONS + ("N",) for p in POSITIONS)


def reachable_towers(adjacency: int = 8) -> set[frozenset[str]]:
    """Every occupied set a sequence of (brute-force) legal plays can produce from an empty tower."""
    seen = {frozenset()}
    frontier = [frozenset()]
    while frontier:
        occ = frontier.pop()
        for a in POSITIONS:
            for p in POSITIONS:
                if brute_legal(a, p, set(occ), adjacency):
                    bigger = occ | {p}
                    if bigger not in seen:
                        seen.add(bigger)
                        frontier.append(bigger)
    return seen
