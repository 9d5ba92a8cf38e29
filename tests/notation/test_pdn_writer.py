"""Writing PDN: standard tags, clocks, short captures; read back to the same games, by us and pydraughts."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.notation.movetext import format_pdn
from arbiter.notation.pdn import read_pdn, read_pdn_text
from arbiter.notation.pdn_model import RESULTS, PdnGame, PdnMove, end_at_last_move, result_text
from arbiter.notation.pdn_writer import format_clock, format_game, game_record, write_pdn
from arbiter.rules import VARIANTS, Color, Game, Move, Position, get_variant

ENGLISH = get_variant("english")
INTERNATIONAL = get_variant("international")


def random_moves(position: Position, plies: int, rng: random.Random) -> list[Move]:
    moves: list[Move] = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return moves


def test_tags_come_in_the_standard_order_with_gametype_and_plycount() -> None:
    moves = random_moves(Position.start(ENGLISH), 4, random.Random(1))
    tags = {"Black": "Ann", "White": "Bob", "Event": "Club", "TimeControl": "40/3600", "Opening": "Old 14th"}
    text = format_game(game_record(ENGLISH, moves, tags=tags, result="1-0"))
    header = [line for line in text.splitlines() if line.startswith("[")]
    assert header == [
        '[Event "Club"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "?"]',
        '[White "Bob"]',
        '[Black "Ann"]',
        '[Result "1-0"]',
        '[GameType "21"]',
        '[TimeControl "40/3600"]',
        '[PlyCount "4"]',
        '[Opening "Old 14th"]',
    ]


def test_fen_is_written_only_where_the_game_does_not_start_from_the_initial_position() -> None:
    start = Position.start(INTERNATIONAL)
    assert "[FEN" not in format_game(game_record(INTERNATIONAL, [], start=start))
    later = start.play(start.legal_moves()[0])
    text = format_game(game_record(INTERNATIONAL, [], start=later))
    assert f'[FEN "{later.fen()}"]' in text


def test_moves_are_numbered_and_a_second_mover_start_opens_with_dots() -> None:
    start = Position.start(ENGLISH)
    first = start.legal_moves()[0]
    after = start.play(first)
    reply = after.legal_moves()[0]
    text = format_game(game_record(ENGLISH, [reply], start=after, result="*"))
    movetext = text.split("\n\n")[1]
    assert movetext == f"1... {format_pdn(after, reply)} *"
    full = format_game(game_record(ENGLISH, [first, reply], result="*")).split("\n\n")[1]
    assert full == f"1. {format_pdn(start, first)} {format_pdn(after, reply)} *"


def test_full_capture_paths_only_where_two_captures_share_start_and_end() -> None:
    position = Position.from_fen(ENGLISH, "B:W14-15,18,21-23,30:B6-8,10,12-13")
    twins = [m for m in position.legal_moves() if (m.start, m.end) == (10, 26)]
    assert len(twins) == 2
    written = format_game(game_record(ENGLISH, [twins[0]], start=position)).split("\n\n")[1]
    assert written.split()[1] in ("10x17x26", "10x19x26")
    single = Position.from_fen(ENGLISH, "B:W18,27:B14")
    (capture,) = single.legal_moves()
    assert format_game(game_record(ENGLISH, [capture], start=single)).split("\n\n")[1] == "1. 14x32 *"


def test_clocks_are_written_as_comments_after_the_move() -> None:
    start = Position.start(ENGLISH)
    moves = random_moves(start, 2, random.Random(3))
    text = format_game(game_record(ENGLISH, moves, clocks=[3552.0, 9.25], comments=[["book"], []]))
    movetext = text.split("\n\n")[1]
    assert "{[%clock b0:59:12]} {book}" in movetext
    assert "{[%clock w0:00:09.250]}" in movetext
    assert format_clock(-3.0, Color.WHITE) == "w0:00:00"
    assert format_clock(3600 * 10 + 61.5, Color.BLACK) == "b10:01:01.500"


def test_braces_in_comments_and_quotes_in_tags_are_written_so_they_read_back() -> None:
    game = game_record(ENGLISH, [], tags={"Event": 'The "Open"', "Site": "a\\b"}, intro=["x {y} z"])
    (back,) = read_pdn_text(format_game(game))
    assert back.tags["Event"] == 'The "Open"' and back.tags["Site"] == "a\\b"
    assert back.comments == ("x (y) z",)


def test_closing_comments_come_after_the_last_move_just_before_the_result() -> None:
    moves = random_moves(Position.start(ENGLISH), 2, random.Random(3))
    game = game_record(ENGLISH, moves, result="1-0", comments=[[], ["last move"]])
    text = format_game(replace(game, closing=("Black wins: White resigned", "White: a {late} reply")))
    movetext = " ".join(text.split("\n\n")[1].split())
    assert movetext.endswith("{last move} {Black wins: White resigned} {White: a (late) reply} 1-0")


LONG_REASON = (
    "Black wins: White's engine wrote output that cannot be read: engine 'bad_move': ended its search "
    "with move='e3-d4'; a move is squares joined by - or x (32-28, 28x19x23)"
)


def test_a_comment_longer_than_a_line_is_wrapped_at_spaces_and_reads_back_with_the_same_words() -> None:
    moves = random_moves(Position.start(ENGLISH), 2, random.Random(3))
    built = game_record(ENGLISH, moves, result="1-0", comments=[[], [LONG_REASON]], intro=[LONG_REASON])
    game = replace(built, closing=(LONG_REASON, "short"))
    text = format_game(game)
    assert max(len(line) for line in text.splitlines()) <= 79, text
    (back,) = read_pdn_text(text)
    assert back.ok and [m.move for m in back.moves] == moves and back.result == "1-0"
    # A line break inside braces is a space: the words come back, each comment whole and in its place.
    read = [*back.comments, *back.moves[-1].comments]
    assert [" ".join(comment.split()) for comment in read] == [LONG_REASON] * 3 + ["short"]
    assert format_game(back) == text
    # A comment that fits is not broken; a comment's own line breaks are kept.
    assert "{short} 1-0" in text
    kept = format_game(replace(game, closing=("first line\nsecond " + "word " * 20,)))
    assert "{first line\nsecond word" in kept and max(map(len, kept.splitlines())) <= 79


WORDS = st.lists(st.text(alphabet="abcxyz'-:;()", min_size=1, max_size=12), min_size=1, max_size=40)


def test_a_wrapped_comment_starts_no_line_with_a_percent_sign_which_would_make_it_an_escape_line() -> None:
    moves = random_moves(Position.start(ENGLISH), 2, random.Random(5))
    for filler in range(45):  # the %-word falls at every place of a line, a line's start among them
        reason = " ".join(["w"] * filler + ["%50", "of", "the", "time"] + ["more"] * 20)
        text = format_game(replace(game_record(ENGLISH, moves, result="1-0"), closing=(reason,)))
        assert not any(line.startswith("%") for line in text.splitlines()), text
        (back,) = read_pdn_text(text)
        assert [" ".join(comment.split()) for comment in back.moves[-1].comments] == [reason]


@settings(max_examples=60, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=4), st.integers(0, 12), st.integers(0, 2**32))
def test_comments_of_any_length_keep_lines_within_79_and_read_back_to_the_same_text(
    comments: list[list[str]], plies: int, seed: int
) -> None:
    moves = random_moves(Position.start(ENGLISH), plies, random.Random(seed))
    texts = [" ".join(words) for words in comments]
    game = replace(game_record(ENGLISH, moves, result="*"), closing=tuple(texts))
    text = format_game(game)
    assert max(len(line) for line in text.splitlines()) <= 79, text
    (back,) = read_pdn_text(text)
    read = [*(back.moves[-1].comments if back.moves else back.comments)]
    assert [" ".join(comment.split()) for comment in read] == texts
    assert format_game(back) == text


def test_a_game_read_with_a_fault_is_written_with_its_unreplayed_moves_kept() -> None:
    (game,) = read_pdn_text('[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-40 3. 9-13 *\n')
    text = format_game(game)
    assert text.split("\n\n")[1] == "1. 11-15 23-19 2. 8-11 22-40 9-13 *"


@pytest.mark.parametrize(
    ("variant", "results"),
    [
        # PDN 3.0's GameType table: result type International for 20 and 27, Default for the others.
        ("international", ("2-0", "0-2", "1-1")),
        ("canadian", ("2-0", "0-2", "1-1")),
        ("canadian+optional-capture", ("2-0", "0-2", "1-1")),  # still GameType 27
        ("international+optional-capture", ("2-0", "0-2", "1-1")),
        ("english", ("1-0", "0-1", "1/2-1/2")),
        ("russian", ("1-0", "0-1", "1/2-1/2")),
        ("frisian", ("1-0", "0-1", "1/2-1/2")),  # 10x10 too, but GameType 40
        ("killer", ("1-0", "0-1", "1/2-1/2")),  # no GameType of its own
    ],
)
def test_results_take_the_form_pdn_3_gives_the_game_type(variant: str, results: tuple[str, ...]) -> None:
    rules = get_variant(variant)
    first, second = rules.first_to_move, rules.first_to_move.opponent
    assert (result_text(rules, first), result_text(rules, second), result_text(rules, None)) == results


def test_a_variant_without_a_pdn_game_type_is_named_in_a_variant_tag() -> None:
    anti = get_variant("anti")
    moves = random_moves(Position.start(anti), 6, random.Random(5))
    text = format_game(game_record(anti, moves))
    assert '[Variant "anti"]' in text and "[GameType" not in text
    (back,) = read_pdn_text(text)
    assert back.variant_id == "anti" and [m.move for m in back.moves] == moves
    optioned = get_variant("english+iyt-draws")
    text = format_game(game_record(optioned, moves))
    assert '[GameType "21"]' in text and '[Variant "english+iyt-draws"]' in text
    (back,) = read_pdn_text(text)
    assert back.variant_id == "english+iyt-draws" and back.variant is not None
    assert back.variant.options == ("iyt-draws",)


def test_a_mule_game_reads_back_with_its_mules() -> None:
    mule = get_variant("mule")
    rng = random.Random(4)
    start = Position.start(mule)
    # From the start position there is no FEN: the Variant tag alone brings back the mules.
    from_start = format_game(game_record(mule, [], start=start, result="*"))
    assert "[FEN" not in from_start
    (plain,) = read_pdn_text(from_start)
    assert plain.start_position() == start and len(plain.start_position().mule_squares(Color.WHITE)) == 4
    for move in random_moves(start, 9, rng):
        start = start.play(move)
    moves = random_moves(start, 40, rng)
    positions = [start]
    for move in moves:
        positions.append(positions[-1].play(move))
    mules_seen = [p.mule_squares(Color.WHITE) + p.mule_squares(Color.BLACK) for p in positions]
    assert mules_seen[0] and len(set(map(tuple, mules_seen))) > 1, "the mules should move or be taken"
    text = format_game(game_record(mule, moves, start=start, result="*"))
    assert '[Variant "mule"]' in text and "[GameType" not in text
    assert f'[FEN "{start.fen()}"]' in text and ",M" in start.fen()
    (back,) = read_pdn_text(text)
    assert back.ok, back.faults
    assert (back.variant_id, back.variant_guessed) == ("mule", False)
    assert [m.move for m in back.moves] == moves
    # Positions compare their mules too; the mule squares are checked by name as well.
    assert list(back.positions()) == positions
    assert [p.mule_squares(Color.WHITE) + p.mule_squares(Color.BLACK) for p in back.positions()] == mules_seen


# --- round trip ----------------------------------------------------------------------------------------

COMMENT = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="{}[]\r"),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)
TAG_VALUE = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=20).map(
    lambda s: " ".join(s.split())
)
TAG_NAME = st.sampled_from(
    ["Event", "Site", "Date", "Round", "White", "Black", "Annotator", "Opening", "Termination"]
)
WRITABLE = sorted(VARIANTS)


@st.composite
def games(draw: st.DrawFn) -> PdnGame:
    variant = get_variant(draw(st.sampled_from(WRITABLE)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    start = Position.start(variant)
    if draw(st.booleans()):  # a set-up position: somewhere in a random game, either side to move
        for move in random_moves(start, draw(st.integers(1, 12)), rng):
            start = start.play(move)
    moves = random_moves(start, draw(st.integers(0, 40)), rng)
    clock = st.none() | st.integers(0, 10 * 3600 * 1000).map(lambda ms: ms / 1000)
    clocks = [draw(clock) for _ in moves]
    comments = [draw(st.lists(COMMENT, max_size=2)) for _ in moves]
    tags = draw(st.dictionaries(TAG_NAME, TAG_VALUE, max_size=5))
    # Any result, but where the rules end the game with a winner: then only that winner's, or none.
    end = end_at_last_move(Game(variant, start), moves)
    fitting = RESULTS if end is None or end.winner is None else (result_text(variant, end.winner), "*")
    built = game_record(
        variant,
        moves,
        start=start,
        tags=tags,
        result=draw(st.sampled_from(fitting)),
        clocks=clocks,
        comments=comments,
        intro=draw(st.lists(COMMENT, max_size=1)),
    )
    marks = [draw(st.sampled_from([(), ("!",), ("?!",), ("$3",)])) for _ in moves]
    return PdnGame(
        tags=built.tags,
        variant_id=built.variant_id,
        start_fen=built.start_fen,
        moves=tuple(
            PdnMove(m.text, m.move, m.comments, m.clock, k) for m, k in zip(built.moves, marks, strict=True)
        ),
        result=built.result,
        comments=built.comments,
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_games_written_read_back_identically(game: PdnGame) -> None:
    text = format_game(game)
    (back,) = read_pdn_text(text)
    assert back.ok, [back.describe_fault(f) for f in back.faults]
    assert back.variant_id == game.variant_id and not back.variant_guessed
    assert back.start_fen == game.start_fen
    assert back.moves == game.moves
    assert (back.result, back.comments, back.rest) == (game.result, game.comments, ())
    for name, value in game.tags.items():
        assert back.tags[name] == value
    assert format_game(back) == text


def test_many_games_in_one_file_read_back_in_order(tmp_path: Path) -> None:
    rng = random.Random(11)
    written = [
        game_record(variant, random_moves(Position.start(variant), rng.randrange(60), rng), result="*")
        for variant in (ENGLISH, INTERNATIONAL) * 5
    ]
    path = tmp_path / "games.pdn"
    assert write_pdn(path, written) == 10
    back = list(read_pdn(path))
    assert [g.moves for g in back] == [g.moves for g in written]
    assert [g.variant_id for g in back] == [g.variant_id for g in written]


# --- pydraughts reads what we write ---------------------------------------------------------------------


def _pieces(fen: str) -> tuple[str, frozenset[str], frozenset[str]]:
    """A FEN as (side to move, white squares, black squares), ranges written out, order ignored."""
    side, *fields = fen.rstrip(".").split(":")
    sets: dict[str, set[str]] = {"W": set(), "B": set()}
    for piece_field in fields:
        for item in filter(None, piece_field[1:].split(",")):
            king = "K" if item.startswith("K") else ""
            body = item.lstrip("K")
            if "-" in body:
                low, high = body.split("-")
                sets[piece_field[0]].update(f"{king}{n}" for n in range(int(low), int(high) + 1))
            else:
                sets[piece_field[0]].add(f"{king}{body}")
    return side, frozenset(sets["W"]), frozenset(sets["B"])


def _twin_capture_game(variant_id: str) -> list[Move]:
    """A random game from the start that ends with a capture needing its full path."""
    variant = get_variant(variant_id)
    for seed in range(5000):
        rng = random.Random(seed)
        position = Position.start(variant)
        moves: list[Move] = []
        for _ in range(200):
            legal = position.legal_moves()
            if not legal:
                break
            # Two captures with one start and end: the writer needs the full path for either.
            ends = Counter((m.start, m.end) for m in legal if m.is_capture)
            for move in legal:
                if ends[move.start, move.end] > 1:
                    return [*moves, move]
            move = rng.choice(legal)
            moves.append(move)
            position = position.play(move)
    raise AssertionError(f"no {variant_id} game with a full-path capture in 5000 random games")


# The variants pydraughts also plays. Pool and Canadian checkers are not among them, so no other
# program checks how those games are written.
PYDRAUGHTS_VARIANTS = ("english", "international", "russian", "brazilian", "turkish")


def test_pydraughts_reads_our_games_to_the_same_moves_and_positions() -> None:
    """Our games of every variant pydraughts plays (not Pool or Canadian) read there move for move."""
    pdn_module = pytest.importorskip("draughts.PDN")
    from draughts import Board
    from draughts import Move as DraughtsMove

    rng = random.Random(7)
    ours: list[PdnGame] = [
        game_record(ENGLISH, random_moves(Position.start(ENGLISH), 50, rng), result="1-0"),
        game_record(INTERNATIONAL, random_moves(Position.start(INTERNATIONAL), 60, rng), result="2-0"),
        game_record(ENGLISH, _twin_capture_game("english"), clocks=[61.0] * 3, comments=[["a note"]]),
        game_record(INTERNATIONAL, _twin_capture_game("international"), result="1-1"),
    ]
    # Algebraic boards: a capture is written with 'x', which pydraughts reads ('c3:e5' it rejects).
    for variant_id in PYDRAUGHTS_VARIANTS[2:]:
        variant = get_variant(variant_id)
        ours.append(game_record(variant, random_moves(Position.start(variant), 60, rng), result="1-0"))
        ours.append(game_record(variant, _twin_capture_game(variant_id), result="*"))
    # A set-up with White to move (pydraughts 0.6.7 misreads set-ups with Black to move: it doubles the
    # first move, and drops the games after one that has no moves).
    setup = Position.from_fen(INTERNATIONAL, "W:W10,16,19,28,31,33,46:B7,8,12,17,26,37,42")
    ours.append(game_record(INTERNATIONAL, random_moves(setup, 11, rng), start=setup))
    assert any("x" in m.text and len(m.text.split("x")) > 2 for g in ours for m in g.moves)
    text = "".join(format_game(game) for game in ours)
    theirs = pdn_module.PDNReader(pdn_text=text).games
    assert len(theirs) == len(ours)
    for game, other in zip(ours, theirs, strict=True):
        assert other.moves == [m.text for m in game.moves]
        assert other.game_ending == game.result
        fen = other.tags.get("FEN")
        board = Board(other.variant, fen) if fen else Board(other.variant)
        for text_move in other.moves:
            board.push(DraughtsMove(board, pdn_move=text_move))
        assert _pieces(board.fen) == _pieces(game.end_position().fen())


def test_tags_of_other_programs_are_kept_when_written_again() -> None:
    (game,) = read_pdn_text('[Variant "Standard"]\n[GameType "20"]\n[WhiteElo "2175"]\n1. 32-28 *\n')
    text = format_game(game)
    assert '[Variant "Standard"]' in text and '[WhiteElo "2175"]' in text
    assert read_pdn_text(text)[0].variant_id == "international"
