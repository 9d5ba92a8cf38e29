"""PDN games in as stored games.

`import_pdn` replays every game of a PDN file and stores each readable one as a game of an
"imported" tournament named after the file, under the key ``r<N>-b1-g1`` where N is the game's place
in the file, or the round after the tournament's last one when an earlier import took that round.
Importing the same file again stores nothing twice: a game is recognised by what it is (variant, start,
players, moves and result), wherever it now stands in the file, so only the games the tournament does
not hold yet are stored. A game stored unfinished (`*`) that the file now holds continued (the same tags
but Result and Termination, its moves then more, or a result) is brought up to date in its place; a
game changed otherwise, or one that had a result, is stored beside its earlier version, which is kept.
A game whose file gives a result without a reason that the board shows is stored as ended by
resignation (a win) or agreement (a draw), and its reason says the result is as given in the file. Of
the annotations only the [%clock] readings are stored; the report counts the comments, side lines,
marks and % lines the file holds, none of which is.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.notation.movetext import format_hub, format_pdn
from arbiter.notation.pdn import PdnReader, ReadOptions
from arbiter.notation.pdn_lexer import Annotations
from arbiter.notation.pdn_model import PdnGame, end_at_last_move
from arbiter.notation.pdn_variant import tag_value
from arbiter.publishing.pdn_export import IMPORTED_FORMAT, is_placeholder_name, placeholder_name, tag_date
from arbiter.referee.record import (
    GameOutcome,
    GameRecord,
    MoveRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
    allowed_winners,
    winner_from_pdn,
)
from arbiter.rules import EndReason, Game, Position, Variant
from arbiter.store import (
    Event,
    EventKind,
    PlayerEntry,
    TournamentInfo,
    TournamentStatus,
)
from arbiter.tournament.schedule import GameKey, PlannedGame

if TYPE_CHECKING:
    from arbiter.store import TournamentStore

# --- PDN to records -----------------------------------------------------------------------------------


class ImportFault(ValueError):
    """A game that replays but cannot be stored as it is (its result does not fit its last position)."""


class ImportRefused(ValueError):
    """An import that cannot start: the tournament name is taken by a tournament not imported."""


# Games stored per transaction: a commit (with its flush to the disk) per game would cost more than
# reading the game; a batch is also what the import holds in memory at once.
IMPORT_BATCH = 500

_KEPT_OUT = {"white", "black", "result", "gametype", "fen", "setup", "plycount", "timecontrol", "variant"}
_WINNER_WORDS = {Winner.WHITE: "White wins", Winner.BLACK: "Black wins", Winner.DRAW: "Draw"}
_BOARD_ENDS = {
    EndReason.NO_PIECES: Termination.NO_PIECES,
    EndReason.NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    EndReason.REPETITION: Termination.REPETITION,
    EndReason.MOVE_COUNT_RULE: Termination.MOVE_COUNT_RULE,
    EndReason.VARIANT_RULE: Termination.VARIANT_RULE,
}
_NAMED_RULES = (Termination.MOVE_COUNT_RULE, Termination.VARIANT_RULE)  # the outcome says which rule
# Words of a Termination tag, and the termination they name (used when the result allows it).
_TERMINATION_WORDS = (
    ("time", (Termination.TIME_FORFEIT,)),
    ("resign", (Termination.RESIGNATION,)),
    ("agree", (Termination.AGREEMENT,)),
    ("repetition", (Termination.REPETITION,)),
    ("adjudicat", (Termination.ADJUDICATION_WIN, Termination.ADJUDICATION_DRAW)),
)


def player_names(game: PdnGame) -> tuple[str, str]:
    """White's and Black's names from the tags. A missing name (no tag, empty, or ``?``) becomes
    ``? (White)`` or ``? (Black)`` (written back as ``?`` on export); two equal names get their colour
    added, as a game needs two players."""
    names = []
    for colour in ("White", "Black"):
        value = " ".join((tag_value(game.tags, colour) or "").split())
        names.append(value if value.strip("?") else placeholder_name(colour))
    white, black = names
    if white == black:
        white, black = f"{white} (White)", f"{black} (Black)"
    return white, black


def game_date(game: PdnGame) -> datetime | None:
    """The day of the Date tag (``1996.01.13``, ``1996-01-13`` or ``13-01-1996``) when fully known."""
    return tag_date(game.tags)


def _given_outcome(game: PdnGame, winner: Winner, source: str) -> GameOutcome:
    """The outcome of a result the file gives but the board does not decide: the termination the
    Termination tag names, else resignation for a win and agreement for a draw."""
    stated = " ".join((tag_value(game.tags, "Termination") or "").split())
    where = f"as given in {source}, game {game.number}"
    if winner is Winner.UNFINISHED:
        return GameOutcome.of(winner, Termination.ABANDONED, reason=f"Unfinished: no result ({where})")
    if stated:
        lowered = stated.lower()
        for word, candidates in _TERMINATION_WORDS:
            if word in lowered:
                for termination in candidates:
                    if winner in allowed_winners(termination):
                        reason = f"{_WINNER_WORDS[winner]}: {stated} ({where})"
                        return GameOutcome.of(winner, termination, reason=reason)
    termination = Termination.AS_RECORDED
    why = f"{stated} ({where})" if stated else f"result {where}, no reason stated"
    return GameOutcome.of(winner, termination, reason=f"{_WINNER_WORDS[winner]}: {why}")


def _outcome(
    game: PdnGame, variant: Variant, start: Position, source: str
) -> tuple[GameOutcome, list[Position]]:
    """How the game ended: from the last position where the rules decide it, else as the file says;
    with the positions of the replay (each knows its legal moves once asked, for the move texts)."""
    try:
        winner = winner_from_pdn(game.result, variant.first_to_move)
    except ValueError:
        raise ImportFault(
            f"the result {game.result!r} cannot be stored: a game has one winner, a draw, or no result"
        ) from None
    rules = Game(variant, start)
    try:
        end = end_at_last_move(rules, (pdn_move.move for pdn_move in game.moves))
    except ValueError as error:
        raise ImportFault(f"ply {rules.ply + 1}: {error}") from None
    positions = rules.positions
    if end is None or winner is Winner.UNFINISHED:
        return _given_outcome(game, winner, source), positions
    termination = _BOARD_ENDS[end.reason]
    rule = end.rule if termination in _NAMED_RULES else None
    if end.winner is not None:
        if winner is not Winner.side(end.winner):
            raise ImportFault(f"the result {game.result} does not fit the last position: {end.describe()}")
        return GameOutcome.of(winner, termination, rule=rule), positions
    if winner is Winner.DRAW:
        return GameOutcome.of(winner, termination, rule=rule), positions
    return _given_outcome(game, winner, source), positions


def pdn_game_record(game: PdnGame, source: str, imported_at: datetime) -> GameRecord:
    """A game record from a PDN game that replayed without fault. `source` names the file in reasons;
    the game starts at its Date when the tag gives a whole day, else at `imported_at`."""
    variant = game.variant
    if variant is None:
        raise ImportFault(f"the variant {game.variant_id or '?'} is not supported")
    start = game.start_position()
    outcome, positions = _outcome(game, variant, start, source)
    positions = list(positions)
    while len(positions) <= len(game.moves):  # played on past a draw rule: the replay stopped there
        positions.append(positions[-1].play(game.moves[len(positions) - 1].move))
    moves: list[MoveRecord] = []
    for ply, pdn_move in enumerate(game.moves, start=1):
        move = pdn_move.move
        position = positions[ply - 1]
        moves.append(
            MoveRecord(
                ply=ply,
                side=Side.of(position.turn),
                text=format_pdn(position, move),
                hub=format_hub(move),
                clock=pdn_move.clock,
            )
        )
    white, black = player_names(game)
    time_control = " ".join((tag_value(game.tags, "TimeControl") or "").split()) or "?"
    return GameRecord(
        variant=variant.id,
        white=PlayerRecord(name=white),
        black=PlayerRecord(name=black),
        start_fen=start.fen(),
        time_control=time_control,
        moves=moves,
        outcome=outcome,
        started_at=game_date(game) or imported_at,
        tags={name: value for name, value in game.tags.items() if name.lower() not in _KEPT_OUT},
    )


def game_identity(record: GameRecord) -> bytes:
    """What makes two imported games one game, wherever they stand in their files: the variant, the
    start, the players, the moves and the result (tags and clocks aside), as a short digest."""
    what = [
        record.variant,
        record.start_fen,
        record.white.name,
        record.black.name,
        record.winner.value,
        [move.hub for move in record.moves],
    ]
    return _digest(what)


def game_lineage(record: GameRecord) -> bytes:
    """What an unfinished game shares with itself continued: the variant, the start, the players, the
    time control and the tags but the Termination tag (how it ended goes with the result), as a digest."""
    tags = sorted((name, value) for name, value in record.tags.items() if name.lower() != "termination")
    what = [record.variant, record.start_fen, record.white.name, record.black.name, record.time_control, tags]
    return _digest(what)


def _digest(what: Sequence[object]) -> bytes:
    return hashlib.blake2b(json.dumps(what).encode(), digest_size=16).digest()


def planned_import(key: GameKey, record: GameRecord) -> PlannedGame:
    return PlannedGame(
        key=key,
        cycle=1,
        white=record.white.name,
        black=record.black.name,
        opening=None,
        opening_index=None,
        pair_index=None,
    )


# --- importing a file -----------------------------------------------------------------------------------


@dataclass
class ImportReport:
    """What importing one file did. `skipped` holds one line per problem (file, line, game, reason)."""

    path: Path
    tournament: str
    tournament_id: int | None = None
    created: bool = False
    read: int = 0
    stored: int = 0
    already: int = 0  # the tournament held the game already (an earlier import stored it)
    continued: int = 0  # unfinished games stored earlier, now replaced by their continuation in the file
    skipped_games: int = 0
    skipped: list[str] = field(default_factory=list)
    placeholders: int = 0  # games stored with a made-up player name
    no_longer_in_file: int = 0  # games an earlier import stored that the file does not hold now
    not_kept: Annotations = field(default_factory=Annotations)  # the file's, none of which is stored

    def summary(self) -> str:
        where = f"tournament {self.tournament!r}" + (
            f" (#{self.tournament_id})" if self.tournament_id is not None else ""
        )
        text = (
            f"{self.path}: {self.read} game(s) read; {self.stored} stored in {where}, "
            f"{self.already} already there, {self.skipped_games} skipped"
        )
        if self.continued:
            text += (
                f"; {self.continued} unfinished game(s) stored by an earlier import continue in the file "
                "and were brought up to date (their moves and result)"
            )
        if self.placeholders:
            text += (
                f"; {self.placeholders} game(s) without a player's name, stored as '? (White)'/'? (Black)'"
            )
        if self.no_longer_in_file:
            text += (
                f"; {self.no_longer_in_file} game(s) stored by an earlier import are no longer in the file "
                "(changed or removed there), and are kept"
            )
        return text

    def not_kept_line(self) -> str | None:
        """What of the file's text the import does not store, or None when it holds nothing of the kind."""
        what = self.not_kept.describe()
        if what is None:
            return None
        verb = "is" if self.not_kept.single else "are"
        return f"{self.path}: {what} {verb} not kept (only [%clock] readings are)"


