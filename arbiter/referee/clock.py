"""The referee's clock: pure bookkeeping of each player's time, fed with timestamps and durations.

Nothing here reads a clock or sleeps. The referee starts the move (``start_move(now, ...)``) and passes
the time the engine layer measured, from writing ``go`` to the moment ``done`` was read
(``finish_move(elapsed)``; see "How a move is timed" in docs/protocol.md). That keeps every rule below
testable with plain numbers.

How time is kept (one ``PlayerClock`` per side):

- **Stages** (``30/3600``, ``50/7200:25/3600``, ``3600+5``). The clock starts with the first stage's
  time. When a player completes the last move of a stage (its 30th, 60th, ... move in ``30/3600``)
  the next stage's time is added to what is left, so unused time carries over; the last stage repeats.
  A player whose clock runs out before completing the stage's moves loses on time.
- **Increments** are added *before* every move, as the Hub protocol says: at ``start_move`` the
  stage's increment is credited, and the first move of ``3600+5`` is played with 3605 seconds. The
  engine is told the clock as it was before that credit, with the increment beside it (``time=3600
  inc=5``), since a Hub engine adds ``inc`` to ``time`` itself for the move it is asked (Scan does):
  told the credited clock, it would count the increment twice and overrun a short clock.
- **st=S**: every move has S seconds; going over loses on time. **depth=N** and **nodes=N** have no
  clock at all.
- **Time margin** (``margin=`` in the control, or per player): a move that ends up to ``margin``
  seconds after a deadline is accepted, and the clock then reads 0 (the overrun is forgiven, not
  carried as a debt). The default is 0: any overrun loses.
- **ACF jump limits** (only when the control has them, as ``acf`` does): when the mover must capture,
  the move is due within 1 minute if there is only one way to capture, 5 minutes if there are several
  (scaled). At that limit the referee calls "Time" (``MoveBudget.time_call_at``: it sends ``stop`` and
  records a warning); a move that has not arrived one more (scaled) minute after the call is lost for
  improper delay (``PlayerClock.time_called``: a call the referee made late, held up by a busy
  machine, moves that deadline with it). The main clock keeps running during a jump move: whichever
  deadline comes first decides, and running out of the main clock is always a loss on ``time``.
- **What the engine is told** (``MoveBudget.told``) is its true remaining clock (before the increment,
  as above) with the moves left in the period, capped by the jump limit when one applies, so an engine
  that manages its time never hears "Time". The cap is told as ``moves=1 time=<jump limit> inc=0``:
  this one move must be made within that time, the increment not on top of it. When the main clock is
  at or below the jump limit, the engine is told the clock and the moves left as usual. An engine that
  cannot be told a jump limit (DXP: its game request announces the clock once) is told the main clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arbiter.engines.level import Clock, Depth, Level, MoveTime, Nodes
from arbiter.referee.timecontrol import (
    ClockStages,
    FixedDepth,
    FixedMoveTime,
    FixedNodes,
    Stage,
    TimeControl,
    parse_time_control,
)

__all__ = [
    "ClockError",
    "ClockLoss",
    "JumpSituation",
    "MoveBudget",
    "MoveOutcome",
    "PlayerClock",
    "TimeControl",
    "parse_time_control",
]


class ClockError(RuntimeError):
    """The clock was driven out of order (a move finished that never started, a move after a loss)."""


class ClockLoss(StrEnum):
    """Why a move was lost on the clock."""

    TIME = "time"
    """The main clock (or the ``st=`` time of the move) ran out."""
    IMPROPER_DELAY = "improper_delay"
    """An ACF jump limit and its grace minute passed without a move."""


@dataclass(frozen=True)
class JumpSituation:
    """The mover must capture, and has ``capture_moves`` distinct capture moves to choose from."""

    capture_moves: int

    def __post_init__(self) -> None:
        if self.capture_moves < 1:
            raise ValueError("a jump situation has at least one capture move")


@dataclass(slots=True)
class MoveBudget:
    """What one move may take: the level to tell the engine and the deadlines (absolute, as ``now``).
    Made for every move, so a plain class rather than a frozen one: nothing changes it once made."""

    told: Level
    """What the engine is told, as the engine layer sends it: its remaining clock and the moves left in
    the period, or, when a jump limit is shorter than that clock, ``moves=1`` and the jump limit."""
    started_at: float
    jump_limit: float | None
    """Seconds allowed by the ACF jump limit for this move, or None when no jump limit applies."""
    time_call_at: float | None
    """When the referee calls "Time" (sends ``stop``, records a warning); None if no call is due."""
    forfeit_at: float | None
    """After this moment the move is lost (margin included); None when nothing can be lost on time."""
    forfeit_reason: ClockLoss | None
    """Which loss ``forfeit_at`` is: ``time`` or ``improper_delay``."""


@dataclass(slots=True)
class MoveOutcome:
    """The clock's verdict on a finished move (a plain class, as ``MoveBudget``)."""

    elapsed: float
    remaining: float | None
    """The mover's clock after the move (after any new period was added); None without a clock."""
    time_called: bool
    """The jump limit passed before the move arrived: "Time" was (or should have been) called."""
    loss: ClockLoss | None
    """Set when the move came too late: the game is lost for this reason."""
    added: float = 0.0
    """Time added after this move because it completed a period (``30/3600``: at moves 30, 60, ...)."""

    @property
    def lost(self) -> bool:
        return self.loss is not None


