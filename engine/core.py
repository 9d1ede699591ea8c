"""The contract every game follows, and the loop that plays one.

Modelled on OpenSpiel: a :class:`Game` is an immutable resolved config; ``game.new_state(seed)``
shuffles and deals, which is the only chance event; from then on a :class:`State` changes only
through :meth:`State.apply`, so a game is replayed from its seed and its action history alone.

Actions are small immutable :class:`~typing.NamedTuple` values. Their JSON form is
``{"type": <snake_case class name>, <field>: <value>, ...}`` (tuples become lists); every game
lists its action classes in ``Game.ACTIONS`` so that :meth:`Game.action_from_json` can rebuild
them from a log.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Generic, Protocol, Self, Sequence, TypeVar

from .cards import Deck
from .config import GameSpec
from .errors import CardgamesError, IllegalActionError, LogError, OptionConflictError
from .rng import SEEDS, Rng, check_seed, seed_digits
from .wording import as_logged, clip


def action_type(cls: type) -> str:
    """The JSON ``type`` tag of an action class: ``TakeCards`` -> ``take_cards``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


#: The state class a game makes (``Game[TowersState]``) and the game class a state plays (``State[TowersGame]``),
#: so that an engine's methods see each other's own attributes.
StateT = TypeVar("StateT", bound="State[Any]")
GameT = TypeVar("GameT", bound="Game[Any]")


