"""The open table's geometry: the engine's way of asking where a piece may go, against the plain
way, side by side on the same tables (positions of Chaos games of random play).

- overlap: the engine asks a bucket grid built once per table (interpreter/geometry.py: Index);
  the plain way tests the footprint against every piece on the table;
- lattice: the engine walks each piece's disc of lattice points column by column (integer square
  roots); the plain way scans every lattice point of the box around all the pieces and keeps
  those within reach of one of them.

Both ways give the same answers (checked here on every table measured); the table says how much
faster the engine's way is, and Chaos's branching factor at several depths of a game.

    python benchmarks/table_geometry.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from rich.console import Console
from rich.table import Table

import ziggurat
from ziggurat.dsl import surface
from ziggurat.interpreter import geometry as G

REACH = 6 * surface.UNITS_PER_INCH


def tables(plies: tuple, games: int) -> dict:
    """ply -> [(table tuple, state)] from seeded random games of Chaos (ten colours, two players)."""
    game = ziggurat.load("chaos")
    out = {p: [] for p in plies}
    for seed in range(games):
        st, rng = game.new(), random.Random(seed)
        while not st.is_terminal() and st.ply <= max(plies):
            if st.ply in out:
                out[st.ply].append((st.table[0], st.copy()))
            st.push(rng.choice(st.moves()))
    return out


def plain_overlaps(table, width, length, s, code) -> bool:
    x, y, hx, hy = G.extents(s, code, width, length)
    for e in table:
        ox, oy, ohx, ohy = G.extents(e >> G.CODE_BITS, e & G.CODE_MASK, width, length)
        if abs(ox - x) < ohx + hx and abs(oy - y) < ohy + hy:
            return True
    return False


def plain_lattice(table, pitch, reach) -> tuple:
    centres = [surface.centre(e >> G.CODE_BITS) for e in table]
    x0, x1 = min(x for x, _ in centres) - reach, max(x for x, _ in centres) + reach
    y0, y1 = min(y for _, y in centres) - reach, max(y for _, y in centres) + reach
    out = []
    for i in range(-(-x0 // pitch), x1 // pitch + 1):
        for j in range(-(-y0 // pitch), y1 // pitch + 1):
            if any((i * pitch - cx) ** 2 + (j * pitch - cy) ** 2 <= reach * reach for cx, cy in centres):
                out.append(surface.spot(i * pitch, j * pitch))
    return tuple(out)


def best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def rows(quick: bool = False) -> list:
    game = ziggurat.load("chaos")
    pitch, width, length = game.world.surface
    plies = (10, 40, 100, 200) if not quick else (10, 100)
    found = tables(plies, 6 if not quick else 2)
    repeats = 3 if quick else 5
    out = []
    for ply in plies:
        positions = found[ply]
        if not positions:
            continue
        candidates = [(t, s, 20) for t, st in positions for s in G._lattice(t, width, length, pitch, REACH)]
        for t, s, code in candidates[:200]:  # the two ways agree
            assert G._overlaps(t, width, length, s, code) == plain_overlaps(t, width, length, s, code)
        for t, _ in positions:
            assert set(G._lattice(t, width, length, pitch, REACH)) == set(plain_lattice(t, pitch, REACH))

        def engine_overlap():
            for t, s, code in candidates:
                G._overlaps(t, width, length, s, code)

        def scan_overlap():
            for t, s, code in candidates:
                plain_overlaps(t, width, length, s, code)

        def engine_lattice():
            for t, _ in positions:
                G._lattice(t, width, length, pitch, REACH)

        def scan_lattice():
            for t, _ in positions:
                plain_lattice(t, pitch, REACH)

        row = {"ply": ply, "pieces": statistics.mean(len(t) for t, _ in positions), "candidates": len(candidates),
               "branching": statistics.mean(len(st.moves()) for _, st in positions)}
        e_o, s_o = best(engine_overlap, repeats), best(scan_overlap, repeats)
        e_l, s_l = best(engine_lattice, repeats), best(scan_lattice, repeats)
        row.update(overlap_ratio=s_o / e_o, lattice_ratio=s_l / e_l,
                   overlap_us=1e6 * e_o / len(candidates), lattice_ms=1e3 * e_l / len(positions))
        out.append(row)
    return out


def table(rows: list) -> Table:
    t = Table(title="The open table (Chaos): the engine's geometry against a scan of every piece / every point")
    for col in ("ply", "pieces on the table", "legal moves", "overlap test (us)", "x faster than a scan",
                "lattice near the pieces (ms)", "x faster than a scan"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(str(r["ply"]), f"{r['pieces']:.0f}", f"{r['branching']:.0f}", f"{r['overlap_us']:.1f}",
                  f"{r['overlap_ratio']:.1f}", f"{r['lattice_ms']:.2f}", f"{r['lattice_ratio']:.1f}")
    return t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    Console(width=140).print(table(rows(args.quick)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
