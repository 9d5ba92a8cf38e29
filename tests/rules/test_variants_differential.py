"""Every variant pydraughts knows, compared move for move with it in seeded sample positions.

For each of Russian, Brazilian, Italian, Turkish, Frisian and antidraughts, 1,000 positions (half from
random games from the start, half from random middle-game set-ups with kings; see ``rules_samples``)
give the same legal moves in both, compared as (start, end, captured set). The seed is fixed per
variant, so the positions are the same on every run.

Where pydraughts is wrong, ``pydraughts_disagreements.tsv`` lists the position, the moves only the
arbiter lists and the moves only pydraughts lists, and the rule (``RULES``, quoted exactly from
``VARIANTS.md`` or its seed texts) that decides for the arbiter. Any difference not listed fails.

pydraughts numbers the squares of Russian, Brazilian and Turkish boards from White's lower-left corner,
so moves are compared by square name; the other boards number squares as the arbiter does.
"""

from __future__ import annotations

import csv
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from rules_samples import sample_positions

from arbiter.rules import Position, get_variant
from arbiter.rules.variant import Variant

draughts = pytest.importorskip("draughts", reason="pydraughts is the test-only reference for rules")

VARIANT_IDS = ["russian", "brazilian", "italian", "turkish", "frisian", "antidraughts"]
POSITIONS_PER_VARIANT = 1000
MoveKey = tuple[str, str, frozenset[str]]

SHARED_RULES = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules"
KNOWN_FILE = Path(__file__).with_name("pydraughts_disagreements.tsv")


@dataclass(frozen=True)
class RuleText:
    """A rule as its source states it: ``quote`` appears word for word in ``source``."""

    source: str  # a file under ../shared/rules
    quote: str
    why: str  # how the quote decides the listed positions


RULES = {
    "turkish-king-slides-over-empty-squares": (
        RuleText(
            "VARIANTS.md",
            "flying, orthogonal",
            "the Turkish king is a flying king moving along rows and files",
        ),
        RuleText(
            "seeds/000_e09f13239b2df709.txt",
            'International Draughts Kings are "flying kings" that slide across multiple empty squares '
            "diagonally.",
            "a flying king slides across empty squares only, so it never passes over a piece of its own; "
            "pydraughts lets a Turkish king's quiet move pass over its own men",
        ),
    ),
    "frisian-same-pieces-same-value": (
        RuleText(
            "VARIANTS.md",
            "highest value: a king is worth more than a man but less than two men; equal value: a king "
            "must capture",
            "the value of a capture is the value of the pieces taken, so two captures of the same pieces "
            "are worth the same; pydraughts adds king values as floating-point numbers, and the order it "
            "meets the pieces in changes the sum in the last digit, so it drops some of them",
        ),
    ),
}


@dataclass(frozen=True)
class Disagreement:
    variant: str
    fen: str
    arbiter_only: frozenset[str]
    pydraughts_only: frozenset[str]
    rule: str


