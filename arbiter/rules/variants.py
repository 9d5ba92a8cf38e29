"""The variants the rules core knows, by id, and their named rule options.

Every variant is a ``Variant`` description; only Italian and Frisian capture priorities, Frisian's
king-move limit and the Mule checkers game end need hooks. Where the rule books disagree (``VARIANTS.md``
marks them "unsure"), the default is built in and the other reading is a named option:
``get_variant("turkish+crown-continues")``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from arbiter.rules.breakthrough import breakthrough_end
from arbiter.rules.draws import (
    Material,
    MaterialRule,
    NoProgressRule,
    Progress,
    Repetition,
    international_five_move,
    international_sixteen_move,
    kings_on_both_sides,
    lone_king_against,
    lone_king_against_kings,
    one_king_each,
    one_piece_each,
)
from arbiter.rules.geometry import DIAGONALS, FORWARD_DIAGONALS, ORTHOGONALS, Color, Geometry
from arbiter.rules.mule import mule_end
from arbiter.rules.position import Move, Position
from arbiter.rules.variant import (
    CaptureChoice,
    CaptureRemoval,
    CaptureSequence,
    CrowningInCapture,
    MoveHistory,
    NoMoveOutcome,
    Notation,
    Variant,
)


class UnknownVariantError(ValueError):
    pass


# ---------------------------------------------------------------------------------------- hooks


def italian_priorities(sequences: Sequence[CaptureSequence]) -> Sequence[CaptureSequence]:
    """Italian capture priorities after "most pieces": capture with a king; most kings; kings earliest."""
    chosen = list(sequences)
    if any(s.by_king for s in chosen):
        chosen = [s for s in chosen if s.by_king]
    most_kings = max(sum(s.kings_captured) for s in chosen)
    chosen = [s for s in chosen if sum(s.kings_captured) == most_kings]

    # "A king earliest": where the kings are met, first to last, as the federation's rule and the
    # published Italian perft order them (the first king alone does not decide between 1st-and-3rd
    # and 1st-and-2nd).
    def kings_met(s: CaptureSequence) -> tuple[int, ...]:
        return tuple(i for i, king in enumerate(s.kings_captured) if king)

    earliest = min(kings_met(s) for s in chosen)
    return [s for s in chosen if kings_met(s) == earliest]


CaptureValue = Callable[[CaptureSequence], tuple[int, int]]


def _most_valuable(sequences: Sequence[CaptureSequence], value: CaptureValue) -> list[CaptureSequence]:
    """The Frisian choice: the captures of the highest value; among those, a king's if a king has one."""
    best = max(value(s) for s in sequences)
    chosen = [s for s in sequences if value(s) == best]
    if any(s.by_king for s in chosen):
        chosen = [s for s in chosen if s.by_king]
    return chosen


def _king_just_under_two_men(s: CaptureSequence) -> tuple[int, int]:
    # A king counts as two men, and a tie goes to the capture with more men (fewer kings): so n kings
    # outweigh 2n-1 men and lose to 2n men, whatever else is captured with them.
    kings = sum(s.kings_captured)
    men = len(s.kings_captured) - kings
    return (2 * kings + men, men)


def _king_one_and_a_half_men(s: CaptureSequence) -> tuple[int, int]:
    return (sum(3 if king else 2 for king in s.kings_captured), 0)  # in half-men


def frisian_value(sequences: Sequence[CaptureSequence]) -> Sequence[CaptureSequence]:
    """Frisian: take the most value, a king worth just under two men; at equal value a king must capture."""
    return _most_valuable(sequences, _king_just_under_two_men)


def frisian_value_one_and_a_half(sequences: Sequence[CaptureSequence]) -> Sequence[CaptureSequence]:
    """The simpler reading of the value rule: a king is worth a man and a half (two kings tie three men)."""
    return _most_valuable(sequences, _king_one_and_a_half_men)