@dataclass(frozen=True)
class _Readable:
    game: PdnGame
    record: GameRecord


@dataclass(frozen=True)
class _Unfinished:
    """A game the tournament holds without a result, which the file may now hold continued."""

    key: GameKey
    identity: bytes
    hubs: tuple[str, ...]
    started_at: datetime

    def continued_by(self, record: GameRecord) -> bool:
        """Whether `record` plays this game's moves first (its lineage is compared by the caller)."""
        if len(record.moves) < len(self.hubs):
            return False
        return all(move.hub == hub for move, hub in zip(record.moves, self.hubs, strict=False))


@dataclass
class _Catalogue:
    """The games a tournament holds, by identity, and the rounds their keys use. The n-th copy of a
    game in the file is held when the tournament holds n copies of it: a file may hold one game twice.

    A game held without a result is continued by a game of the file that has its lineage and plays its
    moves first, once the file no longer holds it as it was: the file's first such game (continuing
    the longest one) is kept aside until the whole file is read, then stored in its place."""

    held: Counter[bytes] = field(default_factory=Counter)
    last_round: int = 0
    seen: Counter[bytes] = field(default_factory=Counter)  # the file's games read so far
    unfinished: dict[bytes, list[_Unfinished]] = field(default_factory=dict)  # by lineage
    claimed: set[GameKey] = field(default_factory=set)  # unfinished games a game of the file continues
    continued: Counter[bytes] = field(default_factory=Counter)  # unfinished games replaced, by identity

    @classmethod
    def of(cls, store: TournamentStore, tournament_id: int) -> _Catalogue:
        catalogue = cls()
        for stored in store.games_since(tournament_id, batch=IMPORT_BATCH):
            record = stored.record
            identity = game_identity(record)
            catalogue.held[identity] += 1
            catalogue.last_round = max(catalogue.last_round, stored.key.round)
            if record.winner is Winner.UNFINISHED:
                hubs = tuple(move.hub for move in record.moves)
                unfinished = _Unfinished(stored.key, identity, hubs, record.started_at)
                catalogue.unfinished.setdefault(game_lineage(record), []).append(unfinished)
        return catalogue

    def claim(self, record: GameRecord) -> _Unfinished | None:
        """The unfinished game `record` continues, if one is not claimed yet (the longest one); it is
        claimed for `record` until `settle` says whether the file still holds it as it was."""
        found = [
            unfinished
            for unfinished in self.unfinished.get(game_lineage(record), ())
            if unfinished.key not in self.claimed and unfinished.continued_by(record)
        ]
        if not found:
            return None
        longest = max(found, key=lambda unfinished: len(unfinished.hubs))
        self.claimed.add(longest.key)
        return longest

    def settle(self, unfinished: _Unfinished) -> bool:
        """Once the whole file is read: whether a claimed unfinished game is replaced by its
        continuation, which it is unless the file still holds every copy of it as it was."""
        identity = unfinished.identity
        if self.held[identity] - self.seen[identity] - self.continued[identity] <= 0:
            return False
        self.continued[identity] += 1
        return True

    def holds(self, record: GameRecord) -> bool:
        """Whether the tournament holds this copy of the game; counts it as read either way."""
        identity = game_identity(record)
        self.seen[identity] += 1
        return self.seen[identity] <= self.held[identity]

    def next_key(self, game: PdnGame) -> GameKey:
        """A key for a game stored now: its place in the file as the round, unless an earlier import
        took that round; then the round after the last one."""
        self.last_round = max(game.number, self.last_round + 1)
        return GameKey(round=self.last_round, board=1, game=1)

    def not_seen(self) -> int:
        """How many games held the file no longer holds, those it holds continued aside (once the whole
        file is read)."""
        return sum((self.held - self.seen).values()) - sum(self.continued.values())


