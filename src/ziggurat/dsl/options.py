"""Option values: each option's default, or the value given for it, checked against its type and
range; then the ruleset's `check` rules between options. Options are computed in declaration
order, so a default may use the options declared above it."""

from __future__ import annotations

import re
from typing import Optional

from ..errors import GameError, RulesetError, diagnostic_at, did_you_mean, shown
from . import ir
from .fold import Folder, is_const
from .resolve.core import CheckError


def parse_option_value(decl: ir.OptionDecl, text, bounds) -> object:
    """Turn a --set value (text or already a value) into the option's type, or raise GameError."""
    kind, name = decl.kind, decl.name
    if isinstance(text, str):
        t = text.strip().lower()
        if kind == "bool":
            if t in ("true", "yes", "on", "1"):
                return True
            if t in ("false", "no", "off", "0"):
                return False
            raise GameError(f"option {name!r} is true or false, not {shown(text)}")
        if kind == "enum":
            if t not in decl.values:
                raise GameError(f"option {name!r} is one of {', '.join(decl.values)}, not {shown(text)}")
            return t
        if not re.fullmatch(r"-?[0-9]+", t) or len(t) > 30:  # plain ASCII digits: not '٣', '1_0', '+3'
            raise GameError(f"option {name!r} takes a whole number written in digits 0-9, not {shown(text)}")
        value = int(t)
    else:
        value = text
        if kind == "enum" and type(value) is not str:  # from the Python API: a real str, nothing else
            raise GameError(f"option {name!r} is one of {', '.join(decl.values)}, not {shown(value)}")
    if kind in ("range", "int"):
        if type(value) is not int:
            raise GameError(f"option {name!r} takes a whole number, not {shown(value)}")
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise GameError(f"option {name!r} must be between {bounds[0]} and {bounds[1]}, not {value}")
    if kind == "bool" and type(value) is not bool:
        raise GameError(f"option {name!r} is true or false, not {shown(value)}")
    if kind == "enum" and value not in decl.values:
        raise GameError(f"option {name!r} is one of {', '.join(decl.values)}, not {shown(value)}")
    return value



def option_values(plan: ir.Plan, overrides: dict, diagnostics: Optional[list] = None) -> tuple[dict, dict]:
    """(values, bounds): option values in declaration order, and each range option's (low, high).

    With `diagnostics` a list, problems in the ruleset's own defaults and checks are appended to
    it (as `check` wants); otherwise they raise RulesetError or GameError. Bad overrides always
    raise GameError.
    """
    unknown = [k for k in overrides if k not in plan.options]
    if unknown:
        name = unknown[0]
        hint = did_you_mean(name, plan.options)
        known = ", ".join(plan.options) or "none"
        raise GameError(f"unknown option {name!r}" + (f"; {hint}" if hint else "") + f" (options: {known})")
    values: dict = {}
    bounds_of: dict = {}

    def problem(e: CheckError) -> None:
        d = diagnostic_at(e.pos, e.message, hint=e.hint)
        if diagnostics is None:
            raise RulesetError([d])
        diagnostics.append(d)

    for decl in plan.options.values():
        f = Folder(plan, values, None, [])
        bounds = None
        try:
            if decl.default is None:  # refused by resolve (reported there)
                raise CheckError(None, "")
            if decl.kind == "range":
                lo, hi = f.expr(decl.lo), f.expr(decl.hi)
                if not (is_const(lo) and is_const(hi)):
                    raise CheckError(decl.type_pos, "a range must be fixed")
                if lo.value > hi.value:
                    raise CheckError(decl.type_pos, f"the range {lo.value}..{hi.value} is empty",
                                     hint="write the low end first")
                bounds = (lo.value, hi.value)
            default = f.expr(decl.default)
            if not is_const(default):
                raise CheckError(decl.default.pos, "an option's default must be fixed")
            try:
                value = parse_option_value(decl, default.value, bounds)
            except GameError as e:
                raise CheckError(decl.default.pos, f"the default does not fit: {e}") from None
        except CheckError as e:
            if e.message:
                problem(e)
            elif diagnostics is None:
                raise RulesetError([]) from None
            value = False if decl.kind == "bool" else (bounds[0] if bounds else 0)
        if decl.name in overrides:
            value = parse_option_value(decl, overrides[decl.name], bounds)
        values[decl.name] = value
        bounds_of[decl.name] = bounds
    for chk in plan.checks:
        f = Folder(plan, values, None, [])
        try:
            cond = f.expr(chk.cond)
            if not is_const(cond):
                raise CheckError(chk.cond.pos, "a check may use only options")
        except CheckError as e:
            problem(e)
            continue
        if not cond.value:
            shown = ", ".join(f"{k}={v}" for k, v in overrides.items())
            message = (f"these options do not go together ({shown}): {chk.message}" if overrides
                       else f"the default options contradict a check: {chk.message}")
            if diagnostics is None:
                raise GameError(message)
            diagnostics.append(diagnostic_at(chk.pos, message))
    return values, bounds_of
