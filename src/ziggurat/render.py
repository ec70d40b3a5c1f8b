"""Pictures of positions (SVG and PNG), drawn from what the ruleset declares.

The board is the grid with file letters and rank numbers. Each stack is drawn from the side as
stacked pyramids (the bottom piece lowest, each piece resting a little higher on the one below) or,
with `style="layers"`, as layered squares. A piece's width follows the ruleset's numeric size
attribute when it has one, and its fill follows its colour: an attribute whose values name colours
(black, green, white, red, blue, yellow, ...) gives those colours; otherwise the owner (a
players-valued attribute) picks a colour from a palette. When the pieces have both a colour and an
owner, the owner is shown by the outline and by a dot at the piece's base. Any other attribute
(a man or a king) marks each piece whose value is not the attribute's first with that value's code. Off-board zones and
counters are drawn beside the board; the caption says who moves and the ply, or how the game ended.

matplotlib draws everything (its Agg and SVG back ends, no window and no pyplot), so the same
figure writes both formats. Every piece on the board is one patch with the SVG id
`piece-<cell>-<level>` (level 1 at the bottom) and every piece in a zone `zone-<slot>-<index>`,
so a picture can be checked, or styled, by id.
"""

from __future__ import annotations

import io
import weakref
from pathlib import Path

from attrs import frozen

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
}
# Colours for players (owners), in order; those a colour attribute already uses are skipped.
PALETTE = ("red", "blue", "green", "orange", "purple", "teal", "black", "brown", "pink", "gray")
LIGHT_SQUARE, DARK_SQUARE = "#f3ead7", "#e3d3b1"


def colour_of(name: str):
    """The red-green-blue tone of a colour name, or None when `name` is not a colour."""
    from matplotlib.colors import is_color_like

    key = name.lower()
    if key in NAMED:
        return NAMED[key]
    return key if is_color_like(key) and not key.replace(".", "").isdigit() else None


def _luminance(colour) -> float:
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


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


def scheme(game) -> Scheme:
    """The look of a game's pieces, from its attributes (worked out once per game)."""
    cached = _SCHEMES.get(game)
    if cached is not None:
        return cached
    attrs = list(game.attributes)
    tables, n = game.world.attr_tables, game.world.npieces
    owner = game.owner_attribute
    colour = next((a for a in attrs if a.name in ("colour", "color") and not a.numeric), None) \
        or next((a for a in attrs if not a.players and not a.numeric and a.values
                 and all(colour_of(v) for v in a.values)), None)
    size = next((a for a in attrs if a.name == "size" and a.numeric), None) \
        or next((a for a in attrs if a.numeric and a.values), None)

    used = {colour_of(v) for v in colour.values} if colour is not None else set()
    players = _player_colours(game.players, used)

    def value(attr, code):
        return attr.value_name(tables[attr.name][code])

    fill, outline, width, pips = [], [], [], []
    palette = [NAMED[p] for p in PALETTE]
    for code in range(n):
        own = value(owner, code) if owner is not None else None
        own_colour = players[game.players.index(own)] if own in game.players else None
        if colour is not None:
            name = value(colour, code)
            tone = colour_of(name) if name else None
            if tone is None and name in colour.values:
                tone = palette[colour.values.index(name) % len(palette)]
            fill.append(tone or "#bbbbbb")
            outline.append(own_colour if colour is not owner else None)
        else:
            fill.append(own_colour or "#bbbbbb")
            outline.append(None)
        if size is not None:
            lo, hi = min(size.numbers), max(size.numbers)
            number = tables[size.name][code]
            width.append(0.62 if hi == lo else 0.42 + 0.46 * (number - lo) / (hi - lo))
            pips.append(number if 0 < number <= 5 and all(0 < x <= 5 for x in size.numbers) else 0)
        else:
            width.append(0.62)
            pips.append(0)
    # Attributes the picture shows no other way (a man or a king): every value but the first, the
    # plain one, is marked on the piece with its notation code.
    others = [a for a in attrs if a not in (owner, colour, size) and len(a.values) > 1]
    label = tuple("".join(a.codes[a.numbers.index(tables[a.name][code])].upper() for a in others
                          if tables[a.name][code] in a.numbers[1:]) for code in range(n))
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


