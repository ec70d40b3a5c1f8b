"""`ziggurat play`: people and agents at one table, in the terminal.

Each seat holds `human` or an agent spec (`random`, `greedy`, `mcts:iterations=200`, ...; see
`ziggurat.agents`). By default the person plays the side named by `--as` (the first side) and a
random mover plays the others; `--seats human,mcts` says it seat by seat instead. A rule that
swaps seats (the pie rule) moves each seat's occupant with it. Input is read line by line, so a
pipe works as well as a keyboard; end of input ends the game quietly. At a terminal, lines are
read with prompt_toolkit (cli/prompt.py): history, and Tab completion of the commands and the
legal moves. `--save FILE` writes the game as a record (see `ziggurat.records`), finished or not.
"""

from __future__ import annotations

import random
import sys

import click
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

import ziggurat

from ..agents import make_agent, parse_spec
from ..errors import did_you_mean
from ..outputs import check_writable
from ..records import record_of, save_record
from ..takeback import REFUSED, revealed_since
from .board import draw
from .options import load_state, position_option, ruleset_argument, set_option

HUMAN = "human"
COMMANDS = ("moves", "board", "hint", "undo", "help", "quit", "exit")

HELP = """\
Type a move in notation (for example {example}), or:
  moves   list the legal moves
  board   show the position again
  hint    what {hint} would play here
  undo    take back to your previous decision (your last move and the replies to it;
          not past a hidden piece shown since, in a game that hides some)
  help    show this
  quit    leave the game"""


NATURE_SEAT = 999  # the stream nature draws from, apart from every seat's
NOBODY = -1  # a viewer who is no side: sees no hidden zone and no secret move


def seat_seed(seed, seat: int):
    """The seed of the agent in `seat`: each seat its own stream, all fixed by `--seed`."""
    return None if seed is None else seed * 1000 + seat


# An action with more legal moves than this whose first choice is a kind (a colour, a player, a
# piece) is listed by that choice's value (a placement by the colour placed).
SPLIT_ABOVE = 30


