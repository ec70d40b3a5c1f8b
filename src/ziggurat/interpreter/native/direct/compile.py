"""The direct path's machine code: LLVM IR text (translate.py) parsed, optimised with the passes
Numba runs on its own code, and made machine code in an MCJIT engine, by llvmlite. llvmlite comes
with Numba and is imported only when something is compiled (the writer runs without Numba)."""

from __future__ import annotations

import time
from typing import Optional

_llvm: dict = {}


def new_target_machine(llvm):
    return llvm.Target.from_default_triple().create_target_machine(
        opt=3, jit=True, codemodel="jitdefault", features=llvm.get_host_cpu_features().flatten(),
        cpu=llvm.get_host_cpu_name())


def llvm_setup():
    if not _llvm:
        import llvmlite.binding as llvm  # type: ignore[import-untyped]
        from numba.core import codegen  # noqa: F401 (Numba's own llvm initialisation)
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _llvm.update(llvm=llvm, tm=new_target_machine(llvm))
    return _llvm["llvm"], _llvm["tm"]


def target_tag() -> str:
    """What decides the machine code besides the IR, as a short hash: llvmlite's and LLVM's
    versions, the target triple, the host CPU's name and features (`new_target_machine`'s). A
    cache entry of direct code is kept under it, so that a cache folder copied to another machine
    (or read by another llvmlite) misses instead of loading machine code made for another CPU."""
    import hashlib

    import llvmlite

    llvm, _ = llvm_setup()
    made = (llvmlite.__version__, llvm.llvm_version_info, llvm.get_process_triple(), llvm.get_host_cpu_name(),
            llvm.get_host_cpu_features().flatten())
    return hashlib.sha256(repr(made).encode()).hexdigest()[:16]


class Library:
    from_cache = False  # (bind.py) its machine code loaded from the cache's object code

    def __init__(self, engine, mod, translator):
        self.engine, self.mod, self.translator = engine, mod, translator

    def address(self, name):
        return self.engine.get_function_address(name)

    def cfunc(self, name, sig):
        return self.translator.ctypes_signature(name, sig)(self.address(name + "_c"))


def compile_ir(ir: str, translator=None, times: Optional[dict] = None) -> Library:
    """Parse, Numba's passes (each function's O3 passes, then the module's cheap and full O3
    pipelines), machine code in an MCJIT engine; `times` gets each step's CPU seconds."""
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
    """The IR parsed, optimised as `compile_ir` does, and made an object file (its bytes)."""
    llvm, tm = llvm_setup()
    mod = llvm.parse_assembly(ir)
    mod.verify()
    optimise(mod)
    return new_target_machine(llvm).emit_object(mod)


def load_object(data: bytes) -> Library:
    """An object file's machine code in an MCJIT engine of its own (its symbols by `address`)."""
    llvm, _ = llvm_setup()
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), new_target_machine(llvm))
    engine.add_object_file(llvm.ObjectFileRef.from_data(data))
    engine.finalize_object()
    return Library(engine, None, None)


def optimise(mod) -> None:
    """Numba's passes over a parsed module: each function's O3, then the module's cheap and full O3."""
    from numba.core.llvm_bindings import create_pass_builder
    _, tm = llvm_setup()
    for f in mod.functions:
        if not f.is_declaration:
            pb = create_pass_builder(tm, opt=3)
            pb.getFunctionPassManager().run(f, pb)
    pb = create_pass_builder(tm, opt=3, loop_vectorize=True)
    pm = pb.getModulePassManager()
    pm.add_loop_rotate_pass()
    pm.add_instruction_combine_pass()
    pm.add_jump_threading_pass()
    pm.run(mod, pb)
    pb = create_pass_builder(tm, opt=3)
    pb.getModulePassManager().run(mod, pb)
