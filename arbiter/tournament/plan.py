"""From a validated tournament file to the list of games and the setup of each: pure, deterministic."""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.referee.record import OpeningRecord
from arbiter.referee.settings import DrawAdjudication, RefereeRules, WinAdjudication
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Color, get_variant
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.openings import (
    Opening,
    OpeningKind,
    OpeningOrder,
    OpeningSequence,
    named_deck,
    read_opening_file,
)
from arbiter.tournament.schedule import Colour, PlannedGame, Schedule, TournamentFormat, plan_games


@dataclass(frozen=True)
class TournamentPlan:
    config: TournamentConfig
    schedule: Schedule

    def setup_for(self, game: PlannedGame) -> GameSetup:
        """What the referee needs to play one planned game."""
        config = self.config
        opening = game.opening
        start_fen: str | None = None
        opening_record: OpeningRecord | None = None
        if opening is not None:
            acf = int(opening.id.removeprefix("acf-")) if opening.id.startswith("acf-") else None
            if opening.kind is OpeningKind.FEN:
                start_fen = opening.text
                opening_record = OpeningRecord(name=opening.name or opening.id)
            else:
                opening_record = OpeningRecord(
                    name=opening.name or opening.id, acf_number=acf, moves=_moves_of(opening)
                )
        tags = {
            "Event": config.name,
            "Round": f"{game.key.round}.{game.key.board}",
            "White": game.white,
            "Black": game.black,
        }
        return GameSetup(
            variant=config.variant,
            time_control=parse_time_control(config.time_control),
            start_fen=start_fen,
            opening=opening_record,
            rules=referee_rules(config),
            tags=tags,
        )


def _moves_of(opening: Opening) -> list[str]:
    """The moves of an opening line, without move numbers or strength marks."""
    moves = []
    for token in opening.text.replace(".", ". ").split():
        if token.endswith(".") and token[:-1].isdigit():
            continue
        moves.append(token.rstrip("!?"))
    return [m for m in moves if m]


def referee_rules(config: TournamentConfig) -> RefereeRules:
    adj = config.adjudication
    return RefereeRules(
        max_plies=adj.max_plies,
        draw_adjudication=(
            DrawAdjudication(margin=adj.draw_score, moves=adj.draw_moves)
            if adj.draw_score is not None
            else None
        ),
        win_adjudication=(
            WinAdjudication(margin=adj.win_score, moves=adj.win_moves) if adj.win_score is not None else None
        ),
        auto_forced_moves=adj.play_forced_moves,
    )


def openings_of(config: TournamentConfig) -> OpeningSequence | None:
    spec = config.openings
    if spec is None:
        return None
    deck = named_deck(spec.deck) if spec.deck is not None else read_opening_file(spec.file)  # type: ignore[arg-type]
    if spec.count is not None:
        deck = deck[: spec.count]
    order = OpeningOrder(spec.order)
    return OpeningSequence(tuple(deck), order, spec.seed if order is OpeningOrder.RANDOM else None)


def plan_tournament(config: TournamentConfig) -> TournamentPlan:
    """Every game of the event, in playing order, with its pairing, colours and opening."""
    variant = get_variant(config.variant)
    first = Colour.BLACK if variant.first_to_move is Color.BLACK else Colour.WHITE
    schedule = plan_games(
        [engine.name for engine in config.engines],
        TournamentFormat(config.format),
        cycles=config.cycles,
        games_per_encounter=config.games_per_encounter,
        repeat=config.repeat,
        openings=openings_of(config),
        first_mover=first,
    )
    return TournamentPlan(config, schedule)
