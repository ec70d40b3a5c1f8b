"""The language server (`ziggurat lsp`), driven over stdio as an editor drives it, with pygls's own
client: it publishes `ziggurat check`'s diagnostics on open and on change, at the line and column
of the mistake, none for a good ruleset, and completes the language's words and the ruleset's own
names (even while the text being typed does not parse)."""

import asyncio
import concurrent.futures
import inspect
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

RULESETS = Path(__file__).resolve().parent.parent.parent / "src" / "ziggurat" / "rulesets"


class Editor:
    """A pygls client talking to `python -m ziggurat lsp`: it opens and changes documents and
    waits for the diagnostics the server publishes for them."""

    def __init__(self):
        self.client = LanguageClient("test-editor", "1")
        self.published: dict = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: lsp.PublishDiagnosticsParams):
            self.published[params.uri] = list(params.diagnostics)
            self.arrived.set()

    async def __aenter__(self):
        self.arrived = asyncio.Event()
        await self.client.start_io(sys.executable, "-m", "ziggurat", "lsp")
        await self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        self.client.initialized(lsp.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        await asyncio.wait_for(self.client.shutdown_async(None), 20)
        self.client.exit(None)
        await self.client.stop()

    async def diagnostics_after(self, send, uri: str) -> list:
        """Send a notification and return the diagnostics then published for `uri`."""
        self.arrived.clear()
        self.published.pop(uri, None)
        send()
        while uri not in self.published:
            await asyncio.wait_for(self.arrived.wait(), 30)
            self.arrived.clear()
        return self.published[uri]

    async def open(self, uri: str, text: str) -> list:
        item = lsp.TextDocumentItem(uri=uri, language_id="rules", version=1, text=text)
        return await self.diagnostics_after(
            lambda: self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(item)), uri)

    async def change(self, uri: str, text: str, version: int = 2) -> list:
        params = lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
                                                 [lsp.TextDocumentContentChangeWholeDocument(text=text)])
        return await self.diagnostics_after(lambda: self.client.text_document_did_change(params), uri)

    async def completions(self, uri: str, line: int = 0, col: int = 0) -> set:
        result = await asyncio.wait_for(self.client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri), lsp.Position(line, col))), 30)
        items = result.items if isinstance(result, lsp.CompletionList) else result
        return {item.label for item in items}


@pytest.fixture(scope="module")
def run():
    """Run async scenarios against one server (started once: each test opens files of its own)."""
    loop = asyncio.new_event_loop()
    editor = Editor()
    loop.run_until_complete(editor.__aenter__())
    try:
        yield lambda scenario: loop.run_until_complete(scenario(editor))
    finally:
        loop.run_until_complete(editor.__aexit__())
        loop.close()


def test_a_good_ruleset_has_no_diagnostics(run, tmp_path):
    uri = (tmp_path / "tic-tac-toe.rules").as_uri()
    assert run(lambda ed: ed.open(uri, (RULESETS / "tic-tac-toe.rules").read_text())) == []


def test_a_misspelt_function_is_reported_at_its_line_and_column(run, tmp_path):
    """`height(` misspelt `hieght(` in Stacktics: one error, at the first letter of the word."""
    lines = (RULESETS / "stacktics.rules").read_text().splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if "height(" in line and not line.lstrip().startswith("#"))
    col = lines[row].index("height(")
    lines[row] = lines[row].replace("height(", "hieght(", 1)
    uri = (tmp_path / "stacktics.rules").as_uri()
    found = run(lambda ed: ed.open(uri, "".join(lines)))
    errors = [d for d in found if d.severity == lsp.DiagnosticSeverity.Error]
    assert len(errors) == 1, found
    assert "unknown function 'hieght'" in errors[0].message and errors[0].source == "ziggurat"
    assert (errors[0].range.start.line, errors[0].range.start.character) == (row, col)
    assert errors[0].range.end.character > col


