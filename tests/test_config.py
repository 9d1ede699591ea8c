"""Config loading: line-numbered errors, refused inputs, overlays, aliases, the hash."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from cardgames.engine.agents import SHARED
from cardgames.engine.cards import Deck, card_name_problem, stock_line
from cardgames.engine.config import UNREAD, Catalog, bundled_root
from cardgames.engine.errors import CardgamesError, ConfigError, UnknownNameError
from cardgames.engine.registry import ENGINES, engine_agents, engine_module, load_game, located
from cardgames.engine.schema import INT, LIST, STR, Field, between, check_mapping, positive
from cardgames.engine.validate import validate
from cardgames.engine.yamlfile import MAX_BYTES, parse_document, read_document

BUNDLED = bundled_root()


def make_root(tmp_path: Path, game_text: str, name: str = "my-tower") -> Path:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / f"{name}.yaml").write_text(game_text)
    return tmp_path


EIFFEL = (BUNDLED / "games" / "eiffel-tower.yaml").read_text()


def test_syntax_error_has_file_and_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("id: x\nname: [unclosed\nfamily: y\n")
    with pytest.raises(ConfigError) as err:
        read_document(path)
    assert str(err.value).startswith(f"{path}:")
    assert err.value.line in (2, 3)


@pytest.mark.parametrize("text, line, words", [
    ("id: x\nname: y\nfamily: \x00z\n", 3, "control characters are not allowed"),
    ('id: x\nname: "Eiffel\nfamily: y\n', 4, "end of stream (while scanning a quoted scalar on line 2)"),
    ("id: x\nname: !!python/name:os.system ''\n", 2, "could not determine a constructor"),
])
def test_parser_errors_are_one_line_with_theirs(tmp_path, text, line, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        read_document(path)
    assert err.value.line == line and words in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("value, words", [
    ("!!binary aGVsbG8=", "is a bytes"),
    ("2001-12-14", "is a date"),
    (".inf", "is not a finite number"),
    (".nan", "is not a finite number"),
])
def test_only_json_scalars_are_config_values(value, words):
    """Dates and binary are YAML but nothing a log carries (the config hash broke on them). The message names
    the key, as the schema's do (a designer's ``house_cut: .nan`` was said without it)."""
    with pytest.raises(ConfigError) as err:
        parse_document(f"id: x\nname: y\nnote: {value}\n", "deck.yaml")
    assert err.value.line == 3 and words in str(err.value) and "\n" not in str(err.value)
    assert err.value.message.startswith("'note': "), err.value.message


def test_alias_bomb_is_refused_quickly(tmp_path, monkeypatch):
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 10):
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} [{','.join(['*' + chr(96 + i)] * 9)}]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    start = time.perf_counter()
    with pytest.raises(ConfigError, match=r"^bomb.yaml:2: YAML aliases \(\*name\) are not allowed in configs"):
        read_document("bomb.yaml")
    assert time.perf_counter() - start < 2  # refused, not expanded (a functional bound, not a benchmark)


@pytest.mark.parametrize("text, line", [
    ("players: &p {min: 1, max: 1}\noptions:\n  layout: [1, 2]\n  match: 9\n  x: *p\n", 5),
    ("a: &x [1]\nb:\n  - 2\n  - *x\n", 4),
    ("a: &x 1\nb: {c: 2,\n    d: *x}\n", 3),
])
def test_an_alias_is_refused_at_its_own_line(text, line):
    """The composer hands an alias over as the anchored node, whose line is the anchor's: the error named
    the line where the alias's parent began (a designer's ``x: *p`` on line 15 was said at line 9)."""
    with pytest.raises(ConfigError, match=rf"^g.yaml:{line}: YAML aliases \(\*name\) are not allowed in configs"):
        parse_document(text, "g.yaml")


def test_an_anchor_no_alias_uses_is_let_be():
    assert parse_document("a: &first 1\nb: 2\n").data == {"a": 1, "b": 2}


@pytest.mark.parametrize("value, words", [
    ("!!int abc", "'abc' is not a valid int"), ("!!float x", "'x' is not a valid float"),
    ("!!bool x", "'x' is not a valid bool"), ("!!timestamp x", "'x' is not a valid timestamp"),
])
def test_a_tag_on_text_it_does_not_fit_is_a_bad_value(value, words):
    """PyYAML's converters fail unguarded on these (a traceback from ``validate``): one line, at the value
    (naming its key) or at the key that holds the tag."""
    with pytest.raises(ConfigError, match=f"^f.yaml:2: 'name': bad value: {re.escape(words)}$"):
        parse_document(f"id: x\nname: {value}\n", "f.yaml")
    with pytest.raises(ConfigError, match=f"^f.yaml:2: bad value: {re.escape(words)}$"):
        parse_document(f"id: x\n{value}: 1\n", "f.yaml")


def test_large_file_is_refused_before_parsing(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("x: " + "y" * (2 << 20) + "\n")
    with pytest.raises(ConfigError, match="larger than 1 MiB;"):  # its limit, named as a size
        read_document(path)


def test_duplicate_keys_are_errors():
    with pytest.raises(ConfigError, match="duplicate key 'a'") as err:
        parse_document("a: 1\nb: 2\na: 3\n", "x.yaml")
    assert err.value.line == 3


def test_a_duplicate_key_in_a_nested_mapping_is_an_error():
    """A key written twice inside a table (``options``), not only at the top, is refused at the second's line:
    PyYAML would keep the last silently, and a designer's first ``strict:`` would count for nothing."""
    with pytest.raises(ConfigError, match="duplicate key 'strict'") as err:
        parse_document("id: x\noptions:\n  strict: false\n  row_cap: 3\n  strict: true\n", "x.yaml")
    assert err.value.line == 5


@pytest.mark.parametrize("raw, words", [
    ("010", "'010' is read as the octal number 8 (YAML 1.1): write 8 or 10, whichever is meant, or quote it"),
    ("-012", "'-012' is read as the octal number -10 (YAML 1.1): write -10 or -12, whichever is meant"),
    ("1:30", "'1:30' is read as the base-60 number 90 (YAML 1.1): write 90 if that is meant, or quote it"),
    ("!!int 07", "'07' is read as the octal number 7 (YAML 1.1): write 7 if that is meant"),
    # quoted under an explicit tag, the text is still read in YAML 1.1's base (it was let through: 8 and 90)
    ('!!int "010"', "'010' is read as the octal number 8 (YAML 1.1): write 8 or 10, whichever is meant, or quote "
                    "it without a tag for a string"),
    ("!!int '1:30'", "'1:30' is read as the base-60 number 90 (YAML 1.1): write 90 if that is meant, or quote it "
                     "without a tag"),
    ('!!float "1:30"', "'1:30' is read as the base-60 number 90.0 (YAML 1.1)"),
])
def test_numbers_yaml_reads_in_another_base_are_refused(raw, words):
    """A designer's ``row_cap: 1:30`` became 90 and ``strict_waste_cap: 010`` 8, and ``validate``
    passed them (the designer audit's finding)."""
    with pytest.raises(ConfigError) as err:
        parse_document(f"id: x\noptions:\n  row_cap: {raw}\n", "x.yaml")
    assert err.value.line == 3 and words in str(err.value) and err.value.message.startswith("'options.row_cap': ")


@pytest.mark.parametrize("raw, value", [('"010"', "010"), ("'1:30'", "1:30"), ("!!str 010", "010"), ("00.5", 0.5),
                                        ('!!int "10"', 10)])
def test_quoted_or_decimal_text_is_let_be(raw, value):
    """Only a number read in YAML 1.1's other bases is refused: quoted text stays a string, and a decimal,
    tagged or not, is the number it looks."""
    assert parse_document(f"id: x\noptions:\n  row_cap: {raw}\n").data["options"]["row_cap"] == value


@pytest.mark.parametrize("text, line, words", [
    ("a:\n  010: 2\n", 2, "'010' is read as the octal number 8"),
    ("a: {1:30: x}\n", 1, "'1:30' is read as the base-60 number 90"),
    ("a: 1\n2001-12-14: x\n", 2, "'2001-12-14' is a date"),
])
def test_a_mapping_key_is_checked_like_a_value(text, line, words):
    """A key went through none of a value's checks: ``copies_by_players: {010: 2}`` keyed 8 players, and
    ``validate`` blamed the deck's size for 8 players instead of naming the ``010``."""
    with pytest.raises(ConfigError) as err:
        parse_document(text, "x.yaml")
    assert err.value.line == line and words in str(err.value)


def test_a_base_60_field_of_one_digit_is_refused():
    """``1:5`` is YAML 1.1's 65 too, not only ``1:05``."""
    with pytest.raises(ConfigError, match="'1:5' is read as the base-60 number 65"):
        parse_document("a: 1:5\n")


def test_an_unknown_key_is_named_at_its_own_line(tmp_path, run_cli):
    """A block value starts on the line below its key: an unknown key was named at its value's first line
    (a game's key, a game's option, a variant's option)."""
    game = EIFFEL.replace("id: eiffel-tower", "id: my-tower")
    hued = game.replace("options:\n", "options:\n  hue:\n    red: 1\n")
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "house.yaml").write_text("id: house\nname: House\napplies_to: [pairing]\n"
                                                      "options:\n  tint:\n    - red\n")
    for text, words in [(game + "colour:\n  - red\n", f"{game.count(chr(10)) + 1}: unknown key 'colour'"),
                        (hued, f"{hued.splitlines().index('  hue:') + 1}: unknown key 'hue'"),
                        (game, "house.yaml:5: unknown option 'tint'")]:
        (tmp_path / "games").mkdir(exist_ok=True)
        (tmp_path / "games" / "my-tower.yaml").write_text(text)
        report = run_cli("validate", str(tmp_path))
        assert report.exit_code == 1 and words in report.stdout


@pytest.mark.parametrize("raw, value", [("0", 0), ("10", 10), ("0.5", 0.5), ("00.5", 0.5), ("1_000", 1000),
                                        ("'010'", "010"), ('"1:30"', "1:30"), ("0x1F", 31)])
def test_numbers_read_as_written_are_let_be(raw, value):
    assert parse_document(f"a: {raw}\n").data == {"a": value}


def test_schema_errors_name_the_line(tmp_path):
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("  match: 14", "  match: fourteen")
    text = text.replace("variants: [strict]", "variants: [strict]\ncolour: blue")
    root = make_root(tmp_path, text)
    report = validate([str(root)])
    messages = [str(e) for e in report.errors]
    lines = text.splitlines()
    colour_line = next(i for i, text in enumerate(lines, 1) if text.startswith("colour"))
    known = "deck, description, docs, engine, family, id, name, options, players, source, variants"
    expected = f"my-tower.yaml:{colour_line}: unknown key 'colour' in the file (known: {known})"
    assert any(m.endswith(expected) for m in messages), messages
    assert not report.ok


def test_wrong_option_type_is_reported_with_its_line(tmp_path):
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("  match: 14", "  match: fourteen")
    root = make_root(tmp_path, text)
    report = validate([str(root)])
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "match: fourteen" in row)
    assert [str(e).split(": ", 1)[0].rsplit(":", 1)[1] for e in report.errors] == [str(line)]
    assert "'options.match' must be an integer" in str(report.errors[0])


def test_every_bad_option_of_a_game_is_reported_at_once(tmp_path):
    """``validate`` names each of a game's bad options, not the first alone: a CI author fixing one
    error a run met the next only on the next run (the CI author's walkthrough)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("  match: 14", "  match: fourteen")
    text = text.replace("  row_cap: null", "  row_cap: two").replace("  strict: false", "  strcit: false")
    report = validate([str(make_root(tmp_path, text))])
    lines = text.splitlines()
    where = {row.split(":")[0].strip(): i for i, row in enumerate(lines, 1)}
    options = [f"{where['strcit']}: unknown key 'strcit' in 'options': did you mean 'strict'?",
               f"{where['match']}: 'options.match' must be an integer, not 'fourteen'",
               f"{where['row_cap']}: 'options.row_cap' must be an integer or null, not 'two'"]
    assert [str(e).split("my-tower.yaml:", 1)[1] for e in report.errors] == options
    # and beside an error of the file's own keys, which stops the game from being resolved at all
    (tmp_path / "games" / "my-tower.yaml").write_text(text.replace("name: Eiffel Tower", "nmae: Eiffel Tower"))
    report = validate([str(tmp_path)])
    assert [str(e).split("my-tower.yaml:", 1)[1] for e in report.errors] == [
        "2: unknown key 'nmae' in the file: did you mean 'name'?", *options]


def test_a_misspelt_key_is_named_as_one(tmp_path):
    """A key this like a known one that the file lacks is said once, as the misspelling it is, not as
    an unknown key and a missing one (the CI author's walkthrough: ``nmae``)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("name: Eiffel Tower", "nmae: Eiffel Tower")
    report = validate([str(make_root(tmp_path, text))])
    assert [str(e).split("my-tower.yaml:", 1)[1] for e in report.errors] == [
        "2: unknown key 'nmae' in the file: did you mean 'name'?"]
    # beside it, an option the file lacks is still missed, in the same run; options that are no mapping are said
    # once, by the file's own schema
    lacking = text.replace("  family_match: {}\n", "")
    (tmp_path / "games" / "my-tower.yaml").write_text(lacking)
    options = lacking.splitlines().index("options:") + 2  # a block value's first line
    assert [str(e).split("my-tower.yaml:", 1)[1] for e in validate([str(tmp_path)]).errors] == [
        "2: unknown key 'nmae' in the file: did you mean 'name'?",
        f"{options}: missing key 'family_match' in 'options'"]
    flat = re.sub(r"options:\n(  .*\n)+", "options: 5\n", text)
    (tmp_path / "games" / "my-tower.yaml").write_text(flat)
    errors = [str(e) for e in validate([str(tmp_path)]).errors]
    assert len(errors) == 2 and sum("'options' must be" in e for e in errors) == 1, errors


def test_missing_field_and_unknown_deck(tmp_path):
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("type: french", "type: frnch")
    root = make_root(tmp_path, text)
    report = validate([str(root)])
    assert any("unknown deck 'frnch'; did you mean 'french'?" in str(e) for e in report.errors)
    text = EIFFEL.replace("id: eiffel-tower", "id: other").replace("name: Eiffel Tower\n", "")
    (root / "games" / "other.yaml").write_text(text)
    report = validate([str(root / "games" / "other.yaml")])
    assert any("missing key 'name'" in str(e) for e in report.errors)


@pytest.mark.parametrize("ident", ["Eiffel_Tower", "eiffel tower", "eiffel--tower", "-eiffel"])
def test_game_ids_must_be_kebab_case(tmp_path, ident):
    """Ids are typed on command lines and templated into aliases (``strict-{game}``)."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", f"id: {ident!r}"))
    report = validate([str(root)])
    assert any(":1: 'id': must be kebab-case" in str(e) for e in report.errors)


def test_match_value_must_fit_the_deck(tmp_path):
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("  match: 14", "  match: 13")
    report = validate([str(make_root(tmp_path, text))])
    assert any("match value must be 14" in str(e) for e in report.errors)


def _french(tmp_path: Path, edit) -> None:
    """A French deck in ``tmp_path`` whose ranks (a list of dicts) ``edit`` changes in place, which the
    games there take. Under its own id, my-french: as french it would also be checked in the bundled
    games that take it (``validate`` checks a folder's deck there), and break them."""
    import yaml

    deck = yaml.safe_load((BUNDLED / "decks" / "french.yaml").read_text())
    edit(deck["ranks"])
    deck["id"] = "my-french"
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "my-french.yaml").write_text(yaml.safe_dump(deck, sort_keys=False))
    for game in (tmp_path / "games").glob("*.yaml"):
        assert "type: french," in game.read_text()
        game.write_text(game.read_text().replace("type: french,", "type: my-french,"))


def test_a_deck_from_another_folder_is_named_with_its_games_problem(tmp_path):
    """A folder's deck that breaks the bundled games taking it: each problem is at the game's line, and names
    the deck's file, which is what changed (the CI author's walkthrough: a French deck without its King)."""
    import yaml

    deck = yaml.safe_load((BUNDLED / "decks" / "french.yaml").read_text())
    deck["ranks"] = [rank for rank in deck["ranks"] if rank["id"] != "K"]
    (tmp_path / "decks").mkdir()
    path = tmp_path / "decks" / "french.yaml"
    path.write_text(yaml.safe_dump(deck, sort_keys=False))
    errors = [str(e) for e in validate([str(tmp_path)]).errors]
    assert errors and all(e.endswith(f"match value must be 13 (its deck is {path})") for e in errors)
    assert {e.split(".yaml:", 1)[0].rsplit("/", 1)[1] for e in errors} == {"eiffel-tower", "new-eiffel-tower"}
    with pytest.raises(ConfigError) as played:  # and a command playing the game says it too (the designer audit)
        load_game("eiffel-tower", catalog=Catalog.with_folders([tmp_path]))
    assert str(played.value).endswith(f"must be 13 (`cardgames validate` lists them all; its deck is {path})")
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower"))  # the deck's own folder: said not
    mine = [e for e in validate([str(root)]).errors if "my-tower" in str(e)][0].located()
    assert mine.endswith("match value must be 13"), mine
    # a whole deck, and a variant of the folder whose layout no deck fills: the variant's line is the variant's
    # to mend, and names no deck
    path.write_text((BUNDLED / "decks" / "french.yaml").read_text())
    (root / "games" / "my-tower.yaml").unlink()
    (tmp_path / "variants").mkdir()
    wide = tmp_path / "variants" / "wide.yaml"
    wide.write_text("id: wide\nname: Wide\napplies_to: [eiffel-tower]\noptions:\n  layout: [60, 60]\n")
    errors = [str(e) for e in validate([str(tmp_path)]).errors]
    assert errors and all(e.startswith(f"{wide}:5: ") and "its deck is" not in e for e in errors), errors
    with pytest.raises(ConfigError) as played:
        load_game("eiffel-tower", ["wide"], catalog=Catalog.with_folders([tmp_path]))
    assert str(played.value).startswith(f"{wide}:5: ") and "its deck is" not in str(played.value)


def test_match_value_must_pair_the_deck_values(tmp_path):
    """Values 11..23 have 13 ranks but no two sum to 14: no card could ever be placed."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower"))
    _french(root, lambda ranks: [rank.update(value=rank["value"] + 10) for rank in ranks])
    report = validate([str(root)])
    assert any("the suited cards run from 11 to 23, so their match value must be 34" in str(e)
               for e in report.errors)


def test_an_ace_high_deck_pairs_lowest_with_highest(tmp_path):
    """Values 2..14 (the ace high) pair to 16, not to the ranks per suit plus one."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower")

    def ace_high(ranks):
        ranks[0]["value"] = 14

    root = make_root(tmp_path, text.replace("  match: 14", "  match: 16"))
    _french(root, ace_high)
    assert validate([str(root)]).ok
    (root / "games" / "my-tower.yaml").write_text(text.replace("type: french,", "type: my-french,"))  # match 14
    assert any("run from 2 to 14, so their match value must be 16" in str(e) for e in validate([str(root)]).errors)


def test_every_value_needs_its_partner(tmp_path):
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower"))
    _french(root, lambda ranks: ranks[4].update(value=4))  # the fives become fours: no 9 has its partner
    report = validate([str(root)])
    assert any("the suited cards have the values 1-4, 6-13, which no match value pairs: no card has the value 5 "
               "that value 9 would pair with (is a value in the deck wrong?)" in str(e) for e in report.errors)


def test_a_deck_items_key_like_a_known_one_is_taken_for_a_misspelling(tmp_path):
    """An item of a deck may hold keys of its own (a suit's colour, a card's name_fr), so a misspelt optional
    key passed silently (the designer walkthrough's `fase: true`); one this like a known key is now refused,
    the known key named, while a key of one's own unlike any passes."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower"))

    def edit(ranks):
        ranks[10]["fase"] = True
        ranks[11]["colour"] = "red"

    _french(root, edit)
    errors = [str(e) for e in validate([str(root)]).errors]
    assert len(errors) == 1 and errors[0].endswith(
        "unknown key 'fase' in 'ranks[10]': did you mean 'face'? (keys of your own may go here, but not one this "
        "like a known one)")


def test_a_deck_no_match_value_pairs_is_blamed_not_the_match(tmp_path):
    """A typo in the deck (the ten valued 100): the error said the match must be 113, and after that change
    that no card had the value 103. It now names the deck's values, where the typo shows."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower"))
    _french(root, lambda ranks: ranks[9].update(value=100))
    errors = [str(e) for e in validate([str(root)]).errors]
    assert any("have the values 1-9, 11-13, 100, which no match value pairs" in e for e in errors), errors
    assert not any("must be" in e for e in errors)
    # the one change that would pair them all is named (a rank's 7 typed 17 was met with "no card has the value
    # 16 that value 2 would pair with", sending the designer to the 2: an audit's finding)
    assert any(e.endswith("is value 100 a typo? With 10 in its place they all pair to 14, the match given")
               for e in errors)


@pytest.mark.parametrize("values, match, said", [
    # the last rank's 9 typed 10: both 10 -> 9 (match 10) and 1 -> 9 (match 12) pair them; the game's match picks
    ([*range(1, 9), 10], 10, "is value 10 a typo? With 9 in its place they all pair to 10, the match given"),
    # the game's match fits no single change: the one change that pairs them at all, its match named
    ([*range(1, 9), 10], 14, "is value 1 a typo? With 9 in its place they all pair to 12"),
    # two changes keep the match (1 -> 10, 2 -> 11): no guess between them, the first value alone is named
    ([1, 2, 3, 5, 7, 9], 12, "which no match value pairs: no card has the value 8 that value 2 would pair with (is a "
                             "value in the deck wrong?)"),
])
def test_a_deck_typo_is_read_with_the_games_own_match_first(tmp_path, values, match, said):
    """A designer's deck of nine ranks with the 9 typed 10, under match 10, was told "is value 1 a typo? With 9
    in its place they all pair to 12": a change that pairs every value but moves the match. A change that keeps
    the game's match comes first, if it is the only one; without one, a single change that pairs them is still
    named."""
    import yaml

    deck = yaml.safe_load((BUNDLED / "decks" / "french.yaml").read_text())
    deck["id"] = "nine"
    deck["ranks"] = [{"id": f"r{v}", "value": v} for v in values]
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "nine.yaml").write_text(yaml.safe_dump(deck, sort_keys=False))
    make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("type: french", "type: nine")
              .replace("match: 14", f"match: {match}"))
    errors = [str(e) for e in validate([str(tmp_path)]).errors]
    assert any(e.endswith(said) for e in errors), errors


def test_a_card_value_must_be_an_integer(tmp_path):
    """An explicit card's value was free-form: a word there crashed the match check."""
    text = (BUNDLED / "decks" / "tarock.yaml").read_text().replace("- name: I\n  family: trump\n  value: 1\n",
                                                                   "- name: I\n  family: trump\n  value: one\n")
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "tarock.yaml").write_text(text)
    report = validate([str(tmp_path)])
    assert [e.line for e in report.errors] == [text.splitlines().index("  value: one") + 1]
    assert "must be an integer, not 'one'" in str(report.errors[0])


