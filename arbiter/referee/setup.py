"""What one game is: variant, start position, opening, time control and the referee's rules.

``GameSetup.prepare()`` checks the setup against the rules before any engine is asked anything, so a bad
FEN or an opening move that is not legal is a clear setup error, never a forfeit.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

from arbiter.notation.movetext import MoveTextError, parse_pdn
from arbiter.referee.record import OpeningRecord
from arbiter.referee.settings import RefereeRules
from arbiter.referee.timecontrol import TimeControl
from arbiter.rules import Color, Game, Move, Position, UnknownVariantError, Variant, get_variant
from arbiter.rules.fen import FenError


class GameSetupError(ValueError):
    """A game that cannot be started as described (unknown variant, bad FEN, illegal opening move)."""


@dataclass(frozen=True)
class PreparedGame:
    """A setup checked against the rules: the start position and the opening's moves, resolved."""

    variant: Variant
    start: Position
    opening_moves: tuple[Move, ...]

    @functools.cached_property
    def start_fen(self) -> str:
        """The start position's FEN, as the game's record gives it."""
        return self.start.fen()


# Setups already resolved, by variant, start FEN and opening moves (an opening deck has a few hundred).
_PREPARED: dict[tuple[str, str | None, tuple[str, ...]], PreparedGame] = {}
_PREPARED_KEPT = 1024


@dataclass(frozen=True)
class GameSetup:
    """One game to play. ``opening.moves`` (PDN) are played from ``start_fen`` (default: the start
    position) before the engines are asked for moves; they count on no clock."""

    variant: str
    time_control: TimeControl
    start_fen: str | None = None
    opening: OpeningRecord | None = None
    rules: RefereeRules = field(default_factory=RefereeRules)
    white_margin: float | None = None
    """White's time margin, overriding the control's ``margin=`` (seconds, not scaled)."""
    black_margin: float | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    """PDN header tags for the record (``Event``, ``Round``...)."""
    white_time_control: TimeControl | None = None
    """White's own time control, when the engines play under different ones (cutechess -engine tc=)."""
    black_time_control: TimeControl | None = None

    def control_for(self, color: Color) -> TimeControl:
        """The time control one side plays under: its own, or the game's."""
        own = self.white_time_control if color is Color.WHITE else self.black_time_control
        return self.time_control if own is None else own

    def control_text(self) -> str:
        """The time control as the record shows it: one, or each side's when they differ."""
        white, black = self.control_for(Color.WHITE), self.control_for(Color.BLACK)
        return str(white) if white == black else f"{white} (White), {black} (Black)"

    def prepare(self) -> PreparedGame:
        """Resolve the variant, the start position and the opening; raise ``GameSetupError`` if any fails."""
        # Every game of an event starts from one of a few setups: each is resolved once (positions and
        # moves are immutable, so one result serves them all). A failure is not kept: it is found again.
        key = (self.variant, self.start_fen, tuple(self.opening.moves) if self.opening else ())
        prepared = _PREPARED.get(key)
        if prepared is None:
            prepared = self._resolve()
            if len(_PREPARED) >= _PREPARED_KEPT:
                _PREPARED.pop(next(iter(_PREPARED)))
            _PREPARED[key] = prepared
        return prepared

    def _resolve(self) -> PreparedGame:
        try:
            variant = get_variant(self.variant)
        except UnknownVariantError as error:
            raise GameSetupError(str(error)) from None
        try:
            start = Position.from_fen(variant, self.start_fen) if self.start_fen else Position.start(variant)
        except (FenError, ValueError) as error:
            raise GameSetupError(f"start position {self.start_fen!r}: {error}") from None
        moves: list[Move] = []
        position = start
        # The rules on earlier moves (Frisian's king-move limit) judge the opening too.
        game = Game(variant, start) if variant.history_filter is not None else None
        for number, text in enumerate(self.opening.moves if self.opening else [], start=1):
            name = f" {self.opening.name!r}" if self.opening and self.opening.name else ""
            try:
                move = parse_pdn(position, text)
            except MoveTextError as error:
                raise GameSetupError(f"opening{name}, move {number} ({text!r}): {error}") from None
            if game is not None and game.end is None:
                refused = game.refusal(move)
                if refused is not None:
                    where = f"opening{name}, move {number} ({text!r})"
                    raise GameSetupError(f"{where} is not allowed in {position.fen()}: {refused}")
                game.play(move)
            moves.append(move)
            position = position.play(move)
        over = Game(variant, position).end
        if over is not None:
            # A game decided before either engine moves (an empty board, say) tests nothing.
            where = "after the opening" if moves else f"start position {position.fen()!r}"
            raise GameSetupError(f"{where}: the game is already over ({over.describe()})")
        return PreparedGame(variant, start, tuple(moves))
