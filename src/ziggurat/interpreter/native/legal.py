"""Legal moves, for the native module: `legal(s, out)`, and the after block's `after_K`.

`legal(s, out)` writes every legal move of the position, packed (`moves.Moves.pack`), into `out`
and returns how many there are (more than `MAXM`: too many to hold; the loop stops). Each choice
is a loop and each condition an `if`, in the order the action states them, as in the Python
backend (`python.generate`), one `match` over the step kinds (`Legal.gen`); the actions are
grouped by priority, nature's first and `otherwise` last. Effects that more choices follow
(`Stage`) are made on the position and taken back: by their inverse where `undo` can write one,
else from a copy; a repeated part's passes are searched with a stack of levels, not by recursion
(Numba's cache and recursion do not mix).
"""

from __future__ import annotations

from ...dsl import ir
from ...dsl import types as T
from ...errors import Unsupported
from .. import steps as P
from ..names import pyname
from ..facts import MAX_PASSES
from . import after_cells, fuse, lets, narrow
from .code import Code, fail
from .layout import MOVE_BITS
from .moves import Offset
from .undo import Undo, invertible


SPLIT_LINES = 650  # a `legal` of more lines than this (as written, before long ones are broken) is split into
# functions (`Legal.split`). The largest shipped `legal`, 738 lines once its never-run actions are left
# out: whole, the same CPU s cold (three interleaved runs each), but a peak of 324 MB against 259 split.
PART_LINES = 150  # about the most lines of one of them (an action longer than this: its own)
# A part of a large function (a split `legal`'s `legal_K`, `apply`'s `dos_K`): compiled on its own,
# with machine code, and called by its symbol when large (`numbacache.Shared`), without Python's wrapper. Linked
# into the function (`internal=True`), it was optimised by LLVM again there, with every other part: a
# shipped ruleset's `legal` spent 0.64 CPU s in module passes over its nine linked parts, its `apply`
# 0.31 over seven. A part is called once per call of the function: not inlined, it costs a call.
PART = "shared=True, no_cpython_wrapper=True"


class Hook:
    """A step of the writer's own: call fn(env, code) where the steps before it all hold."""

    def __init__(self, fn):
        self.fn = fn


def count_stages(steps) -> int:
    """The most Stages one path through the steps passes that save a copy of the position (the
    others are taken back by their inverse: `undo`)."""
    n = 0
    for s in steps:
        match s:
            case P.Stage():
                n += not invertible(s.body)
            case P.Repeat():
                n += count_stages(s.steps)
    return n


