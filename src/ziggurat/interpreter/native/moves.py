"""Packed moves, written: the native writer's half of `layout.Codec`.

`pack` writes, where `legal` has made a move, its action and choices into one int64 (the fields
of `Codec`, each `value - bias` in its bits); `unpack` writes, at the top of `do_N`, the choices
read back from it. `Offset` is where the next field starts: a number while every field before it
has a fixed width, then a local of the generated code (after a list). `field_of` gives the Codec
each type's width; `refuse_too_long` refuses, before any code is written, an action whose
shortest moves cannot fit.
"""

from __future__ import annotations

from typing import Optional

from ...dsl import types as T
from ...errors import Unsupported
from ..names import pyname
from .code import Code
from .layout import BIAS, MOVE_BITS, Codec, Layout


class Offset:
    """Where the next field of a packed move starts: a number while every field before it has a
    fixed width, then a local of the generated code (after a list)."""

    def __init__(self, code: Code, start: Optional[int]):
        self.code, self.static, self.var = code, start, code.fresh("o")

    def at(self) -> str:
        return str(self.static) if self.static is not None else self.var

    def advance(self, k: int) -> None:
        if self.static is not None:
            self.static += k
        else:
            self.code(f"{self.var} += {k}")

    def dynamic(self) -> None:
        if self.static is not None:
            self.code(f"{self.var} = {self.static}")
            self.static = None


