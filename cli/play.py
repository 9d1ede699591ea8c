"""``deal``, ``simulate`` and ``replay``: one game at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import agent_option, format_option, game_argument, game_option, game_options, load_game, seed_option
from .output import emit_json, emit_yaml, failing, message

if TYPE_CHECKING:
    from cardgames.engine.core import Game, Playthrough, State


@click.command("deal")
@game_argument
@seed_option
@game_options
@format_option("text", "json", "yaml")
@click.pass_context
def deal_cmd(ctx: click.Context, game_id: str, seed: str, players: int | None, variants: tuple[str, ...],
             rng: str, fmt: str) -> None:
    """Show the deal SEED gives for GAME (stacks bottom to top, stock in dealing order)."""
    game = load_game(ctx, game_id, variants, players)
    state = game.new_state(game.check_seed(seed, rng), rng)
    deal = game.current_deal(state)
    if fmt == "json":
        emit_json(deal)
    elif fmt == "yaml":
        emit_yaml(deal)
    else:
        click.echo(_drawn_deal(game, state))


def _drawn_deal(game: "Game", state: "State") -> str:
    """The deal in play drawn, who dealt it (in a game with a dealer, who rotates: a Turup designer's
    finding, the rounds never said) and who plays first in it: the state knows, by whatever rule the game
    has (a dealer, a card)."""
    drawn = game.render_deal(game.current_deal(state))
    if game.num_players == 1:
        return drawn
    dealt = "" if state.dealer is None else f"\ndealer: player {state.dealer}"
    return f"{drawn}{dealt}\nfirst to play: player {state.current_player}"


@click.command("simulate")
@game_option()
@seed_option
@game_options
@agent_option
@click.option("--matches", "--rounds", "rounds", type=click.IntRange(1), default=None,
              help="Stop after this many matches or rounds (games of several).")
@click.option("--log", "log_path", type=click.Path(), default=None,
              help="Write the JSON log to this file (atomically) instead of stdout ('-': stdout).")
@format_option("json", "jsonl", "text")
@click.pass_context
def simulate_cmd(ctx: click.Context, game_id: str, seed: str, players: int | None, variants: tuple[str, ...],
                 rng: str, agents: tuple[str, ...], rounds: int | None, log_path: str | None, fmt: str) -> None:
    """Play one game with seeded agents; print its JSON log (or narrate it with --format text)."""
    from cardgames.engine.agents import make_agents
    from cardgames.engine.core import play
    from cardgames.engine.files import check_target, write_atomic
    from cardgames.engine.log import build_log, dumps

    if log_path == "-" and fmt == "text":
        raise click.UsageError("--log - puts the log on stdout, where --format text puts the narration: "
                               "give --log a file")
    if log_path is not None:
        check_target(log_path)  # before the game, which may take minutes
    game = load_game(ctx, game_id, variants, players)
    stop = None
    if rounds is not None:
        probe = game.new_state(game.check_seed(seed, rng), rng)
        if probe.rounds_played is None:
            raise click.UsageError(f"--matches/--rounds applies to games of several matches or rounds, "
                                   f"not {game.id}")
        stop = lambda state: state.rounds_played >= rounds  # noqa: E731
    run = play(game, seed, make_agents(agents, game), rng, stop=stop)
    log = build_log(game, run)
    if log_path == "-":  # stdout, where the log goes anyway
        log_path = None
    if log_path is not None:
        write_atomic(log_path, dumps(log, pretty=(fmt != "jsonl")))
        message(f"log written to {log_path}")
    if fmt == "text":
        click.echo(narrate(game, run))
    elif log_path is not None:
        emit_json(log["result"], pretty=False)
    else:
        emit_json(log, pretty=(fmt == "json"))


def narrate(game: "Game", run: "Playthrough", stopped: str = "as asked") -> str:
    """The game told step by step (replayed from the deal, so each line sees its position). A
    game of several deals (rounds, matches) shows each deal where its first action is; one that
    ends before the game does is said to stop there, ``stopped`` saying why (``--matches``, or a
    log that ends there)."""
    from cardgames.engine.log import dumps
    from cardgames.engine.wording import counted

    state = game.new_state(run.seed, run.rng)
    shown = state.rounds_played
    # a deal nobody can play ends at once (a Torqu centre showing no pair): the first told may not be the first
    heading = [] if shown is None else [f"{game.deal_name} {shown + 1}:" + (
        f" (the {counted(shown, 'deal')} before it ended as dealt: nobody could play)" if shown else "")]
    lines = [f"{game.spec.name}, seed {run.seed}, agents {', '.join(run.agents)}", "", *heading,
             _drawn_deal(game, state), ""]
    ended = shown
    for step, (_, action) in enumerate(run.history, 1):
        if state.rounds_played != shown:
            shown = state.rounds_played
            lines += ["", f"{game.deal_name} {shown + 1}:", _drawn_deal(game, state), ""]
        lines.append(f"{step:4d}. {game.describe_action(state, action)}")
        state.apply(action)
        if state.rounds_played != ended:  # the action ended a deal: what it scored
            ended = state.rounds_played
            lines += game.describe_deal_end(state)
    lines.append("")
    if state.is_terminal():
        lines += game.describe_end(state)
    else:  # simulate --matches / --rounds, or a log that ends where they stop (replay refuses it anywhere else)
        lines.append(f"stopped after {game.deal_name} {state.rounds_played}, {stopped}: the game is not over "
                     f"({game.winners_said(state, lead=True)})")
    lines.append("result: " + dumps(state.result(), pretty=False).decode().strip())
    return "\n".join(lines)


@click.command("replay")
@click.argument("log_file", metavar="LOG", type=click.Path(allow_dash=True))
@click.option("--current-config", is_flag=True,
              help="Replay a log made with another config (its config_sha256) under the one found here: do its "
                   "actions still play, to the same result, after a rules change?")
@click.option("--narrate", "narrate_it", is_flag=True,
              help="Once it replays, tell the game step by step, as simulate --format text does (a solver's "
                   "winning line, a log from elsewhere).")
@format_option("text", "json")
@click.pass_context
def replay_cmd(ctx: click.Context, log_file: str, current_config: bool, narrate_it: bool, fmt: str) -> None:
    """Replay LOG (a file, or - for stdin): rebuild the deal from its seed, re-apply every
    action, and check the result. Exit 1 naming the first step that diverges (with --format json,
    also as {"ok": false, "error": ...} on stdout, for a script that reads the verdict there)."""
    from cardgames.engine.errors import CardgamesError, LogError
    from cardgames.engine.files import input_label
    from cardgames.engine.log import read_log, replay
    from cardgames.engine.wording import one_line

    from .options import catalog

    if narrate_it and fmt == "json":
        raise click.UsageError("--narrate tells the game as text: leave out --format json")
    try:
        data = read_log(log_file)  # its errors name the file already
        try:
            report = replay(data, catalog(ctx), current_config)
        except LogError as exc:  # named too, for a script replaying a folder of logs
            raise LogError(f"{input_label(log_file)}: {exc}") from None
    except CardgamesError as exc:
        if fmt == "json":
            failing(f"Error: {exc}")
            emit_json({"ok": False, "error": one_line(str(exc))})
        raise
    if fmt == "json":
        emit_json({"ok": True, "game": report.game, "variants": list(report.variants), "seed": report.seed,
                   "steps": report.steps, "result": report.result, "config_changed": report.config_changed})
    else:
        if narrate_it:
            run = report.playthrough
            click.echo(narrate(run.state.game, run, "where the log ends"))
            click.echo()
        game = " + ".join([report.game, *report.variants])  # as `cardgames list` names a variant's alias
        under = " under a config changed since the log was made" if report.config_changed else ""
        click.echo(f"ok: {game} seed {report.seed}: {report.steps} actions replayed{under}; the deal and the result "
                   "match")
