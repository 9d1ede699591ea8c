"""Rules of Torqu, driven by config (configs/games/torqu.yaml and its variants).

A game is a series of matches. Each match deals a fresh shuffle (match ``k`` uses deal number
``k``): hands, then the centre tableau (see :mod:`.layout`). A turn is:

1. ``Draw(cards)``: take two cards exposed at the same time that pair (same suit, same number,
   consecutive numbers; with Dragons also a shared picture). In Death the second card may come
   from another player's personal tableau; the first always comes from the centre.
2. ``Lay(card)``, any number of times: move a hand card onto the player's personal tableau
   (filled centre stack first, then primaries N..NW, then secondaries, each to capacity).
3. ``EndTurn()``. The turn ends by itself when nothing more can be laid.

The match ends when the next player cannot draw (Death: when the centre is empty or nobody can
draw; a player who cannot draw is skipped). Then every tableau is scored by its exact best
arrangement, hand penalties are subtracted, stones move on the board (:mod:`.board`), and the
next match is dealt unless a stone reached the end or ``max_matches`` were played.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...config import DECK_FILE, GameSpec
from ...core import Game, State, leaders
from ...errors import CardgamesError, OptionConflictError
from ...schema import BOOL, INT, LIST, MAP, STR, Field, between, non_negative, player_count, positive
from ...wording import counted, did_you_mean, players_named, spans, wins_phrase, written
from .board import COLLISIONS, move_stones, target_space
from .layout import Tableau, capacity_total
from .optimise import fits_number_kinds, fits_packed_counts, fits_table_values, fits_wild_cards
from .scoring import Scorer, most_scored, pictures_problem, points_of
from .sets import KINDS, SET_SIZE


def _rows(keys: tuple[str, ...]):
    """A check of a per-player-count table, each fault said at its row's line (or its value's): a designer
    mends row 5, not the table's first line."""
    def check(value: Any) -> tuple[tuple, str] | None:
        for count, row in value.items():
            if player_count(count) is None:
                return (count,), f"keys must be player counts, not {count!r}"
            if not isinstance(row, dict) or set(row) != set(keys):
                # the key at fault named, a close one offered (a designer's "hands" was not)
                odd = sorted(set(row) - set(keys), key=str) if isinstance(row, dict) else []
                hint = f" (unknown key {odd[0]!r}{did_you_mean(str(odd[0]), keys, 0.6)})" if odd else ""
                return (count,), f"row {count} must have exactly the keys {', '.join(keys)}{hint}"
            for key, v in row.items():  # named, value and all: a row holds four numbers (a designer's finding)
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    return (count, key), f"row {count}: {key} must be a non-negative integer, not {written(v)}"
        return None
    return check


DEAL_KEYS = ("hand", "center", "primary", "secondary")
TABLEAU_KEYS = ("center", "primary", "secondary")

OPTIONS = {
    "deal": Field(MAP, "per player count: cards to each hand, the centre stack, each primary, each secondary",
                  open=True, check=_rows(DEAL_KEYS), by_players=True),
    "exposed_at_start": Field(INT, "exposed centre cards right after the deal (checked by validate)", check=positive),
    "tableau": Field(MAP, "per player count: personal tableau capacities of the centre, each primary, each secondary",
                     open=True, check=_rows(TABLEAU_KEYS), by_players=True),
    "pair_wraps": Field(BOOL, "whether the highest and lowest numbers count as consecutive when drawing"),
    "points": Field(MAP, "set points", fields={k: Field(INT, k.replace("_", " "), check=non_negative)
                                               for k in KINDS}),
    "fifteen_sum": Field(INT, "the sum a Fifteen or Fifteen Flush needs", check=positive),
    "wild_cards": Field(LIST, "cards that are wild when scoring (the Mirrors)", items=Field(STR)),
    "wild_in_hand": Field(BOOL, "whether wild cards are wild in the hand penalty too"),
    "hand_penalty": Field(STR, "how the hand counts against the player", choices=("sets_at_full_value", "card_values")),
    "board_end": Field(INT, "the last board space (the white centre); the start is 0", check=positive),
    "points_per_space": Field(INT, "match points per board space", check=positive),
    "collision": Field(STR, "when a stone's target space is taken: the mover steps back, or the lower match "
                       "score of the two steps back", choices=COLLISIONS),
    "max_matches": Field(INT, "matches after which an unfinished game stops (at most 1000: a game of a million "
                              "matches would never end)", check=between(1, 1000)),
    "first_player": Field(INT, "the seat that plays first in the first match (the seat on its right deals "
                               "it), counted modulo the player count so that one value serves every count",
                          check=non_negative),
    "death": Field(BOOL, "the Death variant"),
    "partners": Field(BOOL, "the Partners variant"),
    "partners_tableau": Field(STR, "Partners: the shared tableau's score counts once for the team, or once for each "
                              "partner (each adding his own match score)", choices=("once", "each")),
    "dragons": Field(BOOL, "the Dragons variant"),
}


