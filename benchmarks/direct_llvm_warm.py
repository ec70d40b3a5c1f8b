"""A warm start of the direct prototype's code: its machine code kept as an object file and loaded
into a fresh process, instead of translated and compiled again.

    python benchmarks/direct_llvm_warm.py RULESET      # runs both halves in fresh processes

`save` (one process): legal, apply, outcome (those that translate) compiled as direct_llvm_e2e does,
the optimised module written as an object file (llvmlite emit_object); its CPU s. `load` (a fresh
process): the file read and added to an MCJIT engine (add_object_file), the symbols' addresses
taken, then `legal` called on the start position through ctypes and compared with the plain-Python
module's; CPU s of the load alone (not Python's imports, which a warm start has anyway).
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOTS = {"legal": "aa", "apply": "ai", "outcome": "aifai"}


def save(name: str, path: str) -> dict:
    import ast

    from ziggurat.interpreter.native.direct import Refused, Translator, compile_ir, plain_namespace
    from ziggurat.interpreter.native.direct.compile import llvm_setup, new_target_machine
    from direct_llvm_check import written
    text = written(name)[0]
    ns = plain_namespace(text)
    tree = ast.parse(text)
    roots = {}
    for f, sig in ROOTS.items():
        try:
            Translator(text, ns, tree).module_ir({f: sig})
            roots[f] = sig
        except Refused:
            pass
    t0 = time.process_time()
    tr = Translator(text, ns, tree)
    lib = compile_ir(tr.module_ir(roots), tr)
    t1 = time.process_time()
    llvm, _ = llvm_setup()
    obj = new_target_machine(llvm).emit_object(lib.mod)
    t2 = time.process_time()
    Path(path).write_bytes(obj)
    return {"compile CPU s": round(t1 - t0, 3), "emit object CPU s": round(t2 - t1, 3), "bytes": len(obj)}


def load(name: str, path: str) -> dict:
    from ziggurat.interpreter.native.direct import plain_namespace
    from ziggurat.interpreter.native.direct.compile import llvm_setup, new_target_machine
    from direct_llvm_check import written
    text, s0 = written(name)
    ns = plain_namespace(text)
    llvm, _ = llvm_setup()
    t0 = time.process_time()
    data = Path(path).read_bytes()
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), new_target_machine(llvm))
    engine.add_object_file(llvm.ObjectFileRef.from_data(data))
    engine.finalize_object()
    addr = engine.get_function_address("legal_c")
    t1 = time.process_time()
    f = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64)(addr)
    out_d, out_p = np.zeros(ns["MAXM"] + 8, np.int64), np.zeros(ns["MAXM"] + 8, np.int64)
    n_d = f(s0.ctypes.data, s0.shape[0], out_d.ctypes.data, out_d.shape[0])
    n_p = ns["legal"](s0.copy(), out_p)
    same = bool(n_d == n_p and np.array_equal(out_d, out_p))
    return {"load CPU s": round(t1 - t0, 4), "legal same as plain Python": same, "n": int(n_d)}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 3:
        print(json.dumps((save if argv[0] == "save" else load)(argv[1], argv[2])))
        return 0
    name = argv[0]
    path = os.path.join(tempfile.mkdtemp(prefix="direct_warm_"), f"{name}.o")
    for half in ("save", "load"):
        out = subprocess.run([sys.executable, __file__, half, name, path], capture_output=True, text=True)
        print(half, out.stdout.strip() or out.stderr[-1500:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
