"""Playing a tournament's games on Dask distributed workers (``arbiter run --scheduler tcp://HOST:8786``).

The ``arbiter run`` process stays the coordinator: it owns the schedule and the database and sends each
game to a worker as a task (``coordinator``); each worker plays its games with the referee on its own
machine and sends the records back (``worker``); ``orders`` is what travels between them, as JSON text;
``host_engines`` is how a worker finds engines where its machine keeps them; ``roster`` is the workers a
run plays on as they come and go, and how many games it keeps in flight. See docs/distributed.md.

Dask is an optional extra: nothing here imports it until it is used, and ``require_distributed`` says
what to install when it is missing.
"""

from __future__ import annotations

INSTALL_HINT = "pip install 'arbiter[distributed]'"


class DistributedMissingError(RuntimeError):
    """Dask distributed is not installed; the message says what to install."""


def require_distributed() -> None:
    """Raise ``DistributedMissingError`` unless Dask distributed can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise DistributedMissingError(
            f"playing on Dask workers (--scheduler) needs the 'distributed' package, which is not "
            f"installed ({exc}); install it with: {INSTALL_HINT}"
        ) from None
