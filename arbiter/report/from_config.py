"""Site inputs from a tournament configuration: the event in words and its planned games.

The runner has the configuration and the plan in hand when it refreshes the site after each game::

    event = event_from_config(config, players, status="running")
    games = [GameEntry.planned(game, records.get(game.key)) for game in plan.schedule.games]
    build_site(config.report, event, games)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from arbiter.report.inputs import EventInfo
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.openings import BALLOT_RULES
from arbiter.tournament.schedule import Bye
from arbiter.tournament.scoring import STANDARD, ScoringScheme, scheme_named


def event_from_config(
    config: TournamentConfig,
    players: Sequence[str],
    *,
    status: str | None = None,
    scoring: ScoringScheme | None = None,
    byes: tuple[Bye, ...] = (),
) -> EventInfo:
    """The event as the site describes it; `scoring` defaults to the configuration's scheme; `byes`
    are the plan's (who rests in which round)."""
    return EventInfo(
        name=config.name,
        variant=config.variant,
        time_control=config.time_control,
        format=config.format,
        players=tuple(players),
        scoring=scoring or _scheme(config.scoring),
        openings=describe_openings(config),
        ballot_pairs=config.repeat,
        cycles=config.cycles,
        games_per_encounter=config.games_per_encounter,
        status=status,
        sprt=config.sprt,
        byes=byes,
    )


def _scheme(name: str) -> ScoringScheme:
    try:
        return scheme_named(name)
    except ValueError:
        return STANDARD


def describe_openings(config: TournamentConfig) -> str | None:
    """The openings in words: ``ACF deck acf-156, random order (seed 2026); each opening played twice,
    colours swapped``; None when every game starts from the start position."""
    openings = config.openings
    if openings is None:
        return None
    if openings.deck in BALLOT_RULES:
        source = f"the {BALLOT_RULES[openings.deck].title} ballot rule"
    elif openings.deck:
        source = f"ACF deck {openings.deck}"
    else:
        source = f"opening file {Path(openings.file or '').name}"
    parts = [source]
    if openings.count is not None:
        parts.append(f"first {openings.count}")
    parts.append(f"random order (seed {openings.seed})" if openings.order == "random" else "in order")
    text = ", ".join(parts)
    if config.repeat:
        text += "; each opening played twice, colours swapped"
    return text
