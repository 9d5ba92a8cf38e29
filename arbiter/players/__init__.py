"""The bundled engines: ``random``, ``greedy`` and ``alphabeta``, standalone programs speaking Hub.

Each runs as ``python -m arbiter.players.<name>`` and exposes ``main(argv) -> int``; the Hub loop they
share is ``arbiter.players.hub_loop``.
"""

PLAYER_MODULES = {
    "random": "arbiter.players.random",
    "greedy": "arbiter.players.greedy",
    "alphabeta": "arbiter.players.alphabeta",
}
