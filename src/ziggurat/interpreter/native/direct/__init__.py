"""The direct path: a written native module's game functions translated from their Python text
straight to LLVM IR (no Numba front end) and compiled by llvmlite, about 3-4x cheaper than
Numba's compile of the same functions (benchmarks/direct_llvm.md). On by default;
`ZIGGURAT_NATIVE_DIRECT=0` turns it off (`bind.py`, read by `native()`).

`translate.py` (the module's functions to IR text; its docstring says the subset), `function.py`
(statements), `expr.py` (expressions), `irtypes.py` (types), `compile.py` (llvmlite: passes and
machine code), `target.py` (the machine code's target, as Numba's JIT takes it, and the tag the
cache names it by), `objects.py` (the object code's sealed cache entry), `bind.py` (the switch:
the module's game functions replaced by calls of the direct code before the loops compile).
Nothing here imports Numba or llvmlite when imported.
"""

from .compile import Library, compile_ir
from .irtypes import Refused
from .translate import Translator, exported, plain_namespace

__all__ = ["Library", "Refused", "Translator", "compile_ir", "exported", "plain_namespace"]
