"""Which of the arbiter's variants a CheckerBoard game type plays (adapter side).

`get gametype` answers with a PDN GameType number; an engine that does not answer plays English, as
the API says. The It's Your Turn variants on the English board (anti, mule...) have no game type: an
English engine would play them as English, so they are not offered.
"""

from __future__ import annotations

from arbiter.rules import VARIANTS
from arbiter.rules.variants import DRAW_ONLY_OPTIONS, OPTIONS

ENGLISH = 21


def variants_for(gametype: int) -> list[str]:
    """The variant ids (options included) of ``gametype``, on the dark squares of an 8x8 board."""
    ids: list[str] = []
    for variant in VARIANTS.values():
        geometry = variant.geometry
        if variant.pdn_gametype != gametype or geometry.all_squares or geometry.width != 8:
            continue
        ids.append(variant.id)
        # Only the options that change no move: an engine plays its own game's moves and knows no other.
        ids += [
            f"{variant.id}+{option}"
            for option, (bases, _, _) in OPTIONS.items()
            if variant.id in bases and option in DRAW_ONLY_OPTIONS
        ]
    return ids


def parse_gametype(reply: str) -> int | None:
    words = reply.split()
    return int(words[0]) if words and words[0].isdigit() else None
