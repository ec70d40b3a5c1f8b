"""Pictures of the open table (render's table space): every piece where it lies (SVG id
`piece-X,Y`, or `piece-X,Y-D` lying towards D), in its colour,
standing ones as squares and lying ones as triangles pointing their way, the last one outlined."""

from __future__ import annotations

import re

import ziggurat
from ziggurat import render

POSITION = ("second 5 | rd3@0,0 bl3@6,0 rd3@1.375,0>e | supply= captured.first=bl1 captured.second= "
            "die1=0 die2=0")


def svg_of(state, **kw) -> str:
    return render.svg(state, **kw)


def group(svg: str, gid: str) -> str:
    m = re.search(r'<g id="' + re.escape(gid) + r'">(.*?)</g>', svg, re.S)
    assert m, f"no element {gid!r} in the picture"
    return m.group(1)


def fill(element: str) -> str:
    return re.search(r"fill:\s*(#[0-9a-f]{6})", element).group(1)


class TestTable:
    def test_every_piece_is_drawn_at_its_spot(self):
        st = ziggurat.load("chaos").position(POSITION)
        svg = svg_of(st)
        for spot in ("0,0", "6,0", "1.375,0-e"):
            group(svg, f"piece-{spot}")

    def test_pieces_are_drawn_in_their_colours(self):
        """A red piece is red and a blue one blue, from the colour attribute's names."""
        svg = svg_of(ziggurat.load("chaos").position(POSITION))
        red, blue = fill(group(svg, "piece-0,0")), fill(group(svg, "piece-6,0"))
        r, g, b = (int(red[i:i + 2], 16) for i in (1, 3, 5))
        assert r > 150 and g < 100 and b < 100
        r, g, b = (int(blue[i:i + 2], 16) for i in (1, 3, 5))
        assert b > 150 and r < 100

    def test_standing_pieces_are_squares_and_lying_ones_triangles(self):
        """A standing piece's outline has four corners; a lying one's three, its point the farthest
        east of them for a piece pointing east."""
        svg = svg_of(ziggurat.load("chaos").position(POSITION))

        def corners(gid):
            path = re.search(r' d="([^"]*)"', group(svg, gid)).group(1)
            return [tuple(map(float, p.split())) for p in re.findall(r"[ML] ([0-9.]+ [0-9.]+)", path)]

        square, triangle = corners("piece-0,0"), corners("piece-1.375,0-e")
        assert len(square) == 4 and len({x for x, _ in square}) == 2 and len({y for _, y in square}) == 2
        assert len(triangle) == 3
        tip = max(triangle)
        assert [p for p in triangle if p != tip][0][0] == [p for p in triangle if p != tip][1][0]  # a flat base

    def test_the_last_piece_placed_is_outlined(self):
        g = ziggurat.load("chaos")
        st = g.new()
        for text in ("red+blue", "red@0,0", "blue@6,0"):
            st.play(text)
        svg = svg_of(st)
        assert render.LAST_MOVE.lower() in group(svg, "piece-6,0").lower()
        assert render.LAST_MOVE.lower() not in group(svg, "piece-0,0").lower()

    def test_an_empty_table_draws(self):
        svg = svg_of(ziggurat.load("chaos").new())
        assert "<svg" in svg and 'id="table"' in svg

    def test_a_wide_table_fits_the_picture(self):
        """A table spread over 60 inches is scaled down to the same picture width as a small one."""
        g = ziggurat.load("chaos")
        near = g.position("first 3 | rd3@0,0 bl3@6,0 | die1=0 die2=0")
        far = g.position("first 3 | rd3@0,0 bl3@60,0 | die1=0 die2=0")
        assert abs(render.table_size(far)[0] - render.table_size(near)[0]) < 0.5 * render.table_size(near)[0] + 6
        assert max(render.table_size(far)) <= render.TABLE_CELLS + 1e-9
