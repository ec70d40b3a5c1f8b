"""A checked model plus option values -> one Python module specialised for that game.

The module holds plain functions over a `State`: `setup`, `legal` (every legal move as a tuple
`(action, choice, ...)`), `apply` / `undo` with an undo log, `outcome`, `invariants` and
`explain` (why a move is illegal). Options are constants, so a branch that an option rules out
is not in the code at all; rays, attribute tables and the stack controller are precomputed
tuples. `compile --show` prints the module.
"""

from __future__ import annotations

import itertools
import linecache
import re
from typing import Optional

from attrs import define, field

from ..dsl import ast
from ..dsl import types as T
from ..errors import Diagnostic, GameError, Reporter, RulesetError
from ..dsl.model import Model
from .translate import UNLIMITED, CheckFailed, Code, Translator, Writer, collection, const
from . import linemap
from .world import World
from .helpers import HELPERS


@define
class ActionInfo:
    index: int
    name: str
    fmt: str
    choices: list  # [name, Type]: the action's own choices, then the `after` block's
    node: ast.Action
    nbase: int = 0  # how many of `choices` are the action's own
    after_fmt: Optional[str] = None  # the notation of the `after` part, when the ruleset has one
    repeated: set = field(factory=set)  # choices made once per pass of a `repeat` (a list in the move)

    @property
    def items(self) -> list:
        """The action's items, then (after a marker) those of the ruleset's `after` block."""
        return list(self.node.items) + ([AFTER] + list(self.after.items) if self.after else [])

    after: Optional[ast.After] = None


class _AfterMarker:
    """Where an action's own items end and the `after` block's begin."""

    pos = ast.Pos(0, 0)


AFTER = _AfterMarker()


@define
class _PassEnd:
    """Where a pass of a `repeat` ends: go on with another pass, or with what follows the repeat."""

    node: ast.Repeat
    items: list  # the action's items, around the repeat
    index: int  # the repeat's place among them
    scope: dict  # what was known before the repeat
    fn: str  # the generated function that makes one pass
    path: str  # the generated list of the values chosen so far
    pos: ast.Pos = ast.Pos(0, 0)


# How many passes a repeat may make before the game is stopped as broken (a pass that changes
# nothing could otherwise go on for ever).
MAX_PASSES = 200


def _forget_cells(scope: dict) -> dict:
    """The scope after effects: cells may hold other stacks now, so nothing known about them stays."""
    return {n: (Code(c.src, T.CELL) if c.type == T.CELL and not c.const else c) for n, c in scope.items()}


def _flat(items) -> list:
    """The items with each repeat's own items in its place (after it)."""
    out = []
    for x in items:
        out.append(x)
        if isinstance(x, ast.Repeat):
            out.extend(x.items)
    return out


@define
class Compiled:
    """One game, compiled: the generated source, its namespace, and what notation needs."""

    model: Model
    options: dict
    world: World
    source: str
    namespace: dict
    actions: list
    invariant_texts: list
    filename: str
    changes_pieces: bool = False  # the ruleset uses change(): pieces keep their number, not their kinds
    creates_pieces: bool = False  # the ruleset uses place() in moves: pieces come into play
    option_bounds: dict = field(factory=dict)  # option -> (low, high) of a range, else None

    def __getattr__(self, name):
        try:
            return self.namespace[name]
        except KeyError:
            raise AttributeError(name) from None


# ---- options ---------------------------------------------------------------------------------


