"""A game's native module, compiled once per process: perft and random playouts at compiled speed.

`native(game)` takes a loaded `Game` (the Python backend: the reference, and what every single
move still goes through), reads the ruleset lowered from the texts the game keeps
(`pipeline.lowered_rules`: no file is read, and a file edited since the game was loaded changes
nothing), writes the native module and compiles it with Numba. Each is done once per process:
the ruleset's lowering and its module (by the texts of its chain and its options), the compiled
module (by its text). The module is a real file in the cache folder
(`ziggurat.cachedir`, under `native/`), named by a hash of its text, so Numba's on-disk cache
(`cache=True`, sealed and kept under `native/numba/`: `numbacache`) keeps the machine code across
processes: the second process loads it instead of compiling. The file is run only when its text is
the one written now (it is run from that text, not read back), and written whole through a fresh
temporary file. With the cache off, the file goes to a private temporary folder and every process
compiles.

The game functions the loops call are compiled by the direct path (`direct/bind.py`: translated to
LLVM IR, no Numba front end), the module run from a file of its own (Numba's cache entries apart);
`ZIGGURAT_NATIVE_DIRECT=0` leaves them to Numba.

A ruleset this backend cannot compile raises `Unsupported` (its `line()` is the one line the
commands print before using Python instead).
"""
from __future__ import annotations

import hashlib
import logging
import pickle
import sys
import tempfile
import time
import types
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Optional

import numpy as np
from attrs import frozen

from ... import cachedir
from ...errors import GameError, RulesetError, Unsupported
from ..cache import engine_fingerprint
from ..facts import uses_repetition
from ..pipeline import lowered_rules, options_key
from .code import numba_refusal
from .direct import bind as direct
from .layout import Codec, Layout, TooLong
from .module import KERNEL_MARK, NativeWriter, plan_layout
from .playout import Playout

_LOADED: dict = {}  # module key -> NativeGame: compiled once per process
WRITTEN_SIZE = 64  # module texts kept by one process
_WRITTEN: dict = {}  # rules key -> (module text, layout, outcomes, hashing), or the Unsupported raised
_NATIVE: dict = {}  # rules key -> NativeGame: a second native(game) costs a look-up