class Draw(NamedTuple):
    """Take two exposed cards that pair: ``cards`` = (first, second)."""

    cards: tuple[str, str]


class Lay(NamedTuple):
    """Lay a hand card onto the player's personal tableau."""

    card: str


class EndTurn(NamedTuple):
    """Stop laying cards; the next player draws."""


END_TURN = EndTurn()


def unplayable(spec: GameSpec) -> str | None:
    """Partners needs an even player count with at least two teams."""
    if spec.options["partners"] and (spec.players % 2 or spec.players < 4):
        return f"partners play (option partners) needs an even number of players, 4 or more (not {spec.players})"
    return None


class TorquGame(Game["TorquState"]):
    """Torqu for a player count and variants: the deal table's row, the scoring options and the board."""

    ACTIONS = (Draw, Lay, EndTurn)

    def __init__(self, spec: GameSpec):
        super().__init__(spec)
        reason = unplayable(spec)
        if reason:
            raise OptionConflictError(reason)
        opts = spec.options
        row = _row(opts["deal"], self.num_players, "deal")
        self.deal_row = tuple(row[k] for k in DEAL_KEYS)
        cap = _row(opts["tableau"], self.num_players, "tableau")
        self.capacity = tuple(cap[k] for k in TABLEAU_KEYS)
        self.death, self.partners = opts["death"], opts["partners"]
        self.teams = self.num_players // 2 if self.partners else self.num_players
        #: How many times a team's tableau score enters its match score (``partners_tableau``).
        self.tableau_times = 2 if self.partners and opts["partners_tableau"] == "each" else 1
        self.scorer = Scorer(self.deck, opts)
        self.end, self.per_space, self.max_matches = opts["board_end"], opts["points_per_space"], opts["max_matches"]
        #: The first match's dealer: the seat on ``first_player``'s right (seats counted modulo the
        #: player count); the deal then passes left.
        self.first_dealer: int = (opts["first_player"] - 1) % self.num_players
        self.first_seat = opts["first_player"] % self.num_players
        self.collision = opts["collision"]
        names = self.deck.names
        self.lays = tuple(Lay(n) for n in names)
        cards = self.deck.cards
        top = max(c.value for c in cards)
        pics = self.scorer.idents
        partner: list[dict[int, Draw]] = []
        for a in cards:
            mates = {}
            for b in cards:
                if a.code == b.code:
                    continue
                diff = abs(a.value - b.value)
                if (a.suit == b.suit or diff <= 1 or (opts["pair_wraps"] and diff == top - 1)
                        or set(pics[a.code].pictures) & set(pics[b.code].pictures)):
                    mates[b.code] = Draw((names[a.code], names[b.code]))
            partner.append(mates)
        # partner[a]: every card that pairs with card a, mapped to the action drawing a then it
        # (built once: finding a turn's draws is on every game's path)
        self.partner = tuple(partner)

    def owner(self, seat: int) -> int:
        """The tableau and stone a seat plays for (its team in Partners)."""
        return seat % self.teams

    def new_state(self, seed: int | str, rng: str = "native") -> "TorquState":
        return TorquState(self, seed, rng)

    deal_name = "match"

    def current_deal(self, state: "TorquState") -> dict[str, Any]:
        deal = dict(state.deals[-1])
        del deal["dealer"]
        return deal

    def describe_action(self, state: "TorquState", action: Any) -> str:
        seat = state.current_player
        if type(action) is Draw:
            source = ""
            if self.death:  # the second card may come from a personal tableau: say whose
                second = self.deck.by_name[action.cards[1]].code
                owner = next((t for t, tableau in enumerate(state.tableaus) if second in tableau.exposed()), None)
                source = "" if owner is None else f" from the tableau of {self._team_name(owner)}"
            # a full tableau takes no card: the turn ends with the draw (a designer read a draw with no lay after it
            # as a step missing)
            full = "" if state.tableaus[self.owner(seat)].room() else (
                f" ({'the team' if self.partners else 'their'} tableau is full: the pair stays in hand)")
            if source:  # the first card is the centre's: said, so that both are not read as the tableau's
                return f"player {seat} draws {action.cards[0]} from the centre and {action.cards[1]}{source}{full}"
            return f"player {seat} draws {action.cards[0]} and {action.cards[1]}{full}"
        if type(action) is Lay:
            place = state.tableaus[self.owner(seat)].next_place()
            return f"player {seat} lays {action.card} on {'the team' if self.partners else 'their'} tableau ({place})"
        return f"player {seat} ends the turn"

    def describe_deal_end(self, state: "TorquState") -> list[str]:
        """Each team's tableau score, hand penalties, match score and stone move (and why a stone stopped
        short of its score's space), who won the match (the seed's "attain the highest point total to win a
        match"; a tie is shared), and the sets behind each score: a teacher showing why a tableau is
        worth 950 had to rebuild it from the lays and ask ``score``. Naming the sets costs the search
        for them, which a game's own scoring skips (:meth:`.Scorer.value`), so only narration pays it."""
        detail, scores = state.match_details[-1], state.match_scores[-1]
        why = "the centre is empty" if detail["center_empty"] else "no pair can be drawn"
        lines = [f"match {len(state.match_scores)} ends ({why}):"]
        team_scores = [scores[self.seats_of(team)[0]] for team in range(self.teams)]
        best = leaders(team_scores)
        tableaus, hands = state.ended
        for team in range(self.teams):
            seats = self.seats_of(team)
            penalties = ", ".join(str(detail["hand_penalties"][seat]) for seat in seats)  # as `score` names them
            times = f" x {self.tableau_times}" if self.tableau_times > 1 else ""
            wins = (", wins the match" + (" (shared)" if len(best) > 1 else "")) if team in best else ""
            before, after = detail["before"][team], detail["after"][team]
            lines.append(f"  {self._team_name(team)}: tableau {detail['tableau_scores'][team]}{times}, "
                         f"hand penalt{'ies' if len(seats) > 1 else 'y'} {penalties}: match score {team_scores[team]}"
                         f"{wins}; stone {before} -> {after}{self._stone_note(team_scores[team], before, after)}")
            lines += self._arrangement_words("tableau", self.scorer.tableau_score(tableaus[team]), "left out", -1)
            for seat in seats:
                owner = f"player {seat}'s hand" if len(seats) > 1 else "hand"
                lines += self._arrangement_words(owner, self.scorer.hand_arrangement(hands[seat]), "in no set", 1)
        return lines

    def _arrangement_words(self, owner: str, arranged: dict[str, Any], left: str, sign: int) -> list[str]:
        """An arrangement's lines: each set's kind (a Perfect Four's picture too), cards (a wild card
        with what it stands for) and points, then the cards in no set and what their numbers count
        (against a tableau, ``sign`` -1; into a hand's penalty, +1)."""
        lines = []
        for entry in arranged["sets"]:
            cards = self.scorer.set_cards(entry)
            lines.append(f"    {owner}: {self.scorer.set_title(entry)}, {cards}: {entry['points']}")
        if arranged["leftover"]:
            total = sum(self.deck.cards[self.deck.code(n)].value for n in arranged["leftover"])
            lines.append(f"    {owner}: {left}, {' '.join(arranged['leftover'])}: {sign * total}")
        return lines

    def _stone_note(self, score: int, before: int, after: int) -> str:
        """Why a stone did not land where its score sends it: that space was taken (the seed's "no two
        stones can occupy the same space"), by a stone that moved before it or, under ``collision:
        lower_steps_back``, by one that scored more and pushed it back (a teacher's finding: "168
        points, stone 0 -> 0" read as a bug)."""
        target = target_space(before, score, self.per_space, self.end)
        if after == target:
            return ""
        if target == before:  # it did not move: a stone that moved pushed it back
            return f" (a stone that scored more took space {target}: this one steps back to the nearest free space)"
        # every space it stepped back over was taken (a designer read "space 8 is taken" beside "-> 6" as
        # incomplete, 7 being taken by a stone whose line came later)
        taken = "space " if after == target - 1 else "spaces "
        taken += spans(range(after + 1, target + 1)) + (" is" if after == target - 1 else " are")
        return f" ({taken} taken: it steps back to the nearest free space)"

    def describe_end(self, state: "TorquState") -> list[str]:
        """The stone that reached the board's last space, or the ``max_matches`` that ended the game."""
        if state.finished:
            team = state.positions.index(self.end)
            return [f"{self._team_name(team)}'s stone reaches space {self.end}: {self.winners_said(state)}"]
        return [f"no stone reached space {self.end} before max_matches ({self.max_matches}) ended the game: it is "
                f"unfinished ({self.winners_said(state, lead=True)})"]

    def winners_said(self, state: "TorquState", lead: bool = False) -> str:
        """By team: Partners share one stone, and win or lead as one ("players 0 and 2 win")."""
        return wins_phrase([self.seats_of(team) for team in leaders(state.positions)], lead)

    def seats_of(self, team: int) -> list[int]:
        """The seats sharing ``team``'s tableau and stone (one seat without Partners)."""
        return [seat for seat in range(self.num_players) if self.owner(seat) == team]

    def _team_name(self, team: int) -> str:
        """``player 2``, or with Partners ``players 0 and 2``."""
        return players_named(self.seats_of(team))

    def render_deal(self, deal: dict[str, Any]) -> str:
        from .layout import STACK_NAMES, Tableau

        stacks = [deal["center"], *deal["primaries"], *deal["secondaries"]]
        width = max(map(len, STACK_NAMES))  # names right-aligned: the colons line up
        lines = [f"{name:>{width}}: {' '.join(stack)}" for name, stack in zip(STACK_NAMES, stacks, strict=True)]
        centre = Tableau()  # its stacks hold names here: the exposure rule reads only which stacks are empty
        centre.center, centre.primaries, centre.secondaries = deal["center"], deal["primaries"], deal["secondaries"]
        lines.append(f"exposed: {' '.join(centre.exposed())}")
        for seat, hand in enumerate(deal["hands"]):
            lines.append(f"player {seat} hand: {' '.join(hand)}")
        return "\n".join(lines)


