"""Stored games out as PDN.

A stored `GameRecord` becomes a `PdnGame` for the PDN writer (`record_pdn_game`): the record's own
tags, the players (``?`` for one its PDN file did not name), the result (`*` for a game without one),
the time control, why the game ended (in a few words as the Termination tag; in the referee's words,
with the game's warnings, as comments after the last move), each move's clock and, where the engine
said, its score (in centi-men) and depth with the move's time to the millisecond, as the clocks are
kept (``{+25/7 0.420s}``, as engine testers write them).
`export_tournament` does it for every game of a tournament; `arbiter play --pdn` and the site write
their games through the same conversion.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from arbiter.notation.movetext import MoveTextError, parse_hub, parse_pdn
from arbiter.notation.pdn_model import PdnGame, PdnMove, result_text
from arbiter.notation.pdn_variant import tag_value
from arbiter.notation.pdn_writer import format_game
from arbiter.referee.record import (
    TIME_CALL_PREFIX,
    GameRecord,
    MoveRecord,
    Side,
    Winner,
)
from arbiter.rules import Color, Move, Position, UnknownVariantError, Variant, get_variant
from arbiter.rules.fen import FenError
from arbiter.store import (
    RunStore,
    StoredGame,
    TournamentInfo,
)

# The format of a tournament that `pdn_import` filled from a PDN file.
IMPORTED_FORMAT = "imported"


def placeholder_name(colour: str) -> str:
    """The name `pdn_import` stores for a player its file does not name (a game needs two distinct
    names): ``? (White)`` or ``? (Black)``."""
    return f"? ({colour})"


def is_placeholder_name(name: str) -> bool:
    """Whether a stored player's name was made up by `pdn_import` (see `placeholder_name`)."""
    return name.startswith("? (")


_DATE_FORMS = (
    re.compile(r"^(?P<y>\d{4})[.\-/](?P<m>\d{1,2})[.\-/](?P<d>\d{1,2})$"),
    re.compile(r"^(?P<d>\d{1,2})[.\-/](?P<m>\d{1,2})[.\-/](?P<y>\d{4})$"),
)


def tag_date(tags: dict[str, str]) -> datetime | None:
    """The day of a Date tag (``1996.01.13``, ``1996-01-13`` or ``13-01-1996``) when fully known: an
    imported game starts then; one without it is stored as starting when it was imported."""
    text = (tag_value(tags, "Date") or "").strip()
    for form in _DATE_FORMS:
        found = form.match(text)
        if found:
            try:
                return datetime(int(found["y"]), int(found["m"]), int(found["d"]), tzinfo=UTC)
            except ValueError:
                return None
    return None


def pdn_player_name(name: str) -> str:
    """A stored player's name as PDN writes it: ``?``, PDN's unknown name, for a made-up one."""
    return "?" if is_placeholder_name(name) else name


# --- records to PDN -----------------------------------------------------------------------------------


def _variant(variant_id: str) -> Variant | None:
    try:
        return get_variant(variant_id)
    except UnknownVariantError:
        return None


def pdn_result(record: GameRecord) -> str:
    """The PDN result of the record: the variant's first mover's score first, so ``1-0`` is a win for
    Black in English draughts and for White in international draughts (written ``2-0`` there, as in
    Canadian draughts: see `result_text`)."""
    winner = record.winner
    if winner is Winner.UNFINISHED:
        return "*"
    colour = Side(winner.value).color if winner.decisive else None
    variant = _variant(record.variant)
    if variant is None:
        return {Color.WHITE: "1-0", Color.BLACK: "0-1", None: "1/2-1/2"}[colour]
    return result_text(variant, colour)


@dataclass(frozen=True)
class RecordMoves:
    """The legal moves of a record, replayed from its start; `fault` says why the replay stopped early."""

    moves: tuple[Move, ...]
    fault: str | None = None
    positions: tuple[Position, ...] = ()
    """The start, then the position after each move (for the writer, so as not to play them again)."""


def record_moves(record: GameRecord) -> RecordMoves:
    """Replay the record's moves (by their Hub text, which names every captured piece, else their PDN)."""
    variant = _variant(record.variant)
    if variant is None:
        return RecordMoves((), f"the variant {record.variant!r} is not known to this version")
    try:
        position = Position.from_fen(variant, record.start_fen)
    except (FenError, ValueError) as error:
        return RecordMoves((), f"start position {record.start_fen!r}: {error}")
    moves: list[Move] = []
    positions = [position]
    for stored in record.moves:
        try:
            move = parse_hub(position, stored.hub)
        except MoveTextError:
            try:
                move = parse_pdn(position, stored.text)
            except MoveTextError as error:
                fault = f"ply {stored.ply} ({stored.text}) does not replay: {error}"
                return RecordMoves(tuple(moves), fault, tuple(positions))
        moves.append(move)
        position = position.play(move)
        positions.append(position)
    return RecordMoves(tuple(moves), positions=tuple(positions))


def _score(value: float) -> str:
    return f"{int(value):+d}" if value == int(value) else f"{value:+.2f}"


def engine_comment(move: MoveRecord) -> tuple[str, ...]:
    """The engine's score and depth and the move's time (to the millisecond, as clocks are kept), as
    one comment (none when nothing is known)."""
    info = move.info
    parts = []
    if info is not None and info.score is not None:
        score = _score(info.score)
        parts.append(f"{score}/{info.depth}" if info.depth is not None else score)
    elif info is not None and info.depth is not None:
        parts.append(f"d{info.depth}")
    if move.elapsed is not None:
        parts.append(f"{move.elapsed:.3f}s")
    return (" ".join(parts),) if parts else ()


