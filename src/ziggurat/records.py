"""Game records: a whole game as text (ruleset, options, seed, players, result, moves), and replay.

A record is a header of `key: value` lines, a blank line, then one move per line:

    # Ziggurat game record
    ruleset: mygame
    options: size=3 narrow=false loaded=2 pie=false repetition=true ply_cap=300
    seed: 7
    start: start
    agent.south: human
    agent.north: mcts:iterations=200
    result: south wins
    reason: captured half the enemy force
    plies: 41
    final: north 41 | ... (the position text after the last move)
    date: 2025-06-01

    1. south b1:3-b3
    2. north c5:1-b4
    ...

Header keys: `ruleset` (a shipped name or a path), `options` (every option, NAME=VALUE separated by
spaces), `seed` (of the random setup; `none` for none), `start` (`start` or a position text),
`agent.<side>` (who played the seat that began as that side: `human` or an agent spec), `result`
(`<side> wins`, `<side> loses`, `draw`, `draw between <side>, <side>` or `unfinished`), `reason`
(the deciding rule's words), `scores` (per side, when the outcome ranks the players by score or the results are points),
`plies`, `final` (the position text at the end) and `date`; lines starting with `#` are comments.
`ruleset` and `plies` are required (a record cut short before its moves is refused, not read
as a game of no moves). Each move line is `<number>. <side> <move>`: the number counts plies
from 1, the side is the one to move (a check while replaying), the move is in the game's notation.

`replay(record)` plays the record from its start, checking that every move is legal, that each
move's side is the side to move, and that the result and final position are the recorded ones;
`RecordError` (a GameError) names the first line that does not hold.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Iterator, Optional

from attrs import define, field

from .errors import GameError, RecordError, shown  # noqa: F401 (RecordError: re-exported)
from .outputs import write_text

HEADER_ORDER = ("ruleset", "options", "seed", "start", "result", "reason", "scores", "plies", "final",
                "date")
_HEADER = re.compile(r"^([a-z_]+(?:\.[A-Za-z0-9_]+)?):[ \t]*(.*)$")
_MOVE = re.compile(r"^(\d+)\.\s+(\S+)\s+(.+?)\s*$")


@define
class Record:
    """One game: where it starts, the moves in notation, and how it ended."""

    ruleset: str
    options: dict = field(factory=dict)  # name -> value text
    seed: Optional[int] = None
    start: str = "start"
    agents: dict = field(factory=dict)  # starting side -> 'human' or an agent spec
    moves: list = field(factory=list)  # move texts, in order
    sides: list = field(factory=list)  # the side that played each move
    result: str = "unfinished"
    reason: str = ""
    scores: str = ""
    final: Optional[str] = None
    date: Optional[str] = None
    source: str = "<record>"  # where it was read from, for messages
    lines: list = field(factory=list)  # file line of each move, for messages

    # ---- writing ----------------------------------------------------------------------------

    def dumps(self) -> str:
        """The record as text (see the module docstring)."""
        out = ["# Ziggurat game record", f"ruleset: {self.ruleset}"]
        if self.options:
            out.append("options: " + " ".join(f"{k}={v}" for k, v in self.options.items()))
        out.append(f"seed: {'none' if self.seed is None else self.seed}")
        out.append(f"start: {self.start}")
        out += [f"agent.{side}: {spec}" for side, spec in self.agents.items()]
        out.append(f"result: {self.result}")
        if self.reason:
            out.append(f"reason: {self.reason}")
        if self.scores:
            out.append(f"scores: {self.scores}")
        out.append(f"plies: {len(self.moves)}")
        if self.final is not None:
            out.append(f"final: {self.final}")
        if self.date:
            out.append(f"date: {self.date}")
        out.append("")
        out += [f"{i}. {side} {move}" for i, (side, move) in enumerate(zip(self.sides, self.moves), 1)]
        return "\n".join(out) + "\n"

    # ---- the game it describes ----------------------------------------------------------------

    def game(self):
        """The game of the record's ruleset at its options: a shipped name, or a `.rules` file (a
        record cannot make Ziggurat open any other file)."""
        from .dsl.loader import find
        from .interpreter.games import load

        return load(str(find(self.ruleset, rules_only=True)), self.options or None)

    def start_state(self):
        """The position the record starts from."""
        game = self.game()
        if self.start.strip() in ("", "start"):
            return game.new(self.seed)
        try:
            state = game.position(self.start)
        except GameError as e:
            raise RecordError(f"{self.source}: bad start position: {e}") from None
        state.seed = self.seed
        return state


def option_text(value) -> str:
    """An option value as the text `load` reads back (true/false for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def result_text(state) -> str:
    """'<side> wins', '<side> loses', 'draw' or 'unfinished', for the state's outcome."""
    outcome = state.outcome()
    if outcome is None:
        return "unfinished"
    players = state.game.players
    if outcome.kind == "draw":
        top = max(outcome.results)
        if all(r == top for r in outcome.results):
            return "draw"
        return "draw between " + ", ".join(p for p, r in zip(players, outcome.results) if r == top)
    verb = "wins" if outcome.kind == "win" else "loses"
    return f"{players[outcome.player]} {verb}"


def scores_text(state) -> str:
    """'black=12 green=9 white=3' when the outcome ranks the players by score or gives them points
    (`win P by K`: 'first=2 second=-2'), else ''."""
    outcome = state.outcome()
    if outcome is None or not getattr(outcome, "scores", ()):
        return ""
    return " ".join(f"{p}={s}" for p, s in zip(state.game.players, outcome.scores))


def reason_text(state) -> str:
    outcome = state.outcome()
    return (outcome.reason or "") if outcome is not None else ""


def make_record(ruleset: str, moves, *, options: dict | None = None, seed: Optional[int] = None,
                start: str = "start", agents: dict | None = None, date: str | None = "today") -> Record:
    """A checked record of `moves` (texts or move tuples) played from the start of `ruleset`.

    `options` may be partial: the record lists every option's resolved value, so it replays the
    same even if a default changes. `date='today'` stamps today's date; None leaves it out.
    """
    from .interpreter.games import load

    game = load(ruleset, options or None)
    record = Record(ruleset=ruleset, options={k: option_text(v) for k, v in game.options.items()},
                    seed=seed, start=start, agents=dict(agents or {}))
    state = record.start_state()
    for number, move in enumerate(moves, 1):
        side = state.mover_name
        try:
            played = state.play(move)
        except GameError as e:
            written = move if isinstance(move, str) else repr(tuple(move))
            raise RecordError(f"move {number} ({side} {written}): {e}") from None
        record.sides.append(side)
        record.moves.append(state.move_text(played))
    record.result, record.reason, record.final = result_text(state), reason_text(state), state.text()
    record.scores = scores_text(state)
    if date == "today":
        date = datetime.date.today().isoformat()
    record.date = date
    return record


def record_of(state, ruleset: str, *, start: str = "start", agents: dict | None = None,
              date: str | None = "today") -> Record:
    """The record of the game played so far in `state` (its moves from `start`, at its options)."""
    return make_record(ruleset, list(state.stack), options=state.game.options, seed=state.seed,
                       start=start, agents=agents, date=date)


def save_record(path, record: Record) -> Path:
    """Write `record` to `path` as text."""
    path = Path(path)
    try:
        write_text(path, record.dumps())  # whole or not at all: an old record is never torn
    except OSError as e:
        raise GameError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
    return path


def loads(text: str, source: str = "<record>") -> Record:
    """A record from its text; RecordError names the line that cannot be read."""
    headers: dict = {}
    agents: dict = {}
    moves, sides, lines = [], [], []
    in_moves = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and headers:
                in_moves = True
            continue
        where = f"{source}:{lineno}"
        move = _MOVE.match(line)
        if move is not None:
            in_moves = True
            number, side, text_ = move.group(1), move.group(2), move.group(3)
            if len(number) > 18 or int(number) != len(moves) + 1:
                raise RecordError(f"{where}: move number {number if len(number) <= 18 else shown(number)}, "
                                  f"expected {len(moves) + 1}")
            moves.append(text_)
            sides.append(side)
            lines.append(lineno)
            continue
        if in_moves:
            raise RecordError(f"{where}: {shown(line)} is not a move line (write '<number>. <side> <move>')")
        header = _HEADER.match(line)
        if header is None:
            raise RecordError(f"{where}: {shown(line)} is not a header line (write 'key: value')")
        key, value = header.group(1), header.group(2).strip()
        if key.startswith("agent."):
            agents[key.split(".", 1)[1]] = value
            continue
        if key not in HEADER_ORDER:
            from .errors import did_you_mean

            hint = did_you_mean(key, HEADER_ORDER)
            raise RecordError(f"{where}: unknown header {shown(key)}" + (f"; {hint}" if hint else ""))
        if key in headers:
            raise RecordError(f"{where}: header {shown(key)} appears twice")
        headers[key] = (value, where)
    if "ruleset" not in headers or not headers["ruleset"][0]:
        raise RecordError(f"{source}: no 'ruleset:' header: a record must name its ruleset")
    record = Record(ruleset=headers["ruleset"][0], agents=agents, moves=moves, sides=sides,
                    source=source, lines=lines)
    if "options" in headers:
        value, where = headers["options"]
        for item in value.split():
            name, eq, v = item.partition("=")
            if not eq or not name or not v:
                raise RecordError(f"{where}: option {shown(item)} is not NAME=VALUE")
            record.options[name] = v
    if "seed" in headers:
        value, where = headers["seed"]
        if value not in ("", "none"):
            try:
                record.seed = int(value)
            except ValueError:
                raise RecordError(f"{where}: seed {shown(value)} is not a whole number (or 'none')") from None
    for key in ("start", "result", "reason", "scores", "final", "date"):
        if key in headers:
            setattr(record, key, headers[key][0])
    if "plies" not in headers:
        raise RecordError(f"{source}: no 'plies:' header: the record is cut short, or was not written "
                          f"by Ziggurat (add 'plies: {len(moves)}' if its {len(moves)} moves are all there)")
    if "plies" in headers:
        value, where = headers["plies"]
        if value != str(len(moves)):
            raise RecordError(f"{where}: the header says {shown(value)} plies but the record has {len(moves)} moves")
    return record


def load_record(path) -> Record:
    """Read a record file; RecordError for a file that is missing or cannot be read."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise RecordError(f"cannot read record {str(path)!r}: {reason}") from None
    return loads(text, str(path))


def steps(record: Record) -> Iterator[tuple]:
    """Replay a record move by move: yields (number, side, move text, state after the move).

    Yields (0, None, None, start state) first. The state is the same object throughout (it is
    changed in place): copy it to keep a position. RecordError names the first illegal move.
    """
    state = record.start_state()
    yield 0, None, None, state
    for i in range(len(record.moves)):
        play_move(record, state, i)
        yield i + 1, record.sides[i], record.moves[i], state


def play_move(record: Record, state, index: int) -> None:
    """Play the record's move `index` (0-based) in `state`; RecordError names it if it does not
    fit (another side to move, or an illegal move, with the reason)."""
    side, text, number = record.sides[index], record.moves[index], index + 1
    where = f"{record.source}:{record.lines[index]}: " if index < len(record.lines) else ""
    if side != state.mover_name:
        raise RecordError(f"{where}move {number} ({side} {shown(text)}): the record says {side} moves, "
                          f"but it is {state.mover_name}'s turn")
    try:
        state.play(text)
    except GameError as e:
        raise RecordError(f"{where}move {number} ({side} {shown(text)}) is illegal: {e}") from None


def replay(record: Record, *, check_end: bool = True):
    """Play the whole record, checking every move, and (with check_end) its result and final
    position; return the final state. RecordError says what does not match."""
    state = None
    for step in steps(record):  # plays every move; the state is the same object throughout
        state = step[3]
    if check_end:
        check_end_matches(record, state)
    return state


def check_end_matches(record: Record, state) -> None:
    """RecordError unless the state's result, reason and position are the ones recorded."""
    result, reason = result_text(state), reason_text(state)
    if result != record.result:
        raise RecordError(f"{record.source}: the record says the result is {record.result!r}, "
                          f"but the replay ends {result!r}" + (f" ({reason})" if reason else ""))
    if record.reason and reason != record.reason:
        raise RecordError(f"{record.source}: the record gives the reason {record.reason!r}, "
                          f"but the replay ends for {reason!r}")
    if record.scores and scores_text(state) != record.scores:
        raise RecordError(f"{record.source}: the record gives the scores {record.scores!r}, "
                          f"but the replay ends with {scores_text(state)!r}")
    if record.final is not None and state.text() != record.final:
        raise RecordError(f"{record.source}: the final position differs from the record:\n"
                          f"  recorded: {record.final}\n  replayed: {state.text()}")


__all__ = ["Record", "RecordError", "make_record", "record_of", "save_record", "load_record", "loads",
           "replay", "steps", "play_move", "check_end_matches", "result_text", "scores_text"]
