"""What the page plays and steps through: tables (a game with a person or an agent in each seat)
and replays (a record, at a chosen ply), each drawn as one seat sees it.

A table's seats hold `human` or an agent spec, as `ziggurat play --seats` does; a rule that swaps
seats (the pie rule) moves each seat's occupant with it. People move by `play(text)`; agents and
nature by `step()`, one ply a call, so the page shows every position it asks for. An agent's
search runs off the request path (thinking.py): meanwhile the table's status is `thinking` and
its view is answered at once. `undo()` takes
back to the last decision a person made, never past a reveal in a game that hides something
(takeback.py). A replay reads a record (`ziggurat.records`) and goes to
any ply, checking each move as it is played; at the end it checks the recorded result.

Hidden information: a view is drawn for a viewer (a side, or everyone). With one person at a table
that hides anything, the view is always theirs; with several at one screen, it is the side of the
person to move, and nobody's while an agent or nature moves; a table of agents alone, and a
replay, may be viewed as any side or as everyone. The picture then shows the viewer's
observation: zones hidden from them are drawn empty, their titles giving their counts (when that
position cannot be drawn, the page shows the observation's text). A game whose board is only
places (a card or dice game) is sent as its table layout instead (ziggurat.layout: a hidden zone
as its count), which the page draws as cards and dice. A game that is over is shown whole, as
its record shows it.
"""

from __future__ import annotations

import random
import re
import threading
import uuid
from collections import OrderedDict

import ziggurat
from .. import layout, render
from ..agents import make_agent, parse_spec
from ..errors import GameError, did_you_mean, shown
from ..records import check_end_matches, loads, play_move, reason_text, record_of, result_text
from ..takeback import REFUSED, revealed_since
from .clicks import clickable_moves, move_cells
from .thinking import Thought, check_budget

HUMAN = "human"
NOBODY = -1  # a viewer who is no side: every hidden zone stays hidden
NATURE_SEAT = 999  # the stream nature draws from, apart from every seat's
_HIDDEN = re.compile(r"(\S+)=\?(\d+)")


def seat_seed(seed, seat: int):
    """The seed of the agent in `seat` (each seat its own stream), as `ziggurat play` gives it."""
    return None if seed is None else seed * 1000 + seat


class Pictures:
    """The last pictures drawn, by position and viewer: a view asked for twice is drawn once."""

    def __init__(self, size: int = 64):
        self.size, self.cache, self.lock = size, OrderedDict(), threading.Lock()
        self.drawing = threading.Lock()

    def svg(self, state, viewer):
        """The picture of `state` for `viewer` as SVG text, or None when the position the viewer
        observes cannot be drawn (see `shown_state`): the page then shows the observation's text."""
        key = (state.game.name, id(state.game), state.text(), viewer)
        with self.lock:
            if key in self.cache:
                self.cache.move_to_end(key)
                return self.cache[key]
        with self.drawing:  # matplotlib is not made for drawing in several threads at once
            try:
                picture = render.svg(shown_state(state, viewer), hidden=dict(
                    (h["zone"], h["count"]) for h in hidden_counts(state, viewer)))
            except ziggurat.ZigguratError:
                picture = None
        with self.lock:
            self.cache[key] = picture
            while len(self.cache) > self.size:
                self.cache.popitem(last=False)
        return picture


PICTURES = Pictures()


def shown_state(state, viewer):
    """The state to draw for `viewer`: the state itself when nothing is hidden from them, else the
    position they observe with every zone hidden from them emptied. That position is not one the
    game reaches: a GameError when its rules fail on it (a showdown that reads an emptied hand), or
    when they would end the game there while the real one goes on (its caption would lie)."""
    if viewer is None or not state.game.has_secrets:
        return state
    observed = state.observation(viewer)
    if "=?" not in observed:
        return state
    shown = state.game.position(_HIDDEN.sub(lambda m: m.group(1) + "=", observed))
    if shown.outcome() is not None:
        raise GameError("the position as this seat sees it would be over: not drawn")
    return shown


