"""The kinds of space a game is played on, each as a pair of functions: its size in board cells,
and how to draw it and its pieces (render.figure picks the pair by `space_kind`).

The grid: its cells with file letters and rank numbers, a stack in each cell (render_pieces). The
open table, from above: a standing piece as a square with its pips, a lying one as a triangle
pointing the way it points. The places the last move named (Game.move_cells: cells, or on the
table spots) are outlined, with the ids `last-<cell>`; a cell is `cell-<name>`, a piece on the
table `piece-<spot>`. A game whose board is only places is drawn by render_places instead.
"""

from __future__ import annotations

from .colours import edge_colour, pip_colour
from .render_pieces import draw_stack

LIGHT_SQUARE, DARK_SQUARE = "#f3ead7", "#e3d3b1"
LAST_MOVE = "#e8590c"  # the outline of the cells the last move named


def space_kind(game) -> str:
    """The kind of space the game is played on: the grid of cells, an open table, or places (a
    board whose geometry no rule reads: render_places draws it as a table of what the game has)."""
    if game.world.surface is not None:
        return "table"
    return "places" if game.board_is_places else "grid"


def grid_size(state) -> tuple:
    """(width, height) of the grid in cells."""
    return state.game.world.files, state.game.world.ranks


def draw_grid(ax, state, look, style, marked) -> None:
    """The grid with its file letters and rank numbers, the stacks, and the marked cells outlined."""
    from matplotlib.patches import Rectangle

    w = state.game.world
    for f in range(w.files):
        for r in range(w.ranks):
            tone = DARK_SQUARE if (f + r) % 2 == 0 else LIGHT_SQUARE
            ax.add_patch(Rectangle((f, r), 1, 1, facecolor=tone, edgecolor="#9b8a6a", linewidth=0.8,
                                   gid=f"cell-{w.cell_name(w.cell(f, r))}"))
    ax.add_patch(Rectangle((0, 0), w.files, w.ranks, fill=False, edgecolor="#5a4b30", linewidth=1.6))
    for f in range(w.files):
        ax.text(f + 0.5, -0.28, w.file_name(f), ha="center", va="center", fontsize=11, color="#5a4b30")
    for r in range(w.ranks):
        ax.text(-0.3, r + 0.5, str(r + 1), ha="center", va="center", fontsize=11, color="#5a4b30")
    for c in marked:
        f, r = c % w.files, c // w.files
        ax.add_patch(Rectangle((f + 0.04, r + 0.04), 0.92, 0.92, fill=False, edgecolor=LAST_MOVE,
                               linewidth=3.0, gid=f"last-{w.cell_name(c)}"))
    for c, stack in enumerate(state.cells):
        if stack:
            draw_stack(ax, look, stack, c % w.files, c // w.files, w.cell_name(c), style)


# ---- the open table ----------------------------------------------------------------------------

TABLE_CELLS = 12.0  # the widest side of a table picture, in board cells
TABLE_MARGIN = 1.2  # inches of table shown beyond the pieces


def _table_frame(state) -> tuple:
    """(x0, y0, scale): the table's lower left corner in inches and board cells per inch, so that
    every piece fits in at most TABLE_CELLS cells."""
    from .dsl import surface
    game = state.game
    inch = surface.UNITS_PER_INCH
    boxes = [game.footprint(piece, s) for piece, s in state.on_table()] or [(0, 0, 0, 0)]
    x0 = min(x - hx for x, _, hx, _ in boxes) / inch - TABLE_MARGIN
    x1 = max(x + hx for x, _, hx, _ in boxes) / inch + TABLE_MARGIN
    y0 = min(y - hy for _, y, _, hy in boxes) / inch - TABLE_MARGIN
    y1 = max(y + hy for _, y, _, hy in boxes) / inch + TABLE_MARGIN
    scale = min(1.0, TABLE_CELLS / max(x1 - x0, y1 - y0))
    return x0, y0, x1, y1, scale


def table_size(state) -> tuple:
    """(width, height) of a table picture in cells: the pieces' extent, scaled to fit."""
    x0, y0, x1, y1, scale = _table_frame(state)
    return (x1 - x0) * scale, (y1 - y0) * scale


def draw_table(ax, state, look, style, marked) -> None:
    """The table from above: a standing piece as a square with its pips, a lying one as a triangle
    pointing the way it points, each in its colour; the origin marked, the last placed outlined."""
    from matplotlib.patches import Polygon, Rectangle

    from .dsl import surface
    game = state.game
    inch = surface.UNITS_PER_INCH
    x0, y0, x1, y1, k = _table_frame(state)

    def at(x, y):
        return (x / inch - x0) * k, (y / inch - y0) * k

    ax.add_patch(Rectangle((0, 0), (x1 - x0) * k, (y1 - y0) * k, facecolor=LIGHT_SQUARE, edgecolor="#9b8a6a",
                           linewidth=1.0, gid="table"))
    ox, oy = at(0, 0)
    ax.plot([ox - 0.15, ox + 0.15], [oy, oy], color="#9b8a6a", linewidth=0.8)
    ax.plot([ox, ox], [oy - 0.15, oy + 0.15], color="#9b8a6a", linewidth=0.8)
    ax.text((x1 - x0) * k / 2, -0.3, f"{x1 - x0:.0f} x {y1 - y0:.0f} inches of table; + is the origin",
            ha="center", va="center", fontsize=9, color="#5a4b30")
    marked = set(marked)
    for code, s in state.on_table():
        x, y, hx, hy = game.footprint(code, s)
        fill = look.fill[code]
        edge = LAST_MOVE if s in marked else (look.owner[code] or edge_colour(fill))
        lw = 2.4 if s in marked else 0.9
        gid = "piece-" + surface.spot_text(s).replace(">", "-")  # an SVG id has no ">"
        d = (s & 7) - 1
        if d < 0:
            (ax0, ay0), (ax1, ay1) = at(x - hx, y - hy), at(x + hx, y + hy)
            ax.add_patch(Rectangle((ax0, ay0), ax1 - ax0, ay1 - ay0, facecolor=fill, edgecolor=edge,
                                   linewidth=lw, gid=gid))
            pips = look.pips[code]
            if pips and (ax1 - ax0) > 0.12:
                cx, cy = (ax0 + ax1) / 2, (ay0 + ay1) / 2
                for i in range(pips):
                    px = cx + (i - (pips - 1) / 2) * (ax1 - ax0) / (pips + 1)
                    ax.plot([px], [cy], marker="o", markersize=max(1.0, 8 * (ax1 - ax0) / 3),
                            color=pip_colour(fill), linestyle="none")
        else:
            sx, sy = {0: (0, 1), 2: (1, 0), 4: (0, -1), 6: (-1, 0)}[d]
            tip = at(x + sx * hx, y + sy * hy)
            if sx == 0:
                base = [at(x - hx, y - sy * hy), at(x + hx, y - sy * hy)]
            else:
                base = [at(x - sx * hx, y - hy), at(x - sx * hx, y + hy)]
            ax.add_patch(Polygon([base[0], tip, base[1]], closed=True, facecolor=fill, edgecolor=edge,
                                 linewidth=lw, gid=gid))


SPACES = {"grid": (grid_size, draw_grid), "table": (table_size, draw_table)}  # kind -> (its size, its drawing)


__all__ = ["space_kind", "grid_size", "draw_grid", "table_size", "draw_table", "SPACES", "LAST_MOVE", "TABLE_CELLS"]
