"""Running a ruleset's own tests on its mutants (`ziggurat test --mutants`): `run_mutants`.

Each mutant (proptest.mutants) is loaded from its changed text; one that does not load or check is
*stillborn*, counted apart. The others meet the ruleset's tests, cheapest first, and the first that
fails kills the mutant (its kind and its message are kept):

1. `example`: the ruleset's examples at the default options (the game already loaded), up to
   the first that fails (proptest.examples.run_examples);
2. `invariant`: its declared invariants at every position of a few seeded random games (a rule
   that fails as the game is played, an error of the rules, kills as `rules error`);
3. `symmetry`: its declared symmetries on one seeded random game;
4. `example`: the examples at other options, one option set (one compiled game) at a time, in
   the order they first appear, up to the first that fails: a ruleset with many option sets pays
   for the ones a mutant gets to, not all of them;
5. `perft pin`: the pinned counts of tests/perft/*.perft for the ruleset (by its file's stem), when
   it is run from a checkout that has them (the counts within the node budget).

A mutant no test kills is *equivalent* when its move tree to depth D (perft, and the outcomes met
on the way) equals the original's from the start and from every example's position, as far as a
node budget allows (the original's depth is found first, the mutant's compared at the same
depths, every position at depth 1 first, then at 2, ...: a mutant that differs is told by a
shallow tree): it is then shown as "equivalent (same perft to depth D)", never counted killed, when D
is EQUIVALENT_DEPTH (2) or more; trees the same at depth 1 only (a position whose deeper tree is
over the node budget) leave it a survivor, the detail saying so. The budget per position is
`nodes` for the trees deeper than EQUIVALENT_DEPTH and EQUIVALENT_NODES times it up to that depth:
a position with a wide second ply (a few hundred moves, each with thousands of replies: half a
million leaves, about a CPU second) is still compared to EQUIVALENT_DEPTH. The others *survive*. The score
is killed / (mutants - stillborn - equivalent). A mutant that survives
the tests is compared at once, in the same worker (its games still in memory), with the
original's trees, which a worker counts the first time one of its mutants survives (outside that
mutant's time) and keeps: a run whose mutants all die never counts them.

The mutants run in worker processes (lab.runner.run_batches, as studies do), one mutant a batch,
each within MUTANT_SECONDS of CPU time (a mutant that takes longer is killed by `timeout`, as
mutation tools count a mutant that hangs as detected; CPU time, so a busy machine is no cause); a `budget` in
seconds leaves the mutants not started by then undone. Results go to a journal (JSON Lines, a
header naming the ruleset's file name, a hash of its text and the settings, never its folder) as
they come, so a stopped run resumes (`resume=True`), from any checkout, with the mutants not yet
done. No game made from a mutant's text is written to the compile cache
(`interpreter.games.unstored`): a run leaves the cache as it found it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Optional

from attrs import asdict, define, evolve, field, frozen

from ..errors import GameError, ZigguratError
from ..interpreter.games import load, unstored
from .mutants import Mutant, mutants, pick
from .perft_files import read as read_perft

JOURNAL_KIND = "ziggurat mutants journal"
JOURNAL_FORMAT = 2  # 2: the trees to EQUIVALENT_DEPTH within EQUIVALENT_NODES times the node budget
MUTANT_SECONDS = 60  # CPU seconds: a mutant whose tests take longer is killed by `timeout`
KILLERS = ("example", "invariant", "rules error", "symmetry", "perft pin", "timeout")


@frozen
class Settings:
    """How the tests run on each mutant (what a journal must match to be resumed)."""

    games: int = 4  # seeded random games for the invariants
    max_plies: int = 40
    seed: int = 0
    depth: int = 3  # the perft depth for equivalence
    nodes: int = 50_000  # the perft node budget per position
    limit: Optional[int] = None
    mutants_seed: int = 0


@define
class MutantsReport:
    ruleset: str
    path: str
    settings: Settings
    total: int = 0  # mutants made (before the limit)
    rows: list = field(factory=list)  # (Mutant, result dict), in file order, the done ones
    undone: int = 0  # not run: the budget ran out, or the run was interrupted
    resumed: int = 0  # taken from the journal
    depths: dict = field(factory=dict)  # position label -> perft depth compared (when counted in this process)
    journal: Optional[str] = None
    interrupted: bool = False

    def count(self, status: str) -> int:
        return sum(1 for _, r in self.rows if r["status"] == status)

    @property
    def score(self) -> Optional[float]:
        """killed / (mutants - stillborn - equivalent), of the mutants done; None when none counts."""
        killed, survived = self.count("killed"), self.count("survived")
        return killed / (killed + survived) if killed + survived else None

    def killed_by(self) -> dict:
        return dict(Counter(r["by"] for _, r in self.rows if r["status"] == "killed"))

    def survivors(self) -> list:
        return [(m, r) for m, r in self.rows if r["status"] == "survived"]

    def equivalents(self) -> list:
        return [(m, r) for m, r in self.rows if r["status"] == "equivalent"]

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "file": self.path, "settings": asdict(self.settings),
                "mutants": self.total, "run": len(self.rows), "undone": self.undone, "resumed": self.resumed,
                "killed": self.count("killed"), "survived": self.count("survived"),
                "equivalent": self.count("equivalent"), "stillborn": self.count("stillborn"),
                "score": self.score, "killed_by": self.killed_by(), "perft_depths": self.depths,
                "journal": self.journal, "interrupted": self.interrupted,
                "rows": [{**m.as_json(), **r} for m, r in self.rows]}


def run_mutants(ruleset: str, *, options: Optional[dict] = None, settings: Settings = Settings(),
                workers: Optional[int] = None, budget: Optional[float] = None, journal: Optional[str] = None,
                resume: bool = False, progress: Optional[Callable[[int, int], None]] = None,
                spread: Optional[Callable] = None) -> MutantsReport:
    """Make the mutants of a ruleset (a shipped name or a path) and run its tests on each.
    `progress(done, total)` is called as mutants finish. A journal in `journal` (a path) keeps the
    results; with `resume` the ones it has are not run again. `spread(fn, batches, workers=,
    progress=)` runs the mutants (lab.runner.run_batches, over every core: the command line passes
    it, since the tools' layer does not import the lab); without it they run here, one by one."""
    options = dict(options or {})
    base = load(ruleset, options)
    if not base.rules:
        raise GameError(f"{ruleset}: no rules text to make mutants from")
    path, text = base.rules[-1]
    found = mutants(text, path)
    chosen = pick(found, settings.limit, settings.mutants_seed)
    report = MutantsReport(str(ruleset), path, settings, total=len(found), journal=journal)
    context = _Context(path, text, options, settings, None, pins(path, settings.nodes))
    done: dict = _read_journal(journal, context.header()) if (journal and resume) else {}
    report.resumed = sum(1 for m in chosen if m.key in done)
    todo = [m for m in chosen if m.key not in done]
    writer = _Journal(journal, context.header(), append=resume and bool(done)) if journal else None
    deadline = time.time() + budget if budget is not None else None
    finished = len(chosen) - len(todo)

    def record(i, result) -> None:
        nonlocal finished
        if result is None:  # not started: the budget ran out
            return
        done[todo[i].key] = result
        finished += 1
        if writer is not None:
            writer.add(todo[i].key, result)
        if progress is not None:
            progress(finished, len(chosen))

    try:
        (spread or _here)(functools.partial(_run_one, context, deadline), todo, workers=workers, progress=record)
        # A survivor is compared as it survives (in `_run_one`); one a journal holds uncompared (a
        # journal of an older run) meets the original's move trees now.
        todo = [m for m in chosen if m.key in done and done[m.key].get("compare")]
        if todo and (deadline is None or time.time() <= deadline):
            context = evolve(context, baseline=_baseline_here(context))
            finished -= len(todo)
            (spread or _here)(functools.partial(_run_one, context, deadline, compare=True), todo, workers=workers,
                              progress=record)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (as cli.interrupts raises it): what is done is kept
        report.interrupted = True
    finally:
        report.rows = [(m, done[m.key]) for m in chosen if m.key in done]
        counted = _BASELINES.get(json.dumps(context.header(), sort_keys=True))  # when counted in this process
        if counted is not None and any(r["status"] in ("equivalent", "survived") for _, r in report.rows):
            report.depths = {row[0]: row[4] for row in counted}
        report.undone = len(chosen) - len(report.rows)
        if writer is not None:
            writer.close()
    return report


def _here(fn, batches, *, workers=None, progress=None) -> None:
    """Run the batches in this process, in order (what `spread` does on one core)."""
    for i, b in enumerate(batches):
        progress(i, fn(b))


# ---- what the original gives: perft from each position, the pinned counts ------------------------


def positions(game, options: dict) -> list:
    """(label, options, position item, moves item) of the start and of every example: where each
    example's expectations are checked, set up again in a mutant by `_setup` (so that a mutant that
    changes the setup or the moves starts from its own position, not the original's). The options
    are those asked for (`options`) and the example's, never the original's defaults: a mutant
    that changes a default is compared at its own."""
    from .examples import declarations

    out = [("start", dict(options), None, None)]
    examples, _ = declarations(game)
    for ex in examples:
        items = {i.kind: i for i in ex.items}
        opts = {k: str(v) for k, v in items["options"].values} if "options" in items else {}
        out.append((f"example {ex.name!r}", {**options, **opts}, items.get("position"), items.get("after")))
    return out


def _setup(path: str, text: str, options: dict, position, after):
    """The state an example's expectations are checked at, in the game of `text`."""
    from .examples import _play, _start

    g = load(path, options, text=text)
    st = _start(g, position)
    if after is not None:
        _play(st, after.values[0])
    return st


def baseline(game, settings: Settings, options: dict) -> list:
    """(label, options, position item, moves item, depth, signatures, made) per position: the
    deepest depth up to settings.depth whose tree fits `budget` (0: not even depth 1), the
    signature at each depth from 1 to it (a mutant is compared depth by depth, shallow first), and
    what the game at its options is made of (`made`)."""
    path, text = game.rules[-1]
    out = []
    for label, opts, position, after in positions(game, options):
        sigs: list = []
        try:
            st = _setup(path, text, opts, position, after)
        except Exception:  # an example that does not set up in the original: nothing to compare there
            continue
        for d in range(1, settings.depth + 1):
            try:
                sigs.append(signature(st.copy(), d, budget(settings, d)))
            except (_TooMany, ZigguratError):
                break
        out.append((label, opts, position, after, len(sigs), tuple(sigs), made(load(path, opts, text=text))))
    return out


def made(game) -> str:
    """What a game is made of: its generated code and its spec. Two texts that make the same at
    some options are the same game there (a change the options fold away), whatever the trees."""
    return hashlib.sha256((game.source + "\0" + repr(game.spec)).encode()).hexdigest()


class _TooMany(Exception):
    pass


def signature(state, depth: int, nodes: int) -> tuple:
    """(leaves to `depth`, the outcomes met on the way by depth, the positions met by depth with the
    side to move and, at a chance node, the probabilities of nature's moves), within `nodes`
    positions (_TooMany). As perft: the last ply's moves are counted, not made, and a finished game
    has nothing below it. The side and the probabilities are kept because a count does not see
    them: a dropped extra turn or a changed `weight` keeps every count but not the game."""
    game = state.game
    legal, apply, undo, outcome = game.legal, game.apply, game.undo, game.outcome
    chances = game.chance_outcomes if game.has_chance else None
    ends: Counter = Counter()
    dice: Counter = Counter()
    seen = [0]

    def rec(d: int) -> int:
        moves = legal(state)
        seen[0] += 1 + (len(moves) if d == 1 else 0)
        if seen[0] > nodes:
            raise _TooMany
        odds = chances(state, moves) if chances is not None else None
        dice[(depth - d, state.side, tuple(sorted(round(p, 9) for _, p in odds)) if odds is not None else ())] += 1
        o = outcome(state, moves)
        if o is not None:
            ends[(depth - d, repr(o))] += 1
            return 0
        if d == 1:
            return len(moves)
        n = 0
        for m in moves:
            apply(state, m)
            n += rec(d - 1)
            undo(state)
        return n

    leaves = rec(depth)
    return leaves, tuple(sorted(ends.items())), tuple(sorted(dice.items()))


def pins(path: str, nodes: int) -> list:
    """(options, position, depth, count) of the records of tests/perft/*.perft for this ruleset
    (by its file's stem), counts of at most `nodes`: looked for in the current folder, then beside
    the package's checkout."""
    stem = Path(path).stem
    here = Path(__file__).resolve()
    for folder in (Path.cwd() / "tests" / "perft", here.parents[3] / "tests" / "perft"):
        if folder.is_dir():
            return [pin for f in sorted(folder.glob("*.perft")) for pin in _read_pins(f, stem, nodes)]
    return []


def _read_pins(f: Path, stem: str, nodes: int) -> list:
    return [(r.options, r.position, depth, n) for r in read_perft(f) if r.ruleset == stem
            for depth, n in r.counts if n <= nodes]


# ---- one mutant, in a worker ---------------------------------------------------------------------


@frozen
class _Context:
    path: str
    text: str
    options: dict
    settings: Settings
    baseline: Optional[list]  # None until a mutant survives the tests (see `_compare`)
    pins: list

    def header(self) -> dict:
        return {"kind": JOURNAL_KIND, "format": JOURNAL_FORMAT, "file": Path(self.path).name,  # not its folder
                "sha256": hashlib.sha256(self.text.encode()).hexdigest(),
                "options": {k: str(v) for k, v in self.options.items()},
                "settings": {k: v for k, v in asdict(self.settings).items() if k not in ("limit", "mutants_seed")}}


class _Timeout(BaseException):
    """A mutant's tests ran out of time (a BaseException: no `except Exception` of a test keeps it)."""


def _run_one(context: _Context, deadline: Optional[float], mutant: Mutant, compare: bool = False) -> Optional[dict]:
    """The result of one mutant (a dict: status, by, detail, seconds), or None past the deadline.
    With `compare`, a survivor's trees only, compared with the original's (context.baseline).
    Without it, a mutant that survives the tests has its trees compared here at once, while its
    games are in this process's memory (not compiled again in a second pass), against the
    original's trees counted once in this process (`_baseline_here`, outside the mutant's time)."""
    if deadline is not None and time.time() > deadline:
        return None
    start = time.monotonic()
    if compare:
        result = _timed(_compare, context, mutant, compare=True)
    else:
        result = _timed(_test, context, mutant, compare=False)
        if result.get("compare") and context.baseline is None:
            here = evolve(context, baseline=_baseline_here(context))
            result = _timed(_compare, here, mutant, compare=True)
    result["seconds"] = round(time.monotonic() - start, 3)
    return result


def _timed(fn, context: _Context, mutant: Mutant, *, compare: bool) -> dict:
    """fn(context, mutant) within MUTANT_SECONDS of this process's CPU time, its games unstored."""
    alarm = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")  # a timer of this process's CPU time

    def timeout(signum, frame):
        raise _Timeout

    if alarm:
        previous = signal.signal(signal.SIGPROF, timeout)
        signal.setitimer(signal.ITIMER_PROF, MUTANT_SECONDS)
    try:
        with unstored():  # a mutant is loaded once and thrown away: nothing of it goes to the compile cache
            return fn(context, mutant)
    except _Timeout:
        if compare:  # the tests held: only the comparison ran long, so the trees are not known to be the same
            return {"status": "survived", "by": "", "detail": f"not compared: over {MUTANT_SECONDS} CPU s"}
        return {"status": "killed", "by": "timeout", "detail": f"its tests took over {MUTANT_SECONDS} CPU s"}
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)


