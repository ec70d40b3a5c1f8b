"""A piece and a stack of them, drawn from the side (render.py's board and panel use them).

Each stack is drawn as stacked pyramids (the bottom piece lowest, each piece resting a little
higher on the one below) or, with the style `layers`, as layered squares; a mark and a piece's
pips share the part of the piece that shows, side by side when it is low, and never overlap.
Every piece is one patch with the SVG id `piece-<cell>-<level>` (level 1 at the bottom), its mark
`label-<cell>-<level>` and its pips `pip-<cell>-<level>-<i>`.
"""

from __future__ import annotations

from .colours import edge_colour, pip_colour

PT_PER_CELL = 0.85 * 72  # a board cell is 0.85 inch: points of text per cell


def draw_piece(ax, look, code, x, base, width, height, style, gid, shown=None) -> None:
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


def draw_stack(ax, look, stack, f, r, name, style) -> None:
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
        draw_piece(ax, look, code, x, base, widths[level - 1], heights[level - 1], style,
               f"piece-{name}-{level}", shown)
        if level < len(stack):
            base += steps[level - 1]
    if len(stack) > 4:  # the height, when counting the layers by eye is hard
        ax.text(f + 0.93, r + 0.9, str(len(stack)), ha="right", va="top", fontsize=8, fontweight="bold",
                color="#333333", bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.8,
                                           linewidth=0), gid=f"height-{name}")


__all__ = ["draw_piece", "draw_stack", "PT_PER_CELL"]
