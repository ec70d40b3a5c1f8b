"""Pass 2: fold the checked plan at one set of option values.

Options become constants, and so does everything computed from constants alone: `2 * size` is
6, `shape[large]` is a direction set, `corner(a1)` is true, `piece(south, large)` is a piece code,
and `if pie:` keeps only the branch that applies. A `when` or `require` that folds to false stays
in the plan (the backends drop what follows it). The mistakes only values can show are found
here: a board of 30 files, a table with no entry for a key, a division by zero, level 0.

The result is a `Folded` game: the folded plan, the world (board and pieces), the tables' values,
who controls each kind of piece, and the counters' first values.
"""

from __future__ import annotations

import itertools
import operator
from typing import Iterable, Optional

from attrs import define, evolve, field

from ..errors import diagnostic_at
from . import budgets, estimate, ir
from . import types as T
from .dice import showing, ways
from .model import BUILTIN_DIRECTIONS
from .resolve.core import CheckError, may_be_neutral
from .world import World


@define
class Folded:
    """A ruleset at one set of option values: what the compiler's later passes read."""

    plan: ir.Plan  # folded
    options: dict
    world: World
    ctrl: tuple = ()  # piece code -> the side controlling a stack it tops (-1: nobody)
    # control by place (a `control:` that reads `cell`): cell * npieces + piece code -> the side; else None
    ctrl_at: Optional[tuple] = None
    tables: dict = field(factory=dict)  # name -> FoldedTable
    counter_inits: list = field(factory=list)  # slot -> first value
    diagnostics: list = field(factory=list)


@define
class FoldedTable:
    name: str
    key_type: T.Type
    value_type: T.Type
    values: dict


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}
WORLD_FOLDS = ("corner", "edge", "neighbours", "line", "step", "distance", "direction")


def const(value, typ, pos) -> ir.Const:
    return ir.Const(value, typ, pos)


def is_const(e) -> bool:
    return isinstance(e, ir.Const)


def number(value: int, pos) -> ir.Const:
    """A computed number, refused when it leaves the 64 bits the generated code counts on."""
    if not -budgets.MAX_INT - 1 <= value <= budgets.MAX_INT:
        raise CheckError(pos, f"this computes a number of {len(str(abs(value)))} digits, beyond what 64 bits hold "
                              f"(at most {budgets.MAX_INT:,})")
    return ir.Const(value, T.INT, pos)


def board_size(plan: ir.Plan, values: dict, diagnostics: list) -> tuple:
    """(files, ranks) at these options; 1 for a setting that is missing or wrong (reported)."""
    f = Folder(plan, values, None, diagnostics)
    got = {}
    for name, e in plan.board.items():
        try:
            c = f.expr(e)
        except CheckError as err:
            f.report(err)
            continue
        if not is_const(c):
            f.report(CheckError(e.pos, f"the number of {name} must be fixed"))
        elif not 1 <= c.value <= 26:
            f.report(CheckError(e.pos, f"a board has 1 to 26 {name}, not {c.value}"))
        else:
            got[name] = c.value
    return got.get("files", 1), got.get("ranks", 1)


SEATS = "players"  # an option of this name is the number of seats: the first N players play


def seated(plan: ir.Plan, values: dict, diagnostics: list) -> ir.Plan:
    """The plan with only the players who sit at the table: all of them, or the first N when the
    ruleset has an option `players` (`option players: 2..5 = 3` and `players a, b, c, d, e`)."""
    if SEATS not in plan.options or SEATS not in values:
        return plan
    n, decl = values[SEATS], plan.options[SEATS]
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(plan.players):
        diagnostics.append(diagnostic_at(
            decl.pos, f"the option 'players' seats the first N of the {len(plan.players)} players "
                      f"declared, so it must be from 1 to {len(plan.players)}, not {n!r}",
            hint="name as many players as the most the game seats: players a, b, c, d, e"))
        return plan
    return evolve(plan, players=tuple(plan.players[:n]))