def hidden_counts(state, viewer) -> list:
    """[{'zone', 'count'}] for each zone whose pieces `viewer` cannot see."""
    if viewer is None or not state.game.has_secrets:
        return []
    return [{"zone": m.group(1), "count": int(m.group(2))}
            for m in _HIDDEN.finditer(state.observation(viewer))]


def history(state, viewer) -> list:
    """The moves played so far as `viewer` saw them: [{'number', 'side', 'text', 'cells'}] (the
    cells as the picture outlines them, an after block's too; none for a move the viewer did not
    see). The state is walked back and forth, and left as it was."""
    moves = []
    while state.stack:
        moves.append(state.pop())
    moves.reverse()
    out = []
    for number, move in enumerate(moves, 1):
        full = state.move_text(move)
        seen = full if viewer is None else state.move_view(move, viewer)
        out.append({"number": number, "side": state.mover_name, "text": seen,
                    "cells": move_cells(state.game, move, after=True) if seen == full else []})
        state.push(move)
    return out


def outcome_view(state):
    """{'result', 'reason', 'text'} of a finished game (as records write it), or None."""
    if state.outcome() is None:
        return None
    return {"result": result_text(state), "reason": reason_text(state), "text": render.caption(state)}


def view(state, viewer) -> dict:
    """What the page shows of `state` for `viewer` (a side, NOBODY, or None for everyone). A game
    that is over is shown whole, to everyone, as its record shows it."""
    game = state.game
    if state.outcome() is not None:
        viewer = None
    name = None if viewer is None else ("nobody" if viewer == NOBODY else game.players[viewer])
    past = history(state, viewer)
    # A game whose board is only places (cards, dice) is drawn by the page as a table of what it
    # has (ziggurat.layout), as the viewer may see it; another as the picture `ziggurat render` draws.
    places = game.board_is_places
    return {
        "ruleset": game.name, "title": game.title, "players": list(game.players), "has_secrets": game.has_secrets,
        "svg": None if places else PICTURES.svg(state, viewer),
        # NOBODY: every hidden zone hidden
        "table": layout.to_json(state, render.scheme(game), viewer) if places else None,
        "caption": render.caption(state), "ply": state.ply,
        "mover": state.mover_name, "viewer": name, "hidden": hidden_counts(state, viewer),
        "position": state.text() if viewer is None or not game.has_secrets else state.observation(viewer),
        "outcome": outcome_view(state), "history": past, "last": past[-1] if past else None,
    }


def side_of(game, name):
    """The side called `name` ('' or 'all' for everyone: None); GameError naming the sides."""
    if name in (None, "", "all"):
        return None
    if name in game.players:
        return game.players.index(name)
    hint = did_you_mean(name, game.players)
    raise GameError(f"{name!r} is not a side of {game.title} (sides: {', '.join(game.players)})"
                    + (f"; {hint}" if hint else ""))