def _common(values: Sequence[str], mixed: str) -> str:
    distinct = sorted(set(values))
    return distinct[0] if len(distinct) == 1 else mixed + ", ".join(distinct)


def _read_games(path: Path, options: ReadOptions, report: ImportReport) -> Iterator[_Readable]:
    """The readable games of the file, one at a time (the file is never held whole); the others are
    counted and described in `report`."""
    source = path.name
    imported_at = datetime.now(UTC)
    for game in PdnReader(path, options, annotations=report.not_kept):
        report.read += 1
        if game.faults:
            report.skipped_games += 1
            report.skipped.extend(game.describe_fault(fault) for fault in game.faults)
            continue
        try:
            record = pdn_game_record(game, source, imported_at)
        except ImportFault as fault:
            report.skipped_games += 1
            report.skipped.append(f"{game.source}:{game.line}: {game.label()}: {fault}")
            continue
        yield _Readable(game, record)


def _batches(items: Iterator[_Readable], size: int) -> Iterator[list[_Readable]]:
    batch: list[_Readable] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _existing(store: TournamentStore, name: str) -> TournamentInfo | None:
    for info in reversed(store.tournaments()):
        if info.name == name:
            if info.format != IMPORTED_FORMAT:
                raise ImportRefused(
                    f"{store.path}: tournament {name!r} (#{info.id}) was not imported from PDN; "
                    "choose another name"
                )
            return info
    return None


