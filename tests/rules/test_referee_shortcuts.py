"""The short ways the rules answer a referee on every ply must say exactly what the long ways say.

A position counts its quiet moves and checks the one it is given instead of listing them, writes its
Hub string by changing the letters the move changed, and trusts a move it has just found; a game
asks the material draw rules again only when a capture or a crowning changed the material. Each is
checked here against the plain answer: the full list of legal moves, a string written afresh, a
recount of the rules over the whole game.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arbiter.notation.movetext import MoveTextError, format_hub, format_pdn, parse_hub
from arbiter.rules import Game, Move, Position, Variant, get_variant
from arbiter.rules.draws import DrawRule, MaterialRule, NoProgressRule, Progress, Repetition
from arbiter.rules.game import EndReason
from arbiter.rules.variants import VARIANTS, move_option_variants

# Every variant, and every option that changes the moves (optional captures, crowning mid-capture).
ALL_VARIANTS = sorted(VARIANTS) + move_option_variants()


def random_game(variant: Variant, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    while game.end is None and game.ply < plies:
        game.play(rng.choice(game.legal_moves()))
    return game


def fresh(position: Position) -> Position:
    """The same position built anew: nothing it has worked out is cached."""
    return Position(
        position.variant, position.white, position.black, position.kings, position.turn, mules=position.mules
    )


@pytest.mark.parametrize("variant_id", ALL_VARIANTS)
def test_moves_counted_and_matched_one_by_one_are_those_of_the_full_list(variant_id: str) -> None:
    variant = get_variant(variant_id)
    squares = range(1, variant.square_count + 1)
    for seed in range(4):
        for position in random_game(variant, seed, 80).positions:
            moves = fresh(position).legal_moves()
            counted = fresh(position)
            assert counted.legal_move_count() == len(moves), position.fen()
            assert counted.has_capture() == any(m.is_capture for m in moves), position.fen()
            matched = fresh(position)
            keys = {m.key for m in moves}
            for start in squares:
                for end in squares:
                    found = matched.find_move(start, end)
                    if (start, end, frozenset()) in keys:
                        assert found is not None and found in moves and found.raw in [m.raw for m in moves]
                    else:
                        assert found is None, f"{position.fen()}: {start}-{end} is not legal"


@pytest.mark.parametrize("variant_id", ALL_VARIANTS)
def test_the_hub_string_kept_move_by_move_is_the_one_written_afresh(variant_id: str) -> None:
    variant = get_variant(variant_id)
    for seed in range(3):
        rng = random.Random(seed)
        position = Position.start(variant)
        position.hub()  # known from the start: every later string is the previous one with changes
        for _ in range(150):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
            assert position.hub() == fresh(position).hub(), position.fen()


def test_a_move_found_in_one_position_is_still_refused_in_another() -> None:
    variant = get_variant("english")
    start = Position.start(variant)
    move = start.find_move(11, 15)
    assert move is not None
    after = start.play(move)
    # Black's own man move, offered again to White, and again to Black once 15 is taken.
    with pytest.raises(ValueError, match="not a legal move"):
        after.play(move)
    reply = after.find_move(23, 19)
    assert reply is not None
    with pytest.raises(ValueError, match="not a legal move"):
        after.play(parse_hub(start, "9-13"))
    with pytest.raises(ValueError, match="not a legal move"):
        after.play(reply).play(move)


def test_a_quiet_move_is_refused_while_a_capture_is_compulsory_and_allowed_where_it_is_optional() -> None:
    hub = "B" + "e" * 8 + "b" + "e" * 4 + "w" + "e" * 18  # Black's man on 9 can take 14
    compulsory = Position.from_hub(get_variant("english"), hub)
    optional = Position.from_hub(get_variant("english+optional-capture"), hub)
    with pytest.raises(MoveTextError, match="not a legal move"):
        parse_hub(compulsory, "9-13")
    assert compulsory.legal_move_count() == 1 and compulsory.has_capture()
    assert format_hub(parse_hub(optional, "9-13")) == "9-13"
    assert optional.legal_move_count() == 2 and optional.has_capture()  # 9x18 and 9-13


def test_breakthrough_gives_no_move_once_the_opponent_has_crowned() -> None:
    # White to move, Black has a king: the game is over, so nothing is legal, quiet or not.
    position = Position.from_fen(get_variant("bt"), "W:W33:BK1")
    assert position.legal_move_count() == 0 and not position.has_capture()
    assert position.find_move(33, 28) is None
    with pytest.raises(MoveTextError, match="not a legal move"):
        parse_hub(position, "33-28")


@pytest.mark.parametrize("text", ["9-1²", "²-13", "9x1³x14"])
def test_a_square_written_with_a_superscript_digit_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(MoveTextError, match="not a square"):
        parse_hub(Position.start(get_variant("english")), text)


def test_a_move_text_read_before_is_refused_again_where_it_is_not_legal() -> None:
    variant = get_variant("english")
    start = Position.start(variant)
    assert format_hub(parse_hub(start, "11-15")) == "11-15"  # now known to the reader
    after = start.play(parse_hub(start, "11-15"))
    with pytest.raises(MoveTextError, match="not a legal move"):
        parse_hub(after, "11-15")


def recounted_material_since(game: Game, rule: MaterialRule) -> int | None:
    """The ply since which ``rule`` has held, recounted over the whole game as the rules describe it:
    from the ply the situation arose, restarted by a capture (or a crowning, where the rule says so)."""
    since: int | None = None
    for ply, position in enumerate(game.positions):
        if not rule.holds(position, position.material()):
            since = None
            continue
        move: Move | None = game.moves[ply - 1] if ply else None
        restarts = move is not None and (move.is_capture or (move.crowns and rule.restart_on_crowning))
        if since is None or restarts:
            since = ply
    return since


@pytest.mark.parametrize(
    ("variant_id", "fen"),
    [
        # Kings and men on both sides: random play goes through the endgame counts (and, in Russian
        # and Brazilian, a lone king on the main road) as pieces are taken and men crowned.
        ("international", "W:WK1,K28,33:BK46,20"),
        ("russian", "W:WK1,K22,19:BK27,14"),
        ("brazilian", "B:WK1,K22,19:BK27,14"),
        ("pool", "W:WK1,K22,K19:BK27,14"),
    ],
)
def test_material_draw_counts_kept_move_by_move_match_a_recount(variant_id: str, fen: str) -> None:
    variant = get_variant(variant_id)
    start = Position.from_fen(variant, fen)
    rules = [rule for rule in variant.draw_rules if isinstance(rule, MaterialRule)]
    assert rules
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(variant, start)
        while game.end is None and game.ply < 200:
            game.play(rng.choice(game.legal_moves()))
            counters = {c.rule: c for c in game.counters()}
            for rule in rules:
                since = recounted_material_since(game, rule)
                counter = counters[rule.name]
                assert counter.running == (since is not None), (seed, game.ply, rule.name)
                if since is not None:
                    assert counter.count == game.ply - since, (seed, game.ply, rule.name)


@pytest.mark.parametrize("variant_id", ALL_VARIANTS)
def test_the_position_ply_and_turn_a_game_keeps_are_those_of_its_lists(variant_id: str) -> None:
    variant = get_variant(variant_id)
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(variant)
        while True:
            assert game.position is game.positions[-1]
            assert game.ply == len(game.moves) == len(game.positions) - 1
            assert game.turn is game.position.turn
            if game.end is not None or game.ply >= 120:
                break
            game.play(rng.choice(game.legal_moves()))


def with_draw_rules(base: str, *rules: DrawRule) -> Variant:
    """``base`` with only ``rules`` to draw a game: short limits, so random play reaches them."""
    return replace(get_variant(base), id=f"{base}-short-draws-{len(rules)}", draw_rules=rules)


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        # Kings only, so random play repeats positions and runs the no-progress and endgame counts out.
        (get_variant("english"), "W:WK1,K3:BK30,K32"),
        (get_variant("english+iyt-draws"), "W:WK1,K3,K6:BK30,K32"),
        (get_variant("international"), "W:WK1,K3:BK48,K50"),
        (get_variant("international"), "W:WK1,K3,K5:BK50"),
        (get_variant("russian"), "W:WK1,K22,K19:BK27"),
        (get_variant("italian"), "W:WK1,K3:BK30,K32"),
        (get_variant("turkish"), "W:WK9,K10:BK56"),
        (get_variant("frisian"), "W:WK1,K3:BK48"),
        # Men move but nothing is taken or crowned: only the capture-or-crowning count runs out.
        (
            with_draw_rules("english", NoProgressRule("6 plies", 6, Progress.CAPTURE_OR_CROWNING)),
            "W:WK1,29,30:BK32,4,5",
        ),
        (with_draw_rules("english", Repetition(2), NoProgressRule("9 plies", 9)), "W:WK1,K3:BK30,K32"),
    ],
    ids=lambda value: value.id if isinstance(value, Variant) else value,
)
def test_a_draw_rule_ends_the_game_exactly_when_its_count_reaches_its_limit(
    variant: Variant, fen: str
) -> None:
    """``counters`` walks every rule; the game, after most moves, asks none of them (no count is near a
    limit): both must agree on the ply the game is drawn and by which rule."""
    start = Position.from_fen(variant, fen)
    drawn: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        game = Game(variant, start)  # asked at the start too: some endgames are drawn at once
        while True:
            due = next((c.rule for c in game.counters() if c.running and c.count >= c.limit), None)
            end = game.end
            if end is not None and end.reason not in (EndReason.REPETITION, EndReason.MOVE_COUNT_RULE):
                break
            assert (end.rule if end is not None else None) == due, (seed, game.ply)
            if end is not None:
                drawn.add(end.rule)
                break
            if game.ply >= 300:
                break
            game.play(rng.choice(game.legal_moves()))
    assert drawn, "some game should have been drawn by a rule"


@pytest.mark.parametrize("variant_id", ALL_VARIANTS)
def test_the_texts_a_move_carries_are_those_written_from_its_squares(variant_id: str) -> None:
    variant = get_variant(variant_id)
    name = variant.square_name
    for position in random_game(variant, 0, 80).positions:
        for move in position.legal_moves():
            if move.captured:
                hub = "x".join(str(square) for square in [move.start, move.end, *sorted(move.captured)])
                pdn = f"{name(move.start)}x{name(move.end)}"
            else:
                hub, pdn = f"{move.start}-{move.end}", f"{name(move.start)}-{name(move.end)}"
            assert (move.hub, move.pdn) == (hub, pdn)
            assert format_hub(move) == hub
            assert parse_hub(fresh(position), hub) == move
            if not position.shares_start_and_end(move):
                assert format_pdn(position, move) == pdn