class Table:
    """One game at one screen: the state, who sits in each seat, and the people's undo marks."""

    def __init__(self, ruleset: str, game, seats: list, seed=None):
        if len(seats) != len(game.players):
            raise GameError(f"{len(seats)} seat{'s' if len(seats) != 1 else ''} given but "
                            f"{game.title} has {len(game.players)} players ({', '.join(game.players)})")
        for spec in seats:
            if not isinstance(spec, str) or not spec.strip():
                raise GameError("each seat is 'human' or an agent spec (random, greedy, mcts:iterations=200, ...)")
            if spec.strip() != HUMAN:
                parse_spec(spec)  # an AgentError names a bad spec before the game starts
                check_budget(spec)  # and one asking for more than a served agent may
        self.id = uuid.uuid4().hex[:12]
        self.ruleset, self.seed = ruleset, seed
        self.specs = [s.strip() for s in seats]
        self.state = game.new(seed)
        self.seats_at_start = list(self.state.seats)
        self.agents = {seat: make_agent(spec, seat_seed(seed, seat))
                       for seat, spec in enumerate(self.specs) if spec != HUMAN}
        self.humans = [seat for seat, spec in enumerate(self.specs) if spec == HUMAN]
        self.nature = random.Random(seat_seed(seed, NATURE_SEAT))
        self.marks: list = []  # len(state.stack) before each person's move
        self.reason = ""  # why the last agent chose its move ('searched 3 plies deep: value 2')
        self.lock = threading.Lock()
        self.thought = None  # the agent's search for its move, while it runs

    @property
    def seat_to_move(self) -> int:
        return self.state.seats[self.state.side]

    def status(self) -> str:
        """'over', 'stuck' (no move and no end), 'nature', 'agent', 'thinking' (an agent searches
        for its move) or 'human': who acts next."""
        st = self.state
        if self.thought is not None:
            return "thinking"
        if st.outcome() is not None:
            return "over"
        if not st.moves():
            return "stuck"
        if st.is_chance:
            return "nature"
        return "agent" if self.seat_to_move in self.agents else "human"

    def viewer(self, asked=None):
        """Whose eyes the screen is (see the module docstring); `asked` (a side's name) counts only
        at a table of agents alone."""
        st = self.state
        if not st.game.has_secrets:
            return None
        if not self.humans:
            return side_of(st.game, asked)
        if len(self.humans) == 1:
            return st.seats.index(self.humans[0])
        return st.side if self.seat_to_move in self.humans and not st.is_chance else NOBODY

    def play(self, text) -> str:
        """A person's move, typed or clicked; GameError says why it cannot be played."""
        if not isinstance(text, str) or not text.strip():
            raise GameError("no move given: send {\"move\": \"<a move in notation>\"}")
        with self.lock:
            status = self.status()
            if status != "human":
                raise GameError({"over": "the game is over", "stuck": "no legal move and no rule ends the game",
                                 "nature": "it is nature's turn (chance moves next)",
                                 **dict.fromkeys(("agent", "thinking"), f"it is {self.state.mover_name}'s turn, "
                                                 f"played by {self.specs[self.seat_to_move]}")}[status])
            move = self.state.parse_move(text.strip())
            played = self.state.move_text(move)
            self.marks.append(len(self.state.stack))
            self.state.push(move)
            self.reason = ""
            return played

    def step(self) -> tuple:
        """Nature's move, or the start of an agent's search, when one of them is to move:
        (the move's text as the screen's viewer sees it, None) for nature's, (None, the Thought)
        for an agent's (a search already running is not started again; its `played` is the move's
        text when it ends), (None, None) when a person is to move or the game is over."""
        with self.lock:
            st = self.state
            status = self.status()
            if status == "thinking":
                return None, self.thought
            if status == "nature":
                move = st.game.sample_chance(st, self.nature)
                text = self._seen(move)
                st.push(move)
                return text, None
            if status != "agent":
                return None, None
            agent = self.agents[self.seat_to_move]
            thought = Thought(agent, st.copy(), lambda move, error: self._made(thought, agent, move, error))
            self.thought = thought
            return None, thought.start()

    def _made(self, thought, agent, move, error) -> None:
        """An agent's search has ended: its move is played, unless the table moved on meanwhile
        (an undo); an error is kept for the request waiting for the move."""
        with self.lock:
            if self.thought is not thought:
                return
            self.thought = None
            if error is not None:
                thought.error = error
                return
            st = self.state
            self.reason = f"{st.mover_name} ({agent.spec()}): {agent.reason}" if agent.reason else ""
            thought.played = self._seen(move)
            st.push(move)

    def _seen(self, move) -> str:
        viewer = self.viewer()
        return self.state.move_text(move) if viewer is None else self.state.move_view(move, viewer)

    def release(self) -> None:
        """Wake the requests waiting for an agent's move (the server stops)."""
        thought = self.thought
        if thought is not None:
            thought.release()

    def undo(self) -> int:
        """Take back to the last decision a person made; how many plies went back."""
        with self.lock:
            if not self.marks:
                raise GameError("nothing to take back: no person has moved yet")
            if revealed_since(self.state, self.marks[-1], self.human_sides()):
                raise GameError(REFUSED)
            target, before = self.marks.pop(), len(self.state.stack)
            thought, self.thought = self.thought, None  # an agent's search now answers nothing
            if thought is not None:
                thought.release()
            while len(self.state.stack) > target:
                self.state.pop()
            self.reason = ""
            return before - target

    def human_sides(self) -> list:
        """The sides the people play now."""
        return [self.state.seats.index(seat) for seat in self.humans]

    def can_undo(self) -> bool:
        """A person has moved, and taking back to their last decision undoes no reveal (takeback.py)."""
        return bool(self.marks) and not revealed_since(self.state, self.marks[-1], self.human_sides())

    def record(self):
        """The game so far as a record (`ziggurat records` format)."""
        players = self.state.game.players
        agents = {players[side]: self.specs[seat] for side, seat in enumerate(self.seats_at_start)}
        return record_of(self.state, self.ruleset, agents=agents)

    def view(self, asked=None) -> dict:
        with self.lock:
            viewer = self.viewer(asked)
            out = view(self.state, viewer)
            status = self.status()
            out.update(kind="table", id=self.id, status=status, seats=self.specs,
                       seat_of_mover=self.specs[self.seat_to_move] if status != "over" else None,
                       can_undo=self.can_undo(), seed=self.seed,
                       # an agent's reason may tell what it knows: not shown to a person it hides from
                       reason="" if self.state.game.has_secrets and self.humans else self.reason,
                       moves=clickable_moves(self.state) if status == "human" else [])
            return out


