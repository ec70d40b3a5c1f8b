"""Compile cost of the direct prototype (ziggurat.interpreter.native.direct) per game function, against Numba's, and
the cold compile it projects.

    python benchmarks/direct_llvm_cost.py RULESET [--roots legal,apply] [--prof FILE]

Per function (each `legal_K`, `dos_K` and each root, in an LLVM module of its own with the helpers
it calls): CPU s of translating it (the module's `ast.parse` once, apart; the module's globals are
read from the plain-Python module, which the engine has anyway) and of llvmlite's parse, Numba's
O3 passes and machine code. Then the roots and all they reach in ONE module: what the engine
would compile. --prof: a file of /tmp/prompts/s43/prof.py's JSON lines (fresh processes, same
loops): Numba's own CPU s per function (median of the runs) beside each, and the projection:
Numba's cold compile (median) - Numba's CPU s of every function the roots reach + the one module
+ the ast.parse. Parameters are typed by use (direct_llvm_survey.array_params).
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ziggurat.interpreter.native.direct import Refused, Translator, compile_ir, exported, plain_namespace  # noqa: E402
from direct_llvm_check import written  # noqa: E402
from direct_llvm_survey import array_params  # noqa: E402


def reached(defs: dict, roots: list) -> set:
    seen, todo = set(), list(roots)
    while todo:
        f = todo.pop()
        if f in seen or f not in defs:
            continue
        seen.add(f)
        todo += [n.func.id for n in ast.walk(defs[f]) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    return seen


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ruleset", help="a shipped ruleset's name, or a module's .py file")
    p.add_argument("--roots", default="legal,apply")
    p.add_argument("--prof", default=None)
    a = p.parse_args(argv)
    text = Path(a.ruleset).read_text() if a.ruleset.endswith(".py") else written(a.ruleset)[0]
    ns = plain_namespace(text)
    t0 = time.process_time()
    tree = ast.parse(text)
    parse = time.process_time() - t0
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    memo: dict = {}

    def sig(f):
        arrays = array_params(defs, f, memo)
        return "".join("a" if x.arg in arrays else "i" for x in defs[f].args.args)
    roots = [r for r in a.roots.split(",") if r in defs]
    numba, numba_total = {}, None
    if a.prof:
        runs = [json.loads(line) for line in open(a.prof) if line.startswith("{")]
        names = {f for r in runs for f, _ in r["functions"]}
        numba = {f: statistics.median([dict(r["functions"]).get(f, 0.0) for r in runs]) for f in names}
        numba_total = statistics.median(r["native_cpu"] for r in runs)
    rows, funcs = [], [f for f, _ in exported(text)] + [r for r in roots if r not in dict(exported(text))]
    for f in funcs:
        t = time.process_time()
        try:
            tr = Translator(text, ns, tree)
            ir = tr.module_ir({f: sig(f)})
        except Refused as why:
            print(json.dumps({"function": f, "refused": str(why)}))
            continue
        b = time.process_time()
        times: dict = {}
        compile_ir(ir, tr, times)
        row = {"function": f, "py lines": defs[f].end_lineno - defs[f].lineno + 1, "translate": b - t, **times,
               "direct": time.process_time() - t, "numba": numba.get(f)}
        rows.append(row)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
    t = time.process_time()
    tr = Translator(text, ns, tree)
    ir = tr.module_ir({r: sig(r) for r in roots})
    b = time.process_time()
    times = {}
    compile_ir(ir, tr, times)
    one = time.process_time() - t
    reach = reached(defs, roots)
    out = {"one module of": roots, "functions in it": len(reach), "translate": round(b - t, 3),
           **{k: round(v, 3) for k, v in times.items()}, "total": round(one, 3), "ast.parse": round(parse, 3),
           "sum of per-function modules": round(sum(r["direct"] for r in rows), 3)}
    if numba:
        replaced = sum(numba.get(f, 0.0) for f in reach)
        out.update({"numba cold compile (median)": round(numba_total, 3),
                    "numba CPU s of the functions reached": round(replaced, 3),
                    "projected cold compile": round(numba_total - replaced + one + parse, 3),
                    "numba per-function sum of rows": round(sum(r["numba"] or 0 for r in rows), 3)})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
