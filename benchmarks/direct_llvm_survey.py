"""Which game functions of the shipped rulesets' modules the direct prototype (ziggurat.interpreter.native.direct)
translates, and why it refuses the others.

    python benchmarks/direct_llvm_survey.py [RULESET ...]     # default: every shipped ruleset

The game's functions are a module's functions before its kernel (the `# ---- kernel.py` line):
legal (or legal_K), after_K, dos_K/do_N, apply, outcome, fold_K, weight_of, pick_chance,
heuristic, legal_parts... Each is translated alone, its parameters typed by use (a parameter
subscripted, or passed where a callee's parameter is an array, is a 1-D int64 array; the rest
int64). Translation only (no LLVM): the first construct refused per function, grouped.
"""

from __future__ import annotations

import ast
import collections
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ziggurat.interpreter.native.direct import Refused, Translator, plain_namespace  # noqa: E402


def array_params(defs: dict, name: str, memo: dict) -> set:
    if name in memo:
        return memo[name]
    memo[name] = set()
    fdef = defs[name]
    params = [a.arg for a in fdef.args.args]
    arrays = set()
    for n in ast.walk(fdef):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in params:
            arrays.add(n.value.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in params \
                and n.attr in ("shape", "ctypes", "size"):
            arrays.add(n.value.id)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs:
            callee = defs[n.func.id]
            inner = array_params(defs, n.func.id, memo)
            for arg, p in zip(n.args, callee.args.args):
                if isinstance(arg, ast.Name) and arg.id in params and p.arg in inner:
                    arrays.add(arg.id)
    memo[name] = arrays
    return arrays


def attempt(text, ns, tree, fdef, sig: str):
    """None if the function translates; else the refusal. The parameters' types are guessed from
    use (arrays of int64, scalars of int64); where a refusal names a parameter mixed with a uint64
    or a float stored in an int64 array, that parameter is retried as a uint64 / float64 array (the
    engine knows its callers' types: here only the text)."""
    params = [a.arg for a in fdef.args.args]
    for _ in range(4):
        try:
            Translator(text, ns, tree).module_ir({fdef.name: sig})
            return None
        except Refused as e:
            why = str(e)
        quoted = why.split(": ", 2)[-1]
        names = [p for p in params if re.search(rf"\b{p}\b", quoted)]
        letters = list(sig)
        if "uint64" in why:
            for p in names:
                if letters[params.index(p)] == "i":
                    letters[params.index(p)] = "u"
        elif "a f64 where a i64 is wanted" in why:
            for p in names:
                if letters[params.index(p)] == "a":
                    letters[params.index(p)] = "f"
        if "".join(letters) == sig:
            return why
        sig = "".join(letters)
    return why


def survey(name: str) -> dict:
    import ziggurat
    from ziggurat.interpreter.native.game import source
    try:
        text = source(ziggurat.load(name))[0]
    except Exception as e:  # Unsupported: no native module
        return {"ruleset": name, "no module": str(e)[:80]}
    head = text.split("# ---- kernel.py", 1)[0]
    tree = ast.parse(text)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    games = [n for n in ast.parse(head).body if isinstance(n, ast.FunctionDef)]
    ns = plain_namespace(text)
    memo: dict = {}
    ok, refused = [], {}
    for g in games:
        arrays = array_params(defs, g.name, memo)
        sig = "".join("a" if a.arg in arrays else "i" for a in defs[g.name].args.args)
        lines = (defs[g.name].end_lineno or 0) - defs[g.name].lineno + 1
        why = attempt(text, ns, tree, defs[g.name], sig)
        if why is None:
            ok.append((g.name, lines))
        else:
            refused[g.name] = (lines, why)
    return {"ruleset": name, "functions": len(games), "translated": len(ok),
            "lines translated": sum(n for _, n in ok), "lines refused": sum(n for n, _ in refused.values()),
            "refused": {k: v[1] for k, v in refused.items()}}


def reason(text: str) -> str:
    """A refusal's kind: its message without the line and the code quoted."""
    return re.sub(r"^line \d+: ", "", text).split(": '", 1)[0].split(': "', 1)[0]


def main(argv=None) -> int:
    from ziggurat.dsl.loader import shipped_names
    names = (argv if argv else None) or sys.argv[1:] or list(shipped_names())
    kinds = collections.Counter()
    where = collections.defaultdict(set)
    for name in names:
        row = survey(name)
        print(json.dumps(row), flush=True)
        for _f, why in row.get("refused", {}).items():
            kinds[reason(why)] += 1
            where[reason(why)].add(name)
    print("refusals by kind (functions, rulesets):")
    for k, c in kinds.most_common():
        print(f"  {c:4d}  {len(where[k]):3d}  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
