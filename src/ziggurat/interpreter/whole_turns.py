"""Whole turns: a move made of every part one player plays before the turn passes.

A ruleset that declares `whole turns, at most N parts` is compiled as any other: its actions are
the parts, joined by `extra_turn()`. This layer, over that part-level kernel and shared by every
tool through the `Game` API, makes a move of a whole turn:

- **a move is its parts in order, concatenated**: `(action, choices..., action, choices...)`.
  Each action has a fixed number of choices, so the parts are read back from the tuple
  (`split`); a turn of one part is the part's own tuple, and nature's moves are single parts.
- **the turn passes** when another player is to move, at a chance node (nature's move is no
  player's part) and when the game is over. Until then the same player's next part follows.
- **the listing** (`legal`) tries every way to play the turn from the position, depth first in
  the order the parts are listed; a turn that would need more than N parts is the ruleset's
  mistake, a RulesetError at the declaration's line. With `one per position` one move is listed
  for each position the turns reach (the one of fewest parts, the first found among those), where
  the first turn to reach it was listed: the others reach nothing new. A position met within the
  turn after as many parts as before is not explored again (the same parts follow, and what they
  reach was found first the first time), which lists the same moves much sooner where parts commute.
- **keeping the most**: with `keeping the most parts` (or `... the most NAME`, a counter read where
  the turn has ended) only the turns of the most parts (of the highest NAME) are listed, before
  turns are merged by position: "play as many dice as you can, the larger die if only one".
- **printing and reading**: the parts' texts joined by `; ` (`TurnNotation`). A turn read with
  other parts than the listed one that reaches the same position is that move.

`Game.legal`, `count`, `apply` and `undo` are this layer's, so perft, the agents, records,
`play`, `serve` and the bridges count, search, write and show whole turns; `Game.parts` keeps the
part-level kernel. A state remembers how many parts each move it played had (`State.turns`), so
`undo` takes back a whole turn.
"""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace
from typing import Optional

from ..dsl.whole_turns import SEPARATOR
from ..errors import Diagnostic, GameError, RulesetError, shown
from . import notation


def split(actions, move) -> list:
    """The parts of a move, each `(action, choices...)`; GameError for a tuple that is none."""
    parts, i, move = [], 0, tuple(move)
    while i < len(move):
        a = move[i]
        if not isinstance(a, int) or not 0 <= a < len(actions):
            raise GameError(f"{shown(repr(move))} is not a move of this game")
        n = 1 + len(actions[a].choices)
        if i + n > len(move):
            raise GameError(f"{shown(repr(move))} is not a move of this game: its last part is cut short")
        parts.append(move[i:i + n])
        i += n
    if not parts:
        raise GameError("an empty tuple is not a move")
    return parts


def read_turns(game, text: str) -> list:
    """Every whole turn the text could mean, legal or not: each part's readings, in turn."""
    readings = [game.read_moves(piece) for piece in text.split(";")]
    return [tuple(x for part in parts for x in part) for parts in product(*readings)]


