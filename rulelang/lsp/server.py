"""`rulelang lsp`: the language server (stdio), for editors to check and navigate specs as they are typed.

It holds the text of every open document and hands it to the checks in place of
the file on disk (``overlay``). On open, change and save it checks the file as what
it is (``diagnose``) and publishes every error to the file it is in, a game's
include fragments and mods included, and clears what was fixed. Hover, go to
definition, completion and document symbols use the names of the document the
last check loaded (``index``). Text from the files is made printable before it
is sent.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path

from lsprotocol import types

from rulelang import __version__
from rulelang.errors import RulelangError, internal_error
from rulelang.lsp.diagnose import Checker, Outcome
from rulelang.lsp.index import Symbol, keywords, named_values, symbols, word_at
from rulelang.lsp.positions import from_client_column, span_range
from rulelang.printable import printable, printable_lines

try:                                            # pygls 2
    from pygls.lsp.server import LanguageServer
except ImportError:                             # pragma: no cover - pygls 1.3+
    from pygls.server import LanguageServer  # type: ignore[no-redef]
from pygls import uris

_KINDS = {"zone": types.SymbolKind.Array, "location": types.SymbolKind.Enum, "procedure": types.SymbolKind.Method,
          "function": types.SymbolKind.Function, "variable": types.SymbolKind.Variable,
          "counter": types.SymbolKind.Number, "die": types.SymbolKind.Object, "table": types.SymbolKind.Struct,
          "param": types.SymbolKind.Constant, "ruling": types.SymbolKind.String, "card": types.SymbolKind.Class,
          "role": types.SymbolKind.Interface, "trigger": types.SymbolKind.Event, "end condition": types.SymbolKind.Key,
          "step": types.SymbolKind.Module, "tag": types.SymbolKind.EnumMember,
          "card property": types.SymbolKind.Property}
_COMPLETION_KINDS = {"procedure": types.CompletionItemKind.Method, "function": types.CompletionItemKind.Function,
                     "variable": types.CompletionItemKind.Variable, "card": types.CompletionItemKind.Class,
                     "ruling": types.CompletionItemKind.Reference, "step": types.CompletionItemKind.Module,
                     "card property": types.CompletionItemKind.Property}


def path_of(uri: str) -> Path | None:
    """The real path of a file URI (None for other schemes: an unsaved buffer is not part of a game)."""
    fs_path = uris.to_fs_path(uri)
    return Path(os.path.realpath(fs_path)) if fs_path and uri.startswith("file:") else None


class RulelangLanguageServer(LanguageServer):
    """pygls' server plus what the last check of each file found."""

    def __init__(self) -> None:
        super().__init__("rulelang", __version__)
        self.checker = Checker()
        self.names: dict[Path, list[Symbol]] = {}        # the names in scope for each checked file
        self.reported: dict[Path, set[str]] = {}         # the files each file's check published to

    # -- checking ------------------------------------------------------------------------------

    def check_and_publish(self, path: Path) -> None:
        try:
            outcome = self.checker.check(path)
        except Exception as error:      # a bug of rulelang must not stop the server: say it on the file
            logging.exception("checking %s", path)
            outcome = Outcome([RulelangError(internal_error(error))])
        if outcome.doc is not None:
            self.names[path] = symbols(outcome.doc)
        else:                           # keep the names of the last check that loaded (none yet: none)
            self.names.setdefault(path, [])
        by_file: dict[str, list[types.Diagnostic]] = {name: [] for name in outcome.files | {str(path)}}
        for problem in outcome.errors:
            file = problem.span.file if problem.span is not None and problem.span.file else str(path)
            by_file.setdefault(file, []).append(self.diagnostic(problem, file))
        for stale in self.reported.get(path, set()) - set(by_file):
            by_file[stale] = []
        self.reported[path] = {name for name, found in by_file.items() if found}
        for file, found in by_file.items():
            self.publish(uris.from_fs_path(file), found)

    def publish(self, uri: str, found: list[types.Diagnostic]) -> None:
        if hasattr(self, "text_document_publish_diagnostics"):      # pygls 2
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found))
        else:                                                       # pragma: no cover - pygls 1.3+
            self.publish_diagnostics(uri, found)

    def diagnostic(self, error: RulelangError, file: str) -> types.Diagnostic:
        words = [error.message] + [f"hint: {error.hint}"] * bool(error.hint) + [f"note: {n}" for n in error.notes]
        severity = types.DiagnosticSeverity.Warning if error.kind == "warning" else types.DiagnosticSeverity.Error
        return types.Diagnostic(range=span_range(error.span, lambda number: self.line_of(file, number)),
                                message=printable_lines(words), severity=severity, source="rulelang")

    def line_of(self, file: str, number: int) -> str | None:
        """Line ``number`` (1-based) of a file as the checks read it: the editor's text, else the disk's."""
        lines = self.checker.text_of(Path(file)).splitlines()
        return lines[number - 1] if 0 < number <= len(lines) else None

    # -- names ---------------------------------------------------------------------------------

    def names_for(self, path: Path) -> list[Symbol]:
        if path not in self.names:
            self.check_and_publish(path)
        return self.names.get(path, [])

    def symbol_at(self, uri: str, position: types.Position) -> Symbol | None:
        """The declaration of the name under the cursor (a step's name may be a whole value, spaces and all)."""
        path = path_of(uri)
        if path is None:
            return None
        lines = self.workspace.get_text_document(uri).lines
        if position.line >= len(lines):
            return None
        line = lines[position.line].rstrip("\r\n")
        word = word_at(line, from_client_column(line, position.character))
        by_name: dict[str, Symbol] = {}
        for symbol in self.names_for(path):
            by_name.setdefault(symbol.name, symbol)
        stem = word.split("-")[0] if word else None        # `x-1` in a rule text: the name is x
        for candidate in (word, stem, *named_values(line)):
            if candidate in by_name:
                return by_name[candidate]
        return None


