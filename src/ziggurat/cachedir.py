"""Where Ziggurat keeps what it can always make again (compiled games, the analysed grammar).

The folder is `$ZIGGURAT_CACHE_DIR`, else `$XDG_CACHE_HOME/ziggurat`, else `~/.cache/ziggurat`;
`ZIGGURAT_CACHE_DIR=off` turns caching off. Below the language and the engine, which both use it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def folder() -> Optional[Path]:
    """The cache folder, or None when caching is off."""
    given = os.environ.get("ZIGGURAT_CACHE_DIR")
    if given is not None:
        return None if given.strip().lower() in ("", "off", "0", "none") else Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ziggurat"
