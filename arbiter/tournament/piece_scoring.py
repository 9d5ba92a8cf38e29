"""Piece-count scoring: the winner of a game scores the number of pieces it still has on the board.

One of the source rule texts (``seeds/001``, "Keeping Score for Multiple Rounds") offers it beside the
usual points: "the winner's score is equal to the number of pieces they still have on the board". A
loser scores nothing, and so does either side of a draw (the text scores winners only). The pieces are
counted in the final position, which is replayed from the game's record; a game won on time, by
resignation or by adjudication is scored by the pieces on the board when it stopped.

It makes no sense where a player wins by having no pieces or no move left (anti-checkers and
antidraughts: the winner would score nothing for the best result), and those are refused with the
reason. Mule checkers counts mules as pieces, since they are pieces on the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arbiter.notation.movetext import MoveTextError, parse_hub
from arbiter.referee.record import GameRecord, Winner
from arbiter.rules import Color, Position, UnknownVariantError, Variant, get_variant
from arbiter.rules.fen import FenError
from arbiter.rules.variant import NoMoveOutcome

PIECE_SCORING = "pieces"


class PieceScoringError(ValueError):
    """Piece-count scoring asked for where it makes no sense, or a game it cannot score."""


def piece_scoring_refusal(variant: Variant) -> str | None:
    """Why piece-count scoring makes no sense for ``variant``, or None when it does."""
    if variant.no_move_outcome is NoMoveOutcome.WIN:
        return (
            f"piece-count scoring makes no sense for {variant.id}: there a player wins by losing all "
            "its pieces or being left without a move, so the winner would score nothing"
        )
    return None


def piece_scoring_conflict(variant_id: str, sprt: bool) -> str | None:
    """Why an event in `variant_id` (testing a match by an SPRT when `sprt`) cannot score by pieces,
    or None when it can.

    An SPRT weighs wins, draws and losses (or pairs of them) to decide between two Elo hypotheses; a
    score of pieces left is none of those, so the test and the table would rank the engines by
    different measures. Ballot pairs (Pro Checkers, `repeat`) are fine: each game of a pair is
    scored on its own, and the pair plays the opening from both sides, as it does for points.
    """
    refusal = piece_scoring_refusal(get_variant(variant_id))
    if refusal is not None:
        return refusal
    if sprt:
        return (
            "piece-count scoring cannot go with an SPRT: the test decides on wins, draws and losses, "
            'which the pieces left do not count; remove [sprt] or choose scoring "1-0.5-0" or "2-1-0"'
        )
    return None


@dataclass(frozen=True)
class PieceScore:
    """What one finished game is worth to each side under piece-count scoring."""

    white: int
    black: int


def piece_score(record: GameRecord) -> PieceScore | None:
    """The game's piece-count score, or None when it has no result. Raises PieceScoringError for a
    variant where the scoring makes no sense or a record whose moves do not replay."""
    try:
        variant = get_variant(record.variant)
    except UnknownVariantError as error:
        raise PieceScoringError(str(error)) from None
    refusal = piece_scoring_refusal(variant)
    if refusal is not None:
        raise PieceScoringError(refusal)
    if record.winner is Winner.UNFINISHED:
        return None
    if record.winner is Winner.DRAW:
        return PieceScore(0, 0)
    game = f"{record.white.name} - {record.black.name}"
    try:
        position = Position.from_fen(variant, record.start_fen)
    except (FenError, ValueError) as error:
        raise PieceScoringError(f"{game}: start position {record.start_fen!r}: {error}") from None
    for stored in record.moves:
        try:
            position = position.play(parse_hub(position, stored.hub))
        except MoveTextError as error:
            raise PieceScoringError(
                f"{game}, ply {stored.ply} ({stored.text}) does not replay: {error}"
            ) from None
    if record.winner is Winner.WHITE:
        return PieceScore(_pieces(position, Color.WHITE), 0)
    return PieceScore(0, _pieces(position, Color.BLACK))


def winner_pieces(record: GameRecord) -> int:
    """The winner's pieces left on the board (0 for a draw or an unfinished game): what
    `FinishedGame.pieces` holds under piece-count scoring. Raises PieceScoringError as `piece_score`."""
    score = piece_score(record)
    return 0 if score is None else score.white + score.black


def _pieces(position: Position, color: Color) -> int:
    return (position.white if color is Color.WHITE else position.black).bit_count()


def piece_points(records: Iterable[GameRecord]) -> dict[str, int]:
    """Each player's total under piece-count scoring, over the games that have a result."""
    totals: dict[str, int] = {}
    for record in records:
        score = piece_score(record)
        if score is None:
            continue
        totals[record.white.name] = totals.get(record.white.name, 0) + score.white
        totals[record.black.name] = totals.get(record.black.name, 0) + score.black
    return totals