def parse_option_value(opt: ast.Option, text, bounds) -> object:
    """Turn a --set value (text or already a value) into the option's type, or raise GameError."""
    kind = opt.type.kind if opt.type else "int"
    if isinstance(text, str):
        t = text.strip().lower()
        if kind == "bool":
            if t in ("true", "yes", "on", "1"):
                return True
            if t in ("false", "no", "off", "0"):
                return False
            raise GameError(f"option {opt.name!r} is true or false, not {text!r}")
        if kind == "enum":
            if t not in opt.type.values:
                raise GameError(f"option {opt.name!r} is one of {', '.join(opt.type.values)}, not {text!r}")
            return t
        try:
            value = int(t)
        except ValueError:
            raise GameError(f"option {opt.name!r} takes a whole number, not {text!r}") from None
    else:
        value = text
    if kind in ("range", "int"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameError(f"option {opt.name!r} takes a whole number, not {value!r}")
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise GameError(f"option {opt.name!r} must be between {bounds[0]} and {bounds[1]}, not {value}")
    if kind == "bool" and not isinstance(value, bool):
        raise GameError(f"option {opt.name!r} is true or false, not {value!r}")
    return value


def resolve_options(model: Model, overrides: dict, diagnostics: Optional[list] = None,
                    bounds_out: Optional[dict] = None) -> dict:
    """Option values in declaration order: defaults, then overrides, each checked against its type.

    With `diagnostics` a list, problems in the ruleset's own defaults are appended to it (as the
    checker wants); otherwise they raise. Bad overrides always raise GameError.
    """
    unknown = [k for k in overrides if k not in model.options]
    if unknown:
        from ..errors import did_you_mean

        name = unknown[0]
        hint = did_you_mean(name, model.options)
        known = ", ".join(model.options) or "none"
        raise GameError(f"unknown option {name!r}" + (f"; {hint}" if hint else "") + f" (options: {known})")
    values: dict = {}
    world = World(model, 0, 0)
    for opt in model.options.values():
        rep = model.reporter_for(opt)
        tr = Translator(model, dict(values), world)
        tr.context, tr.rep = "option", rep
        try:
            bounds = None
            if opt.type is not None and opt.type.kind == "range":
                lo = tr.expect(tr.expr(opt.type.lo, {}), T.INT, opt.type.lo, "the low end of the range")
                hi = tr.expect(tr.expr(opt.type.hi, {}), T.INT, opt.type.hi, "the high end of the range")
                if not (lo.const and hi.const):
                    tr.fail(opt.type, "a range must be fixed")
                if lo.value > hi.value:
                    tr.fail(opt.type, f"the range {lo.value}..{hi.value} is empty", hint="write the low end first")
                bounds = (lo.value, hi.value)
            default = tr.expr(opt.default, {})
            if not default.const:
                tr.fail(opt.default, "an option's default must be fixed")
            try:
                value = parse_option_value(opt, default.value, bounds)
            except GameError as e:
                tr.fail(opt.default, f"the default does not fit: {e}")
        except CheckFailed as e:
            if diagnostics is None:
                raise RulesetError([e.rep.make(e.pos, e.message, hint=e.hint)]) from None
            diagnostics.append(e.rep.make(e.pos, e.message, hint=e.hint))
            value = False if opt.type and opt.type.kind == "bool" else (bounds[0] if bounds else 0)
        if opt.name in overrides:
            value = parse_option_value(opt, overrides[opt.name], bounds)
        values[opt.name] = value
        if bounds_out is not None:
            bounds_out[opt.name] = bounds
    # Checks: contradictions between options.
    for chk in model.checks:
        rep = model.reporter_for(chk)
        tr = Translator(model, dict(values), world)
        tr.context, tr.rep = "option", rep
        try:
            cond = tr.expect(tr.expr(chk.cond, {}), T.BOOL, chk.cond, "a check")
            if not cond.const:
                tr.fail(chk.cond, "a check may use only options")
            if not cond.value:
                shown = ", ".join(f"{k}={v}" for k, v in overrides.items())
                message = (f"these options do not go together ({shown}): {chk.message}" if overrides
                           else f"the default options contradict a check: {chk.message}")
                if diagnostics is None:
                    raise GameError(message)
                diagnostics.append(rep.make(chk.pos, message))
        except CheckFailed as e:
            if diagnostics is None:
                raise RulesetError([e.rep.make(e.pos, e.message, hint=e.hint)]) from None
            diagnostics.append(e.rep.make(e.pos, e.message, hint=e.hint))
    return values


# ---- the compiler ----------------------------------------------------------------------------


class Compiler:
    def __init__(self, model: Model, options: dict):
        self.m = model
        self.options = options
        self.diagnostics: list = []

    def error(self, e: CheckFailed) -> None:
        rep = e.rep or next(iter(self.m.owner.values()))
        self.diagnostics.append(rep.make(e.pos, e.message, hint=e.hint, expected=e.expected))

    def attempt(self, fn, *args):
        try:
            return fn(*args)
        except CheckFailed as e:
            self.error(e)
            return None

    def board(self) -> World:
        files = ranks = 1
        tr = Translator(self.m, self.options, World(self.m, 0, 0))
        tr.context = "board"
        got = {}
        for name, setting in self.m.board.items():
            tr.rep = self.m.reporter_for(setting)
            if name not in ("files", "ranks"):
                self.error(CheckFailed(tr.rep, setting.pos, f"unknown board setting {name!r}",
                                       hint="a grid board has files and ranks"))
                continue
            c = self.attempt(lambda: tr.expect(tr.expr(setting.value, {}), T.INT, setting.value, f"the number of {name}"))
            if c is None:
                continue
            if not c.const:
                self.error(CheckFailed(tr.rep, setting.value.pos, f"the number of {name} must be fixed"))
            elif not 1 <= c.value <= 26:
                self.error(CheckFailed(tr.rep, setting.value.pos, f"a board has 1 to 26 {name}, not {c.value}"))
            else:
                got[name] = c.value
        if self.m.board_node is None and self.m.players:
            rep = next(iter(self.m.owner.values()))
            self.error(CheckFailed(rep, ast.Pos(1, 1), "the ruleset declares no board",
                                   hint="add: board:\\n    files: 8\\n    ranks: 8"))
        elif self.m.board_node is not None:
            for name in ("files", "ranks"):
                if name not in got and name not in self.m.board:
                    self.error(CheckFailed(self.m.reporter_for(self.m.board_node), self.m.board_node.pos,
                                           f"the board needs a number of {name}"))
        files, ranks = got.get("files", 1), got.get("ranks", 1)
        return World(self.m, files, ranks)

    def compile(self, filename: str) -> Optional[Compiled]:
        m = self.m
        world = self.board()
        world.build_pieces()
        world.build_slots()
        tr = Translator(m, self.options, world)
        out = Writer()
        # The end block first: whether it tests repetition decides if moves keep a position hash.
        end_w = Writer()
        end_w.depth = 1
        if m.end is not None:
            tr.context, tr.rep = "end", m.reporter_for(m.end)
            self.attempt(tr.block, m.end.body, {}, end_w)
        world.hashing = tr.uses_repetition
        ctrl = self.control(tr, world)
        actions = self.action_infos(tr)
        legal_src = self.legal(tr, actions)
        self._check_notation_clash(actions)
        count_src = self.legal(tr, actions, counting=True) if not self.diagnostics else ""
        do_src = [self.apply_fn(tr, a) for a in actions]
        explain_src = [self.explain_fn(tr, a) for a in actions]
        setup_src = self.setup(tr)
        inv_src = self.invariants(tr)
        counters_src = self.counter_inits(tr, world)
        heur_src = self.heuristic(tr)
        if self.diagnostics:
            return None

        w = out
        w.line(f"# Generated by ziggurat from {', '.join(repr(f) for f in m.files)}. Do not edit.")
        w.line(f"# Options: {', '.join(f'{k}={v!r}' for k, v in self.options.items()) or 'none'}")
        w.line("")
        w.line(f"NCELLS = {world.ncells}; FILES = {world.files}; RANKS = {world.ranks}")
        w.line(f"NPLAYERS = {len(m.players)}; NZONES = {len(world.zone_names)}; NCOUNTERS = {len(world.counter_names)}")
        w.line(f"HASHING = {world.hashing!r}; UNLIMITED = {UNLIMITED}")
        w.line("ALLCELLS = range(NCELLS); ALLPLAYERS = range(NPLAYERS)")
        w.line(f"NEXT = {tuple((p + 1) % max(1, len(m.players)) for p in range(len(m.players)))!r}")
        w.line(f"SIDEKEY = {tuple(hash((4, p)) for p in range(len(m.players)))!r}")
        w.line(f"CTRL = {ctrl!r}")
        for name, table in world.attr_tables.items():
            w.line(f"{world.attr_table_name(name)} = {table!r}")
            a = m.attributes[name]
            if a.numbers != list(range(len(a.numbers))):
                w.line(f"VIDX_{name} = {dict((n, i) for i, n in enumerate(a.numbers))!r}")
        for t in world.tables.values():
            w.line(f"{t.pyname} = {world.table_constant(t)!r}")
        for attr in sorted(world.suffix_sums):
            w.line(f"SUF_{attr} = {{}}  # stack -> sums of {attr} from each level up")
        body = "\n".join(trim_prologue(f) for f in [legal_src, count_src, *do_src, *explain_src, setup_src,
                                                      inv_src, counters_src, heur_src])
        for const_name in ("DIRSET1", "RANK", "FILE", "CORNER", "EDGE", "RAYS", "RAYSTO", "NEIGH", "LINES", "STEP",
                           "DIST", "DIRS", "LINE1", "STEPK"):
            if const_name + "[" in body + "\n".join(end_w.lines) or const_name in ("RANK", "FILE"):
                w.line(f"{const_name} = {getattr(world, const_name)!r}")
        w.line("")
        w.lines.append(body)
        w.line(f"DO = ({', '.join(f'do_{a.index}' for a in actions)},)")
        w.line(f"EXPLAIN = ({', '.join(f'explain_{a.index}' for a in actions)},)")
        w.line("")
        self.apply_undo(w, world)
        w.line("def outcome(st, moves):")
        with w.indent():
            w.line("cells = st.cells; zones = st.zones; counters = st.counters")
            w.line("mover = st.side; ply = st.ply; seen = st.seen")
        w.lines.extend(end_w.lines)
        w.line("    return None")
        source = w.text()
        namespace = {"__name__": "ziggurat_generated", "_ray": _ray, "_suffix": _suffix, "_shuffled": _shuffled,
                     "_product": _product, **HELPERS}
        code = compile(source, filename, "exec")
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(code, namespace)
        compiled = Compiled(m, dict(self.options), world, source, namespace, actions,
                            [i.text for i in m.invariants], filename, tr.uses_change, tr.uses_place)
        linemap.register(compiled)
        return compiled

    # ---- pieces: who controls a stack -----------------------------------------------------------

    def control(self, tr: Translator, world: World) -> tuple:
        m = self.m
        if m.control is None:
            owner = next((a for a in m.attributes.values() if a.players), None)
            if owner is None:
                return tuple(-1 for _ in range(world.npieces))
            return tuple(v if v < len(m.players) else -1 for v in world.attr_tables[owner.name])
        tr.context, tr.rep = "table", m.reporter_for(m.control)
        out = []
        for code in range(world.npieces):
            c = self.attempt(tr.expr, m.control.expr, {"top": const(code, T.PIECE)})
            if c is None:
                return tuple(-1 for _ in range(world.npieces))
            if c.type not in (T.PLAYER,) or not c.const:
                self.error(CheckFailed(tr.rep, m.control.expr.pos,
                                       f"control must name a player from the top piece alone, not a {c.type}",
                                       hint="for example: control: top.owner"))
                return tuple(-1 for _ in range(world.npieces))
            out.append(c.value if c.value < len(m.players) else -1)  # a neutral value: nobody
        return tuple(out)

    # ---- actions ----------------------------------------------------------------------------

    def action_infos(self, tr: Translator) -> list:
        infos = []
        for i, a in enumerate(self.m.actions.values()):
            choices = []
            rep = self.m.reporter_for(a)
            names = set()
            for c in a.choices:
                if c.name in names:
                    rep.error(c.pos, f"{a.name}: choice {c.name!r} is made twice")
                names.add(c.name)
                choices.append([c.name, None])
            fmt = a.fmt if a.fmt is not None else " ".join([a.name] + ["{" + c.name + "}" for c in a.choices])
            info = ActionInfo(i, a.name, fmt, choices, a, nbase=len(choices))
            for rp in (x for x in a.items if isinstance(x, ast.Repeat)):
                if len(rp.choices) != 1:
                    rep.error(rp.pos, f"a repeat makes one choice a pass, and this one makes {len(rp.choices)}",
                              hint="keep one choice in the block; a let can name what follows from it")
                if rp.var in names:
                    rep.error(rp.pos, f"the repeat's {rp.var!r} has the name of a choice", hint="give it another name")
                info.repeated.update(c.name for c in rp.choices)
            self._check_format(a, fmt, names, rep)
            after = self.m.after
            if after is not None:
                arep = self.m.reporter_for(after)
                after_names = set()
                for c in after.choices:
                    if c.name in names or c.name in after_names:
                        arep.error(c.pos, f"the after block's choice {c.name!r} has the name of a choice "
                                   f"of action {a.name!r}", hint="give it another name")
                    after_names.add(c.name)
                    choices.append([c.name, None])
                info.after = after
                info.repeated.update(c.name for rp in after.items if isinstance(rp, ast.Repeat) for c in rp.choices)
                info.after_fmt = (after.fmt if after.fmt is not None
                                  else " ".join("{" + c.name + "}" for c in after.choices))
                if i == 0:
                    self._check_format(after, info.after_fmt, after_names, arep, kind="after block")
            infos.append(info)
        self.diagnostics.extend(d for r in {id(r): r for r in self.m.owner.values()}.values()
                                for d in r.diagnostics if d not in self.diagnostics)
        for r in {id(r): r for r in self.m.owner.values()}.values():
            r.diagnostics.clear()
        return infos

    def _check_notation_clash(self, actions: list) -> None:
        """Two actions whose notations have the same words and the same kinds of choice, in the
        same places, would print different moves the same way."""
        import string

        seen = {}
        for a in actions:
            try:
                parts = list(string.Formatter().parse(a.fmt))
            except ValueError:
                continue  # reported by _check_format
            types = dict((n, t) for n, t in a.choices)
            shape = tuple((literal, None if field is None else str(types.get(field))) for literal, field, _, _ in parts)
            if shape in seen:
                other = seen[shape]
                rep = self.m.reporter_for(a.node)
                self.diagnostics.append(rep.make(
                    a.node.pos, f"actions {other.name!r} and {a.name!r} write their moves alike "
                    f"({other.fmt!r} and {a.fmt!r}), so a move's text would not say which it is",
                    hint=f'make the notation of {a.name!r} differ, for example "{a.name} ' + a.fmt + '"'))
            else:
                seen[shape] = a

    def _check_format(self, a, fmt, names, rep, kind=None):
        import string

        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(fmt) if f is not None]
        except ValueError as e:
            rep.error(a.pos, f"the notation of {kind or 'action ' + repr(a.name)} is malformed: {e}",
                      hint='write choices in braces: "{from}-{to}"')
            return
        for f in fields:
            if f not in names:
                rep.error(a.pos, f"the notation of {kind or 'action ' + repr(a.name)} names {f!r}, which is not one of its choices",
                          hint=f"its choices are: {', '.join(sorted(names)) or 'none'}")
        for n in names:
            if n not in fields:
                rep.error(a.pos, f"the notation of {kind or 'action ' + repr(a.name)} leaves out the choice {n!r}, "
                          "so two different moves would print the same",
                          hint=f'add {{{n}}} to "{fmt}"')

    def _prologue(self, w: Writer, effects: bool = False) -> None:
        """Load the state's parts into locals; `trim` later drops the ones a function never uses."""
        w.line("cells = st.cells; zones = st.zones; counters = st.counters")
        w.line("mover = st.side; ply = st.ply")
        if effects:
            w.line("seats = st.seats; log = st.log; h = st.h; nxt = NEXT[mover]")

    def legal(self, tr: Translator, actions: list, counting: bool = False) -> str:
        """legal(st): every legal move as a tuple. count(st): the same walk, only counting
        (perft's last ply and tests of `no_moves` need no move objects)."""
        w = Writer()
        self._counting = counting
        w.line("def count(st):" if counting else "def legal(st):")
        with w.indent():
            self._prologue(w, effects=True)
            w.line("n = 0" if counting else "out = []; add = out.append")
            self._hoist = (w, len(w.lines))  # where the functions of repeats go: defined once a call
            result = "n" if counting else "out"
            groups = {}
            for a in actions:
                groups.setdefault(1e9 if a.node.is_fallback else -a.node.priority, []).append(a)  # otherwise: last
            keys = sorted(groups)
            for gi, key in enumerate(keys):
                if gi:
                    w.line(f"if {result}:")
                    w.line(f"    return {result}")
                for a in groups[key]:
                    tr.rep = self.m.reporter_for(a.node)
                    tr.context = "action"
                    w.line(f"# action {a.name}", a.node.pos.line)
                    self.attempt(self._choices, tr, a, a.items, 0, {}, w)
            w.line(f"return {result}")
        return w.text()

    def _emit_move(self, a: ActionInfo, scope, w: Writer) -> None:
        if self._counting:
            w.line("n += 1")
            return
        fields = [str(a.index)] + [scope[n].src if n in scope else "None" for n, _ in a.choices]
        w.line(f"add(({', '.join(fields)},))")

    def _choices(self, tr, a: ActionInfo, items, i, scope, w: Writer):
        if i == len(items):
            self._emit_move(a, scope, w)
            return
        it = items[i]
        line = it.pos.line
        if it is AFTER:
            # The end-of-turn part: when it offers no choice at all, the turn ends without it.
            before = w.fresh("k")
            w.line(f"{before} = {'n' if self._counting else 'len(out)'}")
            tr.rep = self.m.reporter_for(a.after)
            self._choices(tr, a, items, i + 1, scope, w)
            tr.rep = self.m.reporter_for(a.node)
            w.line(f"if {'n' if self._counting else 'len(out)'} == {before}:")
            with w.indent():
                after_names = {n for n, _ in a.choices[a.nbase:]}
                self._emit_move(a, {k: v for k, v in scope.items() if k not in after_names}, w)
            return
        if isinstance(it, _PassEnd):
            self._pass_end(tr, a, it, scope, w)
            return
        if isinstance(it, ast.Repeat):
            self._repeat(tr, a, items, i, scope, w)
            return
        if isinstance(it, ast.Effects):
            if any(isinstance(x, (ast.Choice, ast.When, ast.Require, ast.Repeat, _PassEnd)) or x is AFTER
                   for x in items[i + 1:]):
                self._staged_effects(tr, a, items, i, scope, w)
            else:
                self._choices(tr, a, items, i + 1, scope, w)
            return
        if isinstance(it, ast.When):
            cond = tr.expect(tr.expr(it.cond, scope), T.BOOL, it.cond, "a 'when' condition")
            if cond.const:
                # Folded away by the options, but still checked: a mistake there is a mistake.
                self._choices(tr, a, items, i + 1, scope, w if cond.value else Writer(counter=w.counter))
                return
            w.line(f"if {cond.src}:", line)
            with w.indent():
                self._guarded(w, lambda: self._choices(tr, a, items, i + 1, scope, w))
        elif isinstance(it, ast.Let):
            c = tr.expr(it.value, scope)
            scope = dict(scope)
            if c.const:
                scope[it.name] = c
            else:
                var = "v_" + it.name
                w.line(f"{var} = {c.src}", line)
                scope[it.name] = self._local(var, c.type, it.name, items[i + 1:], w)
                scope[it.name].neutral = c.neutral
            self._choices(tr, a, items, i + 1, scope, w)
        elif isinstance(it, ast.Require):
            cond = tr.expect(tr.expr(it.cond, scope), T.BOOL, it.cond, "a 'require' condition")
            if cond.const:
                # Folded away by the options, but still checked: a mistake there is a mistake.
                self._choices(tr, a, items, i + 1, scope, w if cond.value else Writer(counter=w.counter))
                return
            w.line(f"if {cond.src}:", line)
            with w.indent():
                self._guarded(w, lambda: self._choices(tr, a, items, i + 1, scope, w))
        elif isinstance(it, ast.Choice):
            self._choice(tr, a, items, i, scope, w)
        else:
            self._choices(tr, a, items, i + 1, scope, w)

    def _staged_effects(self, tr, a, items, i, scope, w: Writer) -> None:
        """Effects followed by more choices: apply them to the state for real (logged), generate
        the rest of the move on the changed state, then take them back."""
        mark, saved_h = w.fresh("mk"), w.fresh("hk")
        w.line(f"{mark} = len(log); {saved_h} = h", items[i].pos.line)
        context = tr.context
        tr.context = "effects"
        try:
            tr.block(items[i].body, scope, w)
        finally:
            tr.context = context
        self._choices(tr, a, items, i + 1, _forget_cells(scope), w)  # cells may have changed
        w.line(f"while len(log) > {mark}:")
        w.line("    _l, _i, _o = log.pop(); _l[_i] = _o")
        w.line(f"h = {saved_h}")

    def _repeat(self, tr, a, items, i, scope, w: Writer) -> None:
        """A repeat becomes a nested function that makes one pass and calls itself for the next:
        a pass that leads to no complete move ends the move there (the move goes on while it can)."""
        rp: ast.Repeat = items[i]
        if not rp.choices:
            return  # reported with the action (action_infos)
        start = tr.expr(rp.start, scope)
        fn, path = w.fresh("rep"), w.fresh("path")
        var = "v_" + rp.var
        # The function is defined once, at the top of legal(): a closure reads the generator's
        # variables (the choices made before the repeat) when it is called, not when defined.
        outer, at = self._hoist
        d = Writer(depth=1, counter=w.counter)
        d.line(f"def {fn}({var}, {path}):", rp.pos.line)
        with d.indent():
            inner = dict(scope)
            inner[rp.var] = self._local(var, start.type, rp.var, rp.items, d)
            end = _PassEnd(rp, items, i, scope, fn, path)
            self._guarded(d, lambda: self._choices(tr, a, list(rp.items) + [end], 0, inner, d))
            # Names of the enclosing function that a pass assigns (the move count, the hash).
            body = "\n".join(d.lines[1:])
            shared = [n for n in ("n", "h", "nxt") if re.search(rf"^\s*{n} *[-+^]?= ", body, re.M)]
            if shared:
                d.lines.insert(1, "    " * d.depth + f"nonlocal {', '.join(shared)}")
        outer.lines[at:at] = d.lines
        self._hoist = (outer, at + len(d.lines))
        w.line(f"{fn}({start.src}, [])")

    def _pass_end(self, tr, a, end: _PassEnd, scope, w: Writer) -> None:
        rp = end.node
        choice = rp.choices[0]
        here = scope[choice.name]
        start_type = scope[rp.var].type
        if here.type != start_type and T.ANY not in (here.type, start_type):
            tr.fail(rp.start, f"the repeat starts from {T.a(start_type)}, but its choice {choice.name!r} is "
                    f"{T.a(here.type)}: each pass starts where the last one ended",
                    hint=f"start it from {T.a(here.type)}")
        w.line(f"{end.path}.append({here.src})")
        total = "n" if self._counting else "len(out)"
        before = None if rp.may_stop else w.fresh("k")
        if before:
            w.line(f"{before} = {total}")
        go = tr.expect(tr.expr(rp.cond, scope), T.BOOL, rp.cond, "a repeat's 'while'") if rp.cond else const(True, T.BOOL)
        if not go.const:
            w.line(f"if {go.src}:")
            w.depth += 1
        if not go.const or go.value:  # another pass
            w.line(f"if len({end.path}) >= {MAX_PASSES}:", rp.pos.line)
            w.line(f"    raise RepeatLimit('the repeat made {MAX_PASSES} passes without coming to an end')")
            w.line(f"{end.fn}({here.src}, {end.path})")
        if not go.const:
            w.depth -= 1
        rest = _forget_cells(end.scope)
        rest[choice.name] = Code(f"tuple({end.path})", T.list_of(here.type))
        rest[rp.var] = Code(here.src, here.type)  # where the last pass ended
        if before is None:  # `may stop`: the move may end after any pass
            self._choices(tr, a, end.items, end.index + 1, rest, w)
        else:  # only where no further pass is possible
            w.line(f"if {total} == {before}:")
            with w.indent():
                self._guarded(w, lambda: self._choices(tr, a, end.items, end.index + 1, rest, w))
        w.line(f"{end.path}.pop()")

    def _local(self, var: str, typ: T.Type, name: str, rest, w: Writer) -> Code:
        """A generator-local variable, with the reads it will need hoisted right after it:
        the stack on a cell, or the attributes of a piece that later conditions look at."""
        if typ == T.CELL:
            alias = "_s" + var
            w.line(f"{alias} = cells[{var}]")
            return Code(var, typ, stack=alias)
        if typ == T.PIECE:
            used = sorted({n.name for n in _attr_uses(rest, name) if n.name in self.m.attributes})
            attrs = {}
            for attr in used:
                alias = f"_a{len(attr)}_{attr}_{var}"  # no rules name can make this (they become v_*)
                w.line(f"{alias} = A_{attr}[{var}]")
                attrs[attr] = alias
            return Code(var, typ, attrs=attrs)
        return Code(var, typ)

    def _record_choice_type(self, a: ActionInfo, name: str, typ: T.Type, node):
        if name in a.repeated:
            if T.is_list(typ):
                raise CheckFailed(self.m.reporter_for(a.node), node.pos,
                                  "a repeated choice is one value a pass, not a list")
            typ = T.list_of(typ)  # the move holds the value of every pass
        for entry in a.choices:
            if entry[0] == name:
                item = typ.elem if T.is_list(typ) else typ  # a list: one value per item (`product`)
                if item is None or (item not in (T.CELL, T.INT, T.PLAYER, T.DIR, T.PIECE) and item.name != "enum"):
                    raise CheckFailed(self.m.reporter_for(a.node), node.pos,
                                      "a choice must be a cell, number, player, direction, piece or value "
                                      f"(or a list of them), not {T.a(typ)}")
                entry[1] = typ

    def _choice(self, tr, a, items, i, scope, w: Writer):
        it: ast.Choice = items[i]
        var = "v_" + it.name
        line = it.pos.line
        inner = dict(scope)
        dom = it.domain
        if isinstance(dom, ast.Call) and dom.func == "ray" and dom.func not in self.m.defs:
            if len(dom.args) != 3:
                tr.fail(dom, "ray() takes 3 arguments: from, directions, how far")
            frm = tr.expect(tr.expr(dom.args[0], scope), T.CELL, dom.args[0], "argument 1 of ray()")
            dirs = tr.expect(tr.as_dirset(tr.expr(dom.args[1], scope)), T.DIRSET, dom.args[1], "argument 2 of ray()")
            reach = tr.expect(tr.expr(dom.args[2], scope), T.INT, dom.args[2], "argument 3 of ray()")
            self._record_choice_type(a, it.name, T.CELL, it)
            r = w.fresh("r")
            if reach.const and reach.value >= UNLIMITED:
                w.line(f"for {r} in RAYS[{dirs.src}][{frm.src}]:", line)
            elif reach.const:
                k = min(max(reach.value, 0), tr.world.longest)
                w.line(f"for {r} in RAYSTO[{dirs.src}][{k}][{frm.src}]:", line)
            else:
                # Rays cut to every length in advance, so that no ray is sliced while generating.
                n = w.fresh("n")
                w.line(f"{n} = {reach.src}", line)
                w.line(f"for {r} in RAYSTO[{dirs.src}][{n} if {n} < {tr.world.longest} else {tr.world.longest}][{frm.src}]:")
            with w.indent():
                w.line(f"for {var} in {r}:")
                with w.indent():
                    self._guarded(w, lambda: self._cell_choice(tr, a, items, i, it, inner, w, var, ray=True))
            return
        d = tr.expr(dom, scope)
        elem = T.element(d.type)
        if elem is None:
            tr.fail(dom, f"a choice is made from a list, a range or cells, not a {d.type}")
        self._record_choice_type(a, it.name, elem, it)
        src = collection(d)
        if elem == T.CELL and d.src == "ALLCELLS":
            w.line(f"for {var}, _s{var} in enumerate(cells):", line)
            with w.indent():
                self._guarded(w, lambda: self._cell_choice(tr, a, items, i, it, inner, w, var, ray=False, bound=True))
            return
        w.line(f"for {var} in {src}:", line)
        with w.indent():
            if elem == T.CELL:
                self._cell_choice(tr, a, items, i, it, inner, w, var, ray=False)
                return
            inner[it.name] = self._local(var, elem, it.name, items[i + 1:], w)
            self._guarded(w, lambda: self._choice_body(tr, a, items, i, it, inner, w))

    def _cell_choice(self, tr, a, items, i, it, inner, w: Writer, var: str, ray: bool, bound=False):
        """The rest of an action after choosing a cell, written twice: once knowing the cell holds
        a stack, once knowing it is empty, so that tests like empty(to) fold away. On a ray the
        first occupied cell ends the ray."""
        alias = "_s" + var
        if not bound:
            w.line(f"{alias} = cells[{var}]")
        occ = dict(inner)
        occ[it.name] = Code(var, T.CELL, stack=alias, occupied=True)
        asks = {c.func for c in _calls_on(items[i:], it.name)}
        hoist = []
        if asks & {"top", "mine", "theirs", "controller"}:
            top = f"_t{var}"
            hoist.append(f"{top} = {alias}[-1]")
            occ[it.name].attrs = {"@top": top}
            if asks & {"mine", "theirs", "controller"}:
                hoist.append(f"_c{var} = CTRL[{top}]")
                occ[it.name].attrs["@ctrl"] = f"_c{var}"
        emp = dict(inner)
        emp[it.name] = Code(var, T.CELL, stack=alias, occupied=False)
        empty_branch = Writer(depth=w.depth + (0 if ray else 1), counter=w.counter)
        self._choice_body(tr, a, items, i, it, emp, empty_branch)
        w.line(f"if {alias}:")
        with w.indent():
            for line in hoist:
                w.line(line)
            self._guarded(w, lambda: self._choice_body(tr, a, items, i, it, occ, w))
            if ray:
                w.line("break")
        if empty_branch.lines and empty_branch.lines != [("    " * empty_branch.depth) + "pass"]:
            if not ray:
                w.line("else:")
            w.lines.extend(empty_branch.lines)

    @staticmethod
    def _guarded(w: Writer, emit) -> None:
        """Run emit(); if it wrote nothing, write `pass` so the block stays valid Python."""
        before = len(w.lines)
        emit()
        if len(w.lines) == before:
            w.line("pass")

    def _choice_body(self, tr, a, items, i, it, inner, w):
        if it.cond is not None:
            cond = tr.expect(tr.expr(it.cond, inner), T.BOOL, it.cond, "a 'where' condition")
            if cond.const and not cond.value:
                self._choices(tr, a, items, i + 1, inner, Writer(counter=w.counter))  # checked, not kept
                w.line("pass")
                return
            if not cond.const:
                w.line(f"if {cond.src}:")
                with w.indent():
                    self._guarded(w, lambda: (self._mark_hoist(inner[it.name], w),
                                              self._choices(tr, a, items, i + 1, inner, w)))
                return
        self._mark_hoist(inner[it.name], w)
        self._choices(tr, a, items, i + 1, inner, w)

    @staticmethod
    def _mark_hoist(code: Code, w: Writer) -> None:
        """For a chosen cell holding a stack: a marker (a `pass`) before which what the rest of the
        move reads from that stack alone is computed once (Translator.hoisted)."""
        if code.type == T.CELL and code.stack is not None and code.occupied:
            w.line(f"pass  # {w.fresh('hoist')}")
            code.hoist = (w, w.lines[-1])

    def _bind_choices(self, a: ActionInfo, w: Writer) -> dict:
        scope = {}
        for k, (name, typ) in enumerate(a.choices):
            var = "v_" + name
            w.line(f"{var} = m[{k + 1}]")
            scope[name] = Code(var, typ or T.ANY)
        return scope

    def apply_fn(self, tr: Translator, a: ActionInfo) -> str:
        """do_N(st, m): the effects of move m, in the order the action (and `after`) lists them;
        a let is computed only if some later effect or condition needs it."""
        w = Writer()
        w.line(f"def do_{a.index}(st, m):  # action {a.name}", a.node.pos.line)
        with w.indent():
            self._prologue(w, effects=True)
            scope = self._bind_choices(a, w)
            tr.rep = self.m.reporter_for(a.node)
            items = a.items
            after_at = items.index(AFTER) if AFTER in items else len(items)
            needed = names_used([x for x in _flat(items) if isinstance(x, ast.Effects)]
                                + [x for x in items[after_at:] if isinstance(x, (ast.When, ast.Require))])
            for it in reversed([x for x in _flat(items) if isinstance(x, ast.Let)]):
                if it.name in needed:  # a let the effects need may need earlier lets
                    needed |= names_used([it.value])
            depth = w.depth
            for k, it in enumerate(items):
                if isinstance(it, ast.Repeat):
                    scope = self.attempt(self._apply_repeat, tr, a, it, scope, needed, w) or scope
                elif it is AFTER:
                    tr.rep = self.m.reporter_for(a.after)
                    if a.nbase < len(a.choices):  # the after part was taken iff its choices are set
                        w.line(f"if m[{a.nbase + 1}] is not None:")
                        w.depth += 1
                elif isinstance(it, ast.Let) and it.name in needed:
                    tr.context = "action"
                    self.attempt(tr.stmt, it, scope, w)
                elif isinstance(it, ast.Effects):
                    tr.context = "effects"
                    self.attempt(tr.block, it.body, scope, w)
                elif isinstance(it, (ast.When, ast.Require)) and k > after_at and a.nbase == len(a.choices):
                    # An after block without choices applies when its conditions hold.
                    tr.context = "action"
                    cond = self.attempt(tr.expr, it.cond, scope)
                    if cond is not None:
                        w.line(f"if {cond.src}:", it.pos.line)
                        w.depth += 1
            w.line("pass")
            w.depth = depth
            w.line("st.h = h")
            w.line("return nxt")
        return w.text()

    def _apply_repeat(self, tr, a, rp: ast.Repeat, scope, needed, w: Writer) -> dict:
        """The passes of a repeat, one loop turn each, over the values the move holds."""
        if not rp.choices:
            return scope  # reported with the action (action_infos)
        start = tr.expr(rp.start, scope)
        var, name = "v_" + rp.var, rp.choices[0].name
        elem = next(t for n, t in a.choices if n == name)
        elem = elem.elem if elem is not None and T.is_list(elem) else T.ANY
        w.line(f"{var} = {start.src}", rp.pos.line)
        w.line(f"for _e_{name} in v_{name}:")
        inner = dict(scope)
        inner[rp.var] = Code(var, start.type)
        inner[name] = Code(f"_e_{name}", elem)
        with w.indent():
            for it in rp.items:
                if isinstance(it, ast.Let) and it.name in needed:
                    tr.context = "action"
                    tr.stmt(it, inner, w)
                elif isinstance(it, ast.Effects):
                    tr.context = "effects"
                    tr.block(it.body, inner, w)
            w.line(f"{var} = _e_{name}")
        out = dict(scope)
        out[rp.var] = Code(var, start.type)  # where the last pass ended
        return out

    def explain_fn(self, tr: Translator, a: ActionInfo) -> str:
        """explain_N(st, m): None when move m is legal here, else the reason it is not. Effects
        between stages are applied for real and taken back before it returns."""
        w = Writer()
        rep = self.m.reporter_for(a.node)
        w.line(f"def explain_{a.index}(st, m):  # action {a.name}", a.node.pos.line)
        with w.indent():
            self._prologue(w, effects=True)
            w.line("_mark = len(log)")
            w.line("try:")
            with w.indent():
                scope = {}
                tr.rep, tr.context = rep, "action"
                for it in a.items:
                    if it is AFTER:
                        tr.rep = self.m.reporter_for(a.after)
                        if a.nbase < len(a.choices):
                            w.line(f"if m[{a.nbase + 1}] is None:")
                            w.line(f"    return {'the turn must end with: ' + (a.after_fmt or '')!r}")
                        continue
                    try:
                        if isinstance(it, ast.Effects):
                            tr.context = "effects"
                            tr.block(it.body, scope, w)
                            tr.context = "action"
                            scope = _forget_cells(scope)
                        elif isinstance(it, ast.Repeat):
                            scope = self._explain_repeat(tr, a, it, scope, w, tr.rep)
                        else:
                            self._explain_item(tr, a, it, scope, w, tr.rep)
                    except CheckFailed:
                        break  # already reported while generating legal()
                w.line("return None")
            w.line("finally:")
            w.line("    while len(log) > _mark:")
            w.line("        _l, _i, _o = log.pop(); _l[_i] = _o")
        return w.text()

    def _explain_repeat(self, tr, a, rp: ast.Repeat, scope, w, rep) -> dict:
        """Each pass checked in turn, with its effects applied for the next; a pass after one whose
        `while` failed is refused."""
        if not rp.choices:
            return scope  # reported with the action (action_infos)
        start = tr.expr(rp.start, scope)
        var, name = "v_" + rp.var, rp.choices[0].name
        k = [n for n, _ in a.choices].index(name)
        w.line(f"{var} = {start.src}", rp.pos.line)
        w.line(f"if not m[{k + 1}]:")
        w.line(f"    return {(name + ': the move makes at least one pass')!r}")
        w.line("_go = True")
        w.line(f"for _e_{name} in m[{k + 1}]:")
        with w.indent():
            if rp.cond is not None:
                w.line("if not _go:")
                w.line(f"    return {('the move ends before that: it goes on only while ' + rep.snippet(rp.cond.pos))!r}")
            inner = dict(scope)
            inner[rp.var] = Code(var, start.type)
            for it in rp.items:
                if isinstance(it, ast.Effects):
                    tr.context = "effects"
                    tr.block(it.body, inner, w)
                    tr.context = "action"
                    inner = _forget_cells(inner)
                else:
                    self._explain_item(tr, a, it, inner, w, rep, value=f"_e_{name}" if it is rp.choices[0] else None)
            if rp.cond is not None:
                go = tr.expect(tr.expr(rp.cond, inner), T.BOOL, rp.cond, "a repeat's 'while'")
                w.line(f"_go = {go.src}")
            w.line(f"{var} = v_{name}")
        out = _forget_cells(scope)
        out[rp.var] = Code(var, start.type)
        out[name] = Code(f"m[{k + 1}]", a.choices[k][1] or T.ANY)
        return out

    def _explain_item(self, tr, a, it, scope, w, rep, value=None):
        line = it.pos.line
        if isinstance(it, ast.When):
            cond = tr.expr(it.cond, scope)
            w.line(f"if not {cond.src}:", line)
            w.line(f"    return {('not now: ' + rep.snippet(it.cond.pos))!r}")
        elif isinstance(it, ast.Let):
            tr.stmt(it, scope, w)
        elif isinstance(it, ast.Require):
            cond = tr.expr(it.cond, scope)
            msg = it.message or ("it must hold that " + rep.snippet(it.cond.pos))
            w.line(f"if not {cond.src}:", line)
            w.line(f"    return {msg!r}")
        elif isinstance(it, ast.Choice):
            k = [n for n, _ in a.choices].index(it.name)
            typ = a.choices[k][1] or T.ANY
            if value is not None:  # one pass of a repeat: one item of the list
                typ = typ.elem if T.is_list(typ) else T.ANY
            var = "v_" + it.name
            w.line(f"{var} = {value or f'm[{k + 1}]'}", line)
            dom = it.domain
            if isinstance(dom, ast.Call) and dom.func == "ray" and len(dom.args) == 3:
                frm, dirs, reach = (tr.expr(x, scope) for x in dom.args)
                src = f"_ray(cells, RAYS[{dirs.src}][{frm.src}], {reach.src})"
            else:
                d = tr.expr(dom, scope)
                src = collection(d)
            w.line(f"if {var} not in {src}:")
            w.line(f"    return {(it.message or f'{it.name} must be in ' + rep.snippet(dom.pos))!r}")
            scope[it.name] = Code(var, typ)
            if it.cond is not None:
                cond = tr.expr(it.cond, scope)
                msg = it.message or f"{it.name}: it must hold that " + rep.snippet(it.cond.pos)
                w.line(f"if not {cond.src}:")
                w.line(f"    return {msg!r}")

    def apply_undo(self, w: Writer, world: World) -> None:
        w.line("def apply(st, m):")
        with w.indent():
            w.line("st.trail.append((len(st.log), st.side, st.ply, st.h))")
            w.line("nxt = DO[m[0]](st, m)")
            w.line("st.side = nxt; st.ply += 1")
            if world.hashing:
                w.line("k = st.h ^ SIDEKEY[nxt]; seen = st.seen; seen[k] = seen.get(k, 0) + 1")
        w.line("")
        w.line("def undo(st):")
        with w.indent():
            if world.hashing:
                w.line("k = st.h ^ SIDEKEY[st.side]; seen = st.seen; c = seen[k] - 1")
                w.line("if c:")
                w.line("    seen[k] = c")
                w.line("else:")
                w.line("    del seen[k]")
            w.line("mark, st.side, st.ply, st.h = st.trail.pop()")
            w.line("log = st.log")
            w.line("while len(log) > mark:")
            w.line("    lst, i, old = log.pop()")
            w.line("    lst[i] = old")
        w.line("")

    def setup(self, tr: Translator) -> str:
        w = Writer()
        w.line("def setup(st, rng):")
        with w.indent():
            w.line("cells = st.cells; zones = st.zones; counters = st.counters")
            w.line("seats = st.seats; log = []; h = 0")
            tr.context = "setup"
            for s in self.m.setup:
                tr.rep = self.m.reporter_for(s)
                self.attempt(tr.block, s.body, {}, w)
            w.line("return None")
        return w.text()

    def counter_inits(self, tr: Translator, world: World) -> str:
        w = Writer()
        w.line("def counter_inits():")
        with w.indent():
            values = []
            tr.context = "option"
            for node in world.counter_init:
                tr.rep = self.m.reporter_for(next(c for c in self.m.counters.values() if c.init is node))
                c = self.attempt(tr.expr, node, {})
                values.append(c.value if c is not None and c.const else 0)
            w.line(f"return {values!r}")
        return w.text()

    def invariants(self, tr: Translator) -> str:
        w = Writer()
        w.line("def invariants(st):")
        with w.indent():
            self._prologue(w)
            w.line("bad = []")
            tr.context = "invariant"
            for k, inv in enumerate(self.m.invariants):
                tr.rep = self.m.reporter_for(inv)
                c = self.attempt(lambda: tr.expect(tr.expr(inv.expr, {}), T.BOOL, inv.expr, "an invariant"))
                if c is not None:
                    w.line(f"if not {c.src}:", inv.pos.line)
                    w.line(f"    bad.append({k})")
            w.line("return bad")
        return w.text()

    def heuristic(self, tr: Translator) -> str:
        w = Writer()
        w.line("def heuristic(st):")
        with w.indent():
            if self.m.heuristic is None:
                w.line("return None")
            else:
                self._prologue(w)
                tr.context, tr.rep = "invariant", self.m.reporter_for(self.m.heuristic)
                c = self.attempt(lambda: tr.expect(tr.expr(self.m.heuristic.expr, {}), T.INT,
                                                   self.m.heuristic.expr, "a heuristic"))
                w.line(f"return {c.src if c else 0}")
        return w.text()


