"""The site's inputs read from a tournament database: the event, its planned games and its records.

The planned games are rebuilt from the stored configuration as the runner plans them
(`plan_tournament`), so games not played yet are listed too. Where the configuration cannot be planned
again (an opening file that has moved, say), the site shows the stored games only and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import ValidationError

from arbiter.publishing.pdn_export import IMPORTED_FORMAT, tag_date
from arbiter.referee.game import identity_fields
from arbiter.report.from_config import event_from_config
from arbiter.report.inputs import EventInfo, GameEntry
from arbiter.store import RunStore, StoredGame, TournamentInfo
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.openings import OpeningError
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import Bye, PlannedGame, ScheduleError


@dataclass(frozen=True)
class StoredEvent:
    """What the site is built from, and a note when the schedule could not be rebuilt."""

    event: EventInfo
    games: list[GameEntry]
    schedule_note: str | None = None


@dataclass(frozen=True)
class Schedule:
    """A stored tournament's event and planned games (not their records), and a note when the
    schedule could not be rebuilt."""

    info: TournamentInfo
    event: EventInfo
    planned: Sequence[PlannedGame]
    identities: dict[str, tuple[dict[str, str], str | None]]
    """Each player's engine identity, as its engine declared it, and its engine key."""
    note: str | None = None


def load_schedule(store: RunStore, reference: str | int | None = None) -> Schedule:
    """The tournament `reference` (id or name; the latest one when None): its event and schedule."""
    info = store.find_tournament(reference)
    engines = store.engines(info.id)
    event, planned, note = _event_and_plan(info, tuple(engine.name for engine in engines))
    if info.format == IMPORTED_FORMAT:
        event = _dated_by_files(event, store.game_tags(info.id))
    identities = {engine.name: (identity_fields(engine.identity), engine.engine_id) for engine in engines}
    return Schedule(info=info, event=event, planned=planned, identities=identities, note=note)


def load_event(store: RunStore, reference: str | int | None = None) -> StoredEvent:
    """The tournament `reference` (id or name; the latest one when None) as site inputs."""
    info = store.find_tournament(reference)
    players = tuple(engine.name for engine in store.engines(info.id))
    stored = store.games(info.id)
    event, planned, note = _event_and_plan(info, players)
    if info.format == IMPORTED_FORMAT:
        event = _dated_by_files(event, [game.record.tags for game in stored])
    return StoredEvent(event=event, games=merge_games(planned, stored), schedule_note=note)


def _dated_by_files(event: EventInfo, tags: Sequence[dict[str, str]]) -> EventInfo:
    """An imported event's dates: the first and last days its games' Date tags give, never the time
    the games were imported (stored as the start of those without a date)."""
    days = [day for game_tags in tags if (day := tag_date(game_tags)) is not None]
    first, last = (min(days), max(days)) if days else (None, None)
    return replace(event, started_at=first, ended_at=last, dated_by_games=False)


def _event_and_plan(
    info: TournamentInfo, players: tuple[str, ...]
) -> tuple[EventInfo, Sequence[PlannedGame], str | None]:
    config, note = _config(info)
    planned: Sequence[PlannedGame] = ()
    byes: tuple[Bye, ...] = ()
    if config is not None:
        try:
            schedule = plan_tournament(config).schedule
            planned, byes = schedule.games, schedule.byes
        except (OpeningError, ScheduleError, ValueError) as error:
            note = f"the schedule could not be rebuilt from the stored configuration: {error}"
    if config is not None:
        event = event_from_config(config, players, status=info.status.value, scoring=info.scoring, byes=byes)
    else:
        event = EventInfo(
            name=info.name,
            variant=info.variant,
            time_control=info.time_control,
            format=info.format,
            players=players,
            scoring=info.scoring,
            status=info.status.value,
        )
    return event, planned, note


def _config(info: TournamentInfo) -> tuple[TournamentConfig | None, str | None]:
    if info.format == IMPORTED_FORMAT:
        return None, None  # games read from a PDN file: there is no schedule to rebuild, nor to miss
    try:
        return TournamentConfig.model_validate(info.config(), strict=False), None
    except (ValidationError, ValueError) as error:
        first = str(error).splitlines()[0]
        return None, f"the stored configuration is not a tournament configuration ({first})"


def merge_games(planned: Sequence[PlannedGame], stored: Sequence[StoredGame]) -> list[GameEntry]:
    """Every planned game in playing order, with its record where one is stored; then any stored
    game the plan does not know."""
    by_key = {str(game.key): game for game in stored}
    entries = []
    for plan in planned:
        found = by_key.pop(str(plan.key), None)
        entries.append(GameEntry.planned(plan, found.record if found is not None else None))
    for game in stored:
        if str(game.key) in by_key:
            key = game.key
            entries.append(
                GameEntry.played(
                    str(key),
                    game.record,
                    round=key.round,
                    board=key.board,
                    cycle=game.cycle,
                    pair_index=game.pair_index,
                )
            )
    return entries
