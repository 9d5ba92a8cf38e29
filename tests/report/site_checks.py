"""Checks of a built site as files: every page well formed, every link between pages leading somewhere.

`crawl` starts at index.html and follows every link and script or style reference, the way a visitor
(or a link checker) would; fragments must name an element of the target page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Page:
    path: Path
    links: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)
    """The text of every script element, with its type."""


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[str] = []
        self.script_type: str | None = None

    def _where(self) -> str:
        line, column = self.getpos()
        return f"{self.page.path.name}:{line}:{column}"

    def _attributes(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [name for name, _ in attrs]
        if len(set(names)) != len(names):
            self.page.problems.append(f"{self._where()}: <{tag}> repeats an attribute: {names}")
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.page.links.append(value)
            if name == "id" and value is not None:
                self.page.ids.append(value)
            if name.startswith("on"):
                self.page.problems.append(f"{self._where()}: <{tag}> has an event handler attribute {name}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attributes(tag, attrs)
        if tag == "script":
            self.script_type = dict(attrs).get("type") or "text/javascript"
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attributes(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.page.problems.append(f"{self._where()}: end tag for the void element <{tag}>")
            return
        if not self.stack or self.stack[-1] != tag:
            self.page.problems.append(
                f"{self._where()}: </{tag}> closes <{self.stack[-1] if self.stack else ''}>"
            )
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "script":
            self.script_type = None

    def handle_data(self, data: str) -> None:
        if self.script_type is not None and data.strip():
            self.page.scripts.append(f"{self.script_type}\n{data}")

    def close(self) -> None:
        super().close()
        if self.stack:
            self.page.problems.append(f"{self.page.path.name}: elements never closed: {self.stack}")


def read_page(path: Path) -> Page:
    page = Page(path)
    text = path.read_text(encoding="utf-8")
    if not text.lstrip().lower().startswith("<!doctype html>"):
        page.problems.append(f"{path.name}: no <!doctype html>")
    reader = _Reader(page)
    reader.feed(text)
    reader.close()
    if len(set(page.ids)) != len(page.ids):
        doubles = sorted({i for i in page.ids if page.ids.count(i) > 1})
        page.problems.append(f"{path.name}: ids used twice: {doubles}")
    return page


@dataclass
class Crawl:
    pages: dict[Path, Page]
    files: set[Path]
    broken: list[str]
    problems: list[str]


def crawl(root: Path) -> Crawl:
    """Follow every link from `root`/index.html; report broken links and malformed pages."""
    start = (root / "index.html").resolve()
    pages: dict[Path, Page] = {}
    files: set[Path] = set()
    broken: list[str] = []
    fragments: list[tuple[Path, Path, str]] = []
    queue = [start]
    while queue:
        path = queue.pop()
        if path in pages:
            continue
        page = read_page(path)
        pages[path] = page
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme == "data":  # inline (the empty icon): nothing is fetched
                continue
            if parts.scheme or parts.netloc:
                broken.append(f"{path.relative_to(root.resolve())}: {link} leaves the site")
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_file():
                broken.append(f"{path.relative_to(root.resolve())}: {link} leads to no file")
                continue
            if root.resolve() not in target.parents:
                broken.append(f"{path.relative_to(root.resolve())}: {link} leads outside the site")
                continue
            files.add(target)
            if parts.fragment:
                fragments.append((path, target, parts.fragment))
            if target.suffix == ".html":
                queue.append(target)
    for source, target, fragment in fragments:
        if fragment not in pages[target].ids:
            broken.append(f"{source.name}: #{fragment} names no element of {target.name}")
    problems = [problem for page in pages.values() for problem in page.problems]
    return Crawl(pages=pages, files=files | set(pages), broken=broken, problems=problems)
