"""Pictures of positions (SVG and PNG), drawn from what the ruleset declares.

The board is the grid with file letters and rank numbers. Each stack is drawn from the side as
stacked pyramids (the bottom piece lowest, each piece resting a little higher on the one below) or,
with `style="layers"`, as layered squares. A piece's width and pips follow the ruleset's size
attribute (numeric) when it has one (a number too large for pips, a die's six, is written on the
piece instead), and its fill follows its colour: the attribute whose value names are
colour names (red, green, blue, yellow, ... whatever numbers they carry, `red = 1` too) gives those
colours, and a value that only begins with one (`red1`) gives it as well; otherwise the owner (a
players-valued attribute) picks its own colour when it is named after one (black, white) or one
from a palette. When the pieces have both a colour and an owner, the owner is shown by the outline
(and, for layers, a dot). Any other attribute (a man or a king) marks each piece whose value is not
the attribute's first with that value's code; a mark and a piece's pips share the part of the piece
that shows, side by side when it is low, and never overlap.

A game whose board is only places (a card or dice game: no rule reads its geometry) is drawn as a
table of what it has instead (render_places.py). Counters the rules mark `bookkeeping` are drawn
in no picture.

Off-board zones and counters are listed beside the board, in as many columns as they need, under
titles in the rules' own words: a zone `prisoners per player` is "prisoners of south", one whose
name is a participle (`captured per player`) "captured by white", a hidden zone says so, an empty
one says "none", and a zone of many pieces shows each kind once with its count. The cells the last
move named are outlined and the move is written under the board; the caption says who moves and
the ply, or how the game ended.

Each kind of space has its own pair of functions (its size, and how to draw it and its pieces):
today the grid of cells. matplotlib draws everything (its Agg and SVG back ends, no window and no
pyplot), so the same figure writes both formats. Every piece on the board is one patch with the SVG
id `piece-<cell>-<level>` (level 1 at the bottom), its mark `label-<cell>-<level>` and its pips
`pip-<cell>-<level>-<i>`; a piece in a zone is `zone-<slot>-<index>` (or `zone-<slot>-kind<k>` for
a kind drawn once with its count), a zone's title `title-<slot>`, a last-move outline
`last-<cell>`; so a picture can be checked, or styled, by id.
"""

from __future__ import annotations

import io
import re
import weakref
from pathlib import Path

from attrs import frozen

from .colours import edge_colour, pip_colour
from .errors import GameError
from .outputs import write_bytes

STYLES = ("pyramids", "layers")
FORMATS = ("svg", "png")

# Colour names a ruleset may give its pieces, as printable tones (white needs its outline).
NAMED = {
    "black": "#2b2b2b", "white": "#f7f7f2", "red": "#d62728", "green": "#2ca02c", "blue": "#1f77b4",
    "yellow": "#f2c80f", "gold": "#e0b000", "orange": "#ff7f0e", "purple": "#7b3fa0",
    "pink": "#e377c2", "cyan": "#17becf", "grey": "#8c8c8c", "gray": "#8c8c8c", "brown": "#8c564b",
    "silver": "#c0c0c0", "clear": "#e8f4f8", "magenta": "#d0309c", "teal": "#138d8d",
    "violet": "#8f5fd0", "indigo": "#3f3fa0",
}
# Colours for players (owners), in order; those a colour attribute already uses are skipped.
PALETTE = ("red", "blue", "green", "orange", "purple", "teal", "black", "brown", "pink", "gray")
NEUTRAL = "#bbbbbb"  # a piece with no colour of its own and no owner
LIGHT_SQUARE, DARK_SQUARE = "#f3ead7", "#e3d3b1"
LAST_MOVE = "#e8590c"  # the outline of the cells the last move named
PT_PER_CELL = 0.85 * 72  # a board cell is 0.85 inch: points of text per cell
_FIRST_WORD = re.compile(r"[a-z]+")


def colour_of(name: str):
    """The red-green-blue tone of a colour name, or None when `name` is not a colour."""
    from matplotlib.colors import is_color_like

    key = name.lower()
    if key in NAMED:
        return NAMED[key]
    return key if is_color_like(key) and not key.replace(".", "").isdigit() else None


def colour_in(name: str):
    """The tone a value name gives: its own colour (`red`), or the colour its first word names
    (`red1`, `dark_blue` gives None: `dark` is no colour); None when it names none."""
    tone = colour_of(name)
    if tone is not None or not name:
        return tone
    word = _FIRST_WORD.match(name.lower())
    return NAMED.get(word.group()) if word and word.group() != name.lower() else None




