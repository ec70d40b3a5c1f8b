"""Statements and effects to Python: every change to the state is logged for undo, and folded
into the position hash when the game tests repetition."""

from __future__ import annotations

import ast
import itertools

from ...dsl import ir
from ...dsl import types as T
from ..geometry import CODE_BITS
from .emit import at, expr as E, name, stmt as S, tag_all
from .exprs import Env, Exprs, Var, pyname

CELLS, ZONES, COUNTERS, SEATS, TABLE = 0, 1, 2, 3, 5  # the tags of the state's lists in the position hash
SLOTS = {"cells": CELLS, "zones": ZONES, "counters": COUNTERS, "seats": SEATS, "table": TABLE}


class Fresh:
    """Fresh temporary names for one generated function: _a1, _k2, ..."""

    def __init__(self):
        self.counter = itertools.count(1)

    def __call__(self, stem: str) -> str:
        return f"_{stem}{next(self.counter)}"


def minus_one(e: ast.expr) -> ast.expr:
    """e - 1, computed now when e is a constant (a level becomes an index from 0)."""
    if isinstance(e, ast.Constant) and isinstance(e.value, int):
        return ast.Constant(e.value - 1)
    return E("_0 - 1", e)


class Statements:
    """Writes blocks of statements (setup, effects, the end block) for one game."""

    def __init__(self, exprs: Exprs, hashing: bool, points: bool = False):
        self.x = exprs
        self.hashing = hashing
        self.points = points  # the game's results are points (ir.scores_points): outcomes carry theirs

    def block(self, stmts, env: Env, fresh: Fresh) -> list:
        out: list[ast.stmt] = []
        for s in stmts:
            first = len(out)
            env = self.stmt(s, env, fresh, out)
            tag_all(out[first:], s.pos)
            if isinstance(s, (ir.Outcome, ir.RankBy)):
                break  # the game ends there: the rest of the block is never reached, so not written
        return out

    def stmt(self, s, env: Env, fresh: Fresh, out: list) -> Env:
        x = self.x
        if isinstance(s, ir.Let):
            value = x.expr(s.value, env)
            if isinstance(value, ast.Constant):
                return env.bind(s.var, Var(pyname(s.var), s.value.type, value=value))
            out.append(at(S("_0 = _1", pyname(s.var), value), s.pos))
            return env.bind(s.var, Var(pyname(s.var), s.value.type))
        if isinstance(s, ir.If):
            node = at(ast.If(x.expr(s.cond, env), self.block(s.body, env, fresh) or [ast.Pass()],
                             self.block(s.orelse, env, fresh)), s.pos)
            out.append(node)
            return env
        if isinstance(s, ir.For):
            var = pyname(s.var)
            inner = env.bind(s.var, Var(var, T.element(s.iter.type) or T.ANY))
            body = self.block(s.body, inner, fresh) or [ast.Pass()]
            if s.cond is not None:
                body = [ast.If(x.expr(s.cond, inner), body, [])]
            out.append(at(ast.For(ast.Name(var, ast.Store()), x.collection(s.iter, env), body, []), s.pos))
            return env
        if isinstance(s, ir.SetCounter):
            slot = x.counter_slot(s.target, env)
            i = self.temp(slot, "i", fresh, out, s.pos)
            value = x.expr(s.value, env)
            new = value if s.op == "=" else E("counters[_0] " + s.op[0] + " _1", i, value)
            self.write(out, "counters", i, new, fresh)
            return env
        if isinstance(s, ir.Effect):
            self.effect(s, env, fresh, out)
            return env
        if isinstance(s, ir.Outcome):
            who = x.expr(s.who, env) if s.who is not None else ast.Constant(None)
            items = [ast.Constant(s.kind), who, ast.Constant(s.reason)]
            if self.points:  # the game's results are points: every outcome says what it is worth
                items.append(x.expr(s.points, env) if s.points is not None else ast.Constant(int(s.kind != "draw")))
            out.append(at(ast.Return(ast.Tuple(items, ast.Load())), s.pos))
            return env
        if isinstance(s, ir.RankBy):
            var = pyname(s.var)
            inner = env.bind(s.var, Var(var, T.PLAYER))
            keys = ast.Tuple([x.expr(k, inner) for k in s.keys], ast.Load())
            out.append(at(S("return (_3, tuple((_0 for _1 in ALLPLAYERS)), _2)", keys, var, ast.Constant(s.reason),
                            ast.Constant("points" if s.scored else "rank")), s.pos))
            return env
        raise AssertionError(f"no Python for the statement {s!r}")

    # ---- writing the state ------------------------------------------------------------------

    def temp(self, value: ast.expr, stem: str, fresh: Fresh, out: list, pos=None) -> ast.expr:
        """The value itself when it is a name or a constant, else a fresh local holding it (so that
        it is computed once, before anything changes)."""
        if isinstance(value, (ast.Name, ast.Constant)):
            return value
        t = fresh(stem)
        out.append(at(S("_0 = _1", t, value), pos))
        return name(t)

    def write(self, out: list, lst: str, index: ast.expr, new: ast.expr, fresh: Fresh) -> None:
        """lst[index] = new, logging the old value for undo (and the position hash)."""
        old, val = fresh("o"), fresh("n")
        out.append(S("_0 = _1[_2]", old, lst, index))
        out.append(S("_0 = _1", val, new))
        out.append(S("log.append((_0, _1, _2))", lst, index, old))
        out.append(S("_0[_1] = _2", lst, index, val))
        if self.hashing:
            out.append(S("h ^= hash((_0, _1, _2)) ^ hash((_0, _1, _3))", SLOTS[lst], index, old, val))

    @staticmethod
    def level(out: list, c: ast.expr, k: ast.expr, into: bool) -> None:
        """Stop at the rule (helpers.LevelError) when level index k (from 0) is not one of the
        stack on c (`into`: a level to slip a piece in at, up to its height). A comparison inline;
        none for level 1 into a stack, which every stack has."""
        if into and isinstance(k, ast.Constant) and k.value == 0:
            return
        test = "_1 <= len(cells[_0])" if into else "_1 < len(cells[_0])"
        out.append(S(f"if not 0 <= {test}:\n    _level(_1, len(cells[_0]), {into})", c, k))

    def effect(self, s: ir.Effect, env: Env, fresh: Fresh, out: list) -> None:
        x, fn = self.x, s.fn

        def arg(i, stem):
            return self.temp(x.expr(s.args[i], env), stem, fresh, out)

        if fn == "move":
            a, k, b = arg(0, "a"), minus_one(x.expr(s.args[1], env)), arg(2, "b")
            k = self.temp(k, "k", fresh, out)
            self.level(out, a, k, True)
            out.append(S("_unit = cells[_0][_1:]", a, k))
            self.write(out, "cells", a, E("cells[_0][:_1]", a, k), fresh)
            self.write(out, "cells", b, E("cells[_0] + _unit", b), fresh)
        elif fn == "take":
            c, z = arg(0, "c"), arg(1, "z")
            self.write(out, "zones", z, E("zones[_0] + cells[_1]", z, c), fresh)
            self.write(out, "cells", c, ast.Tuple([], ast.Load()), fresh)
        elif fn == "place":
            p = x.expr(s.args[0], env)
            pieces = (ast.Tuple([p], ast.Load()) if s.args[0].type == T.PIECE
                      else p if isinstance(p, ast.Tuple) else E("tuple(_0)", p))
            c = arg(1, "c")
            self.write(out, "cells", c, E("cells[_0] + _1", c, pieces), fresh)
        elif fn == "add":
            z = arg(0, "z")
            p = x.expr(s.args[1], env)
            pieces = (ast.Tuple([p], ast.Load()) if s.args[1].type == T.PIECE
                      else p if isinstance(p, ast.Tuple) else E("tuple(_0)", p))
            self.write(out, "zones", z, E("zones[_0] + _1", z, pieces), fresh)
        elif fn == "transfer":
            z, p, y = arg(0, "z"), arg(1, "p"), arg(2, "y")
            out.append(S("_at = zones[_0].index(_1)", z, p))
            self.write(out, "zones", z, E("zones[_0][:_at] + zones[_0][_at + 1:]", z), fresh)
            self.write(out, "zones", y, E("zones[_0] + (_1,)", y, p), fresh)
        elif fn == "remove":
            c, k, z = arg(0, "c"), self.temp(minus_one(x.expr(s.args[1], env)), "k", fresh, out), arg(2, "z")
            self.level(out, c, k, False)
            out.append(S("_piece = cells[_0][_1]", c, k))
            self.write(out, "zones", z, E("zones[_0] + (_piece,)", z), fresh)
            self.write(out, "cells", c, E("cells[_0][:_1] + cells[_0][_1 + 1:]", c, k), fresh)
        elif fn in ("put", "insert"):
            z, p, c = arg(0, "z"), arg(1, "p"), arg(2, "c")
            out.append(S("_at = zones[_0].index(_1)", z, p))
            self.write(out, "zones", z, E("zones[_0][:_at] + zones[_0][_at + 1:]", z), fresh)
            if fn == "put":
                self.write(out, "cells", c, E("cells[_0] + (_1,)", c, p), fresh)
            else:
                k = self.temp(minus_one(x.expr(s.args[3], env)), "k", fresh, out)
                self.level(out, c, k, True)
                self.write(out, "cells", c, E("cells[_0][:_1] + (_2,) + cells[_0][_1:]", c, k, p), fresh)
        elif fn == "put_table":  # onto the open table: its entries are (spot << CODE_BITS) | piece (geometry.py)
            z, p, c = arg(0, "z"), arg(1, "p"), arg(2, "c")
            out.append(S("_at = zones[_0].index(_1)", z, p))
            self.write(out, "zones", z, E("zones[_0][:_at] + zones[_0][_at + 1:]", z), fresh)
            self.write(out, "table", ast.Constant(0), E("table[0] + ((_0 << _2) | _1,)", c, p, CODE_BITS), fresh)
        elif fn == "insert_stack":
            a, j = arg(0, "a"), self.temp(minus_one(x.expr(s.args[1], env)), "j", fresh, out)
            c, k = arg(2, "c"), self.temp(minus_one(x.expr(s.args[3], env)), "k", fresh, out)
            self.level(out, a, j, False)
            out.append(S("_piece = cells[_0][_1]", a, j))
            self.write(out, "cells", a, E("cells[_0][:_1] + cells[_0][_1 + 1:]", a, j), fresh)
            self.level(out, c, k, True)
            self.write(out, "cells", c, E("cells[_0][:_1] + (_piece,) + cells[_0][_1:]", c, k), fresh)
        elif fn == "change":
            c, k, p = arg(0, "c"), self.temp(minus_one(x.expr(s.args[1], env)), "k", fresh, out), arg(2, "p")
            self.level(out, c, k, False)
            self.write(out, "cells", c, E("cells[_0][:_1] + (_2,) + cells[_0][_1 + 1:]", c, k, p), fresh)
        elif fn == "swap_seats":
            a, b = arg(0, "a"), arg(1, "b")
            out.append(S("_sa = seats[_0]", a))
            out.append(S("_sb = seats[_0]", b))
            self.write(out, "seats", a, name("_sb"), fresh)
            self.write(out, "seats", b, name("_sa"), fresh)
        elif fn == "extra_turn":
            out.append(S("nxt = mover"))
        elif fn == "turn_to":
            out.append(S("nxt = _0", x.expr(s.args[0], env)))
        else:
            raise AssertionError(f"no Python for the effect {fn!r}")
