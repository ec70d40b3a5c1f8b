"""Statements and effects, for the native module: the `do:` blocks of actions and the end block,
one `match` over the statement kinds, each line marked with the rules line of its statement.

Every write to the position goes through `Statements.call` (a kernel helper, named) or
`Statements.store` (a slot written directly), which keep a record, `HashRecord`, of what the
module's moves write: a call of a helper outside `KEEPS_HASH`, or a direct write to a slot the
position's hash covers, is a write that bypasses the kept hash. The module then hashes each
position from scratch (`INCREMENTAL = False`), which is slower but never wrong.
"""

from __future__ import annotations

from ...dsl import ir
from ...dsl import types as T
from ..names import pyname
from . import table
from .code import Code, fail, kept

# The kernel's helpers (kernel.py) that the moves' code calls and that keep the hash slot up to
# date as they write (or write nothing the hash covers). tests/native/test_native_writer.py checks this
# against the kernel's text.
KEEPS_HASH = frozenset({"put", "move_stack", "take_stack", "place_piece", "remove_piece", "insert_piece",
                        "lift_piece", "zone_add", "zone_drop", "off_level", "occ_fix", "change_piece", "called_put",
                        "called_move_stack", "called_take_stack", "called_place_piece", "called_remove_piece"})
# The inlined helpers a large module's functions run once a move call instead (kernel.py's called_K).
CALLED = frozenset({"put", "move_stack", "take_stack", "place_piece", "remove_piece"})
UNHASHED = frozenset({"PLY", "LAST", "OVER", "HSH"})  # slots outside the hash


class HashRecord:
    """What the moves write, recorded as it is written: the writes that bypass the hash."""

    def __init__(self):
        self.bypass: list = []  # (what, rules position)

    def call(self, helper: str, pos) -> None:
        if helper not in KEEPS_HASH:
            self.bypass.append((f"{helper}()", pos))

    def store(self, slot: str, pos) -> None:
        if slot not in UNHASHED:
            self.bypass.append((f"s[{slot}]", pos))

    @property
    def keeps_hash(self) -> bool:
        """Whether every write the moves make keeps the hash slot up to date."""
        return not self.bypass


