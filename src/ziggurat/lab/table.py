"""A study's games as records: one `GameResult` a game, and a `GameTable` of many games as typed
columns (NumPy arrays, a row a game).

A study returns a `GameTable`. The native kernel plays tens of thousands of games a second, and a
Python object a game (some 4 us to make, and as much again for the statistics to read) cost more
than the games themselves: a table is made from the kernel's columns whole, the statistics read its
columns, and a `GameResult` is made only for a row something asks for (iterating the table, its
journal line, its CSV row). A table compares equal to another, or to a list of records, holding the
same games in the same order.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from operator import attrgetter
from typing import Iterator, Optional

import attrs
import numpy as np
from attrs import frozen

BACKENDS = ("python", "native")  # a row's `backend` code -> its name


@frozen
class GameResult:
    """How one game of a study went: what a study's table holds a row of and its journal keeps
    (`as_json`, a line of JSON). Results are per seat (the person) and per side (the army): see
    `ziggurat.lab.study`."""

    index: int  # the game's number in its study
    seed: int  # the seed of its setup, derived from the study's seed and the index
    seat_agents: tuple  # seat -> the agent sitting there (its number in the study's agents)
    first_seat: int  # the seat that moved first
    results_by_seat: tuple  # per seat: 1 a win, 0 a loss, a share of a draw
    results_by_side: tuple  # the same per side
    final_seats: tuple  # side -> the seat playing it at the end (the pie rule swaps them)
    kind: str  # "win", "lose" or "draw"
    reason: str  # why it ended (its kind when the rules name no reason)
    plies: int
    branching: int  # legal moves summed over the positions played from
    positions: int  # the positions played from (the Python backend: those where an agent chose)
    passes: int  # moves of actions called `pass`
    actions: dict  # action name -> moves made of it (nature's included), for the actions used
    statistics: dict  # the ruleset's `statistic`s on the last position
    backend: str = "python"  # or "native": the game was played whole by the native backend
    scores_by_seat: tuple = ()  # per seat, the points of a game whose results are points (else empty)
    scores_by_side: tuple = ()  # the same per side

    def as_json(self) -> dict:
        """The record as plain data, ready for JSON: the journal's line (format 2), where the
        Python backend's records have no `backend`."""
        out = {"index": self.index, "seed": self.seed, "seat_agents": list(self.seat_agents),
               "first_seat": self.first_seat, "results_by_seat": list(self.results_by_seat),
               "results_by_side": list(self.results_by_side), "final_seats": list(self.final_seats),
               "kind": self.kind, "reason": self.reason, "plies": self.plies, "branching": self.branching,
               "positions": self.positions, "passes": self.passes, "actions": dict(self.actions),
               "statistics": dict(self.statistics)}
        if self.backend != "python":
            out["backend"] = self.backend
        if self.scores_by_side:
            out["scores_by_seat"], out["scores_by_side"] = list(self.scores_by_seat), list(self.scores_by_side)
        return out

    def __reduce__(self):
        """Pickled as its fields in order (a worker's records go to the parent so): about half
        the time to pickle and two thirds of the bytes of attrs' own way (a dict of the fields)."""
        return GameResult, _FIELDS(self)

    @classmethod
    def from_json(cls, data) -> "GameResult":
        """The record `as_json` gave; KeyError, TypeError or ValueError when `data` is not one."""
        if not isinstance(data, dict) or not isinstance(data["actions"], dict) \
                or not isinstance(data["statistics"], dict):
            raise TypeError("a game's record is an object with objects for its actions and statistics")
        return cls(index=_whole(data["index"]), seed=_whole(data["seed"]),
                   seat_agents=tuple(_whole(x) for x in data["seat_agents"]), first_seat=_whole(data["first_seat"]),
                   results_by_seat=tuple(float(x) for x in data["results_by_seat"]),
                   results_by_side=tuple(float(x) for x in data["results_by_side"]),
                   final_seats=tuple(_whole(x) for x in data["final_seats"]), kind=_text(data["kind"]),
                   reason=_text(data["reason"]), plies=_whole(data["plies"]), branching=_whole(data["branching"]),
                   positions=_whole(data["positions"]), passes=_whole(data["passes"]),
                   actions={_text(k): _whole(v) for k, v in data["actions"].items()},
                   statistics=dict(data["statistics"]), backend=_text(data.get("backend", "python")),
                   scores_by_seat=tuple(float(x) for x in data.get("scores_by_seat", ())),
                   scores_by_side=tuple(float(x) for x in data.get("scores_by_side", ())))


_FIELDS = attrgetter(*(a.name for a in attrs.fields(GameResult)))  # a record's fields as a tuple, in order


def _whole(x) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"{x!r} is not a whole number")
    return x


