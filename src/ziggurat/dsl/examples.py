"""Examples and symmetries of a ruleset: which the model keeps, and the checks that need no game.

`example "NAME":` and `symmetry "NAME":` are checked by `ziggurat test` (ziggurat.proptest.examples
and .symmetry), never compiled: they are not part of the game's plan, so they change no perft,
record or generated module. They describe the file that declares them: a variant (a file that
`extends` another) has its own, and does not inherit its base's, whose options may not be its own.

What can be checked without playing is checked here, with the rest of `ziggurat check`: an
example names each of its lines once, has something to expect, names declared options and
players; a symmetry's parts are known words, one board map at most, and each swap exchanges two
players or two values of one attribute. Whether a move or a position text can be read, and
whether the expectations hold, is for `ziggurat test`.
"""

from __future__ import annotations

from . import example_syntax as syntax
from ..errors import did_you_mean

EXPECTATIONS = ("legal", "illegal", "moves", "outcome", "perft", "points", "seats", "turn", "odds")
ONCE = ("options", "position", "after")
OUTCOMES = ("win", "lose", "draw", "none")
MAX_PERFT_DEPTH = 6  # an example's perft stays quick: a deeper count belongs in tests/perft

# The board maps a symmetry may name: (first word, second word) -> description.
BOARD_MAPS = {
    ("mirror", "files"): "left and right exchanged (file a with the last file)",
    ("mirror", "ranks"): "top and bottom exchanged (rank 1 with the last rank)",
    ("mirror", "diagonal"): "files and ranks exchanged (a square board)",
    ("rotate", "90"): "a quarter turn clockwise (a square board)",
    ("rotate", "180"): "a half turn",
    ("rotate", "270"): "a quarter turn anticlockwise (a square board)",
}


def declared(model) -> tuple[list, list]:
    """(examples, symmetries) the model's last file declares (see the module's note on variants)."""
    last = model.files[-1] if model.files else None
    mine = [d for d in model.examples if model.reporter_for(d).path == last]
    return ([d for d in mine if isinstance(d, syntax.Example)], [d for d in mine if isinstance(d, syntax.Symmetry)])


def check(model) -> None:
    """Report what is wrong with the examples and symmetries of the model's last file (a base's
    are checked with the base, against its own players and options)."""
    names: dict = {}
    examples, symmetries = declared(model)
    for d in examples + symmetries:
        rep = model.reporter_for(d)
        kind = "example" if isinstance(d, syntax.Example) else "symmetry"
        first = names.get((kind, d.name, rep.path))
        if first is not None:
            rep.error(d.pos, f"{kind} {d.name!r} is declared twice", hint=f"the first is on line {first.pos.line}")
        names.setdefault((kind, d.name, rep.path), d)
        if isinstance(d, syntax.Example):
            _check_example(model, d, rep)
        else:
            _check_symmetry(model, d, rep)


def _check_example(model, d: syntax.Example, rep) -> None:
    seen: dict = {}
    for item in d.items:
        if item.kind in ONCE and item.kind in seen:
            rep.error(item.pos, f"example {d.name!r} gives '{item.kind}' twice",
                      hint=f"the first is on line {seen[item.kind].pos.line}; write one line")
        seen.setdefault(item.kind, item)
        if item.kind == "options":
            given = set()
            for name, _ in item.values:
                if name not in model.options:
                    rep.error(item.pos, f"example {d.name!r}: no option {name!r}",
                              hint=did_you_mean(name, model.options) or "options: NAME = VALUE, for declared options")
                if name in given:
                    rep.error(item.pos, f"example {d.name!r} sets option {name!r} twice")
                given.add(name)
        elif item.kind == "outcome":
            _check_outcome(model, d, item, rep)
        elif item.kind == "points":
            _check_names(model, d, item, rep, [who for who, _ in item.values[1]], "points")
        elif item.kind == "seats":
            _check_seats(model, d, item, rep)
        elif item.kind == "odds":
            for _move, n, d_ in item.values[1]:
                if d_ == 0 or n > d_:
                    rep.error(item.pos, f"example {d.name!r}: {n}/{d_} is not a probability",
                              expected="N/D with D > 0 and N <= D")
        elif item.kind == "turn":
            _check_names(model, d, item, rep, [item.values[1]], "turn")
        elif item.kind == "perft" and not 1 <= item.values[0] <= MAX_PERFT_DEPTH:
            rep.error(item.pos, f"example {d.name!r}: perft depth {item.values[0]} is out of range",
                      expected=f"a depth from 1 to {MAX_PERFT_DEPTH}")
    if not any(item.kind in EXPECTATIONS for item in d.items):
        rep.error(d.pos, f"example {d.name!r} expects nothing",
                  hint="add a line: legal, illegal, moves, outcome, perft, points, seats, turn or odds")


