"""JSON game logs (format ``cardgames-log``, version 1): build, write, read, replay.

A log holds what is needed to rebuild a game without any randomness but the deal's: the game,
variants, players, seed and generator, the hash of the resolved config, the deal (every card
named), the actions in order, and the result. ``replay`` rebuilds the deal from the seed, checks
it against the log, re-applies every action (each must be legal), and checks the result. The
format is documented in ``docs/log-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from . import ENGINE_VERSION
from .agents import agent_names
from .errors import CardgamesError, ConfigError, LogError
from .files import open_input
from .jsonkeys import first_twice, given_twice, read_keyed, walk
from .rng import GENERATORS
from .schema import is_names
from .wording import as_logged, byte_size, counted, cut_short

if TYPE_CHECKING:
    from .config import Catalog
    from .core import Game, Playthrough, State

FORMAT = "cardgames-log"
VERSION = 1
MAX_LOG_BYTES = 256 << 20
# The deepest a log nests its values: a few levels in any game (a Torqu log's hands, a Turup
# capture's ranks), and well inside what orjson reads and writes (254 levels) and Python recurses.
MAX_NESTING = 32
#: Legal actions an error of a step that is not legal quotes (:func:`_legal_here`).
LEGAL_SHOWN = 3
_REQUIRED = {"format": str, "version": int, "rng": str, "game": str, "variants": list, "players": int,
             "seed": (int, str), "config_sha256": str, "agents": list, "deal": dict, "actions": list,
             "result": dict, "engine_version": str}
_KIND_NAMES = {str: "a string", int: "an integer", list: "a list", dict: "a mapping"}


def build_log(game: "Game", run: "Playthrough") -> dict[str, Any]:
    """The log of a finished playthrough, as a dict (keys are sorted when written)."""
    to_json = game.action_to_json
    return {
        "format": FORMAT,
        "version": VERSION,
        "engine_version": ENGINE_VERSION,
        "rng": GENERATORS[run.rng],
        "game": game.id,
        "variants": list(game.spec.variants),
        "players": game.num_players,
        "seed": run.seed,
        "config_sha256": game.spec.sha256,
        "agents": list(run.agents),
        "deal": run.state.deal_json(),
        "actions": [{"player": p, "action": to_json(a)} for p, a in run.history],
        "result": run.state.result(),
    }


def dumps(data: Any, pretty: bool = True) -> bytes:
    """Canonical JSON bytes: sorted keys, newline-terminated; pretty means 2-space indents."""
    import orjson

    option = orjson.OPT_SORT_KEYS | (orjson.OPT_INDENT_2 if pretty else 0)
    return orjson.dumps(data, option=option) + b"\n"


def read_log(path: str | Path) -> dict[str, Any]:
    """Read and structurally check a log file (``-`` for stdin)."""
    import orjson

    label, handle = open_input(path, LogError)
    try:
        with handle:
            raw = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogError(f"{label}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(f"{label}: larger than {byte_size(MAX_LOG_BYTES)}; not a game log")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        try:  # orjson places a bad UTF-8 byte at line 1 column 1: found here, where it is
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            line = raw.count(b"\n", 0, bad.start) + 1
            raise LogError(f"{label}:{line}: not UTF-8 text (byte {bad.start})") from None
        try:  # a batch result file is one JSON document a line
            _refuse_batch_results(label, orjson.loads(raw.split(b"\n", 1)[0]))
        except orjson.JSONDecodeError:
            pass
        if exc.msg == "depth limit exceeded":  # orjson's own limit, far past a log's: said as the 32 levels are
            raise LogError(f"{label}:{exc.lineno}: nests values more than {MAX_NESTING} levels deep (column "
                           f"{exc.colno}); no log does") from None
        raise LogError(f"{label}: not valid JSON (truncated or corrupted?): {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _refuse_batch_results(label, data)  # its header alone
        raise LogError(f"{label}: not a cardgames log (no \"format\": \"{FORMAT}\")")
    deep = _too_deep(data)
    if deep is not None:  # a message quotes values whole (cut short after)
        raise LogError(f"{label}: {deep} nests values more than {MAX_NESTING} levels deep; no log does")
    twice = _key_twice(raw)
    if twice is not None:
        raise LogError(f"{label}: {twice}; a log writes each key once (another reader could take the other value)")
    if data.get("version") != VERSION:
        raise LogError(f"{label}: log version {as_logged(data.get('version'), 40)} is not supported (this is version "
                       f"{VERSION})")
    for key, kind in _REQUIRED.items():
        if key not in data:
            raise LogError(f"{label}: missing field {key!r}")
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            wanted = " or ".join(_KIND_NAMES[k] for k in (kind if isinstance(kind, tuple) else (kind,)))
            value, shown = data[key], as_logged(data[key])
            if isinstance(value, float) and value.is_integer() and not -2 ** 63 < value < 2 ** 64:
                # orjson reads a whole number past 64 bits as a float: said as what it was (a fuzzer's finding:
                # a seed of 2**64 was called a float), not only as the float it became. The float rounds it,
                # so -2**63 - 1 arrives as -2**63, which orjson itself reads as an integer.
                shown = f"a whole number past 64 bits (read as {shown}; JSON readers keep 64 bits at most)"
            raise LogError(f"{label}: field {key!r} has the wrong type: {wanted} is needed, not {shown}")
    for key in ("variants", "agents"):
        if not is_names(data[key]):
            raise LogError(f"{label}: field {key!r} must list names (strings), not {as_logged(data[key])}")
    twice = next((v for i, v in enumerate(data["variants"]) if v in data["variants"][:i]), None)
    if twice is not None:  # the game applies it once, so its hash matched and the log replayed "ok" (a log audit's)
        raise LogError(f"{label}: field 'variants' lists {as_logged(twice, 40)} twice; a log names each variant once")
    return data


def _parts(data: dict[str, Any]) -> Iterator[tuple[str, Any, int]]:
    """A log's parts as messages name them, "step N" for an action's entry and "field K" for the rest,
    each with how many levels hold it (the log, and for an entry the actions' list too)."""
    for key, value in data.items():
        if key == "actions" and isinstance(value, list):  # not a list: the type check after this says so
            for step, entry in enumerate(value, 1):
                yield f"step {step}", entry, 2
        else:
            yield f"field {as_logged(key, 40)}", value, 1


def _nesting(value: Any, limit: int) -> int:
    """How many levels of lists and mappings ``value`` nests, counted up to ``limit + 1``."""
    deepest = 0
    for item, depth in walk(value):
        if isinstance(item, (list, dict)):
            if depth > limit:
                return depth
            deepest = max(deepest, depth)
    return deepest


def _key_twice(raw: bytes) -> str | None:
    """Where a log (valid JSON, no deeper than :data:`MAX_NESTING`) gives a key twice in one object
    ("step N: key 'k' given twice", or a field's), or None. orjson keeps the last value without a word,
    so the log is read again by the standard library, which shows every pair: a log is read once per
    replay, and it is small beside the game it replays."""
    data = read_keyed(raw)
    if data.twice is not None:
        return given_twice(data.twice)
    for where, value, _ in _parts(data):
        twice = first_twice(value)
        if twice is not None:
            return f"{where}: {given_twice(twice)}"
    return None


def _refuse_batch_results(label: str, header: Any) -> None:
    """Raise a LogError saying what a batch result file is if ``header`` (a file's first JSON document) is such a
    file's header: given to ``replay``, it was called corrupted JSON, or not a log (an analyst's finding)."""
    from .batch.results import FORMAT as RESULTS

    if isinstance(header, dict) and header.get("format") == RESULTS:
        raise LogError(f"{label}: a batch result file, not a game log: `cardgames stats` reads it (a batch keeps "
                       "each game's result, not its actions; `simulate --seed S` plays one again)")


def _too_deep(data: dict[str, Any]) -> str | None:
    """Where a log nests values more than :data:`MAX_NESTING` levels deep ("step N" or a field), or None."""
    for where, value, holders in _parts(data):
        if _nesting(value, MAX_NESTING - holders) > MAX_NESTING - holders:
            return where
    return None


@dataclass
class ReplayReport:
    """A log that replayed to its own result: what ``replay`` prints of it."""

    game: str
    variants: tuple[str, ...]
    seed: int | str
    steps: int
    result: dict[str, Any]
    #: The log was made with another config than the one it was replayed under (``current_config``).
    config_changed: bool
    #: The game replayed, as :func:`.core.play` gives one: what narration tells (``replay --narrate``).
    playthrough: "Playthrough"


def rng_mode(rng: str) -> str:
    """The RNG mode (``native``/``pysolfc``) of a log's ``rng`` field."""
    for mode, name in GENERATORS.items():
        if rng == name:
            return mode
    raise LogError(f"log uses generator {as_logged(rng, 40)}; this engine has "
                   f"{' and '.join(map(repr, GENERATORS.values()))}")


def replay(data: dict[str, Any], catalog: "Catalog | None" = None, current_config: bool = False) -> ReplayReport:
    """Re-play a log, ``data`` as :func:`read_log` gives it (each field of its type); raise LogError naming
    the first step (1-based) that diverges. A log made with another config than the one found here is
    refused, unless ``current_config``: it is then replayed under this one (do its actions still play, and
    to the same result, after a rules change?), and the report says the config changed."""
    from .core import Playthrough
    from .registry import load_game

    try:
        game = load_game(data["game"], data["variants"], data["players"], catalog)
    except (LogError, ConfigError):  # a broken installed config is the config's fault, said at its line
        raise
    except CardgamesError as exc:  # an unknown game, a variant that does not apply, a player count: the log's
        variants = cut_short("".join(" --variant " + v for v in data["variants"]), 120)
        setup = f"game {as_logged(data['game'], 40)}{variants}, {counted(data['players'], 'player')}"
        raise LogError(f"the log's {setup} cannot be set up here: {exc} (a log made with --configs replays with the "
                       "same --configs)") from None
    agents = data["agents"]
    if len(agents) != game.num_players:
        raise LogError(f"field 'agents' must name one agent per seat ({game.num_players}), not {as_logged(agents)}")
    known = agent_names(game)
    unknown = [a for a in agents if a not in known]
    if unknown:  # what played is part of what the log claims
        raise LogError(f"field 'agents': {game.id} has no agent {as_logged(unknown[0], 40)} "
                       f"(its agents: {', '.join(known)})")
    changed = game.spec.sha256 != data["config_sha256"]
    if changed and not current_config:
        raise LogError(f"the log was made with a different config of {game.id} (config_sha256 "
                       f"{data['config_sha256'][:12]}... in the log, {game.spec.sha256[:12]}... here): its rules, "
                       "deck or options have changed since, or were read from other config folders (a log made "
                       "with --configs replays with the same --configs; --current-config replays it under "
                       "this one)")
    mode = rng_mode(data["rng"])
    try:
        seed = game.check_seed(data["seed"], mode)
    except CardgamesError as exc:
        rng = as_logged(data["rng"], 40)
        raise LogError(f"the log's seed {as_logged(data['seed'], 40)} (rng {rng}): {exc}") from None
    if not same_json(data["seed"], seed):  # the log writes a seed as simulate does: 7, or "ms7"
        raise LogError(f"field 'seed' is {as_logged(data['seed'], 40)}; a log writes this seed as "
                       f"{as_logged(seed, 40)}")
    state = game.new_state(seed, mode)
    if not _is_prefix(state.deal_json(), data["deal"]):
        raise _deal_error(state.deal_json(), data["deal"], prefix=True)
    history = []
    # whether the last action ended a match or round (where ``simulate --matches N`` stops), or, before any,
    # whether a deal ended as dealt (a Torqu centre showing no pair), where ``--matches`` stops at once
    ended = bool(state.rounds_played)
    for step, entry in enumerate(data["actions"], 1):
        completed = state.rounds_played
        action = _replay_step(game, state, step, entry)  # first: it checks the entry is one (a null was not)
        history.append((entry["player"], action))
        ended = state.rounds_played != completed
    if not same_json(data["deal"], state.deal_json()):
        # later deals (rounds, matches) never came; a finished game has no deal still to come
        if not state.is_terminal() and _is_prefix(state.deal_json(), data["deal"]):
            raise LogError(f"after the log's {len(data['actions'])} steps the game has not yet made every deal "
                           "the log records: actions are missing (was the log cut short?)")
        raise _deal_error(state.deal_json(), data["deal"], prefix=False)
    result = state.result()
    if not same_json(data["result"], result):
        where, fresh, logged = _first_difference(result, data["result"])
        shown = ["missing" if value is _MISSING else as_logged(value) for value in (fresh, logged)]
        if not state.is_terminal():  # the likelier fault is the actions' end, not the result's field
            raise LogError(f"after the log's {len(data['actions'])} steps the game is not over and {where} is "
                           f"{shown[0]}, but the log says {shown[1]}: are actions missing (was the log cut short?)")
        raise LogError(f"after {len(data['actions'])} steps {where} is {shown[0]}, but the log says {shown[1]}")
    if not state.is_terminal() and not ended:  # its result made to match (an audit's cut log): no log simulate writes
        of = "" if state.rounds_played is None else f", nor at the end of a {game.deal_name}, where simulate may stop"
        raise LogError(f"after the log's {len(data['actions'])} steps the game is not over{of}: actions are "
                       "missing (was the log cut short?)")
    return ReplayReport(game.id, tuple(game.spec.variants), seed, len(data["actions"]), result, changed,
                        Playthrough(state, seed, mode, list(agents), history))


def _replay_step(game: "Game", state: "State", step: int, entry: Any) -> Any:
    """Apply the log's step ``step`` to ``state``, and return the engine's own action it is; raise LogError
    naming the step if it is not the one to play."""
    if not isinstance(entry, dict) or set(entry) != {"player", "action"}:
        raise LogError(f"step {step}: malformed entry {as_logged(entry)}")
    try:
        action = game.action_from_json(entry["action"])
    except (LogError, TypeError, ValueError) as exc:
        raise LogError(f"step {step}: {exc}") from None
    player = state.current_player
    if player is None:
        raise LogError(f"step {step}: the game was already over")
    if not same_json(entry["player"], player):
        said = entry["player"]
        if not isinstance(said, int) or isinstance(said, bool):
            raise LogError(f"step {step}: field 'player' must be a seat number, not {as_logged(said)}")
        raise LogError(f"step {step}: the log says player {said} acted, but it was player {player}'s turn")
    # The engine's own action, of the same type (actions without fields, such as Towers' pass and flee, are
    # all equal tuples) and compared as written: 6.0 or true for row 1 are equal in Python, not in a log.
    legal = state.legal_actions()
    own = next((a for a in legal if type(a) is type(action) and a == action), None)
    if own is None or not same_json(entry["action"], game.action_to_json(own)):
        reordered = next((a for a in legal if type(a) is type(action) and _reordered(a) == _reordered(action)), None)
        if reordered is not None:  # the log format writes each action one way: a hand-edited list may not be it
            raise LogError(f"step {step}: action {as_logged(entry['action'])} is legal, but a log writes it "
                           f"{as_logged(game.action_to_json(reordered))}")
        raise LogError(f"step {step}: action {as_logged(entry['action'])} is not legal here "
                       f"({_legal_here(game, state)})")
    state.apply(own)
    return own


def _legal_here(game: "Game", state: "State") -> str:
    """The first :data:`LEGAL_SHOWN` legal actions, as a log writes them: what a reader of a log that no longer
    replays (a rule changed since, an edit) needs to see why its step is not among them, in the words of
    the step it quotes. (The narration's words, used before, tell what each action would cause: a
    Towers play's ran to 300 characters, a rules expert's finding.)"""
    legal = state.legal_actions()
    words = [as_logged(game.action_to_json(action)) for action in legal[:LEGAL_SHOWN]]
    more = f"; {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
    return f"legal here: {'; '.join(words)}{more}"


def _reordered(action: tuple) -> tuple:
    """``action`` with every list field sorted, so that two actions whose lists differ only in order
    compare equal (a Torqu draw from the centre, a Turup capture's ranks)."""
    return tuple(tuple(sorted(map(repr, v))) if isinstance(v, tuple) else v for v in action)


def same_json(logged: Any, fresh: Any) -> bool:
    """Equal as JSON: the same canonical bytes, so 1, 1.0 and true differ as they do in the file (and in a config,
    whose values are JSON's too)."""
    return dumps(logged, pretty=False) == dumps(fresh, pretty=False)


def _is_prefix(fresh: Any, logged: Any) -> bool:
    """Does the deal known right after dealing agree with the logged one?

    Games that deal again later (new rounds) only ever append to their deal record, so lists
    in ``fresh`` may be shorter than the logged ones but must agree item by item.
    """
    if isinstance(fresh, dict):
        return isinstance(logged, dict) and set(fresh) == set(logged) and all(
            _is_prefix(fresh[k], logged[k]) for k in fresh)
    if isinstance(fresh, list):
        return (isinstance(logged, list) and len(fresh) <= len(logged)
                and all(_is_prefix(a, b) for a, b in zip(fresh, logged, strict=False)))
    return same_json(logged, fresh)


_MISSING = object()


def _first_difference(fresh: Any, logged: Any, path: str = "the result",
                      prefix: bool = False) -> tuple[str, Any, Any]:
    """The first place (``the result.scores[1]``) where two JSON values differ, and both values
    there: a whole result, cut short to fit a line, could hide it. With ``prefix``, lists in ``fresh``
    may stop short of the logged ones (:func:`_is_prefix`: a deal just made, before later rounds)."""
    agree = _is_prefix if prefix else same_json
    if isinstance(fresh, dict) and isinstance(logged, dict):
        for key in sorted(set(fresh) | set(logged)):
            a, b = fresh.get(key, _MISSING), logged.get(key, _MISSING)
            if a is _MISSING or b is _MISSING or not agree(a, b):
                return _first_difference(a, b, f"{path}.{key}", prefix)
    elif isinstance(fresh, list) and isinstance(logged, list) and (
            len(fresh) == len(logged) or prefix and len(fresh) < len(logged)):
        for i, (a, b) in enumerate(zip(fresh, logged, strict=False)):
            if not agree(a, b):
                return _first_difference(a, b, f"{path}[{i}]", prefix)
    return path, fresh, logged


def _deal_error(fresh: Any, logged: Any, prefix: bool) -> LogError:
    """The logged deal is not the seed's: say where they first differ (a card, an extra field)."""
    where, mine, theirs = _first_difference(fresh, logged, "the deal", prefix)
    if isinstance(mine, list) and isinstance(theirs, list):  # all alike but the length
        return LogError(f"the deal in the log is not the deal the seed gives: {where} holds "
                        f"{counted(len(mine), 'item')} from the seed, {len(theirs)} in the log")
    shown = ["nothing" if value is _MISSING else as_logged(value) for value in (mine, theirs)]
    return LogError(f"the deal in the log is not the deal the seed gives: at {where} the seed gives {shown[0]}, "
                    f"the log {shown[1]}")
