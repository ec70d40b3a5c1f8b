"""Random playouts of the native backend beside RBG's compiled C++ and OpenSpiel's C++, one run.

    python benchmarks/rbg_bench.py [--quick] [--rbg PATH] [--json]

RBG (Regular Boardgames) is the closest peer of Ziggurat's native backend: its compiler rbg2cpp
turns a game's rules into C++, as Ziggurat turns a ruleset into Numba code. This module builds
RBG when asked and measures, for each of our classic games RBG has, random playouts per CPU
second of three engines interleaved in one process run (best of the repeats, so all three see
the same machine):

- the native backend: `NativeGame.playouts` (whole games in one call), CPU seconds by
  `time.process_time`, uniform over whole turns; for a game whose turns have several parts
  (Amazons' queen, destination and arrow; a Checkers jump chain) also with each turn drawn part
  by part (`parts=True`), the random process of OpenSpiel's random bots, in a column of its own;
- OpenSpiel's C++: two uniform random bots played whole in C++ by `pyspiel.evaluate_bots`
  (the same loop as benchmarks/openspiel_bench.py), CPU seconds by `time.process_time`;
- RBG's C++: rbg2cpp's own flat Monte-Carlo benchmark (its test/benchmark.cpp, uniform random
  moves until the game ends) built against the game's generated reasoner with RBG's release
  flags, run for a fixed time in a subprocess; its own count of playouts over the CPU seconds
  the subprocess used (`resource.getrusage(RUSAGE_CHILDREN)`), so the rate holds on a busy
  machine too.

The checkout of rbg2cpp (with its submodules rbgParser and rbgGames) comes from `--rbg PATH`, else
`$ZIGGURAT_RBG`, else `rbg/rbg2cpp` in Ziggurat's cache folder. Get one on a machine with network:

    git clone --recursive https://github.com/uicus/rbg2cpp "$ZIGGURAT_RBG"

The compiler is built in the checkout (`make rbg2cpp`), each game's reasoner and drivers in
`rbg/build/<game>` in the cache folder, once, kept until the game's rules, the flags or the
compiler change. The generated C++ needs the Boost headers (>= 1.67): when they are missing and
this runs as root with apt-get, it installs Debian's `libboost-dev`; otherwise it says what to
install. Without a checkout (or without g++), the RBG column says why and how, and nothing fails.

GAMES says, per game, where RBG's game differs from ours (read from its .rbg files); the table
also sets RBG's perft (its test/perft.cpp) beside the native backend's at a small depth, and the
mean moves of a random game in both, as a check that the two are the same game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import ziggurat

sys.path.insert(0, str(Path(__file__).resolve().parent))

import native_bench  # noqa: E402
import openspiel_bench  # noqa: E402

CLONE = "git clone --recursive https://github.com/uicus/rbg2cpp"
DRIVERS = ("benchmark", "perft")  # rbg2cpp's test/<driver>.cpp, each built with a game's reasoner
# RBG's Makefile RELEASE_FLAGS (its `benchmark_<game>` target), random generator 0 (mt19937, Lemire)
FLAGS = ["-Wall", "-std=c++17", "-Ofast", "-march=native", "-flto", "-s", "-DNDEBUG", "-DRBG_RANDOM_GENERATOR=0"]

# (label, ruleset, options, RBG game in rbgGames/games or None, OpenSpiel game, its parameters,
#  perft depth for the check against RBG, how RBG's game differs from ours, read from its .rbg file)
GAMES = [
    ("breakthrough 8x8", "breakthrough", {}, "breakthrough", "breakthrough", {}, 4,
     "same game, mirrored (white moves first, up)"),
    ("clobber 6x5", "clobber", {}, None, "clobber", {}, 0, "RBG has no Clobber"),
    ("othello", "othello", {}, "reversi", "othello", {}, 6, "same game (a pass is not a move there)"),
    ("amazons 10x10", "amazons", {}, "amazons", "amazons", {}, 2, "same game"),
    ("lines of action", "lines-of-action", {}, None, "lines_of_action", {}, 0, "RBG has no Lines of Action"),
    ("checkers", "checkers", {}, "englishDraughts", "checkers", {}, 7,
     "black moves first; a draw after 20 turns without a capture or a man's move (ours: 40 without "
     "a capture)"),
]


# the games whose turn OpenSpiel plays as several actions (its bots draw them part by part): their
# rows also measure the native parts policy, the same random process
PARTS_AT_OPENSPIEL = {ruleset for _, ruleset, _, _, _, _, _, whole in openspiel_bench.GAMES if whole}


class NotBuilt(Exception):
    """RBG could not be built here; the message says why and what to do."""


# ---- where things are ----------------------------------------------------------------------

def checkout(given: str | None = None) -> Path | None:
    """The rbg2cpp checkout asked for: `given`, else $ZIGGURAT_RBG, else rbg/rbg2cpp in the cache
    folder (None when caching is off and nothing was given)."""
    if given:
        return Path(given).expanduser()
    if os.environ.get("ZIGGURAT_RBG"):
        return Path(os.environ["ZIGGURAT_RBG"]).expanduser()
    from ziggurat import cachedir

    base = cachedir.subfolder("rbg")
    return None if base is None else base / "rbg2cpp"


def build_root(rbg: Path) -> Path:
    """Where the games' reasoners and benchmarks are built: rbg/build in the cache folder, else
    ziggurat-build in the checkout."""
    from ziggurat import cachedir

    base = cachedir.subfolder("rbg", "build")
    return base if base is not None else rbg / "ziggurat-build"


def how_to(rbg: Path | None) -> str:
    where = str(rbg) if rbg is not None else "PATH"
    return f"{CLONE} {where} (or point --rbg / $ZIGGURAT_RBG at a checkout)"


# ---- building ------------------------------------------------------------------------------

def _run(cmd: list, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def check_checkout(rbg: Path | None) -> None:
    if rbg is None or not (rbg / "Makefile").is_file() or not (rbg / "src" / "main.cpp").is_file():
        raise NotBuilt(f"no rbg2cpp checkout at {rbg or '(no cache folder)'}: {how_to(rbg)}")
    for sub, probe in (("rbgParser", "src"), ("rbgGames", "games")):
        if not (rbg / sub / probe).is_dir():
            raise NotBuilt(f"{rbg / sub} is empty (a clone without its submodules): run "
                           f"`git submodule update --init` in {rbg}")
    if shutil.which("g++") is None or shutil.which("make") is None:
        raise NotBuilt("g++ and make are needed to build RBG (Debian: apt-get install g++ make)")


def boost_ready() -> bool:
    out = subprocess.run(["g++", "-std=c++17", "-x", "c++", "-fsyntax-only", "-"],
                         input="#include <boost/version.hpp>\nstatic_assert(BOOST_VERSION >= 106700);\n",
                         capture_output=True, text=True)
    return out.returncode == 0


def ensure_boost() -> None:
    """The Boost headers (>= 1.67) for the generated C++: installed from Debian's libboost-dev when
    missing and this runs as root with apt-get, else NotBuilt saying what to install."""
    if boost_ready():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("rbg: installing the Boost headers (apt-get install -y libboost-dev)", file=sys.stderr)
        _run(["apt-get", "install", "-y", "libboost-dev"])
        if boost_ready():
            return
    raise NotBuilt("the Boost headers (>= 1.67) are missing: install them "
                   "(Debian/Ubuntu: apt-get install libboost-dev; Fedora: dnf install boost-devel; "
                   "macOS: brew install boost)")


def compiler(rbg: Path) -> Path:
    """rbg2cpp's binary, built in the checkout the first time."""
    binary = rbg / "bin" / "rbg2cpp"
    if not binary.is_file():
        print(f"rbg: building rbg2cpp in {rbg} (make rbg2cpp, a few minutes)", file=sys.stderr)
        out = _run(["make", "rbg2cpp"], cwd=rbg)
        if out.returncode != 0 or not binary.is_file():
            raise NotBuilt(f"`make rbg2cpp` failed in {rbg}: {_tail(out)}")
    return binary


