"""Drawing a position with rich: the grid, the zones and counters, whose turn it is.

A game whose board is only places (a card or dice game) is drawn as a table of what it has
(ziggurat.layout): each player's hand, a card a line with what the tables say of it, pools,
the shared piles, then the places that hold something. Counters marked `bookkeeping` are not
shown. A cell shows its stack bottom -> top as piece codes. When the pieces have an attribute whose
values are the players (an owner), each piece is coloured by that player. Drawn for a viewer (a
side), a zone hidden from it shows only how many pieces it holds.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .. import layout
from ..records import reason_text, result_text

PALETTE = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")


def player_colours(game) -> dict:
    """Piece code -> rich style, from the owner attribute (empty when the game has none)."""
    owner = game.owner_attribute
    if owner is None:
        return {}
    table = game.world.attr_tables[owner.name]
    styles = {}
    for code, number in enumerate(table):
        name = owner.value_name(number)
        if name in game.players:
            styles[code] = PALETTE[game.players.index(name) % len(PALETTE)]
    return styles


def pieces_text(game, codes, styles: dict) -> Text:
    """A stack or zone, bottom -> top, each piece in its owner's colour."""
    out = Text()
    for code in codes:
        out.append(game.world.piece_text(code), style=styles.get(code, ""))
    return out


RUN = 4  # in a zone, this many pieces of one kind in a row or more are written once, with a count


def zone_text(game, codes, styles: dict) -> Text:
    """A zone in order, a long run of one kind of piece written `ptx400` (a bank, a full deck)."""
    out, i = Text(), 0
    while i < len(codes):
        j = i
        while j < len(codes) and codes[j] == codes[i]:
            j += 1
        out.append(game.world.piece_text(codes[i]), style=styles.get(codes[i], ""))
        if j - i >= RUN:
            out.append(f"x{j - i} ", style="dim")
        else:
            for code in codes[i + 1:j]:
                out.append(game.world.piece_text(code), style=styles.get(code, ""))
        i = j
    return out


def board_table(state, styles: dict) -> Table:
    """The grid: files a, b, ... across, ranks from the top down, like a diagram of the board."""
    game, w = state.game, state.game.world
    table = Table(show_header=True, show_lines=True, box=None, padding=(0, 1), header_style="dim")
    table.add_column("", justify="right", style="dim")
    for f in range(w.files):
        table.add_column(w.file_name(f), justify="center", min_width=max(3, w.piece_width()))
    for r in reversed(range(w.ranks)):
        row = [str(r + 1)]
        for f in range(w.files):
            stack = state.cells[w.cell(f, r)]
            row.append(pieces_text(game, stack, styles) if stack else Text(".", style="dim"))
        table.add_row(*row)
    return table


# Colour names a ruleset may give its pieces, as terminal styles (the others are written plainly).
TERMINAL_COLOURS = {"white": "bold white", "clear": "bright_white", "red": "red", "orange": "dark_orange",
                    "yellow": "yellow", "green": "green", "cyan": "cyan", "blue": "blue", "purple": "magenta",
                    "black": "bold grey50", "gray": "grey50", "grey": "grey50", "pink": "pink1"}
ARROWS = {0: "^", 2: ">", 4: "v", 6: "<"}  # a lying piece's point, by its direction's number
MAP_WIDEST = 48  # inches across: a wider table is listed, not mapped


def colour_styles(game) -> dict:
    """Piece code -> rich style, from an attribute whose values name colours (empty when none)."""
    attr = next((a for a in game.attributes if not a.players and any(v in TERMINAL_COLOURS for v in a.values)), None)
    if attr is None:
        return {}
    table = game.world.attr_tables[attr.name]
    return {code: TERMINAL_COLOURS.get(attr.value_name(n) or "", "") for code, n in enumerate(table)}


def table_view(state, styles: dict) -> Group:
    """The open table: a map an inch to a character cell (a standing piece by its code, a lying one
    by an arrow to its point), then every piece at its spot, in the order they were placed."""
    from ..dsl import surface

    game, entries = state.game, state.on_table()
    styles = colour_styles(game) or styles
    parts = []
    if not entries:
        return Group(Text("the table is empty", style="dim"))
    spots = [(surface.centre(s), surface.pose(s), code) for code, s in entries]
    inch = surface.UNITS_PER_INCH
    xs = [round(x / inch) for (x, _), _, _ in spots]
    ys = [round(y / inch) for (_, y), _, _ in spots]
    if max(xs) - min(xs) <= MAP_WIDEST:
        width = max(3, game.world.piece_width())
        cells = {}
        for (x, y), (_, pose, code) in zip(zip(xs, ys), spots):
            text = game.world.piece_text(code)
            cells[(x, y)] = (text if pose == 0 else text[:width - 1] + ARROWS[pose - 1], styles.get(code, ""))
        for y in range(max(ys), min(ys) - 1, -1):
            row = Text(f"{y:>4} ", style="dim")
            for x in range(min(xs), max(xs) + 1):
                text, style = cells.get((x, y), ("." if (x, y) != (0, 0) else "+", "dim"))
                row.append(text.center(width) + " ", style=style)
            parts.append(row)
        parts.append(Text(f"     x from {min(xs)} to {max(xs)} inches, y from {min(ys)} to {max(ys)}; "
                          "+ is the origin", style="dim"))
    listing = Text("on the table: ", style="dim")
    for code, s in entries:
        listing.append(game.world.piece_text(code), style=styles.get(code, ""))
        listing.append(f"@{surface.spot_text(s)} ")
    parts.append(listing)
    return Group(*parts)


