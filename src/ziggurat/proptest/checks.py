"""One random game under test, and the properties checked at every position it reaches."""

from __future__ import annotations

import math
import random
from collections import Counter
from contextlib import contextmanager
from typing import Optional

from hypothesis import strategies as st

from ..interpreter.runtime import Game, State, perft
from .report import Failed, Stop, invariant_property


# The engine's own properties, in the order they are checked; declared invariants follow.
PROPERTIES = {
    "compiles": "the ruleset compiles at every option value it accepts",
    "moves apply": "every generated move applies, once, and is legal",
    "undo": "pop restores the exact position",
    "move notation": "every legal move prints differently and reads back as itself",
    "position notation": "a position's text reads back as the same position",
    "perft": "perft(1) of a re-read position counts the legal moves",
    "conservation": "pieces are never created or destroyed",
    "chance": "at a chance node the outcomes' probabilities are positive and add up to 1",
    "hidden": "what a player sees does not depend on what it cannot see (its observation, and its moves "
              "when it is to move, are the same in any world dealt from what it sees)",
    "ends with an outcome": "a position without legal moves has an outcome",
    "invariants evaluate": "the declared invariants can be evaluated",
}

# Every legal move is read back while there are at most this many; beyond, an evenly spread
# sample that shifts every ply (reading a move back looks at every legal move, so reading them
# all costs the square of their number). Every move's text is still checked to be unique.
PARSE_SAMPLE = 100
# Beyond this many legal moves, push/pop is also tried on a spread sample.
UNDO_SAMPLE = 100


