"""Action ids: a fixed, numbered action space for a game, and a move as a short sequence of ids.

Frameworks such as OpenSpiel and PettingZoo number a game's actions `0 .. n - 1` once for all
positions. A Ziggurat move is a tuple (action, value of each choice), so its id is derived from the
action's choices (`Game.actions`, each choice's type and, for numbers, the range the compiler
found: `ActionSpec.bounds`):

- **the head**: the action and its leading one-value choices, in mixed radix (the first choice
  most significant), while the action's ids stay at most `JOINT_LIMIT`. A move whose choices all
  fit there is one id: for most games every move is exactly one id;
- **the rest, one decision each**: a choice past the head is one id from a value space shared by
  the choices of its type (cells, pieces, players, directions, each attribute's values, numbers);
  a list (a `repeat`'s chain, a list of cells) is one id per item then the id END; a choice of the
  `after` block that a move leaves out (None in the move) is the id NONE.

So a move is the sequence `encode(move)`, and no sequence is the start of another (the head names
the action, so the layout after it, and lists end with END): the moves of a position form a tree
over ids, and a player or nature chooses a move one id at a time, as OpenSpiel's own draughts makes
each jump a decision of its own. `decode` is the inverse; an id sequence that is no move is refused
with a GameError saying why.

A number choice's value space is `lo .. a * P + b` (see `interpreter.bounds`), P the most pieces a
position holds (`Game.piece_supply().total`, or the engine's limit when moves make pieces). A
place on an open table (a spot: its centre's coordinates are not bounded in advance) is spelled:
one id per character of its text (`1.375,0>e`: the digits, `.`, `,`, `-`, `>` and the directions)
then END, so the moves of a table game are a tree of ids over a space of a few dozen. A number
choice the compiler could not bound gives the ruleset no action space: `ActionSpace(game)` says
which choice, in a GameError.
"""

from __future__ import annotations

import operator
from typing import Optional

from ..dsl import surface
from ..dsl import types as T
from ..dsl.world import DIRECTION_NAMES
from ..errors import GameError, shown
from ..interpreter.notation import MAX_PIECES
from ..interpreter.whole_turns import split

SPOT_CHARACTERS = "0123456789.,->nesw"  # what a spot's text is made of (dsl.surface.spot_text)
JOINT_LIMIT = 1 << 16  # the most ids of one action's head; choices beyond it are decisions of their own
END, NONE = "end", "none"  # the two ids that are no value: a list ends; an after block left out


def action_id(action) -> int:
    """An action id as a whole number (a numpy integer too); GameError for anything else."""
    try:
        return operator.index(action)
    except TypeError:
        raise GameError(f"an action is an action id (a whole number), not {shown(action)}") from None


def _text(move) -> str:
    """A move (or anything given as one) for a message: a tuple item by item, each as `shown`."""
    if isinstance(move, tuple):
        return "(" + ", ".join(_text(x) for x in move[:12]) + (", ..." if len(move) > 12 else "") + ")"
    return shown(move)


class _Values:
    """The values of one type as ids: `index(value)` in 0 .. size - 1, and back."""

    def __init__(self, key: str, size: int, index, value, text):
        self.key, self.size, self.index, self.value, self.text = key, size, index, value, text


class _Step:
    """One choice after the head: its position in the move, its values, and its shape."""

    def __init__(self, position: int, name: str, values: _Values, is_list: bool, optional: bool,
                 spelled: bool = False):
        self.position, self.name, self.values = position, name, values
        self.is_list, self.optional = is_list, optional
        self.spelled = spelled  # a spot: one id per character of its text, then END


class _Layout:
    """How one action's moves become ids: the head's choices, then the steps."""

    def __init__(self, spec, offset: int, head: list, steps: list):
        self.spec, self.offset, self.head, self.steps = spec, offset, head, steps  # head: [(position, _Values)]
        self.size = 1
        for _, v in head:
            self.size *= v.size


