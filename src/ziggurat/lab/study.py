"""A study: many games of one ruleset between agents, on every core or on a Dask cluster.

A study plays `games` games of one ruleset (at fixed options) between agents. Seats rotate fairly:
game i gives agent j the seat (i + j) mod players. Each game's seed (for the setup and for every
agent) is derived from the study seed and the game's index alone, so a study gives the same numbers
whatever the number of workers, locally or on a cluster (an agent with a *time* budget is the one
exception: how far it searches depends on the machine).

Results are kept by *seat* (the person) and by *side* (the army): the pie rule can swap who plays
which side, so an agent's result is that of its seat, and the first player is the seat that moved
first. Each game is a `GameResult` (frozen), and a study's games a `GameTable` (typed columns, a row
a game: `ziggurat.lab.table`). One loop plays a game in the Python backend
(`play_out`, which rotation matches use too); between random agents, the native backend plays a
whole chunk of games in one kernel call (`play_native_chunk`). The statistics are in `stats`, the
CSV, plots and report page in `report`.

Because a game depends only on the study and its index, a study can stop part way and go on later
with the same results: `run_study(..., skip=done, on_records=keep)` plays only the games not in
`done` and hands each finished batch to `keep`; a `journal.Journal` keeps finished games in a file (JSON
Lines, one game a line, flushed after every batch) for `ziggurat simulate --resume`.
"""

from __future__ import annotations

import functools
import os
import random
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Callable, Optional

from attrs import field, frozen

import ziggurat

from ..agents import make_agent, parse_spec
from ..agents.base import by_seat
from ..errors import GameError
from ..interpreter.outcome import outcome_of
from .runner import WORKER_TIMEOUT, dask_threads, run_batches
from .seeds import NATURE_SALT, derived_seed, derived_seeds, seed_key
from .table import GameResult, GameTable, native_table

SIM_CAP_REASON = "max plies (simulator)"  # the reason of a game cut short by the study's --max-plies
# The longest game a study plays: a game's moves stay in memory until it ends (some hundreds of
# bytes a ply in every worker), so the cap bounds a worker's memory.
MAX_PLIES_LIMIT = 100_000
DEFAULT_MAX_PLIES = 10_000  # long enough for every shipped game to end by its own rules (a card game: ~2,000)


@frozen
class StudySpec:
    """What a study plays: a ruleset at some options, the agents (one per seat), how many games."""

    ruleset: str
    agents: tuple
    games: int
    options: dict = field(factory=dict)
    seed: int = 0
    max_plies: int = 1000
    label: str = ""
    backend: str = "python"  # or "native": random agents' whole games in the native backend
    rollout: str = "whole"  # native random games: "whole" (uniform over turns) or "parts" (part by part)

    @property
    def name(self) -> str:
        return self.label or describe(self.ruleset, self.options)


def describe(ruleset: str, options: dict) -> str:
    """'mygame size=2 pie=false': a ruleset and the options set on it."""
    return " ".join([Path(ruleset).stem if ruleset.endswith(".rules") else ruleset]
                    + [f"{k}={v}" for k, v in options.items()])


def seat_of(index: int, agent: int, players: int) -> int:
    """The seat agent `agent` takes in game `index`: the seats rotate one step per game."""
    return (index + agent) % players


def agent_labels(agents) -> list:
    """A name per agent: its spec, numbered when two agents share it."""
    return [spec if list(agents).count(spec) == 1 else f"{spec} #{j + 1}" for j, spec in enumerate(agents)]


def ruleset_ref(ruleset: str) -> str:
    """How workers find the ruleset: a shipped name stays a name, a file becomes an absolute path."""
    p = Path(ruleset)
    for candidate in (p, p.with_name(p.name + ".rules")):
        if candidate.is_file():
            return str(candidate.resolve())
    return ruleset


# ---- playing ---------------------------------------------------------------------------------------