def _tail(out: subprocess.CompletedProcess, lines: int = 5) -> str:
    return " | ".join((out.stdout + out.stderr).strip().splitlines()[-lines:])


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()


def build_game(rbg: Path, game: str) -> Path:
    """The folder holding RBG's `game` (rbgGames/games/<game>.rbg) built with its two drivers,
    `benchmark` (random playouts) and `perft`; built once and kept while its rules, the flags, the
    drivers and the compiler are the same."""
    source = rbg / "rbgGames" / "games" / f"{game}.rbg"
    if not source.is_file():
        raise NotBuilt(f"{source} is missing")
    rbg2cpp = compiler(rbg)
    drivers = {name: rbg / "test" / f"{name}.cpp" for name in DRIVERS}
    stamp_of = _digest(source.read_bytes(), " ".join(FLAGS).encode(), *(d.read_bytes() for d in drivers.values()),
                       (rbg / "test" / "rbg_random_generator.hpp").read_bytes(), rbg2cpp.read_bytes())
    out_dir = build_root(rbg) / game
    stamp = out_dir / "stamp"
    if all((out_dir / name).is_file() for name in DRIVERS) and stamp.is_file() and stamp.read_text() == stamp_of:
        return out_dir
    ensure_boost()
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"rbg: compiling {game} (rbg2cpp, then g++ {' '.join(FLAGS[2:5])})", file=sys.stderr)
    out = _run([str(rbg2cpp), "-Whide", "-o", "reasoner", str(source)], cwd=out_dir)
    if not (out_dir / "reasoner.cpp").is_file():  # rbg2cpp prints its errors and exits 0
        raise NotBuilt(f"rbg2cpp could not compile {source}: {_tail(out)}")
    gxx = ["g++", *FLAGS, f"-I{out_dir}", f"-I{rbg / 'test'}"]
    for cmd in ([*gxx, "-c", "-o", "reasoner.o", "reasoner.cpp"],
                *([*gxx, "-o", name, "reasoner.o", str(path)] for name, path in drivers.items())):
        out = _run(cmd, cwd=out_dir)
        if out.returncode != 0:
            raise NotBuilt(f"g++ failed on {game}: {_tail(out)}")
    stamp.write_text(stamp_of)
    return out_dir