_BASELINES: dict = {}  # the original's trees, by its journal header: counted once per process


def _baseline_here(context: _Context) -> list:
    key = json.dumps(context.header(), sort_keys=True)
    if key not in _BASELINES:
        with unstored():  # the original loaded from its text (by `path` as given, not resolved): not kept
            _BASELINES[key] = baseline(load(context.path, context.options, text=context.text), context.settings,
                                       context.options)
    return _BASELINES[key]


EQUIVALENT_DEPTH = 2  # the shallowest tree, at every position compared, that shows a mutant the same game
EQUIVALENT_NODES = 20  # times Settings.nodes: the budget per position of the trees to EQUIVALENT_DEPTH


def budget(settings: Settings, depth: int) -> int:
    """The original's node budget per position for its tree to `depth` (a mutant's is 4 times it):
    larger up to EQUIVALENT_DEPTH, so that a wide position is compared deep enough to show a
    mutant the same game, and `settings.nodes` beyond it."""
    return settings.nodes * (EQUIVALENT_NODES if depth <= EQUIVALENT_DEPTH else 1)


def _killed(by: str, detail: str) -> dict:
    return {"status": "killed", "by": by, "detail": detail}


def _test(context: _Context, mutant: Mutant) -> dict:
    from .examples import by_options, run_examples, run_symmetries

    s = context.settings
    text = mutant.apply(context.text)
    try:
        game = load(context.path, context.options, text=text)
    except ZigguratError as e:
        return {"status": "stillborn", "by": "", "detail": _first(str(e))}
    try:
        groups = by_options(game)  # the examples at the defaults first: the game already loaded
        failures = run_examples(game, groups[0], stop=True) if groups else []
        if failures:
            return _killed("example", _failure(failures[0]))
        why = _invariants(game, s)
        if why is not None:
            return _killed("invariant", why)
        failures = run_symmetries(game, games=1, max_plies=s.max_plies, seed=s.seed)
        if failures:
            return _killed("symmetry", _failure(failures[0]))
        for group in groups[1:]:  # each other option set compiled only when the ones before all hold
            failures = run_examples(game, group, stop=True)
            if failures:
                return _killed("example", _failure(failures[0]))
        why = _pins(context, text)
        if why is not None:
            return _killed("perft pin", why)
        if context.baseline is None:  # compared later, once the original's trees are counted
            return {"status": "survived", "by": "", "detail": "", "compare": True}
        same = _same_trees(context, text)
    except ZigguratError as e:
        return _killed("rules error", _first(str(e)))
    except (RecursionError, ArithmeticError, IndexError, KeyError, TypeError, ValueError) as e:
        return _killed("rules error", f"the engine failed on it: {type(e).__name__}: {_first(str(e))}")
    return _verdict(same)


