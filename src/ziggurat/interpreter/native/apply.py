"""Making a move, for the native module: `do_N(s, m)` for each action, `apply(s, m)`, the after
block's `after_do_K`, and nature's `pick_chance` with `weight_of`.

`do_N` reads the move's choices back from the packed move (`moves.Moves.unpack`), then makes the
action's effects in place, as the Python backend's `python.apply` makes them: one `match` over
the step kinds (`Apply.steps`), binding only the names the effects read (`needed_lets`). Every
write to the position goes through `effects.Statements`, which records the writes that would
bypass the kept hash; the few that are this room's own (the side, ply and last move) too.
"""

from __future__ import annotations

import ast

from .. import steps as P
from ..facts import needed_lets
from .code import Code, fail
from .legal import PART
from .moves import Offset
from .sets import turn_end


INLINED_DO_LINES = 400  # do_N of more lines than this together are called by apply, not inlined
GROUP_STATEMENTS = 140  # about the most statements of one function holding called do_N's bodies (`Apply.groups`)
INLINED = '@njit(cache=True, inline="always", internal=True)'


class Apply:
    """Writes the functions that make the moves of one game (`w`: its NativeWriter)."""

    def __init__(self, w):
        self.w, self.x, self.stmts, self.moves = w, w.x, w.stmts, w.moves
        self.needed: set = set()  # the lets the effects being written read
        self.grouped: list = []  # (first action, dos_K) of the groups of called do_N (`groups`)

    def dos(self) -> list:
        """`do_N` of every action: inlined into `apply` (Numba's inlining) while they are few
        lines together (every shipped game but one), else called: Numba lowers an inlined
        function as part of its caller, whose analyses it reruns at each inlining, and the
        43 `do_N` of a shipped game (1,400 lines) made `apply` a third of its compile time.
        Called, each is compiled alone (LLVM still inlines the small ones)."""
        texts = [self.do(p) for p in self.w.plans]
        self.grouped = []
        if sum(t.count("\n") + 1 for t in texts) <= INLINED_DO_LINES:
            return texts
        return self.groups(texts)

    def groups(self, texts: list) -> list:
        """The called do_N written together, consecutive actions in functions `dos_K(s, m, a)` of
        about GROUP_STATEMENTS statements (about 150 lines; statements, which a long line broken in
        two does not change), one branch per action holding its do_N's body: Numba compiles
        each function with a cost of its own besides its size's (the passes, an LLVM module,
        its machine code; a 20-line do_N cost as much as 0.09 CPU s cold), which a shipped
        game's 43 do_N paid 43 times. A body is a do_N's, its lines one level deeper; the
        bodies share no local but `mover`, `ply` and `nxt`, of the same type in each, and each
        `return` of a do_N returns from its branch alone (nothing follows the branches).
        `self.grouped`: (first action, dos_K) of each, the actions in order."""
        groups: list = []  # [[(action, body), ...], statements]
        for p, text in zip(self.w.plans, texts):
            body = text.split("\n", 2)[2]  # below the decorator and the def
            size = sum(isinstance(node, ast.stmt) for node in ast.walk(ast.parse(text))) - 1
            if groups and groups[-1][1] + size <= GROUP_STATEMENTS:
                groups[-1][0].append((p.index, body))
                groups[-1][1] += size
            else:
                groups.append([[(p.index, body)], size])
        out = []
        for k, (members, _) in enumerate(groups):
            code = [f"@njit(cache=True, {PART})", f"def dos_{k}(s, m, a):"]
            for j, (index, body) in enumerate(members):
                code.append(f"    {'if' if j == 0 else 'elif'} a == {index}:")
                code += ["    " + line if line else line for line in body.split("\n")]
            out.append("\n".join(code))
            self.grouped.append((members[0][0], f"dos_{k}"))
        return out

    def do(self, p) -> str:
        code = Code(self.w.fresh)
        code(INLINED)
        code(f"def do_{p.index}(s, m):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("nxt = NEXT[mover]")
        self.needed = needed_lets(p)
        with code.at(p.pos):
            code(f"# action {p.spec.name}")
            off = Offset(code, self.moves.codec.abits)
            env = self.moves.unpack(p, 0, self.moves.own_choices(p), off, {}, code)
            self.steps(p, list(p.steps), env, off, code)
            turn_end(self.stmts, self.w.game.plan, env, code)
            self.stmts.call(code, "put", "SIDE", "nxt")
            self.stmts.store(code, "PLY", "ply + 1")
            self.stmts.store(code, "LAST", "m")
        return code.text()

    def steps(self, p, steps: list, env: dict, off: Offset, code: Code, guards: bool = False) -> None:
        """The effects of a move (its choices bound in env), as python.apply makes them."""
        depth = code.depth
        for s in steps:
            with code.at(s.pos):
                match s:
                    case P.Bind():
                        if s.var in self.needed:
                            env = self.stmts.bind(s.var, s.value, env, code)
                    case P.Apply() | P.Stage():
                        self.stmts.block(s.body, env, code)
                    case P.Guard():
                        if guards:  # an after part without choices: applied where it holds
                            code(f"if {self.x.expr(s.cond, env, code)}:")
                            code.depth += 1
                    case P.AfterPart():
                        if s.has_choices:
                            code(f"nxt = after_do_{self.w.after_number(s, p)}(s, m, {off.at()}, mover, ply, nxt)")
                        else:
                            self.steps(p, list(s.steps), env, off, code, guards=True)
                    case P.Repeat():
                        env = self.repeat(s, env, code)
                    case P.Choose() | P.Measure():
                        pass
                    case _:
                        fail(s)
        if code.depth > depth:
            code("pass")
            code.depth = depth

    def repeat(self, s: P.Repeat, env: dict, code: Code) -> dict:
        """The passes of a repeat, one loop turn each, over the values the move holds."""
        x = self.x
        path = env[s.choice]
        at, prev, j = code.fresh("at"), code.fresh("prev"), code.fresh("j")
        code(f"{at} = {x.expr(s.start, env, code)}")
        code(f"{prev} = -1")
        lists = {}
        for lst, _local in s.earlier:
            lists[lst] = code.fresh("earlier")
            code.buffer(lists[lst], x.caps[path])
            x.caps[lists[lst]] = x.caps[path]
        code(f"for {j} in range({path}_n):")
        code.depth += 1
        inner = {**env, s.var: at, s.choice: f"{path}[{j}]"}
        if s.previous:
            inner[s.previous] = prev
        for lst, buf in lists.items():
            code(f"{buf}_n = {j}")
            inner[lst] = buf
        for st in s.steps:
            with code.at(st.pos):
                match st:
                    case P.Bind():
                        inner = self.stmts.bind(st.var, st.value, inner, code)
                    case P.Stage() | P.Apply():
                        self.stmts.block(st.body, inner, code)
        for lst, local in s.earlier:
            code(f"{lists[lst]}[{j}] = {x.expr(local, inner, code)}")
        code(f"{prev} = {at}")
        code(f"{at} = {path}[{j}]")
        code.depth -= 1
        return {**env, s.var: at}

    def apply(self) -> str:
        code = Code(self.w.fresh)
        code("@njit(cache=True)")  # a call: inlined, it would be compiled again in each loop
        code("def apply(s, m):")
        code.depth += 1
        code("a = m & AMASK")
        if self.grouped:  # the actions in order, each group's from its first on
            for k, (first, fn) in enumerate(reversed(self.grouped)):
                code(f"{'if' if k == 0 else 'elif'} a >= {first}:")
                code(f"    {fn}(s, m, a)")
            return code.text()
        for k, p in enumerate(self.w.plans):
            with code.at(p.pos):
                code(f"{'if' if k == 0 else 'elif'} a == {p.index}:")
                code(f"    do_{p.index}(s, m)")
        if not self.w.plans:
            code("pass")
        return code.text()

    # ---- the after block: one function for every action ------------------------------------------

    def after_function(self, k: int, part: P.AfterPart, plan) -> str:
        """`after_do_K(s, m, o0, mover, ply, nxt)`: the after block's effects, when the move holds
        its choices (from bit o0); returns the side to move next."""
        saved = self.needed
        try:
            code = Code(self.w.fresh)
            code("@njit(cache=True, internal=True)")
            code(f"def after_do_{k}(s, m, o0, mover, ply, nxt):")
            code.depth += 1
            code("if (m >> o0) & 1:")
            code.depth += 1
            off = Offset(code, None)
            code(f"{off.var} = o0 + 1")
            self.needed = needed_lets(plan)
            after = self.w.game.plan.after
            with code.at(after.pos if after is not None else part.pos):
                env = self.moves.unpack(plan, self.moves.codec.after[plan.index], len(plan.spec.choices), off, {}, code)
                self.steps(plan, list(part.steps), env, off, code)
            code.depth -= 1
            code("return nxt")
            return code.text()
        finally:
            self.needed = saved

    # ---- nature's moves: drawn by their weights -----------------------------------------------------

    def weight(self) -> str:
        """`pick_chance(s, buf, n, z)`: the index of nature's move among the n in buf, drawn with
        the random word z: `z mod n` when every outcome is as likely as the others, else by the
        weights (`weight` of each move, at this position), z's top 53 bits as a fraction."""
        code = Code(self.w.fresh)
        code("@njit(cache=True)")
        code("def pick_chance(s, buf, n, z):")
        code.depth += 1
        weighted = [p for p in self.w.plans if p.chance and p.spec.weighted]
        if not weighted:
            code("return np.int64(z % np.uint64(n))")
            return code.text()
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("total = 0.0")
        code("w = np.empty(n, np.float64)")
        code("for i in range(n):")
        code("    w[i] = weight_of(s, buf[i])")
        code("    total += w[i]")
        code("r = np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total")
        code("for i in range(n):")
        code("    r -= w[i]")
        code("    if r < 0.0:")
        code("        return i")
        code("return n - 1")
        text = code.text()
        code = Code(self.w.fresh)
        code("@njit(cache=True)")
        code("def weight_of(s, m):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("a = m & AMASK")
        for p in weighted:
            with code.at(p.pos):
                code(f"if a == {p.index}:")
                code.depth += 1
                self.weight_of(p, code)
                code.depth -= 1
        code("return 1.0")
        return code.text() + "\n\n\n" + text

    def weight_of(self, p, code: Code) -> None:
        """The weight of a move of nature's action p: its choices unpacked, the lets before the
        `weight` line bound."""
        self.needed = set()
        measure = next(st for st in p.steps if isinstance(st, P.Measure) and st.kind == "weight")
        off = Offset(code, self.moves.codec.abits)
        env = self.moves.unpack(p, 0, self.moves.own_choices(p), off, {}, code)
        for st in p.steps:
            if st is measure:
                break
            with code.at(st.pos):
                match st:
                    case P.Bind():
                        env = self.stmts.bind(st.var, st.value, env, code)
                    case P.Stage() | P.Repeat():
                        fail(st, "a weight after effects or a repeated part")
        with code.at(measure.pos):
            code(f"return np.float64({self.x.expr(measure.value, env, code)})")