def _ray(cells, rays, reach):
    """The cells a slide can reach along each ray: up to `reach` steps, stopping on the first occupied."""
    out = []
    for r in rays:
        for c in r[:reach]:
            out.append(c)
            if cells[c]:
                break
    return out


def _product(options) -> tuple:
    """Every way to take one item from each list of options, as tuples in the lists' order."""
    return tuple(itertools.product(*options))


def _shuffled(rng, items) -> tuple:
    """The items in a random order drawn from the setup's generator (the same seed, the same order)."""
    out = list(items)
    rng.shuffle(out)
    return tuple(out)


_PROLOGUE = re.compile(r"^(\s*)((?:\w+ = [\w.\[\]]+; )*\w+ = [\w.\[\]]+)$")


def trim_prologue(func_src: str) -> str:
    """Drop `name = st.x` loads that the rest of a generated function never reads."""
    lines = func_src.split("\n")
    out = []
    for i, line in enumerate(lines):
        m = _PROLOGUE.match(line)
        if m and i <= 3 and "st." in line:
            rest = "\n".join(lines[i + 1:])
            kept = [part for part in m.group(2).split("; ")
                    if re.search(r"\b" + re.escape(part.split(" = ")[0]) + r"\b", rest)]
            if kept:
                out.append(m.group(1) + "; ".join(kept))
            continue
        out.append(line)
    return "\n".join(_drop_markers(out))


