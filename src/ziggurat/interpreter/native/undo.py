"""A Stage's effects taken back by their inverse, for the native `legal`: instead of a copy.

A `Stage` (effects made on the position that later choices of the move read) is made in place
while `legal` lists the moves, and taken back once the later choices are listed. Where every
statement of its body is one this module can invert in place, the writer makes the effects,
noting what each overwrites, and writes the inverse after the later choices (last effect first),
instead of copying the whole position before and after (two copies of SIZE slots a Stage).

Invertible: `move` (a stack, or its part from a level up, onto another cell: moved back with the
height the destination had), `place` of one piece (the stack's height put back), `change`,
counters (`=`, `+=`, `-=`) and `swap_seats` (each `put` written back with the value it
replaced), `put` and `insert` of a zone's piece onto a stack (the piece slipped out of its level,
and back into the zone at the index it was taken from, the zone's slots as they were), `remove`
of a level into a zone (slipped back in at its level, the zone's new last slot as it was), `let`,
and a `for` over a short list written out (`[red, green, blue]`: its body made once an item, in
order, and taken back last item first). Each inverse is made only where its effect changed
what it changes (a full zone, a level the stack lacks or a piece the zone lacks make none or
part of it, as the effect's helper does). Anything else (`take`, `add`, `if`, a `for` over
anything else or with a `where`, turn order) keeps the copy. The inverse keeps the kept hash
exact (its sums wrap around the same way back), and puts the OVER slot back as the copy did (a
stack overflowing while moves are listed is forgotten with the Stage, as before). Slots above a
stack's height may then hold other stale values than after a copy; nothing reads them
(`copy_state`, `hash_state`).
"""

from __future__ import annotations

from ...dsl import ir
from ...dsl import types as T
from ..names import pyname
from .code import kept

INVERTIBLE = frozenset({"move", "place", "change", "swap_seats", "put", "insert", "remove"})
UNROLL = 8  # a `for` over a list literal of at most this many items is written out, item by item


def invertible(body) -> bool:
    """Whether every statement of a Stage's body can be taken back in place."""
    for st in body:
        match st:
            case ir.Let() | ir.SetCounter():
                pass
            case ir.Effect() if st.fn in INVERTIBLE and (st.fn not in ("place", "put", "insert")
                                                         or st.args[0 if st.fn == "place" else 1].type == T.PIECE):
                pass
            case ir.For() if unrolled(st) and invertible(st.body):
                pass
            case _:
                return False
    return True


def unrolled(st) -> bool:
    """Whether a `for` is written out item by item: over a short list literal, with no `where`."""
    it = st.iter
    n = len(it.items) if isinstance(it, ir.ListLit) else len(it.value) if (
        isinstance(it, ir.Const) and isinstance(it.value, tuple)) else UNROLL + 1
    return n <= UNROLL and st.cond is None


