"""The published site of an event: standings, crosstable, ratings, replayable games, engines, PDN.

``build_site("site", event, games)`` writes it, from an `EventInfo` and one `GameEntry` per planned
or played game, in playing order.
"""

from arbiter.report.inputs import EventInfo, GameEntry, OpeningInfo, SiteError, finished_games
from arbiter.report.site import SiteBuild, build_site
from arbiter.report.templating import templates_dir

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
