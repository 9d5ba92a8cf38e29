"""The values arbiter writes in each column of a tournament database, checked when the file is opened.

A value of another kind (a hand edit, or damage that SQLite's own checks cannot see: a changed type
byte, a broken JSON text, a date that is not one) would otherwise stop a command half way with a
traceback; it is named here, with its row and column, before anything is read. Each column's type
and whether it may be NULL come from the schema itself (`arbiter.store.schema.DDL`), so the two cannot
drift apart; a few columns hold more than their type says (one of a list of words, JSON, a moment).

The move table is left out: it is the bulk of the file, and each move is checked as it is read
(`arbiter.store.codec.move_from_row`), naming its game and ply.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from enum import StrEnum

from arbiter.referee.record import Termination, Winner
from arbiter.store.events import EventKind
from arbiter.store.models import TournamentStatus
from arbiter.store.schema import DDL


@dataclass(frozen=True)
class Rule:
    """What every value arbiter writes satisfies: `sql` holds for it (an SQL condition on the row)."""

    column: str  # the column named when the rule fails (its value is shown)
    sql: str
    expected: str  # what the column holds, in the message


# The tables checked, and what names a row of each in a message: (SQL for the label's parts, format).
ROW_LABELS: dict[str, tuple[str, str]] = {
    "tournament": ("name, id", "tournament {0!r} (id {1})"),
    "engine": ("name, tournament_id", "player {0!r} of tournament {1}"),
    "game": ("game_key, id", "game {0} (id {1})"),
    "event": ("id, game_id", "event {0} (game id {1})"),
}

_COLUMN = re.compile(r'^\t"?(\w+)"? (INTEGER|VARCHAR|FLOAT|BOOLEAN)\b(.*?),? ?$')
_TABLE = re.compile(r"CREATE TABLE (\w+) \(")

_TYPES = {
    "INTEGER": ("typeof({c}) = 'integer'", "a whole number"),
    "FLOAT": ("typeof({c}) IN ('real', 'integer')", "a number"),
    "BOOLEAN": ("typeof({c}) = 'integer' AND {c} IN (0, 1)", "0 or 1"),
    "VARCHAR": ("typeof({c}) = 'text'", "text"),
}

_MOMENT = (
    "(julianday({c}) IS NOT NULL AND {c} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*')",
    "an ISO 8601 moment",
)
_MOMENTS = {
    "tournament": ("created_at", "updated_at"),
    "engine": ("identified_at",),
    "game": ("started_at", "ended_at"),
    "event": ("at",),
}
_JSON_OBJECTS = {
    "tournament": ("config",),
    "engine": ("id_extra",),
    "game": ("white_identity", "black_identity", "opening", "tags"),
}
_JSON_LISTS = {"engine": ("params",), "game": ("warnings",)}
_WORDS: dict[str, dict[str, type[StrEnum]]] = {
    "tournament": {"status": TournamentStatus},
    "game": {"winner": Winner, "termination": Termination},
    "event": {"kind": EventKind},
}
# The scoring: a win above a draw above a loss (`records.ScoringScheme`).
_POINTS = Rule(
    "points_win",
    "points_win > points_draw AND points_draw > points_loss",
    "more points for a win than for a draw, and for a draw than for a loss",
)


def schema_columns() -> dict[str, list[tuple[str, str, bool]]]:
    """Each table's columns as the schema creates them: (name, SQL type, may be NULL)."""
    tables: dict[str, list[tuple[str, str, bool]]] = {}
    for statement in DDL:
        table = _TABLE.search(statement)
        if table is None:
            continue  # an index
        columns = tables.setdefault(table.group(1), [])
        for line in statement.splitlines():
            column = _COLUMN.match(line)
            if column is not None:
                columns.append((column.group(1), column.group(2), "NOT NULL" not in column.group(3)))
    return tables


def table_rules(table: str, *, json: bool) -> list[Rule]:
    """The rules of `table`'s columns; with `json`, those of its JSON columns too (SQLite's JSON
    functions are there)."""
    rules = []
    for name, kind, nullable in schema_columns()[table]:
        condition, expected = _TYPES[kind]
        conditions = [condition]
        if name in _MOMENTS.get(table, ()):
            conditions.append(_MOMENT[0])
            expected = _MOMENT[1]
        if json and name in _JSON_OBJECTS.get(table, ()):
            conditions.append("CASE WHEN json_valid({c}) THEN json_type({c}) = 'object' ELSE 0 END")
            expected = "a JSON object"
        if json and name in _JSON_LISTS.get(table, ()):
            conditions.append("CASE WHEN json_valid({c}) THEN json_type({c}) = 'array' ELSE 0 END")
            expected = "a JSON list"
        words = _WORDS.get(table, {}).get(name)
        if words is not None:
            conditions.append(f"{{c}} IN ({', '.join(_quoted(word) for word in words)})")
            expected = "one of " + ", ".join(words)
        sql = " AND ".join(f"({part})" for part in conditions).format(c=f'"{name}"')
        if nullable:
            sql = f'"{name}" IS NULL OR ({sql})'
            expected += " or NULL"
        rules.append(Rule(name, sql, expected))
    if table == "tournament":
        rules.append(_POINTS)
    return rules


def value_problems(connection: sqlite3.Connection, limit: int) -> list[str]:
    """Up to `limit` values of the tables above that arbiter never writes, each with its row and
    column (none: every value is of the kind arbiter writes). The file is only read."""
    json = _has_json(connection)
    problems: list[str] = []
    factory = connection.text_factory
    # Text that is not UTF-8 is read as bytes here, and shown escaped, rather than failing the read.
    connection.text_factory = bytes
    try:
        for table, (label_sql, label) in ROW_LABELS.items():
            rules = table_rules(table, json=json)
            flags = ", ".join(f"coalesce(({rule.sql}), 0)" for rule in rules)
            values = ", ".join(f'"{rule.column}"' for rule in rules)
            every = " AND ".join(f"coalesce(({rule.sql}), 0)" for rule in rules)
            query = (
                f"SELECT {label_sql}, {flags}, {values} FROM {table} WHERE NOT ({every}) LIMIT {int(limit)}"
            )
            for row in connection.execute(query):
                parts = [_text(value) for value in row[:2]]
                flag_values, shown = row[2 : 2 + len(rules)], row[2 + len(rules) :]
                for rule, holds, value in zip(rules, flag_values, shown, strict=True):
                    if not holds:
                        problems.append(
                            f"{label.format(*parts)}: {rule.column} holds {_preview(value)}, "
                            f"not {rule.expected}"
                        )
            if len(problems) >= limit:
                return problems[:limit]
    finally:
        connection.text_factory = factory
    return problems


def _has_json(connection: sqlite3.Connection) -> bool:
    """Whether SQLite has its JSON functions (built in since 3.38, an option before)."""
    try:
        connection.execute("SELECT json_valid('{}')")
    except sqlite3.OperationalError:
        return False
    return True


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "''") + "'"


def _text(value: object) -> object:
    return value.decode("utf-8", "backslashreplace") if isinstance(value, bytes) else value


def _preview(value: object) -> str:
    if value is None:
        return "NULL"
    value = _text(value)
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:40] + "...")
    return repr(value)
