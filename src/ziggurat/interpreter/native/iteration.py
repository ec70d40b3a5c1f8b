"""Loops over collections, for the native module: each collection the rules can go over (`cells`,
players, a direction set, neighbours, a ray or line, a flanked run, the cells between two, a
stack, a zone, a list) as loop headers over the position vector, and what is made of them: lists
in fixed buffers (`b` with its length `b_n`), and folds (`sum`, `count`, `any`, `all`, `min`,
`max`) written as loops before the line that uses their result.

`open_loop` writes the header(s) and returns, per level opened, the lines that end its body;
`close_loop` writes those and ends the levels. The plain expressions are `exprs.Exprs` (`self.x`),
whose state (the tables used, the lists' sizes) these loops share.
"""

from __future__ import annotations

from typing import Optional

from ...dsl import ir
from ...dsl import types as T
from ..names import pyname
from . import fuse, occupancy, table
from .code import Code, describe, fail


class Loops:
    """Writes the loops of one folded game's expressions (`x`: its Exprs)."""

    def __init__(self, x):
        self.x = x

    def iter_cap(self, it, env) -> Optional[int]:
        """The most values a loop over `it` binds (None: not known before the game runs)."""
        w = self.x.world
        if self.x.tcap and table.iter_cap(self.x, it) is not None:  # the open table's lists (table.py)
            return table.iter_cap(self.x, it)
        if isinstance(it, ir.Global):
            return {"cells": w.ncells, "players": len(self.x.game.plan.players)}.get(it.what)
        if isinstance(it, ir.Local) and T.is_list(it.type):
            return self.x.caps.get(env.get(it.name))
        if isinstance(it, ir.Const) and isinstance(it.value, tuple):
            return len(it.value)
        if isinstance(it, ir.ListLit):
            return len(it.items)
        if isinstance(it, ir.Range):
            if isinstance(it.lo, ir.Const) and isinstance(it.hi, ir.Const):
                lo, hi = it.lo.value, it.hi.value
                assert isinstance(lo, int) and isinstance(hi, int)  # a range's ends type-check as numbers
                return max(0, hi - lo + 1)
            if isinstance(it.hi, ir.Call) and it.hi.fn in ("height", "len") and isinstance(it.lo, ir.Const):
                if it.hi.fn == "height":
                    return self.x.cap
                return self.iter_cap(it.hi.args[0], env)
            return None
        if it.type == T.DIRSET:
            return 8
        if isinstance(it, ir.Call):
            if it.fn in ("stack", "above", "below"):
                return self.x.cap
            if it.fn == "between":
                return max(1, w.longest)
            if it.fn == "neighbours":
                return 8
            if it.fn in ("ray", "line"):
                return 8 * max(1, w.longest)
            if it.fn == "flanked":
                return max(1, w.longest)
        if isinstance(it, ir.Comp) and it.func == "list":
            return self.comp_cap(it, env)
        if isinstance(it, (ir.ListJoin, ir.Ternary)):
            a, b = (self.iter_cap(it.left, env), self.iter_cap(it.right, env)) if isinstance(it, ir.ListJoin) else (
                self.iter_cap(it.then, env), self.iter_cap(it.orelse, env))
            if a is None or b is None:
                return None
            return a + b if isinstance(it, ir.ListJoin) else max(a, b)
        return None

    def comp_cap(self, e, env) -> Optional[int]:
        n = 1
        inner = dict(env)
        for f in e.fors:
            k = self.iter_cap(f.iter, inner)
            if k is None:
                return None
            n *= k
            inner[f.var] = pyname(f.var)
        return n

    def list_cap(self, e, env) -> int:
        cap = self.iter_cap(e, env)
        if cap is None:
            fail(e, f"a list whose length is not bounded ({describe(e)})")
        return cap

    def bind_list(self, var: str, e, env, code) -> None:
        """var (a buffer) and var_n := the list e."""
        cap = self.list_cap(e, env)
        code.buffer(var, cap)
        self.x.caps[var] = cap
        self.fill(e, env, code, lambda k: f"{var}[{k}]", f"{var}_n")

    def fill(self, e, env, code, slot, n: str, append: bool = False) -> None:
        """Write the items of the list e into slot(0), slot(1), ... and their count into n (with
        `append`, after the n items already there)."""
        if not append:
            code(f"{n} = 0")
        if isinstance(e, ir.ListJoin):
            self.fill(e.left, env, code, slot, n, True)
            self.fill(e.right, env, code, slot, n, True)
            return
        if isinstance(e, ir.Ternary):
            code(f"if {self.x.expr(e.cond, env, code)}:")
            code.depth += 1
            self.fill(e.then, env, code, slot, n, True)
            code.depth -= 1
            code("else:")
            code.depth += 1
            self.fill(e.orelse, env, code, slot, n, True)
            code.depth -= 1
            return
        items = self.x.constant_items(e) if isinstance(e, (ir.Const, ir.ListLit)) else None
        if items is None and isinstance(e, ir.ListLit):
            items = [self.x.expr(i, env, code) for i in e.items]
        if items is not None:
            for v in items:
                code(f"{slot(n)} = {v}")
                code(f"{n} += 1")
            return
        inner = dict(env)
        if isinstance(e, ir.Comp) and e.func == "list":
            fors, elt = e.fors, e.elt
        else:  # any collection a loop can go over
            name = f"item#{code.fresh('')}"
            fors, elt = (ir.CompFor(name, e, None),), ir.Local(name, T.element(e.type) or T.INT)
        hoisted: list = []
        opened = self.open_fors(fors, inner, code, elt, hoisted)
        code(f"{slot(n)} = {self.x.expr(elt, inner, code)}")
        code(f"{n} += 1")
        for levels in reversed(opened):
            self.close_loop(levels, code)
        self.x.forget(hoisted)

    def materialize(self, e, env, code) -> str:
        """A buffer holding the list e (its own, if e names one)."""
        if isinstance(e, ir.Local) and T.is_list(e.type):
            return self.x.expr(e, env, code)
        b = code.fresh("l")
        self.bind_list(b, e, env, code)
        return b

    def fold_loop(self, fn, elt, var, iterable, cond, env, code, e) -> str:
        """fn(x for x in iterable): sum, any, all, min, max of a collection itself."""
        name = f"{var}#loop{code.fresh('')}"
        local = ir.Local(name, T.element(iterable.type) or T.INT)
        f = ir.CompFor(name, iterable, cond)
        return self.fold_fors(fn, elt if elt is not None else local, [f], env, code)

    def fold_fors(self, fn: str, elt, fors: list, env, code: Code) -> str:
        fors, elt = self.bits_first(fn, fors, elt)
        acc = code.fresh("acc")
        stop = None
        start = len(code.lines)
        if fn in ("any", "all"):
            code(f"{acc} = {'False' if fn == 'any' else 'True'}")
            stop = code.fresh("stop")
            code(f"{stop} = False")
        elif fn in ("min", "max"):
            code(f"{acc} = 0")
            first = code.fresh("first")
            code(f"{first} = True")
        else:
            code(f"{acc} = 0")
        probe = occupancy.flank_probe(self.x, fn, fors, elt)
        if probe is not None:  # no neighbour another's: no run flanked, the loop skipped
            self.x.tables["NBM"] = None  # geometry
            ds, c, p = (self.x.expr(e, env, code) for e in (fors[0].iter, probe[0], probe[1]))
            code(f"if occ_near(s, {ds}, {c}, {p}):")
            code.depth += 1
        # a fold over `a + b`: over a, then over b, into the same result (no list made)
        for j, part in enumerate(fuse.joined(fors[0].iter)):
            if stop and j:
                code(f"if not {stop}:")
                code.depth += 1
            parted = [ir.CompFor(fors[0].var, part, fors[0].cond, fors[0].pos)] + list(fors[1:])
            inner = dict(env)
            hoisted: list = []
            opened = self.open_fors(parted, inner, code, elt, hoisted)
            value = self.x.expr(elt, inner, code)
            if fn == "sum":
                code(f"{acc} += {value}")
            elif fn == "count":
                code(f"if {value}:")
                code(f"    {acc} += 1")
            elif fn == "any":  # the answer known: out of the innermost loop here, of the others by `stop`
                code(f"if {value}:")
                code(f"    {acc} = True")
                code(f"    {stop} = True")
                code("    break")
            elif fn == "all":
                code(f"if not {value}:")
                code(f"    {acc} = False")
                code(f"    {stop} = True")
                code("    break")
            else:
                v = code.fresh("v")
                code(f"{v} = {value}")
                code(f"if {first} or {v} {'<' if fn == 'min' else '>'} {acc}:")
                code(f"    {acc} = {v}")
                code(f"    {first} = False")
            for k in range(len(opened) - 1, -1, -1):
                self.close_loop(opened[k], code, stop)
                if stop and k:  # the loop of the comprehension's previous `for` ends too
                    code(f"if {stop}:")
                    code("    break")
            self.x.forget(hoisted)
            if stop and j:
                code.depth -= 1
        if probe is not None:
            code.depth -= 1
        if stop:
            unread(stop, code, start)
        return acc

    def bits_first(self, fn: str, fors: list, elt) -> tuple:
        """(fors, elt) of `any(A and B for c in cells)` (or `count`) as `... B for c in cells
        where A` where A is a test the occupancy words answer (`empty(c)`, `mine(c)`): the loop
        goes over their bits (open_fors)."""
        if (fn in ("any", "count") and len(fors) == 1 and fors[0].cond is None
                and isinstance(elt, ir.BoolOp) and elt.op == "and"):
            first = elt.values[0]
            if occupancy.bit_choice(self.x, fors[0].iter, first, fors[0].var) is not None:
                more = elt.values[1:]
                rest = more[0] if len(more) == 1 else ir.BoolOp("and", tuple(more), elt.type, elt.pos)
                return [ir.CompFor(fors[0].var, fors[0].iter, first, fors[0].pos)], rest
        return fors, elt

    def open_fors(self, fors, inner: dict, code: Code, elt=None, hoisted: Optional[list] = None) -> list:
        """Open a comprehension's `for`s (each with its `where`) in code, one inside the other;
        `inner` gains their variables. The levels opened, one list a `for` (see close_loop).
        With `hoisted` (a list the caller forgets, `Exprs.forget`, when it closes the loops), the
        folds a `where` and the rest (`elt`) read more than once are computed once (`Exprs.hoist`)."""
        opened = []
        for k, f in enumerate(fors):
            var = pyname(f.var)
            line = fuse.cells_by_line(f)  # `cells where c.rank == K and ...`: that rank's cells only
            near = fuse.neighbours_by_line(f) if line is None else None  # the same of a cell's neighbours
            own = occupancy.bit_choice(self.x, f.iter, f.cond, f.var)
            if own is not None:  # the mover's own (or the empty) cells: the bits of the occupancy words
                levels = occupancy.open_own(var, self.x, code, which=own[1])
                f = ir.CompFor(f.var, f.iter, own[0])
            elif line is not None:
                attr, key, rest = line
                levels = self.open_cells_of_line(attr, key, var, inner, code)
                f = ir.CompFor(f.var, f.iter, rest)
            elif near is not None:
                attr, key, rest = near
                levels = self.open_neighbours_of_line(f.iter, attr, key, var, inner, code)
                f = ir.CompFor(f.var, f.iter, rest)
            else:
                levels = self.open_loop(f.iter, var, inner, code)
            opened.append(levels)
            inner[f.var] = var
            if f.cond is not None:
                if hoisted is not None:
                    later = [x for g in fors[k + 1:] for x in (g.iter, g.cond) if x is not None] + [elt]
                    hoisted += self.x.hoist(f.var, f.cond, later, inner, code)
                code(f"if {self.x.expr(f.cond, inner, code)}:")
                code.depth += 1
                levels.append([])
        return opened

    def open_where(self, name: str, domain, cond, var: str, env: dict, code: Code) -> tuple:
        """The loop header(s) of a choice `name: domain where cond` binding `var` (open_loop's
        levels), and what is left of cond to test inside: over the cells (or a cell's
        neighbours) of one rank or file only when the where begins by asking for it."""
        own = occupancy.bit_choice(self.x, domain, cond, name)
        if own is not None:  # the mover's own (or the empty) cells: the bits of the occupancy words
            return occupancy.open_own(var, self.x, code, which=own[1]), own[0]
        f = ir.CompFor(name, domain, cond)
        line = fuse.cells_by_line(f)
        near = fuse.neighbours_by_line(f) if line is None else None
        if line is not None:
            return self.open_cells_of_line(line[0], line[1], var, env, code), line[2]
        if near is not None:
            return self.open_neighbours_of_line(domain, near[0], near[1], var, env, code), near[2]
        return self.open_loop(domain, var, env, code), cond

    def open_cells_of_line(self, attr: str, key, var: str, env: dict, code: Code) -> list:
        """A loop binding `var` to the cells whose .rank (or .file) is `key`, in the board's order,
        from a table of each rank's (file's) cells."""
        values = list(getattr(self.x.world, "RANK" if attr == "rank" else "FILE"))
        size = max(values + [0]) + 1
        rows = [[c for c, v in enumerate(values) if v == r] for r in range(size)]
        width = max([len(r) for r in rows] + [1])
        name = "RCELL" if attr == "rank" else "FCELL"
        self.x.tables[name] = [r + [-1] * (width - len(r)) for r in rows]
        self.x.tables[name + "N"] = [len(r) for r in rows]
        r, j = code.fresh("r"), code.fresh("j")
        code(f"{r} = {self.x.expr(key, env, code)}")
        code(f"for {j} in range({name}N[{r}] if 0 <= {r} < {size} else 0):")
        code.depth += 1
        code(f"{var} = {name}[{r}, {j}]")
        return [[]]

    def open_neighbours_of_line(self, it, attr: str, key, var: str, env: dict, code: Code) -> list:
        """A loop binding `var` to the neighbours(c, ds) (`it`) whose .rank (or .file) is `key`, in
        neighbours' order, from the table of each cell's neighbours one rank (file) before, level,
        after (NBR, NBF)."""
        self.x.neighbours_table()
        name = "NBR" if attr == "rank" else "NBF"
        self.x.tables[name] = self.x.tables[name + "N"] = None  # geometry: every direction set known
        table = "RANK" if attr == "rank" else "FILE"
        self.x.tables[table] = list(getattr(self.x.world, table))
        c, ds, r, k = code.fresh("c"), code.fresh("d"), code.fresh("r"), code.fresh("k")
        code(f"{c} = {self.x.expr(it.args[0], env, code)}")
        code(f"{ds} = {self.x.expr(it.args[1], env, code)}")
        code(f"{r} = {self.x.expr(key, env, code)} - {table}[{c}] + 1")
        code(f"for {k} in range({name}N[{ds}, {r}, {c}] if 0 <= {r} <= 2 else 0):")
        code.depth += 1
        code(f"{var} = {name}[{ds}, {r}, {c}, {k}]")
        return [[]]

    def open_loop(self, it, var: str, env: dict, code: Code) -> list:
        """Write the loop header(s) binding `var` to each value of `it`; a list with, per level
        opened, the lines that end that level's body (innermost last)."""
        on_table = table.open_loop(self.x, it, var, env, code) if self.x.tcap else None
        if on_table is not None:  # the open table's lists (table.py)
            return on_table
        if isinstance(it, ir.Global):
            if it.what == "cells":
                code(f"for {var} in range(NC):")
                code.depth += 1
                return [[]]
            if it.what == "players":
                code(f"for {var} in range(NPLAYERS):")
                code.depth += 1
                return [[]]
            if it.what == "last":
                self.x.uses_last = True
                k = code.fresh("k")
                code(f"for {k} in range(last_count(s)):")  # no array made: this runs every ply
                code.depth += 1
                code(f"{var} = last_cell(s, {k})")
                return [[]]
        if it.type == T.DIRSET:
            self.x.dirsets_table()
            d, j = code.fresh("d"), code.fresh("j")
            code(f"{d} = {self.x.expr(it, env, code)}")
            code(f"for {j} in range(DSN[{d}]):")
            code.depth += 1
            code(f"{var} = DS[{d}, {j}]")
            return [[]]
        if it.type == T.ZONE:
            z, k = code.fresh("z"), code.fresh("k")
            code(f"{z} = ZON + {self.x.zone(it, env, code)} * ZW")
            code(f"for {k} in range(s[{z}]):")
            code.depth += 1
            code(f"{var} = s[{z} + 1 + {k}]")
            return [[]]
        if isinstance(it, ir.Local) and T.is_list(it.type):
            b, k = self.x.expr(it, env, code), code.fresh("k")
            code(f"for {k} in range({b}_n):")
            code.depth += 1
            code(f"{var} = {b}[{k}]")
            return [[]]
        spans = self.ternary_ranges(it) if isinstance(it, ir.Ternary) else None
        if spans is not None:  # a ternary of ranges: one range, its ends chosen
            c = self.x.expr(it.cond, env, code)
            (a, b), (p, q) = spans
            lo, hi = code.fresh("lo"), code.fresh("hi")
            code(f"{lo} = {self.x.expr(a, env, code)} if {c} else {self.x.expr(p, env, code)}")
            code(f"{hi} = {self.x.expr(b, env, code)} if {c} else {self.x.expr(q, env, code)}")
            code(f"for {var} in range({lo}, {hi} + 1):")
            code.depth += 1
            return [[]]
        if isinstance(it, (ir.Comp, ir.ListJoin)) and (it.func == "list" if isinstance(it, ir.Comp) else True) or (
                isinstance(it, ir.Ternary) and it.type != T.DIRSET):
            b = code.fresh("l")
            self.bind_list(b, it, env, code)
            k = code.fresh("k")
            code(f"for {k} in range({b}_n):")
            code.depth += 1
            code(f"{var} = {b}[{k}]")
            return [[]]
        if isinstance(it, ir.Range):
            lo, hi = self.x.expr(it.lo, env, code), self.x.expr(it.hi, env, code)
            code(f"for {var} in range({lo}, {hi} + 1):")
            code.depth += 1
            return [[]]
        items = self.x.constant_items(it) if isinstance(it, (ir.Const, ir.ListLit)) else None
        if items is not None:
            if not items:
                code(f"for {var} in range(0):")
            else:
                code(f"for {var} in ({', '.join(items)},):")
            code.depth += 1
            return [[]]
        if isinstance(it, ir.ListLit):
            t = code.fresh("t")
            code(f"{t} = ({', '.join(self.x.expr(i, env, code) for i in it.items)},)")
            code(f"for {var} in {t}:")
            code.depth += 1
            return [[]]
        if isinstance(it, ir.Call):
            fn, args = it.fn, it.args
            if fn == "neighbours":
                self.x.neighbours_table()
                c, ds, k = code.fresh("c"), code.fresh("d"), code.fresh("k")
                code(f"{c} = {self.x.expr(args[0], env, code)}")
                code(f"{ds} = {self.x.expr(args[1], env, code)}")
                code(f"for {k} in range(NBN[{ds}, {c}]):")
                code.depth += 1
                code(f"{var} = NB[{ds}, {c}, {k}]")
                return [[]]
            if fn in ("ray", "line"):
                self.x.lines_table()
                self.x.dirsets_table()
                c, ds, j, d, k = (code.fresh(x) for x in ("c", "ds", "j", "d", "k"))
                code(f"{c} = {self.x.expr(args[0], env, code)}")
                code(f"{ds} = {self.x.expr(args[1], env, code)}")
                reach = f"LNN[{d}, {c}]"
                if fn == "ray":
                    r = code.fresh("reach")
                    code(f"{r} = {self.x.expr(args[2], env, code)}")
                    reach = f"min({r}, LNN[{d}, {c}])"
                code(f"for {j} in range(DSN[{ds}]):")
                code.depth += 1
                code(f"{d} = DS[{ds}, {j}]")
                code(f"for {k} in range({reach}):")
                code.depth += 1
                code(f"{var} = LN[{d}, {c}, {k}]")
                return [[], ([f"if s[U(HGT + {var})] > 0:", "    break"] if fn == "ray" else [])]
            if fn == "flanked":
                self.x.lines_table()
                c, d, n, k = code.fresh("c"), code.fresh("d"), code.fresh("n"), code.fresh("k")
                code(f"{c} = {self.x.expr(args[0], env, code)}")
                code(f"{d} = {self.x.expr(args[1], env, code)}")
                code(f"{n} = flank_len(s, {c}, {d}, {self.x.expr(args[2], env, code)})")
                code(f"for {k} in range({n}):")
                code.depth += 1
                code(f"{var} = LN[{d}, {c}, {k}]")
                return [[]]
            if fn == "between":
                a, b, k = code.fresh("a"), code.fresh("b"), code.fresh("k")
                code(f"{a} = {self.x.expr(args[0], env, code)}")
                code(f"{b} = {self.x.expr(args[1], env, code)}")
                code(f"for {k} in range(1, between_n({a}, {b}) + 1):")
                code.depth += 1
                code(f"{var} = between_at({a}, {b}, {k})")
                return [[]]
            if fn in ("stack", "above", "below"):
                c, k = code.fresh("c"), code.fresh("k")
                code(f"{c} = {self.x.expr(args[0], env, code)}")
                if fn == "stack":
                    span = f"0, s[HGT + {c}]"
                elif fn == "above":
                    span = f"{self.x.expr(args[1], env, code)}, s[HGT + {c}]"
                else:
                    span = f"0, {self.x.expr(args[1], env, code)} - 1"
                code(f"for {k} in range({span}):")
                code.depth += 1
                code(f"{var} = s[STK + {c} * CAP + {k}]")
                return [[]]
        fail(it, f"a loop over {describe(it) if not isinstance(it, ir.Call) else it.fn + '()'}")

    @staticmethod
    def ternary_ranges(e) -> Optional[tuple]:
        """((lo, hi), (lo, hi)) of a ternary whose branches are ranges or one fixed number each."""
        out = []
        for b in (e.then, e.orelse):
            if isinstance(b, ir.Range):
                out.append((b.lo, b.hi))
            elif isinstance(b, ir.ListLit) and len(b.items) == 1 and isinstance(b.items[0], ir.Const):
                out.append((b.items[0], b.items[0]))
            elif isinstance(b, ir.Const) and isinstance(b.value, tuple) and len(b.value) == 1:
                one = ir.Const(b.value[0], T.element(b.type) or T.INT)
                out.append((one, one))
            else:
                return None
        return tuple(out)

    @staticmethod
    def close_loop(levels: list, code: Code, stop: Optional[str] = None) -> None:
        """End the levels `open_loop` opened (innermost first); with `stop`, a flag that ends
        every level once set."""
        for i, ending in enumerate(reversed(levels)):
            for line in ending:
                code(line)
            code.depth -= 1
            if stop and i < len(levels) - 1:
                code(f"if {stop}:")
                code("    break")


def unread(flag: str, code: Code, start: int) -> None:
    """Leave out the lines from `start` on that only set `flag` when no line reads it: an `any`'s
    or `all`'s stop flag is read only where its loop nests or goes over joined parts, and a
    variable set and never read still costs Numba's typing and lowering two statements."""
    sets = (f"{flag} = True", f"{flag} = False")
    mine = code.lines[start:]
    if any(flag in text and text.strip() not in sets for _, text, _ in mine):
        return
    code.lines[start:] = [line for line in mine if line[1].strip() not in sets]