@pytest.mark.parametrize("layout, rows", [("[60, 60]", 120), ("[52, 52]", 104), ("[52, 51]", None)])
def test_layout_must_fit_the_deck(tmp_path, layout, rows):
    """A deal takes a card for each row and one for the waste: 104 rows do not fit 104 cards, 103 do."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("[1, 2, 3, 4, 5, 5]", layout)
    report = validate([str(make_root(tmp_path, text))])
    too_many = [e.message for e in report.errors if "so the deal needs" in e.message]
    assert too_many == ([] if rows is None else [
        f"the layout has {rows} rows, so the deal needs {rows + 1} cards (one on each row and one on the waste), "
        "but the deck holds only 104"])


def test_a_strict_layout_must_fit_the_deck_too(tmp_path):
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("strict_layout: null", "strict_layout: [50, 60]")
    report = validate([str(make_root(tmp_path, text))])
    line = text.splitlines().index("  strict_layout: [50, 60]") + 1
    assert [(e.line, e.message) for e in report.errors] == [
        (line, "the Strict version's layout has 110 rows, so the deal needs 111 cards (one on each row and one on the "
               "waste), but the deck holds only 104")]


@pytest.mark.parametrize("cap, layout", [(4, "[1, 2, 3, 4, 5, 5]"), (5, "[1, 2, 3, 4, 5, 5]"),
                                         (6, "[1, 2, 3, 4, 5, 5]"), (4, "[1, 2, 3, 4, 5, 5, 6]")])
def test_a_row_cap_must_leave_room_for_every_card(tmp_path, cap, layout):
    """A win puts every card on a row: 20 rows of at most 5 cards hold 100 of the 104, so every
    deal is lost (an auditor's finding: validate accepted it); 6 a row, or 26 rows of 4, hold them all."""
    text = (EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("row_cap: null", f"row_cap: {cap}")
            .replace("[1, 2, 3, 4, 5, 5]", layout))
    report = validate([str(make_root(tmp_path, text))])
    rows = sum(int(n) for n in layout.strip("[]").split(","))  # blamed on the cap (a variant that sets one: its line)
    assert [(e.line, e.message) for e in report.errors] == ([] if rows * cap >= 104 else [
        (text.splitlines().index(f"  row_cap: {cap}") + 1,
         f"the layout's {rows} rows hold at most {rows * cap} cards (options.row_cap {cap}), fewer than the deck's "
         "104: no deal can be won")])


@pytest.mark.parametrize("cap, layout, need", [(5, "[1, 2, 3, 4, 5, 6]", 26), (5, "[1, 2, 3, 4, 5, 5, 6]", 26),
                                               (7, "[1, 2, 3, 4, 5]", 20), (7, "[2, 3, 4, 5, 6]", 20)])
def test_a_row_cap_must_leave_each_pair_its_rows(tmp_path, cap, layout, need):
    """A row only ever takes its dealt card's pair: Eiffel Tower's six pairs of 16 cards and the 7s (8) need
    ceil(16 / cap) rows each and ceil(8 / cap): 26 rows under a cap of 5, where 21 rows x 5 hold all 104 cards
    (an audit's finding: a designer's game of this kind passed validate, and every deal was lost)."""
    text = (EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("row_cap: null", f"row_cap: {cap}")
            .replace("[1, 2, 3, 4, 5, 5]", layout))
    report = validate([str(make_root(tmp_path, text))])
    rows = sum(int(n) for n in layout.strip("[]").split(","))
    assert rows * cap >= 104
    each = -(-16 // cap)
    assert [(e.line, e.message) for e in report.errors] == ([] if rows >= need else [
        (text.splitlines().index(f"  row_cap: {cap}") + 1,
         f"the layout's {rows} rows cannot take every card under options.row_cap {cap}: a row takes only its own "
         f"pair's cards, and the pairs need {need} rows (6 pairs {each} rows each, 1 pair {-(-8 // cap)} rows): no "
         "deal can be won")])


@pytest.mark.parametrize("layout, ok", [("[1, 2]", False), ("[2, 2]", True)])
def test_a_row_cap_must_leave_each_class_its_rows(tmp_path, layout, ok):
    """A row's top alternates between its pair's two classes, so a row of 4 takes at most two 1s: six 1s (two
    suited, four more) and two 3s, pairing to 4, need three rows, and the 2s one more, where three rows of 4 hold
    all ten cards."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "lop.yaml").write_text(
        "id: lop\nname: Lop\ndescription: More 1s than 3s.\ncard_name: \"{rank}{suit}\"\n"
        "suits:\n  - {id: a, name: A}\n  - {id: b, name: B}\n"
        "ranks:\n  - {id: \"1\", value: 1}\n  - {id: \"2\", value: 2}\n  - {id: \"3\", value: 3}\n"
        "cards:\n" + "".join(f"  - {{name: X{k}, value: 1}}\n" for k in range(4)))
    text = (EIFFEL.replace("id: eiffel-tower", "id: lop-tower").replace("row_cap: null", "row_cap: 4")
            .replace("[1, 2, 3, 4, 5, 5]", layout).replace("match: 14", "match: 4")
            .replace("type: french, copies: 2", "type: lop, copies: 1"))
    assert "type: lop" in text and "match: 4" in text
    report = validate([str(make_root(tmp_path, text, "lop-tower"))])
    assert [e.message for e in report.errors] == ([] if ok else [
        "the layout's 3 rows cannot take every card under options.row_cap 4: a row takes only its own pair's "
        "cards, and the pairs need 4 rows (1 pair 3 rows, 1 pair 1 row): no deal can be won"])


def test_a_file_outside_a_config_folder_is_the_one_checked(tmp_path):
    """``validate FILE`` checks that file's game, not a bundled namesake, and a new game there
    is found by its id (issue: a broken eiffel-tower.yaml passed, checked as the bundled one)."""
    broken = tmp_path / "eiffel-tower.yaml"
    broken.write_text(EIFFEL.replace("[1, 2, 3, 4, 5, 5]", "[60, 60]"))
    report = validate([str(broken)])
    assert [(e.path, e.line) for e in report.errors] == [(str(broken), 14)]
    assert "but the deck holds only 104" in report.errors[0].message
    new = tmp_path / "my-tower.yaml"
    new.write_text(EIFFEL.replace("id: eiffel-tower", "id: my-tower"))
    assert validate([str(new)]).ok
    # no folder looks a loose file up by its name, so any name will do: it is checked as its id's config
    renamed = tmp_path / "draft.yaml"
    renamed.write_text(EIFFEL.replace("[1, 2, 3, 4, 5, 5]", "[60, 60]"))
    assert [(e.path, e.line) for e in validate([str(renamed)]).errors] == [(str(renamed), 14)]
    renamed.write_text(EIFFEL)
    assert validate([str(renamed)]).ok


def test_an_id_that_is_also_an_alias_is_refused(tmp_path):
    """A game called strict-eiffel-tower would hide the Strict Eiffel Tower alias, and two
    variants' templates making one name would leave it meaning either game: both are reported
    (the name keeps meaning the game; the alias two templates make is refused, never read as the
    one whose variant sorts first). A template making the game's own id is refused outright."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: strict-eiffel-tower"), "strict-eiffel-tower")
    two = EIFFEL.replace("id: eiffel-tower", "id: t2").replace("variants: [strict]", "variants: [strict, loose]")
    (root / "games" / "t2.yaml").write_text(two)
    (root / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    # applies_to names t2 alone: a family-wide one would make a loose alias for every pairing game
    (root / "variants" / "loose.yaml").write_text(strict.replace("id: strict", "id: loose")
                                                  .replace("applies_to: [pairing]", "applies_to: [t2]"))
    report = validate([str(root)])
    aliases = strict.splitlines().index('aliases: ["strict-{game}"]') + 1
    assert sorted(f"{Path(e.path).name}:{e.line}: {e.message}" for e in report.errors) == [
        f"loose.yaml:{aliases}: alias 'strict-t2' (t2 + loose) is also variant strict's alias of t2",
        "strict-eiffel-tower.yaml:1: id 'strict-eiffel-tower' is also variant strict's alias of eiffel-tower",
    ]
    catalog = Catalog([root, BUNDLED])
    assert catalog.lookup("strict-eiffel-tower") == ("strict-eiffel-tower", ())
    assert "strict-eiffel-tower" not in catalog.aliases  # so `list` shows the name once
    with pytest.raises(ConfigError, match=r"'strict-t2' is an alias of t2 \+ loose and t2 \+ strict"):
        catalog.lookup("strict-t2")
    (root / "variants" / "loose.yaml").write_text(strict.replace("id: strict", "id: loose")
                                                   .replace('"strict-{game}"', '"{game}"'))
    report = validate([str(root / "variants" / "loose.yaml")])
    assert [f"{e.line}: {e.message}" for e in report.errors] == [
        f"{aliases}: 'aliases[0]': must be a kebab-case game-id template holding {{game}}, as written, more than it "
        "and no other field, such as 'strict-{game}'"]


def test_a_deck_names_what_repeats_and_where(tmp_path):
    """A repeated suit or rank id is reported at its own line; two cards a template names alike
    at the template's line, naming the card (it was "two cards share a name" at line 1)."""
    (tmp_path / "decks").mkdir()
    french = (BUNDLED / "decks" / "french.yaml").read_text().replace("id: french", "id: odd")
    deck = tmp_path / "decks" / "odd.yaml"
    deck.write_text(french.replace("{id: D, name: Diamonds", "{id: H, name: Diamonds"))
    assert [f"{e.line}: {e.message}" for e in validate([str(deck)]).errors] == ["10: suit id 'H' is used twice"]
    deck.write_text(french.replace('card_name: "{rank}{suit}"', 'card_name: "{rank}"'))
    assert [f"{e.line}: {e.message}" for e in validate([str(deck)]).errors] == [
        "5: cannot build the deck: deck 'odd': two cards are named 'A'"]


def test_id_must_match_file_name(tmp_path):
    report = validate([str(make_root(tmp_path, EIFFEL))])
    assert any("differs from the file name" in str(e) for e in report.errors)


def test_all_bundled_configs_are_valid():
    report = validate()
    assert report.ok, "\n".join(str(e) for e in report.errors)
    assert report.checked >= 3


def test_variant_overlay_and_alias():
    cat = Catalog()
    plain = cat.resolve("eiffel-tower")
    strict = cat.resolve("strict-eiffel-tower")
    assert plain.options["strict"] is False and strict.options["strict"] is True
    assert strict.variants == ("strict",)
    assert cat.resolve("eiffel-tower", ["strict"]) == strict
    assert plain.sha256 != strict.sha256
    # a variant named twice, or named besides the alias that implies it, is applied once
    assert cat.resolve("eiffel-tower", ["strict", "strict"]) == strict == cat.resolve("strict-eiffel-tower", ["strict"])


def test_an_alias_implies_its_variant_before_those_named(tmp_path):
    """``strict-t2 --variant loose`` is t2 + strict + loose, in that order (later overlays win)."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: t2")
                     .replace("variants: [strict]", "variants: [strict, loose]"), "t2")
    (root / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    (root / "variants" / "loose.yaml").write_text(
        strict.replace("id: strict", "id: loose").replace("name: Strict", "name: Loose")
        .replace("strict: true", "strict: false").replace('aliases: ["strict-{game}"]\n', "")
        .replace('title: "Strict {game}"\n', ""))
    cat = Catalog([root, BUNDLED])
    spec = cat.resolve("strict-t2", ["loose"])
    assert spec.variants == ("strict", "loose") and spec.options["strict"] is False
    assert spec.name.endswith("+ Loose")
    assert cat.resolve("t2", ["loose", "strict"]).options["strict"] is True


def test_a_variant_titles_the_game():
    """The seed's names for the Strict versions ("Strict Castle") on every resolved game, as
    ``list`` shows them; a variant without a title is added after a plus."""
    cat = Catalog()
    assert cat.resolve("strict-castle").name == cat.resolve("castle", ["strict"]).name == "Strict Castle"
    assert cat.resolve("castle").name == "Castle"
    assert cat.resolve("torqu", ["death", "dragons"], 4).name == "Torqu + Death + Dragons"


def test_hash_ignores_prose_but_not_rules(tmp_path):
    shutil.copytree(BUNDLED / "decks", tmp_path / "decks")
    base = Catalog().resolve("eiffel-tower").sha256
    make_root(tmp_path, EIFFEL.replace("Eiffel Tower", "Tour Eiffel"), "eiffel-tower")
    assert Catalog([tmp_path, BUNDLED]).resolve("eiffel-tower").sha256 == base
    french = (tmp_path / "decks" / "french.yaml").read_text()
    (tmp_path / "decks" / "french.yaml").write_text(french.replace("description: The standard", "description: A")
                                                    .replace("name: French", "name: Francais", 1))
    assert Catalog([tmp_path, BUNDLED]).resolve("eiffel-tower").sha256 == base  # the deck's prose
    (tmp_path / "decks" / "french.yaml").write_text(french.replace("name: Hearts", "name: Coeurs"))
    assert Catalog([tmp_path, BUNDLED]).resolve("eiffel-tower").sha256 != base  # a suit's name: cards' names
    (tmp_path / "decks" / "french.yaml").write_text(french)
    (tmp_path / "games" / "eiffel-tower.yaml").write_text(EIFFEL.replace("strict_waste_cap: 4", "strict_waste_cap: 3"))
    assert Catalog([tmp_path, BUNDLED]).resolve("eiffel-tower").sha256 != base


def test_hash_ignores_the_order_of_variants_that_commute():
    cat = Catalog()
    one = cat.resolve("torqu", ["death", "dragons"], 4)
    other = cat.resolve("torqu", ["dragons", "death"], 4)
    assert one.variants != other.variants and one.options == other.options
    assert one.sha256 == other.sha256 != cat.resolve("torqu", ["death"], 4).sha256
    # the player count is a rule: the same options for 2 and 3 players are not the same game
    assert cat.resolve("torqu", (), 2).options == cat.resolve("torqu", (), 3).options
    assert cat.resolve("torqu", (), 2).sha256 != cat.resolve("torqu", (), 3).sha256


def test_unknown_names_suggest():
    cat = Catalog()
    with pytest.raises(UnknownNameError, match="did you mean 'eiffel-tower'"):
        cat.resolve("eifel-tower")
    with pytest.raises(CardgamesError, match="variant 'strikt'.*did you mean 'strict'"):
        cat.resolve("eiffel-tower", ["strikt"])
    with pytest.raises(CardgamesError, match="for 1 player, not 2"):
        cat.resolve("eiffel-tower", players=2)
    for players in (1, 5):
        with pytest.raises(CardgamesError, match=f"^towers is for 2-4 players, not {players}$"):
            cat.resolve("towers", players=players)


def test_a_default_player_count_outside_the_range_is_refused(tmp_path):
    text = EIFFEL.replace("players: {min: 1, max: 1, default: 1}", "players: {min: 1, max: 1, default: 2}")
    report = validate([str(make_root(tmp_path, text, "eiffel-tower"))])
    line = text.splitlines().index("players: {min: 1, max: 1, default: 2}") + 1
    message = "players: need min <= default <= max, not min 1, default 2, max 1"
    assert [(e.line, e.message) for e in report.errors] == [(line, message)]


def test_copies_by_players(tmp_path):
    from cardgames.engine.config import copies_for

    deck = {"copies": 1, "copies_by_players": {5: 2, "8": 3}}
    assert [copies_for(deck, n) for n in (2, 4, 5, 7, 8, 12)] == [1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("key, ok", [("64", True), ("65", False)])
def test_the_largest_player_count_is_a_threshold_and_one_more_is_not(tmp_path, key, ok):
    """A player-count key runs 1..MAX_PLAYERS (64) both ends included: ``copies_by_players: {64: 3}`` is a
    count a game may be for, and is accepted; 65 is no player count, and is refused at its line."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace(
        "deck: {type: french, copies: 2}", f"deck: {{type: french, copies: 2, copies_by_players: {{{key}: 3}}}}")
    assert text != EIFFEL.replace("id: eiffel-tower", "id: my-tower")
    report = validate([str(make_root(tmp_path, text))])
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "copies_by_players" in row)
    assert [(e.line, e.message) for e in report.errors] == ([] if ok else [
        (line, f"'deck.copies_by_players': keys must be player counts (1..64), not '{key}'")])


def test_integers_beyond_64_bits_are_refused_with_their_line(tmp_path):
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("strict_waste_cap: 4",
                                                                      "strict_waste_cap: 99999999999999999999999")
    report = validate([str(make_root(tmp_path, text))])
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "strict_waste_cap" in row)
    said = f"my-tower.yaml:{line}: 'options.strict_waste_cap': 99999999999999999999999 is outside"
    assert [said in str(e) for e in report.errors] == [True]


@pytest.mark.parametrize("cap", ["0", "-1"])
def test_a_strict_waste_cap_must_be_positive(tmp_path, cap):
    """A waste that holds no card would end every Strict game at its first turn: refused at its line (a mutant
    that dropped the check passed every other test)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("strict_waste_cap: 4", f"strict_waste_cap: {cap}")
    report = validate([str(make_root(tmp_path, text))])
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "strict_waste_cap" in row)
    assert [str(e) for e in report.errors] == [
        f"{tmp_path / 'games' / 'my-tower.yaml'}:{line}: 'options.strict_waste_cap': must be positive"]


def _torqu_root(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    text = (BUNDLED / "games" / "torqu.yaml").read_text()
    assert old in text
    text = text.replace(old, new)
    return make_root(tmp_path, text, "torqu"), text


def test_a_deal_row_that_does_not_add_up_is_blamed_on_its_own_line(tmp_path):
    root, text = _torqu_root(tmp_path, "4: {hand: 4, center: 16,", "4: {hand: 4, center: 15,")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "4: {hand: 4, center: 15," in row)
    messages = [str(e) for e in validate([str(root)]).errors]
    assert any(f"torqu.yaml:{line}: options.deal for 4 players deals 159 cards" in m for m in messages), messages


def test_a_missing_deal_row_is_reported_with_the_other_errors(tmp_path):
    root, text = _torqu_root(tmp_path, "    5: {hand: 4, center: 12, primary: 8, secondary: 8}\n", "")
    (root / "games" / "broken.yaml").write_text("id: broken\nname: [unclosed\n")
    report = validate([str(root)])
    messages = [str(e) for e in report.errors]
    assert any("torqu.yaml:" in m and "options.deal has no row for 5 players" in m for m in messages), messages
    assert any("broken.yaml:3: YAML syntax error" in m for m in messages) and report.checked == 2


def test_a_bad_variant_option_is_reported_once_at_the_variant_file(tmp_path):
    shutil.copytree(BUNDLED, tmp_path / "cfg", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    variant = tmp_path / "cfg" / "variants" / "strict.yaml"
    variant.write_text(variant.read_text().replace("  strict: true", "  strict: 7"))
    line = next(i for i, row in enumerate(variant.read_text().splitlines(), 1) if "strict: 7" in row)
    messages = [str(e) for e in validate([str(tmp_path / "cfg")]).errors]
    assert messages == [f"{variant}:{line}: 'options.strict' must be true or false, not 7"], messages


def test_commands_refuse_what_validate_refuses(tmp_path, run_cli):
    """A deal larger than the deck: validate reports it, and deal/simulate stop at the same line
    instead of failing inside the rules."""
    (tmp_path / "games").mkdir()
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    bad = torqu.replace("    2: {hand: 8, center: 16, primary: 8, secondary: 8}",
                        "    2: {hand: 9, center: 16, primary: 8, secondary: 8}")
    assert bad != torqu
    (tmp_path / "games" / "torqu.yaml").write_text(bad)
    line = next(i for i, text in enumerate(bad.splitlines(), 1) if "hand: 9" in text)
    for args in (("deal", "torqu", "--players", "2", "--seed", "1"),
                 ("simulate", "--game", "torqu", "--players", "2", "--seed", "1")):
        result = run_cli("--configs", str(tmp_path), *args)
        assert result.exit_code == 1 and "Traceback" not in result.output
        where = tmp_path / "games" / "torqu.yaml"
        assert result.stderr.startswith(f"Error: {where}:{line}: options.deal for 2 players")
        assert result.stderr.endswith(f" (`cardgames --configs {tmp_path} validate` lists them all)\n")  # the others


def test_variants_that_clash_only_together_say_validate_checks_each_alone(tmp_path, run_cli):
    """Two variants, each fine alone, ask together for a first deal larger than the deck: validate
    passes (it checks each variant alone), so the command's error must not send the user there for
    the list, and says the problem is the variants' together."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "games").mkdir()
    (tmp_path / "variants" / "big-hands.yaml").write_text(
        "id: big-hands\nname: Big hands\napplies_to: [turup]\noptions:\n  hand_size: 10\n")
    (tmp_path / "variants" / "big-pile.yaml").write_text(
        "id: big-pile\nname: Big pile\napplies_to: [turup]\noptions:\n  community_size: 20\n")
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    assert "variants: []" in turup
    (tmp_path / "games" / "turup.yaml").write_text(turup.replace("variants: []", "variants: [big-hands, big-pile]"))
    assert run_cli("--configs", str(tmp_path), "validate").exit_code == 0
    for variants in (("big-hands",), ("big-pile",)):
        assert run_cli("--configs", str(tmp_path), "deal", "turup", "--players", "4", "--seed", "1",
                       *(f"--variant={v}" for v in variants)).exit_code == 0
    result = run_cli("--configs", str(tmp_path), "deal", "turup", "--players", "4", "--seed", "1",
                     "--variant", "big-hands", "--variant", "big-pile")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert result.stderr.endswith(f" (from the variants big-hands + big-pile together; `cardgames --configs {tmp_path} "
                                  "validate` checks each alone)\n")


def test_a_game_of_an_unknown_engine_is_one_line_with_a_hint(tmp_path, run_cli):
    """A game file whose engine is misspelt stops a command with the registry's one line, naming the
    engine and the one meant, not a KeyError's traceback."""
    (tmp_path / "games").mkdir()
    eiffel = (BUNDLED / "games" / "eiffel-tower.yaml").read_text()
    bad = eiffel.replace("engine: pairing", "engine: pairng")
    assert bad != eiffel
    (tmp_path / "games" / "eiffel-tower.yaml").write_text(bad)
    result = run_cli("--configs", str(tmp_path), "deal", "eiffel-tower", "--seed", "1")
    assert result.exit_code == 1 and result.stderr == "Error: unknown engine 'pairng'; did you mean 'pairing'?\n"


