"""A minimal stand-in for cutechess-cli, so the tests can run harness_compare.py's chess-harness path
where neither cutechess-cli nor fastchess is installed.

It takes the options the benchmark gives cutechess-cli (``-engine cmd= arg= name= proto=uci``, ``-each``,
``-games``, ``-concurrency``, ``-pgnout``), plays the games one after the other between two UCI engines
for 52 plies (it knows no chess: it relays the moves; the benchmark's instant engine repeats a position
for the third time there), prints cutechess's ``Finished game`` line for each, writes a PGN with
``PlyCount`` tags, and exits without waiting for its engines, as a harness may. ``MINI_HARNESS_END``
replaces the end printed for the first game (to play a harness reporting a forfeit).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import IO

REPETITION = "1/2-1/2 {Draw by 3-fold repetition}"


def _engine_options(argv: list[str]) -> list[dict[str, str]]:
    engines: list[dict[str, str]] = []
    for index, word in enumerate(argv):
        if word == "-engine":
            options: dict[str, str] = {}
            for option in argv[index + 1 :]:
                if option.startswith("-"):
                    break
                key, _, value = option.partition("=")
                options[key] = value
            engines.append(options)
    return engines


def _value(argv: list[str], flag: str, default: str) -> str:
    return argv[argv.index(flag) + 1] if flag in argv else default


def _ask(engine: subprocess.Popen[str], line: str, answer: str) -> str:
    stdin: IO[str] | None = engine.stdin
    stdout: IO[str] | None = engine.stdout
    assert stdin is not None and stdout is not None
    stdin.write(line + "\n")
    stdin.flush()
    while True:
        got = stdout.readline()
        if not got:
            sys.exit(f"engine closed its output after {line!r}")
        if got.startswith(answer):
            return got.strip()


def main() -> None:
    argv = sys.argv[1:]
    specs = _engine_options(argv)
    games = int(_value(argv, "-games", "1"))
    plies = 52
    pgn = _value(argv, "-pgnout", "games.pgn")
    engines = [
        subprocess.Popen(
            [spec["cmd"], *([spec["arg"]] if "arg" in spec else [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for spec in specs
    ]
    names = [spec.get("name", "engine") for spec in specs]
    for engine in engines:
        _ask(engine, "uci", "uciok")
    with open(pgn, "w", encoding="utf-8") as record:
        for game in range(games):
            white = game % 2
            for engine in engines:
                _ask(engine, "ucinewgame\nisready", "readyok")
            moves: list[str] = []
            for ply in range(plies):
                engine = engines[white ^ (ply % 2)]
                position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
                go = "go wtime 60000 btime 60000 winc 1000 binc 1000"
                answer = _ask(engine, f"{position}\n{go}", "bestmove")
                moves.append(answer.split()[1])
            end = (os.environ.get("MINI_HARNESS_END") if game == 0 else None) or REPETITION
            print(f"Finished game {game + 1} ({names[white]} vs {names[1 - white]}): {end}", flush=True)
            record.write(f'[Event "mini"]\n[PlyCount "{len(moves)}"]\n\n{" ".join(moves)} 1/2-1/2\n\n')
    for engine in engines:
        assert engine.stdin is not None
        engine.stdin.write("quit\n")
        engine.stdin.flush()
    os._exit(0)  # without waiting for the engines


if __name__ == "__main__":
    main()
