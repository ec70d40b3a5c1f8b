"""Response windows: `ask(PLAYERS)`, `answer`, `pass_on()` and `close()`, written as rules.

A move may open a window (`ask([target])`, `ask(others)`): the players listed are asked one at a
time, in that order, out of turn. While a window is open, only actions with the line `answer` are
offered, to the player asked; every other action waits. An answer either passes the question on
(`pass_on()`: the next player listed is asked; after the last, the window closes) or closes the
window at once (`close()`: the first refusal or counter). When it closes, the turn goes back to the
player who opened it.

The engine needs nothing new for this: a ruleset that uses a window gets two counters, `asked`
(per player: the order it is asked in, 0 when it is not) and `asker` (the seat that opened the
window, from 1; 0 when none is open), both bookkeeping (not shown to players), and its actions are
rewritten on the AST before any name is checked. The rewritten statements are rules text
(TEMPLATES below), placed at the call they replace, so a mistake in a call is reported there. One
window is open at a time: an answer that would open another (`ask` in an action that answers) is
reported at the call.
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from . import ast

MACROS = ("ask", "pass_on", "close")
from .types import WINDOW_COUNTERS as COUNTERS  # noqa: E402 (the runtime reads them there)
ARGUMENT = "asked_players_"  # stands for ask()'s argument in its template

TEMPLATES = {
    "ask": """\
let ask_list_ = asked_players_
for ask_i_ in 1..count(ask_list_):
    asked[ask_list_[ask_i_]] = ask_i_
asker = sum(ask_j_ for ask_j_ in 1..count(players) where players[ask_j_] == mover)
turn_to(ask_list_[1])
""",
    "pass_on": """\
asked[mover] = 0
if any(asked[ask_q_] > 0 for ask_q_ in players):
    turn_to(list(ask_q_ for ask_q_ in players
                 where asked[ask_q_] == min(asked[ask_r_] for ask_r_ in players where asked[ask_r_] > 0))[1])
else:
    turn_to(players[asker])
    asker = 0
""",
    "close": """\
for ask_q_ in players:
    asked[ask_q_] = 0
turn_to(players[asker])
asker = 0
""",
}
GUARDS = """\
    require asker == 0 else "a player is answering out of turn: the window must close first"
    require asker > 0 else "there is nothing to answer now"
"""


def _indent(text: str, by: str) -> str:
    return "".join(by + line if line.strip() else line for line in text.splitlines(True))


@lru_cache(maxsize=None)
def _templates() -> tuple:
    """(statements per macro, the closed guard, the open guard), parsed once."""
    from .parser import parse

    body = "".join(f'action t_{name} "{name}":\n    do:\n{_indent(text, " " * 8)}' for name, text in TEMPLATES.items())
    rules = parse(body + 'action t_guards "guards":\n' + GUARDS, "<windows>")
    actions = {d.name: d for d in rules.decls}
    stmts = {name: actions[f"t_{name}"].items[-1].body for name in TEMPLATES}
    closed, opened = actions["t_guards"].items
    return stmts, closed, opened


def uses_windows(actions) -> bool:
    """Whether any action answers a window or any statement opens or closes one."""
    for node in ast.walk(list(actions)):
        if isinstance(node, ast.Answer) or (isinstance(node, ast.Call) and node.func in MACROS):
            return True
    return False


def counters(pos) -> list:
    """The window's counters, declared where the first window is used."""
    return [ast.Counter("asked", True, ast.Num(0, pos), pos, bookkeeping=True),
            ast.Counter("asker", False, ast.Num(0, pos), pos, bookkeeping=True)]


def rewrite_action(action):
    """The action with its `answer` line (or, without one, the wait for no window) as a `when`,
    and its window statements written out."""
    stmts, closed, opened = _templates()
    answers = any(isinstance(i, ast.Answer) for i in action.items)
    guard = _at(opened if answers else closed, action.pos)
    items = [_expand(i, stmts) for i in action.items if not isinstance(i, ast.Answer)]
    lead = 0  # after the action's own `when`s, so that one false at these options still drops it
    while lead < len(items) and isinstance(items[lead], (ast.When, ast.ByChance, ast.Otherwise, ast.Priority)):
        lead += 1
    return attrs.evolve(action, items=tuple(items[:lead] + [guard] + items[lead:]))


