"""Rules of Turup, driven by config: a fishing game of match and addition captures.

A match is ``rounds`` rounds; round ``k`` is a fresh deal (``deal_number=k``) by seat
``(first_dealer + k) % players``. Each player gets ``hand_size`` cards, starting at the dealer's
left, and ``community_size`` cards go face up to the community pile. In turn, from the dealer's
left, each player plays one card: a capture (the card plus any union of disjoint groups of
community cards, each one card of its rank or two or more numeral cards summing to its value; at
most one of each kind with ``capture_groups: one_each``) or a trail (the card onto the pile). When
every hand is empty the stock deals again; a stock too small for a full deal is dealt one card at a
time (``short_deal: round_robin``) or set aside (``discard``), and players with empty hands are
skipped. When stock and hands are empty the round ends; cards won are the score. Face cards
(``face: true`` in the deck) only ever match.

Suits never score, so actions name ranks: ``Capture("5", ("2", "3", "5"))``. The physical cards
are chosen by a fixed rule, lowest card code first (the first deck's cards, then clubs, spades,
hearts, diamonds as the deck lists them), both for the card played and for the cards taken.
The community pile is also kept as one packed integer of counts per rank, which is the key of the
per-game capture cache: positions repeat a lot, and enumeration is the expensive step.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from typing import Any, NamedTuple

from ...cards import COPY_MARK, copy_name, stock_line
from ...config import GameSpec
from ...core import Game, State, leaders
from ...errors import CardgamesError
from ...schema import BOOL, INT, OPT_INT, STR, Field, between, non_negative, positive
from ...wording import clip, counted
from .captures import FIELD_MAX, capture_vectors, expand, match_captures, run_table, subpile_problem

OPTIONS = {
    "hand_size": Field(INT, "cards dealt to each player in every deal", check=positive),
    "community_size": Field(INT, "cards dealt face up to the community pile at the start of a round",
                            check=non_negative),
    "deal_packet": Field(INT, "cards given to one player at a time when hands are dealt (1: one card at a "
                              "time around the table)", check=positive),
    "community_first": Field(BOOL, "deal the community pile before the hands (false: after them)"),
    "short_deal": Field(STR, "a stock too small to give everyone hand_size cards: deal it one card at a time "
                             "from the dealer's left (round_robin), or set it aside unplayed (discard)",
                        choices=("round_robin", "discard")),
    "capture_optional": Field(BOOL, "a player may trail even when a capture is possible"),
    "capture_groups": Field(STR, "what one capture may take: any union of disjoint groups, each a match or an "
                                 "addition (any), or at most one match and one addition, as the seed's examples "
                                 "show them (one_each)", choices=("any", "one_each")),
    "leftovers": Field(STR, "community cards left at the end of a round: count for nobody (none), or go to "
                            "the last player who captured (last_capturer)", choices=("none", "last_capturer")),
    "rounds": Field(OPT_INT, "rounds in a match; null for one per player, so that each deals once (at most "
                             "1000: a match of a billion rounds would never end)", check=between(1, 1000)),
    "first_dealer": Field(INT, "the seat that deals the first round (the dealer rotates left), counted modulo "
                               "the player count so that one value serves every count", check=non_negative),
    "match_scoring": Field(STR, "who wins the match: most cards over all rounds (total_cards), or most rounds "
                                "won (round_wins, a shared round counting for each)",
                           choices=("total_cards", "round_wins")),
}

#: Capture-cache entries kept per rank before the cache is emptied (bounds a long batch's memory).
CACHE_LIMIT = 50_000
#: The highest numeral value a deck may give. The capture table runs to the top value (one entry a value
#: and count of copies): 100,000 takes a second to build, 1,000,000 45 s and 380 MB, and 2^31 never
#: finished (a fuzzer's deck, which validate passed).
MAX_VALUE = 100_000


class Trail(NamedTuple):
    """Put a card of rank ``rank`` from the hand face up on the community pile."""

    rank: str


class Capture(NamedTuple):
    """Play a card of rank ``rank`` and win community cards of the ranks ``take`` (in deck rank
    order, repeated for several cards of one rank)."""

    rank: str
    take: tuple[str, ...]


class TurupGame(Game["TurupState"]):
    """A resolved Turup game: rank tables, options and the capture cache."""

    ACTIONS = (Trail, Capture)

    def __init__(self, spec: GameSpec):
        super().__init__(spec)
        opts = spec.options
        self.hand_size: int = opts["hand_size"]
        self.community_size: int = opts["community_size"]
        self.deal_packet: int = opts["deal_packet"]
        self.community_first: bool = opts["community_first"]
        self.short_deal: str = opts["short_deal"]
        self.capture_optional: bool = opts["capture_optional"]
        #: Whether one capture may join any number of groups (``capture_groups: any``), not one of each kind.
        self.any_groups: bool = opts["capture_groups"] == "any"
        self.leftovers: str = opts["leftovers"]
        self.rounds: int = opts["rounds"] or self.num_players
        self.first_dealer: int = opts["first_dealer"] % self.num_players
        self.first_seat = (self.first_dealer + 1) % self.num_players  # the dealer's left plays first
        self.match_scoring: str = opts["match_scoring"]

        deck = self.deck
        self.rank_ids: tuple[str, ...] = tuple(deck.ranks)
        self.rank_index = {r: i for i, r in enumerate(self.rank_ids)}
        self.rank_of: tuple[int, ...] = tuple(self.rank_index[c.rank] for c in deck.cards)
        self.values: tuple[int, ...] = tuple(deck.ranks[r]["value"] for r in self.rank_ids)
        self.face: tuple[bool, ...] = tuple(bool(deck.ranks[r].get("face", False)) for r in self.rank_ids)
        # The community pile as one integer: ``width`` bits of count per rank index.
        self.width = max(Counter(self.rank_of).values()).bit_length()
        field = (1 << self.width) - 1
        self.units: tuple[int, ...] = tuple(1 << (self.width * i) for i in range(len(self.rank_ids)))
        numerals = [i for i, face in enumerate(self.face) if not face]
        self.masks = tuple(
            field * self.units[r] if self.face[r]
            else sum(field * self.units[q] for q in numerals if self.values[q] <= self.values[r])
            for r in range(len(self.rank_ids)))
        by_value = {self.values[q]: self.rank_ids[q] for q in numerals}
        # One table up to the top value, sized by the most copies of a rank (a run per count a pile can
        # hold): a table per rank with every count to FIELD_MAX took 375 MB for values 1-100, gigabytes
        # for a designer's card of value 50,000.
        top = max((self.values[q] for q in numerals), default=0)
        runs = run_table([by_value.get(v) for v in range(1, top + 1)], max(Counter(self.rank_of).values()))
        self._runs = {r: runs[:self.values[r]] for r in numerals}
        self._numerals_below = {r: [q for q in numerals if self.values[q] <= self.values[r]] for r in numerals}
        self.trails = tuple(Trail(r) for r in self.rank_ids)
        self._cache: list[dict[int, tuple[Capture, ...]]] = [{} for _ in self.rank_ids]

    def new_state(self, seed: int | str, rng: str = "native") -> "TurupState":
        return TurupState(self, seed, rng)

    # -- captures ----------------------------------------------------------------------
    def captures(self, rank: int, table: int) -> tuple[Capture, ...]:
        """Every capture a card of rank index ``rank`` can make on the packed pile ``table``."""
        cache = self._cache[rank]
        key = table & self.masks[rank]
        found = cache.get(key)
        if found is None:
            found = self._enumerate(rank, key)
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[key] = found
        return found

    def _enumerate(self, rank: int, key: int) -> tuple[Capture, ...]:
        rid = self.rank_ids[rank]
        if self.face[rank]:
            count = (key >> (self.width * rank)) & ((1 << self.width) - 1)
            return tuple(Capture(rid, (rid,) * k) for k in match_captures(count, self.any_groups))
        counts = self._counts_below(rank, key)
        runs = self._runs[rank]
        return tuple(Capture(rid, expand(vector, runs))
                     for vector in capture_vectors(self.values[rank], counts, self.any_groups))

    def _counts_below(self, rank: int, key: int) -> list[int]:
        """The packed pile ``key``'s numeral cards of values up to numeral ``rank``'s, counted by value."""
        field = (1 << self.width) - 1
        counts = [0] * self.values[rank]
        for q in self._numerals_below[rank]:
            counts[self.values[q] - 1] = (key >> (self.width * q)) & field
        return counts

    def first_move_problem(self, state: "TurupState") -> str | None:
        """Why the captures of the first player of ``state``'s deal cannot be listed (the pile past the listing's
        count or sub-pile limit for a card in his hand: his first move ends the game), or None. Milliseconds: the
        bound alone is asked, not the listing. Later players' cards are not asked: the pile changes before their
        turns (asking them too refused a designer's game of which 4 deals in 30 stopped)."""
        ranks = {self.rank_of[c] for c in state.hands[state.current_player]}
        for rank in sorted(ranks, key=self.values.__getitem__, reverse=True):  # the highest fails first
            if not self.face[rank]:
                problem = subpile_problem(self.values[rank], self._counts_below(rank, state.tpack))
                if problem is not None:
                    return problem
        return None

    def pack(self, codes: list[int]) -> int:
        """The packed count vector of a community pile given as card codes."""
        return sum(self.units[self.rank_of[c]] for c in codes)

    # -- presentation ------------------------------------------------------------------
    def current_deal(self, state: "TurupState") -> dict[str, Any]:
        latest = state.deals[-1]
        return {"hands": latest["hands"], "community": latest["community"], "stock": latest["stock"]}

    def describe_action(self, state: "TurupState", action: Any) -> str:
        name = self.deck.name
        code, taken = state.cards_of(action)
        if taken is None:
            text = f"player {state.current_player} trails {name(code)}"
        else:
            text = (f"player {state.current_player} plays {name(code)} and takes {' '.join(name(c) for c in taken)} "
                    f"({len(taken) + 1} cards)")
        if sum(map(len, state.hands)) == 1 and state.stock:  # the round's last card in hand: the stock is dealt
            sizes = state.next_deal_sizes()
            left = f"the stock's last {counted(len(state.stock), 'card')} {'is' if len(state.stock) == 1 else 'are'}"
            if not any(sizes):
                text += f"; {left} too few to deal: set aside"
            elif len(set(sizes)) == 1:
                text += f"; the dealer deals {counted(sizes[0], 'card')} to each player"
            else:
                shares = ", ".join(f"{n} to player {seat}" for seat, n in enumerate(sizes) if n)
                text += f"; {left} dealt one at a time ({shares})"
        return text

    def describe_deal_end(self, state: "TurupState") -> list[str]:
        """Each seat's cards won in the round just ended, its winners, the cards the last to capture took from
        the table (``leftovers: last_capturer``) and those that count for nobody."""
        number, scores = len(state.round_scores), state.round_scores[-1]
        best = leaders(scores)
        shared = " (shared)" if len(best) > 1 else ""

        def listed(codes: tuple[int, ...]) -> str:
            return f"{counted(len(codes), 'card')}{': ' + ' '.join(map(self.deck.name, codes)) if codes else ''}"

        swept = state.round_swept[-1]
        took = f"player {swept[0]}, the last to capture, takes the table's {listed(swept[1])}; " if swept else ""
        lines = [f"round {number} ends ({took}left for nobody: {listed(state.round_leftover[-1])}):"]
        for seat, won in enumerate(scores):
            wins = f", wins the round{shared}" if seat in best else ""
            lines.append(f"  player {seat}: {counted(won, 'card')} won{wins}")
        return lines

    def describe_end(self, state: "TurupState") -> list[str]:
        """The match's totals, by what ``match_scoring`` counts, and who won it."""
        what = "cards won" if self.match_scoring == "total_cards" else "rounds won"
        totals = ", ".join(f"player {seat} {n}" for seat, n in enumerate(state.match_totals()))
        return [f"the match ends after {counted(state.rounds_played, 'round')}: {what} {totals}: "
                f"{self.winners_said(state)}"]

    def render_deal(self, deal: dict[str, Any]) -> str:
        lines = [f"hand {seat}: {' '.join(hand)}" for seat, hand in enumerate(deal["hands"])]
        lines.append(f"community: {' '.join(deal['community']) or '(empty)'}")
        lines.append(stock_line(deal["stock"], "dealt"))
        return "\n".join(lines)


class TurupState(State[TurupGame]):
    """One match in progress: the current round's hands, community pile, stock and won piles,
    and the scores of the rounds already played."""

    __slots__ = ("game", "seed", "rng", "deals", "dealer", "hands", "table", "tpack", "stock", "won", "set_aside",
                 "last_capturer", "round_scores", "round_leftover", "round_swept", "rounds_played", "moves", "_legal",
                 "current_player")

    def __init__(self, game: TurupGame, seed: int | str, rng: str):
        self.game = game
        self.seed = seed
        self.rng = rng
        self.deals: list[dict[str, Any]] = []
        self.round_scores: list[list[int]] = []
        self.round_leftover: list[tuple[int, ...]] = []  # each round's cards left for nobody
        #: each round's cards the last to capture took from the table at its end (``leftovers: last_capturer``),
        #: and his seat: none, None
        self.round_swept: list[tuple[int, tuple[int, ...]] | None] = []
        self.rounds_played = 0
        self.moves = 0
        self._start_round(0)

    # -- dealing -----------------------------------------------------------------------
    def _start_round(self, number: int) -> None:
        game = self.game
        n = game.num_players
        names = game.deck.names
        self.dealer = (game.first_dealer + number) % n
        self.stock = game.shuffled(self.seed, self.rng, deal_number=number)  # dealt from its end
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.set_aside: list[int] = []
        self.table: list[list[int]] = [[] for _ in game.rank_ids]
        self.tpack = 0
        self.last_capturer: int | None = None
        if game.community_first:
            community = self._draw(game.community_size)
            self._deal_hands()
        else:
            self._deal_hands()
            community = self._draw(game.community_size)
        for code in community:
            self._put(code)
        self.deals.append({"dealer": self.dealer, "hands": [[names[c] for c in hand] for hand in self.hands],
                           "community": [names[c] for c in community],
                           "stock": [names[c] for c in reversed(self.stock)]})
        self.current_player = self._next_holder(self.dealer)
        self._legal: list | None = None

    def _draw(self, count: int) -> list[int]:
        stock = self.stock
        return [stock.pop() for _ in range(count)]

    def _deal_hands(self) -> None:
        """Deal every hand its ``hand_size`` cards, or a short last deal, from the dealer's left."""
        game = self.game
        n = game.num_players
        seats = [self.hands[(self.dealer + 1 + i) % n] for i in range(n)]
        stock = self.stock
        if self._full_deal():
            given, pop = 0, stock.pop
            while given < game.hand_size:
                packet = min(game.deal_packet, game.hand_size - given)
                for hand in seats:
                    for _ in range(packet):
                        hand.append(pop())
                given += packet
        elif game.short_deal == "round_robin":
            for seat in self._short_deal_seats():
                self.hands[seat].append(stock.pop())
        else:
            self.set_aside.extend(reversed(stock))
            stock.clear()

    def _full_deal(self) -> bool:
        """Whether the stock still gives every player ``hand_size`` cards (else a short deal)."""
        return len(self.stock) >= self.game.hand_size * self.game.num_players

    def next_deal_sizes(self) -> list[int]:
        """The cards each seat (by seat number) gets from the next deal of the current stock: the
        ``hand_size`` each, or a short deal's one-at-a-time share from the dealer's left, or none
        (``short_deal: discard``)."""
        game = self.game
        if self._full_deal():
            return [game.hand_size] * game.num_players
        sizes = [0] * game.num_players
        if game.short_deal == "round_robin":
            for seat in self._short_deal_seats():
                sizes[seat] += 1
        return sizes

    def _short_deal_seats(self) -> list[int]:
        """Who gets each card of a ``round_robin`` short deal, in dealing order: one card at a time
        from the dealer's left until the stock is empty."""
        n = self.game.num_players
        return [(self.dealer + 1 + i) % n for i in range(len(self.stock))]

    def _put(self, code: int) -> None:
        rank = self.game.rank_of[code]
        insort(self.table[rank], code)
        self.tpack += self.game.units[rank]

    def _next_holder(self, seat: int) -> int | None:
        """The first seat after ``seat`` (``seat`` itself last) holding a card, or None."""
        hands = self.hands
        n = len(hands)
        for step in range(1, n + 1):
            other = (seat + step) % n
            if hands[other]:
                return other
        return None

    # -- playing -----------------------------------------------------------------------
    def legal_actions(self) -> list:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._find_legal()
        return legal

    def _find_legal(self) -> list:
        player = self.current_player
        if player is None:
            return []
        game = self.game
        rank_of = game.rank_of
        ranks = sorted({rank_of[c] for c in self.hands[player]})
        captures, trails, table = game.captures, game.trails, self.tpack
        legal: list = []
        if game.capture_optional:
            for r in ranks:
                legal.append(trails[r])
                legal.extend(captures(r, table))
        else:
            for r in ranks:
                legal.extend(captures(r, table))
            if not legal:
                legal = [trails[r] for r in ranks]
        return legal

    def cards_of(self, action: Any) -> tuple[int, list[int] | None]:
        """The physical cards ``action`` moves: the card played, and the cards taken (None for a
        trail). Lowest code first, for the played card and within each rank taken."""
        game = self.game
        rank_of = game.rank_of
        rank = game.rank_index[action.rank]
        code = min(c for c in self.hands[self.current_player] if rank_of[c] == rank)
        if type(action) is Trail:
            return code, None
        return code, _taken(game, self.table, action.take)

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise self.illegal(action)
        player = self.current_player
        code, taken = self.cards_of(action)
        self.hands[player].remove(code)
        if taken is None:
            self._put(code)
        else:
            game = self.game
            rank_of, units, table = game.rank_of, game.units, self.table
            for card in taken:
                rank = rank_of[card]
                table[rank].remove(card)
                self.tpack -= units[rank]
            won = self.won[player]
            won.append(code)
            won.extend(taken)
            self.last_capturer = player
        self.moves += 1
        self._legal = None
        self._advance(player)

    def _advance(self, player: int) -> None:
        """Pass the turn left to the next player holding a card; redeal or end the round."""
        following = self._next_holder(player)
        if following is None and self.stock:
            self._deal_hands()
            following = self._next_holder(player)
        if following is None:
            self._end_round()
        else:
            self.current_player = following

    def _end_round(self) -> None:
        game = self.game
        on_table, swept = tuple(code for cards in self.table for code in cards), None
        if game.leftovers == "last_capturer" and self.last_capturer is not None:
            swept, on_table = (self.last_capturer, on_table), ()
            self.won[self.last_capturer].extend(swept[1])
            for cards in self.table:
                cards.clear()
            self.tpack = 0
        self.round_swept.append(swept)
        self.round_scores.append([len(w) for w in self.won])
        self.round_leftover.append((*on_table, *self.set_aside))
        self.rounds_played += 1
        if self.rounds_played < game.rounds:
            self._start_round(self.rounds_played)
        else:
            self.current_player = None
            self._legal = []

    # -- outcome -----------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Cards won by each seat over the match so far (the current round's included)."""
        totals = [sum(round_[seat] for round_ in self.round_scores) for seat in range(self.game.num_players)]
        if self.current_player is not None:
            totals = [t + len(w) for t, w in zip(totals, self.won, strict=True)]
        return totals

    def round_wins(self) -> list[int]:
        """Rounds each seat won, a shared round counting for every seat that shares it."""
        wins = [0] * self.game.num_players
        for scores in self.round_scores:
            for seat in leaders(scores):
                wins[seat] += 1
        return wins

    def match_totals(self) -> list[int]:
        """What decides the match, by ``match_scoring``: each seat's cards won, or rounds won."""
        return self.scores() if self.game.match_scoring == "total_cards" else self.round_wins()

    def winners(self) -> list[int]:
        return leaders(self.match_totals())

    def result(self) -> dict[str, Any]:
        result: dict[str, Any] = {"scores": self.scores(), "winners": self.winners(), "moves": self.moves,
                                  "rounds": self.rounds_played, "round_wins": self.round_wins(),
                                  "leftover": sum(map(len, self.round_leftover))}
        for number, scores in enumerate(self.round_scores, 1):
            result[f"round{number}_scores"] = scores
        return result

    # -- records -----------------------------------------------------------------------
    def deal_json(self) -> dict[str, Any]:
        return {"rounds": list(self.deals)}

    def snapshot(self) -> dict[str, Any]:
        names = self.game.deck.names
        return {"round": len(self.deals) - 1, "dealer": self.dealer, "player": self.current_player,
                "hands": [[names[c] for c in hand] for hand in self.hands],
                "community": [names[c] for cards in self.table for c in cards],
                "stock": [names[c] for c in reversed(self.stock)],
                "won": [[names[c] for c in won] for won in self.won],
                "set_aside": [names[c] for c in self.set_aside], "round_scores": [list(s) for s in self.round_scores]}

    def all_cards(self) -> list[int]:
        cards = [c for hand in self.hands for c in hand]
        cards += [c for pile in self.table for c in pile]
        cards += [c for won in self.won for c in won]
        return cards + self.stock + self.set_aside

    def clone(self) -> "TurupState":
        other = TurupState.__new__(TurupState)
        other.game, other.seed, other.rng = self.game, self.seed, self.rng
        other.deals = list(self.deals)
        other.dealer, other.tpack, other.last_capturer = self.dealer, self.tpack, self.last_capturer
        other.hands = [list(h) for h in self.hands]
        other.table = [list(t) for t in self.table]
        other.won = [list(w) for w in self.won]
        other.stock, other.set_aside = list(self.stock), list(self.set_aside)
        other.round_scores = [list(s) for s in self.round_scores]
        other.round_leftover = list(self.round_leftover)
        other.round_swept = list(self.round_swept)
        other.rounds_played, other.moves = self.rounds_played, self.moves
        other.current_player, other._legal = self.current_player, self._legal
        return other


def _taken(game: TurupGame, table: list[list[int]], take: tuple[str, ...]) -> list[int]:
    """The community cards a capture of ranks ``take`` picks from ``table`` (per rank, sorted
    codes): the lowest codes of each rank."""
    taken: list[int] = []
    for rid in dict.fromkeys(take):
        taken.extend(table[game.rank_index[rid]][:take.count(rid)])
    return taken


def captures_on(game: TurupGame, card: str, table: list[str],
                where: tuple[str, str] | None = None) -> list[list[str]]:
    """Every capture the card named ``card`` can make on the pile ``table`` (plain card names,
    a repeated name meaning another copy), as the plain names of the cards the game would take.
    ``where``, if given, names where the card and the pile came from (the command's options), to open
    an error about a name in either.

    The k-th occurrence of a name (the played card counted first) is that card's k-th copy, so
    copies are distinct cards and the game's lowest-code-first rule picks earlier ones first.
    """
    names = [card, *table]
    for index, name in enumerate(names):
        try:
            if not name or COPY_MARK in name:
                raise CardgamesError(f"card names must be plain, like 5S or TD, not {clip(name)}")
            game.deck.code(name, plain=True)  # an unknown name gets the deck's own error
        except CardgamesError as exc:
            if where is None:
                raise
            raise CardgamesError(f"{where[min(index, 1)]}: {exc}") from None
    for name, count in Counter(names).items():
        if count > game.deck.copies:
            raise CardgamesError(f"{name} appears {count} times, but {game.id} uses at most {game.deck.copies} deck(s)")
    seen: Counter[str] = Counter()
    codes = []
    for name in names:
        seen[name] += 1
        codes.append(game.deck.code(copy_name(name, seen[name] - 1)))
    played, pile = codes[0], codes[1:]
    by_rank: list[list[int]] = [[] for _ in game.rank_ids]
    for code in sorted(pile):
        by_rank[game.rank_of[code]].append(code)
    faces = [c.face for c in game.deck.cards]
    return [[faces[c] for c in _taken(game, by_rank, capture.take)]
            for capture in game.captures(game.rank_of[played], game.pack(pile))]


def check_config(spec: GameSpec) -> list[str | tuple[tuple, str]]:
    """Semantic checks for ``validate``: ranks and values suit the capture rules, the deal fits."""
    from ...cards import Deck

    deck = Deck(spec.deck, spec.copies)
    opts = spec.options
    errors = []
    if any(card.rank is None for card in deck.cards):
        errors.append((("deck",), f"deck {deck.id} has cards outside its suits x ranks; Turup needs every card to "
                       "have a rank"))
    numerals = [r for r, data in deck.ranks.items() if not data.get("face", False)]
    values = [deck.ranks[r].get("value") for r in numerals]
    if any(not isinstance(v, int) or not 1 <= v <= MAX_VALUE for v in values):
        errors.append((("deck",), f"deck {deck.id}: every numeral rank needs an integer value from 1 to "
                                  f"{MAX_VALUE:,}"))
    elif len(set(values)) != len(values):
        value = next(v for v in values if values.count(v) > 1)
        alike = [r for r, v in zip(numerals, values, strict=True) if v == value]
        each = "both" if len(alike) == 2 else "all"
        errors.append((("deck",), f"deck {deck.id}: numeral ranks must have distinct values (a match is by rank), "
                                  f"but {', '.join(alike[:-1])} and {alike[-1]} are {each} {value}"))
    if deck.ranks and max(Counter(c.rank for c in deck.cards).values()) >= FIELD_MAX:
        errors.append((("deck",), f"at most {FIELD_MAX - 1} cards of one rank are supported"))
    if opts["deal_packet"] > opts["hand_size"]:  # a packet is cut to what the hand still lacks
        errors.append((("options", "deal_packet"), f"options.deal_packet {opts['deal_packet']} is more than a hand "
                       f"(hand_size {opts['hand_size']}): each player would get his whole hand at once; write "
                       f"{opts['hand_size']}"))
    first = opts["hand_size"] * spec.players + opts["community_size"]
    # said at the community's line when it takes more than half the deck (a designer's 60 community cards were
    # blamed on the hands of 4), else at the hands': a rule of the deck alone, so that the counts that share a
    # deck say it at one line (the deal's larger part, before, changed with the count)
    crowd = 2 * opts["community_size"] > len(deck)
    if first > len(deck):
        errors.append((("options", "community_size" if crowd else "hand_size"),
                       f"the first deal needs {first} cards ({spec.players} hands of {opts['hand_size']} and "
                       f"{opts['community_size']} community cards) but the deck holds {len(deck)}"))
    elif not errors:
        crowded = _crowded_pile(spec)
        if crowded is not None:
            errors.append((("options", "community_size"), crowded))
    return errors


#: The deals whose first moves the crowded-pile check asks of (``check_config``): seeds 1-8, native.
SAMPLE_DEALS = range(1, 9)


def _crowded_pile(spec: GameSpec) -> str | None:
    """Why most of the game's deals stop at their first move: in more than half of :data:`SAMPLE_DEALS`, the first
    player holds a card with too many captures on the first community pile to list
    (:meth:`TurupGame.first_move_problem`), or None. A designer's 100 community cards from three decks passed
    validate, and every game stopped at its first capture. Real deals, not a model pile: each value's share of a
    deck of a hundred values (two cards each) rounds to nothing, or to a card of every value, and judged so the
    check refused playable games and passed broken ones (a designer's findings). What it refuses, most games
    meet; games that stop later say at which step. Milliseconds: it runs wherever the game is loaded."""
    game = TurupGame(spec)
    problems = [game.first_move_problem(game.new_state(seed)) for seed in SAMPLE_DEALS]
    found = [problem for problem in problems if problem is not None]
    if 2 * len(found) <= len(problems):
        return None
    return (f"options.community_size {spec.options['community_size']}: in {len(found)} of {len(problems)} deals "
            f"(seeds {SAMPLE_DEALS[0]}-{SAMPLE_DEALS[-1]}) the first player holds a card whose captures on the "
            f"first community pile are too many to list, so the game stops at its first move ({found[0]})")


def deal_facts(spec: GameSpec) -> dict[str, Any]:
    """What ``validate --facts`` shows: decks, cards, full deals and how short the last one is."""
    from ...cards import Deck

    cards = len(Deck(spec.deck, spec.copies))
    opts = spec.options
    full, short = divmod(cards - opts["community_size"], opts["hand_size"] * spec.players)
    return {"decks": spec.copies, "cards": cards, "full_deals": full, "short_deal_cards": short}


GAME = TurupGame
