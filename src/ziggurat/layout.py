"""A position as a table of what it has, for a game whose board is only places (dsl.places).

A card or dice game keeps hands, pools, a deck and goals, not a grid. Its position is laid out
from what the ruleset declares: each player's zones and counters together (a hand, a pool of
dice, points), then the shared zones and counters (a deck, a discard pile), then the places (the
board's cells) that hold something, each named as moves name it, its pieces bottom first (a goal
card, its owner's marker, the points banked on it, counted). A piece the ruleset's tables of columns
list (dsl.places.listed_pieces) is a card, shown with what they say of it in play (`target 18`,
`value 20`: dsl.places.piece_facts); another piece (a die, a marker) is shown by its code.

What is shown is what a viewer (a side, or None for everyone) may see: a zone hidden from them is
one line with how many pieces it holds; counters marked `bookkeeping` are left out (they stay in
positions and records). The terminal (cli/board.py), pictures (render.py) and `ziggurat serve`
(serve/tables.py) draw the same layout.
"""

from __future__ import annotations

from attrs import frozen

from .colours import pip_colour

RUN = 4  # this many pieces of one kind in a row or more are drawn once, with their count
MANY = 12  # a zone of more pieces (a deck, a bank) is drawn by kind, each kind once with its count


@frozen
class Run:
    """Pieces of one kind in a row: `count` of piece `code`."""

    code: int
    count: int


@frozen
class Zone:
    slot: str  # the zone slot (`hand.al`)
    title: str  # in a player's part its name (`hand`), else the slot's
    runs: tuple  # Run, in the zone's order (empty when hidden from the viewer)
    size: int  # how many pieces it holds
    hidden: bool  # hidden from the viewer: only its size is shown
    cards: bool  # some of its pieces are cards


@frozen
class Counter:
    slot: str
    title: str
    text: str  # as positions write it


@frozen
class Place:
    name: str  # the cell's name, as moves write it
    runs: tuple  # Run, bottom first


@frozen
class Layout:
    seats: tuple  # (player, (Zone | Counter, ...)) per player, in order
    shared: tuple  # Zone | Counter, not any one player's
    places: tuple  # Place, the cells that hold something


def runs(codes, least: int = RUN) -> tuple:
    """`codes` as runs of one kind; a run shorter than `least` is split into pieces of count 1."""
    out, i = [], 0
    while i < len(codes):
        j = i
        while j < len(codes) and codes[j] == codes[i]:
            j += 1
        out += [Run(codes[i], j - i)] if j - i >= least else [Run(codes[i], 1)] * (j - i)
        i = j
    return tuple(out)


def kinds(rs) -> tuple:
    """Runs merged by kind, in the order each kind first comes, each with its whole count."""
    counts: dict = {}
    for r in rs:
        counts[r.code] = counts.get(r.code, 0) + r.count
    return tuple(Run(code, n) for code, n in counts.items())


def is_card(game, code: int) -> bool:
    """Whether the piece is a card: one the ruleset's tables of columns list with a row not all 0s
    (a goal with its target, an action card with its copies; not a die listed with 0s)."""
    return code in game.spec.cards


def facts(game, code: int) -> tuple:
    """What the ruleset's tables say of a piece, as text ("target 18", "value 20")."""
    return game.spec.facts[code] if code < len(game.spec.facts) else ()


def piece_name(game, code: int) -> str:
    """A piece's attribute values in words (`green2`; `red large` with two attributes)."""
    tables = game.world.attr_tables
    names = [a.value_name(tables[a.name][code]) for a in game.attributes]
    return " ".join(n.replace("_", " ") for n in names if n)


def layout(state, viewer: int | None = None) -> Layout:
    """The position laid out as a table of what it has, as `viewer` may see it."""
    game, w = state.game, state.game.world
    seats = {p: [] for p in game.players}
    shared = []

    def part(slot):
        """The list a slot's item goes in, and its title there."""
        name, _, who = slot.partition(".")
        return (seats[who], name) if who in seats else (shared, slot)

    for i, slot in enumerate(w.zone_names):
        pieces, seen_by = state.zones[i], game.zone_viewers[i]
        hidden = viewer is not None and seen_by is not None and viewer not in seen_by
        if not pieces and (seen_by is None or "." not in slot):
            continue  # an empty pile says nothing (an empty hand is still said)
        shown = () if hidden else runs(pieces)
        where, title = part(slot)
        where.append(Zone(slot, title, shown, len(pieces), hidden, any(is_card(game, r.code) for r in shown)))
    for i in game.shown_counters:  # not those the rules mark `bookkeeping`
        slot = w.counter_names[i]
        where, title = part(slot)
        where.append(Counter(slot, title, game.counter_text(i, state.counters[i])))
    places = tuple(Place(w.cell_name(c), runs(stack, 2)) for c, stack in enumerate(state.cells) if stack)
    return Layout(tuple((p, tuple(items)) for p, items in seats.items()), tuple(shared), places)


def piece_json(game, code: int, fill: str, ink: str) -> dict:
    """A piece as the page draws it: its code, its name, what the tables say of it, its colours."""
    return {"code": game.world.piece_text(code).strip(), "name": piece_name(game, code),
            "facts": list(facts(game, code)), "card": is_card(game, code), "fill": fill, "ink": ink}


def to_json(state, look, viewer: int | None = None) -> dict:
    """The layout as the page gets it (serve): {'seats', 'shared', 'places', 'pieces'}: each seat
    {'player', 'colour', 'items'}, an item a zone {'kind': 'zone', 'slot', 'title', 'size',
    'hidden', 'cards', 'small', 'pieces': [{'piece', 'count'}]} (`small`: more than MANY pieces,
    each kind once with its count, drawn small)
    or a counter {'kind': 'counter', 'slot', 'title', 'text'}; a place {'name', 'pieces'}; and
    each piece in the view once (`pieces`: code -> piece_json). `look`: render.scheme of the game."""
    game = state.game
    lay = layout(state, viewer)
    used = set()

    def runs_json(rs):
        used.update(r.code for r in rs)
        return [{"piece": r.code, "count": r.count} for r in rs]

    def item(x):
        if isinstance(x, Zone):
            small = x.size > MANY
            return {"kind": "zone", "slot": x.slot, "title": x.title, "size": x.size, "hidden": x.hidden,
                    "pieces": runs_json(kinds(x.runs) if small else x.runs), "cards": x.cards, "small": small}
        return {"kind": "counter", "slot": x.slot, "title": x.title, "text": x.text}

    out = {"seats": [{"player": p, "colour": look.players[i], "items": [item(x) for x in items]}
                     for i, (p, items) in enumerate(lay.seats)],
           "shared": [item(x) for x in lay.shared],
           "places": [{"name": pl.name, "pieces": runs_json(pl.runs)} for pl in lay.places]}
    out["pieces"] = {str(c): piece_json(game, c, look.fill[c], pip_colour(look.fill[c])) for c in sorted(used)}
    return out
