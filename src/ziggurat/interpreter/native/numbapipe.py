"""How Numba compiles a native module's functions: the parts of its compiler made cheaper for
generated code like ours, each keeping the code it makes the same.

- **Inlining copies a function's IR once, not once per block.** Numba inlines a call
  (`inline="always"`, `numbacache.inline_unless_big`) by copying the callee's IR twice, block by
  block, each block with a `copy.deepcopy` of its own (`InlineWorker.inline_ir`). Every block
  refers to the function's one `Scope`, which holds all its variables, so each block's copy
  copied every variable again: a callee of B blocks and V variables cost B x V copies (a
  shipped game's `do_N` of 35 blocks and 616 variables, inlined into `apply`). Here the
  blocks of one IR are copied with one memo, as a single `deepcopy` of its blocks would be: the
  scope and its variables are copied once and the blocks share the copy. Numba's own copy gives
  each block an equal scope of its own; the inliner asks for exactly one (it compares them by
  value) and then moves every block into the caller's scope, so what it builds is the same.
"""

from __future__ import annotations

import copy

from numba.core import inline_closurecall, ir


class _OneMemoPerScope:
    """The `copy` module as `inline_closurecall` sees it: `deepcopy` of a block shares its memo with
    the other blocks of the same scope, within one `inline_ir` call (`memos`, else Numba's own)."""

    memos = None  # id of a scope -> the memo of its blocks' copies, during one inline_ir call

    def deepcopy(self, x, memo=None):
        if memo is None and self.memos is not None and isinstance(x, ir.Block):
            memo = self.memos.setdefault(id(x.scope), {})  # the scopes are alive during the call
        return copy.deepcopy(x, memo)


_COPY = _OneMemoPerScope()
_inline_ir = inline_closurecall.InlineWorker.inline_ir


def _inline_ir_copying_once(self, *args, **kws):
    saved, _COPY.memos = _COPY.memos, {}
    try:
        return _inline_ir(self, *args, **kws)
    finally:
        _COPY.memos = saved


def install() -> None:
    """Make the changes above (once per process; the native modules' `njit` does it)."""
    if inline_closurecall.copy is not _COPY:
        inline_closurecall.copy = _COPY  # its only use of the module: copy.deepcopy of a block
        inline_closurecall.InlineWorker.inline_ir = _inline_ir_copying_once
