"""``validate``: check config files alone and together, and report facts about every deal.

Checks, per file: YAML syntax (with size and alias limits), the schema of its kind, the id
equal to the file name. Per game, across files: its deck, variants and engine exist, each
variant applies to it, its options satisfy the engine's schema, and for every allowed player
count, alone and with each variant, the engine's semantic checks (``check_config``: the deal
fits the deck, the match value fits the ranks, ...). Engines may also report facts about a deal
(``deal_facts``), which ``validate`` shows so a designer can see that a table adds up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .cards import check_deck
from .config import KINDS, UNREAD, Catalog, MergedTableError, bundled_root, folder_files, merged
from .errors import CardgamesError, ConfigError
from .log import same_json
from .schema import check_mapping
from .wording import counted, spans, written
from .yamlfile import Document, read_document


@dataclass
class Report:
    """What ``validate`` found over every file it read: errors make it fail, facts and notes are told."""

    checked: int = 0
    errors: list[ConfigError] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    #: What is worth knowing and no error: a designer's file that replaces a bundled one of its id, or that a
    #: file of an earlier ``--configs`` folder hides (:func:`_shadow`).
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def validate(paths: list[str] | None = None, config_dirs: list[Path] | None = None) -> Report:
    """Validate the given files or config folders, or every visible config when none is given, with the
    extra ``config_dirs`` (``--configs``) searched before the bundled configs."""
    report = Report()
    targets: list[tuple[str, Path]] = []
    given: list[Path] = []  # the folders of the paths given, searched in their order, before ``config_dirs``
    for raw in paths or []:
        path = Path(raw)
        try:
            path.stat()
        except OSError as exc:  # a name too long said "cannot write the output" (a fuzzer's): the CLI's last resort
            why = "no such file or folder" if isinstance(exc, FileNotFoundError) else f"cannot read: {exc.strerror}"
            report.errors.append(ConfigError(why, str(path)))
            continue
        if path.is_dir():
            try:
                found, unread = folder_files(path)
            except ConfigError as exc:  # its games/ unreadable: said in the report, the other paths checked (it
                report.errors.append(exc)  # ended the command, the other paths' results and the JSON lost)
                continue
            report.errors += [ConfigError(UNREAD, str(p)) for p in unread]
            if not found:
                report.errors.append(ConfigError("no games/, decks/ or variants/ folder with YAML files", str(path)))
            targets += found
            given.append(path)
        elif path.parent.name in KINDS and path.suffix != ".yaml":  # --configs would skip it
            report.errors.append(ConfigError(UNREAD, str(path)))
        else:
            kind = path.parent.name if path.parent.name in KINDS else None
            targets.append((kind or "", path))
            if kind:
                given.append(path.parent.parent)
    roots = list(dict.fromkeys([*given, *(config_dirs or [])]))
    if not paths:  # what commands read, and any file of a --configs folder an earlier one hides (said so: _shadow)
        targets = [(k, p) for k in KINDS for p in Catalog.with_folders(roots).paths(k).values()]
        targets += [(k, p) for root in roots for k, p in folder_files(root)[0] if (k, p) not in targets]
    # A file outside a games/, decks/ or variants/ folder is of the kind its fields say, and it is
    # the config of its id here, over any other (otherwise the bundled namesake would be checked);
    # its file name is free, as no folder looks it up by that name.
    documents: list[tuple[str, str, Document]] = []
    loose: list[tuple[str, str, Path]] = []
    seen: set[Path] = set()
    for kind, path in targets:
        if _resolved(path) in seen:  # a folder and a file of it: checked once (its errors and notes said once)
            continue
        seen.add(_resolved(path))
        report.checked += 1
        try:
            doc = read_document(path)
        except ConfigError as exc:
            report.errors.append(exc)
            continue
        ident = path.stem
        if not kind:
            kind = _guess_kind(doc)
            given = doc.data.get("id") if isinstance(doc.data, dict) else None
            ident = given if isinstance(given, str) else ident
            loose.append((kind, ident, path))
        documents.append((kind, ident, doc))
    catalog = Catalog.with_folders(roots, files=loose)
    aliases = catalog.alias_entries  # a broken variant file's are unknown: it is reported at its lines below
    games: list[tuple[str, Document]] = []
    bad_decks: set[str] = set()  # reported at their own files; their games are not checked on top
    bundled = {kind: Catalog([bundled_root()]).paths(kind) for kind in KINDS}
    used = {kind: Catalog.with_folders(config_dirs or []).paths(kind) for kind in KINDS}  # what commands read
    for kind, ident, doc in documents:
        errors = _misplaced(kind, doc) or Catalog.check_document(kind, doc, ident)
        note = None if errors else _shadow(doc, kind, ident, bundled[kind].get(ident), used[kind].get(ident))
        if note:
            report.notes.append(note)
        if kind == "decks" and not errors:
            errors += check_deck(doc)
            if errors:
                bad_decks.add(ident)
        if kind == "variants" and not errors:
            errors += catalog.variant_errors(doc) + _alias_clashes(aliases, doc, catalog, documents)
        if kind == "games" and errors:  # its options' errors too, in the same run
            errors += _option_errors(doc)
        report.errors.extend(errors)
        if kind == "games" and not errors:
            games.append((ident, doc))
    checked = {gid for gid, _ in games}
    if paths:
        games += _games_taking(catalog, documents, checked)
    for gid, doc in games:
        if doc.data["deck"]["type"] not in bad_decks:
            _check_game(_naming(catalog, roots, loose, gid, doc), aliases, gid, doc, report, gid in checked)
    return report


def _resolved(path: Path) -> Path:
    """``path`` resolved, or as given where it cannot be (a symlink loop: its reading then says so, in one line)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _naming(catalog: Catalog, roots: list[Path], loose: list[tuple[str, str, Path]], gid: str,
            doc: Document) -> Catalog:
    """A catalog in which ``gid`` names the game file ``doc``: ``catalog`` itself, or for a file another of its
    id hides (two folders given, or two ``--configs`` folders), one with it put first, so that a game is checked
    as its own file says and not as the one hiding it (which was checked, and its errors said, twice)."""
    shown = catalog.paths("games").get(gid)
    if shown is not None and _resolved(shown) == _resolved(Path(doc.path)):
        return catalog
    return Catalog.with_folders(roots, files=[*loose, ("games", gid, Path(doc.path))])


