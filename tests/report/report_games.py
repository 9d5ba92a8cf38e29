"""Real games for the site tests: small tournaments, scheduled by `arbiter.tournament.schedule` on ACF
ballots, played one of two ways.

* `referee_event`: every game refereed by `arbiter.referee` between real engine processes (the bundled
  players, or the scripted test engine misbehaving on cue), as the runner will play them.
* `play_event`: every game played in this process through the rules core with a simple chooser (the
  greedy engine's choice of the best material, ties broken by a seeded random generator), so the games
  are the same on every run; tests that need a particular game (one that crowns a king) use these.

Either way every record holds legal moves, real thinking times and a real ending. `store_running_event`
creates a tournament in a database for such records to be stored in.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from arbiter.engines import EngineConfig, Timeouts
from arbiter.notation.movetext import format_hub, format_pdn, parse_pdn
from arbiter.players.greedy import greedy_choices, material_after
from arbiter.referee.record import (
    EngineInfo,
    GameOutcome,
    GameRecord,
    MoveRecord,
    OpeningRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
)
from arbiter.referee.session import play_game_from_configs
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.report import EventInfo, GameEntry
from arbiter.rules import EndReason, Game, GameEnd, get_variant
from arbiter.store import PlayerEntry, TournamentStatus, TournamentStore
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.openings import OpeningSequence, acf_deck
from arbiter.tournament.schedule import Colour, PlannedGame, TournamentFormat, plan_games

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
ENGINES = Path(__file__).resolve().parents[1] / "engines"
QUICK = Timeouts(handshake=10.0, ready=10.0, search=30.0, stop=0.5, ping=1.0, quit=1.0, kill=1.0)
CLOCK = 60.0
_TERMINATIONS = {
    EndReason.NO_PIECES: Termination.NO_PIECES,
    EndReason.NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    EndReason.REPETITION: Termination.REPETITION,
    EndReason.MOVE_COUNT_RULE: Termination.MOVE_COUNT_RULE,
    EndReason.VARIANT_RULE: Termination.VARIANT_RULE,
}


def store_running_event(store: TournamentStore, config: TournamentConfig) -> int:
    """The tournament of ``config`` created in ``store`` as a running event, its engines as players."""
    return store.create_tournament(
        name=config.name,
        variant=config.variant,
        format=config.format,
        time_control=config.time_control,
        players=[PlayerEntry(engine.name, engine.name) for engine in config.engines],
        config=config,
        status=TournamentStatus.RUNNING,
    )


@dataclass(frozen=True)
class PlayedEvent:
    event: EventInfo
    games: list[GameEntry]


def with_winners(played: PlayedEvent, winner_of: Callable[[GameRecord], Winner]) -> PlayedEvent:
    """`played` with each played game's result set to `winner_of(its record)`: a draw agreed, a win by
    resignation; the moves stay as played."""
    games = []
    for game in played.games:
        if game.record is not None:
            winner = winner_of(game.record)
            ending = Termination.AGREEMENT if winner is Winner.DRAW else Termination.RESIGNATION
            game = replace(
                game, record=game.record.model_copy(update={"outcome": GameOutcome.of(winner, ending)})
            )
        games.append(game)
    return PlayedEvent(played.event, games)


def alpha_wins_the_others_draw(record: GameRecord) -> Winner:
    """For `with_winners`: Alpha wins every game it plays; the other players draw theirs."""
    if record.white.name == "Alpha":
        return Winner.WHITE
    return Winner.BLACK if record.black.name == "Alpha" else Winner.DRAW


def play_record(
    planned: PlannedGame,
    *,
    variant_id: str = "english",
    seed: int = 0,
    max_plies: int = 120,
    started_at: datetime = START,
    info_extra: dict[str, str] | None = None,
    warnings: Sequence[str] = (),
) -> GameRecord:
    """Play one planned game to its end (or to `max_plies`, a draw) and keep everything in a record."""
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    game = Game(variant)
    moves: list[MoveRecord] = []
    clocks = {Side.WHITE: CLOCK, Side.BLACK: CLOCK}
    end: GameEnd | None = None
    opening_moves = planned.opening.text.split() if planned.opening is not None else []
    while end is None and game.ply < max_plies:
        position = game.position
        side = Side.of(position.turn)
        if game.ply < len(opening_moves):
            move = parse_pdn(position, opening_moves[game.ply])
            record = MoveRecord(
                ply=game.ply + 1,
                side=side,
                text=format_pdn(position, move),
                hub=format_hub(move),
                from_opening=True,
            )
        else:
            began = time.perf_counter()
            move = rng.choice(greedy_choices(position))
            elapsed = time.perf_counter() - began
            clocks[side] -= elapsed
            record = MoveRecord(
                ply=game.ply + 1,
                side=side,
                text=format_pdn(position, move),
                hub=format_hub(move),
                elapsed=elapsed,
                clock=clocks[side],
                info=EngineInfo(
                    depth=1,
                    score=material_after(position, move) / 100,
                    nodes=len(position.legal_moves()),
                    extra=dict(info_extra or {}),
                ),
            )
        moves.append(record)
        end = game.play(move)
    if end is None:
        outcome = GameOutcome.of(Winner.DRAW, Termination.MAX_LENGTH)
    else:
        winner = Winner.DRAW if end.winner is None else Winner.side(end.winner)
        rule = end.rule if end.reason in (EndReason.MOVE_COUNT_RULE, EndReason.VARIANT_RULE) else None
        outcome = GameOutcome.of(winner, _TERMINATIONS[end.reason], rule=rule)
    opening = None
    if planned.opening is not None:
        number = (
            int(planned.opening.id.removeprefix("acf-")) if planned.opening.id.startswith("acf-") else None
        )
        opening = OpeningRecord(name=planned.opening.name or None, acf_number=number, moves=opening_moves)
    return GameRecord(
        variant=variant_id,
        white=PlayerRecord(name=planned.white, engine_id=planned.white.lower(), identity={"author": "tests"}),
        black=PlayerRecord(name=planned.black, engine_id=planned.black.lower()),
        start_fen=variant.start_fen(),
        opening=opening,
        time_control="60",
        moves=moves,
        outcome=outcome,
        started_at=started_at,
        ended_at=started_at + timedelta(seconds=30),
        warnings=list(warnings),
        tags={"Site": "tests"},
    )


def play_event(
    players: Sequence[str],
    *,
    name: str = "Site test event",
    variant_id: str = "english",
    games_per_encounter: int = 2,
    openings: bool = True,
    leave_unplayed: int = 0,
    max_plies: int = 120,
    info_extra: dict[str, str] | None = None,
    warnings: Sequence[str] = (),
) -> PlayedEvent:
    """A round robin with ACF ballots played in pairs; the last `leave_unplayed` games stay planned."""
    schedule = _schedule(players, variant_id, games_per_encounter, openings)
    entries: list[GameEntry] = []
    to_play = len(schedule) - leave_unplayed
    for number, planned in enumerate(schedule):
        record = None
        if number < to_play:
            record = play_record(
                planned,
                variant_id=variant_id,
                seed=number,
                max_plies=max_plies,
                started_at=START + timedelta(minutes=number),
                info_extra=info_extra,
                warnings=warnings,
            )
        entries.append(GameEntry.planned(planned, record))
    event = EventInfo(
        name=name,
        variant=variant_id,
        time_control="60",
        format="round-robin",
        players=tuple(players),
        openings="ACF deck acf-156 in order" if openings else None,
        ballot_pairs=openings and games_per_encounter % 2 == 0,
        games_per_encounter=games_per_encounter,
    )
    return PlayedEvent(event=event, games=entries)


def bundled(name: str) -> EngineConfig:
    """One of the engines shipped with the arbiter, as a child process."""
    return EngineConfig(name=name, command=[sys.executable, "-m", f"arbiter.players.{name}"], timeouts=QUICK)


def scripted(name: str, *args: str) -> EngineConfig:
    """The test engine `tests/engines/scripted_player.py` with `args` (see its docstring)."""
    command = [sys.executable, str(ENGINES / "scripted_player.py"), "--name", name, *args]
    return EngineConfig(name=name, command=command, timeouts=QUICK)


def _schedule(
    players: Sequence[str], variant_id: str, games_per_encounter: int, openings: bool
) -> list[PlannedGame]:
    variant = get_variant(variant_id)
    deck = OpeningSequence(tuple(acf_deck("acf-156"))) if openings else None
    first_mover = Colour.WHITE if variant.first_to_move.name == "WHITE" else Colour.BLACK
    return list(
        plan_games(
            players,
            TournamentFormat.ROUND_ROBIN,
            games_per_encounter=games_per_encounter,
            repeat=openings and games_per_encounter % 2 == 0,
            openings=deck,
            first_mover=first_mover,
        ).games
    )


def _run(game: Coroutine[Any, Any, GameRecord]) -> GameRecord:
    """Run a game on its own event loop in a thread of its own, so that it also works while another
    loop runs in this thread (Playwright's, in the browser tests)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, game).result()


def referee_event(
    engines: Sequence[EngineConfig],
    *,
    name: str = "Refereed test event",
    time_control: str = "2+0.02",
    games_per_encounter: int = 2,
    openings: bool = True,
    leave_unplayed: int = 0,
) -> PlayedEvent:
    """A round robin of `engines` (real child processes), every game refereed by `arbiter.referee`;
    the last `leave_unplayed` games stay planned."""
    players = [engine.name for engine in engines]
    by_name = {engine.name: engine for engine in engines}
    control = parse_time_control(time_control)
    entries = []
    schedule = _schedule(players, "english", games_per_encounter, openings)
    for number, planned in enumerate(schedule):
        if number >= len(schedule) - leave_unplayed:
            entries.append(GameEntry.planned(planned))
            continue
        opening = None
        if planned.opening is not None:
            opening = OpeningRecord(
                name=planned.opening.name or None,
                acf_number=int(planned.opening.id.removeprefix("acf-")),
                moves=planned.opening.text.split(),
            )
        setup = GameSetup(variant="english", time_control=control, opening=opening, tags={"Event": name})
        record = _run(play_game_from_configs(setup, by_name[planned.white], by_name[planned.black]))
        entries.append(GameEntry.planned(planned, record))
    event = EventInfo(
        name=name,
        variant="english",
        time_control=time_control,
        format="round-robin",
        players=tuple(players),
        openings="ACF deck acf-156 in order" if openings else None,
        ballot_pairs=openings and games_per_encounter % 2 == 0,
        games_per_encounter=games_per_encounter,
    )
    return PlayedEvent(event=event, games=entries)