@frozen
class Scheme:
    """How the pieces of one game look: per piece code, a fill, an outline, a width and pips."""

    fill: tuple  # piece code -> colour
    owner: tuple  # piece code -> owner colour or None (drawn only when it differs from the fill)
    width: tuple  # piece code -> fraction of a cell's width (0.4 .. 0.9)
    pips: tuple  # piece code -> number of pips to draw (0 for none)
    players: tuple  # side -> colour (for the caption and the zones)
    label: tuple = ()  # piece code -> a mark for its other attributes ("K" for a king), or ""


_SCHEMES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # game -> its Scheme


def colour_attribute(game):
    """The attribute whose values are colours, or None: one called colour (or color) with a value
    naming a colour, else the attribute, not the players, with the most values naming colours
    (at least half of them). Numbers do not matter: a value `red = 1` is red."""
    candidates = [a for a in game.attributes if not a.players and a.values]
    named = {a.name: sum(colour_in(v) is not None for v in a.values) for a in candidates}
    for a in candidates:
        if a.name in ("colour", "color") and named[a.name]:
            return a
    best = max(candidates, key=lambda a: named[a.name], default=None)
    return best if best is not None and 2 * named[best.name] >= len(best.values) else None


def scheme(game) -> Scheme:
    """The look of a game's pieces, from its attributes (worked out once per game)."""
    cached = _SCHEMES.get(game)
    if cached is not None:
        return cached
    attrs = list(game.attributes)
    tables, n = game.world.attr_tables, game.world.npieces
    owner = game.owner_attribute
    colour = colour_attribute(game)
    size = next((a for a in attrs if a.name == "size" and a.numeric), None) \
        or next((a for a in attrs if a.numeric and a.values and a is not colour), None)

    used = {colour_in(v) for v in colour.values} - {None} if colour is not None else set()
    players = _player_colours(game.players, used)

    def value(attr, code):
        return attr.value_name(tables[attr.name][code])

    fill, outline, width, pips, marks = [], [], [], [], []
    for code in range(n):
        own = value(owner, code) if owner is not None else None
        own_colour = players[game.players.index(own)] if own in game.players else None
        mark = ""
        if colour is not None:
            name = value(colour, code) or ""
            tone = colour_in(name)
            if colour_of(name) is None and name in colour.values:
                mark = colour.codes[colour.values.index(name)]  # red1, or a value with no colour
            fill.append(tone or own_colour or NEUTRAL)
            outline.append(own_colour if tone is not None else None)
        else:
            # A neutral owner value may name a colour itself (a `green` that belongs to nobody).
            fill.append(own_colour or (colour_of(own) if own else None) or NEUTRAL)
            outline.append(None)
        marks.append(mark)
        if size is not None:
            lo, hi = min(size.numbers), max(size.numbers)
            number = tables[size.name][code]
            countable = all(0 < x <= 5 for x in size.numbers)
            # Widths follow a size, or a number small enough to count; a die's faces are all one width.
            graded = hi != lo and (countable or size.name == "size")
            width.append(0.42 + 0.46 * (number - lo) / (hi - lo) if graded else 0.62)
            pips.append(number if countable else 0)
            if not countable and number in size.numbers:  # a die's six: its code instead of pips
                marks[-1] += size.codes[size.numbers.index(number)]
        else:
            width.append(0.62)
            pips.append(0)
    # Attributes the picture shows no other way (a man or a king): every value but the first, the
    # plain one, is marked on the piece with its notation code.
    others = [a for a in attrs if a not in (owner, colour, size) and len(a.values) > 1]
    label = tuple(marks[code] + "".join(a.codes[a.numbers.index(tables[a.name][code])].upper()
                                        for a in others if tables[a.name][code] in a.numbers[1:])
                  for code in range(n))
    result = Scheme(tuple(fill), tuple(outline), tuple(width), tuple(pips), tuple(players), label)
    _SCHEMES[game] = result
    return result


def _player_colours(players, used: set) -> list:
    """A colour per player: its own name when that is a colour, else the next free palette colour."""
    free = [NAMED[p] for p in PALETTE if NAMED[p] not in used]
    out = []
    for p in players:
        tone = colour_of(p)
        if tone is None:
            tone = free.pop(0) if free else NAMED[PALETTE[len(out) % len(PALETTE)]]
        out.append(tone)
    return out


# ---- words: titles from the rules' own names ---------------------------------------------------


