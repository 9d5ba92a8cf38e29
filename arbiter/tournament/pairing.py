"""Who meets whom, and with which colour: FIDE Berger tables, gauntlets and two-engine matches.

Players are numbered 1..n by their order in the tournament (their "pairing numbers"). A pairing names the
player listed first in the table (`first`) and the one listed second (`second`); in the FIDE tables the
first-named player has the white pieces, i.e. the side that moves first in chess. The schedule decides
which colour that is in a given variant, so the tables keep the same meaning in English checkers (where
Black moves first) and in international draughts (where White does).

The Berger tables (FIDE Handbook C.05, Annex 1) are generated rather than stored. Their construction:

* The table is built for an even number m of entries; with an odd number of players the extra entry
  m = n + 1 is a bye, so whoever is paired with it sits out that round.
* Round 1 pairs 1-m, 2-(m-1), 3-(m-2), ... on boards 1, 2, 3, ...
* Each later round keeps the board order and moves every number except m on by m/2 places around the
  cycle 1..m-1 (so 1 becomes 1 + m/2, wrapping after m-1). Entry m stays on board 1 and alternates
  colour: second-named in odd rounds, first-named in even rounds.

This reproduces the published tables, e.g. for four players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
"""

from __future__ import annotations

from dataclasses import dataclass


class PairingError(ValueError):
    """A pairing request that cannot be met (too few players, a bad cycle count)."""


@dataclass(frozen=True)
class Pairing:
    """One encounter in a round, by pairing number (1-based). `first` is the first-named player."""

    board: int
    first: int
    second: int

    def reversed(self) -> Pairing:
        return Pairing(board=self.board, first=self.second, second=self.first)


@dataclass(frozen=True)
class Round:
    """One round of a pairing table: its encounters in board order and the player who sits out, if any."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: int | None = None


def berger_table(player_count: int) -> list[Round]:
    """The FIDE Berger table for `player_count` players: one cycle, byes for odd counts."""
    if player_count < 2:
        raise PairingError(f"a round robin needs at least 2 players, got {player_count}")
    size = player_count + player_count % 2
    half = size // 2
    rounds: list[Round] = []
    for round_number in range(1, size):
        shift = (round_number - 1) * half % (size - 1)

        def moved(entry: int, shift: int = shift) -> int:
            return entry if entry == size else (entry - 1 + shift) % (size - 1) + 1

        table_pairs: list[tuple[int, int]] = []
        for board in range(1, half + 1):
            first, second = moved(board), moved(size + 1 - board)
            # Entry `size` sits on board 1 and alternates colour round by round.
            if board == 1 and round_number % 2 == 0:
                first, second = second, first
            table_pairs.append((first, second))
        rounds.append(_drop_bye(round_number, table_pairs, player_count))
    return rounds


def _drop_bye(round_number: int, table_pairs: list[tuple[int, int]], player_count: int) -> Round:
    pairings: list[Pairing] = []
    bye: int | None = None
    for first, second in table_pairs:
        if first > player_count:
            bye = second
        elif second > player_count:
            bye = first
        else:
            pairings.append(Pairing(board=len(pairings) + 1, first=first, second=second))
    return Round(number=round_number, pairings=tuple(pairings), bye=bye)


def round_robin(player_count: int, cycles: int = 1, *, swap_last_two_rounds: bool = True) -> list[Round]:
    """All rounds of a round robin of `cycles` cycles, numbered 1.. across the whole event.

    Every second cycle repeats the table with colours reversed, so over two cycles each pair meets once
    with each colour. With more than one cycle and an even number of players, FIDE recommends reversing
    the order of the last two rounds of the first cycle: without it most players would get the same
    colour three times running where the cycles meet. (With an odd number of players the swap shortens
    no colour run, so it is not applied.)

    Cycles go in blocks of two. The second block plays the first one backwards, last round first, with
    colours reversed; the third is the first again, and so on. Each pair still alternates colours from
    cycle to cycle, and where blocks meet every player changes colour, so nobody ever gets the same
    colour three times running.
    """
    if cycles < 1:
        raise PairingError(f"cycles must be at least 1, got {cycles}")
    table = berger_table(player_count)
    first_cycle = list(table)
    if swap_last_two_rounds and cycles > 1 and player_count % 2 == 0 and len(first_cycle) >= 2:
        first_cycle[-2], first_cycle[-1] = first_cycle[-1], first_cycle[-2]
    block = [(r.pairings, r.bye) for r in first_cycle] + [(_reversed(r.pairings), r.bye) for r in table]
    mirrored = [(_reversed(pairings), bye) for pairings, bye in reversed(block)]
    per_cycle = len(table)
    rounds: list[Round] = []
    for cycle in range(cycles):
        source = block if (cycle // 2) % 2 == 0 else mirrored
        start = (cycle % 2) * per_cycle
        for pairings, bye in source[start : start + per_cycle]:
            rounds.append(Round(number=len(rounds) + 1, pairings=pairings, bye=bye))
    return rounds


def _reversed(pairings: tuple[Pairing, ...]) -> tuple[Pairing, ...]:
    return tuple(p.reversed() for p in pairings)


def gauntlet(player_count: int, cycles: int = 1) -> list[Round]:
    """Player 1 against every other player: one round per cycle, one board per opponent.

    Colours alternate from board to board and from cycle to cycle, so over two cycles player 1 meets
    each opponent once with each colour and within a cycle takes the first-named side on every other
    board.
    """
    if player_count < 2:
        raise PairingError(f"a gauntlet needs at least 2 players, got {player_count}")
    if cycles < 1:
        raise PairingError(f"cycles must be at least 1, got {cycles}")
    rounds: list[Round] = []
    for cycle in range(cycles):
        pairings: list[Pairing] = []
        for opponent in range(2, player_count + 1):
            board = opponent - 1
            if (board - 1 + cycle) % 2 == 0:
                pairings.append(Pairing(board=board, first=1, second=opponent))
            else:
                pairings.append(Pairing(board=board, first=opponent, second=1))
        rounds.append(Round(number=cycle + 1, pairings=tuple(pairings)))
    return rounds


def match(cycles: int = 1) -> list[Round]:
    """A two-player match: one encounter per round, the first-named side alternating each round."""
    return gauntlet(2, cycles)