def frisian_king_limit(game: MoveHistory, moves: list[Move]) -> list[Move]:
    """Frisian: one king may not make more than three non-capturing moves in a row while its side has men.

    The player must then move another piece; if none can move, the king may move again.
    """
    history = game.moves
    if len(history) < 6 or not moves or moves[0].is_capture:
        return moves
    position = game.positions[-1]
    own = position.white if position.turn is Color.WHITE else position.black
    if not own & ~position.kings:
        return moves  # only kings: the limit does not apply
    mine = [history[-6], history[-4], history[-2]]
    before = [game.positions[-7], game.positions[-5], game.positions[-3]]
    same_king = all(
        not m.is_capture and (p.kings >> p.variant.geometry.square_bits[m.start]) & 1
        for m, p in zip(mine, before, strict=True)
    ) and (mine[0].end == mine[1].start and mine[1].end == mine[2].start)
    if not same_king:
        return moves
    others = [m for m in moves if m.start != mine[2].end]
    # "Move another piece": when no other piece can move, the limit does not apply (the rules name no
    # loss for it), and the king moves again.
    return others or moves


def _no_king_falls_by_force(position: Position) -> bool:
    # Frisian one king against one is drawn at once unless a side wins by force: the side to move
    # takes the other king now, or every move it has puts its own king where the other takes it.
    if position.has_capture():
        return False
    return not all(position.play(move).has_capture() for move in position.legal_moves())


def _two_kings_against_one(material: Material) -> bool:
    return lone_king_against_kings(material, 2)


def _three_kings_against_one(material: Material) -> bool:
    return lone_king_against_kings(material, 3)


def _three_or_more_kings_against_one(material: Material) -> bool:
    return lone_king_against_kings(material, 3, at_least=True)


def _lone_king_against_two(material: Material) -> bool:
    return lone_king_against(material, 2)


def _lone_king_against_three(material: Material) -> bool:
    return lone_king_against(material, 3)


def _two_or_three_pieces_with_kings(material: Material) -> bool:
    return kings_on_both_sides(material, 2, 3)


def _four_or_five_pieces_with_kings(material: Material) -> bool:
    return kings_on_both_sides(material, 4, 5)


def _six_or_seven_pieces_with_kings(material: Material) -> bool:
    return kings_on_both_sides(material, 6, 7)


def _main_road(position: Position) -> int:
    """The bits of the long diagonal a1-h8 of an 8x8 board (the Russian "main road")."""
    g = position.variant.geometry
    squares = [g.square_from_algebraic(f"{chr(ord('a') + i)}{i + 1}") for i in range(g.height)]
    return g.bits_of([s for s in squares if s is not None])


def _lone_king_on_main_road(position: Position) -> bool:
    # The side with a lone king (the material test has found one): its king stands on the main road.
    black_lone = not position.black & ~position.kings and position.black.bit_count() == 1
    lone = position.black if black_lone else position.white
    return bool(lone & _main_road(position))


# ---------------------------------------------------------------------------------------- variants

ENGLISH_DRAWS = (Repetition(), NoProgressRule("40-move rule", 80))
IYT_DRAWS = (Repetition(), NoProgressRule("50-move rule", 100, Progress.CAPTURE_OR_CROWNING))
# The endgame counts come first: three kings against one arises only at the start or by a capture or
# a crowning, which also restarts the king-only count, so both reach 15 moves together and the game
# names the more particular rule.
# The Russian counts of the "balance of forces" (FMJD rules for Russian draughts, 7.2.6, and the Russian
# federation's): with kings on both sides and neither a capture nor a crowning, a draw after 5 moves
# each in 2- and 3-piece endings, 30 each in 4- and 5-piece and 60 each in 6- and 7-piece endings
# (moves of each player, as the federation's text counts every rule: docs/variants.md); and a lone king
# on the main road (a1-h8) against three pieces with a king holds out for 5 moves.
RUSSIAN_DRAWS = (
    Repetition(),
    MaterialRule("15-move rule, three kings against one", 30, _three_or_more_kings_against_one),
    MaterialRule(
        "main road rule",
        10,
        _lone_king_against_three,
        restart_on_crowning=True,
        where=_lone_king_on_main_road,
    ),
    MaterialRule("5-move rule", 10, _two_or_three_pieces_with_kings, restart_on_crowning=True),
    MaterialRule("30-move rule", 60, _four_or_five_pieces_with_kings, restart_on_crowning=True),
    MaterialRule("60-move rule", 120, _six_or_seven_pieces_with_kings, restart_on_crowning=True),
    NoProgressRule("15-move rule", 30),
)

