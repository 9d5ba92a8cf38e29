"""What can go wrong with a tournament database, each saying which file and what was found."""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """A tournament database that cannot be used as asked."""


class StoreNotFoundError(StoreError):
    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"{path}: no such tournament database")


class StoreVersionError(StoreError):
    """The file is not an arbiter database, or one of a schema version this arbiter does not read.

    `found` is the version in the file, None when the file is not an arbiter database at all.
    """

    def __init__(self, path: Path, found: int | None, expected: int, detail: str = "") -> None:
        self.path = path
        self.found = found
        self.expected = expected
        self.detail = detail
        if found is None:
            what = f"{path}: not an arbiter database" + (f" ({detail})" if detail else "")
            message = f"{what}; expected an arbiter database of schema version {expected}"
        else:
            message = (
                f"{path}: arbiter database of schema version {found}, but this arbiter reads "
                f"schema version {expected}"
            )
        super().__init__(message)


class StoreReadOnlyError(StoreError):
    """A database that can be read but not written: reading commands work, `run` cannot."""

    def __init__(self, path: Path, why: str) -> None:
        self.path = path
        super().__init__(
            f"{path}: the database is read-only ({why}); reading commands (standings, report, pdn export) "
            "work on it, but playing needs a writable copy: copy the file somewhere writable and give "
            "that path (--db)"
        )


class StoreMovedError(StoreError):
    """The file at the database's path is no longer the one opened (deleted, moved or replaced while a
    run went on): SQLite would write on into the file it opened, out of sight, and lose it all."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        super().__init__(
            f"{path}: {what} not stored: the file at this path is no longer the database this run opened "
            "(it was deleted, moved or replaced while the run went on), and nothing more is written into "
            "it; the games stored before are in that file if it was moved, and gone with it if it was "
            "deleted. The same command plays on in the database now at this path (a new one if none)"
        )


class StoreDamagedError(StoreError):
    """SQLite found damaged pages in the file: nothing is read from it or written to it."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        shown = "; ".join(problems[:5])
        super().__init__(
            f"{path}: the database is damaged: {shown}; `arbiter db check {path}` lists the damage. "
            "Restore a backup, or recover what SQLite can read with `sqlite3 DB .recover`"
        )


class StoredValuesError(StoreError):
    """The file holds values arbiter never writes where they are (an edit, or damage SQLite's own checks
    cannot see), found when it is opened: nothing is read from it or written to it."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        shown = "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")
        super().__init__(
            f"{path}: the database holds values arbiter never writes there (was the file edited, or "
            f"damaged?): {shown}; nothing was read or changed. `arbiter db check {path}` lists them; "
            "restore a backup"
        )


class StoredGameUnreadableError(StoreError):
    """A stored game holds a value arbiter never writes there (the file was edited or damaged in a way
    SQLite's own checks cannot see): the game is named, nothing is changed."""

    def __init__(self, game: str, detail: str) -> None:
        self.game = game
        super().__init__(
            f"stored game {game}: {detail}; the database holds a value arbiter does not write there "
            "(was the file edited?); nothing was changed in it"
        )


class UnknownTournamentError(StoreError):
    def __init__(self, path: Path, wanted: int | str) -> None:
        self.path = path
        self.wanted = wanted
        super().__init__(f"{path}: no tournament {wanted!r}")


class GameAlreadyRecordedError(StoreError):
    """A finished game of this key is already stored: a game is never stored twice."""

    def __init__(self, path: Path, tournament_id: int, game_key: str) -> None:
        self.path = path
        self.tournament_id = tournament_id
        self.game_key = game_key
        super().__init__(f"{path}: tournament {tournament_id} already has a finished game {game_key}")


class GameMismatchError(StoreError):
    """A game record that does not fit the planned game it is stored under."""