class ActionSpace:
    """The fixed action space of a game (one ruleset at one option set): `num_distinct_actions`,
    and `encode` / `decode` between a legal move and its ids."""

    def __init__(self, game):
        self.game = game
        supply = game.piece_supply()
        self.max_pieces = supply.total if supply is not None else MAX_PIECES
        self._value_spaces: dict = {}
        self._numbers = self._number_range()
        self.layouts: list = []
        offset = 0
        for spec in sorted(game.actions, key=lambda a: a.index):
            layout = self._layout(spec, offset)
            self.layouts.append(layout)
            offset += layout.size
        self.heads = offset
        # The value spaces of the steps follow the heads, then END and NONE.
        self._offsets: dict = {}
        for layout in self.layouts:
            for step in layout.steps:
                if step.values.key not in self._offsets:
                    self._offsets[step.values.key] = offset
                    offset += step.values.size
        self.needs_end = any(s.is_list or s.spelled for lay in self.layouts for s in lay.steps)
        self.needs_none = any(s.optional for lay in self.layouts for s in lay.steps)
        self.end_id = offset if self.needs_end else None
        offset += self.needs_end
        self.none_id = offset if self.needs_none else None
        offset += self.needs_none
        self.num_distinct_actions = offset
        self._by_key = {v.key: v for lay in self.layouts for _, v in lay.head}
        self._by_key.update({s.values.key: s.values for lay in self.layouts for s in lay.steps})

    # ---- the layout --------------------------------------------------------------------------

    def _number_range(self) -> Optional[tuple]:
        """(lo, hi) over every number choice, or None when there is none."""
        lo = hi = None
        for spec in self.game.actions:
            for name, typ in spec.choices:
                if typ == T.INT or (T.is_list(typ) and typ.elem == T.INT):
                    b = spec.bounds.get(name)
                    if b is None:
                        raise GameError(f"the choice '{name}' of the action '{spec.name}' is a number whose range "
                                        f"the compiler could not bound, so {self.game.name} has no fixed action space")
                    top = b[1] * self.max_pieces + b[2]
                    lo, hi = (b[0], top) if lo is None else (min(lo, b[0]), max(hi, top))
        return None if lo is None else (lo, hi)

    def _values(self, typ, name: str, action: str) -> _Values:
        game, world = self.game, self.game.world
        if typ == T.CELL:
            key, size = "cell", world.ncells
            index = value = None
            text = world.cell_name
        elif typ == T.PLAYER:
            owner = game.owner_attribute
            size = max([len(game.players)] + [n + 1 for n in (owner.numbers if owner else ())])
            key, text = "player", lambda v: game.players[v] if v < len(game.players) else (
                owner.value_name(v) if owner else str(v))
            index = value = None
        elif typ == T.PIECE:
            key, size, index, value, text = "piece", world.npieces, None, None, world.piece_text
        elif typ == T.DIR:
            key, size, index, value = "direction", len(DIRECTION_NAMES), None, None
            text = DIRECTION_NAMES.__getitem__
        elif typ == T.BOOL:
            key, size, index, value, text = "bool", 2, int, bool, lambda v: "true" if v else "false"
        elif typ.name == "enum":
            attr = next(a for a in game.attributes if a.name == typ.attr)
            key, size = f"{attr.name} value", len(attr.numbers)
            index, value, text = attr.numbers.index, attr.numbers.__getitem__, attr.value_name
        elif typ == T.SPOT:
            key, size, text = "spot character", len(SPOT_CHARACTERS), str
            index, value = SPOT_CHARACTERS.index, SPOT_CHARACTERS.__getitem__
        elif typ == T.INT:
            lo, hi = self._numbers
            key, size, index, value, text = "number", hi - lo + 1, lambda v: v - lo, lambda i: i + lo, str
        else:
            raise GameError(f"the choice '{name}' of the action '{action}' is a {typ}: it has no fixed set of values, "
                            f"so {game.name} has no fixed action space")
        if key in self._value_spaces:
            return self._value_spaces[key]
        v = _Values(key, size, index or (lambda x: x), value or (lambda i: i), text)
        self._value_spaces[key] = v
        return v

    def _own_numbers(self, spec, name: str) -> _Values:
        """The values of one number choice alone, lo .. hi by its own bound."""
        lo, a, b = spec.bounds[name]
        hi = max(lo, a * self.max_pieces + b)
        return _Values(f"{spec.name}.{name}", hi - lo + 1, lambda v: v - lo, lambda i: i + lo, str)

    def _layout(self, spec, offset: int) -> _Layout:
        head, steps, size, joint = [], [], 1, True
        for position, (name, typ) in enumerate(spec.choices):
            is_list = name in spec.repeated or T.is_list(typ)
            elem = typ.elem if T.is_list(typ) else typ
            values = self._values(elem, name, spec.name)
            after = position >= spec.nbase
            own = self._own_numbers(spec, name) if elem == T.INT else values  # in the head: its own range
            if elem == T.SPOT:
                if is_list:
                    raise GameError(f"the choice '{name}' of the action '{spec.name}' is a list of places on the "
                                    f"table, which has no action ids yet")
                joint = False
                steps.append(_Step(position, name, values, False, after, spelled=True))
                continue
            if joint and not is_list and not after and size * own.size <= JOINT_LIMIT:
                head.append((position, own))
                size *= own.size
                continue
            joint = False
            steps.append(_Step(position, name, values, is_list, after))
        return _Layout(spec, offset, head, steps)

    # ---- moves and ids ---------------------------------------------------------------------

    def _value_id(self, values: _Values, v, move) -> int:
        i = values.index(v) if v is not None else -1
        if not 0 <= i < values.size:
            raise GameError(f"the move {_text(move)} holds {shown(v)}, outside the {values.key}s of the action space")
        return self._offsets[values.key] + i

    def encode(self, move) -> tuple:
        """The ids of a move, head first (GameError for a tuple that is no move of this game)."""
        move = tuple(move)
        if not move or not isinstance(move[0], int) or not 0 <= move[0] < len(self.layouts):
            raise GameError(f"{_text(move)} is not a move of {self.game.name}")
        layout = self.layouts[move[0]]
        if self.game.whole_turns is not None and len(move) != 1 + len(layout.spec.choices):  # a whole turn: its parts
            return tuple(i for part in split(self.game.actions, move) for i in self.encode(part))
        if len(move) != 1 + len(layout.spec.choices):
            raise GameError(f"{_text(move)} is not a move of {self.game.name}: "
                            f"'{layout.spec.name}' has {len(layout.spec.choices)} choices")
        head = 0
        for position, values in layout.head:
            i = values.index(move[1 + position]) if move[1 + position] is not None else -1
            if not 0 <= i < values.size:
                raise GameError(f"the move {_text(move)} holds {shown(move[1 + position])}, outside the action space")
            head = head * values.size + i
        ids = [layout.offset + head]
        for step in layout.steps:
            v = move[1 + step.position]
            if v is None and step.optional:
                ids.append(self.none_id)
            elif step.spelled:
                if not isinstance(v, int) or v < 0:
                    raise GameError(f"the move {_text(move)} holds {shown(v)} where '{step.name}' is a place "
                                    "on the table")
                ids.extend(self._value_id(step.values, ch, move) for ch in surface.spot_text(v))
                ids.append(self.end_id)
            elif step.is_list:
                if not isinstance(v, (tuple, list)):
                    raise GameError(f"the move {_text(move)} holds {shown(v)} where '{step.name}' is a list")
                ids.extend(self._value_id(step.values, x, move) for x in v)
                ids.append(self.end_id)
            else:
                ids.append(self._value_id(step.values, v, move))
        return tuple(ids)

    def decode(self, ids) -> tuple:
        """The move of a whole id sequence; GameError says where it is not one. With whole turns,
        the parts one after another (their id sequences are prefix-free: the first that reads is one)."""
        ids = list(ids)
        if self.game.whole_turns is None or not ids:
            return self._decode_part(ids)
        turn, start = (), 0
        while start < len(ids):
            end = next((e for e in range(start + 1, len(ids)) if self._reads(ids[start:e])), len(ids))
            turn, start = turn + self._decode_part(ids[start:end]), end
        return turn

    def _reads(self, ids) -> bool:
        try:
            self._decode_part(ids)
        except GameError:
            return False
        return True

    def _decode_part(self, ids) -> tuple:
        ids = list(ids)
        if not ids:
            raise GameError("no action ids: a move has at least one")
        layout, head = self._head(ids[0])
        move = [layout.spec.index] + [None] * len(layout.spec.choices)
        for (position, values), i in zip(layout.head, head):
            move[1 + position] = values.value(i)
        k = 1
        for step in layout.steps:
            if k >= len(ids):
                raise GameError(f"the action ids stop before the choice '{step.name}' of '{layout.spec.name}'")
            if step.optional and ids[k] == self.none_id:
                k += 1
                continue
            if step.is_list or step.spelled:
                items = []
                while k < len(ids) and ids[k] != self.end_id:
                    items.append(self._value(step, ids[k]))
                    k += 1
                if k >= len(ids):
                    raise GameError(f"the {'spot' if step.spelled else 'list'} '{step.name}' of '{layout.spec.name}' "
                                    f"has no end (id {self.end_id})")
                k += 1
                if step.spelled:
                    spot = surface.parse_spot("".join(items))
                    if spot is None:
                        raise GameError(f"{shown(''.join(items))} is not a place on the table")
                    move[1 + step.position] = spot
                else:
                    move[1 + step.position] = tuple(items)
            else:
                move[1 + step.position] = self._value(step, ids[k])
                k += 1
        if k != len(ids):
            raise GameError(f"{len(ids) - k} action ids left over after a whole move of '{layout.spec.name}'")
        return tuple(move)

    def _head(self, i) -> tuple:
        if not isinstance(i, int) or not 0 <= i < self.heads:
            raise GameError(f"{shown(i)} is not the first id of a move: those are 0 .. {self.heads - 1}")
        for layout in self.layouts:
            if i < layout.offset + layout.size:
                rest, out = i - layout.offset, []
                for _, values in reversed(layout.head):
                    rest, r = divmod(rest, values.size)
                    out.append(r)
                return layout, out[::-1]
        raise AssertionError("unreachable: the heads cover 0 .. heads - 1")

    def _value(self, step: _Step, i):
        start = self._offsets[step.values.key]
        if not isinstance(i, int) or not start <= i < start + step.values.size:
            raise GameError(f"{shown(i)} is not a {step.values.key} id for the choice '{step.name}': those are "
                            f"{start} .. {start + step.values.size - 1}")
        return step.values.value(i - start)

    def id_text(self, i: int) -> str:
        """What one id stands for, for people: 'move b1 3', 'e4', 'end'."""
        if i == self.end_id:
            return END
        if i == self.none_id:
            return NONE
        if 0 <= i < self.heads:
            layout, head = self._head(i)
            parts = [layout.spec.name] + [values.text(values.value(r)) for (_, values), r in zip(layout.head, head)]
            return " ".join(str(p) for p in parts)
        for key, start in self._offsets.items():
            values = self._by_key[key]
            if start <= i < start + values.size:
                return str(values.text(values.value(i - start)))
        raise GameError(f"{shown(i)} is not an action id: those are 0 .. {self.num_distinct_actions - 1}")

    def layout_text(self) -> str:
        """The action space, one line per action, for documentation and errors."""
        lines = []
        for layout in self.layouts:
            head = " x ".join(f"{layout.spec.choices[p][0]} ({v.size})" for p, v in layout.head) or "-"
            rest = ", ".join(s.name + ("[]" if s.is_list else " (spelled)" if s.spelled else "") for s in layout.steps)
            lines.append(f"{layout.spec.name}: ids {layout.offset}..{layout.offset + layout.size - 1}"
                         f" (head: {head})" + (f", then {rest}" if rest else ""))
        return "\n".join(lines)