ENGLISH = Variant(
    id="english",
    title="American checkers / English draughts",
    summary="8x8, short kings, men capture forward only, free choice of capture, crowning ends the move",
    geometry=Geometry(8, 8),
    first_to_move=Color.BLACK,
    rows_of_men=3,
    man_steps=FORWARD_DIAGONALS,
    man_captures=FORWARD_DIAGONALS,
    king_steps=DIAGONALS,
    king_captures=DIAGONALS,
    flying_kings=False,
    capture_choice=CaptureChoice.FREE,
    crowning_in_capture=CrowningInCapture.ENDS_MOVE,
    draw_rules=ENGLISH_DRAWS,
    pdn_gametype=21,
    hub_name="english",
)

INTERNATIONAL = Variant(
    id="international",
    title="International draughts",
    summary="10x10, flying kings, men capture backward, the majority capture is compulsory",
    geometry=Geometry(10, 10),
    first_to_move=Color.WHITE,
    rows_of_men=4,
    man_steps=FORWARD_DIAGONALS,
    man_captures=DIAGONALS,
    king_steps=DIAGONALS,
    king_captures=DIAGONALS,
    flying_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    crowning_in_capture=CrowningInCapture.PASSES_THROUGH,
    draw_rules=(
        Repetition(),
        NoProgressRule("25-move rule", 50),
        MaterialRule("16-move rule", 32, international_sixteen_move),
        MaterialRule("5-move rule", 10, international_five_move),
    ),
    pdn_gametype=20,
    hub_name="normal",
)

ANTI = replace(
    ENGLISH,
    id="anti",
    title="Anti-checkers (It's Your Turn)",
    summary="English rules; you win by losing all your pieces or having no legal move",
    no_move_outcome=NoMoveOutcome.WIN,
    pdn_gametype=None,
    hub_name="anti",
)

SPARSE = replace(
    ENGLISH,
    id="sparse",
    title="Sparse checkers (It's Your Turn)",
    summary="English rules on a 10x10 board with 15 men each",
    geometry=Geometry(10, 10),
    rows_of_men=3,
    pdn_gametype=None,
    hub_name="sparse",
)

CROWDED = replace(
    SPARSE,
    id="crowded",
    title="Crowded checkers (It's Your Turn)",
    summary="English rules on a 10x10 board with 20 men each",
    rows_of_men=4,
    hub_name="crowded",
)

MULE = replace(
    ENGLISH,
    id="mule",
    title="Mule checkers (It's Your Turn)",
    summary=(
        "English rules; each side's back row holds 4 mules: losing all your mules or the opponent's "
        "regular pieces wins, crowning a mule or losing all your regular pieces loses"
    ),
    mule_rows=1,
    end_rule=mule_end,
    pdn_gametype=None,
    hub_name="mule",
)

RUSSIAN = replace(
    INTERNATIONAL,
    id="russian",
    title="Russian draughts (shashki)",
    summary="8x8, flying kings, free choice of capture, a man crowned mid-capture goes on as a king",
    geometry=Geometry(8, 8),
    rows_of_men=3,
    capture_choice=CaptureChoice.FREE,
    crowning_in_capture=CrowningInCapture.CONTINUES_AS_KING,
    draw_rules=RUSSIAN_DRAWS,
    notation=Notation.ALGEBRAIC,
    pdn_gametype=25,
    hub_name="russian",
)

BRAZILIAN = replace(
    INTERNATIONAL,
    id="brazilian",
    title="Brazilian draughts",
    summary="International rules on the 8x8 board",
    geometry=Geometry(8, 8),
    rows_of_men=3,
    draw_rules=RUSSIAN_DRAWS,
    notation=Notation.ALGEBRAIC,
    pdn_gametype=26,
    hub_name="brazilian",
)

CANADIAN = replace(
    INTERNATIONAL,
    id="canadian",
    title="Canadian draughts",
    summary="International rules on a 12x12 board with 30 men each",
    geometry=Geometry(12, 12),
    rows_of_men=5,
    draw_rules=(Repetition(), MaterialRule("16-move rule", 32, _three_kings_against_one)),
    pdn_gametype=27,
    hub_name="canadian",
)

ITALIAN = replace(
    ENGLISH,
    id="italian",
    title="Italian draughts",
    summary="8x8 turned, short kings, men may not capture kings, four capture priorities",
    geometry=Geometry(8, 8, dark_parity=0),
    first_to_move=Color.WHITE,
    capture_choice=CaptureChoice.MAJORITY,
    draw_rules=(Repetition(),),
    men_capture_kings=False,
    capture_filter=italian_priorities,
    pdn_gametype=22,
    hub_name="italian",
)

