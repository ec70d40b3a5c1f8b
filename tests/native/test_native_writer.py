"""The native writer's text (ziggurat.interpreter.native: legal, apply, module, code): what a person
reads in a generated module, and what it tells when Numba refuses it.

Each generated line from a rule names its rules line; no line runs past 200 characters; breaking
long lines changes no code; the kernel is the package's own files; the kept hash is turned off by
what the writer records as it writes, not by reading the text. Only the Numba refusal test
compiles anything (a 3x3 Clobber, stopped at type inference).

The snapshot of Stacktics' module (tests/snapshots/stacktics_native.py.txt) is the generated part
of the module (the kernel, the package's own files, left out), so that a change in how it reads
shows in review. After a change made on purpose, write it again with

    ZIGGURAT_UPDATE_SNAPSHOTS=1 python -m pytest tests/native/test_native_writer.py -k snapshot

and review the difference.
"""

import ast
import os
import re
from pathlib import Path

import pytest

import ziggurat
from ziggurat.errors import Unsupported
from ziggurat.interpreter.native import code as native_code
from ziggurat.interpreter.native import effects, module
from ziggurat.interpreter.native import game as native_game

HERE = Path(__file__).parent.parent
SNAPSHOT = HERE / "snapshots" / "stacktics_native.py.txt"
RULESETS = Path(ziggurat.__file__).parent / "rulesets"


@pytest.fixture(autouse=True)
def write_anew(monkeypatch):
    """Every module of these tests is written now: not one kept in the cache by an earlier
    process (some tests change the writer, and must see what it writes)."""
    monkeypatch.setattr(native_game, "_written_before", lambda game: None)
    monkeypatch.setattr(native_game, "_keep_written", lambda game, written: None)


def text_of(name: str, options=None) -> str:
    """The module's text written now (not the one this process, or the cache, kept for these
    rules: some tests write it with the writer's settings changed)."""
    return native_game._write(ziggurat.load(name, options))[0]


def generated_part(text: str) -> str:
    """The module's text without the kernel (which ends every module, the same in each)."""
    assert text.endswith(module.kernel())
    return text[:-len(module.kernel())]


def shipped_texts() -> dict:
    """Every shipped ruleset's native module at its default options (not compiled)."""
    out = {}
    for path in sorted(RULESETS.glob("*.rules")):
        try:
            out[path.stem] = text_of(path.stem)
        except Unsupported:
            continue  # the open table, whole turns kept by a preference: no module is written
    return out


@pytest.fixture(scope="module")
def texts() -> dict:
    return shipped_texts()


