"""A stored move is read back as validation would read it, by the short way or the long one."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.referee.record import MoveRecord
from arbiter.store.codec import MOVE_COLUMNS, load_list, move_columns, move_from_row

# A move as arbiter writes it (no engine info)...
WRITTEN = st.tuples(
    st.integers(1, 300),  # ply
    st.sampled_from(["white", "black"]),  # side
    st.sampled_from(["11-15", "15x24", "9x18x27"]),  # text
    st.sampled_from(["11-15", "28x19x23"]),  # hub
    st.sampled_from([0, 1]),  # from_opening
    st.one_of(st.none(), st.floats(min_value=0, allow_infinity=False)),  # elapsed
    st.one_of(st.none(), st.floats(allow_nan=False)),  # clock
    st.sampled_from([None, "[]", '["Time: called at 60.0 s"]']),  # warnings (none: NULL)
    st.sampled_from([0, 1]),  # draw_offered
)
# ...and, for each column, values arbiter never writes there (an edited file), or writes otherwise.
FLAG = st.sampled_from([2, -1, True, False, 1.0, 0.0, "1", "true", None])
TIME = st.one_of(st.floats(max_value=-1e-9), st.integers(-5, 5), st.sampled_from([-0.0, "1.5", "x", True]))
ODD: list[st.SearchStrategy[Any]] = [
    st.one_of(st.integers(-3, 0), st.booleans(), st.sampled_from([3.0, "4", None])),
    st.sampled_from(["purple", "White", "", 1, None]),
    st.one_of(st.integers(0, 3), st.none(), st.just(b"11-15")),
    st.one_of(st.integers(0, 3), st.none(), st.just(b"11-15")),
    FLAG,
    TIME,
    TIME,
    st.sampled_from(["[1]", "{}", "not json", " []", "[ ]"]),
    FLAG,
]


def validated(row: tuple[Any, ...]) -> MoveRecord:
    """What validation makes of the row: every field given, as the store's reader gives them."""
    ply, side, text, hub, from_opening, elapsed, clock, warnings, draw_offered = row
    return MoveRecord(
        ply=ply,
        side=side,
        text=text,
        hub=hub,
        from_opening=from_opening,
        elapsed=elapsed,
        clock=clock,
        warnings=load_list(warnings),
        draw_offered=draw_offered,
        info=None,
    )


def read(row: tuple[Any, ...]) -> MoveRecord:
    values = (*row, 0, None, None, None, None, None, None, None)  # no engine info
    assert len(values) == len(MOVE_COLUMNS)
    return move_from_row(values)


@given(st.data())
def test_a_move_without_engine_info_reads_back_as_validation_reads_it_or_is_refused_alike(
    data: st.DataObject,
) -> None:
    row = list(data.draw(WRITTEN))
    if data.draw(st.booleans()):
        column = data.draw(st.integers(0, len(ODD) - 1))
        row[column] = data.draw(ODD[column])
    try:
        expected = validated(tuple(row))
    except ValueError:
        with pytest.raises(ValueError):
            read(tuple(row))
        return
    got = read(tuple(row))
    assert got == expected
    assert got.model_fields_set == expected.model_fields_set
    assert got.model_dump_json() == expected.model_dump_json()
    assert type(got.from_opening) is bool and type(got.draw_offered) is bool


def test_a_move_the_store_writes_without_warnings_or_engine_info_is_read_without_validating_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    move = MoveRecord(ply=3, side="white", text="11-15", hub="11-15", elapsed=0.25, clock=59.5)
    columns = move_columns(1, move)
    assert columns["warnings"] is None  # an empty list is stored as NULL
    # The values as SQLite hands them back (a flag as 0 or 1).
    values = [columns[name] for name in MOVE_COLUMNS]
    with sqlite3.connect(":memory:") as connection:
        row = connection.execute(f"SELECT {', '.join('?' * len(values))}", values).fetchone()

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the move was validated again")

    monkeypatch.setattr(MoveRecord, "__init__", refuse)
    got = move_from_row(row)
    assert got.model_dump() == move.model_dump()
    assert got.model_fields_set == set(MoveRecord.model_fields)