def available() -> Optional[str]:
    """None when Numba can be imported; else why not (one line)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return "the native backend needs Numba (pip install 'ziggurat[native]'); using Python"
    return None


class NativeGame:
    """The native functions of one game (see `native`)."""

    def __init__(self, game, module, layout: Layout, outcomes: list, hashing: bool, compile_seconds: float,
                 path: str):
        self.game, self.module, self.layout = game, module, layout
        self.outcomes, self.hashing = outcomes, hashing
        self.compile_seconds, self.path = compile_seconds, path
        assert layout.codec is not None  # the module's writer planned the moves (source() wrote it)
        self.codec: Codec = layout.codec
        self.turns = None  # the loops of whole turns (turns.TurnLoops), for a game that declares them
        if game.whole_turns is not None:
            from .turns import TurnLoops

            self.turns = TurnLoops(self)

    def pack(self, move: tuple) -> int:
        """A Python backend move as this game's packed int; Unsupported when it is too long."""
        try:
            return self.codec.pack(move)
        except TooLong:
            raise self.too_long(self.game.actions[move[0]].name) from None

    # ---- positions --------------------------------------------------------------------------

    def start(self, state, history: bool = True) -> tuple:
        """(vector, history of hashes, its length) for a Python backend state. Where the rules
        ask about repetition, a state with earlier positions is refused (Unsupported), unless
        `history` is false: then repetitions count from this position on."""
        v = self.layout.vector(state)
        if v is None:
            raise Unsupported(f"a stack deeper than {self.layout.cap} pieces or a zone of more than {self.layout.zcap}")
        if state.last is not None:
            v[2] = self.pack(state.last)
        hist = np.zeros(1, dtype=np.int64)
        if self.hashing:
            if history and (len(state.seen) > 1 or any(c > 1 for c in state.seen.values())):
                raise Unsupported("a position with earlier positions to repeat (repetition)")
            hist[0] = v[self.layout.hsh] = self.module.hash_state(v)  # moves keep v[hsh] from here
            return v, hist, 1
        return v, hist, 0

    def state(self, v) -> object:
        """A Python backend state holding the vector's position (for statistics, pictures)."""
        st = self.game.empty_state()
        lay = self.layout
        st.cells = lay.cells(v)
        st.side, st.ply = self.side(v), self.ply(v)
        st.seats = self.seats(v)
        st.counters = [int(x) for x in v[lay.cnt:lay.cnt + lay.ncounters]]
        st.zones = lay.zones(v)
        if lay.tcap:
            st.table = [lay.table(v)]
        st.reset_history()
        return st

    def side(self, v) -> int:
        """The side to move in a position vector."""
        return int(v[0])

    def ply(self, v) -> int:
        """The plies played to reach a position vector."""
        return int(v[1])

    def seats(self, v) -> list:
        """The seat of each side in a position vector (who plays it: `State.seats`)."""
        return [int(x) for x in v[4:4 + self.layout.nplayers]]

    def move(self, m: int) -> tuple:
        return self.codec.unpack(m)

    def ended(self, code: int, res) -> tuple:
        """(kind, who, reason, results) of an outcome code."""
        if code <= 0:
            return None, None, None, ()
        kind, reason = self.outcomes[code - 1]
        n = self.layout.nplayers
        results = tuple(float(r) for r in res[:n])
        who = int(res[n])
        if self.game.points:  # res holds points: the results are those of the outcome they came from
            results = points_results(kind, who, results)
        if kind == "rank":
            kind = "win" if who >= 0 else "draw"
        results = tuple(int(r) if r in (0.0, 1.0) else r for r in results)
        return kind, (who if who >= 0 else None), reason, results

    def _check(self, code: int) -> None:
        if code == -1:  # the loop stops; Python, which holds any number, runs it
            raise Unsupported(f"a position of more than {self.module.MAXM} moves")
        if code == -2:
            raise Unsupported(f"a stack deeper than {self.layout.cap} pieces or a zone of more than {self.layout.zcap}"
                              + (f", or the table past {self.layout.tcap} pieces or a list of its lattice too long"
                                 if self.layout.tcap else ""))
        if code == -3:
            raise self.too_long()
        if code == -4:  # the Python backend runs it, and stops at the rule with its line
            raise Unsupported("an effect at a level its stack does not have")

    def too_long(self, action: Optional[str] = None) -> Unsupported:
        """A move too long to pack (of `action` when it is known), or met in a loop: at the
        line of the action whose list grew past what a packed move holds (the actions with
        lists, when there are several)."""
        growing = [g for g in getattr(self.layout, "growing", []) if action is None or g[0] == action]
        if len(growing) == 1:
            name, pos = growing[0]
            return Unsupported(f"a move of action {name!r} longer than one packed 63-bit word (a list in it "
                               "grew too long)", pos)
        named = ", ".join(f"{name!r} ({Unsupported('', pos).where()})" for name, pos in growing)
        return Unsupported("a move longer than one packed 63-bit word"
                           + (f" (one of actions {named})" if named else ""))


    # ---- the loops ----------------------------------------------------------------------------

    def perft(self, state, depth: int) -> int:
        if self.turns is not None:  # whole turns (interpreter.whole_turns), over nature's moves
            return self.turns.perft(state, depth)
        v, hist, nhist = self.start(state)
        n = int(self.module.perft(v, int(depth), hist, nhist))
        self._check(n)
        return n

    def divide(self, state, depth: int) -> list:
        """[(move, leaves)]: perft split by first move (the moves in the Python backend's order),
        each child made natively so that its repetition history is known."""
        if self.turns is not None:
            return self.turns.divide(state, depth)
        v, hist, nhist = self.start(state)
        out = []
        for m in state.moves():
            child = v.copy()
            self.module.apply(child, self.pack(m))
            if child[3]:
                self._check(-1 - int(child[3]))
            h = np.zeros(nhist + 1, dtype=np.int64)
            h[:nhist] = hist[:nhist]
            if self.hashing:
                h[nhist] = self.module.hash_state(child)
            n = int(self.module.perft(child, max(0, depth - 1), h, nhist + 1 if self.hashing else 0))
            self._check(n)
            out.append((m, n))
        return out

    def playout(self, state, seed: int, max_plies: int = 1000, history: bool = True, parts: bool = False) -> Playout:
        """A random playout from `state` (left unchanged), seeded with `seed` (see `loops`);
        `history`: see `start`; `parts`: turns drawn part by part (the rollout policy, `loops`).
        Played by the loop of a study's chunk (one game, its moves kept): one compiled loop
        serves playout, playouts and studies."""
        if self.turns is not None:
            self._turns_policy(parts)
            return self.turns.playout(state, seed, max_plies, history)
        v, _hist, _nhist = self.start(state, history)  # the loop hashes the start as start() does
        moves = np.zeros((1, max(0, int(max_plies))), dtype=np.int64)
        final = np.empty((1, self.layout.size), np.int64)
        plies, codes, results, branching, _a, _s = self.module.study_chunk(
            v[None, :], np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64), int(max_plies), final, moves,
            NO_SEEDS, NO_SEEDS, policy(parts))
        code = int(codes[0])
        self._check(code)
        raw = results[0]
        kind, who, reason, res = self.ended(code, raw)
        scores = tuple(float(r) for r in raw[:self.layout.nplayers]) if self.game.points and kind else ()
        return Playout(moves[0, :plies[0]], self.codec, int(plies[0]), kind, who, reason, res,
                       int(branching[0]), final[0], scores)

    def playouts(self, state, count: int, seed: int, max_plies: int = 1000, parts: bool = False) -> tuple:
        """(results per side as a count x players array, plies, outcome codes) of `count`
        playouts; playout i is `playout(state, seed + i)` (a study's chunk of seeds seed + i)."""
        v, _hist, _nhist = self.start(state)
        seeds = np.uint64(seed & 0xFFFFFFFFFFFFFFFF) + np.arange(int(count), dtype=np.uint64)  # wraps as the loop's
        cols = self.study_chunk(v, seeds, max_plies, parts=parts)
        for c in set(np.asarray(cols.codes).tolist()):
            self._check(c)
        return cols.results, cols.plies, cols.codes

    def study_chunk(self, starts, seeds, max_plies: int, finals: bool = False, parts: bool = False,
                    key=None) -> "ChunkColumns":
        """`len(seeds)` random games in one call (a study's chunk): game i from the vector
        starts[i] (`start`'s; starts[0] for every game when there is one row), seeded with
        seeds[i] (it is `playout(state, seeds[i], max_plies)`), as columns (see ChunkColumns).
        A game the loop could not hold has a code below 0 (see `_check`): the others stand.
        `key` (not in a game of whole turns): seeds are the games' indices in a study, and the
        loop derives their seeds and their setups' (`kernel_loops.study_chunk`)."""
        starts = np.ascontiguousarray(np.atleast_2d(starts), dtype=np.int64)
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        last = np.empty((len(seeds) if finals else 0, self.layout.size), np.int64)
        setups = None if key is None else np.empty(len(seeds), np.uint64)
        if self.turns is not None:  # whole turns: each drawn uniformly among the listed turns
            self._turns_policy(parts)
            if key is not None:  # its loop takes seeds, not indices
                raise ValueError("the loop of a game of whole turns derives no seeds: give them")
            loop = self.turns.chunk(starts, seeds, max_plies, last, NO_MOVES, NO_MOVES)
        else:
            keyed = (NO_SEEDS, NO_SEEDS) if key is None else (np.ascontiguousarray(key, dtype=np.uint64), setups)
            loop = self.module.study_chunk(starts, seeds, int(max_plies), last, NO_MOVES, *keyed, policy(parts))
        plies, codes, results, branching, actions, seats = loop
        n = self.layout.nplayers
        return ChunkColumns(plies, codes, results[:, :n], results[:, n].astype(np.int64), branching, actions, seats,
                            last if finals else None, setups)

    def _turns_policy(self, parts: bool) -> None:
        if parts:  # the policy draws a move's choices one at a time, and a whole turn is several moves
            raise Unsupported("the rollout policy 'parts' in a game of whole turns")