def location_of(symbol: Symbol, line_text) -> types.Location:
    return types.Location(uri=uris.from_fs_path(symbol.span.file), range=span_range(symbol.span, line_text))


def build_server() -> RulelangLanguageServer:
    server = RulelangLanguageServer()

    def recheck(uri: str, text: str | None) -> None:
        path = path_of(uri)
        if path is not None:
            server.checker.set_text(path, text)
            server.check_and_publish(path)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulelangLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        recheck(params.text_document.uri, params.text_document.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulelangLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        recheck(uri, ls.workspace.get_text_document(uri).source)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulelangLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        recheck(uri, ls.workspace.get_text_document(uri).source)     # the files not open may have changed too

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulelangLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        recheck(params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulelangLanguageServer, params: types.HoverParams) -> types.Hover | None:
        symbol = ls.symbol_at(params.text_document.uri, params.position)
        if symbol is None:
            return None
        text = printable_lines(symbol.hover.split("\n"))
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulelangLanguageServer, params: types.DefinitionParams) -> types.Location | None:
        symbol = ls.symbol_at(params.text_document.uri, params.position)
        return location_of(symbol, lambda n: ls.line_of(symbol.span.file, n)) if symbol is not None else None

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulelangLanguageServer, params: types.CompletionParams) -> types.CompletionList:
        path = path_of(params.text_document.uri)
        names = ls.names_for(path) if path is not None else []
        return types.CompletionList(is_incomplete=False, items=list(completion_items(names)))

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RulelangLanguageServer,
                        params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        path = path_of(params.text_document.uri)
        if path is None:
            return []
        return [document_symbol_of(s, lambda n, s=s: ls.line_of(s.span.file, n))
                for s in ls.names_for(path) if s.span.file == str(path)]

    return server


def completion_items(names: Iterable[Symbol]) -> Iterable[types.CompletionItem]:
    """The names in scope (once each, first declaration wins), then the language's own words."""
    seen: set[str] = set()
    for symbol in names:
        if symbol.name not in seen:
            seen.add(symbol.name)
            yield types.CompletionItem(label=printable(symbol.name), detail=symbol.kind,
                                       kind=_COMPLETION_KINDS.get(symbol.kind, types.CompletionItemKind.Value))
    for word in keywords():
        if word not in seen:
            yield types.CompletionItem(label=word, kind=types.CompletionItemKind.Keyword, detail="keyword")


def document_symbol_of(symbol: Symbol, line_text) -> types.DocumentSymbol:
    where = span_range(symbol.span, line_text)
    return types.DocumentSymbol(name=printable(symbol.name) or "(no name)", kind=_KINDS.get(symbol.kind, types.SymbolKind.Key),
                                range=where, selection_range=where, detail=symbol.kind)


def main() -> int:
    """Serve on stdin and stdout until the editor says exit."""
    build_server().start_io()
    return 0