def _verdict(same: int) -> dict:
    """Equivalent when the trees were the original's to EQUIVALENT_DEPTH at least; a tree the
    same at depth 1 only (the node budget let no deeper one be counted somewhere) says too little
    of the game: the mutant survives, and the detail says how far it was the same."""
    if same >= EQUIVALENT_DEPTH:
        return {"status": "equivalent", "by": "", "detail": f"same perft to depth {same}"}
    if same:
        return {"status": "survived", "by": "",
                "detail": f"same perft to depth {same} only (deeper trees over the node budget): not shown equivalent"}
    return {"status": "survived", "by": "", "detail": ""}


def _compare(context: _Context, mutant: Mutant) -> dict:
    """A survivor of the tests: equivalent when its trees are the original's, else survived."""
    try:
        same = _same_trees(context, mutant.apply(context.text))
    except (ZigguratError, RecursionError, ArithmeticError, IndexError, KeyError, TypeError, ValueError):
        same = 0
    return _verdict(same)


def _failure(f) -> str:
    """A RulesFailure on one line: the line of the example or symmetry, and what differed."""
    return f"line {f.line}: {f.what}: {_first(f.message)}"


def _first(text: str) -> str:
    lines = [x for x in text.strip().splitlines() if x.strip()]
    return " / ".join(x.strip() for x in lines[:2])[:300] if lines else ""