def too_many_moves(a: ir.Action, ncells: int, diagnostics: list) -> None:
    """An error at the action when the product of its choices' numbers of values (the after
    block's included) passes budgets.MAX_ESTIMATED_MOVES: far more moves at one position than a
    position may have (generating them would fill the memory)."""
    moves, _ = estimate.moves_estimate(list(a.items) + list(a.after_items or ()), ncells)
    if moves > budgets.MAX_ESTIMATED_MOVES:
        diagnostics.append(diagnostic_at(
            a.pos, f"action {a.name!r} may make about {moves:,} moves at one position (the product of the "
                   f"numbers of values of its choices), more than the {budgets.MAX_ESTIMATED_MOVES:,} a ruleset "
                   f"may estimate",
            hint="give its choices fewer values (a range with a smaller bound), or make the decision in "
                 "stages: one choice, its effects, then the next"))


def fold(plan: ir.Plan, values: dict) -> Folded:
    """The plan at these option values (values checked by dsl.options already)."""
    diagnostics: list = []
    declared = len(plan.players)
    plan = seated(plan, values, diagnostics)
    files, ranks = board_size(plan, values, diagnostics) if plan.surface_pos is None else (0, 0)
    world = World(files, ranks, plan.attributes.values(), plan.players,
                  [(z.name, z.per_player) for z in plan.zones.values()],
                  [(c.name, c.per_player, c.holds) for c in plan.counters.values()])
    f = Folder(plan, values, world, diagnostics)
    f.unseated = range(len(plan.players), declared)
    out = evolve(plan, options=dict(plan.options), checks=[], setup=[], actions=[], invariants=[], statistics=[],
                 board={}, tables={}, counters=dict(plan.counters))
    result = Folded(out, dict(values), world, diagnostics=diagnostics)
    for name in plan.tables:
        if ("table", name) not in plan.broken:
            f.attempt(f.table, name)
    result.tables = f.tables
    result.ctrl = f.attempt(f.control) or tuple(-1 for _ in range(world.npieces))
    if plan.control is not None and any(isinstance(n, ir.Local) and n.name == "cell" for n in ir.walk(plan.control)):
        result.ctrl_at = tuple(result.ctrl)
        result.ctrl = tuple(-1 for _ in range(world.npieces))  # no table by the top piece alone
    if plan.surface_pos is not None and all(n in plan.surface for n in ("lattice", "width", "length")):
        world.surface = f.attempt(f.surface)
    for c in plan.counters.values():
        v = f.attempt(f.expr, c.init) if c.init is not None else None
        first = v.value if v is not None and is_const(v) else (-1 if c.type == T.CELL else 0)
        cells = world.ncells if c.holds else 1  # a set of cells: a slot per cell, all empty
        result.counter_inits += [first] * (len(plan.players) if c.per_player else 1) * cells
    out.setup = [f.attempt(f.block, b) or () for b in plan.setup]
    for a in plan.actions:  # a broken one is folded too, for what else values can show in it
        folded = f.attempt(f.action, a)
        out.actions.append(folded if folded is not None else a)
        if folded is None:
            out.broken.add(("action", a.name))
        else:
            too_many_moves(folded, world.ncells, diagnostics)
    if plan.end is not None:
        out.end = f.attempt(f.block, plan.end) or ()
    for inv in plan.invariants:
        e = f.attempt(f.expr, inv.expr)
        if e is not None:
            out.invariants.append(evolve(inv, expr=e))
    for st in plan.statistics:
        e = f.attempt(f.expr, st.expr)
        if e is not None:
            out.statistics.append(evolve(st, expr=e))
    if plan.heuristic is not None:
        out.heuristic = f.attempt(f.expr, plan.heuristic)
    return result