class WholeTurns:
    """The whole-turn kernel of one game, over its part-level kernel (`parts`)."""

    def __init__(self, game):
        spec = game.spec
        self.game = game
        self.most = spec.turn_parts
        self.merged = spec.turn_merged
        self.at = spec.turn_at
        self.keeping = spec.turn_keeping
        self.slot = game.world.counter_index[self.keeping] if self.keeping not in ("", "parts") else -1
        self.parts = SimpleNamespace(legal=game.legal, count=game.count, apply=game.apply, undo=game.undo,
                                     outcome=game.outcome)
        self.chance = tuple(a.chance for a in game.actions)
        self.uses_last = spec.uses_last

    # ---- the kernel -----------------------------------------------------------------------------

    def ends(self, st, mover: int) -> bool:
        """Whether the turn has passed in `st` (another player, nature or nobody to move)."""
        if st.side != mover:
            return True
        moves = self.parts.legal(st)
        return not moves or self.chance[moves[0][0]] or self.parts.outcome(st, moves) is not None

    def legal(self, st) -> list:
        """The whole turns from `st`; where the game is over or nature moves, the parts' own list."""
        P = self.parts
        moves = P.legal(st)
        if not moves or self.chance[moves[0][0]] or P.outcome(st, moves) is not None:
            return moves
        ends: list = []  # each turn that ends: (turn, its parts, what it is kept by, its position)
        mover, merged = st.side, self.merged
        explored: set = set()  # with one per position: (a position within the turn, the parts to it)
        apply, undo, legal, outcome, chance = P.apply, P.undo, P.legal, P.outcome, self.chance

        def walk(prefix: tuple, moves: list, n: int) -> None:  # n: the parts in prefix
            for m in moves:
                apply(st, m)
                try:
                    turn = prefix + m
                    nxt = legal(st) if st.side == mover else None
                    if nxt is None or not nxt or chance[nxt[0][0]] or outcome(st, nxt) is not None:
                        ends.append((turn, n + 1, self.kept_by(st, n + 1), self.position(st) if merged else None))
                    elif n + 1 >= self.most:
                        raise self.too_long(turn)
                    elif merged:  # a position met before after as many parts ends as it did then
                        key = (self.position(st), n + 1)
                        if key not in explored:
                            explored.add(key)
                            walk(turn, nxt, n + 1)
                    else:
                        walk(turn, nxt, n + 1)
                finally:
                    undo(st)

        walk((), moves, 0)
        if self.keeping:
            best = max(e[2] for e in ends)
            ends = [e for e in ends if e[2] == best]
        if not merged:
            return [e[0] for e in ends]
        out: list = []
        seen: dict = {}  # position -> (its move's index in out, its parts)
        for turn, n, _, key in ends:
            if key in seen:
                at, parts = seen[key]
                if n < parts:  # the turn of fewest parts stands for the position
                    out[at], seen[key] = turn, (at, n)
                continue
            seen[key] = (len(out), n)
            out.append(turn)
        return out

    def kept_by(self, st, parts: int) -> int:
        """What `keeping the most` compares where a turn has ended: its parts, or the counter's value."""
        return parts if self.slot < 0 else st.counters[self.slot]

    def count(self, st) -> int:
        return len(self.legal(st))

    def apply(self, st, move) -> None:
        parts = split(self.game.actions, move) if len(move) != 1 + len(self.game.actions[move[0]].choices) else [move]
        for p in parts:
            self.parts.apply(st, p)
        st.turns.append(len(parts))

    def undo(self, st) -> None:
        for _ in range(st.turns.pop() if st.turns else 1):
            self.parts.undo(st)

    def position(self, st) -> tuple:
        """What makes two positions the same (what the position hash covers; `last` where the rules read it)."""
        key = (tuple(st.cells), tuple(st.zones), tuple(st.counters), st.side, tuple(st.seats), tuple(st.table))
        return key + (st.last,) if self.uses_last else key

    # ---- mistakes ---------------------------------------------------------------------------

    def too_long(self, turn: tuple) -> RulesetError:
        """The turn goes on past the declared bound: the ruleset's mistake, at its declaration."""
        path, _, rest = self.at.rpartition(":")
        path, _, line = path.rpartition(":")
        source = dict(self.game.rules).get(path, "")
        lines = source.splitlines()
        text = lines[int(line) - 1] if 0 < int(line) <= len(lines) else ""
        parts = self.game._notation.move_text(turn)
        return RulesetError([Diagnostic(
            path, int(line), int(rest), f"a turn goes on past {self.most} parts, the most this declaration allows "
            f"(after {shown(parts, 200)})", source_line=text, width=len(text.strip()) or 1,
            hint="raise the bound, or end the turn sooner (a part without extra_turn() passes it)")])

    def explain(self, st, move) -> Optional[str]:
        """Why `move` is not a whole turn here, part by part (None: it is one)."""
        game, P = self.game, self.parts
        try:
            parts = split(game.actions, move)
        except GameError as e:
            return str(e)
        mover, played = st.side, 0
        try:
            for k, p in enumerate(parts):
                if played and self.ends(st, mover):
                    return (f"the turn passes after part {k} ({self._part_text(parts[k - 1])}): "
                            f"{len(parts) - k} part{'s' * (len(parts) - k != 1)} too many")
                if p not in P.legal(st):
                    why = game._explain[p[0]](st, p) if len(p) == 1 + len(game.actions[p[0]].choices) else None
                    reason = why or "another kind of move must be played first, or the move goes on"
                    if len(parts) == 1:
                        return reason  # a move of one part: its action's own reason
                    return f"part {k + 1} ({self._part_text(p)}) is not legal there: {reason}"
                P.apply(st, p)
                played += 1
            if not self.ends(st, mover):
                return (f"the turn does not end after {played} part{'s' * (played != 1)}: the same player "
                        "plays on (a whole turn is written with all its parts, joined by '; ')")
            key = self.position(st) if self.merged else None
            value = self.kept_by(st, played)
        finally:
            for _ in range(played):
                P.undo(st)
        listed = self.legal(st) if self.keeping else []
        if listed:
            self.apply(st, listed[0])
            try:
                best = self.kept_by(st, len(split(game.actions, listed[0])))
            finally:
                self.undo(st)
            if value < best:
                what = "parts" if self.slot < 0 else repr(self.keeping)
                return (f"the rules keep the turns of the most {what} ({best} here), and this one has {value}: "
                        "a turn that plays more must be played")
        if key is not None:
            for m in self.legal(st):
                if self._reached(st, m) == key:
                    return f"it reaches the same position as {game._notation.move_text(m)!r}, the move listed for it"
        return None

    def _part_text(self, part) -> str:
        """A part as written, or its tuple where a choice holds no value of its kind (a cell past the board)."""
        try:
            return self.game._notation.part_text(part)
        except (IndexError, KeyError, ValueError, TypeError):
            return shown(repr(tuple(part)))

    def _reached(self, st, move) -> tuple:
        self.apply(st, move)
        try:
            return self.position(st)
        finally:
            self.undo(st)


