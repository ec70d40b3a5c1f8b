"""`--backend python|native|auto`: which backend runs a command's whole loop (perft, random games).

The Python backend is the reference and runs everything; the native one (Numba,
`ziggurat.interpreter.native`) runs whole loops at compiled speed once it is compiled, which
takes tens of seconds the first time and a second or two from the cache. `auto` picks native when
the loop is large enough to repay that: compiled already (in the cache), or large work. The
command says on stderr which backend ran, and why Python when native was asked for and cannot be.
"""

from __future__ import annotations

import click

from ..errors import GameError

CHOICES = ("python", "native", "auto")
# auto: the Python backend's estimated seconds above which compiling natively pays: a cold compile
# takes 10-30 s, a load from the cache one or two.
COLD_SECONDS = 20.0
CACHED_SECONDS = 1.0
PERFT_LEAF_SECONDS = 1e-6  # the Python backend's perft, about a million leaves a second
GAME_SECONDS = 3e-3  # a random game in the Python backend's simulate: about 100 plies of 30 us


def backend_option(fn):
    return click.option("--backend", type=click.Choice(CHOICES), default="auto", show_default=True,
                        help="Which backend runs the loop: python (the reference), native (compiled with "
                             "Numba: pip install 'ziggurat[native]'), or auto (native when the work "
                             "repays compiling it). In a ruleset of whole turns, native random games "
                             "draw each whole turn uniformly among those listed, and perft counts "
                             "whole turns, as in Python.")(fn)


def choose(game, backend: str, seconds: float, quiet: bool = False, loop: str = "perft", by_size: bool = False):
    """The native game (ziggurat.interpreter.native.NativeGame) to run the loop with, or None
    for Python. Says on stderr when it runs natively (unless `quiet`: a --json output says it
    itself), and why not when native was asked for and cannot be; Python by choice, or by `auto`'s
    weighing, is the default and goes unsaid (an extra line on every command would be noise).
    `seconds`: the Python backend's estimated time for the loop (what `auto` weighs against
    compiling); `loop`: the native loop it will run. `by_size`: `auto` weighs the work alone, not
    whether the native game is in the cache, for a loop whose results are each backend's own (a
    study's random games): the same command then chooses the same backend on every machine."""

    def say(text: str, always: bool = False) -> None:
        if always or not quiet:
            click.echo(text, err=True)
    if backend == "python":
        return None
    from ..errors import Unsupported
    from ..interpreter import native as nb  # lowers the ruleset once, whatever is asked of it below

    missing = nb.available()
    if missing is not None:
        if backend == "native":
            say(missing, always=True)
        return None
    refused = nb.why_not(game)
    if refused is not None:
        if backend == "native":
            say(refused.line(), always=True)
        return None
    if backend == "auto" and seconds < (CACHED_SECONDS if not by_size and nb.is_cached(game) else COLD_SECONDS):
        return None
    try:
        fast = nb.native(game, (loop,))
    except Unsupported as why:
        say(why.line(), always=True)
        return None
    say(f"backend: native (ready in {fast.compile_seconds:.1f} s)")
    return fast


def only_random(agents, backend: str) -> None:
    """--backend native plays random agents only (their whole games run natively)."""
    if backend == "native" and agents and any(a.split(":")[0] != "random" for a in agents):
        raise GameError(f"--backend native plays random agents only, not {','.join(agents)}: "
                        "use --backend python (or auto) for other agents")