def points_results(kind: str, who: int, points: tuple) -> tuple:
    """The results (1 a win, 0 a loss, shares of a draw) of an outcome of a game whose results
    are points, from its kind, the side it names (-1 none) and the points per side."""
    from ..outcome import outcome_of

    if kind == "rank":  # `win by NAME`
        return outcome_of(("points", tuple((p,) for p in points), None), len(points)).results
    return outcome_of((kind, who if who >= 0 else None, None), len(points)).results


@frozen
class ChunkColumns:
    """The games of `NativeGame.study_chunk`, a row each (numpy arrays)."""

    plies: object  # moves made
    codes: object  # outcome codes: 0 cut at max plies, k > 0 outcome k (`NativeGame.ended`), < 0 not held
    results: object  # per side (count x players), for the games that ended
    who: object  # the side an outcome names, -1 for none
    branching: object  # the legal moves summed over the positions played from
    actions: object  # moves of each action (count x actions)
    seats: object  # side -> seat at the end (count x players)
    finals: object  # the last positions (count x vector), when asked for; else None
    setups: object = None  # the seeds of their setups, when the loop derived the seeds (`key`)


# ---- compiling ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _fingerprint() -> str:
    h = hashlib.sha256(engine_fingerprint().encode())
    for folder in ("interpreter/native", "interpreter/native/direct"):
        d = resources.files("ziggurat").joinpath(folder)
        for p in sorted(d.iterdir(), key=lambda p: p.name):
            if p.name.endswith(".py") and p.is_file():
                h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def rules_key(game) -> tuple:
    """What a game's native module is made from: the texts of its chain and its option values."""
    return game.rules, options_key(game.options)


