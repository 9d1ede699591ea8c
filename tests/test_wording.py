"""The wording helpers every message uses (engine/wording.py)."""

from __future__ import annotations

from cardgames.engine.wording import (
    as_logged,
    byte_size,
    clip,
    counted,
    did_you_mean,
    one_line,
    spans,
    wins_phrase,
    written,
)


def test_counts_take_their_noun_in_the_singular_only_for_one():
    assert counted(1, "player") == "1 player"
    assert counted(0, "game") == "0 games"
    assert counted(2000, "game") == "2,000 games"


def test_spans_name_runs_of_numbers():
    assert spans([3]) == "3"
    assert spans([2, 4, 5, 6, 9, 10]) == "2, 4-6, 9-10"


def test_sizes_are_named_in_the_largest_whole_unit():
    assert byte_size(1 << 20) == "1 MiB"
    assert byte_size(16 << 20) == "16 MiB"
    assert byte_size(64 << 10) == "64 KiB"
    assert byte_size(1536) == "1,536 bytes"
    assert byte_size(1) == "1 byte"


def test_long_values_are_clipped_and_names_get_hints():
    assert clip("7" * 100).endswith("...'") and len(clip("7" * 100)) == 40
    assert clip("ms1") == "'ms1'"
    assert clip("7" * 38) == repr("7" * 38)  # 40 characters: kept whole
    assert did_you_mean("Greed", ["greedy", "greed", "grey", "green", "random"], 0.5) == \
        "; did you mean 'greed' or 'greedy' or 'green'?"  # the case-blind match first, then up to three
    assert did_you_mean("5s", ["5S", "6S"], 0.5) == "; did you mean '5S'?"
    assert did_you_mean("zzz", ["5S"], 0.5) == ""


def test_a_hint_names_three_at_most_the_case_blind_match_first():
    """difflib compares case, so ``greedy`` is no close match for ``GREEDY``: it still comes first,
    and the closest by similarity fill the rest of a hint of three names in all."""
    assert did_you_mean("GREEDY", ["greedy", "GREED", "GREEN", "GREY"], 0.5) == \
        "; did you mean 'greedy' or 'GREED' or 'GREY'?"


def test_only_one_case_blind_match_leads_the_hint() -> None:
    """Of several names differing only in case, one leads the hint; the rest of it is the closest
    by similarity (``GREED``), not the other case-blind twin."""
    assert did_you_mean("GREEDY", ["greedy", "Greedy", "GREED"], 0.5) == "; did you mean 'greedy' or 'GREED'?"


def test_sizes_below_a_kibibyte_are_bytes_even_zero() -> None:
    """Zero divides by every unit: it is still ``0 bytes``, not ``0 MiB``."""
    assert byte_size(0) == "0 bytes"
    assert byte_size(1023) == "1,023 bytes"


def test_a_message_stays_one_line_and_shows_no_terminal_escape():
    """A file name with a line break split an error over two lines, and a log's value could carry ESC,
    the 8-bit CSI or Unicode's line separator to the terminal (the fuzzing audit's finding)."""
    assert one_line("a\nb\tc\x1b[31m\x9b\u2028\u2029\x7f") == "a\\nb\\tc\\x1b[31m\\x9b\\u2028\\u2029\\x7f"
    assert one_line("Magic-13 é ♠") == "Magic-13 é ♠"


def test_values_are_written_as_yaml_and_json_write_them():
    assert [written(v) for v in (True, False, None, 7, "x")] == ["true", "false", "null", "7", "'x'"]


def test_control_characters_are_escaped_in_two_hex_digits():
    """As Python writes them (``\\x0d``): a one-digit ``\\xd`` is neither Python's form nor unambiguous
    before a hex digit (a mutation audit's finding)."""
    assert one_line("\r\x00\x1b\x9b") == "\\x0d\\x00\\x1b\\x9b"
    assert one_line("a\nb\tc\u2028") == "a\\nb\\tc\\u2028"


def test_wins_phrase_names_seats_and_teams():
    """Narration's last word: a seat wins, a team (Partners' shared stone) wins as one, ties share."""
    assert wins_phrase([[1]]) == "player 1 wins" and wins_phrase([[1]], lead=True) == "player 1 leads"
    assert wins_phrase([[0, 2]]) == "players 0 and 2 win" and wins_phrase([[0, 2]], lead=True) == "players 0 and 2 lead"
    assert wins_phrase([[1], [2], [3]]) == "players 1, 2 and 3 share the win"
    assert wins_phrase([[0], [2]], lead=True) == "players 0 and 2 share the lead"
    assert wins_phrase([[0, 2], [1, 3]], lead=True) == "players 0 and 2, players 1 and 3 share the lead"
    assert wins_phrase([]) == "nobody wins" and wins_phrase([], lead=True) == "nobody leads"  # a draw (IndexError)


def test_a_json_files_value_is_quoted_in_json_sorted_and_cut_at_its_limit():
    """``as_logged``: keys sorted as a log writes them, no spaces, and a value of exactly the limit whole."""
    assert as_logged({"type": "play", "row": 14}) == '{"row":14,"type":"play"}'
    assert as_logged([True, None, "x"]) == '[true,null,"x"]'
    assert as_logged("x" * 118) == '"' + "x" * 118 + '"'  # 120 characters: the default limit, kept whole
    assert as_logged("x" * 119) == '"' + "x" * 116 + "..."
    assert as_logged({1: 2, "a": 3}) == "{1: 2, 'a': 3}"  # keys that cannot be sorted: Python's spelling
