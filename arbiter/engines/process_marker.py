"""A token in each engine's environment, by which every process the engine started is found again.

A process can leave its engine's process group and session (``setsid``), but it keeps the environment
it was started with, and its own children inherit it. So each engine is started with a token of its own
in ``ARBITER_ENGINE_TOKEN``, and the arbiter looks through ``/proc/*/environ`` (its own user's processes
only) for it. A helper started with an emptied environment carries no token; it is still found while it
stays in the engine's process group.
"""

from __future__ import annotations

import os
import secrets

from arbiter.engines.process_group import ProcessEntry, read_entry

MARKER_VARIABLE = "ARBITER_ENGINE_TOKEN"
_SEPARATOR = ":"


def new_token() -> str:
    """A token no other engine of any arbiter on this machine carries."""
    return f"{os.getpid()}-{secrets.token_hex(8)}"


def marker_value(token: str, inherited: str | None) -> str:
    """The variable's value for a new engine. An arbiter that is itself some arbiter's engine passes the
    outer tokens on, so the outer arbiter still finds the engines it runs."""
    return f"{inherited}{_SEPARATOR}{token}" if inherited else token


def carries_token(pid: int, token: str) -> bool:
    """Whether the process ``pid`` was started with ``token`` in its marker (False for zombies, whose
    environment is gone, and for processes that cannot be read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ_file:
            environment = environ_file.read()
    except OSError:
        return False
    wanted = token.encode()
    if wanted not in environment:  # the common case, decided without splitting the environment
        return False
    prefix = MARKER_VARIABLE.encode() + b"="
    for item in environment.split(b"\0"):
        if item.startswith(prefix):
            return wanted in item[len(prefix) :].split(_SEPARATOR.encode())
    return False


def marked_processes(token: str) -> list[ProcessEntry]:
    """Every live process of this user, other than the arbiter itself, that carries ``token``."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    me, uid = os.getpid(), os.getuid()
    found = []
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            if os.stat(f"/proc/{name}").st_uid != uid:
                continue
        except OSError:  # it ended while we looked
            continue
        pid = int(name)
        if not carries_token(pid, token):
            continue
        entry = read_entry(pid)
        # The token is checked again after the entry is read, so both belong to one process.
        if entry is not None and carries_token(pid, token):
            found.append(entry)
    return found
