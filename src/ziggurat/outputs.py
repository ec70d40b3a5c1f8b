"""Files written for the user (and the compiled-game cache): whole or not at all.

Every file is written to a temporary file in its own folder and then renamed over the target
(`os.replace`, atomic on POSIX and Windows), so a kill or a full disk leaves either the old file
or the new one, never a torn one. `check_writable` tries, before any work starts, that a file
could be written where the user asked, so a long run does not fail at its end.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

from .errors import GameError

def _mode(path: Path) -> int:
    """The permissions of a new file at `path`: an existing file's own, else the umask's."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_open(path, mode: str = "w", *, encoding: str | None = "utf-8", newline: str | None = None,
                fsync: bool = True) -> Iterator:
    """A file object writing to a temporary file beside `path`, renamed to `path` when the `with`
    block ends normally (and removed if it does not). Missing folders are made."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, _mode(path))
        binary = "b" in mode
        with os.fdopen(fd, mode, **({} if binary else {"encoding": encoding, "newline": newline})) as f:
            yield f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path, text: str, *, encoding: str = "utf-8", fsync: bool = True) -> Path:
    """Write `text` to `path` atomically."""
    with atomic_open(path, "w", encoding=encoding, fsync=fsync) as f:
        f.write(text)
    return Path(path)


def write_bytes(path, data: bytes, *, fsync: bool = True) -> Path:
    """Write `data` to `path` atomically."""
    with atomic_open(path, "wb", fsync=fsync) as f:
        f.write(data)
    return Path(path)


def check_writable(path, what: str, *, folder: bool = False) -> None:
    """GameError, one line naming `what` (an option such as '--csv') and the path, unless a file
    (`folder=False`) or a folder of files (`folder=True`) can be written at `path`. Nothing is
    left behind: a probe file is made and removed in the nearest folder that exists."""
    shown = f"{what} {str(path)!r}"
    p = Path(os.path.abspath(path))
    if p.is_dir() and not folder:
        raise GameError(f"cannot write {shown}: it is a folder, not a file")
    if p.exists() and folder and not p.is_dir():
        raise GameError(f"cannot write into {shown}: it is a file, not a folder")
    d = p if folder else p.parent
    while not d.exists() and d != d.parent:
        d = d.parent
    if not d.is_dir():
        raise GameError(f"cannot write {shown}: {str(d)!r} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=d, prefix=".ziggurat-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise GameError(f"cannot write {shown}: {e.strerror or e} in {str(d)!r}") from None
    if p.exists() and not folder and not os.access(p, os.W_OK):
        raise GameError(f"cannot write {shown}: the file is read-only")


__all__ = ["atomic_open", "write_text", "write_bytes", "check_writable"]