def _row(table: Any, players: int, what: str) -> Any:
    return table[_row_key(table, players, what)]


def _row_key(table: Any, players: int, what: str) -> Any:
    """The key of ``players``' row in a per-player-count table (keys may be written as strings)."""
    for key in table:
        if int(key) == players:
            return key
    raise CardgamesError(f"options.{what} has no row for {players} players")


class TorquState(State[TorquGame]):
    """A Torqu game in progress: the match being played (centre, hands, personal tableaus) and the stones on the
    board, over as many matches as it takes a stone to reach the centre."""

    def __init__(self, game: TorquGame, seed: int | str, rng: str):
        self.game = game
        self.seed, self.rng = seed, rng
        self.positions = [0] * game.teams
        self.deals: list[dict[str, Any]] = []
        self.match_scores: list[list[int]] = []
        self.match_details: list[dict[str, Any]] = []
        #: The last match's tableaus and hands (codes) as it ended, which the next deal replaces: narration
        #: names their sets (:meth:`TorquGame.describe_deal_end`). Not part of a snapshot or a result.
        self.ended: tuple[list[list[int]], list[list[int]]] = ([], [])
        self.rounds_played = 0
        self.moves = 0
        self.finished = False
        self._current: int | None = None
        self._deal()

    # -- dealing ---------------------------------------------------------------------------
    def _deal(self) -> None:
        game = self.game
        n = game.num_players
        k = self.rounds_played
        self.dealer = (game.first_dealer + k) % n
        order = game.shuffled(self.seed, self.rng, deal_number=k)
        order.reverse()  # the shuffled list's end is the top of the pile
        hand, center, primary, secondary = game.deal_row
        self.hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(hand):
            for i in range(n):
                self.hands[(self.dealer + 1 + i) % n].append(order[pos])
                pos += 1
        self.center = Tableau.dealt(order[pos:], center, primary, secondary)
        self.tableaus = [Tableau(game.capacity) for _ in range(game.teams)]
        names = game.deck.names
        self.deals.append({"dealer": self.dealer, "hands": [[names[c] for c in h] for h in self.hands],
                           **self.center.to_json(names)})
        self.phase = "draw"
        self._current = (self.dealer + 1) % n
        self._legal: list | None = self._draws(self._current) or None
        if self._legal is None:
            self._next_drawer(self._current)

    # -- the contract ----------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self._current

    def legal_actions(self) -> list:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list:
        seat = self._current
        if seat is None:
            return []
        if self.phase == "draw":
            return self._draws(seat)
        game = self.game
        return [game.lays[c] for c in sorted(self.hands[seat])] + [END_TURN]

    def _draws(self, seat: int) -> list:
        game = self.game
        partner = game.partner
        center = sorted(self.center.exposed())
        out = []
        for i, a in enumerate(center):
            mates = partner[a]
            for b in center[i + 1:]:
                draw = mates.get(b)
                if draw is not None:
                    out.append(draw)
        if game.death:
            own = game.owner(seat)
            others = sorted(c for t, tab in enumerate(self.tableaus) if t != own for c in tab.exposed())
            for a in center:
                mates = partner[a]
                out.extend(mates[b] for b in others if b in mates)
            out.sort(key=lambda d: (game.deck.by_name[d.cards[0]].code, game.deck.by_name[d.cards[1]].code))
        return out

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise self.illegal(action)
        game = self.game
        seat = self._current
        code = game.deck.by_name
        tableau = self.tableaus[game.owner(seat)]
        self.moves += 1
        self._legal = None
        if type(action) is Draw:
            for name in action.cards:
                card = code[name].code
                if not self.center.take(card):  # Death: the second card may be from a personal tableau
                    next(t for t in self.tableaus if t.take(card))
                self.hands[seat].append(card)
            self.phase = "lay"
        elif type(action) is Lay:
            card = code[action.card].code
            self.hands[seat].remove(card)
            tableau.lay(card)
        else:
            self._end_turn()
            return
        if not self.hands[seat] or not tableau.room():
            self._end_turn()

    def _end_turn(self) -> None:
        self.phase = "draw"
        self._next_drawer(self._current)

    def _next_drawer(self, seat: int) -> None:
        """Give the turn to the next player who can draw, or end the match."""
        n = self.game.num_players
        candidates = [(seat + 1 + i) % n for i in range(n)]
        if not self.game.death:
            candidates = candidates[:1]
        for nxt in candidates:
            draws = self._draws(nxt)  # none once the centre is empty: a draw's first card is the centre's
            if draws:
                self._current, self._legal = nxt, draws
                return
        self._end_match()

    # -- end of a match --------------------------------------------------------------------
    def _end_match(self) -> None:
        game = self.game
        n = game.num_players
        scorer = game.scorer
        cards = [t.cards() for t in self.tableaus]
        tableau_scores = [scorer.tableau_value(c) for c in cards]
        penalties = [scorer.hand_value(h) for h in self.hands]
        team = [game.tableau_times * tableau_scores[t] for t in range(game.teams)]
        for seat in range(n):
            team[game.owner(seat)] -= penalties[seat]
        scores = [team[game.owner(seat)] for seat in range(n)]
        order: list[int] = []
        for i in range(n):
            owner = game.owner((self.dealer + 1 + i) % n)
            if owner not in order:
                order.append(owner)
        before = list(self.positions)
        self.positions = move_stones(self.positions, team, order, game.per_space, game.end, game.collision)
        self.match_scores.append(scores)
        self.ended = (cards, self.hands)  # the next deal makes new hands: these are kept as they are
        # why the match ended is kept with it: the next match is dealt before anyone reads it
        self.match_details.append({"tableau_scores": tableau_scores, "hand_penalties": penalties, "before": before,
                                   "after": list(self.positions), "center_empty": not len(self.center)})
        self.rounds_played += 1
        if game.end in self.positions:
            self.finished = True
            self._current = None
        elif self.rounds_played >= game.max_matches:
            self._current = None
        else:
            self._deal()

    # -- results ---------------------------------------------------------------------------
    def winners(self) -> list[int]:
        """The seats whose stone is furthest along: the winners of a finished game, and the leaders
        of one stopped before a stone reached the end (``max_matches``, or ``simulate --matches``),
        as Turup names its leaders when stopped after some rounds."""
        return leaders([self.positions[self.game.owner(s)] for s in range(self.game.num_players)])

    def result(self) -> dict[str, Any]:
        game = self.game
        n = game.num_players
        result = {"scores": [self.positions[game.owner(s)] for s in range(n)], "winners": self.winners(),
                  "moves": self.moves, "matches": self.rounds_played, "finished": self.finished,
                  "positions": list(self.positions), "match_scores": self.match_scores,
                  "match_points": [sum(m[s] for m in self.match_scores) for s in range(n)]}
        if game.partners:
            result["teams"] = [game.owner(s) for s in range(n)]
        return result

    def deal_json(self) -> dict[str, Any]:
        return {"matches": list(self.deals)}

    def snapshot(self) -> dict[str, Any]:
        names = self.game.deck.names
        return {"match": self.rounds_played, "dealer": self.dealer, "phase": self.phase,
                "current_player": self._current, "center": self.center.to_json(names),
                "exposed": [names[c] for c in self.center.exposed()],
                "hands": [[names[c] for c in h] for h in self.hands],
                "tableaus": [t.to_json(names) for t in self.tableaus], "positions": list(self.positions),
                "last_match": self.match_details[-1] if self.match_details else None}

    def all_cards(self) -> list[int]:
        return self.center.cards() + [c for h in self.hands for c in h] + [c for t in self.tableaus for c in t.cards()]

    def clone(self) -> "TorquState":
        other = TorquState.__new__(TorquState)
        other.__dict__.update(self.__dict__)
        other.positions = list(self.positions)
        other.deals = list(self.deals)
        other.match_scores = list(self.match_scores)
        other.match_details = list(self.match_details)
        other.hands = [list(h) for h in self.hands]
        other.center = self.center.copy()
        other.tableaus = [t.copy() for t in self.tableaus]
        other._legal = None
        return other


