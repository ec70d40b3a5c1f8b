"""The examples and symmetries a ruleset declares, checked: `run_examples(game)` and
`run_symmetries(game)` give the list of what does not hold (empty when all hold), as
`RulesFailure`s that point at the line; `ziggurat test` runs both before its random games.

An example runs at its ruleset's default options and the ones it names (`options:`), whatever
options `game` was loaded at; it starts from `position:` (position text, or the start) and plays
`after:` (moves in notation, separated by spaces). Then each expectation is checked:

- `legal: "M", ...`: each move is legal;
- `illegal: "M", ...`: each is read as a move of the game (a misspelt move is a failure, not a
  pass) and is not legal;
- `moves: N`: there are N legal moves (none once the game is over);
- `outcome [after "M ..."]: win P | lose P | draw | none ["REASON"]`: the outcome, after the moves
  given (none: the game goes on); each side's result is compared, and the reason if given;
- `perft D: N`: N leaves of the move tree to depth D;
- `points [after "M ..."]: P N, ...`: the game is over and each side named scored N (what a
  `win P by K` is worth, or the first key of `rank by`);
- `seats [after "M ..."]: P, ...`: seat by seat (the first to move first), the side each plays,
  as the position text's `seats=` field gives it (changed by `swap_seats`, the pie rule);
- `turn [after "M ..."]: P`: P is to move (whose turn it is, as the position text's first word);
- `odds [after "M ..."]: "M" N/D, ...`: nature is to move, and M is its move with probability N/D
  (the move's weight over the sum of the weights, or one over the number of moves).

Symmetries are checked at `game`'s options, at every position of a few seeded random games (a
quarter turn or a diagonal mirror only where the board is square).
"""

from __future__ import annotations

from typing import Optional

from ..errors import GameError, RulesetError
from ..interpreter.runtime import Game, State, perft
from .report import RulesFailure
from .symmetry import NotApplicable, SymmetryMap, check_symmetries

MAX_MOVE_WORDS = 8  # a move's text may hold spaces: `after:` reads the longest that is a legal move


def declarations(game: Game) -> tuple[list, list]:
    """(examples, symmetries) of the ruleset `game` was compiled from (read from `game.rules`)."""
    if not game.rules:
        return [], []
    from ..dsl.examples import declared
    from ..dsl.loader import load_model

    return declared(load_model(game.rules[-1][0], chain=game.rules))


def run_examples(game: Game, examples: Optional[list] = None, *, stop: bool = False) -> list:
    """Every expectation of the ruleset's examples (or of `examples`, some of them) that does not
    hold (RulesFailure), in file order; with `stop`, only the first example's that fails."""
    out: list = []
    for ex in declarations(game)[0] if examples is None else examples:
        out += run_example(game, ex)
        if stop and out:
            break
    return out


def by_options(game: Game) -> list:
    """The ruleset's examples in groups that share their `options:` line, each group in file
    order: first those at the defaults (no `options:` line), then the others in the order they
    first appear. Each group compiles one game, so a caller that stops at the first failure (a
    mutation run) compiles only the option sets it gets to."""
    groups: dict = {(): []}
    for ex in declarations(game)[0]:
        line = next((i for i in ex.items if i.kind == "options"), None)
        key = tuple(sorted((k, str(v)) for k, v in line.values)) if line is not None else ()
        groups.setdefault(key, []).append(ex)
    return [g for g in groups.values() if g]


def run_symmetries(game: Game, *, games: int = 10, max_plies: int = 60, seed: int = 0) -> list:
    """Each declared symmetry that does not hold on the positions of `games` seeded random games."""
    _, symmetries = declarations(game)
    path = game.rules[-1][0] if game.rules else game.name
    out, maps = [], []
    for sym in symmetries:
        try:
            maps.append(SymmetryMap(game, sym))
        except NotApplicable:
            continue
        except GameError as e:
            out.append(RulesFailure(path, sym.pos.line, sym.pos.col, f"symmetry {sym.name!r}", str(e)))
    for sym, moves, position, why in check_symmetries(game, maps, games=games, max_plies=max_plies, seed=seed):
        out.append(RulesFailure(path, sym.decl.pos.line, sym.decl.pos.col, f"symmetry {sym.name!r}", why,
                                position, tuple(moves)))
    return out


