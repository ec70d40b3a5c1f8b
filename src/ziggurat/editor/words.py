"""The words of the rules language, as an editor sees them: keywords, declaration words, built-in
functions and built-in names. The lexer colours them and the language server offers them for
completion.

They are written out here rather than imported from the checker so that loading the lexer (which
Pygments does for every plug-in when it looks up any language) costs nothing; tests/test_editor.py
checks that they agree with the language's own lists (dsl/words.py, dsl/resolve/calls.py, ...).
"""

from __future__ import annotations

# The words that open a declaration: at the start of a line, outside every block.
DECLARATIONS = ("game", "extends", "option", "check", "players", "board", "surface", "piece", "control", "zone",
                "counter", "directions", "table", "def", "remove", "setup", "action", "after", "end",
                "invariant", "statistic", "heuristic", "override", "example", "symmetry", "procedure", "set",
                "whole")

# The words that stand inside rules (dsl/words.py's KEYWORDS, and the few more the grammar reads in
# a declaration's header or an action's items: `per player`, `one of`, `by chance`, `may stop`, ...).
KEYWORDS = ("and", "as", "by", "def", "do", "draw", "elif", "else", "for", "if", "in", "let", "lose",
            "not", "of", "or", "otherwise", "per", "priority", "repeat", "require", "seen", "when",
            "where", "while", "win", "rank", "chance", "answer", "weight", "may", "stop", "hidden", "bookkeeping",
            "override", "one", "decline", "cleared", "each", "turn", "turns", "at", "most", "part", "parts",
            "keeping", "the", "options", "position", "legal", "illegal", "moves", "outcome", "perft",
            "points", "seats", "odds")  # an example's lines

# The words that are operators (coloured as such).
OPERATOR_WORDS = ("and", "or", "not", "in")

# The types an option may be declared with (`option seed: int = 0`).
TYPES = ("bool", "int")

# Built-in functions: of the board and its stacks, of lists, of dice, and the effects.
FUNCTIONS = (
    # the board and its stacks (dsl/resolve/calls.py: CELL_FUNCS)
    "height", "top", "bottom", "stack", "above", "below", "empty", "occupied", "controller", "mine",
    "theirs", "corner", "edge", "ray", "neighbours", "line", "step", "on_board", "distance", "flanked",
    "connected", "between", "run", "direction",
    # values, lists and folds (OTHER_FUNCS and the comprehensions' COMP_FUNCS)
    "min", "max", "sum", "count", "any", "all", "abs", "piece", "repeated", "repeated_board", "shuffled",
    "previous", "earlier", "ways", "showing", "list", "product",
    # of a set of cells (dsl/resolve/sets.py)
    "size",
)
EFFECTS = ("move", "take", "place", "swap_seats", "extra_turn", "remove", "put", "insert", "change", "add",
           "transfer", "turn_to", "clear")

# Built-in names: the board's and the turn's values, directions and direction sets, constants.
CONSTANTS = ("true", "false", "none", "unlimited")
NAMES = ("cells", "players", "mover", "ply", "files", "ranks", "no_moves", "last",
         "n", "ne", "e", "se", "s", "sw", "w", "nw", "orthogonal", "diagonal", "adjacent")
