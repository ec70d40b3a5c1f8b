"""Rule coverage: which rules of a ruleset fired over some games, and which never did.

The Python backend writes one module per game, and its line map (GameSpec.linemap) gives the rules
line of every generated line. A `Tracer` (interpreter.tracing) counts, with `sys.settrace`
restricted to the code objects of that module's playing functions, each step from one generated
line to the next: the *arcs*. Probes found in the module's syntax tree (interpreter.tracing.probes)
turn arcs into what the rules did:

- an action: the times it was *listed* (a legal move was added for it) and *played*;
- a condition (a `where` filter, a `require`, a `when`, an `if` of an effect, an after block or the
  end block): the times it *held* and the times it was *refused* (false: a `require`'s `else`
  refusal); an `if` counts as taken when the next line run is the first of its body;
- an after block: the times it was played with an action;
- an ending (`win`, `lose`, `draw` of the end block): the times it ended a game;
- a choice: the distinct values it was listed and played with;
- any other rules line: the times one of its generated lines ran.

Nothing of this touches the game when coverage is off: the tracer is set only while it runs.
`rule_coverage` plays random games, runs the ruleset's own examples (through the `also` hook:
those at the options the game was loaded at, the same compiled game; an example at other options is
another module, not traced) and any further callables under one tracer, and returns a `CoverageReport`: rows by rules
line, each with what never fired
and a one-line hint. A mutation runner calls it as a function (`report.never()`, `to_json()`).
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable, Iterable, Optional, Union

from attrs import define, field, frozen

from ..errors import GameError
from ..interpreter.games import load
from ..interpreter.linemap import rules_failures, rules_position
from ..interpreter.runtime import Game
from ..interpreter.tracing import Tracer, probes, statement_lines

@frozen
class Row:
    """What one construct at one rules line did: counts, and what never happened (with hints)."""

    path: str
    line: int
    construct: str  # "action", "choice", "where", "require", "when", "if", "after", "ending", "line", ...
    text: str  # the rules line, stripped
    counts: dict  # e.g. {"listed": 340, "played": 25} or {"held": 12, "refused": 0}
    never: tuple = ()  # one-line notes: what never fired and what that may mean

    @property
    def where(self) -> str:
        return f"{Path(self.path).name}:{self.line}"

    def as_dict(self) -> dict:
        return {"file": self.path, "line": self.line, "construct": self.construct, "text": self.text,
                "counts": dict(self.counts), "never": list(self.never)}


@define
class CoverageReport:
    """Rule coverage of one game over `games` random games (and whatever else ran traced)."""

    ruleset: str
    games: int = 0
    examples: int = 0  # the ruleset's examples run traced
    positions: int = 0
    unfinished: int = 0  # games cut at the ply limit
    rows: list = field(factory=list)

    def never(self) -> list:
        """The rows with something that never fired."""
        return [r for r in self.rows if r.never]

    @property
    def over(self) -> str:
        """What ran traced: '50 games' or '50 games and 3 examples'."""
        return f"{self.games} games" + (f" and {self.examples} example{'s' * (self.examples != 1)}"
                                         if self.examples else "")

    @property
    def complete(self) -> bool:
        return not self.never()

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "games": self.games, "examples": self.examples, "positions": self.positions,
                "unfinished": self.unfinished, "rows": [r.as_dict() for r in self.rows],
                "never": [{"where": r.where, "construct": r.construct, "note": note}
                          for r in self.never() for note in r.never]}


def construct_of(text: str, function: str) -> str:
    """The kind of construct a rules line holds, from its first words."""
    first = re.match(r"[A-Za-z_]\w*", text)
    word = first.group(0) if first else ""
    if word in ("action", "after", "require", "when", "if", "elif", "else", "for", "while", "repeat"):
        return "if" if word in ("elif", "else") else word
    if word in ("win", "lose", "draw", "rank"):
        return "ending"
    if re.fullmatch(r"[A-Za-z_]\w*\s*:", text.split("#")[0].strip()):
        return "block"  # a block's header alone on its line (`end:`, `do:`)
    if re.match(r"[A-Za-z_]\w*\s*:", text):
        return "where" if re.search(r"\bwhere\b", text) else "choice"
    if function == "outcome":
        return "end"
    return "line"


class _Values:
    """The distinct values each choice was listed and played with: (action, slot) -> sets."""

    def __init__(self):
        self.listed: dict = defaultdict(set)
        self.played: dict = defaultdict(set)

    def see(self, moves: list, played: tuple) -> None:
        for m in moves:
            for slot in range(1, len(m)):
                if m[slot] is not None:
                    self.listed[(m[0], slot)].add(m[slot])
        for slot in range(1, len(played)):
            if played[slot] is not None:
                self.played[(played[0], slot)].add(played[slot])


def random_games(game: Game, games: int, max_plies: int, seed: Optional[int], values: Optional[_Values] = None,
                 record: Optional[list] = None) -> tuple:
    """Play `games` uniformly random games (nature by its weights) from new positions; (positions,
    games cut at `max_plies`). Each game's (setup seed, moves) is appended to `record` when given."""
    rng = random.Random(seed)
    legal, apply, outcome = game.legal, game.apply, game.outcome
    positions = unfinished = 0
    for _ in range(games):
        setup = rng.randrange(1 << 30)
        st = game.new(setup)
        moves_played: list = []
        with rules_failures():
            while True:
                moves = legal(st)
                positions += 1
                if outcome(st, moves) is not None:
                    break
                if len(moves_played) >= max_plies:
                    unfinished += 1
                    break
                m = (game.sample_chance(st, rng, moves) if game.has_chance else None) or rng.choice(moves)
                if values is not None:
                    values.see(moves, m)
                apply(st, m)
                moves_played.append(m)
        if record is not None:
            record.append((setup, moves_played))
    return positions, unfinished


