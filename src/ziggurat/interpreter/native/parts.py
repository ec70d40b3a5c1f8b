"""A turn drawn part by part, for the native module: `legal_parts(s, out, depth, fixed)` and the
table `PFINAL`, read by the kernel's `draw_parts` (the rollout policy `parts`).

A move's parts are its action's leading choices of one value each (a cell, a number, a piece...),
in the order the action states them, up to the first list, repeated part or after-block choice;
whatever follows is one last part with them. `legal_parts(s, out, depth, fixed)` lists, packed as
`legal` packs them:

- depth 0: for each action (grouped by priority as `legal` groups them) and each value of its
  first part, the first complete move found with that value: one move a value that has at least
  one completion (an action without parts: its moves);
- depth d > 0: the moves of `fixed`'s action whose first d parts are `fixed`'s, one a value of
  part d when d < PFINAL[action], else all of them (the last draw: whole moves).

So a first draw picks an action and its first part uniformly among those that lead somewhere,
the next the second part among the values left, and so on; an action whose parts are all of one
value each ends one draw earlier (its last part's values are its moves). This is a different
random process from uniform over whole turns (a part with few completions is drawn as often as
one with many): the way a game that takes a piece, its destination and a shot as three decisions
draws them.

The code is `legal.Legal`'s walk with three changes: a part's loop keeps only `fixed`'s value
while depth is past it; under the part being drawn, each deeper part's loop stops once a
completion is found (`found`); the move is listed once a value.
"""

from __future__ import annotations

from ...dsl import ir
from ...dsl import types as T
from .. import steps as P
from ..names import pyname
from . import fuse, occupancy
from .code import Code
from .legal import Legal


def parts_of(plan, codec) -> list:
    """The names of the action's parts: its leading top-level choices of one value each."""
    a = plan.index
    fields, after = codec.fields[a], codec.after[a]
    top = [s.name for s in plan.steps if isinstance(s, P.Choose)]
    names = []
    for k, (name, typ) in enumerate(plan.spec.choices):
        if (after is not None and k >= after) or fields[k].is_list or T.is_list(typ) or k >= len(top) \
                or top[k] != name:
            break
        names.append(name)
    return names


def final_depth(plan, codec) -> int:
    """The depth at which the draw lists whole moves: the last part's, when nothing follows it."""
    k = len(parts_of(plan, codec))
    rest = len(plan.spec.choices) > k  # lists, passes or after-block choices follow
    return k if rest or k == 0 else k - 1


