"""Pictures of a game whose board is only places (a card or dice game), as a table of what it has.

The layout (ziggurat.layout) is drawn top down: each player's part under their name in their
colour (a hand as cards, a pool of dice as dice, their counters), the shared piles "on the
table", then the places that hold something, each under its name as moves write it. A card is a
box with its code, its name and what the ruleset's tables say of it (`target 18`); another piece
(a die, a marker, a point) is a square in its colour with its code; a run of one kind is drawn
once with its count. A zone hidden from the viewer is one line: its title and how many pieces it
holds. Ids as render.py's: `zone-<slot>-<i>` for a zone's piece (a run of one kind: its first),
`zone-<slot>-kind<k>` for a kind drawn once, `place-<cell>-<level>`, `label-<piece id>` its code,
`title-<slot>`, `counter-<slot>`, `seat-<player>`. A zone of more than layout.MANY pieces (a deck,
a bank) is drawn by kind, each kind once as a small square with its count.

Sizes are in board cells (render.PT_PER_CELL points of text to a cell).
"""

from __future__ import annotations

import textwrap

from . import layout as L
from .colours import edge_colour, pip_colour

WIDTH = 12.0  # cells across
TITLE_W = 2.0  # the titles' column
CARD_W, CARD_H = 1.65, 1.15
TOKEN = 0.42  # a die's or a marker's side
GAP = 0.12
HEADER_H = 0.55
LINE_H = 0.42
FACT_CHARS = 20  # a card's facts wrap at this many letters