def test_a_command_names_the_first_problem_at_the_variants_line(tmp_path, run_cli):
    """A variant that makes a game unplayable twice over (both layouts too large for the deck): a command
    stops at the first problem check_config lists, at the line of the variant that sets it, not the game's."""
    (tmp_path / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    text = strict.replace("  strict: true\n", "  strict: true\n  layout: [60, 60]\n  strict_layout: [50, 60]\n")
    assert text != strict
    (tmp_path / "variants" / "strict.yaml").write_text(text)
    line = text.splitlines().index("  layout: [60, 60]") + 1
    result = run_cli("--configs", str(tmp_path), "deal", "eiffel-tower", "--variant", "strict", "--seed", "1")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {tmp_path / 'variants' / 'strict.yaml'}:{line}: the layout has 120 rows")
    assert located("a bare message") == (("options",), "a bare message")  # an engine's message about its options


@pytest.mark.parametrize("kind, name, old, new, words", [
    ("decks", "french", 'card_name: "{rank}{suit}"', 'card_name: "{rnk}"', "card_name '{rnk}' has a field {rnk}; "),
    ("decks", "french", 'card_name: "{rank}{suit}"', 'card_name: "{rank.__class__}{suit}"',
     "card_name '{rank.__class__}{suit}' has a field {rank.__class__}; "),
    ("decks", "french", 'card_name: "{rank}{suit}"', 'card_name: "{rank:>999999999}{suit}"',
     "asks field {rank} for the format '>999999999'; a width or precision has at most 2 digits"),
    ("decks", "french", 'card_name: "{rank}{suit}"', 'card_name: "{rank"', "card_name '{rank' cannot name cards"),
    # as a card's own name is (a config fuzzer's: a newline broke the drawn deal across lines)
    ("decks", "french", 'card_name: "{rank}{suit}"', 'card_name: "{rank}\\n{suit}"',
     "'card_name': must have no space at either end and no control character"),
    ("decks", "french", 'card_name: "{rank}{suit}"', 'card_name: " {rank}{suit}"',
     "'card_name': must have no space at either end and no control character"),
    ("variants", "strict", '"strict-{game}"', '"strict-{gam}"', "must be a kebab-case game-id template holding"),
    ("variants", "strict", '"strict-{game}"', '"strict-{{game}}"', "must be a kebab-case game-id template holding"),
    ("variants", "strict", '"strict-{game}"', '"Strict_{game}"', "must be a kebab-case game-id template holding"),
    ("variants", "strict", '"Strict {game}"', '"Strict {name}"', "must be a name template holding {game}"),
    # a format spec, index or conversion on {game}: a gigabyte title (a config fuzzer's)
    ("variants", "strict", '"Strict {game}"', '"{game:>999999999}"', "must be a name template holding {game}, as"),
    ("variants", "strict", '"Strict {game}"', '"Strict {game[0]}"', "must be a name template holding {game}, as"),
    ("variants", "strict", '"Strict {game}"', '"Strict {game!r}"', "must be a name template holding {game}, as"),
    ("variants", "strict", '"strict-{game}"', '"strict-{game:x<3}"', "must be a kebab-case game-id template holding"),
    ("games", "eiffel-tower", "layout: [1, 2, 3, 4, 5, 5]", "layout: []", "options.layout needs at least one line"),
    ("games", "eiffel-tower", "max: 1,", "max: 2,", "a pairing game is a solitaire: it seats 1 player, not 2"),
    ("games", "eiffel-tower", "copies: 2}", "copies: 100000000}", "'deck.copies': must be 1..16"),
    # caps past the deck: the solver sized tables by them (a config fuzzer's MemoryError)
    ("games", "eiffel-tower", "row_cap: null", "row_cap: 2147483648",
     "options.row_cap is 2147483648, more than the deck's 104 cards: write null for no limit"),
    ("games", "eiffel-tower", "strict_waste_cap: 4", "strict_waste_cap: 105",
     "options.strict_waste_cap is 105, more than the deck's 104 cards: write at most 104"),
    ("decks", "french", "{id: C, name: Clubs", "{id: ' ', name: Clubs", "'suits[0].id': must not be empty or blank"),
    ("decks", "french", '{id: "2", name: Two', '{id: "2\\n", name: Two',
     "'ranks[1].id': must have no space at either end and no control character"),
])
def test_hostile_configs_are_one_line_everywhere(tmp_path, run_cli, kind, name, old, new, words):
    """A designer's mistake is found by validate at its file and line, and stops every other
    command with one line (they used to end in tracebacks or loop for ever)."""
    text = (BUNDLED / kind / f"{name}.yaml").read_text()
    assert old in text
    (tmp_path / kind).mkdir()
    (tmp_path / kind / f"{name}.yaml").write_text(text.replace(old, new))
    line = next(i for i, t in enumerate(text.replace(old, new).splitlines(), 1) if new in t)
    checked = run_cli("--configs", str(tmp_path), "validate")
    assert checked.exit_code == 1 and f"{tmp_path / kind / name}.yaml:{line}: " in checked.stdout
    assert words in checked.stdout
    game = "strict-eiffel-tower" if kind == "variants" else "eiffel-tower"  # a variant is read when used
    players = "2" if "max: 2" in new else "1"
    dealt = run_cli("--configs", str(tmp_path), "deal", game, "--seed", "1", "--players", players)
    assert dealt.exit_code == 1 and words in dealt.stderr and len(dealt.stderr.splitlines()) == 1


def test_validate_checks_a_variants_folder_alone(tmp_path, run_cli):
    """A variant's options are checked against its engine without a game of the folder using it."""
    (tmp_path / "variants").mkdir()
    text = (BUNDLED / "variants" / "strict.yaml").read_text()
    (tmp_path / "variants" / "strict.yaml").write_text(text.replace("  strict: true", "  strict: 1"))
    result = run_cli("validate", str(tmp_path))
    line = text.splitlines().index("  strict: true") + 1
    assert result.exit_code == 1
    assert f"strict.yaml:{line}: 'options.strict' must be true or false, not 1" in result.stdout
    both = run_cli("--configs", str(tmp_path), "validate")
    assert both.exit_code == 1 and both.stdout.count("must be true or false") == 1  # once, not once a game


def test_a_turup_deal_too_large_is_said_at_the_line_to_change(tmp_path):
    """A first deal larger than the deck is said at the line of its larger part: 60 community cards at
    ``community_size``, not at ``hand_size`` (a designer's finding), alike at every count (100 cards at 2-7
    players, the deck growing from one copy to two: one line, a reviewer's finding); hands of 20 at
    ``hand_size``."""
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    assert "  community_size: 4\n" in turup and "  hand_size: 4\n" in turup
    for before, after in (("  community_size: 4", "  community_size: 60"),
                          ("  community_size: 4", "  community_size: 100"), ("  hand_size: 4", "  hand_size: 20")):
        text = turup.replace(before + "\n", after + "\n")
        root = tmp_path / after.split(":")[1].strip()
        root.mkdir()
        make_root(root, text, "turup")
        deals = [e for e in validate([str(root)]).errors if "the first deal needs" in e.message]
        assert [error.line for error in deals] == [text.splitlines().index(after) + 1], deals
    # a community of exactly half the deck is not the larger part: 26 of 52 with two hands of 14 blame the hands
    half = turup.replace("  hand_size: 4\n", "  hand_size: 14\n").replace("  community_size: 4\n",
                                                                          "  community_size: 26\n")
    half = half.replace("players: {min: 2, max: 12, default: 4}", "players: {min: 2, max: 2, default: 2}")
    half = half.replace("copies_by_players: {5: 2, 8: 3}", "copies_by_players: {}")
    root = tmp_path / "half"
    root.mkdir()
    make_root(root, half, "turup")
    [error] = validate([str(root)]).errors
    assert error.line == half.splitlines().index("  hand_size: 14") + 1 and "first deal needs 54 cards" in str(error)
    # parts alike (two hands of 20, 40 community cards) blame the community
    alike = turup.replace("  hand_size: 4\n", "  hand_size: 20\n").replace("  community_size: 4\n",
                                                                           "  community_size: 40\n")
    alike = alike.replace("players: {min: 2, max: 12, default: 4}", "players: {min: 2, max: 2, default: 2}")
    root = tmp_path / "alike"
    root.mkdir()
    make_root(root, alike, "turup")
    [error] = validate([str(root)]).errors
    assert error.line == alike.splitlines().index("  community_size: 40") + 1


def test_a_turup_community_pile_too_crowded_to_list_captures_is_refused(tmp_path):
    """100 community cards from three decks passed validate, then every game stopped at its first capture (a
    designer's finding): where most of seeds 1-8's first players cannot list their captures, refused at the
    community's line with the listing's reason. Real deals, not a model pile (each value's share of the deck,
    rounded, which a designer's decks of many values fooled both ways): 49 cards of the Uta Karuta's 200 (two of
    each of 100 values, a share of 0.49: none) stop every game and are refused; 14 of a deck numbered 1-28 in two
    suits (a share of 0.5: one of each) play and pass. A problem said first leaves the pile unjudged."""
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    deck = "deck: {type: french, copies: 1, copies_by_players: {5: 2, 8: 3}}"
    assert deck in turup and "  community_size: 4\n" in turup and "  deal_packet: 1\n" in turup

    def refused(name: str, text: str, size: int, deck_line: str, *decks: tuple[str, str]) -> list[str]:
        root = tmp_path / name
        (root / "decks").mkdir(parents=True)
        for file, body in decks:
            (root / "decks" / file).write_text(body)
        make_root(root, text.replace(deck, deck_line).replace("  community_size: 4\n", f"  community_size: {size}\n"),
                  "turup")
        return [e.message for e in validate([str(root)]).errors if "turup.yaml" in str(e.path)]

    # pinned whole: the deals of each seed (not one seed's eight times), the first card found of those failing,
    # in the order of the hand's values from the highest (mutants of each passed a looser pattern)
    assert refused("three", turup, 100, "deck: {type: french, copies: 3}") == [
        "options.community_size 100: in 5 of 8 deals (seeds 1-8) the first player holds a card whose captures on "
        "the first community pile are too many to list, so the game stops at its first move (the community pile "
        "holds too many cards of values 1-9 to list every capture of a 10 (over the limit of 2,000,000 sub-piles to "
        "consider)) (2 players; likewise at 4-6, 9 players)"]
    two = turup.replace("players: {min: 2, max: 12, default: 4}", "players: {min: 2, max: 2, default: 2}")
    # half of the deals stopping is not most of them: 92 cards from three decks stop 4 of the 8, and pass
    assert refused("half", two, 92, "deck: {type: french, copies: 3}") == []
    [uta] = refused("uta", two, 49, "deck: {type: uta-karuta, copies: 1}")
    assert uta.startswith("options.community_size 49: in 8 of 8 deals")
    numbered = "\n".join(["id: num28", "name: Num 28", "card_name: '{suit}{rank}'", "suits:",
                          "- {id: A, name: Ayes}", "- {id: B, name: Bees}", "ranks:",
                          *(f"- {{id: '{n:02d}', name: N{n}, value: {n}}}" for n in range(1, 29))]) + "\n"
    assert refused("numbered", two, 14, "deck: {type: num28, copies: 1}", ("num28.yaml", numbered)) == []
    packet = turup.replace("  deal_packet: 1\n", "  deal_packet: 5\n")
    assert [m.split(" ")[0] for m in refused("packet", packet, 100, "deck: {type: french, copies: 3}")] == [
        "options.deal_packet"]


def test_a_turup_deck_names_the_ranks_sharing_a_value(tmp_path):
    """Two numeral ranks of one value (a designer's Jack made a 10) are named with it; a problem of the deck,
    alike at every player count, says so rather than list them."""
    french = (BUNDLED / "decks" / "french.yaml").read_text()
    jack = "{id: J, name: Jack, value: 11, face: true}"
    assert jack in french
    (tmp_path / "decks").mkdir(parents=True)
    (tmp_path / "decks" / "french.yaml").write_text(french.replace(jack, "{id: J, name: Jack, value: 10}"))
    make_root(tmp_path, (BUNDLED / "games" / "turup.yaml").read_text(), "turup")
    [error] = [e for e in validate([str(tmp_path)]).errors if "turup.yaml" in str(e.path)]
    assert error.message.endswith("numeral ranks must have distinct values (a match is by rank), but T and J are "
                                  "both 10 (every player count)"), error.message
    queen = "{id: Q, name: Queen, value: 12, face: true}"
    (tmp_path / "decks" / "french.yaml").write_text(french.replace(jack, "{id: J, name: Jack, value: 10}").replace(
        queen, "{id: Q, name: Queen, value: 10}"))
    [error] = [e for e in validate([str(tmp_path)]).errors if "turup.yaml" in str(e.path)]
    assert error.message.endswith("but T, J and Q are all 10 (every player count)"), error.message


def test_a_problem_at_many_player_counts_is_one_line_naming_them(tmp_path, run_cli):
    """Turup up to 64 players ran out of cards from 39 players on: 26 lines that differed only in
    their numbers (the CI audit's finding). Now one, at the first count, naming the others."""
    (tmp_path / "games").mkdir()
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    assert "players: {min: 2, max: 12, default: 4}" in turup
    (tmp_path / "games" / "turup.yaml").write_text(turup.replace("max: 12,", "max: 64,"))
    result = run_cli("validate", str(tmp_path))
    assert result.exit_code == 1
    [line] = result.stdout.splitlines()
    assert line.endswith("the first deal needs 160 cards (39 hands of 4 and 4 community cards) but the deck holds "
                         "156 (39 players; likewise at 40-64 players)")
    (tmp_path / "games" / "turup.yaml").write_text(turup.replace("max: 12,", "max: 39,"))
    assert run_cli("validate", str(tmp_path)).stdout.endswith("but the deck holds 156 (39 players)\n")


def test_a_huge_player_count_key_is_one_line(tmp_path, run_cli):
    (tmp_path / "games").mkdir()
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    key = "9" * 5000  # int() refuses over 4,300 digits with an error of its own
    block = f'deck:\n  type: french\n  copies: 1\n  copies_by_players:\n    ? "{key}"\n    : 2\n'  # YAML's long key
    assert "deck: {type: french, copies: 1, copies_by_players: {5: 2, 8: 3}}\n" in turup
    (tmp_path / "games" / "turup.yaml").write_text(
        turup.replace("deck: {type: french, copies: 1, copies_by_players: {5: 2, 8: 3}}\n", block))
    result = run_cli("--configs", str(tmp_path), "deal", "turup", "--seed", "1")
    assert result.exit_code == 1 and "keys must be player counts (1..64)" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_bad_threshold_is_said_at_its_own_line(tmp_path, run_cli):
    """``copies_by_players`` written as a block: the entry at fault is the line to mend, not the table's key."""
    (tmp_path / "games").mkdir()
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    block = "deck:\n  type: french\n  copies: 1\n  copies_by_players:\n    5: 2\n    8: 0\n"
    changed = turup.replace("deck: {type: french, copies: 1, copies_by_players: {5: 2, 8: 3}}\n", block)
    (tmp_path / "games" / "turup.yaml").write_text(changed)
    line = changed.splitlines().index("    8: 0") + 1
    result = run_cli("--configs", str(tmp_path), "validate", str(tmp_path))
    assert result.stdout.startswith(f"{tmp_path / 'games' / 'turup.yaml'}:{line}: 'deck.copies_by_players': from 8 "
                                    "players: the copies must be a whole number of decks (1..16), not 0")


def test_replay_blames_a_broken_config_not_the_log(tmp_path, run_cli):
    golden = Path(__file__).parent / "golden" / "eiffel-tower-p1-native-7-greedy.json"
    (tmp_path / "games").mkdir()
    text = EIFFEL.replace("layout: [1, 2, 3, 4, 5, 5]", "layout: []")
    (tmp_path / "games" / "eiffel-tower.yaml").write_text(text)
    result = run_cli("--configs", str(tmp_path), "replay", str(golden))
    assert result.exit_code == 1 and "the log's" not in result.stderr
    assert f"{tmp_path / 'games' / 'eiffel-tower.yaml'}:" in result.stderr


def test_a_variant_may_apply_to_a_designers_own_family(tmp_path, run_cli):
    (tmp_path / "games").mkdir()
    (tmp_path / "variants").mkdir()
    game = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("family: pairing", "family: towering")
    (tmp_path / "games" / "my-tower.yaml").write_text(game.replace("variants: [strict]", "variants: [tight]"))
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    tight = strict.replace("id: strict", "id: tight").replace("applies_to: [pairing]", "applies_to: [towering]")
    (tmp_path / "variants" / "tight.yaml").write_text(tight.replace('aliases: ["strict-{game}"]', "aliases: []"))
    assert run_cli("validate", str(tmp_path)).exit_code == 0
    (tmp_path / "variants" / "tight.yaml").write_text(tight.replace("[towering]", "[towerin]"))
    result = run_cli("validate", str(tmp_path))
    assert result.exit_code == 1 and "'towerin' is no game's id or family; did you mean 'towering' or" in result.stdout
    (tmp_path / "games" / "my-tower.yaml").write_text(game.replace("variants: [strict]", "variants: [tigth]"))
    result = run_cli("validate", str(tmp_path))  # a name in a config gets the hint a name on the command line gets
    assert result.exit_code == 1 and "unknown variant 'tigth'; did you mean 'tight' or" in result.stdout


def test_a_variants_row_cap_with_no_room_is_blamed_on_the_variant(tmp_path):
    """A variant tightening a game's row cap was blamed on the game's layout line (the designer audit's finding)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("variants: [strict]", "variants: [tight]")
    root = make_root(tmp_path, text)
    (root / "variants").mkdir()
    tight = "id: tight\nname: Tight\napplies_to: [my-tower]\noptions:\n  row_cap: 2\n"
    (root / "variants" / "tight.yaml").write_text(tight)
    report = validate([str(root)])
    assert [(Path(e.path).name, e.line) for e in report.errors] == [("tight.yaml", 5)]
    assert "rows hold at most 40 cards (options.row_cap 2)" in report.errors[0].message


@pytest.mark.parametrize("source, folder, words", [
    ("games/eiffel-tower.yaml", "decks", "a game config (it has 'engine') in a decks/ folder: games/ holds games"),
    ("variants/strict.yaml", "games", "a variant config (it has 'applies_to') in a games/ folder"),
    ("decks/french.yaml", "variants", "a deck config (it has 'suits') in a variants/ folder: decks/ holds decks"),
])
def test_a_config_in_another_kinds_folder_is_one_line(tmp_path, run_cli, source, folder, words):
    """A game file saved in decks/ was refused key by key, seven lines (the designer audit's finding). The line is
    the telling key's, also where its value is a block below it (a deck's ``suits:``; a mutant that named the
    value's line passed: a mutation audit's finding)."""
    (tmp_path / folder).mkdir()
    text = (BUNDLED / source).read_text()
    (tmp_path / folder / Path(source).name).write_text(text)
    result = run_cli("validate", str(tmp_path))
    assert result.exit_code == 1 and len(result.stdout.splitlines()) == 1 and words in result.stdout
    key = re.search(r"it has '(\w+)'", words).group(1)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith(f"{key}:"))
    assert result.stdout.startswith(f"{tmp_path / folder / Path(source).name}:{line}: ")


def test_a_folders_variant_plays_on_every_game_of_the_family_it_names(tmp_path, run_cli):
    """A variant applies to the games its applies_to names, by family as here or by id: a designer's
    variant needs no copy of a bundled game's file to list it (the designer audit's finding; a game's
    own list is what it is designed with, shown first). validate checks it against every game it
    reaches, and a game it does not name refuses it as before."""
    (tmp_path / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    loose = strict.replace("id: strict", "id: loose").replace('aliases: ["strict-{game}"]', "aliases: []")
    (tmp_path / "variants" / "loose.yaml").write_text(loose)
    assert run_cli("validate", str(tmp_path)).exit_code == 0
    dealt = run_cli("--configs", str(tmp_path), "deal", "eiffel-tower", "--seed", "1", "--variant", "loose")
    assert dealt.exit_code == 0
    assert dealt.stdout == run_cli("deal", "strict-eiffel-tower", "--seed", "1").stdout  # the same options
    listed = json.loads(run_cli("--configs", str(tmp_path), "list", "--format", "json").stdout)
    assert {row["id"]: row["variants"] for row in listed}["castle"] == ["strict", "loose"]
    assert {row["id"]: row["variants"] for row in listed}["turup"] == []
    refused = run_cli("--configs", str(tmp_path), "deal", "turup", "--seed", "1", "--variant", "loose")
    assert refused.exit_code == 2
    assert "variant 'loose' applies to pairing, not to turup (family turup)" in refused.stderr
    # reaching every pairing game, it is checked on each: a layout of 100 rows outdeals Hootch's 96 cards
    (tmp_path / "variants" / "loose.yaml").write_text(loose.replace("strict: true", "layout: [100]"))
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1 and "hootch" in report.stdout


def test_a_house_rule_for_a_bundled_game_is_one_short_variant_file(tmp_path, run_cli):
    """The designer audit's Torqu house rule (Perfect Four 250, Flush 40), as a variant naming torqu
    alone and giving those two points alone: it merges into the game's table, and plays and scores
    with no copy of torqu.yaml (both were refused: a game's copy had to list it, and the table had to
    be given whole, every other key a "missing key" line)."""
    (tmp_path / "variants").mkdir()
    rule = tmp_path / "variants" / "big-four.yaml"
    rule.write_text("id: big-four\nname: Big Four\napplies_to: [torqu]\noptions:\n"
                    "  points: {perfect_four: 250, flush: 40}\n")
    assert run_cli("validate", str(tmp_path)).exit_code == 0
    cards = "Water-1,Water-2,Water-3,Water-4,Air-1,Air-6,Air-11,Air-16"
    scored = [json.loads(run_cli("--configs", str(tmp_path), "score", "torqu", "--cards", cards, *extra,
                                 "--format", "json").stdout)["tableau_score"]
              for extra in ((), ("--variant", "big-four"))]
    assert scored == [300 + 30, 250 + 40]
    shown = json.loads(run_cli("--configs", str(tmp_path), "show", "torqu", "--variant", "big-four",
                               "--format", "json").stdout)
    assert shown["options"]["points"] == {"perfect_four": 250, "fifteen_flush": 180, "fifteen": 120,
                                          "straight_flush": 60, "straight": 30, "four_of_a_kind": 10, "flush": 40}


@pytest.mark.parametrize("options, line, words", [
    ("  points: {flush: 40, flsh: 1}\n", 5, "unknown key 'flsh' in 'options.points'"),
    # a key a level too high: the one below named (a designer's finding: every option was listed instead)
    ("  flush: 40\n", 5, "unknown option 'flush' for the torqu engine: did you mean 'points.flush'?"),
    ("  fifteen: 100\n", 5, "did you mean 'points.fifteen'?"),  # the very key below, not a look-alike here
    ("  points: {flush: forty}\n", 5, "'options.points.flush' must be an integer"),
    # merged, the table is checked whole, at the variant's line: this Fifteen Flush is below the game's Fifteen
    ("  points: {fifteen_flush: 100}\n", 5, "a Fifteen Flush worth at least a Fifteen, not 100 against 120"),
    ("  deal:\n    4: {hand: 5}\n", 6, "options.deal for 4 players deals 164 cards"),
    ("  deal:\n    4: {hand: 5, hnd: 4}\n", 6, "row 4 must have exactly the keys hand, center, primary, secondary "
                                             "(unknown key 'hnd'; did you mean 'hand'?)"),
    # the bad number named, key and value (a designer's finding: "values must be non-negative integers"), at
    # its own line (a CI maintainer's finding: a fault in row 5 was said at the table's first line)
    ("  deal:\n    5:\n      hand: 4\n      center: twelve\n", 8,
     "'options.deal': row 5: center must be a non-negative integer, not 'twelve'"),
    ("  deal:\n    4: {hand: true}\n", 6, "'options.deal': row 4: hand must be a non-negative integer, not true"),
    ("  tableau:\n    4: {primary: -1}\n", 6, "row 4: primary must be a non-negative integer, not -1"),
])
def test_a_merged_table_is_checked_at_the_variants_lines(tmp_path, run_cli, options, line, words):
    """A variant's table is an overlay: its own keys are checked as they stand, and the table they
    make with the game's as a whole, each at the variant's line (never at the game file's, which
    is not what to mend)."""
    (tmp_path / "variants").mkdir()
    path = tmp_path / "variants" / "house.yaml"
    path.write_text("id: house\nname: House\napplies_to: [torqu]\noptions:\n" + options)
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1
    assert report.stdout.startswith(f"{path}:{line}: ") and words in report.stdout.splitlines()[0]
    played = run_cli("--configs", str(tmp_path), "deal", "torqu", "--players", "4", "--seed", "1",
                     "--variant", "house")
    assert played.exit_code in (1, 2) and f"{path}:{line}: " in played.stderr


def test_a_partial_deal_row_merges_into_the_games_row(tmp_path, run_cli):
    """``deal: {4: {hand: 3, center: 20}}`` changes those two at four players, the rest of that row
    (8 cards on each primary and secondary) and the other player counts' rows staying the game's:
    4 x 3 + 20 + 8 x 8 + 8 x 8 = 160."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "short.yaml").write_text(
        "id: short\nname: Short hands\napplies_to: [torqu]\noptions:\n  deal:\n    4: {hand: 3, center: 20}\n")
    assert run_cli("validate", str(tmp_path)).exit_code == 0
    deal = json.loads(run_cli("--configs", str(tmp_path), "deal", "torqu", "--players", "4", "--seed", "1",
                              "--variant", "short", "--format", "json").stdout)
    assert [len(hand) for hand in deal["hands"]] == [3] * 4 and len(deal["center"]) == 20
    three = json.loads(run_cli("--configs", str(tmp_path), "deal", "torqu", "--players", "3", "--seed", "1",
                               "--variant", "short", "--format", "json").stdout)
    assert [len(hand) for hand in three["hands"]] == [5] * 3  # the game's row for three players