# ---- running -------------------------------------------------------------------------------

PLAYOUTS = re.compile(r"^number of playouts:\s*(\d+)", re.M)
STATES = re.compile(r"^number of states:\s*(\d+)", re.M)


def parse_benchmark(text: str) -> tuple:
    """(playouts, moves) from the output of rbg2cpp's test/benchmark.cpp; ValueError if either
    line is missing. Its "states" are the moves the players made (the keeper's are not counted)."""
    playouts, states = PLAYOUTS.search(text), STATES.search(text)
    if playouts is None or states is None:
        raise ValueError(f"not the output of RBG's benchmark: {text.strip()[:200]!r}")
    return int(playouts.group(1)), int(states.group(1))


PERFT = re.compile(r"^perft:\s*(\d+)", re.M)


def parse_perft(text: str) -> int:
    """The leaves counted by rbg2cpp's test/perft.cpp; ValueError if its line is missing."""
    found = PERFT.search(text)
    if found is None:
        raise ValueError(f"not the output of RBG's perft: {text.strip()[:200]!r}")
    return int(found.group(1))


def rbg_perft(built: Path, depth: int) -> int:
    """Perft of RBG's game to `depth` (whole turns; a finished game counts as a leaf only at depth)."""
    out = subprocess.run([str(built / "perft"), str(depth)], capture_output=True, text=True, timeout=600)
    return parse_perft(out.stdout)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def rbg_run(binary: Path, seconds: float) -> tuple:
    """(playouts, moves, CPU seconds) of one run of an RBG benchmark for `seconds` of wall time."""
    before = children_cpu()
    out = subprocess.run([str(binary), str(max(1, int(seconds * 1000)))], capture_output=True, text=True,
                         timeout=60 + 10 * seconds)
    cpu = children_cpu() - before
    if out.returncode != 0:
        raise NotBuilt(f"{binary} stopped with code {out.returncode}: {_tail(out)}")
    playouts, moves = parse_benchmark(out.stdout)
    return playouts, moves, cpu