def _per_row(width: float) -> int:
    return max(1, int((WIDTH - TITLE_W) // width))


def _run_width(game, run, cards) -> float:
    if cards:
        return CARD_W + GAP
    return TOKEN + GAP + (0.45 if run.count > 1 else 0)


def _as_card(game, run, cards) -> bool:
    """Whether a run is drawn as a card: a card (layout.is_card) in a zone of cards, or on a place
    (`cards` None: none is, a zone drawn small)."""
    return cards is not None and L.is_card(game, run.code)


def _rows(game, runs, cards) -> list:
    """The runs in rows that fit beside the titles: [[(x offset, run), ...], ...]."""
    rows, x, room = [[]], 0.0, WIDTH - TITLE_W
    for r in runs:
        w = _run_width(game, r, _as_card(game, r, cards))
        if x + w > room and rows[-1]:
            rows.append([])
            x = 0.0
        rows[-1].append((x, r))
        x += w
    return rows


def _row_height(game, row, cards) -> float:
    return max((CARD_H if _as_card(game, r, cards) else TOKEN) for _, r in row) + GAP


def _pieces_item(game, look, title, runs, gid, note="", cards=False, small=False, prefix=None):
    """(height, draw(ax, top)) of a title and its pieces in rows (`cards`: all of them cards;
    `small`: none of them)."""
    cards = None if small else cards
    rows = _rows(game, runs, cards) if runs else []
    height = max(LINE_H, sum(_row_height(game, row, cards) for row in rows)) + 0.06

    def draw(ax, top):
        ax.text(0.1, top - LINE_H / 2, title, ha="left", va="center", fontsize=10, color="#333333",
                gid=f"title-{gid}")
        if note:
            ax.text(TITLE_W, top - LINE_H / 2, note, ha="left", va="center", fontsize=10, color="#555555")
        # A run's id names its first piece's place in the zone (from 1), or its kind when drawn by kind.
        y, first, k = top, 1, 0
        for row in rows:
            h = _row_height(game, row, cards)
            for x, r in row:
                k += 1
                ident = f"{prefix or gid}-kind{k}" if small else f"{prefix or gid}-{first}"
                _draw_run(ax, game, look, r, TITLE_W + x, y - GAP / 2, ident, _as_card(game, r, cards))
                first += r.count
            y -= h
    return height, draw


def _draw_run(ax, game, look, run, x, top, gid, card: bool) -> None:
    from matplotlib.patches import FancyBboxPatch


    fill = look.fill[run.code]
    code = game.world.piece_text(run.code).strip()
    if card:
        ax.add_patch(FancyBboxPatch((x, top - CARD_H), CARD_W, CARD_H, boxstyle="round,pad=0,rounding_size=0.08",
                                    facecolor="white", edgecolor=fill, linewidth=2.2, gid=f"card-{gid}"))
        ax.add_patch(FancyBboxPatch((x, top - 0.3), CARD_W, 0.3, boxstyle="round,pad=0,rounding_size=0.08",
                                    facecolor=fill, edgecolor=fill, linewidth=0, gid=gid))  # the band: its colour
        ax.text(x + 0.08, top - 0.15, code, ha="left", va="center", fontsize=10, fontweight="bold",
                color=pip_colour(fill), gid=f"label-{gid}")
        ax.text(x + CARD_W - 0.08, top - 0.15, L.piece_name(game, run.code), ha="right", va="center",
                fontsize=8, color=pip_colour(fill))
        lines = textwrap.wrap(", ".join(L.facts(game, run.code)), FACT_CHARS)
        for k, line in enumerate(lines[:4]):
            ax.text(x + 0.08, top - 0.45 - k * 0.19, line, ha="left", va="center", fontsize=8, color="#222222")
        return
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((x, top - TOKEN), TOKEN, TOKEN, facecolor=fill, edgecolor=edge_colour(fill), linewidth=0.9,
                           gid=gid))
    ax.text(x + TOKEN / 2, top - TOKEN / 2, code, ha="center", va="center", fontsize=8, fontweight="bold",
            color=pip_colour(fill), gid=f"label-{gid}")
    if run.count > 1:
        ax.text(x + TOKEN + 0.05, top - TOKEN / 2, f"\u00d7{run.count}", ha="left", va="center", fontsize=9,
                color="#333333", gid=f"count-{gid}")


def _item(game, look, item):
    """(height, draw) of one zone or counter of the layout."""
    if isinstance(item, L.Counter):
        def draw(ax, top):
            ax.text(0.1, top - LINE_H / 2, f"{item.title.replace('_', ' ')}: {item.text}", ha="left", va="center",
                    fontsize=10, color="#333333", gid=f"counter-{item.slot}")
        return LINE_H, draw
    title = item.title.replace("_", " ")
    if item.hidden:
        return _pieces_item(game, look, title, (), item.slot, f"{item.size} hidden" if item.size else "none")
    prefix = f"zone-{item.slot}"
    if item.size > L.MANY:  # a deck or a bank: each kind once, small, with its count
        return _pieces_item(game, look, title, L.kinds(item.runs), item.slot, small=True, prefix=prefix)
    return _pieces_item(game, look, title, item.runs, item.slot, "" if item.runs else "none", item.cards,
                        prefix=prefix)


def _header(text, colour, gid):
    def draw(ax, top):
        ax.text(0.0, top - HEADER_H / 2, text, ha="left", va="center", fontsize=12, fontweight="bold",
                color=colour, gid=gid)
    return HEADER_H, draw


def items(state, look, viewer=None) -> list:
    """The picture as (height, draw(ax, top)) items, top down."""
    game = state.game
    lay = L.layout(state, viewer)
    out = []
    for i, (player, part) in enumerate(lay.seats):
        out.append(_header(player + (" (you)" if viewer == i else ""), look.players[i], f"seat-{player}"))
        out += [_item(game, look, x) for x in part]
    if lay.shared:
        out.append(_header("on the table", "#333333", "seat-shared"))
        out += [_item(game, look, x) for x in lay.shared]
    if lay.places:
        out.append(_header("places", "#333333", "seat-places"))
        out += [_pieces_item(game, look, p.name, p.runs, f"cell-{p.name}", prefix=f"place-{p.name}")
                for p in lay.places]
    return out


def size(state, look, viewer=None) -> tuple:
    """(width, height) of the picture's table part, in cells (`look`: render.scheme of the game)."""
    return WIDTH, sum(h for h, _ in items(state, look, viewer))


def draw(ax, state, look, viewer=None) -> None:
    """Draw the layout with its top at the picture's top (y = its height)."""
    parts = items(state, look, viewer)
    y = sum(h for h, _ in parts)
    for h, d in parts:
        d(ax, y)
        y -= h
