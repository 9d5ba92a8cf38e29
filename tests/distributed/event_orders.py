"""The game orders of a small event, as the coordinator sends them to a worker: for the tests that drive a
worker's `EngineHost` directly."""

from __future__ import annotations

from pathlib import Path

from arbiter.distributed.coordinator import engine_orders
from arbiter.distributed.orders import GameOrder
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament


def event_orders(tmp_path: Path, event: str, *, reuse_engines: bool) -> list[GameOrder]:
    """Every game of the event file text ``event`` (written into ``tmp_path``), in schedule order."""
    path = tmp_path / "tournament.toml"
    path.write_text(event, encoding="utf-8")
    config, engines = load_tournament(path)
    plan = plan_tournament(config)
    by_name = engine_orders(config, engines)
    return [
        GameOrder.of(
            str(game.key),
            plan.setup_for(game),
            by_name[game.white],
            by_name[game.black],
            reuse_engines=reuse_engines,
        )
        for game in plan.schedule.games
    ]