def _variant(root: Path, name: str, body: str) -> Path:
    """A variant file ``name`` in ``root/variants`` (the folder made if need be)."""
    (root / "variants").mkdir(exist_ok=True)
    path = root / "variants" / f"{name}.yaml"
    path.write_text(f"id: {name}\nname: {name.title()}\n" + body)
    return path


@pytest.mark.parametrize("body, line, words", [
    # the Straight merged in passes the game's Straight Flush: the key at fault is the game's, the change the variant's
    ("applies_to: [torqu]\noptions:\n  points: {straight: 70}\n", 5, "not 60 against 70"),
    ("applies_to: [torqu]\noptions:\n  exposed_at_start: 10\n", 5,
     "options.exposed_at_start is 10, but every row of options.deal leaves 9 exposed"),
    ("applies_to: [torqu]\noptions:\n  wild_cards: [Magic-13, Nope-1]\n", 5, "no card 'Nope-1'"),
    # a card listed twice (a designer's finding: passed, as if one card)
    ("applies_to: [torqu]\noptions:\n  wild_cards: [Magic-13, Magic-14, Magic-13]\n", 5,
     "options.wild_cards: 'Magic-13' is listed twice"),
])
def test_a_problem_a_designers_variant_makes_is_blamed_on_it(tmp_path, run_cli, body, line, words):
    """A variant reaching a bundled game makes a problem that shows at one of the game's keys:
    it is reported at the variant's line, in validate and in play, never at the installed game
    file, which is not the designer's to mend (a merged table's other key, an exposed count
    against the deal, a list item)."""
    path = _variant(tmp_path, "house", body)
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1 and report.stdout.startswith(f"{path}:{line}: ") and words in report.stdout
    assert "(torqu, every player count, house" in report.stdout  # the game it reached is named
    played = run_cli("--configs", str(tmp_path), "deal", "torqu", "--seed", "1", "--variant", "house")
    assert played.exit_code == 1 and played.stderr.startswith(f"Error: {path}:{line}: ")


def test_a_games_own_broken_table_is_blamed_on_the_game_not_a_variant_merging_into_it(tmp_path, run_cli):
    """A designer's Torqu whose seven-player row lacks a key, and a variant changing the four-player
    hand: the row is the game file's to mend, in validate and in play (a merged table was first
    blamed on the variant, whose row was right)."""
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    row = "    7: {hand: 4, center: 12, primary: 8, secondary: 7}"
    assert row in torqu
    broken = torqu.replace("id: torqu", "id: bad-torqu").replace(row, row.replace(", secondary: 7", ""))
    game = make_root(tmp_path, broken.replace("variants: [death, partners, dragons]", "variants: []"), "bad-torqu")
    _variant(tmp_path, "hand4", "applies_to: [torqu]\noptions:\n  deal:\n    4: {hand: 4}\n")
    line = torqu.splitlines().index(row) + 1  # the broken row's own line
    report = run_cli("validate", str(tmp_path))
    assert report.stdout.splitlines() == [f"{game / 'games' / 'bad-torqu.yaml'}:{line}: 'options.deal': row 7 "
                                               "must have exactly the keys hand, center, primary, secondary"]
    shown = run_cli("--configs", str(tmp_path), "show", "bad-torqu", "--variant", "hand4")
    assert shown.exit_code == 1 and f"bad-torqu.yaml:{line}: " in shown.stderr


def test_a_variant_of_a_broken_game_file_adds_no_second_error(tmp_path, run_cli):
    """A designer's game file with a YAML error and a variant naming that game: the game's line alone is said
    (a CI maintainer's finding: the variant's ``applies_to`` was also called "no game's id or family")."""
    game = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: fan").replace("players:", "players: ["), "fan")
    _variant(tmp_path, "wide-waste", "applies_to: [fan]\noptions:\n  strict_waste_cap: 9\n")
    _variant(tmp_path, "typo", "applies_to: [fna]\noptions:\n  strict_waste_cap: 9\n")  # still said: no such game
    report = run_cli("validate", str(tmp_path))
    said = report.stdout.splitlines()
    assert len(said) == 2 and said[0].startswith(f"{game / 'games' / 'fan.yaml'}:") and "YAML syntax error" in said[0]
    assert said[1].startswith(f"{tmp_path / 'variants' / 'typo.yaml'}:3: 'fna' is no game's id or family")


def test_a_row_may_hold_a_zero(tmp_path, run_cli):
    """A tableau without secondaries (0) is a house rule, not an error: only negative counts are refused."""
    _variant(tmp_path, "flat", "applies_to: [torqu]\noptions:\n  tableau:\n    4: {secondary: 0}\n")
    assert run_cli("validate", str(tmp_path)).exit_code == 0


def test_a_missing_row_is_said_at_its_tables_line(tmp_path, run_cli):
    """A designer's nine-player Torqu with a deal row for 9 but no tableau row: said at the tableau table, not
    at the options' or the deal table's line (a designer's finding), and the count once (a contributor's: the
    message named it, and validate's note of the count checked again, "for 9 players (9 players)")."""
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    row = "    8: {hand: 4, center: 16, primary: 7, secondary: 7}"
    assert row in torqu
    nine = torqu.replace("id: torqu", "id: torqu-nine").replace("max: 8", "max: 9").replace(
        row, row + "\n    9: {hand: 4, center: 12, primary: 7, secondary: 7}").replace(
        "variants: [death, partners, dragons]", "variants: []")
    root = make_root(tmp_path, nine, "torqu-nine")
    line = nine.splitlines().index("  tableau:") + 2  # the table's first row, as a block value's line is
    report = run_cli("validate", str(root))
    assert report.stdout.splitlines() == [f"{root / 'games' / 'torqu-nine.yaml'}:{line}: options.tableau has no row "
                                          "for 9 players"]
    # met at exactly two counts: the other named, the first not said twice
    row9 = "    9: {hand: 4, center: 12, primary: 7, secondary: 7}"
    row10 = "    10: {hand: 4, center: 8, primary: 7, secondary: 7}"
    ten = nine.replace("max: 9", "max: 10").replace(row9, f"{row9}\n{row10}")
    (root / "games" / "torqu-nine.yaml").write_text(ten)
    report = run_cli("validate", str(root))
    assert report.stdout.splitlines() == [f"{root / 'games' / 'torqu-nine.yaml'}:{line + 1}: options.tableau has no "
                                          "row for 9 players (likewise at 10 players)"]  # a deal row more above


def test_a_merged_row_the_game_lacks_names_the_game(tmp_path, run_cli):
    """A variant giving part of a six-player row reaches bundled Torqu, which has one, and a
    designer's four-player Torqu, which has none: the error names that game."""
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    mini = torqu.replace("id: torqu", "id: mini-torqu").replace("max: 8", "max: 4")
    mini = re.sub(r"\n    [5-8]: \{[^}]*\}", "", mini).replace("variants: [death, partners, dragons]", "variants: []")
    make_root(tmp_path, mini, "mini-torqu")
    path = _variant(tmp_path, "six", "applies_to: [torqu]\noptions:\n  deal:\n    6: {hand: 3, center: 22}\n")
    report = run_cli("validate", str(tmp_path))
    assert report.stdout.splitlines() == [f"{path}:6: 'options.deal': row 6 must have exactly the keys hand, "
                                               "center, primary, secondary (merged into mini-torqu's deal)"]


def test_a_player_count_written_with_a_leading_zero_is_refused(tmp_path, run_cli):
    """``"04"`` (quoted, as the octal-looking 04 must be) made a second row for four players, which
    the game never read: a merged house rule did nothing, silently."""
    path = _variant(tmp_path, "zrow", 'applies_to: [torqu]\noptions:\n  deal:\n    5: {hand: 4}\n'
                                      '    "04": {hand: 3, center: 20}\n')
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1 and report.stdout.startswith(f"{path}:7: ")  # the row at fault's own line
    assert "keys must be player counts, not '04'" in report.stdout


def test_a_designers_alias_never_takes_over_a_bundled_name(tmp_path, run_cli):
    """A designer's variant of all pairing games whose template makes strict-castle again (its id
    sorting before strict's): the name is refused, naming both meanings, rather than meaning the
    designer's variant unseen; list leaves it out; validate says so at the variant's line. A
    template making a bundled game's id (new-eiffel-tower) is reported there too, not at the
    installed game file."""
    path = _variant(tmp_path, "a-strict", 'applies_to: [pairing]\noptions:\n  strict_waste_cap: 2\n'
                                          'aliases: ["strict-{game}"]\n')
    shown = run_cli("--configs", str(tmp_path), "show", "strict-castle")
    assert shown.exit_code == 1  # a name the configs make ambiguous, as an unknown name is 1: not a usage error
    assert "'strict-castle' is an alias of castle + a-strict and castle + strict" in shown.stderr
    listed = json.loads(run_cli("--configs", str(tmp_path), "list", "--format", "json").stdout)
    assert not any(row["id"] == "strict-castle" for row in listed)
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1 and f"{path}:6: alias 'strict-castle' (castle + a-strict) is also variant strict's" \
        in report.stdout
    assert "configs/games" not in report.stdout
    path.unlink()
    neo = _variant(tmp_path, "neo", 'applies_to: [pairing]\noptions:\n  strict: true\naliases: ["new-{game}"]\n')
    report = run_cli("validate", str(tmp_path))
    assert report.stdout.splitlines() == [f"{neo}:6: alias 'new-eiffel-tower' (eiffel-tower + neo) is also a "
                                               "game's id, which it keeps naming"]


def test_a_broken_variant_file_stops_only_what_may_use_it(tmp_path, run_cli):
    """An unreadable variant in the folder: list and the bundled aliases still work (its own aliases
    are unknown), while a name no game or alias has gets that file's error, which may be why."""
    path = _variant(tmp_path, "broken", "applies_to: [pairing]\noptions: {strict: true\n")
    assert run_cli("--configs", str(tmp_path), "list").exit_code == 0
    assert run_cli("--configs", str(tmp_path), "show", "strict-castle").exit_code == 0
    unknown = run_cli("--configs", str(tmp_path), "show", "broken-castle")
    assert unknown.exit_code == 1 and str(path) in unknown.stderr


def test_an_unknown_name_names_a_broken_game_file_whose_alias_it_may_be(tmp_path, run_cli):
    """A designer's ``hut.yaml`` with a syntax error: ``strict-hut`` is unknown, and its error says which file
    cannot be read (before, only a "did you mean" of bundled games), while the bundled names still work."""
    root = make_root(tmp_path, "id: hut\nname: [\n", "hut")
    unknown = run_cli("--configs", str(root), "show", "strict-hut")
    assert unknown.exit_code == 1
    assert unknown.stderr.startswith("Error: unknown game 'strict-hut'") and unknown.stderr.count("\n") == 1
    assert f"(and {root / 'games' / 'hut.yaml'}:3: YAML syntax error" in unknown.stderr
    assert run_cli("--configs", str(root), "show", "strict-castle").exit_code == 0


def test_the_variant_that_makes_a_problem_is_blamed_among_several(tmp_path, run_cli):
    """Of two variants given together, the one whose change makes the problem alone is blamed (an
    exposed count against the deal), not the last named, nor a bundled game file when the other is
    bundled Death; and a designer's variant is blamed on a designer's game as on a bundled one."""
    path = _variant(tmp_path, "expo", "applies_to: [torqu]\noptions:\n  exposed_at_start: 10\n")
    _variant(tmp_path, "pts", "applies_to: [torqu]\noptions:\n  points: {perfect_four: 250, flush: 40}\n")
    for other in ("pts", "death"):
        played = run_cli("--configs", str(tmp_path), "deal", "torqu", "--seed", "1", "--variant", "expo",
                         "--variant", other)
        assert played.exit_code == 1 and played.stderr.startswith(f"Error: {path}:5: "), played.stderr
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    make_root(tmp_path, torqu.replace("id: torqu", "id: my-torqu").replace("variants: [death, partners, dragons]",
                                                                          "variants: []"), "my-torqu")
    report = run_cli("validate", str(tmp_path))
    assert [line.split(": ")[0] for line in report.stdout.splitlines()] == [f"{path}:5"] * 2  # my-torqu and torqu
    assert "(my-torqu, every player count, expo)" in report.stdout


def test_of_two_variants_merging_one_table_the_one_making_the_problem_alone_is_blamed(tmp_path, run_cli):
    """Two variants both merging into Torqu's ``points``, the first making the problem alone (a Straight above the
    game's Straight Flush) and the second harmless: the problem shows at the game's key, which neither sets, and is
    blamed on the first, not on the last named (``registry._made_by_variants`` passes only those making it alone)."""
    path = _variant(tmp_path, "straight70", "applies_to: [torqu]\noptions:\n  points: {straight: 70}\n")
    _variant(tmp_path, "pts", "applies_to: [torqu]\noptions:\n  points: {flush: 40}\n")
    for order in (("straight70", "pts"), ("pts", "straight70")):
        played = run_cli("--configs", str(tmp_path), "deal", "torqu", "--seed", "1",
                         *(f"--variant={v}" for v in order))
        assert played.exit_code == 1 and played.stderr.startswith(f"Error: {path}:5: "), (order, played.stderr)


def test_an_empty_table_in_a_variant_empties_the_games(tmp_path, run_cli):
    """``{}`` would merge nothing, a silent no-op: it replaces the game's table instead, the one way
    to take every key out (Castle without its trumps' match, then refused for that, at the variant)."""
    path = _variant(tmp_path, "no-trump", "applies_to: [castle]\noptions:\n  family_match: {}\n")
    report = run_cli("validate", str(tmp_path))
    assert report.stdout.splitlines() == [f"{path}:5: cards of family 'trump' have no match value in "
                                          "options.family_match (castle, no-trump)"]


def test_one_bad_value_in_a_variant_of_a_family_is_one_line(tmp_path, run_cli):
    """A null in a table merged into all seventeen pairing games: one line, naming the first game."""
    path = _variant(tmp_path, "fm", "applies_to: [pairing]\noptions:\n  family_match: {trump: null}\n")
    report = run_cli("validate", str(tmp_path))
    assert report.stdout.splitlines() == [f"{path}:5: 'options.family_match': values must be integers "
                                          "(merged into castle's family_match)"]
    # true is no integer either (Python's would pass), said at its own line in a block mapping
    path.write_text("id: fm\nname: Fm\napplies_to: [pairing]\noptions:\n  family_match:\n    trump: 22\n"
                    "    fool: true\n")
    assert run_cli("validate", str(tmp_path)).stdout.splitlines() == [
        f"{path}:7: 'options.family_match': values must be integers (merged into castle's family_match)"]
    # a table emptied ({}) likewise: it was one line a game (a reviewer's finding)
    (tmp_path / "variants" / "nopoints.yaml").write_text(
        "id: nopoints\nname: No points\napplies_to: [torqu]\noptions: {points: {}}\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "torqu-copy.yaml").write_text(
        (BUNDLED / "games" / "torqu.yaml").read_text().replace("id: torqu", "id: torqu-copy"))
    emptied = [line for line in run_cli("validate", str(tmp_path)).stdout.splitlines() if "emptied" in line]
    assert emptied == [f"{tmp_path / 'variants' / 'nopoints.yaml'}:4: missing keys 'perfect_four', 'fifteen_flush', "
                       "'fifteen', 'straight_flush', 'straight', 'four_of_a_kind', 'flush' in 'options.points' "
                       "(torqu-copy's points emptied)"]


def test_a_broken_variant_file_leaves_the_others_listed_and_names_said(tmp_path, run_cli):
    """``list --kind variants`` lists the readable ones, then fails on the broken file; a misspelt
    game keeps its "did you mean", the broken file named beside it; list says which aliases it
    leaves out for clashing."""
    path = _variant(tmp_path, "broken", "applies_to: [pairing]\noptions: {strict: true\n")
    listed = run_cli("--configs", str(tmp_path), "list", "--kind", "variants", "--format", "json")
    assert listed.exit_code == 1 and str(path) in listed.stderr
    assert [row["id"] for row in json.loads(listed.stdout)] == ["death", "dragons", "partners", "strict"]
    typo = run_cli("--configs", str(tmp_path), "show", "torq")
    assert typo.exit_code == 1 and "did you mean 'torqu'" in typo.stderr and str(path) in typo.stderr
    path.unlink()
    _variant(tmp_path, "a-strict", 'applies_to: [castle]\noptions:\n  strict_waste_cap: 2\n'
                                   'aliases: ["strict-{game}"]\n')
    games = run_cli("--configs", str(tmp_path), "list")
    assert games.exit_code == 0 and "strict-castle" not in games.stdout
    assert games.stderr.startswith("note: not listed, as each names more than one game or variant: strict-castle ")


def test_a_copy_mark_in_a_deck_name_is_refused_at_its_line(tmp_path):
    """A suit H#2 named the second deck's hearts' twins (AH#2): validate stopped at a line-less error
    when a game used two decks, and listed nothing else."""
    text = (BUNDLED / "decks" / "french.yaml").read_text().replace("{id: D,", "{id: 'H#2',")
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "french.yaml").write_text(text)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "broken.yaml").write_text("id: broken\n")
    report = validate([str(tmp_path)])
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "'H#2'" in row)
    assert any(e.path.endswith("french.yaml") and e.line == line and "marks a card's copy" in str(e)
               for e in report.errors)
    assert any(e.path.endswith("broken.yaml") for e in report.errors)


def test_a_value_a_variant_sets_is_blamed_on_the_variant(tmp_path):
    """A variant's bad match was reported at the game file's match line, which holds a good one."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("variants: [strict]", "variants: [v-match]")
    root = make_root(tmp_path, text)
    (root / "variants").mkdir()
    (root / "variants" / "v-match.yaml").write_text(
        "id: v-match\nname: Bad match\napplies_to: [my-tower]\noptions:\n  match: 15\n")
    variant = str(root / "variants" / "v-match.yaml")
    with pytest.raises(ConfigError) as err:
        load_game("my-tower", ("v-match",), catalog=Catalog([root, BUNDLED]))
    assert (err.value.path, err.value.line) == (variant, 5) and "match value must be 14" in str(err.value)
    report = validate([str(root)])
    assert [(e.path, e.line) for e in report.errors] == [(variant, 5)]
    assert load_game("my-tower", catalog=Catalog([root, BUNDLED])).num_rows == 20  # the game itself is sound


def test_a_yml_file_is_named_as_not_read(tmp_path):
    """The catalog reads *.yaml only: a .yml file was skipped without a word."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower"))
    (root / "games" / "other.yml").write_text(EIFFEL)
    report = validate([str(root)])
    assert [str(e) for e in report.errors] == [f"{root / 'games' / 'other.yml'}: {UNREAD}"]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_agent_an_engine_offers_is_described_on_its_rules_pages(engine):
    """``--agent`` takes the shared ``random`` and the engine's own policies: each must be described
    (named as a list item) on the engine's page or on one of its games' own pages (Eiffel Tower's
    for the pairing family), so a policy added without a word there fails here."""
    rules = Path(__file__).parent.parent / "docs" / "rules"
    games = [g for g in Catalog().ids("games") if Catalog().game(g)["engine"] == engine]
    pages = "".join(path.read_text() for name in {engine, *games} if (path := rules / f"{name}.md").exists())
    names = {*SHARED, *engine_agents(engine)}
    assert [name for name in sorted(names) if not re.search(rf"^[-*] `{name}`", pages, re.MULTILINE)] == []


@pytest.mark.parametrize("game, deck", [("torqu", "torqu"), ("turup", "french"), ("eiffel-tower", "french")])
def test_a_command_stops_on_a_deck_validate_refuses_at_its_line(run_cli, tmp_path, game, deck):
    """A deck with no cards (its suits emptied) ended Torqu and Turup commands in a traceback; one
    naming a card twice was refused without its file. Every command now stops where ``validate``
    does, at the deck file's line, in one line (the emptied suits' at the ranks they leave cardless)."""
    (tmp_path / "decks").mkdir()
    text = (BUNDLED / "decks" / f"{deck}.yaml").read_text()
    deck_file = tmp_path / "decks" / f"{deck}.yaml"
    emptied = re.sub(r"(?ms)^suits:\n.*?(?=^\S)", "suits: []\n", text, count=1)
    deck_file.write_text(emptied)
    result = run_cli("--configs", str(tmp_path), "deal", game, "--seed", "1")
    ranks = 1 + emptied.splitlines().index("ranks:")
    assert result.exit_code == 1 and result.stderr == (f"Error: {deck_file}:{ranks}: the deck lists ranks but no "
                                                       "suits, so the ranks make no card (its suited cards are each "
                                                       "suit's ranks)\n")
    twice = re.sub(r"(?m)^suits:\n(  - .*\n(?:    .*\n)*)", r"suits:\n\1\1", text, count=1)
    deck_file.write_text(twice)
    result = run_cli("--configs", str(tmp_path), "simulate", "--game", game, "--seed", "1")
    assert result.exit_code == 1 and result.stderr.startswith(f"Error: {deck_file}:") and "used twice" in result.stderr
    assert result.stderr.count("\n") == 1