def seating(index: int, players: int) -> tuple:
    """Seat -> agent in game `index` (the inverse of `seat_of`)."""
    return tuple((seat - index) % players for seat in range(players))


def kind_text(kind) -> str:
    """An outcome's kind as text (an enum's value, or the text itself)."""
    return getattr(kind, "value", kind)


@frozen
class Played:
    """A game played out by `play_out`."""

    raw: Optional[tuple]  # the raw outcome (Game.outcome's), None when stopped at max plies
    plies: int  # the moves made
    branching: int  # legal moves summed over the positions where `choose` chose
    positions: int  # the positions where `choose` chose (nature's moves are not decisions)
    used: dict  # action name -> moves made of it (nature's included)
    moves: tuple  # the moves made, when asked for (`keep_moves`)


def play_out(game, state, choose: Callable, nature: random.Random, max_plies: Optional[int] = None, *,
             keep_moves: bool = False, checked: bool = False) -> Played:
    """Play `state` (changed in place) to its end, or until `max_plies` moves are made: nature
    moves with `nature` where it moves (`Game.sample_chance`), `choose(state)` chooses the other
    moves. `checked`: `choose` may return a move's text, and what it returns is played only if
    legal (State.play, a GameError if not); else it returns a legal move tuple (State.push)."""
    from ..interpreter.linemap import rules_failures

    legal, outcome = game.legal, game.outcome
    names = [a.name for a in game.actions]
    used: Counter = Counter()
    moves: list = []
    plies = branching = positions = 0
    with rules_failures():  # a rule failing reaches the caller as a RulesetError at its line
        while True:
            options = legal(state)
            raw = outcome(state, options)
            if raw is not None:
                break
            if max_plies is not None and plies >= max_plies:
                break
            move = game.sample_chance(state, nature, options)
            if move is None:
                branching += len(options)
                positions += 1
                move = choose(state)
            if checked:
                move = state.play(move)
            else:
                state.push(move)
            used[names[move[0]]] += 1
            plies += 1
            if keep_moves:
                moves.append(move)
    return Played(raw, plies, branching, positions, dict(used), tuple(moves))


def play_game(game, agents: tuple, index: int, study_seed: int, max_plies: int) -> GameResult:
    """Play game `index` of a study in the Python backend, between `agents` (one per seat)."""
    players = len(game.players)
    seat_agent = seating(index, players)
    seed = derived_seed(study_seed, index, 0)
    # the agent in seat s is agent seat_agent[s]; each gets its own seed for this game
    bots = [make_agent(agents[seat_agent[s]], derived_seed(study_seed, index, seat_agent[s] + 1))
            for s in range(players)]
    state = game.new(seed)
    nature = random.Random(derived_seed(study_seed, index, NATURE_SALT))  # dice, draws: their own stream
    first_seat = state.seats[state.side]
    played = play_out(game, state, lambda st: bots[st.seats[st.side]].choose(st), nature, max_plies)
    raw = played.raw if played.raw is not None else ("draw", None, SIM_CAP_REASON)
    end = outcome_of(raw, players)  # a `rank by` becomes a win or a draw here, as State.outcome() says
    per_side = tuple(float(r) for r in end.results)
    kind = kind_text(end.kind)
    points = tuple(float(x) for x in end.scores) if game.points and end.scores else (0.0,) * players
    points = points if game.points else ()  # a game cut short at max plies scores nothing
    return GameResult(index, seed, seat_agent, first_seat, by_seat(state, per_side), per_side, tuple(state.seats),
                      kind, end.reason or kind, played.plies, played.branching, played.positions,
                      played.used.get("pass", 0), played.used, state.statistics(), "python",
                      by_seat(state, points) if points else (), points)


