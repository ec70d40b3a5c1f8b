"""`ziggurat lsp`: the language server for `.rules` files, on standard input and output (an editor
starts it; see docs/howto/editors.md). It needs the `editor` extra (pygls)."""

from __future__ import annotations

import click

from ..errors import ZigguratError


@click.command()
def lsp():
    """Run the language server (for editors): check's diagnostics and completion, over stdio."""
    try:
        from ..editor.server import serve_stdio  # pygls is loaded only for this command
    except ModuleNotFoundError as e:
        missing = (e.name or "").split(".")[0]
        if missing not in ("pygls", "lsprotocol", "cattrs"):
            raise
        raise ZigguratError(f"the language server needs {missing}: pip install 'ziggurat[editor]'") from None
    serve_stdio()
