"""Torqu scoring: a tableau's best arrangement into sets, and the hand penalty.

Card identities come from the deck config (suit, number, picture = the suit's block of four
numbers; in the Dragons variant a Dragon card also has the picture it is named for). The
optimisation itself is in :mod:`.optimise`; this module turns its packing into named sets.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ...cards import Deck
from ...errors import CardgamesError
from ...schema import is_names
from .layout import capacity_total
from .optimise import pack, pack_value
from .sets import KINDS, PERFECT_FOUR, SET_SIZE, Ident, Pictures, Points, complete, kind_title


def most_cards(options: Mapping[str, Any]) -> int:
    """The most cards a player is scored on in play without Death, and so the most ``score`` takes:
    the largest personal tableau and dealt hand together, read from the ``tableau`` and ``deal``
    tables (72 + 8 with the seed's)."""
    tableaus = options["tableau"].values()
    return (max(capacity_total((row["center"], row["primary"], row["secondary"])) for row in tableaus)
            + max(row["hand"] for row in options["deal"].values()))


def most_scored(options: Mapping[str, Any], deck_cards: int) -> int:
    """The most cards a player can be scored on at once: :func:`most_cards`, or under Death the whole
    deck, since a hand that is never laid keeps taking second cards from the others' tableaux (a
    hoarding player reaches 110 cards with 2 players)."""
    return deck_cards if options["death"] else most_cards(options)


def points_of(options: Mapping[str, Any], top: int) -> Points:
    """The set kinds' points from the game's options, for a deck whose highest number is ``top``."""
    return Points(**{kind: options["points"][kind] for kind in KINDS}, fifteen_sum=options["fifteen_sum"], top=top)


def pictures_problem(deck: Deck) -> tuple[tuple, str] | None:
    """Why the deck's suits' ``pictures``, ``named_for`` and ``card_titles`` cannot serve the scorer, with the key
    path of the deck file's line to mend (a message naming the deck: it is said at a game's line where the deck is a
    bundled one), or None: each suit's pictures a list of names, no name in two suits,
    their most per suit splitting the numbers 1..top evenly (the seed's four a suit: 1-4, 5-8, ...); a suit's
    ``named_for`` (the Dragons variant's other picture of each card) one picture of the deck per number, and its
    ``card_titles`` one name per number. A config fuzzer's deck with a Dragon ``named_for`` cut short passed
    ``validate``, then ended the game in a traceback."""
    top = max((c.value for c in deck.cards), default=0)
    suit_of: dict[str, str] = {}
    for i, (sid, suit) in enumerate(deck.suits.items()):
        names = suit.get("pictures", [])
        if not is_names(names):
            return ("suits", i, "pictures"), f"deck {deck.id}: suit {sid}'s pictures must be a list of names"
        for name in names:
            if suit_of.setdefault(name, sid) != sid:
                return ("suits", i, "pictures"), \
                    f"deck {deck.id}: picture {name!r} is named in suits {suit_of[name]} and {sid}"
    counts = [len(suit.get("pictures", [])) for suit in deck.suits.values()]
    per_suit = max(counts, default=0)
    if per_suit == 0 or top % per_suit:
        return ("suits", counts.index(per_suit) if counts else 0, "pictures"), \
            f"deck {deck.id}: {per_suit} pictures a suit do not split numbers 1..{top} evenly"
    for i, (sid, suit) in enumerate(deck.suits.items()):
        if counts[i] != per_suit:  # its higher numbers would be in pictures it never names
            return ("suits", i, "pictures"), \
                f"deck {deck.id}: suit {sid} names {counts[i]} pictures, not {per_suit} as others do"
        named = suit.get("named_for")
        if named is not None and not (is_names(named) and len(named) == top and set(named) <= set(suit_of)):
            return ("suits", i, "named_for"), \
                f"deck {deck.id}: suit {sid}'s named_for must list a picture of the deck for each number 1..{top}"
        titles = suit.get("card_titles")
        if titles is not None and not (is_names(titles) and len(titles) == top):
            return ("suits", i, "card_titles"), \
                f"deck {deck.id}: suit {sid}'s card_titles must list a name for each number 1..{top}"
    return None


class Scorer:
    """Scores card codes of one deck under one set of options (points, wilds, Dragons)."""

    def __init__(self, deck: Deck, options: Mapping[str, Any]):
        self.deck = deck
        #: The most cards :meth:`arrange` is meant for (:func:`most_cards`): ``score`` refuses more,
        #: where the exact search would allocate and run without bound (160 cards asked for terabytes).
        self.most_cards = most_cards(options)
        suits = list(deck.suits)
        self.suit_ids = suits
        top = max(c.value for c in deck.cards)
        # a suit's numbers split evenly into its pictures, in order (the deck's 4 names: 1-4, 5-8, ...)
        why = pictures_problem(deck)
        if why:
            raise CardgamesError(why[1])
        per_suit = max(len(deck.suits[sid].get("pictures", [])) for sid in suits)
        size = top // per_suit
        picture_of_name: dict[str, int] = {}
        for s, sid in enumerate(suits):
            for k, name in enumerate(deck.suits[sid].get("pictures", [])):
                picture_of_name[name] = s * per_suit + k
        #: Each picture's seed name ("Rain"), by the picture number the idents carry.
        self.picture_names = {pic: name for name, pic in picture_of_name.items()}
        idents = []
        for card in deck.cards:
            s = suits.index(card.suit)
            pictures = [s * per_suit + (card.value - 1) // size]
            if options["dragons"]:
                named = deck.suits[card.suit].get("named_for")
                if named:
                    pictures.append(picture_of_name[named[card.value - 1]])
            idents.append(Ident(s, card.value, tuple(pictures)))
        self.idents = tuple(idents)
        #: The deck's name of each (suit, number), for the card a wild card stands for: named as the deck
        #: names its cards (its ``card_name``; the first copy's), so that the name reads back.
        self.stand_in_names: dict[tuple[int, int], str] = {}
        for code, ident in enumerate(idents):
            self.stand_in_names.setdefault((ident.suit, ident.number), deck.names[code])
        members: dict[int, list[Ident]] = {}
        for ident in idents:
            for pic in ident.pictures:
                members.setdefault(pic, []).append(ident)
        self.members = Pictures({pic: tuple(m) for pic, m in members.items()})
        self.points = points_of(options, top)
        self.wild = frozenset(deck.code(n) for n in options["wild_cards"])
        self.wild_in_hand = options["wild_in_hand"]
        self.full_hand = options["hand_penalty"] == "sets_at_full_value"

    def value(self, codes: Sequence[int], sign: int = 1, wild: bool = True) -> int:
        """``arrange(codes, sign, wild)["score"]`` without naming the sets: all a game needs
        at a match's end (naming them took a fifth of a four-player game's time)."""
        numbers = sum(self.deck.cards[c].value for c in codes)
        if len(codes) < SET_SIZE:
            return -sign * numbers
        return pack_value(*self.problem(sorted(codes), sign, wild)[2]) - sign * numbers

    def problem(self, codes: list[int], sign: int, wild: bool) -> tuple[list[int], list[int], tuple]:
        """``codes`` (sorted) split into wild cards and real ones, and the optimiser's arguments
        (:func:`.optimise.pack`'s and :func:`.optimise.pack_value`'s, which the CP-SAT model of
        :func:`.aggregate.packing_optimum` takes too)."""
        wilds = [c for c in codes if c in self.wild] if wild else []
        reals = [c for c in codes if c not in wilds]
        return wilds, reals, ([self.idents[c] for c in reals], [self.deck.cards[c].value for c in wilds],
                              self.points, sign, len(self.suit_ids), self.members)

    def arrange(self, codes: Sequence[int], sign: int = 1, wild: bool = True,
                budget: int | None = None) -> dict[str, Any]:
        """The best arrangement of ``codes``: sets (cards, kind, points, what wild cards stand
        for), the leftover cards and the total ``sum(points) + sign * (numbers in sets)``
        ``- sign * (all numbers)``, i.e. the tableau score for sign +1; ``proven`` is False only
        if a node ``budget`` ran out first (the arrangement is then the best found)."""
        codes = sorted(codes)
        if len(codes) < SET_SIZE:  # no set has fewer than four cards (most hands at a match's end)
            return {"score": self.value(codes, sign), "sets": [], "leftover": [self.deck.names[c] for c in codes],
                    "proven": True}
        wilds, reals, problem = self.problem(codes, sign, wild)
        own = {c: self.deck.cards[c].value for c in codes}
        packing = pack(*problem, budget)
        wild_order = sorted(wilds, key=lambda c: (-sign * own[c], c))
        used = 0
        sets = []
        covered = set()
        for idx, count in packing.sets:
            members = [reals[i] for i in idx]
            wild_cards = wild_order[used:used + count]
            used += count
            found = complete([self.idents[c] for c in members], count, self.points, len(self.suit_ids),
                             self.members)
            assert found is not None
            kind, points, stand = found
            shown = {self.deck.names[w]: self.stand_in_names[s.suit, s.number]
                     for w, s in zip(wild_cards, stand, strict=True)}
            if wild_cards:  # wild cards that do as well as themselves are shown as themselves (four Mirrors)
                itself = complete([self.idents[c] for c in members + wild_cards], 0, self.points,
                                  len(self.suit_ids), self.members)
                if itself is not None and itself[1] == points:
                    kind, shown = itself[0], {}
            entry: dict[str, Any] = {"cards": [self.deck.names[c] for c in sorted(members + wild_cards)],
                                     "kind": kind, "points": points}
            if shown:
                entry["wild"] = shown
            sets.append(entry)
            covered.update(members, wild_cards)
        leftover = [c for c in codes if c not in covered]
        total = sum(s["points"] for s in sets) + sign * (sum(own[c] for c in covered) - sum(own[c] for c in codes))
        # The search values a number pattern of one suit's cards (or, with Dragons, one picture's) as its
        # number kind; rebuilt, it scores its suit kind or a Perfect Four, worth more. An optimum never holds
        # such a pattern (the special for the same cards is worth more), but the best packing found when a
        # budget ran out may: its sets then score more than the search said, and that is their score.
        searched = packing.value - sign * sum(own.values())
        if total < searched or (packing.proven and total != searched):
            raise AssertionError("the rebuilt arrangement disagrees with the optimiser's value")
        sets.sort(key=lambda s: (-s["points"], s["cards"]))
        return {"score": total, "sets": sets, "leftover": [self.deck.names[c] for c in leftover],
                "proven": packing.proven}

    def tableau_score(self, codes: Sequence[int], budget: int | None = None) -> dict[str, Any]:
        return self.arrange(codes, 1, budget=budget)

    def tableau_value(self, codes: Sequence[int]) -> int:
        """``tableau_score(codes)["score"]``, without the sets."""
        return self.value(codes, 1)

    def hand_value(self, codes: Sequence[int]) -> int:
        """The hand penalty (a positive number, subtracted from the match score): with
        ``card_values`` the hand's numbers, else the value of its best arrangement with the signs
        turned (sets at full value, ``arrange(codes, -1, wild_in_hand)``): a game's scoring needs the
        value alone, which skips naming the sets."""
        return self.hand_penalty(codes)[0]

    def hand_penalty(self, codes: Sequence[int], budget: int | None = None) -> tuple[int, bool]:
        """:meth:`hand_value` with a node budget, and whether it is proven: within a budget it is
        the score of ``arrange``'s sets, which a value alone cannot know (see :meth:`arrange`)."""
        if self.full_hand and budget is None:
            return self.value(codes, -1, self.wild_in_hand), True
        arranged = self.hand_arrangement(codes, budget)
        return arranged["score"], arranged["proven"]

    def hand_arrangement(self, codes: Sequence[int], budget: int | None = None) -> dict[str, Any]:
        """The hand penalty's arrangement, as :meth:`arrange` gives one: with ``sets_at_full_value``
        the sets it counts at full value and the cards it counts by their numbers; with
        ``card_values`` no set, every card by its number. ``score`` is the penalty."""
        if self.full_hand:
            return self.arrange(codes, -1, self.wild_in_hand, budget)
        return {"score": sum(self.deck.cards[c].value for c in codes), "sets": [],
                "leftover": [self.deck.names[c] for c in sorted(codes)], "proven": True}

    def picture_of(self, names: Sequence[str]) -> str | None:
        """The picture every card of ``names`` belongs to (a Perfect Four's), by its seed name
        ("Rain"), or None. With Dragons a Dragon card also belongs to the picture it is named for."""
        shared = set.intersection(*(set(self.idents[c].pictures) for c in self.deck.codes(names)))
        return self.picture_names[min(shared)] if shared else None

    def set_title(self, entry: Mapping[str, Any]) -> str:
        """A set of an arrangement (:meth:`arrange`'s ``sets``) named as the seed names its kind, a
        Perfect Four with its picture: "Perfect Four (Cloud)", "Four of a Kind"."""
        if entry["kind"] != PERFECT_FOUR:
            return kind_title(entry["kind"])
        wild = entry.get("wild", {})
        return f"{kind_title(PERFECT_FOUR)} ({self.picture_of([wild.get(c, c) for c in entry['cards']])})"

    def set_cards(self, entry: Mapping[str, Any], name: Callable[[str], str] = str) -> str:
        """A set's cards, each written by ``name``, then each wild card's stand-in: "Plant-5 Plant-7 Plant-8
        Magic-14 (Magic-14 as Plant-6)". Narration and ``score`` both write sets so (a player's finding: "Magic-13
        as Dragon-6 Dragon-5 ..." read as the Mirror standing for all four)."""
        stands = "".join(f" ({wild} as {name(card)})" for wild, card in entry.get("wild", {}).items())
        return " ".join(map(name, entry["cards"])) + stands

    def title(self, name: str) -> str | None:
        """A card's own name where the deck gives one (``Dragon-9``: "Rain Dragon"), else None."""
        card = self.deck.cards[self.deck.code(name)]
        titles = self.deck.suits[card.suit].get("card_titles")
        return titles[card.value - 1] if titles else None

    def codes(self, names: Sequence[str]) -> list[int]:
        """Card codes of ``names``; each card at most once."""
        codes = self.deck.codes(names)
        if len(set(codes)) != len(codes):  # named by the deck, as two spellings (" Air-1", "Air-1") may meet
            dup = next(c for i, c in enumerate(codes) if c in codes[:i])
            raise CardgamesError(f"card {self.deck.names[dup]!r} is listed twice (the deck holds one of each)")
        return codes
