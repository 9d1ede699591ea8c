"""Rules of Towers ("le jeu des tours"), the Harrow-deck gambling game, driven by config.

Six foundations (the deck's ``foundation: true`` cards, one per suit, in suit order) start six
towers. The other cards are shuffled into a stock; each player draws ``cache_size`` face up
(his cache). On his turn a player flees, or plays a cache card onto a tower where the geometry
(:mod:`.geometry`) allows it. A card of the tower's own suit earns a bonus play (on any tower,
or the same one with ``bonus_tower: same``); bonus plays are optional (``bonus_optional``), so
:class:`Stop` ends the turn while one is available. At the end of a turn the cache goes to the
player's solde (his debts) and he draws a new cache. A play that leaves a tower on which no card
fits closes it: its cards, foundation first, go one at a time into the soldes of the closer's
opponents still in, starting at his left (the next seat). A player with cards and no legal play
must flee (``no_play: flee``) or may only pass (``no_play: pass``); one with no cards is skipped.
A fleeing player's cache goes to his solde and he pays it to every player still in; he is then
out. The game ends when fewer than two players are in or no player in can play; caches go to the
soldes and each pair of remaining players settles (:mod:`.settlement`).

Actions: :class:`Play` (card, tower suit, position), :class:`Flee`, :class:`Pass`, :class:`Stop`.
The action-less classes are all equal as tuples, so legality checks compare types.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any, NamedTuple

from ...cards import stock_line
from ...config import DECK_FILE, GameSpec
from ...core import Game, State, leaders
from ...errors import CardgamesError
from ...schema import BOOL, INT, STR, Field, positive
from ...wording import players_named, written
from . import geometry
from .settlement import ZERO, Payment, final_payments, flee_payments, money, parse_cut


def _cut_problem(value: Any) -> str | None:
    try:
        parse_cut(value)
    except ValueError as exc:
        return str(exc)
    return None


OPTIONS = {
    "cache_size": Field(INT, "cards in a cache: drawn at the start and after every turn", check=positive),
    "first_player": Field(STR, "who starts: the holder of the alphabetically first card name ('The' "
                               "ignored), or seat 0", choices=("alphabetical", "seat0")),
    "adjacency": Field(INT, "a played symbol must be next to a played symbol: 8 neighbours (diagonals "
                            "count) or 4", choices=(8, 4)),
    "seating": Field(STR, "same_side: every card is placed upright from one side; two_sided: the later "
                          "half of the seats sits across and sees offsets negated",
                     choices=("same_side", "two_sided")),
    "no_play": Field(STR, "a player with cards but no legal play must flee, or passes (cache to solde, "
                          "draw)", choices=("flee", "pass")),
    "bonus_tower": Field(STR, "where a bonus play may go: any tower, or the same tower", choices=("any", "same")),
    "bonus_optional": Field(BOOL, "bonus plays may be declined (a 'stop' action)"),
    "house_cut": Field((int, float, str), "share of every payment the house keeps (exact decimal)",
                       check=_cut_problem),
    "house_cut_from": Field(STR, "the cut is taken from what the payee receives, or added to what the "
                                 "payer pays", choices=("payee", "payer")),
    "house_cut_on_flee": Field(BOOL, "the house also takes its cut of a fleeing player's payments"),
    "settlement": Field(STR, "at the end each pair nets out (the house cuts the differences), or every "
                             "player pays his whole solde to each other (the house cuts each debt)",
                        choices=("net", "gross")),
}


class Play(NamedTuple):
    """Play ``card`` from the cache onto the tower of suit ``tower``, its symbol on ``position``."""

    card: str
    tower: str
    position: str


class Flee(NamedTuple):
    """Leave the game: cache to solde, pay the solde to each player still in."""


class Pass(NamedTuple):
    """With ``no_play: pass`` and no legal play: end the turn (cache to solde, draw)."""


class Stop(NamedTuple):
    """Decline an optional bonus play: end the turn."""


class Placements(NamedTuple):
    """Where a card may go on a tower (``placements``), and whether that tower is closed: no card of any
    alignment fits it, which is why a card would fit nowhere (a rules expert's finding: it was not said)."""

    positions: list[str]
    closed: bool


FLEE, PASS, STOP = Flee(), Pass(), Stop()
ALIGNMENT_COUNT = len(geometry.ALIGNMENTS)


def deck_problems(deck: Any) -> list[tuple[tuple, str]]:
    """Why a deck cannot play Towers (empty when it can): one foundation per suit, alignments known, every
    other card placeable. Each at its line of the deck file (:data:`~cardgames.engine.config.DECK_FILE`), where
    it is mended once for every game taking the deck, but for a foundation count that the game's copies make."""
    problems: list[tuple[tuple, str]] = []
    suits = list(deck.suits)
    if not suits:
        return [((DECK_FILE, "suits"), f"deck {deck.id} has no suits (the towers are its suits)")]
    faces = deck.cards[:len(deck.cards) // deck.copies]  # a copy has its first's problems
    if not any(card.attrs.get("alignment") in geometry.ALIGNMENT_INDEX for card in faces):
        # a deck of another game: the game's choice of it is the mistake, not its cards
        return [(("deck", "type"), f"deck {deck.id} is no Towers deck: none of its {len(faces)} cards has an "
                                   f"alignment ({', '.join(geometry.ALIGNMENTS)}, as in the Harrow deck)")]
    founded = {suit: sum(1 for c in deck.cards if c.suit == suit and c.attrs.get("foundation")) for suit in suits}
    unaligned = []  # said once for all (a designer's deck without them: 52 lines)
    said: set[tuple] = set()  # the deck file's lines said: a template's rank makes a card of each suit alike
    for card in faces:
        alignment = card.attrs.get("alignment")
        if card.suit is None:  # (a suit the deck does not list is the deck's own mistake, said for every game)
            problems.append(((DECK_FILE, *card.at), f"card {card.name!r} has no suit, which every Towers card "
                                                    f"needs"))
        elif alignment not in geometry.ALIGNMENT_INDEX:
            unaligned.append(card)
        elif card.at in said:
            continue
        elif card.attrs.get("foundation") and alignment != "N":
            said.add(card.at)
            problems.append(((DECK_FILE, *card.at, "alignment"),
                             f"foundation {_cards_of(card, faces)} must be True Neutral (alignment N)"))
        elif (not card.attrs.get("foundation") and geometry.ALIGNMENT_INDEX[alignment] in geometry.NEVER_PLACED
              and founded[card.suit]):  # in a suit without one, the suit's line below says it
            said.add(card.at)
            problems.append(((DECK_FILE, *card.at, "foundation"),
                             f"{_cards_of(card, faces)} (alignment {alignment}) is no foundation, and a card of "
                             "that alignment would cover a foundation's symbol wherever it went: it could never be "
                             "played (the True Neutral cards are the foundations)"))
    if unaligned:
        first = unaligned[0]
        names = ", ".join(repr(c.name) for c in unaligned[:3]) + (
            f" and {len(unaligned) - 3} more" if len(unaligned) > 3 else "")
        shown = (f"card {first.name!r} has alignment {written(first.attrs.get('alignment'))}" if len(unaligned) == 1
                 else f"{len(unaligned)} cards have an alignment Towers does not know ({names}; the first "
                      f"has {written(first.attrs.get('alignment'))})")
        problems.append(((DECK_FILE, *first.at, "alignment"),
                         f"{shown}; a card's alignment must be one of {', '.join(geometry.ALIGNMENTS)}, "
                         "as in the Harrow deck"))
    counted: dict[int, list[str]] = {}  # foundation count -> the suits with it: one line for all (a deck taken
    for suit, count in founded.items():  # twice gave six alike, a rules expert's finding)
        if count != 1:
            counted.setdefault(count, []).append(suit)
    for count, alike in counted.items():
        which = f"suit {alike[0]} has" if len(alike) == 1 else f"suits {', '.join(alike)} each have"
        if count == deck.copies > 1:  # each copy's one: the game's copies make it
            problems.append((("deck", "copies"), f"{which} {count} foundation cards, the game taking {deck.copies} "
                                                 "copies of the deck; a tower needs exactly one"))
        else:
            problems.append(((DECK_FILE, "suits", suits.index(alike[0])),
                             f"{which} {count // deck.copies} foundation cards; a tower needs exactly one"))
    for i, suit in enumerate(suits):
        ability = deck.suits[suit].get("ability", "")
        if not isinstance(ability, str):  # a tower is named by it (a config fuzzer's 5 ended placements in a traceback)
            problems.append(((DECK_FILE, "suits", i, "ability"),
                             f"suit {suit}'s ability must be a name (text), not {written(ability)}"))
    return problems


def _cards_of(card: Any, faces: Sequence[Any]) -> str:
    """The cards the deck file's line of ``card`` makes, for a message: ``card 'The Keep'``, or a template's rank
    with the card of each suit it makes (``rank 3 (cards '3A', '3B', '3C')``)."""
    if card.at[0] != "ranks":
        return f"card {card.name!r}"
    names = [repr(c.name) for c in faces if c.at == card.at]
    return f"rank {card.rank} (cards {', '.join(names[:3])}{f' and {len(names) - 3} more' if len(names) > 3 else ''})"


def sort_name(name: str) -> str:
    """The key of ``first_player: alphabetical``: the name without a leading "The", casefolded."""
    return (name[4:] if name.lower().startswith("the ") else name).casefold()


class TowersGame(Game["TowersState"]):
    """Towers: geometry tables, the card facts and every Play action, built once from the config."""

    ACTIONS = (Play, Flee, Pass, Stop)

    def __init__(self, spec: GameSpec):
        super().__init__(spec)
        problems = deck_problems(self.deck)
        if problems:
            raise CardgamesError(f"{spec.id}: {problems[0][1]}")
        opts = spec.options
        self.cache_size: int = opts["cache_size"]
        self.first_seat = None if opts["first_player"] == "alphabetical" else 0
        self.no_play_flee = opts["no_play"] == "flee"
        self.bonus_any = opts["bonus_tower"] == "any"
        self.bonus_optional: bool = opts["bonus_optional"]
        self.cut = parse_cut(opts["house_cut"])
        self.cut_from: str = opts["house_cut_from"]
        self.flee_cut = self.cut if opts["house_cut_on_flee"] else ZERO
        self.netted: bool = opts["settlement"] == "net"
        self.adjacency: int = opts["adjacency"]
        self.tables = geometry.tables(self.adjacency)
        self.suits: tuple[str, ...] = tuple(self.deck.suits)
        cards = self.deck.cards
        tower_of = {s: i for i, s in enumerate(self.suits)}
        #: tower index of each card's suit
        self.suit_of: tuple[int, ...] = tuple(tower_of[c.suit] for c in cards)
        #: foundation card code of each tower
        self.foundations: tuple[int, ...] = tuple(
            next(c.code for c in cards if c.suit == s and c.attrs.get("foundation")) for s in self.suits)
        self.is_foundation = tuple(bool(c.attrs.get("foundation")) for c in cards)
        near = tuple(geometry.ALIGNMENT_INDEX[c.attrs["alignment"]] for c in cards)
        far = tuple(geometry.OPPOSITE[a] for a in near)
        #: the seats across the table (seating: two_sided puts the later half there; same_side, none)
        self.far_seats = (tuple(range((self.num_players + 1) // 2, self.num_players))
                          if opts["seating"] == "two_sided" else ())
        #: each seat's effective alignment of every card (far-side seats see offsets negated)
        self.alignment: tuple[tuple[int, ...], ...] = tuple(
            far if seat in self.far_seats else near for seat in range(self.num_players))
        self.sort_key = tuple(sort_name(c.name) for c in cards)
        names = self.deck.names
        self.plays = tuple(tuple(tuple(Play(names[code], suit, pos) for pos in geometry.POSITIONS)
                                 for suit in self.suits) for code in range(len(cards)))
        self.tower_count = len(self.suits)
        #: memo of :meth:`TowersState._plays`: (card, alignment, tower, mask) -> its legal Plays
        self.play_memo: dict[int, tuple[Play, ...]] = {}
        self.play_info: dict[Play, tuple[int, int, int]] = {
            self.plays[code][t][p]: (code, t, p)
            for code in range(len(cards)) if not self.is_foundation[code]
            for t in range(len(self.suits)) for p in range(len(geometry.POSITIONS))}

    # -- the placements helper -----------------------------------------------------------
    def card_named(self, name: str) -> int:
        """The code of a card named exactly or up to case; a one-line error otherwise."""
        folded = {n.casefold(): c.code for n, c in self.deck.by_name.items()}
        code = folded.get(name.strip().casefold())
        if code is None:
            return self.deck.code(name)  # raises the deck's "unknown card" error
        return code

    def tower_named(self, name: str) -> int:
        """A tower's index from its suit, its ability or its foundation card's name."""
        wanted = name.strip().casefold()
        for t, suit in enumerate(self.suits):
            labels = {suit, self.deck.suits[suit].get("ability", suit), self.deck.names[self.foundations[t]]}
            if wanted in {label.casefold() for label in labels}:
                return t
        known = ", ".join(self.suits)
        raise CardgamesError(f"unknown tower {name!r}: name it by suit ({known}), by its ability or by its "
                             "foundation card")

    def placements(self, card: str, tower: str, played: list[tuple[str, str]], seat: int = 0) -> Placements:
        """Positions where ``card`` may go on ``tower`` holding ``played`` (position, card name) pairs,
        as seen from ``seat``'s side. Rejects a card that cannot be played (a foundation, already
        placed) and a ``played`` layout that no sequence of legal plays produces, saying why."""
        code = self.card_named(card)
        self.tower_named(tower)  # checks the name: every tower has the same geometry
        if self.is_foundation[code]:
            raise CardgamesError(f"{self.deck.names[code]} is a foundation: it is never played")
        layout: list[tuple[int, int]] = []
        for pos, name in played:
            if pos.strip().upper() not in geometry.POSITION_INDEX:
                raise CardgamesError(f"unknown position {pos!r}: use one of {', '.join(geometry.POSITIONS)}")
            layout.append((geometry.POSITION_INDEX[pos.strip().upper()], self.card_named(name)))
        codes = [c for _, c in layout]
        for c in codes:
            if self.is_foundation[c]:
                raise CardgamesError(f"{self.deck.names[c]} is a foundation: it cannot be on a tower")
        given = [code, *codes]
        twice = next((c for i, c in enumerate(given) if c in given[:i]), None)
        if twice is not None:
            raise CardgamesError(f"{self.deck.names[twice]} appears twice among the card and the played cards")
        shared = next((p for i, (p, _) in enumerate(layout) if p in [q for q, _ in layout[:i]]), None)
        if shared is not None:
            raise CardgamesError(f"two played cards share position {geometry.POSITIONS[shared]}")
        # A played card may have been laid from either side of the table (seating: two_sided), whoever asks: its
        # alignments as the seats see it, the near side's first (the one a refusal is explained by).
        sides = [(list(dict.fromkeys(seat_alignment[c] for seat_alignment in self.alignment)), p) for p, c in layout]
        placed = self._most_placed(sides)
        if placed != (1 << len(layout)) - 1:
            raise CardgamesError("no sequence of legal plays puts the played cards on those positions: "
                                 + self._stuck(layout, sides, placed))
        mask = geometry.mask_of([geometry.POSITIONS[p] for p, _ in layout])
        positions = [geometry.POSITIONS[p] for p in self.tables.legal[self.alignment[seat][code]][mask]]
        return Placements(positions, self.tables.closed[mask])

    def _most_placed(self, layout: list[tuple[list[int], int]]) -> int:
        """The most of the (alignments, position) placements that can be made one by one, each legal when
        made under one of its card's alignments: a bit set of their indices (all of them, when the layout
        can be reached), the first of the largest found."""
        legal = self.tables.legal
        done = {0}
        frontier = [0]
        while frontier:
            subset = frontier.pop()
            mask = sum(1 << layout[i][1] for i in range(len(layout)) if subset >> i & 1)
            for i, (alignments, p) in enumerate(layout):
                bigger = subset | 1 << i
                if bigger not in done and any(p in legal[a][mask] for a in alignments):
                    done.add(bigger)
                    frontier.append(bigger)
        return max(sorted(done), key=int.bit_count)

    def _stuck(self, layout: list[tuple[int, int]], sides: list[tuple[list[int], int]], placed: int) -> str:
        """Why the first played card left out of ``placed`` cannot join it (a rules expert's finding: a layout
        was refused without a reason)."""
        def named(i: int) -> str:
            return f"{geometry.POSITIONS[layout[i][0]]}={self.deck.names[layout[i][1]]}"

        after = [named(i) for i in range(len(layout)) if placed >> i & 1]
        stuck = next(i for i in range(len(layout)) if not placed >> i & 1)
        alignments, p = sides[stuck]
        mask = sum(1 << layout[i][0] for i in range(len(layout)) if placed >> i & 1)
        # the near side's reason, and the far side's where it differs (seating: two_sided: a rules expert's)
        why = "; from across, ".join(dict.fromkeys(geometry.refusal(a, p, mask, self.adjacency) for a in alignments))
        where = f"after {', '.join(after)}" if after else "on a tower holding only its foundation"
        return f"{named(stuck)} cannot be played {where} ({why})"

    def new_state(self, seed: int | str, rng: str = "native") -> "TowersState":
        order = [c for c in self.shuffled(seed, rng) if not self.is_foundation[c]]
        return TowersState(self, order)

    def bonus_towers(self, code: int, t: int, open_towers: Sequence[int]) -> list[int]:
        """The open towers a bonus play may go onto after card ``code`` went onto tower ``t``: none
        unless the card is of ``t``'s own suit, then ``t`` alone or, with ``bonus_tower: any``, every
        open one. The rule's one statement: the game and the greedy agent both ask it."""
        if self.suit_of[code] != t:
            return []
        return list(open_towers) if self.bonus_any else [u for u in open_towers if u == t]

    # -- presentation ------------------------------------------------------------------
    def tower_label(self, t: int) -> str:
        suit = self.suits[t]
        ability = self.deck.suits[suit].get("ability")
        return f"{suit} tower ({ability})" if ability else f"{suit} tower"

    def card_label(self, code: int) -> str:
        """A card with what a placement depends on, its suit and alignment: "The Cricket (Keys NG)"."""
        card = self.deck.cards[code]
        return f"{card.name} ({card.suit} {card.attrs['alignment']})"

    def describe_action(self, state: "TowersState", action: Any) -> str:
        who = f"player {state.current_player}"
        kind = type(action)
        after = state.clone()  # what follows is read off the action applied, not worked out again here
        after.apply(action)
        paid = after.payments[len(state.payments):]  # a flight's, then the end's if the action ends the game
        if kind is Play:
            code, t, p = self.play_info[action]
            text = f"{who} plays {self.card_label(code)} onto the {self.tower_label(t)} at {action.position}"
            if self.suit_of[code] == t:
                if after.current_player == state.current_player:
                    text += ", its own suit: bonus"
                elif len(state.caches[state.current_player]) == 1:
                    text += ", its own suit, but his last cache card: no bonus"
                else:
                    text += ", its own suit, but no other cache card fits: no bonus"
            if t not in after.open_towers:
                seat, n = state.current_player, self.num_players
                left_first = [i % n for i in range(seat + 1, seat + n)]  # the closer's opponents, from his left
                tower = {self.foundations[t], *after.played[t]}  # counted by card: a play that ends the game
                # also puts every cache in its solde (a designer's finding: "8 cards ... (6 to player 2, 4 to ...)")
                shares = [(s, sum(c in tower for c in after.soldes[s][len(state.soldes[s]):])) for s in left_first]
                given = ", ".join(f"{count} to player {s}" for s, count in shares if count)
                text += f"; the tower closes, its {len(tower)} cards go to the opponents ({given})"
        elif kind is Flee:
            seat = state.current_player
            fled, paid = [p for p in paid if p.payer == seat], [p for p in paid if p.payer != seat]
            forced = "" if any(type(a) is Play for a in state.legal_actions()) else " (no cache card fits a tower)"
            text = (f"{who} flees{forced}, paying a solde of {state.fleeing_solde(seat)}"
                    f"{': ' + _paid(fled) if fled else ''}")
        elif kind is Stop:
            text = f"{who} declines the bonus play"
        else:
            text = f"{who} has no legal play and passes"
        return text + self._turn_end(state, action, after) + _settled(after, paid)

    def _turn_end(self, state: "TowersState", action: Any, after: "TowersState") -> str:
        """What the end of a turn does, when ``action`` ended one: the cache's other cards go to the
        player's solde and he draws a new cache (a teacher's finding: neither was ever shown), also on
        the turn that ends the game, whose new cache then joins the solde with every other (a rules
        audit's finding: those cards were charged unseen)."""
        seat, kind = state.current_player, type(action)
        if kind is Flee or (after.current_player == seat and after.bonus_tower is not None):  # a bonus play is due
            return ""
        played = self.play_info[action][0] if kind is Play else None
        left = [c for c in state.caches[seat] if c != played]
        drawn = state.stock[len(after.stock):][::-1]  # drawn from the stock's end
        to_solde = ", ".join(map(self.card_label, left)) or "nothing"
        new = ", ".join(map(self.card_label, drawn)) or "nothing (the stock is empty)"
        return f"; to his solde: {to_solde}; he draws {new}"

    def describe_end(self, state: "TowersState") -> list[str]:
        """Why the game ended (a player alone still in, or no card that can still be played), each seat's
        net coins, and who won (the most coins)."""
        still = [seat for seat, active in enumerate(state.active) if active]
        if len(still) < 2:
            why = f"only {players_named(still)} is still in" if still else "nobody is still in"
        else:
            why = "no player still in can play a card"
        nets = ", ".join(f"player {seat} {money(net)}" for seat, net in enumerate(state.net))
        return [f"the game is over ({why}): net coins {nets}: {self.winners_said(state)}"]

    def render_deal(self, deal: dict[str, Any]) -> str:
        lines = ["towers: " + ", ".join(f"{s} ({f})" for s, f in zip(self.suits, deal["towers"], strict=True))]
        for seat, cache in enumerate(deal["caches"]):
            lines.append(f"player {seat} cache: {', '.join(self.card_label(self.deck.code(n)) for n in cache)}")
        lines.append(stock_line(deal["stock"], "drawn", shown=6, sep=", "))
        return "\n".join(lines)


class TowersState(State[TowersGame]):
    """One game of Towers in progress.

    ``occupied[t]`` is tower ``t``'s occupied-position mask (the geometry tables' index);
    ``played[t]`` its played cards in order. ``stock`` is drawn from its end.
    """

    __slots__ = ("game", "dealt_caches", "dealt_stock", "stock", "caches", "soldes", "active", "fled",
                 "occupied", "played", "positions", "open_towers", "closed", "payments", "net", "house",
                 "player", "bonus_tower", "moves", "_legal")

    def __init__(self, game: TowersGame, order: list[int]):
        self.game = game
        n, size = game.num_players, game.cache_size
        self.stock = order  # the shuffled list's end is the top of the stock: draw with pop()
        self.caches: list[list[int]] = []
        for _ in range(n):
            self.caches.append(self._draw(size))
        self.dealt_caches = tuple(tuple(c) for c in self.caches)
        self.dealt_stock = tuple(reversed(self.stock))
        self.soldes: list[list[int]] = [[] for _ in range(n)]
        self.active = [True] * n
        self.fled = [False] * n
        towers = len(game.suits)
        self.occupied = [0] * towers
        self.played: list[list[int]] = [[] for _ in range(towers)]
        self.positions: list[list[int]] = [[] for _ in range(towers)]
        self.open_towers = list(range(towers))
        self.closed: list[int] = []
        self.payments: list[Payment] = []
        self.net = [ZERO] * n
        self.house = ZERO
        self.moves = 0
        self.player: int | None = None
        self.bonus_tower: int | None = None
        first = game.first_seat
        if first is None:  # alphabetical: the holder of the first card name starts
            key = game.sort_key
            first = min(range(n), key=lambda s: min(key[c] for c in self.caches[s]))
        self._next_turn(first)

    # -- the contract ------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.player

    def legal_actions(self) -> list:
        return self._legal

    def apply(self, action: Any) -> None:
        kind = type(action)
        if kind is Play:
            if action not in self._legal:
                raise self.illegal(action)
            self._play(action)
        elif kind in (Flee, Pass, Stop) and any(type(a) is kind for a in self._legal):
            self.moves += 1
            if kind is Flee:
                self._flee()
            else:
                self._end_turn()
        else:
            raise self.illegal(action)

    # -- turns -------------------------------------------------------------------------
    def _draw(self, count: int) -> list[int]:
        stock = self.stock
        return [stock.pop() for _ in range(min(count, len(stock)))]

    def _plays(self, towers: list[int]) -> list:
        """Every legal Play of the current player's cache onto ``towers`` (cache, tower, position order).

        The Play tuples of one (card, effective alignment, tower, occupied mask) are memoised on
        the game: the geometry table gives the positions, the memo saves building the tuple again.
        """
        game = self.game
        legal, occupied, memo, count = game.tables.legal, self.occupied, game.play_memo, game.tower_count
        alignment = game.alignment[self.player]
        out: list = []
        for code in self.caches[self.player]:
            a = alignment[code]
            by_mask = legal[a]
            base = (code * ALIGNMENT_COUNT + a) * count
            for t in towers:
                mask = occupied[t]
                if by_mask[mask]:
                    key = (base + t) << 8 | mask
                    found = memo.get(key)
                    if found is None:
                        tower_plays = game.plays[code][t]
                        found = memo[key] = tuple(tower_plays[p] for p in by_mask[mask])
                    out += found
        return out

    def _anyone_can_play(self) -> bool:
        """Whether a card can still be played: one in the cache of a player still in fits an open
        tower, or (``no_play: pass``, where a stuck player draws again) one still in the stock
        fits an open tower for some player still in. Under ``flee`` a stuck player draws nothing
        more, so the stock cannot bring a play: only the caches count."""
        game = self.game
        fitting, occupied = game.tables.fitting, self.occupied
        fits = 0
        for t in self.open_towers:
            fits |= fitting[occupied[t]]
        if not fits:
            return False
        draws = () if game.no_play_flee else self.stock
        for seat, cache in enumerate(self.caches):
            if self.active[seat] and cache:  # a player without cards is skipped: he draws nothing
                alignment = game.alignment[seat]
                if any(fits >> alignment[c] & 1 for c in chain(cache, draws)):
                    return True
        return False

    def _next_turn(self, seat: int) -> None:
        """Start the turn of the first player from ``seat`` on who is in and holds cards, or end."""
        n = self.game.num_players
        if sum(self.active) < 2 or not self._anyone_can_play():
            self._finish()
            return
        while not (self.active[seat] and self.caches[seat]):
            seat = (seat + 1) % n
        self.player = seat
        self.bonus_tower = None
        plays = self._plays(self.open_towers)
        if plays:
            plays.append(FLEE)
        elif self.game.no_play_flee:
            plays = [FLEE]
        else:
            plays = [FLEE, PASS]
        self._legal = plays

    def _play(self, action: Play) -> None:
        game = self.game
        code, t, p = game.play_info[action]
        seat = self.player
        cache = self.caches[seat]
        cache.remove(code)
        mask = self.occupied[t] | 1 << p
        self.occupied[t] = mask
        self.played[t].append(code)
        self.positions[t].append(p)
        self.moves += 1
        if game.tables.closed[mask]:
            self._close(t, seat)
        towers = game.bonus_towers(code, t, self.open_towers) if cache else []
        if towers:
            plays = self._plays(towers)
            if plays:
                if game.bonus_optional:
                    plays.append(STOP)
                self.bonus_tower = t
                self._legal = plays
                return
        self._end_turn()

    def _close(self, t: int, closer: int) -> None:
        """Deal the closed tower's cards, foundation first, to the closer's opponents from his left."""
        n = self.game.num_players
        receivers = [s % n for s in range(closer + 1, closer + n) if self.active[s % n]]
        cards = [self.game.foundations[t], *self.played[t]]
        for i, code in enumerate(cards):
            self.soldes[receivers[i % len(receivers)]].append(code)
        self.open_towers.remove(t)
        self.closed.append(t)

    def _end_turn(self) -> None:
        seat = self.player
        self.soldes[seat].extend(self.caches[seat])
        self.caches[seat] = self._draw(self.game.cache_size)
        self._next_turn((seat + 1) % self.game.num_players)

    def fleeing_solde(self, seat: int) -> int:
        """The solde ``seat`` pays each player still in if he flees now: his cache joins it first."""
        return len(self.soldes[seat]) + len(self.caches[seat])

    def _flee(self) -> None:
        game = self.game
        seat = self.player
        solde = self.fleeing_solde(seat)
        self.soldes[seat].extend(self.caches[seat])
        self.caches[seat] = []
        self.active[seat] = False
        self.fled[seat] = True
        others = [s for s in range(game.num_players) if self.active[s]]
        self._pay(flee_payments(seat, solde, others, game.flee_cut, game.cut_from))
        self._next_turn((seat + 1) % game.num_players)

    def _finish(self) -> None:
        game = self.game
        for seat in range(game.num_players):
            self.soldes[seat].extend(self.caches[seat])
            self.caches[seat] = []
        soldes = {s: len(self.soldes[s]) for s in range(game.num_players) if self.active[s]}
        self._pay(final_payments(soldes, game.cut, game.cut_from, game.netted))
        self.player = None
        self.bonus_tower = None
        self._legal = []

    def _pay(self, payments: list[Payment]) -> None:
        for pay in payments:
            self.net[pay.payer] -= pay.paid
            self.net[pay.payee] += pay.received
            self.house += pay.house
        self.payments.extend(payments)

    # -- results -----------------------------------------------------------------------
    def winners(self) -> list[int]:
        return leaders(self.net)

    def returns(self) -> list[float]:
        """Nothing until the game is over (a stake is only settled at the end), then :meth:`winners`'."""
        return [0.0] * self.game.num_players if self.player is not None else super().returns()

    def result(self) -> dict[str, Any]:
        """Scores are each seat's net coins as floats (exact values in ``net``, decimal strings);
        ``fled`` is 1 for a seat that fled; ``soldes`` counts solde cards (a fled seat's as he left)."""
        return {
            "scores": [float(v) for v in self.net],
            "winners": self.winners(),
            "moves": self.moves,
            "soldes": [len(s) for s in self.soldes],
            "fled": [int(f) for f in self.fled],
            "net": [money(v) for v in self.net],
            "house": money(self.house),
            "closed_towers": len(self.closed),
        }

    def deal_json(self) -> dict[str, Any]:
        names = self.game.deck.names
        return {"towers": [names[f] for f in self.game.foundations],
                "caches": [[names[c] for c in cache] for cache in self.dealt_caches],
                "stock": [names[c] for c in self.dealt_stock]}

    def snapshot(self) -> dict[str, Any]:
        game = self.game
        names = game.deck.names
        towers = []
        for t, suit in enumerate(game.suits):
            towers.append({"suit": suit, "foundation": names[game.foundations[t]], "open": t in self.open_towers,
                           "cards": {geometry.POSITIONS[p]: names[c]
                                     for p, c in zip(self.positions[t], self.played[t], strict=True)}})
        bonus = None if self.bonus_tower is None else game.suits[self.bonus_tower]
        return {"player": self.player, "bonus_tower": bonus,
                "towers": towers, "caches": [[names[c] for c in cache] for cache in self.caches],
                "soldes": [[names[c] for c in solde] for solde in self.soldes], "fled": list(self.fled),
                "stock": len(self.stock), "payments": [p.to_json() for p in self.payments],
                "net": [money(v) for v in self.net], "house": money(self.house)}

    def all_cards(self) -> list[int]:
        game = self.game
        cards = list(self.stock)
        for cache in self.caches:
            cards += cache
        for solde in self.soldes:
            cards += solde
        for t in self.open_towers:
            cards.append(game.foundations[t])
            cards += self.played[t]
        return cards

    def clone(self) -> "TowersState":
        other = TowersState.__new__(TowersState)
        other.game, other.dealt_caches, other.dealt_stock = self.game, self.dealt_caches, self.dealt_stock
        other.stock = list(self.stock)
        other.caches = [list(c) for c in self.caches]
        other.soldes = [list(s) for s in self.soldes]
        other.active, other.fled = list(self.active), list(self.fled)
        other.occupied = list(self.occupied)
        other.played = [list(p) for p in self.played]
        other.positions = [list(p) for p in self.positions]
        other.open_towers, other.closed = list(self.open_towers), list(self.closed)
        other.payments, other.net, other.house = list(self.payments), list(self.net), self.house
        other.player, other.bonus_tower, other.moves = self.player, self.bonus_tower, self.moves
        other._legal = list(self._legal)
        return other


def check_config(spec: GameSpec) -> list[str | tuple[tuple, str]]:
    """Semantic checks for ``validate``: two players or more, the deck has a foundation per suit, the caches
    fit the stock."""
    from ...cards import Deck

    if spec.players < 2:  # a designer's min of 1 played no card and named player 0 the winner
        return [(("players", "min"), "Towers needs 2 players or more: the game ends when only one is still in, so "
                                     "a game of one would end at its deal")]
    deck = Deck(spec.deck, spec.copies)
    problems: list[str | tuple[tuple, str]] = list(deck_problems(deck))
    if problems:
        return problems
    stock = sum(1 for c in deck.cards if not c.attrs.get("foundation"))
    need = spec.players * spec.options["cache_size"]
    if need > stock:
        problems.append((("options", "cache_size"), f"{spec.players} caches of {spec.options['cache_size']} need "
                         f"{need} cards; the stock holds {stock}"))
    return problems


def deal_facts(spec: GameSpec) -> dict[str, Any]:
    """Shown by ``validate --facts``: towers, the deck's cards (``cards``, as every engine names them),
    the caches dealt, cards left in the stock."""
    from ...cards import Deck

    deck = Deck(spec.deck, spec.copies)
    stock = sum(1 for c in deck.cards if not c.attrs.get("foundation"))
    dealt = spec.players * spec.options["cache_size"]
    return {"towers": len(deck.suits), "cards": len(deck), "caches": dealt, "stock_after_deal": stock - dealt}


def _paid(payments: Sequence[Payment]) -> str:
    """Payments as narration says them: who pays whom, and what the payee and the house get of it."""
    return ", ".join(f"player {p.payer} pays {money(p.paid)} to player {p.payee}"
                     + (f" ({money(p.received)} received, house {money(p.house)})" if p.house else "")
                     for p in payments)


def _settled(after: "TowersState", paid: Sequence[Payment]) -> str:
    """What narration adds to an action after which the game is over: each remaining seat's solde and
    ``paid``, the end's payments, read off the state (a designer checking the settlement options saw no
    payment at all)."""
    if after.current_player is not None:
        return ""
    soldes = ", ".join(f"player {s} {len(after.soldes[s])}" for s in range(len(after.soldes)) if after.active[s])
    return (f"; the game ends, every cache goes to its solde, soldes ({soldes}) settled: "
            f"{_paid(paid) if paid else 'no payment'}")


GAME = TowersGame
