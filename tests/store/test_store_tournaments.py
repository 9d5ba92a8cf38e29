"""Tournaments, their players' engine identities, and events."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import BaseModel
from store_samples import game_for, new_tournament

from arbiter.engines.params import EngineIdentity, ParamDecl
from arbiter.referee.record import Winner
from arbiter.store import (
    Event,
    EventKind,
    PlayerEntry,
    StoreError,
    TournamentStatus,
    TournamentStore,
    UnknownTournamentError,
)
from arbiter.tournament.schedule import TournamentFormat, plan_games
from arbiter.tournament.scoring import TWO_ONE_ZERO


class SmallConfig(BaseModel):
    name: str
    rounds: int
    engines: list[str]


def test_a_tournament_keeps_its_settings_and_validated_config(tmp_path: Path) -> None:
    config = SmallConfig(name="Club night", rounds=3, engines=["Greedy", "Random"])
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = store.create_tournament(
            name="Club night",
            variant="english",
            format=TournamentFormat.MATCH,
            time_control="acf",
            players=[PlayerEntry("Greedy", "greedy"), PlayerEntry("Random")],
            config=config,
            scoring=TWO_ONE_ZERO,
        )
        info = store.tournament(tid)
    assert (info.name, info.variant, info.format, info.time_control) == (
        "Club night",
        "english",
        "match",
        "acf",
    )
    assert info.scoring == TWO_ONE_ZERO
    assert info.status is TournamentStatus.CREATED
    assert SmallConfig.model_validate(info.config()) == config
    assert info.created_at == info.updated_at
    assert info.created_at.tzinfo is not None


def test_tournaments_are_listed_oldest_first_and_found_by_id_or_name(tmp_path: Path) -> None:
    with TournamentStore.open(tmp_path / "t.db") as store:
        first = new_tournament(store, name="Spring")
        second = new_tournament(store, name="Summer")
        third = new_tournament(store, name="Spring")
        assert [info.id for info in store.tournaments()] == [first, second, third]
        assert store.find_tournament().id == third
        assert store.find_tournament(str(second)).id == second
        assert store.find_tournament("Spring").id == third
        with pytest.raises(UnknownTournamentError, match="Winter"):
            store.find_tournament("Winter")


def test_an_empty_database_has_no_latest_tournament(tmp_path: Path) -> None:
    with TournamentStore.open(tmp_path / "t.db") as store, pytest.raises(StoreError, match="no tournament"):
        store.find_tournament()


def test_a_status_change_moves_the_update_time(tmp_path: Path) -> None:
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store)
        created = store.tournament(tid)
        store.set_status(tid, TournamentStatus.RUNNING)
        store.set_status(tid, TournamentStatus.STOPPED)
        info = store.tournament(tid)
    assert info.status is TournamentStatus.STOPPED
    assert info.updated_at > created.updated_at
    assert info.created_at == created.created_at


@pytest.mark.parametrize(
    ("config", "message"),
    [("{not json", "not JSON"), ("[1, 2]", "JSON object")],
)
def test_a_config_that_is_not_a_json_object_is_refused(tmp_path: Path, config: str, message: str) -> None:
    with TournamentStore.open(tmp_path / "t.db") as store:
        with pytest.raises(StoreError, match=message):
            store.create_tournament(
                name="Bad", variant="english", format="match", time_control="acf", players=[], config=config
            )
        assert store.tournaments() == []


def test_a_player_listed_twice_is_refused(tmp_path: Path) -> None:
    with TournamentStore.open(tmp_path / "t.db") as store:
        with pytest.raises(StoreError, match="'Greedy' is listed twice"):
            new_tournament(store, ["Greedy", "Random", "Greedy"])
        assert store.tournaments() == []


def test_engines_keep_their_seats_hub_identity_and_declared_parameters(tmp_path: Path) -> None:
    identity = EngineIdentity(
        name="Scan",
        version="3.1",
        author="Fabien Letouzey",
        country="France",
        extra={"protocol": "hub 2"},
        params={
            "variant": ParamDecl(name="variant", type="enum", default="normal", values=("normal", "killer")),
            "tt-size": ParamDecl(name="tt-size", type="int", default="24", min=16.0, max=30.0),
            "book": ParamDecl(name="book", type="bool", default="true"),
        },
    )
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, ["Scan", "Greedy"])
        store.set_engine_identity(tid, "Scan", identity)
        engines = store.engines(tid)
        with pytest.raises(StoreError, match="no player 'Kingsrow'"):
            store.set_engine_identity(tid, "Kingsrow", identity)
    assert [(e.seat, e.name, e.engine_id) for e in engines] == [(1, "Scan", "scan"), (2, "Greedy", "greedy")]
    assert engines[0].identity == identity
    assert list(engines[0].identity.params) == ["variant", "tt-size", "book"]
    assert engines[0].identified_at is not None
    # An engine that has not started yet has said nothing about itself.
    assert engines[1].identity is None and engines[1].identified_at is None


def test_events_are_kept_for_the_tournament_and_for_games(tmp_path: Path) -> None:
    games = plan_games(["Greedy", "Random"], TournamentFormat.MATCH, cycles=2).games
    moment = datetime(2024, 6, 1, 9, 30, 15, 123456, tzinfo=UTC)
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, ["Greedy", "Random"])
        store.record_event(tid, Event(EventKind.NOTE, "run started", at=moment))
        store.record_game(
            tid,
            games[0],
            game_for(games[0], Winner.WHITE),
            [
                Event(EventKind.ENGINE_ERROR, "error: hash table too small", engine="Random", at=moment),
                Event(EventKind.FAULT, "illegal move 9-14", engine="Random", at=moment),
            ],
        )
        store.record_event(tid, Event(EventKind.WARNING, "late info line", engine="Greedy"), games[0].key)
        with pytest.raises(StoreError, match=str(games[1].key)):
            store.record_event(tid, Event(EventKind.WARNING, "too early"), games[1].key)
        everything = store.events(tid)
        of_game = store.events(tid, games[0].key)
    assert [(e.game_key, e.event.kind, e.event.engine, e.event.message) for e in everything] == [
        (None, EventKind.NOTE, None, "run started"),
        (games[0].key, EventKind.ENGINE_ERROR, "Random", "error: hash table too small"),
        (games[0].key, EventKind.FAULT, "Random", "illegal move 9-14"),
        (games[0].key, EventKind.WARNING, "Greedy", "late info line"),
    ]
    assert everything[0].event.at == moment
    assert of_game == everything[1:]


def test_an_event_time_needs_a_time_zone() -> None:
    with pytest.raises(ValueError, match="time zone"):
        Event(EventKind.NOTE, "naive", at=datetime(2024, 1, 1))