class Moves:
    """The packed moves of one folded game: its Codec (set on the layout too), and the code
    that packs and unpacks them."""

    def __init__(self, folded, plans: list, layout: Layout, x):
        self.game, self.plans, self.layout, self.x = folded, plans, layout, x
        self.codec = layout.codec = Codec([p.spec for p in plans], self.field_of)
        self.lists = any(f.is_list for fs in self.codec.fields for f in fs)  # some move may grow too long
        self.refuse_too_long()

    def field_of(self, typ: T.Type) -> tuple[int, int]:
        """(bits, bias) of one value of a type in a packed move."""
        w, lay = self.game.world, self.layout
        if typ == T.CELL:
            return max(1, (w.ncells - 1).bit_length()), 0
        if typ == T.PIECE:
            return max(1, (lay.npieces - 1).bit_length()), 0
        if typ == T.PLAYER:
            return max(1, (lay.nplayers - 1).bit_length()), 0
        if typ == T.BOOL:
            return 1, 0
        if typ == T.SPOT:  # the open table's (dsl.surface): x and y in 26 bits each, a pose in 3
            return 55, 0
        attr = self.game.plan.attributes.get(typ.attr) if typ.name == "enum" else None
        if attr is not None and attr.numbers and min(attr.numbers) >= 0:
            return max(1, max(attr.numbers).bit_length()), 0
        return 16, -BIAS  # stored as v + BIAS

    def refuse_too_long(self) -> None:
        """Unsupported, at the action's rules line, before any code is written (and so before
        Numba compiles anything), when even the shortest moves of an action do not fit in one
        packed move, or its shortest moves holding the after block's choices do not: every
        such move would stop the native loop. Moves that only sometimes pass the limit (a
        long list) still stop it where they are made."""
        for p in self.plans:
            own, whole = self.codec.shortest(p.index)
            if own > MOVE_BITS or whole > MOVE_BITS:
                part, bits = (("its moves", own) if own > MOVE_BITS
                              else ("its moves with the after block's choices", whole))
                raise Unsupported(f"action {p.spec.name!r}: {part} take at least {bits} bits, and a packed move "
                                  f"holds {MOVE_BITS}", p.pos)
        # The actions whose moves may still be too long (a list longer than it fits): named
        # when a loop meets one (NativeGame._check).
        self.layout.growing = [(p.spec.name, p.pos) for p in self.plans
                               if any(f.is_list for f in self.codec.fields[p.index])]

    def pack(self, plan, env: dict, code: Code, lo: int, hi: int, m: Optional[str] = None, off=None) -> tuple:
        """(local, offset): the action and the choices lo..hi-1 of a move of `plan` packed into a
        local; with `m`, added to that local from `off` on. The after block's choices start with
        the bit saying the move holds them."""
        a = plan.index
        fields = self.codec.fields[a]
        terms: Optional[list] = None  # the move as one expression while every field is at a fixed offset
        if m is None:
            terms = [str(a)]
            off = Offset(code, self.codec.abits)
        for k in range(lo, hi):
            name, f = plan.spec.choices[k][0], fields[k]
            if name not in env:
                raise Unsupported(f"a move without its choice {name}", plan.pos)
            v = env[name]
            if terms is not None and not f.is_list:
                value = f"({v} - {f.bias})" if f.bias else v
                if off.static + f.width > MOVE_BITS:
                    raise Unsupported(f"a move of more than {MOVE_BITS} bits ({plan.spec.name})", plan.pos)
                terms.append(f"({value} << {off.at()})")
                off.advance(f.width)
                continue
            if terms is not None:  # a list: the move so far into a local, the list's items added to it
                m = code.fresh("m")
                code(f"{m} = {' | '.join(terms)}")
                terms = None
            if f.is_list:
                off.dynamic()
                o, ln, i = off.var, code.fresh("ln"), code.fresh("i")
                code(f"{ln} = {v}_n")
                code(f"if {ln} > {f.lmask}:")
                code("    toolong = True")
                code(f"    {ln} = {f.lmask}")
                code(f"{m} |= {ln} << {o}")
                code(f"{o} += {f.lwidth}")
                code(f"for {i} in range({ln}):")
                code(f"    if {o} + {f.width} <= {MOVE_BITS}:")
                code(f"        {m} |= ({v}[{i}] - {f.bias}) << {o}")
                code(f"    {o} += {f.width}")
            else:
                value = f"({v} - {f.bias})" if f.bias else v
                if off.static is not None and off.static + f.width > MOVE_BITS:
                    raise Unsupported(f"a move of more than {MOVE_BITS} bits ({plan.spec.name})", plan.pos)
                if off.static is None:
                    code(f"if {off.var} + {f.width} <= {MOVE_BITS}:")
                    code(f"    {m} |= {value} << {off.var}")
                else:
                    code(f"{m} |= {value} << {off.at()}")
                off.advance(f.width)
        if terms is not None:  # the expression itself, where the move is used: no local (Numba statements)
            terms = terms[1:] if terms[0] == "0" and len(terms) > 1 else terms
            return (terms[0] if len(terms) == 1 else f"({' | '.join(terms)})"), off
        return m, off

    def unpack(self, p, lo: int, hi: int, off: Offset, env: dict, code: Code) -> dict:
        """Bind the choices lo..hi-1 of a move of plan p from the packed move `m`."""
        env = dict(env)
        fields = self.codec.fields[p.index]
        for k in range(lo, hi):
            name, f = p.spec.choices[k][0], fields[k]
            var = pyname(name)
            if f.is_list:
                off.dynamic()
                o, i = off.var, code.fresh("i")
                code.buffer(var, f.lmask)
                self.x.caps[var] = f.lmask
                code(f"{var}_n = (m >> {o}) & {f.lmask}")
                code(f"{o} += {f.lwidth}")
                code(f"for {i} in range({var}_n):")
                code(f"    {var}[{i}] = ((m >> {o}) & {f.mask}) + {f.bias}")
                code(f"    {o} += {f.width}")
            else:
                code(f"{var} = ((m >> {off.at()}) & {f.mask}) + {f.bias}" if f.bias else
                     f"{var} = (m >> {off.at()}) & {f.mask}")
                off.advance(f.width)
            env[name] = var
        return env

    def own_choices(self, p) -> int:
        """How many of a move's choices are its action's own (the after block's follow)."""
        first = self.codec.after[p.index]
        return first if first is not None else len(self.codec.fields[p.index])

    def cell_shifts(self, p) -> list:
        """Where each chosen cell of a move of plan p starts in the packed move (for `last`):
        the cells before any list or after-block choice."""
        out, o = [], self.codec.abits
        for k, ((_, typ), f) in enumerate(zip(p.spec.choices, self.codec.fields[p.index])):
            if f.is_list or k == self.codec.after[p.index]:
                if self.x.uses_last:
                    raise Unsupported(f"'last' with a move holding lists or after choices ({p.spec.name})", p.pos)
                break
            if typ == T.CELL:
                out.append(o)
            o += f.width
        return out
