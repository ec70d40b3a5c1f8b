"""A study's journal: its finished games on disk, one JSON line each after a header naming the
study, so that a stopped study resumes where it stopped (`simulate --resume`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from filelock import FileLock, Timeout

import ziggurat

from ..errors import GameError
from ..outputs import write_text
from .study import StudySpec, ruleset_ref
from .table import BACKENDS, GameResult, GameTable, collector_paused


# ---- the journal: finished games on disk, to resume a study --------------------------------------

JOURNAL_KIND = "ziggurat simulate journal"
JOURNAL_FORMAT = 2  # 1 scored a `rank by` end as a win for every seat: its games are not resumed


def study_key(spec: StudySpec) -> dict:
    """What a journal's games must have been played with to count for `spec` (the number of
    games aside: a game's seed depends on its index alone, so a study can be lengthened)."""
    ref = ruleset_ref(spec.ruleset)
    try:
        digest = hashlib.sha256(Path(ref).read_bytes()).hexdigest() if Path(ref).is_file() else None
    except OSError:
        digest = None
    return {"ruleset": ref, "ruleset_sha256": digest, "options": {k: str(v) for k, v in spec.options.items()},
            "agents": list(spec.agents), "seed": spec.seed, "max_plies": spec.max_plies,
            "version": ziggurat.__version__, **({"backend": spec.backend} if spec.backend != "python" else {}),
            **({"rollout": spec.rollout} if spec.rollout != "whole" else {})}


class JournalWriteError(GameError):
    """The journal could not be written (a full disk, say): the games already in it are kept."""


class Lines:
    """The journal's line of a finished game: the text of json.dumps({"study": k, "game":
    record.as_json()}), made some five times faster. A native study plays a game in tens of
    microseconds, and json.dumps takes 20 to write one (each float through a Python function):
    here the texts of the values that repeat from game to game (results, seats, kinds, reasons,
    action names) are made once, by json.dumps, and the whole numbers written as they are."""

    def __init__(self):
        self.floats: dict = {}  # tuple of floats -> its JSON
        self.ints: dict = {}  # tuple of ints -> its JSON
        self.texts: dict = {}  # str -> its JSON

    def line(self, study: int, r: GameResult) -> str:
        if r.statistics or r.backend not in ("python", "native"):  # the general way
            return json.dumps({"study": study, "game": r.as_json()})
        return self._line(study, r.index, r.seed, r.seat_agents, r.first_seat, r.results_by_seat, r.results_by_side,
                          r.final_seats, r.kind, r.reason, r.plies, r.branching, r.positions, r.passes,
                          r.actions.items(), r.backend, r.scores_by_seat, r.scores_by_side)

    def table_lines(self, study: int, t: GameTable) -> list:
        """The lines of a table's games, read from its columns (no record made a game)."""
        if t.statistics is not None:
            return [self.line(study, r) for r in t]
        with collector_paused():  # many objects made, no cycle (see table.collector_paused)
            return self._table_lines(study, t)

    def _table_lines(self, study: int, t: GameTable) -> list:
        names, endings = t.action_names, t.endings
        none: list = [()] * len(t)

        def rows(a):
            return list(map(tuple, a.tolist()))

        return [self._line(study, i, s, sa, f, rs, rd, fs, *endings[e], p, b, q, ps,
                           [(names[a], c) for a, c in enumerate(used) if c], BACKENDS[be], ss, sd)
                for i, s, sa, f, rs, rd, fs, e, p, b, q, ps, used, be, ss, sd in zip(
                    t.index.tolist(), t.seed.tolist(), rows(t.seat_agents), t.first_seat.tolist(),
                    rows(t.results_by_seat), rows(t.results_by_side), rows(t.final_seats), t.ending.tolist(),
                    t.plies.tolist(), t.branching.tolist(), t.positions.tolist(), t.passes.tolist(),
                    t.actions.tolist(), t.backend.tolist(),
                    rows(t.scores_by_seat) if t.scores_by_seat is not None else none,
                    rows(t.scores_by_side) if t.scores_by_side is not None else none)]

    def _line(self, study, index, seed, seat_agents, first_seat, by_seat, by_side, final_seats, kind, reason, plies,
              branching, positions, passes, actions, backend, scores_by_seat, scores_by_side) -> str:
        f, i, s = self._floats, self._ints, self._text
        used = ", ".join(f"{s(name)}: {count}" for name, count in actions)
        tail = ', "backend": "native"' if backend == "native" else ""
        if scores_by_side:  # a game of points (as_json writes them after the backend)
            tail += f', "scores_by_seat": {f(scores_by_seat)}, "scores_by_side": {f(scores_by_side)}'
        return (f'{{"study": {study}, "game": {{"index": {index}, "seed": {seed}, '
                f'"seat_agents": {i(seat_agents)}, "first_seat": {first_seat}, '
                f'"results_by_seat": {f(by_seat)}, "results_by_side": {f(by_side)}, '
                f'"final_seats": {i(final_seats)}, "kind": {s(kind)}, "reason": {s(reason)}, '
                f'"plies": {plies}, "branching": {branching}, "positions": {positions}, '
                f'"passes": {passes}, "actions": {{{used}}}, "statistics": {{}}{tail}}}}}')

    def _floats(self, values: tuple) -> str:
        text = self.floats.get(values)
        if text is None:
            text = self.floats[values] = json.dumps([float(x) for x in values])
        return text

    def _ints(self, values: tuple) -> str:
        text = self.ints.get(values)
        if text is None:
            text = self.ints[values] = json.dumps([int(x) for x in values])
        return text

    def _text(self, value: str) -> str:
        text = self.texts.get(value)
        if text is None:
            text = self.texts[value] = json.dumps(value)
        return text