def _shadow(doc: Document, kind: str, ident: str, bundled: Path | None, used: Path | None) -> str | None:
    """What a designer's file in a kind's folder, read by ``--configs`` (searched first), does to a config of its
    id elsewhere, or None: it replaces a bundled one (meant for a rule change, a surprise for a new game: a
    designer's "Quarry" saved as eiffel-tower.yaml made ``list`` show eiffel-tower as Quarry, unsaid), or is
    itself hidden by one in a ``--configs`` folder searched before its own (a fuzzer's finding). A file outside
    such a folder replaces nothing, as ``--configs`` does not read it."""
    path = Path(doc.path)
    if path.parent.name not in KINDS:
        return None
    if used is not None and used != bundled and _resolved(used) != _resolved(path):
        return (f"{doc.path} is hidden by {used}, of a config folder searched before it (--configs or "
                "CARDGAMES_CONFIGS): commands read that one")
    if bundled is not None and _resolved(path) != _resolved(bundled):
        return f"{doc.path} replaces the bundled {kind[:-1]} {ident!r} (the same id; another id adds one beside it)"
    return None


def _games_taking(catalog: Catalog, documents: list[tuple[str, str, Document]],
                  checked: set[str]) -> list[tuple[str, Document]]:
    """The other games, bundled ones included, whose deck or one of whose variants is among the decks
    and variants checked: a folder's variant or deck is checked where ``--configs`` would put it to
    use, since one that breaks a bundled game (a layout beyond the deck, a deck without a rank the
    match needs) would otherwise pass here and fail only in play (an auditor's finding)."""
    decks = {ident for kind, ident, _ in documents if kind == "decks"}
    variants = {ident for kind, ident, _ in documents if kind == "variants"}
    taking: list[tuple[str, Document]] = []
    if not (decks or variants):
        return taking
    for gid in catalog.paths("games"):
        if gid in checked:
            continue
        try:
            doc = catalog.document("games", gid)
        except ConfigError:  # a game file that cannot be read, or breaks its schema, is its own folder's to report
            continue
        if doc.data["deck"]["type"] in decks or variants & set(catalog.game_variants(gid)):
            taking.append((gid, doc))
    return taking


