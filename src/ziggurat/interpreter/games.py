"""Loading a game: find the ruleset, check it, compile it at the chosen options (cached)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import GameError, RulesetError
from ..dsl.loader import load_files, load_model
from .compiler import Compiler, resolve_options
from .runtime import Game

_CACHE: dict = {}


def _key(name_or_path: str, text, options: dict) -> tuple:
    files = load_files(name_or_path, text)
    digest = hashlib.sha256("\0".join(r.path + "\0" + r.source for r, _ in files).encode()).hexdigest()
    return digest, tuple(sorted((k, str(v)) for k, v in options.items()))


def load(name_or_path: str, options: dict | None = None, *, text: str | None = None) -> Game:
    """The game of a ruleset (a shipped name, or a path) at the given options.

    Options may be values or text ('3', 'true'); they are checked against their declared types
    and ranges. Raises RulesetError for a broken ruleset and GameError for bad options.
    """
    options = dict(options or {})
    key = _key(name_or_path, text, options)
    if key in _CACHE:
        return _CACHE[key]
    model = load_model(name_or_path, text)
    bounds: dict = {}
    values = resolve_options(model, options, bounds_out=bounds)
    compiler = Compiler(model, values)
    stem = Path(model.files[-1]).stem
    compiled = compiler.compile(f"<ziggurat {stem} {key[0][:12]}>")
    if compiled is None:
        raise RulesetError(compiler.diagnostics)
    compiled.option_bounds = bounds
    game = Game(compiled, stem)
    _CACHE[key] = game
    return game


SIZE_OPTIONS = ("size", "board_size", "width", "height")


def small_options(name_or_path: str) -> dict:
    """Options for a small board of a ruleset (for quick tests and benchmarks): every size-like
    option (size, board_size) at the low end of its declared range, width and height at 4 or
    their low end if larger; values that do not go together are dropped one by one."""
    game = load(name_or_path)
    options = {}
    for name, spec in game.option_specs.items():
        if name in SIZE_OPTIONS and spec.kind == "range":
            options[name] = max(spec.low, 4) if name in ("width", "height") else spec.low
    while options:
        try:
            load(name_or_path, options)
            return options
        except GameError:
            options.popitem()
    return options