POOL = replace(
    INTERNATIONAL,
    id="pool",
    title="Pool checkers",
    summary="8x8, flying kings, men capture backward, free choice, crowned only where a capture ends",
    geometry=Geometry(8, 8),
    first_to_move=Color.BLACK,
    rows_of_men=3,
    capture_choice=CaptureChoice.FREE,
    draw_rules=(Repetition(), MaterialRule("13-move rule", 26, _three_kings_against_one)),
    pdn_gametype=23,
    hub_name="pool",
)

TURKISH = Variant(
    id="turkish",
    title="Turkish draughts (dama)",
    summary="all 64 squares, orthogonal moves, flying kings, majority capture, pieces removed as jumped",
    geometry=Geometry(8, 8, all_squares=True),
    first_to_move=Color.WHITE,
    rows_of_men=2,
    empty_back_rows=1,
    man_steps=("f", "l", "r"),
    man_captures=("f", "l", "r"),
    king_steps=ORTHOGONALS,
    king_captures=ORTHOGONALS,
    flying_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    crowning_in_capture=CrowningInCapture.PASSES_THROUGH,
    capture_removal=CaptureRemoval.IMMEDIATE,
    no_reversal=True,
    draw_rules=(Repetition(), MaterialRule("one piece against one", 0, one_piece_each)),
    notation=Notation.ALGEBRAIC,
    pdn_gametype=30,
    hub_name="turkish",
)

FRISIAN = replace(
    INTERNATIONAL,
    id="frisian",
    title="Frisian draughts",
    summary="10x10, captures in eight directions, the most valuable capture is compulsory, king-move limit",
    geometry=Geometry(10, 10, padding=2),
    man_captures=DIAGONALS + ORTHOGONALS,
    king_captures=DIAGONALS + ORTHOGONALS,
    capture_choice=CaptureChoice.FREE,
    draw_rules=(
        MaterialRule("7-move rule", 14, _two_kings_against_one),
        MaterialRule("one king against one", 0, one_king_each, where=_no_king_falls_by_force),
    ),
    capture_filter=frisian_value,
    history_filter=frisian_king_limit,
    history_rule=(
        "the king-move limit (one king may not make more than three non-capturing moves in a row while "
        "its side has men)"
    ),
    history_plies=6,
    pdn_gametype=40,
    hub_name="frisian",
)

ANTIDRAUGHTS = replace(
    INTERNATIONAL,
    id="antidraughts",
    title="Antidraughts",
    summary="International rules; the player who cannot move wins",
    no_move_outcome=NoMoveOutcome.WIN,
    draw_rules=(Repetition(),),
    pdn_gametype=None,
    hub_name="losing",
)

KILLER = replace(
    INTERNATIONAL,
    id="killer",
    title="Killer draughts",
    summary="International rules; a king whose capture ends by taking a king stops right behind it",
    killer=True,
    # The killer rule is there so that two kings can catch a lone king: the endings the international
    # 16- and 5-move rules draw by count are won here, so only repetition and the 25-move rule remain.
    draw_rules=(Repetition(), NoProgressRule("25-move rule", 50)),
    pdn_gametype=None,
    hub_name="killer",
)

BREAKTHROUGH = replace(
    INTERNATIONAL,
    id="bt",
    title="Breakthrough draughts",
    summary="International rules; the first side to crown a man wins",
    crowning_wins=True,
    end_rule=breakthrough_end,
    # No king ever moves (the first crowning ends the game), so only repetition can draw.
    draw_rules=(Repetition(),),
    pdn_gametype=None,
    hub_name="bt",
)

VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        ENGLISH,
        INTERNATIONAL,
        RUSSIAN,
        BRAZILIAN,
        ITALIAN,
        CANADIAN,
        TURKISH,
        POOL,
        FRISIAN,
        ANTIDRAUGHTS,
        ANTI,
        SPARSE,
        CROWDED,
        MULE,
        KILLER,
        BREAKTHROUGH,
    )
}

