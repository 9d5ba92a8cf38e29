"""Game records for the store tests: real legal games played at random by the rules core, with the
times, clocks and engine info a referee would record."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone
from functools import cache

from arbiter.notation.movetext import format_hub, format_pdn
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
from arbiter.rules import EndReason, Game, get_variant
from arbiter.store import PlayerEntry, TournamentStore
from arbiter.tournament.schedule import PlannedGame, TournamentFormat, plan_games
from arbiter.tournament.scoring import STANDARD, ScoringScheme

START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

_TERMINATIONS = {
    EndReason.NO_PIECES: Termination.NO_PIECES,
    EndReason.NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    EndReason.REPETITION: Termination.REPETITION,
    EndReason.MOVE_COUNT_RULE: Termination.MOVE_COUNT_RULE,
}


def played_game(
    seed: int,
    *,
    variant: str = "english",
    white: str = "Greedy",
    black: str = "Random",
    plies: int = 40,
    opening_plies: int = 3,
    winner: Winner | None = None,
    started_at: datetime = START,
) -> GameRecord:
    """A random legal game of at most `plies` plies; the first `opening_plies` come from an opening.

    When the rules do not end the game first, its result is `winner` (adjudicated), or no result
    at all when `winner` is UNFINISHED (the game was abandoned) or None (still being played).
    """
    rng = random.Random(seed)
    rules = get_variant(variant)
    game = Game(rules)
    clocks = {Side.WHITE: 60.0, Side.BLACK: 60.0}
    moves: list[MoveRecord] = []
    opening_moves: list[str] = []
    while game.end is None and game.ply < plies:
        position = game.position
        move = rng.choice(game.legal_moves())
        side = Side.of(position.turn)
        text = format_pdn(position, move)
        ply = game.ply + 1
        if ply <= opening_plies:
            opening_moves.append(text)
            moves.append(MoveRecord(ply=ply, side=side, text=text, hub=format_hub(move), from_opening=True))
        else:
            elapsed = round(rng.uniform(0.01, 2.0), 6)
            clocks[side] = round(clocks[side] - elapsed + 0.5, 6)
            info = None
            if rng.random() < 0.9:
                info = EngineInfo(
                    depth=rng.randint(1, 30),
                    score=rng.choice([None, round(rng.uniform(-3, 3), 3)]),
                    nodes=rng.randint(1, 10**9),
                    time=elapsed,
                    nps=rng.choice([None, 123456.75]),
                    pv=[text, "9-14"] if rng.random() < 0.7 else [],
                    extra={"hashfull": "0.5"} if rng.random() < 0.2 else {},
                )
            moves.append(
                MoveRecord(
                    ply=ply,
                    side=side,
                    text=text,
                    hub=format_hub(move),
                    elapsed=elapsed,
                    clock=clocks[side],
                    warnings=["Time called on a jump"] if rng.random() < 0.05 else [],
                    draw_offered=rng.random() < 0.05,
                    info=info,
                )
            )
        game.play(move)
    outcome = _outcome(game, winner)
    ended_at = None if outcome is None else started_at + timedelta(seconds=len(moves) * 1.5, microseconds=7)
    return GameRecord(
        variant=variant,
        white=PlayerRecord(name=white, engine_id=white.lower(), identity={"name": white, "version": "1.0"}),
        black=PlayerRecord(name=black, engine_id=black.lower()),
        start_fen=game.start.fen(),
        opening=OpeningRecord(name="Seeded", acf_number=seed % 174 + 1, moves=opening_moves)
        if opening_plies
        else None,
        time_control="40/60+0.5",
        moves=moves,
        outcome=outcome,
        started_at=started_at,
        ended_at=ended_at,
        warnings=["engine Random wrote to stderr"] if seed % 3 == 0 else [],
        tags={"Event": "Store test", "Round": str(seed)},
    )


def _outcome(game: Game, winner: Winner | None) -> GameOutcome | None:
    if game.end is not None:
        end = game.end
        result = Winner.DRAW if end.winner is None else Winner.side(end.winner)
        rule = end.rule if end.reason is EndReason.MOVE_COUNT_RULE else None
        return GameOutcome.of(result, _TERMINATIONS[end.reason], rule=rule)
    if winner is None:
        return None
    if winner is Winner.UNFINISHED:
        return GameOutcome.of(Winner.UNFINISHED, Termination.ABANDONED)
    if winner is Winner.DRAW:
        return GameOutcome.of(Winner.DRAW, Termination.ADJUDICATION_DRAW)
    return GameOutcome.of(winner, Termination.ADJUDICATION_WIN)


def game_for(planned: PlannedGame, winner: Winner, *, seed: int = 1, plies: int = 30) -> GameRecord:
    """A record of `planned` whose result is `winner` (the random moves rarely end a game in `plies`)."""
    record = played_game(seed, white=planned.white, black=planned.black, plies=plies, winner=winner)
    if record.winner is not winner:
        # The rules ended the game first; keep the moves, state the wanted result.
        outcome = _outcome_for(winner)
        record = record.model_copy(update={"outcome": outcome, "ended_at": record.ended_at or START})
    return record


def _outcome_for(winner: Winner) -> GameOutcome | None:
    if winner is Winner.UNFINISHED:
        return GameOutcome.of(Winner.UNFINISHED, Termination.ABANDONED)
    if winner is Winner.DRAW:
        return GameOutcome.of(Winner.DRAW, Termination.AGREEMENT)
    return GameOutcome.of(winner, Termination.RESIGNATION)


OTHER_ZONE = timezone(timedelta(hours=-5, minutes=-30))


def new_tournament(
    store: TournamentStore,
    players: Sequence[str] = ("Greedy", "Random", "Alpha-beta"),
    *,
    name: str = "Store test",
    scoring: ScoringScheme = STANDARD,
) -> int:
    """A round robin of `players` in `store`, configured with a small JSON object."""
    return store.create_tournament(
        name=name,
        variant="english",
        format=TournamentFormat.ROUND_ROBIN,
        time_control="40/60+0.5",
        players=[PlayerEntry(player, player.lower()) for player in players],
        config=json.dumps({"name": name, "players": list(players)}),
        scoring=scoring,
    )


# --- the games the crash test's child process writes -------------------------------------------------

CRASH_PLAYERS = ("Greedy", "Random", "Alpha-beta", "Minimax")
CRASH_TOURNAMENT = "Crash test"


def crash_schedule() -> tuple[PlannedGame, ...]:
    return plan_games(CRASH_PLAYERS, TournamentFormat.ROUND_ROBIN, cycles=50, games_per_encounter=2).games


@cache
def _crash_moves(seed: int) -> GameRecord:
    return played_game(seed, plies=150, winner=Winner.DRAW)


def crash_record(number: int, planned: PlannedGame) -> GameRecord:
    """The record the child writes as the `number`-th planned game: long, so that most of the child's
    time is spent inside the store's transactions."""
    base = _crash_moves(number % 6)
    winner = (Winner.WHITE, Winner.BLACK, Winner.DRAW)[number % 3]
    return base.model_copy(
        update={
            "white": PlayerRecord(name=planned.white, engine_id=planned.white.lower()),
            "black": PlayerRecord(name=planned.black, engine_id=planned.black.lower()),
            "outcome": _outcome_for(winner),
            "ended_at": base.started_at + timedelta(minutes=number),
            "tags": {"Round": str(planned.round)},
        }
    )
