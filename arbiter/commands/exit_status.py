"""The exit statuses every command shares, so that a script can tell a wrong argument from a failure.

- 0: done.
- 1: the command ran into trouble on the way (an engine that would not start, a damaged
  or locked database, a file it could not write, a Dask cluster that failed under a run), or did part of
  its work (some games skipped, damage found). Everything stored before stays stored.
- 2: what was given is wrong (a flag, a configuration, a file that is not what the command reads, a
  tournament the database does not hold): nothing was done. Typer's own usage errors are 2 as well.
- 130: stopped by Ctrl-C; the games played are kept.
"""

from __future__ import annotations

from arbiter.store import StoreError
from arbiter.store.errors import StoreNotFoundError, StoreVersionError, UnknownTournamentError

FAILED = 1
WRONG_INPUT = 2

# A path or name that does not lead to an arbiter database or to one of its tournaments: the
# command line is wrong. Every other store error is trouble with a database that is the right one.
_WRONG_DATABASE_GIVEN = (StoreNotFoundError, StoreVersionError, UnknownTournamentError)


def store_error_status(error: StoreError) -> int:
    """The exit status for a database that could not be used as asked."""
    return WRONG_INPUT if isinstance(error, _WRONG_DATABASE_GIVEN) else FAILED
