"""The jinja2 side of the site: where the templates are, the environment (autoescaping on, every
number filter the pages use), and a fingerprint of everything that shapes a page."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from arbiter.notation.controls import visible_controls
from arbiter.report import formatting
from arbiter.report.inputs import SiteError
from arbiter.report.rating_chart import describe
from arbiter.tournament.figures import llr_figures, percent


def _shown(value: object) -> object:
    """Every value a page shows, with control characters (a NUL in an engine's name) made visible."""
    if isinstance(value, str):
        shown = visible_controls(value)
        if shown is not value:
            return Markup(shown) if isinstance(value, Markup) else shown
    return value


def templates_dir() -> Path:
    """The templates: ``templates/`` beside the package in a checkout, or inside it when installed."""
    here = Path(__file__).resolve().parent
    candidates = (here.parents[1] / "templates", here / "templates")
    for candidate in candidates:
        if (candidate / "base.html").is_file():
            return candidate
    raise SiteError(f"no site templates found (looked in {candidates[0]} and {candidates[1]})")


@cache
def environment(directory: Path) -> jinja2.Environment:
    """The environment of the templates in `directory`: every value is escaped unless marked safe."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        autoescape=True,
        finalize=_shown,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # Loaded once per process: a publisher renders a page per game, and checking the files for
        # changes before each one is a few system calls a page.
        auto_reload=False,
    )
    env.filters.update(
        points=formatting.points,
        seconds=formatting.seconds,
        score=formatting.score,
        record=formatting.record,
        moment=formatting.moment,
        percent=percent,
        elo=describe,
    )
    env.globals["llr_figures"] = llr_figures
    return env


@cache
def code_fingerprint(directory: Path) -> str:
    """A hash of the templates and of the code that fills them: a change to either remakes every page."""
    from arbiter.notation import pdn_writer

    digest = hashlib.sha256()
    sources = sorted(directory.rglob("*")) + sorted(Path(__file__).resolve().parent.glob("*.py"))
    sources.append(Path(pdn_writer.__file__))
    for path in sources:
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
