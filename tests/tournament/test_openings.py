"""Opening decks: the ACF ballots, the Pro Checkers rule, opening files, and dealing order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter.tournament.openings import (
    DEFAULT_ACF_DECK_PATH,
    PRO_CHECKERS,
    Opening,
    OpeningError,
    OpeningKind,
    OpeningOrder,
    OpeningSequence,
    acf_deck,
    named_deck,
    parse_opening_line,
    read_acf_table,
    read_opening_file,
)

SHARED_DECK = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "acf_3move_deck.tsv"


def test_project_deck_is_the_shared_deck() -> None:
    if not SHARED_DECK.exists():
        pytest.skip(f"shared data not present at {SHARED_DECK}")
    assert DEFAULT_ACF_DECK_PATH.read_bytes() == SHARED_DECK.read_bytes()


def test_acf_table_holds_174_openings_in_acf_order() -> None:
    table = read_acf_table()
    assert len(table) == 174
    assert [o.id for o in table[:3]] == ["acf-1", "acf-2", "acf-3"]
    assert table[0].text == "9-13 21-17 5-9"
    assert table[4].name == "Dreaded Edinburgh"
    assert table[173].text == "12-16 24-20 10-15"
    assert all(o.kind is OpeningKind.MOVES for o in table)


@pytest.mark.parametrize(
    ("deck", "size"), [("acf-144", 144), ("acf-156", 156), ("acf-174", 174), ("acf-ctd", 50)]
)
def test_acf_decks_have_their_published_sizes(deck: str, size: int) -> None:
    assert len(acf_deck(deck)) == size


def test_barred_openings_are_only_in_the_174_deck() -> None:
    barred = {"acf-3", "acf-13", "acf-171"}  # 9-13 21-17 10-14, 9-13 23-18 10-14, 12-16 23-19 16x23
    assert barred <= {o.id for o in acf_deck("acf-174")}
    assert not barred & {o.id for o in acf_deck("acf-156")}
    assert not barred & {o.id for o in acf_deck("acf-144")}


def test_156_deck_adds_the_mail_play_openings_to_the_144() -> None:
    cross = {o.id for o in acf_deck("acf-144")}
    mail = {o.id for o in acf_deck("acf-156")} - cross
    assert len(mail) == 12
    assert "acf-6" in mail  # Inferno, 9-13 22-18 10-14


def test_decks_keep_acf_order() -> None:
    numbers = [int(o.id.removeprefix("acf-")) for o in acf_deck("acf-156")]
    assert numbers == sorted(numbers)


def test_pro_checkers_deals_the_156_deck_at_random_in_colour_pairs() -> None:
    assert PRO_CHECKERS.deck == "acf-156"
    assert PRO_CHECKERS.order is OpeningOrder.RANDOM
    assert PRO_CHECKERS.paired
    assert named_deck("pro-checkers") == acf_deck("acf-156")


def test_unknown_deck_names_the_known_ones() -> None:
    with pytest.raises(OpeningError, match="acf-144"):
        named_deck("acf-200")


def write(tmp_path: Path, text: str, name: str = "deck.tsv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_acf_table_with_a_bad_tag_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "# header\n1\t9-13 21-17 5-9\tcrossboard\t\n2\t9-13 21-17 6-9\tweekend\t\n")
    with pytest.raises(OpeningError, match=re.escape(f"{path}:3: unknown deck tags ['weekend']")):
        read_acf_table(path)


def test_acf_table_with_a_gap_in_numbers_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "1\t9-13 21-17 5-9\tcrossboard\t\n3\t9-13 21-17 6-9\tcrossboard\t\n")
    with pytest.raises(OpeningError, match=re.escape(f"{path}:2: expected ACF number 2, got 3")):
        read_acf_table(path)


def test_acf_table_with_two_moves_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "1\t9-13 21-17\tcrossboard\t\n")
    with pytest.raises(
        OpeningError, match=re.escape(f"{path}:1: a three-move opening needs exactly 3 moves, got 2")
    ):
        read_acf_table(path)


def test_acf_deck_with_missing_openings_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "1\t9-13 21-17 5-9\tcrossboard\t\n")
    with pytest.raises(OpeningError, match="deck acf-144 should hold 144 openings, found 1"):
        acf_deck("acf-144", path)


def test_missing_deck_file_says_which(tmp_path: Path) -> None:
    with pytest.raises(OpeningError, match="no such opening file"):
        read_acf_table(tmp_path / "absent.tsv")


def test_opening_file_reads_moves_and_fens_with_line_ids(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "# my openings\n"
        "11-15 23-19 8-11\n"
        "\n"
        "B:W21-32:B1-12\n"
        "1. 11-15 24-20 2. 8-11\n"
        '"W:WK18,22,24-32:B1-12"\n'
        "32-28 19-23 28x19x10\n",
        name="openings.txt",
    )
    openings = read_opening_file(path)
    assert openings == [
        Opening(id="openings.txt:2", kind=OpeningKind.MOVES, text="11-15 23-19 8-11"),
        Opening(id="openings.txt:4", kind=OpeningKind.FEN, text="B:W21-32:B1-12"),
        Opening(id="openings.txt:5", kind=OpeningKind.MOVES, text="1. 11-15 24-20 2. 8-11"),
        Opening(id="openings.txt:6", kind=OpeningKind.FEN, text="W:WK18,22,24-32:B1-12"),
        Opening(id="openings.txt:7", kind=OpeningKind.MOVES, text="32-28 19-23 28x19x10"),
    ]


def test_fen_ending_in_a_full_stop_is_accepted() -> None:
    assert parse_opening_line("W:W31,32:B1,K2.", "x").kind is OpeningKind.FEN


def test_coordinate_moves_are_accepted() -> None:
    assert parse_opening_line("c3-d4 f6-e5 d4xf6", "x").kind is OpeningKind.MOVES


def test_opening_file_with_a_bad_line_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "11-15 23-19\n11-15 castle\n", name="openings.txt")
    with pytest.raises(OpeningError, match=re.escape(f"{path}:2: 'castle' is not a move")):
        read_opening_file(path)


def test_fen_without_both_colours_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "B:W21-32\n", name="openings.txt")
    with pytest.raises(OpeningError, match=re.escape(f"{path}:1: a FEN needs one W field and one B field")):
        read_opening_file(path)


def test_fen_with_a_bad_square_is_refused() -> None:
    with pytest.raises(OpeningError, match="'Q5' in the W field"):
        parse_opening_line("W:WQ5:B1-12", "x")


def test_empty_opening_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "# nothing yet\n\n", name="openings.txt")
    with pytest.raises(OpeningError, match="holds no openings"):
        read_opening_file(path)


def test_opening_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "openings.bin"
    path.write_bytes(b"11-15 \xff\xfe\n")
    with pytest.raises(OpeningError, match="not UTF-8 text"):
        read_opening_file(path)


def make_deck(size: int) -> tuple[Opening, ...]:
    return tuple(Opening(id=f"o{i}", kind=OpeningKind.MOVES, text="11-15") for i in range(size))


def test_sequential_order_runs_through_the_deck_and_starts_again() -> None:
    sequence = OpeningSequence(make_deck(3))
    assert [o.id for o in sequence.take(7)] == ["o0", "o1", "o2", "o0", "o1", "o2", "o0"]


def test_random_order_is_fixed_by_the_seed() -> None:
    deck = make_deck(20)
    first = OpeningSequence(deck, OpeningOrder.RANDOM, seed=42).take(50)
    again = OpeningSequence(deck, OpeningOrder.RANDOM, seed=42).take(50)
    other = OpeningSequence(deck, OpeningOrder.RANDOM, seed=43).take(50)
    assert first == again
    assert first != other
    assert [o.id for o in first[:20]] != [o.id for o in deck]


def test_random_order_uses_every_opening_before_repeating_one() -> None:
    deck = make_deck(10)
    dealt = OpeningSequence(deck, OpeningOrder.RANDOM, seed=7).take(30)
    for start in (0, 10, 20):
        assert sorted(o.id for o in dealt[start : start + 10]) == sorted(o.id for o in deck)


def test_a_longer_deal_starts_with_the_shorter_one() -> None:
    sequence = OpeningSequence(make_deck(10), OpeningOrder.RANDOM, seed=3)
    assert sequence.take(25)[:13] == sequence.take(13)


def test_random_order_needs_a_seed() -> None:
    with pytest.raises(OpeningError, match="needs a seed"):
        OpeningSequence(make_deck(3), OpeningOrder.RANDOM)


def test_duplicate_opening_ids_are_refused() -> None:
    deck = make_deck(2) + make_deck(1)
    with pytest.raises(OpeningError, match="'o0' appears twice"):
        OpeningSequence(deck)


def test_empty_deck_is_refused() -> None:
    with pytest.raises(OpeningError, match="at least one opening"):
        OpeningSequence(())