class Replay:
    """A record at a chosen ply; every move is checked as it is played (RecordError names a bad one)."""

    def __init__(self, text: str, source: str = "<record>", offered=None):
        """`offered`: the rulesets a record may name (None: any); no other file is opened."""
        if not isinstance(text, str) or not text.strip():
            raise GameError("no record given: send {\"text\": \"<the record's text>\"}")
        self.id = uuid.uuid4().hex[:12]
        self.record = loads(text, source)
        if offered is not None and self.record.ruleset not in offered:
            hint = did_you_mean(self.record.ruleset, offered)
            raise GameError(f"{source}: the record's ruleset {shown(self.record.ruleset)} is not one this "
                            f"server offers (the rulesets: {', '.join(offered)})" + (f"; {hint}" if hint else ""))
        self.state = self.record.start_state()
        self.lock = threading.Lock()

    @property
    def total(self) -> int:
        return len(self.record.moves)

    def goto(self, ply) -> None:
        """Go to the position after `ply` moves of the record (0: its start)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self.total:
            raise GameError(f"ply {ply!r} is not a whole number from 0 to {self.total}")
        while len(self.state.stack) > ply:
            self.state.pop()
        while len(self.state.stack) < ply:
            play_move(self.record, self.state, len(self.state.stack))

    def view(self, ply=None, asked=None) -> dict:
        with self.lock:
            if ply is not None:
                self.goto(ply)
            viewer = side_of(self.state.game, asked)
            out = view(self.state, viewer)
            done = len(self.state.stack)
            check = None
            if done == self.total:
                try:
                    check_end_matches(self.record, self.state)
                    check = f"replayed {self.total} moves: every move legal, result {self.record.result} as recorded"
                except GameError as e:
                    check = str(e)
            r = self.record
            out.update(kind="replay", id=self.id, at=done, total=self.total, check=check,
                       recorded={"result": r.result, "reason": r.reason, "agents": r.agents, "date": r.date,
                                 "moves": [{"number": i, "side": s, "text": t}
                                           for i, (s, t) in enumerate(zip(r.sides, r.moves), 1)]
                                 if viewer is None or not self.state.game.has_secrets else []})
            return out


__all__ = ["Table", "Replay", "view", "shown_state", "history", "side_of", "HUMAN", "NOBODY"]
