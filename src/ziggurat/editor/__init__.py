"""Editor support for `.rules` files: a Pygments lexer (lexer.py, the docs' and the terminal's
highlighting) and a language server (server.py: `ziggurat lsp`, pygls), with the words of the
language both use (words.py)."""
