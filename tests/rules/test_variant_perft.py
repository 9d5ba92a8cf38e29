"""Perft from the start position of every variant beyond English and international.

Published counts (duplicate captures removed, as here: two sequences with the same start, end and
captured pieces are one move):

- Brazilian, Russian and pool: the "Standard validation generator moves" thread of the shashki.com
  forum, as collected in Rein Halbersma's dctl test suite (github.com/rhalbersma/dctl,
  test/src/ai/traversal/initial/board8x8.cpp); Brazilian to depth 7 also in his "Perft for all
  recognized draughts variants" post on the FMJD forum (damforum.nl / laatste.info, 27 April 2010).
- Italian: that FMJD forum thread, as collected in dctl's board8x8.cpp.
- Frisian: that thread (post of 6 May 2010, rules as here: n kings weigh between 2n-1 and 2n men, a
  king must capture at equal value), as collected in dctl's board10x10.cpp. The first kings appear at
  depth 7, so depth 7 also checks crowning and king moves.
- Italian positions: Ed Gilbert's three test positions from the FMJD forum's alternative game rules
  thread, as collected in dctl (test/src/ai/traversal/italian/gilbert.cpp). The third has kings on
  both sides and pins the last capture priority (where the kings are met, first to last).
- Canadian: the "Perft on large boards" thread of the FMJD forum, as collected in dctl's large.cpp.

Depth 8 is where Russian (929899) and pool (929896) first differ: Russian men crowned in mid-capture go
on as kings.

No published counts were found for Turkish, sparse and crowded: their numbers are the arbiter's own,
recorded in docs/variants.md to pin the generator against regressions. Antidraughts, anti and mule
have the move trees of international and English draughts (only who wins differs), so their counts are
those published for those two.
"""

from __future__ import annotations

import pytest

from arbiter.rules import Position, get_variant, perft

PUBLISHED = {
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899],
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146, 929896],
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532, 828783],
    "frisian": [9, 81, 658, 3874, 21265, 102431, 540126],
    "canadian": [11, 121, 1222, 10053, 79049, 584100],
    # The move trees of international and English draughts (VARIANTS.md's published counts).
    "antidraughts": [9, 81, 658, 4265, 27117],
    "anti": [7, 49, 302, 1469, 7361, 36768],
    "mule": [7, 49, 302, 1469, 7361],
}

RECORDED = {
    "turkish": [8, 64, 708, 7538, 85090],
    "sparse": [9, 81, 810, 8100, 88900],
    "crowded": [9, 81, 658, 4265, 26875],
}


@pytest.mark.parametrize(("variant_id", "counts"), sorted((PUBLISHED | RECORDED).items()))
def test_perft_from_the_start_position(variant_id: str, counts: list[int]) -> None:
    start = Position.start(get_variant(variant_id))
    assert [perft(start, d) for d in range(1, len(counts) + 1)] == counts


def test_frisian_counts_each_capture_once_where_pydraughts_counts_each_path() -> None:
    # pydraughts gives 3880 at depth 4: it lists some captures once per path. The move sets agree.
    assert perft(Position.start(get_variant("frisian")), 4) == 3874


# Ed Gilbert's Italian positions (square numbers as here) and their published counts.
GILBERT_ITALIAN = [
    ("W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3", [5, 13, 42, 107, 360, 1099, 3736, 12495]),
    ("B:W30,21,22,17,20,K6:B25,28,9,5,1,3", [6, 47, 271, 1916, 10810, 73137]),
    ("W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4", [13, 112, 828, 6756, 46241, 368908, 2468110]),
]


@pytest.mark.parametrize(("fen", "counts"), GILBERT_ITALIAN)
def test_italian_perft_of_ed_gilberts_positions(fen: str, counts: list[int]) -> None:
    position = Position.from_fen(get_variant("italian"), fen)
    assert [perft(position, d) for d in range(1, len(counts) + 1)] == counts
