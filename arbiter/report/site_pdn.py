"""A game record as PDN for the site, through the project's record-to-PDN conversion.

The conversion itself (tags, result, clocks, engine scores in comments, how the game ended) is
`arbiter.publishing.pdn_export`'s, shared with `arbiter pdn export`. The site adds what it knows of the
game's place in the event: Event is the event's name, Round the game's round, GameId its key, and the
planned opening's name where the record has none. An imported game is written with its file's tags, as
`pdn export` writes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbiter.notation.pdn_model import PdnGame
from arbiter.notation.pdn_writer import WrittenMove, format_game, format_written_game
from arbiter.publishing.pdn_export import (
    IMPORTED_FORMAT,
    closing_comments,
    engine_comment,
    pdn_result,
    record_pdn_game,
    record_tags,
    time_call_comments,
)
from arbiter.referee.record import GameRecord
from arbiter.report.inputs import EventInfo, GameEntry
from arbiter.report.replay import Replay

__all__ = ["event_pdn", "game_pdn", "pdn_result"]


def game_pdn(event: EventInfo, game: GameEntry, record: GameRecord, replay: Replay) -> str:
    """The game as PDN text, ending with a blank line."""
    if event.format == IMPORTED_FORMAT:
        # Its file's tags, as `pdn export` writes it: the event's name is the file's, its key a count.
        return format_game(record_pdn_game(record, moves=replay.moves, imported=True), replay.positions)
    tags = {"Event": event.name, "GameId": game.key}
    defaults = {"Opening": game.opening.name} if game.opening is not None and game.opening.name else {}
    if game.round is not None:
        # Only where the game has no Round of its own (round.board, as `pdn export` writes it too).
        defaults["Round"] = str(game.round)
    if replay.written:
        # The referee's own positions and texts: the same PDN, no move's notation worked out again.
        result = pdn_result(record)
        header = PdnGame(
            tags=record_tags(record, result, tags, defaults),
            variant_id=record.variant,
            start_fen=record.start_fen,
            result=result,
            closing=closing_comments(record),
        )
        moves = [
            WrittenMove(
                move.text,
                move.clock,
                # A time call is a warning: most moves have none to look through.
                engine_comment(move) + time_call_comments(move) if move.warnings else engine_comment(move),
            )
            for move in record.moves
        ]
        return format_written_game(header, moves, replay.positions)
    pdn_game = record_pdn_game(record, moves=replay.moves, tags=tags, defaults=defaults)
    return format_game(pdn_game, replay.positions)


def event_pdn(texts: Iterable[str]) -> str:
    """Every game's PDN text, one after the other."""
    return "".join(texts)