def source(game) -> tuple:
    """(module text, layout, outcomes, hashing) of a game, written once per process from the
    texts the game keeps; raises Unsupported."""
    k = rules_key(game)
    written = _WRITTEN.get(k)
    if written is None:
        written = _written_before(game)
    if written is None:
        try:
            written = _write(game)
        except Unsupported as why:
            written = why
        else:
            _keep_written(game, written)
        _WRITTEN[k] = written
        while len(_WRITTEN) > WRITTEN_SIZE:
            del _WRITTEN[next(iter(_WRITTEN))]  # the oldest first
    if isinstance(written, Unsupported):
        raise written.with_traceback(None)
    return written


def _written_path(game) -> Optional[Path]:
    """Where the module written for a game's rules and options is kept across processes (by a
    hash of them and of the backend's code), or None with the cache off."""
    d = cachedir.subfolder("native")
    if d is None:
        return None
    h = hashlib.sha256(_fingerprint().encode())
    for path, text in game.rules:
        h.update(b"\0" + str(path).encode() + b"\0" + text.encode())
    h.update(b"\0" + repr(options_key(game.options)).encode())
    return d / f"w{h.hexdigest()[:32]}.pickle"


def _written_before(game) -> Optional[tuple]:
    """(module text, layout, outcomes, hashing) another process wrote for these rules, from the
    sealed cache: a warm start neither parses the rules nor writes the module again (a third of
    a CPU second for a large ruleset)."""
    path = _written_path(game) if game.rules else None
    data = cachedir.read_sealed(path) if path is not None else None
    if data is None:
        return None
    try:
        written = pickle.loads(data)
    except Exception:  # sealed, so written by this code; should it not load, it is written again
        return None
    return written if isinstance(written, tuple) and len(written) == 4 else None


