"""Alpha-beta search: negamax with iterative deepening, a transposition table and move ordering.

The search runs on raw bitboards with the rules core's own move generator (as perft does), so it
plays exactly the legal moves the referee accepts. Captures are compulsory, so a position where the
side to move must capture is never scored statically: the search goes on through every capture
sequence (the capture extension), and only quiet positions are evaluated. A position that repeats
one earlier in the game or on the current line scores as a draw. In Mule checkers the search also
carries the mules and applies the mule rules' game ends at every node (``arbiter.rules.mule``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arbiter.players.control import SearchControl
from arbiter.players.evaluation import Evaluator, plays_to_lose
from arbiter.rules import Move, Position, Variant
from arbiter.rules.movegen import RawMove, apply_raw, mules_after
from arbiter.rules.mule import judge_move, side_loses
from arbiter.rules.position import tables

MATE = 100_000  # the score of a won game at the root; a win in n plies scores MATE - n
MATE_BOUND = MATE - 1_000  # scores beyond this are forced wins or losses
INFINITY = 1_000_000
MAX_PLY = 100  # deeper lines (long forced sequences) are scored statically
MAX_DEPTH = 60
CHECK_INTERVAL = 64  # nodes between looks at the clock and the stop flag (about a millisecond)
MAX_TABLE_ENTRIES = 1_500_000
_FREE_IN_PLACE = 10_000  # entries freed at once (about a millisecond): a smaller table goes at once

_EXACT, _LOWER, _UPPER = 0, 1, 2

_Key = tuple[int, int, int, int, int]  # white, black, kings, mules, side to move
_Entry = tuple[int, int, int, RawMove | None]  # depth, bound kind, score, best move


class SearchAborted(Exception):
    """Raised inside the tree when a limit is reached or ``stop`` came."""


@dataclass(frozen=True)
class Iteration:
    """What one completed iteration found, for ``info`` lines."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: tuple[str, ...]  # Hub move text


@dataclass(frozen=True)
class SearchResult:
    move: Move
    score: int  # centi-men from the side to move's view
    depth: int  # the deepest completed iteration (0 if none completed)
    nodes: int
    pv: tuple[str, ...]


def hub_text(variant: Variant, raw: RawMove) -> str:
    """Hub text of a raw move: start, end, then the captured squares."""
    squares = variant.geometry.bit_squares
    fb, tb, cm, _, _ = raw
    start, end = squares[fb.bit_length() - 1], squares[tb.bit_length() - 1]
    if not cm:
        return f"{start}-{end}"
    captured: list[int] = []
    while cm:
        low = cm & -cm
        cm ^= low
        captured.append(squares[low.bit_length() - 1])
    return "x".join(str(s) for s in (start, end, *sorted(captured)))


def _to_table(score: int, ply: int) -> int:
    # Mate scores are stored relative to the node, so they stay right when reached by another path.
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


