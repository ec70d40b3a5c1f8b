"""The on-disk cache of compiled games: a generated module as a real file, and its spec beside it.

An entry is keyed by a hash of the engine's own code, the ruleset's path and text, and the option
values asked for. It is two files: `KEY.py`, the module (a real file, so tracebacks and tools can
open it), and `KEY.json`, the manifest, written last and sealed (`ziggurat.cachedir`: a keyed hash
checked before it is read): the spec, the hash of the module's text, and every file of the
`extends` chain with the hash of its text. An entry is used only if the seal and all of those
still match: a module or manifest edited by hand (or by anyone else), or planted, is recompiled,
and so is a game whose base ruleset changed since. Writes are atomic (a fresh temporary file, then
a rename) and follow no links.

The folder is `ziggurat.cachedir.root()` (`$ZIGGURAT_CACHE_DIR`, `off` for none; a folder another
user could write is refused, with a warning). A cache that cannot be written is skipped quietly.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Optional

from .. import cachedir
from .spec import GameSpec

FORMAT = 2  # the layout of an entry; part of every key (2: the spec as GameSpec.to_json writes it by its types)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A hash of the compiler's own code (the grammar, dsl, interpreter, errors) and version."""
    from ..version import __version__

    h = hashlib.sha256(f"{__version__}/{FORMAT}".encode())
    root = resources.files("ziggurat")
    for folder in ("grammar", "dsl", "dsl/resolve", "interpreter", "interpreter/python"):
        d = root.joinpath(folder)
        for p in sorted(d.iterdir(), key=lambda p: p.name):
            if p.name.endswith((".py", ".lark")) and p.is_file():
                h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    h.update(root.joinpath("errors.py").read_bytes())
    return h.hexdigest()


def key(ident: str, text: str, options: dict) -> str:
    """The key of a game: the engine, the ruleset (where it is and what it says), the options."""
    shown = json.dumps(sorted((k, repr(v)) for k, v in options.items()))
    return hashlib.sha256("\0".join((engine_fingerprint(), ident, sha256(text), shown)).encode()).hexdigest()


def lookup(k: str, ruleset: Optional[str] = None) -> Optional[tuple]:
    """(spec, module text, module path, chain) of a valid entry, or None (missing, stale or
    tampered). `chain`: the (path, text) of every file of the extends chain, base first, as read
    to check them; `ruleset`: the ruleset's own text when the caller has read it (not read again)."""
    d = cachedir.root()
    if d is None:
        return None
    module = d / f"{k}.py"
    sealed, text = cachedir.read_sealed(d / f"{k}.json"), cachedir.read_file(module)
    if sealed is None or text is None:
        return None  # missing, or not vouched for (a link, another owner, a broken seal)
    try:
        meta = json.loads(sealed.decode("utf-8"))
        source = text.decode("utf-8")
    except ValueError:
        return None
    try:
        if meta.get("key") != k or meta.get("engine") != engine_fingerprint():
            return None
        if meta.get("module_sha256") != sha256(source):
            return None  # the module was changed after it was written
        chain = []
        for index, (path, digest) in enumerate(meta["chain"]):
            try:
                read = ruleset if ruleset is not None and index == len(meta["chain"]) - 1 else \
                    Path(path).read_text(encoding="utf-8")
                if sha256(read) != digest:
                    return None  # a file of the extends chain changed
            except (OSError, UnicodeDecodeError):
                return None
            chain.append((path, read))
        spec = GameSpec.from_json(meta["spec"])
    except (KeyError, TypeError, ValueError):
        return None
    return spec, source, str(module), tuple(chain)


def store(k: str, spec: GameSpec, source: str, chain: list) -> Optional[str]:
    """Write an entry; the module's path, or None if the cache is off or cannot be written."""
    d = cachedir.root()
    if d is None:
        return None
    meta = {"key": k, "engine": engine_fingerprint(), "module_sha256": sha256(source),
            "chain": [[p, sha256(t)] for p, t in chain], "spec": spec.to_json()}
    # Whole or not at all, the manifest last; no fsync: an entry lost to a crash is only compiled again.
    if not cachedir.write_file(d / f"{k}.py", source.encode("utf-8", "surrogatepass")):
        return None
    if not cachedir.write_sealed(d / f"{k}.json", json.dumps(meta).encode("utf-8")):
        return None
    return str(d / f"{k}.py")

