"""The config catalog: find, check and resolve game, deck and variant configs.

Configs live in ``configs/{games,decks,variants}/<id>.yaml`` inside the installed package;
extra directories of the same shape (``--configs DIR`` or ``CARDGAMES_CONFIGS``) are searched
first, so a designer can add or override a game with YAML alone.

Resolving a game (``Catalog.resolve``) applies variants in order as overlays on its
``options``, checks the result against the engine's option schema, and computes the
``config_sha256`` that logs carry: the SHA-256 of the canonical JSON (sorted keys, compact) of
every rule-relevant part of the resolved config (engine, deck, copies, options, players,
variants). The game's and the deck's own names and descriptions do not enter the hash, so
editing prose never breaks a log (card and suit names do: logs name cards).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping

from . import MAX_PLAYERS, env_config_folders
from .errors import ConfigError, OptionConflictError, UnknownNameError
from .schema import (
    BOOL,
    INT,
    LIST,
    MAP,
    STR,
    Field,
    between,
    check_mapping,
    check_value,
    close_key,
    kebab_case,
    one_token,
    player_count,
)
from .wording import counted, did_you_mean, spans, written
from .yamlfile import Document, read_document

KINDS = ("games", "decks", "variants")
#: The most copies of a deck a game may use (the games here use 1-3).
MAX_COPIES = 16

_NAMED = {"id": Field(STR, "card or group id", check=one_token), "name": Field(STR, "readable name", required=False)}

# An explicit card: its name, and the attributes the engines read, typed (others are free, such as a
# Towers card's alignment, which its engine checks).
_CARD_FIELDS = {
    "name": Field(STR, "unique card name", check=one_token),
    "suit": Field(STR, "the suit it belongs to, one of the deck's suits where it lists them", required=False),
    "value": Field(INT, "numeric value", required=False),
    "family": Field(STR, "card family outside the suits (e.g. trump), with its own match value", required=False),
    "wild": Field(BOOL, "wild when pairing (the Fool, the Wizards)", required=False),
    "foundation": Field(BOOL, "a Towers foundation card", required=False),
    "alignment": Field(STR, "a Towers card's alignment: the cell of its 3x3 grid its suit symbol shows in "
                            "(Towers names the nine it knows)", required=False),
}

DECK_FIELDS = {
    "id": Field(STR, "deck id (kebab-case), equal to the file name", check=kebab_case),
    "name": Field(STR, "readable name"),
    "description": Field(STR, "what the deck is", required=False),
    "source": Field(STR, "where the composition comes from", required=False),
    "designed_by_project": Field(BOOL, "true when no published composition exists", required=False),
    "card_name": Field(STR, "name template for suited cards: {rank} {suit} {value} {rank_name} {suit_name}, "
                       "each alone (no attribute, index or !conversion), a format's widths of at most 2 digits "
                       "({value:03d})", required=False, check=one_token),
    "suits": Field(LIST, "the suits, in order", required=False, items=Field(MAP, fields=_NAMED, open=True)),
    "ranks": Field(LIST, "the ranks of every suit, in the deck's order (low to high by convention: the rules read "
                         "each rank's value, not its place)", required=False,
                   items=Field(MAP, fields={**_NAMED, "value": Field(INT, "numeric value"),
                                            "face": Field(BOOL, "a face card (J, Q, K)", required=False)},
                               open=True)),
    "cards": Field(LIST, "cards outside the suits x ranks product", required=False,
                   items=Field(MAP, fields=_CARD_FIELDS, open=True)),
}

#: A deck's prose: not part of the rules, so not of the config hash.
DECK_PROSE = frozenset(("name", "description", "source", "designed_by_project"))

GAME_FIELDS = {
    "id": Field(STR, "game id (kebab-case), equal to the file name", check=kebab_case),
    "name": Field(STR, "readable name"),
    "family": Field(STR, "family of games sharing an engine (pairing, torqu, ...)"),
    "engine": Field(STR, "rules module that plays it"),
    "description": Field(STR, "one paragraph", required=False),
    "source": Field(STR, "the seed document the rules come from", required=False),
    "docs": Field(STR, "the rules page", required=False),
    "players": Field(MAP, "player counts", fields={
        "min": Field(INT, "fewest players", check=between(1, MAX_PLAYERS)),
        "max": Field(INT, "most players", check=between(1, MAX_PLAYERS)),
        "default": Field(INT, "player count when none is given", check=between(1, MAX_PLAYERS)),
    }),
    "deck": Field(MAP, "which deck and how many copies", fields={
        "type": Field(STR, "deck id"),
        "copies": Field(INT, "physical decks used", check=between(1, MAX_COPIES)),
        "copies_by_players": Field(MAP, "from N players up, use this many copies: {5: 2, 8: 3}",
                                   required=False, open=True, check=lambda m: _check_thresholds(m)),
    }),
    "options": Field(MAP, "the engine's options: every rule number and switch"),
    "variants": Field(LIST, "variants the game is designed with, shown first (it also plays any other variant whose "
                            "applies_to names it or its family)", items=Field(STR)),
}

VARIANT_FIELDS = {
    "id": Field(STR, "variant id (kebab-case), equal to the file name", check=kebab_case),
    "name": Field(STR, "readable name"),
    "description": Field(STR, "what the variant changes", required=False),
    "applies_to": Field(LIST, "the families and game ids that play the variant", items=Field(STR)),
    "options": Field(MAP, "option values the variant sets on top of the game's"),
    "aliases": Field(LIST, "game-id templates such as 'strict-{game}'", required=False,
                     items=Field(STR, check=lambda t: _alias_problem(t))),
    "title": Field(STR, "the readable name of a game under this variant, a template such as 'Strict {game}' "
                        "(without one, ' + <name>' is added to the game's name)", required=False,
                   check=lambda t: _title_problem(t)),
}


def game_title(game_name: str, variants: Iterable[Mapping[str, Any]]) -> str:
    """A game's readable name under ``variants``, in order: each variant's ``title`` template
    applied to the name so far ("Strict Castle", as the seed names it), or " + <its name>" added
    ("Torqu + Death"). ``list`` shows aliases by it and every resolved game carries it."""
    name = game_name
    for variant in variants:
        name = variant["title"].format(game=name) if "title" in variant else f"{name} + {variant['name']}"
    return name


@dataclass(frozen=True)
class GameSpec:
    """An immutable, fully resolved game: everything a Game needs, nothing it must look up."""

    id: str
    name: str
    family: str
    engine: str
    players: int
    variants: tuple[str, ...]
    deck: Mapping[str, Any]
    copies: int
    options: Mapping[str, Any]

    def canonical(self) -> dict[str, Any]:
        """The rule-relevant resolved config, as plain JSON-able data (what the hash covers).
        The variants are sorted: the order they were applied in matters only through the
        options, which are here resolved, so two orders giving the same rules hash alike."""
        return {"game": self.id, "engine": self.engine, "players": self.players,
                "variants": sorted(self.variants),
                "deck": {k: v for k, v in _thaw(self.deck).items() if k not in DECK_PROSE}, "copies": self.copies,
                "options": _thaw(self.options)}

    @cached_property
    def sha256(self) -> str:
        import orjson

        return hashlib.sha256(orjson.dumps(self.canonical(), option=orjson.OPT_SORT_KEYS)).hexdigest()


#: The first key of a ``check_config`` problem's path when the problem lies in the game's deck file, the rest of
#: the path being the deck file's (``(DECK_FILE, "cards", 3, "alignment")``): a card's mistake is mended there,
#: so it is said there, once for every game taking the deck, not at each game's ``deck`` line.
DECK_FILE = "<deck file>"


#: Why a config-like file or a folder inside ``games/``, ``decks/`` or ``variants/`` counts for nothing.
UNREAD = "not read: config files end in .yaml and lie directly in games/, decks/ or variants/"


def folder_files(folder: Path) -> tuple[list[tuple[str, Path]], list[Path]]:
    """A config folder's files: (kind, path) of each ``games/``, ``decks/`` or ``variants/`` YAML file the
    catalog reads, and what it does not read but a designer may have meant it to (:data:`UNREAD`): files
    ending in ``.yml`` or in ``.yaml`` spelt otherwise (``.YAML``), and folders, whose files are not
    looked into. Anything else (a README) is left alone. A folder that cannot be read is a ConfigError
    (``glob`` passed over one in silence: its games were unknown, and ``validate`` said all was valid)."""
    read, unread = [], []
    for kind in KINDS:
        try:
            entries = sorted((folder / kind).iterdir()) if (folder / kind).is_dir() else []
        except OSError as exc:
            raise ConfigError(f"{folder / kind}: cannot read folder: {exc.strerror or exc}") from None
        for path in entries:
            if path.suffix == ".yaml":  # a folder named so is read, and said to be one
                read.append((kind, path))
            elif path.suffix.lower() in (".yaml", ".yml") or (path.is_dir() and not path.name.startswith(".")):
                unread.append(path)
    return read, unread


def extra_roots(folders: Iterable[str | Path]) -> list[Path]:
    """Extra config folders (``--configs DIR``, CARDGAMES_CONFIGS), each checked to hold configs where the
    catalog looks: one that does not (its ``games/`` given instead, a ``game/`` folder, files saved as
    ``.yml``) would leave every command on the bundled rules, silently, and a rules check in CI would pass
    without playing the change."""
    roots = []
    for folder in map(Path, folders):
        read, unread = folder_files(folder)
        if unread:
            raise ConfigError(f"{unread[0]}: {UNREAD}")
        if not read:
            raise ConfigError(f"{folder} holds no games/, decks/ or variants/ folder with .yaml files")
        roots.append(folder)
    return roots


def bundled_root() -> Path:
    """The configs installed with the package (``configs/``), which every catalog reads first."""
    from importlib.resources import files

    return Path(str(files("cardgames.configs")))


class Catalog:
    """All configs visible from a list of roots (earlier roots win), and single files of a
    known kind and id, which win over every root (``validate FILE`` on a file outside a config
    folder: there no folder makes the file name the id, so the file's own ``id`` is)."""

    def __init__(self, roots: Iterable[Path] | None = None, files: Iterable[tuple[str, str, Path]] = ()):
        if roots is None:  # the scripts' and the library's catalog: the CLI passes its --configs roots
            roots = [*extra_roots(env_config_folders()), bundled_root()]
        self.roots = [Path(r) for r in roots]
        self.files = [(kind, ident, Path(path)) for kind, ident, path in files]
        self._docs: dict[tuple[str, str], Document] = {}
        self._unread_variants: list[ConfigError] = []  # the variant files ``alias_entries`` could not read

    @classmethod
    def with_folders(cls, folders: Iterable[str | Path], files: Iterable[tuple[str, str, Path]] = ()) -> "Catalog":
        """The catalog of extra config ``folders`` (``--configs``), searched before the bundled configs."""
        return cls([*map(Path, folders), bundled_root()], files)

    # -- finding files -------------------------------------------------------------------
    def paths(self, kind: str) -> dict[str, Path]:
        """``id -> path`` of every config of one kind (in a folder, the file stem is the id)."""
        found: dict[str, Path] = {}
        for root in reversed(self.roots):
            folder = root / kind
            if folder.is_dir():
                for path in sorted(folder.glob("*.yaml")):
                    found[path.stem] = path
        found.update((ident, path) for k, ident, path in self.files if k == kind)
        return dict(sorted(found.items()))

    def ids(self, kind: str) -> list[str]:
        return list(self.paths(kind))

    def deck_line(self, spec: GameSpec, keypath: tuple) -> tuple[Document | None, tuple]:
        """Where a ``check_config`` problem of ``spec`` at ``keypath`` is said: (the deck file, the path in it)
        for a path that starts with :data:`DECK_FILE`, when the deck is a designer's; else (None, the path in the
        game file), a bundled deck's problem being the choice of it, at the game's ``deck.type`` (a designer's
        game on a bundled deck of another game must not be sent to mend the installed package)."""
        if keypath[:1] != (DECK_FILE,):
            return None, keypath
        deck = self.document("decks", spec.deck["id"])
        if _bundled(deck):
            return None, ("deck", "type")
        return deck, keypath[1:]

    def designers_deck(self, game: Document) -> Path | None:
        """The deck file ``game`` takes when it is a designer's (not bundled) from another folder than the game's,
        else None. A problem at such a game's line may be the deck's doing, and the deck is then what changed,
        while the game's line alone hides it (the CI author's walkthrough: a French deck without its King, under
        ``--configs``, was blamed on the bundled games' match lines): ``validate`` and a command name it."""
        path = self.paths("decks").get(game.data["deck"]["type"])
        if path is None or path.is_relative_to(bundled_root()) or path.parent.parent == Path(game.path).parent.parent:
            return None
        return path

    def document(self, kind: str, ident: str) -> Document:
        """The parsed config ``kind/ident``; schema-checked once (first error raised)."""
        key = (kind, ident)
        if key not in self._docs:
            paths = self.paths(kind)
            if ident not in paths:
                raise UnknownNameError(kind[:-1], ident, list(paths))
            doc = read_document(paths[ident])
            errors = self.check_document(kind, doc, ident)
            if errors:
                raise errors[0]
            self._docs[key] = doc
        return self._docs[key]

    @staticmethod
    def check_document(kind: str, doc: Document, ident: str | None = None) -> list[ConfigError]:
        """Schema errors of one document of ``kind`` (without cross-file checks)."""
        fields = {"games": GAME_FIELDS, "decks": DECK_FIELDS, "variants": VARIANT_FIELDS}[kind]
        data, errors = doc.data, []
        if kind == "variants" and isinstance(data, dict) and "players" in data:  # said why, not only "unknown key"
            # (a designer's finding; a deal row past the players a game seats is said likewise)
            data = {key: value for key, value in data.items() if key != "players"}
            errors.append(doc.key_error(("players",), "a variant cannot change a game's players; a game file can "
                                                      "(copy the game's into your --configs folder)"))
        errors += check_mapping(data, fields, doc)
        if not errors and ident is not None and doc.data["id"] != ident:
            errors.append(doc.error(("id",), f"id {doc.data['id']!r} differs from the file name {ident!r}"))
        if not errors and kind == "games":
            players = doc.data["players"]
            if not players["min"] <= players["default"] <= players["max"]:
                errors.append(doc.error(("players",), f"players: need min <= default <= max, not min {players['min']}, "
                                                      f"default {players['default']}, max {players['max']}"))
        return errors

    def game(self, ident: str) -> dict[str, Any]:
        return self.document("games", ident).data

    def deck(self, ident: str) -> dict[str, Any]:
        return self.document("decks", ident).data

    def variant(self, ident: str) -> dict[str, Any]:
        return self.document("variants", ident).data

    def _misfit(self, vid: str, gid: str, game: Mapping[str, Any]) -> str | None:
        """Why variant ``vid`` does not apply to game ``gid`` (its file's data ``game``): its
        ``applies_to`` names neither the game nor its family; else None."""
        applies = self.variant(vid)["applies_to"]
        if gid in applies or game["family"] in applies:
            return None
        return f"variant {vid!r} applies to {', '.join(applies) or 'no game'}, not to {gid} (family {game['family']})"

    def variant_misfit(self, doc: Document, gid: str, index: int) -> ConfigError | None:
        """The error at game ``gid``'s ``variants[index]`` (``doc`` its file) when that variant does
        not apply to the game (:meth:`_misfit`), else None. ``validate`` reports it, and every command
        resolving the game stops on it, at the game's line, where it is to be mended."""
        why = self._misfit(doc.data["variants"][index], gid, doc.data)
        return None if why is None else doc.error(("variants", index), why)

    def takes(self, gid: str, vid: str) -> bool:
        """Whether game ``gid`` plays variant ``vid``: the game lists it, or the variant's
        ``applies_to`` names the game or its family. Either side may name the other, so that a
        designer's variant for a bundled game is one file (``applies_to: [torqu]``), with no copy
        of the game's file to list it (the designer audit's finding); a game's list is what it is
        designed with, and each variant on it must apply to it (:meth:`variant_misfit`)."""
        game = self.game(gid)
        return vid in game["variants"] or (vid in self.paths("variants") and self._misfit(vid, gid, game) is None)

    def game_variants(self, gid: str) -> list[str]:
        """The variants game ``gid`` plays (:meth:`takes`): those its file lists, in its order,
        then the others in id order. A variant file that cannot be read is left out here: it is
        reported at its own lines, by ``validate`` and by any command that names it."""
        listed = list(self.game(gid)["variants"])
        others = []
        for vid in self.ids("variants"):
            if vid in listed:
                continue
            try:
                if self.takes(gid, vid):
                    others.append(vid)
            except ConfigError:
                continue
        return listed + others

    def variant_origin(self, spec: "GameSpec", keypath: tuple) -> Document | None:
        """The last of ``spec``'s variants that sets ``keypath`` of its resolved config (a list's
        item by its index), where a problem with that value is to be mended, or None when the
        game's own file does."""
        found = None
        for vid in spec.variants:
            doc = self.document("variants", vid)
            if _depth(doc.data, keypath) == len(keypath):
                found = doc
        return found

    def made_by_variants(self, spec: "GameSpec", keypath: tuple, culprits: Iterable[str]) -> Document:
        """Where to mend a problem at ``keypath`` that ``spec``'s variants made (the game alone
        does not have it) though none of them sets that key: it comes of a variant's value and the
        game's together. ``culprits``: the variants that make it (each alone, or, if none does,
        all together). The one that merged a table on the path is at fault (a Straight Flush the
        game's, below the Straight its ``points`` gave), else the last of them (an exposed count it
        set, against the game's deal), unless that file is bundled and the game's is a designer's
        (a Torqu copy whose points fit only without the bundled Death): the file to mend is the one
        the designer wrote."""
        docs = [self.document("variants", vid) for vid in culprits]
        depth = [_depth(doc.data, keypath) for doc in docs]
        found = docs[max(range(len(docs)), key=lambda i: (depth[i] > 1, i))]  # below ``options``, then the last
        game = self.document("games", spec.id)
        return game if _bundled(found) and not _bundled(game) else found

    def family_clash(self, game: Document) -> ConfigError | None:
        """The error at ``game``'s ``family`` line when other games play that family with another engine, or
        None. A family is games sharing an engine, and its variants are checked against that engine: a
        designer's game given the family ``torqu`` and the pairing engine made every Torqu variant look
        wrong at its own, bundled, line. The family's engine is its bundled games' if it has any, else its
        first game's by id."""
        family = game.data["family"]
        members = []
        for gid in self.ids("games"):
            try:
                doc = self.document("games", gid)
            except ConfigError:  # reported at its own lines
                continue
            if doc.data["family"] == family:
                members.append(doc)
        owner = next((doc for doc in members if _bundled(doc)), members[0] if members else game)
        engine = owner.data["engine"]
        if engine == game.data["engine"]:
            return None
        return game.error(("family",), f"family {family!r} is played by the {engine} engine (game "
                                       f"{owner.data['id']}), not {game.data['engine']}: give this game a family of "
                                       f"its own, or that engine")

    def unknown_deck(self, game: Document) -> ConfigError | None:
        """The error for a game whose deck type no deck file has, at the game file's ``type:``
        line (that is what to mend), or None. Every command and ``validate`` report it alike."""
        deck_type = game.data["deck"]["type"]
        if deck_type in self.paths("decks"):
            return None
        return game.error(("deck", "type"), str(UnknownNameError("deck", deck_type, self.ids("decks"))))

    def unknown_variant(self, game: Document) -> ConfigError | None:
        """The error for the first variant a game lists that no variant file has, at that entry of the game's
        ``variants:`` (what is to be mended), or None. Every command resolving the game and ``validate`` report it
        alike: a command that went on played the game, exit 0, while its file named a variant that is nowhere, and
        naming that variant said "did you mean" it (a bad-input audit's finding)."""
        known = self.paths("variants")
        for index, vid in enumerate(game.data["variants"]):
            if vid not in known:
                return game.error(("variants", index), str(UnknownNameError("variant", vid, list(known))))
        return None

    # -- names -------------------------------------------------------------------------
    @property
    def unread_variants(self) -> list[ConfigError]:
        """The errors of the variant files that cannot be read, which :attr:`alias_entries` leaves out."""
        _ = self.alias_entries
        return list(self._unread_variants)

    @cached_property
    def alias_entries(self) -> list[tuple[str, str, str, int]]:
        """``(alias, game id, variant id, template index)`` for every game offering a variant
        with alias templates, in variant then game order, clashes included (``validate``'s). A
        variant or game file that cannot be read is left out: it is reported at its own lines, by
        ``validate`` and by any command that names it, and does not stop the others' names."""
        entries = []
        for vid in self.ids("variants"):
            try:
                templates = self.variant(vid).get("aliases", [])
            except ConfigError as exc:
                self._unread_variants.append(exc)
                continue
            for index, template in enumerate(templates):
                for gid in self.ids("games"):
                    try:
                        offers = self.takes(gid, vid)
                    except ConfigError:
                        continue
                    if offers:
                        entries.append((template.format(game=gid), gid, vid, index))
        return entries

    @cached_property
    def aliases(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """``alias -> [(game id, variants)]``: one meaning, or several when templates of different
        variants, or for different games, make one name (``validate`` reports the clash). A name
        that is a game's id names that game and is no alias."""
        games = set(self.ids("games"))
        result: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for alias, gid, vid, _ in self.alias_entries:
            meanings = result.setdefault(alias, []) if alias not in games else []
            if (gid, (vid,)) not in meanings:
                meanings.append((gid, (vid,)))
        return result

    def lookup(self, name: str) -> tuple[str, tuple[str, ...]]:
        """Game id and implied variants for a game id or alias, or a "did you mean" error. An
        alias with several meanings is refused, not read as one of them: a designer's variant
        whose id sorts first would otherwise take over the bundled ``strict-*`` names unseen."""
        if name in self.paths("games"):
            return name, ()
        meanings = self.aliases.get(name, [])
        if len(meanings) == 1:
            return meanings[0]
        if meanings:
            which = " and ".join(f"{gid} + {' + '.join(vids)}" for gid, vids in meanings)
            raise ConfigError(f"{name!r} is an alias of {which}: name the game and its variant instead "
                              "(`cardgames validate` reports the templates that clash)")
        # The name may be an alias of a variant or game that cannot be read: a designer's typo in `hut.yaml` made
        # `strict-hut` unknown with only a "did you mean" of bundled games (a designer walkthrough's finding).
        unread = list(self._unread_variants)
        for _ in self.readable("games", unread):
            pass
        note = f" (and {unread[0]}: its aliases are unknown)" if unread else ""
        raise UnknownNameError("game", name, self.ids("games") + list(self.aliases), note=note)

    def readable(self, kind: str, unread: list[ConfigError]) -> Iterator[tuple[str, dict[str, Any]]]:
        """(id, config) of each config of ``kind`` that can be read, in id order; the errors of the others are
        added to ``unread`` (``list`` fails on the first once it has listed the rest)."""
        read = {"games": self.game, "decks": self.deck, "variants": self.variant}[kind]
        for ident in self.ids(kind):
            try:
                config = read(ident)
            except ConfigError as exc:
                unread.append(exc)
                continue
            yield ident, config

    # -- resolving ---------------------------------------------------------------------
    def resolve(self, name: str, variants: Iterable[str] = (), players: int | None = None) -> GameSpec:
        """Resolve a game id or alias plus variants and a player count into a GameSpec."""
        gid, implied = self.lookup(name)
        doc = self.document("games", gid)
        game = doc.data
        chosen = list(implied)
        for v in variants:
            if v not in chosen:
                chosen.append(v)
        from .registry import engine_module

        module = engine_module(game["engine"])
        options = dict(game["options"])
        unknown = self.unknown_variant(doc)
        if unknown is not None:
            raise unknown
        known = self.paths("variants")  # each call reads the folders
        for vid in chosen:
            if vid not in known:
                raise UnknownNameError("variant", vid, self.game_variants(gid), where=f" for {gid}")
            if vid in game["variants"]:  # a listed variant that does not apply is the game file's to mend
                misfit = self.variant_misfit(doc, gid, game["variants"].index(vid))
                if misfit is not None:
                    raise misfit
            else:
                why = self._misfit(vid, gid, game)
                if why is not None:
                    raise OptionConflictError(why)
            try:
                options = _overlaid(options, self.document("variants", vid), module.OPTIONS, game["engine"], gid)
            except ConfigError as exc:  # a variant of another engine, reaching it through a family not its engine's
                raise self.family_clash(doc) or exc from None
        count = game["players"]["default"] if players is None else players
        low, high = game["players"]["min"], game["players"]["max"]
        if not low <= count <= high:
            raise OptionConflictError(f"{gid} is for {low}-{high} players, not {count}" if low != high
                                      else f"{gid} is for {counted(low, 'player')}, not {count}")
        unknown = self.unknown_deck(doc)
        if unknown is not None:
            raise unknown
        deck = self.deck(game["deck"]["type"])
        title = game_title(game["name"], [self.variant(v) for v in chosen])
        spec = GameSpec(id=gid, name=title, family=game["family"], engine=game["engine"], players=count,
                        variants=tuple(chosen), deck=_freeze(deck), copies=copies_for(game["deck"], count),
                        options=_freeze(options))
        errors = check_mapping(options, module.OPTIONS, doc, ("options",))
        if errors:
            raise errors[0]
        return spec

    def variant_errors(self, doc: Document) -> list[ConfigError]:
        """A variant file's options checked against the engine of every family or game it
        applies to, at the file's lines, with no game resolved (``validate`` of a variants
        folder). A game whose own file is broken is skipped: it is reported at its lines."""
        from .registry import ENGINES, engine_module

        engines: dict[str, set[str]] = {}  # a game id or family -> the engines of its games
        counts: dict[str, set[int]] = {}  # ... and the player counts they play
        broken: set[str] = set()  # games whose own file is broken: said at its lines, not again at a variant naming it
        for gid in self.ids("games"):
            try:
                game = self.document("games", gid)
            except ConfigError:
                broken.add(gid)
                continue
            if self.family_clash(game):  # reported at that game's family line
                broken.add(gid)
                continue
            for name in (gid, game.data["family"]):
                engines.setdefault(name, set()).add(game.data["engine"])
                counts.setdefault(name, set()).update(range(game.data["players"]["min"],
                                                            game.data["players"]["max"] + 1))
        errors: list[ConfigError] = []
        if not doc.data["applies_to"]:  # said here, at the line to mend, not only at each game listing it
            errors.append(doc.error(("applies_to",), "applies_to names no game or family, so the variant fits none"))
        for i, target in enumerate(doc.data["applies_to"]):
            if target in broken and target not in engines:  # not a second error for the game file's one
                continue
            if target not in engines:
                hint = did_you_mean(target, engines, 0.6)
                errors.append(doc.error(("applies_to", i), f"{target!r} is no game's id or family{hint}"))
                continue
            for engine in sorted(engines[target] & set(ENGINES)):  # an unknown engine: said at its game
                errors += [e for e in _overlay_errors(doc, engine_module(engine).OPTIONS, engine)
                           if str(e) not in map(str, errors)]
        if not errors and not broken:  # a broken game's player counts are unknown: its own error comes first
            reached = [name for name in doc.data["applies_to"] if name in engines]
            errors += _rows_never_played(doc, {e for name in reached for e in engines[name] if e in ENGINES},
                                         {n for name in reached for n in counts[name]})
        return errors


def _rows_never_played(variant: Document, engines: Iterable[str], counts: set[int]) -> list[ConfigError]:
    """A variant's rows of a table by player count (Torqu's ``deal``) for a count none of its games plays: a
    variant cannot change a game's players, so such a row is never used (a designer's finding: a ``deal`` row
    for 9 passed validate, and ``--players 9`` was then refused)."""
    from .registry import engine_module

    keyed = {key for engine in engines for key, field in engine_module(engine).OPTIONS.items() if field.by_players}
    errors = []
    for key in sorted(keyed):
        table = variant.data["options"].get(key)
        for count in table if isinstance(table, dict) else ():
            if player_count(count) not in (None, *counts):  # a key no count's is the merged table's to refuse
                errors.append(variant.error(("options", key, count), (
                    f"'options.{key}' has a row for {count} players, but its games are for {spans(sorted(counts))} "
                    "players: the row is never used (a variant cannot change a game's players; a game file can)")))
    return errors


def _bundled(doc: Document) -> bool:
    """Whether ``doc`` is one of the configs installed with cardgames (not a designer's)."""
    return Path(doc.path).resolve().is_relative_to(bundled_root().resolve())


def _depth(data: Any, keypath: tuple) -> int:
    """How many leading keys of ``keypath`` lead to a value in ``data`` (a list's item by index)."""
    for depth, key in enumerate(keypath):
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return depth
    return len(keypath)


def merged(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` under a variant's ``overlay``: a mapping merges key by key into the mapping it
    meets (a house rule's ``points: {flush: 40}`` changes the Flush alone, the designer audit's
    finding), anything else (a number, a list) replaces the base's value, and so does an empty
    mapping, which would otherwise change nothing: ``family_match: {}`` leaves no family a match."""
    result = dict(base)
    for key, value in overlay.items():
        below = result.get(key)
        deeper = isinstance(value, dict) and value and isinstance(below, dict)  # ``{}`` empties a table
        result[key] = merged(below, value) if deeper else value
    return result


def _overlaid(options: Mapping[str, Any], doc: Document, fields: dict[str, Field], engine: str,
              gid: str) -> dict[str, Any]:
    """``options`` (game ``gid``'s, and its earlier variants') under variant ``doc``'s
    (:func:`merged`), or its first error, at the variant's lines: the overlay's own
    (:func:`_overlay_errors`), then a table it merged into, as a whole (a Torqu ``deal`` row must
    still have every key), named as merged. A table that fails before the merge is the game's to
    mend, and is reported at the game's lines (:meth:`Catalog.resolve`), not here."""
    errors = _overlay_errors(doc, fields, engine)
    if errors:
        raise errors[0]
    result = merged(options, doc.data["options"])
    for key, value in doc.data["options"].items():
        if not isinstance(value, dict) or check_value(options.get(key), fields[key], doc, ("options", key)):
            continue
        for error in check_value(result[key], fields[key], doc, ("options", key)):
            raise MergedTableError(error, gid, key, emptied=not value)
    return result


class MergedTableError(ConfigError):
    """A variant's table that fails once merged into (or, given as ``{}``, emptying) a game's table, said
    at the variant's line and naming the first game met. ``fault`` is the same for every game the variant
    reaches, so that ``validate`` says it once for a whole family."""

    def __init__(self, error: ConfigError, gid: str, key: str, emptied: bool):
        how = f"{gid}'s {key} emptied" if emptied else f"merged into {gid}'s {key}"
        super().__init__(f"{error.message} ({how})", error.path, error.line)
        self.fault = (error.located(), key, emptied)


def _overlay_errors(doc: Document, fields: dict[str, Field], engine: str) -> list[ConfigError]:
    """A variant's options (its file ``doc``) checked against its engine's, at the variant file's
    lines (not at the lines of each game it is applied to); a mapping as the overlay it is (see
    :func:`merged`): the keys it gives, not those it leaves to the game."""
    errors = []
    for key, value in doc.data["options"].items():
        if key not in fields:
            close = close_key(key, fields)  # as a game's own options say it
            hint = f": did you mean {close!r}?" if close else f" (known: {', '.join(sorted(fields))})"
            errors.append(doc.key_error(("options", key), f"unknown option {key!r} for the {engine} engine{hint}"))
        else:
            errors.extend(check_value(value, fields[key], doc, ("options", key), partial=True))
    return errors


def copies_for(deck: Mapping[str, Any], players: int) -> int:
    """Physical decks used by ``players`` players: ``copies``, raised by ``copies_by_players``."""
    copies = deck["copies"]
    for threshold, count in sorted((int(k), v) for k, v in deck.get("copies_by_players", {}).items()):
        if players >= threshold:
            copies = count
    return copies


def _game_template(template: str) -> bool:
    """Whether ``template`` holds the field ``{game}`` (not ``{{game}}``), so that each game gets
    its own name, as written: no other field, and no format spec, index or conversion on it (a fuzzer's
    ``{game:>999999999}`` passed, and `show` then built a gigabyte title)."""
    import string

    try:
        fields = [part[1:] for part in string.Formatter().parse(template) if part[1] is not None]
    except ValueError:  # an unmatched brace
        return False
    return bool(fields) and all(field == ("game", "", None) for field in fields)


def _alias_problem(template: str) -> str | None:
    """Why an alias template cannot name games: it must be a game template that makes kebab-case
    ids of kebab-case ones, other than the game's own."""
    if (_game_template(template) and template.format(game="a-1") != "a-1"
            and kebab_case(template.format(game="a-1")) is None):
        return None
    return ("must be a kebab-case game-id template holding {game}, as written, more than it and no other field, "
            "such as 'strict-{game}'")


def _title_problem(template: str) -> str | None:
    """Why a title template cannot name games: it must be a game template."""
    if _game_template(template):
        return None
    return "must be a name template holding {game}, as written, and no other field, such as 'Strict {game}'"


def _check_thresholds(mapping: Mapping[Any, Any]) -> tuple[tuple, str] | None:
    """The first key that is no player count, or value that is no count of decks, and which (a fuzzer's finding:
    one message for both left the designer to guess)."""
    for key, value in mapping.items():
        if player_count(key) is None:
            return (key,), f"keys must be player counts (1..{MAX_PLAYERS}), not {written(key)}"
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COPIES:
            return (key,), (f"from {key} players: the copies must be a whole number of decks (1..{MAX_COPIES}), "
                            f"not {written(value)}")
    return None


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value