def _words(name: str) -> str:
    return name.replace("_", " ")


def slot_title(game, slot_name: str, per_player: bool) -> str:
    """A zone or counter slot in words: `prisoners.south` of a `per player` declaration is
    "prisoners of south"; a name that is a participle (`captured`, `held`) is "captured by white",
    the pieces that player took or holds."""
    name, _, who = slot_name.partition(".")
    if not per_player or not who:
        return _words(slot_name)
    word = "by" if name.endswith("ed") else "of"
    return f"{_words(name)} {word} {who}"


def zone_titles(game) -> list:
    """One title per zone slot (`world.zone_names`), with "hidden" for a hidden zone."""
    declared = {z[0]: (z[1], z[2]) for z in game.spec.zones}
    out = []
    for slot in game.world.zone_names:
        per_player, hidden = declared.get(slot.partition(".")[0], (False, False))
        out.append(slot_title(game, slot, per_player) + (" (hidden)" if hidden else ""))
    return out


def counter_titles(game) -> list:
    """One title per counter slot (`world.counter_names`)."""
    declared = {c[0]: c[1] for c in game.spec.counters}
    return [slot_title(game, slot, declared.get(slot.partition(".")[0], False))
            for slot in game.world.counter_names]


def zone_heading(title: str, pieces) -> str:
    """A zone's title with what it holds: "prisoners of south: 3", or ": none" when empty."""
    return f"{title}: {len(pieces) if pieces else 'none'}"


# ---- the last move ----------------------------------------------------------------------------


def move_cells(game, move) -> list:
    """The cells (numbers) a move names, in its order: its cell choices and lists of cells (on an
    open table, the spots it names)."""
    if not move:
        return []
    action = game.actions[move[0]]
    ncells = game.world.ncells
    out = []

    def take(kind, value):
        if isinstance(value, tuple):  # a list of cells, or a choice made once per pass of a repeat
            for v in value:
                take(getattr(kind, "elem", None) or kind, v)
        elif getattr(kind, "name", None) == "cell" and isinstance(value, int) and 0 <= value < ncells:
            if value not in out:
                out.append(value)
        elif getattr(kind, "name", None) == "spot" and isinstance(value, int) and value >= 0:
            out.append(value)  # a place on the open table

    for (_, kind), value in zip(action.choices, move[1:]):
        if getattr(kind, "name", None) in ("cell", "spot") or getattr(getattr(kind, "elem", None), "name", None) == "cell":
            take(kind, value)
    return out


def last_move(state):
    """The move that led to this state (from its undo history), or None."""
    return state.stack[-1] if state.stack else None


# ---- drawing --------------------------------------------------------------------------------

PANEL_WIDTH = 3.8  # board cells of room for one column of zones and counters
ZONE_ROW = 0.6  # height of one row of zone pieces, in cells
ZONE_SCALE = 0.55  # a zone piece's size, of the same piece's on the board
TITLE_ROW = 0.5  # height of a zone's title line
COUNTER_ROW = 0.42
PER_ROW = 7  # zone pieces to a row
KINDS_PER_ROW = 4  # kinds to a row when a zone is drawn by kind, each with its count