def _invariants(game, s: Settings) -> Optional[str]:
    """Why the declared invariants fail on the seeded random games, or None."""
    if not game.invariant_texts:
        return None
    for i in range(s.games):
        rng = random.Random(s.seed * 1000 + i)
        st = game.new(rng.randrange(1 << 30))
        played: list = []
        for _ in range(s.max_plies + 1):
            bad = st.invariant_failures()
            if bad:
                return f"invariant {bad[0]!r} is false after {' '.join(played) or '(the start)'} (game {i + 1})"
            moves = st.moves()
            if not moves or st.outcome() is not None:
                break
            m = rng.choice(moves)
            played.append(st.move_text(m))
            st.push(m)
    return None


def _pins(context: _Context, text: str) -> Optional[str]:
    from ..interpreter.runtime import perft

    for opts, position, depth, want in context.pins:
        g = load(context.path, {**context.options, **opts}, text=text)
        st = g.new() if position == "start" else g.position(position)
        got = perft(st, depth)
        if got != want:
            where = " ".join(f"{k}={v}" for k, v in opts.items()) or "the defaults"
            return f"tests/perft: perft {depth} of {position} at {where} is {got}, pinned {want}"
    return None


def _same_trees(context: _Context, text: str) -> int:
    """The smallest depth compared, when every position's tree is the original's; else 0. Every
    position is compared at depth 1, then at depth 2, and so on: a mutant whose game differs is
    usually told by a shallow tree somewhere, before any deep tree is counted. A position at
    options where the mutant makes the same game as the original (the same code and spec) has
    the same trees: not counted again."""
    baseline = context.baseline or []
    rows, states = [], []
    for row in baseline:
        _, opts, position, after, depth, _, original = row
        try:
            if depth == 0 or made(load(context.path, opts, text=text)) == original:
                continue  # nothing to compare, or the same game at these options: the same trees
            states.append(_setup(context.path, text, opts, position, after))
        except Exception:  # the example does not set up in the mutant: it differs
            return 0
        rows.append(row)
    for d in range(1, max((row[4] for row in rows), default=0) + 1):
        for row, st in zip(rows, states):
            if row[4] < d:
                continue
            try:
                if signature(st.copy(), d, 4 * budget(context.settings, d)) != row[5][d - 1]:
                    return 0
            except Exception:  # its tree is too large, or a rule fails in it: it differs
                return 0
    depths = [row[4] for row in baseline if row[4] > 0]
    return min(depths) if depths else 0


