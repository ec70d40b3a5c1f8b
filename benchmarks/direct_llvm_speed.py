"""Speed of the direct prototype's code (ziggurat.interpreter.native.direct) against Numba's, and a call from an @njit
function into it by symbol.

    python benchmarks/direct_llvm_speed.py RULESET [--positions 300 --rounds 7 --reps 20] [--from-start]

One process: the ruleset's module compiled by Numba (its own njit, this checkout's set-up, the
cache folder of ZIGGURAT_CACHE_DIR) and by the prototype (`legal`, `apply` and the game functions
they call, in one LLVM module). Positions from seeded random play (Numba's legal/apply); then, in
@njit loops over the same positions, Numba's `legal` against the direct `legal`, called by
symbol: its address given to LLVM (`llvm.add_symbol`) and declared to Numba as an
`ExternalFunction` taking the arrays' data pointers and lengths. Best of --rounds, interleaved,
CPU s per call; the two give the same n and moves (checked). `--from-start`: the positions are
the start and those one move after it instead (a game whose first plies are a set-up phase plays
most of its short games there: Homeworlds' 4.8x gap showed only there). The call's own cost: a loop calling
the direct `legal_K` that does least (the last part) against Numba calling its own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ziggurat.interpreter.native.direct import Translator, compile_ir, exported, plain_namespace  # noqa: E402
from direct_llvm_check import written  # noqa: E402


def numba_module(name: str, text: str):
    import kernel_ab
    folder = Path(tempfile.mkdtemp(prefix="direct_speed_"))
    path = folder / f"{name}.py"
    path.write_text(text)
    return kernel_ab.load(path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ruleset")
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--from-start", action="store_true", help="the start and the positions one move after it")
    a = p.parse_args(argv)
    import llvmlite.binding as llvm
    from numba import njit, types
    from numba.core.typing import signature

    text, s0 = written(a.ruleset)
    mod = numba_module(a.ruleset, text)
    ns = plain_namespace(text)
    tr = Translator(text, ns)
    exports = {"legal": "aa", "apply": "ai"}
    parts = [f for f, _ in exported(text) if f.startswith("legal_")]
    if parts:
        exports[parts[-1]] = "aaiii"
    lib = compile_ir(tr.module_ir(exports), tr)
    sym = f"direct_{a.ruleset}_".replace("-", "_")
    llvm.add_symbol(sym + "legal", lib.address("legal_c"))
    ptr = types.voidptr
    d_legal = types.ExternalFunction(sym + "legal", signature(types.int64, ptr, types.int64, ptr, types.int64))
    maxm = ns["MAXM"]

    # positions: seeded random play with Numba's legal and apply (or the start and its children)
    rng = np.random.default_rng(5)
    pos, out = [], np.zeros(maxm + 8, np.int64)
    while len(pos) < a.positions and not a.from_start:
        s = s0.copy()
        for _ in range(400):
            n = mod.legal(s, out)
            if n == 0 or n > maxm or s[ns["OVER"]] != 0:
                break
            pos.append(s.copy())
            mod.apply(s, out[int(rng.integers(n))])
    if a.from_start:
        if mod.HASHING:
            s0[mod.HSH] = mod.hash_state(s0)
        pos = [s0.copy()]
        for m in out[:mod.legal(s0, out)].copy():
            s = s0.copy()
            mod.apply(s, m)
            pos.append(s)
    P = np.array(pos[:a.positions])
    n_legal = mod.legal

    @njit
    def run_numba(P, out, reps):
        t = 0
        for _ in range(reps):
            for i in range(P.shape[0]):
                t += n_legal(P[i], out) + out[0]
        return t

    @njit
    def run_direct(P, out, reps):
        t = 0
        for _ in range(reps):
            for i in range(P.shape[0]):
                row = P[i]
                t += d_legal(row.ctypes.data, row.shape[0], out.ctypes.data, out.shape[0]) + out[0]
        return t

    o1, o2 = out.copy(), out.copy()
    for i in range(P.shape[0]):  # the same n and moves at every position
        n1 = n_legal(P[i].copy(), o1)
        n2 = run_direct(P[i:i + 1].copy(), o2, 1) - o2[0]
        assert n1 == n2 and np.array_equal(o1[:min(n1, maxm)], o2[:min(n2, maxm)]), i
    run_numba(P, out, 1), run_direct(P, out, 1)
    best = {"numba": 1e9, "direct": 1e9}
    for _ in range(a.rounds):
        for k, f in (("numba", run_numba), ("direct", run_direct)):
            t0 = time.process_time()
            f(P, out, a.reps)
            best[k] = min(best[k], time.process_time() - t0)
    calls = P.shape[0] * a.reps
    row = {"ruleset": a.ruleset, "positions": int(P.shape[0]), "calls": calls,
           "numba legal ns/call": round(best["numba"] / calls * 1e9, 1),
           "direct legal ns/call": round(best["direct"] / calls * 1e9, 1),
           "direct/numba time": round(best["direct"] / best["numba"], 3), "load": os.getloadavg()[0]}
    if parts:
        last = parts[-1]
        n_part = getattr(mod, last)
        llvm.add_symbol(sym + last, lib.address(last + "_c"))
        d_part = types.ExternalFunction(sym + last, signature(types.int64, ptr, types.int64, ptr, types.int64,
                                                              types.int64, types.int64, types.int64, ptr))

        @njit
        def call_numba(s, out, reps):
            t = 0
            for i in range(reps):
                n, tl = n_part(s, out, i & 1, 0, 0)
                t += n
            return t

        @njit
        def call_direct(s, out, reps):
            t = 0
            rest = np.zeros(2, np.int64)
            for i in range(reps):
                t += d_part(s.ctypes.data, s.shape[0], out.ctypes.data, out.shape[0], i & 1, 0, 0, rest.ctypes.data)
            return t

        s = P[len(P) // 2].copy()
        reps = 2_000_000
        assert call_numba(s, out, 10) == call_direct(s, out, 10)
        b2 = {"numba": 1e9, "direct": 1e9}
        for _ in range(a.rounds):
            for k, f in (("numba", call_numba), ("direct", call_direct)):
                t0 = time.process_time()
                f(s, out, reps)
                b2[k] = min(b2[k], time.process_time() - t0)
        row.update({"part": last, "numba part ns/call": round(b2["numba"] / reps * 1e9, 2),
                    "direct part ns/call (by symbol)": round(b2["direct"] / reps * 1e9, 2)})
    print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