class Decisions:
    """The moves of one position as a tree of ids: which ids may come next after a prefix of
    ids already chosen, and the move a whole sequence makes."""

    def __init__(self, space: ActionSpace, moves, probabilities=None):
        self.space = space
        self.moves = list(moves)
        self.codes = [space.encode(m) for m in self.moves]
        self.probabilities = probabilities

    def next_ids(self, prefix) -> dict:
        """{id: the indices of the moves that go on with it} after `prefix`, ids ascending."""
        prefix, n, out = tuple(prefix), len(prefix), {}
        for k, code in enumerate(self.codes):
            if len(code) > n and code[:n] == prefix:
                out.setdefault(code[n], []).append(k)
        return dict(sorted(out.items()))

    def chance_ids(self, prefix) -> list:
        """[(id, probability)] after `prefix` at a chance node: each id's share of the moves'
        probability that still goes on from the prefix."""
        nxt = self.next_ids(prefix)
        mass = {i: sum(self.probabilities[k] for k in ks) for i, ks in nxt.items()}
        total = sum(mass.values())
        return [(i, p / total) for i, p in mass.items()]

    def step(self, prefix, i) -> tuple:
        """(the move made, or None while the sequence goes on) when `i` follows `prefix`;
        GameError when no legal move goes on that way."""
        prefix = tuple(prefix) + (i,)
        whole = [k for k, code in enumerate(self.codes) if code == prefix]
        if whole:
            return self.moves[whole[0]]
        if any(code[:len(prefix)] == prefix for code in self.codes):
            return None
        allowed = sorted(self.next_ids(prefix[:-1]))
        listed = ", ".join(map(str, allowed[:12])) + (", ..." if len(allowed) > 12 else "")
        raise GameError(f"action id {shown(i)} is not legal here: the legal ids are {listed or 'none'}")
