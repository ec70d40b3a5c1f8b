"""The native kernel of this checkout beside another's (a branch's base), in one process.

    python benchmarks/kernel_ab.py --base /path/to/other/checkout [GAME ...]
    python benchmarks/kernel_ab.py --base /path/to/other/checkout --same [RULESET ...]

Each checkout writes its native modules (a subprocess with its own `src` first on the path: the
module's text and the start position's vector); this process loads both texts as modules and,
per game, checks that both play the same seeded games (the chunk's columns and final positions
of 200 playouts, drawn part by part where the game's turns have parts OpenSpiel draws that way)
and count the same perft to depth 3, then times `study_chunk` of each, interleaved (best of the
rounds, CPU seconds), and prints games per CPU second and the ratio this / base. A module runs
slower in the process that compiled it: run twice, and read the second run (Numba's cache).

`--same`: no timing and no compile; each ruleset's two modules run as plain Python (Numba off)
for perft to depth 2 and four seeded games (whole turns and part by part, moves and final
positions, each stack's slots above its height left out): what a change meant to keep every game
the same must keep (default: every shipped ruleset the native backend writes).
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np

from ziggurat.interpreter.native.module import plain_text

GAMES = ["breakthrough", "othello", "amazons", "clobber", "checkers", "lines-of-action", "rgb"]
PARTS = {"amazons"}  # timed part by part (OpenSpiel's random process), as rbg_bench's column
HERE = Path(__file__).resolve().parent.parent

WRITE = """
import json, sys
from pathlib import Path
import numpy as np
import ziggurat
from ziggurat.interpreter.native.game import source
out = Path(sys.argv[1])
for name in json.loads(sys.argv[2]):
    game = ziggurat.load(name)
    try:
        text, layout = source(game)[:2]
    except Exception as e:  # Unsupported: no module
        print(json.dumps([name, str(e)]))
        continue
    (out / (name + ".py")).write_text(text)
    np.save(out / (name + ".npy"), layout.vector(game.new()))
"""


def write(tree: Path, names: list, folder: Path) -> None:
    """The modules of `names` as checkout `tree` writes them, into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    subprocess.run([sys.executable, "-c", WRITE, str(folder), json.dumps(names)], env=env, check=True,
                   stdout=subprocess.DEVNULL)


def load(path: Path, plain: bool = False):
    text = path.read_text()
    if plain:
        text = plain_text(text)
    name = "kab_" + hashlib.sha1(str(path).encode()).hexdigest()[:16]  # the same name in every process
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    exec(compile(text, str(path), "exec"), module.__dict__)
    return module


def start(module, folder: Path, name: str) -> np.ndarray:
    s0 = np.load(folder / f"{name}.npy")
    if module.HASHING:
        s0[module.HSH] = module.hash_state(s0)
    return s0


def games(module, s0, count: int, seed: int, parts, plies: int = 1000, keep: bool = False) -> tuple:
    seeds = np.uint64(seed) + np.arange(count, dtype=np.uint64)
    finals = np.zeros((count if keep else 0, s0.shape[0]), np.int64)
    moves = np.zeros((count, plies) if keep else (0, 0), np.int64)  # zeros: compared whole
    fn = getattr(module.study_chunk, "py_func", module.study_chunk)
    keyed = "key" in inspect.signature(fn).parameters  # a checkout whose loop may derive a study's seeds
    unkeyed = (np.empty(0, np.uint64), np.empty(0, np.uint64)) if keyed else ()
    cols = module.study_chunk(np.atleast_2d(s0), seeds, plies, finals, moves, *unkeyed, parts)
    kept = (live(module, finals).tolist(), moves.tolist()) if keep else ()
    return tuple(np.asarray(c).tolist() for c in cols) + kept


