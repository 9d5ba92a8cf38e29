"""cutechess-cli and fastchess spellings for `arbiter match`, translated before Typer reads them.

Those tools take single-dash options whose values are `key=value` words (``-engine cmd=x name=y``,
``-openings file=f format=pgn order=random``), which Typer cannot parse. ``translate`` turns such a
command line into `arbiter match`'s own options, so a command from those tools works once its engines
are changed. The README has the side-by-side table; ``SPELLINGS`` is its source.
"""

from __future__ import annotations

from collections.abc import Callable

# cutechess/fastchess option -> what `arbiter match` does with it.
SPELLINGS: dict[str, str] = {
    "-engine": "--engine 'key=value ...' (cmd= name= dir= proto= option.X= tc= arg= ...)",
    "-each": "--each 'key=value ...': settings of every engine (tc= becomes --tc)",
    "-rounds N": "--rounds N",
    "-games N": "--games N",
    "-repeat": "--repeat",
    "-concurrency N": "--concurrency N",
    "-force-concurrency": "--force-concurrency (fastchess: more games at a time than CPUs, no warning)",
    "-openings": "--openings FILE --order O --plies N --opening-start N (file= format= order= plies= start=)",
    "-pgnout FILE / -pdnout FILE": "--pdn-out FILE (fastchess: -pgnout file=FILE ...; finished games, whole)",
    "-draw": "--adjudicate-draw (movenumber= movecount= score=, score in centi-men)",
    "-resign": "--adjudicate-win --adjudicate-win-one-sided (movecount= score= twosided=)",
    "-sprt": "--sprt 'elo0= elo1= alpha= beta='",
    "-ratinginterval N": "--rating-interval N",
    "-recover": "--recover (always the arbiter's way: a crashed engine is started afresh)",
    "-variant V": "--variant V",
    "-event NAME": "--name NAME",
    "-srand N": "--seed N",
    "-maxmoves N": "--max-plies 2N (0: no limit)",
    "-debug": "--debug",
    "-log file= level=": "--debug (the log is written beside the database)",
    "-tournament": "round-robin (fastchess: roundrobin) or match: two engines play one match",
}

# Options whose one following word is their value, and their arbiter spelling.
_VALUED = {
    "-rounds": "--rounds",
    "-games": "--games",
    "-concurrency": "--concurrency",
    "-ratinginterval": "--rating-interval",
    "-variant": "--variant",
    "-event": "--name",
    "-srand": "--seed",
}
_FLAGS = {"-recover": "--recover", "-debug": "--debug", "-force-concurrency": "--force-concurrency"}
# fastchess's `-pgnout file=F` settings besides the file: what its PGN shows of each move.
_FASTCHESS_PGN_KEYS = (
    "file", "notation", "append", "nodes", "seldepth", "nps", "hashfull", "tbhits", "pv", "timeleft",
    "latency", "min", "match_line",
)  # fmt: skip
_OPENING_FORMATS = ("pgn", "pdn", "epd", "fen", "txt")
# cutechess-cli engine settings that are one word, no `=`: they would be taken for a third engine.
_BARE_ENGINE_SETTINGS = {
    "ponder": "Hub engines are not asked to ponder",
    "trust": "a game ends by the rules or the -draw, -resign and -maxmoves settings, never by an engine's "
    "claim",
    "whitepov": "scores are read from the side to move's view, in the unit score= names",
}
# Options of those tools the arbiter does not read, with what does their work instead.
_INSTEAD = {
    "-report": "the result always counts games played in opening pairs (-repeat) as pairs, the "
    "pentanomial way (the Pairs column and nElo): leave it out",
    "-use-affinity": "engines are not pinned to CPUs: leave it out (a -concurrency no higher than the "
    "CPUs keeps them from taking turns)",
    "-output": "the progress lines are the arbiter's own: leave it out, and give --json FILE for one "
    "JSON line a game that a program can read",
    "-config": "every game is kept in the database (--db) as it ends and running the same command "
    "again goes on where it stopped; settings from a file are `arbiter run FILE.toml`",
    "-randomseed": "give -srand N (--seed N) for the order of random openings",
    "-autosaveinterval": "every game is kept in the database (--db) as it ends: leave it out",
    "-scoreinterval": "a line follows every game: leave it out (-ratinginterval N adds the Elo)",
    "-outcomeinterval": "a line follows every game: leave it out (-ratinginterval N adds the Elo)",
    "-pgnin": "give the openings as -openings file=F (a .pdn file, or one opening a line)",
    "-epdin": "give the openings as -openings file=F (a .pdn file, or one opening a line)",
    "-bookmode": "openings come from -openings file=F: leave it out",
    "-help": "`arbiter match --help`",
    "-version": "`arbiter --version`",
}


