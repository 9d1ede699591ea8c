"""Rules of the pairing solitaires (Eiffel Tower and its family), driven by config.

The layout is lines of rows; the deal puts one card face up on each row (apex first, left to
right, line by line), then one on the waste; the rest is the stock, turned one card at a time
onto the waste. The waste's top card may go onto a row whose top card pairs with it:

* two cards of one family pair when their values sum to that family's match value
  (``match`` for suited cards, ``family_match`` for others such as Tarock trumps);
* a wild card (``wild: true`` in the deck, the Fool or a Wizard) pairs with every card.

Rows never shrink; ``row_cap`` bounds a row's height (dealt card included); the Strict version
(``strict``) forbids turning the stock while the waste holds ``strict_waste_cap`` cards, and deals
``strict_layout`` instead of ``layout`` when a game gives one (a waste cap can make a layout
hopeless that suits the game without it). The game is won when stock and waste are empty and
lost when no move remains.
"""

from __future__ import annotations

from bisect import insort
from typing import Any, NamedTuple, Sequence

from ... import RNG_MODES, pysolfc
from ...cards import COPY_MARK, stock_line
from ...config import GameSpec
from ...core import Game, State
from ...schema import BOOL, INT, LIST, MAP, OPT_INT, OPT_LIST, Field, positive
from ...wording import counted, spans

OPTIONS = {
    "layout": Field(LIST, "rows in each line of the layout, apex first", items=Field(INT, check=positive)),
    "strict_layout": Field(OPT_LIST, "the Strict version's layout; null for the game's own",
                           items=Field(INT, check=positive)),
    "match": Field(INT, "suited cards pair when their values sum to this (ranks per suit + 1)"),
    "family_match": Field(MAP, "match sums of other card families, e.g. {trump: 22}", open=True,
                          check=lambda m: next((((k,), "values must be integers") for k, v in m.items()
                                                if isinstance(v, bool) or not isinstance(v, int)), None)),
    "row_cap": Field(OPT_INT, "most cards a row may hold, dealt card included; null for no limit", check=positive),
    "strict": Field(BOOL, "the Strict version: the stock cannot be turned while the waste is full"),
    "strict_waste_cap": Field(INT, "the Strict version's waste capacity", check=positive),
}

SUITED = "suit"
WILD = 0  # class 0 is the wild class; real classes start at 1


class Turn(NamedTuple):
    """Turn the stock's next card onto the waste."""


class Play(NamedTuple):
    """Move the waste's top card onto row ``row`` (0-based, apex first)."""

    row: int


TURN = Turn()


