"""Which variant a PDN game is: from GameType, or guessed from the FEN, the board and the moves."""

from __future__ import annotations

from arbiter.notation.pdn import read_pdn_text
from arbiter.notation.pdn_model import FaultKind
from arbiter.notation.pdn_variant import GAME_TYPES, board_extent, could_open, find_variant, parse_game_type
from arbiter.rules import VARIANTS


def test_gametype_numbers_map_to_rules_core_ids() -> None:
    english, _ = parse_game_type("21")
    assert english is not None and english.variant_id == "english"
    long_form, problem = parse_game_type("20,W,10,10,N2,0")
    assert long_form is not None and long_form.variant_id == "international" and problem is None
    missing, why = parse_game_type("W,10")
    assert missing is None and why == "GameType 'W,10' does not start with a game type number"


def test_every_supported_variant_with_a_gametype_is_in_the_table() -> None:
    numbers = {g.number: g.variant_id for g in GAME_TYPES}
    for variant in VARIANTS.values():
        if variant.pdn_gametype is not None and variant.id == numbers.get(variant.pdn_gametype):
            finding = find_variant({"GameType": str(variant.pdn_gametype)}, None, [])
            assert finding.variant is not None and finding.variant.id == variant.id
            assert not finding.guessed


def test_a_game_without_gametype_on_squares_up_to_32_opening_with_black_is_english() -> None:
    finding = find_variant({}, None, ["11-15", "23-19"])
    assert (finding.variant_id, finding.guessed) == ("english", True)
    assert finding.how.startswith("guessed English draughts from the game (squares up to 23")


def test_32_28_opens_an_international_game_not_an_8x8_one() -> None:
    # On 8x8 boards the men on 32 are hemmed in at the start: only international can open with it.
    finding = find_variant({}, None, ["32-28", "19-23"])
    assert finding.variant_id == "international"
    assert "first move 32-28 by white" in finding.how


def test_squares_past_32_mean_the_10x10_board() -> None:
    assert find_variant({}, "W:W31-50:B1-20", []).variant_id == "international"
    assert find_variant({}, "W:W41,K50:B7", []).variant_id == "international"


def test_a_fen_on_small_squares_guesses_english() -> None:
    assert find_variant({}, "W:W31,29,K15:B14,13,12,9", []).variant_id == "english"


def test_coordinates_mean_an_8x8_board_read_algebraically() -> None:
    finding = find_variant({}, None, ["c3-d4", "f6-g5"])
    assert finding.variant_id == "russian"
    assert [g.variant_id for g in finding.alternatives] == ["brazilian", "czech"]


def test_white_opening_from_the_front_row_of_8x8_numbers_is_italian() -> None:
    assert find_variant({}, None, ["21-17", "12-15"]).variant_id == "italian"


def test_the_game_before_in_the_file_settles_a_game_that_fits_several_boards() -> None:
    international = find_variant({}, "W:W31-50:B1-20", [])
    problem = find_variant({}, "W:W19,26,27,32:B6,7,9,17", ["32-28", "7-12"], before=international)
    assert problem.variant_id == "international"
    assert "as for the game before it in the file" in problem.how


def test_a_variant_tag_naming_a_rules_core_variant_wins() -> None:
    finding = find_variant({"Variant": "antidraughts", "GameType": "20"}, None, [])
    assert (finding.variant_id, finding.guessed) == ("antidraughts", False)


def test_the_users_variant_is_used_where_there_is_no_gametype() -> None:
    assert find_variant({}, None, ["11-15"], default="pool").variant_id == "pool"
    assert find_variant({"GameType": "21"}, None, ["11-15"], default="pool").variant_id == "english"


def test_board_extent_reads_fen_squares_without_taking_colour_letters_for_coordinates() -> None:
    extent = board_extent("B:W19,23:B4,K3", [])
    assert (extent.highest, extent.algebraic) == (23, False)
    coordinates = board_extent("W:Wa1,c3:Bh8", ["e3-f4"])
    assert (coordinates.algebraic, coordinates.files, coordinates.ranks) == (True, 8, 8)


def test_could_open_needs_a_man_of_the_first_mover_and_an_empty_square() -> None:
    english, international = GAME_TYPES[0], GAME_TYPES[1]
    assert could_open(english, "11-15") and not could_open(english, "23-19")
    assert could_open(international, "32-28") and not could_open(international, "37-32")


def test_a_guess_that_does_not_replay_tries_the_variants_alike_and_names_the_one_it_may_be() -> None:
    # The start of a Czech league game (mrdrcd07.pdn, game 1). At ply 15 White plays b2-a3; Russian and
    # Brazilian rules would force the man on a5 to take backwards (a5xc3), which Czech men cannot.
    text = (
        "1. g3-f4 f6-g5 2. c3-d4 d6-c5 3. b2-c3 g7-f6 4. c3-b4 e7-d6 5. b4-a5 f8-e7 "
        "6. a1-b2 c5-b4 7. a3xc5 d6xb4 8. b2-a3 *\n"
    )
    (game,) = read_pdn_text(text)
    assert game.variant_guessed
    if "czech" in VARIANTS:  # once the rules core has Czech draughts, the same text simply replays
        assert game.ok and game.variant_id == "czech"
        return
    (fault,) = game.faults
    assert (fault.kind, fault.ply) == (FaultKind.ILLEGAL_MOVE, 15)
    assert fault.reason.startswith("b2-a3 is not legal for White in ")
    assert "legal moves: a5xc3" in fault.reason
    assert "does not replay as Russian draughts or Brazilian draughts either" in fault.reason
    assert fault.reason.endswith("it may be Czech draughts (GameType 29), not supported yet]")


def test_a_guess_that_fails_is_replaced_by_a_variant_alike_that_replays() -> None:
    # mrdrcd07.pdn game 6 to ply 37: h6:f8 takes one man and stops on the back row. A Russian man
    # crowned there goes on taking as a king (h6:f8:c5:a7), so the guess, Russian, fails; in
    # Brazilian the man passing the back row is not crowned and h6:f8 is the only capture.
    text = (
        "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 h8-g7 4. a3-b4 b6-a5 5. g3-f4 e5:g3 6. h2:f4 d6-e5 "
        "7. f4:d6 e7:a3 8. f2-g3 d8-e7 9. g3-h4 g7-f6 10. e3-f4 e7-d6 11. d2-e3 d6-e5 12. f4:d6 c7:e5 "
        "13. g1-h2 a7-b6 14. e1-d2 b8-c7 15. e3-f4 e5:g3 16. h2:f4 c7-d6 17. c3-d4 h6-g5 18. f4:h6 f8-g7 "
        "19. h6:f8 *\n"
    )
    (game,) = read_pdn_text(text)
    assert game.ok, game.faults
    assert (game.variant_id, game.plies) == ("brazilian", 37)
    assert (
        game.variant_how
        == "guessed Brazilian draughts: the moves are legal there, not in Russian draughts (no GameType tag)"
    )
    (as_russian,) = read_pdn_text('[GameType "25"]\n' + text)
    assert as_russian.faults[0].reason.startswith("h6:f8 is not legal for White")
    assert as_russian.faults[0].reason.endswith("legal moves: h6xa7")
