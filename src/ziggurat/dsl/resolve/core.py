"""What every part of the resolve pass shares: where a rule is, what is in scope, and type checks.

The context of a rule is a frozen `Ctx`: `where` it is (an option, the board, a table, setup, a
move, its effects, the end block, an invariant) and the names bound around it. Resolving never
changes a context: binding a name makes a new one. A mistake raises `CheckError` at the node;
the driver collects it as a diagnostic and goes on with the next declaration.
"""

from __future__ import annotations

import enum
from typing import NoReturn, Optional

from attrs import define, evolve, field, frozen

from .. import ast, binder_pos, ir
from .. import types as T
from ..model import BUILTIN_DIRSETS, Model


GLOBAL_NAMES = ("cells", "players", "mover", "ply", "files", "ranks", "unlimited", "no_moves", "last", "none")
"""The built-in names every rule sees (resolve.names), besides the direction sets."""


def _declared_at(node) -> str:
    line = getattr(getattr(node, "pos", None), "line", 0)
    return f" of line {line}" if line else ""


class Where(enum.Enum):
    OPTION = "option"  # an option's default or range: numbers, true/false and earlier options
    BOARD = "board"  # the board's size: options
    TABLE = "table"  # a table entry, `control`, a direction set: fixed values
    SETUP = "setup"  # the setup block: no mover, no ply
    ACTION = "action"  # the conditions and choices of a move
    EFFECTS = "effects"  # a move's `do:` block: the game changes here
    END = "end"  # the end block
    INVARIANT = "invariant"  # an invariant or the heuristic
    DEF = "def"  # the body of a def that no rule calls: checked for names, wherever it might go

    def allows(self, where: "Where") -> bool:
        """Whether what is allowed only `where` may stand here (an unused def's body may be
        meant for anywhere)."""
        return self == where or self == Where.DEF

    @property
    def changes_game(self) -> bool:
        return self in (Where.EFFECTS, Where.SETUP)

    @property
    def before_board(self) -> bool:
        """Rules read before any board exists: they cannot look at cells."""
        return self in (Where.OPTION, Where.BOARD, Where.TABLE)


@frozen
class Ctx:
    """Where a rule is and what its names mean there (a new Ctx for every new binding)."""

    where: Where
    scope: dict = {}  # rules name -> ir expression (a Local, or a def's argument)
    options: Optional[tuple] = None  # the options visible (None: all of them)
    inlining: tuple = ()  # the defs being expanded, outermost first
    previous: dict = {}  # a repeat's variable -> the Local holding its value in the pass before
    passing: Optional["Pass"] = None  # the repeat pass the rule is in
    bound: dict = {}  # rules name -> (what bound it, the Pos of its name): for the hiding error

    def bind(self, name: str, value, what: Optional[str] = None, pos=None) -> "Ctx":
        scope = dict(self.scope)
        scope[name] = value
        if what is None:
            return evolve(self, scope=scope)
        bound = dict(self.bound)
        bound[name] = (what, pos)
        return evolve(self, scope=scope, bound=bound)

    def at(self, where: Where) -> "Ctx":
        return evolve(self, where=where)


@define
class Pass:
    """The repeat pass a rule is in: the names bound outside it, and the lists of values from the
    passes before (`earlier(x)`) its rules have asked for, by the Local they follow."""

    var: str  # the repeat's variable, as the rules name it
    outside: dict  # the scope around the repeat
    earlier: dict = field(factory=dict)  # the followed Local's name -> (that Local, the list's Local)


class CheckError(Exception):
    """A mistake in a rule, at a node: the driver turns it into a Diagnostic."""

    def __init__(self, pos, message: str, hint: Optional[str] = None, expected: Optional[str] = None):
        super().__init__(message)
        self.pos, self.message, self.hint, self.expected = pos, message, hint, expected


class ScopeError(CheckError):
    """A name bound where one of its spelling is visible: a mistake whatever the types."""


def numeric(t: T.Type, model: Model) -> bool:
    """Whether values of type t are numbers (ints, and attribute values that carry numbers)."""
    if t == T.INT:
        return True
    if t.name == "enum":
        a = model.attributes.get(t.attr)
        return bool(a and a.numeric)
    return False


def may_be_neutral(e) -> bool:
    """Whether a player-typed expression may hold a neutral value (`colour: players, green`)."""
    if isinstance(e, (ir.Local, ir.Attr)):
        return e.neutral
    if isinstance(e, ir.Ternary):
        return may_be_neutral(e.then) or may_be_neutral(e.orelse)
    return False


def const(value, typ: T.Type, pos=ast.NOWHERE) -> ir.Const:
    return ir.Const(value, typ, pos)