def _text(x) -> str:
    if not isinstance(x, str):
        raise TypeError(f"{x!r} is not text")
    return x


@frozen(eq=False)
class GameTable:
    """Games of one study as columns, a row a game (see the module). Every array has one row a
    game; `endings[ending[k]]` is game k's (kind, reason); `actions[k, a]` the moves game k made of
    the action `action_names[a]`."""

    players: int
    index: np.ndarray  # int64
    seed: np.ndarray  # uint64
    seat_agents: np.ndarray  # int64, (games, players)
    first_seat: np.ndarray  # int64
    results_by_seat: np.ndarray  # float, (games, players)
    results_by_side: np.ndarray  # float, (games, players)
    final_seats: np.ndarray  # int64, (games, players)
    ending: np.ndarray  # int64: a row of `endings`
    endings: tuple  # ((kind, reason), ...), each once
    plies: np.ndarray  # int64
    branching: np.ndarray  # int64
    positions: np.ndarray  # int64
    passes: np.ndarray  # int64
    action_names: tuple
    actions: np.ndarray  # int64, (games, actions)
    backend: np.ndarray  # int8: a row of BACKENDS
    statistics: Optional[tuple] = None  # a dict a game, where some game has statistics
    scores_by_seat: Optional[np.ndarray] = None  # float (games, players), in a game of points
    scores_by_side: Optional[np.ndarray] = None

    # ---- made from ----------------------------------------------------------------------------

    @classmethod
    def empty(cls, players: int) -> "GameTable":
        return cls.of_records([], players)

    @classmethod
    def of_records(cls, records, players: int) -> "GameTable":
        """The table of GameResults (in their order)."""
        records = list(records)
        n = len(records)
        endings = list(dict.fromkeys((r.kind, r.reason) for r in records))
        where = {e: k for k, e in enumerate(endings)}
        names = list(dict.fromkeys(name for r in records for name in r.actions))
        col = {name: a for a, name in enumerate(names)}
        actions = np.zeros((n, len(names)), dtype=np.int64)
        for k, r in enumerate(records):
            for name, count in r.actions.items():
                actions[k, col[name]] = count

        def ints(f):
            return np.array([f(r) for r in records], dtype=np.int64)

        def rows(f, dtype):
            return np.array([f(r) for r in records], dtype=dtype).reshape(n, players)

        scored = any(r.scores_by_side for r in records)
        return cls(players, ints(attrgetter("index")), np.array([r.seed for r in records], dtype=np.uint64),
                   rows(attrgetter("seat_agents"), np.int64), ints(attrgetter("first_seat")),
                   rows(attrgetter("results_by_seat"), float), rows(attrgetter("results_by_side"), float),
                   rows(attrgetter("final_seats"), np.int64), ints(lambda r: where[r.kind, r.reason]),
                   tuple(endings), ints(attrgetter("plies")), ints(attrgetter("branching")),
                   ints(attrgetter("positions")), ints(attrgetter("passes")), tuple(names), actions,
                   np.array([BACKENDS.index(r.backend) for r in records], dtype=np.int8),
                   tuple(r.statistics for r in records) if any(r.statistics for r in records) else None,
                   rows(lambda r: r.scores_by_seat or (0.0,) * players, float) if scored else None,
                   rows(lambda r: r.scores_by_side or (0.0,) * players, float) if scored else None)

    @classmethod
    def concat(cls, tables: list, players: int) -> "GameTable":
        """One table of the rows of `tables`, sorted by game index (each table's rows are)."""
        tables = [t for t in tables if len(t)]
        if not tables:
            return cls.empty(players)
        if len(tables) == 1:
            return tables[0]
        endings = list(dict.fromkeys(e for t in tables for e in t.endings))
        names = list(dict.fromkeys(name for t in tables for name in t.action_names))
        n = sum(len(t) for t in tables)
        actions = np.zeros((n, len(names)), dtype=np.int64)
        at = 0
        for t in tables:
            actions[at:at + len(t), [names.index(a) for a in t.action_names]] = t.actions
            at += len(t)
        ending = np.concatenate([np.array([endings.index(e) for e in t.endings], dtype=np.int64)[t.ending]
                                 for t in tables])

        def cat(name, same_as=None):  # a column every table holds as another (same_as): that one, joined once
            if same_as is not None and all(getattr(t, name) is getattr(t, same_as) for t in tables):
                return joined[same_as]
            joined[name] = np.concatenate([getattr(t, name) for t in tables])
            return joined[name]

        joined: dict = {}

        stats = None
        if any(t.statistics is not None for t in tables):
            stats = tuple(s for t in tables for s in (t.statistics or ({},) * len(t)))
        scored = any(t.scores_by_side is not None for t in tables)

        def scores(name):
            return np.concatenate([getattr(t, name) if getattr(t, name) is not None
                                   else np.zeros((len(t), players)) for t in tables]) if scored else None

        by_side, plies = cat("results_by_side"), cat("plies")  # native tables' by seat and positions, often
        table = cls(players, cat("index"), cat("seed"), cat("seat_agents"), cat("first_seat"),
                    cat("results_by_seat", "results_by_side"), by_side, cat("final_seats"), ending, tuple(endings),
                    plies, cat("branching"), cat("positions", "plies"), cat("passes"), tuple(names), actions,
                    cat("backend"), stats, scores("scores_by_seat"), scores("scores_by_side"))
        if len(table) > 1 and not (np.diff(table.index) > 0).all():  # the batches came out of order
            table = table.take(np.argsort(table.index, kind="stable"))
        return table

    def take(self, rows) -> "GameTable":
        """The table of the rows `rows` (indices or a mask), in that order."""
        rows = np.asarray(rows)
        if rows.dtype == bool:
            rows = np.flatnonzero(rows)
        pick = [self.statistics[k] for k in rows.tolist()] if self.statistics is not None else None
        return GameTable(self.players, self.index[rows], self.seed[rows], self.seat_agents[rows],
                         self.first_seat[rows], self.results_by_seat[rows], self.results_by_side[rows],
                         self.final_seats[rows], self.ending[rows], self.endings, self.plies[rows],
                         self.branching[rows], self.positions[rows], self.passes[rows], self.action_names,
                         self.actions[rows], self.backend[rows], tuple(pick) if pick is not None else None,
                         None if self.scores_by_seat is None else self.scores_by_seat[rows],
                         None if self.scores_by_side is None else self.scores_by_side[rows])

    # ---- read as records ----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.index)

    def __iter__(self) -> Iterator[GameResult]:
        return iter(self.records())

    def __getitem__(self, k: int) -> GameResult:
        return self.records(np.arange(len(self))[[k]])[0]

    def __eq__(self, other) -> bool:
        if isinstance(other, (GameTable, list, tuple)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    def __add__(self, other) -> list:
        return list(self) + list(other)

    def records(self, rows=None) -> list:
        """The GameResults of the rows `rows` (default: all), in order: Python values, equal rows
        sharing their tuples."""
        rows = np.arange(len(self)) if rows is None else np.asarray(rows)
        with collector_paused():
            return self._records(rows)

    def _records(self, rows) -> list:
        def tuples(a):  # one tuple for equal rows of a column (ints and floats apart: (0, 1) == (0.0, 1.0))
            shared: dict = {}
            return [shared.setdefault(t, t) for t in map(tuple, a[rows].tolist())]

        names = self.action_names
        used = [{names[a]: c for a, c in enumerate(row) if c} for row in self.actions[rows].tolist()]
        stats = [self.statistics[k] for k in rows.tolist()] if self.statistics is not None else [{}] * len(rows)
        none: list = [()] * len(rows)
        by_seat = tuples(self.scores_by_seat) if self.scores_by_seat is not None else none
        by_side = tuples(self.scores_by_side) if self.scores_by_side is not None else none
        endings = self.endings
        return [GameResult(i, s, sa, f, rs, rd, fs, *endings[e], p, b, q, ps, u, st, BACKENDS[be], ss, sd)
                for i, s, sa, f, rs, rd, fs, e, p, b, q, ps, u, st, be, ss, sd in zip(
                    self.index[rows].tolist(), self.seed[rows].tolist(), tuples(self.seat_agents),
                    self.first_seat[rows].tolist(), tuples(self.results_by_seat), tuples(self.results_by_side),
                    tuples(self.final_seats), self.ending[rows].tolist(), self.plies[rows].tolist(),
                    self.branching[rows].tolist(), self.positions[rows].tolist(), self.passes[rows].tolist(),
                    used, stats, self.backend[rows].tolist(), by_seat, by_side)]

    # ---- columns the statistics read ----------------------------------------------------------

    def kinds(self) -> np.ndarray:
        """Each game's kind ("win", "lose", "draw") as an array of text."""
        return np.array([k for k, _ in self.endings] or [""], dtype=object)[self.ending]

    def reasons(self) -> np.ndarray:
        return np.array([r for _, r in self.endings] or [""], dtype=object)[self.ending]

    def agent_seat(self, agent: int) -> np.ndarray:
        """The seat agent `agent` sat in, a game a row."""
        return np.argmax(self.seat_agents == agent, axis=1)

    def action_counts(self, name: str) -> np.ndarray:
        return self.actions[:, self.action_names.index(name)] if name in self.action_names \
            else np.zeros(len(self), dtype=np.int64)


@contextmanager
def collector_paused():
    """The garbage collector paused while records are made (they make no cycle): they then pass
    its youngest generation in one collection, not one every 700 objects, and its full
    collections, which look at every object of the process (tens of milliseconds once Numba is
    loaded), come some ten times less often while a study keeps its records."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def native_table(chunk) -> GameTable:
    """The table of a study's chunk as the native kernel played it (`study.NativeChunk`), made
    from its columns whole; the games the kernel could not hold are its Python-played records.
    Where every game was held, no seat swapped and none was cut short (as most chunks), the
    kernel's columns are the table's as they are: a copy of each and a 2-d gather cost 0.3 us a
    game, as much as summarising a game of the fastest shipped ruleset."""
    n, codes = chunk.players, chunk.codes
    lost = codes < 0
    rows = np.flatnonzero(~lost) if lost.any() else slice(None)  # a slice: the columns themselves
    cut = codes == 0
    per_side = np.where(cut[:, None], 0.5, chunk.results) if cut.any() else chunk.results  # cut: a draw
    seats = np.asarray(chunk.seats, dtype=np.int64)
    if isinstance(rows, np.ndarray):
        seats = np.where(lost[:, None], np.arange(n), seats)
    everyone = np.arange(len(codes))[:, None]
    same = bool((seats == np.arange(n)).all())  # no seat swapped: by seat is by side
    by_seat = per_side
    if not same:
        by_seat = np.empty_like(per_side)
        by_seat[everyone, seats] = per_side
    keys, inverse = _small_unique((codes * 2 + (chunk.who >= 0))[rows])
    endings = list(dict.fromkeys(chunk.endings[int(key)] for key in keys))
    ending = np.array([endings.index(chunk.endings[int(key)]) for key in keys], dtype=np.int64)[inverse]
    index = np.asarray(chunk.indices, dtype=np.int64)[rows]
    names = tuple(chunk.names)
    actions = np.asarray(chunk.actions, dtype=np.int64)[rows]
    plies = np.asarray(chunk.plies, dtype=np.int64)[rows]
    games = len(plies)
    points = by_seat_points = None
    if chunk.points is not None:
        by_seat_points = chunk.points
        if not same:
            by_seat_points = np.empty_like(chunk.points)
            by_seat_points[everyone, seats] = chunk.points
        points, by_seat_points = np.asarray(chunk.points)[rows], by_seat_points[rows]
    stats = tuple(chunk.statistics[k] for k in np.arange(len(codes))[rows].tolist()) \
        if chunk.statistics is not None else None
    rotation = np.arange(n)[None, :] - (index % n)[:, None]  # seat j's agent: (j - index) mod n
    rotation += n * (rotation < 0)
    table = GameTable(n, index, np.asarray(chunk.setup, dtype=np.uint64)[rows],
                      rotation, np.asarray(chunk.firsts, dtype=np.int64)[rows],
                      by_seat[rows], per_side[rows], seats[rows], ending, tuple(endings), plies,
                      np.asarray(chunk.branching, dtype=np.int64)[rows], plies,
                      actions[:, names.index("pass")] if "pass" in names else np.zeros(games, dtype=np.int64),
                      names, actions, np.full(games, BACKENDS.index("native"), dtype=np.int8), stats,
                      by_seat_points, points)
    if chunk.others:
        table = GameTable.concat([table, GameTable.of_records(sorted(chunk.others.values(), key=attrgetter("index")),
                                                              n)], n)
    return table


def _small_unique(keys: np.ndarray) -> tuple:
    """np.unique(keys, return_inverse=True) for keys that are small integers close together (a
    few outcome codes), by counting instead of sorting."""
    if keys.size == 0 or int(keys.max()) - int(keys.min()) > 4096:
        return np.unique(keys, return_inverse=True)
    low = int(keys.min())
    present = np.bincount(keys - low) > 0
    where = np.cumsum(present) - 1  # key - low -> its place among the keys present
    return np.flatnonzero(present) + low, where[keys - low]


class Finished:
    """The games of one study finished so far, as tables as they come (a resumed journal's
    records, then each batch): the indices done, and all of it as one table or as records."""

    def __init__(self, players: int, records: dict = None):
        self.players = players
        self.tables: list = [GameTable.of_records(sorted(records.values(), key=attrgetter("index")), players)] \
            if records else []
        self.indices: set = set(records or ())

    def add(self, table: GameTable) -> None:
        self.tables.append(table)
        self.indices.update(table.index.tolist())

    def __len__(self) -> int:
        return len(self.indices)

    def __iter__(self):
        return iter(self.indices)

    def table(self) -> GameTable:
        self.tables = [GameTable.concat(self.tables, self.players)]
        return self.tables[0]

    def by_index(self) -> dict:
        """{index: GameResult}, as a journal is written from."""
        return {r.index: r for r in self.table()}
