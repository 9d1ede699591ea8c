"""Where each engine (rules module) lives, and building a Game from a name.

An engine is a package; its ``rules`` module defines:

* ``OPTIONS``: ``dict[str, Field]``, the schema of its games' ``options`` (no defaults: those
  are in the YAML);
* ``GAME``: its :class:`~cardgames.engine.core.Game` subclass;
* ``check_config(spec) -> list[str | (key path, str)]``: the semantic checks for one resolved
  player count and variant set (the deal fits the deck, ...), run by ``validate`` and by
  :func:`load_game`; a key path in the game file, or in the deck file after
  :data:`~.config.DECK_FILE`;
* optionally ``deal_facts(spec) -> dict``: what ``validate --facts`` shows of the deal at that
  count (every rules module has one);
* optionally ``unplayable(spec) -> str | None``: why a setup that passes the checks cannot be played
  (Torqu's Partners at an odd count), which ``validate`` reports when no count can play, or when the
  game's default count cannot play the game or one of its aliases (what ``simulate --game`` plays).

and its ``agents`` module ``AGENTS``: ``dict[str, factory(game) -> Agent]``, its own policies
(``random`` is shared). The agents import the rules' classes and the rules never import the
agents, so either module can be the first one a script imports.

Engines are imported only when a game of theirs is used, which keeps ``cardgames --help`` fast.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .errors import CardgamesError, UnknownNameError

if TYPE_CHECKING:
    from .config import Catalog, GameSpec
    from .core import Game
    from .yamlfile import Document

ENGINES = {
    "pairing": "cardgames.engine.games.pairing.rules",
    "torqu": "cardgames.engine.games.torqu.rules",
    "turup": "cardgames.engine.games.turup.rules",
    "towers": "cardgames.engine.games.towers.rules",
}


#: What a rules module must define (above): a contributor's half-built engine lacking one failed every command
#: that met it, validate too, in a traceback; now each says which engine lacks what.
REQUIRED = ("OPTIONS", "GAME", "check_config")
_CHECKED: set[str] = set()  # the rules modules found whole


def engine_module(name: str) -> ModuleType:
    """The rules module of engine ``name``, checked to define what an engine must, its Game and State classes
    whole (none left abstract)."""
    if name not in ENGINES:
        raise UnknownNameError("engine", name, list(ENGINES))
    module = _imported(name, ENGINES[name])
    if module.__name__ not in _CHECKED:
        missing = [attribute for attribute in REQUIRED if not hasattr(module, attribute)]
        if missing:
            raise CardgamesError(f"engine {name}: {module.__name__} does not define {', '.join(missing)} "
                                 "(docs/architecture.md, 'Adding a game family')")
        from .core import Game, State

        for kind in vars(module).values():
            if (isinstance(kind, type) and issubclass(kind, (Game, State)) and kind.__module__ == module.__name__
                    and getattr(kind, "__abstractmethods__", None)):
                raise CardgamesError(f"engine {name}: {kind.__name__} does not define "
                                     f"{', '.join(sorted(kind.__abstractmethods__))} (docs/architecture.md)")
        _CHECKED.add(module.__name__)
    return module


def _imported(name: str, module: str) -> ModuleType:
    """``module``, imported for engine ``name``; one that cannot be (not written yet, a dependency missing)
    is an error naming both."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise CardgamesError(f"engine {name}: cannot import {module}: {exc}") from None


def engine_agents(name: str) -> dict[str, Callable[[Any], Any]]:
    """The policies of engine ``name``: ``AGENTS`` of the ``agents`` module beside its rules."""
    module = _imported(name, engine_module(name).__name__.rpartition(".")[0] + ".agents")
    if not hasattr(module, "AGENTS"):
        raise CardgamesError(f"engine {name}: {module.__name__} does not define AGENTS (docs/architecture.md)")
    return module.AGENTS


def located(problem: str | tuple[tuple, str]) -> tuple[tuple, str]:
    """A ``check_config`` problem as (key path, message): a bare message is about the options. The path
    is in the game file, or in its deck file where it starts with :data:`~.config.DECK_FILE`
    (:meth:`~.config.Catalog.deck_line` says where it is said)."""
    return problem if isinstance(problem, tuple) else (("options",), problem)


def _made_by_variants(catalog: "Catalog", spec: "GameSpec", module: Any, keypath: tuple, text: str) -> "Document":
    """Where a problem no variant's own key holds is to be mended: the game's file if the game
    alone has it too, else where :meth:`Catalog.made_by_variants` says, told which variants make
    it alone (as ``validate`` checks each). Asked on the error path only: it checks the game
    again, alone and with each variant."""
    def has_it(variants: tuple[str, ...]) -> bool:
        try:
            return any(located(problem)[1] == text
                       for problem in module.check_config(catalog.resolve(spec.id, variants, spec.players)))
        except CardgamesError:  # not even resolved at this count with these alone
            return False

    if not spec.variants or has_it(()):
        return catalog.document("games", spec.id)
    alone = [vid for vid in spec.variants if has_it((vid,))]
    return catalog.made_by_variants(spec, keypath, alone or spec.variants)


def load_game(name: str, variants: Iterable[str] = (), players: int | None = None,
              catalog: "Catalog | None" = None) -> "Game":
    """Resolve ``name`` (a game id or alias) with variants and players into a playable Game.

    The engine's ``check_config`` runs here too, not only in ``validate``: a config it rejects
    (a deal larger than the deck, say) stops with its first problem, at the game file's line,
    instead of failing somewhere inside the rules, at the line that sets the value (a variant's, if
    one does). So does the deck file's check (:func:`.cards.check_deck`, which ``validate`` runs too), which
    stops at the deck's line."""
    from .cards import check_deck
    from .config import Catalog

    catalog = catalog or Catalog()
    spec = catalog.resolve(name, variants, players)
    deck_problems = check_deck(catalog.document("decks", catalog.game(spec.id)["deck"]["type"]))
    if deck_problems:
        raise deck_problems[0]
    module = engine_module(spec.engine)
    unplayable = getattr(module, "unplayable", None)
    if unplayable is None or not unplayable(spec):  # an unplayable one is refused by its Game, in its words
        problems = module.check_config(spec)
        if problems:
            keypath, text = located(problems[0])
            deck, keypath = catalog.deck_line(spec, keypath)
            if deck is not None:  # the deck's own, whatever the variants
                raise deck.error(keypath, f"{text} (`cardgames validate` lists them all)")
            where = catalog.variant_origin(spec, keypath) or _made_by_variants(catalog, spec, module, keypath, text)
            # validate checks each variant alone: a problem of several together is theirs only, each named (the
            # line is one file's, and a designer looked for the other variant's part in vain)
            hint = ("`cardgames validate` lists them all" if len(spec.variants) < 2
                    else f"from the variants {' + '.join(spec.variants)} together; `cardgames validate` checks each "
                         "alone")
            game = catalog.document("games", spec.id)
            designers = catalog.designers_deck(game) if where.path == game.path else None
            raise where.error(keypath, f"{text} ({hint}; its deck is {designers})" if designers else f"{text} ({hint})")
    return module.GAME(spec)
