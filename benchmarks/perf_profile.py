"""Where a native game's time goes, by function of its direct code: Linux `perf` over random
playouts (or a game of native search), the direct code's functions named for perf.

    python benchmarks/perf_profile.py RULESET [--set NAME=VALUE ...] [--seconds S] [--top K]
    python benchmarks/perf_profile.py RULESET --search ITERATIONS [--game INDEX] ...

perf cannot name machine code made at run time unless the process writes `/tmp/perf-PID.map`
(start, size and name of each function). The child process here loads the game's native module
(`native()`, the direct path on, its object code from the cache), reads the symbols of that object
file (ELF: every function, the internal ones too, with its offset and size in `.text`), places them
where the engine loaded `.text` (a root's C entry gives the base), writes the map, then plays:
`study_chunk` of seeded random games for `--seconds` CPU seconds, or with `--search N` one study
game between native MCTS agents of N iterations (`lab.study.play_game`, its index `--game`). The
parent runs it under `perf record` and prints `perf report`'s flat profile (`--top` lines).

Numba's own code (the loops, the search kernel) is not named: it shows as addresses (perf's
`[JIT]`). Needs `perf` and Numba; the cache on (`ZIGGURAT_CACHE_DIR` may name an empty folder: the
module is compiled first, outside the timed part, and the profile counts the compile too).
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time


def elf_functions(data: bytes) -> dict:
    """{name: (offset in its section, size, section index)} of the function symbols of a 64-bit
    little-endian ELF relocatable object."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF object")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for k in range(sh[5] // sh[9]):
            name_at, info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, sh[4] + k * sh[9])
            if info & 0xF != 2 or size == 0:  # STT_FUNC with a body
                continue
            start = strtab[4] + name_at
            name = data[start:data.index(b"\0", start)].decode()
            out[name] = (value, size, shndx)
    return out


def write_map(module) -> int:
    """Write /tmp/perf-PID.map for the module's direct code; how many functions it names (0, and
    nothing written, for a module without direct code)."""
    from ziggurat.interpreter.native.direct import objects
    from ziggurat.interpreter.native.direct.compile import target_tag

    lib = getattr(module, "_direct_library", None)
    kept = objects.read(objects.path(module, target_tag())) if lib is not None else None
    if kept is None or kept[0] != "object":  # the module is Numba's alone (or the cache is off): nothing to name
        print("no direct code for this module in the cache (the direct path refused it or is off, or the cache "
              "is off): its functions are not named", file=sys.stderr)
        return 0
    funcs = elf_functions(kept[1])
    anchors = [n for n in funcs if n.endswith("_c") and lib.address(n)]
    if not anchors:
        return 0
    value, _size, section = funcs[anchors[0]]
    base = lib.address(anchors[0]) - value
    lines = [f"{base + v:x} {s:x} {n}" for n, (v, s, sec) in funcs.items() if sec == section]
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def child(args) -> None:
    import numpy as np

    import ziggurat
    from ziggurat.errors import GameError
    from ziggurat.interpreter.native.game import native

    try:
        game = ziggurat.load(args.ruleset, options=dict(s.split("=", 1) for s in args.set))
    except (GameError, ValueError) as e:
        raise SystemExit(f"error: {e}") from None
    if args.search:
        from ziggurat.lab.study import play_game
        agents = (f"mcts:iterations={args.search}:rollouts=native",) * len(game.players)
        play_game(game, agents, args.game + 1, 1, 30)  # compiles the search before the map is written
        ng = native(game)
        print(f"{write_map(ng.module)} functions named", file=sys.stderr)
        t = time.process_time()
        r = play_game(game, agents, args.game, 1, 20000)
        print(f"game {args.game}: {r.plies} plies in {time.process_time() - t:.2f} CPU s", file=sys.stderr)
        return
    ng = native(game, ("study_chunk",))
    print(f"{write_map(ng.module)} functions named", file=sys.stderr)
    starts = ng.start(game.new())[0]
    seeds = np.arange(1, 201, dtype=np.uint64)
    t, k = time.process_time(), 0
    while time.process_time() - t < args.seconds:
        ng.study_chunk(starts, seeds + 200 * k, 20000)
        k += 1
    print(f"{200 * k / (time.process_time() - t):,.0f} games per CPU s", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--search", type=int, default=0, metavar="ITERATIONS")
    ap.add_argument("--game", type=int, default=0)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    if shutil.which("perf") is None:
        raise SystemExit("perf is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        run = subprocess.run(["perf", "record", "-q", "-F", "999", "-o", data, "--", sys.executable, __file__,
                              "--child"] + sys.argv[1:])
        if run.returncode != 0:
            raise SystemExit(f"the profiled process failed (exit {run.returncode}); nothing to report")
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio"],
                                capture_output=True, text=True).stdout
    rows = [line.split() for line in report.splitlines() if line.strip() and not line.startswith("#")]
    print(f"{'share':>7}  function")
    for r in rows[:args.top]:
        print(f"{r[0]:>7}  {r[2] if len(r) > 2 else ''}")  # share, [.] or [k], the symbol (then IPC columns)


if __name__ == "__main__":
    main()