def _keep_written(game, written: tuple) -> None:
    path = _written_path(game)
    if path is not None:
        cachedir.write_sealed(path, pickle.dumps(written))


def _write(game) -> tuple:
    if not game.rules:
        raise Unsupported("a game made without its rules texts (load it with ziggurat.load)")
    try:
        ruleset = lowered_rules(game.rules, dict(game.options))
    except (RulesetError, GameError):
        raise Unsupported("a ruleset with mistakes") from None
    folded = ruleset.folded
    supply = game.piece_supply()
    layout = plan_layout(folded, supply.total if supply is not None else 0, list(ruleset.steps))
    surface = folded.world.surface  # the open table: (pitch, width, length of each piece), or None
    if surface is not None:
        if uses_repetition(folded.plan):
            raise Unsupported("repetition on the open table (not yet checked against the Python backend)",
                              folded.plan.surface_pos)
        if game.spec.turn_parts:  # turns.py tells the positions a turn reaches apart by slots the table is not in
            raise Unsupported(f"whole turns ({game.spec.turn_at}) on the open table", folded.plan.surface_pos)
        layout.add_table(layout.zcap, surface[0])  # the table holds at most every piece there is
    from . import module as writer_module
    from .outline import Outline, second

    def writer_of(outline) -> NativeWriter:
        w = NativeWriter(folded, list(ruleset.steps), layout, uses_repetition(folded.plan), outline)
        if surface is not None:  # the pieces' half extents come from these (table_kernel)
            w.x.tcap = layout.tcap
            w.x.tlist = writer_module.MAXM  # read now: a test lowers it
            w.tables["TWIDTH"], w.tables["TLENGTH"] = list(surface[1]), list(surface[2])
        return w

    counted = Outline()  # written twice: the folds used more than once, counted, become functions
    first = writer_of(counted).write("")
    writer = writer_of(second(counted, first))
    if game.spec.turn_parts and writer.hashing:  # whole turns: turns.py
        raise Unsupported(f"whole turns ({game.spec.turn_at}) in a game whose rules ask about repetition: the native "
                          "listing keeps no history within a turn")
    from .turns import turns_text

    text = writer.write(Path(ruleset.files[-1]).name) + turns_text(game)
    if surface is not None:
        from .table import kernel_text

        text += kernel_text(KERNEL_MARK)
    return text, layout, writer.outcomes, writer.hashing


def module_key(text: str) -> str:
    """The name of a module's text: its hash and the backend's code's."""
    return hashlib.sha256((_fingerprint() + "\0" + text).encode()).hexdigest()


def module_path(text: str) -> tuple:
    """(key, path) where a module's text is kept: the cache folder, else a temporary one."""
    key = module_key(text)
    d = cachedir.subfolder("native")
    if d is not None:
        return key, d / f"n{key[:32]}.py"
    return key, Path(tempfile.mkdtemp(prefix="ziggurat-native-")) / f"n{key[:32]}.py"


def _kept_as(game, key: str = "") -> tuple:
    """(the game's key in _NATIVE, the module's in _LOADED, its file's stem): apart with the
    direct path's switch on (`direct.wanted()`: its loops call the direct code, bind.py)."""
    on = direct.wanted()
    return ((rules_key(game), "direct") if on else rules_key(game), key + ":direct" if on else key,
            f"n{key[:32]}" + ("d" if on else ""))


def is_cached(game) -> bool:
    """Whether this game's native module was compiled before (in this process or into the cache)."""
    if _kept_as(game)[0] in _NATIVE:
        return True
    try:
        text = source(game)[0]
    except Unsupported:
        return False
    _, loaded, stem = _kept_as(game, module_key(text))  # not module_path: with the cache off, that makes a folder
    if loaded in _LOADED:
        return True
    d = cachedir.subfolder("native")
    return d is not None and cachedir.read_file(d / f"{stem}.compiled") is not None


