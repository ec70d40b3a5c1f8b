"""The direct code's cache entry: a native module's direct object code (or the translator's
refusal of it), kept as a sealed entry of the cache folder (`ziggurat.cachedir`, in
`native/direct/`; the threat model is that module's) and read back only when its seal vouches for
it and it is one this code reads.

An entry is named `<the module's file stem>-<target.tag>.pickle`: the stem is a hash of the
module's text and of the engine's code (this package's included: the translator and the passes),
which decide the IR; the tag names everything else that decides the machine code (the versions,
Numba's JIT target: `target.py`). So an entry copied to another machine, or made under another
NUMBA_CPU_NAME, is never read here: its name is another (and a file renamed to this name is not
vouched for by its seal, which covers the name). With the cache off, or a folder that may not be
trusted, nothing is read or kept and the direct code is compiled in every process.

An entry holds (FORMAT, object bytes, roots, return types), or (FORMAT, why) for a refusal, so that
every process decides alike without translating again. An entry of another FORMAT or shape, or
whose object lacks a root's entry (`bind.compiled`), is a miss, made again. The object file's bytes
are vouched for by the seal alone: LLVM does not check an object file it is given (a truncated one
ends the process), so FORMAT changes whenever what an entry holds, or how it is made, changes.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Optional

from .... import cachedir
from .irtypes import BOOL, F64, I64, SIG, U64, VOID
from .target import FORMAT

FOLDER = ("native", "direct")
RETURNS = (I64, U64, BOOL, F64, VOID)  # what a root's C entry may return


def path(module, tag: str) -> Optional[Path]:
    """Where the module's direct code for target `tag` is kept, or None (no cache to use)."""
    folder = cachedir.subfolder(*FOLDER)
    return None if folder is None else folder / f"{Path(module.__file__).stem}-{tag}.pickle"


def read(where: Optional[Path]) -> Optional[tuple]:
    """The entry kept at `where`: ("object", bytes, roots, return types) or ("refused", why); None
    for a miss: no cache, no entry, one its seal does not vouch for (damaged, planted, renamed,
    copied from another cache) or not of this FORMAT and shape."""
    data = cachedir.read_sealed(where) if where is not None else None
    if data is None:
        return None
    try:
        kept = pickle.loads(data)
    except Exception:  # sealed by this folder's key, yet not loadable here: a miss, made again
        return None
    if not (isinstance(kept, tuple) and kept and kept[0] == FORMAT):
        return None
    if len(kept) == 2 and isinstance(kept[1], str):
        return "refused", kept[1]
    if len(kept) == 4 and _shaped(*kept[1:]):
        return ("object",) + kept[1:]
    return None


def _shaped(obj, roots, rets) -> bool:
    return (isinstance(obj, bytes) and isinstance(roots, dict) and isinstance(rets, dict) and set(roots) == set(rets)
            and all(isinstance(n, str) and isinstance(s, str) and set(s) <= set(SIG) for n, s in roots.items())
            and all(r in RETURNS for r in rets.values()))


def keep_object(where: Optional[Path], obj: bytes, roots: dict, rets: dict) -> bool:
    """Keep the module's object code; False when nothing was kept (no cache, or not writable)."""
    return where is not None and cachedir.write_sealed(where, pickle.dumps((FORMAT, obj, roots, rets)))


def keep_refusal(where: Optional[Path], why: str) -> bool:
    """Keep the translator's refusal of the module (a REQUIRED root outside the subset)."""
    return where is not None and cachedir.write_sealed(where, pickle.dumps((FORMAT, str(why))))