class PlayerClock:
    """One player's clock for one game under a time control.

    Call ``start_move`` when the engine is told to think, then ``finish_move`` with the measured
    duration when its move arrives, or ``expire`` when ``forfeit_at`` passed without one.
    """

    def __init__(
        self, control: TimeControl, margin: float | None = None, *, tell_jump_limits: bool = True
    ) -> None:
        """``tell_jump_limits`` False: the engine is told the main clock on a capture too, for an engine
        that cannot be told a jump limit (a DXP game request announces one clock, for the whole game);
        the jump limits and their deadlines apply all the same."""
        self.control = control
        self.margin = control.margin if margin is None else margin
        if self.margin < 0:
            raise ValueError("the time margin cannot be negative")
        self._tell_jump_limits = tell_jump_limits
        self._remaining: float | None = None
        self._periods = 0  # completed periods of a staged clock
        self._moves_in_period = 0
        self._moves_made = 0
        self._loss: ClockLoss | None = None
        # The move in progress: its budget (None between moves), the main clock at its start (increment
        # included) and, in seconds after its start, when "Time" is called and when the move is lost
        # (margin included). Kept on the clock rather than in an object made for every move.
        self._budget: MoveBudget | None = None
        self._available: float | None = None
        self._call_after: float | None = None
        self._forfeit_after: float | None = None
        # Of a move with a jump limit: the main clock's deadline and the grace after "Time", from which
        # the loss for improper delay is worked out again when "Time" is called late.
        self._main_deadline: float | None = None
        self._grace = 0.0
        # The move count and scaled increment of the stage in force, looked up again only when a period
        # is completed.
        self._period_moves: int | None = None
        self._increment = 0.0
        # What does not change from move to move, worked out once: the jump limits and their grace
        # (scaled), and the level of a control without a clock (``st=``, ``depth=``, ``nodes=``).
        limits = control.jump_limits
        self._jump_limits: tuple[float, float, float] | None = None
        if limits is not None:
            self._jump_limits = (
                control.scaled(limits.one_way),
                control.scaled(limits.several_ways),
                control.scaled(limits.grace),
            )
        base = control.base
        self._move_time: float | None = None
        self._fixed: Level | None = None
        if isinstance(base, ClockStages):
            self._remaining = control.scaled(base.stages[0].seconds)
            self._enter_stage()
        elif isinstance(base, FixedMoveTime):
            self._move_time = control.scaled(base.seconds)
            self._fixed = MoveTime(self._move_time)
        elif isinstance(base, FixedDepth):
            self._fixed = Depth(base.depth)
        else:
            assert isinstance(base, FixedNodes)
            self._fixed = Nodes(base.nodes)

    @property
    def remaining(self) -> float | None:
        """Seconds left on the main clock (None when the control has no clock)."""
        return self._remaining

    @property
    def moves_to_go(self) -> int | None:
        """Moves left to play in the current period, this one included (None without a move count)."""
        moves = self._period_moves
        return None if moves is None else moves - self._moves_in_period

    @property
    def moves_made(self) -> int:
        return self._moves_made

    @property
    def loss(self) -> ClockLoss | None:
        """Set once a move was lost on the clock; the clock accepts no further moves."""
        return self._loss

    @property
    def in_move(self) -> bool:
        return self._budget is not None

    def start_move(self, now: float, jump: JumpSituation | None = None) -> MoveBudget:
        """Begin a move at ``now``: credit the increment and work out the level and the deadlines.

        ``jump`` describes a forced capture; it only matters when the control has jump limits. When its
        limit is shorter than the remaining clock, the level says ``moves=1 time=<jump limit> inc=0``,
        since this one move is due within the limit; otherwise it says the clock before the increment,
        the increment and the moves left in the period.
        """
        if self._budget is not None:
            raise ClockError("a move is already in progress on this clock")
        if self._loss is not None:
            raise ClockError(f"this clock already lost ({self._loss})")
        jump_limit: float | None = None
        grace = 0.0
        limits = self._jump_limits
        if jump is not None and limits is not None:
            one_way, several_ways, grace = limits
            jump_limit = one_way if jump.capture_moves == 1 else several_ways

        told_limit = jump_limit if self._tell_jump_limits else None
        told: Level
        main_limit: float | None
        available: float | None = None  # the staged clock for this move, its increment credited
        before = self._remaining
        if before is not None:  # a staged clock
            increment = self._increment
            available = before + increment
            self._remaining = main_limit = available
            # Figures of the clock's own, from a validated control: the level is made without checks.
            if told_limit is not None and told_limit < available:
                # The truthful budget: this one move is due within the jump limit, increment and all.
                told = Clock.trusted(told_limit, 1, 0.0)
            else:
                moves = self._period_moves
                if moves is not None:
                    moves -= self._moves_in_period
                # Hub's ``time`` is before the increment: the engine adds ``inc`` for this move itself.
                told = Clock.trusted(before, moves, increment)
        else:
            main_limit = self._move_time  # ``st=``; None for ``depth=`` and ``nodes=``
            assert self._fixed is not None
            told = self._fixed
            if main_limit is not None and told_limit is not None:
                told = MoveTime(min(main_limit, told_limit))

        main_deadline = None if main_limit is None else main_limit + self.margin
        call_after: float | None = None
        if jump_limit is None:  # most moves: the main clock's deadline, if any, is the only one
            forfeit_after, reason = main_deadline, None if main_deadline is None else ClockLoss.TIME
        else:
            forfeit_after, reason = _first_deadline(main_deadline, jump_limit + grace + self.margin)
            # "Time" is only worth calling if the main clock has not fallen by then.
            if main_deadline is None or jump_limit < main_deadline:
                call_after = jump_limit
        budget = MoveBudget(
            told,
            now,
            jump_limit,
            None if call_after is None else now + call_after,
            None if forfeit_after is None else now + forfeit_after,
            reason,
        )
        self._budget = budget
        self._available = available
        self._call_after = call_after
        self._forfeit_after = forfeit_after
        if jump_limit is not None:
            self._main_deadline, self._grace = main_deadline, grace
        return budget

    def time_called(self, after: float) -> None:
        """The referee called "Time" ``after`` seconds into the move. The grace before the loss for
        improper delay runs from the call, as the rule says: called late (the referee held up by a busy
        machine), the engine keeps its whole grace. The budget's deadline, and which loss it is, move
        with it; the main clock's deadline does not."""
        budget, call_after = self._budget, self._call_after
        if budget is None or call_after is None or after <= call_after:
            return
        forfeit_after, reason = _first_deadline(self._main_deadline, after + self._grace + self.margin)
        assert forfeit_after is not None  # a jump limit's grace ends at the latest
        self._forfeit_after = forfeit_after
        budget.forfeit_at = budget.started_at + forfeit_after
        budget.forfeit_reason = reason

    def finish_move(self, elapsed: float) -> MoveOutcome:
        """The move arrived ``elapsed`` seconds after ``start_move``: charge it and judge it."""
        if elapsed < 0:
            raise ValueError(f"a move cannot take negative time ({elapsed})")
        budget = self._budget
        if budget is None:
            raise ClockError("no move is in progress on this clock")
        self._budget = None
        # Only the deadline that passes first counts (the main clock's on a tie): ``forfeit_after`` is
        # that one, and the budget's ``forfeit_reason`` says which it is.
        forfeit_after = self._forfeit_after
        late = forfeit_after is not None and elapsed > forfeit_after
        return self._settle(elapsed, budget.forfeit_reason if late else None)

    def expire(self) -> MoveOutcome:
        """No move arrived by ``forfeit_at``: the move is lost for ``forfeit_reason``."""
        budget = self._budget
        if budget is None:
            raise ClockError("no move is in progress on this clock")
        reason, forfeit_after = budget.forfeit_reason, self._forfeit_after
        if forfeit_after is None or reason is None:
            raise ClockError("this move has no deadline, so it cannot expire")
        self._budget = None
        return self._settle(forfeit_after, reason)

    def _settle(self, elapsed: float, loss: ClockLoss | None) -> MoveOutcome:
        """Charge the move that just ended (its budget already cleared)."""
        call_after = self._call_after
        time_called = call_after is not None and elapsed > call_after
        available = self._available
        if available is not None:
            # An overrun within the margin is forgiven: the clock reads 0, not a debt.
            left = available - elapsed
            self._remaining = left if left > 0.0 else 0.0
        if loss is not None:
            self._loss = loss
            return MoveOutcome(elapsed, self._remaining, time_called, loss)
        self._moves_made += 1
        added = 0.0
        period_moves = self._period_moves
        if period_moves is not None:
            self._moves_in_period += 1
            if self._moves_in_period >= period_moves:
                added = self._next_period()
        return MoveOutcome(elapsed, self._remaining, time_called, None, added)

    def _next_period(self) -> float:
        """The last move of a period was made: the next stage's time is added to what is left."""
        self._periods += 1
        self._moves_in_period = 0
        next_stage = self._enter_stage()
        assert next_stage is not None and self._remaining is not None
        added = self.control.scaled(next_stage.seconds)
        self._remaining += added
        return added

    def _enter_stage(self) -> Stage | None:
        """Look up the stage in force after the completed periods (its move count, scaled increment)."""
        base = self.control.base
        stage = base.stage(self._periods) if isinstance(base, ClockStages) else None
        self._period_moves = None if stage is None else stage.moves
        self._increment = 0.0 if stage is None else self.control.scaled(stage.increment)
        return stage


def _first_deadline(main: float | None, delay: float | None) -> tuple[float | None, ClockLoss | None]:
    if main is None and delay is None:
        return None, None
    if delay is None or (main is not None and main <= delay):
        return main, ClockLoss.TIME
    return delay, ClockLoss.IMPROPER_DELAY