class AlphaBetaSearch:
    """One variant's search, keeping its transposition table from move to move within a game."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.generator = tables(variant).generator
        self.evaluator = Evaluator(variant)
        # Score of the side to move when it has no move, before the distance from the root is applied.
        self.no_move_sign = 1 if plays_to_lose(variant) else -1
        self.mule_rules = variant.has_mules
        self.optional_capture = variant.optional_capture
        self.table: dict[_Key, _Entry] = {}
        self._garbage: list[dict[_Key, _Entry]] = []  # dropped tables, freed while idle (``tidy``)
        self.history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self._next_check = CHECK_INTERVAL
        self._node_limit = INFINITY
        self._on_line: set[_Key] = set()
        self._control = SearchControl()

    def new_game(self) -> None:
        self._drop_table()
        self.history.clear()

    def _drop_table(self) -> None:
        """Start an empty table. Freeing a full one takes a large part of a second (and a thread freeing
        it would hold the interpreter lock all along), so the old one is freed bit by bit by ``tidy``
        while the engine is idle: never between reading ``go`` and answering, where the clock runs."""
        old, self.table = self.table, {}
        if len(old) > _FREE_IN_PLACE:
            self._garbage.append(old)

    def tidy(self) -> bool:
        """Free a slice of the dropped tables; True while some are left."""
        while self._garbage:
            old = self._garbage[-1]
            for _ in range(min(_FREE_IN_PLACE, len(old))):
                old.popitem()
            if old:
                return True
            self._garbage.pop()
        return False

    # ------------------------------------------------------------------ the root

    def search(
        self,
        position: Position,
        history: Sequence[Position],
        control: SearchControl,
        on_iteration: Callable[[Iteration], None] | None = None,
        root_moves: Sequence[Move] | None = None,
    ) -> SearchResult:
        """The best move found within the control's limits; ``position`` must have a legal move.

        ``root_moves`` narrows the moves searched at the root (a rule on earlier moves, as Frisian's
        king-move limit, may forbid some of the position's legal moves)."""
        if position.variant.id != self.variant.id:
            raise ValueError(f"this search plays {self.variant.id}, not {position.variant.id}")
        root_moves = position.legal_moves() if root_moves is None else list(root_moves)
        if not root_moves:
            raise ValueError(f"no legal move to search in {position.fen()}")
        self._control = control
        self.nodes = 0
        self._node_limit = control.max_nodes if control.max_nodes is not None else INFINITY
        self._next_check = min(CHECK_INTERVAL, self._node_limit)
        self.history.clear()
        if len(self.table) > MAX_TABLE_ENTRIES:
            self._drop_table()
        self._on_line = {(p.white, p.black, p.kings, p.mules, int(p.turn)) for p in history}

        w, b, k, m, turn = position.white, position.black, position.kings, position.mules, int(position.turn)
        root_key = (w, b, k, m, turn)
        by_raw = {m.raw: m for m in root_moves}
        order = [m.raw for m in root_moves]
        known = self.table.get(root_key)
        if known is not None and known[3] in by_raw:
            order.remove(known[3])
            order.insert(0, known[3])
        best = order[0]
        best_score = self.evaluator.evaluate(w, b, k, turn, m)
        completed = 0
        pv: tuple[str, ...] = ()
        depth_cap = min(MAX_DEPTH, control.max_depth) if control.max_depth is not None else MAX_DEPTH
        self._on_line.add(root_key)
        for depth in range(1, max(1, depth_cap) + 1):
            if depth > 1 and not control.may_start_iteration(depth, self.nodes):
                break
            alpha = -INFINITY
            iteration_best: RawMove | None = None
            aborted = False
            for raw in order:
                try:
                    score = self._score_move(w, b, k, m, turn, raw, depth - 1, alpha, INFINITY, 0)
                except SearchAborted:
                    aborted = True
                    break
                if score > alpha:
                    alpha = score
                    iteration_best = raw
            if iteration_best is not None:
                # A partly searched iteration still counts: its first move was the previous best, so
                # any move it prefers scored better than that at a greater depth.
                best, best_score = iteration_best, alpha
                order.remove(best)
                order.insert(0, best)
                self.table[root_key] = (depth, _EXACT, _to_table(best_score, 0), best)
            if aborted:
                break
            completed = depth
            pv = self._principal_variation(position, depth)
            if on_iteration is not None:
                on_iteration(Iteration(depth, best_score, self.nodes, control.elapsed(), pv))
            decided = abs(best_score) > MATE_BOUND
            only_move = len(order) == 1 and control.level.is_timed and not control.free_running
            if (decided and control.max_depth is None) or only_move:
                break
        self._on_line.clear()
        if not pv or pv[0] != hub_text(self.variant, best):
            pv = (hub_text(self.variant, best),)
        return SearchResult(by_raw[best], best_score, completed, self.nodes, pv)

    def _principal_variation(self, position: Position, depth: int) -> tuple[str, ...]:
        """The expected line, read back from the transposition table (as far as it is legal)."""
        w, b, k, m, turn = position.white, position.black, position.kings, position.mules, int(position.turn)
        seen: set[_Key] = set()
        line: list[str] = []
        while len(line) < depth + 8:
            key = (w, b, k, m, turn)
            entry = self.table.get(key)
            if key in seen or entry is None or entry[3] is None:
                break
            seen.add(key)
            raw = entry[3]
            if raw not in self.generator.legal_moves(w, b, k, turn):
                break
            line.append(hub_text(self.variant, raw))
            w, b, k = apply_raw(w, b, k, turn, raw)
            m = mules_after(m, raw) if m else 0
            turn = 1 - turn
        return tuple(line)

    # ------------------------------------------------------------------ the tree

    def _check_limits(self) -> None:
        if self._control.should_abort(self.nodes):
            raise SearchAborted
        self._next_check = min(self.nodes + CHECK_INTERVAL, self._node_limit)

    def _score_move(
        self,
        w: int,
        b: int,
        k: int,
        m: int,
        turn: int,
        move: RawMove,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        """The score of ``move`` for the side playing it at ``ply``, its reply searched to ``depth``."""
        w2, b2, k2 = apply_raw(w, b, k, turn, move)
        if not self.mule_rules:
            return -self._negamax(w2, b2, k2, 0, 1 - turn, depth, -beta, -alpha, ply + 1)
        m2 = mules_after(m, move)
        opponent, opponent_after = (b, b2) if turn == 0 else (w, w2)
        verdict = judge_move(move, opponent, opponent_after, m, m2)
        if verdict is not None:
            self.nodes += 1
            return MATE - ply - 1 if verdict[0] else -(MATE - ply - 1)
        return -self._negamax(w2, b2, k2, m2, 1 - turn, depth, -beta, -alpha, ply + 1)

    def _negamax(
        self, w: int, b: int, k: int, m: int, turn: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_limits()
        key = (w, b, k, m, turn)
        if key in self._on_line:
            return 0
        moves = self.generator.legal_moves(w, b, k, turn)
        if not moves:
            return self.no_move_sign * (MATE - ply)
        if self.mule_rules and side_loses(w if turn == 0 else b, m, moves) is not None:
            return -(MATE - ply)
        # A forced capture is searched through; where capturing is optional, quiet moves stand beside it.
        is_capture = moves[0][2] != 0 and not self.optional_capture
        if (depth <= 0 and not is_capture) or ply >= MAX_PLY:
            return self.evaluator.evaluate(w, b, k, turn, m)

        entry = self.table.get(key)
        table_move: RawMove | None = None
        if entry is not None:
            table_move = entry[3]
            if entry[0] >= depth:
                score = _from_table(entry[2], ply)
                kind = entry[1]
                if kind == _EXACT:
                    return score
                if (kind == _LOWER and score >= beta) or (kind == _UPPER and score <= alpha):
                    return score

        if len(moves) > 1:
            if not is_capture and depth >= 2:
                history = self.history
                moves.sort(key=lambda m: history.get((m[0], m[1]), 0), reverse=True)
            if table_move is not None and table_move in moves:
                moves.remove(table_move)
                moves.insert(0, table_move)
            child_depth = depth - 1
        else:
            child_depth = depth  # a forced reply costs nothing to look past

        original_alpha = alpha
        best = -INFINITY
        best_move: RawMove | None = None
        self._on_line.add(key)
        try:
            for move in moves:
                score = self._score_move(w, b, k, m, turn, move, child_depth, alpha, beta, ply)
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not is_capture:
                                slot = (move[0], move[1])
                                self.history[slot] = self.history.get(slot, 0) + depth * depth
                            break
        finally:
            self._on_line.discard(key)

        kind = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (max(depth, 0), kind, _to_table(best, ply), best_move)
        return best
