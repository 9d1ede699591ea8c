"""Agents: seeded policies that choose among legal actions.

``random`` works for every game. Every other policy (``greedy``, ``expert``, ``solver``, ...)
belongs to one engine and is listed in its ``agents`` module's ``AGENTS``: a heuristic is as
game-specific as the rules it reasons about, so it lives beside them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..errors import OptionConflictError, UnknownNameError
from ..wording import counted

if TYPE_CHECKING:
    from ..core import Agent, Game, State
    from ..rng import Rng


class RandomAgent:
    """Uniform over the legal actions, from the seat's own stream."""

    name = "random"

    def __init__(self, game: "Game | None" = None):
        pass

    def choose(self, state: "State", actions: Sequence[Any], rng: "Rng") -> Any:
        return actions[rng.below(len(actions))] if len(actions) > 1 else actions[0]


SHARED = {"random": RandomAgent}


def agent_names(game: "Game") -> list[str]:
    """Every agent id available for ``game``."""
    from ..registry import engine_agents

    return sorted({*SHARED, *engine_agents(game.spec.engine)})


def make_agent(name: str, game: "Game") -> "Agent":
    """Build agent ``name`` for ``game``."""
    from ..registry import engine_agents

    factories = {**SHARED, **engine_agents(game.spec.engine)}
    if name not in factories:
        raise UnknownNameError("agent", name, sorted(factories), where=f" for {game.id}")
    return factories[name](game)


def make_agents(names: Sequence[str], game: "Game") -> list["Agent"]:
    """One agent per seat: no names means ``greedy`` (or ``random`` where there is none) for all;
    one name is used for every seat; otherwise one name per seat."""
    if not names:
        from ..registry import engine_agents

        names = ["greedy" if "greedy" in engine_agents(game.spec.engine) else "random"]
    if len(names) == 1:
        names = list(names) * game.num_players
    if len(names) != game.num_players:
        raise OptionConflictError(f"{len(names)} agents given for {counted(game.num_players, 'player')}: "
                                  "give one, or one per seat")
    return [make_agent(n, game) for n in names]
