"""The panel beside the board: the zones and counters, in as many columns as they need, under
titles in the rules' own words.

A zone `prisoners per player` is "prisoners of south", one whose name is a participle (`captured
per player`) "captured by white", a hidden zone says so, an empty one says "none", and a zone of
many pieces shows each kind once with its count. Counters the rules mark `bookkeeping` are left
out. Each item is a (height, draw(ax, x, top)) pair; render.figure places the columns. Ids: a
zone's title `title-<slot>`, its pieces `zone-<slot>-<index>` (or `zone-<slot>-kind<k>` for a kind
drawn once with its count), a counter `counter-<slot>`.
"""

from __future__ import annotations

from .render_pieces import draw_piece

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


# ---- the panel ----------------------------------------------------------------------------------

PANEL_WIDTH = 3.8  # board cells of room for one column of zones and counters
ZONE_ROW = 0.6  # height of one row of zone pieces, in cells
ZONE_SCALE = 0.55  # a zone piece's size, of the same piece's on the board
TITLE_ROW = 0.5  # height of a zone's title line
COUNTER_ROW = 0.42
PER_ROW = 7  # zone pieces to a row
KINDS_PER_ROW = 4  # kinds to a row when a zone is drawn by kind, each with its count


def columns(state, look, board_height: float, hidden: dict) -> list:
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
    out: list = []
    used = limit
    for h, draw in items:
        if used + h > limit and (not out or out[-1]):
            out.append([])
            used = 0.0
        out[-1].append((h, draw))
        used += h
    return [c for c in out if c]


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
            draw_piece(ax, look, code, x, base, width, 0.85 * width, "pyramids", gid)
            if count is not None:
                ax.text(x + width / 2 + 0.04, base + 0.12, f"\u00d7{count}", ha="left", va="center", fontsize=9,
                        color="#333333", gid=f"count-{gid}")
    return height, draw


__all__ = ["slot_title", "zone_titles", "counter_titles", "zone_heading", "columns", "PANEL_WIDTH"]