# ---- the journal ---------------------------------------------------------------------------------


def default_journal(path: str, options: dict, settings: Settings, text: Optional[str] = None) -> Optional[str]:
    """A journal in the cache folder, named for the ruleset's file name and a key of its rules text
    (`text`, else read from `path`), its options and the settings: never the folder it is in, so a
    run goes on from another checkout or a copy of the same text."""
    from .. import cachedir

    root = cachedir.folder()
    if root is None:
        return None
    if text is None:
        text = Path(path).read_text(encoding="utf-8")
    rules = hashlib.sha256(text.encode()).hexdigest()
    key = hashlib.sha256(json.dumps([rules, {k: str(v) for k, v in options.items()}, asdict(settings)],
                                    sort_keys=True, default=str).encode()).hexdigest()[:16]
    return str(root / "mutants" / f"{Path(path).stem}-{key}.jsonl")


def _read_journal(journal: str, header: dict) -> dict:
    """mutant key -> result of a journal written for the same text and settings ({} otherwise)."""
    try:
        lines = Path(journal).read_text().splitlines()
    except OSError:
        return {}
    if not lines:
        return {}
    try:
        if json.loads(lines[0]) != header:
            return {}
    except json.JSONDecodeError:
        return {}
    out = {}
    for line in lines[1:]:
        try:
            entry = json.loads(line)
            out[entry["mutant"]] = entry["result"]
        except (json.JSONDecodeError, KeyError, TypeError):
            continue  # a line torn by a kill: that mutant runs again
    return out


class _Journal:
    def __init__(self, journal: str, header: dict, append: bool):
        p = Path(journal)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            self.f = open(p, "a" if append else "w", encoding="utf-8")
        except OSError as e:
            raise GameError(f"cannot write the mutants journal {journal}: {e.strerror or e}") from None
        if not append:
            self.f.write(json.dumps(header) + "\n")
            self.f.flush()

    def add(self, key: str, result: dict) -> None:
        self.f.write(json.dumps({"mutant": key, "result": result}) + "\n")
        self.f.flush()

    def close(self) -> None:
        self.f.close()


__all__ = ["KILLERS", "MutantsReport", "Settings", "baseline", "budget", "default_journal", "pins", "run_mutants",
           "made", "signature"]
