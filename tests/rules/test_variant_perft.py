"""Perft from the start position of every variant beyond English and international.

Sources: Brazilian depths 1-7 were published by Rein Halbersma ("Perft for all recognized draughts
variants", damforum.nl, 27 April 2010, first derived on the shashki.com forum). For the other variants
no published count was found; the numbers below are the arbiter's own, recorded in docs/variants.md,
and the move sets behind them agree with pydraughts at every node of the first three plies for Russian,
Brazilian, Italian, Turkish, Frisian and antidraughts (tests/rules/test_variants_differential.py checks
1,000 random positions of each). They pin the generator against regressions.
"""

from __future__ import annotations

import pytest

from arbiter.rules import Position, get_variant, perft

PUBLISHED = {
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302],
}

RECORDED = {
    "russian": [7, 49, 302, 1469, 7482, 37986],
    "italian": [7, 49, 302, 1469, 7361, 36473],
    "canadian": [11, 121, 1222, 10053, 79049],
    "turkish": [8, 64, 708, 7538, 85090],
    "pool": [7, 49, 302, 1469, 7482, 37986],
    "frisian": [9, 81, 658, 3874, 21265, 102431],
    "antidraughts": [9, 81, 658, 4265, 27117],
    "anti": [7, 49, 302, 1469, 7361, 36768],
    "sparse": [9, 81, 810, 8100, 88900],
    "crowded": [9, 81, 658, 4265, 26875],
    # Mules move like men, so the tree is English's; the mule rules end games, they do not cut perft.
    "mule": [7, 49, 302, 1469, 7361],
}


@pytest.mark.parametrize(("variant_id", "counts"), sorted((PUBLISHED | RECORDED).items()))
def test_perft_from_the_start_position(variant_id: str, counts: list[int]) -> None:
    start = Position.start(get_variant(variant_id))
    assert [perft(start, d) for d in range(1, len(counts) + 1)] == counts


def test_frisian_counts_each_capture_once_where_pydraughts_counts_each_path() -> None:
    # pydraughts gives 3880 at depth 4: it lists some captures once per path. The move sets agree.
    assert perft(Position.start(get_variant("frisian")), 4) == 3874
