"""The published site of an event: standings, crosstable, ratings, replayable games, engines, PDN.

``build_site("site", event, games)`` writes it, from an `EventInfo` and one `GameEntry` per planned
or played game, in playing order.

The site's builder and its templates (jinja2) load when first named: a match that only writes a file
atomically does not load them.
"""

from typing import TYPE_CHECKING

from arbiter.report.inputs import EventInfo, GameEntry, OpeningInfo, SiteError, finished_games

if TYPE_CHECKING:
    from arbiter.report.site import SiteBuild, build_site
    from arbiter.report.templating import templates_dir


def __getattr__(name: str) -> object:
    if name in ("SiteBuild", "build_site"):
        from arbiter.report import site

        return getattr(site, name)
    if name == "templates_dir":
        from arbiter.report.templating import templates_dir

        return templates_dir
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "EventInfo",
    "GameEntry",
    "OpeningInfo",
    "SiteBuild",
    "SiteError",
    "build_site",
    "finished_games",
    "templates_dir",
]