class Legal:
    """Writes `legal` and the after functions `after_K` of one game (`w`: its NativeWriter)."""

    def __init__(self, w):
        self.w, self.x, self.loops, self.stmts, self.moves = w, w.x, w.x.loops, w.stmts, w.moves
        self.layout = w.layout
        self.undo = Undo(w.stmts, w)
        self.plan = None  # the action being written
        self.stage = 0  # the Stages open around the code being written
        self.in_after = False  # writing an after function: the action's part of the move is given
        self.sink = None  # fn(m, code) writing a fused action's move (see fuse), else out[n]
        after = w.game.plan.after
        self.after_pos = after.pos if after is not None else None  # the after block's rules line
        self.masks: dict = {}  # K -> after_cells.find's answer, for an after_K whose first list is kept
        self.base_at = None  # (code, line) where legal computes after_list_K's mask once, else None
        self.bases: dict = {}  # K -> the local holding that mask in the function written
        self.statements = 0  # the lines of the whole `legal` last written, before long ones are broken
        self.written: list = []  # per Stage open around the code written: the cells it wrote, None unknown

    def legal(self) -> str:
        """`legal(s, out)`: one function, or, past SPLIT_LINES, one calling `legal_K` (see split)."""
        text = self.whole(lambda plans, code: fuse.write_group(self, plans, code))  # some sharing a loop
        if self.statements < SPLIT_LINES:  # its lines as written, before long ones are broken
            return text
        parts: list = []
        text = self.whole(lambda plans, code: self.split(plans, code, parts), kept=False)
        return "\n\n\n".join(parts + [text])

    def whole(self, write_group, kept: bool = True) -> str:
        """`legal`; `kept`: an after block's first list kept across the candidates (after_cells)."""
        code = Code(self.w.fresh)
        code("@njit(cache=True)")
        code("def legal(s, out):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("n = 0")
        self.base_at, self.bases = ((code, len(code.lines)) if kept else None), {}
        try:
            self.by_priority(code, lambda plans: write_group(plans, code))
        finally:
            self.base_at = None
        self.statements = len(code.lines)
        return code.text()

    def split(self, plans: list, code: Code, parts: list) -> None:
        """One priority group's moves written as calls of functions `legal_K(s, out, n, mover,
        ply[, saved])` -> (n, toolong), each holding the moves of consecutive actions (a fused
        pair whole) up to about PART_LINES lines. Numba's and LLVM's work on a function grows
        faster than its size (its analyses are rerun over the whole function after each
        rewrite), and a shipped game's `legal` of 1,238 lines was a third of its compile time;
        the parts are compiled one by one and linked. Each part calls its helpers, as the
        whole did (`njit(inlines=False)`): inlined into every part, they made a 566-line legal
        a quarter slower to compile and its playouts 7% slower, so only a legal above
        SPLIT_LINES is split. The moves, their order and `n` are the same."""
        chunks: list = []
        for item in fuse.items(plans):
            sub = Code(self.w.fresh)
            sub.depth = 1
            fuse.write_item(self, item, sub)
            if chunks and len(chunks[-1][1].lines) + len(sub.lines) <= PART_LINES:
                chunks[-1][0].extend(item)
                chunks[-1][1].lines.extend(sub.lines)
                for name, shape in sub.top.items():
                    chunks[-1][1].buffer(name, *shape)
            else:
                chunks.append((list(item), sub))
        for group, body in chunks:
            k = len(self.w.split_legal)
            self.w.split_legal.append(k)
            stages = max(count_stages(p.steps) for p in group)
            args = "s, out, n, mover, ply" + (", saved" if stages else "")
            fn = Code(self.w.fresh, body.top)
            fn(f"@njit(cache=True, inlines=False, {PART})")  # as the whole legal: it calls its helpers
            fn(f"def legal_{k}({args}):")
            fn.depth = 1
            fn("toolong = False")
            if stages:
                fn("nxt = NEXT[mover]")
            fn.lines.extend(body.lines)
            fn("return n, toolong")
            parts.append(fn.text())
            tl = code.fresh("tl")
            with code.at(group[0].pos):
                code(f"n, {tl} = legal_{k}({args})")
            if self.moves.lists:
                code(f"if {tl}:")
                code("    toolong = True")

    def by_priority(self, code: Code, write_group) -> None:
        """The moves of every action into `out`, group by group of priority (`write_group(plans)`
        writes one group's), nature's first and `otherwise` last: a group that has moves is the
        answer; then `return n`."""
        lists = self.moves.lists
        stages = max([count_stages(p.steps) for p in self.w.plans] + [0])
        if lists:
            code("toolong = False")  # a move too long to pack: the loop stops (OVER = 2)
        if stages:  # effects made while generating are taken back from a copy of the position
            code("nxt = NEXT[mover]")
            code.buffer("saved", stages, self.layout.size)  # with the function's other buffers: one allocation
        self.stage = 0
        groups: dict = {}
        for p in self.w.plans:
            # nature's moves first (where it has one, no one else moves), `otherwise` last
            groups.setdefault(-1e18 if p.chance else 1e9 if p.fallback else -p.priority, []).append(p)
        for gi, key in enumerate(sorted(groups)):
            if gi:
                code("if n > 0:")
                if lists:
                    code("    if toolong:")
                    code("        s[OVER] = 2")
                code("    return n")
            write_group(groups[key])
        if lists:
            code("if toolong:")
            code("    s[OVER] = 2")
        code("return n")

    # ---- the walk: one step kind a case ---------------------------------------------------------

    def gen(self, steps: list, i: int, env: dict, code: Code) -> None:
        """Write steps[i:], then the move made so far where they all hold."""
        if i == len(steps):
            self.add(env, code)
            return
        s, x = steps[i], self.x
        with code.at(getattr(s, "pos", None)):
            match s:
                case P.Guard():
                    test = x.expr(s.cond, env, code)
                    if test == "False":  # never holds (an option's constant): the steps after it not written
                        return
                    code(f"if {test}:")
                    code.depth += 1
                    self.gen(steps, i + 1, env, code)
                    code.depth -= 1
                case P.Bind() if not lets.needed(s, steps, i, self.plan):
                    self.gen(steps, i + 1, env, code)  # read by no later step of the listing
                case P.Bind():
                    self.gen(steps, i + 1, self.stmts.bind(s.var, s.value, env, code), code)
                case P.AfterPart():
                    if i != len(steps) - 1:
                        fail(s)
                    self.after_part(s, env, code)
                case P.Choose():
                    self.choose(s, steps, i, env, code)
                case P.Apply() | P.Measure():
                    self.gen(steps, i + 1, env, code)
                case P.Stage() if invertible(s.body):  # made, the later choices listed, taken back
                    self.undo.cells = []
                    back = self.undo.forward(s.body, env, code)
                    self.written.append(self.undo.cells)
                    self.gen(steps, i + 1, env, code)
                    self.written.pop()
                    for line in back:
                        code(line)
                case P.Stage():
                    k = self.stage
                    self.stage += 1
                    code(f"copy_state(saved[{k}], s)")
                    self.stmts.block(s.body, env, code)
                    self.written.append(None)
                    self.gen(steps, i + 1, env, code)
                    self.written.pop()
                    code(f"copy_state(s, saved[{k}])")
                    self.stage -= 1
                case P.Repeat():
                    self.written.append(None)
                    self.repeat(s, steps, i, env, code)
                    self.written.pop()
                case Hook():
                    s.fn(env, code)
                case _:
                    fail(s)

    def choose(self, s: P.Choose, steps: list, i: int, env: dict, code: Code) -> None:
        """A loop over the choice's values (where its `where` holds), the rest of the steps inside."""
        x = self.x
        var, cond = pyname(s.name), s.cond
        if T.is_list(s.type):
            levels = self.choose_list(s, var, env, code)
        elif s.domain.type == T.ZONE:  # one move per kind of piece the zone holds, first come first
            z, k, j, dup = code.fresh("z"), code.fresh("k"), code.fresh("j"), code.fresh("dup")
            code(f"{z} = ZON + {x.zone(s.domain, env, code)} * ZW")
            code(f"for {k} in range(s[{z}]):")
            code.depth += 1
            code(f"{var} = s[{z} + 1 + {k}]")
            code(f"{dup} = False")
            code(f"for {j} in range({k}):")
            code(f"    if s[{z} + 1 + {j}] == {var}:")
            code(f"        {dup} = True")
            code("        break")
            code(f"if not {dup}:")
            code.depth += 1
            levels = [[], []]
        elif (found := narrow.find(self, s, steps, i, env)) is not None:  # the cells of a ray, a line...
            sets, cond, steps = found
            levels = narrow.open_marked(self, sets, var, env, code)
        else:
            levels, cond = self.open_choice(s, var, env, code)
        inner = {**env, s.name: var}
        if cond is not None:
            code(f"if {x.expr(cond, inner, code)}:")
            code.depth += 1
            levels.append([])
        self.gen(steps, i + 1, inner, code)
        self.loops.close_loop(levels, code)

    def open_choice(self, s: P.Choose, var: str, env: dict, code: Code) -> tuple:
        """The loop(s) over a choice's values, and what is left of its `where` to test inside."""
        return self.loops.open_where(s.name, s.domain, s.cond, var, env, code)

    def after_part(self, s: P.AfterPart, env: dict, code: Code) -> None:
        """The action's part of the move, then the after block's moves (one function for every
        action), else the move without them."""
        if not s.has_choices:  # it decides nothing in the move: one move either way
            self.add(env, code)
            return
        plan = self.plan
        head, off = self.moves.pack(plan, env, code, 0, self.moves.codec.after[plan.index])
        if off.static is None:  # the presence bit must fit too
            code(f"if {off.var} + 1 > {MOVE_BITS}:")
            code("    toolong = True")
        elif off.static + 1 > MOVE_BITS:
            raise Unsupported(f"a move of more than {MOVE_BITS} bits ({plan.spec.name})", plan.pos)
        before, tl = code.fresh("before"), code.fresh("tl")
        code(f"{before} = n")
        k = self.w.after_number(s, plan)
        found = self.w.legal.masks.get(k)
        kept = ""
        guarded = found is not None and after_cells.empty_adds_nothing(found)  # an empty list: no move
        if found is not None:  # its first list's mask, from legal's (after_cells)
            kept = code.fresh("mask")
            code(f"{kept} = after_list_{k}(s, mover, {self.base(k, code)})")
            if guarded:
                code(f"if {kept} != 0:")
                code.depth += 1
            kept = ", " + kept
        code(f"n, {tl} = after_{k}(s, out, n, {head}, {off.at()}, mover, ply{kept})")
        if self.moves.lists:
            code(f"if {tl}:")
            code("    toolong = True")
        if guarded:
            code.depth -= 1
        code("if True:" if s.may_decline else f"if n == {before}:")  # declinable: the move without it too
        code("    if n < MAXM:")
        code(f"        out[U(n)] = {head}")  # U: n is not below 0 (kernel.py)
        code("    n += 1")

    def base(self, k: int, code: Code) -> str:
        """after_list_K's arguments `base, dirty` (see after_cells): the mask at legal's position
        (computed once, at legal's top) and the cells the Stages open here wrote; else 0, -1 (not
        known: every cell)."""
        if self.base_at is None or any(cells is None for cells in self.written):
            return "0, -1"
        if k not in self.bases:
            top, at = self.base_at
            self.bases[k] = code.fresh("base")
            top.lines.insert(at, (1, f"{self.bases[k]} = after_list_{k}(s, mover, 0, -1)", self.after_pos))
        dirty = code.fresh("dirty")
        code(f"{dirty} = 0")
        for c in (c for cells in self.written for c in cells):
            code(f"{dirty} |= (np.int64(1) << {c}) if {c} >= 0 else -1")  # int64 as plain Python too
        return f"{self.bases[k]}, {dirty}"

    def add(self, env: dict, code: Code) -> None:
        """Pack the move made so far into out[n] (see layout.Codec); n counts it even when out is full."""
        plan, codec = self.plan, self.moves.codec
        with code.at(self.after_pos if self.in_after else plan.pos):
            if self.in_after:  # in an after function: the head is given
                m, off = code.fresh("m"), Offset(code, None)
                code(f"{m} = head | (1 << o0)")
                code(f"{off.var} = o0 + 1")
                a = plan.index
                m, off = self.moves.pack(plan, env, code, codec.after[a], len(codec.fields[a]), m, off)
            else:
                m, off = self.moves.pack(plan, env, code, 0, len(plan.spec.choices))
            if off.static is None:
                code(f"if {off.var} > {MOVE_BITS}:")
                code("    toolong = True")
            if self.sink is not None:
                self.sink(m, code)
                return
            code("if n < MAXM:")
            code(f"    out[U(n)] = {m}")  # U: n is not below 0 (kernel.py)
            code("n += 1")

    # ---- the after block: one function for every action ------------------------------------------

    def after_function(self, k: int, part: P.AfterPart, plan) -> str:
        """`after_K(s, out, n, head, o0, mover, ply)`: the after block's moves, each the action's
        part of the move (`head`, its fields up to bit o0) with the after block's choices."""
        saved = self.plan, self.stage, self.in_after
        self.plan, self.stage, self.in_after = plan, 0, True
        try:
            found = after_cells.find(self.x, part)
            code = Code(self.w.fresh)
            code("@njit(cache=True, internal=True)")
            code(f"def after_{k}(s, out, n, head, o0, mover, ply{', mask' if found else ''}):")
            code.depth += 1
            code("toolong = False")
            stages = count_stages(part.steps)
            if stages:
                code("nxt = NEXT[mover]")
                code.buffer("saved", stages, self.layout.size)
            with code.at(self.after_pos or part.pos):
                if found:  # its first list kept across the candidates (after_cells)
                    self.masks[k] = found
                    mask = Code(self.w.fresh)
                    with mask.at(self.after_pos or part.pos):
                        after_cells.list_function(self, k, found, mask)
                    self.w.after_texts.append(mask.text())
                    self.gen(list(part.steps), 1, after_cells.write_list(self, k, found, code), code)
                else:
                    self.gen(list(part.steps), 0, {}, code)
            code("return n, toolong")
            return code.text()
        finally:
            self.plan, self.stage, self.in_after = saved

    # ---- a repeated part: the passes searched with a stack of levels, not by recursion --------

    def repeat(self, s: P.Repeat, steps: list, i: int, env: dict, code: Code) -> None:
        """Every chain of passes, depth first, as python.generate makes them: level d holds the
        candidates of pass d + 1 (the values of its choice whose conditions hold), the position
        before it and the move count before its continuations. A chain ends (the rest of the
        action follows) where no further pass makes a move, or after any pass with `may stop`."""
        x, lay = self.x, self.layout
        field = self.moves.codec.fields[self.plan.index][s.index - 1]
        body = list(s.steps)
        k = next((j for j, st in enumerate(body) if isinstance(st, P.Choose)), None)
        if k is None or any(isinstance(st, (P.Choose, P.Repeat, P.Stage, P.Apply)) for st in body[:k]) or any(
                isinstance(st, (P.Choose, P.Repeat)) for st in body[k + 1:]):
            fail(s, "a repeated part that is not one choice with its conditions and effects")
        choice = body[k]
        assert isinstance(choice, P.Choose)  # k is the place of the Choose found above
        first_stage = next((j for j in range(k + 1, len(body)) if isinstance(body[j], (P.Stage, P.Apply))), len(body))
        passes = min(MAX_PASSES, field.lmask)  # more would not fit the move: the loop stops
        names = {n: code.fresh(n) for n in ("d", "ci", "nc", "cands", "sv", "atb", "prevb", "cnt", "go", "ok",
                                          "entering", "finishing", "v")}
        d, ci, nc, cands, sv = (names[n] for n in ("d", "ci", "nc", "cands", "sv"))
        atb, prevb, cnt, go, ok = (names[n] for n in ("atb", "prevb", "cnt", "go", "ok"))
        entering, finishing, v = names["entering"], names["finishing"], names["v"]
        path = code.fresh("path")  # the values chosen, one a pass (the pass's own choice is a number)
        cap = self.loops.iter_cap(choice.domain, {**env, s.var: "_"})
        if cap is None:
            fail(choice.domain, "a repeated choice over a collection of unknown size")
        for name, shape in ((ci, (passes,)), (nc, (passes,)), (atb, (passes,)), (prevb, (passes,)),
                            (cnt, (passes,)), (path, (passes,)), (cands, (passes, cap)), (sv, (passes, lay.size))):
            code.buffer(name, *shape)
        x.caps[path] = passes
        lists = {}
        for lst, _local in s.earlier:
            lists[lst] = code.fresh("earlier")
            code.buffer(lists[lst], passes)
            x.caps[lists[lst]] = passes
        code(f"{atb}[0] = {x.expr(s.start, env, code)}")
        code(f"{prevb}[0] = -1")
        code(f"{d} = 0")
        code(f"{entering} = True")
        code(f"{finishing} = False")
        code("while True:")
        code.depth += 1

        def pass_env() -> dict:
            inner = {**env, s.var: f"{atb}[{d}]"}
            if s.previous:
                inner[s.previous] = f"{prevb}[{d}]"
            for lst, buf in lists.items():
                code(f"{buf}_n = {d}")
                inner[lst] = buf
            return inner

        # the candidates of the pass at level d
        code(f"if {entering}:")
        code.depth += 1
        code(f"{entering} = False")
        code(f"{nc}[{d}] = 0")
        code(f"{ci}[{d}] = 0")

        def record(e, c):
            c(f"{cands}[{d}, {nc}[{d}]] = {e[choice.name]}")
            c(f"{nc}[{d}] += 1")

        self.gen(body[:first_stage] + [Hook(record)], 0, pass_env(), code)
        code.depth -= 1
        # a pass whose continuations are all made: the move may end here
        code(f"if {finishing}:")
        code.depth += 1
        code(f"{finishing} = False")
        test = "True" if s.may_stop else f"n == {cnt}[{d}]"
        code(f"if {test}:")
        code.depth += 1
        code(f"{path}_n = {d} + 1")
        last = code.fresh("last")
        code(f"{last} = {path}[{d}]")
        self.gen(steps, i + 1, {**env, s.choice: path, s.var: last}, code)
        code.depth -= 1
        code(f"copy_into(s, {sv}[{d}], SIZE)")
        code.depth -= 1
        # the next candidate: make the pass, then go on to the next level if the chain may
        code(f"if {ci}[{d}] < {nc}[{d}]:")
        code.depth += 1
        code(f"{v} = {cands}[{d}, {ci}[{d}]]")
        code(f"{ci}[{d}] += 1")
        code(f"copy_into({sv}[{d}], s, SIZE)")
        inner = {**pass_env(), choice.name: v}
        code(f"{ok} = True")
        for st in [b for b in body[:k] if isinstance(b, P.Bind)] + body[k + 1:]:
            with code.at(st.pos):
                match st:
                    case P.Bind():
                        inner = self.stmts.bind(st.var, st.value, inner, code)
                    case P.Stage() | P.Apply():
                        code(f"if {ok}:")
                        code.depth += 1
                        self.stmts.block(st.body, inner, code)
                        code.depth -= 1
                    case P.Guard() if body.index(st) > first_stage:
                        code(f"if {ok} and not {x.expr(st.cond, inner, code)}:")
                        code(f"    {ok} = False")
        code(f"if not {ok}:")
        code(f"    copy_into(s, {sv}[{d}], SIZE)")
        code("    continue")
        code(f"{path}[{d}] = {v}")
        for lst, local in s.earlier:
            code(f"{lists[lst]}[{d}] = {x.expr(local, inner, code)}")
        code(f"{cnt}[{d}] = n")
        code(f"{go} = {x.expr(s.cond, inner, code) if s.cond is not None else 'True'}")
        code(f"if {go} and {d} + 1 >= {passes}:")
        code("    toolong = True")  # a chain longer than a move holds: Python makes this game
        code(f"    {go} = False")
        code(f"if {go}:")
        code(f"    {d} += 1")
        code(f"    {atb}[{d}] = {v}")
        code(f"    {prevb}[{d}] = {atb}[{d} - 1]")
        code(f"    {entering} = True")
        code("    continue")
        code(f"{finishing} = True")
        code.depth -= 1
        code("else:")
        code(f"    if {d} == 0:")
        code("        break")
        code(f"    {d} -= 1")
        code(f"    {finishing} = True")
        code.depth -= 1

    def choose_list(self, s, var: str, env: dict, code: Code) -> list:
        """Open the loop(s) binding `var` (a buffer, with `var_n`) to each list of a choice
        whose values are lists: a list of lists, `list(LIST for ...)`, or `product(...)`."""
        x, dom = self.x, s.domain
        if isinstance(dom, ir.ListLit):
            x.caps[var] = max(self.loops.list_cap(item, env) for item in dom.items)
            code.buffer(var, x.caps[var])
            j = code.fresh("j")
            code(f"for {j} in range({len(dom.items)}):")
            code.depth += 1
            for k, item in enumerate(dom.items):
                code(f"{'if' if k == 0 else 'elif'} {j} == {k}:")
                code.depth += 1
                self.loops.fill(item, env, code, lambda q: f"{var}[{q}]", f"{var}_n")
                code.depth -= 1
            return [[]]
        if isinstance(dom, ir.Comp) and dom.func == "list":
            inner = dict(env)
            opened = self.loops.open_fors(dom.fors, inner, code)
            x.caps[var] = self.loops.list_cap(dom.elt, inner)
            code.buffer(var, x.caps[var])
            self.loops.fill(dom.elt, inner, code, lambda q: f"{var}[{q}]", f"{var}_n")
            return [lv for levels in opened for lv in levels]
        if isinstance(dom, ir.Comp) and dom.func == "product" and len(dom.fors) == 1 and dom.fors[0].cond is None:
            # one list per item of the `for`, then every way of taking one value from each
            f = dom.fors[0]
            rows = self.loops.list_cap(f.iter, env)
            opts, optn, idx = code.fresh("opts"), code.fresh("optn"), code.fresh("idx")
            ok, i, q = code.fresh("ok"), code.fresh("i"), code.fresh("q")
            v = pyname(f.var)
            x.caps[var] = rows
            code.buffer(var, rows)
            code.buffer(optn, rows)
            code.buffer(idx, rows)
            rn = code.fresh("rn")
            code(f"{rn} = 0")
            levels = self.loops.open_loop(f.iter, v, env, code)
            inner = {**env, f.var: v}
            width = self.loops.list_cap(dom.elt, inner)
            code.buffer(opts, rows * width)  # row r at r * width: one dimension (a 2-D view of a pool is a reshape,
            # which Numba compiles for a quarter of a CPU second)
            self.loops.fill(dom.elt, inner, code, lambda k: f"{opts}[{rn} * {width} + {k}]", f"{optn}[{rn}]")
            code(f"{idx}[{rn}] = 0")
            code(f"{rn} += 1")
            self.loops.close_loop(levels, code)
            code(f"{ok} = True")
            code(f"for {i} in range({rn}):")
            code(f"    if {optn}[{i}] == 0:")
            code(f"        {ok} = False")
            code(f"while {ok}:")
            code.depth += 1
            code(f"for {i} in range({rn}):")
            code(f"    {var}[{i}] = {opts}[{i} * {width} + {idx}[{i}]]")
            code(f"{var}_n = {rn}")
            # after the rest of the move: the next combination (the last item turns fastest)
            step = [f"{q} = {rn} - 1", f"while {q} >= 0:", f"    {idx}[{q}] += 1",
                    f"    if {idx}[{q}] < {optn}[{q}]:", "        break", f"    {idx}[{q}] = 0", f"    {q} -= 1",
                    f"if {q} < 0:", f"    {ok} = False"]
            return [step]
        fail(dom, f"a choice of lists made as {type(dom).__name__}")
