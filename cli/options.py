"""Options shared by several commands, and access to the config catalog."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import click

from cardgames.engine import MAX_PLAYERS, RNG_MODES
from cardgames.engine.rng import SEEDS

if TYPE_CHECKING:
    from cardgames.engine.config import Catalog
    from cardgames.engine.core import Game

F = Callable[..., Any]


def comma_list(text: str, option: str, item: str = "item") -> list[str]:
    """The names in a comma-separated option value, spaces around each ignored; none for an empty
    value. An empty name in the list is a usage error: two commas in a row are a typo."""
    if not text.strip():
        return []
    names = [name.strip() for name in text.split(",")]
    if "" in names:
        raise click.UsageError(f"{option}: {item} {names.index('') + 1} of {len(names)} is empty (two commas?)")
    return names


def catalog(ctx: click.Context) -> "Catalog":
    """The catalog for this invocation (extra --configs folders first, then the bundled ones). The
    folders are the group's ``obj`` once it has run; while the shell completes a word it has not, and
    they are its parsed parameter."""
    from cardgames.engine.config import Catalog

    root = ctx.find_root()
    obj = root.obj if isinstance(root.obj, dict) else {}
    if "catalog" not in obj:
        obj["catalog"] = Catalog.with_folders(obj.get("config_dirs", root.params.get("config_dirs") or ()))
        root.obj = obj
    return obj["catalog"]


def complete_games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The game ids and aliases starting with ``incomplete``, for shell completion (README, "Usage"): the
    files' names, so a config that cannot be read is still offered (the command then says what is wrong),
    and no error is printed into the shell's line; an alias of two meanings names nothing, so is not."""
    cat = catalog(ctx)
    names = [*cat.ids("games"), *(alias for alias, meanings in cat.aliases.items() if len(meanings) == 1)]
    return sorted(name for name in names if name.startswith(incomplete))


def complete_variants(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The variant ids starting with ``incomplete``, for shell completion (as :func:`complete_games`)."""
    return [vid for vid in catalog(ctx).ids("variants") if vid.startswith(incomplete)]


# The human-readable form is ``text`` for some commands and ``table`` for others: each takes both names.
_SAME_FORMAT = {"text": "table", "table": "text"}


def format_option(*choices: str) -> Callable[[F], F]:
    """``--format``: every command takes it, with the choices that make sense for its data (the
    command sees one of ``choices``: ``text`` and ``table`` name the same one)."""
    names = [*choices, *(_SAME_FORMAT[c] for c in choices if c in _SAME_FORMAT and _SAME_FORMAT[c] not in choices)]

    def canonical(ctx: click.Context, param: click.Parameter, value: str) -> str:
        return value if value in choices else _SAME_FORMAT[value]

    return click.option("--format", "fmt", type=click.Choice(names), default=choices[0],
                        callback=canonical, show_default=True, help="Output format.")


def variant_option(help: str = "Variant to apply (repeatable).") -> Callable[[F], F]:
    """``--variant``, repeatable, its ids completed by the shell."""
    return click.option("--variant", "variants", multiple=True, metavar="V", shell_complete=complete_variants,
                        help=help)


def help_from(module: str) -> type[click.Option]:
    """An option class whose help is a template filled from ``module``'s names (``{DEFAULT_BUDGET:,}``) only
    when the help is shown: importing an engine for every command line would slow them all, and a copy of its
    numbers in the help would go stale."""
    class Help(click.Option):
        def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
            import importlib

            template, self.help = self.help, (self.help or "").format_map(vars(importlib.import_module(module)))
            try:
                return super().get_help_record(ctx)
            finally:
                self.help = template

    return Help


def check_engine(command: str, games: str, engine: str, gid: str, played_by: str) -> None:
    """Refuse, as a usage error (exit 2), a game of another engine than ``engine``, whose games (``games``,
    as a user names them) ``command`` plays: one wording for every such command."""
    if played_by != engine:
        from cardgames.engine.errors import OptionConflictError

        raise OptionConflictError(f"{command} applies to {games}; {gid} is played by the {played_by} engine")


#: ``--players``: a game's player count.
players_option = click.option("--players", type=click.IntRange(1, MAX_PLAYERS), default=None,
                              help="Player count (default: the game's; `cardgames list` shows each game's range).")


def game_options(f: F) -> F:
    """``--players``, ``--variant`` (repeatable) and ``--rng``."""
    f = click.option("--rng", type=click.Choice(RNG_MODES), default="native", show_default=True,
                     help="Deal generator: the project's own, or PySolFC's game numbers "
                          "(French-deck pairing games).")(f)
    f = variant_option()(f)
    return players_option(f)


def game_option(help: str = "Game id (see `cardgames list`).", **kwargs: Any) -> Callable[[F], F]:
    """``--game``, required unless a default is given, its ids completed by the shell."""
    kwargs.setdefault("required", "default" not in kwargs)
    return click.option("--game", "game_id", metavar="GAME", shell_complete=complete_games, help=help, **kwargs)


#: The game as a command's argument (``deal GAME``), its ids completed by the shell.
game_argument = click.argument("game_id", metavar="GAME", shell_complete=complete_games)


def agent_option(f: F) -> F:
    """``--agent``, shared by ``simulate`` and ``batch``."""
    return click.option("--agent", "agents", multiple=True, metavar="A",
                        help="Agent for every seat, or repeat once per seat (default: greedy; "
                             "`cardgames show GAME` lists the game's agents).")(f)


def seed_option(f: F) -> F:
    """``--seed``, shared by the commands that play or deal one game."""
    return click.option("--seed", required=True, metavar="S",
                        help=f"Seed: an integer {SEEDS} (with --rng pysolfc, a PySolFC game number such as ms1).")(f)


def load_game(ctx: click.Context, name: str, variants: tuple[str, ...] = (), players: int | None = None) -> "Game":
    """The engine's ``load_game`` over the command's catalog (``--configs`` and ``CARDGAMES_CONFIGS``)."""
    from cardgames.engine.registry import load_game as load

    return load(name, variants, players, catalog(ctx))
