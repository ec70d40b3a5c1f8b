"""The names both backends give the rules' bindings in the code they write."""

from __future__ import annotations


def pyname(local: str) -> str:
    """The Python name of a binding's plan name: `v_to` for `to`; a fresh binding `to#3` (see
    resolve.core.Resolver.binder) becomes `_v3_to`, which no rules name can become.

    One to one, and apart from everything else the module names: the plan gives every binding
    of an action a name of its own, the generated code's temporaries start with `_` and a letter
    other than `v` (`_o1`, `_unit`, `_sv_to` for the stack of `v_to`) or are fixed lowercase
    words and capitals (`cells`, `nxt`, `CTRL`), and tables and attributes are `T_`, `TC`,
    `A_`, `SUF_`."""
    if "#" in local:
        base, k = local.split("#")
        return f"_v{k}_{base}"
    return "v_" + local