class CutechessArgsError(ValueError):
    """A cutechess-style option that cannot be translated; the message names it."""


def translate(args: list[str]) -> list[str]:
    """`arbiter match`'s arguments with every cutechess/fastchess spelling turned into its own."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in ("-pgnout", "-pdnout"):
            path, i = _game_file(args, i, arg)
            out += ["--pdn-out", path]
        elif arg in _VALUED:
            value, i = _value(args, i, arg)
            out += [_VALUED[arg], value]
        elif arg in _FLAGS:
            out.append(_FLAGS[arg])
        elif arg in ("-engine", "-each"):
            words, i = _settings(args, i)
            if i < len(args) and args[i] in _BARE_ENGINE_SETTINGS:
                raise CutechessArgsError(
                    f"{arg} {args[i]}: a cutechess-cli engine setting the arbiter does not take: "
                    f"{_BARE_ENGINE_SETTINGS[args[i]]}; leave it out"
                )
            if not words:
                raise CutechessArgsError(f"{arg} needs key=value settings, e.g. {arg} cmd=./engine name=E")
            out += ["--engine" if arg == "-engine" else "--each", " ".join(_quoted(w) for w in words)]
        elif arg == "-repeat":
            if i < len(args) and args[i].isdigit():
                if args[i] != "2":
                    raise CutechessArgsError(f"-repeat {args[i]}: each opening is repeated twice (-repeat 2)")
                i += 1
            out.append("--repeat")
        elif arg == "-log":
            _, i = _settings(args, i)  # fastchess file= level=: the log is kept beside the database
            out.append("--debug")
        elif arg == "-maxmoves":
            value, i = _value(args, i, arg)
            moves = _number(arg, value)
            if moves != 0:  # cutechess-cli's 0, its default, sets no limit
                out += ["--max-plies", str(2 * moves)]
        elif arg == "-tournament":
            value, i = _value(args, i, arg)
            if value not in ("round-robin", "roundrobin", "match"):
                raise CutechessArgsError(
                    f"-tournament {value}: `arbiter match` plays one match between two engines (leave "
                    f"-tournament out); for more engines, write a tournament file with format = "
                    f'"round-robin" or "gauntlet" and give it to `arbiter run`'
                )
        else:
            handler = _KEYED.get(arg)
            if handler is None:
                if arg in _INSTEAD and not _may_be_value(args, i - 1):
                    raise CutechessArgsError(f"{arg}: not an option of `arbiter match`: {_INSTEAD[arg]}")
                if _is_foreign_option(arg) and not _may_be_value(args, i - 1):
                    raise CutechessArgsError(
                        f"{arg}: not an option of `arbiter match`. Its own options take two dashes "
                        f"(--db, --tc, ...: see `arbiter match --help`); the cutechess-cli and fastchess "
                        f"options it reads are {', '.join(OPTIONS_READ)}"
                    )
                out.append(arg)
                continue
            words, i = _settings(args, i)
            out += handler(_pairs(arg, words))
    return out


def _is_foreign_option(arg: str) -> bool:
    """A single-dash word of letters such as ``-output`` or ``-db``: an option of another tool, or one
    of ours given one dash. (Short options with a value attached, ``-c2``, are left to Typer.)"""
    name = arg[1:]
    return arg.startswith("-") and len(name) >= 2 and name[0].isalpha() and name.replace("-", "").isalpha()


def _may_be_value(args: list[str], at: int) -> bool:
    """Whether ``args[at]`` may be the value of the long option before it (``--name -x-``)."""
    before = args[at - 1] if at > 0 else ""
    return before.startswith("--") and "=" not in before


def _game_file(args: list[str], i: int, option: str) -> tuple[str, int]:
    """The file of ``-pgnout``: cutechess's ``-pgnout FILE [min] [fi]`` or fastchess's ``-pgnout
    file=FILE [notation=san nodes=true ...]``. Their modifiers choose what a chess PGN shows of each
    move; the PDN written holds every game whole, with the arbiter's own comments."""
    if i < len(args) and args[i].startswith("file="):
        words, i = _settings(args, i)
        pairs = _pairs(option, words)
        _known(option, pairs, _FASTCHESS_PGN_KEYS)
        if not pairs["file"]:
            raise CutechessArgsError(f"{option} file= needs a file name")
        return pairs["file"], i
    path, i = _value(args, i, option)
    while i < len(args) and args[i] in ("min", "fi"):
        i += 1
    return path, i


def _value(args: list[str], i: int, option: str) -> tuple[str, int]:
    if i >= len(args):
        raise CutechessArgsError(f"{option} needs a value")
    return args[i], i + 1


def _settings(args: list[str], i: int) -> tuple[list[str], int]:
    """The `key=value` words after an option, up to the next option."""
    words = []
    while i < len(args) and not args[i].startswith("-") and "=" in args[i]:
        words.append(args[i])
        i += 1
    return words, i


