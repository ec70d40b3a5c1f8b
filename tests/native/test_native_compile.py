"""What the native backend compiles, when, and what a warm start reuses (issue 25, item 4).

A loop not asked for is compiled at its first call, and kept in Numba's cache for the next
process, which loads it instead of compiling it; a function of the module called with different
constants is compiled once; a warm start takes the module's text from the cache instead of
lowering the rules and writing it again.
"""

import os
import subprocess
import sys

import pytest

import ziggurat
from ziggurat.interpreter import pipeline
from ziggurat.interpreter.games import small_options
from ziggurat.interpreter.runtime import perft

numba = pytest.importorskip("numba")


@pytest.fixture
def lowerings(monkeypatch):
    """The rulesets lowered (pipeline.lower_ruleset called) while the test runs."""
    calls = []
    real = pipeline.lower_ruleset

    def counted(rules, plan, values, bounds):
        calls.append(rules[-1][0])
        return real(rules, plan, values, bounds)
    monkeypatch.setattr(pipeline, "lower_ruleset", counted)
    return calls


def test_a_second_process_takes_the_module_text_from_the_cache_without_lowering(monkeypatch, lowerings):
    from ziggurat.interpreter.native import game as native_game

    game = ziggurat.load("tic-tac-toe")
    first = native_game.source(game)
    # A second process: nothing in memory.
    monkeypatch.setattr(native_game, "_WRITTEN", {})
    monkeypatch.setattr(pipeline, "_MEMORY", type(pipeline._MEMORY)())
    lowerings.clear()
    again = native_game.source(game)
    assert lowerings == []
    assert again[0] == first[0] and again[2:] == first[2:]
    assert again[1].constants() == first[1].constants()
    # Other options are another entry.
    small, default = ziggurat.load("clobber", small_options("clobber")), ziggurat.load("clobber")
    assert native_game._written_path(small) != native_game._written_path(default)


def test_a_module_text_planted_in_the_cache_is_not_used(monkeypatch, lowerings):
    """The text kept for a warm start is a sealed entry: a file put in its place is not read."""
    from ziggurat.interpreter.native import game as native_game

    game = ziggurat.load("tic-tac-toe")
    first = native_game.source(game)
    path = native_game._written_path(game)
    kept = path.read_bytes()
    assert b"tic-tac-toe" in kept
    path.write_bytes(kept.replace(b"tic-tac-toe", b"tac-tic-toe"))
    monkeypatch.setattr(native_game, "_WRITTEN", {})
    monkeypatch.setattr(pipeline, "_MEMORY", type(pipeline._MEMORY)())
    lowerings.clear()
    assert native_game.source(game)[0] == first[0]
    assert len(lowerings) == 1  # written again


def test_a_function_called_with_different_constants_is_compiled_once():
    """Numba would compile `add` twice (for the literal 3 and the literal 5)."""
    from ziggurat.interpreter.native.numbacache import njit

    @njit
    def add(a, k):
        return a + k

    @njit
    def caller(a):
        return add(a, 3) + add(a, 5)

    assert caller(1) == 10
    assert len(add.signatures) == 1


LAZY = """
import sys, ziggurat
from ziggurat.interpreter.native import native
game = ziggurat.load("tic-tac-toe")
fast = native(game, tuple(sys.argv[1:]))
print(len(fast.module.study_chunk.signatures), end=" ")
print(fast.playout(game.new(), 7).plies, fast.perft(game.new(), 3), end=" ")
print(sum(fast.module.study_chunk.stats.cache_misses.values()), sum(fast.module.study_chunk.stats.cache_hits.values()))
"""