# A key only one kind of config has, and so names its kind.
_SIGNATURES = (("engine", "games"), ("applies_to", "variants"), ("suits", "decks"), ("cards", "decks"))


def _signature(doc: Document) -> tuple[str, str] | None:
    """The first key of :data:`_SIGNATURES` a config holds, and the kind it names, or None."""
    data = doc.data if isinstance(doc.data, dict) else {}
    return next(((key, owner) for key, owner in _SIGNATURES if key in data), None)


def _misplaced(kind: str, doc: Document) -> list[ConfigError]:
    """One error for a config in another kind's folder (a game file saved in ``decks/``), which its
    folder's schema would otherwise refuse key by key (seven lines for a game's keys)."""
    signed = _signature(doc)
    if signed is None or signed[1] == kind:
        return []
    key, owner = signed
    return [doc.key_error((key,), f"a {owner[:-1]} config (it has {key!r}) in a {kind}/ folder: {owner}/ holds "
                                  f"{owner}")]


def _guess_kind(doc: Document) -> str:
    """The kind of a file outside a kind's folder, by the keys it holds (a deck by default)."""
    signed = _signature(doc)
    return "decks" if signed is None else signed[1]


#: A problem as validate meets it: the file it is said in, its key path, its text, the variants, the player counts.
_Met = tuple[Document, tuple, str, tuple[str, ...], list[int]]


def _alike(met: Iterable[_Met]) -> list[_Met]:
    """Problems met at one line, said once where their texts differ only in numbers and at other player counts
    ("deals 161 cards for 3 players", "deals 165 cards for 4 players"): the first text, its counts and the
    others'. Texts alike at one count are different problems (a deck's cards '2C' and '3C'), said apart (a
    designer's finding: they were merged into "likewise at 2, 2, 2, 2-3, ... players")."""
    groups: dict[tuple, list[_Met]] = {}
    for origin, keypath, text, variants, at in met:
        kin = groups.setdefault((origin.path, origin.line(keypath), variants, re.sub(r"\d+", "#", text)), [])
        into = next((problem for problem in kin if not set(problem[4]) & set(at)), None)
        if into is None:
            kin.append((origin, keypath, text, variants, list(at)))
        else:
            into[4].extend(at)
    return [problem for kin in groups.values() for problem in kin]


def _option_errors(game: Document) -> list[ConfigError]:
    """A game file's options checked against its engine's schema, every error of them: resolving a game
    stops at the first, and a file with other errors is not resolved at all, so a CI author fixing one
    error met the next only on the next run. None when the engine is unknown or the options are no
    mapping, which the file's own errors say."""
    from .registry import ENGINES, engine_module

    data = game.data if isinstance(game.data, dict) else {}
    engine, options = data.get("engine"), data.get("options")
    if not isinstance(engine, str) or engine not in ENGINES or not isinstance(options, dict):
        return []
    return check_mapping(options, engine_module(engine).OPTIONS, game, ("options",))


def _fault(error: ConfigError) -> object:
    """What makes two errors one: a merged table's fault whatever game it names (one bad value in a
    variant reaching a whole family is one line, not one a game), else the text."""
    return error.fault if isinstance(error, MergedTableError) else str(error)


def _alias_clashes(aliases: list[tuple[str, str, str, int]], variant: Document, catalog: Catalog,
                   documents: list[tuple[str, str, Document]]) -> list[ConfigError]:
    """A variant's aliases that another alias template makes too (the name then means none of
    them: ``Catalog.lookup``), or that a game's id is, where that game's file is not among those
    checked (one that is takes the error at its id line, :func:`_check_game`): a designer's
    variant reaching a bundled game is mended at its own alias line, not at the bundled file."""
    vid = variant.data["id"]
    checked = {ident for kind, ident, _ in documents if kind == "games"}
    games = set(catalog.paths("games"))
    errors = []
    for alias, gid, owner, index in aliases:
        if owner != vid:
            continue
        if alias in games and alias not in checked:
            errors.append(variant.error(("aliases", index), f"alias {alias!r} ({gid} + {vid}) is also a game's id, "
                                                             "which it keeps naming"))
        for other_alias, other_gid, other, other_index in aliases:
            if other_alias == alias and (other, other_index) != (owner, index):
                errors.append(variant.error(("aliases", index), f"alias {alias!r} ({gid} + {vid}) is also "
                                                                 f"variant {other}'s alias of {other_gid}"))
    return errors


