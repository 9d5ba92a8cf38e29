"""The static site of an event: index (standings, crosstable, ratings), games, engines, openings, PDN.

    build_site(Path("site"), event, games)

Pages are rendered with jinja2 from the project's ``templates/`` folder, with autoescaping on, so
every name and message that came from an engine or a configuration is shown as text. The site needs
no server and fetches nothing: open ``index.html`` from the disk or put the folder on any static host.

This builds the site of games held in memory; `arbiter.report.store_site` builds it from a tournament
database, reading the games a few at a time. Building again into the same folder is incremental: a game
page (and its PDN file) is written again only when what it shows has changed, which a small manifest in
the folder (``.arbiter-site.json``) keeps track of; the event-wide pages are written every time. Every
file is replaced atomically, so a running event can be watched while it is being refreshed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.report.files import engine_slugs, page_key, remove_stale_temporaries, write_atomic
from arbiter.report.game_page import EVENT_PDN, GameJob, Neighbour
from arbiter.report.inputs import EventInfo, GameEntry, SiteError
from arbiter.report.lines import entry_line
from arbiter.report.pages import PageWriter, write_game_pages
from arbiter.report.site_pdn import event_pdn
from arbiter.report.summary import summarize
from arbiter.report.templating import code_fingerprint, templates_dir

MANIFEST = ".arbiter-site.json"


@dataclass(frozen=True)
class SiteBuild:
    """What a build did: where, how many game pages it wrote and how many it kept as they were, how
    many files the site has and how many files of an earlier build it removed (its site lacks them)."""

    out_dir: Path
    games_written: int
    games_kept: int
    files: int
    removed: int = 0


class _Builder:
    def __init__(
        self, out_dir: Path, event: EventInfo, games: Sequence[GameEntry], incremental: bool, workers: int
    ) -> None:
        seen: set[str] = set()
        for game in games:
            if game.key in seen:
                raise SiteError(f"game key {game.key!r} appears twice; every game needs its own key")
            seen.add(game.key)
        self.out = out_dir
        self.event = event
        self.games = games
        self.code = code_fingerprint(templates_dir())
        self.lines = [entry_line(game, pieces=event.scoring.by_pieces) for game in games]
        identities = {}
        for game in games:
            if game.record is not None:
                for player in (game.record.white, game.record.black):
                    if player.identity or player.engine_id:
                        identities[player.name] = (dict(player.identity), player.engine_id)
        self.summary = summarize(event, self.lines, identities)
        self.slugs = engine_slugs(self.summary.players)
        self.pages = {game.key: page_key(game.key) for game in games}
        self.has_openings = event.ballot_pairs or any(game.opening is not None for game in games)
        self.writer = PageWriter(out_dir, self.summary, self.slugs, self.has_openings)
        self.previous = self._load_manifest()
        # Fingerprints of the last build: a full build ignores them and writes every game page again.
        self.old = self.previous if incremental else {}
        self.manifest: dict[str, str] = {}
        self.workers = workers

    # --- the manifest: every file of the site, with the fingerprint of each game page ------------

    def _load_manifest(self) -> dict[str, str]:
        try:
            data = json.loads((self.out / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
            return {}
        return {str(name): str(value) for name, value in data["files"].items()}

    def _save_manifest(self) -> int:
        # Files of the last build that this one did not write (a game or player gone) are removed,
        # so no page links to them and none is left behind.
        for relative in self.writer.written:
            self.manifest.setdefault(relative, "")
        root = self.out.resolve()
        removed = 0
        for stale in set(self.previous) - set(self.manifest):
            path = (self.out / stale).resolve()
            if root in path.parents and path.is_file():  # never anything outside the site
                path.unlink(missing_ok=True)
                removed += 1
        data = {"files": self.manifest}
        write_atomic(self.out / MANIFEST, json.dumps(data, indent=0, sort_keys=True))
        return removed

    def build(self) -> SiteBuild:
        self.out.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(self.out)  # left by a build that was killed half way
        self.writer.static()
        texts, written, kept = self._game_pages()
        self.writer.write(EVENT_PDN, event_pdn(texts))
        self.writer.games_pages(self.lines)
        self.writer.event_pages()
        removed = self._save_manifest()
        return SiteBuild(
            out_dir=self.out,
            games_written=written,
            games_kept=kept,
            files=len(self.manifest),
            removed=removed,
        )

    # --- game pages -----------------------------------------------------------------------------------

    def _game_pages(self) -> tuple[list[str], int, int]:
        """Write the page and PDN file of every played game that changed; return every game's PDN."""
        played = [game for game in self.games if game.record is not None]
        texts: list[str | None] = []
        jobs: list[tuple[int, GameJob]] = []
        for index, game in enumerate(played):
            previous = played[index - 1] if index > 0 else None
            following = played[index + 1] if index + 1 < len(played) else None
            name = self.pages[game.key]
            html_file, pdn_file = f"games/{name}.html", f"games/{name}.pdn"
            fingerprint = self._game_fingerprint(game, previous, following)
            self.manifest[html_file] = self.manifest[pdn_file] = fingerprint
            texts.append(self._kept(html_file, pdn_file, fingerprint))
            if texts[-1] is None:
                record = game.record
                assert record is not None
                job = GameJob(
                    event=self.event,
                    game=game,
                    page=name,
                    previous=self._neighbour(previous),
                    following=self._neighbour(following),
                    slugs={player: self.slugs[player] for player in (record.white.name, record.black.name)},
                    has_openings=self.has_openings,
                )
                jobs.append((index, job))
        made = write_game_pages(self.out, (job for _, job in jobs), self.workers, len(jobs))
        for (index, _), pdn in zip(jobs, made, strict=True):
            texts[index] = pdn
        done = [text for text in texts if text is not None]
        return done, len(jobs), len(played) - len(jobs)

    def _neighbour(self, game: GameEntry | None) -> Neighbour | None:
        return None if game is None else Neighbour(key=game.key, page=self.pages[game.key])

    def _kept(self, html_file: str, pdn_file: str, fingerprint: str) -> str | None:
        """The PDN of a game whose page and PDN file from the last build are still right, else None."""
        if self.old.get(html_file) != fingerprint or self.old.get(pdn_file) != fingerprint:
            return None
        if not (self.out / html_file).is_file():
            return None
        try:
            return (self.out / pdn_file).read_text(encoding="utf-8")
        except OSError:
            return None

    def _game_fingerprint(
        self, game: GameEntry, previous: GameEntry | None, following: GameEntry | None
    ) -> str:
        """Everything a game page shows, hashed: the record, its place, its neighbours, the links."""
        record = game.record
        assert record is not None
        opening = game.opening
        parts = [
            self.code,
            self.event.name,
            str(self.has_openings),
            game.key,
            str(game.round),
            str(game.board),
            "" if opening is None else f"{opening.id}\n{opening.name}\n{opening.text}",
            previous.key if previous else "",
            following.key if following else "",
            self.slugs.get(record.white.name, ""),
            self.slugs.get(record.black.name, ""),
            record.to_json(),
        ]
        return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


def build_site(
    out_dir: Path | str,
    event: EventInfo,
    games: Sequence[GameEntry],
    *,
    incremental: bool = True,
    workers: int = 1,
) -> SiteBuild:
    """Write the site of `event` into `out_dir` (created if needed) and return what was done.

    `games` are every planned and played game in playing order. With `incremental` (the default),
    game pages already in `out_dir` whose game has not changed are kept as they are, so the refresh
    after a finished game writes that game's page and the event-wide pages only.

    With `workers` above 1, a build that has many game pages to write makes them in that many worker
    processes. They are started afresh (multiprocessing's "spawn"), which imports the calling
    program's main module again: it must keep its work under ``if __name__ == "__main__":``.
    """
    return _Builder(Path(out_dir), event, games, incremental, max(1, workers)).build()