def native_run(fast, start, n: int, seed: int, parts: bool = False) -> tuple:
    """(playouts, moves, CPU seconds) of `n` native random playouts in one call; `parts`: each
    turn drawn part by part (the rollout policy OpenSpiel's random bots follow on compound turns)."""
    t = time.process_time()
    _, plies, _ = fast.playouts(start, n, seed, 10_000, parts=parts)
    return n, int(plies.sum()), time.process_time() - t


def openspiel_run(og, n: int) -> tuple:
    """(playouts, None, CPU seconds) of `n` OpenSpiel games played whole in C++."""
    t = time.process_time()
    openspiel_bench.os_playouts_cpp(og, n)
    return n, None, time.process_time() - t


def _calibrated(run, n0: int, seconds: float) -> int:
    """A count that takes about `seconds` of CPU, from one run of `n0` (also a warm-up)."""
    n, _, cpu = run(n0)
    return max(n0, int(n * seconds / max(cpu, 1e-6)))


# ---- the rows ------------------------------------------------------------------------------

def prepare(rbg_path: str | None = None) -> tuple:
    """({RBG game: benchmark binary}, None) when RBG is built (building what is missing), else
    ({}, why not and how to)."""
    rbg = checkout(rbg_path)
    try:
        check_checkout(rbg)
        return {game: build_game(rbg, game) for _, _, _, game, *_ in GAMES if game}, None
    except NotBuilt as e:
        return {}, str(e)


def rows(quick: bool = False, rbg_path: str | None = None) -> tuple:
    """(one dict per game, why RBG is not built or None). Rates are playouts per CPU second; the
    ratios are native / RBG and native / OpenSpiel's C++. No rows without Numba."""
    if not native_bench.available():
        return [], None
    binaries, why = prepare(rbg_path)
    repeats, seconds = (2, 0.3) if quick else (5, 1.0)
    out = []
    for label, ruleset, options, rbg_game, os_name, params, depth, differs in GAMES:
        game = ziggurat.load(ruleset, options or None)
        fast = native_bench.native_of(game)
        if fast is None:
            continue
        start = game.new()
        n_native = _calibrated(partial(native_run, fast, start, seed=1), 20, seconds)
        compound = ruleset in PARTS_AT_OPENSPIEL  # OpenSpiel draws its turn part by part: our parts policy too
        n_parts = _calibrated(partial(native_run, fast, start, seed=1, parts=True), 20, seconds) if compound else 0
        og = openspiel_bench.pyspiel.load_game(os_name, params) if openspiel_bench.available() else None
        n_os = _calibrated(partial(openspiel_run, og), 5, seconds) if og is not None else 0
        built = binaries.get(rbg_game)
        binary = None if built is None else built / "benchmark"
        perft = None
        if built is not None:
            try:
                perft = (depth, fast.perft(start, depth), rbg_perft(built, depth))
            except (ValueError, subprocess.SubprocessError) as e:
                why, binary = f"{rbg_game}: {e}", None
        best = {"native": None, "parts": None, "openspiel": None, "rbg": None}
        moves = {"native": None, "rbg": None}
        for r in range(repeats):  # interleaved: each engine once a round
            runs = {"native": native_run(fast, start, n_native, 1000 * (r + 1))}
            if compound:
                runs["parts"] = native_run(fast, start, n_parts, 1000 * (r + 1), parts=True)
            if og is not None:
                runs["openspiel"] = openspiel_run(og, n_os)
            if binary is not None:
                try:
                    runs["rbg"] = rbg_run(binary, seconds)
                except (NotBuilt, ValueError, subprocess.SubprocessError) as e:
                    why, binary = f"{rbg_game}: {e}", None
            for name, (n, m, cpu) in runs.items():
                rate = n / cpu if cpu > 0 else float("inf")
                if best[name] is None or rate > best[name]:
                    best[name] = rate
                    if name in moves:
                        moves[name] = m / n
        out.append({
            "game": label, "rbg_game": rbg_game, "differs": differs, "perft": perft,
            "native_playouts_per_s": best["native"], "native_moves_per_game": moves["native"],
            "openspiel_playouts_per_s": best["openspiel"],
            "rbg_playouts_per_s": best["rbg"], "rbg_moves_per_game": moves["rbg"],
            "ratio_rbg": best["native"] / best["rbg"] if best["rbg"] else None,
            "ratio_openspiel": best["native"] / best["openspiel"] if best["openspiel"] else None,
            "native_parts_playouts_per_s": best["parts"],
            "ratio_parts_openspiel": best["parts"] / best["openspiel"] if best["parts"] and best["openspiel"] else None,
        })
    return out, why


