"""What a search gives back: the move (or resignation, or draw offer) and the engine's `info` lines."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from arbiter.engines.unchecked import filled_in

T = TypeVar("T")


@dataclass(frozen=True)
class Info:
    """One `info` line. Fields an engine did not send are None; fields the arbiter does not know (or
    could not read as numbers) are kept as text in ``extra``."""

    depth: int | None = None
    score: float | None = None
    nodes: int | None = None
    time: float | None = None
    nps: float | None = None
    pv: tuple[str, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)


def _integer_of(bits: int) -> Callable[[str], int]:
    """A reader of signed integers of ``bits`` bits: a larger one is no number here."""
    limit = 2 ** (bits - 1)

    def read(text: str) -> int:
        value = int(text)
        if not -limit <= value < limit:
            raise ValueError(text)
        return value

    return read


# Numbers are kept in SQLite, whose integers have 64 bits, and a game's depths are summed there: a
# larger count or depth (or an infinite or NaN real, which the PDN export and the adjudicator cannot use
# either) is not read as a number but kept as text.
_count = _integer_of(64)
_depth = _integer_of(32)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _number(fields: dict[str, str], key: str, convert: Callable[[str], T]) -> T | None:
    text = fields.pop(key, None)
    if text is None:
        return None
    try:
        return convert(text)
    except ValueError:
        fields[key] = text  # keep what could not be read
        return None


def parse_info(fields: Mapping[str, str], score_scale: float = 1.0) -> Info:
    """An `info` line's fields; the score is multiplied by ``score_scale`` (to centi-men)."""
    rest = dict(fields)
    pv_text = rest.pop("pv", "")
    score = _number(rest, "score", _real)
    if score is not None:
        score = round(score * score_scale, 6)
        if not math.isfinite(score):  # finite in the engine's units, too large in centi-men
            rest["score"], score = fields["score"], None
    return Info(
        depth=_number(rest, "depth", _depth),
        score=score,
        nodes=_number(rest, "nodes", _count),
        time=_number(rest, "time", _real),
        nps=_number(rest, "nps", _real),
        pv=tuple(pv_text.split()),
        extra=rest,
    )


@dataclass(frozen=True)
class SearchResult:
    """The end of one search.

    ``move`` is None only when the engine resigned (or, in DXP, ended the game with a draw claim).
    ``elapsed`` is measured by the arbiter with a monotonic clock, from sending `go` to reading `done`.
    """

    move: str | None
    resigned: bool = False
    offers_draw: bool = False
    ponder: str | None = None
    infos: tuple[Info, ...] = ()
    elapsed: float = 0.0
    stopped: bool = False  # the arbiter sent `stop` before the move came
    reported_time: float | None = None  # the time the engine says it used (DXP), if any
    board: str | None = None  # the position the engine says its move leads to (`done board=`), if any

    @classmethod
    def moved(
        cls,
        move: str,
        offers_draw: bool,
        ponder: str | None,
        infos: tuple[Info, ...],
        elapsed: float,
        stopped: bool,
        board: str | None,
    ) -> SearchResult:
        """The result of a search that ended with a move, as ``SearchResult(move, ...)`` makes it, made
        for every move without the frozen ``__init__`` (see ``unchecked``)."""
        return filled_in(
            cls,
            {
                "move": move,
                "resigned": False,
                "offers_draw": offers_draw,
                "ponder": ponder,
                "infos": infos,
                "elapsed": elapsed,
                "stopped": stopped,
                "reported_time": None,
                "board": board,
            },
        )

    @property
    def last_info(self) -> Info | None:
        return self.infos[-1] if self.infos else None

    @property
    def final_info(self) -> Info | None:
        """The search's last word on each field, as cutechess-cli reads an engine's `info` lines: each
        field from the latest line that gave it, so a closing line of nodes and time alone keeps the
        score, depth and pv of the line before (the score adjudication and the record go by)."""
        infos = self.infos
        if len(infos) < 2:
            return infos[0] if infos else None
        depth = score = nodes = time = nps = None
        pv: tuple[str, ...] = ()
        extra: dict[str, str] = {}
        for info in infos:
            depth = info.depth if info.depth is not None else depth
            score = info.score if info.score is not None else score
            nodes = info.nodes if info.nodes is not None else nodes
            time = info.time if info.time is not None else time
            nps = info.nps if info.nps is not None else nps
            pv = info.pv or pv
            extra.update(info.extra)
        return Info(depth, score, nodes, time, nps, pv, extra)
