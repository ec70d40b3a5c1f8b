"""The direct path's machine code: LLVM IR text (translate.py) parsed, optimised with the passes
Numba runs on its own code, and made machine code in an MCJIT engine, by llvmlite. llvmlite comes
with Numba and is imported only when something is compiled (the writer runs without Numba)."""

from __future__ import annotations

import time
from typing import Optional

_llvm: dict = {}


def new_target_machine(llvm=None, target=None):
    """A new target machine for `target` (default: Numba's JIT target now, `target.jit_target`:
    NUMBA_CPU_NAME, NUMBA_CPU_FEATURES and NUMBA_ENABLE_AVX honoured as Numba honours them), so that
    the direct code is made for the machine Numba makes the loops calling it for. `llvm` is
    accepted for the callers that pass llvmlite's binding (unused: `llvm_setup` initialises it)."""
    from .target import jit_target, machine

    llvm_setup()
    return machine(jit_target() if target is None else target)


def llvm_setup():
    """(llvmlite's binding, a target machine for Numba's JIT target now), LLVM initialised as Numba
    initialises it. The machine is made once per target (the passes read it: `optimise`), again
    when Numba's settings change the target (`numba.core.config.reload_config`)."""
    if not _llvm:
        import llvmlite.binding as llvm  # type: ignore[import-untyped]
        from numba.core import codegen
        codegen.initialize_llvm()  # Numba's own llvm initialisation (the native target, its asm printer)
        _llvm.update(llvm=llvm, machines={})
    from .target import jit_target, machine

    target = jit_target()
    machines = _llvm["machines"]
    if target not in machines:
        machines[target] = machine(target)
    return _llvm["llvm"], machines[target]


def target_tag() -> str:
    """The short name of everything that decides the direct code's machine code besides its IR,
    for this process's target (`target.tag`: the versions, the target as Numba's JIT takes it). A
    cache entry of direct code is kept under it (`objects.path`), so that a cache folder copied to
    another machine (or read by another llvmlite, Numba, or NUMBA_CPU_NAME) misses instead of
    loading machine code made for another CPU."""
    from .target import jit_target, tag

    llvm_setup()
    return tag(jit_target())


class Library:
    """Machine code in an MCJIT engine of its own (which owns and frees it: keep the library alive
    while anything calls it); `address(name)` of a function, 0 if the code has none."""

    from_cache = False  # (bind.py) its machine code loaded from the cache's object code

    def __init__(self, engine, mod, translator):
        self.engine, self.mod, self.translator = engine, mod, translator

    def address(self, name):
        return self.engine.get_function_address(name)

    def cfunc(self, name, sig):
        return self.translator.ctypes_signature(name, sig)(self.address(name + "_c"))


def compile_ir(ir: str, translator=None, times: Optional[dict] = None) -> Library:
    """Parse, Numba's passes (`optimise`: O3 unless NUMBA_OPT says otherwise), machine code in an
    MCJIT engine; `times` gets each step's CPU seconds."""
    llvm, tm = llvm_setup()
    t = [time.process_time()]
    mod = llvm.parse_assembly(ir)
    mod.verify()
    t.append(time.process_time())
    optimise(mod)
    t.append(time.process_time())
    engine = llvm.create_mcjit_compiler(mod, new_target_machine(llvm))  # the engine owns (frees) its machine
    engine.finalize_object()
    t.append(time.process_time())
    if times is not None:
        for k, a, b in (("parse", 0, 1), ("passes", 1, 2), ("machine code", 2, 3)):
            times[k] = times.get(k, 0.0) + t[b] - t[a]
    return Library(engine, mod, translator)


def object_code(ir: str) -> bytes:
    """The IR parsed, optimised as `compile_ir` does, and made an object file (its bytes) for
    Numba's JIT target now (`new_target_machine`)."""
    llvm, tm = llvm_setup()
    mod = llvm.parse_assembly(ir)
    mod.verify()
    optimise(mod)
    return new_target_machine(llvm).emit_object(mod)


def load_object(data: bytes, names: tuple = ()) -> Library:
    """An object file's machine code in an MCJIT engine of its own (its symbols by `address`), for
    Numba's JIT target now. Each of `names` must be a function of the object: else LookupError
    (an object that is not the one asked for)."""
    llvm, _ = llvm_setup()
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), new_target_machine(llvm))
    engine.add_object_file(llvm.ObjectFileRef.from_data(data))
    engine.finalize_object()
    lib = Library(engine, None, None)
    missing = [n for n in names if not lib.address(n)]
    if missing:
        raise LookupError(f"no function {missing} in the object")
    return lib


def optimise(mod) -> None:
    """Numba's passes over a parsed module: each function's, then the module's cheap and full
    pipelines, at the level of Numba's JIT target now (NUMBA_OPT, 3 unless set: `target.opt_level`)."""
    from numba.core.llvm_bindings import create_pass_builder

    from .target import jit_target
    _, tm = llvm_setup()
    opt = jit_target().opt
    for f in mod.functions:
        if not f.is_declaration:
            pb = create_pass_builder(tm, opt=opt)
            pb.getFunctionPassManager().run(f, pb)
    pb = create_pass_builder(tm, opt=opt, loop_vectorize=True)
    pm = pb.getModulePassManager()
    pm.add_loop_rotate_pass()
    pm.add_instruction_combine_pass()
    pm.add_jump_threading_pass()
    pm.run(mod, pb)
    pb = create_pass_builder(tm, opt=opt)
    pb.getModulePassManager().run(mod, pb)
