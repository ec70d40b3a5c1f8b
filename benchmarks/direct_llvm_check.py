"""The direct prototype (ziggurat.interpreter.native.direct) checked against the module run as plain Python.

    python benchmarks/direct_llvm_check.py check RULESET [--games 4 --plies 400 --moves 6 --seed 1]

`check`: seeded random games played in plain Python (the module's text with njit the identity,
as kernel_ab.py --same runs it); at every position each translated `legal_K` (chained as `legal`
chains them), `legal` itself, and for the move played and up to --moves others each `dos_K` (all
of them in turn: a part whose actions are not the move's does nothing) and `apply` run both ways
(direct through ctypes on copies of the same arrays): the same n, the same whole `out`, the same
whole `s`. A function the translator refuses is reported with its reason, not checked.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ziggurat.interpreter.native.direct import Refused, Translator, compile_ir, exported, plain_namespace  # noqa: E402


def written(name: str):
    """(module text, start vector) of a shipped ruleset, as this checkout writes them."""
    import ziggurat
    from ziggurat.interpreter.native.game import source
    game = ziggurat.load(name)
    text, layout = source(game)[:2]
    return text, layout.vector(game.new())


ENDS = (("outcome", "aifai"), ("heuristic", "ai"), ("pick_chance", "aaiu"), ("weight_of", "ai"))


def translate(text, ns, extra=(("legal", "aa"), ("apply", "ai")) + ENDS):
    """The exports the translator takes, one module: (library, {name: sig}, {name: refusal})."""
    tree = ast.parse(text)
    ok, refused = {}, {}
    for name, sig in exported(text) + [e for e in extra if re_def(text, e[0])]:
        try:
            Translator(text, ns, tree).module_ir({name: sig})  # refused alone, not the module
            ok[name] = sig
        except Refused as why:
            refused[name] = str(why)
    tr = Translator(text, ns, tree)
    lib = compile_ir(tr.module_ir(ok), tr)
    return lib, ok, refused


def re_def(text, name):
    return f"\ndef {name}(" in text


def call(lib, name, sig, *args):
    """A direct function through ctypes: arrays as (pointer, length); a tuple's rest into `rest`."""
    f = lib.cfunc(name, sig)
    flat = []
    for a in args:
        if isinstance(a, np.ndarray):
            flat += [a.ctypes.data, a.shape[0]]
        else:
            flat.append(int(a))
    rest = np.zeros(4, np.int64)
    if f.argtypes and len(f.argtypes) > len(flat):
        flat.append(rest.ctypes.data)
    return f(*flat), rest


def check(name: str, games: int, plies: int, moves: int, seed: int) -> int:
    text, s0 = written(name)
    ns = plain_namespace(text)
    lib, ok, refused = translate(text, ns)
    for f, why in refused.items():
        print(f"{name}: {f} REFUSED {why}")
    legal_parts = sorted((f for f in ok if f.startswith("legal_")), key=lambda f: int(f.split("_")[1]))
    dos = [f for f in ok if f.startswith("dos_")]
    chained = re.findall(r"n, _tl\d+ = (legal_\d+)\(", fn_text(text, "legal")) if "legal" in ns else []
    maxm, over, nplayers = ns["MAXM"], ns["OVER"], ns["NPLAYERS"]
    rng = np.random.default_rng(seed)
    counts = {"positions": 0, "legal_K calls": 0, "dos_K calls": 0, "moves tried": 0}
    bad = 0
    res = np.zeros(nplayers + 1, np.float64)
    hist = np.zeros(plies + 2, np.int64)
    for g in range(games):
        s = s0.copy()
        if ns.get("HASHING"):
            s[ns["HSH"]] = ns["hash_state"](s)
        for ply in range(plies):
            counts["positions"] += 1
            # the parts chained as legal chains them (n from the previous part, Python's)
            n = 0
            for part in chained or legal_parts:
                if part not in ok:
                    continue
                a_out, b_out = np.zeros(maxm + 8, np.int64), np.zeros(maxm + 8, np.int64)
                a_s, b_s = s.copy(), s.copy()
                pn, ptl = ns[part](a_s, a_out, n, s[ns["SIDE"]], s[ns["PLY"]])
                (dn, rest) = call(lib, part, ok[part], b_s, b_out, n, s[ns["SIDE"]], s[ns["PLY"]])
                counts["legal_K calls"] += 1
                if pn != dn or bool(ptl) != bool(rest[0]) or not np.array_equal(a_out, b_out) \
                        or not np.array_equal(a_s, b_s):
                    bad += 1
                    print(f"{name} game {g} ply {ply}: {part} differs: n {pn} vs {dn}", flush=True)
                n = pn
            out = np.zeros(maxm + 8, np.int64)
            n = ns["legal"](s, out)
            if "legal" in ok:
                d_out = np.zeros(maxm + 8, np.int64)
                dn, _ = call(lib, "legal", "aa", s.copy(), d_out)
                if dn != n or not np.array_equal(out, d_out):
                    bad += 1
                    print(f"{name} game {g} ply {ply}: legal differs: {n} vs {dn}", flush=True)
            bad += ends(name, g, ply, lib, ok, ns, s, out, n, rng)
            if n == 0 or n > maxm or ns["outcome"](s, n, res, hist, 1) != 0 or s[over] != 0:
                break
            picks = [int(rng.integers(n))] + [int(i) for i in rng.integers(n, size=min(moves, n - 1))]
            for i in picks:
                m = out[i]
                counts["moves tried"] += 1
                a_s = s.copy()
                ns["apply"](a_s, m)
                for how in (["dos"] if dos else []) + (["apply"] if "apply" in ok else []):
                    b_s = s.copy()
                    if how == "dos":
                        for f in dos:
                            call(lib, f, ok[f], b_s, m, m & ns["AMASK"])
                            counts["dos_K calls"] += 1
                    else:
                        call(lib, "apply", "ai", b_s, m)
                    if not np.array_equal(a_s, b_s):
                        bad += 1
                        where = np.nonzero(a_s != b_s)[0][:5].tolist()
                        print(f"{name} game {g} ply {ply}: {how} of move {m} differs at {where}", flush=True)
            ns["apply"](s, out[picks[0]])
            if s[over] != 0:
                break
        print(f"{name} game {g}: {ply + 1} positions, last ply {s[ns['PLY']]}", flush=True)
    print(json.dumps({"ruleset": name, "checked": sorted(ok), "refused": sorted(refused), **counts,
                      "differences": bad}))
    return bad


