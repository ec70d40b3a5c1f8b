"""Less for LLVM to read: what a native module's functions are lowered to, made smaller where
Numba writes much more than the operation needs. What that costs is Numba writing it (Python) and
LLVM reading and optimising it, in proportion to its instructions (the two largest shipped
modules: 79,000 and 106,000 LLVM instructions before optimisation, 55,000 and 71,000 with the
three changes below).
LLVM's optimiser makes the same code of both forms but for the order of some address arithmetic
(the optimised `legal`, `apply`, `perft` and `study_chunk` of one: within 0.6% of the lines,
names aside), and the same games: its playouts measured at the same speed (1.01x, warm, interleaved).

- **An element of a one-dimensional array, read or written by an integer index** (`s[i]`, `T[i]`,
  `s[i] = v`; every position slot and table lookup of the generated code): Numba's lowering goes
  through its general indexing (a struct proxy on the stack, the shape and strides unpacked, the
  pointer from every dimension's stride): 29 instructions an access. Here, for a C-contiguous
  array of numbers or booleans, without bounds checking: the data pointer and the shape read from
  the array's value, the index wrapped as Numba wraps it (a signed index below 0 counts from the
  end; an unsigned one as it is), and one load or store as Numba makes it (`load_item`,
  `store_item`): 8. Any other array, index or value is Numba's own. Only while a native function
  compiles (numbapipe's count, handed over by `install`; Numba's implementations it compiles meanwhile
  included); a
  compile outside one is Numba's own.
- **No `del` of a value without a reference count** (`DropPlainDels`, just before lowering):
  Numba ends each variable's life with a `del` (half of the statements lowered), which for a
  number, a boolean, a tuple of them or a function type decrements nothing but still writes a
  load and a store of zero to the variable's slot. Those are left out; a `del` of anything
  holding a reference count (an array, a tuple holding one) is kept.
- **A table made once per function** (`_tables`): each mention of a module-level array (`CTRL[c]`,
  `NB[d, c, k]`) is lowered by Numba as a new global holding the table's bytes and the array's
  structure built on the stack from it (15 instructions); here it is one constant of LLVM's per
  function's module and table, given at every mention. (Moving each table's `global` statement to
  the entry block instead, one variable for every mention, compiled about as fast but made one
  game's playouts about 10% slower: left out.)
"""

from __future__ import annotations

import operator
from typing import Callable

from llvmlite import ir as llvm_ir  # type: ignore[import-untyped]
from numba.core import base, cgutils, ir, types
from numba.core.compiler_machinery import LoweringPass, register_pass
from numba.core.imputils import lower_builtin
from numba.np import arrayobj

PLAIN = (types.Integer, types.Float, types.Boolean)  # element types read and written with one load or store

# What numbapipe tells this module when it installs it (`install`; this module does not import it):
# how many native functions' compiles are under way, and the attribute marking a native module's function.


def _none_compiling() -> int:
    return 0


_compiling: Callable[[], int] = _none_compiling
_ours = "_ziggurat_trimmed"


def _plain(context, aryty, idxty) -> bool:
    """Whether aryty[idxty] is one element read the short way (see the module's docstring)."""
    return (_compiling() > 0 and isinstance(aryty, types.Array) and aryty.ndim == 1
            and aryty.layout == "C" and isinstance(idxty, types.Integer) and isinstance(aryty.dtype, PLAIN)
            and not context.enable_boundscheck)


def _element(context, builder, aryty, ary, idxty, idx):
    """The pointer to element idx of the array value ary, the index wrapped as Numba's
    `basic_indexing` wraps it (`fix_integer_index`): a signed one below 0 counts from the end."""
    model = context.data_model_manager[aryty]
    data = builder.extract_value(ary, model.get_field_position("data"))
    if idxty.signed:
        idx = context.cast(builder, idx, idxty, types.intp)
        size = builder.extract_value(builder.extract_value(ary, model.get_field_position("shape")), 0)
        idx = builder.select(builder.icmp_signed("<", idx, idx.type(0)), builder.add(idx, size), idx)
    else:
        idx = context.cast(builder, idx, idxty, types.uintp)
    return builder.gep(data, [builder.add(idx.type(0), builder.mul(idx, idx.type(1)))])  # as get_item_pointer2


def getitem(context, builder, sig, args):
    aryty, idxty = sig.args
    if not _plain(context, aryty, idxty):
        return arrayobj.getitem_arraynd_intp(context, builder, sig, args)
    return arrayobj.load_item(context, builder, aryty, _element(context, builder, aryty, args[0], idxty, args[1]))


