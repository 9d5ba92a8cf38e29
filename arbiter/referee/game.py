"""The referee of one game: it asks each engine for a move under its clock, checks the move against the
rules, keeps the time, and decides how the game ended. The engines are opened by the caller (a
tournament reuses them from game to game); ``session.play_game_from_configs`` also starts and quits them.

One move, as the referee plays it:

1. The clock starts the move (``PlayerClock.start_move``), which gives the level to tell the engine and
   the deadlines. The level is the engine's true remaining time with the moves left in the period; when
   the mover must capture and an ACF jump limit is shorter than that time, it is ``moves=1`` with the
   jump limit instead, since this one move is due within it.
2. The engine is sent a position and the moves since it, so it can see repetitions: for a Hub engine
   the position after the last man move or capture (short lines, little replaying), for a DXP engine
   the position after the opening (a DXP game follows from one start). Then the level, and ``go``
   (with ``draw-offered`` when the opponent offered a draw with its last move).
3. The referee waits. At a jump limit it calls "Time" by sending ``stop`` and records a warning, whether
   a move follows or not; when the last deadline passes with no move, the game is lost on time or for
   improper delay. The engine layer measures each move on a monotonic clock from just before writing
   ``go`` to the arrival of ``done``, as the kernel stamped it (not the moment the loop handles it).
4. The answer is judged: a late move, a resignation, an accepted draw, an illegal move, or a move that
   is played and recorded, after which the rules, the length limit and score adjudication may end the
   game.

Between reading one engine's ``done`` and writing the next ``go`` the referee does only that bookkeeping,
so its own overhead per move stays far below a millisecond (see ``benchmarks/referee_overhead.py``); an
observer hears of a move only once the next engine has been sent ``go``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from arbiter.engines.client import EngineClient, SearchHandle
from arbiter.engines.faults import BadMoveFormat, EngineFault
from arbiter.engines.params import EngineIdentity
from arbiter.engines.results import Info, SearchResult
from arbiter.notation.movetext import MoveTextError, format_pdn, parse_hub
from arbiter.referee.adjudication import ScoreAdjudicator
from arbiter.referee.clock import ClockLoss, JumpSituation, MoveBudget, MoveOutcome, PlayerClock
from arbiter.referee.forfeits import termination_for
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import (
    TIME_CALL_PREFIX,
    EngineInfo,
    GameOutcome,
    GameRecord,
    MoveRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
)
from arbiter.referee.setup import GameSetup
from arbiter.rules import Color, EndReason, Game, GameEnd, Move, Position

FORCED_MOVE_NOTE = "forced move, played by the referee"

_SIDES = (Side.WHITE, Side.BLACK)  # a colour's side in the record, by the colour's value

_END_REASONS = {
    EndReason.NO_PIECES: Termination.NO_PIECES,
    EndReason.NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    EndReason.REPETITION: Termination.REPETITION,
    EndReason.MOVE_COUNT_RULE: Termination.MOVE_COUNT_RULE,
    EndReason.VARIANT_RULE: Termination.VARIANT_RULE,
}


async def play_game(
    setup: GameSetup,
    white: EngineClient,
    black: EngineClient,
    *,
    observer: GameObserver | None = None,
    white_player: PlayerRecord | None = None,
    black_player: PlayerRecord | None = None,
    overhead: list[float] | None = None,
) -> GameRecord:
    """Play one game between two opened engines and return its complete record.

    ``white_player``/``black_player`` name the players in the record (default: the engines' names and
    identities). When ``overhead`` is given, the referee appends to it, for every move after the first,
    the seconds from reading one engine's ``done`` to writing the next ``go``.
    Raises ``GameSetupError`` (before any engine is asked anything) when the setup is unusable.
    """
    referee = Referee(setup, white, black, observer=observer, overhead=overhead)
    return await referee.play(white_player, black_player)


def identity_fields(identity: EngineIdentity | None) -> dict[str, str]:
    """What an engine said about itself, as saved in the record (empty fields left out)."""
    if identity is None:
        return {}
    fields = {
        "name": identity.name,
        "version": identity.version,
        "author": identity.author,
        "country": identity.country,
        **identity.extra,
    }
    return {key: value for key, value in fields.items() if value}


def player_record(engine: EngineClient) -> PlayerRecord:
    return PlayerRecord(name=engine.name, identity=identity_fields(engine.identity))


def color_name(color: Color) -> str:
    return "White" if color is Color.WHITE else "Black"


def result_words(winner: Color | None) -> str:
    return "Draw" if winner is None else f"{color_name(winner)} wins"


def ending_words(end: GameEnd, to_move: Color) -> str:
    """How the rules ended the game, in words that do not name the result again: the referee's reason
    already starts with it ("White wins: ..."). ``to_move`` is the side to move at the end: the one
    left without pieces or moves, which wins in the variants where that wins."""
    if end.reason is EndReason.VARIANT_RULE:
        return end.detail or end.rule
    if end.reason is EndReason.NO_PIECES:
        return f"{color_name(to_move)} has no pieces left"
    if end.reason is EndReason.NO_LEGAL_MOVES:
        return f"{color_name(to_move)} has no legal move"
    return f"by the {end.rule}"


def _lateness(elapsed: float | None, allowed: float | None) -> str:
    """How a move lost on the clock ended, against its allowance: "its move came after 0.0104 s
    (0.010 s allowed)", or "no move came (0.300 s allowed)"."""
    if elapsed is None:
        return "no move came" if allowed is None else f"no move came ({allowed:.3f} s allowed)"
    if allowed is None:
        return f"its move came after {elapsed:.3f} s"
    took, allowance = seconds_told_apart(elapsed, allowed)
    return f"its move came after {took} s ({allowance} s allowed)"