def _check_names(model, d: syntax.Example, item: syntax.ExampleItem, rep, names: list, line: str) -> bool:
    """Each name a player, none twice; False (and each reported at the line) when not."""
    ok = True
    for i, who in enumerate(names):
        if model.players and who not in model.players:
            rep.error(item.pos, f"example {d.name!r}: {who!r} in '{line}' is not a player",
                      expected="one of " + ", ".join(model.players), hint=did_you_mean(who, model.players))
            ok = False
        elif who in names[:i]:
            rep.error(item.pos, f"example {d.name!r} names {who!r} twice in '{line}'")
            ok = False
    return ok


def _check_seats(model, d: syntax.Example, item: syntax.ExampleItem, rep) -> None:
    """`seats:` gives, seat by seat, the side each plays: every player once (those seated by the
    `players` option when the game has one: that count is known only at load, so not checked here)."""
    names = list(item.values[1])
    if _check_names(model, d, item, rep, names, "seats") and "players" not in model.options \
            and model.players and len(names) != len(model.players):
        rep.error(item.pos, f"example {d.name!r}: 'seats' names {len(names)} of the {len(model.players)} players",
                  expected="seat by seat, the side each plays: " + ", ".join(model.players))


def _check_outcome(model, d: syntax.Example, item: syntax.ExampleItem, rep) -> None:
    _moves, kind, who, _reason = item.values
    if kind not in OUTCOMES:
        rep.error(item.pos, f"example {d.name!r}: {kind!r} is not an outcome",
                  expected="win PLAYER, lose PLAYER, draw or none", hint=did_you_mean(kind, OUTCOMES))
    elif kind in ("win", "lose") and who is None:
        rep.error(item.pos, f"example {d.name!r}: '{kind}' names the player", expected=f"{kind} PLAYER")
    elif kind in ("draw", "none") and who is not None:
        rep.error(item.pos, f"example {d.name!r}: '{kind}' names no player", expected=f"{kind}, alone")
    elif who is not None and model.players and who not in model.players:
        rep.error(item.pos, f"example {d.name!r}: {who!r} is not a player",
                  expected="one of " + ", ".join(model.players), hint=did_you_mean(who, model.players))


def _check_symmetry(model, d: syntax.Symmetry, rep) -> None:
    board = None
    swapped: set = set()
    for part in d.parts:
        words = part.words
        if words[0] in ("mirror", "rotate"):
            if tuple(words) not in BOARD_MAPS:
                known = [" ".join(k) for k in BOARD_MAPS]
                rep.error(part.pos, f"symmetry {d.name!r}: {' '.join(words)!r} is not a map of the board",
                          expected=", ".join(known), hint=did_you_mean(" ".join(words), known))
                continue
            if board is not None:
                rep.error(part.pos, f"symmetry {d.name!r} maps the board twice ({' '.join(board)} and "
                                    f"{' '.join(words)})", hint="a symmetry has one map of the board at most")
            board = board or tuple(words)
        elif words[0] == "swap":
            if len(words) != 3:
                rep.error(part.pos, f"symmetry {d.name!r}: a swap exchanges two names", expected="swap A B")
                continue
            a, b = words[1], words[2]
            kinds = [_value_kind(model, w) for w in (a, b)]
            if None in kinds:
                bad = (a, b)[kinds.index(None)]
                known = list(model.players) + list(model.value_names())
                rep.error(part.pos, f"symmetry {d.name!r}: {bad!r} is neither a player nor a value of a piece "
                                    "attribute", hint=did_you_mean(bad, known))
            elif kinds[0] != kinds[1] or a == b:
                rep.error(part.pos, f"symmetry {d.name!r}: swap {a} {b} exchanges two players or two values of "
                                    "one attribute")
            for w in (a, b):
                if w in swapped:
                    rep.error(part.pos, f"symmetry {d.name!r} swaps {w!r} twice")
                swapped.add(w)
        else:
            rep.error(part.pos, f"symmetry {d.name!r}: {words[0]!r} is not a part of a symmetry",
                      expected="mirror files|ranks|diagonal, rotate 90|180|270, swap A B",
                      hint=did_you_mean(words[0], ("mirror", "rotate", "swap")))


def _value_kind(model, word: str):
    """'player' for a player, the attribute's name for one of its values, else None."""
    if word in model.players:
        return "player"
    return model.value_names().get(word)