def play_native_chunk(game, fast, agents: tuple, indices, study_seed: int, max_plies: int,
                      rollout: str = "whole", memo: Optional[dict] = None) -> "NativeChunk":
    """The games `indices` of a study between random agents, played by one call of the native
    kernel (`fast`: the game's NativeGame, `study_chunk`); `records()` of what it returns are
    play_game's records marked backend "native". Game i starts from game.new(derived_seed(seed,
    i, 0)), as in the Python backend; its moves come from the native generator (SplitMix64)
    seeded with the seed its first agent would have had (derived_seed(seed, i, 1)), so they are
    not the Python backend's games (see the pipeline page). The kernel derives both seeds itself
    (the same words: `study_seeds.study_seed`), but in a game of whole turns or past index 2**32.
    A game the native loop could not hold (a stack past its room) is played by the Python backend
    instead. A Python state is made a game only where the ruleset declares `statistic`s (measured
    on the last position). `rollout` "parts" draws each turn part by part (the kernel's rollout
    policy: another random process). `memo`: a dict kept over the chunks of one study (its setup
    drawing or not, and the start of a setup that draws nothing, made once)."""
    import numpy as np

    from ..errors import Unsupported

    idx = np.arange(indices.start, indices.stop, indices.step, dtype=np.int64) if isinstance(indices, range) \
        else np.asarray(indices, dtype=np.int64)
    memo = {} if memo is None else memo
    if "draws" not in memo:
        memo["draws"] = game.setup_draws()
    keyed = fast.turns is None and (idx.size == 0 or (int(idx.min()) >= 0 and int(idx.max()) <= 0xFFFFFFFF))
    setup = derived_seeds(study_seed, idx, 0) if memo["draws"] or not keyed else None
    if memo["draws"]:
        states = [game.new(s) for s in setup.tolist()]
        starts, held = [], []  # the start vectors, and the positions in `indices` of the games they start
        for k, state in enumerate(states):
            try:
                starts.append(fast.start(state)[0])
                held.append(k)
            except Unsupported:  # a setup the native layout cannot hold
                pass
        firsts = np.array([st.seats[st.side] for st in states], dtype=np.int64)
        held = np.asarray(held, dtype=np.int64)
        rows = np.stack(starts) if starts else None
    else:  # a setup that draws nothing is the same for every seed: one start vector serves all
        if "start" not in memo and idx.size:
            state = game.new(derived_seed(study_seed, int(idx[0]), 0))
            try:
                memo["start"] = (fast.start(state)[0][None, :], state.seats[state.side])
            except Unsupported:  # a setup the native layout cannot hold
                memo["start"] = (None, state.seats[state.side])
        rows, first = memo.get("start", (None, 0))
        held = np.arange(len(idx), dtype=np.int64) if rows is not None else np.zeros(0, dtype=np.int64)
        firsts = np.full(len(idx), first, dtype=np.int64)
    rows = rows if rows is not None else np.zeros((1, fast.layout.size), np.int64)
    finals, parts = bool(game.statistic_texts), rollout == "parts"
    if keyed:
        cols = fast.study_chunk(rows, idx[held].astype(np.uint64), max_plies, finals=finals, parts=parts,
                                key=seed_key(study_seed, 1, 0))
        setup_held = cols.setups if setup is None else setup[held]
    else:
        cols = fast.study_chunk(rows, derived_seeds(study_seed, idx[held], 1), max_plies, finals=finals, parts=parts)
        setup_held = setup[held]
    keys, first = np.unique(cols.codes * 2 + (cols.who >= 0), return_index=True)
    endings = {int(key): _ending(fast, int(cols.codes[k]), cols.results[k], int(cols.who[k]))
               for key, k in zip(keys, first)}  # code * 2 + (whether a side is named) -> (kind, reason)
    lost = cols.codes < 0
    stats = None
    if game.statistic_texts:
        stats = [None if bad else fast.state(v).statistics() for v, bad in zip(cols.finals, lost.tolist())]
    others = {}
    if len(held) < len(idx) or lost.any():  # the Python backend plays the games the kernel did not hold
        python = sorted(set(range(len(idx))) - set(held.tolist())) + held[lost].tolist()
        others = {int(idx[k]): play_game(game, agents, int(idx[k]), study_seed, max_plies) for k in python}
        idx, firsts = idx[held], firsts[held]
    results, points = cols.results, None
    if game.points:  # the kernel's results are points: the results (wins, losses) come from the outcomes
        n = len(game.players)
        points = np.where((cols.codes <= 0)[:, None], 0.0, cols.results)  # cut short: no points
        known: dict = {}  # (code, who) -> the results of a win, loss or draw
        results = np.array([_points_results(fast, c, r, w, n, known)
                            for c, r, w in zip(cols.codes.tolist(), cols.results.tolist(), cols.who.tolist())],
                           dtype=float).reshape(len(cols.codes), n)
    return NativeChunk(idx, setup_held, firsts, len(game.players), tuple(a.name for a in game.actions),
                       endings, cols.plies, cols.codes, results, cols.who, cols.branching, cols.actions,
                       cols.seats, stats, others, points)


