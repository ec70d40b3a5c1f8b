"""`ziggurat play`: a person against a uniformly random mover, in the terminal.

The person sits in one seat (the one playing `--as` at the start; a rule that swaps seats moves
them with it). Input is read line by line, so a pipe works as well as a keyboard; end of input
ends the game quietly.
"""

from __future__ import annotations

import random
import sys

import click
from rich.console import Console

import ziggurat

from ..dsl.errors import did_you_mean
from .board import draw
from .options import load_state, position_option, ruleset_argument, set_option

HELP = """\
Type a move in notation (for example {example}), or:
  moves   list the legal moves
  undo    take back your last move and the replies to it
  help    show this
  quit    leave the game"""


class Session:
    """One game between the person (a seat) and a seeded random mover."""

    def __init__(self, state, seat: int, seed, console: Console):
        self.state, self.seat, self.console = state, seat, console
        self.rng = random.Random(seed)
        self.marks: list = []  # len(state.stack) before each of the person's moves, for undo
        self.stdin = sys.stdin  # one reader for the whole game: a new one would lose buffered lines

    @property
    def persons_turn(self) -> bool:
        return self.state.seats[self.state.side] == self.seat

    def show(self) -> None:
        self.console.print(draw(self.state))

    def run(self) -> None:
        self.show()
        while (outcome := self.state.outcome()) is None:
            if not self.state.moves():
                click.echo(f"{self.state.mover_name} has no legal move and no rule ends the game: stopping")
                return
            if not self.persons_turn:
                self.machine_moves()
            elif not self.person_moves():
                return
        self.announce(outcome)

    def machine_moves(self) -> None:
        st = self.state
        move = self.rng.choice(st.moves())
        click.echo(f"{st.mover_name} plays {st.move_text(move)}")
        st.push(move)
        self.show()

    def person_moves(self) -> bool:
        """Read lines until a move is played or undone (True) or the person leaves (False)."""
        while True:
            click.echo(f"{self.state.mover_name} (you) to move> ", nl=False)
            line = self.stdin.readline()
            if not line:
                click.echo("\nend of input: game left unfinished")
                return False
            text = line.strip()
            if not self.stdin.isatty():
                click.echo(text)  # piped input: echo it, so the transcript reads like a session
            if text in ("quit", "exit"):
                click.echo("game left unfinished")
                return False
            if text and self.command(text):
                return True

    def command(self, text: str) -> bool:
        """Do what the person typed; True when the position changed (a move, or an undo)."""
        st = self.state
        if text == "help":
            click.echo(HELP.format(example=self.example()))
        elif text == "moves":
            texts = [st.move_text(m) for m in st.moves()]
            click.echo(" ".join(texts) + f"\n({len(texts)} moves)")
        elif text == "undo":
            if self.undo():
                self.show()
                return True
        else:
            mark = len(st.stack)
            try:
                st.play(text)
            except ziggurat.GameError as e:
                click.echo(f"illegal: {e}")
                return False
            self.marks.append(mark)
            self.show()
            return True
        return False

    def undo(self) -> bool:
        """Take back the person's last move and every reply to it (a full round)."""
        if not self.marks:
            click.echo("nothing of yours to take back")
            return False
        target = self.marks.pop()
        while len(self.state.stack) > target:
            self.state.pop()
        return True

    def example(self) -> str:
        legal = self.state.moves()
        return repr(self.state.move_text(legal[0])) if legal else "a move"

    def announce(self, outcome) -> None:
        game = self.state.game
        who = game.players[outcome.player] if outcome.player is not None else None
        reason = f": {outcome.reason}" if outcome.reason else ""
        if outcome.kind == "draw":
            click.echo(f"game over: draw{reason}")
        else:
            click.echo(f"game over: {who} {'wins' if outcome.kind == 'win' else 'loses'}{reason}")
        mine = outcome.results[self.state.seats.index(self.seat)]
        click.echo({1: "you win", 0: "you lose"}.get(mine, "you draw"))


@click.command()
@ruleset_argument
@click.option("--as", "side", default=None, metavar="SIDE", help="The side you play (default: the first).")
@click.option("--seed", type=int, default=None, help="Seed for the random mover (and any random setup).")
@position_option
@set_option
def play(ruleset, side, seed, position, options):
    """Play against a random mover in the terminal."""
    state = load_state(ruleset, options, position, seed)
    players = state.game.players
    side = players[0] if side is None else side
    if side not in players:
        hint = did_you_mean(side, players)
        raise ziggurat.GameError(f"--as {side!r}: not a side of {state.game.title} "
                                 f"(sides: {', '.join(players)})" + (f"; {hint}" if hint else ""))
    Session(state, state.seats[players.index(side)], seed, Console()).run()