class Undo:
    """Writes a Stage's effects and returns the lines that take them back (`stmts`: the
    writer's effects.Statements, through which every forward write goes, but `zone_take`'s,
    which keeps the hash as zone_drop does)."""

    def __init__(self, stmts, w):
        self.stmts, self.x = stmts, stmts.x
        self.w = w  # the NativeWriter: HELPERS joins its after_texts (functions after legal) where used
        self.cells: list = []  # the locals holding the cells the effects written write (after_cells)

    def forward(self, body, env: dict, code) -> list:
        """Make the body's effects (env: the names bound so far); the inverse, in the order to
        write it after the later choices."""
        ov = code.fresh("ov")
        code(f"{ov} = s[OVER]")
        return self.body(body, env, code) + [f"s[OVER] = {ov}"]

    def body(self, body, env: dict, code) -> list:
        """Make the statements; the lines taking them back, last first."""
        back: list = []
        for st in body:
            with code.at(st.pos):
                if isinstance(st, ir.Let):
                    env = self.stmts.bind(st.var, st.value, env, code)
                elif isinstance(st, ir.For):  # written out: the item bound, the body made
                    var = pyname(st.var)
                    items = self.x.constant_items(st.iter)
                    if items is None:
                        assert isinstance(st.iter, ir.ListLit)  # unrolled(): a Const tuple or a list literal
                        items = [self.x.expr(e, env, code) for e in st.iter.items]
                    for item in items:
                        code(f"{var} = {item}")
                        back = self.body(st.body, {**env, st.var: var}, code) + back
                else:
                    back = self.effect(st, env, code) + back
        return back

    def put(self, index: str, value: str, code) -> list:
        """`put(s, index, value)`, the old value kept: the line that writes it back."""
        i, old = code.fresh("i"), code.fresh("old")
        code(f"{i} = {index}")
        code(f"{old} = s[{i}]")
        self.stmts.call(code, "put", i, value)
        return [self.stmts.put_text(i, old)]

    def effect(self, st, env: dict, code) -> list:
        x = self.x

        def arg(k, stem):
            return kept(x.expr(st.args[k], env, code), stem, code, constants_only=True)

        if isinstance(st, ir.SetCounter):
            slot = x.counter_slot(st.target, env, code)
            value = x.expr(st.value, env, code)
            new = {"=": value, "+=": f"s[CNT + {slot}] + {value}", "-=": f"s[CNT + {slot}] - ({value})"}[st.op]
            return self.put(f"CNT + {slot}", new, code)
        match st.fn:
            case "move":  # back: the destination's pieces from its old height, onto the source
                a, k, b = arg(0, "a"), arg(1, "k"), arg(2, "b")
                hb = code.fresh("hb")
                code(f"{hb} = s[HGT + {b}]")
                self.stmts.call(code, "move_stack", a, f"{k} - 1", b)
                self.cells += [a, b]
                return [f"move_stack(s, {b}, {hb}, {a})"]
            case "place":  # back: the height it had (the piece's term out of the hash)
                p, c = arg(0, "p"), arg(1, "c")
                h = code.fresh("h")
                code(f"{h} = s[HGT + {c}]")
                self.stmts.call(code, "place_piece", p, c)
                self.cells.append(c)
                term = f"np.uint64({p} + 1) * ZK[STK + {c} * CAP + {h}]"
                return [f"if s[HGT + {c}] > {h}:",
                        "    if HASHING:",
                        f"        s[HSH] = np.int64(np.uint64(s[HSH]) - {term})",
                        f"    s[HGT + {c}] = {h}",
                        f"    occ_fix(s, {c})"]
            case "change":
                c, k, p = arg(0, "c"), arg(1, "k"), arg(2, "p")
                self.cells.append(c)
                back = self.put(f"level_slot(s, {c}, {k})", p, code)
                if x.nw:  # the top may change hands, and back
                    self.stmts.call(code, "occ_fix", c)
                    back.append(f"occ_fix(s, {c})")
                return back
            case "swap_seats":
                a, b = arg(0, "a"), arg(1, "b")
                sa, sb = code.fresh("seat"), code.fresh("seat")
                code(f"{sa}, {sb} = s[SEATS + {a}], s[SEATS + {b}]")
                first = self.put(f"SEATS + {a}", sb, code)
                return self.put(f"SEATS + {b}", sa, code) + first
            case "put" | "insert":
                return self.drop_onto(st, env, code)
            case "remove":
                return self.remove(st, env, code)
        raise AssertionError(st)  # invertible() admits nothing else

    def zone(self, st, k: int, env: dict, code) -> str:
        """The zone of argument k, its number in a local."""
        return kept(self.x.zone(st.args[k], env, code), "z", code, constants_only=True)

    def helpers(self) -> None:
        """The helpers the inverses call, once in the module (with the after functions)."""
        if HELPERS not in self.w.after_texts:
            self.w.after_texts.append(HELPERS)

    def drop_onto(self, st, env: dict, code) -> list:
        """`put(z, p, c)` / `insert(z, p, c, k)`: the first p of zone z (if it holds one) taken
        out (`zone_take`: zone_drop, noting where p was), and p slipped into the stack on c (at
        level k, else on top) whether or not the zone held one, as the effect's helpers do.
        Back: p slipped out of its level, then put back in the zone at the index it had."""
        x = self.x
        self.helpers()
        z = self.zone(st, 0, env, code)
        p = kept(x.expr(st.args[1], env, code), "p", code, constants_only=True)
        c = kept(x.expr(st.args[2], env, code), "c", code, constants_only=True)
        zi, h = code.fresh("zi"), code.fresh("h")
        code(f"{zi} = zone_take(s, {z}, {p})")  # keeps the hash, as zone_drop
        code(f"{h} = s[HGT + {c}]")
        lv = h  # `put`: on top, the height before
        if st.fn == "insert":
            lv = code.fresh("lv")
            code(f"{lv} = {x.expr(st.args[3], env, code)} - 1")
        self.stmts.call(code, "insert_piece", p, c, lv)
        self.cells.append(c)
        return [f"slip_out(s, {c}, {lv}, {h})", f"zone_untake(s, {z}, {zi}, {p})"]

    def remove(self, st, env: dict, code) -> list:
        """`remove(c, k, z)`: level k of the stack on c into zone z (added last, where it has
        room). Back: the zone's length and new last slot as they were, then the piece slipped
        back in at level k (where the stack lost it)."""
        x = self.x
        self.helpers()
        c = kept(x.expr(st.args[0], env, code), "c", code, constants_only=True)
        k = kept(x.expr(st.args[1], env, code), "k", code, constants_only=True)
        z = self.zone(st, 2, env, code)
        zn, h, p, old = code.fresh("zn"), code.fresh("h"), code.fresh("p"), code.fresh("old")
        code(f"{zn} = s[ZON + {z} * ZW]")
        code(f"{h} = s[HGT + {c}]")
        code(f"{p} = s[STK + {c} * CAP + {k} - 1] if 0 < {k} <= {h} else 0")  # read only where it is a level
        code(f"{old} = s[ZON + {z} * ZW + 1 + {zn}] if {zn} < ZCAP else 0")
        self.stmts.call(code, "remove_piece", c, f"{k} - 1", z)
        self.cells.append(c)
        return [f"zone_unadd(s, {z}, {zn}, {old})",
                f"if s[HGT + {c}] < {h}:",
                f"    insert_piece(s, {p}, {c}, {k} - 1)"]


