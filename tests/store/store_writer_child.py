"""A child process for the crash test: resumes (or starts) the crash-test tournament in a database and
writes its games one by one, printing each game's key once its transaction has been committed. It
never stops by itself; the test kills it with SIGKILL.

    python store_writer_child.py DATABASE
"""

from __future__ import annotations

import sys
from pathlib import Path

from store_samples import CRASH_PLAYERS, CRASH_TOURNAMENT, crash_record, crash_schedule, new_tournament

from arbiter.store import Event, EventKind, StoreError, TournamentStore


def main() -> None:
    with TournamentStore.open(Path(sys.argv[1])) as store:
        try:
            tid = store.find_tournament(CRASH_TOURNAMENT).id
        except StoreError:
            tid = new_tournament(store, CRASH_PLAYERS, name=CRASH_TOURNAMENT)
        done = store.finished_keys(tid)
        print(f"resuming with {len(done)} games", flush=True)
        for number, planned in enumerate(crash_schedule()):
            if planned.key in done:
                continue
            event = Event(EventKind.NOTE, f"game {number} written", engine=planned.white)
            store.record_game(tid, planned, crash_record(number, planned), [event])
            print(planned.key, flush=True)


if __name__ == "__main__":
    main()