def _settings(overlay: dict[str, Any], prefix: str = "") -> Iterable[str]:
    """A variant's options as a designer writes them, a table's keys dotted (``points.flush: 30``)."""
    for key, value in overlay.items():
        if isinstance(value, dict) and value:
            yield from _settings(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}: {written(value)}"


def _check_game(catalog: Catalog, aliases: list[tuple[str, str, str, int]], gid: str, doc: Document,
                report: Report, own: bool) -> None:
    """Check game ``gid`` (its file ``doc``) with each variant it plays at each player count. ``own``:
    its file is among those checked, not a game checked for the decks and variants it takes (whose
    alias clashes are then the variant's, :func:`_alias_clashes`)."""
    from .registry import ENGINES, engine_module, located

    data = doc.data
    for alias, target, vid, _ in aliases if own else ():
        if alias == gid:  # the name keeps meaning this game; the alias is lost
            report.errors.append(doc.error(("id",), f"id {gid!r} is also variant {vid}'s alias of {target}"))
    if data["engine"] not in ENGINES:
        report.errors.append(doc.error(("engine",), f"unknown engine {data['engine']!r} (known: {', '.join(ENGINES)})"))
        return
    try:
        module = engine_module(data["engine"])
    except CardgamesError as exc:  # a contributor's half-built engine: said at the line of a game it plays
        report.errors.append(doc.error(("engine",), str(exc)))
        return
    for problem in (catalog.family_clash(doc), catalog.unknown_deck(doc), catalog.unknown_variant(doc)):
        if problem is not None:
            report.errors.append(problem)
            return
    for i, vid in enumerate(data["variants"]):
        try:
            misfit = catalog.variant_misfit(doc, gid, i)
        except ConfigError:  # the variant file's own error is reported with the files checked
            return
        if misfit is not None:
            report.errors.append(misfit)
            return
        overlay = catalog.variant(vid)["options"]
        # compared as JSON, so that a variant's `strict: 0` (an error of its own) does not also "change nothing"
        # in each game already strict, as Python's 0 == False had it say
        if same_json(merged(data["options"], overlay), data["options"]):  # its alias: the game again
            why = (f"whose options already are what it sets ({', '.join(_settings(overlay))})" if overlay else
                   "as it sets no option")
            report.errors.append(doc.error(("variants", i), f"variant {vid} changes nothing in {gid}, {why}"))
    option_errors = _option_errors(doc)
    if option_errors:
        report.errors.extend(option_errors)
        return
    seen: dict[str, tuple[str, ...]] = {}  # a problem's text -> the variants it was first met with
    # A problem met at several player counts, its numbers aside, is said once, at its first count, with
    # the others named (:func:`_alike`): Turup with ``players.max: 64`` had 26 lines that differed only in
    # the count. Here each text is kept with the counts it was met at.
    met: dict[tuple, _Met] = {}
    unplayable = getattr(module, "unplayable", None)
    refusals: dict[int, str] = {}  # why the game without variants cannot be played, at each count that cannot
    default = data["players"]["default"]
    named = {vid: alias for alias, game, vid, _ in reversed(aliases) if game == gid}  # each variant's first alias
    by_alias: list[tuple[str, str, str]] = []  # (alias, variant, why) of an alias its game's default cannot play
    counts = range(data["players"]["min"], data["players"]["max"] + 1)
    plays = catalog.game_variants(gid)  # those it lists, and any other that names it or its family
    for players in counts:
        for variants in [(), *((v,) for v in plays)]:
            try:
                spec = catalog.resolve(gid, variants, players)
            except ConfigError as exc:  # once, however many games and player counts meet it (a variant file's),
                # the game a merged table names being the first that met it
                if all(_fault(exc) != _fault(e) for e in report.errors):
                    report.errors.append(exc)
                if not variants:  # the game's own error: with a variant it is met again, perhaps reworded
                    break  # (fewer keys missing); the variants' files are checked on their own
                continue
            why = unplayable(spec) if unplayable is not None else None
            if why:
                if not variants:
                    refusals[players] = why
                elif players == default and variants[0] in named:  # `simulate --game ALIAS` plays the default
                    by_alias.append((named[variants[0]], variants[0], why))
                continue
            try:
                problems = module.check_config(spec)
            except CardgamesError as exc:  # a deck the engine cannot build: said once, at the game's deck
                problems = [(("deck", "type"), str(exc))]
            for problem in problems:
                keypath, text = located(problem)
                first = seen.setdefault(text, variants)
                if first != variants and variants:  # said already, without or with another variant
                    continue
                if first != variants:  # the game's own, met first with a variant at a count the game cannot deal
                    seen[text] = variants  # (a designer's: it was left the variant's, the game's never said)
                # said first without variants (``seen``), a problem met with one is the variant's doing, even
                # where it shows at a key of the game's
                deck, keypath = catalog.deck_line(spec, keypath)
                if deck is not None:  # the deck's alone: once, at its line, for every game taking it
                    error = deck.error(keypath, text)
                    if all(str(error) != str(e) for e in report.errors):
                        report.errors.append(error)
                    continue
                origin = catalog.variant_origin(spec, keypath) or (catalog.made_by_variants(spec, keypath, variants)
                                                                   if variants else doc)
                # alike at one line: a variant's, met at several rows of the game's deal, is said once
                key = (origin.path, origin.line(keypath), variants, text)
                met.setdefault(key, (origin, tuple(keypath), text, variants, []))[4].append(players)
            facts = getattr(module, "deal_facts", None)
            if facts is not None and not problems:  # a deal the problems just reported has no facts (-12 cards left)
                report.facts.append({"game": gid, "players": players, "variants": list(variants), **facts(spec)})
    deck = catalog.designers_deck(doc)
    for origin, keypath, text, variants, at in _alike(met.values()):
        setup = [gid] if origin.path != doc.path else []  # a variant's line: the variant may reach many games
        # the very text at every count (a deck's ranks), or at a solitaire's one count: which counts says nothing
        # (designers' findings; "(1 player)" after every problem of a pairing game)
        its_counts = met[origin.path, origin.line(keypath), variants, text][4]  # the counts of this very text
        everywhere = len(set(its_counts)) == len(counts)
        if everywhere and len(counts) > 1:
            setup.append("every player count")
        elif not everywhere and not re.search(rf"\b{at[0]} players?\b", text):  # not twice ("deals 161 cards
            # for 3 players (3 players)")
            setup.append(counted(at[0], "player"))
        notes = [", ".join([*setup, *(["+".join(variants)] if variants else [])])]
        if len(at) > 1 and not everywhere:
            notes.append(f"likewise at {spans(sorted(at[1:]))} players")
        if deck is not None and origin.path == doc.path:
            notes.append(f"its deck is {deck}")
        where = "; ".join(note for note in notes if note)
        report.errors.append(origin.error(keypath, f"{text} ({where})" if where else text))
    if counts and len(refusals) == len(counts):  # nothing above was checked: say why
        report.errors.append(doc.error(("players",), f"no player count in {counts[0]}..{counts[-1]} can play "
                                                     f"this game: {refusals[counts[0]]}"))
    elif default in refusals:  # what `simulate --game G` plays (a designer's finding: validate passed a game that
        # only refused to play there, its message blaming the command line), and `simulate --game ALIAS` too
        report.errors.append(doc.error(("players", "default"), f"players.default is {default}, which cannot play "
                                                               f"this game: {refusals[default]}"))
    else:
        for alias, vid, why in by_alias:
            report.errors.append(doc.error(("players", "default"), f"players.default is {default}, which cannot "
                                                                   f"play {alias!r} ({gid} + {vid}): {why}"))
