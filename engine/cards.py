"""Cards and decks, built from ``configs/decks/*.yaml``.

A deck config lists suits and ranks (their product is the suited cards) and/or explicit
``cards`` (trumps, wilds, named cards such as the Harrow deck's). A game uses ``copies``
physical decks; each physical card gets a small integer code (its index in creation order:
deck by deck, then suit by suit, rank by rank, then the explicit cards), which is what states
store. Names are unique: the first copy of a card keeps its plain name (``QH``), later copies
add ``#2``, ``#3``, ... (``QH#2``).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .errors import CardgamesError, ConfigError
from .wording import clip, did_you_mean

if TYPE_CHECKING:
    from .yamlfile import Document

COPY_MARK = "#"


def copy_name(face: str, copy: int) -> str:
    """The name of copy ``copy`` (0 for the first deck) of the card named ``face``: ``AH``, ``AH#2``, ..."""
    return face if copy == 0 else f"{face}{COPY_MARK}{copy + 1}"


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card."""

    code: int
    name: str
    face: str
    copy: int
    suit: str | None = None
    rank: str | None = None
    value: int | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict)
    #: Where the deck file defines the card's own keys: ``("cards", i)``, or ``("ranks", j)`` for a card a
    #: template makes, so that a problem with one card is said at the deck's line, not at a game's
    at: tuple = ()


class Deck:
    """The physical cards of a game: ``copies`` decks of one deck config."""

    def __init__(self, config: Mapping[str, Any], copies: int = 1):
        self.id: str = config["id"]
        self.copies = copies
        self.suits: dict[str, Mapping[str, Any]] = {s["id"]: s for s in config.get("suits", [])}
        self.ranks: dict[str, Mapping[str, Any]] = {r["id"]: r for r in config.get("ranks", [])}
        faces = list(_faces(config))
        cards = []
        for copy in range(copies):
            for face in faces:
                cards.append(Card(code=len(cards), name=copy_name(face["name"], copy), face=face["name"], copy=copy,
                                  suit=face.get("suit"), rank=face.get("rank"), value=face.get("value"),
                                  attrs=face["attrs"], at=face["at"]))
        self.cards: tuple[Card, ...] = tuple(cards)
        self.names: tuple[str, ...] = tuple(c.name for c in cards)
        self.by_name: dict[str, Card] = {c.name: c for c in cards}
        if len(self.by_name) != len(cards):
            twice = next(name for i, name in enumerate(self.names) if name in self.names[:i])
            raise CardgamesError(f"deck {self.id!r}: two cards are named {twice!r}")

    def __len__(self) -> int:
        return len(self.cards)

    def name(self, code: int) -> str:
        return self.names[code]

    def code(self, name: str, plain: bool = False) -> int:
        """The code of the card called ``name``; a clear error for an unknown name. ``plain``:
        the caller takes only first copies' names (a repeated name is its next copy), so only
        those are suggested."""
        card = self.by_name.get(name.strip())
        if card is None:
            names = [n for n in self.by_name if not plain or COPY_MARK not in n]
            offered = set(names)
            by_value = {f"{c.value}{c.suit}".upper(): c.name for c in self.cards  # 10S for TS, 1S for AS
                        if c.value is not None and c.suit is not None and c.name in offered}
            written = by_value.get(name.strip().upper())
            hint = f"; did you mean {written!r}?" if written else did_you_mean(name.strip(), names, 0.6)
            raise CardgamesError(f"unknown card {clip(name)} in the {self.id} deck{hint}")
        return card.code

    def codes(self, names: Iterable[str]) -> list[int]:
        return [self.code(n) for n in names]


def stock_line(names: Sequence[str], verb: str, shown: int = 8, sep: str = " ") -> str:
    """``stock: N cards, <verb> in this order: A B C ...``: how every game's deal drawing
    shows its face-down pile (the first ``shown`` cards, then an ellipsis)."""
    preview = sep.join(names[:shown]) + (f"{sep}..." if len(names) > shown else "")
    return f"stock: {len(names)} cards, {verb} in this order: {preview}"


#: A suited card's name when the deck gives no ``card_name``: rank then suit (``QH``).
DEFAULT_CARD_NAME = "{rank}{suit}"


def _name_fields(suit: Mapping[str, Any], rank: Mapping[str, Any]) -> dict[str, Any]:
    """What a deck's ``card_name`` template may use to name the card of ``rank`` in ``suit``."""
    return {"rank": rank["id"], "suit": suit["id"], "value": rank.get("value"),
            "rank_name": rank.get("name", rank["id"]), "suit_name": suit.get("name", suit["id"])}


#: The most digits of a width or precision in a ``card_name`` field: a name needs no more, and a
#: width of a billion asked Python for gigabytes of spaces.
SPEC_DIGITS = 2