def _points_results(fast, code: int, points: list, who: int, n: int, known: dict) -> tuple:
    """The results of a native game of points (its outcome code, points per side and side named):
    a win, loss or draw's depend on the code and the side only, and are worked out once."""
    if code <= 0:
        return (0.5,) * n
    got = known.get((code, who))
    if got is None:
        got = fast.ended(code, points + [who])[3]
        if fast.outcomes[code - 1][0] != "rank":  # `win by NAME`: the points decide, not the code
            known[code, who] = got
    return got


@frozen(eq=False)
class NativeChunk:
    """A chunk of a study's games as the native kernel played them: plain data (NumPy columns,
    lists), cheap to send from a worker to its parent (some 0.1 us a game, where its records
    would cost 10 to pickle and unpickle), where `table()` makes the study's table of them."""

    indices: object  # the games the kernel played (int64)
    setup: object  # each one's setup seed (uint64)
    firsts: object  # each one's first seat (int64)
    players: int
    names: tuple  # the actions' names
    endings: dict  # code * 2 + (whether a side is named) -> (kind, reason)
    plies: object  # ChunkColumns' columns, a row a game
    codes: object
    results: object
    who: object
    branching: object
    actions: object
    seats: object
    statistics: Optional[list]  # a dict a game where the ruleset declares statistics
    others: dict  # index -> GameResult of the games the Python backend played (not held by the kernel)
    points: object = None  # per side (a row a game), the points of a game whose results are points

    def table(self) -> GameTable:
        """The chunk's games as a table (one row a game, in the order of the indices)."""
        return native_table(self)


def _ending(fast, code: int, results, who: int) -> tuple:
    """(kind, reason) of a native game's outcome code (0: cut at the study's max plies)."""
    if code <= 0:
        return "draw", SIM_CAP_REASON
    kind, _, reason, _ = fast.ended(code, list(results) + [who])
    return kind, reason or kind


def _run_batch(args: tuple, seed: int, max_plies: int, indices: list):
    from ..interpreter.linemap import rules_failures

    with rules_failures():  # a rule failing in a worker reaches the parent as a RulesetError at its line
        return _run_chunk(*args, indices, seed, max_plies)


def _run_chunk(ruleset: str, options: dict, agents: tuple, backend: str, rollout: str, token: str, indices,
               seed: int, max_plies: int):
    """Play the games `indices` of a study (in a worker process, or on a Dask worker): their
    records, or a NativeChunk from which the parent makes them. The study's game is loaded at its
    first chunk in this process and kept for the others (`token` names the study)."""
    got = _STUDY.get(token)
    if got is None:
        got = _keep_study(token, ziggurat.load(ruleset, options or None))
    game, memo = got
    if backend == "native":
        return play_native_chunk(game, _native_of(game), agents, indices, seed, max_plies, rollout, memo)
    return [play_game(game, agents, i, seed, max_plies) for i in indices]


# This process's latest study (token -> its game and play_native_chunk's memo): loading a game
# (reading its files to find it in the cache) and making its start cost ~1.5 ms a chunk.
_STUDY: dict = {}


