"""The open table (`surface:`): its checks, its notation and its geometry, on small rulesets.

Chaos itself is tested rule by rule in tests/games/test_chaos.py; here the constructs are tested as a
designer of another table game would meet them.
"""

from __future__ import annotations

import pytest

import ziggurat
from ziggurat.dsl import surface
from ziggurat.dsl.checks import check
from ziggurat.interpreter import geometry as G

# A small table game: each player in turn stands one of its pieces within 2 in of a piece on the
# table and at least 1.5 in from its own, or lays one against its own; the first to point at an
# enemy piece within 3 in wins.
TOWERS = """
game "Towers" "a test game on the open table"
option reach: 1..8 = 2
players south, north
piece:
    owner: players
    size: small = 1, large = 2
table foot(width, length):
    small: 0.5in, 1in
    large: 1in, 2in
surface:
    lattice: 0.5in
    width(x): foot[x.size].width
    length(x): foot[x.size].length
zone box per player
setup:
    for p in players:
        for i in 1..3:
            add(box[p], piece(p, large))
            add(box[p], piece(p, small))
action stand "{x}@{to}":
    x: box[mover] where x.size == large
    to: lattice(reach * 1in, list(s for s in placed where piece_at(s).owner == mover), 1.5in) where not overlaps(to, x)
    do:
        put(box[mover], x, to)
action lay "lay {x}@{to}":
    x: box[mover] where x.size == small
    to: list(t for s in placed where piece_at(s).owner == mover for t in flush(s, x)) where not overlaps(to, x)
    do:
        put(box[mover], x, to)
end:
    for s in placed:
        if not standing(s) and on_table(hit(s, 3in)) and piece_at(hit(s, 3in)).owner != piece_at(s).owner:
            win piece_at(s).owner "pointed at an enemy"
    if no_moves:
        draw "no moves"
"""


def errors(text: str) -> list:
    return [d for d in check("t.rules", text) if d.severity == "error"]


def one_error(text: str):
    found = errors(text)
    assert len(found) == 1, [d.message for d in found]
    return found[0]


