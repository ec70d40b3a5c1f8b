"""The direct path's object-code cache (native/direct/objects.py, target.py, bind.compiled) and its
fallbacks (bind.bind): the direct code kept per module and per machine-code target (Numba's JIT
target, NUMBA_CPU_NAME honoured), read back only when its seal vouches for it; and nothing in the
direct path stops `native()`: a failure anywhere leaves the whole module Numba's.

The processes that load machine code calling direct symbols run in fresh subprocesses (a symbol
left unresolved ends a process); each reports its perft, a digest of seeded games and whether its
direct code was translated, compiled or loaded. The games are checked against the module compiled
by Numba alone (the switch off), which does not use the direct path. The repeats (other kinds of
damage, targets, folders, failing steps) run with ZIGGURAT_SLOW=1 only: each process compiles."""

import json
import os
import pickle
import subprocess
import sys
import types

import pytest

import ziggurat

numba = pytest.importorskip("numba")
pytest.importorskip("llvmlite")

from ziggurat import cachedir  # noqa: E402
from ziggurat.interpreter.native import game as native_game  # noqa: E402
from ziggurat.interpreter.native.direct import bind, objects, target  # noqa: E402
from ziggurat.interpreter.native.direct import compile as direct_compile  # noqa: E402

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"
slow = pytest.mark.skipif(not SLOW, reason="the direct cache's repeats, a compile each (ZIGGURAT_SLOW=1)")

GAME = "tic-tac-toe"  # small: a cold compile of its module costs about 2 CPU s

PROCESS = """
import hashlib, json, sys
import numpy as np
import ziggurat
from ziggurat.interpreter.native.direct import bind, compile as direct_compile, target
translated = []
_translate = bind.translate
bind.translate = lambda *a: translated.append(1) or _translate(*a)
if "--fail" in sys.argv:  # the direct code cannot be compiled nor loaded in this process
    def fail(*a, **k):
        raise RuntimeError("failed on purpose")
    direct_compile.object_code = direct_compile.load_object = fail
from ziggurat.interpreter.native.game import native
game = ziggurat.load(sys.argv[1])
ng = native(game, ("perft", "study_chunk"))
state = game.new()
cols = ng.study_chunk(ng.start(state)[0], np.arange(1, 41, dtype=np.uint64), 100, finals=True)
games = [np.asarray(getattr(cols, f)).tolist() for f in ("plies", "codes", "results", "branching", "finals")]
lib = getattr(ng.module, "_direct_library", None)
print(json.dumps({"perft": [ng.perft(state, d) for d in (1, 2, 3)],
                  "games": hashlib.sha1(json.dumps(games).encode()).hexdigest(),
                  "direct": None if lib is None else lib.from_cache, "translated": len(translated),
                  "loop hits": sum(ng.module.study_chunk.stats.cache_hits.values()),
                  "cpu": target.jit_target().cpu}))
"""


