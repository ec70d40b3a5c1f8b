"""End to end: a cold compile of the study loop (`study_chunk`) with the game functions the
engine's direct path binds (`direct.bind`: `legal`, `apply`, `outcome`, `pick_chance`, `heuristic`,
`chance_weight`, those it translates) called by symbol from Numba's loop, against Numba compiling
everything; fresh processes, alternated.

    python benchmarks/direct_llvm_e2e.py RULESET [--runs 3 --games 200 --plies 1000] [--perft]
    python benchmarks/direct_llvm_e2e.py RULESET --one numba|direct      # one process (internal)

Each process: an empty cache folder; the module's text written (not timed; the same for both); then
timed (CPU s): the module loaded (its own njit, this checkout's Numba set-up), for `direct` those
functions bound by `direct.bind.bind` (translated and compiled in one LLVM module, kept as object
code in the cache, their symbols given to LLVM, one-line @njit wrappers calling them as
`ExternalFunction`s in their place), then the first seeded study (kernel_ab.games: `study_chunk`
compiled on that call). Then, warm, the study loop's speed (best of 5, CPU s) and a hash of the
seeded games' results (columns, final positions, moves): the two processes must print the same hash.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def cpu() -> float:
    return time.process_time()


def one(name: str, how: str, games: int, plies: int, perft: bool = False) -> dict:
    import kernel_ab
    from direct_llvm_check import written
    text, s0 = written(name)
    path = Path(tempfile.mkdtemp(prefix="direct_e2e_")) / f"{name.replace('-', '_')}.py"
    path.write_text(text)
    t0 = cpu()
    module = kernel_ab.load(path)
    replaced = replace(module, text) if how == "direct" else []
    t1 = cpu()
    first = kernel_ab.games(module, s0.copy(), 4, 1, None, plies, keep=True)
    if perft:  # the default loops: perft compiled too (depth 2, its counts in the hash)
        import numpy as np
        hist = np.array([s0[module.HSH] if module.HASHING else 0], np.int64)
        first = [first, [module.perft(s0.copy(), d, hist, 1 if module.HASHING else 0) for d in (1, 2)]]
    t2 = cpu()
    best = 1e9
    for _ in range(5):
        a = cpu()
        result = kernel_ab.games(module, s0.copy(), games, 7, None, plies, keep=True)
        best = min(best, cpu() - a)
    digest = hashlib.sha1(json.dumps([first, result]).encode()).hexdigest()[:16]
    loops = "study_chunk,perft" if perft else "study_chunk"
    return {"how": how, "loops": loops, "load+direct": round(t1 - t0, 3), "cold compile CPU s": round(t2 - t0, 3),
            "study CPU s (warm, best of 5)": round(best, 4), "games": games, "same-hash": digest,
            "direct": replaced, "load": os.getloadavg()[0]}


def replace(module, text: str) -> list:
    """The module's game functions bound to the direct code as the engine binds them
    (`direct.bind.bind`, what `ZIGGURAT_NATIVE_DIRECT=1` does in `native()`; its object code kept
    in the process's empty cache folder); the names replaced ([] where it refuses)."""
    from ziggurat.interpreter.native.direct import bind

    return bind.bind(module, text) or []


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ruleset")
    p.add_argument("--one", choices=["numba", "direct"])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--plies", type=int, default=1000)
    p.add_argument("--perft", action="store_true", help="compile perft too (native's default loops)")
    a = p.parse_args(argv)
    if a.one:
        print(json.dumps(one(a.ruleset, a.one, a.games, a.plies, a.perft)), flush=True)
        return 0
    rows = []
    for _ in range(a.runs):
        for how in ("numba", "direct"):
            env = {**os.environ, "ZIGGURAT_CACHE_DIR": tempfile.mkdtemp(prefix="zc-direct-e2e-")}
            out = subprocess.run([sys.executable, __file__, a.ruleset, "--one", how, "--games", str(a.games),
                                  "--plies", str(a.plies)] + (["--perft"] if a.perft else []), env=env,
                                 capture_output=True, text=True)
            line = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr[-2000:]
            print(line, flush=True)
            rows.append(json.loads(line))
    med = {how: statistics.median(r["cold compile CPU s"] for r in rows if r["how"] == how)
           for how in ("numba", "direct")}
    speed = {how: statistics.median(r["study CPU s (warm, best of 5)"] for r in rows if r["how"] == how)
             for how in ("numba", "direct")}
    print(json.dumps({"ruleset": a.ruleset, "cold compile median numba": med["numba"], "direct": med["direct"],
                      "ratio direct/numba": round(med["direct"] / med["numba"], 3),
                      "study time direct/numba": round(speed["direct"] / speed["numba"], 3),
                      "same games": len({r["same-hash"] for r in rows}) == 1}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
