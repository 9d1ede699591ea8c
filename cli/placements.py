"""``placements``: where a Harrow card may go on a Towers tower (a rules helper and a test hook)."""

from __future__ import annotations

import click

from .options import check_engine, comma_list, format_option, game_option, load_game, variant_option
from .output import emit_json


def parse_played(text: str) -> list[tuple[str, str]]:
    """``"NG=The Rakshasa,LG=The Joke"`` -> ``[("NG", "The Rakshasa"), ("LG", "The Joke")]``."""
    from cardgames.engine.errors import CardgamesError

    pairs = []
    for item in comma_list(text, "--played"):
        pos, sep, name = item.partition("=")
        if not sep or not pos.strip() or not name.strip():
            raise CardgamesError(f"--played: {item!r} is not POSITION=CARD (e.g. NG=The Rakshasa)")
        pairs.append((pos.strip(), name.strip()))
    return pairs


@click.command("placements")
@click.option("--card", required=True, metavar="CARD", help='The card to place, e.g. "The Midwife".')
@click.option("--tower", required=True, metavar="TOWER",
              help='The tower: its suit (Books), ability (Intelligence) or foundation card (The Foreign Trader).')
@click.option("--played", default="", metavar="POS=CARD,...",
              help='Cards already on the tower by position, e.g. "NG=The Rakshasa,LG=The Joke".')
@game_option("The game whose geometry options (adjacency, seating) apply.", default="towers", show_default=True)
@variant_option("Variant to apply (repeatable): a house rule's seating or adjacency.")
@click.option("--side", type=click.Choice(["near", "far"]), default="near", show_default=True,
              help="The side of the player placing the card: under seating: two_sided the far side sees every "
                   "offset negated (positions are still named in the near side's frame).")
@format_option("json", "text")
@click.pass_context
def placements_cmd(ctx: click.Context, card: str, tower: str, played: str, game_id: str,
                   variants: tuple[str, ...], side: str, fmt: str) -> None:
    """List the positions (LG ... CE) where CARD may go on TOWER, as a player on the near side
    (or, with --side far, across) places it. Exit 1 for an unknown card, tower or position, or a layout
    no legal plays make; 2 for a game without towers, or --side far in a game that seats everyone on one side."""
    from cardgames.engine.errors import OptionConflictError

    game = load_game(ctx, game_id, variants)
    check_engine("placements", "Towers games", "towers", game.id, game.spec.engine)
    if side == "far" and not game.far_seats:
        raise OptionConflictError(f"--side far: {game.id} seats every player on the near side (seating: "
                                  f"{game.options['seating']}); a game with seating: two_sided has a far side")
    seat = game.far_seats[0] if side == "far" else 0
    positions, closed = game.placements(card, tower, parse_played(played), seat)
    if fmt == "json":  # closed: why a card fits nowhere, for a script too (a reviewer's finding)
        emit_json({"positions": positions, "closed": closed})
    elif positions:
        click.echo(" ".join(positions))
    else:
        click.echo("(no position: the tower is closed, no card fits it)" if closed
                   else "(no position: the card fits nowhere on this tower)")
