"""Engine properties on Stacktics: push / pop, notation round trips, conservation, invariants.

A Hypothesis state machine plays and takes back random moves on Stacktics at drawn options
(sizes 2..5, the narrow board, the pie rule) and checks the properties after every step; the
property runner behind `ziggurat test` is run on the shipped ruleset as well.
"""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule, run_state_machine_as_test)

import ziggurat
from strategies import games, pieces, random_walks, snapshot, stacktics_options
from ziggurat.proptest import run_properties


class StackticsMachine(RuleBasedStateMachine):
    """Random pushes and pops on one Stacktics game."""

    @initialize(game=games("stacktics", stacktics_options()))
    def start(self, game):
        self.game = game
        self.state = game.new()
        self.pieces = pieces(self.state)
        self.before: list = []  # the snapshot before each move still on the stack

    @precondition(lambda self: bool(self.state.moves()))
    @rule(data=st.data())
    def push(self, data):
        moves = self.state.moves()
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move index")]
        self.before.append(snapshot(self.state))
        self.state.push(move)

    @precondition(lambda self: bool(self.state.stack))
    @rule()
    def pop(self):
        self.state.pop()
        assert snapshot(self.state) == self.before.pop()

    @invariant()
    def moves_read_back(self):
        st_ = self.state
        for move in st_.moves():
            assert st_.parse_move(st_.move_text(move)) == move

    @invariant()
    def position_reads_back(self):
        text = self.state.text()
        copy = self.game.position(text)
        assert copy.text() == text
        if self.state.moves() or self.state.outcome() is None:  # the text holds no repetition history
            assert Counter(copy.moves()) == Counter(self.state.moves())
            assert ziggurat.perft(copy, 1) == len(self.state.moves())

    @invariant()
    def pieces_conserved(self):
        assert pieces(self.state) == self.pieces

    @invariant()
    def declared_invariants_hold(self):
        assert self.state.invariant_failures() == []


class TestStackticsMachine:
    def test_push_pop_notation_and_invariants(self):
        """Push / pop is exact, notation round-trips, pieces are conserved, invariants hold."""
        run_state_machine_as_test(StackticsMachine, settings=settings(
            settings.default, stateful_step_count=25, suppress_health_check=[HealthCheck.too_slow]))


class TestRandomWalks:
    @given(state=games("stacktics", stacktics_options()).flatmap(lambda g: random_walks(g, 20)))
    def test_taking_back_a_whole_walk_gives_the_start(self, state):
        """Popping every move of a random walk gives back the start position exactly."""
        start = snapshot(state.game.new())
        while state.stack:
            state.pop()
        assert snapshot(state) == start


class TestPropertyRunner:
    def test_shipped_stacktics_passes(self):
        """run_properties finds every property holding on the shipped Stacktics."""
        seen = []
        report = run_properties("stacktics", examples=10, max_plies=30, seed=0, progress=seen.append)
        assert report.ok, "\n\n".join(f.render() for f in report.failures)
        assert report.examples >= 10
        assert report.positions > report.examples  # games went beyond their start positions
        assert seen and seen[-1] == report.positions
