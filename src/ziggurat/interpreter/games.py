"""Loading a game: find the ruleset, and compile it at the chosen options, or take it from the
cache (in memory for this process, on disk across processes: see `cache`). The game keeps the
text of every file of its `extends` chain (`Game.rules`), read once here: the native backend
lowers from those (`pipeline.lowered_rules`), never from the files again."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from pathlib import Path

from ..dsl.loader import find, read_text
from ..errors import GameError
from . import cache
from .runtime import Game

def compile_model(model, options: dict, stem: str):
    """The compiler, imported only when a game is not in the cache (so that loading a cached
    game, the usual start of `play`, does not import it)."""
    from .compile import compile_model as compile_

    return compile_(model, options, stem)


_STORE = [True]  # False within `unstored()`


@contextlib.contextmanager
def unstored():
    """Within it, games compiled are not written to the disk cache (a hit there is still used): for
    games made once and thrown away, such as the hundreds of mutants of a ruleset."""
    before, _STORE[0] = _STORE[0], False
    try:
        yield
    finally:
        _STORE[0] = before


MEMORY_SIZE = 64  # games kept in memory by one process (the least recently used go first)
_MEMORY: OrderedDict = OrderedDict()


def load(name_or_path: str, options: dict | None = None, *, text: str | None = None) -> Game:
    """The game of a ruleset (a shipped name, or a path) at the given options.

    Options may be values or text ('3', 'true'); they are checked against their declared types
    and ranges. Raises RulesetError for a broken ruleset and GameError for bad options.
    """
    options = dict(options or {})
    if text is None:
        path = find(name_or_path)
        text = read_text(path)
        ident, source_name = str(path.resolve()), str(path)
    else:
        ident = source_name = str(name_or_path)
    k = cache.key(ident, text, options)
    game = _MEMORY.get(k)
    if game is not None:
        _MEMORY.move_to_end(k)
        return game
    hit = cache.lookup(k, text)
    if hit is not None:
        spec, source, filename, rules = hit  # rules: the chain's files as read to check the entry
    else:
        from ..dsl.loader import load_model  # the parser too is imported only on a miss

        model = load_model(source_name, text)  # the text read above: the key and the game agree
        stem = Path(model.files[-1]).stem
        compiled = compile_model(model, options, stem)
        spec, source = compiled.spec, compiled.source
        stored = cache.store(k, spec, source, model.sources) if _STORE[0] else None
        filename = stored or f"<ziggurat {stem} {k[:16]}>"
        rules = tuple(model.sources)
    game = Game(spec, source, filename, rules)  # the rules texts it was made from: nothing is read again
    _MEMORY[k] = game
    while len(_MEMORY) > MEMORY_SIZE:
        _MEMORY.popitem(last=False)
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
            assert spec.low is not None  # a range option has its bounds
            options[name] = max(spec.low, 4) if name in ("width", "height") else spec.low
    while options:
        try:
            load(name_or_path, options)
            return options
        except GameError:
            options.popitem()
    return options