class Journal:
    """A study's finished games in a file, one JSON line each after a header line that says which
    studies they belong to. Lines are appended and flushed as batches finish; a kill can tear the
    last line only, and reading ignores it (its games are played again). A write that fails (a
    full disk) is a JournalWriteError naming the file and `--resume`: the games written before it
    stay in the file."""

    def __init__(self, path, specs: list):
        self.path = Path(path)
        self.specs = list(specs)
        self.file = None
        self.kept = 0  # games in the file, as far as this run knows
        self.lines = Lines()
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.held = None  # the journal's lock, while this run holds it

    def lock(self) -> None:
        """Hold the journal's lock (a file JOURNAL.lock beside it) until `release`; GameError if
        another run holds it: two runs on one journal would each rewrite it, play the same games,
        and lose the games of the one whose file was replaced."""
        if self.held is not None:
            return
        held = FileLock(self.lock_path, timeout=0)
        try:
            held.acquire()
        except Timeout:
            raise GameError(f"journal {str(self.path)!r} is in use by another run of this study (it holds "
                            f"{str(self.lock_path)!r}): wait for that run to end, or stop it (its finished games "
                            "are kept), then run this command again with --resume (if no run is using it, which "
                            "a run killed on a file system without locks can leave so, remove that file)") from None
        except OSError as e:
            raise self.failed(e) from None
        self.held = held

    def release(self) -> None:
        """Let go of the journal's lock (and remove its file): another run may take the journal."""
        if self.held is None:
            return
        held, self.held = self.held, None
        held.release()
        try:
            self.lock_path.unlink()
        except OSError:
            pass

    def failed(self, e: OSError) -> JournalWriteError:
        """The error of a write to the journal that failed with `e`."""
        why = e.strerror or str(e) or type(e).__name__
        kept = f"the {self.kept} finished game{'s' if self.kept != 1 else ''} in it are kept" if self.kept \
            else "no finished game is in it yet"
        return JournalWriteError(f"cannot write the journal {str(self.path)!r}: {why}; {kept}: free some space "
                                 "(or fix the cause) and run the same command again with --resume")

    def header(self) -> dict:
        return {"journal": JOURNAL_KIND, "format": JOURNAL_FORMAT,
                "studies": [{**study_key(s), "games": s.games} for s in self.specs]}

    def read(self) -> list:
        """The finished games in the file, per study: [{index: GameResult}], for the studies of this
        journal; GameError if the file is not a journal of these studies."""
        where = str(self.path)
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise GameError(f"cannot read journal {where!r}: {getattr(e, 'strerror', None) or e}") from None
        lines = text.split("\n")
        if not text.endswith("\n"):
            lines = lines[:-1]  # a line torn by a kill: its games were not finished for us
        else:
            lines = lines[:-1]  # the empty text after the last newline
        try:
            head = json.loads(lines[0]) if lines else None
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("journal") != JOURNAL_KIND:
            raise GameError(f"{where!r} is not a ziggurat simulate journal (its first line is not a journal header)")
        if head.get("format") != JOURNAL_FORMAT:
            raise GameError(f"journal {where!r} has format {head.get('format')!r}; "
                            f"this ziggurat reads format {JOURNAL_FORMAT}")
        self.check(head.get("studies"))
        done: list = [{} for _ in self.specs]
        for n, line in enumerate(lines[1:], 2):
            try:
                entry = json.loads(line)
                k, record = entry["study"], GameResult.from_json(entry["game"])
                done[k][record.index] = record
            except (ValueError, KeyError, TypeError, IndexError) as e:
                raise GameError(f"journal {where!r}, line {n}: not a finished game ({type(e).__name__})") from None
        for k, spec in enumerate(self.specs):  # a study made shorter: games beyond its end are left out
            done[k] = {i: r for i, r in done[k].items() if isinstance(i, int) and 0 <= i < spec.games}
        return done

    def check(self, studies) -> None:
        """GameError naming the first difference unless the journal's studies are ours."""
        where = str(self.path)
        if not isinstance(studies, list) or len(studies) != len(self.specs):
            n = len(studies) if isinstance(studies, list) else "?"
            raise GameError(f"journal {where!r} is for {n} stud{'y' if n == 1 else 'ies'}, this command "
                            f"makes {len(self.specs)}: remove it or give another --journal to start over")
        for spec, theirs in zip(self.specs, studies):
            ours = study_key(spec)
            for key, value in ours.items():
                if not isinstance(theirs, dict) or theirs.get(key) != value:
                    seen = theirs.get(key) if isinstance(theirs, dict) else None
                    raise GameError(f"journal {where!r} was written for another study ({key} {seen!r} there, "
                                    f"{value!r} here): remove it or give another --journal to start over")

    def start(self, resume: bool) -> list:
        """Open the journal for appending; the games it already holds, per study (none unless
        `resume`). Without `resume`, a journal that holds games is an error: nothing is thrown
        away unasked. Takes the journal's lock first (see `lock`)."""
        self.lock()
        done: list = [{} for _ in self.specs]
        if self.path.exists():
            if resume:
                done = self.read()
            else:
                found = self._count()
                if found:
                    raise GameError(f"journal {str(self.path)!r} holds {found} finished game"
                                    f"{'s' if found != 1 else ''} of an earlier run: add --resume to go on "
                                    "with it, or remove the file to start over")
        self.kept = sum(len(d) for d in done)
        self.rewrite(done)
        try:
            self.file = open(self.path, "a", encoding="utf-8")
        except OSError as e:
            raise self.failed(e) from None
        return done

    def rewrite(self, done: list) -> None:
        """Write the journal whole (atomically): the header of this run and the games in `done`
        ([{index: record}] per study), no torn line. After an interrupt, which may have cut an
        append short, this makes the journal hold exactly the games written to the outputs."""
        self.close()
        lines = [json.dumps(self.header())]
        lines += [self.lines.line(k, r) for k, d in enumerate(done) for _, r in sorted(d.items())]
        try:
            write_text(self.path, "\n".join(lines) + "\n")  # whole or not at all: the old file stays if not
        except OSError as e:
            raise self.failed(e) from None
        self.kept = len(lines) - 1

    def _count(self) -> int:
        """Games in an existing journal (of any study); GameError for a file that is not a journal
        (it is not ours to overwrite)."""
        try:
            with open(self.path, "rb") as f:
                first = f.readline()
                games = sum(1 for line in f if line.endswith(b"\n"))
            head = json.loads(first)
        except (OSError, ValueError):
            head = None
        if not isinstance(head, dict) or head.get("journal") != JOURNAL_KIND:
            raise GameError(f"{str(self.path)!r} is not a ziggurat simulate journal: "
                            "give another --journal (it is not overwritten)")
        return games

    def add(self, study: int, records: list) -> None:
        """Append finished games of study number `study` (flushed: a kill loses none of them)."""
        if self.file is None:
            return
        try:
            lines = self.lines.table_lines(study, records) if isinstance(records, GameTable) \
                else [self.lines.line(study, r) for r in records]
            self.file.write("".join(line + "\n" for line in lines))
            self.file.flush()
        except OSError as e:
            self.close()  # at most a torn last line, which reading ignores
            raise self.failed(e) from None
        self.kept += len(records)

    def close(self) -> None:
        if self.file is not None:
            file, self.file = self.file, None
            try:
                file.close()
            except OSError:  # what a failed write left in the buffer cannot be written either
                pass

    def remove(self) -> None:
        self.close()
        try:
            self.path.unlink()
        except OSError:
            pass