def _quoted(word: str) -> str:
    key, _, value = word.partition("=")
    return f"{key}={_shell_quote(value)}"


def _shell_quote(value: str) -> str:
    if value and all(c.isalnum() or c in "-_./:{},+@%" for c in value):
        return value
    return "'" + value.replace("'", "'\"'\"'") + "'"


def _pairs(option: str, words: list[str]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for word in words:
        key, _, value = word.partition("=")
        pairs[key] = value
    return pairs


def _number(option: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CutechessArgsError(f"{option}: {text!r} is not a whole number") from None


def _known(option: str, pairs: dict[str, str], keys: tuple[str, ...]) -> None:
    for key in pairs:
        if key not in keys:
            raise CutechessArgsError(f"{option}: unknown setting {key}=; settings: {'= '.join(keys)}=")


def _openings(pairs: dict[str, str]) -> list[str]:
    _known("-openings", pairs, ("file", "format", "order", "plies", "start", "policy"))
    if "file" not in pairs:
        raise CutechessArgsError("-openings needs file=")
    out = ["--openings", pairs["file"]]
    fmt = pairs.get("format")
    if fmt is not None and fmt not in _OPENING_FORMATS:
        raise CutechessArgsError(f"-openings format={fmt}: formats: {', '.join(_OPENING_FORMATS)}")
    is_games = pairs["file"].lower().endswith(".pdn")
    if not is_games and (fmt in ("pgn", "pdn") or (fmt is None and pairs["file"].lower().endswith(".pgn"))):
        # The arbiter knows a file of games by its name: any other is read one opening a line.
        given = " ".join(f"{key}={pairs[key]}" for key in ("file", "format") if key in pairs)
        raise CutechessArgsError(
            f"-openings {given}: PDN games are read from a file whose name ends in .pdn: rename it "
            f"(or, for one opening a line, format=epd)"
        )
    policy = pairs.get("policy", "default")
    if policy != "default":
        raise CutechessArgsError(
            f"-openings policy={policy}: each game gets the next opening; for games that share one, give "
            f"-repeat (each opening twice, colours swapped) and leave policy= out"
        )
    if "order" in pairs:
        out += ["--order", pairs["order"]]
    if "plies" in pairs:
        out += ["--plies", pairs["plies"]]
    elif is_games:
        out += ["--plies", "1000"]  # cutechess plays a PGN opening to its end unless plies= cuts it
    if "start" in pairs:
        out += ["--opening-start", pairs["start"]]
    return out


def _draw(pairs: dict[str, str]) -> list[str]:
    _known("-draw", pairs, ("movenumber", "movecount", "score"))
    if "movecount" not in pairs or "score" not in pairs:
        raise CutechessArgsError("-draw needs movecount= and score=")
    out = ["--adjudicate-draw", f"{pairs['score']}:{pairs['movecount']}"]
    if "movenumber" in pairs:
        out += ["--adjudicate-draw-from", pairs["movenumber"]]
    return out


def _resign(pairs: dict[str, str]) -> list[str]:
    _known("-resign", pairs, ("movecount", "score", "twosided"))
    if "movecount" not in pairs or "score" not in pairs:
        raise CutechessArgsError("-resign needs movecount= and score=")
    out = ["--adjudicate-win", f"{pairs['score']}:{pairs['movecount']}"]
    two_sided = pairs.get("twosided", "false")
    if two_sided not in ("true", "false"):
        raise CutechessArgsError(f"-resign twosided= is true or false, not {two_sided!r}")
    # As in cutechess-cli and fastchess, the losing engine's own scores decide unless twosided=true.
    return out if two_sided == "true" else [*out, "--adjudicate-win-one-sided"]


def _sprt(pairs: dict[str, str]) -> list[str]:
    _known("-sprt", pairs, ("elo0", "elo1", "alpha", "beta", "model"))
    return ["--sprt", " ".join(f"{key}={value}" for key, value in pairs.items())]


_KEYED: dict[str, Callable[[dict[str, str]], list[str]]] = {
    "-openings": _openings,
    "-draw": _draw,
    "-resign": _resign,
    "-sprt": _sprt,
}
# Every cutechess-cli/fastchess option `translate` reads, for the message naming one it does not.
OPTIONS_READ = (
    "-engine", "-each", "-repeat", "-pgnout", "-pdnout", "-log", "-maxmoves", "-tournament",
    *_VALUED, *_FLAGS, *_KEYED,
)  # fmt: skip


def translate_command_line(argv: list[str]) -> list[str]:
    """The whole `arbiter ...` argument list, with `match`'s cutechess spellings translated."""
    if not argv or argv[0] != "match":
        return argv
    return argv[:1] + translate(argv[1:])