class PairingGame(Game["PairingState"]):
    """A pairing solitaire: rule tables derived once from the resolved config."""

    ACTIONS = (Turn, Play)

    def __init__(self, spec: GameSpec):
        super().__init__(spec)
        opts = spec.options
        own = opts["strict_layout"] if opts["strict"] else None  # a Strict version may have its own layout
        self.layout: tuple[int, ...] = tuple(opts["layout"] if own is None else own)
        self.num_rows = sum(self.layout)
        self.row_cap: int | None = opts["row_cap"]
        self.waste_cap: int | None = opts["strict_waste_cap"] if opts["strict"] else None
        self.matches = {SUITED: opts["match"], **dict(opts["family_match"])}
        if self.deck.id in pysolfc.DECKS:
            self.RNG_MODES = RNG_MODES
        self.plays = tuple(Play(r) for r in range(self.num_rows))
        self.card_class, self.accepts, self.partner = self._pair_classes()
        self.has_wilds = any(c == WILD for c in self.card_class)
        # Fast path for the common case (no wild cards, no row cap): the rows a card may go on
        # are exactly those topped by its one partner class (class 0 is empty when there are
        # no wilds, so it stands for "no partner").
        self.simple = not self.has_wilds and self.row_cap is None
        # A waste cap and no row cap: play splits into nested blocks whose effect on the rows does not depend
        # on the waste below them (the solver's block relation, blocks.py, applies).
        self.nested_blocks = self.waste_cap is not None and self.row_cap is None
        self.partner_of = tuple(self.partner[c] for c in self.card_class)

    # The two flags below follow ``has_wilds``, so they are computed, not stored: a copy seen without wild cards
    # (``tame.without_wild_cards``) must not be taken for a game with them.
    @property
    def wild_projections(self) -> bool:
        """Wild cards and no row cap: the block relation of a projection onto a few pairs and every wild card,
        whose loss is the deal's, is worth asking (``blocks.projections_lost``)."""
        return self.has_wilds and self.row_cap is None

    @property
    def wild_blocks(self) -> bool:
        """Nested blocks and wild cards: the solver asks the whole deal's relation first too, within a small
        effort, and the wild-row bound after the search (the report's budget cell says so)."""
        return self.has_wilds and self.nested_blocks

    def _pair_classes(self) -> tuple[tuple[int, ...], tuple[frozenset[int], ...], tuple[int, ...]]:
        """Class of each card code; for each class the row-top classes it may go onto, and its partner
        class, the one whose cards it goes onto and that go onto it (``WILD`` for none, and for the wild
        class itself): the one place the match rule is read, every solver stage takes it from here."""
        keys: dict[tuple[str, int], int] = {}
        card_class = []
        for card in self.deck.cards:
            if card.attrs.get("wild"):
                card_class.append(WILD)
                continue
            key = (card.attrs.get("family", SUITED), card.value)
            card_class.append(keys.setdefault(key, len(keys) + 1))
        partners = [WILD]
        for (family, value), _ in sorted(keys.items(), key=lambda kv: kv[1]):
            partners.append(keys.get((family, self.matches.get(family, 0) - value), WILD))
        accepts = [frozenset(range(len(keys) + 1))] + [frozenset({WILD, p}) for p in partners[1:]]
        return tuple(card_class), tuple(accepts), tuple(partners)

    def pairs(self, top: int, card: int) -> bool:
        """May card ``card`` go onto a row whose top card is ``top``?"""
        return self.card_class[top] in self.accepts[self.card_class[card]]

    def new_state(self, seed: int | str, rng: str = "native") -> "PairingState":
        order = self.shuffled(seed, rng)
        order.reverse()  # the shuffled list's end is the top of the pile
        return PairingState(self, order)

    # -- presentation ------------------------------------------------------------------
    def describe_action(self, state: "PairingState", action: Any) -> str:
        name = self.deck.name
        if type(action) is Turn:
            return f"turn {name(state.stock[state.next])} onto the waste"
        row = state.rows[action.row]
        return f"play {name(state.waste[-1])} onto row {action.row + 1} (on {name(row[-1])})"

    def describe_end(self, state: "PairingState") -> list[str]:
        """Won, or why not: the stock used up (or, Strict, the waste at its cap) and the waste's top card
        fitting no row, or only full ones."""
        if state.won():
            return ["won: every card is on a row"]
        card = state.waste[-1]  # lost with an empty waste is lost with the stock to turn: never
        fitting = [r for r, row in enumerate(state.rows) if self.pairs(row[-1], card)]
        fits = f"goes only onto full rows (row cap {self.row_cap})" if fitting else "fits no row"
        stuck = ("the stock is used up" if state.next == len(state.stock) else
                 f"the waste holds {counted(self.waste_cap, 'card')}, its cap, so the stock cannot be turned")
        return [f"lost: {stuck}, and the waste's top card, {self.deck.name(card)}, {fits} "
                f"({counted(state.cards_left(), 'card')} left)"]

    def render_deal(self, deal: dict[str, Any]) -> str:
        tops = [row[-1] if row else "--" for row in deal["rows"]]
        width = max(len(t) for t in tops) + 2
        widest = max(self.layout) * width
        lines, start = [], 0
        for count in self.layout:
            cells = "".join(t.center(width) for t in tops[start:start + count])
            lines.append(cells.center(widest).rstrip())
            start += count
        # how to read the drawing, for the narration's "row 51" and "QH#2" (a teacher's finding)
        copies = self.spec.copies
        deck = "2" if copies == 2 else f"N (2-{copies})"
        marks = f"; a card's copy in deck {deck} is marked {COPY_MARK}{deck[0]}" if copies > 1 else ""
        lines.append(f"(rows 1-{len(tops)}, line by line from the top, left to right{marks})")
        lines.append("")
        lines.append(f"waste: {' '.join(deal['waste']) or '(empty)'}")
        lines.append(stock_line(deal["stock"], "turned"))
        return "\n".join(lines)


