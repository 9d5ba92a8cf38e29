"""The engine info a move's record keeps is made without validating again what the engine layer read:
it is the record validation makes, field for field and as saved."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from arbiter.engines.results import parse_info
from arbiter.referee.game import engine_info
from arbiter.referee.record import EngineInfo, MoveRecord, Side

WORD = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=8)
NUMBER_TEXT = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    WORD,  # not a number: kept as text in ``extra``
)
FIELDS = st.dictionaries(
    st.sampled_from(["depth", "score", "nodes", "time", "nps"]) | WORD,
    NUMBER_TEXT,
    max_size=8,
)


@given(fields=FIELDS, pv=st.lists(WORD, max_size=6), scale=st.sampled_from([1.0, 0.01]))
def test_engine_info_made_without_validation_is_the_validated_one(
    fields: dict[str, str], pv: list[str], scale: float
) -> None:
    info = parse_info({**fields, "pv": " ".join(pv)}, score_scale=scale)
    trusted = engine_info(info)
    validated = EngineInfo(
        depth=info.depth,
        score=info.score,
        nodes=info.nodes,
        time=info.time,
        nps=info.nps,
        pv=list(info.pv),
        extra=dict(info.extra),
    )
    assert trusted.model_dump_json() == validated.model_dump_json()
    assert trusted.model_fields_set == validated.model_fields_set
    assert repr(trusted) == repr(validated)  # the same values of the same types (NaN included)
    move = MoveRecord.trusted(1, Side.WHITE, "11-15", "11-15", False, 0.5, 59.5, [], False, trusted)
    assert (
        move.model_dump_json()
        == MoveRecord(
            ply=1, side=Side.WHITE, text="11-15", hub="11-15", elapsed=0.5, clock=59.5, info=validated
        ).model_dump_json()
    )


def test_the_record_keeps_its_own_copies_of_the_pv_and_the_extra_fields() -> None:
    info = parse_info({"depth": "12", "pv": "11-15 23-19", "hashfull": "300"})
    kept = engine_info(info)
    assert kept.pv == ["11-15", "23-19"] and kept.extra == {"hashfull": "300"}
    assert kept.extra is not info.extra