def table(rows: list, why: str | None = None):
    from rich.table import Table

    caption = ((f"RBG: not built ({why}). " if why else "")
               + "RBG and native draw uniformly among whole turns; OpenSpiel's random bots draw an Amazons "
                 "turn and a Checkers jump chain part by part (a different random process), as the native "
                 "parts policy does (`playouts(..., parts=True)`: the like-for-like column beside OpenSpiel).")
    t = Table(title="Random playouts per CPU second: native beside RBG's C++ (rbg2cpp) and OpenSpiel's C++, "
                    "interleaved in one run, best of repeats (ratio: native / peer)", caption=caption)
    for col in ("game", "native (whole turns)", "RBG C++", "native / RBG", "OpenSpiel C++", "native / OpenSpiel",
                "native (parts)", "parts / OpenSpiel", "moves a game (native / RBG)", "perft d: native / RBG",
                "RBG's game"):
        t.add_column(col, justify="left" if col in ("game", "RBG's game") else "right")
    for r in rows:
        rbg_missing = "not built" if r["rbg_game"] else "-"
        t.add_row(r["game"], _fmt(r["native_playouts_per_s"], ",.0f"),
                  _fmt(r["rbg_playouts_per_s"], ",.0f", rbg_missing), _fmt(r["ratio_rbg"], ".2f"),
                  _fmt(r["openspiel_playouts_per_s"], ",.0f"), _fmt(r["ratio_openspiel"], ".2f"),
                  _fmt(r.get("native_parts_playouts_per_s"), ",.0f"), _fmt(r.get("ratio_parts_openspiel"), ".2f"),
                  f"{_fmt(r['native_moves_per_game'], '.1f')} / {_fmt(r['rbg_moves_per_game'], '.1f')}",
                  _perft(r["perft"]),
                  (f"{r['rbg_game']}.rbg: " if r["rbg_game"] else "") + r["differs"])
    return t


def _perft(perft) -> str:
    """'d: native = RBG' when the two counts agree, 'd: native != RBG (differ!)' when not."""
    if not perft:
        return "-"
    depth, ours, theirs = perft
    return f"{depth}: {ours:,} = {theirs:,}" if ours == theirs else f"{depth}: {ours:,} != {theirs:,} (differ!)"


def _fmt(value, fmt: str, missing: str = "-") -> str:
    return missing if value is None else format(value, fmt)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer repeats (a smoke test)")
    parser.add_argument("--rbg", metavar="PATH", help="the rbg2cpp checkout (default: $ZIGGURAT_RBG, "
                                                      "else rbg/rbg2cpp in the cache folder)")
    parser.add_argument("--build-only", action="store_true", help="build RBG and its games, measure nothing")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    if args.build_only:
        binaries, why = prepare(args.rbg)
        print(why or "\n".join(f"{game}: {path}" for game, path in binaries.items()))
        return 0
    found, why = rows(args.quick, args.rbg)
    if not native_bench.available():
        print("Numba is not installed (pip install -e '.[native]'): no native backend to set beside RBG")
    elif args.json:
        print(json.dumps({"rbg": found, "rbg_not_built": why}, indent=2))
    else:
        from rich.console import Console

        Console(width=max(160, Console().width)).print(table(found, why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