class PairingState(State[PairingGame]):
    """Rows, waste and stock of one pairing game in progress.

    ``by_top[c]`` lists (ascending) the rows whose top card is of class ``c``, so the legal
    plays are found without scanning every row.
    """

    __slots__ = ("game", "dealt", "rows", "tops", "by_top", "waste", "stock", "next", "num_plays", "num_turns",
                 "_legal", "current_player")

    def __init__(self, game: PairingGame, order: list[int]):
        self.game = game
        self.dealt = tuple(order)
        n = game.num_rows
        self.num_plays = 0
        self.num_turns = 0
        self.place([[order[i]] for i in range(n)], [order[n]], order[n + 1:])

    def place(self, rows: list[list[int]], waste: list[int], stock: list[int]) -> None:
        """Put the cards as given (each list bottom first; the stock in turning order, its next card
        first), and derive the rest: what tops each row and what may be played. The deal uses it, and
        so do the solver's positions built from another (:mod:`.tame`)."""
        self.rows, self.waste, self.stock, self.next = rows, waste, stock, 0
        self.tops = [self.game.card_class[row[-1]] for row in rows]
        self.by_top: list[list[int]] = [[] for _ in self.game.accepts]
        for r, c in enumerate(self.tops):
            self.by_top[c].append(r)
        self._update()

    def legal_actions(self) -> list:
        return self._legal

    def _update(self) -> None:
        """Recompute the legal actions (and so whose turn it is) after the position changed."""
        game = self.game
        waste = self.waste
        if waste and game.simple:
            plays = game.plays
            legal = [plays[r] for r in self.by_top[game.partner_of[waste[-1]]]]
        elif waste:
            by_top = self.by_top
            accepts = game.accepts[game.card_class[waste[-1]]]
            if len(accepts) == 2 and not by_top[WILD]:
                rows = [r for c in accepts for r in by_top[c]]  # one partner class: already sorted
            else:
                rows = sorted(r for c in accepts for r in by_top[c])
            cap = game.row_cap
            if cap is not None:
                heights = self.rows
                rows = [r for r in rows if len(heights[r]) < cap]
            plays = game.plays
            legal = [plays[r] for r in rows]
        else:
            legal = []
        if self.next < len(self.stock) and (game.waste_cap is None or len(waste) < game.waste_cap):
            legal.append(TURN)
        self._legal = legal
        self.current_player = 0 if legal else None

    def apply(self, action: Any) -> None:
        if action not in self._legal:
            raise self.illegal(action)
        if action is TURN or type(action) is Turn:
            self.waste.append(self.stock[self.next])
            self.next += 1
            self.num_turns += 1
        else:
            row = action.row
            card = self.waste.pop()
            self.rows[row].append(card)
            old, new = self.tops[row], self.game.card_class[card]
            if old != new:
                self.tops[row] = new
                self.by_top[old].remove(row)
                insort(self.by_top[new], row)
            self.num_plays += 1
        self._update()

    def cards_left(self) -> int:
        return len(self.stock) - self.next + len(self.waste)

    def won(self) -> bool:
        return self.cards_left() == 0

    def returns(self) -> list[float]:
        return [1.0 if self.won() else 0.0]

    def result(self) -> dict[str, Any]:
        return {"won": self.won(), "cards_left": self.cards_left(), "plays": self.num_plays, "turns": self.num_turns}

    def deal_json(self) -> dict[str, Any]:
        names = self.game.deck.names
        n = self.game.num_rows
        return {"rows": [[names[self.dealt[i]]] for i in range(n)], "waste": [names[self.dealt[n]]],
                "stock": [names[c] for c in self.dealt[n + 1:]]}

    def snapshot(self) -> dict[str, Any]:
        names = self.game.deck.names
        return {"rows": [[names[c] for c in row] for row in self.rows], "waste": [names[c] for c in self.waste],
                "stock": [names[c] for c in self.stock[self.next:]]}

    def all_cards(self) -> list[int]:
        return [c for row in self.rows for c in row] + self.waste + self.stock[self.next:]

    def clone(self) -> "PairingState":
        other = PairingState.__new__(PairingState)
        other.game, other.dealt = self.game, self.dealt
        other.rows = [list(r) for r in self.rows]
        other.tops, other.waste, other.stock = list(self.tops), list(self.waste), self.stock
        other.by_top = [list(rows) for rows in self.by_top]
        other.next, other.num_plays, other.num_turns = self.next, self.num_plays, self.num_turns
        other._legal, other.current_player = list(self._legal), self.current_player
        return other