def test_a_change_is_checked_again(run, tmp_path):
    """Opened good, changed to a syntax error on a new last line, changed back: the diagnostics
    follow each text (the error on the line that was added)."""
    good = (RULESETS / "clobber.rules").read_text()
    uri = (tmp_path / "clobber.rules").as_uri()

    async def scenario(ed):
        first = await ed.open(uri, good)
        broken = await ed.change(uri, good + "action broken\n", 2)  # no colon after the header
        mended = await ed.change(uri, good, 3)
        return first, broken, mended

    first, broken, mended = run(scenario)
    assert first == [] and mended == []
    assert [d.range.start.line for d in broken] == [len(good.splitlines())]
    assert broken[0].severity == lsp.DiagnosticSeverity.Error


def test_a_warning_is_a_warning(run, tmp_path):
    """A def nothing uses is check's warning, published with the warning severity at the def."""
    text = (RULESETS / "clobber.rules").read_text() + "def never_called(c): height(c) + 1\n"
    uri = (tmp_path / "clobber.rules").as_uri()
    found = run(lambda ed: ed.open(uri, text))
    assert [d.severity for d in found] == [lsp.DiagnosticSeverity.Warning]
    assert found[0].range.start.line == len(text.splitlines()) - 1 and "never_called" in found[0].message


def test_completion_offers_the_files_defs_and_the_languages_words(run, tmp_path):
    text = (RULESETS / "stacktics.rules").read_text()
    defs = set(re.findall(r"^def (\w+)", text, re.M))
    assert defs  # the file declares some, or the test would prove nothing
    uri = (tmp_path / "stacktics.rules").as_uri()

    async def scenario(ed):
        await ed.open(uri, text)
        at_open = await ed.completions(uri)
        await ed.change(uri, text + "def fresh_score(p): 1\nlet =\n")  # a new def, then a line that does not parse
        while_broken = await ed.completions(uri)
        await ed.change(uri, text + "def fresh_score(p): 1\n", 3)
        mended = await ed.completions(uri)
        return at_open, while_broken, mended

    at_open, while_broken, mended = run(scenario)
    assert defs <= at_open
    assert {"prisoners", "south", "north", "from", "require", "height", "move"} <= at_open  # zone, players, choice, words
    assert defs <= while_broken and "fresh_score" not in while_broken  # the last text that loaded
    assert "fresh_score" in mended


def test_completion_offers_the_files_procedures(run, tmp_path):
    text = (RULESETS / "checkers.rules").read_text()
    assert "\nprocedure advance(" in text  # the file declares one, or the test would prove nothing
    uri = (tmp_path / "checkers.rules").as_uri()

    async def scenario(ed):
        await ed.open(uri, text)
        return await ed.completions(uri)

    assert "advance" in run(scenario)


def test_a_variant_is_checked_with_its_base(run, tmp_path):
    """A variant next to nothing extends a shipped game by name; its own mistake is at its line."""
    text = 'extends stacktics\n\noption size = 9\n'
    uri = (tmp_path / "big.rules").as_uri()
    found = run(lambda ed: ed.open(uri, text))
    assert found and all(d.range.start.line == 2 for d in found), found