def run(cache, *, on: bool = True, fail: bool = False, **env) -> dict:
    """PROCESS in a fresh process on cache folder `cache` (the test fails, with its stderr, if the
    process failed or crashed)."""
    e = {k: v for k, v in os.environ.items() if k not in (bind.SWITCH, "NUMBA_DISABLE_JIT", "NUMBA_CPU_NAME",
                                                       "NUMBA_CPU_FEATURES", "NUMBA_BOUNDSCHECK", "NUMBA_OPT")}
    e.update({"ZIGGURAT_CACHE_DIR": str(cache), bind.SWITCH: "1" if on else "0", **env})
    out = subprocess.run([sys.executable, "-c", PROCESS, GAME] + (["--fail"] if fail else []), env=e,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"exit {out.returncode}\n{out.stderr[-3000:]}"
    return json.loads(out.stdout.strip().splitlines()[-1])


def entries(cache) -> list:
    return sorted((cache / "native" / "direct").glob("*.pickle"))


def same_games(*runs: dict) -> bool:
    return len({(json.dumps(r["perft"]), r["games"]) for r in runs}) == 1


class TestAcrossProcesses:
    def test_cold_then_warm_from_the_cache_without_translating_then_the_switch_off(self, tmp_path):
        """Cold: translated, compiled and kept; warm: the direct code loaded from the cache (not
        translated) and the loops calling it from Numba's; the switch off, on the same cache: none
        of those loops (it would end: their symbols are not in it). The same games all three."""
        cold, warm, off = run(tmp_path), run(tmp_path), run(tmp_path, on=False)
        assert (cold["direct"], cold["translated"], cold["loop hits"]) == (False, 1, 0)
        assert len(entries(tmp_path)) == 1
        assert (warm["direct"], warm["translated"]) == (True, 0) and warm["loop hits"] > 0
        assert (off["direct"], off["loop hits"]) == (None, 0)
        assert same_games(cold, warm, off)

    @slow
    def test_a_damaged_entry_is_compiled_again_and_plays_the_same_games(self, tmp_path):
        cold = run(tmp_path)
        (entry,) = entries(tmp_path)
        blob = bytearray(entry.read_bytes())
        blob[-100] ^= 0xFF  # one byte of the entry changed
        entry.write_bytes(bytes(blob))
        again = run(tmp_path)
        assert (again["direct"], again["translated"]) == (False, 1)  # not loaded: made again, kept whole
        assert run(tmp_path)["direct"] is True
        assert same_games(cold, again)

    @slow
    def test_numba_cpu_name_generic_is_another_entry_and_its_code_runs(self, tmp_path):
        """NUMBA_CPU_NAME=generic (a portable Numba cache): the direct code is made for that target
        and kept under it, beside the host's; each loads its own, and all play the same games."""
        host = run(tmp_path)
        generic = run(tmp_path, NUMBA_CPU_NAME="generic")
        assert generic["cpu"] == "generic" != host["cpu"]
        assert (generic["direct"], generic["translated"]) == (False, 1)  # the host's entry not taken
        assert len(entries(tmp_path)) == 2
        warm = run(tmp_path, NUMBA_CPU_NAME="generic")
        assert (warm["direct"], warm["translated"]) == (True, 0)
        assert same_games(host, generic, warm, run(tmp_path, on=False))

    @slow
    def test_numba_opt_makes_another_entry_at_its_level_and_its_code_runs(self, tmp_path):
        """NUMBA_OPT=0: the direct code is optimised at that level and kept under a tag of its own,
        beside the default's; both play the same games."""
        default = run(tmp_path)
        low = run(tmp_path, NUMBA_OPT="0")
        assert (low["direct"], low["translated"]) == (False, 1)  # the default's entry not taken
        assert len(entries(tmp_path)) == 2
        assert run(tmp_path, NUMBA_OPT="0")["direct"] is True
        assert same_games(default, low)

    @slow
    def test_an_entry_under_another_targets_name_is_a_miss(self, tmp_path):
        """The host's entry put at the generic target's name (a cache copied from another machine,
        or a file renamed) is not loaded there: its seal covers its name. Made again."""
        host = run(tmp_path)
        (entry,) = entries(tmp_path)
        generic = run(tmp_path, NUMBA_CPU_NAME="generic")
        (other,) = [p for p in entries(tmp_path) if p != entry]
        entry.replace(other)
        again = run(tmp_path, NUMBA_CPU_NAME="generic")
        assert (again["direct"], again["translated"]) == (False, 1)
        assert same_games(host, generic, again)

    @slow
    def test_without_a_cache_it_works_and_keeps_nothing(self, tmp_path):
        """ZIGGURAT_CACHE_DIR=off: translated and compiled in every process, nothing kept."""
        off = [run("off") for _ in range(2)]
        assert [(r["direct"], r["translated"]) for r in off] == [(False, 1), (False, 1)]
        assert same_games(*off, run(tmp_path, on=False))

    @slow
    def test_a_cache_folder_that_may_not_be_trusted_is_not_used_and_it_works(self, tmp_path):
        loose = tmp_path / "loose"
        loose.mkdir()
        loose.chmod(0o777)  # writable by others: refused (cachedir's threat model)
        out = run(loose)
        assert (out["direct"], out["translated"]) == (False, 1)
        assert not (loose / "native").exists()
        assert same_games(out, run(tmp_path / "kept", on=False))

    @slow  # TestFallback checks, in the default suite, that such a module keeps no Numba cache
    def test_a_process_whose_direct_path_fails_loads_none_of_the_loops_kept_with_it(self, tmp_path):
        """A process that bound keeps loops calling the direct symbols; a process whose direct path
        then fails (nothing compiles nor loads) must load none of them (LLVM would end it): its
        module is Numba's, compiled in the process, and plays the same games."""
        cold = run(tmp_path)
        failed = run(tmp_path, fail=True)
        assert (failed["direct"], failed["loop hits"]) == (None, 0)
        assert same_games(cold, failed)
        assert run(tmp_path)["direct"] is True  # the kept entry is still the one loaded


# ---- in this process --------------------------------------------------------------------------------


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder, and no native module compiled in this process (the modules compiled
    before, and their names in sys.modules, given back afterwards)."""
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native_game, "_NATIVE", {})
    monkeypatch.setattr(native_game, "_LOADED", {})
    before = {k: v for k, v in sys.modules.items() if k.startswith("ziggurat_native_")}
    yield tmp_path
    for k in [k for k in sys.modules if k.startswith("ziggurat_native_") and k not in before]:
        del sys.modules[k]
    sys.modules.update(before)


def module_of(game) -> tuple:
    """(module, text) of a game's native module, run as `native()` runs it with the switch on
    (its own file name, none of its functions compiled yet)."""
    text = native_game.source(game)[0]
    key, path = native_game.module_path(text)
    module = types.ModuleType(f"ziggurat_native_{key[:16]}d_probe")
    module.__file__ = str(path.with_name(path.stem + "d.py"))
    exec(compile(text, module.__file__, "exec"), module.__dict__)
    return module, text


def unbound(module) -> bool:
    """Whether none of the module's roots was replaced by a wrapper."""
    return all(module.__dict__[n].py_func.__globals__ is module.__dict__ for n in bind.ROOTS if n in module.__dict__)


def perft(ng, game, depth: int = 4) -> list:
    return [ng.perft(game.new(), d) for d in range(1, depth + 1)]


class TestFallback:
    @pytest.mark.parametrize("step", ["object_code", *(pytest.param(s, marks=slow) for s in
                                                       ("translate", "load_object", "the second symbol"))])
    def test_a_failure_anywhere_leaves_the_whole_module_numbas_with_the_same_perft(self, fresh, monkeypatch, step):
        game = ziggurat.load(GAME)
        monkeypatch.setenv(bind.SWITCH, "0")
        off = perft(native_game.native(game, ("perft",)), game)
        monkeypatch.setattr(native_game, "_NATIVE", {})
        monkeypatch.setattr(native_game, "_LOADED", {})

        def fail(*a, **k):
            raise RuntimeError("failed on purpose")
        if step == "the second symbol":
            import llvmlite.binding as llvm
            given, add = [], llvm.add_symbol

            def add_symbol(name, address):
                given.append(name)
                if len(given) == 2:
                    fail()
                add(name, address)
            monkeypatch.setattr(llvm, "add_symbol", add_symbol)
        else:
            monkeypatch.setattr(bind if step == "translate" else direct_compile, step, fail)
        monkeypatch.setenv(bind.SWITCH, "1")
        ng = native_game.native(game, ("perft",))
        assert getattr(ng.module, "_direct_library", None) is None
        assert unbound(ng.module)  # none replaced: never some roots bound and others not
        assert type(ng.module.perft._cache).__name__ == "NullCache"  # its file's kept loops not loaded
        assert perft(ng, game) == off

    def test_loops_numba_refuses_over_the_wrappers_are_compiled_by_numba_alone(self, fresh, monkeypatch):
        game = ziggurat.load(GAME)
        monkeypatch.setenv(bind.SWITCH, "0")
        off = perft(native_game.native(game, ("perft",)), game)
        monkeypatch.setattr(native_game, "_NATIVE", {})
        monkeypatch.setattr(native_game, "_LOADED", {})
        written = bind.wrappers_text  # a wrapper of `legal` giving a pair: the loops cannot be typed over it

        def pair(*a):
            text = written(*a)
            assert "    return ext_legal(" in text
            return text.replace("    return ext_legal(", "    return 0.5, ext_legal(")
        monkeypatch.setattr(bind, "wrappers_text", pair)
        monkeypatch.setenv(bind.SWITCH, "1")
        ng = native_game.native(game, ("perft",))
        assert getattr(ng.module, "_direct_library", None) is None and unbound(ng.module)
        assert perft(ng, game) == off
        assert native_game.native(game, ("perft",)) is ng  # kept for the switch's key: not tried again
        assert bind.wanted()  # the direct path is on again after the retry

    def test_a_refusal_is_kept_and_leaves_the_module_numbas(self, fresh):
        module, text = module_of(ziggurat.load("chaos"))  # chaos's module raises: outside the subset
        assert bind.compiled(module, text) is None
        (entry,) = entries(fresh)
        assert objects.read(entry)[0] == "refused"
        assert bind.compiled(module, text) is None


class TestEntries:
    def test_an_entry_this_code_cannot_read_is_a_miss_made_again(self, fresh):
        """Entries sealed by this cache yet not of this format or shape, or naming a function their
        object does not hold: each a miss, the direct code made again and kept whole. (An object
        file's bytes are vouched for by the seal alone: LLVM does not check them, and a truncated
        one would end the process; see objects.py.)"""
        module, text = module_of(ziggurat.load(GAME))
        lib, roots, rets = bind.compiled(module, text)
        assert lib.from_cache is False
        (entry,) = entries(fresh)
        good = objects.read(entry)
        assert good[0] == "object" and bind.compiled(module, text)[0].from_cache is True
        obj = good[1]
        for kept in (("another format", obj, roots, rets), (target.FORMAT, obj, roots), b"not a pickle",
                     (target.FORMAT, obj, {"legal": "zz"}, rets),
                     (target.FORMAT, obj, {**roots, "absent": "a"}, {**rets, "absent": "i64"})):
            cachedir.write_sealed(entry, kept if isinstance(kept, bytes) else pickle.dumps(kept))
            again = bind.compiled(module, text)
            assert again[0].from_cache is False and again[1:] == (roots, rets)
            assert objects.read(entry)[1:] == good[1:]  # kept again, whole

    def test_the_cache_off_keeps_nothing(self, fresh, monkeypatch):
        monkeypatch.setenv("ZIGGURAT_CACHE_DIR", "off")
        module, text = module_of(ziggurat.load(GAME))
        assert objects.path(module, direct_compile.target_tag()) is None
        assert bind.compiled(module, text)[0].from_cache is False
        assert bind.compiled(module, text)[0].from_cache is False
        assert not (fresh / "native").exists()


class TestTarget:
    @pytest.mark.parametrize("settings", [{}, {"CPU_NAME": "generic", "CPU_FEATURES": ""},
                                          {"CPU_FEATURES": "+sse2,-avx"}, {"ENABLE_AVX": False}])
    def test_the_target_is_numbas_jit_target(self, monkeypatch, settings):
        """jit_target gives what Numba's JIT codegen makes its own target machine of (its
        `magic_tuple`: triple, CPU name, features), under Numba's settings."""
        from numba.core import codegen, config

        for name, value in settings.items():
            monkeypatch.setattr(config, name, value, raising=False)
        t = target.jit_target()
        assert (t.triple, t.cpu, t.features) == codegen.JITCPUCodegen("probe").magic_tuple()
        if not settings.get("ENABLE_AVX", True):
            assert "+avx" not in t.features
        assert t.codemodel == "jitdefault" and (t.reloc == "static" or not t.triple.startswith("x86"))

    def test_the_level_is_numbas_optimisation_setting(self, monkeypatch):
        """NUMBA_OPT (Numba's config.OPT: an int-like level, "max" reading 3) sets the direct code's
        passes and machine level, as it sets Numba's."""
        from numba.core import config

        for setting, level in ((config._OptLevel(0), 0), (config._OptLevel(2), 2), (config._OptLevel("max"), 3),
                               (3, 3), ("nonsense", 3)):
            monkeypatch.setattr(config, "OPT", setting, raising=False)
            assert target.jit_target().opt == level
        monkeypatch.undo()
        assert target.jit_target().opt == target.opt_level(config.OPT)

    def test_the_tag_changes_with_everything_that_decides_the_machine_code(self, monkeypatch):
        import llvmlite
        from dataclasses import replace

        t = target.jit_target()
        base = target.tag(t)
        assert target.tag(target.jit_target()) == base == direct_compile.target_tag()
        changed = [target.tag(replace(t, cpu="generic")), target.tag(replace(t, features=t.features + ",-avx")),
                   target.tag(replace(t, triple="aarch64-unknown-linux-gnu")), target.tag(replace(t, reloc="pic")),
                   target.tag(replace(t, codemodel="default")), target.tag(replace(t, opt=0))]
        monkeypatch.setattr(numba, "__version__", "0.0.0")
        changed.append(target.tag(t))
        monkeypatch.undo()
        monkeypatch.setattr(llvmlite, "__version__", "0.0.0")
        changed.append(target.tag(t))
        assert len({base, *changed}) == len(changed) + 1
