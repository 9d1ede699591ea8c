"""The ``cardgames`` entry point: a Click group that imports each command only when it runs."""

from __future__ import annotations

import importlib
import sys
from typing import Any, Sequence

import click

# name -> (module, function, one-line help). Help text lives here so `cardgames --help`
# imports no command module, let alone the engine.
COMMANDS = {
    "list": ("cardgames.cli.catalog", "list_cmd", "List games (with their aliases), decks or variants."),
    "show": ("cardgames.cli.catalog", "show_cmd", "Show a game's resolved config."),
    "validate": ("cardgames.cli.validate", "validate_cmd", "Check configs: syntax, schema, decks, deals."),
    "deal": ("cardgames.cli.play", "deal_cmd", "Show the deal a seed gives."),
    "simulate": ("cardgames.cli.play", "simulate_cmd", "Play one game with seeded agents and print its log."),
    "replay": ("cardgames.cli.play", "replay_cmd", "Replay a game log and check it."),
    "solve": ("cardgames.cli.solve", "solve_cmd", "Decide whether pairing deals can be won."),
    "batch": ("cardgames.cli.batch", "batch_cmd", "Play many seeded games and report statistics."),
    "stats": ("cardgames.cli.batch", "stats_cmd", "Statistics from batch result files; compare files."),
    "score": ("cardgames.cli.score", "score_cmd", "Score cards with a game's scorer (torqu)."),
    "captures": ("cardgames.cli.captures", "captures_cmd", "List the captures a Turup card can make."),
    "placements": ("cardgames.cli.placements", "placements_cmd", "List where a Harrow card may go on a tower."),
}


#: Where the group keeps the arguments typed after the command's name (``ctx.meta``).
TYPED = "cardgames.typed"


