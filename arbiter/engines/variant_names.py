"""The names Hub engines give the variants, so an engine is told its own word for the game.

Scan (the reference Hub engine) declares ``variant`` as an enum of ``normal killer bt frisian losing``;
other engines use the arbiter's ids or the names of Lidraughts. When an engine declares an enum of
variant names, the first of these names that it offers is the one sent. A mapping in the engine's
configuration (``variant_names``, or ``--variant-name`` on the command line) always comes first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

# Arbiter variant id -> the names engines are known to use for it, most usual first (the id itself
# is always tried first). Killer and Breakthrough draughts (Scan's `killer`, `bt`) are not variants the
# arbiter referees, so they map to nothing.
HUB_VARIANT_NAMES: dict[str, tuple[str, ...]] = {
    "international": ("normal", "standard", "10x10"),
    "antidraughts": ("losing", "giveaway"),
    "frisian": ("frysk",),
    "english": ("american", "checkers", "8x8"),
    "russian": ("shashki",),
    "brazilian": ("brazil",),
    "italian": ("dama",),
}


def engine_variant_name(
    variant: str, offered: Collection[str] | None = None, mapping: Mapping[str, str] | None = None
) -> str:
    """The engine's word for the arbiter's ``variant`` id.

    ``mapping`` (the configured one) wins when the engine offers that name (or lists none); otherwise,
    when the engine lists the names it ``offered``, the first known name of the variant among them;
    otherwise the mapped name or the id itself (which the caller then refuses). A variant with options
    (``english+iyt-draws``) is looked up by its whole id, then by its base.
    """
    base = variant.partition("+")[0]
    mapped = next((mapping[key] for key in (variant, base) if mapping and key in mapping), None)
    if offered is None:
        return variant if mapped is None else mapped
    # A mapping given for every engine of a command fits only some: the others keep the standard names.
    if mapped is not None and mapped in offered:
        return mapped
    for key in (variant, base):
        for name in (key, *HUB_VARIANT_NAMES.get(key, ())):
            if name in offered:
                return name
    return variant if mapped is None else mapped
