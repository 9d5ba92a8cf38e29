"""The planned games of a tournament, in playing order, each with a stable key.

`plan_games` is a pure function: the same players, format, cycles, openings and options always give the
same list, so a resumed run can rebuild it and see which games are already in the store. A resumed run
should check that each stored game's players and opening still match its key's planned game: a changed
option changes the plan. (Adding cycles to a match or gauntlet only appends games; in a round robin of
an even number of players, going from one cycle to several reorders the first cycle's last two rounds.)

Vocabulary:

* an *encounter* is one meeting of two players in a round; it holds `games_per_encounter` games;
* with `repeat`, the games of an encounter go in twos: both games of a pair start from the same
  opening, one right after the other, each player taking each colour (the ballot rule). The two games
  share a `pair_index`, which the statistics use for pentanomial counts;
* the first-named player of a pairing (see `pairing`) gets the colour that moves first in the variant
  (`first_mover`): Black in English checkers, White in international draughts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from arbiter.store.records import GameKey as GameKey
from arbiter.tournament.openings import Opening, OpeningSequence
from arbiter.tournament.pairing import Round, gauntlet, match, round_robin


class ScheduleError(ValueError):
    """Schedule options that do not fit together."""


class TournamentFormat(StrEnum):
    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"
    MATCH = "match"


class Colour(StrEnum):
    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


@dataclass(frozen=True)
class PlannedGame:
    """One game to be played.

    `opening_index` is the 0-based position of its opening in the dealt sequence (None when there are
    no openings and the game starts from the variant's start position).
    """

    key: GameKey
    cycle: int
    white: str
    black: str
    opening: Opening | None
    opening_index: int | None
    pair_index: int | None

    @property
    def round(self) -> int:
        return self.key.round

    def player_of(self, colour: Colour) -> str:
        return self.white if colour is Colour.WHITE else self.black


@dataclass(frozen=True)
class Bye:
    """A player who sits out a round."""

    round: int
    player: str


@dataclass(frozen=True)
class Schedule:
    """Every game of an event, and its byes."""

    games: tuple[PlannedGame, ...]
    byes: tuple[Bye, ...]
    rounds: int

    def by_key(self) -> dict[GameKey, PlannedGame]:
        return {game.key: game for game in self.games}


def plan_games(
    players: Sequence[str],
    format: TournamentFormat,
    *,
    cycles: int = 1,
    games_per_encounter: int = 1,
    repeat: bool = False,
    openings: OpeningSequence | None = None,
    same_opening_per_round: bool = False,
    first_mover: Colour = Colour.WHITE,
    swap_last_two_rounds: bool = True,
) -> Schedule:
    """Every game of the tournament, in playing order.

    * `format`: a round robin on the FIDE Berger tables; a gauntlet of the first player against all
      others; or a match between exactly two players.
    * `cycles`: how many times the pairing table is played (for a match: how many encounters).
    * `games_per_encounter`: games each time two players meet; colours swap from one game to the next.
    * `repeat`: deal one opening per pair of games instead of one per game (needs an even number of
      games per encounter).
    * `openings`: the deck with its order and seed; without it every game starts from the start position.
    * `same_opening_per_round`: every encounter of a round plays the same openings, as when one ballot
      is drawn for the whole round; otherwise each encounter gets its own.
    * `first_mover`: the colour that moves first in the variant; the first-named player of a pairing gets it.
    * `swap_last_two_rounds`: FIDE's advice for multi-cycle round robins (see `pairing.round_robin`).
    """
    names = _check_players(players, format)
    if cycles < 1:
        raise ScheduleError(f"cycles must be at least 1, got {cycles}")
    if games_per_encounter < 1:
        raise ScheduleError(f"games per encounter must be at least 1, got {games_per_encounter}")
    if repeat and games_per_encounter % 2 != 0:
        raise ScheduleError(
            f"repeat plays each opening twice with colours swapped, so games per encounter must be even, "
            f"got {games_per_encounter}"
        )

    rounds = _rounds(len(names), format, cycles, swap_last_two_rounds)
    rounds_per_cycle = len(rounds) // cycles
    games_per_opening = 2 if repeat else 1
    openings_per_encounter = games_per_encounter // games_per_opening

    encounter_count = sum(len(r.pairings) for r in rounds)
    slot_count = (len(rounds) if same_opening_per_round else encounter_count) * openings_per_encounter
    dealt = openings.take(slot_count) if openings is not None else []

    games: list[PlannedGame] = []
    byes: list[Bye] = []
    next_slot = 0  # position in the dealt openings of the next unused opening
    next_pair = 1
    for round_ in rounds:
        cycle = (round_.number - 1) // rounds_per_cycle + 1
        if round_.bye is not None:
            byes.append(Bye(round=round_.number, player=names[round_.bye - 1]))
        round_first_slot = next_slot
        for pairing in round_.pairings:
            encounter_first_slot = round_first_slot if same_opening_per_round else next_slot
            first, second = names[pairing.first - 1], names[pairing.second - 1]
            for game_number in range(1, games_per_encounter + 1):
                group = (game_number - 1) // games_per_opening  # which opening of the encounter
                first_colour = first_mover if game_number % 2 == 1 else first_mover.other
                white, black = (first, second) if first_colour is Colour.WHITE else (second, first)
                slot = encounter_first_slot + group
                games.append(
                    PlannedGame(
                        key=GameKey(round=round_.number, board=pairing.board, game=game_number),
                        cycle=cycle,
                        white=white,
                        black=black,
                        opening=dealt[slot] if dealt else None,
                        opening_index=slot if dealt else None,
                        pair_index=next_pair + group if repeat else None,
                    )
                )
            next_slot = encounter_first_slot + openings_per_encounter
            if repeat:
                next_pair += openings_per_encounter
    return Schedule(games=tuple(games), byes=tuple(byes), rounds=len(rounds))


def _check_players(players: Sequence[str], format: TournamentFormat) -> list[str]:
    names = list(players)
    for position, name in enumerate(names, start=1):
        if not name or not name.strip():
            raise ScheduleError(f"player {position} has an empty name")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ScheduleError(f"player {name!r} is listed twice")
        seen.add(name)
    if format is TournamentFormat.MATCH and len(names) != 2:
        raise ScheduleError(f"a match is between exactly 2 players, got {len(names)}")
    if len(names) < 2:
        raise ScheduleError(f"a {format.value} needs at least 2 players, got {len(names)}")
    return names


def _rounds(
    player_count: int, format: TournamentFormat, cycles: int, swap_last_two_rounds: bool
) -> list[Round]:
    if format is TournamentFormat.ROUND_ROBIN:
        return round_robin(player_count, cycles, swap_last_two_rounds=swap_last_two_rounds)
    if format is TournamentFormat.GAUNTLET:
        return gauntlet(player_count, cycles)
    return match(cycles)