class Session:
    """One game: a state, who sits in each seat (a person or an agent), and the person's undo marks."""

    def __init__(self, state, specs: list, seed, console: Console, hint_spec: str = "greedy",
                 max_plies: int | None = None):
        self.state, self.specs, self.console = state, specs, console
        self.seed, self.hint_spec, self.max_plies = seed, hint_spec, max_plies
        self.agents = {seat: make_agent(spec, seat_seed(seed, seat))
                       for seat, spec in enumerate(specs) if spec != HUMAN}
        self.humans = [seat for seat, spec in enumerate(specs) if spec == HUMAN]
        self.noted: set = set()  # the agents' seats whose search note was said
        self.hinter = None
        self.nature = random.Random(seat_seed(seed, NATURE_SEAT))  # dice and draws: a stream of their own
        self.marks: list = []  # len(state.stack) before each person's move, for undo
        self.stdin = sys.stdin  # one reader for the whole game: a new one would lose buffered lines
        self.reader = self.terminal_reader()  # None: lines are read from the pipe
        self._completions: tuple = (None, [])  # (position, words) of the last completion asked for
        self.drawn_at = None  # len(state.stack) when the board was last drawn

    @property
    def seat_to_move(self) -> int:
        return self.state.seats[self.state.side]

    @property
    def viewer(self):
        """Whose eyes the screen is: None (everything) when the game hides nothing or only agents
        play; else the one person's side; with several people, the side of the person to move, and
        nobody's (every hidden zone hidden) while an agent or nature moves."""
        st = self.state
        if not st.game.has_secrets or not self.humans:
            return None
        if len(self.humans) == 1:
            return st.seats.index(self.humans[0])
        return st.side if self.seat_to_move in self.humans else NOBODY

    def seen(self, move) -> str:
        """A move about to be made, as the screen's viewer sees it."""
        viewer = self.viewer
        return self.state.move_text(move) if viewer is None else self.state.move_view(move, viewer)

    def show(self) -> None:
        self.console.print(draw(self.state, self.viewer))
        self.drawn_at = len(self.state.stack)

    def run(self) -> None:
        self.show()
        start_ply = self.state.ply
        while (outcome := self.state.outcome()) is None:
            if not self.state.moves():
                click.echo(f"{self.state.mover_name} has no legal move and no rule ends the game: stopping")
                return
            if self.max_plies is not None and self.state.ply - start_ply >= self.max_plies:
                click.echo(f"stopping after {self.max_plies} plies (--max-plies): game left unfinished")
                return
            if self.nature_moves():
                continue
            if self.seat_to_move in self.agents:
                self.machine_moves()
            elif not self.person_moves():
                return
        self.announce(outcome)

    def nature_moves(self) -> bool:
        """Roll the dice (or draw) where nature moves next; whether it did."""
        st = self.state
        move = st.game.sample_chance(st, self.nature) if st.game.has_chance else None
        if move is None:
            return False
        click.echo(f"chance: {self.seen(move)}")
        st.push(move)
        return True

    def machine_moves(self) -> None:
        st = self.state
        agent = self.agents[self.seat_to_move]
        move = agent.choose(st)
        if self.seat_to_move not in self.noted:  # once a seat: a native search asked for that could not be built
            self.noted.add(self.seat_to_move)
            note = agent.search_note(st.game)
            if note is not None:
                click.echo(f"note: {note}")
        click.echo(f"{st.mover_name} plays {self.seen(move)}")
        st.push(move)
        self.show()

    def person_moves(self) -> bool:
        """Read lines until a move is played or undone (True) or the person leaves (False)."""
        if self.drawn_at != len(self.state.stack):  # nature moved since (dice rolled, cards drawn)
            self.show()
        while True:
            prompt = f"{self.state.mover_name} (you) to move> "
            if self.reader is not None:  # a terminal: line editing, history (Up) and Tab completion
                got = self.reader.read(prompt)
                line = "" if got is None else got + "\n"
            else:
                click.echo(prompt, nl=False)
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

    def terminal_reader(self):
        """prompt_toolkit's line reader when both ends are a terminal, else None (a pipe, a file)."""
        if not (self.stdin.isatty() and sys.stdout.isatty()):
            return None
        from .prompt import LineReader  # prompt_toolkit: loaded only for a person at a terminal

        return LineReader(self.words)

    def words(self) -> list:
        """What Tab completes: the commands and the legal moves' texts (kept for the position)."""
        here = self.state.text()
        if self._completions[0] != here:
            moves = [self.state.move_text(m) for m in self.state.moves()]
            self._completions = (here, list(COMMANDS) + moves)
        return self._completions[1]

    def command(self, text: str) -> bool:
        """Do what the person typed; True when the position changed (a move, or an undo)."""
        st = self.state
        if text == "help":
            click.echo(HELP.format(example=self.example(), hint=self.hint_spec))
        elif text == "moves":
            self.list_moves()
        elif text == "board":
            self.show()
        elif text == "hint":
            self.hint()
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

    def list_moves(self) -> None:
        """The legal moves in columns, grouped by action (a move is never broken across lines);
        an action with many moves is grouped further by its first choice (a placement by the colour placed)."""
        st = self.state
        by_action: dict = {}
        for m in st.moves():
            by_action.setdefault(m[0], []).append(m)
        groups: dict = {}
        for index, ms in by_action.items():
            action = st.game.actions[index]
            kind = action.choices[0][1] if action.choices else None
            split = (len(ms) > SPLIT_ABOVE and len(action.choices) >= 2 and len({m[1] for m in ms}) > 1
                     and getattr(kind, "name", None) in ("enum", "player", "piece"))
            for m in ms:
                key = (f"{action.name} {st.game.value_text(action.choices[0][1], m[1])}" if split
                       else action.name)
                groups.setdefault(key, []).append(st.move_text(m))
        total = sum(len(t) for t in groups.values())
        for name, texts in groups.items():
            if len(groups) > 1:
                self.console.print(Text(f"{name} ({len(texts)}):", style="bold"))
            self.console.print(Columns([Text(t, no_wrap=True) for t in texts], padding=(0, 3)))
        click.echo(f"({total} moves)")

    def hint(self) -> None:
        """What the hint agent would play here (it keeps its own seeded stream across hints)."""
        if self.hinter is None:
            self.hinter = make_agent(self.hint_spec, seat_seed(self.seed, len(self.specs)))
        move = self.hinter.choose(self.state)
        why = f" ({self.hinter.reason})" if self.hinter.reason else ""
        click.echo(f"hint: {self.hint_spec} would play {self.state.move_text(move)}{why}")

    def undo(self) -> bool:
        """Take back to the last decision a person made (their move and every reply to it)."""
        if not self.marks:
            click.echo("nothing of yours to take back")
            return False
        sides = [self.state.seats.index(seat) for seat in self.humans]
        if revealed_since(self.state, self.marks[-1], sides):
            click.echo(REFUSED)
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
        if len(self.humans) == 1:
            mine = outcome.results[self.state.seats.index(self.humans[0])]
            click.echo({1: "you win", 0: "you lose"}.get(mine, "you draw"))

    def agents_by_side(self, seats_at_start: list) -> dict:
        """Starting side -> who sat there, for the record."""
        players = self.state.game.players
        return {players[side]: self.specs[seat] for side, seat in enumerate(seats_at_start)}


