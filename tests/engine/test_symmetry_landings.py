"""A move that lists several cells at once lists them in board order, which a map of the board
reverses: RGB with the option `each` starves every unsustained Child in one move ("starve b1,g1:
red,red"), and in the mirrored position the same move is written with its cells the other way
round, its layers going to the bank in the other order. The symmetry check compares such moves
by the positions they lead to (zones as pools), so RGB's declared symmetries hold at `each`."""

import random

import ziggurat
from ziggurat.proptest.examples import declarations
from ziggurat.proptest.symmetry import SymmetryMap


def test_a_move_of_several_cells_maps_to_the_same_move_written_the_other_way_round():
    game = ziggurat.load("rgb", {"each": True, "placement": False})
    maps = [SymmetryMap(game, d) for d in declarations(game)[1]]
    rng, st = random.Random(0), game.new()
    while not any("," in st.move_text(m).partition("starve")[2] for m in st.moves()):
        st.push(rng.choice(st.moves()))  # seed 0 reaches one at ply 4
    written = [{sym.move(m) for m in st.moves()} != set(sym.position(game.position(st.text())).moves())
               for sym in maps]
    assert any(written)  # left and right: "b1,g1" maps to "g1,b1", listed "b1,g1" in the map
    assert [sym.differs(st) for sym in maps] == [None] * len(maps)
