"""The second round of cheaper parts of Numba's compiler (`native.numbapipe`): each does what
Numba's own does, and is the one in use."""

import copy

import pytest

numba = pytest.importorskip("numba")

from numba.core import base, ir  # noqa: E402
from numba.core.registry import cpu_target  # noqa: E402

from ziggurat.interpreter.native import numbapipe  # noqa: E402
from ziggurat.interpreter.native.numbacache import _more_than  # noqa: E402

from numbapipe_checked import checked  # noqa: E402  # numbapipe installed, the mark of a tested Numba


@checked
def test_a_source_position_is_copied_sharing_the_source_lines_it_caches():
    loc = ir.Loc(__file__, 12, col=3)
    assert len(loc.get_lines()) > 12  # (what lowering a raise does: the file's lines, kept on the Loc)
    block = ir.Block(ir.Scope(None, loc), loc)
    block.append(ir.Assign(ir.Global("g", 1, loc), ir.Var(block.scope, "x", loc), loc))
    copied = copy.deepcopy(block)
    for new in (copy.deepcopy(loc), copied.loc, copied.body[0].loc, copied.body[0].value.loc):
        assert new == loc and new is not loc and (new.filename, new.line, new.col) == (loc.filename, 12, 3)
        assert new.lines is loc.lines  # Numba's own copy copies the list, line by line
    assert copied.body[0].loc is copied.loc  # one copy of one Loc within one deepcopy (the memo)


@checked
def test_a_refresh_finding_nothing_new_returns_and_a_new_registration_is_still_found(monkeypatch):
    from numba.core import types
    from numba.core.imputils import lower_builtin
    from numba.core.typing import signature

    assert base.BaseContext.refresh is numbapipe._refresh_when_registered
    context = cpu_target.target_context
    context.refresh()
    calls = []
    real = numbapipe._refresh
    monkeypatch.setattr(numbapipe, "_refresh", lambda self: calls.append(1) or real(self))
    context.refresh()
    assert calls == []  # nothing registered since: Numba's refresh would have found nothing
    key, sig = f"ziggurat_test_{id(calls)}", signature(types.int64, types.int64)
    with pytest.raises(NotImplementedError):
        context.get_function(key, sig)  # a miss refreshes: nothing new, it returns
    assert calls == []
    lower_builtin(key, types.int64)(lambda context, builder, sig, args: args[0])
    assert context.get_function(key, sig) is not None  # the miss refreshed: the new entry installed
    assert calls == [1]


@checked
def test_whether_an_implementation_takes_loc_agrees_with_numbas_for_every_implementation():
    import functools

    context = cpu_target.target_context
    context.refresh()
    impls = {x for table in (context._defns, context._getattrs, context._setattrs) for over in table.values()
             for version in over.versions for x in version if callable(x) and not isinstance(x, type)}

    def loc_kw(context, builder, sig, args, loc=None):
        return loc

    def star(*loc):
        return loc

    def stars(**loc):
        return loc

    odd = [loc_kw, star, stars, functools.partial(loc_kw, 1), functools.wraps(loc_kw)(lambda *a: a),
           lambda a, *, loc: loc, lambda a, b: b]
    assert len(impls) > 100 and any(numbapipe.NUMBAS_HAS_LOC(f) for f in impls)
    for fn in [*impls, *odd]:
        assert numbapipe._has_loc(fn) == numbapipe.NUMBAS_HAS_LOC(fn), fn
    assert base._has_loc is numbapipe._has_loc


def test_more_than_counts_only_up_to_what_it_needs():
    seen = []

    def items(n):
        for i in range(n):
            seen.append(i)
            yield i

    assert not _more_than(3, items(3)) and _more_than(3, items(4)) and not _more_than(0, items(0))
    seen.clear()
    assert _more_than(3, items(10**6)) and len(seen) == 4