def why_not(game) -> Optional[Unsupported]:
    """Why this backend cannot write the game's module (Unsupported), or None when it can."""
    try:
        source(game)
    except Unsupported as why:
        return why
    return None


LOOPS = ("perft", "playouts", "playout")


NO_MOVES = np.empty((0, 0), np.int64)  # study_chunk's moves_out when the moves are not kept
NO_SEEDS = np.empty(0, np.uint64)  # study_chunk's key and setups when its seeds are given


def policy(parts: bool) -> Optional[bool]:
    """The loops' argument `parts` for a rollout policy: None for whole turns, so that the loop
    compiled for it leaves out the turn drawn part by part (`kernel_loops`), True for parts."""
    return True if parts else None


def native(game, loops: tuple = LOOPS) -> NativeGame:
    """The native functions of a game, compiled (or loaded from Numba's cache) once per process:
    `loops` now (so that no measurement includes it), any other at its first call ("playouts",
    "playout" and "study_chunk" are one compiled loop, `study_chunk`). Raises
    Unsupported for what this backend cannot compile, or when Numba is missing."""
    why = available()
    if why is not None:
        raise Unsupported("anything without Numba installed (pip install 'ziggurat[native]')")
    on = direct.wanted()  # the game functions by the direct path (direct/bind.py) unless ZIGGURAT_NATIVE_DIRECT=0
    rules = _kept_as(game)[0]
    made = _NATIVE.get(rules)
    if made is not None:
        return made
    text, layout, outcomes, hashing = source(game)
    key, path = module_path(text)
    _, loaded, stem = _kept_as(game, key)
    path = path.with_name(stem + path.suffix)  # with the switch on, a file and a module name of its
    # own: its loops' cache entries call the direct code (bind.py)
    if loaded in _LOADED:
        _NATIVE[rules] = _LOADED[loaded]
        return _LOADED[loaded]
    data = text.encode("utf-8")
    if cachedir.read_file(path) != data:  # missing, other text, or not to be trusted (a link, ...)
        # whole or not at all; a file rewritten alike would lose Numba's cache (its stamp changes)
        cachedir.write_file(path, data)
    # Run the text written now, not the file read back (nor a .pyc beside it): the file is there
    # for Numba (which caches only functions of real files) and for tracebacks.
    name = f"ziggurat_native_{key[:16]}" + ("d" if on else "")
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    exec(compile(text, str(path), "exec"), module.__dict__)
    began = time.perf_counter()
    bound = on and direct.bind(module, text) is not None  # before any loop compiles or loads
    warm = game.new()
    ng = NativeGame(game, module, layout, outcomes, hashing, 0.0, str(path))
    if warm is not None:  # compile (or load) the loops asked for now
        try:
            if "perft" in loops:
                ng.perft(warm, 1)
            if "playouts" in loops:
                ng.playouts(warm, 1, 0, 1)
            if "playout" in loops:
                ng.playout(warm, 0, 1)
            if "study_chunk" in loops:
                ng.study_chunk(ng.start(warm)[0], np.zeros(1, np.uint64), 1)
        except Exception as e:  # Numba refused the code written: a fault of this backend, not the rules
            from numba.core.errors import NumbaError

            if not isinstance(e, NumbaError):
                raise
            if bound:  # refused against the direct code's wrappers: a fault of the direct path, not of the
                # rules; the module compiled by Numba alone instead (which names the rule if it refuses too)
                logging.getLogger(__name__).debug("%s: Numba refused the loops over the direct code; compiled "
                                                  "without it", name, exc_info=True)
                with direct.switched_off():
                    ng = native(game, loops)
                _NATIVE[rules] = ng
                return ng
            raise numba_refusal(e, text, path) from None  # names the rules line of the code refused
    ng.compile_seconds = time.perf_counter() - began
    cachedir.write_file(path.with_suffix(".compiled"), b"")  # is_cached reads it
    _LOADED[loaded] = _NATIVE[rules] = ng
    return ng
