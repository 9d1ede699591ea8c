"""PySolFC game numbers: the reference's two test vectors and number parsing."""

from __future__ import annotations

import pytest

from cardgames.engine.errors import CardgamesError
from cardgames.engine.pysolfc import normalize
from cardgames.engine.registry import load_game


def faces(names):
    return [n.split("#")[0] for n in names]


@pytest.fixture(scope="module")
def eiffel():
    return load_game("eiffel-tower")


@pytest.mark.parametrize("number", ["1", "ms1", "#ms-1", " 1L"])
def test_game_1_lcg(eiffel, number):
    deal = eiffel.new_state(normalize(number), "pysolfc").deal_json()
    rows = [r[0] for r in deal["rows"]]
    assert faces(rows) == "3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS QC 4H".split()
    assert faces(deal["waste"]) == ["KD"]
    assert faces(deal["stock"][:9]) == "2H TD 8S AC 7C 2H AD 9H 8S".split()
    assert len(deal["stock"]) == 83


def test_game_123456_mersenne_twister(eiffel):
    deal = eiffel.new_state("123456", "pysolfc").deal_json()
    rows = [r[0] for r in deal["rows"]]
    assert faces(rows) == "6H 4H 4C 5S AC AS 8C AH QC 9S 7D TD 3C KD 8H 6C 7H TS 8D QH".split()
    assert faces(deal["waste"]) == ["7H"]
    assert faces(deal["stock"][:8]) == "6S 3D 4D KC JD TC 7D KH".split()


def test_copies_are_told_apart(eiffel):
    deal = eiffel.new_state("1", "pysolfc").deal_json()
    names = [r[0] for r in deal["rows"]] + deal["waste"] + deal["stock"]
    assert len(set(names)) == 104


@pytest.mark.parametrize("text,expected", [("ms1", "ms1"), ("MS 12", "ms12"), ("00000000000000123456", "123456"),
                                           ("0" * 30 + "123456", "123456"), ("7L", "7"), ("ms-00012", "ms12"),
                                           ("#1,000", "1000"), ("8589934591", "8589934591"),
                                           ("ms8589934591", "ms8589934591"), ("9" * 20, "9" * 20)])
def test_normalize(text, expected):
    assert normalize(text) == expected


@pytest.mark.parametrize("bad", ["0", "000", "ms0", "abc", "ms8589934592", "1.5e3", "", "7L ", "1" * 21])
def test_invalid_numbers(bad):
    with pytest.raises(CardgamesError):
        normalize(bad)


@pytest.mark.parametrize("number, first_rows, waste", [
    ("31999", ["3D#2", "5S#2", "2H", "7H", "AH", "QS"], "2H#2"),  # the last number of the LCG ...
    ("32000", ["KH", "9H#2", "TD", "6D#2", "3D#2", "9C#2"], "7C#2"),  # ... the first of the Mersenne Twister
    ("ms2147483648", ["8D", "9C", "TD", "6C#2", "JS", "3S"], "4S#2"),  # the LCG's 32-bit branch
    ("ms4294967296", ["AD", "8D#2", "JD", "2S", "QS", "5S"], "5S#2"),  # and its 33-bit one
])
def test_each_generator_range_is_pinned(eiffel, number, first_rows, waste):
    """Deals at the edges of the generators' ranges, pinned: they agreed with an implementation
    written apart from this one from ../shared/reference/pysolfc-numbering.md (issue 3's audit),
    so moving a boundary (32000, 2**31, 2**32) or changing a branch changes one of them."""
    state = eiffel.new_state(normalize(number), "pysolfc")
    assert sorted(state.all_cards()) == list(range(104))
    deal = state.deal_json()
    assert [row[0] for row in deal["rows"]][:6] == first_rows and deal["waste"] == [waste]


@pytest.mark.parametrize("text,expected", [("1_000", "1000"), ("1.000", "1000"), ("ms_12", "ms12"), ("ms1.2", "ms12")])
def test_underscores_and_dots_are_separators_like_commas(text: str, expected: str) -> None:
    """The reference deletes ``_`` and ``.`` from a number as it deletes ``#``, ``-``, ``,`` and spaces."""
    assert normalize(text) == expected


@pytest.mark.parametrize("bad", ["7l", "7LL", "ms7l"])
def test_only_one_capital_trailing_l_is_dropped(bad: str) -> None:
    """One trailing capital ``L`` is removed before lower-casing: a lower-case ``l`` or a second ``L``
    stays in the number and makes it invalid, as in PySolFC."""
    with pytest.raises(CardgamesError, match="invalid PySolFC game number"):
        normalize(bad)


@pytest.mark.parametrize("game,available", [("eiffel-tower", True), ("new-eiffel-tower", True), ("castle", False),
                                            ("keshava", False), ("wizards-tower", False)])
def test_pysolfc_numbers_are_only_for_french_deck_pairing_games(game: str, available: bool) -> None:
    """PySolFC's numbering reproduces its deals only on its own card order (the French deck): a pairing
    game on any other deck refuses ``--rng pysolfc`` rather than deal something PySolFC never dealt."""
    from cardgames.engine.errors import OptionConflictError

    pairing = load_game(game)
    if available:
        assert pairing.check_seed("ms1", "pysolfc") == "ms1"
    else:
        with pytest.raises(OptionConflictError, match=f"--rng pysolfc is not available for {game}"):
            pairing.check_seed("1", "pysolfc")
