"""What the native search reads of one game, written into its native module beside `legal` and
`apply`: the ruleset's `heuristic` and nature's weights, beside the search kernel's
files (`search_kernel.py`: MCTS and alpha-beta; `search_ismcts.py`: information-set MCTS), which
`module.KERNEL` puts at the end of every module.

| name | what |
|---|---|
| `heuristic(s, mover)` | the ruleset's `heuristic:` of position s with `mover` as the side to move (a float) |
| `HAS_HEURISTIC`, `HEURISTIC_PER_MOVER` | whether the ruleset declares one, and whether it reads `mover` |
| `RESULTS_IN_POINTS` | whether results are points (`win P by K`, `win by NAME`): a cut playout is worth 0, not 0.5 |
| `HEURISTIC_MISSING` | "" or why this backend could not write it (the search then stays in Python) |
| `chance_weight(s, m)` | the weight of nature's move m at s (1.0 when every outcome is as likely) |
| `SEARCH_USES_LAST` | whether the rules read `last` (then the transposition key holds the last move) |

The heuristic is written by the native expression writer (`exprs.Exprs`), as every other
expression of the module, and read the way `agents.base.Evaluator` reads the Python one: once per
side with `mover` set to it when it names `mover`, else once from the first side's point of view.
The functions are compiled at their first call only, so a game whose search never runs pays nothing.
"""

from __future__ import annotations

from ...dsl import ir
from ...errors import Unsupported
from .code import Code

def reads_mover(expr) -> bool:
    return any(isinstance(n, ir.Global) and n.what == "mover" for n in ir.walk(expr))


def search_functions(writer) -> str:
    """The module text of the names in the table above, for one game's `NativeWriter` (call it
    before the writer lists its tables: the heuristic may add some)."""
    plan = writer.game.plan
    h = plan.heuristic
    missing = ""
    body = ["    return 0.0"]
    if h is not None:
        code = Code(writer.fresh)
        code("@njit(cache=True)")
        code("def heuristic(s, mover):")
        code.depth += 1
        code("ply = s[PLY]")
        try:
            value = writer.x.expr(h, {}, code)
        except Unsupported as why:
            where = why.where()
            missing = f"the heuristic's {why.what}" + (f" ({where})" if where != "?" else "")
        else:
            code(f"return np.float64({value})")
    if h is None or missing:
        text = "\n".join(["@njit(cache=True)", "def heuristic(s, mover):"] + body)
    else:
        text = code.text()
    weighted = any(p.chance and p.spec.weighted for p in writer.plans)
    weight = ["@njit(cache=True)", "def chance_weight(s, m):",
              "    return weight_of(s, m)" if weighted else "    return 1.0"]
    consts = [f"HAS_HEURISTIC = {h is not None!r}",
              f"HEURISTIC_PER_MOVER = {h is not None and reads_mover(h)!r}",
              f"HEURISTIC_MISSING = {missing!r}",
              f"SEARCH_USES_LAST = {bool(writer.x.uses_last)!r}",
              f"RESULTS_IN_POINTS = {bool(ir.scores_points(writer.game.plan.end or ()))!r}"]
    return "\n".join(consts) + "\n\n\n" + text + "\n\n\n" + "\n".join(weight)
