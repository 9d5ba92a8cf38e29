"""The names Hub engines give the variants, so an engine is told its own word for the game.

Scan (the reference Hub engine) declares ``variant`` as an enum of ``normal killer bt frisian losing``;
other engines use the arbiter's ids or the names of Lidraughts. When an engine declares an enum of
variant names, the first of these names that it offers is the one sent. A mapping in the engine's
configuration (``variant_names``, or ``--variant-name`` on the command line) always comes first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

# Arbiter variant id -> the names engines are known to use for it, most usual first (the id itself
# is always tried first; Scan's `killer` and `bt` are the arbiter's ids too).
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
    otherwise the mapped name or the id itself (which the caller then refuses). A variant is told with
    only the options that change its moves (``turkish+crown-continues``; see
    `arbiter.rules.variants.engine_variant`), so it is looked up by its whole id: the base variant's
    names would let an engine that knows only the plain rules play other moves.
    """
    mapped = mapping.get(variant) if mapping else None
    if offered is None:
        return variant if mapped is None else mapped
    # A mapping given for every engine of a command fits only some: the others keep the standard names.
    if mapped is not None and mapped in offered:
        return mapped
    for name in (variant, *HUB_VARIANT_NAMES.get(variant, ())):
        if name in offered:
            return name
    return variant if mapped is None else mapped