def load_known() -> dict[tuple[str, str], Disagreement]:
    known: dict[tuple[str, str], Disagreement] = {}
    with KNOWN_FILE.open(newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            entry = Disagreement(
                variant=row["variant"],
                fen=row["fen"],
                arbiter_only=frozenset(row["arbiter_only"].split()),
                pydraughts_only=frozenset(row["pydraughts_only"].split()),
                rule=row["rule"],
            )
            known[(entry.variant, entry.fen)] = entry
    return known


KNOWN = load_known()


def seed_of(variant_id: str) -> int:
    # A fixed number per variant: Python's own string hash changes from run to run.
    return zlib.crc32(variant_id.encode())


def pydraughts_square_namer(variant_id: str) -> Callable[[int], str]:
    if variant_id in ("russian", "brazilian"):
        return lambda n: ("aceg" if ((n - 1) // 4) % 2 == 0 else "bdfh")[(n - 1) % 4] + str((n - 1) // 4 + 1)
    if variant_id == "turkish":
        return lambda n: "abcdefgh"[(n - 1) % 8] + str((n - 1) // 8 + 1)
    return str


def ours(position: Position) -> set[MoveKey]:
    name = position.variant.square_name
    return {
        (name(m.start), name(m.end), frozenset(name(c) for c in m.captured)) for m in position.legal_moves()
    }


def theirs(variant_id: str, position: Position) -> set[MoveKey]:
    name = pydraughts_square_namer(variant_id)
    board = draughts.Board(variant=variant_id, fen=position.fen())
    out: set[MoveKey] = set()
    for move in board.legal_moves():
        steps = move.steps_move
        captured = frozenset(name(c) for c in (move.captures or []) if c)
        out.add((name(steps[0]), name(steps[-1]), captured))
    return out


def move_text(variant: Variant, move: MoveKey) -> str:
    """``h1-h8`` for a quiet move, ``4x24:3,8,18`` for a capture (the captured squares after the colon)."""
    start, end, captured = move
    if not captured:
        return f"{start}-{end}"
    ordered = sorted(captured, key=lambda s: variant.parse_square(s) or 0)
    return f"{start}x{end}:{','.join(ordered)}"


def differences(variant_id: str, position: Position) -> tuple[frozenset[str], frozenset[str]]:
    """The moves only the arbiter lists and the moves only pydraughts lists, as ``move_text``."""
    a, b = ours(position), theirs(variant_id, position)
    variant = position.variant
    return (
        frozenset(move_text(variant, m) for m in a - b),
        frozenset(move_text(variant, m) for m in b - a),
    )


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_legal_moves_match_pydraughts_except_where_listed(variant_id: str) -> None:
    variant = get_variant(variant_id)
    positions = sample_positions(variant, POSITIONS_PER_VARIANT, seed_of(variant_id))
    assert len(positions) == POSITIONS_PER_VARIANT
    # The sample must reach kings and captures, or agreement means little.
    assert sum(bool(p.kings) for p in positions) >= 400
    assert sum(p.has_capture() for p in positions) >= 150
    unlisted: list[str] = []
    listed_seen: set[tuple[str, str]] = set()
    for position in positions:
        fen = position.fen()
        arbiter_only, pydraughts_only = differences(variant_id, position)
        entry = KNOWN.get((variant_id, fen))
        if entry is not None:
            listed_seen.add((variant_id, fen))
            if (arbiter_only, pydraughts_only) == (entry.arbiter_only, entry.pydraughts_only):
                continue
        elif not arbiter_only and not pydraughts_only:
            continue
        unlisted.append(
            f"{fen}\n  arbiter only: {sorted(arbiter_only)}\n  pydraughts only: {sorted(pydraughts_only)}"
            + (f"\n  listed: {sorted(entry.arbiter_only)} / {sorted(entry.pydraughts_only)}" if entry else "")
        )
    assert not unlisted, f"{len(unlisted)} positions differ from pydraughts unlisted, e.g.:\n" + "\n".join(
        unlisted[:5]
    )
    stale = sorted(fen for v, fen in KNOWN if v == variant_id and (v, fen) not in listed_seen)
    assert not stale, f"listed positions no longer in the sample (remove them): {stale[:5]}"


def crosses_a_piece(position: Position, move: str) -> bool:
    """Whether a quiet move (``h4-a4``) passes over an occupied square on its way."""
    start, _, end = move.partition("-")
    g = position.variant.geometry
    a = g.row_col(position.variant.parse_square(start) or 0)
    b = g.row_col(position.variant.parse_square(end) or 0)
    steps = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    dr, dc = (b[0] - a[0]) // steps, (b[1] - a[1]) // steps
    between = [g.square_at(a[0] + dr * i, a[1] + dc * i) for i in range(1, steps)]
    return any(sq is not None and position.piece_at(sq) is not None for sq in between)


def captured_part(move: str) -> str:
    return move.partition(":")[2]


def test_each_listed_disagreement_is_the_pydraughts_error_its_rule_names() -> None:
    # The list is checked against the rule it cites, so it cannot hide an error of the arbiter's.
    assert KNOWN
    for entry in KNOWN.values():
        assert entry.rule in RULES, entry
        position = Position.from_fen(get_variant(entry.variant), entry.fen)
        common = ours(position) & theirs(entry.variant, position)
        if entry.rule == "turkish-king-slides-over-empty-squares":
            # pydraughts alone lists quiet king moves, each passing over a piece.
            assert entry.variant == "turkish" and not entry.arbiter_only, entry
            for move in entry.pydraughts_only:
                start = position.variant.parse_square(move.partition("-")[0])
                piece = position.piece_at(start or 0)
                assert "x" not in move and piece is not None and piece.is_king, (entry, move)
                assert crosses_a_piece(position, move), (entry, move)
        else:
            # The arbiter alone lists captures of exactly the pieces a capture both list takes.
            assert entry.variant == "frisian" and not entry.pydraughts_only, entry
            taken_by_common = {move_text(position.variant, m).partition(":")[2] for m in common}
            for move in entry.arbiter_only:
                assert captured_part(move) in taken_by_common, (entry, move)


def test_pydraughts_lets_a_turkish_king_pass_over_its_own_men() -> None:
    # The first listed kind, shown once with both answers: the king on h4 may not pass over c4.
    position = Position.from_fen(get_variant("turkish"), "W:WKh4,c4:Ba7")
    assert differences("turkish", position) == (frozenset(), frozenset({"h4-b4", "h4-a4"}))


def test_pydraughts_drops_frisian_captures_of_equal_value_by_rounding() -> None:
    # The second kind, shown once with both answers: the kings on 1 and 48 can each take the men on 17,
    # 23 and 31 and the kings on 34 and 44, in different orders; pydraughts keeps only king 1's captures.
    position = Position.from_fen(get_variant("frisian"), "W:WK1,6,24,K48,49:B3,K4,5,15,17,23,31,K34,K44")
    arbiter_only, pydraughts_only = differences("frisian", position)
    assert pydraughts_only == frozenset()
    assert arbiter_only == {f"48x{end}:17,23,31,34,44" for end in (41, 42, 43)}
    assert {m.start for m in position.legal_moves()} == {1, 48}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_rule_texts_are_quoted_word_for_word(rule: str) -> None:
    for text in RULES[rule]:
        source = SHARED_RULES / text.source
        if not source.exists():
            pytest.skip(f"shared rules not present at {source.resolve()}")
        assert text.quote in source.read_text(encoding="utf-8"), f"{text.source} does not say {text.quote!r}"
