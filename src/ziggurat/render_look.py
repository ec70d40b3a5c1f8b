"""How a game's pieces look in pictures, from what the ruleset declares (render.py draws them).

A piece's width and pips follow the ruleset's size attribute (numeric) when it has one (a number
too large for pips, a die's six, is written on the piece instead), and its fill follows its
colour: the attribute whose value names are colour names (red, green, blue, yellow, ... whatever
numbers they carry, `red = 1` too) gives those colours, and a value that only begins with one
(`red1`) gives it as well; otherwise the owner (a players-valued attribute) picks its own colour
when it is named after one (black, white) or one from a palette. When the pieces have both a
colour and an owner, the owner is shown by the outline (and, for layers, a dot). Any other
attribute (a man or a king) marks each piece whose value is not the attribute's first with that
value's code. The look of a game is worked out once (`scheme`) and read by every drawing of it:
render's pictures, render_places' tables and the browser's page (serve).
"""

from __future__ import annotations

import re
import weakref

from attrs import frozen

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


__all__ = ["NAMED", "PALETTE", "NEUTRAL", "Scheme", "scheme", "colour_of", "colour_in", "colour_attribute"]
