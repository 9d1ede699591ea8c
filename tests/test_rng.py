"""The native generator: pinned output, exact uniformity machinery, independent streams."""

from __future__ import annotations

import hashlib
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgames.engine.rng import _WORDS, SEED_MAX, Rng, check_seed, fisher_yates, stream_key


def test_first_words_follow_the_documented_construction():
    key = b"cardgames/1\0deal\0" + (7).to_bytes(8, "little")
    block0 = struct.unpack("<64Q", hashlib.shake_128(key + bytes(8)).digest(512))
    rng = Rng(7)
    assert [rng.next64() for _ in range(64)] == list(block0)
    block1 = struct.unpack("<64Q", hashlib.shake_128(key + (1).to_bytes(8, "little")).digest(512))
    assert rng.next64() == block1[0]
    # a text seed (a PySolFC game number, for the agents' streams) is its UTF-8 after "s:"
    key = b"cardgames/1\0agent/0\0s:ms7"
    assert Rng("ms7", "agent/0").next64() == struct.unpack("<Q", hashlib.shake_128(key + bytes(8)).digest(8))[0]


def test_pinned_values():
    # Golden: these numbers must never change (they decide every deal).
    rng = Rng(0)
    assert [rng.below(52) for _ in range(8)] == [27, 12, 22, 23, 29, 5, 42, 38]
    items = list(range(10))
    Rng(12345).shuffle(items)
    assert items == [3, 4, 9, 5, 1, 2, 0, 7, 8, 6]


def test_text_seeds_and_labels_name_different_streams():
    assert stream_key(1, "deal") != stream_key("1", "deal")
    assert stream_key(1, "deal") != stream_key(1, "agent/0")
    assert Rng(1, "agent/0").next64() != Rng(1, "agent/1").next64()


@pytest.mark.parametrize("bad", [-1, SEED_MAX + 1, 1.5, "7", True])
def test_bad_seeds_are_refused(bad):
    with pytest.raises(ValueError):
        check_seed(bad)


def test_extreme_seeds_are_accepted():
    assert Rng(0).next64() != Rng(SEED_MAX).next64()


def test_seeds_that_differ_only_above_bit_32_name_different_streams() -> None:
    """A seed is all 64 bits of its key: 1 and 2**32 + 1, or 2**32 - 1 and 2**64 - 1, are different deals
    (a key cut to 32 bits would give each pair one stream)."""
    assert stream_key(1, "deal") != stream_key(2**32 + 1, "deal")
    assert Rng(1).next64() != Rng(2**32 + 1).next64()
    assert Rng(2**32 - 1).next64() != Rng(SEED_MAX).next64()


@given(st.integers(0, SEED_MAX), st.integers(0, 300))
def test_inlined_shuffle_consumes_the_stream_like_the_reference_loop(seed, n):
    fast, reference = list(range(n)), list(range(n))
    a, b = Rng(seed), Rng(seed)
    a.shuffle(fast)
    fisher_yates(reference, b.below)
    assert fast == reference
    assert a.next64() == b.next64()


class Scripted(Rng):
    """An Rng whose next words are given: Lemire's rejection step needs a word that random
    streams hit about never (for n = 3, the word 0: 0 * 3 leaves 0 < (2**64 - 3) % 3 = 1)."""

    def __init__(self, words: list[int]):
        super().__init__(0)
        self._words, self._pos = tuple(words + [0x9E3779B97F4A7C15] * (_WORDS - len(words))), 0


def test_rejection_draws_again():
    second = 0xC000_0000_0000_0000  # 3 * 0.75: the draw it gives is 2
    rng = Scripted([0, second])
    assert rng.below(3) == 2 and rng._pos == 2  # the word 0 was rejected, the second one used
    assert Scripted([second]).below(3) == 2 and Scripted([0x5555_5555_5555_5556]).below(3) == 1


def test_a_word_at_the_threshold_is_a_draw_not_a_redraw():
    """Lemire's method redraws only while (x * n) mod 2**64 is *below* 2**64 mod n: for n = 3 the word
    0xAAAA_AAAA_AAAA_AAAB leaves exactly the threshold, 1, and is a draw of 2 (the product's high word),
    in below() and in the inlined shuffle alike; redrawing it would break exact uniformity."""
    word = 0xAAAA_AAAA_AAAA_AAAB
    assert (word * 3) % 2**64 == (2**64 - 3) % 3 == 1
    rng = Scripted([word])
    assert rng.below(3) == 2 and rng._pos == 1
    items, shuffler = ["a", "b", "c"], Scripted([word, 1])  # below(3): 2, kept; below(2): 1 * 2 >> 64 = 0
    shuffler.shuffle(items)
    assert items == ["b", "a", "c"] and shuffler._pos == 2


def test_inlined_shuffle_rejects_like_the_reference_loop():
    """A deal of 3 cards: its first draw is below 3, so the word 0 sends the inlined loop to
    below()'s rejection; both loops must use the same words and give the same order."""
    words = [0, 0xC000_0000_0000_0000, 1]  # below(3): 0 rejected, then 2; below(2): 1 * 2 >> 64 = 0
    fast, reference = ["a", "b", "c"], ["a", "b", "c"]
    a, b = Scripted(words), Scripted(words)
    a.shuffle(fast)
    fisher_yates(reference, b.below)
    assert fast == reference == ["b", "a", "c"] and a._pos == b._pos == 3


def test_below_is_roughly_uniform():
    rng = Rng(99)
    counts = [0] * 6
    for _ in range(60000):
        counts[rng.below(6)] += 1
    assert all(9500 < c < 10500 for c in counts)