def live(module, finals: np.ndarray) -> np.ndarray:
    """The final positions with each stack's slots above its height zeroed: they hold whatever the
    stack held before (a Stage taken back by its inverse, not a copy, leaves other values there),
    and nothing reads them; the slots after the stacks (occupancy words, which follow from the
    stacks, where a checkout keeps them) left out."""
    out = finals[:, :module.STK + module.NC * module.CAP].copy()
    for row in out:
        for c in range(module.NC):
            row[module.STK + c * module.CAP + row[module.HGT + c]: module.STK + (c + 1) * module.CAP] = 0
    return out


def same(base: Path, this: Path, names: list) -> int:
    """Plain-Python perft and seeded games of each ruleset's two modules; the count that differ."""
    differ = 0
    for name in names:
        if not (base / f"{name}.py").exists() or not (this / f"{name}.py").exists():
            print(f"{name:24s} no native module")
            continue
        runs = []
        for folder in (base, this):
            m = load(folder / f"{name}.py", plain=True)
            s0 = start(m, folder, name)
            hist = np.array([s0[m.HSH] if m.HASHING else 0], np.int64)
            perft = [m.perft(s0.copy(), d, hist, 1 if m.HASHING else 0) for d in (1, 2)]
            runs.append((perft, [games(m, s0, 4, 11, parts, 150, keep=True) for parts in (None, True)]))
        text = "same text" if (base / f"{name}.py").read_text() == (this / f"{name}.py").read_text() else "text changed"
        ok = runs[0] == runs[1]
        differ += not ok
        print(f"{name:24s} {text:12s} perft 1, 2: {runs[1][0]}  games: {'same' if ok else 'DIFFER'}", flush=True)
    return differ


def timed(base: Path, this: Path, names: list, rounds: int, seconds: float) -> None:
    print(f"{'game':18s} {'base games/CPU s':>17s} {'this':>10s} {'this/base':>9s}  check")
    for name in names:
        mods = [load(folder / f"{name}.py") for folder in (base, this)]
        s0 = start(mods[1], this, name)
        parts = True if name in PARTS else None
        checks = [(games(m, s0, 200, 7, parts, keep=True), m.perft(s0.copy(), 3, np.zeros(1, np.int64), 0))
                  for m in mods]
        t = time.process_time()
        games(mods[1], s0, 200, 1, parts)
        n = max(200, int(200 * seconds / max(time.process_time() - t, 1e-6)))
        best = [float("inf"), float("inf")]
        for r in range(rounds):  # interleaved, the order turned round each round
            for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                t = time.process_time()
                games(mods[i], s0, n, 1000 * r, parts)
                best[i] = min(best[i], time.process_time() - t)
        rates = [n / b for b in best]
        check = "same games and perft" if checks[0] == checks[1] else "DIFFER"
        label = name + (" (parts)" if parts else "")
        print(f"{label:18s} {rates[0]:17,.0f} {rates[1]:10,.0f} {rates[1] / rates[0]:9.3f}  {check}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the other checkout (its src/ is used)")
    parser.add_argument("--same", action="store_true", help="plain-Python equality of every module, no timing")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.4, help="CPU seconds a round of one engine")
    parser.add_argument("--folder", help="where the modules are written (default: a folder per checkout "
                                         "under the temporary folder, kept for Numba's cache)")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    if args.same:
        names = args.names or sorted(p.stem for p in (HERE / "src/ziggurat/rulesets").glob("*.rules"))
    else:
        names = args.names or GAMES
    root = Path(args.folder or tempfile.gettempdir()) / "ziggurat-kernel-ab"
    base_tree = Path(args.base).resolve()
    folders = [root / ("base-" + hashlib.sha1(str(base_tree).encode()).hexdigest()[:8]),
               root / ("this-" + hashlib.sha1(str(HERE).encode()).hexdigest()[:8])]
    for tree, folder in zip((base_tree, HERE), folders):
        write(tree, names, folder)
    if args.same:
        os.environ["NUMBA_DISABLE_JIT"] = "1"
        return 1 if same(*folders, names) else 0
    timed(*folders, names, args.rounds, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
