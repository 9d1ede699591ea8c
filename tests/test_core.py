"""The shared State machinery that engines inherit."""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from cardgames.engine.agents import make_agents
from cardgames.engine.core import Game, State, play, play_out
from cardgames.engine.errors import CardgamesError
from cardgames.engine.registry import ENGINES, engine_agents, load_game
from cardgames.engine.rng import SEED_MAX


def test_default_clone_is_independent_and_shares_the_game():
    game = load_game("eiffel-tower")
    state = game.new_state(3)
    copy = State.clone(state)  # the base implementation, not the engine's override
    assert copy.game is game
    copy.apply(copy.legal_actions()[0])
    assert state.snapshot() == game.new_state(3).snapshot()
    assert copy.snapshot() != state.snapshot()


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_an_engines_agents_can_be_imported_first(engine):
    """A script may import an engine's agents before its rules (they import the rules, which used to
    import them back half-built: ImportError), and the registry finds them there. An engine need have no
    ``greedy`` (a contributor's game of no choices has none), so its ``AGENTS`` may be any."""
    module = ENGINES[engine].rpartition(".")[0] + ".agents"
    assert engine_agents(engine) is importlib.import_module(module).AGENTS
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_text_seeds_run_to_2_64_minus_1_inclusive(run_cli):
    """The CLI passes ``--seed`` as text: the largest seed, 20 digits (leading zeros not counted), is a
    seed and deals as the integer does; one more is out of range."""
    game = load_game("eiffel-tower")
    assert game.check_seed("18446744073709551615", "native") == SEED_MAX
    assert game.check_seed("00018446744073709551615", "native") == SEED_MAX
    with pytest.raises(CardgamesError, match="out of range"):
        game.check_seed("18446744073709551616", "native")
    dealt = run_cli("deal", "eiffel-tower", "--seed", "18446744073709551615")
    assert dealt.exit_code == 0 and dealt.stdout == game.render_deal(game.current_deal(game.new_state(SEED_MAX))) + "\n"


@pytest.mark.parametrize("text", ["\u00a07", "7\u00a0", "\u30007", "7\x1c", "\x857"])
def test_a_text_seed_sheds_ascii_whitespace_and_no_other(text: str) -> None:
    """A text seed loses ASCII whitespace at its ends (" 7\\t" is 7, as ``--seeds`` reads it) and nothing else:
    a no-break space, an ideographic space or an information separator, whitespace to ``str.strip()``, is
    refused beside the digits, not read as the seed 7."""
    game = load_game("eiffel-tower")
    assert game.check_seed(" 7\t", "native") == 7
    with pytest.raises(CardgamesError, match="seed must be an integer"):
        game.check_seed(text, "native")


def test_play_stops_where_stop_says_and_keeps_the_game_so_far():
    """``play(..., stop=)`` asks ``stop`` before every action (simulate --matches, scripts): the
    playthrough ends there, unfinished, its history the first actions of the full game's."""
    game = load_game("eiffel-tower")
    agents = make_agents([], game)
    full = play(game, 3, agents)
    asked = []
    stopped = play(game, 3, agents, stop=lambda state: asked.append(state) or len(asked) > 5)
    assert len(asked) == 6 and stopped.history == full.history[:5] and not stopped.state.is_terminal()


def test_a_game_that_cannot_go_on_names_its_step(monkeypatch):
    """A rules error met in play (a designer's Turup pile past the capture listing's limit) says at which step,
    as replay names a log's; an error of another kind (an illegal action's) keeps its own type and words."""
    from cardgames.engine.errors import IllegalActionError

    game = load_game("eiffel-tower")
    agents = make_agents([], game)
    state_type = type(game.new_state(3))
    apply = state_type.apply
    applied = []

    def failing_sixth(self, action):
        applied.append(action)
        if len(applied) == 6:
            raise CardgamesError("the pile cannot take it")
        apply(self, action)

    monkeypatch.setattr(state_type, "apply", failing_sixth)
    with pytest.raises(CardgamesError, match="^step 6: the pile cannot take it$"):
        play(game, 3, agents)

    def failing_third_turn(self, action):  # by the game's position, so that playing again meets it at the same step
        if self.num_turns == 3:
            raise CardgamesError("the pile cannot take it")
        apply(self, action)

    monkeypatch.setattr(state_type, "apply", failing_third_turn)
    with pytest.raises(CardgamesError, match="^step (\\d+): the pile cannot take it$") as played:
        play(game, 3, agents)
    with pytest.raises(CardgamesError) as played_out:  # batch's loop keeps no count: it plays the game again
        play_out(game, 3, agents)
    assert str(played_out.value) == str(played.value)
    applied.clear()
    monkeypatch.setattr(state_type, "apply", lambda self, action: (_ for _ in ()).throw(IllegalActionError("no")))
    with pytest.raises(IllegalActionError, match="^no$"):
        play(game, 3, agents)