def rules_line_of(name: str, fragment: str) -> str:
    """`name.rules:LINE` of the one line of a shipped ruleset holding `fragment`."""
    lines = (RULESETS / f"{name}.rules").read_text().splitlines()
    found = [k + 1 for k, line in enumerate(lines) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return f"{name}.rules:{found[0]}"


def line_holding(text: str, fragment: str) -> int:
    """The number (from 1) of the one line of the text holding `fragment`."""
    found = [k + 1 for k, line in enumerate(text.split("\n")) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


def test_the_native_module_of_stacktics_reads_as_its_snapshot():
    text = generated_part(text_of("stacktics"))
    if os.environ.get("ZIGGURAT_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text(text)
    assert text == SNAPSHOT.read_text(), ("the generated module changed: if on purpose, write the snapshot again "
                                          "(see this file's docstring) and review the difference")


def test_no_generated_line_is_longer_than_200_characters(texts):
    assert len(texts) >= 20  # every shipped ruleset but the open table's
    for name, text in texts.items():
        longest = max(text.split("\n"), key=len)
        assert len(longest) <= 200, f"{name}: {longest[:80]}..."


def test_breaking_long_lines_and_tables_changes_no_code(texts, monkeypatch):
    """The same modules written with lines as long as they come are the same code (the same
    syntax tree), and do break some lines (tables, conditions) at the usual width."""
    monkeypatch.setattr(native_code, "WIDTH", 10 ** 9)
    monkeypatch.setattr(module, "WIDTH", 10 ** 9)
    for name in ("breakthrough", "stacktics", "ryb"):
        long = text_of(name)
        assert ast.dump(ast.parse(long)) == ast.dump(ast.parse(texts[name])), name
        assert len(long.split("\n")) < len(texts[name].split("\n")), name


def test_each_line_written_for_a_rule_names_its_rules_line(texts):
    """Lines of Stacktics' module and the rules lines they come from, found in the rules text."""
    text = generated_part(texts["stacktics"])  # numbered as in the whole module (the kernel follows)
    text = text.split("\nPFINAL = ")[0]  # legal_parts (the parts rollout policy) repeats legal's lines
    expect = {
        "v_from = low_bit(": rules_line_of("stacktics", "from: cells where mine(from)"),  # the mover's bits
        "v_base = s[STK + v_from * CAP + v_level - 1]": rules_line_of("stacktics", "let base = from[level]"),
        "take_stack(s, ": rules_line_of("stacktics", "take(to, prisoners[mover])"),
        "move_stack(s, ": rules_line_of("stacktics", "move(from, level, to)"),
        "if (nmoves == 0):": rules_line_of("stacktics", "if no_moves:"),
        "if (repeats(hist, nhist) >= 3):": rules_line_of("stacktics", "if repetition and repeated(3):"),
    }
    for fragment, where in expect.items():
        assert native_code.rules_line(text, line_holding(text, fragment)) == where, fragment
    # each action's code begins with a comment naming it and its line
    assert f"    # action move ({rules_line_of('stacktics', 'action move')})" in text
    # the comment shows where a rule's lines begin, once; a function's first lines belong to no rule
    do_move = text.split("def do_0(")[1].split("\n\n")[0]
    assert do_move.count("  # " + rules_line_of("stacktics", "take(to, prisoners[mover])")) == 1
    assert native_code.rules_line(text, line_holding(text, "def legal(s, out):") + 1) is None


def test_every_line_of_a_games_functions_after_their_first_lines_names_a_rule(texts):
    """In each function written from the rules, every line from the first commented one on
    belongs to some rules line (none is left to the function's own first lines)."""
    for name in ("breakthrough", "rgb", "pig"):
        lines = generated_part(texts[name]).split("\n")
        in_rules, checked = False, 0
        for k, line in enumerate(lines, 1):
            if not line.startswith(" "):  # a function's def, or the module's own lines (tables)
                in_rules = False
            elif re.search(r"  # \S+\.rules:\d+$|^ +# action \w+ \(\S+\.rules:\d+\)$", line):
                in_rules = True
            if in_rules and line.startswith(" "):
                assert native_code.rules_line(texts[name], k) is not None, (name, k, line)
                checked += 1
        assert checked > 50, (name, checked)


def test_numba_refusing_a_line_names_the_rules_line_it_was_written_for(monkeypatch):
    """A move's effect written with an ill-typed line after it (a text added to a number):
    Numba refuses the module, and the Unsupported names the effect's rules line."""
    pytest.importorskip("numba")
    from ziggurat.interpreter.native import game as native_game

    broken = []
    effect = effects.Statements.effect

    def ill_typed(self, st, env, code):
        effect(self, st, env, code)
        if st.fn == "move":
            broken.append(st.pos.line)
            code("_bad = 'not a number' + ply")

    monkeypatch.setattr(effects.Statements, "effect", ill_typed)
    game = ziggurat.load("clobber", {"width": 3, "height": 3})
    with pytest.raises(Unsupported) as caught:
        native_game.native(game, ("perft",))
    where = rules_line_of("clobber", "move(from, 1, to)")
    assert broken and f"clobber.rules:{broken[0]}" == where
    line = caught.value.line()
    assert line.startswith("the native backend cannot compile this ruleset (Numba refused the code written for "
                           f"{where}: ")
    assert line.endswith("; using Python") and "\n" not in line


def test_numba_refusal_names_the_innermost_line_written_for_a_rule():
    """Read from Numba's message: the innermost place in the module that belongs to a rule
    (a kernel helper's line, which belongs to none, is passed over)."""
    text = "\n".join(["@njit(cache=True)", "def do_0(s, m):", "    mover = s[SIDE]",
                      "    _a1 = v_from  # game.rules:12", "    move_stack(s, _a1, 0, 1)",
                      "", "", "def move_stack(s, a, k, b):", "    s[a] = 'x'"])
    message = ("No implementation of function setitem\n\nDuring: typing of setitem at /c/n1.py (9)\n"
               'File "n1.py", line 9:\n\nDuring: resolving callee type\nFile "../c/n1.py", line 5:\n'
               'File "other.py", line 4:\n')
    refused = native_code.numba_refusal(Exception(message), text, "/c/n1.py")
    assert refused.what == "this ruleset (Numba refused the code written for game.rules:12: " \
                           "No implementation of function setitem)"
    nowhere = native_code.numba_refusal(Exception('File "n1.py", line 3:'), text, "/c/n1.py")
    assert nowhere.what.startswith("this ruleset (Numba refused the code written: ")


def test_the_kernel_is_the_packages_own_files_put_in_every_module(texts):
    """Each kernel file's code below its mark ends every module; what is above the mark (the
    names it declares for linters) is left out."""
    for name in module.KERNEL:
        source_text = (Path(module.__file__).parent / name).read_text()
        head, body = source_text.split(module.KERNEL_MARK + "\n")
        ast.parse(source_text)  # a real file of the package
        for text in texts.values():
            assert body in text and head not in text
    assert "SIDE = PLY = LAST" not in texts["stacktics"]  # kernel.py's declarations


def kernel_functions() -> dict:
    tree = ast.parse((Path(module.__file__).parent / "kernel.py").read_text())
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}


def writes(fn: ast.FunctionDef) -> list:
    """The slots a kernel function writes in the position `s` (the text of their index)."""
    out = []
    for node in ast.walk(fn):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AugAssign) else []
        for t in targets:
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "s":
                out.append(ast.unparse(t.slice))
    return out


def calls(fn: ast.FunctionDef) -> set:
    return {n.func.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def test_the_kernel_helpers_declared_to_keep_the_hash_do():
    """Each helper in effects.KEEPS_HASH either writes only slots outside the hash (the unhashed
    slots, and the occupancy words `OCC + ...` after the stacks, which `hash_state` leaves out), or
    updates the hash slot itself where it writes others (`s[HSH] = ...`, directly or through a
    helper that does); the helpers it calls that write the position are in KEEPS_HASH too."""
    fns = kernel_functions()
    sets_hash = {name for name, fn in fns.items() if "HSH" in writes(fn)}
    sets_hash |= {name for name, fn in fns.items() if calls(fn) & sets_hash}
    for name in effects.KEEPS_HASH:
        fn = fns[name]
        hashed = [w for w in writes(fn) if w not in effects.UNHASHED and not w.startswith("OCC + ")]
        assert not hashed or name in sets_hash, (name, hashed)
        for callee in calls(fn) & set(fns):
            assert callee in effects.KEEPS_HASH or callee in sets_hash or not writes(fns[callee]), (name, callee)


def test_a_write_past_the_hash_recorded_as_written_makes_the_loops_hash_from_scratch(texts, monkeypatch):
    """What the writer records as it writes turns the kept hash off: a direct write to a slot the
    hash covers, or a call of a helper not known to keep it; a write to an unhashed slot does not."""
    assert "\nINCREMENTAL = True\n" in texts["stacktics"]
    effect = effects.Statements.effect

    def with_write(write):
        def patched(self, st, env, code):
            effect(self, st, env, code)
            if st.fn == "move":
                write(self, code)
        return patched

    for write, kept in [(lambda self, code: self.store(code, "STK + 0", "1"), False),
                        (lambda self, code: self.call(code, "flip", "0"), False),
                        (lambda self, code: self.store(code, "OVER", "0"), True),
                        (lambda self, code: self.call(code, "put", "CNT + 0", "1"), True)]:
        monkeypatch.setattr(effects.Statements, "effect", with_write(write))
        assert f"\nINCREMENTAL = {kept}\n" in text_of("stacktics")


def test_after_parts_differing_only_in_names_share_their_functions():
    """Both actions of tests/native/after.rules end in the after block: one pair of functions
    for both (the after part's key is read from the plan), called from each."""
    text = text_of(str(HERE / "native" / "after.rules"))
    # (and after_list_0: its first list's cells, native/after_cells.py)
    assert re.findall(r"^def (after\w*)\(", text, re.M) == ["after_list_0", "after_0", "after_do_0"]
    assert len(re.findall(r"= after_0\(", text.split("\nPFINAL = ")[0])) == 2  # from legal (legal_parts too)


def test_only_a_large_legal_is_split_and_only_many_do_functions_are_called(texts):
    """The split of `legal` and the calls of `do_N` (tests/native/test_native_split.py checks
    their moves) are written for the largest shipped modules only: `legal` split exactly where
    it is more than SPLIT_LINES lines (RYB's alone at the default options; RGB's, the next
    largest, is whole), and `do_N` called, not inlined, exactly
    where they are more than INLINED_DO_LINES lines (their bodies then in functions `dos_K`, a
    few actions each)."""
    from ziggurat.interpreter.native.apply import INLINED_DO_LINES
    from ziggurat.interpreter.native.legal import SPLIT_LINES

    called, split = set(), set()
    for name, text in texts.items():
        body = text[text.index("def legal(s, out):"):]
        body = body[:body.index("\n\n\n")]
        if "def legal_0(" in text:
            parts = re.findall(r"\ndef legal_\d+\(.*?(?=\n\n\n)", text, flags=re.S)
            assert body.count("\n") < 40, name  # legal: the calls, group by group
            assert sum(p.count("\n") for p in parts) + body.count("\n") > SPLIT_LINES, name
            split.add(name)
        dos = re.findall(r"\ndef dos?_\d+\(.*?(?=\n\n\n|\n@njit)", text, flags=re.S)
        assert dos, name
        if sum(d.count("\n") for d in dos) > INLINED_DO_LINES:
            assert "\ndef do_" not in text and "def dos_0(s, m, a):" in text, name  # called, in groups
            called.add(name)
        else:
            assert 'inline="always", internal=True)\ndef do_0(' in text, name
    assert "ryb" in called and "breakthrough" not in called
    assert split == {"ryb"}


def test_the_writer_needs_no_numba():
    """Numba is the `native` extra: writing a module's text (its tests, the cache's key) must not
    import it; only the written module does. Run where `import numba` fails."""
    import subprocess
    import sys

    script = ("import sys; sys.modules['numba'] = None\n"
              "import ziggurat\n"
              "from ziggurat.interpreter.native.game import source\n"
              "text = source(ziggurat.load('breakthrough'))[0]\n"
              "assert 'low_bit(' in text\n"  # the occupancy words' loop, whose helper needs Numba
              "print('written')\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={**os.environ, "ZIGGURAT_CACHE_DIR": "off"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "written"


def _split_by_scan(inner: str) -> list:
    """code._split as a scan a character at a time, each kind of separator in turn (the oracle)."""
    for seps in native_code.SEPARATORS:
        cuts, depth, i = [], 0, 0
        while i < len(inner):
            ch = inner[i]
            if ch in native_code.OPEN:
                depth += 1
            elif ch in native_code.CLOSE:
                depth -= 1
            elif depth == 0 and (sep := next((x for x in seps if inner.startswith(x, i)), None)) is not None:
                cuts.append(i)
                i += len(sep)
                continue
            i += 1
        if cuts:  # a comma stays at the end of its part, an operator starts its part
            comma = seps == (", ",)
            ends = [c + 1 if comma else c for c in cuts] + [len(inner)]
            starts = [0] + [c + 2 if comma else c + 1 for c in cuts]
            return [inner[s:e] for s, e in zip(starts, ends)]
    return []


def test_a_brackets_contents_are_split_where_a_scan_a_character_at_a_time_splits_them():
    """`code._split` (the depth counted once, separators found by str.find) cuts where a scan from
    the left would: random texts of names, brackets and every separator, runs of them too."""
    import random

    rng = random.Random(40)
    tokens = ["a", "b1", "(", ")", "[", "]", "{", "}"] + [s for seps in native_code.SEPARATORS for s in seps]
    tokens += [" - - ", " <  <= ", " if  else ", ",  , "]
    for _ in range(3000):
        text = "".join(rng.choice(tokens) for _ in range(rng.randint(0, 14)))
        assert native_code._split(text) == _split_by_scan(text), repr(text)


def test_a_product_choices_options_are_rows_of_one_dimension_not_a_reshaped_view():
    """A choice of `product(...)` keeps each item's options as row r of one flat buffer, at
    r * width: a 2-D buffer in the function's pool would be a `.reshape` view, which Numba compiles
    for a quarter of a CPU second. (Its moves against Python's: test_native_split, after.rules.)"""
    text = generated_part(text_of(str(Path(__file__).parent / "after.rules")))
    assert ".reshape(" not in text
    assert re.search(r"_opts\d+\[_rn\d+ \* \d+ \+ ", text) and re.search(r"_opts\d+\[_i\d+ \* \d+ \+ _idx\d+", text)