def _match_problem(values: set[int | None], match: int, cards: str, unvalued: Sequence[str]) -> str | None:
    """Why ``match`` cannot pair the values ``values`` (the seed's rule: a value pairs with match
    minus itself, so with values 1..R the match is R + 1: the lowest plus the highest value), or
    None. Every value must have its partner, else its cards could never be placed. ``unvalued`` names
    the cards without a value (a designer's Jesters without ``wild: true`` were "some of the suited cards")."""
    if unvalued:
        more = f" and {len(unvalued) - 1} more" if len(unvalued) > 1 else ""
        return (f"card {unvalued[0]!r}{more} {'have' if more else 'has'} no value: every card pairs by its value, "
                "save a wild one (wild: true)")
    low, high = min(values), max(values)
    alone = sorted(v for v in values if low + high - v not in values)
    if alone:  # no match value pairs them all: the deck is at fault, not the match (a designer's typo there)
        said = f"{cards} have the values {spans(sorted(values))}, which no match value pairs"
        typo = _one_typo(values, match)
        if typo is not None:
            kept = ", the match given" if typo[2] == match else ""
            return f"{said}: is value {typo[0]} a typo? With {typo[1]} in its place they all pair to {typo[2]}{kept}"
        return (f"{said}: no card has the value {low + high - alone[0]} that value {alone[0]} would pair with (is a "
                "value in the deck wrong?)")
    if match != low + high:
        return f"{cards} run from {low} to {high}, so their match value must be {low + high}"
    return None


def _one_typo(values: set[int], given: int) -> tuple[int, int, int] | None:
    """(wrong, right, match) when changing the one value ``wrong`` to ``right`` would let ``match`` pair all of
    ``values`` and no other single change would, else None: a rank's 7 typed as 17 was met with "no card has the
    value 16 that value 2 would pair with", sending the designer to the 2 (an audit's finding). A change that
    lets the game's own match, ``given``, pair them comes first, if there is one only: a 9 typed as 10 (values
    1-8, 10 under match 10) was read as a 1 that should be a 9, pairing to 12 (a designer's finding)."""
    lowest = min(1, min(values))  # no value below the deck's own or 1: a 0 would "fix" almost anything
    keeping = []
    # with one value alone missing under the game's match, a rank that took another's value (the French 5s typed
    # 4) is likelier than a change of a value present: no guess here, and the caller names the value missing
    if len({given - v for v in values} - values) != 1:
        for wrong in values:
            rest = values - {wrong}
            missing = {given - v for v in rest} - rest
            if len(missing) == 1:
                right = missing.pop()
                if right >= lowest and given - right in rest | {right}:
                    keeping.append((wrong, right, given))
    if len(keeping) == 1:
        return keeping[0]
    found = []
    for wrong in values:
        rest = values - {wrong}
        if not rest:
            continue
        match = min(rest) + max(rest)
        missing = {match - v for v in rest} - rest
        if len(missing) == 1:
            right = missing.pop()
            if min(rest) <= right <= max(rest):
                found.append((wrong, right, match))
    return found[0] if len(found) == 1 else None