def time_call_comments(move: MoveRecord) -> tuple[str, ...]:
    """The "Time" the referee called on a move at an ACF jump limit, as a comment on that move."""
    return tuple(warning for warning in move.warnings if warning.startswith(TIME_CALL_PREFIX))


def closing_comments(record: GameRecord, imported: bool = False) -> tuple[str, ...]:
    """How the game ended in the referee's words, then the game's own warnings (a "Time" called that no
    move followed, an engine that would not quit), as comments after the last move. An `imported`
    record's reason is not the file's own words, so nothing is added to it."""
    if imported:
        return ()
    reason = (record.outcome.reason,) if record.outcome is not None else ()
    return reason + tuple(record.warnings)


def record_tags(
    record: GameRecord,
    result: str,
    tags: Mapping[str, str] | None = None,
    defaults: Mapping[str, str] | None = None,
    imported: bool = False,
) -> dict[str, str]:
    """The PDN tags of a record: `defaults` where the record has no such tag, then the record's own
    tags, then what the record says (players, result, time control, termination, opening), then `tags`.
    A Date or Termination tag the record keeps is written as it is. An `imported` record's tags are
    its file's: no Date or Termination is added that the file did not give."""
    out = dict(defaults or {})
    out.update(record.tags)
    own = {name.lower() for name in record.tags}
    if "date" not in own and not imported:
        out["Date"] = record.started_at.strftime("%Y.%m.%d")
    out["White"] = pdn_player_name(record.white.name)
    out["Black"] = pdn_player_name(record.black.name)
    out["Result"] = result
    if record.time_control.strip("? "):
        out["TimeControl"] = record.time_control
    if "termination" not in own and not imported:
        outcome = record.outcome
        out["Termination"] = (
            outcome.termination.phrase(outcome.rule) if outcome is not None else "unterminated"
        )
    if record.opening is not None and record.opening.name:
        out["Opening"] = record.opening.name
    out.update(tags or {})
    return out


def record_pdn_game(
    record: GameRecord,
    *,
    moves: Sequence[Move] | None = None,
    tags: Mapping[str, str] | None = None,
    defaults: Mapping[str, str] | None = None,
    imported: bool = False,
) -> PdnGame:
    """The record as a `PdnGame` for the writer (`tags`, `defaults`, `imported`: see `record_tags`).
    `moves` are the record's moves already replayed (see `record_moves`); moves after the first one
    that does not replay are kept as their stored text."""
    played = record_moves(record).moves if moves is None else tuple(moves)
    result = pdn_result(record)
    pdn_moves = tuple(
        PdnMove(
            text=stored.text,
            move=move,
            comments=engine_comment(stored) + time_call_comments(stored),
            clock=stored.clock,
        )
        for stored, move in zip(record.moves, played, strict=False)
    )
    return PdnGame(
        tags=record_tags(record, result, tags, defaults, imported),
        variant_id=record.variant,
        start_fen=record.start_fen,
        moves=pdn_moves,
        result=result,
        rest=tuple(stored.text for stored in record.moves[len(pdn_moves) :]),
        closing=closing_comments(record, imported),
    )


@dataclass(frozen=True)
class ExportedTournament:
    """A tournament's games as PDN, in schedule order; `problems` names games whose moves stop
    replaying (their remaining moves are written as stored)."""

    tournament: TournamentInfo
    games: list[PdnGame]
    problems: list[str]
    texts: list[str] = field(default_factory=list)
    """Each game's PDN text, written from the positions its replay went through."""


def stored_pdn_game(info: TournamentInfo, stored: StoredGame) -> tuple[PdnGame, str | None]:
    """One stored game as PDN, with the reason its moves stop replaying if they do."""
    game, replayed = _stored_pdn_game(info, stored)
    return game, replayed.fault


def _stored_pdn_game(info: TournamentInfo, stored: StoredGame) -> tuple[PdnGame, RecordMoves]:
    replayed = record_moves(stored.record)
    imported = info.format == IMPORTED_FORMAT
    # An imported game is written with its file's tags only (its key's round counts games in the file).
    defaults = {} if imported else {"Event": info.name, "Round": str(stored.key.round)}
    game = record_pdn_game(stored.record, moves=replayed.moves, defaults=defaults, imported=imported)
    return game, replayed


def export_tournament(
    store: RunStore, reference: str | int | None = None, *, finished_only: bool = False
) -> ExportedTournament:
    """Every stored game of the tournament `reference` (id or name; the latest when None) as PDN; with
    `finished_only`, those with a result (an unfinished one is played again from its start later)."""
    info = store.find_tournament(reference)
    games: list[PdnGame] = []
    texts: list[str] = []
    problems: list[str] = []
    for stored in store.games(info.id):
        if finished_only and not stored.finished:
            continue
        game, replayed = _stored_pdn_game(info, stored)
        fault = replayed.fault
        games.append(game)
        # Each game is replayed once: the writer goes through the positions of that replay.
        texts.append(format_game(game, replayed.positions))
        if fault is not None:
            problems.append(f"{store.path}: tournament {info.name!r}, game {stored.key}: {fault}")
    return ExportedTournament(info, games, problems, texts)