class Folder:
    """Folds expressions, statements and actions of one plan at one set of option values."""

    def __init__(self, plan: ir.Plan, values: dict, world: Optional[World], diagnostics: list):
        self.plan, self.values, self.world = plan, values, world
        self.diagnostics = diagnostics
        self.tables: dict = {}
        self.bound: dict = {}  # Local name -> Const, while folding control (top) and rank keys
        self.unseated = range(0)  # the numbers of players declared but not seated (option `players`)

    # ---- errors -----------------------------------------------------------------------------

    def report(self, e: CheckError) -> None:
        self.diagnostics.append(diagnostic_at(e.pos, e.message, hint=e.hint, expected=e.expected))

    def attempt(self, fn, *args):
        try:
            return fn(*args)
        except CheckError as e:
            self.report(e)
            return None

    # ---- expressions ------------------------------------------------------------------------

    def expr(self, e):
        if e is None:
            return None
        handler = getattr(self, "x_" + type(e).__name__)
        return handler(e)

    def x_Const(self, e):
        if e.type == T.PLAYER and e.value in self.unseated:
            raise CheckError(e.pos, f"only {len(self.plan.players)} players sit at the table with "
                                    f"players = {len(self.plan.players)}: this one does not play",
                             hint="write rules for any number of seats with 'players', 'mover' and loops")
        return e

    def x_Opt(self, e):
        if e.name not in self.values:
            raise CheckError(e.pos, f"option {e.name!r} has no value here")
        return const(self.values[e.name], e.type, e.pos)

    def x_Local(self, e):
        return self.bound.get(e.name, e)

    def x_Global(self, e):
        if e.what in ("files", "ranks") and self.world is not None:
            return const(self.world.files if e.what == "files" else self.world.ranks, T.INT, e.pos)
        return e

    def x_ZoneRef(self, e):
        return evolve(e, player=self.expr(e.player)) if e.player is not None else e

    def x_CounterRef(self, e):
        e = evolve(e, cell=self.expr(e.cell)) if e.cell is not None else e
        return evolve(e, player=self.expr(e.player)) if e.player is not None else e

    def x_Neg(self, e):
        c = self.expr(e.operand)
        return number(-c.value, e.pos) if is_const(c) else evolve(e, operand=c)

    def x_Not(self, e):
        c = self.expr(e.operand)
        return const(not c.value, T.BOOL, e.pos) if is_const(c) else evolve(e, operand=c)

    def x_BoolOp(self, e):
        kept = []
        for v in (self.expr(v) for v in e.values):
            if is_const(v):
                if e.op == "and" and not v.value:
                    return const(False, T.BOOL, e.pos)
                if e.op == "or" and v.value:
                    return const(True, T.BOOL, e.pos)
                continue
            kept.append(v)
        if not kept:
            return const(e.op == "and", T.BOOL, e.pos)
        if len(kept) == 1:
            return kept[0]
        return evolve(e, values=tuple(kept))

    def x_Arith(self, e):
        left, right = self.expr(e.left), self.expr(e.right)
        if e.op in ("//", "%") and is_const(right) and right.value == 0:
            raise CheckError(right.pos, "division by zero")
        if is_const(left) and is_const(right):
            return number(_ARITH[e.op](left.value, right.value), e.pos)
        return evolve(e, left=left, right=right)

    def x_Compare(self, e):
        if e.op in ("in", "not in") and isinstance(e.right, ir.Range):
            return self.in_range(e)
        left, right = self.expr(e.left), self.expr(e.right)
        if e.op in _CMP and is_const(left) and is_const(right):
            return const(_CMP[e.op](left.value, right.value), T.BOOL, e.pos)
        return evolve(e, left=left, right=right)

    def x_Ternary(self, e):
        cond = self.expr(e.cond)
        if is_const(cond):  # only the branch taken: the options may rule the other out (a seat nobody takes)
            return self.expr(e.then) if cond.value else self.expr(e.orelse)
        return evolve(e, cond=cond, then=self.expr(e.then), orelse=self.expr(e.orelse))

    def in_range(self, e):
        """`x in lo..hi` is `lo <= x <= hi`: folded, or compared; the range is never made (a
        left side that is not a plain name keeps the membership test, which Python answers
        for a range without making it)."""
        left, lo, hi = self.expr(e.left), self.expr(e.right.lo), self.expr(e.right.hi)
        inside = e.op == "in"
        if is_const(left) and is_const(lo) and is_const(hi):
            return const((lo.value <= left.value <= hi.value) == inside, T.BOOL, e.pos)
        if not isinstance(left, (ir.Const, ir.Local, ir.Opt, ir.Global)):
            return evolve(e, left=left, right=evolve(e.right, lo=lo, hi=hi))
        if inside:
            return ir.BoolOp("and", (ir.Compare("<=", lo, left, T.BOOL, e.pos),
                                     ir.Compare("<=", left, hi, T.BOOL, e.pos)), T.BOOL, e.pos)
        return ir.BoolOp("or", (ir.Compare("<", left, lo, T.BOOL, e.pos),
                                ir.Compare(">", left, hi, T.BOOL, e.pos)), T.BOOL, e.pos)

    def x_Range(self, e):
        lo, hi = self.expr(e.lo), self.expr(e.hi)
        if is_const(lo) and is_const(hi) and hi.value - lo.value + 1 > budgets.MAX_CHOICE_VALUES:
            raise CheckError(e.pos, f"the range {lo.value}..{hi.value} holds {hi.value - lo.value + 1:,} values, "
                                    f"and a range gone through holds at most {budgets.MAX_CHOICE_VALUES:,}",
                             hint="a number that large is better kept in a counter than chosen or looped over")
        return evolve(e, lo=lo, hi=hi)

    def x_ListLit(self, e):
        items = tuple(self.expr(i) for i in e.items)
        if all(is_const(i) for i in items):
            return const(tuple(i.value for i in items), e.type, e.pos)
        return evolve(e, items=items)

    def x_ListJoin(self, e):
        return evolve(e, left=self.expr(e.left), right=self.expr(e.right))

    def x_DirUnion(self, e):
        left, right = self.expr(e.left), self.expr(e.right)
        if not (is_const(left) and is_const(right)):
            raise CheckError(e.pos, "direction sets can be joined only when both are fixed")
        dirs = tuple(left.value) + tuple(d for d in right.value if d not in left.value)
        return const(dirs, T.DIRSET, e.pos)

    def x_AsDirset(self, e):
        c = self.expr(e.operand)
        if is_const(c):
            return const((list(BUILTIN_DIRECTIONS)[c.value],), T.DIRSET, e.pos)
        return evolve(e, operand=c)

    def x_Attr(self, e):
        obj = self.expr(e.obj)
        if is_const(obj) and self.world is not None:
            if obj.type == T.CELL:
                table = self.world.RANK if e.name == "rank" else self.world.FILE
                return const(table[obj.value], T.INT, e.pos)
            if obj.type == T.PIECE:
                return const(self.world.attr_tables[e.name][obj.value], e.type, e.pos)
        return evolve(e, obj=obj)

    def x_Index(self, e):
        obj, idx = self.expr(e.obj), self.expr(e.index)
        if is_const(idx) and isinstance(idx.value, int) and not isinstance(idx.value, bool) and idx.value < 1:
            raise CheckError(e.index_pos, f"levels and positions count from 1, so [{idx.value}] is never there",
                             hint="the bottom piece of a stack, and the first of a list, is [1]")
        return evolve(e, obj=obj, index=idx)

    def x_TableGet(self, e):
        table = self.table(e.name)
        key = self.expr(e.key)
        if is_const(key):
            if key.value not in table.values:
                raise CheckError(e.key_pos, f"table {e.name!r} has no entry for this key")
            return const(table.values[key.value], table.value_type, e.pos)
        # A key that varies must find an entry whatever its value (players and attribute values).
        plan = self.plan
        if key.type == T.PLAYER:
            domain = list(zip(range(len(plan.players)), plan.players))
            owner = next((a for a in plan.attributes.values() if a.players), None)
            if may_be_neutral(key) and owner is not None:
                domain = list(zip(owner.numbers, owner.values))
        elif key.type.name == "enum" and key.type.attr in plan.attributes:
            a = plan.attributes[key.type.attr]
            domain = list(zip(a.numbers, a.values))
        else:
            domain = []
        missing = [name for value, name in domain if value not in table.values]
        if missing:
            raise CheckError(e.key_pos, f"table {e.name!r} has no entry for {missing[0]!r}, "
                                        f"which {e.key_pos.snippet() or 'the key'} can be",
                             hint=f"add it to the table: {missing[0]}: ...")
        return evolve(e, key=key)

    def x_Call(self, e):
        args = tuple(self.expr(a) for a in e.args)
        w = self.world
        if e.fn in WORLD_FOLDS and w is not None and all(is_const(a) for a in args) and len(args) <= 2:
            v = [a.value for a in args]
            value = {
                "corner": lambda: w.CORNER[v[0]],
                "edge": lambda: w.EDGE[v[0]],
                "neighbours": lambda: w.neighbours(v[1], v[0]),
                "line": lambda: w.line_cells(v[1], v[0]),
                "step": lambda: w.STEP[v[1]][v[0]],
                "distance": lambda: w.DIST[v[0]][v[1]],
                "direction": lambda: w.DIRTO[v[0]][v[1]] if min(v) >= 0 else -1,
            }[e.fn]()
            return const(value, e.type, e.pos)
        if e.fn == "step" and len(args) == 3 and is_const(args[2]) and w is not None:
            if not 0 <= args[2].value <= w.longest:
                return const(-1, T.CELL, e.pos)
        if e.fn in ("ways", "showing") and all(is_const(a) for a in args):
            return const((ways if e.fn == "ways" else showing)(*(a.value for a in args)), T.INT, e.pos)
        if e.fn in ("min", "max") and len(args) >= 2 and all(is_const(a) for a in args):
            return const((min if e.fn == "min" else max)(a.value for a in args), T.INT, e.pos)
        return evolve(e, args=args)

    def x_PieceLit(self, e):
        parts = tuple((n, self.expr(v)) for n, v in e.parts)
        if all(is_const(v) for _, v in parts) and self.world is not None:
            return const(self.world.piece_code({n: v.value for n, v in parts}), T.PIECE, e.pos)
        return evolve(e, parts=parts)

    def x_Comp(self, e):
        fors = tuple(evolve(f, iter=self.expr(f.iter), cond=self.expr(f.cond)) for f in e.fors)
        return evolve(e, elt=self.expr(e.elt), fors=fors)

    # ---- statements -------------------------------------------------------------------------

    def block(self, stmts) -> tuple:
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return tuple(out)

    def stmt(self, s) -> list:
        if isinstance(s, ir.If):
            cond = self.expr(s.cond)
            if is_const(cond):
                kept = s.body if cond.value else s.orelse
                return list(self.block(kept))
            return [evolve(s, cond=cond, body=self.block(s.body), orelse=self.block(s.orelse))]
        if isinstance(s, ir.Let):
            return [evolve(s, value=self.expr(s.value))]
        if isinstance(s, ir.For):
            return [evolve(s, iter=self.expr(s.iter), cond=self.expr(s.cond), body=self.block(s.body))]
        if isinstance(s, ir.SetCounter):
            return [evolve(s, target=self.expr(s.target), value=self.expr(s.value))]
        if isinstance(s, ir.Effect):
            return [evolve(s, args=tuple(self.expr(a) for a in s.args))]
        if isinstance(s, ir.Outcome):
            return [evolve(s, who=self.expr(s.who), points=self.expr(s.points))]
        if isinstance(s, ir.RankBy):
            return [evolve(s, keys=tuple(self.expr(k) for k in s.keys))]
        raise AssertionError(f"unknown statement {s!r}")

    # ---- actions ----------------------------------------------------------------------------

    def action(self, a: ir.Action) -> ir.Action:
        items = self.items(a.items)
        after = self.items(a.after_items) if a.after_items is not None else None
        return evolve(a, items=items, after_items=after)

    def items(self, items: Iterable[ir.Item]) -> tuple[ir.Item, ...]:
        out: list[ir.Item] = []
        for it in items:
            if isinstance(it, (ir.When, ir.Require)):
                out.append(evolve(it, cond=self.expr(it.cond)))
            elif isinstance(it, ir.Choice):
                out.append(evolve(it, domain=self.choice_domain(it), cond=self.expr(it.cond)))
            elif isinstance(it, ir.Let):
                out.append(evolve(it, value=self.expr(it.value)))
            elif isinstance(it, ir.Effects):
                out.append(evolve(it, body=self.block(it.body)))
            elif isinstance(it, ir.Repeat):
                out.append(evolve(it, start=self.expr(it.start), cond=self.expr(it.cond), items=self.items(it.items)))
            elif isinstance(it, ir.Measure):
                out.append(evolve(it, value=self.expr(it.value)))
            else:
                raise AssertionError(f"unknown action item {it!r}")
        return tuple(out)

    def choice_domain(self, it: ir.Choice):
        """A choice's domain, folded; a range of more than budgets.MAX_CHOICE_VALUES values is
        refused at the choice (one move a value, at every position)."""
        dom = it.domain
        if isinstance(dom, ir.Range):
            lo, hi = self.expr(dom.lo), self.expr(dom.hi)
            if is_const(lo) and is_const(hi) and hi.value - lo.value + 1 > budgets.MAX_CHOICE_VALUES:
                raise CheckError(it.pos, f"the choice {it.name!r} goes through {hi.value - lo.value + 1:,} values "
                                         f"({lo.value}..{hi.value}), and a choice has at most "
                                         f"{budgets.MAX_CHOICE_VALUES:,}",
                                 hint="a choice is one move per value at every position: choose from fewer")
        folded = self.expr(dom)
        if is_const(folded) and isinstance(folded.value, tuple) and len(folded.value) > budgets.MAX_CHOICE_VALUES:
            raise CheckError(it.pos, f"the choice {it.name!r} goes through {len(folded.value):,} values, and a "
                                     f"choice has at most {budgets.MAX_CHOICE_VALUES:,}")
        return folded

    # ---- tables and control -----------------------------------------------------------------

    def table(self, name: str) -> FoldedTable:
        if name in self.tables:
            return self.tables[name]
        decl = self.plan.tables.get(name)
        if decl is None:  # refused by resolve: the mistake is reported there
            raise CheckError(None, f"table {name!r} is broken")
        values = {}
        for k_e, v_e in decl.entries:
            if isinstance(k_e, ir.Const) and k_e.type == T.PLAYER and k_e.value in self.unseated:
                continue  # an entry for a seat nobody takes at these options
            k, v = self.expr(k_e), self.expr(v_e)
            if not is_const(k):
                raise CheckError(k_e.pos, "a table key must be fixed: a value, a player or a number")
            if not is_const(v):
                raise CheckError(v_e.pos, "a table entry must be fixed: it may use options, values and numbers")
            if k.value in values:
                raise CheckError(k_e.pos, "this key is already in the table")
            values[k.value] = v.value
        folded = FoldedTable(name, decl.key_type, decl.value_type, values)
        self.tables[name] = folded
        return folded

    def surface(self) -> tuple:
        """The open table at these options: (lattice step, width and length of each kind of piece),
        every one a fixed, positive whole number of units."""
        plan, w = self.plan, self.world
        assert w is not None  # folded with the world: only the board's size is folded before it
        lattice = plan.surface["lattice"]
        assert not isinstance(lattice, tuple)  # the step (width and length are (piece, expression))
        step = self.expr(lattice)
        if not is_const(step) or step.value <= 0:
            raise CheckError(lattice.pos, "the lattice's step must be a fixed length above 0",
                             hint="for example lattice: 1in")
        measures = []
        for name in ("width", "length"):
            measure = plan.surface[name]
            assert isinstance(measure, tuple)
            piece, e = measure
            out = []
            for code in range(w.npieces):
                self.bound = {piece.name: const(code, T.PIECE, piece.pos)}
                try:
                    v = self.expr(e)
                finally:
                    self.bound = {}
                if not is_const(v) or v.value <= 0:
                    raise CheckError(e.pos, f"the {name} of every piece must be a fixed length above 0, "
                                            f"not {v.value if is_const(v) else 'a changing value'} for "
                                            f"{w.piece_text(code)!r}", hint="for example 1.375in")
                if v.value % 2:
                    raise CheckError(e.pos, f"the {name} of {w.piece_text(code)!r} is an odd number of the table's "
                                            "units (1/2000 in), so its half, where its centre lies, is not one",
                                     hint="give widths and lengths to the thousandth of an inch: 0.6in, 1.375in")
                out.append(v.value)
            measures.append(tuple(out))
        return (step.value, measures[0], measures[1])

    def control(self) -> tuple:
        """Who controls a stack with each kind of piece on top."""
        plan, w = self.plan, self.world
        assert w is not None  # folded with the world: only the board's size is folded before it
        n = len(plan.players)
        if plan.control is None:
            owner = next((a for a in plan.attributes.values() if a.players), None)
            if owner is None:
                return tuple(-1 for _ in range(w.npieces))
            return tuple(v if v < n else -1 for v in w.attr_tables[owner.name])
        out = []
        by_place = any(isinstance(n, ir.Local) and n.name == "cell" for n in ir.walk(plan.control))
        for cell, code in itertools.product(range(w.ncells) if by_place else [-1], range(w.npieces)):
            self.bound = {"top": const(code, T.PIECE, plan.control_pos), "cell": const(cell, T.CELL, plan.control_pos)}
            try:
                c = self.expr(plan.control)
            finally:
                self.bound = {}
            if c.type != T.PLAYER or not is_const(c):
                raise CheckError(plan.control.pos,
                                 f"control must name a player from the top piece and its cell, not a {c.type}",
                                 hint="for example: control: top.owner")
            out.append(c.value if c.value < n else -1)  # a neutral value: nobody
        return tuple(out)