_MAGIC = "pictures: [Books, Potions, Wands, Mirrors]"
_NAMED_FOR = "named_for: [Cloud, Wind, Feather, Lightning, Stone, Gem, Plowed Field, Mountain, Rain, Ice, River, Ocean,"
_TITLES = "card_titles: [Cloud Dragon, Wind Dragon, Feather Dragon, Lightning Dragon, Stone Dragon,"


@pytest.mark.parametrize("old, new, words", [
    (_MAGIC, "pictures: -1", "suit Magic's pictures must be a list of names"),
    (_MAGIC, "pictures: Books", "suit Magic's pictures must be a list of names"),
    (_MAGIC, "pictures: [Books, Potions, Wands, Mirrors, Extra]",
     "5 pictures a suit do not split numbers 1..16 evenly"),
    # a config fuzzer's: each passed validate, then ended a game or score in a traceback
    (_MAGIC, "pictures: [Books, Potions]", "suit Magic names 2 pictures, not 4 as others do"),
    (_MAGIC, "pictures: [Books, Potions, Wands, Rain]", "picture 'Rain' is named in suits Water and Magic"),
    (_NAMED_FOR, "named_for: [Cloud, Wind, Feather, Lightning, Stone, Gem, Plowed Field, Mountain, Rain, Ice, River,",
     "suit Dragon's named_for must list a picture of the deck for each number 1..16"),
    (_NAMED_FOR, _NAMED_FOR.replace("Cloud", "Nowhere"),
     "suit Dragon's named_for must list a picture of the deck for each number 1..16"),
    (_TITLES, _TITLES.replace("card_titles: [", "card_titles: 5\n    x_titles: ["),
     "suit Dragon's card_titles must list a name for each number 1..16"),
])
def test_torqu_pictures_that_name_no_pictures_are_refused_by_validate_and_every_command(run_cli, tmp_path, old, new,
                                                                                         words):
    """A suit's ``pictures`` that is no list of names (a number ended ``deal torqu`` in a traceback,
    a string was read letter by letter) or that cannot split the numbers evenly: ``validate`` passed
    both, and ``deal`` refused the second without a file. Both are now said at the deck file's line of the
    suit's key, and so are pictures, ``named_for`` and ``card_titles`` that do not fit one another (a
    designer's finding: they were said at the game's ``deck`` line)."""
    (tmp_path / "decks").mkdir()
    text = (BUNDLED / "decks" / "torqu.yaml").read_text()
    assert text.count(old) == 1
    changed = text.replace(old, new)
    (tmp_path / "decks" / "torqu.yaml").write_text(changed)
    deck = tmp_path / "decks" / "torqu.yaml"
    key = new.split(":", 1)[0].strip()  # the suit's key that changed, on the line of the change
    line = changed[:changed.index(new)].count("\n") + 1
    assert changed.splitlines()[line - 1].strip().startswith(key)
    report = run_cli("--configs", str(tmp_path), "validate")
    assert report.exit_code == 1 and f"{deck}:{line}: deck torqu: {words}\n" in report.stdout
    result = run_cli("--configs", str(tmp_path), "deal", "torqu", "--seed", "1")
    assert result.exit_code == 1 and result.stderr.startswith(f"Error: {deck}:{line}: deck torqu: {words} (")
    assert result.stderr.count("\n") == 1


def test_a_variant_that_applies_to_nothing_says_so(run_cli, tmp_path):
    """``applies_to: []`` made the error read "variant 'death' applies to , not to torqu"."""
    (tmp_path / "variants").mkdir()
    text = (BUNDLED / "variants" / "death.yaml").read_text()
    (tmp_path / "variants" / "death.yaml").write_text(re.sub(r"(?m)^applies_to: .*$", "applies_to: []", text))
    result = run_cli("--configs", str(tmp_path), "deal", "torqu", "--seed", "1", "--variant", "death")
    assert result.exit_code == 1 and "variant 'death' applies to no game, not to torqu (family torqu)" in result.stderr
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("applies_to:"))) + 1
    checked = run_cli("validate", str(tmp_path))  # at the variant's own line too (the designer audit's finding)
    assert (f"{tmp_path / 'variants' / 'death.yaml'}:{line}: applies_to names no game or family, so the variant "
            "fits none") in checked.stdout


def test_a_folder_without_config_files_is_an_error(tmp_path):
    """``validate DIR`` on a folder with no games/, decks/ or variants/ YAML files says so
    rather than passing having checked nothing."""
    report = validate([str(tmp_path)])
    assert [str(e) for e in report.errors] == [f"{tmp_path}: no games/, decks/ or variants/ folder with YAML files"]


def test_a_config_folder_that_cannot_be_read_is_named(tmp_path, run_cli, monkeypatch):
    """``glob`` passed over a ``games/`` folder it could not read (a fuzz run as another user): ``validate`` said
    all was valid and its games were unknown; an unreadable CARDGAMES_CONFIGS folder was even said to be a failed
    write to stdout. The folder is named, with why. (Unreadable is simulated: the tests may run as root.)"""
    import os

    folder = tmp_path / "mine"
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "my-et.yaml").write_text((BUNDLED / "games" / "eiffel-tower.yaml").read_text().replace(
        "id: eiffel-tower", "id: my-et"))
    locked = str(folder / "games")

    def refusing(read):
        def call(path: object = ".", *args: object, **kwargs: object) -> object:
            if os.fspath(path) == locked:
                raise PermissionError(13, "Permission denied", locked)
            return read(path, *args, **kwargs)
        return call

    monkeypatch.setattr(os, "scandir", refusing(os.scandir))  # what glob reads a folder with
    monkeypatch.setattr(os, "listdir", refusing(os.listdir))
    said = f"{locked}: cannot read folder: Permission denied"
    result = run_cli("validate", str(folder))  # a finding, as a missing path is (it ended the command: see below)
    assert result.exit_code == 1 and result.stdout == f"{said}\n"
    assert result.stderr == "0 config files checked: 1 error\n"
    result = run_cli("--configs", str(folder), "deal", "my-et", "--seed", "1")
    assert result.exit_code == 2 and result.stderr.startswith(f"Error: Invalid value for '--configs': {said}")
    result = run_cli("deal", "my-et", "--seed", "1", env={"CARDGAMES_CONFIGS": str(folder)})
    assert result.exit_code == 2 and result.stderr.startswith(f"Error: CARDGAMES_CONFIGS: {said}")


def test_a_folder_named_is_checked_over_the_configured_config_dirs(tmp_path):
    """A folder given to ``validate`` is checked against its own files: a namesake game in a
    configured config dir (``extra_roots``) must not stand in for it."""
    good, bad = tmp_path / "good", tmp_path / "bad"
    for root, text in ((good, EIFFEL), (bad, EIFFEL.replace("[1, 2, 3, 4, 5, 5]", "[60, 60]"))):
        (root / "games").mkdir(parents=True)
        (root / "games" / "eiffel-tower.yaml").write_text(text)
    report = validate([str(bad)], [good])
    assert [(e.path, e.line) for e in report.errors] == [(str(bad / "games" / "eiffel-tower.yaml"), 14)]
    assert validate([str(good)], [bad]).ok


def test_a_folder_named_is_checked_with_its_own_decks_over_the_configured_ones(tmp_path):
    """The same for a deck: the games are checked with the named folder's deck, not a configured folder's
    namesake (a mutant that put the configured folders first passed every test: a mutation audit's finding)."""
    french = (BUNDLED / "decks" / "french.yaml").read_text()
    kingless = french.replace("  - {id: K, name: King, value: 13, face: true}\n", "")
    assert kingless != french
    whole, short = tmp_path / "whole", tmp_path / "short"
    for root, text in ((whole, french), (short, kingless)):
        (root / "decks").mkdir(parents=True)
        (root / "decks" / "french.yaml").write_text(text)
    assert validate([str(whole)], [short]).ok
    assert not validate([str(short)], [whole]).ok


def test_a_deck_with_schema_errors_gets_no_deck_checks_on_top(tmp_path):
    """A deck whose suit lacks its id is reported by the schema, at its line, once; the deck
    checks that read the ids do not run on it (they raised KeyError)."""
    (tmp_path / "decks").mkdir()
    french = (BUNDLED / "decks" / "french.yaml").read_text()
    (tmp_path / "decks" / "french.yaml").write_text(french.replace("{id: D,", "{ib: D,"))
    assert [f"{e.line}: {e.message}" for e in validate([str(tmp_path)]).errors] == [
        "10: missing key 'id' in 'suits[3]'"]
    # said once, as a misspelling
    (tmp_path / "decks" / "french.yaml").write_text(french.replace("{id: D,", "{idx: D,"))
    assert [f"{e.line}: {e.message}" for e in validate([str(tmp_path)]).errors] == [
        "10: unknown key 'idx' in 'suits[3]': did you mean 'id'? (keys of your own may go here, but not one this like "
        "a known one)"]


def test_a_broken_deck_is_reported_at_its_file_not_again_at_its_games(tmp_path):
    """A game using a deck that fails its own checks is not checked on top (its deal would be
    blamed for the deck's repeated suit)."""
    (tmp_path / "decks").mkdir()
    french = (BUNDLED / "decks" / "french.yaml").read_text()
    (tmp_path / "decks" / "french.yaml").write_text(french.replace("{id: D, name: Diamonds", "{id: H, name: Diamonds"))
    make_root(tmp_path, EIFFEL, "eiffel-tower")
    report = validate([str(tmp_path)])
    assert [(Path(e.path).name, e.line, e.message) for e in report.errors] == [
        ("french.yaml", 10, "suit id 'H' is used twice")]


def test_a_loose_deck_file_is_checked_as_a_deck(tmp_path):
    """A file outside a decks/ folder with neither ``engine`` nor ``applies_to`` is a deck, and
    a sound one passes (it was not read as a game missing its keys)."""
    deck = tmp_path / "odd.yaml"
    deck.write_text((BUNDLED / "decks" / "french.yaml").read_text().replace("id: french", "id: odd"))
    assert validate([str(deck)]).ok
    deck.write_text("id: odd\nname: Odd\n")
    assert [f"{e.line}: {e.message}" for e in validate([str(deck)]).errors] == ["1: the deck has no cards"]


def test_a_repeated_explicit_card_is_reported_at_its_line(tmp_path):
    """Two ``cards`` entries of one name: the second's line and name, as for suits and ranks
    (not line 1's "cannot build the deck")."""
    (tmp_path / "decks").mkdir()
    deck = tmp_path / "decks" / "odd.yaml"
    deck.write_text("id: odd\nname: Odd\ncards:\n  - {name: X}\n  - {name: Y}\n  - {name: X}\n")
    assert [f"{e.line}: {e.message}" for e in validate([str(deck)]).errors] == ["6: card name 'X' is used twice"]


def test_an_explicit_card_of_no_listed_suit_is_refused_at_its_line(tmp_path):
    """A card whose ``suit`` is not among the deck's suits (a designer's typo) was accepted and
    played as a card of no suit; it is refused at its line, with the suits and the likely one."""
    (tmp_path / "decks").mkdir()
    deck = tmp_path / "decks" / "odd.yaml"
    head = "id: odd\nname: Odd\nsuits:\n  - {id: Books}\n  - {id: Stars}\nranks:\n  - {id: '1', value: 1}\ncards:\n"
    deck.write_text(head + "  - {name: X, suit: Stars}\n  - {name: Y}\n  - {name: Z, suit: Bokos}\n")
    assert [f"{e.line}: {e.message}" for e in validate([str(deck)]).errors] == [
        "11: card 'Z' has suit 'Bokos', which is not one of the deck's suits (Books, Stars); did you mean 'Books'?"]
    deck.write_text("id: odd\nname: Odd\ncards:\n  - {name: X, suit: Any}\n")  # no suits listed: nothing to hold to
    assert validate([str(deck)]).errors == []


def test_ranks_without_suits_are_refused_at_the_ranks(tmp_path):
    """Ranks and no suits make no suited card: the game taking the deck was refused at its own lines (a deal
    too big for the deck's 4 cards, ...), far from the mistake, which is now said at the deck's ranks."""
    (tmp_path / "decks").mkdir()
    deck = tmp_path / "decks" / "odd.yaml"
    deck.write_text("id: odd\nname: Odd\nranks:\n  - {id: '1', value: 1}\ncards:\n  - {name: W, wild: true}\n")
    assert [f"{e.line}: {e.message}" for e in validate([str(deck)]).errors] == [
        "3: the deck lists ranks but no suits, so the ranks make no card (its suited cards are each suit's ranks)"]
    deck.write_text("id: odd\nname: Odd\nranks: []\ncards:\n  - {name: W, wild: true}\n")  # no ranks either
    assert validate([str(deck)]).errors == []


def test_a_card_name_template_making_a_copy_mark_is_refused(tmp_path):
    """A ``card_name`` template that writes '#' into names (no suit or rank id holds one) is
    refused at the template's line: AH#2 would read as the second deck's AH."""
    (tmp_path / "decks").mkdir()
    deck = tmp_path / "decks" / "odd.yaml"
    deck.write_text("id: odd\nname: Odd\ncard_name: '{rank}#{suit}'\nsuits: [{id: H}]\nranks: [{id: A, value: 1}]\n")
    errors = validate([str(deck)]).errors
    assert [e.line for e in errors] == [3] and "card_name makes names holding '#'" in errors[0].message


def test_one_variants_two_templates_making_one_alias_are_reported(tmp_path):
    """Two alias templates of the same variant that make one name clash like two variants'
    (the clash check compares templates, not only variants)."""
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("[strict]", "[v2]"))
    (root / "variants").mkdir()
    (root / "variants" / "v2.yaml").write_text(strict.replace("id: strict", "id: v2")
                                               .replace("applies_to: [pairing]", "applies_to: [my-tower]")
                                               .replace('["strict-{game}"]', '["x-{game}", "x-{game}"]'))
    line = strict.splitlines().index('aliases: ["strict-{game}"]') + 1
    report = validate([str(root)])
    assert [f"{e.line}: {e.message}" for e in report.errors] == [
        f"{line}: alias 'x-my-tower' (my-tower + v2) is also variant v2's alias of my-tower"] * 2


def test_facts_skip_the_player_counts_a_variant_cannot_be_played_at():
    """Torqu's partners variant needs an even count of 4 or more: validate shows no deal facts
    for it at 2, 3, 5 or 7 players."""
    report = validate([str(BUNDLED / "games" / "torqu.yaml")])
    assert report.ok
    assert [f["players"] for f in report.facts if f["variants"] == ["partners"]] == [4, 6, 8]


def test_a_listed_variant_that_changes_nothing_is_refused_at_its_line(tmp_path):
    """A game file setting what one of its listed variants sets (a designer's ``strict: true`` with
    ``variants: [strict]``) made the variant's alias the game again (strict-kite played as kite) and
    passed; it is refused at the variant's place in the list, with what the game already sets."""
    (tmp_path / "games").mkdir()
    game = (BUNDLED / "games" / "eiffel-tower.yaml").read_text().replace("id: eiffel-tower\n", "id: same\n")
    path = tmp_path / "games" / "same.yaml"
    path.write_text(game.replace("  strict: false", "  strict: true"))
    line = 1 + game.splitlines().index("variants: [strict]")
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{path}:{line}: variant strict changes nothing in same, whose options already are what it sets (strict: true)"]
    path.write_text(game)
    assert validate([str(tmp_path)]).errors == []


def test_a_variant_of_the_wrong_type_is_not_also_said_to_change_nothing(tmp_path):
    """``strict: 0`` is an error at the variant's line, and only there: Python's 0 equals False, so each game
    listing the variant and already strict was also said to be left unchanged by it (17 more errors, a fuzz's)."""
    (tmp_path / "variants").mkdir()
    text = (BUNDLED / "variants" / "strict.yaml").read_text()
    assert "  strict: true\n" in text
    path = tmp_path / "variants" / "strict.yaml"
    path.write_text(text.replace("  strict: true\n", "  strict: 0\n"))
    line = 1 + text.splitlines().index("  strict: true")
    assert [str(e) for e in validate([str(tmp_path)], [tmp_path]).errors] == [
        f"{path}:{line}: 'options.strict' must be true or false, not 0"]


def test_each_listed_variant_that_changes_nothing_is_said_at_its_item(tmp_path):
    """Block style: each such variant at its own item's line (not the list's), every one of them (not the first
    alone), and a variant setting part of a table to what it is changes nothing too (its dotted key said), where
    a variant changing the table does (a mutation audit's gaps)."""
    (tmp_path / "games").mkdir()
    (tmp_path / "variants").mkdir()
    flush = "id: flush30\nname: Flush 30\napplies_to: [torqu]\noptions:\n  points: {flush: 30}\n"
    (tmp_path / "variants" / "flush30.yaml").write_text(flush)
    game = (BUNDLED / "games" / "torqu.yaml").read_text().replace("id: torqu\n", "id: same\n")
    assert "  points:\n    perfect_four: 300\n" in game and "    flush: 30\n" in game
    game = game.replace("  death: false", "  death: true").replace("  dragons: false", "  dragons: true").replace(
        "variants: [death, partners, dragons]", "variants:\n  - death\n  - partners\n  - dragons\n  - flush30")
    path = tmp_path / "games" / "same.yaml"
    path.write_text(game)
    lines = game.splitlines()
    said = "changes nothing in same, whose options already are what it sets"
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{path}:{1 + lines.index('  - death')}: variant death {said} (death: true)",
        f"{path}:{1 + lines.index('  - dragons')}: variant dragons {said} (dragons: true)",
        f"{path}:{1 + lines.index('  - flush30')}: variant flush30 {said} (points.flush: 30)"]
    (tmp_path / "variants" / "flush30.yaml").write_text(flush.replace("flush: 30", "flush: 40"))
    assert len(validate([str(tmp_path)]).errors) == 2
    (tmp_path / "variants" / "flush30.yaml").write_text(flush.replace("  points: {flush: 30}\n", "").replace(
        "options:\n", "options: {}\n"))
    assert str(validate([str(tmp_path)]).errors[-1]).endswith(": variant flush30 changes nothing in same, as it sets "
                                                               "no option")


def test_a_game_no_player_count_in_its_range_can_play_is_refused(tmp_path):
    """Partners set in a game's own options with three players only: every count is refused, so
    nothing else could be checked. Validate says so at the players line, instead of passing a game
    that every command then refuses."""
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    players = next(line for line in torqu.splitlines() if line.startswith("players:"))
    assert "  partners: false" in torqu
    (tmp_path / "games").mkdir()
    path = tmp_path / "games" / "torqu-trio.yaml"
    path.write_text(torqu.replace("id: torqu\n", "id: torqu-trio\n").replace("  partners: false", "  partners: true")
                    .replace(players, "players: {min: 3, max: 3, default: 3}")
                    .replace("variants: [death, partners, dragons]", "variants: [death, dragons]"))  # partners is set
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.startswith("players:"))
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{path}:{line}: no player count in 3..3 can play this game: partners play (option partners) needs an "
        "even number of players, 4 or more (not 3)"]
    path.write_text(path.read_text().replace("players: {min: 3, max: 3, default: 3}",
                                             "players: {min: 2, max: 3, default: 3}"))
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [  # said of the first count
        f"{path}:{line}: no player count in 2..3 can play this game: partners play (option partners) needs an "
        "even number of players, 4 or more (not 2)"]
    path.write_text(path.read_text().replace("players: {min: 2, max: 3, default: 3}",
                                             "players: {min: 3, max: 3, default: 3}"))
    path.write_text(path.read_text().replace("players: {min: 3, max: 3, default: 3}",
                                             "players: {min: 3, max: 4, default: 4}"))
    assert validate([str(tmp_path)]).ok, "one count plays: the others are the variant's to refuse"
    # ... unless it is the default, which `simulate --game` plays (a designer's finding: validate passed it, and
    # every command then blamed the command line)
    path.write_text(path.read_text().replace("default: 4}", "default: 3}"))
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{path}:{line}: players.default is 3, which cannot play this game: partners play (option partners) needs "
        "an even number of players, 4 or more (not 3)"]


@pytest.mark.parametrize(("game", "line", "bad"), [("torqu", "  max_matches: 200", "  max_matches: 1001"),
                                                  ("turup", "  rounds: null", "  rounds: 1001")])
def test_a_game_that_could_never_end_is_refused_at_its_line(tmp_path, game, line, bad):
    """Torqu's ``max_matches`` and Turup's ``rounds`` are at most 1000: with a board of a billion
    spaces, a million matches ran for minutes at least (a fuzzing helper's config, killed at 60 s)."""
    text = (BUNDLED / "games" / f"{game}.yaml").read_text()
    assert line in text
    (tmp_path / "games").mkdir()
    path = tmp_path / "games" / f"{game}.yaml"
    path.write_text(text.replace(line, bad))
    number = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if row == bad)
    key = bad.strip().split(":")[0]
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [f"{path}:{number}: 'options.{key}': must be 1..1000"]
    path.write_text(text.replace(line, bad.replace("1001", "1000")))
    assert validate([str(tmp_path)]).ok


def test_true_is_not_an_integer_in_a_config():
    """YAML's true is a bool, which Python counts as an int: an INT field refuses it."""
    doc = parse_document("size: true\n")
    assert [str(e) for e in check_mapping(doc.data, {"size": Field(INT)}, doc)] == [
        "<string>:1: 'size' must be an integer, not true"]
    doc = parse_document("size:\n")  # as the file writes it (the designer audit saw Python's True and None)
    assert [str(e) for e in check_mapping(doc.data, {"size": Field(INT)}, doc)] == [
        "<string>:1: 'size' must be an integer, not null"]


def test_a_choice_outside_its_list_is_refused_at_its_line():
    """A value not among a field's choices is an error at the value's own line."""
    doc = parse_document("id: x\nbonus: sideways\n")
    fields = {"id": Field(STR), "bonus": Field(STR, choices=("any", "same"))}
    assert [str(e) for e in check_mapping(doc.data, fields, doc)] == [
        "<string>:2: 'bonus' is 'sideways'; expected one of 'any', 'same'"]
    # of the wrong type, the choices are named too (a designer's Towers first_player: 1, told "a string")
    doc = parse_document("id: x\nbonus: 1\n")
    assert [str(e) for e in check_mapping(doc.data, fields, doc)] == [
        "<string>:2: 'bonus' must be a string, one of 'any', 'same', not 1"]


def test_a_number_outside_its_choices_is_refused_at_its_line(tmp_path):
    """A number among a field's choices is checked like a string: Towers' ``adjacency: 6`` (8 or 4) is refused at
    its line, not played as 8 (the geometry reads anything but 4 as 8)."""
    text = (BUNDLED / "games" / "towers.yaml").read_text().replace("id: towers", "id: my-towers")
    text = text.replace("adjacency: 8", "adjacency: 6")
    report = validate([str(make_root(tmp_path, text, "my-towers"))])
    line = text.splitlines().index("  adjacency: 6") + 1
    assert [(e.line, e.message) for e in report.errors] == [
        (line, "'options.adjacency' is 6; expected one of 8, 4")]


