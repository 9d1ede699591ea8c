"""``captures``: every capture a Turup card can make on a given community pile."""

from __future__ import annotations

import click

from .options import catalog, check_engine, comma_list, format_option, game_option, load_game, variant_option
from .output import emit_json


@click.command("captures")
@click.option("--card", required=True, metavar="CARD", help="The card played, e.g. 5S (tens are T: TS).")
@click.option("--table", default="", metavar="CARDS",
              help="The community pile, comma-separated, e.g. 3C,2D,KS,5H; a name may repeat (several decks).")
@game_option("The game whose capture rules and deck apply: Turup, or a designer's own Turup game.",
             default="turup", show_default=True)
@variant_option("Turup variant to apply (repeatable).")
@format_option("json", "text")
@click.pass_context
def captures_cmd(ctx: click.Context, card: str, table: str, game_id: str, variants: tuple[str, ...],
                 fmt: str) -> None:
    """List every capture CARD can make on the community pile TABLE, as the game lists them
    (one per set of ranks taken; the cards shown are those the game would pick). Exit 2 for a game
    that is not Turup's."""
    from cardgames.engine.games.turup.rules import captures_on

    cat = catalog(ctx)
    gid, _ = cat.lookup(game_id)  # an alias's game: its engine and players, before the game is built once
    config = cat.game(gid)
    # any Turup game, as placements takes any Towers game (a designer's finding: Turup's alone)
    check_engine("captures", "Turup games", "turup", gid, config["engine"])
    # at the most players, so that the table may hold as many copies of a card as the game ever uses
    game = load_game(ctx, game_id, variants, config["players"]["max"])
    found = captures_on(game, card.strip(), comma_list(table, "--table", "card"), ("--card", "--table"))
    if fmt == "json":
        emit_json({"captures": found})
    elif found:
        click.echo("\n".join(" ".join(capture) for capture in found))
    else:
        click.echo("(no capture: the card can only be trailed)")