@pytest.mark.parametrize(("game_id", "players"),
                         [("eiffel-tower", None), ("turup", 3), ("towers", 4), ("castle", None)])
@pytest.mark.parametrize("names", [[], ["random"], ["random", "greedy", "random", "greedy"]])
def test_play_out_ends_where_play_ends(game_id, players, names):
    """A batch plays with ``play_out`` (no history kept): the same choices, so the same final state and
    result as ``play``, whose log ``simulate`` writes; random agents too, each seat drawing from its own
    stream (greedy ones draw nothing, so they alone could not tell the seats' streams apart)."""
    game = load_game(game_id, players=players)
    agents = make_agents(names[:game.num_players], game)
    for seed in (1, 2, 3):
        state, played = play_out(game, seed, agents), play(game, seed, agents).state
        assert state.is_terminal() and state.result() == played.result()
        assert state.snapshot() == played.snapshot()


@pytest.mark.parametrize(("game_id", "players", "options"), [
    ("eiffel-tower", None, {}), ("turup", 2, {}), ("turup", 5, {"first_dealer": 3}),
    ("turup", 12, {"first_dealer": 11}), ("torqu", 3, {}), ("torqu", 4, {"first_player": 2}),
    ("torqu", 2, {"first_player": 5}),
    ("towers", 3, {"first_player": "seat0"})])
def test_first_seat_is_who_moves_first_in_the_first_deal(game_id, players, options):
    """A batch's header records ``Game.first_seat`` and its statistics measure that seat's advantage, so it must
    be the seat the first deal gives the move (Turup: the first dealer's left): a mutant recording the dealer
    passed every other test (an audit's finding)."""
    game = load_game(game_id, players=players)
    game = type(game)(dataclasses.replace(game.spec, options={**game.spec.options, **options}))
    assert game.first_seat is not None
    for seed in range(1, 6):
        assert game.new_state(seed).current_player == game.first_seat


def test_tuple_fields_are_json_lists_and_come_back_as_the_same_action() -> None:
    """An action's JSON form writes a tuple field as a list (Turup's ``take``), so it is what its log file
    reads back as; ``action_from_json`` turns the list back into a tuple, giving the very action (hashable,
    and equal to the legal one)."""
    game = load_game("turup", (), 2)
    captures = [action for _, action in play(game, 3, make_agents(["random"], game)).history
                if type(action).__name__ == "Capture"]
    assert captures
    for action in captures:
        data = game.action_to_json(action)
        assert isinstance(data["take"], list) and orjson.loads(orjson.dumps(data)) == data
        rebuilt = game.action_from_json(data)
        assert rebuilt == action and hash(rebuilt) == hash(action)


def test_the_base_narration_and_drawing_a_new_game_inherits(monkeypatch) -> None:
    """Every bundled game overrides them; a new game inherits these: an action narrated as "player <seat>:
    <its JSON form>" with the seat 0-based as in logs (it was Python's spelling), a deal drawn as its JSON
    indented by two spaces, and an end naming the winners, or nobody (a contributor's drawn game failed)."""
    game = load_game("eiffel-tower")
    state = game.new_state(3)
    assert Game.describe_action(game, state, state.legal_actions()[0]) == 'player 0: {"row":2,"type":"play"}'
    long = {"cards": ["x" * 50] * 4, "type": "play"}  # whole, as the log holds it (a message's 120 cut it)
    monkeypatch.setattr(type(game), "action_to_json", lambda self, action: long)
    assert Game.describe_action(game, state, state.legal_actions()[0]) == f"player 0: {orjson.dumps(long).decode()}"
    towers = load_game("towers", (), 2)
    drawn = towers.new_state(1)
    monkeypatch.setattr(type(drawn), "winners", lambda self: [])
    assert Game.describe_end(towers, drawn) == ["the game is over: nobody wins"]
    deal = state.deal_json()
    drawing = Game.render_deal(game, deal)
    assert drawing.splitlines()[:2] == ["{", '  "rows": ['] and orjson.loads(drawing) == deal