def expand(items) -> tuple:
    """Items (or statements) with their window statements written out."""
    return _expand(tuple(items), _templates()[0])


def _expand(node, stmts):
    """node with every window statement in it replaced by its template."""
    def macro(x):
        call = x.expr if isinstance(x, ast.ExprStmt) and isinstance(x.expr, ast.Call) else None
        return _macro(call, stmts) if call is not None and call.func in MACROS else None

    return _rebuild(node, macro)


def _macro(call, stmts) -> list:
    """The statements a window call stands for, placed at the call (ask's argument kept as written)."""
    if len(call.args) != (1 if call.func == "ask" else 0):
        return [ast.ExprStmt(call, call.pos)]  # left for the checker, which names the mistake
    arg = call.args[0] if call.args else None
    return list(_rebuild(stmts[call.func], lambda x: arg if isinstance(x, ast.Name) and x.id == ARGUMENT else None,
                         call.pos))


def _at(node, pos):
    """node and everything in it placed at pos."""
    return _rebuild(node, lambda x: None, pos)


def _rebuild(node, change, pos=None):
    """node rebuilt from the bottom, each AST node x replaced by change(x) when that is not None
    (a list replaces one item of a tuple by several); with `pos`, every rebuilt node is placed
    there."""
    if isinstance(node, tuple):
        out = []
        for x in node:
            y = _rebuild(x, change, pos)
            out.extend(y if isinstance(y, list) else [y])
        return tuple(out)
    if attrs.has(type(node)) and not isinstance(node, ast.Pos):
        new = change(node)
        if new is not None:
            return new
        fields = {f.name: _rebuild(getattr(node, f.name), change, pos)
                  for f in attrs.fields(type(node)) if f.name != "pos"}
        if pos is not None and hasattr(node, "pos"):
            fields["pos"] = pos
        return attrs.evolve(node, **fields)
    return node


def apply(m) -> None:
    """Write out the response windows of a model (dsl.model.Model), in place: its counters,
    guards and statements. A counter of the ruleset's own with a window's name is reported."""
    for item in m.after.items if m.after is not None else ():
        if isinstance(item, ast.Answer):
            m.owner[id(m.after)].error(item.pos, "'answer' marks an action that answers a window; the after "
                                                 "block is not one", hint="move the line into the action that answers")
            return
    if not m.actions or not uses_windows(list(m.actions.values()) + ([m.after] if m.after else [])
                                         + list(m.procedures.values())):
        return  # without actions there is no window to open (and the missing actions are reported)
    for action in m.actions.values():
        if any(isinstance(i, ast.Answer) for i in action.items):
            for node in ast.walk([action]):
                if isinstance(node, ast.Call) and node.func == "ask":
                    m.owner[id(action)].error(
                        node.pos, "an answer cannot open a window: one window is open at a time, and this one "
                                  "is still open while its players answer",
                        hint="answer with pass_on() or close(), and let a move made after the window closes ask again")
                    return
    first = next(iter(m.actions.values()))
    rep = m.owner[id(first)]
    for name in COUNTERS:
        if name in m.counters:
            rep.error(m.counters[name].pos, f"{name!r} is kept by the response windows this ruleset opens",
                      hint="give your counter another name")
            return
    for c in counters(first.pos):
        m.counters[c.name] = c
        m.owner[id(c)] = rep
    for name, action in list(m.actions.items()):
        new = rewrite_action(action)
        m.owner[id(new)] = m.owner[id(action)]
        m.actions[name] = new
    if m.after is not None:
        new = attrs.evolve(m.after, items=expand(m.after.items))
        m.owner[id(new)] = m.owner[id(m.after)]
        m.after = new
    for name, proc in list(m.procedures.items()):  # a procedure's window statements, written out where it is
        new = attrs.evolve(proc, body=expand(proc.body))
        m.owner[id(new)] = m.owner[id(proc)]
        m.procedures[name] = new