def setitem(context, builder, sig, args):
    aryty, idxty, valty = sig.args
    if not (_plain(context, aryty, idxty) and isinstance(valty, PLAIN)):
        return arrayobj.setitem_array(context, builder, sig, args)
    value = context.cast(builder, args[2], valty, aryty.dtype)
    arrayobj.store_item(context, builder, aryty, value, _element(context, builder, aryty, args[0], idxty, args[1]))
    return context.get_dummy_value()


@register_pass(mutates_CFG=False, analysis_only=False)
class DropPlainDels(LoweringPass):  # (a FunctionPass may leave no del: Numba checks)
    """The `del`s of variables whose type holds no reference count, left out before lowering."""

    _name = "ziggurat_drop_plain_dels"

    def __init__(self):
        LoweringPass.__init__(self)

    def run_pass(self, state):
        if not getattr(state.func_id.func, _ours, False) or state.func_ir.is_generator:
            return False
        models, typemap, counted = state.targetctx.data_model_manager, state.typemap, {}
        for block in state.func_ir.blocks.values():
            body = []
            for st in block.body:
                if isinstance(st, ir.Del):
                    keep = counted.get(st.value)
                    if keep is None:
                        keep = counted[st.value] = models[typemap[st.value]].contains_nrt_meminfo()
                    if not keep:
                        continue
                body.append(st)
            block.body = body
        return True


_make_constant_array = base.BaseContext.make_constant_array  # Numba's own


def _tables(self, builder, typ, ary):
    """`BaseContext.make_constant_array`, for a native function's module-level array (a table): its
    value a constant of LLVM's, kept per LLVM module and array. Numba writes the array's bytes into a
    new global of the module at every mention and builds the array's structure on the stack from it
    (15 instructions); the data, shape, strides and sizes are the same each time, and a constant is
    the same value wherever it is used. Numba's own for anything else (see `_plain`'s conditions)."""
    if not (_compiling() > 0 and typ.layout in "CF" and ary.nbytes <= 10**6):
        return _make_constant_array(self, builder, typ, ary)
    module = builder.module
    kept = module.__dict__.setdefault("_ziggurat_tables", {})
    key = (id(ary), typ)
    if key in kept:
        return kept[key][0]
    data = cgutils.global_constant(builder, ".const.array.data", cgutils.create_constant_array(
        llvm_ir.IntType(8), bytearray(ary.flatten(order=typ.layout).data)))
    data.align = self.get_abi_alignment(self.get_data_type(typ.dtype))  # (Numba's issue #1933)
    model = self.data_model_manager[typ]
    struct = model.get_value_type()  # LLVM's type of the array's value, its fields in the model's order
    intp = self.get_value_type(types.intp)
    fields = {"nitems": intp(ary.size), "itemsize": intp(ary.dtype.itemsize),
              "shape": cgutils.create_constant_array(intp, [intp(n) for n in ary.shape]),
              "strides": cgutils.create_constant_array(intp, [intp(n) for n in ary.strides])}
    fields["data"] = data.bitcast(struct.elements[model.get_field_position("data")])
    value = llvm_ir.Constant(struct, [fields.get(name, llvm_ty(None)) for name, llvm_ty in  # meminfo, parent: null
                                      zip(model._fields, struct.elements)])
    kept[key] = (value, ary)  # the array kept alive with its id
    return value


def pipeline(passes: list) -> list:
    """Numba's passes (pass, description) with DropPlainDels before lowering."""
    from numba.core import typed_passes as tp

    out: list = []
    for pss, what in passes:
        if pss is tp.NativeLowering:
            out.append((DropPlainDels, "no del without a reference count"))
        out.append((pss, what))
    return out


_INSTALLED: list = []


def install(compiling: Callable[[], int], ours: str) -> None:
    """Register the short element access (Numba's lowering registry: more specific than its own
    `Buffer` signatures, so chosen first, and handing back to them whatever is not plain);
    `compiling`: how many native compiles are under way (numbapipe's count), `ours`: the mark."""
    global _compiling, _ours
    _compiling, _ours = compiling, ours
    if not _INSTALLED:
        lower_builtin(operator.getitem, types.Array, types.Integer)(getitem)
        lower_builtin(operator.setitem, types.Array, types.Integer, types.Any)(setitem)
        base.BaseContext.make_constant_array = _tables  # type: ignore[method-assign]
        _INSTALLED.append(True)
