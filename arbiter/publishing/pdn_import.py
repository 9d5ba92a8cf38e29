"""PDN games in as stored games.

`import_pdn` replays every game of a PDN file and stores each readable one as a game of an
"imported" tournament named after the file, under the key ``r<N>-b1-g1`` where N is the game's place
in the file, or the round after the tournament's last one when an earlier import took that round.
Importing the same file again stores nothing twice: a game is recognised by what it is (variant, start,
players, moves and result), wherever it now stands in the file, so only the games the tournament does
not hold yet are stored. A game whose file gives a result without a reason that the board shows is
stored as ended by resignation (a win) or agreement (a draw), and its reason says the result is as
given in the file. Of the annotations only the [%clock] readings are stored; the report counts the
comments, side lines, marks and % lines the file holds, none of which is.
"""

from __future__ import annotations

import hashlib
import json
import re
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
from arbiter.publishing.pdn_export import IMPORTED_FORMAT, is_placeholder_name, placeholder_name
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
_DATE_FORMS = (
    re.compile(r"^(?P<y>\d{4})[.\-/](?P<m>\d{1,2})[.\-/](?P<d>\d{1,2})$"),
    re.compile(r"^(?P<d>\d{1,2})[.\-/](?P<m>\d{1,2})[.\-/](?P<y>\d{4})$"),
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
    text = (tag_value(game.tags, "Date") or "").strip()
    for form in _DATE_FORMS:
        found = form.match(text)
        if found:
            try:
                return datetime(int(found["y"]), int(found["m"]), int(found["d"]), tzinfo=UTC)
            except ValueError:
                return None
    return None


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


@dataclass
class _Catalogue:
    """The games a tournament holds, by identity, and the rounds their keys use. The n-th copy of a
    game in the file is held when the tournament holds n copies of it: a file may hold one game twice."""

    held: Counter[bytes] = field(default_factory=Counter)
    last_round: int = 0
    seen: Counter[bytes] = field(default_factory=Counter)  # the file's games read so far

    @classmethod
    def of(cls, store: TournamentStore, tournament_id: int) -> _Catalogue:
        catalogue = cls()
        for stored in store.games_since(tournament_id, batch=IMPORT_BATCH):
            catalogue.held[game_identity(stored.record)] += 1
            catalogue.last_round = max(catalogue.last_round, stored.key.round)
        return catalogue

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
        """How many games held the file did not hold (once the whole file is read)."""
        return sum((self.held - self.seen).values())


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
    import, wherever it stood in the file then) is counted and left as it is; the others are stored
    after the tournament's games, their players seated as the import meets them.

    Raises `PdnError` when the file cannot be read, `ImportRefused` when `name` is taken by a tournament
    that was not imported, `StoreError` when the database refuses a game."""
    name = name or path.name
    report = ImportReport(path=path, tournament=name)
    info = _existing(store, name)
    catalogue = _Catalogue()
    seated: dict[str, None] = {}  # the tournament's players, in seat order
    if info is not None:
        report.tournament_id = info.id
        catalogue = _Catalogue.of(store, info.id)
        seated = dict.fromkeys(engine.name for engine in store.engines(info.id))
    variants: set[str] = set()
    controls: set[str] = set()
    options = replace(options or ReadOptions(), storable_results=True)  # the faults `pdn check` names
    for batch in _batches(_read_games(path, options, report), IMPORT_BATCH):
        new = [item for item in batch if not catalogue.holds(item.record)]
        report.already += len(batch) - len(new)
        if not new:
            continue
        if report.tournament_id is None:
            report.tournament_id = _create(store, path, name, new[0])
            report.created = True
            seated.update({new[0].record.white.name: None, new[0].record.black.name: None})
        tid = report.tournament_id
        _seat_newcomers(store, tid, new, seated)
        store.record_games(
            tid, [(planned_import(catalogue.next_key(item.game), item.record), item.record) for item in new]
        )
        report.stored += len(new)
        report.placeholders += sum(1 for item in new if _has_placeholder(item.record))
        variants.update(item.record.variant for item in new)
        controls.update(item.record.time_control for item in new)
    report.no_longer_in_file = catalogue.not_seen()
    if report.created and report.tournament_id is not None:
        store.set_labels(
            report.tournament_id,
            variant=_common(sorted(variants), "mixed: "),
            time_control=_common(sorted(controls), "various: "),
        )
    if report.stored and report.tournament_id is not None:
        store.record_event(
            report.tournament_id, Event(EventKind.NOTE, f"imported {report.stored} game(s) from {path}")
        )
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
