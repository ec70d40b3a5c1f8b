"""Procedures: named blocks of statements with parameters, expanded in place at every call.

    procedure capture(c, p):
        take(c, captured[p])
        counter[p] += 1

A call, `capture(over, mover)`, stands on a line of its own wherever statements do (a `do:`
block, the after block's, setup, the end block). It is resolved into the statements of the
procedure's body, written into the calling block where the call is: the plan (dsl.ir) has no
procedures, so every backend runs them as if the body had been written at each call, as a
compiler inlines a small function. Arguments are passed by value: each argument is computed
once, before the body runs (a `let` of a fresh name, unless it is a name or a fixed value that
no effect can change), so `capture(top(c), ...)` means the piece on top before the body moved it.

The body sees its parameters and what the whole ruleset declares, never the caller's names; its
own lets and loop variables get fresh names. A procedure may call another, never itself (the
expansion would not end): the checks name the chain. Each statement of the body is checked where
the call is: `win` in a procedure called from a `do:` block is an error at the `win`, with the
call's line in the message.
"""

from __future__ import annotations

from .. import ast, budgets, ir
from .core import CheckError, Ctx, Resolver, ScopeError, Where, may_be_neutral

_STABLE_GLOBALS = ("mover", "ply", "files", "ranks", "players", "cells")  # no effect changes them


def _stable(e) -> bool:
    """Whether an argument can stand for its parameter as it is: a name bound once, a fixed value,
    or a zone (of a fixed player). Anything else (a stack, a piece on top) is computed once first."""
    if isinstance(e, (ir.Local, ir.Const, ir.Opt)):
        return True
    if isinstance(e, ir.Global):
        return e.what in _STABLE_GLOBALS
    if isinstance(e, ir.ZoneRef):
        return e.player is None or _stable(e.player)
    return False


def _size(d: ast.Procedure) -> int:
    return sum(1 for _ in ast.walk(d.body))


def call_procedure(r: Resolver, d: ast.Procedure, call: ast.Call, ctx: Ctx) -> list:
    """The statements a call of procedure d stands for: lets of its arguments, then its body."""
    n = len(d.params)
    if len(call.args) != n:
        r.fail(call, f"{d.name}() takes {n} argument{'s' if n != 1 else ''}, not {len(call.args)}",
               hint=f"procedure {d.name}({', '.join(d.params)}) is on line {d.pos.line}")
    chain = tuple(x for x in ctx.inlining if x in r.m.procedures)
    if d.name in chain:
        path = " -> ".join(f"{x}()" for x in chain[chain.index(d.name):] + (d.name,))
        r.fail(call, f"{d.name}() calls itself ({path}); a procedure is written out in place where it is "
                     "called, so it cannot recurse",
               hint="repeat with a 'for' loop over what changes, or split the work into procedures that "
                    "do not call one another back")
    if len(chain) >= budgets.MAX_DEF_DEPTH:
        r.fail(call, f"{d.name}() calls procedures inside one another more than {budgets.MAX_DEF_DEPTH} deep")
    r.procedure_nodes += _size(d)
    if r.procedure_nodes > budgets.MAX_EXPANDED_NODES:
        r.fail(call, f"the procedures called in this ruleset, each written out in place where it is called, "
                     f"add up to more than {budgets.MAX_EXPANDED_NODES:,} nodes of rules with this call of "
                     f"{d.name}()",
               hint="a procedure that calls another twice doubles it: call fewer procedures inside one another")
    r.called.add(d.name)
    out: list = []
    scope: dict = {}
    for p, a in zip(d.params, call.args):
        value = r.expr(a, ctx)
        if _stable(value):
            scope[p] = value
        else:
            var = r.fresh(p)
            out.append(ir.Let(var, value, a.pos))
            scope[p] = ir.Local(var, value.type, a.pos, neutral=may_be_neutral(value))
    inner = Ctx(ctx.where, scope, ctx.options, ctx.inlining + (d.name,))
    try:
        out += r.block(d.body, inner)
    except CheckError as e:
        if e.message and f"called on line {call.pos.line}" not in e.message:
            _once_per_body(r, d, call, e)
        raise
    return out


def _once_per_body(r: Resolver, d: ast.Procedure, call: ast.Call, e: CheckError) -> None:
    """Name the call in the message of a mistake inside d's body; the same mistake at the same
    place, met again through another call, is left unsaid (an empty message: reported already), so
    a wrong line in a procedure called five times is one error, not five."""
    key = (d.name, getattr(e.pos, "line", None), getattr(e.pos, "col", None), e.message)
    seen = r.procedure_mistakes
    if key in seen and e.pos is not None and e.pos != call.pos:
        e.message = ""
    else:
        seen.add(key)
        e.message = f"{e.message} (in {d.name}(), called on line {call.pos.line})"
    e.args = (e.message,)


def not_a_value(r: Resolver, d: ast.Procedure, call: ast.Call):
    """A procedure's call where an expression is wanted: it changes the game and gives no value."""
    r.fail(call, f"{d.name}() is a procedure: it changes the game and gives no value, so it stands on a line of "
                 "its own in a 'do:', 'setup:' or 'end:' block",
           hint="for a value computed from its arguments, declare a def: def NAME(a, b): EXPRESSION")


def unused_procedures(r: Resolver) -> None:
    """The bodies of procedures no rule calls are checked for the names they use (their
    parameters standing for anything): an unknown name, or one that hides another, is an error
    there too, as in an unused def."""
    from .. import types as T

    for d in r.m.procedures.values():
        if d.name in r.called:
            continue
        # as in a `do:` block, where most are called: its effects and assignments are read there
        ctx = Ctx(Where.EFFECTS, {p: ir.Local(p, T.ANY, d.pos) for p in d.params}, inlining=(d.name,))
        for s in d.body:  # one by one: a statement that only a call could place (an effect) stops none after it
            try:
                done = r.stmt(s, ctx)
            except CheckError as e:
                if isinstance(e, ScopeError) or e.message.startswith("unknown "):
                    r.report(e.pos, e.message, hint=e.hint)
                continue
            if isinstance(done, tuple):  # a let: the names after it see it
                ctx = done[1]