# Named rule options: where the sources disagree, the other reading, as a change to the description.
_ENGLISH_RULES = ("english", "anti", "sparse", "crowded", "mule")
OPTIONS: dict[str, tuple[tuple[str, ...], str, Callable[[Variant], Variant]]] = {
    "iyt-draws": (
        _ENGLISH_RULES,
        "It's Your Turn house draws: 50 moves each without capture or crowning; threefold repetition",
        lambda v: replace(v, draw_rules=IYT_DRAWS),
    ),
    "crown-continues": (
        ("turkish",),
        "a man reaching the back row mid-capture is crowned at once and goes on as a king",
        lambda v: replace(v, crowning_in_capture=CrowningInCapture.CONTINUES_AS_KING),
    ),
    "no-one-against-one-draw": (
        ("turkish",),
        "one piece against one is played out instead of drawn at once",
        lambda v: replace(v, draw_rules=(Repetition(),)),
    ),
    "no-endgame-rules": (
        ("brazilian",),
        "only threefold repetition draws (no Russian endgame counts)",
        lambda v: replace(v, draw_rules=(Repetition(),)),
    ),
    "no-13-move-rule": (
        ("pool",),
        "three kings against one are played out",
        lambda v: replace(v, draw_rules=(Repetition(),)),
    ),
    "king-one-and-a-half": (
        ("frisian",),
        "the value rule counts a king as a man and a half (two kings tie with three men)",
        lambda v: replace(v, capture_filter=frisian_value_one_and_a_half),
    ),
    # The variation of the international rules text (seeds/001): "capturing pieces isn't mandatory".
    "optional-capture": (
        # Every variant but the losing ones (see REFUSED_OPTIONS).
        ("english", "international", "russian", "brazilian", "italian", "canadian", "turkish", "pool")
        + ("frisian", "sparse", "crowded", "mule", "killer", "bt"),
        "capturing is optional: a player may make a quiet move instead (a capture follows the usual rules)",
        lambda v: replace(v, optional_capture=True),
    ),
}

# Options that a variant does not take because they make no sense there, with the reason.
REFUSED_OPTIONS: dict[tuple[str, str], str] = {
    ("optional-capture", "anti"): "in a losing game the compulsory capture is how a player gives pieces "
    "away; with captures optional no one need ever take",
    ("optional-capture", "antidraughts"): "in a losing game the compulsory capture is how a player gives "
    "pieces away; with captures optional no one need ever take",
}


def get_variant(name: str) -> Variant:
    """The variant with this id (case-insensitive), with any ``+option`` applied; errors list the choices."""
    base, *options = [part.strip() for part in name.strip().lower().split("+")]
    try:
        variant = VARIANTS[base]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}") from None
    for option in options:
        refused = REFUSED_OPTIONS.get((option, base))
        if refused is not None:
            raise UnknownVariantError(f"option {option!r} makes no sense for {base}: {refused}")
        if option not in OPTIONS or base not in OPTIONS[option][0]:
            valid = [o for o, (ids, _, _) in OPTIONS.items() if base in ids]
            raise UnknownVariantError(
                f"unknown option {option!r} for {base}; options: {', '.join(valid) or 'none'}"
            )
        variant = OPTIONS[option][2](variant)
    if options:
        variant = replace(variant, id="+".join([base, *options]), options=tuple(options))
    return variant


# Options that change only how a game may be drawn, never a move: the referee keeps those rules, so
# engines are told the base variant. Any other option changes the moves and is told as the full id.
DRAW_ONLY_OPTIONS = frozenset({"iyt-draws", "no-one-against-one-draw", "no-endgame-rules", "no-13-move-rule"})


def engine_variant(name: str) -> str:
    """The variant to tell engines for ``name``: the base id with the options that change moves, so
    ``english+iyt-draws`` is told as ``english`` and ``turkish+crown-continues`` as itself (an engine
    must declare it)."""
    variant = get_variant(name)
    base = variant.id.split("+", 1)[0]
    return "+".join([base, *(o for o in variant.options if o not in DRAW_ONLY_OPTIONS)])


def move_option_variants() -> list[str]:
    """Every variant id with one option that changes the moves (``turkish+crown-continues``), for
    engines that play them to declare."""
    return [
        f"{base}+{option}"
        for option, (bases, _, _) in OPTIONS.items()
        if option not in DRAW_ONLY_OPTIONS
        for base in bases
    ]