def test_a_long_bad_value_is_clipped_in_its_error():
    """A value of thousands of characters (a paste gone wrong) is cut short, as a seed is: the error
    stays one readable line, whatever the field's check."""
    long = "x" * 5000
    doc = parse_document(f"size: {long}\nbonus: {long}\n{'k' * 300}: 1\n")
    fields = {"size": Field(INT), "bonus": Field(STR, choices=("any", "same"))}
    k, x = "k" * 35, "x" * 35
    assert [str(e) for e in check_mapping(doc.data, fields, doc)] == [
        f"<string>:3: unknown key '{k}...' in the file (known: bonus, size)",
        f"<string>:1: 'size' must be an integer, not '{x}...'",
        f"<string>:2: 'bonus' is '{x}...'; expected one of 'any', 'same'"]


def test_positive_and_between_bounds():
    """``positive`` refuses 0; ``between(low, high)`` takes both bounds and nothing outside."""
    assert positive(0) == "must be positive" and positive(1) is None and positive(None) is None
    check = between(1, 16)
    assert [check(v) for v in (0, 1, 16, 17)] == ["must be 1..16", None, None, "must be 1..16"]


def test_a_config_file_that_is_not_a_mapping_is_one_error(tmp_path):
    """A game file holding a list is "must be a mapping" at line 1, not a key-by-key list."""
    (tmp_path / "games").mkdir()
    path = tmp_path / "games" / "x.yaml"
    path.write_text("- a\n- b\n")
    assert [str(e) for e in validate([str(path)]).errors] == [f"{path}:1: the file must be a mapping"]


def test_a_line_falls_back_to_the_nearest_ancestor_then_to_line_one():
    """``Document.line`` of a key path the file lacks is its nearest ancestor's line, and the
    file's first line when no part of it is there."""
    doc = parse_document("x: 0\na:\n  b:\n    c: 1\n")
    assert doc.line(("a", "b", "missing", 0)) == 4  # b's value, the mapping, starts on line 4
    assert doc.line(("missing",)) == 1 and doc.line(()) == 1


def test_a_file_of_exactly_the_size_limit_is_read(tmp_path):
    """The limit is 1 MiB inclusive: a file of exactly 1 MiB is parsed, one byte more is refused."""
    path = tmp_path / "edge.yaml"
    path.write_bytes(b"x: " + b"y" * (MAX_BYTES - 4) + b"\n")
    assert len(read_document(path).data["x"]) == MAX_BYTES - 4
    path.write_bytes(b"x: " + b"y" * (MAX_BYTES - 3) + b"\n")
    with pytest.raises(ConfigError, match="larger than 1 MiB"):
        read_document(path)


def test_bad_utf8_names_the_first_bad_byte(tmp_path):
    """A truncated UTF-8 sequence is reported at the byte where it starts, and its line (the designer
    audit's finding: the byte alone)."""
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"id: x\nname: \xe2\x82\n")
    with pytest.raises(ConfigError) as err:
        read_document(path)
    assert str(err.value) == f"{path}:2: not UTF-8 text (byte 12)"


def test_an_unclosed_quote_on_the_error_line_names_no_second_line():
    """The parser's "while scanning ... on line N" is added only when N is not the error's own line."""
    with pytest.raises(ConfigError) as err:
        parse_document('a: "abc', "f.yaml")
    assert str(err.value) == "f.yaml:1: YAML syntax error: found unexpected end of stream"


@pytest.mark.parametrize("text, line", [("options:\n\tmatch: 3\n", 2), ("a:\n\t\n  b: 1\n", 2)])
def test_a_tab_that_starts_no_token_is_named(text, line):
    """Where the YAML reader says only "found character that cannot start any token", the error says
    the character is a tab, which a designer cannot see (the designer walkthrough's finding)."""
    with pytest.raises(ConfigError) as err:
        parse_document(text, "t.yaml")
    assert str(err.value) == (f"t.yaml:{line}: YAML syntax error: found character that cannot start any token "
                              "(a tab: YAML indents with spaces)")


def test_a_tab_the_reader_names_is_not_named_twice():
    with pytest.raises(ConfigError) as err:
        parse_document("a: 1\n\tb: 2\n", "t.yaml")
    assert str(err.value).count("tab") == 1


def test_an_empty_or_comment_only_file_is_an_error_at_line_one():
    """A file with no YAML node (empty, or comments only) is "file is empty", not a crash."""
    for text in ("", "# just a comment\n"):
        with pytest.raises(ConfigError) as err:
            parse_document(text, "e.yaml")
        assert str(err.value) == "e.yaml:1: file is empty"


@pytest.mark.parametrize("text, line, message", [
    ("id: x\n? [a, b]\n: 1\n", 2, "mapping keys must be plain scalars"),
    ("a:\n  <<: {x: 1}\n  y: 2\n", 2, "YAML merge keys (<<) are not allowed in configs"),
    ("a: 1\na:\n  b: 2\n  c: 3\n", 2, "duplicate key 'a'"),  # at the key's line, not its value's end
])
def test_refused_mapping_keys_are_named_at_the_keys_line(text, line, message):
    """A sequence as a key, a merge key and a repeated key are refused at the key's own line."""
    with pytest.raises(ConfigError) as err:
        parse_document(text, "f.yaml")
    assert (err.value.line, err.value.message) == (line, message)


def test_the_integer_range_includes_both_ends():
    """A config holds -2**63..2**64-1, both ends included (seeds up to 2**64-1)."""
    assert parse_document(f"a: {-(1 << 63)}\nb: {(1 << 64) - 1}\n").data == {"a": -(1 << 63), "b": (1 << 64) - 1}
    for beyond in (1 << 64, -(1 << 63) - 1):
        with pytest.raises(ConfigError, match="outside the integers"):
            parse_document(f"b: {beyond}\n")


def test_an_integer_beyond_the_range_is_quoted_cut_short():
    """A 400-digit integer is no one line: its first digits and "...", then the range."""
    with pytest.raises(ConfigError) as err:
        parse_document("b: " + "9" * 400 + "\n", "f.yaml")
    assert err.value.message == f"'b': {'9' * 37}... is outside the integers a config may hold " \
        f"({-(1 << 63)}..{(1 << 64) - 1})"


def test_null_and_boolean_keys_are_named_as_yaml_writes_them():
    """``null:`` and ``yes:`` are keys 'null' and 'true', as a message then names them, not Python's 'None' and
    'True' (a fuzz's finding: "unknown key 'None'" for a ``null:`` the designer wrote)."""
    assert parse_document("null: 1\nyes: 2\nfalse: 3\n7: 4\n").data == {"null": 1, "true": 2, "false": 3, "7": 4}
    with pytest.raises(ConfigError, match="duplicate key 'true'"):
        parse_document("true: 1\nTrue: 2\n")


def test_a_deck_names_the_card_named_twice():
    """Two explicit cards of one name: the error names that card, not the deck's first."""
    with pytest.raises(CardgamesError, match="^deck 'd': two cards are named 'Y'$"):
        Deck({"id": "d", "cards": [{"name": "X"}, {"name": "Y"}, {"name": "Y"}]})


def test_a_card_written_by_its_value_is_suggested_by_its_name():
    """10S is the French deck's TS and 1H its AH: a user writing the value gets the card's name as the hint,
    which no spelling likeness finds (the multiplayer walkthrough's `captures --card 10S`); a copy's name is
    not offered to a caller taking plain names."""
    deck = Deck(read_document(BUNDLED / "decks" / "french.yaml").data, copies=2)
    for written, name in (("10S", "TS"), ("10s", "TS"), ("1H", "AH"), ("13d", "KD")):
        with pytest.raises(CardgamesError) as err:
            deck.code(written, plain=True)
        assert str(err.value) == f"unknown card '{written}' in the french deck; did you mean '{name}'?"
    tarock = Deck(read_document(BUNDLED / "decks" / "tarock.yaml").data)
    with pytest.raises(CardgamesError, match=r"did you mean 'CH'\?$"):  # the Cavalier, 12
        tarock.code("12H")


def test_card_names_are_looked_up_stripped_and_copies_suggested_unless_plain():
    """``Deck.code`` ignores spaces around a name; an unknown name's suggestions include later
    copies' names (QH#2), except for a caller taking plain names only."""
    deck = Deck(read_document(BUNDLED / "decks" / "french.yaml").data, copies=2)
    assert deck.code(" QH ") == deck.code("QH")
    with pytest.raises(CardgamesError, match=r"did you mean 'QH#2' or 'TH#2' or 'QS#2'\?$"):
        deck.code("QHX#2")
    with pytest.raises(CardgamesError, match=r"^unknown card 'QHX#2' in the french deck$"):
        deck.code("QHX#2", plain=True)


def test_stock_line_shows_the_first_eight_then_an_ellipsis():
    """``stock_line`` lists up to ``shown`` cards, with "..." only when more follow."""
    assert stock_line(list("ABCDEFGH"), "turned") == "stock: 8 cards, turned in this order: A B C D E F G H"
    assert stock_line(list("ABCDEFGHI"), "dealt", sep=", ") == \
        "stock: 9 cards, dealt in this order: A, B, C, D, E, F, G, H, ..."


def test_a_card_name_template_may_use_the_rank_and_suit_names():
    """``{rank_name}`` and ``{suit_name}`` are the names the deck gives (its ids without one)."""
    deck = Deck({"id": "d", "card_name": "{rank_name} of {suit_name}",
                 "suits": [{"id": "H", "name": "Hearts"}, {"id": "X"}],
                 "ranks": [{"id": "A", "name": "Ace", "value": 1}, {"id": "2", "value": 2}]})
    assert deck.names == ("Ace of Hearts", "2 of Hearts", "Ace of X", "2 of X")


def test_a_card_name_template_that_indexes_a_number_is_a_problem_not_a_crash():
    """``{value[0]}`` reaches into a field (it failed with TypeError, an int not being subscriptable):
    a named problem, as is a conversion; a short format is a template's own business."""
    problem = card_name_problem({"card_name": "{value[0]}"})
    assert problem is not None and problem.startswith("card_name '{value[0]}' has a field {value[0]}; ")
    assert card_name_problem({"card_name": "{rank!r}"}).startswith("card_name '{rank!r}' has a field {rank!r}; ")
    assert card_name_problem({"card_name": "{suit}{value:03d}"}) is None
    assert card_name_problem({"card_name": "{suit}{value:{rank}}"}) is not None
    # a nested width the sample card's value fills: a rank numbered 10**9 would ask for a gigabyte of padding
    assert "no field nests in another" in card_name_problem({"card_name": "{rank:>{value}}"})


def test_a_card_name_width_or_precision_has_two_digits_at_most() -> None:
    """The limit is exactly ``SPEC_DIGITS`` (2) digits: a width of 99 or a precision of 10 names cards, a width
    of 100 or a precision of 100 (three digits) is a named problem (only a nine-digit width was tried before)."""
    assert card_name_problem({"card_name": "{rank:>99}{suit}"}) is None
    assert card_name_problem({"card_name": "{rank:.10}{suit}"}) is None
    for template in ("{rank:>100}{suit}", "{rank:.100}{suit}"):
        problem = card_name_problem({"card_name": template})
        assert problem is not None and "a width or precision has at most 2 digits" in problem


def test_a_cards_attrs_are_its_fields_beyond_name_suit_rank_and_value():
    """A suited card's attrs are its rank's extra fields (not id, name or value); an explicit card's
    are its own beyond name, suit, rank and value."""
    deck = Deck({"id": "d", "suits": [{"id": "H"}],
                 "ranks": [{"id": "A", "name": "Ace", "value": 1, "high": True}],
                 "cards": [{"name": "Fool", "suit": "H", "rank": "0", "value": 0, "wild": True}]})
    assert [(c.name, c.suit, c.rank, c.value, dict(c.attrs)) for c in deck.cards] == [
        ("AH", "H", "A", 1, {"high": True}), ("Fool", "H", "0", 0, {"wild": True})]


def test_each_physical_card_records_its_copy_and_its_plain_face() -> None:
    """With ``copies=2`` the first deck's cards are copy 0 and the second's copy 1, and every card's
    ``face`` is its plain name (``QH``), the ``#2`` being only in the later copy's ``name``."""
    deck = Deck(read_document(BUNDLED / "decks" / "french.yaml").data, copies=2)
    first, second = deck.cards[deck.code("QH")], deck.cards[deck.code("QH#2")]
    assert (first.name, first.face, first.copy) == ("QH", "QH", 0)
    assert (second.name, second.face, second.copy) == ("QH#2", "QH", 1)
    assert [c.copy for c in deck.cards] == [0] * 52 + [1] * 52


def test_an_unknown_long_card_name_is_clipped_in_the_message():
    """An unknown card name of hundreds of characters is cut short in the one-line error."""
    with pytest.raises(CardgamesError) as err:
        Deck({"id": "d", "cards": [{"name": "X"}]}).code("Y" * 300)
    assert str(err.value) == f"unknown card '{'Y' * 35}...' in the d deck"


def test_the_configs_environment_folder_is_searched_before_the_bundled_configs(tmp_path, monkeypatch):
    """``Catalog()`` with no roots reads CARDGAMES_CONFIGS first: its eiffel-tower overrides the bundled one."""
    make_root(tmp_path, EIFFEL.replace("[1, 2, 3, 4, 5, 5]", "[1, 2]"), "eiffel-tower")
    monkeypatch.setenv("CARDGAMES_CONFIGS", str(tmp_path))
    assert Catalog().resolve("eiffel-tower").options["layout"] == (1, 2)


def test_a_configs_environment_folder_the_catalog_would_not_read_is_refused(tmp_path, monkeypatch):
    """The scripts' ``Catalog()`` checks CARDGAMES_CONFIGS as the CLI checks it (``extra_roots``, one rule): a
    folder of configs saved as .yml, or of none, is an error, not the bundled rules played in silence."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "eiffel-tower.yml").write_text(EIFFEL)
    monkeypatch.setenv("CARDGAMES_CONFIGS", str(tmp_path))
    with pytest.raises(ConfigError, match="eiffel-tower.yml: not read: config files end in .yaml"):
        Catalog()
    monkeypatch.setenv("CARDGAMES_CONFIGS", str(tmp_path / "games"))
    with pytest.raises(ConfigError, match="holds no games/, decks/ or variants/ folder with .yaml files"):
        Catalog()


def test_a_value_two_variants_set_is_blamed_on_the_last_applied(tmp_path):
    """Of two variants setting the same option, the later overlay's value is the one used, so the
    problem is reported at that variant's file, whichever order they are named in."""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower")
                     .replace("variants: [strict]", "variants: [v-a, v-b]"))
    (root / "variants").mkdir()
    for vid in ("v-a", "v-b"):
        (root / "variants" / f"{vid}.yaml").write_text(
            f"id: {vid}\nname: Bad match\napplies_to: [my-tower]\noptions:\n  match: 15\n")
    catalog = Catalog([root, BUNDLED])
    for order in (("v-a", "v-b"), ("v-b", "v-a")):
        with pytest.raises(ConfigError) as err:
            load_game("my-tower", order, catalog=catalog)
        assert (err.value.path, err.value.line) == (str(root / "variants" / f"{order[-1]}.yaml"), 5)


def test_copies_by_players_thresholds_may_be_written_in_any_order(tmp_path):
    """``{8: 3, 5: 2}`` means what ``{5: 2, 8: 3}`` does: the highest threshold reached sets the copies."""
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    root = make_root(tmp_path, turup.replace("{5: 2, 8: 3}", "{8: 3, 5: 2}"), "turup")
    catalog = Catalog([root, BUNDLED])
    assert [catalog.resolve("turup", players=n).copies for n in (4, 5, 8, 12)] == [1, 2, 3, 3]


@pytest.mark.parametrize("old, new, words", [
    ("copies: 2}", "copies: 17}", "'deck.copies': must be 1..16"),
    ("copies: 2}", "copies: 2, copies_by_players: {5: 17}}",
     "'deck.copies_by_players': from 5 players: the copies must be a whole number of decks (1..16), not 17"),
])
def test_deck_copies_are_at_most_sixteen(tmp_path, old, new, words):
    """A game's deck copies, by default or by player count, are refused above MAX_COPIES (16), at their line."""
    text = EIFFEL.replace(old, new)
    report = validate([str(make_root(tmp_path, text, "eiffel-tower"))])
    line = text.splitlines().index(f"deck: {{type: french, {new}") + 1
    assert [e.line for e in report.errors] == [line] and words in report.errors[0].message