def _keep_study(token: str, game) -> tuple:
    """Keep `game` as this process's study `token` (one study at a time: a game and its start);
    (game, memo)."""
    _STUDY.clear()
    _STUDY[token] = got = (game, {})
    return got


def _native_of(game):
    """The game's NativeGame: native() makes it once per process and rules (a look-up after)."""
    from ..interpreter.native import native  # Numba is imported only when asked for

    return native(game, ())


def _compile_chunk_loop(game) -> None:
    """Compile the game's chunk loop (or load it from the cache) in this process (`simulate` has
    done it already, choosing the backend: then this costs nothing)."""
    import numpy as np

    from ..errors import Unsupported

    fast = _native_of(game)
    try:
        start = fast.start(game.new(0))[0]
    except Unsupported:  # a setup the layout cannot hold: the workers will see
        return
    fast.study_chunk(start, np.zeros(1, np.uint64), 1)


PYTHON_CHUNK = 50  # the most games of a chunk in the Python backend (some milliseconds a game)
NATIVE_CHUNK = 10_000  # in the native backend: microseconds to milliseconds a game, one kernel call a chunk
# on one worker, where batches are cut by time (`_run_serial`): some MB of columns, a batch of
# fast games (2 us to 20 us a game) whole
SERIAL_NATIVE_CHUNK = 50_000
# agents that search (seconds to minutes a game): a game a batch, so that each game reaches the
# journal and the progress bar as it ends, and an interrupted study loses at most the games in play
SEARCH_CHUNK = 1
SEARCHING = ("mcts", "alphabeta")


def _batch_most(spec: StudySpec) -> int:
    """The most games of a batch of the study `spec`, by what its games cost."""
    if spec.backend == "native":
        return NATIVE_CHUNK
    if any(parse_spec(a)[0] in SEARCHING for a in spec.agents):
        return SEARCH_CHUNK
    return PYTHON_CHUNK