class GameUnderTest:
    """One random game under test."""

    def __init__(self, runner, game: Game, data):
        """`runner` is the search.Runner that draws the games (what it wants checked, where
        failures go)."""
        self.runner, self.game, self.data = runner, game, data
        self.wants = runner.wants
        self.played: list = []  # the moves in notation, for the failure
        self.position = ""
        self.setup_seed: Optional[int] = None

    @contextmanager
    def checking(self, prop: str, doing: str = ""):
        """Any exception inside (a GameError or an engine crash) fails `prop`."""
        try:
            yield
        except (Failed, Stop):
            raise
        except Exception as e:  # the engine's own errors are what this looks for
            self.fail(prop, (f"{doing}: " if doing else "") + f"{type(e).__name__}: {e}")

    def fail(self, prop: str, message: str):
        self.runner.fail(prop, self.game.options, self.played, self.position, message, self.setup_seed)

    def play(self) -> None:
        with self.checking("compiles", "setting up"):
            random_setup = self.runner.random_setup(self.game)
        if random_setup:
            self.setup_seed = self.data.draw(st.integers(0, 2**16), label="setup seed")
        with self.checking("compiles", "setting up"):
            state = self.game.new(self.setup_seed)
        with self.checking("position notation"):
            self.position = state.text()
        start, start_text = _snapshot(state), self.position
        with self.checking("conservation"):
            pieces = _pieces(state)
        for ply in range(self.runner.max_plies + 1):
            moves = self.check_position(state, pieces, ply)
            if not moves or ply == self.runner.max_plies:
                break
            index = self.data.draw(st.integers(0, len(moves) - 1), label=f"ply {ply + 1}")
            move = moves[index]
            with self.checking("move notation"):
                text = state.move_text(move)
            if self.wants("moves apply"):
                with self.checking("moves apply", f"checking {text}"):
                    if move not in state.legal_moves:
                        self.fail("moves apply", f"{text} is generated but not in state.legal_moves")
                    why = state.explain(move)
                if why != "legal":
                    self.fail("moves apply", f"{text} is generated but explain says: {why}")
            with self.checking("moves apply", f"pushing {text}"):
                state.push(move)
            with self.checking("position notation"):
                after = state.text()
            if self.wants("undo"):  # undo it once more, comparing the position text as well
                with self.checking("undo", f"popping {text}"):
                    state.pop()
                    back = state.text()
                if back != self.position:
                    self.fail("undo", f"pushing and popping {text} changes the position text to {back!r}")
                with self.checking("moves apply", f"pushing {text}"):
                    state.push(move)
            self.played.append(text)
            self.position = after
        if self.wants("undo"):
            with self.checking("undo", "taking back the whole game"):
                while state.stack:
                    state.pop()
                now, now_text = _snapshot(state), state.text()
            if now != start or now_text != start_text:
                self.position = now_text
                self.fail("undo", "taking back the whole game does not give the start position "
                          f"{start_text!r}" + (":\n" + _difference(start, now) if now != start else ""))

    def check_position(self, state: State, pieces: Counter, ply: int) -> list:
        """Check the wanted properties at this position; its legal moves."""
        self.runner.counted()
        with self.checking("moves apply", "generating the moves"):
            moves = state.moves()
        if self.wants("moves apply") or self.wants("undo"):
            self.check_undo(state, moves, ply)
        if self.wants("move notation"):
            self.check_move_notation(state, moves, ply)
        if self.wants("position notation") or self.wants("perft"):
            self.check_position_notation(state, moves)
        if self.wants("conservation"):
            with self.checking("conservation"):
                now = _pieces(state)
            if not _conserved(self.game, pieces, now):
                self.fail("conservation", _piece_change(self.game, pieces, now))
        if self.game.has_chance and moves and self.wants("chance"):
            self.check_chance(state, moves)
        if self.game.has_secrets and self.wants("hidden"):
            self.check_hidden(state, moves, ply)
        if not moves and self.wants("ends with an outcome"):
            with self.checking("ends with an outcome"):
                outcome = state.outcome()
            if outcome is None:
                self.fail("ends with an outcome", "no legal moves, but no end rule applies")
        if self.runner.focus is None or self.runner.focus.startswith("invariant "):
            with self.checking("invariants evaluate"):
                failing = state.invariant_failures()
            for inv in failing:
                if self.wants(invariant_property(inv)):  # one already reported: the game goes on
                    self.fail(invariant_property(inv), f"the declared invariant {inv!r} is false here")
        if self.runner.focus is None or self.runner.focus.startswith("symmetry "):
            self.check_symmetries(state)
        return moves

    def check_symmetries(self, state: State) -> None:
        """Each declared symmetry (at this game's options) maps the position to one with the mapped
        moves and outcome (proptest.symmetry): a failure here is shrunk like any property's."""
        for prop, where, sym in self.runner.symmetry_maps(self.game):
            if not self.wants(prop):
                continue
            if isinstance(sym, str):  # it cannot be made at these options (and not merely a board not square)
                self.fail(prop, f"declared at {where}: {sym}")
            with self.checking(prop, f"declared at {where}: the rules failed"):
                why = sym.differs(state)
            if why is not None:
                self.fail(prop, f"declared at {where}: {why}")

    def check_chance(self, state: State, moves: list) -> None:
        with self.checking("chance", "listing the chance outcomes"):
            outcomes = self.game.chance_outcomes(state, moves)
        if outcomes is None:
            return
        total = sum(p for _, p in outcomes)
        if [m for m, _ in outcomes] != moves or any(p <= 0 for _, p in outcomes) or not math.isclose(total, 1.0):
            self.fail("chance", f"the outcomes' probabilities add up to {total!r}: "
                      + ", ".join(f"{_safe_text(state, m)} {p:.4g}" for m, p in outcomes))

    def check_hidden(self, state: State, moves: list, ply: int) -> None:
        rng = random.Random(ply)
        chance = self.game.has_chance and self.game.chance_outcomes(state, moves) is not None
        for side in range(len(self.game.players)):
            with self.checking("hidden", f"dealing a world as {self.game.players[side]} sees it"):
                world = state.determinized(side, rng)
                seen, again = state.observation(side), world.observation(side)
                other_moves = world.moves() if side == state.side and moves and not chance else None
            if seen != again:
                self.fail("hidden", f"{self.game.players[side]} sees {seen!r} here but {again!r} in a world "
                          "that differs only in what it cannot see")
            if other_moves is not None and sorted(other_moves) != sorted(moves):
                extra = sorted(set(map(world.move_text, other_moves)) ^ set(map(state.move_text, moves)))
                self.fail("hidden", f"{self.game.players[side]}'s moves depend on what it cannot see: "
                          f"{', '.join(extra[:5])} are legal in one world and not in another that looks the same to it")

    def check_undo(self, state: State, moves: list, ply: int) -> None:
        """Every move is generated once and pushes; pop restores the position and its moves."""
        if len(set(moves)) != len(moves):
            dup = next(m for m, n in Counter(moves).items() if n > 1)
            self.fail("moves apply", f"the move {_safe_text(state, dup)} is generated twice")
        before = _snapshot(state)
        for move in _spread(moves, UNDO_SAMPLE, ply):
            with self.checking("moves apply", f"pushing {_safe_text(state, move)}"):
                state.push(move)
            with self.checking("undo", f"popping {_safe_text(state, move)}"):
                state.pop()
                after = _snapshot(state)
            if after != before:
                self.fail("undo", f"pushing and popping {_safe_text(state, move)} changes the position:\n"
                          + _difference(before, after))
        with self.checking("undo", "generating the moves again"):
            again = state.moves()
        if again != moves:
            self.fail("undo", "the legal moves differ after pushing and popping every move")

    def check_move_notation(self, state: State, moves: list, ply: int) -> None:
        """Every legal move prints differently and reads back as itself."""
        with self.checking("move notation"):
            texts = [state.move_text(m) for m in moves]
        if len(set(texts)) != len(texts):
            same = next(t for t, n in Counter(texts).items() if n > 1)
            which = ", ".join(repr(m) for m, t in zip(moves, texts) if t == same)
            self.fail("move notation", f"different moves print the same, {same!r}: {which}")
        for move, text in _spread(list(zip(moves, texts)), PARSE_SAMPLE, ply):
            with self.checking("move notation", f"reading {text!r}"):
                back = state.parse_move(text, moves)
            if back != move:
                self.fail("move notation", f"{text!r} is the move {move!r} but reads back as {back!r}")

    def check_position_notation(self, state: State, moves: list) -> None:
        """The position text reads back as the same position, with the same moves and perft(1)."""
        with self.checking("position notation", "reading the position back"):
            text = state.text()
            copy = self.game.position(text)
            copy_text = copy.text()
            copy_moves = copy.moves()
        if copy_text != text:
            self.fail("position notation", f"the position reads back as {copy_text!r}")
        # The position text does not hold the history, so a game ended by repetition may go on
        # in the copy; any other difference is a failure.
        if moves or state.outcome() is None:
            if Counter(copy_moves) != Counter(moves):
                lost = sorted(_safe_text(state, m) for m in set(moves) - set(copy_moves))
                new = sorted(_safe_text(copy, m) for m in set(copy_moves) - set(moves))
                self.fail("position notation", "the position read back has other legal moves"
                          + (f"; missing: {' '.join(lost)}" if lost else "")
                          + (f"; extra: {' '.join(new)}" if new else ""))
        with self.checking("perft"):
            leaves = perft(copy, 1)
        if leaves != len(copy_moves):
            self.fail("perft", f"perft(1) is {leaves} but there are {len(copy_moves)} legal moves")