class OneLineUsageError(click.ClickException):
    """A usage error in one line, the command's help named at its end: Click's own prints a
    usage block and a hint around the message, three lines where every other error is one. The
    message is escaped to one line too (a value it quotes may hold a line break)."""

    exit_code = 2

    def __init__(self, message: str, command_path: str):
        from cardgames.engine.wording import one_line  # here, not at import: `--help` loads no engine module

        super().__init__(f"{one_line(message)} (see '{command_path} --help')")


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use, and whose user errors are one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, text) for name, (_, _, text) in COMMANDS.items()])

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                              list[str]]:
        """Click's lookup, with a "did you mean" for a mistyped command name. The command's own
        arguments are kept for :func:`_as_usage_error`: Click's errors do not hold them."""
        name = args[0] if args else ""
        ctx.meta[TYPED] = args[1:]
        if name and name not in COMMANDS and not name.startswith("-"):
            from cardgames.engine.wording import close_names

            close = close_names(name, COMMANDS, 0.6)[:1]  # worded as Click words an option's (--sed: --seed)
            ctx.fail(f"No such command {name!r}." + (f" Did you mean {close[0]!r}?" if close else ""))
        return super().resolve_command(ctx, args)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:  # the group's own options (--configs)
            raise _as_usage_error(exc) from None
        except BrokenPipeError:  # `cardgames --help | head -1`: exit 0 as a command's closed pipe does (Click said 1)
            _silence_stdout()
            raise click.exceptions.Exit(0) from None

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, turning each kind of failure into the CLI's contract: a bad option or a
        CardgamesError is one line and exit 1 or 2, a closed pipe exit 0 (1 if the command had failed
        already), Ctrl-C exit 130, SIGTERM exit 143 (:mod:`.interrupts`), a failed write to stdout one
        line."""
        from cardgames.engine.errors import CardgamesError, OptionConflictError
        from cardgames.engine.wording import one_line

        from .interrupts import Terminated, how_stopped, interrupts_in_finalizers, sigterm_stops

        try:
            with interrupts_in_finalizers(), sigterm_stops():
                return super().invoke(ctx)
        except click.UsageError as exc:
            raise _as_usage_error(exc, " ".join(filter(None, (ctx.command_path, ctx.invoked_subcommand))),
                            ctx.meta.get(TYPED, ())) from None
        except OptionConflictError as exc:
            raise OneLineUsageError(str(exc), f"{ctx.command_path} {ctx.invoked_subcommand}") from None
        except CardgamesError as exc:  # a file name or a log's value may hold a line break or a terminal escape
            raise click.ClickException(one_line(_as_typed(exc, ctx))) from None
        except BrokenPipeError:  # the reader stopped (`cardgames list | head -1`): not an error, unless the
            _silence_stdout()  # command had failed already, its output only saying why (.output.failing)
            from .output import VERDICT, message

            reason = ctx.meta.get(VERDICT)
            if reason:
                message(reason)
            ctx.exit(1 if reason else 0)
        except KeyboardInterrupt as exc:
            from .output import message

            message("Terminated." if isinstance(exc, Terminated) else "Aborted!")
            ctx.exit(how_stopped(exc)[1])
        except OSError as exc:  # every file write says its own path: what is left is stdout (a full disk)
            _silence_stdout()
            raise click.ClickException(f"cannot write the output: {exc.strerror or exc}") from None


def _config_folders(ctx: click.Context, param: click.Parameter, folders: tuple[str, ...]) -> tuple[str, ...]:
    """The extra config folders: ``--configs``, else :data:`CONFIGS_ENV`'s (empty entries skipped, as the
    library's catalog skips them). Each must hold configs where the catalog looks
    (``config.extra_roots``): a wrong one is a usage error, naming where it was given (an error naming
    ``--configs`` for the variable's folder sent the user to an option never typed)."""
    import os

    from cardgames.engine import CONFIGS_ENV, env_config_folders

    given = "--configs"
    if not folders:
        folders = tuple(env_config_folders())
        given = CONFIGS_ENV
        missing = next((folder for folder in folders if not os.path.isdir(folder)), None)
        if missing is not None:
            raise click.UsageError(f"{CONFIGS_ENV}: there is no folder {missing}")
    if not folders:  # the usual case: nothing to import for
        return folders
    from cardgames.engine.config import extra_roots
    from cardgames.engine.errors import ConfigError

    try:
        extra_roots(folders)
    except ConfigError as exc:
        if given == CONFIGS_ENV:
            raise click.UsageError(f"{CONFIGS_ENV}: {exc.message}") from None
        raise click.BadParameter(exc.message, param=param) from None
    return folders


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardgames", prog_name="cardgames")
@click.option("--configs", "config_dirs", multiple=True, metavar="DIR",
              type=click.Path(file_okay=False, exists=True), callback=_config_folders,
              help="Extra config folder (games/, decks/, variants/), searched before the bundled configs. "
                   "Repeatable; without it, the folders in CARDGAMES_CONFIGS (separated as in PATH).")
@click.pass_context
def cli(ctx: click.Context, config_dirs: tuple[str, ...]) -> None:
    """Play, replay, check and analyse Torqu, Turup, Towers and the pairing solitaires.

    Data goes to stdout, messages to stderr. Exit codes: 0 success, 1 a check failed or the input
    was bad, 2 a usage error, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
    """
    ctx.obj = {"config_dirs": config_dirs}


def _as_typed(exc: Exception, ctx: click.Context) -> str:
    """``exc``'s text, the commands it names as the user must type them. The engine names them bare
    (`cardgames validate`); after ``--configs DIR`` the same folders go with them, else `validate` would
    check other configs than the failing command read. An unknown game, when no folder of the user's
    own was read and no bundled name is close, says how to read one (the designer walkthrough's finding:
    nothing pointed there); an unknown variant alike."""
    import shlex

    from cardgames.engine.errors import UnknownNameError

    text = str(exc)
    if ctx.get_parameter_source("config_dirs") is click.core.ParameterSource.COMMANDLINE:
        folders = " ".join(f"--configs {shlex.quote(folder)}" for folder in ctx.obj["config_dirs"])
        return text.replace("`cardgames ", f"`cardgames {folders} ")
    if isinstance(exc, UnknownNameError) and exc.kind in ("game", "variant") and not exc.guessed \
            and not ctx.obj["config_dirs"]:  # a variant too (an analyst's --resume without the folder it was made with)
        text += f"; a {exc.kind} of your own is read with `cardgames --configs DIR {ctx.invoked_subcommand} ...`"
    return text


def _as_usage_error(exc: click.UsageError, command_path: str = "cardgames", typed: Sequence[str] = ()
              ) -> click.ClickException:
    """``exc`` as a :class:`OneLineUsageError`, but for a bare ``cardgames``, which shows the help. Its
    hint names the help of the command the error came with, else of ``command_path`` (Click's parser
    gives an option missing its value no context: the subcommand's help is still the one to read).
    ``typed``, the arguments after the command's name, tells a game given as an argument to a command
    that takes it as ``--game`` (a newcomer's finding: Click's "Missing option" ignored what was typed)."""
    if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())):
        return exc
    text, ctx = exc.format_message(), exc.ctx
    if isinstance(exc, click.NoSuchOption) and exc.option_name == "--game" and ctx is not None \
            and any(param.name == "game_id" and isinstance(param, click.Argument) for param in ctx.command.params):
        text = f"No such option '--game': {ctx.info_name} takes the game as its argument, '{ctx.command_path} GAME ...'"
    elif isinstance(exc, click.MissingParameter) and exc.param is not None and exc.param.name == "game_id" \
            and ctx is not None and typed and not typed[0].startswith("-"):
        import shlex

        text = (f"Missing option '--game': {ctx.info_name} takes the game as an option, "
                f"'{ctx.command_path} --game {shlex.quote(typed[0])} ...'")
    elif isinstance(exc, click.NoSuchOption) and exc.option_name in ("--configs", "--config") and ctx is not None:
        text = (f"No such option {exc.option_name!r} after the command: the config folders go before it, "
                f"'cardgames --configs DIR {ctx.info_name} ...'")
    return OneLineUsageError(text, ctx.command_path if ctx else command_path)


