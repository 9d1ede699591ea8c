"""``cardgames list`` and ``cardgames show``: what games exist and how they are configured."""

from __future__ import annotations

import click

from cardgames.engine.config import KINDS
from cardgames.engine.errors import ConfigError

from .options import catalog, format_option, game_argument, load_game, players_option, variant_option
from .output import emit_json, emit_rows, emit_yaml, message


@click.command("list")
@click.argument("what", metavar="[KIND]", required=False, type=click.Choice(KINDS))
@click.option("--kind", type=click.Choice(KINDS), default=None, help="What to list (default: games).")
@format_option("table", "json", "jsonl", "csv", "yaml")
@click.pass_context
def list_cmd(ctx: click.Context, what: str | None, kind: str | None, fmt: str) -> None:
    """List games (with their aliases), decks or variants: KIND or --kind, games by default
    (`cardgames list variants` as `cardgames list --kind variants`)."""
    if what is not None and kind is not None and what != kind:
        raise click.UsageError(f"list {what} or list --kind {kind}: give one kind")
    kind = what or kind or "games"
    cat = catalog(ctx)
    unread: list[ConfigError] = []
    readable = cat.readable(kind, unread)
    if kind == "games":
        from cardgames.engine.config import copies_for, game_title

        rows = []
        for gid, game in readable:
            players = game["players"]
            count = str(players["min"]) if players["min"] == players["max"] else f"{players['min']}-{players['max']}"
            copies = sorted({copies_for(game["deck"], n) for n in range(players["min"], players["max"] + 1)})
            decks = str(copies[0]) if len(copies) == 1 else f"{copies[0]}-{copies[-1]}"  # Turup: 1-3 by players
            row = {"id": gid, "name": game["name"], "family": game["family"],
                   "deck": f"{decks} x {game['deck']['type']}", "players": count,
                   "variants": cat.game_variants(gid), "alias_of": None}
            rows.append(row)
            for alias, meanings in cat.aliases.items():
                target, variants = meanings[0]
                if len(meanings) == 1 and target == gid:  # an alias of several meanings names none (lookup)
                    title = game_title(game["name"], [cat.variant(v) for v in variants])
                    rows.append({**row, "id": alias, "name": title, "variants": [],
                                 "alias_of": f"{gid} + {' + '.join(variants)}"})
        emit_rows(rows, fmt)
        refused = sorted(alias for alias, meanings in cat.aliases.items() if len(meanings) > 1)
        if refused:  # said, not only left out: `show` and every command refuse them
            shown = ", ".join(refused[:3]) + (f" and {len(refused) - 3} more" if len(refused) > 3 else "")
            message(f"note: not listed, as each names more than one game or variant: {shown} "
                    "(`cardgames validate` shows the templates that clash)")
        for broken in cat.unread_variants:  # said, not only left out; the listing itself still works
            message(f"note: not listed, as it cannot be read: {broken}")
    elif kind == "decks":
        from cardgames.engine.cards import Deck

        emit_rows([{"id": did, "name": deck["name"], "cards": len(Deck(deck)),
                    "suits": len(deck.get("suits", [])), "ranks": len(deck.get("ranks", [])),
                    "designed_by_project": bool(deck.get("designed_by_project", False))}
                   for did, deck in readable], fmt)
    else:
        emit_rows([{"id": vid, "name": v["name"], "applies_to": v["applies_to"],
                    "aliases": v.get("aliases", []), "description": v.get("description", "")}
                   for vid, v in readable], fmt)
    if unread:  # the others were listed (a designer's finding: one broken file in a --configs folder listed
        raise unread[0]  # nothing); the command then fails on the first it could not read


@click.command("show")
@game_argument
@variant_option()
@players_option
@format_option("yaml", "json")
@click.pass_context
def show_cmd(ctx: click.Context, game_id: str, variants: tuple[str, ...], players: int | None, fmt: str) -> None:
    """Show GAME's resolved config: options after variants, deck, players, agents and config hash.
    "variants" are those applied, "available_variants" those --variant takes. In YAML each option is
    preceded by a comment saying what it means."""
    from cardgames.engine.agents import agent_names
    from cardgames.engine.registry import engine_module

    game = load_game(ctx, game_id, variants, players)
    spec = game.spec
    data = {}
    for key, value in spec.canonical().items():
        data[key] = value
        if key == "variants":
            data[key] = list(spec.variants)  # as applied (the hash sorts them): a later one's option wins
            # and beside them what --variant takes, as `list` shows it (a designer read the plain game's
            # "variants: []" as its file's own list lost)
            data["available_variants"] = catalog(ctx).game_variants(spec.id)
    data["deck"] = {"id": game.deck.id, "name": spec.deck["name"], "copies": spec.copies, "cards": len(game.deck)}
    del data["game"], data["copies"]
    paths = catalog(ctx).paths
    data = {"id": spec.id, "name": spec.name, "family": spec.family, **data,
            "agents": agent_names(game),  # what `--agent` takes: no other command lists them
            "config_sha256": spec.sha256,
            "file": str(paths("games")[spec.id]),  # the file a designer copies to change the game
            # and the others the resolved config was read from (a designer's finding: only the game's was named)
            "deck_file": str(paths("decks")[game.deck.id]),
            "variant_files": [str(paths("variants")[v]) for v in spec.variants]}
    if fmt == "json":
        emit_json(data)
    else:
        schema = engine_module(spec.engine).OPTIONS
        emit_yaml(data, comments={("options", key): field.doc for key, field in schema.items()})