_MARKER = re.compile(r"^(\s*)pass  # _hoist\d+$")


def _drop_markers(lines: list) -> list:
    """Drop the hoisting markers (`pass  # _hoistN`), keeping one only where its block holds
    nothing else (the `pass` is then needed)."""
    out = []
    for i, line in enumerate(lines):
        m = _MARKER.match(line)
        if m:
            pad = m.group(1)
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            opens_block = bool(out) and out[-1].rstrip().endswith(":")  # the marker comes first in it
            sibling_follows = nxt.startswith(pad) and not nxt[len(pad):len(pad) + 1].isspace()
            if not opens_block or sibling_follows:
                continue
        out.append(line)
    return out


def _suffix(memo: dict, table: tuple, stack: tuple) -> tuple:
    """Sums of table[piece] over stack[k:] for every k, remembered per stack."""
    sums = [0] * (len(stack) + 1)
    for k in range(len(stack) - 1, -1, -1):
        sums[k] = sums[k + 1] + table[stack[k]]
    if len(memo) > 200_000:  # many distinct stacks: start afresh rather than grow without bound
        memo.clear()
    memo[stack] = out = tuple(sums)
    return out


def _calls_on(nodes, name: str) -> list:
    """Every call whose first argument is the variable `name`."""
    return [x for x in ast.walk(list(nodes)) if isinstance(x, ast.Call) and x.args
            and isinstance(x.args[0], ast.Name) and x.args[0].id == name]


def _attr_uses(nodes, name: str) -> list:
    """Every `name.attr` node under the given nodes."""
    return [x for x in ast.walk(list(nodes))
            if isinstance(x, ast.Attr) and isinstance(x.obj, ast.Name) and x.obj.id == name]


def names_used(nodes) -> set:
    """Every Name id mentioned under the given nodes (for deciding which lets an effect needs)."""
    return {x.id for x in ast.walk(list(nodes)) if isinstance(x, ast.Name)}