"""From a validated tournament file to the list of games and the setup of each: pure, deterministic.

Planning also checks every opening of the deck against the variant's rules, so that an opening that
cannot be played stops the event before its first game, not in the middle of it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from arbiter.referee.record import OpeningRecord
from arbiter.referee.settings import DrawAdjudication, RefereeRules, WinAdjudication
from arbiter.referee.setup import GameSetup, GameSetupError
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Color, get_variant
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.openings import (
    Opening,
    OpeningError,
    OpeningOrder,
    OpeningSequence,
    is_pdn_file,
    named_deck,
    read_opening_file,
    read_pdn_openings,
)
from arbiter.tournament.schedule import Colour, PlannedGame, Schedule, TournamentFormat, plan_games


class OpeningSettingError(OpeningError):
    """An [openings] setting the deck cannot fill (a count or start past its end). `key` names the
    setting (``("openings", "count")``), so that the message can be told at its line in the tournament
    file, or by its option on the command line; the deck is only read once the file has been checked."""

    def __init__(self, key: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class TournamentPlan:
    """An event's configuration with the games it plans."""

    config: TournamentConfig
    schedule: Schedule

    def setup_for(self, game: PlannedGame) -> GameSetup:
        """What the referee needs to play one planned game."""
        config = self.config
        tags = {
            "Event": config.name,
            "Round": f"{game.key.round}.{game.key.board}",
            "White": game.white,
            "Black": game.black,
        }
        setup = opening_setup(config, game.opening, tags)
        own = config.time_controls
        if game.white in own or game.black in own:
            setup = replace(
                setup,
                white_time_control=parse_time_control(own[game.white]) if game.white in own else None,
                black_time_control=parse_time_control(own[game.black]) if game.black in own else None,
            )
        return setup


def opening_setup(
    config: TournamentConfig, opening: Opening | None, tags: dict[str, str] | None = None
) -> GameSetup:
    """A game of the event from `opening` (None: the variant's start position)."""
    opening_record: OpeningRecord | None = None
    if opening is not None:
        acf = int(opening.id.removeprefix("acf-")) if opening.id.startswith("acf-") else None
        opening_record = OpeningRecord(name=opening.name or opening.id, acf_number=acf, moves=opening.moves)
    return GameSetup(
        variant=config.variant,
        time_control=parse_time_control(config.time_control),
        start_fen=None if opening is None else opening.fen,
        opening=opening_record,
        rules=referee_rules(config),
        tags=tags or {},
    )


def check_openings(config: TournamentConfig, openings: OpeningSequence) -> None:
    """Refuse a deck holding an opening the variant's rules cannot start a game from, naming where it
    was read (`file:line`) and why."""
    for opening in openings.openings:
        try:
            opening_setup(config, opening).prepare()
        except GameSetupError as error:
            raise OpeningError(f"{opening.where}: {error}") from None


def referee_rules(config: TournamentConfig) -> RefereeRules:
    adj = config.adjudication
    return RefereeRules(
        max_plies=adj.max_plies,
        draw_adjudication=(
            DrawAdjudication(margin=adj.draw_score, moves=adj.draw_moves, min_plies=adj.draw_min_plies)
            if adj.draw_score is not None
            else None
        ),
        win_adjudication=(
            WinAdjudication(margin=adj.win_score, moves=adj.win_moves, two_sided=adj.win_two_sided)
            if adj.win_score is not None
            else None
        ),
        auto_forced_moves=adj.play_forced_moves,
    )


def openings_of(config: TournamentConfig) -> OpeningSequence | None:
    spec = config.openings
    if spec is None:
        return None
    if spec.deck is not None:
        deck = named_deck(spec.deck)
    elif spec.file is not None and is_pdn_file(spec.file):
        deck = read_pdn_openings(spec.file, spec.plies or 0, config.variant)
    else:
        assert spec.file is not None  # the configuration holds a deck or a file
        deck = read_opening_file(spec.file)
    source = spec.deck if spec.deck is not None else str(spec.file)
    if spec.start > len(deck):
        raise OpeningSettingError(
            ("openings", "start"),
            f"{spec.start:,} is past the last of the {len(deck):,} opening(s) {source} holds: "
            f"give a start up to {len(deck):,}",
        )
    deck = deck[spec.start - 1 :]
    if spec.count is not None:
        if spec.count > len(deck):
            # From a later start the deck holds fewer: say so, or "holds 7" would misname the deck.
            after = f" from its opening {spec.start:,} on" if spec.start > 1 else ""
            raise OpeningSettingError(
                ("openings", "count"),
                f"{spec.count:,} is more than the {len(deck):,} opening(s) {source} holds{after}: "
                f"give a count up to {len(deck):,}, or leave it out to play them all",
            )
        deck = deck[: spec.count]
    order = OpeningOrder(spec.order)
    return OpeningSequence(tuple(deck), order, spec.seed if order is OpeningOrder.RANDOM else None)


def plan_tournament(config: TournamentConfig) -> TournamentPlan:
    """Every game of the event, in playing order, with its pairing, colours and opening.

    Raises `OpeningError` for a deck that cannot be read or holds an opening that cannot be played,
    and `ScheduleError` for options that do not fit together.
    """
    variant = get_variant(config.variant)
    first = Colour.BLACK if variant.first_to_move is Color.BLACK else Colour.WHITE
    openings = openings_of(config)
    if openings is not None:
        check_openings(config, openings)
    schedule = plan_games(
        [engine.name for engine in config.engines],
        TournamentFormat(config.format),
        cycles=config.cycles,
        games_per_encounter=config.games_per_encounter,
        repeat=config.repeat,
        openings=openings,
        first_mover=first,
    )
    return TournamentPlan(config, schedule)
