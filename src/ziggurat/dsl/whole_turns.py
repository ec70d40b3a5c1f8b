"""The checks of a `whole turns` declaration (interpreter/whole_turns.py plays it).

`whole turns, at most N parts [, one per position] [, keeping the most NAME]` makes a move of
every part one player plays before the turn passes. What cannot work is said at the declaration's
line: a second declaration, a bound below 1 or above `MOST_PARTS`, a game of one player (its turn
never passes), an action whose notation writes the separator that joins a turn's parts, and a
`keeping` that names neither `parts` nor a shared number counter.
"""

from __future__ import annotations

from . import ast

SEPARATOR = "; "  # between the parts of a whole turn, as moves are written
MOST_PARTS = 64  # the largest bound a ruleset may give (a turn is listed by trying every way to play it)


def add(m, d: ast.WholeTurns, rep, variant: bool) -> None:
    """Keep the declaration on the model (a variant's replaces the base's); a second one in a file is an error."""
    old = m.whole_turns
    if old is not None and not variant:
        rep.error(d.pos, "a ruleset declares whole turns once", hint=f"the first is on line {old.pos.line}")
    if not 1 <= d.parts <= MOST_PARTS:
        rep.error(d.pos, f"a whole turn has at most 1 to {MOST_PARTS} parts, not {d.parts}",
                  hint="the most parts one player's turn can have in this game")
    m.whole_turns = d


def check(m) -> None:
    """What a declaration needs of the rest of the ruleset (run once the model is whole)."""
    d = m.whole_turns
    if d is None:
        return
    rep = m.owner[id(d)]
    if len(m.players) == 1:
        rep.error(d.pos, "whole turns need two players or more: in a game of one player the turn "
                  "never passes, so the whole game would be one move",
                  hint="leave the declaration out: each move of a game of one player is a part")
    if d.keeping and d.keeping != "parts":
        c = m.counters.get(d.keeping)
        if c is None or c.per_player or c.kind != "number":
            what = ("no counter" if c is None else "a counter per player" if c.per_player
                    else f"a counter of a {c.kind}")
            rep.error(d.pos, f"a whole turn is kept by the most parts or by a shared number counter; "
                      f"{d.keeping!r} is {what}",
                      hint="write `keeping the most parts`, or declare `counter NAME = 0` and add to it in the parts")
    for a in m.actions.values():
        if ";" in (a.fmt or ""):
            m.owner[id(a)].error(a.pos, f"the notation of action {a.name!r} writes ';', which joins the "
                                 "parts of a whole turn", hint="write the move without ';'")
    if m.after is not None and ";" in (m.after.fmt or ""):
        m.owner[id(m.after)].error(m.after.pos, "the notation of the after block writes ';', which joins "
                                   "the parts of a whole turn", hint="write it without ';'")