class Statements:
    """Writes the statements of one folded game (`x`: its Exprs)."""

    def __init__(self, x, hashing: bool = True):
        self.x = x
        self.hashing = hashing  # the module keeps a hash (HASHING): a write of a slot goes through `put`
        self.loops = x.loops
        self.outcomes: list = []  # (kind, reason) of each outcome statement, code = index + 1
        self.points = ir.scores_points(x.game.plan.end)  # results in points: res holds each side's points
        self.hash = HashRecord()

    # ---- writing the position ---------------------------------------------------------------------

    def call(self, code: Code, helper: str, *args: str) -> None:
        """A call of a kernel helper that writes the position: `helper(s, args...)`."""
        self.hash.call(helper, code.pos)
        if helper == "put" and not self.hashing:
            code(self.put_text(*args))
        else:
            code(f"{'called_' if helper in CALLED and self.once() else ''}{helper}(s, {', '.join(args)})")

    def once(self) -> bool:
        """Whether the code written now runs once a move in a large module: outlined there
        (`outline.second`), outside the moves' listing (`outline.listing`), where a call per
        candidate would cost speed. There a helper that writes the position is called, not
        inlined (Numba pays for an inlined call at each place, cold: about 30 ms)."""
        o = self.x.outline
        return o is not None and not o.paused

    def put_text(self, index: str, value: str) -> str:
        """The line writing one slot: `put(s, index, value)`, which keeps the hash; `s[index] = value`
        in a module that keeps none (HASHING false: `put` is that line). Each `put` is inlined
        where it is called (inline="always"), which Numba pays for at every call, cold: a
        ruleset's 155 writes cost a sixth of its compile."""
        return f"put(s, {index}, {value})" if self.hashing else f"s[{index}] = {value}"

    def store(self, code: Code, slot: str, value: str) -> None:
        """A direct write of one slot: `s[slot] = value`."""
        self.hash.store(slot, code.pos)
        code(f"s[{slot}] = {value}")

    # ---- blocks ----------------------------------------------------------------------------------

    def block(self, stmts, env: dict, code: Code) -> None:
        start = len(code.lines)
        for st in stmts:
            with code.at(st.pos):
                env = self.stmt(st, env, code)
        if len(code.lines) == start:
            code("pass")

    def bind(self, name: str, value, env: dict, code: Code) -> dict:
        """env with `name` bound to `value` (a list into its buffer, anything else into a local)."""
        var = pyname(name)
        if T.is_list(value.type):
            self.loops.bind_list(var, value, env, code)
        else:
            code(f"{var} = {self.x.expr(value, env, code)}")
        return {**env, name: var}

    def stmt(self, st, env: dict, code: Code) -> dict:
        x = self.x
        match st:
            case ir.Let():
                return self.bind(st.var, st.value, env, code)
            case ir.If():
                code(f"if {x.expr(st.cond, env, code)}:")
                code.depth += 1
                self.block(st.body, env, code)
                code.depth -= 1
                if st.orelse:
                    code("else:")
                    code.depth += 1
                    self.block(st.orelse, env, code)
                    code.depth -= 1
            case ir.For():
                var = pyname(st.var)
                levels = self.loops.open_loop(st.iter, var, env, code)
                inner = {**env, st.var: var}
                if st.cond is not None:
                    code(f"if {x.expr(st.cond, inner, code)}:")
                    code.depth += 1
                    levels.append([])
                self.block(st.body, inner, code)
                self.loops.close_loop(levels, code)
            case ir.SetCounter():
                slot = x.counter_slot(st.target, env, code)
                value = x.expr(st.value, env, code)
                new = {"=": value, "+=": f"s[CNT + {slot}] + {value}", "-=": f"s[CNT + {slot}] - ({value})"}[st.op]
                self.call(code, "put", f"CNT + {slot}", new)
            case ir.Effect():
                self.effect(st, env, code)
            case ir.Outcome():
                self.outcome(st, env, code)
            case ir.RankBy():
                self.rank(st, env, code)
            case _:
                fail(st)
        return env

    # ---- the end block's outcomes -----------------------------------------------------------------

    def outcome(self, st: ir.Outcome, env: dict, code: Code) -> None:
        """res := each side's result, res[NPLAYERS] := the side named; return the outcome's code."""
        x = self.x
        self.outcomes.append((st.kind, st.reason))
        k = len(self.outcomes)
        who = x.expr(st.who, env, code) if st.who is not None else "-1"
        w = code.fresh("who")
        code(f"{w} = {who}")
        if self.points:  # `win P by K`: P scores K, the others share -K (a loss: the signs swapped)
            worth = "0.0" if st.kind == "draw" else x.expr(st.points, env, code) if st.points is not None else "1"
            sign = "-" if st.kind == "lose" else ""
            code(f"_worth = {sign}float({worth})")
        code("for _q in range(NPLAYERS):")
        if self.points:
            code(f"    res[_q] = _worth if _q == {w} else 0.0 - _worth / max(1, NPLAYERS - 1)")
        elif st.kind == "win":
            code(f"    res[_q] = 1.0 if _q == {w} else 0.0")
        elif st.kind == "lose":
            code(f"    res[_q] = 0.0 if _q == {w} else 1.0")
        else:
            code("    res[_q] = 0.5")
        code(f"res[NPLAYERS] = {w}")
        code(f"return {k}")

    def rank(self, st: ir.RankBy, env: dict, code: Code) -> None:
        x = self.x
        self.outcomes.append(("rank", st.reason))
        k = len(self.outcomes)
        var = pyname(st.var)
        keys = code.fresh("keys")
        code(f"{keys} = np.empty((NPLAYERS, {len(st.keys)}), np.int64)")
        code(f"for {var} in range(NPLAYERS):")
        code.depth += 1
        inner = {**env, st.var: var}
        for j, key in enumerate(st.keys):
            code(f"{keys}[{var}, {j}] = {x.expr(key, inner, code)}")
        code.depth -= 1
        code(f"rank_results({keys}, res)")
        if st.scored:  # `win by NAME`: res holds the points, res[NPLAYERS] still the one at the top
            code("for _q in range(NPLAYERS):")
            code(f"    res[_q] = {keys}[_q, 0]")
        code(f"return {k}")

    # ---- effects ----------------------------------------------------------------------------------

    def effect(self, st: ir.Effect, env: dict, code: Code) -> None:
        x = self.x

        def arg(i, stem):
            return kept(x.expr(st.args[i], env, code), stem, code)

        def zone(i):
            return kept(x.zone(st.args[i], env, code), "z", code)

        match st.fn:
            case "move":
                a, k, b = arg(0, "a"), arg(1, "k"), arg(2, "b")
                self.call(code, "move_stack", a, f"{k} - 1", b)
            case "take":
                c = arg(0, "c")
                self.call(code, "take_stack", c, zone(1))
            case "place":
                if st.args[0].type != T.PIECE:
                    fail(st, "place() of several pieces in a move")
                p, c = arg(0, "p"), arg(1, "c")
                self.call(code, "place_piece", p, c)
            case "change":
                c, k, p = arg(0, "c"), arg(1, "k"), arg(2, "p")
                if self.once():  # change_piece makes the occupancy words right too
                    self.call(code, "change_piece", c, k, p)
                else:
                    self.call(code, "put", f"level_slot(s, {c}, {k})", p)
                    if x.nw:  # the top may change hands
                        self.call(code, "occ_fix", c)
            case "remove":
                c, k = arg(0, "c"), arg(1, "k")
                self.call(code, "remove_piece", c, f"{k} - 1", zone(2))
            case "add":
                if st.args[1].type != T.PIECE:
                    fail(st, "add() of several pieces")
                z = zone(0)
                self.call(code, "zone_add", z, arg(1, "p"))
            case "put" | "insert":  # one piece of the zone onto a stack (insert: at a level)
                if st.args[1].type != T.PIECE:
                    fail(st)
                z = zone(0)
                p, c = arg(1, "p"), arg(2, "c")
                level = f"{arg(3, 'k')} - 1" if st.fn == "insert" else f"s[HGT + {c}]"
                self.call(code, "zone_drop", z, p)
                self.call(code, "insert_piece", p, c, level)
            case "transfer":  # one such piece from a zone to another
                z = zone(0)
                p = arg(1, "p")
                y = kept(x.zone(st.args[2], env, code), "y", code)
                self.call(code, "zone_drop", z, p)
                self.call(code, "zone_add", y, p)
            case "insert_stack":  # the piece at level j of a leaves it and is slipped into c at level k
                a, j, c, k = arg(0, "a"), arg(1, "j"), arg(2, "c"), arg(3, "k")
                p = code.fresh("p")
                code(f"{p} = s[STK + {a} * CAP + {j} - 1]")
                self.call(code, "lift_piece", a, f"{j} - 1")
                self.call(code, "insert_piece", p, c, f"{k} - 1")
            case "swap_seats":
                a, b = arg(0, "a"), arg(1, "b")
                sa, sb = code.fresh("seat"), code.fresh("seat")
                code(f"{sa}, {sb} = s[SEATS + {a}], s[SEATS + {b}]")
                self.call(code, "put", f"SEATS + {a}", sb)
                self.call(code, "put", f"SEATS + {b}", sa)
            case "put_table":  # onto the open table (table.py)
                table.put_effect(self, st, env, code)
            case "extra_turn":
                code("nxt = mover")
            case "turn_to":
                code(f"nxt = {x.expr(st.args[0], env, code)}")
            case _:
                fail(st)