def count(game: Game) -> tuple[int, int]:
    """(examples, symmetries) declared."""
    examples, symmetries = declarations(game)
    return len(examples), len(symmetries)


class _Failed(Exception):
    """An example cannot go on (its options, position or moves cannot be read)."""


def run_example(game: Game, ex) -> list:
    """What does not hold of one example (an ast.Example of `game`'s ruleset)."""
    path, text = game.rules[-1]
    failures: list = []
    where = {"position": ""}

    def fail(item, message: str) -> None:
        failures.append(RulesFailure(path, item.pos.line, item.pos.col, f"example {ex.name!r}", message,
                                     where["position"]))

    items = {i.kind: i for i in ex.items}
    try:
        g = _game(game, path, text, items.get("options"))
        state = _start(g, items.get("position"))
        where["position"] = state.text()
        if "after" in items:
            _play(state, items["after"].values[0])
            where["position"] = state.text()
    except (GameError, RulesetError) as e:  # a rule that fails while the example is set up
        fail(ex, f"the rules failed: {e}")
        return failures
    except _Failed as e:
        where["position"] = state.text() if "state" in locals() else ""
        item = next(i for i in ex.items if i.kind == e.args[1])
        fail(item, e.args[0])
        return failures
    for item in ex.items:
        try:
            why = _expectation(state, item)
        except (GameError, RulesetError) as e:  # a rule that fails as the game is played (a broken ruleset)
            why = f"the rules failed: {e}"
        if why is not None:
            fail(item, why)
    return failures


def _game(game: Game, path: str, text: str, item) -> Game:
    from ..interpreter.games import load

    options = {k: str(v) for k, v in item.values} if item is not None else {}
    try:  # at the defaults, the game is the one in memory: nothing is compiled again
        return load(path, options, text=text)
    except (GameError, RulesetError) as e:
        raise _Failed(f"the options do not load: {e}", "options") from None


def _start(game: Game, item) -> State:
    try:
        return game.position(item.values[0]) if item is not None else game.new()
    except GameError as e:
        raise _Failed(f"the position cannot be read: {e}", "position") from None


def _play(state: State, moves: str, kind: str = "after") -> None:
    """Play the moves written in `moves` (separated by spaces; a move's own text may hold spaces)."""
    words = moves.split()
    i = 0
    while i < len(words):
        error: Optional[str] = None
        for k in range(min(MAX_MOVE_WORDS, len(words) - i), 0, -1):
            try:
                move = state.parse_move(" ".join(words[i:i + k]))
            except GameError as e:  # (a RulesetError, a rule failing, ends the example)
                if k == 1:
                    error = str(e)
                continue
            state.push(move)
            i += k
            break
        else:
            raise _Failed(f"move {i + 1} of {len(words)} ({words[i]!r}) cannot be played: {error}", kind)


def _expectation(state: State, item) -> Optional[str]:
    """Why an expectation line does not hold at `state`, or None."""
    kind, values = item.kind, item.values
    if kind == "legal":
        bad = []
        for m in values:
            try:
                state.parse_move(m)
            except GameError as e:
                bad.append(f"{m!r} is not legal: {e}")
        return "; ".join(bad) or None
    if kind == "illegal":
        bad = []
        for m in values:
            read = state.game.read_moves(m)
            if not read:
                bad.append(f"{m!r} is not a move of this game, so it says nothing")
            elif any(x in state.legal_moves for x in read):
                bad.append(f"{m!r} is legal")
        return "; ".join(bad) or None
    if kind == "moves":
        moves = state.moves()
        if len(moves) != values[0]:
            shown = sorted(state.move_text(m) for m in moves)
            listing = ", ".join(shown[:40]) + (f" and {len(shown) - 40} more" if len(shown) > 40 else "")
            return f"expected {values[0]} legal moves, found {len(moves)}: {listing or '(none)'}"
        return None
    if kind == "perft":
        depth, want = values
        got = perft(state, depth)
        return None if got == want else f"expected perft {depth} = {want}, found {got}"
    if kind == "outcome":
        return _outcome(state, item)
    if kind in _AFTER_LINES:
        moves, want = item.values
        try:
            st = _after(state, moves)
        except _Failed as e:
            return e.args[0]
        return _AFTER_LINES[kind](st, want, f"\n  after:    {st.text()}" if moves else "")
    return None