def rule_coverage(ruleset: Union[str, Game], *, games: int = 50, max_plies: int = 200, seed: Optional[int] = None,
                  options: Optional[dict] = None, also: Iterable[Callable[[Game], object]] = (),
                  examples: bool = True) -> CoverageReport:
    """Rule coverage of a ruleset (a name, a path or a loaded Game) over `games` random games of at
    most `max_plies` plies, plus the ruleset's own examples (unless `examples=False`) and whatever
    each callable of `also` does with the game (run traced: a mutation runner's tests). The same
    `seed` gives the same report."""
    if games < 0:
        raise GameError(f"the number of games cannot be negative, not {games}")
    game = ruleset if isinstance(ruleset, Game) else load(ruleset, dict(options or {}))
    report = CoverageReport(str(ruleset if not isinstance(ruleset, Game) else game.name), games=games)
    values = _Values()
    also = list(also)
    if examples:
        from .examples import count, run_examples

        report.examples = count(game)[0]
        also.insert(0, run_examples)  # what they find wrong is `ziggurat test`'s to say: here, what they reach
    with Tracer(game) as tracer:
        report.positions, report.unfinished = random_games(game, games, max_plies, seed, values)
        for run in also:
            run(game)
    report.rows = coverage_rows(game, tracer, values, report)
    return report


def coverage_rows(game: Game, tracer: Tracer, values: _Values, report: CoverageReport) -> list:
    """The report's rows, by rules line, from what the tracer counted."""
    spec = game.spec
    texts = _rules_lines(game)
    arcs, hits, calls = tracer.arcs, tracer.hits(), tracer.calls
    into: Counter = Counter()
    for (a, b), n in arcs.items():
        into[(a, b)] = n
    rows: dict = {}
    done_lines: set = set()

    def where(gen_line: int):
        found = rules_position(spec, gen_line)
        return None if found is None else (found[0], found[1])

    def row(place, construct, counts, never):
        path, line = place
        key = (path, line, construct, tuple(counts))
        if key in rows:  # the same construct written in several functions (an after block per action): add up
            old = rows[key]
            counts = {k: old.counts[k] + counts[k] for k in counts}
            never = _renote(construct, counts, report)
        rows[key] = Row(path, line, construct, texts.get(place, ""), counts, tuple(never))
        done_lines.add(place)

    found = probes(game)
    listed: Counter = Counter()
    for p in found:
        if p.kind == "listed":
            listed[p.action] += hits[p.line]
    for p in found:
        place = where(p.line)
        if place is None:
            continue
        if p.kind == "action":
            counts = {"listed": listed[p.action], "played": calls[p.function]}
            row(place, "action", counts, _renote("action", counts, report))
        elif p.kind == "after":
            counts = {"played": into[(p.line, p.body)]}
            row(place, "after", counts, _renote("after", counts, report))
        elif p.kind == "ending":
            counts = {"ended": hits[p.line]}
            row(place, f"ending ({p.label})" if p.label else "ending", counts, _renote("ending", counts, report))
        elif p.kind == "condition":
            held = into[(p.line, p.body)]
            counts = {"held": held, "refused": hits[p.line] - held}
            construct = construct_of(texts.get(place, ""), p.function)
            if construct in ("choice", "line", "action", "for", "end"):
                construct = "where" if construct == "choice" else "condition"
            row(place, construct, counts, _renote(construct, counts, report))
    for (action, slot), seen in sorted(values.listed.items(), key=lambda kv: kv[0]):
        place = _choice_place(game, texts, action, slot)
        if place is None:
            continue
        counts = {"values listed": len(seen), "values played": len(values.played.get((action, slot), ()))}
        note = []
        if len(seen) == 1:
            value = next(iter(seen))
            note.append(f"always {_value_text(game, action, slot, value)} in every move listed: "
                        "the choice never varied (is it needed?)")
        row(place, "choice", counts, note)
    for action in game.spec.actions:  # a choice of an action never listed: no values at all
        for slot in range(1, len(action.choices) + 1):
            if (action.index, slot) not in values.listed:
                place = _choice_place(game, texts, action.index, slot)
                if place is not None and any(r.construct == "action" and r.counts["listed"] for r in rows.values()
                                             if r.text.startswith(f"action {action.name}")):
                    row(place, "choice", {"values listed": 0, "values played": 0},
                        ["never given a value: every move listed left it out"])
    # Every other rules line with generated code in the playing functions: did it ever run?
    lines_of: dict = defaultdict(list)
    for line, function in statement_lines(game):
        place = where(line)
        if place is not None:
            lines_of[place].append((line, function))
    for place, gen in lines_of.items():
        if place in done_lines:
            continue
        ran = max(hits[g] for g, _ in gen)
        construct = construct_of(texts.get(place, ""), gen[0][1])
        if construct in ("action", "after"):
            construct = "line"
        notes = [] if ran else [f"never ran in {report.over}: the rules never got here"]
        row(place, construct, {"ran": ran}, notes)
    return sorted(rows.values(), key=lambda r: (_source_index(spec, r.path), r.line, r.construct))