def figure(state, style: str = "pyramids", title: str | None = None, *, last=..., viewer=None, hidden=None):
    """A matplotlib Figure of the position (no pyplot, so no window and no global state).

    `last` is the move to mark as the last one (by default the state's own last move, None for
    none): a tool that draws a copy of a position can still mark the move that led to it.
    `viewer` (a side) draws what that side sees: a zone hidden from it as its count; `hidden`
    ({zone slot: count}) gives the counts of zones already emptied for a viewer (a position as it
    observes it, serve.tables.shown_state), written in their titles.
    """
    from matplotlib.figure import Figure

    if style not in STYLES:
        raise GameError(f"style {style!r} is not one of {', '.join(STYLES)}")
    game = state.game
    look = scheme(game)
    kind = space_kind(game)
    if kind == "places":  # a card or dice game: a table of what it has, no panel beside it
        from . import render_places

        board_w, board_h = render_places.size(state, look, viewer)
        columns = []
    else:
        space_size, draw_space = SPACES[kind]
        board_w, board_h = space_size(state)
        columns = _panel_columns(state, look, board_h, hidden or {})
    panel_h = max((sum(h for h, _ in col) for col in columns), default=0)
    height = max(board_h, panel_h)
    move = last_move(state) if last is ... else last
    if move is not None and not (isinstance(move, tuple) and move and isinstance(move[0], int)
                                 and 0 <= move[0] < len(game.actions)):
        raise GameError(f"last={move!r:.60} is not a move of {game.title} (a tuple from state.moves())")
    x_lo, x_hi = -0.7, board_w + (0.4 + PANEL_WIDTH * len(columns) if columns else 0.2)
    # Room for the caption and the last move under a small board (text about 0.6 em a letter).
    lines = [(_caption_line(state), 11), (f"last move: {state.move_text(move)}" if move is not None else "", 10)]
    x_hi = max([x_hi] + [x_lo + 0.5 + 0.6 * size / PT_PER_CELL * len(text) for text, size in lines])
    y_lo, y_hi = -1.65 if move is not None else -1.2, height + 0.9
    inch = 0.85
    fig = Figure(figsize=((x_hi - x_lo) * inch, (y_hi - y_lo) * inch), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    ax.set_aspect("equal")
    ax.axis("off")

    if kind == "places":
        render_places.draw(ax, state, look, viewer)
    else:
        draw_space(ax, state, look, style, move_cells(game, move) if move is not None else [])
    for i, column in enumerate(columns):
        y = height
        for h, draw in column:
            draw(ax, board_w + 0.4 + i * PANEL_WIDTH, y)
            y -= h
    ax.text((x_lo + x_hi) / 2, height + 0.45, title or game.title, ha="center", va="center",
            fontsize=14, fontweight="bold")
    _draw_caption(ax, state, look, -0.6, -0.95)
    if move is not None:
        ax.text(-0.6, -1.38, f"last move: {state.move_text(move)}", ha="left", va="center",
                fontsize=10, color="#333333", gid="last-move")
    return fig


# ---- spaces: one pair of functions per kind of space (its size in cells; drawing it) ----------


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
            _draw_stack(ax, look, stack, c % w.files, c // w.files, w.cell_name(c), style)


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


# ---- pieces and their marks ------------------------------------------------------------------






def _piece(ax, look, code, x, base, width, height, style, gid, shown=None) -> None:
    """One piece: a pyramid (triangle) or a layer (rectangle) centred on x with its base at `base`;
    `shown` is how much of it, from the base up, the piece above leaves visible (all of it when
    None): its pips and its mark are drawn there."""
    from matplotlib.patches import Circle, Polygon, Rectangle

    fill, owner = look.fill[code], look.owner[code]
    lw = 2.4 if owner else 1.0
    edge = owner or edge_colour(fill)
    if style == "pyramids":
        shape = Polygon([(x - width / 2, base), (x + width / 2, base), (x, base + height)], closed=True,
                        facecolor=fill, edgecolor=edge, linewidth=lw, joinstyle="round", gid=gid)
    else:
        shape = Rectangle((x - width / 2, base), width, height, facecolor=fill, edgecolor=edge,
                          linewidth=lw, gid=gid)
    ax.add_patch(shape)
    _marks(ax, look, code, x, base, width, height, height if shown is None else min(shown, height),
           style, gid)
    if owner and style == "layers":
        ax.add_patch(Circle((x + width / 2 - 0.06, base + height / 2), min(0.05, height / 3),
                            facecolor=owner, edgecolor="white", linewidth=0.5))


def _marks(ax, look, code, x, base, width, height, shown, style, gid) -> None:
    """A piece's pips (along its base, as on the real pieces) and its mark (a king's K), in the
    part of it that shows: the mark above the pips when there is room, else beside them."""
    from matplotlib.patches import Circle

    pips = look.pips[code]
    label = look.label[code] if look.label else ""
    name = gid.removeprefix("piece-")
    ink = pip_colour(look.fill[code])
    band = min(shown, 0.09)
    if band < 0.05:
        pips = 0  # too thin to show pips
    big = 10 if width > 0.3 else 6
    text_h = big / PT_PER_CELL * 1.25  # a line of text, in cells
    above = shown - (band if pips else 0) >= text_h + 0.02
    if label and above:
        y = base + max(height * (0.36 if style == "pyramids" else 0.5), (band if pips else 0) + text_h / 2 + 0.01)
        y = min(y, base + shown - text_h / 2)
        ax.text(x, y, label, ha="center", va="center", fontsize=big, fontweight="bold", color=ink,
                gid="label-" + name)
    pip_r = band * 0.26
    gap = width / (pips + 1) * (0.55 if style == "pyramids" else 1) if pips else 0
    centre, pip_y = x, base + band * 0.55
    if label and not above:  # a low band: the mark and the pips side by side, in the band's middle
        size = max(4.0, min(8.0, shown * PT_PER_CELL * 0.7))
        label_w = 0.62 * size / PT_PER_CELL * len(label)
        pips_w = gap * (pips - 1) + 2 * pip_r if pips else 0
        space = 0.03 if pips else 0
        left = x - (pips_w + space + label_w) / 2
        centre = left + pips_w / 2
        ax.text(left + pips_w + space, base + shown / 2, label, ha="left", va="center", fontsize=size,
                fontweight="bold", color=ink, gid="label-" + name)
        pip_y = base + shown / 2
    for i in range(pips):
        ax.add_patch(Circle((centre + (i - (pips - 1) / 2) * gap, pip_y), pip_r, facecolor=ink,
                            edgecolor="none", gid=f"pip-{name}-{i + 1}"))


def _draw_stack(ax, look, stack, f, r, name, style) -> None:
    """A stack in cell (f, r), bottom piece lowest; tall stacks are squeezed to fit the cell."""
    x, floor, room = f + 0.5, r + 0.07, 0.86
    widths = [look.width[p] for p in stack]
    if style == "pyramids":
        heights = [0.85 * wd for wd in widths]
        # How far each piece rests above the one below: a third of the lower one, and never so
        # little that the lower one's band cannot be seen.
        steps = [max(0.32 * h, 0.13) for h in heights[:-1]]
        if sum(steps) > 0.55 * room:  # a tall stack: thinner bands, the top piece whole
            steps = [s * 0.55 * room / sum(steps) for s in steps]
        if sum(steps) + heights[-1] > room:  # then lower pyramids, as wide as before
            scale = (room - sum(steps)) / heights[-1]
            heights = [h * scale for h in heights]
    else:
        heights = [min(0.2, room / len(stack)) for _ in stack]
        steps = heights[:-1]
    base = floor
    for level, code in enumerate(stack, 1):
        shown = steps[level - 1] if level < len(stack) else None
        _piece(ax, look, code, x, base, widths[level - 1], heights[level - 1], style,
               f"piece-{name}-{level}", shown)
        if level < len(stack):
            base += steps[level - 1]
    if len(stack) > 4:  # the height, when counting the layers by eye is hard
        ax.text(f + 0.93, r + 0.9, str(len(stack)), ha="right", va="top", fontsize=8, fontweight="bold",
                color="#333333", bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.8,
                                           linewidth=0), gid=f"height-{name}")


# ---- the panel: zones and counters beside the board ------------------------------------------


def _panel_columns(state, look, board_height: float, hidden: dict) -> list:
    """The zones and counters (not the bookkeeping ones) as columns of (height, draw(ax, x, top))
    items, each column no taller than the board (unless one item alone is), or than a roughly
    square panel when they are many. `hidden`: the counts of zones emptied for a viewer."""
    game = state.game
    items = []
    for slot, title in enumerate(zone_titles(game)):
        items.append(_zone_item(state, look, slot, title, hidden.get(game.world.zone_names[slot])))
    titles = counter_titles(game)
    for i in game.shown_counters:
        text = f"{titles[i]} = {game.counter_text(i, state.counters[i])}"
        items.append((COUNTER_ROW, _text_drawer(text, f"counter-{game.world.counter_names[i]}")))
    total = sum(h for h, _ in items)
    limit = max(board_height, 4.0, 0.8 * (total * PANEL_WIDTH) ** 0.5)
    columns, used = [], limit
    for h, draw in items:
        if used + h > limit and (not columns or columns[-1]):
            columns.append([])
            used = 0.0
        columns[-1].append((h, draw))
        used += h
    return [c for c in columns if c]


def _text_drawer(text, gid):
    def draw(ax, x, top):
        ax.text(x, top - COUNTER_ROW / 2, text, ha="left", va="center", fontsize=10, color="#333333",
                gid=gid)
    return draw


def _zone_item(state, look, slot, title, hidden_count=None):
    """(height, drawer) of one zone: its title, then its pieces, each kind once with its count
    when they would take more than two rows; a zone hidden from the viewer, its count alone."""
    pieces = state.zones[slot]
    name = state.game.world.zone_names[slot]
    heading = zone_heading(title, pieces) if hidden_count is None else f"{title}: {hidden_count or 'none'}"
    if len(pieces) <= 2 * PER_ROW:
        shown = [(code, None, f"zone-{name}-{i + 1}") for i, code in enumerate(pieces)]
        per_row = PER_ROW
    else:
        counts: dict = {}
        for code in pieces:
            counts[code] = counts.get(code, 0) + 1
        shown = [(code, n, f"zone-{name}-kind{k + 1}") for k, (code, n) in enumerate(counts.items())]
        per_row = KINDS_PER_ROW
    rows = -(-len(shown) // per_row)
    height = TITLE_ROW + rows * ZONE_ROW + (0.1 if rows else 0)

    def draw(ax, x0, top):
        ax.text(x0, top - 0.25, heading, ha="left", va="center", fontsize=10, color="#333333",
                gid=f"title-{name}")
        slot_w = (PANEL_WIDTH - 0.3) / per_row
        for i, (code, count, gid) in enumerate(shown):
            row, col = divmod(i, per_row)
            width = look.width[code] * ZONE_SCALE
            x = x0 + 0.25 + col * slot_w
            base = top - TITLE_ROW - (row + 1) * ZONE_ROW + 0.08
            _piece(ax, look, code, x, base, width, 0.85 * width, "pyramids", gid)
            if count is not None:
                ax.text(x + width / 2 + 0.04, base + 0.12, f"\u00d7{count}", ha="left", va="center", fontsize=9,
                        color="#333333", gid=f"count-{gid}")
    return height, draw


# ---- the caption ------------------------------------------------------------------------------


def caption(state) -> str:
    """Who moves and the ply, or how the game ended."""
    outcome = state.outcome()
    if outcome is None:
        return f"{state.mover_name} to move, ply {state.ply}"
    players = state.game.players
    reason = f" ({outcome.reason})" if outcome.reason else ""
    scores = getattr(outcome, "scores", ())
    if scores:
        reason += "; scores " + ", ".join(f"{p} {s}" for p, s in zip(players, scores))
    if outcome.kind == "draw":
        return f"game over at ply {state.ply}: draw{reason}"
    verb = "wins" if outcome.kind == "win" else "loses"
    return f"game over at ply {state.ply}: {players[outcome.player]} {verb}{reason}"


def _caption_line(state) -> str:
    """The caption as drawn: with the seats when the pie rule has swapped them."""
    text = caption(state)
    seats = state.seats
    if list(seats) != sorted(seats):
        players = state.game.players
        text += "   seats: " + ", ".join(players[seats.index(i)] for i in range(len(seats)))
    return text


def _draw_caption(ax, state, look, x, y) -> None:
    from matplotlib.patches import Circle

    if state.outcome() is None:
        ax.add_patch(Circle((x + 0.12, y), 0.12, facecolor=look.players[state.side], edgecolor="#222222",
                            linewidth=0.8))
        x += 0.35
    ax.text(x, y, _caption_line(state), ha="left", va="center", fontsize=11)


# ---- output ---------------------------------------------------------------------------------


def _save(fig, fmt: str) -> bytes:
    from matplotlib import rc_context

    buf = io.BytesIO()
    # Text stays text in SVG (searchable, small); no date, fixed ids: the same position, the same file.
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "ziggurat"}):
        metadata = {"Date": None} if fmt == "svg" else {"Software": "ziggurat"}
        fig.savefig(buf, format=fmt, metadata=metadata)
    return buf.getvalue()


