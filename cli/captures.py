"""``captures``: every capture a Turup card can make on a given community pile."""

from __future__ import annotations

import click

from .options import comma_list, format_option, load_game, variant_option
from .output import emit_json


@click.command("captures")
@click.option("--card", required=True, metavar="CARD", help="The card played, e.g. 5S (tens are T: TS).")
@click.option("--table", default="", metavar="CARDS",
              help="The community pile, comma-separated, e.g. 3C,2D,KS,5H; a name may repeat (several decks).")
@variant_option("Turup variant to apply (repeatable).")
@format_option("json", "text")
@click.pass_context
def captures_cmd(ctx: click.Context, card: str, table: str, variants: tuple[str, ...], fmt: str) -> None:
    """List every capture CARD can make on the community pile TABLE, as the game lists them
    (one per set of ranks taken; the cards shown are those the game would pick)."""
    from cardgames.engine.games.turup.rules import captures_on

    game = load_game(ctx, "turup", variants, _most_decks(ctx))
    found = captures_on(game, card.strip(), comma_list(table, "--table", "card"))
    if fmt == "json":
        emit_json({"captures": found})
    elif found:
        click.echo("\n".join(" ".join(capture) for capture in found))
    else:
        click.echo("(no capture: the card can only be trailed)")


def _most_decks(ctx: click.Context) -> int:
    """The largest player count, so that the table may hold as many copies of a card as Turup uses."""
    from .options import catalog

    return catalog(ctx).game("turup")["players"]["max"]