def _create(store: TournamentStore, path: Path, name: str, first: _Readable) -> int:
    """A new imported tournament, with the players of its first game; the others are seated as the
    import meets them, and its variant and time control are named once every game is read."""
    return store.create_tournament(
        name=name,
        variant=first.record.variant,
        format=IMPORTED_FORMAT,
        time_control=first.record.time_control,
        players=[PlayerEntry(first.record.white.name), PlayerEntry(first.record.black.name)],
        config=json.dumps({"format": IMPORTED_FORMAT, "file": str(path.resolve())}),
        status=TournamentStatus.FINISHED,
    )


def import_pdn(
    store: TournamentStore, path: Path, name: str | None = None, options: ReadOptions | None = None
) -> ImportReport:
    """Store every readable game of the PDN file at `path` in the imported tournament `name` (default:
    the file's name), created when missing. A game the tournament holds already (stored by an earlier
    import, wherever it stood in the file then) is counted and left as it is; a game it holds without a
    result that the file now holds continued (the same game, with more moves or a result) is replaced
    by it, in its place; the others are stored after the tournament's games, their players seated as
    the import meets them.

    Raises `PdnError` when the file cannot be read, `ImportRefused` when `name` is taken by a tournament
    that was not imported, `StoreError` when the database refuses a game."""
    name = name or path.name
    importing = _Import(store, path, ImportReport(path=path, tournament=name))
    info = _existing(store, name)
    if info is not None:
        importing.report.tournament_id = info.id
        importing.catalogue = _Catalogue.of(store, info.id)
        importing.seated = dict.fromkeys(engine.name for engine in store.engines(info.id))
    options = replace(options or ReadOptions(), storable_results=True)  # the faults `pdn check` names
    continuing: list[tuple[_Unfinished, _Readable]] = []  # kept aside until the whole file is read
    for batch in _batches(_read_games(path, options, importing.report), IMPORT_BATCH):
        new: list[_Readable] = []
        for item in batch:
            if importing.catalogue.holds(item.record):
                importing.report.already += 1
            elif (unfinished := importing.catalogue.claim(item.record)) is not None:
                continuing.append((unfinished, item))
            else:
                new.append(item)
        importing.store_new(new)
    importing.store_continuations(continuing)
    return importing.finish()