def svg(state, style: str = "pyramids", *, last=..., viewer=None, hidden=None) -> str:
    """The position as SVG text (`last`, `viewer`, `hidden`: as for `figure`)."""
    return _save(figure(state, style, last=last, viewer=viewer, hidden=hidden), "svg").decode("utf-8")


def png(state, style: str = "pyramids", *, last=..., viewer=None, hidden=None) -> bytes:
    """The position as PNG bytes (`last`, `viewer`, `hidden`: as for `figure`)."""
    return _save(figure(state, style, last=last, viewer=viewer, hidden=hidden), "png")


def format_of(path) -> str:
    """'svg' or 'png' from a file name; GameError for anything else."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise GameError(f"cannot tell the picture format of {str(path)!r}: name it .svg or .png")
    return suffix


def write(state, path, style: str = "pyramids", *, last=...) -> Path:
    """Write the position to `path` (.svg or .png, by its name) and return the path."""
    path = Path(path)
    fmt = format_of(path)
    data = _save(figure(state, style, last=last), fmt)
    try:
        write_bytes(path, data)  # whole or not at all
    except OSError as e:
        raise GameError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
    return path


__all__ = ["figure", "svg", "png", "write", "caption", "scheme", "colour_of", "colour_in", "colour_attribute",
           "zone_titles", "counter_titles", "move_cells", "STYLES", "SPACES"]