def test_an_unknown_option_in_a_variant_is_named_at_its_line(tmp_path, run_cli):
    """A variant setting an option its engine lacks: validate and deal both say which, at the
    variant file's line, in one line (no KeyError traceback)."""
    (tmp_path / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    text = strict.replace("  strict: true\n", "  strict: true\n  colour: 1\n")
    path = tmp_path / "variants" / "strict.yaml"
    path.write_text(text)
    line = text.splitlines().index("  colour: 1") + 1
    expected = f"{path}:{line}: unknown option 'colour' for the pairing engine (known: family_match, layout"
    checked = run_cli("--configs", str(tmp_path), "validate")
    assert checked.exit_code == 1 and checked.stdout.startswith(expected) and checked.stdout.count("\n") == 1
    dealt = run_cli("--configs", str(tmp_path), "deal", "strict-eiffel-tower", "--seed", "1")
    assert dealt.exit_code == 1 and dealt.stderr.startswith(f"Error: {expected}") and dealt.stderr.count("\n") == 1
    # a misspelt option: the one meant, as a game's own options say it (a CI maintainer's finding)
    path.write_text(strict.replace("  strict: true\n", "  strict: true\n  strict_wast_cap: 9\n"))
    misspelt = run_cli("--configs", str(tmp_path), "validate").stdout
    assert misspelt == (f"{path}:{line}: unknown option 'strict_wast_cap' for the pairing engine: did you mean "
                        "'strict_waste_cap'?\n")


def test_a_folder_named_like_a_config_file_is_one_error(tmp_path, run_cli):
    """A folder ``games/odd.yaml`` is a file that cannot be read, said in one line, not a traceback."""
    (tmp_path / "games" / "odd.yaml").mkdir(parents=True)
    result = run_cli("validate", str(tmp_path))
    assert result.exit_code == 1
    assert result.stdout == f"{tmp_path / 'games' / 'odd.yaml'}: cannot read file: Is a directory\n"


def test_an_unknown_key_in_a_nested_mapping_is_refused_at_its_line(tmp_path):
    """``players`` and ``deck`` are closed mappings too: a misspelt key in them is named, not ignored."""
    text = EIFFEL.replace("default: 1}", "default: 1, maximum: 2}")
    report = validate([str(make_root(tmp_path, text, "eiffel-tower"))])
    line = text.splitlines().index("players: {min: 1, max: 1, default: 1, maximum: 2}") + 1
    assert [(e.line, e.message) for e in report.errors] == [
        (line, "unknown key 'maximum' in 'players' (known: default, max, min)")]


def test_a_loose_variant_file_is_checked_as_a_variant(tmp_path):
    """A file outside a variants/ folder with ``applies_to`` is a variant: a sound one passes, and a
    bad option value is named at its line (it was not read as a deck)."""
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    path = tmp_path / "draft.yaml"
    path.write_text(strict)
    assert validate([str(path)]).ok
    path.write_text(strict.replace("  strict: true", "  strict: 7"))
    line = strict.splitlines().index("  strict: true") + 1
    assert [(e.line, e.message) for e in validate([str(path)]).errors] == [
        (line, "'options.strict' must be true or false, not 7")]


def test_a_game_offering_another_familys_variant_is_told_at_its_line(tmp_path):
    """A game listing a variant that does not apply to it (Torqu's death on a pairing game) is
    reported at the game's ``variants`` line, not at the bundled variant file: by ``validate``, and
    by every command that resolves the game with that variant."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("variants: [strict]", "variants: [death]")
    root = make_root(tmp_path, text)
    report = validate([str(root)])
    line = text.splitlines().index("variants: [death]") + 1
    expected = ("my-tower.yaml", line, "variant 'death' applies to torqu, not to my-tower (family pairing)")
    assert [(Path(e.path).name, e.line, e.message) for e in report.errors] == [expected]
    Catalog([root, BUNDLED]).resolve("my-tower")  # without the variant the game is fine
    with pytest.raises(ConfigError) as err:
        Catalog([root, BUNDLED]).resolve("my-tower", ["death"])
    assert (Path(err.value.path).name, err.value.line, err.value.message) == expected


def test_a_misfit_variant_in_a_block_list_is_told_at_its_own_item(tmp_path):
    """In a ``variants:`` list written one item a line, the variant that does not apply is blamed at its own
    item's line, not a neighbour's (a flow list puts every item on one line, which hides an index off by one)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("variants: [strict]",
                                                                      "variants:\n  - strict\n  - death")
    report = validate([str(make_root(tmp_path, text))])
    line = text.splitlines().index("  - death") + 1
    expected = ("my-tower.yaml", line, "variant 'death' applies to torqu, not to my-tower (family pairing)")
    assert [(Path(e.path).name, e.line, e.message) for e in report.errors] == [expected]


def test_an_unknown_engine_is_named_at_its_line(tmp_path):
    """A game naming no engine of this installation is one error at its ``engine`` line, listing the known."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("engine: pairing", "engine: zzz")
    report = validate([str(make_root(tmp_path, text))])
    assert [(e.line, e.message) for e in report.errors] == [
        (4, f"unknown engine 'zzz' (known: {', '.join(ENGINES)})")]


# -- from a mutation audit of config.py, yamlfile.py, schema.py and validate.py ---------------------


def test_a_player_count_of_zero_is_refused_not_read_as_the_default():
    """``resolve(players=0)`` is a count outside the game's range, not "no count given"."""
    with pytest.raises(CardgamesError, match="^towers is for 2-4 players, not 0$"):
        Catalog().resolve("towers", players=0)


def test_a_default_player_count_below_the_minimum_is_refused(tmp_path: Path) -> None:
    """``min <= default`` is checked as well as ``default <= max``, at the ``players`` line."""
    towers = (BUNDLED / "games" / "towers.yaml").read_text()
    assert "players: {min: 2, max: 4, default: 4}" in towers
    text = towers.replace("players: {min: 2, max: 4, default: 4}", "players: {min: 2, max: 4, default: 1}")
    report = validate([str(make_root(tmp_path, text, "towers"))])
    line = text.splitlines().index("players: {min: 2, max: 4, default: 1}") + 1
    assert [str(e) for e in report.errors] == [f"{tmp_path / 'games' / 'towers.yaml'}:{line}: players: need min <= "
                                               "default <= max, not min 2, default 1, max 4"]


def test_a_games_own_bad_value_is_blamed_on_the_game_under_a_variant_that_leaves_it(tmp_path: Path) -> None:
    """Strict sets ``options.strict``, not the layout: a layout too large for the deck is the game
    file's line under Strict too (a variant is blamed only for the very key it sets)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("[1, 2, 3, 4, 5, 5]", "[60, 60]")
    root = make_root(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_game("my-tower", ("strict",), catalog=Catalog([root, BUNDLED]))
    line = text.splitlines().index("  layout: [60, 60]") + 1
    assert (err.value.path, err.value.line) == (str(root / "games" / "my-tower.yaml"), line)
    assert err.value.message.startswith("the layout has 120 rows")


def test_a_title_template_wraps_the_name_as_far_as_it_goes():
    """A titled variant after an untitled one wraps the name so far ("Strict Castle + Loose"),
    and two titles nest; neither starts again from the game's bare name."""
    from cardgames.engine.config import game_title

    loose, strict = {"name": "Loose"}, {"name": "Strict", "title": "Strict {game}"}
    assert game_title("Castle", [loose, strict]) == "Strict Castle + Loose"
    assert game_title("Castle", [strict, {"name": "Big", "title": "{game} XL"}]) == "Strict Castle XL"


def test_a_command_stops_at_the_first_error_validate_lists(tmp_path: Path, run_cli) -> None:
    """A game file with two schema errors: a command names the first that ``validate`` lists."""
    text = EIFFEL.replace("name: Eiffel Tower", "name: 7") + "colour: blue\n"
    root = make_root(tmp_path, text, "eiffel-tower")
    errors = validate([str(root)]).errors
    assert len(errors) == 2
    dealt = run_cli("--configs", str(root), "deal", "eiffel-tower", "--seed", "1")
    assert dealt.exit_code == 1 and dealt.stderr == f"Error: {errors[0]}\n"


def test_a_bad_option_of_a_variant_fitting_a_game_and_its_family_is_reported_once(tmp_path: Path) -> None:
    """A variant that applies to both ``pairing`` and ``eiffel-tower`` (one engine twice) has its bad
    option named once, not once per target."""
    (tmp_path / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    text = strict.replace("applies_to: [pairing]", "applies_to: [pairing, eiffel-tower]").replace(
        "  strict: true", "  strict: 7")
    path = tmp_path / "variants" / "strict.yaml"
    path.write_text(text)
    line = text.splitlines().index("  strict: 7") + 1
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{path}:{line}: 'options.strict' must be true or false, not 7"]


def test_copies_by_players_refuses_true_as_a_copy_count(tmp_path: Path) -> None:
    """YAML's true is a bool, which Python counts as 1: a copy count must be an integer, at its line."""
    text = EIFFEL.replace("copies: 2}", "copies: 2, copies_by_players: {5: true}}")
    report = validate([str(make_root(tmp_path, text, "eiffel-tower"))])
    line = text.splitlines().index("deck: {type: french, copies: 2, copies_by_players: {5: true}}") + 1
    assert len(report.errors) == 1 and str(report.errors[0]).startswith(
        f"{tmp_path / 'games' / 'eiffel-tower.yaml'}:{line}: 'deck.copies_by_players': from 5 players: the copies "
        "must be a whole number of decks (1..16), not true")


def test_a_number_field_takes_an_integer_but_not_true():
    """A float field ("a number") takes 3 as well as 0.5; true is no number."""
    fields = {"cut": Field((float,))}
    for text in ("cut: 3\n", "cut: 0.5\n"):
        doc = parse_document(text)
        assert check_mapping(doc.data, fields, doc) == []
    doc = parse_document("cut: true\n")
    assert [str(e) for e in check_mapping(doc.data, fields, doc)] == ["<string>:1: 'cut' must be a number, not true"]


def test_a_whole_value_check_never_sees_parts_of_the_wrong_type():
    """A field's own check runs only once its items are sound: a word among the numbers is named at
    its item, and the sum check (which would fail on it) is not run."""
    fields = {"rows": Field(LIST, items=Field(INT), check=lambda v: None if sum(v) <= 10 else "must sum to 10 or less")}
    doc = parse_document("rows: [1, x]\n")
    assert [str(e) for e in check_mapping(doc.data, fields, doc)] == [
        "<string>:1: 'rows[1]' must be an integer, not 'x'"]
    doc = parse_document("rows: [6, 5]\n")
    assert [str(e) for e in check_mapping(doc.data, fields, doc)] == ["<string>:1: 'rows': must sum to 10 or less"]


def test_a_card_repeating_the_first_is_reported_at_its_line(tmp_path: Path) -> None:
    """The second entry repeating the first is a repeat too (at its own line, not line 1's "cannot build")."""
    (tmp_path / "decks").mkdir()
    deck = tmp_path / "decks" / "odd.yaml"
    deck.write_text("id: odd\nname: Odd\ncards:\n  - {name: X}\n  - {name: X}\n")
    assert [str(e) for e in validate([str(deck)]).errors] == [f"{deck}:5: card name 'X' is used twice"]


def test_a_variant_that_does_not_exist_is_named_at_its_item_line(tmp_path: Path, run_cli) -> None:
    """In a block list of variants, the missing one is reported at its own line, not the list's first; by
    ``validate`` and by every command that plays the game, with or without a variant (they played it, exit 0,
    and naming the missing variant said "did you mean 'nope'?": a bad-input audit's finding)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("variants: [strict]",
                                                                      "variants:\n  - strict\n  - nope")
    report = validate([str(make_root(tmp_path, text))])
    line = text.splitlines().index("  - nope") + 1
    said = "unknown variant 'nope'; known: death, dragons, partners, strict"
    assert [(Path(e.path).name, e.line, e.message) for e in report.errors] == [("my-tower.yaml", line, said)]
    for args in (("show", "my-tower"), ("simulate", "--game", "my-tower", "--seed", "1"),
                 ("deal", "my-tower", "--seed", "1", "--variant", "nope"), ("deal", "strict-my-tower", "--seed", "1")):
        told = run_cli("--configs", str(tmp_path), *args)
        where = f"{tmp_path / 'games' / 'my-tower.yaml'}:{line}"
        assert (told.exit_code, told.stderr) == (1, f"Error: {where}: {said}\n"), args


def test_an_id_clash_is_found_when_a_variant_shares_its_games_id(tmp_path: Path) -> None:
    """Game and variant ids are separate names: a variant called t2, offered by game t2, whose alias
    strict-t2 is also a game's id, is reported like any other clash. (Game t2 is of a family of its
    own: a pairing game would play the bundled strict too, whose alias is also strict-t2.)"""
    root = make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: t2").replace("[strict]", "[t2]")
                     .replace("family: pairing", "family: t-family"), "t2")
    (root / "games" / "strict-t2.yaml").write_text(EIFFEL.replace("id: eiffel-tower", "id: strict-t2"))
    (root / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    (root / "variants" / "t2.yaml").write_text(strict.replace("id: strict", "id: t2")
                                               .replace("applies_to: [pairing]", "applies_to: [t2]"))
    report = validate([str(root)])
    assert [(Path(e.path).name, e.line, e.message) for e in report.errors] == [
        ("strict-t2.yaml", 1, "id 'strict-t2' is also variant t2's alias of t2")]


def test_a_deck_the_engine_cannot_build_is_blamed_on_the_games_deck_line(tmp_path: Path) -> None:
    """``validate GAME`` alone (its deck not checked with it): a deck that names two cards alike is
    reported at the game's ``deck`` line, where the deck is chosen, not at line 1."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("type: french", "type: odd")
    root = make_root(tmp_path, text)
    (root / "decks").mkdir()
    (root / "decks" / "odd.yaml").write_text("id: odd\nname: Odd\ncards:\n  - {name: X, value: 1}\n"
                                             "  - {name: X, value: 13}\n")
    game = root / "games" / "my-tower.yaml"
    line = text.splitlines().index("deck: {type: odd, copies: 2}") + 1
    assert [str(e) for e in validate([str(game)]).errors] == [
        f"{game}:{line}: deck 'odd': two cards are named 'X'"]


def test_unknown_name_hints_a_loosely_similar_name() -> None:
    """A name half right (``eiffel``) still gets its hint: the cutoff is lenient, not only typos."""
    with pytest.raises(UnknownNameError, match="did you mean 'eiffel-tower'"):
        Catalog().resolve("eiffel")


def test_unknown_name_lists_known_names_sorted_up_to_twelve() -> None:
    """With no close name, up to twelve known names are given whole and sorted; more are counted
    and left to the ``cardgames list`` command for that kind."""
    assert str(UnknownNameError("agent", "zzz", ["random", "greedy"])) == "unknown agent 'zzz'; known: greedy, random"
    twelve = [f"name{i:02d}" for i in range(12, 0, -1)]
    assert str(UnknownNameError("deck", "zzz", twelve)).endswith("; known: " + ", ".join(sorted(twelve)))
    thirteen = [f"name{i:02d}" for i in range(13)]
    assert str(UnknownNameError("deck", "zzz", thirteen)) == \
        "unknown deck 'zzz' (13 known: `cardgames list --kind decks` shows them)"
    assert str(UnknownNameError("variant", "zzz", thirteen)) == \
        "unknown variant 'zzz' (13 known: `cardgames list --kind variants` shows them)"


def test_a_folders_variant_or_deck_is_checked_in_the_bundled_games_that_take_it(tmp_path):
    """``validate DIR`` checked a variant or deck of DIR on its own: one that breaks the bundled games
    taking it passed, and failed only in play (an auditor's finding). Those games are checked too, the
    error at the line at fault; a folder holding only a game of its own checks that game alone."""
    (tmp_path / "variants").mkdir()
    strict = (BUNDLED / "variants" / "strict.yaml").read_text()
    assert "options:\n" in strict
    text = strict.replace("options:\n", "options:\n  layout: [60, 60]\n", 1)
    (tmp_path / "variants" / "strict.yaml").write_text(text)
    report = validate([str(tmp_path)])
    line = text.splitlines().index("  layout: [60, 60]") + 1
    assert report.checked == 1 and report.errors and {(e.path, e.line) for e in report.errors} == {
        (str(tmp_path / "variants" / "strict.yaml"), line)}
    assert "the layout has 120 rows, so the deal needs 121 cards" in report.errors[0].message
    shutil.rmtree(tmp_path / "variants")
    (tmp_path / "decks").mkdir()
    french = (BUNDLED / "decks" / "french.yaml").read_text()
    king = "  - {id: K, name: King, value: 13, face: true}\n"
    assert king in french
    (tmp_path / "decks" / "french.yaml").write_text(french.replace(king, ""))
    report = validate([str(tmp_path)])
    assert sorted(Path(e.path).name for e in report.errors) == ["eiffel-tower.yaml", "new-eiffel-tower.yaml"]
    assert all("in deck french the suited cards run from 1 to 12" in e.message for e in report.errors)
    shutil.rmtree(tmp_path / "decks")
    report = validate([str(make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower")))])
    assert report.checked == 1 and report.errors == []


def test_a_yml_file_in_a_config_folder_is_named_not_read(tmp_path):
    """``validate games/X.yml`` checked the file's schema, then the engine's checks on the bundled X.yaml,
    and passed an unknown option (an auditor's finding). No catalog reads a .yml file there; a loose
    file of any name is still checked as what it is."""
    (tmp_path / "games").mkdir()
    typo = EIFFEL.replace("  match: 14\n", "  mtach: 14\n")
    assert typo != EIFFEL
    (tmp_path / "games" / "eiffel-tower.yml").write_text(typo)
    report = validate([str(tmp_path / "games" / "eiffel-tower.yml")])
    assert [(e.path, e.message) for e in report.errors] == [
        (str(tmp_path / "games" / "eiffel-tower.yml"), UNREAD)]
    (tmp_path / "draft.yml").write_text(typo)
    assert any("unknown key 'mtach'" in e.message for e in validate([str(tmp_path / "draft.yml")]).errors)
    # nor a .YAML one (a mutant that compared the suffix's case passed it silently: a mutation audit's finding)
    (tmp_path / "games" / "eiffel-tower.yml").unlink()
    (tmp_path / "games" / "mine.YAML").write_text(typo.replace("id: eiffel-tower", "id: mine"))
    found = [(e.path, e.message) for e in validate([str(tmp_path)]).errors]
    assert (str(tmp_path / "games" / "mine.YAML"), UNREAD) in found


def test_the_config_reference_page_is_the_schemas(module_at):
    """docs/configs.md lists every key the loader accepts (the designer audit found no such page): it is
    generated from the schemas, and a schema changed without the page fails here."""
    module = module_at("config_reference")
    assert module.PAGE.read_text(encoding="utf-8") == module.page(), "run python scripts/config_reference.py"
    assert "| `options` | a mapping | yes |" in module.page() and "### `towers`" in module.page()


def test_a_game_in_another_engines_family_is_told_at_its_family_line(tmp_path, run_cli):
    """A family is games sharing an engine, and its variants are checked against that engine: a designer's
    pairing game given the family torqu made validate blame the bundled Torqu variants, at their own lines, and
    ``--variant death`` named the bundled death.yaml. Both now name the game's ``family`` line."""
    text = EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("family: pairing", "family: torqu")
    root = make_root(tmp_path, text)
    line = text.splitlines().index("family: torqu") + 1
    wanted = (f"{root / 'games' / 'my-tower.yaml'}:{line}: family 'torqu' is played by the torqu engine (game torqu), "
              "not pairing: give this game a family of its own, or that engine")
    report = validate([str(root)])
    assert [str(e) for e in report.errors] == [wanted]
    played = run_cli("--configs", str(root), "simulate", "--game", "my-tower", "--variant", "death", "--seed", "1")
    assert played.exit_code == 1 and played.stderr == f"Error: {wanted}\n"
    (tmp_path / "own").mkdir()
    assert validate([str(make_root(tmp_path / "own", text.replace("family: torqu", "family: towers-of-my-own")
                                                     .replace("variants: [strict]", "variants: []")))]).ok


@pytest.mark.parametrize("token", ["A\tB", "A\nB", "A\x00B"])
def test_a_card_token_holds_no_control_character(token):
    """A tab or newline inside a suit or rank id would break a drawn deal's columns and lines."""
    from cardgames.engine.schema import one_token

    assert "no control character" in one_token(token)


@pytest.mark.parametrize("old, new, words", [
    ("players: {min: 2,", "players: {min: 0,", "'players.min': must be 1..64"),
    ("copies_by_players: {5: 2,", "copies_by_players: {0: 1, 5: 2,", "keys must be player counts (1..64)"),
])
def test_player_counts_start_at_one(tmp_path, run_cli, old, new, words):
    """No game is played by no one: a minimum of 0 players, or deck copies from 0 players up, is refused."""
    text = (BUNDLED / "games" / "turup.yaml").read_text()
    assert old in text
    make_root(tmp_path, text.replace(old, new), "turup")
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1 and words in report.stdout


def test_a_variants_option_out_of_range_is_named_in_the_variant(tmp_path, run_cli):
    """A variant's option out of its range is the variant's line (not the bundled game's option)."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "zero.yaml").write_text("id: zero\nname: Zero\napplies_to: [torqu]\noptions:\n"
                                                     "  max_matches: 0\n")
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1
    assert report.stdout.splitlines()[0] == f"{tmp_path / 'variants' / 'zero.yaml'}:5: 'options.max_matches': must " \
                                            "be 1..1000"


def test_two_variants_lists_of_different_lengths_place_an_error_in_the_longer(tmp_path, run_cli):
    """An error at an item past the end of one variant's list is the other variant's (no IndexError)."""
    (tmp_path / "variants").mkdir()
    for name, cards in (("a", "[Magic-13]"), ("b", "[Magic-13, Magic-14, nope]")):
        (tmp_path / "variants" / f"{name}.yaml").write_text(f"id: {name}\nname: {name.upper()}\napplies_to: "
                                                            f"[torqu]\noptions:\n  wild_cards: {cards}\n")
    dealt = run_cli("--configs", str(tmp_path), "deal", "torqu", "--variant", "a", "--variant", "b", "--seed", "1")
    assert dealt.exit_code in (1, 2)  # run_cli lets any other exception, an IndexError, fail the test
    assert f"{tmp_path / 'variants' / 'b.yaml'}:5: options.wild_cards: no card 'nope'" in dealt.stderr


def test_every_engine_option_is_named_on_its_games_rules_page():
    """Each interpretation of a seed is a named option documented on the game's page (docs/rules/, the page its
    YAML's ``docs`` names): an option added to an engine without a word on the page fails here."""
    catalog = Catalog([BUNDLED])
    repo = Path(__file__).resolve().parents[1]
    pages: dict[str, str] = {}
    for gid in catalog.ids("games"):
        game = catalog.game(gid)
        pages[game["engine"]] = pages.get(game["engine"], "") + (repo / game["docs"]).read_text()
    assert set(pages) == set(ENGINES)
    unnamed = [(engine, key) for engine, text in pages.items() for key in engine_module(engine).OPTIONS
               if not re.search(rf"`{key}[`:]", text)]
    assert unnamed == []


def test_a_path_validate_cannot_read_is_a_finding_about_that_path(run_cli, tmp_path):
    """A missing path, and one the system refuses (a name too long: it said "cannot write the output", a
    fuzzer's finding, as if stdout had failed), are each one finding naming the path; the rest is checked."""
    long = str(tmp_path / ("a" * 300))
    (tmp_path / "ok").mkdir()
    good = make_root(tmp_path / "ok", EIFFEL.replace("id: eiffel-tower", "id: my-tower"))
    result = run_cli("validate", str(tmp_path / "missing"), long, str(good))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"{tmp_path / 'missing'}: no such file or folder",
                                          f"{long}: cannot read: File name too long"]
    assert result.stderr == "1 config file checked: 2 errors\n"


def test_a_folder_validate_cannot_read_is_a_finding_and_the_rest_is_checked(run_cli, tmp_path, monkeypatch):
    """A folder whose games/ cannot be listed ended the command with its one error, the other paths' results and
    the JSON report lost, and one the user may not read was Click's usage error, exit 2 (a CI author's audit,
    as another user): each is a finding in the report, exit 1, like a missing path."""
    import os

    (tmp_path / "ok").mkdir()
    (tmp_path / "shut").mkdir()
    good = make_root(tmp_path / "ok", EIFFEL.replace("id: eiffel-tower", "id: my-tower"))
    shut = make_root(tmp_path / "shut", EIFFEL.replace("id: eiffel-tower", "id: their-tower"), "their-tower")
    listing, access = Path.iterdir, os.access

    def iterdir(path):
        if path == shut / "games":
            raise PermissionError(13, "Permission denied")
        return listing(path)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path) != shut and access(path, mode, **kw))
    result = run_cli("validate", str(shut), str(good), "--format", "json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["errors"] == [{"file": None, "line": None,
                                 "message": f"{shut / 'games'}: cannot read folder: Permission denied"}]
    assert report["checked"] == 1 and result.stderr == "1 config file checked: 1 error\n"


def test_an_alias_its_games_default_count_cannot_play_is_refused(tmp_path):
    """``simulate --game duo-torqu3`` plays torqu3's default, 3 players, with the alias's Partners, which need an
    even count: validate says so at the default's line (a reviewer's finding: it passed, and simulate blamed
    the command line). The bundled Torqu, default 4, plays the same alias."""
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    root = make_root(tmp_path, torqu.replace("id: torqu\n", "id: torqu3\n").replace("default: 4}", "default: 3}"),
                     "torqu3")
    (root / "variants").mkdir()
    (root / "variants" / "duo.yaml").write_text(
        "id: duo\nname: Duo\napplies_to: [torqu]\naliases: ['duo-{game}']\noptions:\n  partners: true\n")
    path = root / "games" / "torqu3.yaml"
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.startswith("players:"))
    duo = (root / "variants" / "duo.yaml").read_text()
    (root / "variants" / "duo.yaml").write_text(duo.replace("aliases: ['duo-{game}']\n", ""))
    report = validate([str(root)])
    assert report.ok and report.checked == 2, "Partners, no alias: the player count is the command line's to choose"
    (root / "variants" / "duo.yaml").write_text(duo)
    assert [str(e) for e in validate([str(root)]).errors] == [
        f"{path}:{line}: players.default is 3, which cannot play 'duo-torqu3' (torqu3 + duo): partners play (option "
        "partners) needs an even number of players, 4 or more (not 3)"]
    # of several aliases, the first is named (a mutant that named the last passed: a mutation audit's finding)
    (root / "variants" / "duo.yaml").write_text(duo.replace("aliases: ['duo-{game}']", "aliases: ['duo-{game}', "
                                                                                         "'pair-{game}']"))
    assert [str(e) for e in validate([str(root)]).errors] == [
        f"{path}:{line}: players.default is 3, which cannot play 'duo-torqu3' (torqu3 + duo): partners play (option "
        "partners) needs an even number of players, 4 or more (not 3)"]


def _towers_on(tmp_path: Path, deck: str) -> Path:
    """A Towers game on the deck ``deck`` (the YAML of a deck file whose id is ``mine``), in ``tmp_path``."""
    (tmp_path / "games").mkdir()
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mine.yaml").write_text(deck)
    game = (BUNDLED / "games" / "towers.yaml").read_text().replace("id: towers\n", "id: my-towers\n")
    path = tmp_path / "games" / "my-towers.yaml"
    path.write_text(game.replace("type: harrow", "type: mine"))
    return path


def test_a_towers_deck_without_alignments_is_said_once(tmp_path):
    """A French deck for Towers: its 52 cards lack an alignment, said in one line naming the first few (a
    designer's finding: 52 lines, one a card), then the foundations it lacks."""
    french = (BUNDLED / "decks" / "french.yaml").read_text().replace("id: french\n", "id: mine\n")
    game = _towers_on(tmp_path, french)
    # a deck of another game: the game's choice of it, at its deck line, and nothing of its cards' foundations
    line = next(i for i, t in enumerate(game.read_text().splitlines(), 1) if "type: mine" in t)
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{game}:{line}: deck mine is no Towers deck: none of its 52 cards has an alignment (LG, NG, CG, LN, CN, LE, "
        "NE, CE, N, as in the Harrow deck) (every player count)"]
    # some aligned: the others in one line, at the first one's line of the deck (the template's rank)
    aligned = french.replace("{id: A, name: Ace, value: 1}", "{id: A, name: Ace, value: 1, alignment: N, "
                                                              "foundation: true}")
    (tmp_path / "decks" / "mine.yaml").write_text(aligned)
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{tmp_path / 'decks' / 'mine.yaml'}:13: 48 cards have an alignment Towers does not know ('2C', '3C', '4C' "
        "and 45 more; the first has null); a card's alignment must be one of LG, NG, CG, LN, CN, LE, NE, CE, N, as in "
        "the Harrow deck"]


def test_a_towers_deck_card_is_refused_once_at_the_deck_line(tmp_path, run_cli):
    """A card's mistake in a designer's deck taken by two games is one line, at the card's line of the deck
    file (a designer's finding: one line a game, each at its ``deck`` line, the deck never named); ``simulate``
    stops at the same line."""
    harrow = (BUNDLED / "decks" / "harrow.yaml").read_text().replace("id: harrow\n", "id: mine\n")
    keep = '{name: "The Keep", suit: Hammers, alignment: NG,'
    assert harrow.count(keep) == 1
    game = _towers_on(tmp_path, harrow.replace(keep, keep.replace("NG,", "GN,")))
    game.with_name("other.yaml").write_text(game.read_text().replace("id: my-towers\n", "id: other\n"))
    line = 1 + harrow.splitlines().index(next(t for t in harrow.splitlines() if keep in t))
    said = (f"{tmp_path / 'decks' / 'mine.yaml'}:{line}: card 'The Keep' has alignment 'GN'; a card's alignment "
            "must be one of LG, NG, CG, LN, CN, LE, NE, CE, N, as in the Harrow deck")
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [said]
    played = run_cli("--configs", str(tmp_path), "simulate", "--game", "other", "--seed", "1")
    assert played.exit_code == 1
    assert played.stderr == f"Error: {said} (`cardgames --configs {tmp_path} validate` lists them all)\n"


