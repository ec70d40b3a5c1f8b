"""The language server for `.rules` files (`ziggurat lsp`), over the Language Server Protocol with
pygls: an editor that opens or changes a ruleset is sent `ziggurat check`'s diagnostics for it
(every error and warning, at its line and column, with what was expected and the hint), and asking
for completion offers the language's words, its built-in functions and names, and the names the
ruleset itself declares (defs, tables, options, zones, players, piece values, choices, ...).

The server checks the text the editor holds, not the file on disk, and a variant is checked with
the base it extends (found next to the file, or among the shipped games): a mistake in the base is
reported at the variant's first line, with the base's file, line and column in its message. A
document is checked when it is opened or saved, and after a change once the edits pause, off the
event loop; a check of a text that has changed since publishes nothing (schedule.py).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from ..dsl import ast
from ..dsl.checks import check
from ..dsl.loader import load_model
from ..errors import ZigguratError
from ..version import __version__
from . import words as W
from .schedule import CheckSchedule

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


def diagnostics(path: str, text: str) -> list:
    """`ziggurat check`'s diagnostics for `text` (the ruleset at `path`), as LSP diagnostics whose
    positions count characters (0-based lines and columns)."""
    out = []
    for d in check(path, text):
        message = d.message
        if d.expected:
            message += f"\nexpected {d.expected}"
        if d.hint:
            message += f"\nhint: {d.hint}"
        if d.path == path and d.line:
            start = lsp.Position(d.line - 1, max(d.col - 1, 0))
            end = lsp.Position(d.line - 1, start.character + max(d.width, 1))
        else:  # in the base a variant extends, or about the whole file: shown at its start
            start = end = lsp.Position(0, 0)
            if d.path != path:
                message = f"{d.path}:{d.line}:{d.col}: {message}" if d.line else f"{d.path}: {message}"
        out.append(lsp.Diagnostic(lsp.Range(start, end), message, severity=SEVERITY.get(
            d.severity, lsp.DiagnosticSeverity.Information), source="ziggurat"))
    return out


def declared_names(path: str, text: str) -> list:
    """(name, completion kind, detail) for every name the ruleset declares, its base's included;
    None when the text does not load (it does not parse, or its base cannot be found)."""
    try:
        m = load_model(path, text)
    except ZigguratError:
        return None
    K = lsp.CompletionItemKind
    out = [(name, K.Function, f"def {name}({', '.join(d.params)})") for name, d in m.defs.items()]
    out += [(name, K.Method, f"procedure {name}({', '.join(d.params)})") for name, d in m.procedures.items()]
    out += [(name, K.Struct, "table") for name in m.tables]
    out += [(name, K.Constant, "option") for name in m.options]
    out += [(name, K.Variable, "zone") for name in m.zones]
    out += [(name, K.Variable, "counter") for name in m.counters]
    out += [(name, K.EnumMember, "directions") for name in m.directions]
    out += [(name, K.EnumMember, "player") for name in m.players]
    out += [(name, K.Property, "piece attribute") for name in m.attributes]
    out += [(name, K.EnumMember, f"a value of {attr}") for name, attr in m.value_names().items()]
    out += [(name, K.Event, "action") for name in m.actions]
    for action in m.actions.values():  # what the actions bind: their choices, lets and loops
        for node in ast.walk(action):
            if isinstance(node, ast.Choice):
                out.append((node.name, K.Variable, f"choice of {action.name}"))
            elif isinstance(node, ast.Let):
                out.append((node.name, K.Variable, f"let in {action.name}"))
            elif isinstance(node, ast.Repeat):
                out.append((node.var, K.Variable, f"repeat in {action.name}"))
    return out


def language_names() -> list:
    """(name, completion kind, detail) for the words and built-in names of the language."""
    K = lsp.CompletionItemKind
    out = [(w, K.Keyword, "declaration") for w in W.DECLARATIONS]
    out += [(w, K.Keyword, "keyword") for w in W.KEYWORDS + W.TYPES if w not in W.DECLARATIONS]
    out += [(w, K.Function, "built-in function") for w in W.FUNCTIONS]
    out += [(w, K.Function, "effect") for w in W.EFFECTS if w not in W.FUNCTIONS]
    out += [(w, K.Constant, "built-in name") for w in W.CONSTANTS + W.NAMES]
    return out


def completion_items(own: list) -> list:
    """Completion items: the ruleset's own names first, then the language's; one item a name."""
    seen, items = set(), []
    for rank, group in enumerate((own or [], language_names())):
        for name, kind, detail in group:
            if name not in seen:
                seen.add(name)
                items.append(lsp.CompletionItem(name, kind=kind, detail=detail, sort_text=f"{rank}{name}"))
    return items


def examine(what: tuple) -> tuple:
    """(LSP diagnostics, declared names) of (path, text): the work of one check, done off the loop."""
    path, text = what
    return diagnostics(path, text), declared_names(path, text)


class RulesServer(LanguageServer):
    """A pygls server that keeps, per open document, the names of its last text that loaded (so
    completion still offers them while the text being typed does not parse). `clock` and `pool`
    (the event loop and one worker thread unless set) run the checks (schedule.py)."""

    def __init__(self):
        super().__init__("ziggurat", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.names: dict = {}
        self.clock = self.pool = None
        self._schedule: CheckSchedule = None

    @property
    def schedule(self) -> CheckSchedule:
        if self._schedule is None:
            self._schedule = CheckSchedule(self.snapshot, examine, self.publish,
                                           self.clock or asyncio.get_running_loop(),
                                           self.pool or ThreadPoolExecutor(1, thread_name_prefix="ziggurat-check"))
        return self._schedule

    def snapshot(self, uri: str):
        """(version, (path, text)) of an open document; None once it is closed."""
        doc = self.workspace.text_documents.get(uri)
        return None if doc is None else (doc.version, (doc.path, doc.source))

    def publish(self, uri: str, version, result: tuple) -> None:
        found, names = result
        doc = self.workspace.get_text_document(uri)
        for d in found:  # characters to the editor's units (UTF-16 by default)
            d.range = doc.range_to_client_units(ServerTextRange(
                ServerTextPosition(d.range.start.line, d.range.start.character),
                ServerTextPosition(d.range.end.line, d.range.end.character)))
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, found, version=version))
        if names is not None:
            self.names[uri] = names


def make_server() -> RulesServer:
    """A fresh language server with its features registered."""
    server = RulesServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams):
        ls.schedule.changed(params.text_document.uri, delay=0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams):
        ls.schedule.changed(params.text_document.uri)  # once the edits pause

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams):
        ls.schedule.changed(params.text_document.uri, delay=0)  # a base saved elsewhere may change what this says

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams):
        ls.schedule.closed(params.text_document.uri)
        ls.names.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
    def completion(ls: RulesServer, params: lsp.CompletionParams):
        return lsp.CompletionList(is_incomplete=False, items=completion_items(ls.names.get(params.text_document.uri)))

    return server


def serve_stdio() -> None:
    """Run the server on standard input and output until the editor asks it to exit."""
    make_server().start_io()