class PartsLegal(Legal):
    """Writes `legal_parts` (see the module's text) with `legal.Legal`'s walk."""

    def __init__(self, w):
        super().__init__(w)
        self.part_index: dict = {}  # the plan being written: part name -> its index
        self.offsets: dict = {}  # part name -> (bit offset, mask, bias) in a packed move
        self.final = 0
        self.fixing = None  # (index, value in fixed) of the part whose loop is being opened
        self.stopping = None  # (choice, index) of a part below the first whose loops are opened next

    def write(self) -> str:
        codec = self.moves.codec
        finals = [final_depth(p, codec) for p in self.w.plans]
        code = Code(self.w.fresh)  # its buffers go right after the def line (Code.text)
        code("@njit(cache=True)")
        code("def legal_parts(s, out, depth, fixed):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("n = 0")
        code("found = False")
        self.by_priority(code, lambda plans: self.write_group(plans, code, codec))
        return f"PFINAL = np.array({finals or [0]!r}, dtype=np.int64)\n\n\n" + code.text()

    def write_group(self, plans: list, code: Code, codec) -> None:
        """One priority group's actions, each listed part by part."""
        for p in plans:
            self.plan = p
            names = parts_of(p, codec)
            self.part_index = {nm: k for k, nm in enumerate(names)}
            self.final = final_depth(p, codec)
            self.offsets, o = {}, codec.abits
            for nm, f in zip(names, codec.fields[p.index]):
                self.offsets[nm] = (o, f.mask, f.bias)
                o += f.width
            with code.at(p.pos):
                code(f"# action {p.spec.name}")
                code(f"if depth == 0 or (fixed & AMASK) == {p.index}:")
                code.depth += 1
                code("found = False")
                self.gen(list(p.steps), 0, {}, code)
                code.depth -= 1

    def choose(self, s: P.Choose, steps: list, i: int, env: dict, code: Code) -> None:
        k = self.part_index.get(s.name)
        if k is None or self.in_after:
            super().choose(s, steps, i, env, code)
            return
        # the part's loop as Legal writes it, with its guard: a Guard step wrapping the rest
        var = pyname(s.name)
        o, mask, bias = self.offsets[s.name]
        value = f"(((fixed >> {o}) & {mask}) + {bias})" if bias else f"((fixed >> {o}) & {mask})"
        hook = _PartHook(k, var, value, self.final)
        if isinstance(s.domain, ir.Global) and s.domain.what == "cells" \
                and fuse.cells_by_line(ir.CompFor(s.name, s.domain, s.cond)) is None:
            self.fixing = (k, value)  # its loop is opened next (open_choice)
        self.stopping = (s, k) if k else None
        super().choose(s, [*steps[:i + 1], hook, *steps[i + 1:]], i, env, code)
        self.stopping = None

    def open_choice(self, s: P.Choose, var: str, env: dict, code: Code) -> tuple:
        """A part over the board's cells, once past it (depth > its index), loops over `fixed`'s
        value alone instead of every cell: the same moves, the one value that the guard below
        lets through (a cell comes once in `cells`)."""
        fixing, self.fixing = self.fixing, None
        if fixing is None:
            levels, cond = super().open_choice(s, var, env, code)
            if self.stopping is not None and self.stopping[0] is s:
                # a part's values over several loops (a ray's directions, then its cells): once a
                # completion is found under the part drawn, the outer loops end too (the hook's
                # break ends the innermost: each later direction would stop at its first cell)
                for level in levels[:-1]:
                    level += [f"if found and depth < {self.stopping[1]}:", "    break"]
            return levels, cond
        k, value = fixing
        lo = code.fresh("lo")
        code(f"{lo} = {value} if depth > {k} else 0")
        own = occupancy.bit_choice(self.x, s.domain, s.cond, s.name)
        if own is not None:  # the mover's own cells (their bits), or the drawn one's bit alone
            return occupancy.open_own(var, self.x, code, (f"depth > {k}", lo), own[1]), own[0]
        code(f"for {var} in range({lo}, {lo} + 1 if depth > {k} else NC):")
        code.depth += 1
        return [[]], s.cond

    def gen(self, steps: list, i: int, env: dict, code: Code) -> None:
        if i < len(steps) and isinstance(steps[i], _PartHook):
            h = steps[i]
            # a part past depth: fixed's value only; under the part drawn: stop at a completion
            if h.k:
                code(f"if found and depth < {h.k}:")
                code("    break")
            code(f"if depth <= {h.k} or {h.var} == {h.value}:")
            code.depth += 1
            if h.k < h.final:
                code(f"if depth == {h.k}:")
                code("    found = False")
            self.gen(steps, i + 1, env, code)
            code.depth -= 1
            return
        super().gen(steps, i, env, code)

    def add(self, env: dict, code: Code) -> None:
        if self.in_after:
            super().add(env, code)
            return
        code(f"if depth >= {self.final} or not found:")
        code.depth += 1
        super().add(env, code)
        code(f"found = depth < {self.final}")
        code.depth -= 1

    def after_part(self, s: P.AfterPart, env: dict, code: Code) -> None:
        before = code.fresh("pb")
        code(f"if depth >= {self.final} or not found:")
        code.depth += 1
        code(f"{before} = n")
        super().after_part(s, env, code)
        code(f"if depth < {self.final} and n > {before}:")  # one completion a value
        code(f"    n = {before} + 1")
        code("    found = True")
        code.depth -= 1


class _PartHook:
    """Where a part's value is bound: the writer's own step (see PartsLegal.gen)."""

    def __init__(self, k: int, var: str, value: str, final: int):
        self.k, self.var, self.value, self.final = k, var, value, final
        self.pos = None


def parts_function(w) -> str:
    """The text of `PFINAL` and `legal_parts` of a game (`w`: its NativeWriter)."""
    return PartsLegal(w).write()