def check_config(spec: GameSpec) -> list[str | tuple[tuple, str]]:
    """Every deal row adds up to the deck, leaves the right number of cards exposed, the
    tableau capacities and wild cards exist, and the scorer can count the deck's numbers, hold
    the values its points make and value sets the way its number side assumes (a flush kind worth
    at least its plain kind, four suits for wild cards)."""
    from ...cards import Deck

    errors = []
    deck = Deck(spec.deck, spec.copies)
    opts = spec.options
    n = spec.players
    keys = {}
    for what in ("deal", "tableau"):  # a missing row, said at its table's line (a designer's finding: the options')
        try:
            keys[what] = _row_key(opts[what], n, what)
        except CardgamesError as exc:
            return [(("options", what), str(exc))]
    dealt, exposed = _row_shape(opts["deal"][keys["deal"]], n, len(deck))
    cap = opts["tableau"][keys["tableau"]]
    at_row = ("options", "deal", keys["deal"])  # errors point at the row's own line
    if dealt != len(deck):
        errors.append((at_row, f"options.deal for {n} players deals {dealt} cards, but the deck has {len(deck)}"))
    elif exposed != opts["exposed_at_start"]:
        shapes = {_row_shape(row, int(count), len(deck))[1] for count, row in opts["deal"].items()} - {None}
        if shapes == {exposed}:  # every row agrees: the number they are held to is what to mend, said once there
            errors.append((("options", "exposed_at_start"), f"options.exposed_at_start is "
                           f"{opts['exposed_at_start']}, but every row of options.deal leaves {exposed} exposed"))
        else:
            errors.append((at_row, f"options.deal for {n} players leaves {exposed} cards exposed, "
                                   f"not {opts['exposed_at_start']}"))
    room = capacity_total((cap["center"], cap["primary"], cap["secondary"]))
    if room < SET_SIZE:  # a tableau that holds no set scores only what it leaves out (a designer's finding)
        errors.append((("options", "tableau", keys["tableau"]),
                       f"options.tableau for {n} players has no room" if not room else
                       f"options.tableau for {n} players holds {counted(room, 'card')}, fewer than a set's {SET_SIZE}: "
                       "no set could ever score"))
    for i, name in enumerate(opts["wild_cards"]):
        if name not in deck.by_name:
            errors.append((("options", "wild_cards", i), f"options.wild_cards: no card {name!r} in deck {deck.id}"))
        elif name in opts["wild_cards"][:i]:  # a designer's slip, said rather than read as one card
            errors.append((("options", "wild_cards", i), f"options.wild_cards: {name!r} is listed twice"))
    why = pictures_problem(deck)
    if why:
        errors.append(((DECK_FILE, *why[0]), why[1]))
    numbers = [c.value for c in deck.cards]
    why = fits_packed_counts(min(numbers), max(numbers), max(numbers.count(n) for n in set(numbers)))
    if why:  # the points' room follows the numbers: past them it is no figure to show (a set "worth up to -2^48")
        return [*errors, (("deck",), f"deck {deck.id}: {why}")]
    pts = points_of(opts, max(numbers))
    why = fits_table_values(pts, most_scored(opts, len(deck)))
    if why:
        errors.append((("options", "points"), f"options.points: {why}"))
    faulty = fits_number_kinds(pts)
    if faulty:
        errors.append((("options", "points", faulty[0]), f"options.points.{faulty[0]}: {faulty[1]}"))
    why = fits_wild_cards(len(deck.suits), bool(opts["wild_cards"]))
    if why:
        errors.append((("deck",), f"deck {deck.id}: {why}"))
    return errors


