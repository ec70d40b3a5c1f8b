"""A Stage's effects taken back by their inverse, for the native `legal`: instead of a copy.

A `Stage` (effects made on the position that later choices of the move read) is made in place
while `legal` lists the moves, and taken back once the later choices are listed. Where every
statement of its body is one this module can invert in place, the writer makes the effects,
noting what each overwrites, and writes the inverse after the later choices (last effect first),
instead of copying the whole position before and after (two copies of SIZE slots a Stage).

Invertible: `move` (a stack, or its part from a level up, onto another cell: moved back with the
height the destination had), `place` of one piece (the stack's height put back), `change`,
counters (`=`, `+=`, `-=`) and `swap_seats` (each `put` written back with the value it
replaced), and `let`. Anything else (a zone's pieces, `remove`, `take`, `insert`, `if`, `for`,
turn order) keeps the copy. The inverse keeps the kept hash exact (its sums wrap around the same
way back), and puts the OVER slot back as the copy did (a stack overflowing while moves are
listed is forgotten with the Stage, as before). Slots above a stack's height may then hold other
stale values than after a copy; nothing reads them (`copy_state`, `hash_state`).
"""

from __future__ import annotations

from ...dsl import ir
from ...dsl import types as T

INVERTIBLE = frozenset({"move", "place", "change", "swap_seats"})


def invertible(body) -> bool:
    """Whether every statement of a Stage's body can be taken back in place."""
    for st in body:
        match st:
            case ir.Let() | ir.SetCounter():
                pass
            case ir.Effect() if st.fn in INVERTIBLE and (st.fn != "place" or st.args[0].type == T.PIECE):
                pass
            case _:
                return False
    return True


class Undo:
    """Writes a Stage's effects and returns the lines that take them back (`stmts`: the
    writer's effects.Statements, through which every forward write goes)."""

    def __init__(self, stmts):
        self.stmts, self.x = stmts, stmts.x

    def forward(self, body, env: dict, code) -> list:
        """Make the body's effects (env: the names bound so far); the inverse, in the order to
        write it after the later choices."""
        ov = code.fresh("ov")
        code(f"{ov} = s[OVER]")
        back: list = []
        for st in body:
            with code.at(st.pos):
                if isinstance(st, ir.Let):
                    env = self.stmts.bind(st.var, st.value, env, code)
                else:
                    back = self.effect(st, env, code) + back
        return back + [f"s[OVER] = {ov}"]

    def put(self, index: str, value: str, code) -> list:
        """`put(s, index, value)`, the old value kept: the line that writes it back."""
        i, old = code.fresh("i"), code.fresh("old")
        code(f"{i} = {index}")
        code(f"{old} = s[{i}]")
        self.stmts.call(code, "put", i, value)
        return [f"put(s, {i}, {old})"]

    def effect(self, st, env: dict, code) -> list:
        x = self.x

        def arg(k, stem):
            t = code.fresh(stem)
            code(f"{t} = {x.expr(st.args[k], env, code)}")
            return t

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
                return [f"move_stack(s, {b}, {hb}, {a})"]
            case "place":  # back: the height it had (the piece's term out of the hash)
                p, c = arg(0, "p"), arg(1, "c")
                h = code.fresh("h")
                code(f"{h} = s[HGT + {c}]")
                self.stmts.call(code, "place_piece", p, c)
                term = f"np.uint64({p} + 1) * ZK[STK + {c} * CAP + {h}]"
                return [f"if s[HGT + {c}] > {h}:",
                        "    if HASHING:",
                        f"        s[HSH] = np.int64(np.uint64(s[HSH]) - {term})",
                        f"    s[HGT + {c}] = {h}"]
            case "change":
                c, k, p = arg(0, "c"), arg(1, "k"), arg(2, "p")
                return self.put(f"level_slot(s, {c}, {k})", p, code)
            case "swap_seats":
                a, b = arg(0, "a"), arg(1, "b")
                sa, sb = code.fresh("seat"), code.fresh("seat")
                code(f"{sa}, {sb} = s[SEATS + {a}], s[SEATS + {b}]")
                first = self.put(f"SEATS + {a}", sb, code)
                return self.put(f"SEATS + {b}", sa, code) + first
        raise AssertionError(st)  # invertible() admits nothing else
