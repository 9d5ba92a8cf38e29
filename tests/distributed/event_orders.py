"""A small event and its game orders, as the coordinator sends them to a worker: for the tests that drive
a worker's `EngineHost` directly."""

from __future__ import annotations

import sys
from pathlib import Path

from arbiter.distributed.coordinator import engine_orders
from arbiter.distributed.orders import GameOrder
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament

ENGINES = Path(__file__).resolve().parents[1] / "engines"


def chatty_event(*, games: int, reuse_engines: bool, max_plies: int, chatty_settings: str) -> str:
    """An event file's text: an instant engine against ``stderr_flood.py`` (2 MiB of stderr as it starts
    and at every search), with ``chatty_settings`` (TOML lines) in the flooding engine's table."""
    return f"""name = "chatty event"
database = "event.sqlite"
variant = "english"
time_control = "depth=1"
games_per_encounter = {games}
reuse_engines = {str(reuse_engines).lower()}
[adjudication]
max_plies = {max_plies}
[[engines]]
name = "quiet"
command = ["{sys.executable}", "{ENGINES / "instant_hub.py"}"]
[[engines]]
name = "chatty"
command = ["{sys.executable}", "{ENGINES / "stderr_flood.py"}"]
{chatty_settings}
"""


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
