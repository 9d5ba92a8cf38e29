"""Openings cut from PDN games: each game's start position and its first N plies, for a tournament to
deal as a ballot deck (`11_man_english.pdn` holds 2,400 eleven-man start positions as `[FEN]` games).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arbiter.notation.movetext import format_pdn
from arbiter.notation.pdn import PdnError, ReadOptions, read_pdn
from arbiter.notation.pdn_model import FaultKind, PdnFault, PdnGame

# Faults that do not touch the opening: text oddities away from the moves, a bad result.
_HARMLESS = frozenset({FaultKind.BAD_RESULT, FaultKind.BROKEN_TAG})
_MAX_LISTED = 20


@dataclass(frozen=True)
class PdnOpening:
    """One opening: a name, the start position (FEN) and the moves from it as PDN text (may be empty)."""

    name: str
    fen: str
    moves: str
    variant_id: str
    source: str  # `file.pdn#12`: the game it was cut from
    line: int = 1  # where that game starts in the file

    @property
    def plies(self) -> int:
        return len(self.moves.split())


def _name(game: PdnGame, stem: str) -> str:
    event = game.tags.get("Event", "").strip()
    if event.strip("?"):
        return event
    white, black = game.tags.get("White", "").strip(), game.tags.get("Black", "").strip()
    if white.strip("?") or black.strip("?"):
        return f"{white or '?'} - {black or '?'}"
    return f"{stem} #{game.number}"


def _move_text(game: PdnGame, plies: int) -> str:
    """The first plies as PDN text in the project's form (short captures, `-` for quiet moves)."""
    position = game.start_position()
    texts: list[str] = []
    for pdn_move in game.moves[:plies]:
        texts.append(format_pdn(position, pdn_move.move))
        position = position.play(pdn_move.move)
    return " ".join(texts)


def _blocking(fault: PdnFault, plies: int) -> bool:
    """Whether a fault spoils the opening: one in its first plies, or in the set-up (variant, FEN)."""
    if fault.in_variation or fault.kind in _HARMLESS:
        return False
    if fault.ply is not None:
        return fault.ply <= plies
    return fault.kind is not FaultKind.SYNTAX  # a stray brace or nested comment is not about the moves


def openings_from_pdn(
    path: str | Path, plies: int, *, default_variant: str | None = None, unique: bool = True
) -> list[PdnOpening]:
    """The openings of a PDN file: each game's start and its first ``plies`` plies (fewer where the game
    is shorter). With ``unique``, an opening that repeats an earlier one (same variant, start and moves)
    is left out. Raises PdnError naming every game whose start or first plies do not replay."""
    if plies < 0:
        raise ValueError(f"cannot cut openings at {plies} plies")
    source = Path(path)
    options = ReadOptions(default_variant=default_variant, max_plies=plies)
    openings: list[PdnOpening] = []
    seen: set[tuple[str, str, str]] = set()
    problems: list[str] = []
    problem_count = 0
    for game in read_pdn(source, options):
        blocking = [fault for fault in game.faults if _blocking(fault, plies)]
        if blocking or game.variant_id is None:
            problem_count += 1
            if len(problems) < _MAX_LISTED:
                problems.extend(game.describe_fault(fault) for fault in blocking)
            continue
        moves = _move_text(game, plies)
        key = (game.variant_id, game.start_fen, moves)
        if unique and key in seen:
            continue
        seen.add(key)
        openings.append(
            PdnOpening(
                _name(game, source.stem),
                game.start_fen,
                moves,
                game.variant_id,
                f"{source.name}#{game.number}",
                game.line,
            )
        )
    if problem_count:
        more = f"\n... and more ({problem_count} games in all)" if problem_count > _MAX_LISTED else ""
        raise PdnError(
            f"{source}: {problem_count} game(s) cannot give an opening of {plies} plies:\n"
            + "\n".join(problems)
            + more
        )
    if not openings:
        raise PdnError(f"{source}: holds no games to take openings from")
    return openings