class TestChecks:
    def test_the_test_game_is_clean(self):
        assert errors(TOWERS) == []

    def test_a_board_function_on_the_table_is_a_mistake_at_its_name(self):
        text = TOWERS.replace("1.5in) where not overlaps(to, x)", "1.5in) where height(to) == 0")
        d = one_error(text)
        assert "looks at a board's cells" in d.message and "open table" in d.message
        assert text.splitlines()[d.line - 1][d.col - 1:].startswith("height(")

    def test_cells_on_the_table_is_a_mistake(self):
        d = one_error(TOWERS.replace("for s in placed:", "for s in cells:"))
        assert "has no cells" in d.message and d.col > 1

    def test_a_table_function_on_a_board_is_a_mistake_at_its_name(self):
        grid = TOWERS.replace("surface:\n    lattice: 0.5in\n    width(x): foot[x.size].width\n"
                              "    length(x): foot[x.size].length\n", "board:\n    files: 3\n    ranks: 3\n")
        found = errors(grid)
        assert found and all("open table" in d.message or "'placed'" in d.message for d in found)
        assert any("lattice() looks at an open table" in d.message for d in found)

    def test_a_distance_on_the_table_can_only_be_compared(self):
        text = TOWERS.replace("    do:\n        put(box[mover], x, to)\naction lay",
                              "    let d = distance(to, to)\n    do:\n        put(box[mover], x, to)\naction lay")
        d = one_error(text)
        assert "can only be compared" in d.message and "distance(a, b) <= 6in" in d.hint

    def test_nearest_is_typed(self):
        text = TOWERS.replace("1.5in) where not overlaps(to, x)\n",
                              "1.5in) where not overlaps(to, x)\n"
                              "    require count(placed) == 0 or distance(to, nearest(to, placed)) <= 2in\n")
        assert errors(text) == []
        bad = TOWERS.replace("1.5in) where not overlaps(to, x)\n",
                             "1.5in) where not overlaps(to, x)\n    require nearest(to, box[mover]) == to\n")
        d = one_error(bad)
        assert "argument 2 of nearest()" in d.message

    def test_a_distance_compared_with_a_length_is_checked(self):
        text = TOWERS.replace("1.5in) where not overlaps(to, x)\n",
                              "1.5in) where not overlaps(to, x)\n    require all(distance(to, s) >= 1in for s in placed)\n")
        assert "distance(to, s)" in text
        assert errors(text) == []

    def test_a_board_and_a_table_together_are_refused(self):
        d = one_error(TOWERS.replace("surface:", "board:\n    files: 3\n    ranks: 3\nsurface:"))
        assert "not both" in d.message

    def test_a_length_finer_than_the_unit_is_refused_with_a_caret(self):
        d = one_error(TOWERS.replace("small: 0.5in, 1in", "small: 0.00001in, 1in"))
        assert "not a whole number" in d.message or "length" in d.message
        assert d.line == 9

    def test_an_odd_width_is_refused(self):
        d = one_error(TOWERS.replace("small: 0.5in, 1in", "small: 0.5005in, 1in"))
        assert "odd number" in d.message

    def test_a_missing_measure_is_named(self):
        d = one_error(TOWERS.replace("    length(x): foot[x.size].length\n", ""))
        assert "the length of each piece" in d.message

    @pytest.mark.parametrize("old, new", [
        ("width(x): foot[x.size].width", "width(x): feet[x.size].width"),
        ("length(x): foot[x.size].length", "length(x): foot[x.size].lenght"),
        ("lattice: 0.5in", "lattice: half"),
        ("lattice: 0.5in", "lattice(x): 0.5in"),
        ("width(x): foot[x.size].width", "width: 1in"),
        ("width(x): foot[x.size].width", "width(x): foot[x.size].width == 1"),
    ])
    def test_a_wrong_name_in_the_surface_is_a_diagnostic_at_its_line(self, old, new):
        """Every mistake inside a surface setting is reported at its line and column (it once
        crashed `check` with KeyError: 'width' or 'lattice', and the editor showed nothing)."""
        text = TOWERS.replace(old, new)
        d = one_error(text)
        line = text.splitlines()[d.line - 1]
        assert new in line and d.col >= 5

    def test_the_language_server_publishes_a_surface_mistake(self):
        pytest.importorskip("pygls")
        from ziggurat.editor.server import diagnostics

        text = TOWERS.replace("width(x): foot[x.size].width", "width(x): feet[x.size].width")
        found = diagnostics("t.rules", text)
        assert len(found) == 1 and "feet" in found[0].message
        assert text.splitlines()[found[0].range.start.line].strip().startswith("width(x): feet")

    def test_a_length_on_a_board_is_a_mistake(self):
        """A distance in inches means nothing on a grid, where distances are counted in cells."""
        grid = "players a, b\nboard:\n    files: 2\n    ranks: 2\npiece:\n    owner: players\n" \
               "action m:\n    c: cells where distance(c, c) <= 2in\n    do:\n        place(piece(mover), c)\n"
        d = one_error(grid)
        line = grid.splitlines()[7]
        assert "measures an open table" in d.message and (d.line, d.col) == (8, line.index("2in") + 1)

    def test_placed_needs_a_table(self):
        grid = "players a, b\nboard:\n    files: 2\n    ranks: 2\npiece:\n    owner: players\n" \
               "action m:\n    c: cells where count(placed) == 0\n    do:\n        place(piece(mover), c)\n"
        d = one_error(grid)
        assert "'placed'" in d.message and "no 'surface:'" in d.message


