"""Pictures of positions (SVG and PNG), drawn from what the ruleset declares.

The board is the grid with file letters and rank numbers (render_spaces). Each stack is drawn from
the side as stacked pyramids (the bottom piece lowest, each piece resting a little higher on the
one below) or, with `style="layers"`, as layered squares (render_pieces). A piece's width and pips
follow the ruleset's size attribute and its fill its colour attribute or its owner (render_look:
the game's colour scheme); any other attribute (a man or a king) marks each piece whose value is
not the attribute's first with that value's code.

A game whose board is only places (a card or dice game: no rule reads its geometry) is drawn as a
table of what it has instead (render_places.py). Counters the rules mark `bookkeeping` are drawn
in no picture.

Off-board zones and counters are listed beside the board, in as many columns as they need, under
titles in the rules' own words (render_panel: "prisoners of south", "captured by white", a
hidden zone says so, an empty one says "none"). The cells the last move named (Game.move_cells)
are outlined and the move is written under the board; the caption says who moves and the ply, or
how the game ended.

Each kind of space has its own pair of functions (its size, and how to draw it and its pieces):
the grid of cells and the open table (render_spaces.SPACES). matplotlib draws everything (its Agg
and SVG back ends, no window and no pyplot), so the same figure writes both formats. Every piece
on the board is one patch with the SVG id `piece-<cell>-<level>` (level 1 at the bottom), its mark
`label-<cell>-<level>` and its pips `pip-<cell>-<level>-<i>`; a piece in a zone is
`zone-<slot>-<index>` (or `zone-<slot>-kind<k>` for a kind drawn once with its count), a zone's
title `title-<slot>`, a last-move outline `last-<cell>`; so a picture can be checked, or styled,
by id.

This module is the pictures' public face (`svg`, `png`, `write`, `figure`, `caption`), as
`chess.svg` is python-chess's; `State._repr_svg_` imports it when a notebook first draws a state.
"""

from __future__ import annotations

import io
from pathlib import Path

from .errors import GameError
from .outputs import write_bytes
from .render_look import NAMED, colour_attribute, colour_in, colour_of, scheme
from .render_panel import PANEL_WIDTH, columns as panel_columns, counter_titles, zone_titles
from .render_pieces import PT_PER_CELL
from .render_spaces import LAST_MOVE, SPACES, TABLE_CELLS, space_kind, table_size

STYLES = ("pyramids", "layers")
FORMATS = ("svg", "png")


def last_move(state):
    """The move that led to this state (from its undo history), or None."""
    return state.stack[-1] if state.stack else None


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
        columns = panel_columns(state, look, board_h, hidden or {})
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
        # A place named twice (a jump back to where it began) is outlined once.
        draw_space(ax, state, look, style, list(dict.fromkeys(game.move_cells(move))) if move is not None else [])
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


__all__ = ["figure", "svg", "png", "write", "caption", "format_of", "last_move", "scheme", "colour_of", "colour_in",
           "colour_attribute", "zone_titles", "counter_titles", "STYLES", "FORMATS", "SPACES", "NAMED", "LAST_MOVE",
           "PT_PER_CELL", "TABLE_CELLS", "table_size", "space_kind"]