TERSE_ABOVE = 24  # zones and counters: with more, the empty ones and those at 0 are left out


def slots_table(state, styles: dict, viewer: int | None = None) -> Table | None:
    """Zones (their pieces) and counters (their numbers), or None when the game has neither."""
    game, w = state.game, state.game.world
    if not w.zone_names and not game.shown_counters:
        return None
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="dim")
    table.add_column()
    # A long list (a card game keeps many piles and counters) leaves out the empty piles and the
    # counters at 0 or none, and says how many it left out.
    terse = len(w.zone_names) + len(game.shown_counters) > TERSE_ABOVE
    left_out = 0
    for i, name in enumerate(w.zone_names):
        zone, seen_by = state.zones[i], game.zone_viewers[i]
        if not zone:
            if terse:
                left_out += 1
                continue
            table.add_row(name, Text("-", style="dim"))
        elif viewer is not None and seen_by is not None and viewer not in seen_by:
            table.add_row(name, Text(f"{len(zone)} hidden", style="dim"))
        else:
            table.add_row(name, zone_text(game, zone, styles))
    for i in game.shown_counters:  # not those the rules mark bookkeeping
        if terse and state.counters[i] in (0, -1):
            left_out += 1
            continue
        table.add_row(w.counter_names[i], game.counter_text(i, state.counters[i]))
    if left_out:
        table.add_row(Text(f"({left_out} empty or at 0)", style="dim"), "")
    return table


def run_text(game, run, styles: dict) -> Text:
    """A run of pieces of one kind: each piece's code, or the code once with its count."""
    code = game.world.piece_text(run.code).strip()
    out = Text(code, style=styles.get(run.code, ""))
    if run.count > 1:
        out.append(f"x{run.count}", style="dim")
    return out


def card_text(game, code: int, styles: dict) -> Text:
    """A card on a line of its own: its code, its name and what the ruleset's tables say of it."""
    out = Text(game.world.piece_text(code).strip(), style=styles.get(code, "bold"))
    out.append(f" {layout.piece_name(game, code)}")
    facts = layout.facts(game, code)
    if facts:
        out.append(": " + ", ".join(facts), style="dim")
    return out


def item_rows(game, item, styles: dict) -> list:
    """(title, text) rows of a zone or counter of the table layout: a zone of cards one card a row."""
    if isinstance(item, layout.Counter):
        return [(item.title, Text(item.text))]
    if item.hidden:
        return [(item.title, Text(f"{item.size} hidden" if item.size else "none", style="dim"))]
    if not item.runs:
        return [(item.title, Text("none", style="dim"))]
    if item.cards and item.size <= 2 * layout.RUN + 2:  # a hand: one card a row
        return [(item.title if i == 0 else "", card_text(game, r.code, styles)) for i, r in enumerate(item.runs)]
    return [(item.title, Text(" ").join(run_text(game, r, styles) for r in item.runs))]


def places_view(state, styles: dict, viewer: int | None = None) -> Table:
    """A game whose board is only places, as a table of what it has (ziggurat.layout): each
    player's zones and counters, the shared ones, then the places that hold something."""
    game = state.game
    lay = layout.layout(state, viewer)
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="dim")
    table.add_column()
    for i, (player, items) in enumerate(lay.seats):
        mark = " (you)" if viewer == i else ""
        table.add_row(Text(player + mark, style=PALETTE[i % len(PALETTE)]), "")
        for item in items:
            for title, text in item_rows(game, item, styles):
                table.add_row("  " + title if title else "", text)
    if lay.shared:
        table.add_row(Text("on the table", style="bold"), "")
        for item in lay.shared:
            for title, text in item_rows(game, item, styles):
                table.add_row("  " + title if title else "", text)
    if lay.places:
        table.add_row(Text("places", style="bold"), "")
    for place in lay.places:
        text = Text()
        for k, r in enumerate(place.runs):
            if k:
                text.append("  ")
            text.append_text(card_text(game, r.code, styles) if layout.is_card(game, r.code) and r.count == 1
                             else run_text(game, r, styles))
        table.add_row(Text("  " + place.name), text)
    return table


def status_line(state) -> Text:
    """Whose turn it is and the ply (or how the game ended: who won, and why)."""
    out = Text()
    side = state.mover_name
    style = PALETTE[state.side % len(PALETTE)]
    out.append(f"ply {state.ply}  ")
    outcome = state.outcome()
    if outcome is not None:
        out.append(f"game over: {result_text(state)}", style="bold")
        if reason_text(state):
            out.append(f" ({reason_text(state)})")
    else:
        out.append(side, style=style)
        out.append(" to move")
    return out


def draw(state, viewer: int | None = None) -> Group:
    """Everything `show` and `play` print for a position: all of it, or what `viewer` sees."""
    game = state.game
    styles = player_colours(game)
    if game.board_is_places:  # a card or dice game: no grid, a table of what it has
        parts = [places_view(state, colour_styles(game) or styles, viewer)]
    else:
        parts = [table_view(state, styles) if game.world.surface is not None else board_table(state, styles)]
        slots = slots_table(state, styles, viewer)
        if slots is not None:
            parts.append(slots)
    parts.append(status_line(state))
    return Group(*parts)
