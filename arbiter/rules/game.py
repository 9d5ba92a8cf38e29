"""A game: its history, whose turn it is, and when and why it ends under the variant's rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from arbiter.rules.draws import MaterialRule, NoProgressRule, Progress, Repetition
from arbiter.rules.geometry import Color
from arbiter.rules.position import Move, Position
from arbiter.rules.variant import MoveHistory, NoMoveOutcome, Variant


class EndReason(StrEnum):
    NO_PIECES = "no_pieces"
    NO_LEGAL_MOVES = "no_legal_moves"
    REPETITION = "repetition"
    MOVE_COUNT_RULE = "move_count_rule"
    VARIANT_RULE = "variant_rule"  # a game end of the variant's own (the Mule checkers mule rules)


@dataclass(frozen=True)
class GameEnd:
    winner: Color | None  # None for a draw
    reason: EndReason
    rule: str  # the rule that decided, e.g. "40-move rule", "crowned a mule"
    ply: int  # plies played when the game ended
    detail: str = ""  # a variant rule's end in words, e.g. "White crowned its own mule"

    def describe(self) -> str:
        if self.reason is EndReason.VARIANT_RULE:
            what = self.detail or self.rule
            return f"{what} ({_name(self.winner)} wins)" if self.winner is not None else f"draw: {what}"
        if self.reason is EndReason.NO_PIECES:
            loser = self.winner.opponent if self.winner is not None else None
            return f"{_name(loser)} has no pieces left" if loser is not None else "no pieces left"
        if self.reason is EndReason.NO_LEGAL_MOVES:
            return f"the side to move has no legal move ({_name(self.winner)} wins)"
        return f"draw by the {self.rule}"


def _name(color: Color | None) -> str:
    return "nobody" if color is None else color.name.capitalize()


@dataclass(frozen=True)
class RuleCounter:
    """How far a draw rule has run: ``count`` plies (or occurrences) of ``limit``."""

    rule: str
    count: int
    limit: int
    running: bool = True  # False while a material rule's situation does not hold


@dataclass(frozen=True)
class History:
    """A stretch of a game as an engine is told it: the positions, oldest first and the current one
    last, and the moves between them. Its legal moves apply the rules on earlier moves as far as the
    stretch shows them (Frisian's king-move limit needs the last six plies)."""

    positions: Sequence[Position]
    moves: Sequence[Move]

    def legal_moves(self) -> list[Move]:
        return _legal_after(self)


def _legal_after(history: MoveHistory) -> list[Move]:
    """The legal moves of the last position of ``history``, less those its variant's rule on earlier
    moves forbids (as far as ``history`` shows them)."""
    position = history.positions[-1]
    moves = position.legal_moves()
    history_filter = position.variant.history_filter
    return history_filter(history, moves) if history_filter is not None and moves else moves


_NEVER = 1 << 62  # the limit of a kind of draw rule the variant does not have


class Game:
    """A sequence of legal moves from a start position, with the variant's game-end and draw rules."""

    def __init__(self, variant: Variant, start: Position | None = None) -> None:
        self.variant = variant
        self._history_rule = variant.history_filter is not None  # asked twice a ply
        self.start = start if start is not None else Position.start(variant)
        if self.start.variant.id != variant.id:
            raise ValueError(f"start position is {self.start.variant.id}, game is {variant.id}")
        self.positions: list[Position] = [self.start]
        self.moves: list[Move] = []
        # Kept by ``play`` as plain attributes, not worked out on each read: a referee reads them several
        # times a ply. Read them; never set them.
        self.position: Position = self.start
        self.ply = 0
        self.turn: Color = self.start.turn
        self._seen: dict[Position, int] = {self.start: 1}
        self._repeated = 1  # how many times the current position has stood, counting now
        # Where men also step sideways (Turkish), a man's sideways step can be undone, so positions
        # before it may recur: only a forward step or a capture makes the earlier ones unreachable.
        self._men_step_sideways = any(step in ("l", "r") for step in variant.man_steps)
        # Plies without progress, by what counts as progress (``_quiet_plies`` reads them by rule).
        self._plies_since_man_move_or_capture = 0
        self._plies_since_capture_or_crowning = 0
        self._material_since: dict[str, int | None] = {}
        self._material_rules = [rule for rule in variant.draw_rules if isinstance(rule, MaterialRule)]
        # Material changes only by a capture or a crowning: after any other move only the rules that
        # also look at where the pieces stand (the Russian main road) are asked again.
        self._placed_rules = [rule for rule in self._material_rules if rule.where is not None]
        for rule in self._material_rules:
            holds = rule.holds(self.start, self.start.material())
            self._material_since[rule.name] = 0 if holds else None
        self._material_running = self._any_material_running()
        # The lowest count at which a repetition or a no-progress rule can end the game: while the
        # counts stay below them and no material count runs, ``_draw`` need not ask each rule.
        rules = variant.draw_rules
        self._fewest_repeats = min((r.times for r in rules if isinstance(r, Repetition)), default=_NEVER)
        self._fewest_quiet_plies = min(
            (r.plies for r in rules if isinstance(r, NoProgressRule)), default=_NEVER
        )
        self.end: GameEnd | None = self._judge()

    def legal_moves(self) -> list[Move]:
        """The legal moves now, including any rule that depends on earlier moves."""
        return _legal_after(self)

    def refusal(self, move: Move) -> str | None:
        """Why a move legal in the position is not allowed by the rules on earlier moves, or None."""
        if self.variant.history_filter is None or move in self.legal_moves():
            return None
        return f"it breaks {self.variant.history_rule}"

    def is_irreversible(self, move: Move) -> bool:
        """Whether playing ``move`` now makes every earlier position unreachable: a capture, or a man's
        step forward (a man's sideways step, in Turkish, can be undone)."""
        if move.captured:
            return True
        if self.position.kings & move.raw[0]:
            return False
        return not self._men_step_sideways or not self._is_sideways(move)

    def play(self, move: Move) -> GameEnd | None:
        """Play a legal move; returns how the game ended if this move ended it."""
        if self.end is not None:
            raise ValueError(f"the game is over: {self.end.describe()}")
        if self._history_rule:
            refused = self.refusal(move)
            if refused is not None:
                raise ValueError(f"{move.path} is not allowed here by the {self.variant.id} rules: {refused}")
        before = self.position
        after = before.play(move)  # refuses a move that is not legal in the position
        capture = bool(move.captured)
        moved_man = not before.kings & move.raw[0]
        self.moves.append(move)
        self.positions.append(after)
        self.position = after
        self.ply += 1
        self.turn = after.turn
        if capture or (moved_man and not (self._men_step_sideways and self._is_sideways(move))):
            self._seen = {after: 1}  # irreversible: no earlier position can come back
            self._repeated = 1
        else:
            self._repeated = self._seen[after] = self._seen.get(after, 0) + 1
        if moved_man or capture:
            self._plies_since_man_move_or_capture = 0
        else:
            self._plies_since_man_move_or_capture += 1
        if capture or move.crowns:
            self._plies_since_capture_or_crowning = 0
        else:
            self._plies_since_capture_or_crowning += 1
        if self._material_rules and (capture or move.crowns or self._placed_rules):
            self._count_material(after, move)
        self.end = self._judge()
        return self.end

    def _count_material(self, after: Position, move: Move) -> None:
        material = after.material()
        rules = self._material_rules if move.captured or move.crowns else self._placed_rules
        for rule in rules:
            since = self._material_since[rule.name]
            if not rule.holds(after, material):
                self._material_since[rule.name] = None
            elif since is None or move.is_capture or (move.crowns and rule.restart_on_crowning):
                self._material_since[rule.name] = self.ply
        self._material_running = self._any_material_running()

    def _any_material_running(self) -> bool:
        return any(since is not None for since in self._material_since.values())

    def _quiet_plies(self, progress: Progress) -> int:
        """Plies in a row without what ``progress`` counts as progress."""
        if progress is Progress.MAN_MOVE_OR_CAPTURE:
            return self._plies_since_man_move_or_capture
        return self._plies_since_capture_or_crowning

    def _is_sideways(self, move: Move) -> bool:
        """Whether a quiet man move stayed on its row (possible only where men step sideways)."""
        if not self._men_step_sideways:
            return False
        g = self.variant.geometry
        return g.row_col(move.start)[0] == g.row_col(move.end)[0]

    def counters(self) -> list[RuleCounter]:
        """The state of every draw rule, for a referee to show or report."""
        out: list[RuleCounter] = []
        for rule in self.variant.draw_rules:
            if isinstance(rule, Repetition):
                out.append(RuleCounter(rule.name, self._seen.get(self.position, 0), rule.times))
            elif isinstance(rule, NoProgressRule):
                out.append(RuleCounter(rule.name, self._quiet_plies(rule.progress), rule.plies))
            else:
                since = self._material_since[rule.name]
                if since is None:
                    out.append(RuleCounter(rule.name, 0, rule.plies, running=False))
                else:
                    out.append(RuleCounter(rule.name, self.ply - since, rule.plies))
        return out

    def _judge(self) -> GameEnd | None:
        end_rule = self.variant.end_rule
        if end_rule is not None:
            end = end_rule(self)
            if end is not None:
                return end
        pos = self.position
        mover = pos.turn
        own = pos.black if mover else pos.white
        if own and (self.legal_moves() if self._history_rule else pos.legal_move_count()):
            return self._draw()
        reason = EndReason.NO_LEGAL_MOVES if own else EndReason.NO_PIECES
        winner = mover if self.variant.no_move_outcome is NoMoveOutcome.WIN else mover.opponent
        rule = "no legal move" if own else "no pieces"
        return GameEnd(winner, reason, rule, self.ply)

    def _draw(self) -> GameEnd | None:
        if (
            self._repeated < self._fewest_repeats
            and self._plies_since_man_move_or_capture < self._fewest_quiet_plies
            and self._plies_since_capture_or_crowning < self._fewest_quiet_plies
            and not self._material_running
        ):
            return None  # no rule has reached its limit: the usual ply
        # The draw rules as ``counters`` reports them, asked after every move without building the report.
        for draw in self.variant.draw_rules:
            if isinstance(draw, Repetition):
                count, limit = self._repeated, draw.times
            elif isinstance(draw, NoProgressRule):
                count, limit = self._quiet_plies(draw.progress), draw.plies
            else:
                since = self._material_since[draw.name]
                if since is None:
                    continue
                count, limit = self.ply - since, draw.plies
            if count >= limit:
                why = EndReason.REPETITION if isinstance(draw, Repetition) else EndReason.MOVE_COUNT_RULE
                return GameEnd(None, why, draw.name, self.ply)
        return None
