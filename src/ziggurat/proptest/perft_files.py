"""Perft data files (tests/perft/*.perft): records separated by blank lines, `#` comments.

    id small-start
    ruleset NAME
    options size=3
    position start
    perft 1 31

Read by the tests (tests/perft_data.py) and by mutation testing, whose mutants face the counts
pinned for their ruleset.
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen


@frozen
class PerftRecord:
    file: str
    id: str
    ruleset: str
    options: dict
    position: str
    counts: tuple  # (depth, leaves)


def read(path: Path) -> list:
    """The records of one perft file, in its order."""
    records, fields, counts = [], {}, []

    def flush():
        if fields:
            opts = dict(kv.split("=", 1) for kv in fields.get("options", "").split())
            records.append(PerftRecord(path.name, fields["id"], fields["ruleset"], opts,
                                       fields.get("position", "start"), tuple(counts)))

    for raw in path.read_text().splitlines() + [""]:
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            flush()
            fields, counts = {}, []
            continue
        key, _, value = line.partition(" ")
        if key == "perft":
            depth, leaves = value.split()
            counts.append((int(depth), int(leaves)))
        else:
            fields[key] = value.strip()
    return records