class Game(ABC, Generic[StateT]):
    """An immutable resolved game. Subclasses add rule tables derived from ``spec.options``."""

    ACTIONS: ClassVar[tuple[type, ...]] = ()
    #: The seat that moves first in the game's first deal when the config fixes it, or None when the deal
    #: decides (Towers: who holds the alphabetically first card). Batch statistics measure the first
    #: player's advantage on it.
    first_seat: int | None = 0
    #: RNG modes this game can deal with; ``pysolfc`` only where PySolFC has the game.
    RNG_MODES: ClassVar[tuple[str, ...]] = ("native",)

    def __init__(self, spec: GameSpec):
        self.spec = spec
        self.id = spec.id
        self.num_players = spec.players
        self.options = spec.options
        self.deck = Deck(spec.deck, spec.copies)
        self._action_classes = {action_type(c): c for c in self.ACTIONS}

    # -- dealing -----------------------------------------------------------------------
    def check_seed(self, seed: int | str, rng: str) -> int | str:
        """Validate a seed for an RNG mode; return it in canonical form (int, or game number)."""
        if rng not in self.RNG_MODES:
            raise OptionConflictError(f"--rng {rng} is not available for {self.id} "
                                      f"(available: {', '.join(self.RNG_MODES)})")
        if rng == "pysolfc":
            from . import pysolfc

            return pysolfc.normalize(seed)
        if isinstance(seed, str):
            seed = seed.strip(" \t\n\r\v\f")  # ASCII whitespace, as --seeds reads it: " 7" is 7
            if seed.lower().startswith("ms"):
                raise OptionConflictError(f"seed {clip(seed)}: the ms prefix is for --rng pysolfc")
            digits = seed[1:] if seed.startswith("-") else seed
            if not digits.isascii() or not digits.isdigit():  # int() would also take "1_0" and "٣"
                raise CardgamesError(f"seed must be an integer {SEEDS}, not {clip(seed)}")
            value = seed_digits(digits)
            if value is None:
                raise CardgamesError(f"seed {clip(seed)} is out of range {SEEDS}")
            seed = -value if seed.startswith("-") else value
        try:
            return check_seed(seed)
        except ValueError as exc:
            raise CardgamesError(str(exc)) from None

    def shuffled(self, seed: int | str, rng: str = "native", deal_number: int = 0) -> list[int]:
        """All card codes in shuffled order (deal ``deal_number`` of the game, 0 first).

        Games deal from this list's end, as from the top of a face-down pile.
        """
        codes = list(range(len(self.deck)))
        if rng == "pysolfc":
            from . import pysolfc

            pysolfc.shuffle(codes, seed)
        else:
            Rng(seed, "deal" if deal_number == 0 else f"deal/{deal_number}").shuffle(codes)
        return codes

    @abstractmethod
    def new_state(self, seed: int | str, rng: str = "native") -> StateT:
        """Shuffle and deal. ``seed`` must already be canonical (see :meth:`check_seed`)."""

    # -- actions -----------------------------------------------------------------------
    def action_to_json(self, action: Any) -> dict[str, Any]:
        data = {"type": action_type(type(action))}
        for name, value in zip(action._fields, action, strict=True):
            data[name] = _jsonable(value)
        return data

    def action_from_json(self, data: Any) -> Any:
        """Rebuild an action from its JSON form; raise LogError if it is malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise LogError(f"malformed action {as_logged(data)}")
        cls = self._action_classes.get(data["type"])
        if cls is None:
            raise LogError(f"unknown action type {as_logged(data['type'], 40)} for {self.id}")
        fields = {k: v for k, v in data.items() if k != "type"}
        if set(fields) != set(cls._fields):
            wrong = ", ".join([*(f"unknown field {as_logged(k, 40)}" for k in sorted(set(fields) - set(cls._fields))),
                               *(f"no field {k!r}" for k in cls._fields if k not in fields)])
            raise LogError(f"a {as_logged(data['type'], 40)} action has "
                           f"{', '.join(map(repr, cls._fields)) or 'no fields'} (this one: {wrong})")
        return cls(**{k: _frozen(v) for k, v in fields.items()})

    #: What one of a game's several deals is called in narration (games of one deal never say it).
    deal_name = "round"

    def current_deal(self, state: StateT) -> dict[str, Any]:
        """The layout of the deal in play, as ``cardgames deal`` shows it (on a new state, the
        opening one). Games that deal again later (rounds, matches) override this to show only
        the latest deal."""
        return state.deal_json()

    def describe_action(self, state: StateT, action: Any) -> str:
        """One line of narration for ``action`` about to be applied in ``state``; games override it to say it in
        words. The default writes the action as the log does (it was Python's spelling of it)."""
        return f"player {state.current_player}: {as_logged(self.action_to_json(action), None)}"

    def describe_deal_end(self, state: StateT) -> list[str]:
        """Narration of the deal (round, match) ``state`` has just completed: what it scored and
        what it changed. Games of several deals override this; the default says nothing."""
        return []

    def describe_end(self, state: StateT) -> list[str]:
        """Narration of a finished game: why it ended and who won, in words, before the result's JSON
        (a teacher's finding: every game ended on that JSON alone). Games override this to say why;
        the default names the winners."""
        return [f"the game is over: {self.winners_said(state)}"]

    def winners_said(self, state: StateT, lead: bool = False) -> str:
        """Who won ``state``'s game (with ``lead``, of a game stopped early: who leads), as narration says
        it: "player 1 wins", "players 1 and 2 share the win". Games whose seats play as teams say it by
        team (Torqu's Partners: "players 0 and 2 win")."""
        from .wording import wins_phrase

        return wins_phrase([[seat] for seat in state.winners()], lead)

    def render_deal(self, deal: dict[str, Any]) -> str:
        """A readable drawing of a deal (``State.deal_json()``); games override this."""
        import orjson

        return orjson.dumps(deal, option=orjson.OPT_INDENT_2).decode()


class State(ABC, Generic[GameT]):
    """One game in progress. ``apply`` mutates in place (for speed); ``clone`` copies."""

    game: GameT
    #: Matches or rounds completed, for games of several (``simulate --matches``); else None.
    rounds_played: int | None = None
    #: The seat that dealt the deal in play, for games with a dealer (the narration names him); else None.
    dealer: int | None = None

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list:
        """Legal actions in a deterministic order; empty exactly when the game is over.

        The list may be the state's own cache: callers must not modify it.
        """

    @abstractmethod
    def apply(self, action: Any) -> None:
        """Apply a legal action; raise IllegalActionError for any other."""

    def is_terminal(self) -> bool:
        return self.current_player is None

    def winners(self) -> list[int]:
        """The seats that won, several on a tie (the leaders, if the game was stopped early):
        multiplayer games define it; a solitaire defines :meth:`returns` instead."""
        raise NotImplementedError(f"{type(self).__name__} names no winners")

    def returns(self) -> list[float]:
        """Per-seat outcome: 1 for a win, shared wins split, 0 otherwise (from :meth:`winners`);
        games may refine."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.game.num_players)]

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """The game's figures as JSON-able data; batch statistics are computed from it.

        Conventions every game follows, so that batch analysis works for all of them:

        * solitaires: ``won`` (bool) and ``cards_left`` (int);
        * multiplayer games: ``scores`` (one number per seat), ``winners`` (list of seats; several
          on a tie) and ``moves`` (actions taken); in partnerships also ``teams`` (each seat's
          team), so that winning partners are one win, not a tie;
        * anything else is game-specific: integers, per-seat lists of integers, or exact decimal
          strings for money.
        """

    @abstractmethod
    def deal_json(self) -> dict[str, Any]:
        """Every deal made so far, every card named (what the log's ``deal`` holds)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The current position as JSON-able data."""

    @abstractmethod
    def all_cards(self) -> list[int]:
        """Every card code held anywhere in the state (tests check none is created or lost)."""

    def clone(self) -> Self:
        """An independent copy that shares the immutable game (engines may override this
        with a faster copy of just their mutable parts)."""
        import copy

        return copy.deepcopy(self, {id(self.game): self.game})

    def illegal(self, action: Any) -> IllegalActionError:
        return IllegalActionError(f"illegal action {self.game.action_to_json(action)}")


class Agent(Protocol):
    """A policy for one seat. ``rng`` is the seat's own stream (derived from seed and seat)."""

    name: str

    def choose(self, state: State, actions: Sequence[Any], rng: Rng) -> Any: ...


@dataclass
class Playthrough:
    """A finished (or stopped) game: its final state and who did what."""

    state: State
    seed: int | str
    rng: str
    agents: list[str]
    history: list[tuple[int, Any]] = field(default_factory=list)


def leaders(scores: Sequence[Any]) -> list[int]:
    """The seats whose score is the highest (several on a tie): every game with seats names its winners so."""
    top = max(scores)
    return [seat for seat, score in enumerate(scores) if score == top]


def agent_rng(seed: int | str, seat: int) -> Rng:
    """Seat ``seat``'s own stream, independent of the deal stream."""
    return Rng(seed, f"agent/{seat}")


Chooser = Callable[[State, list, Rng], Any]


def _start(game: Game, seed: int | str, agents: Sequence[Agent],
           rng: str) -> tuple[int | str, State, list[Chooser], list[Rng]]:
    """What :func:`play` and :func:`play_out` start from: the canonical seed, the deal, each seat's
    chooser and each seat's own stream."""
    seed = game.check_seed(seed, rng)
    choosers = [agent.choose for agent in agents]
    return seed, game.new_state(seed, rng), choosers, [agent_rng(seed, seat) for seat in range(game.num_players)]


def play(game: Game, seed: int | str, agents: Sequence[Agent], rng: str = "native",
         stop: Callable[[State], bool] | None = None) -> Playthrough:
    """Deal ``seed`` and let the agents play it out, or until ``stop(state)`` is true."""
    seed, state, choosers, rngs = _start(game, seed, agents, rng)
    history: list[tuple[int, Any]] = []
    append, legal_actions, apply = history.append, state.legal_actions, state.apply
    try:
        while True:
            player = state.current_player
            if player is None or (stop is not None and stop(state)):
                break
            action = choosers[player](state, legal_actions(), rngs[player])
            apply(action)
            append((player, action))
    except CardgamesError as exc:  # a game that cannot go on (a designer's pile past the capture listing's
        if type(exc) is not CardgamesError:  # limit): at which step, as replay names a log's (a designer's wish)
            raise
        raise CardgamesError(f"step {len(history) + 1}: {exc}") from None
    return Playthrough(state, seed, rng, [a.name for a in agents], history)


def play_out(game: Game, seed: int | str, agents: Sequence[Agent], rng: str = "native") -> State:
    """:func:`play` to the end without keeping the action history: the final state alone (what a batch
    needs). The same choices in the same order as :func:`play`, so the same state."""
    _, state, choosers, rngs = _start(game, seed, agents, rng)
    legal_actions, apply = state.legal_actions, state.apply
    try:
        while True:
            player = state.current_player
            if player is None:
                return state
            apply(choosers[player](state, legal_actions(), rngs[player]))
    except CardgamesError as exc:
        if type(exc) is CardgamesError:  # a game that cannot go on: played again with its history (the same
            play(game, seed, agents, rng)  # choices), whose error names the step; no count is kept on the way
        raise
