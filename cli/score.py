"""``cardgames score torqu``: the exact best arrangement of cards into Torqu sets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

import click

from .options import check_engine, comma_list, format_option, game_argument, help_from, load_game, variant_option
from .output import emit_json

if TYPE_CHECKING:  # the commands import the engine when they run, not when the CLI starts
    from cardgames.engine.games.torqu.scoring import Scorer


@click.command("score")
@game_argument
@click.option("--cards", default=None, metavar="C,C,...", help="Comma-separated card names (Air-1,Magic-13,...).")
@click.option("--input", "input_file", default=None, type=click.Path(allow_dash=True),
              help="JSON lines {\"cards\": [...]} to score, one result each (- for stdin).")
@variant_option()
@click.option("--budget", type=click.IntRange(1), default=None, metavar="NODES",
              cls=help_from("cardgames.engine.games.torqu.optimise"),
              help="Stop the search after about NODES nodes for each of the two scores and print the best "
                   "arrangement found, \"proven\": false (default: none, the proven optimum however long). "
                   "100,000 nodes take seconds; past {VALUE_NODES:,} a search also asks CP-SAT, for up to "
                   "{CPSAT_EFFORT:g} deterministic seconds (a count of its work, the same on every machine).")
@format_option("json", "jsonl", "text")
@click.pass_context
def score_cmd(ctx: click.Context, game_id: str, cards: str | None, input_file: str | None,
              variants: tuple[str, ...], budget: int | None, fmt: str) -> None:
    """Score cards with GAME's scorer: the tableau score (best sets, proven optimal), the hand
    penalty the same cards would cost, the sets, the cards left out, and whether both scores are
    proven (false only when --budget ran out)."""
    game = load_game(ctx, game_id, variants)
    check_engine("score", "Torqu games", "torqu", game.id, game.spec.engine)
    scorer = game.scorer
    if (cards is None) == (input_file is None):
        raise click.UsageError("give exactly one of --cards or --input")
    if cards is not None:
        names = comma_list(cards, "--cards", "card")
        if not names:  # an empty tableau scores 0; an empty --cards is far likelier an unset shell variable
            raise click.UsageError("--cards is empty: give card names (Air-1,Air-2,...)")
        _emit(scorer, score_names(scorer, names, "--cards", budget), fmt)
        return
    if fmt == "json":  # one JSON document: the list of results, in input order
        emit_json([score_names(scorer, names, where, budget) for where, names in _read_lines(input_file)])
        return
    for where, names in _read_lines(input_file):
        _emit(scorer, score_names(scorer, names, where, budget), fmt)


def score_names(scorer: Scorer, names: list[str], where: str, budget: int | None = None) -> dict[str, Any]:
    """The score of one card list, in the command's output shape; ``where`` (an option or ``file:line``)
    opens any error, so a bad card in a long input is found."""
    from cardgames.engine.errors import CardgamesError

    if len(names) > scorer.most_cards:
        raise CardgamesError(f"{where}: {len(names)} cards, more than the largest personal tableau and dealt hand "
                             f"hold together ({scorer.most_cards}): the exact search is not meant for more")
    try:
        codes = scorer.codes(names)
    except CardgamesError as exc:
        raise CardgamesError(f"{where}: {exc}") from None
    tableau = scorer.tableau_score(codes, budget)
    # the penalty's sets are not printed: without a budget it is a value alone, which a long search may hand to
    # CP-SAT; within one it is what the best sets found score (``Scorer.hand_penalty``)
    penalty, proven = scorer.hand_penalty(codes, budget)
    return {"tableau_score": tableau["score"], "hand_penalty": penalty, "sets": tableau["sets"],
            "leftover": tableau["leftover"], "proven": tableau["proven"] and proven}


#: The longest --input line read (80 card names take about a kilobyte).
MAX_LINE = 64 << 10


def _read_lines(path: str) -> Iterator[tuple[str, list[str]]]:
    """(``file:line``, card names) for each non-blank line of ``path``'s JSON lines. A key given twice is
    refused, as in a log: orjson keeps the last, so a line's first ``cards`` went unscored without a word
    (a CI persona's finding)."""
    import orjson

    from cardgames.engine.errors import CardgamesError
    from cardgames.engine.files import open_input
    from cardgames.engine.jsonkeys import TOO_DEEP, given_twice, read_keyed
    from cardgames.engine.lines import bounded_lines
    from cardgames.engine.schema import is_names
    from cardgames.engine.wording import as_logged

    label, handle = open_input(path)
    with handle:
        for number, line in bounded_lines(handle, MAX_LINE, label, "a {\"cards\": [...]} line"):
            where = f"{label}:{number}"
            if not line.strip():
                continue
            try:
                data = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                deep = str(exc).startswith("depth limit")  # said as the standard library's limit is, below
                raise CardgamesError(f"{where}: {TOO_DEEP if deep else 'not valid JSON (or not UTF-8)'}") from None
            if isinstance(data, dict):  # read again, each key as written
                try:
                    twice = read_keyed(line).twice
                except RecursionError:  # a value orjson's depth admits, the standard library's does not
                    raise CardgamesError(f"{where}: {TOO_DEEP}") from None
                if twice is not None:
                    raise CardgamesError(f"{where}: {given_twice(twice)}")
            if not isinstance(data, dict) or not isinstance(data.get("cards"), list) or not is_names(data["cards"]):
                raise CardgamesError(f"{where}: expected {{\"cards\": [card names]}}")
            other = next((key for key in data if key != "cards"), None)
            if other is not None:  # a line's own "variant" or "budget" would be ignored: the options hold for all
                raise CardgamesError(f"{where}: unknown key {as_logged(other, 40)}: a line holds \"cards\" alone (the "
                                     "command's options apply to every line)")
            yield where, data["cards"]


def _emit(scorer: Scorer, result: dict[str, Any], fmt: str) -> None:
    if fmt == "json":
        emit_json(result)
    elif fmt == "jsonl":
        emit_json(result, pretty=False)
    else:
        click.echo(_text(scorer, result))


def _text(scorer: Scorer, result: dict[str, Any]) -> str:
    """The result for a reader: a Perfect Four names its picture, a card its own name if it has
    one (the Dragons: ``Dragon-9 (Rain Dragon)``)."""
    def card(name: str) -> str:
        title = scorer.title(name)
        return f"{name} ({title})" if title else name

    unproven = "" if result["proven"] else " (the best found: --budget ran out before the proof)"
    lines = [f"tableau score {result['tableau_score']}, hand penalty {result['hand_penalty']}{unproven}"]
    for s in result["sets"]:
        lines.append(f"  {scorer.set_title(s):<28} {s['points']:>4}  {scorer.set_cards(s, card)}")
    lines.append(f"  left out: {' '.join(map(card, result['leftover'])) or '(none)'}")
    return "\n".join(lines)