class Resolver:
    """The state of one resolve pass over one model: the model, and fresh names."""

    def __init__(self, model: Model):
        self.m = model
        self._fresh = 0
        # In an action: the plan's names its bindings have (each binding its own), and its choices.
        self.taken: Optional[set] = None
        self.reserved: frozenset = frozenset()
        self.diagnostics: list = []  # what was found and reported without stopping
        # Kept for the whole pass by one module each: names (direction sets), decls (tables) and
        # calls (defs).
        self.direction_sets: dict[str, ir.Expr] = {}  # a declared direction set, resolved once
        self.resolving_dirs: set[str] = set()  # the direction sets being resolved: a circle is an error
        self.table_decls: dict[str, ir.TableDecl | CheckError] = {}  # a table, resolved once, or its mistake
        self.inlined: set[str] = set()  # the defs some rule uses
        self.expansions: dict[tuple, tuple[int, int]] = {}  # (def, its arguments' sizes) -> (nodes, depth)
        self.expanded = 0  # the nodes that the uses of defs outside any def expand to, so far
        self.called: set[str] = set()  # the procedures some rule calls (resolve.procedures)
        self.procedure_nodes = 0  # the nodes of rules the calls of procedures are written out to, so far

    # ---- errors and types -------------------------------------------------------------------

    def fail(self, node, message: str, hint: Optional[str] = None, expected: Optional[str] = None) -> NoReturn:
        raise CheckError(getattr(node, "pos", None), message, hint, expected)

    def report(self, pos, message: str, hint: Optional[str] = None, severity: str = "error",
               expected: Optional[str] = None) -> None:
        """A mistake that does not stop the part it is in from being checked further."""
        from ...errors import diagnostic_at

        self.diagnostics.append(diagnostic_at(pos, message, hint=hint, severity=severity, expected=expected))

    def attempt(self, fn, *args):
        """fn(*args), or None with the CheckError reported (one reported already: no message)."""
        try:
            return fn(*args)
        except CheckError as e:
            if e.message:
                self.report(e.pos, e.message, hint=e.hint, expected=e.expected)
            return None

    def compatible(self, got: T.Type, want: T.Type) -> bool:
        if got == want or got == T.ANY or want == T.ANY:
            return True
        if want == T.INT and numeric(got, self.m):
            return True
        if want == T.BOOL and got.name == "list":
            return False
        if got.name == "list" and want.name == "list":
            if got.elem is None or want.elem is None:  # no list type is made without its element's
                return False
            return self.compatible(got.elem, want.elem)
        if got == T.ZONE and want == T.STACK:
            return True
        return False

    def expect(self, e, want: T.Type, node, what: str):
        if self.compatible(e.type, want):
            return e
        self.fail(node, f"{what} must be {T.a(want)}, not {T.a(e.type)}")

    def fresh(self, name: str) -> str:
        """A new unique name for a binding of `name` (no rules name contains '#')."""
        self._fresh += 1
        return f"{name}#{self._fresh}"

    def binder(self, name: str, ctx: Ctx, node=None, what: str = "loop variable") -> str:
        """The plan's name for a new binding of `name` (a let, a loop variable, a repeat's
        variable), after checking that it hides nothing.

        Scope rule: within one action (its after block included), one block, or one def, a name
        is bound once where it is visible: binding it again where it is still in scope (a loop
        variable named like a choice, a let, a def's parameter or an enclosing loop variable) is
        an error at the second binder. A def's body is a scope of its own: its names never meet
        the caller's.

        In an action, every binding gets a name of its own in the plan: the rules name the first
        time it is bound (and when it is not a choice of the action), else a fresh `name#k`. The
        backend turns each plan name into one Python name, and it computes an action's bindings
        in other orders than the rules read them (a move's choices are read first when it is
        applied; lets only where an effect needs them), so two bindings never share one. A
        block of statements (setup, the end block) runs in the order written, so a name bound
        again after the first binding's scope ended may keep its spelling there. A def's names
        are always fresh: they never meet the caller's."""
        if name in ctx.scope:
            self.hides(name, ctx, node, what)
        self.warn_if_global(name, node, what)
        if ctx.inlining or name in self.reserved or (self.taken is not None and name in self.taken):
            var = self.fresh(name)
        else:
            var = name
        if self.taken is not None:
            self.taken.add(var)
        return var

    def global_meaning(self, name: str) -> Optional[str]:
        """What a name means in the whole ruleset when no local binding hides it ("the counter
        'n'"), or None: a declared option, player, attribute value, zone, counter, table or
        direction set, or a built-in name (`mover`, `cells`, ...). Single-letter directions
        (`n`, `e`, `s`, `w`) are left out: they are the usual names of short-lived locals, and
        a direction is written in other ways too (`orthogonal`, `n + e`)."""
        m = self.m
        for kind, table in (("option", m.options), ("counter", m.counters), ("zone", m.zones),
                            ("table", m.tables), ("direction set", m.directions)):
            if name in table:
                return f"the {kind} {name!r}" + _declared_at(table[name])
        if name in m.players:
            return f"the player {name!r}"
        owners = m.value_owners(name)
        if owners:
            return f"the value {name!r} of {owners[0]!r}"
        if name in GLOBAL_NAMES or name in BUILTIN_DIRSETS or (name == "placed" and m.surface_node is not None):
            return f"the built-in name {name!r}"
        return None

    def warn_if_global(self, name: str, node, what: str) -> None:
        """A warning where a local binding (a let, a loop variable, a choice, a repeat's
        variable, a def's parameter) takes the name of something the whole ruleset sees: inside
        its scope the local wins, silently, and the rule reads something else than it seems to."""
        meaning = self.global_meaning(name)
        if meaning is None:
            return
        self.report(name_pos(getattr(node, "pos", None), name), f"the {what} {name!r} hides {meaning}",
                    hint=f"rename the {what}: inside its scope {name!r} means it, not {meaning}",
                    severity="warning")

    def hides(self, name: str, ctx: Ctx, node, what: str) -> NoReturn:
        """The error for a binding of `name` where `name` is bound already."""
        pos = name_pos(getattr(node, "pos", None), name)
        inlined = ("procedure" if ctx.inlining[-1] in self.m.procedures else "def") if ctx.inlining else None
        where = inlined if inlined else "action" if ctx.where in (Where.ACTION, Where.EFFECTS) else "block"
        if name in ctx.bound:
            other, at = ctx.bound[name]
            line = getattr(at, "line", 0)
            first = f"the {other} {name!r}" + (f" of line {line}" if line else "")
        elif ctx.inlining and name in getattr(self.m.defs.get(ctx.inlining[-1]), "params", ()):
            first = f"the parameter {name!r} of def {ctx.inlining[-1]}()"
        elif ctx.inlining and name in getattr(self.m.procedures.get(ctx.inlining[-1]), "params", ()):
            first = f"the parameter {name!r} of procedure {ctx.inlining[-1]}()"
        else:
            first = f"the name {name!r} bound around it"
        raise ScopeError(pos, f"the {what} {name!r} hides {first}",
                         f"rename the {what}: a name is bound once in its {where}")

    def loop(self, f, ctx: Ctx):
        """A `for VAR in ITER [where COND]` (a statement's or a comprehension's): the unique name
        of its variable, what it goes over, its condition, and the context inside it."""
        it = self.expr(f.iter, ctx)
        elem = T.element(it.type)
        if elem is None:
            self.fail(f.iter, f"cannot loop over {T.a(it.type)}")
        var = self.binder(f.var, ctx, f)
        inner = ctx.bind(f.var, ir.Local(var, elem, f.pos), "loop variable", name_pos(f.pos, f.var))
        cond = None
        if f.cond is not None:
            cond = self.expect(self.expr(f.cond, inner), T.BOOL, f.cond, "a 'where' condition")
        return var, it, cond, inner

    # ---- dispatch ---------------------------------------------------------------------------

    def expr(self, node, ctx: Ctx):
        handler = EXPRESSIONS.get(type(node))
        if handler is None:
            self.fail(node, f"a {type(node).__name__.lower()} cannot be used here")
        return handler(self, node, ctx)

    def as_dirset(self, e):
        """A single direction where a set of directions is wanted: the set of that one."""
        if e.type != T.DIR:
            return e
        return ir.AsDirset(e, pos=e.pos)

    def block(self, stmts, ctx: Ctx) -> tuple:
        out = []
        for s in stmts:
            r = self.stmt(s, ctx)
            if isinstance(r, tuple):  # a let: the statement, and the context after it
                stmt, ctx = r
                out.append(stmt)
            elif isinstance(r, list):  # a procedure's call: the statements it stands for
                out += r
            else:
                out.append(r)
        return tuple(out)

    def stmt(self, s, ctx: Ctx):
        handler = STATEMENTS.get(type(s))
        if handler is None:
            self.fail(s, "this statement cannot be used here")
        return handler(self, s, ctx)


name_pos = binder_pos.name_pos  # where a binder's name is written (kept here for the resolver's modules)


# Handlers by AST node type, filled by the modules of this package as the package is imported
# (its __init__ imports them all before anyone can use a Resolver).
EXPRESSIONS: dict = {}
STATEMENTS: dict = {}


def handles(table: dict, *node_types):
    def register(fn):
        for t in node_types:
            table[t] = fn
        return fn
    return register
