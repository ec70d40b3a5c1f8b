"""What the direct code's machine code is made for: Numba's JIT target, taken as Numba's JIT codegen
takes it (`numba.core.codegen.JITCPUCodegen`), so that the direct code and the Numba loops calling
it are made for the same machine, and `tag`, the short name of everything that decides that
machine code besides the IR (the cache entry's name, `objects.py`).

Numba's settings are honoured as Numba honours them (`numba.core.config`, read from the
environment when Numba is imported): `NUMBA_CPU_NAME` (say `generic`, for a cache that another
machine may use) instead of the host's CPU; `NUMBA_CPU_FEATURES` instead of the host's features
(empty with `NUMBA_CPU_NAME=generic`); `NUMBA_ENABLE_AVX=0` (or a CPU Numba knows AVX to be slow
on) turns off every `avx*` feature; `NUMBA_OPT` (0-3, "max" as 3) is the level of the passes and of
the machine code, as of Numba's. Imported only when something is compiled or loaded.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from functools import lru_cache

FORMAT = "ziggurat-direct-object-1"  # changed whenever what an entry holds, or how it is made, changes
OPT = 3  # the optimisation level where Numba's setting gives none (NUMBA_OPT: its config.OPT)


@dataclass(frozen=True)
class Target:
    """An LLVM target machine's options, as Numba's JIT makes its own."""

    triple: str
    cpu: str
    features: str
    reloc: str
    codemodel: str = "jitdefault"
    opt: int = OPT  # the target machine's level and the passes' (compile.optimise), as Numba's NUMBA_OPT


def jit_target() -> Target:
    """This process's target, as Numba's JIT codegen makes it now (`_init`, `_customize_tm_options`,
    `_get_host_cpu_name`, `_get_host_cpu_features`; the level its NUMBA_OPT, "max" read as 3): once
    per setting of Numba's (the host's CPU is asked once, 0.4 ms)."""
    from numba.core import config

    return _target(getattr(config, "CPU_NAME", None), getattr(config, "CPU_FEATURES", None),  # (reload_config's)
                   getattr(config, "ENABLE_AVX", True), opt_level(getattr(config, "OPT", OPT)))


def opt_level(setting) -> int:
    """Numba's optimisation setting as a level 0-3 (its `_OptLevel` is an int; "max" is 3)."""
    try:
        return min(3, max(0, int(setting)))
    except (TypeError, ValueError):
        return OPT


@lru_cache(maxsize=None)
def _target(name, features, avx, opt=OPT) -> Target:
    import llvmlite.binding as llvm  # type: ignore[import-untyped]
    from numba.core import codegen

    codegen.initialize_llvm()
    cpu = llvm.get_host_cpu_name() if name is None else name
    features = codegen.get_host_cpu_features() if features is None else features  # (reads ENABLE_AVX: avx)
    arch = llvm.Target.from_default_triple().name  # "JIT needs static relocation on x86*" (Numba's)
    reloc = "static" if arch.startswith("x86") else "pic" if arch.startswith("ppc") else "default"
    return Target(llvm.get_process_triple(), cpu, features, reloc, opt=opt)


def machine(target: Target):
    """A new LLVM target machine for `target` (an MCJIT engine owns, and frees, the one it is given)."""
    import llvmlite.binding as llvm

    return llvm.Target.from_triple(target.triple).create_target_machine(
        cpu=target.cpu, features=target.features, opt=target.opt, reloc=target.reloc, codemodel=target.codemodel,
        jit=True)


def tag(target: Target) -> str:
    """Everything that decides the direct code's machine code besides its IR, as a short hash: the
    entry's format, llvmlite's, LLVM's and Numba's versions (Numba's passes optimise it: its
    `create_pass_builder`), the optimisation level and the target (triple, CPU, features,
    relocation and code models). The IR is decided by the module's text and the engine's code,
    which name the module's file (`objects.path`). A cache folder copied to another machine, or
    read with another Numba, llvmlite or NUMBA_CPU_NAME, misses instead of loading machine code
    made for another."""
    import llvmlite
    import llvmlite.binding as llvm
    import numba

    decides = {"format": FORMAT, "llvmlite": llvmlite.__version__, "llvm": list(llvm.llvm_version_info),
               "numba": numba.__version__, "target": asdict(target)}  # the level: target.opt
    return hashlib.sha256(json.dumps(decides, sort_keys=True).encode()).hexdigest()[:16]