def card_name_problem(config: Mapping[str, Any]) -> str | None:
    """Why the deck ``config``'s ``card_name`` template cannot name cards (an unknown field, a
    bad brace, a field that reaches into an object or asks for a huge width...), or None: its
    fields are read with :class:`string.Formatter`, then it is tried on a sample card, with values
    of the fields' own types."""
    template = config.get("card_name", DEFAULT_CARD_NAME)
    fields = _name_fields({"id": "S", "name": "Spades"}, {"id": "A", "name": "Ace", "value": 1})
    known = ", ".join("{" + f + "}" for f in fields)
    try:
        for _, name, spec, conversion in string.Formatter().parse(template):
            if name is None:
                continue
            if name not in fields or conversion is not None:
                written = "{" + name + (f"!{conversion}" if conversion else "") + "}"
                return f"card_name {template!r} has a field {written}; its fields are {known} (no attribute, " \
                       f"index or !conversion)"
            if "{" in spec or any(len(d) > SPEC_DIGITS for d in re.findall(r"\d+", spec)):
                return (f"card_name {template!r} asks field {{{name}}} for the format {spec!r}; a width or "
                        f"precision has at most {SPEC_DIGITS} digits, and no field nests in another")
        template.format(**fields)
    except (KeyError, IndexError, AttributeError, ValueError, TypeError) as exc:
        return f"card_name {template!r} cannot name cards ({type(exc).__name__}: {exc}); its fields are {known}"
    return None


def _faces(config: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """The cards of one deck, in creation order, each a dict with name, suit, rank, value, attrs, at."""
    template = config.get("card_name", DEFAULT_CARD_NAME)
    problem = card_name_problem(config)
    if problem:
        raise CardgamesError(f"deck {config.get('id')}: {problem}")
    for suit in config.get("suits", []):
        for j, rank in enumerate(config.get("ranks", [])):
            attrs = {k: v for k, v in rank.items() if k not in ("id", "name", "value")}
            yield {"name": template.format(**_name_fields(suit, rank)), "suit": suit["id"], "rank": rank["id"],
                   "value": rank.get("value"), "attrs": attrs, "at": ("ranks", j)}
    for i, card in enumerate(config.get("cards", [])):
        attrs = {k: v for k, v in card.items() if k not in ("name", "suit", "rank", "value")}
        yield {"name": card["name"], "suit": card.get("suit"), "rank": card.get("rank"),
               "value": card.get("value"), "attrs": attrs, "at": ("cards", i)}


#: A deck's named items: each list, and the key naming its items (each name used once, and free of the copy mark).
_NAMED = (("suits", "id"), ("ranks", "id"), ("cards", "name"))


def check_deck(doc: Document) -> list[ConfigError]:
    """A deck file's problems, at their lines. ``validate`` lists them; ``load_game`` stops on the
    first, so that an engine never meets a deck it cannot build (an empty one ended in a traceback)."""
    problem = card_name_problem(doc.data)
    if problem:
        return [doc.error(("card_name",), problem)]
    repeats = []
    for key, name in _NAMED:
        seen: set[str] = set()
        for i, item in enumerate(doc.data.get(key, [])):
            if item[name] in seen:
                repeats.append(doc.error((key, i, name), f"{key[:-1]} {name} {item[name]!r} is used twice"))
            seen.add(item[name])
    if repeats:
        return repeats
    # Ranks alone make no card (suits alone are the explicit cards' suits, as in Harrow): the game taking such a
    # deck was refused at its own lines, for a deal too big for the deck
    if doc.data.get("ranks") and not doc.data.get("suits"):
        return [doc.key_error(("ranks",), "the deck lists ranks but no suits, so the ranks make no card (its suited "
                                          "cards are each suit's ranks)")]
    suits = [suit["id"] for suit in doc.data.get("suits", [])]
    strays = [doc.error(("cards", i, "suit"), f"card {card['name']!r} has suit {card['suit']!r}, which is not one of "
                        f"the deck's suits ({', '.join(suits)}){did_you_mean(card['suit'], suits, 0.6)}")
              for i, card in enumerate(doc.data.get("cards", []))
              if suits and "suit" in card and card["suit"] not in suits]
    if strays:  # a misspelt suit makes a card that no rule about its suit reaches, and no error showed it
        return strays
    marked = [doc.error((key, i, name), f"{key[:-1]} {name} {item[name]!r} holds {COPY_MARK!r}, which marks a card's "
                        f"copy in a game of several decks (AH{COPY_MARK}2): two cards could be named alike")
              for key, name in _NAMED
              for i, item in enumerate(doc.data.get(key, [])) if COPY_MARK in str(item[name])]
    if marked:
        return marked
    try:
        deck = Deck(doc.data)
    except (CardgamesError, KeyError, ValueError) as exc:  # the template names two cards alike, ...
        return [doc.error(("card_name",) if "card_name" in doc.data else (), f"cannot build the deck: {exc}")]
    if not len(deck):
        return [doc.error((), "the deck has no cards")]
    if any(COPY_MARK in name for name in deck.names):
        return [doc.error(("card_name",), f"card_name makes names holding {COPY_MARK!r}, which marks a card's copy "
                                          f"in a game of several decks: two cards could be named alike")]
    return []
