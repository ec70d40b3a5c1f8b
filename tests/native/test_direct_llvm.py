"""The direct prototype (ziggurat.interpreter.native.direct: a written module's game functions translated
from their Python text to LLVM IR, no Numba front end) against the same module run as plain
Python, the reference: the same moves and the same positions after every move, on seeded games.
And its refusals: a construct outside its subset is refused, naming the line."""

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from ziggurat.interpreter.native.direct import Refused, Translator, compile_ir  # noqa: E402
from direct_llvm_check import check  # noqa: E402


@pytest.mark.parametrize("name", ["tic-tac-toe", "stacktics", "pig"])
def test_direct_legal_and_apply_match_plain_python(name):
    # every position of three seeded games: legal's n and moves, apply's position, the same
    assert check(name, games=3, plies=40, moves=3, seed=5) == 0


TEXT = '''
import numpy as np
from ziggurat.interpreter.native.numbacache import sharing
njit = sharing(())
T = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int64)
K = 7


@njit(cache=True)
def f(s, out):
    n = 0
    buf = np.empty(4, np.int64)
    for i in range(s.shape[0] if False else 4):
        buf[i] = T[i % 2, i % 3] - s[i] // 3 + (s[-1] % K)
    a, b = buf[0], buf[1]
    out[7] = (s[2] < s[3]) + 2 * (s[4] // -3) + 4 * (s[5] % -4)
    out[6] = s[4] // (s[5] | 1) + 10 * (s[3] % (s[2] | 1))
    for x in (a, b, K):
        if x > 2 and not (x == 5 or x < -100):
            out[n] = x
            n += 1
    return min(n, 3, max(a, b))


@njit(cache=True)
def g(s, w):
    t = 0.0
    for i in range(s.shape[0]):
        w[i] = s[i] / 4 + (1.5 if s[i] > 0 else -0.25)
        t += w[i] * 2
    return max(t, -1.0)


@njit(cache=True)
def h(s):
    if s[0] > 100:
        raise ValueError("too big")
    return s[0]
'''


def test_direct_small_function_matches_python():
    # negative indices wrap, floor // and % of negatives, a 2-D table, a tuple iterated, min/max
    tr = Translator(TEXT)
    lib = compile_ir(tr.module_ir({"f": "aa"}), tr)
    fn = lib.cfunc("f", "aa")
    rng = np.random.default_rng(3)
    for _ in range(200):
        s = rng.integers(-6, 7, size=6).astype(np.int64)
        out_py, out_d = np.zeros(8, np.int64), np.zeros(8, np.int64)
        want = tr.ns["f"](s.copy(), out_py)
        got = fn(s.ctypes.data, s.shape[0], out_d.ctypes.data, out_d.shape[0])
        assert got == want and np.array_equal(out_py, out_d)


def test_direct_float_function_matches_python():
    # float64 arrays, true division of ints, a float conditional, max of floats, a double returned
    tr = Translator(TEXT)
    lib = compile_ir(tr.module_ir({"g": "af"}), tr)
    fn = lib.cfunc("g", "af")
    rng = np.random.default_rng(4)
    for _ in range(100):
        s = rng.integers(-9, 9, size=5).astype(np.int64)
        w_py, w_d = np.zeros(5), np.zeros(5)
        want = tr.ns["g"](s.copy(), w_py)
        got = fn(s.ctypes.data, s.shape[0], w_d.ctypes.data, w_d.shape[0])
        assert got == want and np.array_equal(w_py, w_d)


def test_direct_refuses_a_raise_naming_its_line():
    with pytest.raises(Refused, match=r"line \d+: statement Raise"):
        Translator(TEXT).module_ir({"h": "a"})


SIGNED = '''
import numpy as np
from ziggurat.interpreter.native.numbacache import sharing
njit = sharing(())
ZK = np.array([2**63 + 12345, 2**62 + 7, 2**64 - 3, 99], dtype=np.uint64)


@njit(cache=True)
def zone(s, p):
    b = 3
    c = 0
    for k in range(s[b]):
        if s[b + 1 + k] == p:
            c += 1
    return c


@njit(cache=True)
def mix(s):
    h = np.uint64(0)
    for i in range(4):
        h += np.uint64(s[i] + 1) * ZK[i]
    return h
'''


def test_direct_int64_sum_of_a_range_index_is_read_without_negative_index_test():
    # int64 + - * are nsw, as Numba writes them: s[b + 1 + k], k from range(...), is known not
    # negative, so its wrap-around select goes and the loop is vectorised with plain loads (it was
    # vectorised with gathers, 4x slower); the counts stay plain Python's
    tr = Translator(SIGNED)
    lib = compile_ir(tr.module_ir({"zone": "ai"}), tr)
    assert "masked.gather" not in str(lib.mod)
    fn = lib.cfunc("zone", "ai")
    rng = np.random.default_rng(6)
    for size in (4, 9, 40, 77):
        s = rng.integers(0, 3, size=size).astype(np.int64)
        s[3] = size - 4
        for p in range(3):
            assert fn(s.ctypes.data, s.shape[0], p) == tr.ns["zone"](s, p)


def test_direct_uint64_hash_wraps_as_numpy():
    # (a hash: uint64 products and sums past 2**64 wrap, as numpy's and Numba's)
    tr = Translator(SIGNED)
    lib = compile_ir(tr.module_ir({"mix": "a"}), tr)
    fn = lib.cfunc("mix", "a")
    s = np.array([5, 2**40, -3, 7], dtype=np.int64)
    with np.errstate(over="ignore"):
        want = int(tr.ns["mix"](s))
    assert fn(s.ctypes.data, s.shape[0]) % 2**64 == want
