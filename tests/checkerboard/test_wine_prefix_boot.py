"""Building the template Wine prefix, checked without Wine: the stand-in's boot (tests/engines/fake_wine.py)
leaves a process behind, as Wine's leaves its server and services, and the arbiter, which adopts its
engines' orphans, must not be left holding it unreaped."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from wine_builds import zombie_children

from arbiter.engines.checkerboard.wine_setup import WineUnavailable, template_prefix
from arbiter.engines.process_group import become_subreaper

FAKE_WINE = Path(__file__).resolve().parents[1] / "engines" / "fake_wine.py"


def test_what_the_prefix_boot_leaves_running_is_reaped_without_the_arbiter(tmp_path: Path) -> None:
    become_subreaper()  # as the arbiter is once it has started an engine
    before = zombie_children()
    wine = [sys.executable, str(FAKE_WINE)]
    prefix = template_prefix(wine, ["true"], tmp_path / "cache", dict(os.environ))
    assert (prefix / ".arbiter-ready").read_text() == "wine-fake-1.0\n"
    assert zombie_children() - before == set(), "the boot's orphan ended unreaped under the arbiter"


def test_a_boot_that_fails_is_said_so_with_what_wine_wrote(tmp_path: Path) -> None:
    # The boot's status and its words come through the process that reaps for it.
    failing = tmp_path / "wine"
    failing.write_text(
        "#!/bin/sh\n"
        '[ "$1" = --version ] && echo wine-9 && exit 0\n'
        'mkdir -p "$WINEPREFIX" && : > "$WINEPREFIX/system.reg"\n'
        "echo 'the boot broke' >&2\n"
        "exit 3\n"
    )
    failing.chmod(0o755)
    with pytest.raises(WineUnavailable, match="could not create the prefix .*the boot broke"):
        template_prefix([str(failing)], ["true"], tmp_path / "cache", dict(os.environ))


def test_a_template_made_when_engines_could_write_into_it_is_not_used_again(tmp_path: Path) -> None:
    # Before engines' prefixes copied the registry, an engine's settings could reach the template through
    # its links: such a template (named as it was then) is left, and a clean one made.
    old = tmp_path / "cache" / "prefixes" / "template-wine-fake-1.0"
    old.mkdir(parents=True)
    (old / ".arbiter-ready").write_text("wine-fake-1.0\n")
    (old / "user.reg").write_text('[Software\\\\GuiCheckers]\n"HashSize"=dword:00000010\n')
    wine = [sys.executable, str(FAKE_WINE)]
    prefix = template_prefix(wine, ["true"], tmp_path / "cache", dict(os.environ))
    assert prefix != old and prefix.name.startswith("template-wine-fake-1.0")
    assert (prefix / ".arbiter-ready").read_text() == "wine-fake-1.0\n"
    assert not (prefix / "user.reg").exists() or "GuiCheckers" not in (prefix / "user.reg").read_text()
