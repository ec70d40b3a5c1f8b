"""Design lints (`ziggurat test --design`): what a game's design may get wrong, each with its evidence.

- *forced win*: a side that can force a win from the start within `plies` plies; the evidence is
  the forced line (design_search.forced_win);
- *first move*: with a strong agent on every seat, a first move whose player wins most of the games
  (the lower end of the 95% Wilson interval of its win rate above one half); the evidence is the
  move, its games and wins, and the interval;
- *rule without effect*: a rule (a `require` or `when`, an effect, an `if` of the end block or of an
  effect, with its block) whose removal leaves the same legal moves and the same outcome at every
  position of the recorded random games; the evidence is the rule's line and those games;
- *cannot end*: a position reachable from the start from which no line of play ends the game (all
  reachable positions searched, design_search.explore_endings), or, when there are too many to
  search, random games that all ran to the ply limit with a position coming back; the evidence is
  the moves that get there and the loop.

Each lint has a share of a time budget; what did not finish in it says so (`checked`). A lint
that finds nothing also says what it checked. `design_lints` is the function to call; the report
is data (`to_json`).
"""

from __future__ import annotations

import math
import random
import re
import time
from collections import defaultdict
from pathlib import Path
from typing import Optional, Union

from attrs import define, field, frozen

from ..agents import AgentError, make_agent
from ..errors import GameError, ZigguratError
from ..interpreter.games import load, unstored
from ..interpreter.runtime import Game
from .coverage import random_games
from .design_search import Budget, OutOfBudget, explore_endings, forced_win, keyer

# The lints, in the order they run, and the share of the time budget each gets.
LINTS = {"forced-win": 0.2, "cannot-end": 0.2, "first-move": 0.35, "no-effect": 0.25}
# The first-move lint's agent when none is asked for: the native MCTS when Numba is there and the game
# compiles for it (Python MCTS at 200 iterations does not finish a game of a few hundred moves in the lint's time).
NATIVE_AGENT = "mcts:iterations=200:rollouts=native"
PYTHON_AGENT = "mcts:iterations=200"
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


@frozen
class Finding:
    lint: str
    title: str  # one line: what is wrong
    evidence: tuple  # lines of evidence
    data: dict = field(factory=dict)

    def as_dict(self) -> dict:
        return {"lint": self.lint, "title": self.title, "evidence": list(self.evidence), "data": self.data}


@define
class DesignReport:
    ruleset: str
    findings: list = field(factory=list)
    checked: dict = field(factory=dict)  # lint -> what it checked (or why it did not finish)

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "findings": [f.as_dict() for f in self.findings], "checked": self.checked}