# -- gaps found by a mutation audit of engine/agents --------------------------------------------
def test_no_agent_names_mean_greedy_for_every_seat_or_random_where_there_is_none(monkeypatch) -> None:
    """``make_agents([], game)``: "no names means ``greedy`` (or ``random`` where there is none) for all".
    Towers for three has a greedy agent, so all three seats get it; an engine whose ``AGENTS`` lists no
    greedy gets ``random`` for every seat."""
    game = load_game("towers", (), 3)
    assert [agent.name for agent in make_agents([], game)] == ["greedy"] * 3
    import cardgames.engine.registry as registry

    monkeypatch.setattr(registry, "engine_agents", lambda engine: {})
    assert [agent.name for agent in make_agents([], game)] == ["random"] * 3


@pytest.mark.parametrize("names", [["random", "greedy"], ["random"] * 4])
def test_agent_names_must_be_one_or_one_per_seat(names: list[str]) -> None:
    """``make_agents``: one name serves every seat, otherwise there must be exactly one per seat; two
    names (or four) for three players are refused, as a usage error naming both counts."""
    from cardgames.engine.errors import OptionConflictError

    game = load_game("towers", (), 3)
    with pytest.raises(OptionConflictError, match=f"^{len(names)} agents given for 3 players"):
        make_agents(names, game)
    assert [agent.name for agent in make_agents(["random", "greedy", "random"], game)] == ["random", "greedy", "random"]


def test_code_numba_cannot_cache_is_compiled_in_each_process(tmp_path):
    """Where numba finds no folder to keep compiled code in (a read-only install and home: a CI persona's
    traceback), it refuses ``cache=True`` at the decorator; :func:`compiled` compiles without the cache."""
    from numba import njit

    from cardgames.engine.compiled import compiled

    space: dict = {}
    exec(compile("def plus_one(x):\n    return x + 1\n", str(tmp_path / "gone" / "kernel.py"), "exec"), space)
    with pytest.raises(RuntimeError, match="cannot cache"):  # the case: numba's own refusal
        njit(cache=True)(space["plus_one"])
    assert compiled(space["plus_one"])(2) == 3


