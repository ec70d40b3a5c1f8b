"""Reading what a person types at a terminal, with prompt_toolkit: line editing, history (Up and
Down, Ctrl-R to search it, earlier lines suggested in grey as you type: Right takes the suggestion)
and Tab completion of the words it is given (commands and legal moves). The whole line is one word,
since moves may hold spaces (`d1-a1 starve a1:red`); Tab writes out the only completion, or the
part all completions share, and a second Tab lists them in columns, as readline does.

`ziggurat play` uses it when both standard input and output are a terminal; piped input is read
line by line without it.
"""

from __future__ import annotations

from typing import Callable, Optional

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.shortcuts import CompleteStyle


class LineReader:
    """One prompt session (and so one history) for a whole game. `words` is asked for the words
    to complete each time Tab is pressed. `input` and `output` are prompt_toolkit's (the terminal
    when None; tests give a pipe input and a dummy output)."""

    def __init__(self, words: Callable[[], list], input=None, output=None):
        self.session = PromptSession(history=InMemoryHistory(), auto_suggest=AutoSuggestFromHistory(),
                                     completer=WordCompleter(words, sentence=True),
                                     complete_style=CompleteStyle.READLINE_LIKE, input=input, output=output)

    def read(self, prompt: str) -> Optional[str]:
        """The next line (without its newline), or None at the end of input (Ctrl-D)."""
        try:
            return self.session.prompt(prompt)
        except EOFError:
            return None