def wilson(k: int, n: int) -> tuple:
    """The 95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def design_lints(ruleset: Union[str, Game], *, options: Optional[dict] = None, plies: int = 6, budget: float = 60.0,
                 agent: Optional[str] = None, games: int = 20, random_games_n: int = 50,
                 max_plies: int = 200, seed: Optional[int] = None, lints: Optional[list] = None) -> DesignReport:
    """The design lints of a ruleset (a name, a path or a loaded Game) within about `budget`
    seconds: forced wins within `plies` plies, the first moves of `games` games of `agent` against
    itself (by default the native MCTS, or the Python one without Numba: `first_move_agent`), rules without effect
    over `random_games_n` random games, and whether the game can end
    (games of at most `max_plies` plies). `lints` picks some of LINTS (all by default)."""
    if plies < 1 or budget <= 0 or games < 1 or random_games_n < 1 or max_plies < 1:
        raise GameError("the design lints need plies, games and max plies of at least 1 and a budget above 0")
    game = ruleset if isinstance(ruleset, Game) else load(ruleset, dict(options or {}))
    chosen = list(lints or LINTS)
    unknown = [x for x in chosen if x not in LINTS]
    if unknown:
        raise GameError(f"no design lint {unknown[0]!r}; the lints are {', '.join(LINTS)}")
    report = DesignReport(str(ruleset) if not isinstance(ruleset, Game) else game.name)
    start = time.monotonic()
    total = sum(LINTS[x] for x in chosen)
    spent = 0.0
    for name in chosen:
        spent += LINTS[name] / total
        deadline = start + budget * spent
        run = {"forced-win": lambda d: _forced(game, plies, d, report),
               "cannot-end": lambda d: _cannot_end(game, d, random_games_n, max_plies, seed, report),
               "first-move": lambda d: _first_move(game, agent, games, max_plies, seed, d, report),
               "no-effect": lambda d: _no_effect(game, options, random_games_n, max_plies, seed, d, report)}[name]
        run(deadline)
    return report


def _forced(game: Game, plies: int, deadline: float, report: DesignReport) -> None:
    budget = Budget(nodes=2_000_000, deadline=deadline)
    found, complete = forced_win(game.new(0), plies, budget)
    for f in found:
        report.findings.append(Finding(
            "forced-win", f"{f.side_name} can force a win from the start in {f.plies} plies",
            (f"the forced line: {' '.join(f.line)}",
             f"whatever the others play (and whatever chance gives), {f.side_name} wins within {f.plies} plies"),
            {"side": f.side_name, "plies": f.plies, "line": list(f.line)}))
    report.checked["forced-win"] = (f"every line of up to {plies} plies from the start ({budget.used:,} positions)"
                                    if complete else
                                    f"not finished in its time ({budget.used:,} positions searched, "
                                    f"{len(found)} forced win(s) found before)")


def _cannot_end(game: Game, deadline: float, n: int, max_plies: int, seed: Optional[int],
                report: DesignReport) -> None:
    budget = Budget(nodes=2_000_000, deadline=deadline)
    found = explore_endings(game.new(0), budget)
    if found.complete:
        for trap in found.traps:
            report.findings.append(Finding(
                "cannot-end", "the game can reach a position from which it cannot end" if found.endings
                else "the game cannot end: no reachable position ends it",
                (f"moves from the start: {' '.join(trap.reach) or '(none: the start itself)'}",
                 f"position: {trap.position}",
                 f"a loop it cannot leave: {' '.join(trap.loop) or '(none followed)'}",
                 f"{found.stuck:,} of {found.positions:,} reachable positions cannot reach an ending"),
                {"reach": list(trap.reach), "loop": list(trap.loop), "position": trap.position,
                 "stuck": found.stuck, "positions": found.positions}))
        report.checked["cannot-end"] = (f"every reachable position ({found.positions:,}; "
                                        f"{found.endings:,} of them end the game)")
        return
    # Too many positions: random games, and a loop in one that never ended.
    records: list = []
    _, unfinished = random_games(game, n, max_plies, seed, record=records)
    if unfinished == n:
        loop = _loop_in(game, *records[0])
        report.findings.append(Finding(
            "cannot-end", f"no random game ended: all {n} ran to {max_plies} plies",
            (f"searched {found.positions:,} positions without finishing, so this is not a proof",
             f"a loop in the first game: {' '.join(loop) if loop else '(no position came back)'}"),
            {"games": n, "max_plies": max_plies, "loop": loop}))
    report.checked["cannot-end"] = (f"{found.positions:,} positions searched (not all: too many for the time), "
                                    f"then {n} random games, {n - unfinished} of which ended")


def _loop_in(game: Game, seed: int, moves: list) -> list:
    """The moves between the first two visits of one position in a game (texts), or []."""
    key = keyer(game)
    st = game.new(seed)
    seen = {key(st): 0}
    texts = []
    for i, m in enumerate(moves, 1):
        texts.append(st.move_text(m))
        st.push(m)
        k = key(st)
        if k in seen:
            return texts[seen[k]:]
        seen[k] = i
    return []


def first_move_agent(game: Game, agent: Optional[str]) -> tuple:
    """(agent spec, how it was chosen) for the first-move lint: `agent` when given; else the native
    MCTS when Numba can be imported and the native search runs this game (tried on one move of its
    start, which compiles it or loads it from the cache), else the Python MCTS, saying why."""
    if agent is not None:
        return agent, ""
    from ..interpreter.native import available

    if available() is not None:
        return PYTHON_AGENT, "the Python MCTS: Numba is not installed"
    rng = random.Random(0)
    st = game.new(0)
    try:
        for _ in range(20):  # to the first position a player chooses at (past nature's moves)
            moves = st.moves()
            if not moves or st.outcome() is not None:
                break
            m = game.sample_chance(st, rng, moves) if game.has_chance else None
            if m is None:
                make_agent(NATIVE_AGENT, seed=0).choose(st)
                break
            st.push(m)
    except AgentError as e:
        return PYTHON_AGENT, f"the Python MCTS: the native search cannot run this game ({e})"
    return NATIVE_AGENT, "the native MCTS (Numba)"


def _first_move(game: Game, agent: Optional[str], games: int, max_plies: int, seed: Optional[int],
                deadline: float, report: DesignReport) -> None:
    agent, chosen = first_move_agent(game, agent)
    rng = random.Random(seed)
    tally: dict = defaultdict(lambda: [0, 0])  # first move text -> [games, wins of its player]
    played = 0
    abandoned = False
    for _ in range(games):
        if time.monotonic() > deadline:
            break
        seats = [make_agent(agent, seed=rng.randrange(1 << 30)) for _ in game.players]
        st = game.new(rng.randrange(1 << 30))
        first = None
        while st.outcome() is None and len(st.stack) < max_plies:
            if time.monotonic() > deadline:  # a game cut by the time is not counted
                abandoned = True
                break
            moves = st.moves()
            m = game.sample_chance(st, rng, moves) if game.has_chance else None
            if m is None:
                m = seats[st.side].choose(st)
                if first is None:
                    first = (st.move_text(m), st.side)
            st.push(m)
        if abandoned:
            break
        played += 1
        if first is None:
            continue
        o = st.outcome()
        won = o is not None and o.winners() == (first[1],)
        tally[first][0] += 1
        tally[first][1] += int(won)
    rows = []
    for (move, side), (n, wins) in sorted(tally.items(), key=lambda kv: -kv[1][0]):
        lo, hi = wilson(wins, n)
        rows.append(f"{game.players[side]} {move}: won {wins} of {n} [{lo:.2f}, {hi:.2f}]")
        if lo > 0.5:
            report.findings.append(Finding(
                "first-move", f"the first move {move} wins most of {agent}'s games",
                (f"{game.players[side]} played {move} first in {n} of {played} games and won {wins} "
                 f"({wins / n:.0%}; 95% Wilson interval {lo:.2f} to {hi:.2f})",),
                {"move": move, "side": game.players[side], "games": n, "wins": wins, "interval": [lo, hi],
                 "agent": agent}))
    report.checked["first-move"] = (f"{played} games of {agent} against itself"
                                    + (f" ({chosen}, the default)" if chosen else "")
                                    + (f" (of {games}: the time ran out)" if played < games else "")
                                    + ("; " + "; ".join(rows[:5]) if rows else
                                       "; too few to say anything (a faster --agent or a larger --budget)"))


def ablations(text: str) -> list:
    """(line, text without that rule) for each rule of a rules text that can be taken out alone:
    a `require` or `when` line, and each statement (with its block) under a `do:`, an `end:` or an
    `if`/`else`/`for` inside them."""
    lines = text.splitlines(keepends=True)
    out = []

    def indent(s: str) -> int:
        return len(s) - len(s.lstrip())

    def blank(s: str) -> bool:
        return not s.strip() or s.lstrip().startswith("#")

    parents: list = []  # (indent, header text) of the enclosing lines
    for i, line in enumerate(lines):
        if blank(line):
            continue
        d = indent(line)
        while parents and parents[-1][0] >= d:
            parents.pop()
        stripped = line.strip()
        inside = [h for _, h in parents]
        candidate = d > 0 and (re.match(r"(require|when)\b", stripped) is not None
                               or any(re.match(r"(do|end|after\s*do)\s*:", h) for h in inside))
        if candidate and not re.match(r"(else|elif)\b", stripped):
            j = i + 1
            while j < len(lines) and (blank(lines[j]) or indent(lines[j]) > d):
                j += 1
            out.append((i + 1, "".join(lines[:i] + ["\n"] * (j - i) + lines[j:])))
        parents.append((d, stripped))
    return out


def _positions(game: Game, records: list, seeds: list) -> Optional[list]:
    """Per recorded game, at each position: (sorted legal moves, outcome); None if the game cannot
    replay the moves."""
    out = []
    for moves, s in zip(records, seeds):
        st = game.new(s)
        seen = []
        for m in moves + [None]:
            legal = game.legal(st)
            raw = game.outcome(st, legal)
            seen.append((sorted(legal, key=repr), raw))
            if m is None:
                break
            if m not in legal:
                return None
            game.apply(st, m)
        out.append(seen)
    return out


def _no_effect(game: Game, options: Optional[dict], n: int, max_plies: int, seed: Optional[int], deadline: float,
               report: DesignReport) -> None:
    path, text = game.rules[-1]
    games: list = []
    random_games(game, n, max_plies, seed, record=games)
    records, seeds = [moves for _, moves in games], [s for s, _ in games]
    reference = _positions(game, records, seeds)
    positions = sum(len(r) for r in reference or ())
    tried = dropped = 0
    candidates = ablations(text)
    for line, mutant in candidates:
        if time.monotonic() > deadline:
            break
        tried += 1
        try:
            with unstored():  # a ruleset without one rule, loaded once: not kept in the compile cache
                other = load(path, dict(game.options), text=mutant)
        except ZigguratError:
            continue  # the rules do not check without it
        dropped += 1
        try:
            same = _positions(other, records, seeds) == reference
        except Exception:  # the changed game failed while it ran: it changed something
            same = False
        if same:
            rule = text.splitlines()[line - 1].strip()
            report.findings.append(Finding(
                "no-effect", f"{Path(path).name}:{line}: taking out `{rule}` changes nothing in {n} games",
                (f"without it, the {n} random games (seed {seed}) have the same legal moves and the same "
                 f"outcome at each of their {positions:,} positions",),
                {"file": path, "line": line, "rule": rule, "games": n, "positions": positions}))
    report.checked["no-effect"] = (f"{tried} of {len(candidates)} rules taken out one at a time ({dropped} still "
                                   f"checked) against {n} random games, {positions:,} positions"
                                   + ("" if tried == len(candidates) else "; the time ran out"))


__all__ = ["DesignReport", "Finding", "LINTS", "OutOfBudget", "ablations", "design_lints", "wilson"]