def test_without_pygls_the_command_says_what_to_install(monkeypatch):
    """`ziggurat lsp` where pygls cannot be imported: one line naming the extra, exit 1."""
    from click.testing import CliRunner

    from ziggurat.cli.main import cli

    monkeypatch.delitem(sys.modules, "ziggurat.editor.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # import of it fails, as if not installed
    result = CliRunner().invoke(cli, ["lsp"])
    assert result.exit_code == 1, result.output
    assert "the language server needs pygls: pip install 'ziggurat[editor]'" in result.output
    assert "Traceback" not in result.output


# ---- quick edits: the server's handlers driven by hand, on a clock the test moves ---------------


class FakeClock:
    """asyncio's call_later and call_soon_threadsafe, on a clock that moves only when told."""

    class Handle:
        def __init__(self, when, fn, args):
            self.when, self.fn, self.args, self.cancelled = when, fn, args, False

        def cancel(self):
            self.cancelled = True

    def __init__(self):
        self.now, self.waiting = 0.0, []

    def call_later(self, delay, fn, *args):
        handle = self.Handle(self.now + delay, fn, args)
        self.waiting.append(handle)
        return handle

    def call_soon_threadsafe(self, fn, *args):
        return self.call_later(0, fn, *args)

    def advance(self, seconds):
        """Move the clock on, running what falls due in time order."""
        end = self.now + seconds
        while True:
            due = [h for h in self.waiting if not h.cancelled and h.when <= end]
            if not due:
                break
            h = min(due, key=lambda h: h.when)
            self.waiting.remove(h)
            self.now = max(self.now, h.when)
            h.fn(*h.args)
        self.now = end


class FakePool:
    """A worker that runs each submitted check only when the test says so."""

    def __init__(self):
        self.queued = []
        self.ran = 0

    def submit(self, fn, *args):
        future = concurrent.futures.Future()
        self.queued.append((future, fn, args))
        return future

    def finish(self):
        while self.queued:
            future, fn, args = self.queued.pop(0)
            self.ran += 1
            future.set_result(fn(*args))


class HandDriven:
    """The server's own handlers (pygls's document bookkeeping first, as over the wire), with the
    fake clock and pool, and the diagnostics it publishes recorded as (version, diagnostics)."""

    def __init__(self):
        from ziggurat.editor.server import make_server

        self.server = make_server()
        self.server.clock, self.server.pool = self.clock, self.pool = FakeClock(), FakePool()
        self.published = []
        self.server.text_document_publish_diagnostics = lambda p: self.published.append((p.version, p.diagnostics))
        self.notify(lsp.INITIALIZE, lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))

    def notify(self, method, params):
        """Run pygls's built-in handler of `method`, and the server's handlers it hands on to."""
        steps = self.server.protocol.fm.builtin_features[method](params)
        if not inspect.isgenerator(steps):
            return
        try:
            fn, args, kwargs = next(steps)
            while True:
                fn, args, kwargs = steps.send(fn(*args, **(kwargs or {})))
        except StopIteration:
            pass

    def open(self, uri, text):
        self.notify(lsp.TEXT_DOCUMENT_DID_OPEN, lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="rules", version=1, text=text)))

    def change(self, uri, text, version):
        self.notify(lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    def settle(self):
        """Let every wait run out and every check finish."""
        while True:
            self.clock.advance(10)
            if not self.pool.queued:
                break
            self.pool.finish()


def test_quick_edits_are_checked_once_they_pause(tmp_path):
    """30 edits 0.05 s apart (faster than the server's wait): the text is checked at the open and
    once after the last edit, and that check's diagnostics are the last text's (its error on the
    line that edit added), published with its version. Each edit used to be checked in turn."""
    good = (RULESETS / "clobber.rules").read_text()
    uri = (tmp_path / "clobber.rules").as_uri()
    ed = HandDriven()
    ed.open(uri, good)
    ed.settle()
    assert ed.published == [(1, [])]
    for version in range(2, 32):
        ed.change(uri, good + "\n" * (version - 1) + "action broken\n", version)
        ed.clock.advance(0.05)
        ed.pool.finish()
    ed.settle()
    last_line = len(good.splitlines()) + 30
    assert [(v, [d.range.start.line for d in ds]) for v, ds in ed.published] == [(1, []), (31, [last_line])]
    assert ed.pool.ran == 2


def test_a_check_of_a_text_changed_since_publishes_nothing(tmp_path):
    """A check under way when the text changes again: it publishes nothing, and the newer text is
    checked once it ends."""
    good = (RULESETS / "clobber.rules").read_text()
    uri = (tmp_path / "clobber.rules").as_uri()
    ed = HandDriven()
    ed.open(uri, good)
    ed.settle()
    ed.change(uri, good + "action broken\n", 2)
    ed.clock.advance(10)  # the wait runs out: the check of version 2 starts
    assert len(ed.pool.queued) == 1
    ed.change(uri, good, 3)  # changed back while it runs
    ed.clock.advance(10)  # the next wait runs out too, while version 2 is still being checked
    ed.settle()
    assert [v for v, _ in ed.published] == [1, 3] and ed.published[-1][1] == []
    assert ed.pool.ran == 3