def test_a_loop_not_asked_for_is_compiled_at_its_first_call_and_loaded_by_the_next_process(tmp_path):
    env = {**os.environ, "ZIGGURAT_CACHE_DIR": str(tmp_path / "cache")}

    def run(*loops):
        out = subprocess.run([sys.executable, "-c", LAZY, *loops], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    first = run("perft")
    assert first[0] == "0"  # the playout loop (study_chunk) not compiled by native(game, ("perft",))
    assert first[2] == str(perft(ziggurat.load("tic-tac-toe").new(), 3))
    assert first[3:] == ["1", "0"]  # compiled at its first call
    second = run()
    assert second[:3] == first[:3]  # the same playout, the same count
    assert second[3:] == ["0", "1"]  # loaded from the cache: not compiled again


LINKED = '''
from ziggurat.interpreter.native.numbacache import njit

@njit(cache=True, internal=True)
def twice(a):
    return 2 * a

@njit(cache=True)
def first(a):
    return twice(a) + 1

@njit(cache=True)
def second(a):
    return twice(a) + 3
'''


def _linked_module(path, name):
    import types

    module = types.ModuleType(name)
    module.__file__ = str(path)
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module


def test_a_function_only_compiled_code_calls_gets_no_machine_code_of_its_own_and_is_cached_as_its_ir(
        tmp_path, monkeypatch):
    """`njit(internal=True)`: its code library (`LinkedOnly`) is linked into its callers but never
    made machine code itself; a caller compiled later (another module object of the same file,
    as in the next process) links it from the cache, where it is kept as its IR."""
    from ziggurat.interpreter.native.numbacache import LinkedOnly

    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "linked.py"
    path.write_text(LINKED)
    one = _linked_module(path, "ziggurat_linked_one")
    assert one.first(5) == 11
    library = one.twice.overloads[one.twice.signatures[0]].library
    assert isinstance(library, LinkedOnly)
    name = next(f.name for f in library.get_defined_functions())
    assert not library.codegen._engine.is_symbol_defined(name)  # no machine code of its own
    assert one.twice.stats.cache_misses and not one.twice.stats.cache_hits
    two = _linked_module(path, "ziggurat_linked_two")
    assert two.second(5) == 13  # compiled now: twice comes from the cache, linked into it
    assert sum(two.twice.stats.cache_hits.values()) == 1
    assert not two.second.stats.cache_hits


SHARED = '''
from ziggurat.interpreter.native.numbacache import sharing

njit = sharing(("legal",))

@njit(cache=True, internal=True)
def twice(a):
    return 2 * a

@njit(cache=True)
def legal(a):
    return twice(a) + 1

@njit(cache=True)
def loop(a):
    return legal(a) + legal(a + 1)
'''

CALL_LOOP_FIRST = """
import sys, types
path = sys.argv[1]
module = types.ModuleType("ziggurat_shared_module")
module.__file__ = path
sys.modules[module.__name__] = module  # as native() does
exec(compile(open(path).read(), path, "exec"), module.__dict__)
print(module.loop(5), len(module.legal.signatures))  # the loop, loaded before its callee
print(sum(module.loop.stats.cache_misses.values()), sum(module.legal.stats.cache_misses.values()),
      sum(module.loop.stats.cache_hits.values()), sum(module.legal.stats.cache_hits.values()))
"""


def test_a_loop_calls_a_shared_function_by_its_symbol_and_a_process_may_load_the_loop_first(tmp_path, monkeypatch):
    """`sharing(names)`: a function of one of those names (a module's `legal`), when large (here:
    whatever its size), is compiled once and its callers call it by its symbol, its code not
    linked into theirs; a fresh process that calls the loop first (loaded from the cache before
    its callee) loads the callee first, compiling nothing."""
    from ziggurat.interpreter.native import numbacache

    monkeypatch.setattr(numbacache, "LINKED_UP_TO", 0)
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "shared.py"
    path.write_text(SHARED)
    one = _linked_module(path, "ziggurat_shared_module")
    monkeypatch.setitem(sys.modules, one.__name__, one)  # as native() does
    assert one.loop(5) == 11 + 13
    legal = one.legal.overloads[one.legal.signatures[0]]
    loop = one.loop.overloads[one.loop.signatures[0]].library
    declared = {f.name for f in loop._final_module.functions if f.is_declaration}
    defined = {f.name for f in loop.get_defined_functions()}
    assert legal.fndesc.mangled_name in declared and legal.fndesc.mangled_name not in defined  # not linked in
    assert numbacache._callees(loop) == (("legal", tuple(legal.signature.args), legal.fndesc.mangled_name),)
    assert not numbacache._load_callees(vars(one), (("legal", tuple(legal.signature.args), "no such symbol"),))
    fresh = subprocess.run([sys.executable, "-c", CALL_LOOP_FIRST, str(path)], env=dict(os.environ),
                           capture_output=True, text=True)
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.split() == ["24", "1", "0", "0", "1", "1"]  # both from the cache, nothing compiled


def test_a_small_shared_function_stays_linked_into_its_callers(tmp_path, monkeypatch):
    """Up to `numbacache.LINKED_UP_TO` LLVM instructions, a function `sharing` names is linked
    into its callers as Numba links any callee (LLVM may inline it there)."""
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "small.py"
    path.write_text(SHARED)
    one = _linked_module(path, "ziggurat_shared_small")
    monkeypatch.setitem(sys.modules, one.__name__, one)
    assert one.loop(5) == 11 + 13
    legal = one.legal.overloads[one.legal.signatures[0]]
    loop = one.loop.overloads[one.loop.signatures[0]].library
    assert legal.fndesc.mangled_name not in {f.name for f in loop._final_module.functions if f.is_declaration}


PARTS = '''
from ziggurat.interpreter.native.numbacache import njit, sharing

njit_shared = sharing(("legal", "part"))

@njit_shared(cache=True)
def part(a):
    return 3 * a + 1

@njit_shared(cache=True)
def legal(a):
    return part(a) + 1

@njit(cache=True)
def loop(a):
    return legal(a) + part(a + 1)
'''


def test_a_shared_function_calls_a_shared_callee_over_into_shared_up_to_by_its_symbol(tmp_path, monkeypatch):
    """A `Shared` function (`legal`) calls a `Shared` callee of more than
    `numbacache.INTO_SHARED_UP_TO` LLVM instructions (here: whatever its size) by its symbol, its
    code not linked in; a function that is not `Shared` (a loop) still links it (up to
    `LINKED_UP_TO`); the results are the Python functions'."""
    from ziggurat.interpreter.native import numbacache

    monkeypatch.setattr(numbacache, "INTO_SHARED_UP_TO", 0)
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "parts.py"
    path.write_text(PARTS)
    one = _linked_module(path, "ziggurat_shared_parts")
    monkeypatch.setitem(sys.modules, one.__name__, one)
    assert one.loop(5) == one.loop.py_func(5) == (3 * 5 + 1 + 1) + (3 * 6 + 1)
    part = one.part.overloads[one.part.signatures[0]].fndesc.mangled_name
    legal = one.legal.overloads[one.legal.signatures[0]].library
    loop = one.loop.overloads[one.loop.signatures[0]].library
    assert isinstance(legal, numbacache.SharedLibrary)
    assert part in {f.name for f in legal._final_module.functions if f.is_declaration}  # called by symbol
    assert part not in {f.name for f in loop._final_module.functions if f.is_declaration}  # linked in


WARM = """
import sys, ziggurat
from numba.core import event
from ziggurat.interpreter.native import native
compiled = []
class Compiles(event.Listener):
    def on_start(self, e):
        compiled.append(e.data["dispatcher"].py_func.__name__)
    def on_end(self, e):
        pass
game = ziggurat.load(sys.argv[1])
with event.install_listener("numba:compile", Compiles()):
    fast = native(game)
    print(fast.perft(game.new(), 2), fast.playout(game.new(), 3).plies, end=" ")
print(",".join(compiled) or "-")
"""


def test_a_fresh_process_loads_every_loop_of_a_game_from_the_cache_compiling_nothing(tmp_path):
    """The loops call the game's `legal`, `apply` and `outcome` by symbol (`module.SHARED`): a
    warm process loads all of it from the cache (each loop its callees first) and compiles no
    function, with the same results."""
    env = {**os.environ, "ZIGGURAT_CACHE_DIR": str(tmp_path / "cache")}

    def run():
        out = subprocess.run([sys.executable, "-c", WARM, "tic-tac-toe"], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    cold = run()
    assert "perft" in cold[2] and "legal" in cold[2]  # compiled by the first process
    warm = run()
    assert warm == cold[:2] + ["-"]
    assert cold[0] == str(perft(ziggurat.load("tic-tac-toe").new(), 2))
