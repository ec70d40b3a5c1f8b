"""Where Ziggurat keeps what it can always make again (compiled games, the analysed grammar,
Numba's machine code), and how it reads and writes there without trusting what it finds.

The folder is `$ZIGGURAT_CACHE_DIR`, else `$XDG_CACHE_HOME/ziggurat`, else `~/.cache/ziggurat`;
`ZIGGURAT_CACHE_DIR=off` turns caching off. Below the language and the engine, which both use it.

Threat model (the cache is treated as ssh treats `~/.ssh`). Some entries are code or pickles: the
grammar's analysis and Numba's index and machine code are unpickled, compiled modules are run. So:

- **The folder must be the user's own.** Every level used (the root, `native/`, Numba's folders
  below it) must be a real folder (below the root: not a link) owned by the user running Ziggurat
  and writable by nobody else (no group or other write bit). Otherwise the cache is not used at
  all: one warning on stderr names the folder and why, and everything is made afresh in memory.
  Folders Ziggurat makes are made private (0700). A folder that cannot be made (a read-only
  disk) is skipped quietly, as before.
- **Every file read must be the user's own**: opened without following links, a regular file,
  owned by the user, writable by nobody else; else it is a miss (made again and replaced).
- **Every entry is sealed**: an HMAC-SHA256, keyed by a random secret (`secret.key`, 0600, in the
  root) over the entry's name and bytes, is checked before anything is unpickled or run; an entry
  it does not vouch for (torn, damaged, edited, planted, renamed) is a miss and is rebuilt.
  Compiled modules are vouched for by digests in their sealed manifest, or by being equal to the
  text the compiler writes now.
- **Writes** go to a fresh temporary file in the target folder (`tempfile.mkstemp`: a name nobody
  can guess, created with O_EXCL, so a planted file or link there is never followed), then
  `os.replace` onto the name, which replaces a link rather than writing through it.

What is left: with the folder checked, the only ones who can write it are the user and root, who
can already run any code as the user (a shell's start-up file, the installed packages); the cache
does not try to defend against them. The checks and the seal defend against everything else: other
users (a shared, loose or foreign folder is refused), files left from before the folder was made
private (another owner, or no seal from this folder's key), links planted at any name, torn or
damaged files, and entries copied in from another cache (a different key) -- unless its key was
copied too: a cache folder restored from somewhere (a CI cache, a backup) is as trustworthy as
where it came from. On systems without POSIX owners and modes (Windows) only the seal is checked.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
import sys
import tempfile
from pathlib import Path
from typing import Optional

KEY_NAME = "secret.key"  # the sealing key, in the root
_MAGIC = b"ziggurat-sealed-1\n"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_POSIX = hasattr(os, "geteuid")
_WARNED: set = set()  # (folder, reason) already told, once a process


def folder() -> Optional[Path]:
    """The cache folder asked for (not checked), or None when caching is off."""
    given = os.environ.get("ZIGGURAT_CACHE_DIR")
    if given is not None:
        return None if given.strip().lower() in ("", "off", "0", "none") else Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ziggurat"


def _unsafe(st: os.stat_result) -> Optional[str]:
    """Why a folder or file with this status may not be trusted, or None."""
    if _POSIX and st.st_uid != os.geteuid():
        return f"it is owned by another user (uid {st.st_uid})"
    if _POSIX and st.st_mode & 0o022:
        who = " and ".join(w for w, bit in (("its group", 0o020), ("others", 0o002)) if st.st_mode & bit)
        return f"it is writable by {who} (mode {stat.S_IMODE(st.st_mode):o}; fix it with chmod go-w)"
    return None


def _warn(d: Path, why: str) -> None:
    if (str(d), why) not in _WARNED:
        _WARNED.add((str(d), why))
        print(f"ziggurat: warning: not using the cache folder {str(d)!r}: {why}; "
              "working without a cache", file=sys.stderr)


def _level(d: Path, *, root: bool) -> tuple:
    """Make folder `d` if missing (private); then (why it is not used, whether that is a matter of
    trust to warn about) or (None, False). The root may be a link to a folder (the user's own
    choice of where the cache lives); levels below it may not."""
    try:
        if not os.path.lexists(d):
            if root:
                d.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):  # another process made it meanwhile
                os.mkdir(d, 0o700)
        st = os.stat(d) if root else os.lstat(d)
    except OSError as e:
        return f"it cannot be made or read ({e.strerror or e})", False  # skipped quietly
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link", True
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder", False
    why = _unsafe(st)
    return why, why is not None


def root() -> Optional[Path]:
    """The cache folder, made if missing and checked (see the module's text); None when caching is
    off, or (after one warning) when the folder may not be trusted."""
    d = folder()
    if d is None:
        return None
    return _checked(Path(os.path.abspath(d)), root=True)


def subfolder(*parts: str) -> Optional[Path]:
    """A checked folder below the root (each level made private if missing and checked), or None."""
    d = root()
    for part in parts:
        if d is None:
            return None
        d = _checked(d / part, root=False)
    return d


def _checked(d: Path, *, root: bool) -> Optional[Path]:
    """`d` once made if missing and checked (`_level`), or None (with a warning if it says so)."""
    why, warn = _level(d, root=root)
    if why is not None:
        if warn:
            _warn(d, why)
        return None
    return d


def read_file(path: Path) -> Optional[bytes]:
    """The bytes of a file in the cache, or None when it is missing or may not be trusted (a link,
    not a regular file, another owner, writable by others)."""
    try:
        # O_NONBLOCK: a fifo planted at the name is refused below instead of waiting for a writer
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or _unsafe(st) is not None:
            return None
        try:
            return f.read()
        except OSError:
            return None


def write_file(path: Path, data: bytes) -> bool:
    """Write `data` at `path` whole or not at all: a fresh private temporary file in the same folder
    (O_EXCL, an unguessable name), then renamed onto `path` (a link there is replaced, not followed).
    False if it could not be written (a cache that cannot be written is skipped)."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False


def _key(d: Path) -> Optional[bytes]:
    """The sealing key of root `d`, made on first use; a key that may not be trusted (another
    owner, a link, readable by others, the wrong size) is replaced, which unseals every entry."""
    path = d / KEY_NAME
    for _ in range(3):
        key = read_file(path)
        if key is not None and len(key) == 32 and (not _POSIX or not os.lstat(path).st_mode & 0o077):
            return key
        if key is not None or os.path.lexists(path):
            with contextlib.suppress(OSError):
                os.unlink(path)
        try:  # made whole under a private name, then linked in: two processes agree on one key
            fd, tmp = tempfile.mkstemp(dir=d, prefix=".key.")
            with os.fdopen(fd, "wb") as f:
                f.write(secrets.token_bytes(32))
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
            finally:
                os.unlink(tmp)
        except OSError:
            return None
    return None


def _mac(key: bytes, name: str, data: bytes) -> bytes:
    return hmac.new(key, name.encode("utf-8", "surrogatepass") + b"\0" + data, hashlib.sha256).hexdigest().encode()


def write_sealed(path: Path, data: bytes) -> bool:
    """Write `data` as a sealed entry at `path` (in a folder from `root` or `subfolder`)."""
    d = root()
    key = _key(d) if d is not None else None
    if key is None:
        return False
    return write_file(path, _MAGIC + _mac(key, Path(path).name, data) + b"\n" + data)


def read_sealed(path: Path) -> Optional[bytes]:
    """The bytes of the sealed entry at `path`, or None unless its seal vouches for them."""
    d = root()
    blob = read_file(path) if d is not None else None
    if blob is None or not blob.startswith(_MAGIC):
        return None
    key = _key(d)
    mac, sep, data = blob[len(_MAGIC):].partition(b"\n")
    if key is None or not sep or not hmac.compare_digest(mac, _mac(key, Path(path).name, data)):
        return None
    return data