@dataclass
class _Import:
    """One file's import under way: what the tournament holds, who is seated, what was stored."""

    store: TournamentStore
    path: Path
    report: ImportReport
    catalogue: _Catalogue = field(default_factory=_Catalogue)
    seated: dict[str, None] = field(default_factory=dict)  # the tournament's players, in seat order
    variants: set[str] = field(default_factory=set)
    controls: set[str] = field(default_factory=set)

    def store_new(self, items: list[_Readable]) -> None:
        """Store games the tournament does not hold, each under a key of its own."""
        if not items:
            return
        report = self.report
        if report.tournament_id is None:
            report.tournament_id = _create(self.store, self.path, report.tournament, items[0])
            report.created = True
            self.seated.update({items[0].record.white.name: None, items[0].record.black.name: None})
        tid = report.tournament_id
        _seat_newcomers(self.store, tid, items, self.seated)
        self.store.record_games(
            tid,
            [
                (planned_import(self.catalogue.next_key(item.game), item.record), item.record)
                for item in items
            ],
        )
        report.stored += len(items)
        report.placeholders += sum(1 for item in items if _has_placeholder(item.record))
        self.variants.update(item.record.variant for item in items)
        self.controls.update(item.record.time_control for item in items)

    def store_continuations(self, continuing: list[tuple[_Unfinished, _Readable]]) -> None:
        """Once the whole file is read: each game that continues an unfinished one the file no longer
        holds as it was is stored over it, under its key and with its start; the others as new games."""
        replacing: list[tuple[PlannedGame, GameRecord]] = []
        new: list[_Readable] = []
        for unfinished, item in continuing:
            if self.catalogue.settle(unfinished):
                record = item.record.model_copy(update={"started_at": unfinished.started_at})
                replacing.append((planned_import(unfinished.key, record), record))
            else:
                new.append(item)
        if replacing and self.report.tournament_id is not None:
            # A key whose game has no result is stored over; one that has a result never is.
            self.store.record_games(self.report.tournament_id, replacing)
            self.report.continued += len(replacing)
        self.store_new(new)

    def finish(self) -> ImportReport:
        """Name the new tournament's variant and time control, note what was stored; the report."""
        report = self.report
        report.no_longer_in_file = self.catalogue.not_seen()
        tid = report.tournament_id
        if report.created and tid is not None:
            self.store.set_labels(
                tid,
                variant=_common(sorted(self.variants), "mixed: "),
                time_control=_common(sorted(self.controls), "various: "),
            )
        if (report.stored or report.continued) and tid is not None:
            what = f"imported {report.stored} game(s) from {self.path}"
            if report.continued:
                what += f", and brought {report.continued} unfinished game(s) up to date from it"
            self.store.record_event(tid, Event(EventKind.NOTE, what))
        return report


def _seat_newcomers(
    store: TournamentStore, tournament_id: int, items: list[_Readable], seated: dict[str, None]
) -> None:
    """Seat the players of `items` the tournament does not have yet, in order of first appearance."""
    newcomers = [
        player
        for item in items
        for player in (item.record.white.name, item.record.black.name)
        if player not in seated
    ]
    if newcomers:
        store.add_players(tournament_id, list(dict.fromkeys(newcomers)))
        seated.update(dict.fromkeys(newcomers))


def _has_placeholder(record: GameRecord) -> bool:
    """Whether a player's name was made up (the file gave none)."""
    return is_placeholder_name(record.white.name) or is_placeholder_name(record.black.name)
