"""Regenerate the golden game records in tests/golden/records/ (one file per ruleset and seed).

    python tests/golden/make_records.py            # every shipped ruleset
    python tests/golden/make_records.py green      # only the rulesets named

Each record is a whole game of seeded uniformly random play (`random.Random(seed)` choosing among
`state.moves()`, setup seeded the same), saved by `ziggurat.records.save_record` with no date, so
that regenerating with an unchanged engine rewrites identical files. tests/games/test_golden_records.py
replays every record and requires each move to be legal and the result, scores and final position
to be exactly as recorded.

Regenerating is a deliberate act: do it only after a reviewed change of a ruleset or of the
engine's rules, when the changed games are the intended new behaviour, and review the diff of the
records with the change. Regenerating to make a failing golden test pass hides the very change the
test exists to show. New rulesets need their records added here (run the script with their names).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import ziggurat
from ziggurat.dsl.loader import shipped_names
from ziggurat.records import make_record, save_record

HERE = Path(__file__).resolve().parent / "records"
SEEDS = (1, 2, 3)
MAX_PLIES = 400  # a game still going after this many plies is recorded as unfinished


def random_game(ruleset: str, seed: int) -> list:
    """The moves of one game of seeded random play, from the seeded start."""
    state = ziggurat.load(ruleset).new(seed)
    rng = random.Random(seed)
    moves = []
    while len(moves) < MAX_PLIES and (legal := state.moves()):
        move = rng.choice(legal)
        state.push(move)
        moves.append(move)
    return moves


def main(names: list) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    for name in names or shipped_names():
        for seed in SEEDS:
            record = make_record(name, random_game(name, seed), seed=seed,
                                 agents={p: "random" for p in ziggurat.load(name).players}, date=None)
            path = save_record(HERE / f"{name}-{seed}.zrec", record)
            print(f"{path.name}: {len(record.moves)} moves, {record.result}")


if __name__ == "__main__":
    main(sys.argv[1:])