def seconds_told_apart(taken: float, limit: float) -> tuple[str, str]:
    """Two durations (seconds) as text, with as many decimals as it takes to tell them apart, from 3
    (milliseconds) to 6: a move 0.4 ms late must not read as having taken just its allowance. Both
    are rounded alike, so the order shows; the limit drops the zeros past the third decimal (0.010)."""
    for decimals in range(3, 7):
        taken_text, limit_text = f"{taken:.{decimals}f}", f"{limit:.{decimals}f}"
        if taken_text != limit_text:
            break
    whole, _, fraction = limit_text.partition(".")
    return taken_text, f"{whole}.{fraction[:3]}{fraction[3:].rstrip('0')}"


def engine_info(info: Info) -> EngineInfo:
    """An engine's last ``info`` as its move's record keeps it (``Info`` holds typed values already)."""
    return EngineInfo.trusted(
        info.depth, info.score, info.nodes, info.time, info.nps, list(info.pv), dict(info.extra)
    )


@dataclass(slots=True)
class _SearchBase:
    """A position engines are sent, with the moves played after it: its ply, its Hub string and the
    squares of its mules (Mule checkers; a Hub string cannot show them)."""

    ply: int
    hub: str
    mules: tuple[int, ...]

    @classmethod
    def of(cls, ply: int, position: Position) -> _SearchBase:
        """The base at ``position``, reached after ``ply`` plies."""
        # Most variants have no mules: their squares are not looked up after every irreversible move.
        mules = tuple(position.mule_squares()) if position.mules else ()
        return cls(ply, position.hub(), mules)


@dataclass(slots=True)
class _Turn:
    """One engine move being played: what was asked and what was noted on the way."""

    color: Color
    budget: MoveBudget
    handle: SearchHandle
    draw_offered: bool
    warnings: list[str]
    shift: float
    """Seconds from starting the clock to writing ``go``: the budget's deadlines count from ``go``."""
    legal: list[Move] | None
    """The legal moves of the turn with the rules on earlier moves, where the variant has such a rule
    (None otherwise: the engine's move is then matched against the position alone)."""
    time_called: bool = False
    """The referee called "Time" (sent ``stop``) at the jump limit."""

    def deadline(self, moment: float | None) -> float | None:
        return None if moment is None else moment + self.shift