# ---- drawing --------------------------------------------------------------------------------

PANEL_WIDTH = 3.6  # board cells of room for the zones beside the board
ZONE_ROW = 0.75  # height of one row of zone pieces, in cells


def figure(state, style: str = "pyramids", title: str | None = None):
    """A matplotlib Figure of the position (no pyplot, so no window and no global state)."""
    from matplotlib.figure import Figure

    if style not in STYLES:
        raise GameError(f"style {style!r} is not one of {', '.join(STYLES)}")
    game, w = state.game, state.game.world
    look = scheme(game)
    zone_rows = _zone_rows(state)
    has_panel = bool(w.zone_names or w.counter_names)
    panel_height = sum(rows for _, rows in zone_rows) * ZONE_ROW + 0.5 * len(w.zone_names) \
        + 0.45 * len(w.counter_names)
    height = max(w.ranks, panel_height)
    x_lo, x_hi = -0.7, w.files + (0.4 + PANEL_WIDTH if has_panel else 0.2)
    y_lo, y_hi = -0.75 - 0.45, height + 0.9
    inch = 0.85
    fig = Figure(figsize=((x_hi - x_lo) * inch, (y_hi - y_lo) * inch), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    ax.set_aspect("equal")
    ax.axis("off")

    _draw_grid(ax, w)
    for c, stack in enumerate(state.cells):
        if stack:
            _draw_stack(ax, look, stack, c % w.files, c // w.files, w.cell_name(c), style)
    if has_panel:
        _draw_panel(ax, state, look, zone_rows, w.files + 0.4, height)
    ax.text((x_lo + x_hi) / 2, height + 0.45, title or game.title, ha="center", va="center",
            fontsize=14, fontweight="bold")
    _draw_caption(ax, state, look, -0.6, -0.95)
    return fig


def _draw_grid(ax, w) -> None:
    from matplotlib.patches import Rectangle

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


def _edge(fill) -> str:
    return "#111111" if _luminance(fill) > 0.35 else "#000000"


def _pip_colour(fill) -> str:
    return "#222222" if _luminance(fill) > 0.55 else "#ffffff"


def _piece(ax, look, code, x, base, width, height, style, gid) -> None:
    """One piece: a pyramid (triangle) or a layer (rectangle) centred on x with its base at `base`."""
    from matplotlib.patches import Circle, Polygon, Rectangle

    fill, owner = look.fill[code], look.owner[code]
    lw = 2.4 if owner else 1.0
    edge = owner or _edge(fill)
    if style == "pyramids":
        shape = Polygon([(x - width / 2, base), (x + width / 2, base), (x, base + height)], closed=True,
                        facecolor=fill, edgecolor=edge, linewidth=lw, joinstyle="round", gid=gid)
    else:
        shape = Rectangle((x - width / 2, base), width, height, facecolor=fill, edgecolor=edge,
                          linewidth=lw, gid=gid)
    ax.add_patch(shape)
    pips = look.pips[code]
    band = min(height, 0.09)
    if pips and band >= 0.05:  # the pips along the base, as on the real pieces
        gap = width / (pips + 1) * (0.55 if style == "pyramids" else 1)
        for i in range(pips):
            ax.add_patch(Circle((x + (i - (pips - 1) / 2) * gap, base + band * 0.55), band * 0.26,
                                facecolor=_pip_colour(fill), edgecolor="none"))
    if look.label and look.label[code]:
        ax.text(x, base + height * (0.36 if style == "pyramids" else 0.5), look.label[code], ha="center",
                va="center", fontsize=10 if width > 0.3 else 6, fontweight="bold", color=_pip_colour(fill), gid="label-" + gid.partition("-")[2])
    if owner and style == "layers":
        ax.add_patch(Circle((x + width / 2 - 0.06, base + height / 2), min(0.05, height / 3),
                            facecolor=owner, edgecolor="white", linewidth=0.5))


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
        _piece(ax, look, code, x, base, widths[level - 1], heights[level - 1], style,
               f"piece-{name}-{level}")
        if level < len(stack):
            base += steps[level - 1]
    if len(stack) > 4:  # the height, when counting the layers by eye is hard
        ax.text(f + 0.93, r + 0.9, str(len(stack)), ha="right", va="top", fontsize=8, fontweight="bold",
                color="#333333", bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.8,
                                           linewidth=0))


def _zone_rows(state) -> list:
    """(zone slot, rows needed) per zone: pieces are laid out PER_ROW to a row."""
    return [(i, max(1, -(-len(z) // PER_ROW))) for i, z in enumerate(state.zones)]


PER_ROW = 8


def _draw_panel(ax, state, look, zone_rows, x0, top) -> None:
    """Zones (a label, then the pieces in a row) and counters, top down beside the board."""
    w = state.game.world
    y = top
    for slot, rows in zone_rows:
        y -= 0.4
        ax.text(x0, y, w.zone_names[slot] + ("" if state.zones[slot] else "  (empty)"), ha="left",
                va="center", fontsize=10, color="#333333")
        y -= 0.1
        pieces = state.zones[slot]
        for i, code in enumerate(pieces):
            row, col = divmod(i, PER_ROW)
            width = look.width[code] * 0.42
            _piece(ax, look, code, x0 + 0.25 + col * (PANEL_WIDTH - 0.3) / PER_ROW,
                   y - (row + 1) * ZONE_ROW + 0.08, width, 0.85 * width,
                   "pyramids", f"zone-{w.zone_names[slot]}-{i + 1}")
        y -= rows * ZONE_ROW
    for i, name in enumerate(w.counter_names):
        y -= 0.45
        ax.text(x0, y, f"{name} = {state.counters[i]}", ha="left", va="center", fontsize=10,
                color="#333333")


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


def _draw_caption(ax, state, look, x, y) -> None:
    from matplotlib.patches import Circle

    text = caption(state)
    if state.outcome() is None:
        ax.add_patch(Circle((x + 0.12, y), 0.12, facecolor=look.players[state.side], edgecolor="#222222",
                            linewidth=0.8))
        x += 0.35
    seats = state.seats
    if list(seats) != sorted(seats):
        players = state.game.players
        text += "   seats: " + ", ".join(players[seats.index(i)] for i in range(len(seats)))
    ax.text(x, y, text, ha="left", va="center", fontsize=11)


# ---- output ---------------------------------------------------------------------------------


def _save(fig, fmt: str) -> bytes:
    from matplotlib import rc_context

    buf = io.BytesIO()
    # Text stays text in SVG (searchable, small); no date, fixed ids: the same position, the same file.
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "ziggurat"}):
        metadata = {"Date": None} if fmt == "svg" else {"Software": "ziggurat"}
        fig.savefig(buf, format=fmt, metadata=metadata)
    return buf.getvalue()


def svg(state, style: str = "pyramids") -> str:
    """The position as SVG text."""
    return _save(figure(state, style), "svg").decode("utf-8")


def png(state, style: str = "pyramids") -> bytes:
    """The position as PNG bytes."""
    return _save(figure(state, style), "png")


def format_of(path) -> str:
    """'svg' or 'png' from a file name; GameError for anything else."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise GameError(f"cannot tell the picture format of {str(path)!r}: name it .svg or .png")
    return suffix


def write(state, path, style: str = "pyramids") -> Path:
    """Write the position to `path` (.svg or .png, by its name) and return the path."""
    path = Path(path)
    fmt = format_of(path)
    data = _save(figure(state, style), fmt)
    try:
        write_bytes(path, data)  # whole or not at all
    except OSError as e:
        raise GameError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
    return path


__all__ = ["figure", "svg", "png", "write", "caption", "scheme", "colour_of", "STYLES"]