# The inverses' helpers (each slot written back as it was, the hash kept as `put` keeps it).
HELPERS = '''@njit(cache=True, internal=True)
def zone_take(s, z, p):
    """zone_drop(s, z, p), and the index p was taken from (-1: the zone holds none)."""
    b = ZON + z * ZW
    for i in range(s[b]):
        if s[b + 1 + i] == p:
            zone_drop(s, z, p)
            return i
    return -1


@njit(cache=True, internal=True)
def zone_untake(s, z, i, p):
    """p back at index i of zone z, where zone_take found it (i < 0: nothing was taken)."""
    if i < 0:
        return
    b = ZON + z * ZW
    n = s[b]
    for j in range(n, i, -1):
        put(s, b + 1 + j, s[b + j])
    put(s, b + 1 + i, p)
    put(s, b, n + 1)


@njit(cache=True, internal=True)
def zone_unadd(s, z, n, old):
    """Zone z back to length n, its slot n holding old again, where a piece was added to it."""
    b = ZON + z * ZW
    if s[b] > n:
        put(s, b + 1 + n, old)
        put(s, b, n)


@njit(cache=True, internal=True)
def slip_out(s, c, k, h):
    """The piece slipped in at level index k of the stack on c taken out again, where the stack
    grew from height h."""
    if s[HGT + c] <= h:
        return
    b = STK + c * CAP
    hs = stack_unhash(s, b, k, h + 1)
    for i in range(k, h):
        s[b + i] = s[b + i + 1]
    s[HGT + c] = h
    occ_fix(s, c)
    stack_rehash(s, b, k, h, hs)
'''