class Referee:
    """Plays one game; use ``play_game`` unless you need the object itself."""

    def __init__(
        self,
        setup: GameSetup,
        white: EngineClient,
        black: EngineClient,
        *,
        observer: GameObserver | None = None,
        overhead: list[float] | None = None,
    ) -> None:
        self.setup = setup
        self.prepared = setup.prepare()
        self.engines = {Color.WHITE: white, Color.BLACK: black}
        # DXP announces one clock for the game, at its request: a jump limit told as the first move's
        # level would be announced as the game's clock.
        self.clocks = {
            Color.WHITE: PlayerClock(
                setup.control_for(Color.WHITE), setup.white_margin, tell_jump_limits=white.protocol != "dxp"
            ),
            Color.BLACK: PlayerClock(
                setup.control_for(Color.BLACK), setup.black_margin, tell_jump_limits=black.protocol != "dxp"
            ),
        }
        self.game = Game(self.prepared.variant, self.prepared.start)
        self.observer = observer if observer is not None else GameObserver()
        self.adjudicator = ScoreAdjudicator(setup.rules.draw_adjudication, setup.rules.win_adjudication)
        self._adjudicating = self.adjudicator.active
        self._overhead = overhead
        self._done_at: float | None = None
        self._hub_moves: list[str] = []
        # The positions engines are sent with the moves after them: the last irreversible one, and (for
        # DXP, which follows one game from its start) the one after the opening.
        self._recent_base = _SearchBase(0, "", ())
        self._opening_base = _SearchBase(0, "", ())
        self._stable_base = {color: engine.protocol == "dxp" for color, engine in self.engines.items()}
        self._offer_to: Color | None = None  # the side that must answer a pending draw offer
        self._faults_before = {color: len(engine.faults) for color, engine in self.engines.items()}
        self._jump_limits = {color: setup.control_for(color).jump_limits is not None for color in Color}
        # Looked up once: asked at every move.
        variant = self.prepared.variant
        self._history_rule = variant.history_filter is not None
        self._history_plies = variant.history_plies
        self._auto_forced_moves = setup.rules.auto_forced_moves
        self._max_plies = setup.rules.max_plies
        # Moves are shown to the observer once the next engine is thinking, off the referee's critical path;
        # an observer that does not hear of moves (the default) is not kept a list of them.
        self._unannounced: list[tuple[MoveRecord, Position]] = []
        self._tells_moves = type(self.observer).move_played is not GameObserver.move_played
        self.record: GameRecord | None = None

    # -- the game -------------------------------------------------------------------------------------

    async def play(
        self, white_player: PlayerRecord | None = None, black_player: PlayerRecord | None = None
    ) -> GameRecord:
        setup = self.setup
        record = GameRecord(
            variant=self.prepared.variant.id,
            white=white_player or player_record(self.engines[Color.WHITE]),
            black=black_player or player_record(self.engines[Color.BLACK]),
            start_fen=self.prepared.start_fen,
            opening=setup.opening,
            time_control=setup.control_text(),
            started_at=datetime.now(UTC),
            tags=dict(setup.tags),
        )
        self.record = record
        self.observer.game_started(record, self.game.position)
        for move in self.prepared.opening_moves:
            if record.outcome is not None:
                break
            self._play(move, from_opening=True)
        self._check_rules(self.game.ply)
        self._recent_base = self._opening_base = _SearchBase.of(self.game.ply, self.game.position)
        if record.outcome is None:
            await self._start_engines()
        while record.outcome is None:
            await self._turn()
        await self._wrap_up()
        return record

    async def _start_engines(self) -> None:
        # Both at once: each waits until its engine is ready for the game, and the two waits overlap.
        colors = list(self.engines)
        started = await asyncio.gather(
            *(self.engines[color].new_game() for color in colors), return_exceptions=True
        )
        for color, outcome in zip(colors, started, strict=True):
            if isinstance(outcome, EngineFault):
                self._forfeit(color, outcome)
                return
            if isinstance(outcome, BaseException):
                raise outcome

    async def _turn(self) -> None:
        game = self.game
        position = game.position
        color = position.turn
        legal: list[Move] | None = None
        if self._history_rule:
            legal = game.legal_moves()  # with the rules on earlier moves (Frisian's king-move limit)
            count, captures = len(legal), legal[0].is_capture
        else:  # no Move objects are built for the moves the engine does not play
            captures = position.has_capture()
            # The moves are counted only for what asks the count (most games: nothing asks it).
            count = 0
            if self._auto_forced_moves or (captures and self._jump_limits[color]):
                count = position.legal_move_count()
        clock = self.clocks[color]
        if self._auto_forced_moves and count == 1:
            clock.start_move(time.monotonic())
            outcome = clock.finish_move(0.0)
            self._offer_to = None  # the engine was not asked, so it cannot accept
            forced = (legal or position.legal_moves())[0]
            self._play(forced, elapsed=0.0, clock=outcome.remaining, warnings=[FORCED_MOVE_NOTE])
            return
        jump = None
        if captures and self._jump_limits[color]:
            jump = JumpSituation(count)
        draw_offered = self._offer_to is color
        self._offer_to = None
        recent = self._recent_base
        if self._history_plies:
            recent = self._with_history_rule(recent)
        base = self._opening_base if self._stable_base[color] else recent
        budget = clock.start_move(time.monotonic(), jump)
        try:
            handle = await self.engines[color].begin_search(
                base.hub,
                self._hub_moves[base.ply :],
                budget.told,
                draw_offered,
                mules=base.mules,
            )
        except EngineFault as fault:
            self._forfeit(color, fault)
            return
        go_at = handle.started  # the engine layer measures the move from here (``SearchResult.elapsed``)
        if self._overhead is not None and self._done_at is not None:
            self._overhead.append(go_at - self._done_at)
        turn = _Turn(color, budget, handle, draw_offered, [], go_at - budget.started_at, legal)
        if self._unannounced:
            self._announce()
        if budget.time_call_at is None and budget.forfeit_at is not None:
            # The usual move: one deadline, no "Time" to call (``_await_move`` in short).
            try:
                result = await handle.wait_until(budget.forfeit_at + turn.shift)
            except EngineFault as fault:
                self._forfeit(color, fault)
                return
            if result is None:
                await self._no_move_by_deadline(turn)
                return
        else:
            result = await self._await_move(turn)
        if result is not None:
            self._done_at = go_at + result.elapsed
            self._judge(turn, result)

    def _with_history_rule(self, base: _SearchBase) -> _SearchBase:
        """A base far enough back for the engine to apply the variant's rule on earlier moves itself
        (Frisian's king-move limit looks six plies back, past the man moves that move the base on)."""
        game = self.game
        back = game.variant.history_plies
        if not back or game.ply - base.ply >= back:
            return base
        ply = max(0, game.ply - back)
        position = game.positions[ply]
        return _SearchBase(ply, position.hub(), tuple(position.mule_squares()))

    async def _await_move(self, turn: _Turn) -> SearchResult | None:
        """The engine's answer, or None when the game ended while waiting (the reason is recorded)."""
        budget, handle = turn.budget, turn.handle
        engine = self.engines[turn.color]
        try:
            result: SearchResult | None = None
            time_call_at, forfeit_at = turn.deadline(budget.time_call_at), turn.deadline(budget.forfeit_at)
            if time_call_at is not None:
                result = await handle.wait_until(time_call_at)
                if result is None:
                    turn.time_called = True  # set first: the warning stands even if the engine then fails
                    # The grace runs from the call: any delay in making it is not the engine's.
                    self.clocks[turn.color].time_called(time.monotonic() - turn.shift - budget.started_at)
                    forfeit_at = turn.deadline(budget.forfeit_at)
                    await handle.stop()
            if result is None and forfeit_at is not None:
                result = await handle.wait_until(forfeit_at)
            elif result is None:
                # No clock (depth=, nodes=): only the engine's search timeout bounds the move.
                limit = engine.config.timeouts.search
                result = await handle.wait(limit)
                if result is None:
                    engine.distrust("no move within its search timeout")
                    late = await handle.finish()
                    self._end(
                        turn.color.opponent,
                        Termination.NO_ANSWER,
                        f"{color_name(turn.color)}'s engine gave no move within its search timeout of "
                        f"{limit:g} s (it moved {late.elapsed:.3f} s after go, when told to stop)",
                    )
                    return None
        except EngineFault as fault:
            if turn.time_called:
                self._note_time_call(turn, None)
                self._note_turn_warnings(turn)
            self._forfeit(turn.color, fault)
            return None
        if result is None:
            await self._no_move_by_deadline(turn)
            return None
        return result

    async def _no_move_by_deadline(self, turn: _Turn) -> None:
        """The last deadline passed with no move: the game is lost on the clock."""
        if turn.time_called:
            self._note_time_call(turn, None)
        outcome = self.clocks[turn.color].expire()
        with contextlib.suppress(EngineFault):
            await turn.handle.stop()  # leave the engine ready for its next game
        self._clock_forfeit(turn, outcome, None)

    def _judge(self, turn: _Turn, result: SearchResult) -> None:
        color = turn.color
        outcome = self.clocks[color].finish_move(result.elapsed)
        # A move measured past the limit counts as called even if it came before ``stop`` was sent.
        if turn.time_called or outcome.time_called:
            self._note_time_call(turn, outcome.elapsed)
        if outcome.loss is not None:
            self._clock_forfeit(turn, outcome, result)
            return
        if result.resigned:
            self._note_turn_warnings(turn)
            self._end(color.opponent, Termination.RESIGNATION, f"{color_name(color)} resigned")
            return
        if turn.draw_offered and result.offers_draw:
            self._note_turn_warnings(turn)
            self._end(
                None,
                Termination.AGREEMENT,
                f"{color_name(color.opponent)} offered a draw and {color_name(color)} accepted",
            )
            return
        position = self.game.position
        text = result.move or ""
        try:
            move = parse_hub(position, text, turn.legal)
        except MoveTextError as error:
            self._note_turn_warnings(turn)
            self._end(
                color.opponent,
                Termination.ILLEGAL_MOVE,
                f"{color_name(color)} played an illegal move: {error}" + _engine_board(result),
            )
            return
        info = result.final_info
        self._play(
            move,
            elapsed=outcome.elapsed,
            clock=outcome.remaining,
            warnings=turn.warnings,
            info=info,
            draw_offered=result.offers_draw,
        )
        if result.offers_draw:
            self._offer_to = color.opponent
        if self._adjudicating and self.record is not None and self.record.outcome is None:
            verdict = self.adjudicator.add(color, info.score if info is not None else None, self.game.ply)
            if verdict is not None:
                termination = Termination.ADJUDICATION_DRAW
                if verdict.winner is not None:
                    termination = Termination.ADJUDICATION_WIN
                self._end(verdict.winner, termination, verdict.reason)

    # -- moves and endings ------------------------------------------------------------------------------

    def _play(
        self,
        move: Move,
        *,
        from_opening: bool = False,
        elapsed: float | None = None,
        clock: float | None = None,
        warnings: list[str] | None = None,
        info: Info | None = None,
        draw_offered: bool = False,
    ) -> None:
        """Play a legal move and record it with what is known about it."""
        game = self.game
        before = game.position
        ply = game.ply + 1  # the ply of this move, and the plies played after it
        irreversible = game.is_irreversible(move)
        hub = move.hub  # written once with the move, as format_hub gives it
        # Made without validation: the referee checked every value (see ``MoveRecord.trusted``).
        entry = MoveRecord.trusted(
            ply,
            _SIDES[before.turn],
            format_pdn(before, move),
            hub,
            from_opening,
            elapsed,
            clock,
            warnings if warnings is not None else [],
            draw_offered,
            None if info is None else engine_info(info),
        )
        game.play(move)
        self._hub_moves.append(hub)
        if irreversible:
            self._recent_base = _SearchBase.of(ply, game.position)
        assert self.record is not None
        self.record.moves.append(entry)
        if self._tells_moves:
            self._unannounced.append((entry, game.position))
        self._check_rules(ply)

    def _check_rules(self, ply: int) -> None:
        """End the game if the rules or the length limit say so after the last move (``ply`` plies)."""
        end: GameEnd | None = self.game.end
        if end is not None:
            termination = _END_REASONS[end.reason]
            named = (Termination.MOVE_COUNT_RULE, Termination.VARIANT_RULE)
            rule = end.rule if termination in named else None
            self._end(end.winner, termination, ending_words(end, self.game.position.turn), rule)
            return
        limit = self._max_plies
        if limit is not None and ply >= limit:
            self._end(None, Termination.MAX_LENGTH, f"the game reached the limit of {limit} plies")

    def _forfeit(self, color: Color, fault: EngineFault) -> None:
        termination = termination_for(fault)
        words = {
            Termination.CRASH: "engine crashed",
            Termination.NO_ANSWER: "engine stopped answering",
            Termination.UNPARSABLE_OUTPUT: "engine wrote output that cannot be read",
            Termination.START_FAILURE: "engine failed to start",
        }[termination]
        # A move that cannot be read is told with its position, as an illegal one is.
        where = f" (in {self.game.position.fen()})" if isinstance(fault, BadMoveFormat) else ""
        self._end(color.opponent, termination, f"{color_name(color)}'s {words}: {fault}{where}")

    def _clock_forfeit(self, turn: _Turn, outcome: MoveOutcome, result: SearchResult | None) -> None:
        budget = turn.budget
        # An engine past its deadline may be hung or out of step: it does not play another game as it is.
        self.engines[turn.color].distrust("no move by its deadline" if result is None else "a late move")
        self._note_turn_warnings(turn)
        name = color_name(turn.color)
        allowed = None if budget.forfeit_at is None else budget.forfeit_at - budget.started_at
        late = _lateness(None if result is None else outcome.elapsed, allowed)
        if outcome.loss is ClockLoss.IMPROPER_DELAY:
            assert budget.jump_limit is not None
            reason = (
                f"{name} lost for improper delay: Time was called at the jump limit of "
                f"{budget.jump_limit:.3f} s and {late}"
            )
            self._end(turn.color.opponent, Termination.IMPROPER_DELAY, reason)
            return
        self._end(turn.color.opponent, Termination.TIME_FORFEIT, f"{name} lost on time: {late}")

    def _note_time_call(self, turn: _Turn, elapsed: float | None) -> None:
        """Record "Time", called at the jump limit, as a warning of the move (``elapsed``: when the
        move came, None if none did)."""
        limit = turn.budget.jump_limit
        if limit is None:
            return
        if elapsed is None:
            limit_text, followed = f"{limit:.3f}", "no move came"
        else:
            took, limit_text = seconds_told_apart(elapsed, limit)
            followed = f"the move came after {took} s"
        turn.warnings.append(f"{TIME_CALL_PREFIX} at the jump limit of {limit_text} s; {followed}")

    def _note_turn_warnings(self, turn: _Turn) -> None:
        """Warnings of a move that was never played go to the game's own warnings."""
        if self.record is not None:
            side = color_name(turn.color)
            self.record.warnings.extend(f"{side}, ply {self.game.ply + 1}: {text}" for text in turn.warnings)

    def _end(
        self, winner: Color | None, termination: Termination, detail: str, rule: str | None = None
    ) -> None:
        assert self.record is not None
        if self.record.outcome is not None:
            return
        result = Winner.DRAW if winner is None else Winner.side(winner)
        self.record.outcome = GameOutcome.of(result, termination, rule, f"{result_words(winner)}: {detail}")

    async def _wrap_up(self) -> None:
        record = self.record
        assert record is not None
        for color, engine in self.engines.items():
            with contextlib.suppress(EngineFault):
                await engine.end_game()
            side = color_name(color)
            for fault in engine.faults[self._faults_before[color] :]:
                if not fault.fatal:
                    record.warnings.append(f"{side}: {fault}")
        record.ended_at = datetime.now(UTC)
        self._announce()
        self.observer.game_ended(record, self.game.position)

    def _announce(self) -> None:
        assert self.record is not None
        for entry, position in self._unannounced:
            self.observer.move_played(self.record, entry, position)
        self._unannounced.clear()


def _engine_board(result: SearchResult) -> str:
    """The position the engine says its move leads to, when it says (CheckerBoard engines do)."""
    return f"; the engine's board after its move: {result.board}" if result.board else ""
