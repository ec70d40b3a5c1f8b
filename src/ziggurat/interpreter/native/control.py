"""Control by place in the native module: where `control:` reads the cell a stack stands on as
well as its top piece (fold.Folded.ctrl_at), `controller`, `mine` and `theirs` look up the
table CTRLAT by cell and top piece instead of CTRL by the top piece alone."""

from __future__ import annotations

# the top's slot, read where the height is above 0 (U: an index not below 0, see exprs.STACK)
TOP = "s[U(STK + {c} * CAP + s[U(HGT + {c})] - 1)]"
AT = "CTRLAT[{c} * {np} + " + TOP + "]"
PLACE = {
    "controller": f"({AT} if s[U(HGT + {{c}})] > 0 else -1)",
    "mine": f"(s[U(HGT + {{c}})] > 0 and {AT} == mover)",
    "theirs": f"(s[U(HGT + {{c}})] > 0 and {AT} != mover and {AT} != -1)",
}


def place_call(x, fn: str, c: str) -> str:
    """`controller(c)`, `mine(c)` or `theirs(c)` by place (c: the cell, written once as a name)."""
    x.tables["CTRLAT"] = list(x.game.ctrl_at)
    return PLACE[fn].format(c=c, np=x.world.npieces)
