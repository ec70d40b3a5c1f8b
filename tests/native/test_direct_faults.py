"""A division by zero in a ruleset's native code is an error, with the direct path as with Numba:
Numba's code raises ZeroDivisionError; the direct code (native/direct/) sets its module's fault
word and the wrapper that called it raises the same after the call. And the command line says
that a rule failed, and how to find which (the native code keeps no map to the rules' lines),
instead of an internal error."""

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from click.testing import CliRunner  # noqa: E402

from ziggurat.cli.main import cli  # noqa: E402
from ziggurat.interpreter.native.direct import Translator, compile_ir  # noqa: E402
from ziggurat.interpreter.native.direct.bind import SWITCH  # noqa: E402

TEXT = '''
import numpy as np
from ziggurat.interpreter.native.numbacache import sharing
njit = sharing(())


@njit(cache=True)
def quotient(s):
    return s[0] // s[1] + 10 * (s[0] % s[1])


@njit(cache=True)
def ratio(s):
    return s[0] / s[1]


@njit(cache=True)
def known(s):
    return s[0] // 3 + s[0] % -4
'''


def fault_word(lib, tr):
    import ctypes

    address = lib.address("fault_c")
    return None if not address else ctypes.CFUNCTYPE(ctypes.c_int64)(address)


@pytest.mark.parametrize("name", ["quotient", "ratio"])
def test_a_zero_divisor_sets_the_fault_word_once_and_a_nonzero_one_does_not(name):
    tr = Translator(TEXT)
    lib = compile_ir(tr.module_ir({name: "a"}), tr)
    fn, fault = lib.cfunc(name, "a"), fault_word(lib, tr)
    assert fault is not None
    for a, b in ((7, 2), (-7, 2), (7, -2), (0, 5)):
        s = np.array([a, b], np.int64)
        assert fn(s.ctypes.data, 2) == tr.ns[name](s) and fault() == 0
    s = np.array([7, 0], np.int64)
    fn(s.ctypes.data, 2)
    assert fault() == 1 and fault() == 0  # read, then cleared


def test_divisors_known_when_translated_need_no_fault_word():
    tr = Translator(TEXT)
    lib = compile_ir(tr.module_ir({"known": "a"}), tr)
    assert fault_word(lib, tr) is None
    s = np.array([-7, 0], np.int64)
    assert lib.cfunc("known", "a")(s.ctypes.data, 2) == tr.ns["known"](s)


def divided_by_zero_after_four_marks(folder: Path) -> Path:
    """Tic-tac-toe whose `mark` divides by (marks on the board - 4): fine for four plies, then not."""
    text = (Path(__file__).resolve().parents[2] / "src/ziggurat/rulesets/tic-tac-toe.rules").read_text()
    old = '    at: cells where empty(at) else "that cell is taken"'
    assert old in text
    text = text.replace(old, '    at: cells where empty(at) and 6 // (count(occupied(c) for c in cells) - 4) >= -9 '
                             'else "that cell is taken"')
    path = folder / "divides.rules"
    path.write_text(text)
    return path


@pytest.mark.parametrize("switch", ["0", "1"])
def test_native_code_dividing_by_zero_raises_with_the_direct_path_on_and_off(tmp_path, monkeypatch, switch):
    import ziggurat
    from ziggurat.interpreter.native.game import native

    monkeypatch.setenv(SWITCH, switch)
    game = ziggurat.load(str(divided_by_zero_after_four_marks(tmp_path)))
    ng = native(game, ("perft",))
    assert ng.perft(game.new(), 4) == 9 * 8 * 7 * 6  # no fault yet: every empty cell
    with pytest.raises(ZeroDivisionError):
        ng.perft(game.new(), 5)
    assert ng.perft(game.new(), 3) == 9 * 8 * 7  # the fault word was cleared with the error


@pytest.mark.parametrize("switch", ["0", "1"])
def test_the_command_line_says_a_rule_failed_and_how_to_see_which(tmp_path, monkeypatch, switch):
    monkeypatch.setenv(SWITCH, switch)
    rules = str(divided_by_zero_after_four_marks(tmp_path))
    out = CliRunner().invoke(cli, ["perft", rules, "-d", "5", "--backend", "native"])
    assert out.exit_code == 1, out.output
    assert "a rule failed while the game ran in the native backend" in out.output
    assert "--backend python" in out.output and "internal error" not in out.output
    python = CliRunner().invoke(cli, ["perft", rules, "-d", "5"])  # the Python backend points at the rule
    assert python.exit_code == 1 and "divides.rules:29:" in python.output


def test_only_the_roots_that_may_divide_by_zero_look_at_the_fault_word(tmp_path, monkeypatch):
    import ziggurat
    from ziggurat.interpreter.native.game import native

    monkeypatch.setenv(SWITCH, "1")
    for rules, faulting in ((str(divided_by_zero_after_four_marks(tmp_path)), True), ("tic-tac-toe", False)):
        module = native(ziggurat.load(rules), ("perft",)).module
        lib = module._direct_library
        assert bool(lib.address("legal_faults_c")) is faulting  # legal's `where` divides, or nothing does
        assert not lib.address("apply_faults_c")