def ends(name, g, ply, lib, ok, ns, s, out, n, rng) -> int:
    """outcome (its code and results), heuristic (each seat), weight_of (each move), pick_chance
    (a few draws) at this position, both ways; the count that differ."""
    bad, nplayers = 0, ns["NPLAYERS"]
    hist = np.zeros(8, np.int64)
    if "outcome" in ok:
        r_py, r_d = np.zeros(nplayers + 1), np.zeros(nplayers + 1)
        code = ns["outcome"](s.copy(), n, r_py, hist, 1)
        got, _ = call(lib, "outcome", ok["outcome"], s.copy(), n, r_d, hist, 1)
        if code != got or not np.array_equal(r_py, r_d):
            bad += 1
            print(f"{name} game {g} ply {ply}: outcome differs: {code} {r_py} vs {got} {r_d}", flush=True)
    if "heuristic" in ok:
        for p in range(nplayers):
            a, (b, _) = ns["heuristic"](s.copy(), p), call(lib, "heuristic", "ai", s.copy(), p)
            if a != b:
                bad += 1
                print(f"{name} game {g} ply {ply}: heuristic({p}) differs: {a} vs {b}", flush=True)
    for i in range(min(n, 8)):
        if "weight_of" in ok:
            a, (b, _) = ns["weight_of"](s.copy(), out[i]), call(lib, "weight_of", "ai", s.copy(), out[i])
            if a != b:
                bad += 1
                print(f"{name} game {g} ply {ply}: weight_of({out[i]}) differs: {a} vs {b}", flush=True)
    if "pick_chance" in ok and 0 < n <= ns["MAXM"]:
        for z in rng.integers(0, 2**63, size=3, dtype=np.int64):
            z = int(z) * 2 + int(rng.integers(2))  # the whole 64 bits
            a = ns["pick_chance"](s.copy(), out.copy(), n, np.uint64(z))
            b, _ = call(lib, "pick_chance", "aaiu", s.copy(), out.copy(), n, z - (1 << 64) if z >= 1 << 63 else z)
            if a != b:
                bad += 1
                print(f"{name} game {g} ply {ply}: pick_chance differs: {a} vs {b}", flush=True)
    return bad


def fn_text(text, name):
    tree = ast.parse(text)
    for n in tree.body:
        if isinstance(n, ast.FunctionDef) and n.name == name:
            return ast.unparse(n)
    return ""


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", choices=["check"])
    p.add_argument("ruleset")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--plies", type=int, default=400)
    p.add_argument("--moves", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    return 1 if check(a.ruleset, a.games, a.plies, a.moves, a.seed) else 0


if __name__ == "__main__":
    sys.exit(main())