def check_config(spec: GameSpec) -> list[str | tuple[tuple, str]]:
    """Semantic checks for ``validate``: one player, the match value fits the deck, the deal fits
    the deck."""
    from ...cards import Deck

    deck = Deck(spec.deck, spec.copies)
    errors = []
    opts = spec.options
    values: dict[str, set[int | None]] = {}
    unvalued: dict[str, list[str]] = {}
    for c in deck.cards:
        if not c.attrs.get("wild"):
            family = c.attrs.get("family", SUITED)
            values.setdefault(family, set()).add(c.value)
            if c.value is None and c.copy == 0:
                unvalued.setdefault(family, []).append(c.name)
    if SUITED in values:
        problem = _match_problem(values[SUITED], opts["match"], "the suited cards", unvalued.get(SUITED, ()))
        if problem:
            errors.append((("options", "match"), f"options.match is {opts['match']} but in deck {deck.id} {problem}"))
    for family in sorted(set(values) - {SUITED} - set(opts["family_match"])):
        errors.append((("options", "family_match"), f"cards of family {family!r} have no match value in "
                       "options.family_match"))
    for family, match in sorted(opts["family_match"].items()):
        if family not in values:
            errors.append((("options", "family_match", family),
                           f"options.family_match names family {family!r}, which no card of deck {deck.id} has"))
        else:
            problem = _match_problem(values[family], match, f"the {family} cards", unvalued.get(family, ()))
            if problem:
                errors.append((("options", "family_match", family),
                               f"options.family_match.{family} is {match} but {problem}"))
    if spec.players != 1:
        errors.append((("players",), f"a pairing game is a solitaire: it seats 1 player, not {spec.players}"))
    for key in ("layout", "strict_layout"):
        layout = opts[key]
        if layout is None:
            continue
        rows, cap = sum(layout), opts["row_cap"]
        name = "layout" if key == "layout" else "Strict version's layout"
        if not layout:  # the schema has seen that each line holds a row or more
            errors.append((("options", key), f"options.{key} needs at least one line"))
        elif rows + 1 > len(deck):
            errors.append((("options", key), f"the {name} has {rows} rows, so the deal needs {rows + 1} cards (one "
                           f"on each row and one on the waste), but the deck holds only {len(deck)}"))
        elif cap is not None and rows * cap < len(deck):  # a win puts every card on a row
            # blamed on the cap, the value a variant tightening a game sets (validate names its file then)
            errors.append((("options", "row_cap"), f"the {name}'s {rows} rows hold at most {rows * cap} cards "
                           f"(options.row_cap {cap}), fewer than the deck's {len(deck)}: no deal can be won"))
        elif cap is not None and not errors:
            short = _pairs_short(PairingGame(spec), rows)
            if short:
                errors.append((("options", "row_cap"), f"the {name}'s {rows} rows cannot take every card under "
                               f"options.row_cap {cap}: {short}: no deal can be won"))
    # A cap past the deck limits nothing, and the solver sizes tables by it (a config fuzzer's 2^31: MemoryError)
    for key, instead in (("row_cap", "null for no limit"), ("strict_waste_cap", f"at most {len(deck)}")):
        if opts[key] is not None and opts[key] > len(deck):
            errors.append((("options", key), f"options.{key} is {opts[key]}, more than the deck's {len(deck)} "
                                             f"cards: write {instead}"))
    return errors


def pair_groups(game: PairingGame) -> list[tuple[int, ...]]:
    """The pairs of classes that go onto each other (a class without a partner alone), in class order."""
    partner = game.partner
    return sorted({tuple(sorted({c, partner[c]} - {WILD})) for c in range(1, len(partner))})


def _pairs_short(game: PairingGame, rows: int) -> str | None:
    """Why ``rows`` rows under the game's row cap cannot take every card of a game without wild cards, pair by
    pair, or None. A row only ever takes the cards of its dealt card's pair, its top alternating between the pair's
    two classes (one, for a class that pairs with itself), so a pair needs rows enough for its cards (the cap's
    worth a row) and for each class's (half the cap's worth a row, rounded up); the deal decides which pair a row
    is, but no deal gives the pairs more rows than the layout has. Rows x cap >= cards is not enough: a designer's
    game of five pairs, four of 12 cards and one of 6, on 8 rows of 8 passed, and every deal was lost (an audit's
    finding). With wild cards a row can change pairs, and only the cards' total is checked."""
    if game.has_wilds:
        return None
    counts = [0] * len(game.partner)
    for cls in game.card_class:
        counts[cls] += 1
    cap, half = game.row_cap, -(-game.row_cap // 2)
    needs: dict[int, int] = {}  # rows a pair needs -> how many pairs need that many
    for group in pair_groups(game):  # a class that pairs with itself fills whole rows; two classes alternate
        need = -(-sum(counts[c] for c in group) // cap)
        if len(group) > 1:
            need = max(need, *(-(-counts[c] // half) for c in group))
        needs[need] = needs.get(need, 0) + 1
    total = sum(need * pairs for need, pairs in needs.items())
    if total <= rows:
        return None
    said = ", ".join(f"{counted(pairs, 'pair')} {counted(need, 'row')} {'each' if pairs > 1 else ''}".rstrip()
                     for need, pairs in sorted(needs.items(), reverse=True))
    return f"a row takes only its own pair's cards, and the pairs need {total} rows ({said})"


def deal_facts(spec: GameSpec) -> dict[str, Any]:
    """Shown by ``validate --facts``: rows dealt (the Strict version's own layout where it has one),
    cards, the stock left after the deal (a card on each row and one on the waste), what the rows
    can hold under the row cap (null: no cap) and the waste cap (null: not Strict)."""
    game = PairingGame(spec)
    cards = len(game.deck)
    return {"rows": game.num_rows, "cards": cards, "stock_after_deal": cards - game.num_rows - 1,
            "row_room": None if game.row_cap is None else game.num_rows * game.row_cap, "waste_cap": game.waste_cap}


GAME = PairingGame