class TestPlay:
    def test_the_table_game_plays_and_undoes(self):
        g = ziggurat.load("towers.rules", text=TOWERS)
        st = g.new()
        assert {st.move_text(m) for m in st.moves()} == {"S2@0,0"}
        st.play("S2@0,0")
        before = st.text()
        first = sorted(st.move_text(m) for m in st.moves())
        assert "N2@2,0" in first and "N2@2,0.5" not in first  # 2 in, and 2.06 in away
        st.play("N2@2,0")
        st.pop()
        assert st.text() == before

    def test_a_refused_spot_is_explained_by_the_table(self):
        """A spot choice with no `else` text: the table says why a spot is not one of the domain's."""
        g = ziggurat.load("towers.rules", text=TOWERS)
        st = g.new()
        with pytest.raises(ziggurat.GameError, match="the first piece goes to the origin, 0,0"):
            st.play("S2@1,0")
        st.play("S2@0,0")
        for move, says in [("N2@2,0.5", "too far from every piece: the nearest, at 0,0, is 2.06 in away (at most 2 in)"),
                           ("N2@1,0.25", "off the lattice: a standing piece's centre is on the 0.5 in lattice"),
                           ("N2@0.5,0", "to: it must hold that not overlaps(to, x)")]:
            with pytest.raises(ziggurat.GameError) as e:
                st.play(move)
            assert says in str(e.value)
        st.play("N2@2,0")
        with pytest.raises(ziggurat.GameError, match="too near the piece at 0,0: 1 in away, and it must be at least 1.5 in"):
            st.play("S2@0,1")
        with pytest.raises(ziggurat.GameError, match="not lying flush against a side of a piece it may lie against"):
            st.play("lay S1@0,2>n")


class TestGeometry:
    W = (1200, 2000)  # two kinds: width and length per code, in units
    L = (2000, 3500)

    def table(self, *pieces):
        return tuple(G.entry(surface.parse_spot(s), code) for code, s in pieces)

    def test_a_centre_and_a_spot_round_trip_through_text(self):
        for text in ("0,0", "-2.5,6", "1.375,-0.4>e", "0.0005,-0.0005>w"):
            assert surface.spot_text(surface.parse_spot(text)) == text

    def test_lengths_are_exact(self):
        assert surface.length_units("1.375in") == 2750 and surface.length_units("6in") == 12000
        with pytest.raises(ValueError):
            surface.length_units("0.00001in")

    def test_lattice_points_within_reach_and_apart_from_the_avoided(self):
        """Integer points of the disc of radius 2 around the origin: 13; avoiding the origin's
        neighbourhood closer than 2 leaves the 4 points exactly 2 away."""
        t = self.table((1, "0,0"))
        near = G._lattice(t, self.W, self.L, 2000, 4000)
        assert len(near) == 13
        apart = G._lattice(t, self.W, self.L, 2000, 4000, (surface.parse_spot("0,0"),), 4000)
        assert sorted(surface.spot_text(s) for s in apart) == ["-2,0", "0,-2", "0,2", "2,0"]

    def test_flush_spots_do_not_overhang(self):
        t = self.table((0, "0,0"))  # a small standing piece: sides 0.6 in
        assert G._flush(t, self.W, self.L, surface.parse_spot("0,0"), 1) == ()  # a large is 1 in wide
        assert len(G._flush(t, self.W, self.L, surface.parse_spot("0,0"), 0)) == 4

    def test_the_first_piece_met_is_the_target(self):
        t = self.table((1, "0,0"), (1, "1.375,0>e"), (1, "5,0"), (1, "8,0"))
        assert surface.spot_text(G._hit(t, self.W, self.L, surface.parse_spot("1.375,0>e"), 12000)) == "5,0"

    def test_a_line_along_an_edge_meets_nothing(self):
        t = self.table((1, "1.375,0>e"), (1, "5,0.5"))
        assert G._hit(t, self.W, self.L, surface.parse_spot("1.375,0>e"), 12000) == surface.NONE

    def test_the_nearest_spot_of_a_list(self):
        a, b, c = (surface.parse_spot(t) for t in ("0,0", "3,4", "-1,-1"))
        assert G._nearest(a, (b, c)) == c and G._nearest(b, (a, c)) == a
        assert G._nearest(a, ()) == surface.NONE

    def test_the_table_has_an_edge_the_engine_names(self):
        """Spots are packed in 26 bits a coordinate: a question reaching past 16,777 inches is an
        error, not a spot that wraps round to somewhere else."""
        t = self.table((1, "16000,0"))
        with pytest.raises(G.TableEdge, match="16,777 inches"):
            G._lattice(t, self.W, self.L, 2000, 2000 * 1000)

    def test_touching_is_not_overlapping(self):
        t = self.table((1, "0,0"))
        assert not G._overlaps(t, self.W, self.L, surface.parse_spot("1,0"), 1)
        assert G._overlaps(t, self.W, self.L, surface.parse_spot("0.9995,0"), 1)