class TurnNotation(notation.Notation):
    """Moves written as their parts' texts joined by '; ', and read back part by part."""

    def part_text(self, part) -> str:
        return super().move_text(part)

    def move_text(self, move) -> str:
        actions = self.game.actions
        if len(move) == 1 + len(actions[move[0]].choices):
            return super().move_text(move)
        return SEPARATOR.join(super(TurnNotation, self).move_text(p) for p in split(actions, move))

    def parse_move(self, state, text: str, legal: Optional[list] = None) -> tuple:
        text = " ".join(str(text).split())
        moves = state.moves() if legal is None else legal
        pieces = [p.strip() for p in text.split(";")]
        if len(pieces) == 1 and (not moves or moves[0] and self.game.actions[moves[0][0]].chance):
            return super().parse_move(state, text, moves)  # nature's move, or the game is over
        turns = self.game.whole_turns
        P, mover = turns.parts, state.side
        parts: list = []
        try:
            for k, piece in enumerate(pieces):
                if parts and turns.ends(state, mover):
                    raise GameError(f"{shown(text)}: the turn passes after {shown(SEPARATOR.join(pieces[:k]))}; "
                                    f"{shown(SEPARATOR.join(pieces[k:]))} is not part of it")
                part = self._part(state, P.legal(state), piece, k, text)
                P.apply(state, part)
                parts.append(part)
            key = turns.position(state) if turns.merged else None
        finally:
            for _ in parts:
                P.undo(state)
        move = tuple(x for p in parts for x in p)
        if move in set(moves):
            return move
        if key is not None:
            for m in moves:
                if turns._reached(state, m) == key:
                    return m  # the listed move that reaches the same position
        raise GameError(f"{shown(text)} is not a whole turn here: {turns.explain(state, move)}")

    def _part(self, state, here: list, piece: str, k: int, text: str) -> tuple:
        """The legal part written `piece` where it is played; GameError says why it is not one."""
        possible = set(here)
        read = [m for _, m in self.decode(piece) if isinstance(m, tuple)]
        for m in read:
            if m in possible and super().move_text(m) == piece:
                return m
        by_text = {super(TurnNotation, self).move_text(m): m for m in here}
        if piece in by_text:
            return by_text[piece]
        game = self.game
        if read and len(read[0]) == 1 + len(game.actions[read[0][0]].choices):
            why = game._explain[read[0][0]](state, read[0]) or "another kind of part must be played first"
            raise GameError(f"{shown(text)}: part {k + 1} ({shown(piece)}) is not legal there: {why}")
        try:
            return super().parse_move(state, piece, here)  # its message names what the text is not
        except GameError as e:
            raise GameError(f"{shown(text)}: part {k + 1}: {e}") from None
