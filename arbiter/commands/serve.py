"""`arbiter serve DIR --port N`: the published site over HTTP, with Python's own web server.

The site needs no server (its pages open from the disk, live page included); this is for watching an
event from another machine. Every answer tells the browser not to keep the file, so the live page's
data and the refreshed pages are always read afresh.
"""

from __future__ import annotations

from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import typer


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site's folder only, never cached, and logs nothing per request."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def site_server(folder: Path, host: str, port: int) -> ThreadingHTTPServer:
    """A server of `folder` on `host`:`port` (0: any free port), not started yet."""
    handler = partial(SiteHandler, directory=str(folder))
    return ThreadingHTTPServer((host, port), handler)


def serve_command(
    folder: Path = typer.Argument(
        ..., help="The site's folder (as written by `arbiter run --report` or `arbiter report`)."
    ),
    port: int = typer.Option(8000, "--port", "-p", min=0, max=65535, help="The port to listen on."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on (0.0.0.0: every one)."),
) -> None:
    """Serve a published site over HTTP, e.g. to watch a running event from another machine."""
    if not (folder / "index.html").is_file():
        typer.echo(f"error: {folder} holds no site (no index.html)", err=True)
        raise typer.Exit(2)
    try:
        server = site_server(folder, host, port)
    except OSError as error:
        typer.echo(f"error: cannot listen on {host}:{port}: {error.strerror or error}", err=True)
        raise typer.Exit(1) from None
    address, bound = server.server_address[:2]
    typer.echo(f"serving {folder} at http://{address!s}:{bound}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