# ---- helpers -----------------------------------------------------------------------------------


def _spread(items: list, limit: int, shift: int) -> list:
    """All of `items`, or `limit` of them evenly spread, starting at a place that moves with `shift`."""
    if len(items) <= limit:
        return items
    step = math.ceil(len(items) / limit)
    return items[shift % step::step]


def _snapshot(state: State) -> dict:
    """What undo must restore (the position text is derived from these)."""
    return {
        "cells": list(state.cells), "zones": list(state.zones), "counters": list(state.counters),
        "table": state.on_table(),
        "side": state.side, "ply": state.ply, "seats": list(state.seats), "moves pushed": len(state.stack),
    }


def _difference(before: dict, after: dict) -> str:
    return "\n".join(f"    {k}: {before[k]!r} became {after[k]!r}" for k in before if before[k] != after[k])


def _pieces(state: State) -> Counter:
    out: Counter = Counter()
    for stack in state.cells:
        out.update(stack)
    for zone in state.zones:
        out.update(zone)
    out.update(piece for piece, _ in state.on_table())  # the open table's
    if state.game.changes_pieces:  # change() turns pieces into others: count them only
        return Counter({0: sum(out.values())})
    return out


def _conserved(game: Game, start: Counter, now: Counter) -> bool:
    """Pieces are neither created nor destroyed; in a game that places pieces during play
    (place() in a move), none is ever lost."""
    if game.creates_pieces:
        return all(now[p] >= n for p, n in start.items())
    return now == start


def _piece_change(game: Game, start: Counter, now: Counter) -> str:
    def listing(c: Counter) -> str:
        return " ".join(f"{n}x{game.world.piece_text(p)}" for p, n in sorted(c.items()))

    lost, made = start - now, now - start
    return ("the pieces changed"
            + (f"; gone: {listing(lost)}" if lost else "")
            + (f"; new: {listing(made)}" if made else ""))


def _safe_text(state: State, move) -> str:
    try:
        return state.move_text(move)
    except Exception:  # a move the notation cannot print: show the tuple
        return repr(move)