def _full_size(n: int, workers: int, most: int) -> int:
    """The games of a full batch: about eight a worker, at most `most`."""
    return max(1, min(most, n // (workers * 8) or 1))


def _chunks(indices, workers: int, most: int) -> list:
    """The games `indices` (a list or a range) in batches (slices of it): about eight a worker, of
    at most `most` games; the first one a worker no larger than a Python backend's, so that the
    first games (and the progress bar) come soon. On several workers the last ones shrink (each
    at most an even share of what is left, down to an eighth of the others), so that the workers
    finish together: one last batch of the full size would leave the others idle for it."""
    n = len(indices)
    size = _full_size(n, workers, most)
    smallest = max(1, size // 8)
    out: list = []
    i = 0
    while i < n:
        step = min(size, PYTHON_CHUNK) if len(out) < workers else size
        if workers > 1:
            step = min(step, max(-(-(n - i) // (2 * workers)), smallest))
            step = n - i if n - i - step < smallest else step  # no crumb after the last
        out.append(indices[i:i + step])
        i += step
    return out


def check_spec(spec: StudySpec):
    """The study's game, after checking the agents fit it; ZigguratErrors name what is wrong."""
    game = ziggurat.load(spec.ruleset, spec.options or None)
    for a in spec.agents:
        parse_spec(a)
    n = len(game.players)
    if len(spec.agents) != n:
        raise GameError(f"{game.name} has {n} players ({', '.join(game.players)}): give {n} agents, "
                        f"one per seat (--agents {','.join(['random'] * n)}), not {len(spec.agents)}")
    if n > 2 and any(parse_spec(a)[0] == "alphabeta" for a in spec.agents):
        raise GameError(f"alphabeta plays one- and two-player games; {game.name} has {n} players")
    if spec.games < 1:
        raise GameError(f"a study needs at least one game, not {spec.games}")
    if not 1 <= spec.max_plies <= MAX_PLIES_LIMIT:
        raise GameError(f"max plies must be between 1 and {MAX_PLIES_LIMIT:,}, not {spec.max_plies:,}")
    return game


def search_notes(spec: StudySpec, game) -> list:
    """What the study's agents cannot search as asked on its game (a native search that falls back
    to Python, and why), one line each, for the output and the page. Builds the native searches here,
    once, so the workers load them from the cache."""
    notes = []
    for a in dict.fromkeys(spec.agents):
        note = make_agent(a, seed=0).search_note(game)
        if note is not None:
            notes.append(note)
    return notes


def run_study(spec: StudySpec, *, workers: Optional[int] = None, client=None,
              progress: Optional[Callable[[int], None]] = None, skip=(),
              on_records: Optional[Callable[[list], None]] = None,
              notice: Optional[Callable[[str], None]] = None, worker_timeout: float = WORKER_TIMEOUT) -> list:
    """The records of the study's games not in `skip` (indices), sorted by index. `workers` local
    processes (default: every core), or the Dask `client` when given; `progress(k)` is called as
    each batch of k games finishes, and `on_records(records)` with the batch's records. A worker
    that dies is replaced and its games played again (see `ziggurat.lab.runner`); `notice(text)` says
    so. On KeyboardInterrupt the workers are stopped and the interrupt is raised again: the games
    finished by then have been handed to `on_records`."""
    game = check_spec(spec)
    ref = ruleset_ref(spec.ruleset)
    workers = workers or os.cpu_count() or 1
    skip = set(skip)
    todo = [i for i in range(spec.games) if i not in skip] if skip else range(spec.games)
    args = (ref, dict(spec.options), tuple(spec.agents), spec.backend, spec.rollout, uuid.uuid4().hex)
    run = functools.partial(_run_batch, args, spec.seed, spec.max_plies)
    players = len(game.players)
    made: dict = {}  # batch number -> its games, as a table

    def finished(i, part):
        made[i] = part = part.table() if isinstance(part, NativeChunk) else GameTable.of_records(part, players)
        if on_records is not None:
            on_records(part)
        if progress is not None:
            progress(len(part))

    most = _batch_most(spec)
    if client is None and workers == 1:
        _keep_study(args[-1], game)  # in this process: the game check_spec loaded, not loaded again
        _run_serial(run, todo, SERIAL_NATIVE_CHUNK if spec.backend == "native" else most, finished)
    else:
        chunks = _chunks(todo, workers if client is None else max(1, dask_threads(client)), most)
        if spec.backend == "native" and client is None and min(workers, len(chunks)) > 1:
            _compile_chunk_loop(game)  # here, once: the workers load it from the cache instead of each compiling it
        run_batches(run, chunks, workers=workers, client=client, progress=finished, notice=notice,
                    worker_timeout=worker_timeout)
    return GameTable.concat([made[i] for i in sorted(made)], players)


BATCH_SECONDS = 0.5  # on one worker, a batch after the first lasts about this long (wall time)


def _run_serial(run: Callable, indices, most: int, done: Callable, clock: Callable[[], float] = time.perf_counter):
    """The games `indices` played in this process (one worker), in batches cut as they go:
    `done(k, run(batch))` for each. The first batch is one game (a game may take minutes: the
    first comes soon); each next one holds what the latest batch's games took BATCH_SECONDS to
    play, at most `most` (the latest, not all so far: the first holds the warm-up, a compile or a
    cache load, which would keep the next ones small for a long while). Games of microseconds so
    come in a few large batches after two or three small ones (a native batch costs some tenths of
    a millisecond of Python besides its games, and the tables are joined once), and slow ones in
    batches small enough for the progress bar to move and Ctrl-C to lose little."""
    n, at, k, size = len(indices), 0, 0, 1
    while at < n:
        batch = indices[at:at + size]
        start = clock()
        done(k, run(batch))
        spent = clock() - start
        at, k = at + len(batch), k + 1
        size = max(1, min(most, int(len(batch) / max(spent, 1e-9) * BATCH_SECONDS)))