def test_a_towers_card_that_could_never_be_played_is_refused(tmp_path):
    """A True Neutral card that is not a foundation would cover a foundation's symbol wherever it went (a
    designer's finding: validate passed it, and it could only ever be a debt): said at its ``foundation`` key,
    in a suit that has its foundation; the Harrow deck's own foundations pass."""
    harrow = (BUNDLED / "decks" / "harrow.yaml").read_text().replace("id: harrow\n", "id: mine\n")
    keep = '{name: "The Keep", suit: Hammers, alignment: NG, foundation: false}'
    assert harrow.count(keep) == 1
    _towers_on(tmp_path, harrow.replace(keep, keep.replace("NG,", "N,")))
    line = 1 + harrow.splitlines().index(next(t for t in harrow.splitlines() if keep in t))
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{tmp_path / 'decks' / 'mine.yaml'}:{line}: card 'The Keep' (alignment N) is no foundation, and a card "
        "of that alignment would cover a foundation's symbol wherever it went: it could never be played (the True "
        "Neutral cards are the foundations)"]


_HARROW_MINE = (BUNDLED / "decks" / "harrow.yaml").read_text().replace("id: harrow\n", "id: mine\n")
_DANCE = '{name: "The Dance", suit: Keys, alignment: LG, foundation: false,'


def _towers_errors(tmp_path: Path, deck: str, copies: int = 1) -> list[str]:
    """validate's errors for a Towers game taking ``copies`` of the deck ``deck`` (id mine)."""
    game = _towers_on(tmp_path, deck)
    game.write_text(game.read_text().replace("copies: 1", f"copies: {copies}"))
    return [str(e) for e in validate([str(tmp_path)]).errors]


@pytest.mark.parametrize("copies", [1, 2])
def test_a_towers_suit_with_two_foundations_is_said_at_its_line_per_deck(tmp_path, copies):
    """The Dance made a second foundation of Keys: said at the Keys suit's line, counted in one deck whatever the
    game's copies (a mutation audit's gaps: the suit's index, the copies' division, and the copies' own case)."""
    two = _HARROW_MINE.replace(_DANCE, _DANCE.replace("alignment: LG, foundation: false",
                                                      "alignment: N, foundation: true"))
    line = 1 + _HARROW_MINE.splitlines().index("  - {id: Keys, name: Keys, ability: Dexterity, tower_fr: \"Tour de la "
                                               "Dextérité\"}")
    errors = _towers_errors(tmp_path, two, copies)
    keys = f"{tmp_path / 'decks' / 'mine.yaml'}:{line}: suit Keys has 2 foundation cards; a tower needs exactly one"
    # taken twice, the other suits' one foundation a deck is the game's copies' doing, said at its deck line
    assert errors == [keys] if copies == 1 else errors[0] == keys and "the game taking 2 copies" in errors[1]


def test_a_towers_card_of_no_suit_is_said_at_its_suit_key(tmp_path):
    """A card written in block style, its suit on a line of its own: a suit the deck does not list is said there (by
    the deck's check, for every game), not at the card's first line; a card with no suit, by Towers, at its line."""
    block = "  - name: The Dance\n    suit: Nope\n    alignment: LG\n    foundation: false\n    name_fr: la Danse\n"
    line_of = next(t for t in _HARROW_MINE.splitlines() if t.startswith("  - " + _DANCE))
    deck = _HARROW_MINE.replace(line_of + "\n", block)
    line = 2 + deck.splitlines().index("  - name: The Dance")
    assert _towers_errors(tmp_path, deck)[0] == (f"{tmp_path / 'decks' / 'mine.yaml'}:{line}: card 'The Dance' has "
                                                 "suit 'Nope', which is not one of the deck's suits (Hammers, Keys, "
                                                 "Shields, Books, Stars, Crowns)")
    suitless = _HARROW_MINE.replace(line_of + "\n", block.replace("    suit: Nope\n", ""))
    (tmp_path / "suitless").mkdir()
    assert _towers_errors(tmp_path / "suitless", suitless)[0] == (
        f"{tmp_path / 'suitless' / 'decks' / 'mine.yaml'}:{line - 1}: card 'The Dance' has no suit, which every Towers "
        "card needs")


def test_a_towers_game_on_two_copies_of_another_games_deck_counts_one(tmp_path):
    """Two French decks for Towers: the deck's own 52 cards are named, not the game's 104."""
    game = _towers_on(tmp_path, _HARROW_MINE)
    game.write_text(game.read_text().replace("type: mine, copies: 1", "type: french, copies: 2"))
    assert "deck french is no Towers deck: none of its 52 cards has an alignment" in str(
        validate([str(game)]).errors[0])


def test_a_towers_decks_template_rank_is_said_once(tmp_path):
    """A Towers deck written as a template (ranks x suits, the alignment a rank's): a rank's mistake is said once,
    at its line, naming the cards it makes, not once a suit at the same line (a reviewer's finding)."""
    ranks = [f"  - {{id: '{a}', name: {a}, value: {v}, alignment: {a}{', foundation: true' if a == 'N' else ''}}}"
             for v, a in enumerate(("LG", "NG", "CG", "LN", "CN", "LE", "NE", "CE", "N"), 1)]
    ranks.append("  - {id: X, name: Extra, value: 10, alignment: N}")  # a second True Neutral rank, no foundation
    deck = "\n".join(["id: mine", "name: Mine", "card_name: '{rank}{suit}'", "suits:",
                      *(f"  - {{id: {s}, name: {s}, ability: {s}}}" for s in "ABC"), "ranks:", *ranks]) + "\n"
    _towers_on(tmp_path, deck)
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{tmp_path / 'decks' / 'mine.yaml'}:18: rank X (cards 'XA', 'XB', 'XC') (alignment N) is no foundation, and a "
        "card of that alignment would cover a foundation's symbol wherever it went: it could never be played (the "
        "True Neutral cards are the foundations)"]


def test_a_towers_game_on_a_bundled_deck_of_another_game_is_said_at_its_deck_line(tmp_path, run_cli):
    """A designer's Towers game on the bundled French deck: the choice of deck is the mistake, said at the game's
    deck line, not in the installed package's french.yaml (a reviewer's finding)."""
    game = _towers_on(tmp_path, (BUNDLED / "decks" / "harrow.yaml").read_text().replace("id: harrow\n", "id: mine\n"))
    text = game.read_text().replace("type: mine", "type: french")
    game.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "type: french" in t)
    said = (f"{game}:{line}: deck french is no Towers deck: none of its 52 cards has an alignment (LG, NG, CG, LN, "
            "CN, LE, NE, CE, N, as in the Harrow deck)")
    assert [str(e) for e in validate([str(game)]).errors] == [f"{said} (every player count)"]
    played = run_cli("--configs", str(tmp_path), "simulate", "--game", "my-towers", "--seed", "1")
    assert played.exit_code == 1 and played.stderr.startswith(f"Error: {said} (")


def test_problems_differing_in_a_number_at_one_count_are_said_apart(tmp_path, monkeypatch):
    """Two problems alike but for a number at every player count ("suit T1 ...", "suit T2 ..."), not one merged
    with the other's counts ("likewise at 2, 2-3, 3, 4 players", a designer's finding): texts alike but for a
    number are merged only across counts (Turup's "deals 161 cards for 3 players", "165 ... for 4")."""
    from cardgames.engine.games.towers import rules

    monkeypatch.setattr(rules, "check_config", lambda spec: [(("deck",), f"suit T{i} lacks its foundation")
                                                             for i in (1, 2)])
    _towers_on(tmp_path, (BUNDLED / "decks" / "harrow.yaml").read_text().replace("id: harrow\n", "id: mine\n"))
    errors = [str(e).split(": ", 1)[1] for e in validate([str(tmp_path)]).errors]
    assert errors == [f"suit T{i} lacks its foundation (every player count)" for i in (1, 2)]


def test_a_towers_deck_says_suits_alike_in_one_line(tmp_path):
    """Two suits, T1 and T2, each without its foundation: one line naming both (a deck taken twice gave six
    lines alike, a rules expert's finding), and a count that the deck's copies make is said to be theirs."""
    harrow = (BUNDLED / "decks" / "harrow.yaml").read_text().replace("id: harrow\n", "id: mine\n")
    for i, suit in enumerate(("Hammers", "Keys", "Shields", "Books", "Stars", "Crowns"), 1):
        harrow = harrow.replace(f"id: {suit},", f"id: T{i},").replace(f"suit: {suit},", f"suit: T{i},")
    for suit in ("T1", "T2"):
        foundation = f"suit: {suit}, alignment: N, foundation: true"
        assert foundation in harrow
        harrow = harrow.replace(foundation, foundation.replace("true", "false"))
    _towers_on(tmp_path, harrow)
    # one line, at the first suit's line of the deck (T1's): each N card not a foundation is said by it, not again
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{tmp_path / 'decks' / 'mine.yaml'}:11: suits T1, T2 each have 0 foundation cards; a tower needs exactly one"]
    towers = (BUNDLED / "games" / "towers.yaml").read_text()
    assert "deck: {type: harrow, copies: 1}" in towers
    twice = tmp_path / "twice"
    twice.mkdir()
    make_root(twice, towers.replace("copies: 1}", "copies: 2}"), "towers")
    [error] = validate([str(twice)]).errors
    assert error.message == ("suits Hammers, Keys, Shields, Books, Stars, Crowns each have 2 foundation cards, the "
                             "game taking 2 copies of the deck; a tower needs exactly one (every player count)")


def test_a_variants_row_for_a_count_its_games_never_play_is_refused(tmp_path):
    """A variant's Torqu deal row for 9 players: Torqu is for 2-8, and a variant cannot change that, so the
    row is never used (a designer's finding: validate passed it, then ``--players 9`` was refused). A row
    for a count some game it reaches plays is fine, as the row for 4 here."""
    (tmp_path / "variants").mkdir()
    path = tmp_path / "variants" / "nine.yaml"
    path.write_text("id: nine\nname: Nine\napplies_to: [torqu]\noptions:\n  deal:\n"
                    "    4: {hand: 4, center: 16, primary: 8, secondary: 8}\n"
                    "    9: {hand: 4, center: 16, primary: 7, secondary: 7}\n")
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{path}:7: 'options.deal' has a row for 9 players, but its games are for 2-8 players: the row is never "
        "used (a variant cannot change a game's players; a game file can)"]
    path.write_text(path.read_text().replace("    9:", "    8:"))
    assert validate([str(tmp_path)]).ok
    # a key that names no count ("09", "two") is said once, as such (a reviewer's finding: "never used" too)
    for key in ("09", "two"):
        path.write_text(re.sub(r"\n    (8|09):", f"\n    {key}:", path.read_text()))
        assert [str(e).split(": ", 1)[1] for e in validate([str(tmp_path)]).errors] == [
            f"'options.deal': keys must be player counts, not '{key}' (merged into torqu's deal)"]
    # the variant's own errors first: its rows are judged once it is sound
    path.write_text(path.read_text().replace("    two:", "    9:") + "  bogus: 1\n")
    errors = [str(e) for e in validate([str(tmp_path)]).errors]
    assert len(errors) == 1 and "unknown option 'bogus'" in errors[0]


def test_a_variants_rows_are_not_judged_while_a_game_it_may_reach_is_broken(tmp_path):
    """A game of 2-9 players for the row of 9, its file broken: its counts are unknown, so the row is not
    called unused on top of the game's own error (a reviewer's finding)."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "nine.yaml").write_text(
        "id: nine\nname: Nine\napplies_to: [torqu]\noptions:\n  deal:\n"
        "    9: {hand: 4, center: 12, primary: 7, secondary: 7}\n")
    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    row = "    8: {hand: 4, center: 16, primary: 7, secondary: 7}\n"
    big = torqu.replace("id: torqu\n", "id: big-torqu\n").replace("max: 8,", "max: 9,").replace(
        row, row + "    9: {hand: 4, center: 12, primary: 7, secondary: 7}\n")
    big = big.replace("  tableau:\n", "  tableau:\n    9: {center: 4, primary: 2, secondary: 2}\n")
    make_root(tmp_path, big, "big-torqu")
    assert validate([str(tmp_path)]).ok
    (tmp_path / "games" / "big-torqu.yaml").write_text(big + "bogus_key: 1\n")
    errors = [str(e) for e in validate([str(tmp_path)]).errors]
    assert len(errors) == 1 and "big-torqu.yaml" in errors[0] and "bogus_key" in errors[0]


def test_problems_merged_across_counts_name_the_others_in_order(tmp_path, monkeypatch):
    """One problem at 2 and 4 players, one alike but for a number at 3: said once, "likewise at 3-4"
    (the counts in order, not "4, 3": a mutation audit's finding)."""
    from cardgames.engine.games.torqu import rules

    torqu = (BUNDLED / "games" / "torqu.yaml").read_text()
    path = make_root(tmp_path, torqu.replace("id: torqu\n", "id: t24\n").replace(
        "players: {min: 2, max: 8, default: 4}", "players: {min: 2, max: 4, default: 2}"), "t24") / "games" / "t24.yaml"
    monkeypatch.setattr(rules, "check_config", lambda spec: [(("options", "deal"), f"odd {int(spec.players == 3)}")])
    line = path.read_text().splitlines().index("  deal:") + 2  # a table is said at its first row's line
    assert [str(e) for e in validate([str(tmp_path)]).errors] == [
        f"{path}:{line}: odd 0 (2 players; likewise at 3-4 players)"]


def test_a_designers_file_of_a_bundled_id_is_noted_as_replacing_it(tmp_path, run_cli):
    """Searched first, a designer's games/eiffel-tower.yaml is Eiffel Tower from then on: right for a rule
    change, a surprise for a new game given that name (a designer's finding: list showed eiffel-tower as his
    own game, unsaid). validate notes it on stderr, and in its JSON; no error."""
    make_root(tmp_path, EIFFEL.replace("name: Eiffel Tower", "name: My Tower"), "eiffel-tower")
    path = tmp_path / "games" / "eiffel-tower.yaml"
    note = f"{path} replaces the bundled game 'eiffel-tower' (the same id; another id adds one beside it)"
    assert validate([str(tmp_path)]).notes == [note]
    told = run_cli("validate", str(tmp_path))
    assert told.exit_code == 0 and told.stderr == f"note: {note}\n1 config file checked: all valid\n"
    assert json.loads(run_cli("validate", str(tmp_path), "--format", "json").stdout)["notes"] == [note]
    assert validate([str(BUNDLED / "games" / "eiffel-tower.yaml")]).notes == []  # the bundled file itself
    both = validate([str(tmp_path), str(path)])  # a folder and a file of it: one file checked, one note
    assert both.checked == 1 and both.notes == [note]
    loose = tmp_path / "mine.yaml"  # outside a kind's folder --configs reads nothing, so it replaces nothing
    loose.write_text(path.read_text())
    assert validate([str(loose)]).notes == []
    loose.write_text(EIFFEL.replace("id: eiffel-tower", f"id: {'x' * 300}"))  # too long for a file name: no
    assert validate([str(loose)]).ok  # crash looking for a bundled file of that name (a reviewer's finding)
    # with a second --configs folder searched first that has one too, this one is read by no command
    (tmp_path / "first").mkdir()
    first = make_root(tmp_path / "first", EIFFEL, "eiffel-tower") / "games" / "eiffel-tower.yaml"
    assert validate([str(tmp_path)], [tmp_path / "first", tmp_path]).notes == [
        f"{path} is hidden by {first}, of a config folder searched before it (--configs or CARDGAMES_CONFIGS): "
        "commands read that one"]


def test_a_file_another_of_its_id_hides_is_checked_as_itself(tmp_path, run_cli):
    """Two folders with a game of one id, as --configs folders or as paths given: commands read the first, yet
    the other is checked too, as its own file says, and said hidden under --configs; its error is its own, said
    once (a bad-input audit's finding: under --configs the hidden file went unchecked, exit 0; given as paths, the
    folder given last was searched first, so the other file's game was checked as that one, its error said twice)."""
    text = EIFFEL.replace("id: eiffel-tower", "id: ex")
    (tmp_path / "good").mkdir()
    (tmp_path / "wide").mkdir()
    good = make_root(tmp_path / "good", text, "ex")
    wide = make_root(tmp_path / "wide", text.replace("[1, 2, 3, 4, 5, 5]", "[1, 2, 3, 4, 5, 5, 90]"), "ex")
    line = text.splitlines().index("  layout: [1, 2, 3, 4, 5, 5]") + 1
    wrong = f"{wide / 'games' / 'ex.yaml'}:{line}: the layout has 110 rows"
    for first, second in ((good, wide), (wide, good)):
        hidden = validate(None, [first, second])
        assert [str(e)[:len(wrong)] for e in hidden.errors] == [wrong], (first, second)
        assert hidden.notes == [f"{second / 'games' / 'ex.yaml'} is hidden by {first / 'games' / 'ex.yaml'}, of a "
                                "config folder searched before it (--configs or CARDGAMES_CONFIGS): commands read "
                                "that one"]
        given = validate([str(first), str(second)])
        assert given.checked == 2 and [str(e)[:len(wrong)] for e in given.errors] == [wrong], (first, second)
    told = run_cli("--configs", str(good), "--configs", str(wide), "validate")
    assert told.exit_code == 1 and wrong in told.stdout


def test_a_symlink_loop_is_a_file_that_cannot_be_read(tmp_path, run_cli):
    """A variant file that links to itself: one line saying so, as ``list`` says it, not a traceback from
    resolving the path (a bad-input audit's finding)."""
    (tmp_path / "variants").mkdir()
    loop = tmp_path / "variants" / "l.yaml"
    loop.symlink_to(loop)
    for args in (("validate", str(tmp_path)), ("--configs", str(tmp_path), "validate")):
        told = run_cli(*args)
        assert told.exit_code == 1 and "Traceback" not in told.output, args
        assert re.search(rf"(?m)^{re.escape(str(loop))}: cannot read file: .*symbolic links$", told.stdout), told.stdout


@pytest.mark.parametrize("table, words", [
    ("{5: 2.0, 8: 3}", "from 5 players: the copies must be a whole number of decks (1..16), not 2.0"),
    ("{5: 2, x: 3}", "keys must be player counts (1..64), not 'x'"),
])
def test_copies_by_players_says_whether_the_key_or_the_copies_are_wrong(tmp_path, run_cli, table, words):
    """One message for both left the designer to guess which was wrong (a fuzzer's finding)."""
    text = (BUNDLED / "games" / "turup.yaml").read_text()
    assert "copies_by_players: {5: 2, 8: 3}" in text
    make_root(tmp_path, text.replace("copies_by_players: {5: 2, 8: 3}", f"copies_by_players: {table}"), "turup")
    report = run_cli("validate", str(tmp_path))
    assert report.exit_code == 1 and f"'deck.copies_by_players': {words}" in report.stdout, report.stdout


def test_a_games_own_problem_met_first_with_a_variant_is_still_the_games(tmp_path, monkeypatch):
    """A problem a variant shows at 2 players, where the game alone has another, and the game alone shows at 3-4:
    said for the variant and for the game (a designer's finding: a problem was kept by its text alone, so the
    variant, met first, claimed it, and the game's own was never said, though ``deal --players 3`` refused it)."""
    from cardgames.engine.games.turup import rules

    def checks(spec):
        if spec.players == 2 and not spec.variants:
            return [(("options", "hand_size"), "the hands are odd")]
        return [(("options", "community_size"), "the pile is crowded")]

    monkeypatch.setattr(rules, "check_config", checks)
    turup = (BUNDLED / "games" / "turup.yaml").read_text()
    text = turup.replace("id: turup\n", "id: cb\n").replace("players: {min: 2, max: 12, default: 4}",
                                                          "players: {min: 2, max: 4, default: 2}")
    make_root(tmp_path, text.replace("variants: []", "variants: [small]"), "cb")
    _variant(tmp_path, "small", "applies_to: [cb]\noptions:\n  hand_size: 2\n")
    errors = {(Path(e.path).name, e.message) for e in validate([str(tmp_path)]).errors}
    assert ("cb.yaml", "the pile is crowded (3 players; likewise at 4 players)") in errors, errors
    assert ("small.yaml", "the pile is crowded (cb, 2 players, small)") in errors, errors


def test_the_config_reference_check_fails_on_a_stale_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          module_at) -> None:
    """``scripts/config_reference.py --check`` (the docs' CI gate) exits non-zero naming the page when it differs
    from the schemas, passes on a current one, and never rewrites the page it checks."""
    import sys

    module = module_at("config_reference")
    page = tmp_path / "configs.md"
    monkeypatch.setattr(module, "PAGE", page)
    monkeypatch.setattr(sys, "argv", ["config_reference.py", "--check"])
    stale = module.page().replace("| yes |", "| no |", 1)
    page.write_text(stale, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        module.main()
    assert exit_.value.code not in (0, None) and "is out of date" in str(exit_.value.code)
    assert page.read_text(encoding="utf-8") == stale
    page.write_text(module.page(), encoding="utf-8")
    module.main()  # current: no exit


def test_a_decks_ranks_may_be_listed_in_any_order_the_rules_read_their_values(tmp_path, run_cli):
    """docs/configs.md: ranks are listed "low to high by convention: the rules read each rank's value, not its
    place" (a designer asked, a deck with 2 listed before 1 passing validate). The French deck's ranks reversed
    make the same cards with the same values, dealt in another order, and Eiffel Tower on it plays and solves."""
    import yaml

    from cardgames.engine.games.pairing.solver import Solver

    deck = yaml.safe_load((BUNDLED / "decks" / "french.yaml").read_text())
    deck["id"], deck["ranks"] = "backwards", deck["ranks"][::-1]
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "backwards.yaml").write_text(yaml.safe_dump(deck, sort_keys=False))
    assert "type: french" in EIFFEL
    make_root(tmp_path, EIFFEL.replace("id: eiffel-tower", "id: my-tower").replace("type: french", "type: backwards"))
    assert run_cli("--configs", str(tmp_path), "validate", str(tmp_path)).exit_code == 0
    mine, plain = load_game("my-tower", catalog=Catalog([tmp_path, BUNDLED])), load_game("eiffel-tower")
    assert mine.deck.names != plain.deck.names
    assert sorted((c.name, c.value) for c in mine.deck.cards) == sorted((c.name, c.value) for c in plain.deck.cards)
    assert Solver(mine, 10**6).solve(mine.new_state(7)).winnable is not None


def test_a_variant_setting_players_is_told_why_it_cannot(tmp_path, run_cli):
    """A variant's ``players:`` got only "unknown key 'players' (known: ...)" (a designer's finding): it is said
    at its line that a variant cannot change a game's players and a game file can; the rest of the file is
    still checked (a misspelt key beside it is named too)."""
    path = _variant(tmp_path, "trio", "applies_to: [turup]\nplayers: {min: 2, max: 3}\noptions:\n  hand_size: 4\n"
                                      "titel: x\n")
    report = run_cli("--configs", str(tmp_path), "validate", str(tmp_path))
    assert report.exit_code == 1 and report.stdout.splitlines() == [
        f"{path}:4: a variant cannot change a game's players; a game file can (copy the game's into your --configs "
        "folder)",
        f"{path}:7: unknown key 'titel' in the file: did you mean 'title'?"]