def _renote(construct: str, counts: dict, report: CoverageReport) -> list:
    """The notes of what never fired, from a row's counts."""
    n = report.over
    if construct == "action":
        if not counts["listed"]:
            return [f"never legal in {n} at these options: a dead action (its conditions never held together)"]
        if not counts["played"]:
            return [f"legal {counts['listed']} times but never played: more games (-n) may try it"]
        return []
    if construct == "after":
        return [] if counts["played"] else ["never played after this action: its `require` never held"]
    if construct.startswith("ending"):
        return [] if counts["ended"] else [f"never ended a game in {n}: unreachable, or another ending always "
                                           "comes first (try more games or --max-plies)"]
    if "held" in counts:
        held, refused = counts["held"], counts["refused"]
        if not held and not refused:
            return ["never reached: the rules before it never let play get here"]
        notes = []
        if not held:
            notes.append(f"never held ({refused} times refused): what it guards never ran")
        if not refused:
            refusal = "refused anything (its `else` never fired)" if construct in ("require", "when", "where") \
                else "was false"
            notes.append(f"never {refusal} in {held} tries: always true here, so perhaps not needed")
        return notes
    return []


def _rules_lines(game: Game) -> dict:
    """(path, line) -> the stripped text of every line of the rules files the game was made from."""
    out = {}
    texts = dict(game.rules)
    for path in game.spec.sources:
        text = texts.get(path)
        if text is None:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        for i, line in enumerate(text.splitlines(), 1):
            out[(path, i)] = line.strip()
    return out


def _source_index(spec, path: str) -> int:
    return spec.sources.index(path) if path in spec.sources else len(spec.sources)


def _choice_place(game: Game, texts: dict, action: int, slot: int) -> Optional[tuple]:
    """(path, line) of a move's choice: the first line after its action's (or the after block's)
    header that declares it (`NAME: ...`)."""
    spec = game.spec.actions[action]
    choices = list(spec.choices)
    if not 1 <= slot <= len(choices):
        return None
    name = choices[slot - 1][0]
    header = re.compile(r"after\b") if spec.nbase and slot > spec.nbase else \
        re.compile(rf"action\s+{re.escape(spec.name)}\b")
    for path in game.spec.sources:
        lines = sorted(n for (p, n) in texts if p == path)
        start = next((n for n in lines if header.match(texts[(path, n)])), None)
        if start is None:
            continue
        for n in lines:
            if n > start and re.match(rf"{re.escape(name)}\s*:", texts[(path, n)]):
                return path, n
    return None


def _value_text(game: Game, action: int, slot: int, value) -> str:
    typ = game.spec.actions[action].choices[slot - 1][1]
    try:
        return game.value_text(typ, value)
    except Exception:  # a value the notation cannot print (a list of cells): its raw form
        return repr(value)