def _seat_specs(ctx, param, value):
    """`human,mcts:iterations=200` -> ['human', 'mcts:iterations=200'], each spec checked."""
    if value is None:
        return None
    specs = [s.strip() for s in value.split(",")]
    for spec in specs:
        if spec != HUMAN:
            try:
                parse_spec(spec)
            except ziggurat.ZigguratError as e:
                raise click.BadParameter(f"{e} (or 'human')") from None
    return specs


def _agent_spec(ctx, param, value):
    try:
        parse_spec(value)
    except ziggurat.ZigguratError as e:
        raise click.BadParameter(str(e)) from None
    return value


@click.command()
@ruleset_argument
@click.option("--seats", default=None, metavar="WHO,WHO", callback=_seat_specs,
              help="Who sits in each seat, in the order of the sides: 'human' or an agent spec "
                   "(random, greedy, mcts:iterations=200, alphabeta:depth=3). Default: human, random.")
@click.option("--as", "side", default=None, metavar="SIDE",
              help="The side you play against random movers (default: the first); not with --seats.")
@click.option("--seed", type=int, default=None, help="Seed for the agents (and any random setup).")
@click.option("--hint", "hint_spec", default="greedy", show_default=True, metavar="AGENT",
              callback=_agent_spec, help="The agent that answers `hint`.")
@click.option("--save", "save_path", default=None, type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the game as a record to FILE when it ends (or is left).")
@click.option("--max-plies", type=click.IntRange(min=1), default=None,
              help="Stop after this many plies (for games without an end rule).")
@position_option
@set_option
def play(ruleset, seats, side, seed, hint_spec, save_path, max_plies, position, options):
    """Play in the terminal: people and agents, the board after each move, undo, hints."""
    if save_path is not None:
        check_writable(save_path, "--save")  # before the game, not after it
    state = load_state(ruleset, options, position, seed)
    players = state.game.players
    if seats is not None and side is not None:
        raise click.UsageError("use --seats or --as, not both (--seats human,random says both)")
    if seats is None:
        side = players[0] if side is None else side
        if side not in players:
            hint = did_you_mean(side, players)
            raise ziggurat.GameError(f"--as {side!r}: not a side of {state.game.title} "
                                     f"(sides: {', '.join(players)})" + (f"; {hint}" if hint else ""))
        seats = ["random"] * len(players)
        seats[state.seats[players.index(side)]] = HUMAN
    elif len(seats) != len(players):
        raise click.BadParameter(f"{len(seats)} seat{'s' if len(seats) != 1 else ''} given but "
                                 f"{state.game.title} has {len(players)} ({', '.join(players)})",
                                 param_hint="--seats")
    seats_at_start = list(state.seats)
    start = "start" if position.strip() in ("", "start") else state.text()
    session = Session(state, seats, seed, Console(), hint_spec, max_plies)
    try:
        session.run()
    finally:
        if save_path is not None:
            record = record_of(state, ruleset, start=start, agents=session.agents_by_side(seats_at_start))
            save_record(save_path, record)
            click.echo(f"record saved to {save_path} ({len(record.moves)} moves, {record.result})")