def _written(path: Path, text: str) -> Path:
    """``path``, holding ``text``: a module's file, whose functions numba then sees in it (numba caches only what
    comes from a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_compiled_loops_are_kept_in_the_users_cache_folder(tmp_path, monkeypatch, module_at):
    """numba's own first choice, ``__pycache__`` beside the installed module, wrote into site-packages and stayed
    behind an uninstall (an install audit's finding): the loops are kept in the user's cache folder, unless
    ``NUMBA_CACHE_DIR`` names one, which is kept to."""
    import os

    from numba.core import config

    from cardgames.engine.compiled import compiled

    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)  # restored after the test, as the environment is:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "set")  # recorded as it was (perhaps unset), so that what compiled() sets
    monkeypatch.delenv("NUMBA_CACHE_DIR")  # below does not outlive the test (unrecorded, it would have)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    install = tmp_path / "site-packages" / "kernel_kept_aside.py"
    assert compiled(module_at(_written(install, "def plus_two(x):\n    return x + 2\n")).plus_two)(1) == 3
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "cache" / "cardgames" / "numba")
    assert list((tmp_path / "cache" / "cardgames" / "numba").rglob("*.nbi"))
    assert not list(install.parent.rglob("*.nb[ic]"))

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "mine"))  # as numba reads it at its import
    mine = tmp_path / "site-packages" / "kernel_kept_mine.py"
    assert compiled(module_at(_written(mine, "def plus_three(x):\n    return x + 3\n")).plus_three)(1) == 4
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine") and list((tmp_path / "mine").rglob("*.nbi"))


def test_the_cache_folder_is_the_xdg_one_or_the_homes(monkeypatch):
    """``XDG_CACHE_HOME`` if absolute (the spec says a relative one is ignored), else ``~/.cache``; without a home
    to name, none (numba then keeps the loops where it can)."""
    import os

    from cardgames.engine.compiled import cache_folder

    monkeypatch.setenv("XDG_CACHE_HOME", "/var/cache/me")
    assert cache_folder() == "/var/cache/me/cardgames/numba"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setattr(os.path, "expanduser", lambda path: path.replace("~", "/home/me"))
    assert cache_folder() == "/home/me/.cache/cardgames/numba"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_folder() == "/home/me/.cache/cardgames/numba"
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # no home: "~" stays "~"
    assert cache_folder() is None


def test_a_compile_error_other_than_the_cache_is_raised(monkeypatch):
    """Only numba's refusal to cache falls back to compiling without it; any other error is the caller's."""
    import numba

    from cardgames.engine import compiled as module

    def failing(**options):
        def decorate(func):
            raise RuntimeError("boom")
        return decorate

    monkeypatch.setattr(numba, "njit", failing)
    with pytest.raises(RuntimeError, match="^boom$"):
        module.compiled(lambda x: x)


def test_the_first_compile_in_a_process_is_announced_once(monkeypatch):
    """numba's compile event, which a load from its cache does not raise, tells :func:`announce`'s caller once,
    however many loops compile after it; with none announced, nothing is said."""
    import numba

    from cardgames.engine import compiled as module

    monkeypatch.setattr(module._FirstCompile, "say", None)  # restored after the test
    module._FirstCompile.listen()
    assert numba.njit(lambda x: x - 1)(1) == 0  # compiled with no one to tell
    said: list[str] = []
    module.announce(said.append)
    assert numba.njit(lambda x: x + 1)(1) == 2 and numba.njit(lambda x: x * 2)(2) == 4
    assert said == [module.COMPILING]


WHOLE_RULES = ("from cardgames.engine.core import Game\nOPTIONS = {}\nclass SnapGame(Game):\n"
               "    def new_state(self, seed, rng='native'):\n        return None\n"
               "GAME = SnapGame\ndef check_config(spec):\n    return []\n")
HALF_BUILT = {
    "nothing yet": None,
    "an import that fails": "from cardgames.engine.core import NoSuchThing\n",
    "no OPTIONS": WHOLE_RULES.replace("OPTIONS = {}\n", ""),
    "no check_config": ("from cardgames.engine.core import Game\nOPTIONS = {}\nclass SnapGame(Game):\n    pass\n"
                        "GAME = SnapGame\n"),
    "an abstract state": ("from cardgames.engine.core import Game, State\nOPTIONS = {}\nclass SnapGame(Game):\n"
                          "    def new_state(self, seed, rng='native'):\n        return SnapState()\n"
                          "class SnapState(State):\n    def result(self):\n        return {}\nGAME = SnapGame\n"
                          "def check_config(spec):\n    return []\n"),
}


@pytest.mark.parametrize("stage", list(HALF_BUILT))
def test_a_half_built_engine_is_one_line_naming_what_it_lacks(stage, tmp_path, monkeypatch, run_cli) -> None:
    """A contributor's engine registered before it is whole: its package missing, its rules module without
    ``check_config``, its State class abstract. validate (every config), show and simulate ended in a traceback
    (ModuleNotFoundError, AttributeError, TypeError); each now says which engine lacks what, validate at the
    line of the game it plays, and the other games still validate."""
    import cardgames.engine.registry as registry

    name = "snap_" + stage.replace(" ", "_")  # a package of its own: the import system keeps what it imported
    package = tmp_path / "code" / name
    package.mkdir(parents=True)
    if HALF_BUILT[stage] is not None:
        (package / "__init__.py").write_text("")
        (package / "rules.py").write_text(HALF_BUILT[stage])
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.setitem(registry.ENGINES, "snap", f"{name}.rules")
    eiffel = (importlib.import_module("cardgames.engine.config").bundled_root() / "games" / "eiffel-tower.yaml")
    (tmp_path / "games").mkdir()
    game = eiffel.read_text().replace("id: eiffel-tower", "id: snap-lite").replace("engine: pairing", "engine: snap")
    (tmp_path / "games" / "snap-lite.yaml").write_text(game.replace("family: pairing", "family: snap"))
    lacks = {"nothing yet": f"cannot import {name}.rules", "no check_config": "does not define check_config",
             "an import that fails": f"cannot import {name}.rules: cannot import name 'NoSuchThing'",
             "no OPTIONS": "does not define OPTIONS",
             "an abstract state": "SnapState does not define all_cards, apply, current_player"}[stage]
    checked = run_cli("validate", str(tmp_path))
    assert checked.exit_code == 1 and "snap-lite.yaml:" in checked.stdout and lacks in checked.stdout
    assert checked.stdout.count("\n") == 1, checked.stdout
    for command in (["show", "snap-lite"], ["simulate", "--game", "snap-lite", "--seed", "1"]):
        result = run_cli("--configs", str(tmp_path), *command)
        assert result.exit_code == 1 and result.stderr.startswith("Error: engine snap: ") and lacks in result.stderr


def test_an_engines_agents_module_without_agents_is_named(tmp_path, monkeypatch) -> None:
    """An agents module beside the rules that does not define AGENTS: one line naming it, not an AttributeError."""
    import cardgames.engine.registry as registry

    package = tmp_path / "snap_agents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text(WHOLE_RULES)
    (package / "agents.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.ENGINES, "snap", "snap_agents.rules")
    with pytest.raises(CardgamesError, match="^engine snap: snap_agents.agents does not define AGENTS"):
        engine_agents("snap")