def _deal_shape(spec: GameSpec, deck_size: int) -> tuple[Any, int, int | None]:
    """The deal row for ``spec``'s players, the cards it deals, and the cards it leaves exposed
    (:func:`_row_shape`)."""
    row = _row(spec.options["deal"], spec.players, "deal")
    return (row, *_row_shape(row, spec.players, deck_size))


def _row_shape(row: Any, players: int, deck_size: int) -> tuple[int, int | None]:
    """The cards a deal row deals to ``players``, and the cards it leaves exposed: None when it does not
    deal exactly the deck (its geometry is then not built, however many cards it asks for)."""
    dealt = players * row["hand"] + capacity_total((row["center"], row["primary"], row["secondary"]))
    if dealt != deck_size:
        return dealt, None
    return dealt, len(Tableau.dealt(list(range(dealt)), row["center"], row["primary"], row["secondary"]).exposed())


def deal_facts(spec: GameSpec) -> dict[str, Any]:
    """Shown by ``validate --facts``: the deal table's row for the player count (hand each, centre, each
    primary, each secondary), the deck's cards and those it deals (every one: the two columns side by side
    show the row adds up), how many start exposed (9), and what a personal tableau holds."""
    from ...cards import Deck

    cards = len(Deck(spec.deck, spec.copies))
    row, dealt, exposed = _deal_shape(spec, cards)
    cap = _row(spec.options["tableau"], spec.players, "tableau")
    return {"hand": row["hand"], "center": row["center"], "primary": row["primary"], "secondary": row["secondary"],
            "cards": cards, "dealt": dealt, "exposed": exposed,
            "tableau": capacity_total((cap["center"], cap["primary"], cap["secondary"]))}


GAME = TorquGame