def _odds(st: State, want, at: str) -> Optional[str]:
    odds = st.game.chance_outcomes(st)
    if odds is None:
        return "expected odds of nature's moves, but a player is to move, not chance" + at
    bad = []
    for text, n, d in want:
        try:
            move = st.parse_move(text)
        except GameError as e:
            bad.append(f"{text!r} is not one of nature's moves: {e}")
            continue
        p = next((p for m, p in odds if m == move), 0.0)
        if abs(p - n / d) > 1e-9:
            bad.append(f"{text!r} has probability {p:.6g}, not {n}/{d} ({n / d:.6g})")
    return "; ".join(bad) + at if bad else None


def _turn(st: State, want, at: str) -> Optional[str]:
    side = st.game.players[st.side]
    if side != want:
        return f"expected {want} to move, found {side}" + at
    return None


def _after(state: State, moves: Optional[str]) -> State:
    """`state`, or a copy of it after `moves` (an `after` of an outcome, points or seats line)."""
    if not moves:
        return state
    st = state.copy()
    _play(st, moves, "outcome")
    return st


def _points(st: State, want, at: str) -> Optional[str]:
    out = st.outcome()
    players = list(st.game.players)
    shown = ", ".join(f"{p} {n}" for p, n in want)
    if out is None:
        return f"expected points {shown}, found none: the game goes on" + at
    if not out.scores:
        return f"expected points {shown}, found none: the game ended ({out.kind.value}) without points" + at
    bad = [f"{p} {out.scores[players.index(p)]:g}" for p, n in want
           if p in players and out.scores[players.index(p)] != n]
    missing = [p for p, _ in want if p not in players]
    if missing:
        return f"expected points of {', '.join(missing)}, who do not play at these options" + at
    if bad:
        found = ", ".join(f"{p} {n:g}" for p, n in zip(players, out.scores))
        return f"expected points {shown}, found {found}" + at
    return None


def _seats(st: State, want, at: str) -> Optional[str]:
    players = list(st.game.players)
    by_seat = [players[side] for side in sorted(range(len(players)), key=lambda side: st.seats[side])]
    if list(want) != by_seat:
        return f"expected seats {', '.join(want)}, found {', '.join(by_seat)} (seat by seat, the side each plays)" + at
    return None


# The lines read at the position after their own moves (`KIND [after "MOVES"]: ...`): each gets that
# state, what the line wants, and the note naming the position when moves were played.
_AFTER_LINES = {"points": _points, "seats": _seats, "turn": _turn, "odds": _odds}


def _outcome(state: State, item) -> Optional[str]:
    moves, kind, who, reason = item.values
    try:
        st = _after(state, moves)
    except _Failed as e:
        return e.args[0]
    out = st.outcome()
    players = list(state.game.players)
    n = len(players)
    if kind == "none":
        want = None
    elif kind == "draw":
        want = tuple(0.5 for _ in range(n))
    else:
        p = players.index(who)
        want = tuple((1 if i == p else 0) if kind == "win" else (0 if i == p else 1) for i in range(n))
    got = None if out is None else tuple(out.results)
    shown = "none (the game goes on)" if out is None else \
        f"{out.kind.value} " + ", ".join(f"{q}={r}" for q, r in zip(players, out.results)) + \
        (f" ({out.reason})" if out.reason else "")
    expected = f"{kind}{' ' + who if who else ''}" + (f" ({reason})" if reason else "")
    if got != want or (reason is not None and out is not None and out.reason != reason):
        return f"expected {expected}, found {shown}" + (f"\n  after:    {st.text()}" if moves else "")
    return None

