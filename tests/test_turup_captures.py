"""Turup captures: the seed's worked examples, face cards, and enumeration against brute force."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engine.errors import CardgamesError
from cardgames.engine.games.turup.captures import (
    FIELD_MAX,
    STEP_LIMIT,
    SUBSET_LIMIT,
    capture_vectors,
    expand,
    run_table,
)
from cardgames.engine.games.turup.rules import Capture, captures_on
from cardgames.engine.registry import load_game


@pytest.fixture(scope="module")
def game():
    return load_game("turup", players=4)


@pytest.fixture(scope="module")
def big():
    """Twelve players: three decks, so a name may repeat on the table."""
    return load_game("turup", players=12)


def test_six_takes_six(game):
    assert captures_on(game, "6S", ["6H"]) == [["6H"]]


def test_ten_takes_four_and_six(game):
    assert captures_on(game, "TS", ["4C", "6D"]) == [["4C", "6D"]]


def test_addition_and_match_example(game):
    """Q, 10 and 5 in hand on {3, 2, K, 5}: the 5 takes 2 + 3 and the 5, four cards in all."""
    table = ["3C", "2D", "KS", "5H"]
    assert captures_on(game, "5S", table) == [["5H"], ["2D", "3C"], ["2D", "3C", "5H"]]
    assert captures_on(game, "TS", table) == [["2D", "3C", "5H"]]
    assert captures_on(game, "QS", table) == []


def test_face_cards_only_match(game):
    assert captures_on(game, "JS", ["5H", "6D"]) == []  # 5 + 6 = 11, a jack's value: no addition
    assert captures_on(game, "KS", ["6H", "7D", "KD"]) == [["KD"]]
    assert captures_on(game, "QS", ["2H", "TD"]) == []


def test_a_face_worth_less_than_the_card_played_still_never_joins_an_addition(tmp_path):
    """The rule itself, not the values: in the French deck every face is worth more than any numeral, so no
    French pile can show it (a test that could not fail stood here before; two test audits' finding). On a deck
    whose Jack is worth 3, a 5 still cannot take a Jack and a 2 (a numeral 3 and a 2 it can), nor a 3 the Jack: a
    face is taken only by its own rank."""
    from cardgames.engine.config import Catalog, bundled_root

    for kind, name, text in (("decks", "low-jack", (bundled_root() / "decks" / "french.yaml").read_text()
                              .replace("id: french", "id: low-jack")
                              .replace("{id: J, name: Jack, value: 11, face: true}", "{id: J, name: Jack, value: 3, "
                                                                                     "face: true}")),
                             ("games", "low-jack-turup", (bundled_root() / "games" / "turup.yaml").read_text()
                              .replace("id: turup", "id: low-jack-turup").replace("type: french", "type: low-jack"))):
        (tmp_path / kind).mkdir()
        (tmp_path / kind / f"{name}.yaml").write_text(text)
    low = load_game("low-jack-turup", players=4, catalog=Catalog([tmp_path, bundled_root()]))
    assert low.values[low.rank_index["J"]] == 3  # the deck really is changed
    assert captures_on(low, "5S", ["JH", "2C"]) == []
    assert captures_on(low, "5S", ["3H", "2C"]) == [["2C", "3H"]]  # a numeral 3 does join
    assert captures_on(low, "3S", ["JH"]) == []
    assert captures_on(low, "JS", ["JH", "AC", "2D"]) == [["JH"]]


def test_several_matches_of_a_face_card(big):
    assert captures_on(big, "KS", ["KH", "KH", "2C"]) == [["KH"], ["KH", "KH"]]


def test_copies_are_taken_lowest_code_first(big):
    # The second 3C on the table is 3C#2; a capture of one three takes the first copy.
    assert captures_on(big, "3S", ["3C", "3C"]) == [["3C"], ["3C", "3C"]]
    state = big.new_state(1)
    state.table = [[] for _ in big.rank_ids]
    state.table[big.rank_index["3"]] = [big.deck.code("3C"), big.deck.code("3H"), big.deck.code("3C#2")]
    state.hands[state.current_player] = [big.deck.code("3S#3"), big.deck.code("3S")]
    assert state.cards_of(Capture("3", ("3", "3"))) == (big.deck.code("3S"), [big.deck.code("3C"),
                                                                                big.deck.code("3H")])


def test_bad_names_are_clear_errors(game, big):
    with pytest.raises(CardgamesError, match="unknown card"):
        captures_on(game, "5X", [])
    with pytest.raises(CardgamesError, match="unknown card '5s' in the french deck; did you mean '5S'"):
        captures_on(game, "5s", [])
    with pytest.raises(CardgamesError, match="at most 3 deck"):
        captures_on(big, "5S", ["3C"] * 4)
    with pytest.raises(CardgamesError, match="plain"):
        captures_on(big, "5S", ["3C#2"])
    with pytest.raises(CardgamesError, match=r"unknown card '3H2' in the french deck; did you mean '3H'\?$"):
        captures_on(big, "5S", ["3H2"])  # not '3H#2', a name captures refuses (a repeated 3H is that copy)


def numeral_captures(value: int, counts: list[int]) -> list[tuple[int, ...]]:
    """:func:`capture_vectors` as value tuples (ascending, with repetition): ``(2, 3, 5)``."""
    pieces = run_table(tuple(range(1, value + 1)), max(counts, default=0))
    return [expand(vector, pieces) for vector in capture_vectors(value, counts)]


def partitions(value: int) -> list[tuple[int, ...]]:
    """Every way to write ``value`` as a sum of two or more positive parts (non-increasing): the
    additions a brute force tries, independent of ``captures``, which finds them in the pile."""
    def extend(remaining: int, largest: int) -> list[tuple[int, ...]]:
        if remaining == 0:
            return [()]
        return [(part, *rest) for part in range(min(remaining, largest), 0, -1)
                for rest in extend(remaining - part, part)]

    return [p for p in extend(value, value) if len(p) >= 2]


def test_partitions_of_ten():
    assert len(partitions(10)) == 41  # p(10) - 1: every partition but 10 itself
    assert all(sum(p) == 10 and len(p) >= 2 for p in partitions(10))


def test_listing_order():
    assert numeral_captures(4, [2, 1, 0, 2]) == [(4,), (4, 4), (1, 1, 2), (1, 1, 2, 4), (1, 1, 2, 4, 4)]


def test_the_subset_limit_bounds_the_additions_search_only():
    """``SUBSET_LIMIT`` bounds the sub-piles of values below the card's: sixes to nines alone make
    no addition of a ten, so 100 * 100 * 10 * 20 sub-piles (the limit exactly) are listed, and the
    twelve tens only multiply the captures (1 to 12 matches). One more nine is past the plain
    bound, but of those sub-piles only some 200,000 sum to a multiple of ten: listed too. Two decks'
    A-9 under a ten (6.8 million captures, minutes) are refused."""
    assert SUBSET_LIMIT == 100 * 100 * 10 * 20
    assert numeral_captures(10, [0, 0, 0, 0, 0, 99, 99, 9, 19, 12]) == [(10,) * k for k in range(1, 13)]
    assert numeral_captures(10, [0, 0, 0, 0, 0, 99, 99, 9, 20, 12]) == [(10,) * k for k in range(1, 13)]
    with pytest.raises(CardgamesError, match=r"values 1-9 to list every capture of a 10 \(over the limit of "
                                             r"2,000,000 sub-piles to consider\)"):
        capture_vectors(10, [8] * 9 + [1])


def test_the_step_limit_bounds_the_work_the_sub_piles_do_not():
    """A designer's King worth 60 on 33 cards A-J (three of each): under the sub-pile limit, but 21,107 ways
    to make 60 each extended over some 50,000 sums ran for minutes (a config fuzzer's). Refused at the step
    limit, in some seconds; one deck's fullest pile (A-9, four of each) under a ten is listed, well within it,
    and so is every French pile the sub-pile limit admits (41 ways to make a ten, at most 2,000,000 sums)."""
    assert STEP_LIMIT == 41 * SUBSET_LIMIT
    with pytest.raises(CardgamesError, match=r"too many ways to make a 60 to list every capture of it \(over the "
                                             r"limit of 82,000,000 steps\)"):
        capture_vectors(60, [3] * 11)
    assert len(capture_vectors(10, [4] * 9 + [4])) == 44_544 * 5 - 1  # 0-4 matches with each addition set


def test_a_pile_of_one_value_holds_at_most_field_max_minus_one_cards():
    """Counts live in bytes of 7 bits: 126 aces under a 2 are listed (63 captures: 2, 4, ..., 126 aces), 127 or
    more are refused (a mutant that let 127 through, and so listed any larger pile as 127 cards, passed every
    other test)."""
    assert FIELD_MAX == 127
    assert len(capture_vectors(2, [FIELD_MAX - 1, 0])) == 63
    with pytest.raises(CardgamesError, match="at most 126 community cards of one value are supported"):
        capture_vectors(2, [FIELD_MAX, 0])


def test_a_deck_numbered_to_a_hundred_lists_its_captures():
    """The Uta Karuta's poems as Turup values: a 99 on 24 cards of as many values (2**24 sub-piles,
    past the plain bound) has three additions, 1 + 98, 2 + 97 and 49 + 50, and so seven captures;
    none of the 190 million partitions of 99 is listed to find them."""
    counts = [0] * 98
    for n in [1, 2, 49, 50, 97, 98, *range(75, 93)]:
        counts[n - 1] = 1
    assert sorted(numeral_captures(99, counts)) == sorted(
        tuple(sorted(x for pair in pairs for x in pair))
        for k in range(1, 4) for pairs in combinations([(1, 98), (2, 97), (49, 50)], k))


@settings(max_examples=60)
@given(st.integers(2, 12), st.lists(st.integers(0, 3), min_size=1, max_size=11))
def test_the_tighter_bound_counts_the_sub_piles_that_matter(value, counts):
    """What ``capture_vectors`` considers past the plain bound: the sub-piles below the card's
    value summing to at most it or to a multiple of it, against a count over all of them."""
    from itertools import product

    from cardgames.engine.games.turup.captures import _subpiles_to_consider

    vector = bytes(counts[:value - 1] + [0] * (value - len(counts[:value - 1])))
    sums = [sum((i + 1) * k for i, k in enumerate(v)) for v in product(*(range(c + 1) for c in vector[:-1]))]
    assert _subpiles_to_consider(value, vector) == sum(1 for t in sums if 0 < t <= value or t % value == 0 and t)


def brute_force(game, played: int, table: list[int]) -> list[tuple[str, ...]]:
    """Every distinct rank multiset of every subset of the physical table that splits into
    groups (a same-rank match, or two or more numerals summing to the played value)."""
    rank_of, values, face = game.rank_of, game.values, game.face
    rank = rank_of[played]

    def splits(cards: tuple[int, ...]) -> bool:
        if not cards:
            return True
        first, rest = cards[0], cards[1:]
        if rank_of[first] == rank and splits(rest):
            return True
        if face[rank] or face[rank_of[first]]:
            return False
        for size in range(1, len(rest) + 1):
            for group in combinations(range(len(rest)), size):
                members = [rest[i] for i in group]
                if any(face[rank_of[c]] for c in members):
                    continue
                if values[rank_of[first]] + sum(values[rank_of[c]] for c in members) == values[rank]:
                    if splits(tuple(c for i, c in enumerate(rest) if i not in group)):
                        return True
        return False

    found = set()
    for size in range(1, len(table) + 1):
        for subset in combinations(table, size):
            if splits(subset):
                found.add(tuple(game.rank_ids[r] for r in sorted(rank_of[c] for c in subset)))
    return sorted(found)


@given(st.lists(st.integers(0, 155), min_size=1, max_size=10, unique=True))
def test_enumeration_equals_brute_force(big, cards):
    played, table = cards[0], cards[1:]
    listed = big.captures(big.rank_of[played], big.pack(table))
    takes = [c.take for c in listed]
    assert len(set(takes)) == len(takes)
    assert sorted(takes) == brute_force(big, played, table)
    assert all(isinstance(c, Capture) and c.rank == big.rank_ids[big.rank_of[played]] for c in listed)


@given(st.integers(1, 10), st.lists(st.integers(0, 2), min_size=10, max_size=10))
def test_enumeration_on_counts_equals_brute_force(value, counts):
    """The count-vector enumeration against a brute force over sub-vectors of the counts."""
    from itertools import product

    def splits(vector: tuple[int, ...]) -> bool:
        if not any(vector):
            return True
        low = next(i for i, c in enumerate(vector) if c)
        if low == value - 1:
            return True  # only matches are left
        for parts in partitions(value):
            if low + 1 not in parts:
                continue
            rest = list(vector)
            for p in parts:
                rest[p - 1] -= 1
            if min(rest) >= 0 and splits(tuple(rest)):
                return True
        return False

    counts = counts[:value]
    expected = []
    for vector in product(*(range(c + 1) for c in counts)):
        if any(vector) and splits(vector):
            expected.append(tuple(v for i, c in enumerate(vector) for v in [i + 1] * c))
    assert sorted(numeral_captures(value, counts)) == sorted(expected)


def test_taken_cards_are_the_lowest_codes_whatever_the_table_order(game):
    """Lowest card code first, clubs before spades, hearts and diamonds: one three of 3H, 3C is
    the 3C, however ``--table`` lists them."""
    assert captures_on(game, "3S", ["3H", "3D", "3C"]) == [["3C"], ["3C", "3H"], ["3C", "3H", "3D"]]
    assert captures_on(game, "9S", ["5D", "4H", "4C", "5C"]) == [["4C", "5C"], ["4C", "4H", "5C", "5D"]]


@given(st.integers(1, 12), st.lists(st.integers(0, 3), min_size=12, max_size=12))
def test_one_each_equals_brute_force(value, counts):
    """``capture_groups: one_each``: a capture takes at most one match and at most one addition, against a
    brute force over the sub-vectors of the counts."""
    from itertools import product

    counts = counts[:value]
    expected = []
    for vector in product(*(range(c + 1) for c in counts)):
        matches, below = vector[value - 1], vector[:value - 1]
        parts = sum(below)
        addition = sum((i + 1) * k for i, k in enumerate(below))
        if matches <= 1 and (parts == 0 or (parts >= 2 and addition == value)) and (matches or parts):
            expected.append(tuple(v for i, c in enumerate(vector) for v in [i + 1] * c))
    pieces = run_table(tuple(range(1, value + 1)), max(counts, default=0))
    listed = [expand(vector, pieces) for vector in capture_vectors(value, counts, any_groups=False)]
    assert sorted(listed) == sorted(expected)
    keys = [bytes(t.count(v) for v in range(1, value + 1)) for t in listed]  # listed as the default lists them
    assert keys == sorted(keys)


def test_one_each_takes_one_group_of_each_kind(tmp_path):
    """The option a rules audit asked for: the seed's examples take one match, one addition, or one of each;
    ``one_each`` stops there (a ten on A, 9, 4, 6 and a ten takes A + 9 or 4 + 6, with or without the ten, not
    both; a king on two kings takes one), and the seed's own examples come out the same."""
    from cardgames.engine.games.turup.rules import TurupGame

    spec = load_game("turup", players=4).spec
    one = TurupGame(dataclasses.replace(spec, options={**spec.options, "capture_groups": "one_each"}))
    assert captures_on(one, "TS", ["AC", "9D", "4C", "6D", "TH"]) == [
        ["TH"], ["4C", "6D"], ["4C", "6D", "TH"], ["AC", "9D"], ["AC", "9D", "TH"]]
    assert captures_on(one, "KS", ["KH", "KD", "5C"]) == [["KH"]]
    assert captures_on(one, "5S", ["3C", "2D", "KS", "5H"]) == [["5H"], ["2D", "3C"], ["2D", "3C", "5H"]]
    assert captures_on(one, "6S", ["6H"]) == [["6H"]] and captures_on(one, "TS", ["4C", "6D"]) == [["4C", "6D"]]
    game = load_game("turup", players=4)  # the default takes any union of groups
    assert ["AC", "4C", "6D", "9D", "TH"] in captures_on(game, "TS", ["AC", "9D", "4C", "6D", "TH"])
    assert captures_on(game, "KS", ["KH", "KD", "5C"]) == [["KH"], ["KH", "KD"]]