def _silence_stdout() -> None:
    """Point stdout at the null device, so that flushing it at exit does not fail again."""
    import os

    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)


def _discard_messages() -> None:
    """Started with stderr closed (``2>&-``): messages go to the null device, as asked. Python leaves
    ``sys.stderr`` None, on which a command's ``isatty`` failed (``batch`` exited 1 with nothing said), and
    Click then wrote errors to stdout, among the data (a CI persona's findings); and the first file the
    command opened would have become descriptor 2, receiving whatever a library writes there."""
    import os

    try:
        os.fstat(2)
    except OSError:  # descriptor 2 is free: the null device takes it
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 2:
            os.dup2(null, 2)
            os.close(null)
    sys.stderr = open(os.devnull, "w", encoding="utf-8")  # the process's stderr, open until exit


def _say_compiling(text: str) -> None:
    """A note that numba compiles, on a terminal: on a line of its own, a progress bar's line cleared first
    (the bar is drawn again below it)."""
    try:
        sys.stderr.write(f"\r\033[Knote: {text}\n")
        sys.stderr.flush()
    except OSError:
        pass


def main() -> None:
    if sys.stderr is None:
        _discard_messages()
    if sys.stdout is None:  # started with stdout closed (`>&-`): every command's data would be lost
        click.echo("Error: stdout is closed (redirect it to /dev/null to discard the output)", err=True)
        sys.exit(1)
    if sys.stderr.isatty():  # an installation's first Torqu game sat silent for some 17 s, compiling
        from cardgames.engine.compiled import announce

        announce(_say_compiling)
    try:
        cli(prog_name="cardgames")
    except OSError as exc:  # --help or --version into a full disk, before any command runs (Click
        # itself answers a broken pipe there)
        _silence_stdout()
        click.echo(f"Error: cannot write the output: {exc.strerror or exc}", err=True)
        sys.exit(1)
