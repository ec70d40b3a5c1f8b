"""Pictures of positions: SVG and PNG for every shipped ruleset, Jupyter reprs, the render command.

Expected counts come from the state drawn (its stacks and zones), never from an earlier picture.
"""

import random
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat import render
from ziggurat.cli.main import cli
from ziggurat.dsl.loader import shipped_names

SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PRISONERS = "south 10 | a1=S2S1 b2=N1 e5=N3 | prisoners.south=N3N3N2 prisoners.north=S1"

COLOURED = """\
game "Coloured" "Layers of colour, sizes and owners, for the pictures."
players south, north
board:
    files: 4
    ranks: 3
piece:
    owner: players
    colour: red, green, blue
    size: small = 1, medium = 2, large = 3
control: top.owner
zone bank
setup:
    for c in cells where c.rank == 1 and c.file == 1:
        place([piece(south, large, red), piece(south, large, green), piece(south, large, blue)], c)
action move "{from}-{to}":
    from: cells where mine(from)
    to: ray(from, orthogonal, 1)
    require empty(to) else "no room"
    do:
        move(from, 1, to)
end:
    if no_moves:
        lose mover "no legal move"
"""


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def midgame(name, plies=12, seed=5):
    """A position some seeded random moves into a game of the ruleset."""
    state = ziggurat.load(name).new(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = state.moves()
        if not moves:
            break
        state.push(rng.choice(moves))
    return state


def ids(svg_text, prefix):
    """The ids of the SVG elements whose id starts with `prefix`, each with a drawn shape inside."""
    root = ET.fromstring(svg_text)
    out = []
    for el in root.iter():
        if el.get("id", "").startswith(prefix) and el.find(f"{SVG_NS}path") is not None:
            out.append(el.get("id"))
    return out


def png_size(data):
    """(width, height) from a PNG's IHDR chunk."""
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


class TestSvg:
    @pytest.mark.parametrize("name", shipped_names())
    def test_one_shape_per_piece_on_the_board(self, name):
        """Every piece of every stack is one shape with the id piece-<cell>-<level>."""
        state = midgame(name)
        if not any(state.cells) and not any(state.game.new().cells):
            pytest.skip(f"{name} has no piece on its board here (a dice or card game)")
        world = state.game.world
        expected = sorted(f"piece-{world.cell_name(c)}-{level}"
                          for c, stack in enumerate(state.cells) for level in range(1, len(stack) + 1))
        assert expected
        assert sorted(ids(render.svg(state), "piece-")) == expected

    def test_zone_pieces_are_drawn_beside_the_board(self):
        """Each piece in an off-board zone is one shape, named by its zone."""
        state = ziggurat.load("stacktics").position(PRISONERS)
        world = state.game.world
        expected = sorted(f"zone-{world.zone_names[z]}-{i}" for z, pieces in enumerate(state.zones)
                          for i in range(1, len(pieces) + 1))
        assert len(expected) == 4
        assert sorted(ids(render.svg(state), "zone-")) == expected

    def test_grid_labels_and_caption(self):
        """The picture names every file and rank, and says who moves at which ply."""
        state = midgame("stacktics", plies=3)
        root = ET.fromstring(render.svg(state))
        texts = {"".join(t.itertext()).strip() for t in root.iter(f"{SVG_NS}text")}
        world = state.game.world
        assert {world.cell_name(f)[0] for f in range(world.files)} <= texts
        assert {str(r) for r in range(1, world.ranks + 1)} <= texts
        assert f"{state.mover_name} to move, ply {state.ply}" in texts

    def test_finished_game_caption_names_the_result(self):
        """After the last move the caption says who won and why."""
        state = ziggurat.load("stacktics").position(PRISONERS)
        win = next(m for m in state.moves() if (state.push(m), state.outcome(), state.pop())[1] is not None)
        state.push(win)
        outcome = state.outcome()
        text = render.caption(state)
        assert f"{state.game.players[outcome.player]} wins" in text and outcome.reason in text
        assert text in render.svg(state)

    def test_same_position_same_svg(self):
        """Rendering is deterministic: no date or random ids in the SVG (a position read from its
        text has no last move, so the played one is drawn without its own)."""
        state = midgame("stacktics")
        assert render.svg(state, last=None) == render.svg(state.game.position(state.text()))
        assert render.svg(state) == render.svg(state)

    def test_layers_style_draws_the_same_pieces(self):
        """The layered-squares style also draws one shape per piece."""
        state = midgame("stacktics")
        assert sorted(ids(render.svg(state, "layers"), "piece-")) == sorted(ids(render.svg(state), "piece-"))


class TestLook:
    @pytest.fixture
    def coloured(self, tmp_path):
        path = tmp_path / "coloured.rules"
        path.write_text(COLOURED)
        return ziggurat.load(str(path))

    def test_colour_names_become_their_colours(self, coloured):
        """A colour attribute's value names (red, green, blue) give those colours."""
        look = render.scheme(coloured)
        state = coloured.new()
        bottom, middle, top = state.cells[0]
        assert (look.fill[bottom], look.fill[middle], look.fill[top]) == \
            (render.NAMED["red"], render.NAMED["green"], render.NAMED["blue"])

    def test_owner_shown_by_outline_when_colour_is_taken(self, coloured):
        """With both a colour and an owner, each piece's outline is its owner's colour."""
        look = render.scheme(coloured)
        state = coloured.new()
        south = look.players[coloured.players.index("south")]
        assert all(look.owner[p] == south for p in state.cells[0])
        assert south not in (render.NAMED["red"], render.NAMED["green"], render.NAMED["blue"])

    def test_size_orders_widths(self):
        """A numeric size attribute makes larger pieces wider."""
        state = ziggurat.load("stacktics").new()
        look = render.scheme(state.game)
        large, medium, small = state.cells[state.game.world.cell(1, 0)]
        assert look.width[large] > look.width[medium] > look.width[small]

    def test_other_attributes_mark_the_pieces(self):
        """A king carries its code K; a man (the attribute's first value) carries no mark."""
        state = ziggurat.load("checkers").position(
            "white 10 | c3=Wm a1=Wk f6=Bk h8=Bm | captured.white= captured.black= quiet=0")
        assert sorted(i for i in re.findall(r'id="(label-[^"]+)"', render.svg(state))) == ["label-a1-1", "label-f6-1"]
        look = render.scheme(state.game)
        assert {look.label[p] for stack in state.cells for p in stack} == {"", "K"}

    def test_owner_colours_pieces_without_a_colour_attribute(self):
        """Without a colour attribute, the owner chooses the fill: the two armies differ."""
        state = ziggurat.load("stacktics").new()
        look = render.scheme(state.game)
        fills = {look.fill[p] for stack in state.cells for p in stack}
        assert len(fills) == 2


class TestPng:
    @pytest.mark.parametrize("name", shipped_names())
    def test_png_signature_and_size(self, name, tmp_path):
        """render writes a PNG: the signature, and the size of the figure at its dpi (to a pixel)."""
        state = midgame(name)
        path = render.write(state, tmp_path / "p.png")
        data = path.read_bytes()
        assert data.startswith(PNG_SIGNATURE)
        fig = render.figure(state)
        width, height = fig.get_size_inches() * fig.dpi
        got = png_size(data)
        assert abs(got[0] - width) <= 1 and abs(got[1] - height) <= 1  # matplotlib truncates
        assert got[0] > 300 and got[1] > 300


class TestJupyter:
    def test_repr_svg(self):
        """State._repr_svg_ returns SVG text of the position."""
        state = midgame("stacktics")
        text = state._repr_svg_()
        assert ET.fromstring(text).tag == f"{SVG_NS}svg"
        assert len(ids(text, "piece-")) == sum(len(s) for s in state.cells)

    def test_repr_png(self):
        """State._repr_png_ returns PNG bytes."""
        assert ziggurat.load("stacktics").new()._repr_png_().startswith(PNG_SIGNATURE)

    def test_the_pictures_are_imported_when_a_notebook_first_draws(self):
        """Loading and playing a game imports neither the pictures nor matplotlib (no registry is
        filled by `import ziggurat`); the first `_repr_svg_` imports them itself."""
        code = ("import sys, ziggurat\n"
                "state = ziggurat.load('tic-tac-toe').new()\n"
                "state.push(state.moves()[0])\n"
                "before = {'ziggurat.render', 'matplotlib'} & set(sys.modules)\n"
                "text = state._repr_svg_()\n"
                "print(sorted(before), 'ziggurat.render' in sys.modules, 'matplotlib' in sys.modules, "
                "'id=\"last-' in text)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert out.stdout.split() == ["[]", "True", "True", "True"]


class TestRenderCommand:
    def test_writes_svg_of_a_position(self, tmp_path):
        """ziggurat render --position writes that position's pieces to FILE.svg."""
        out = tmp_path / "pos.svg"
        result = run("render", "stacktics", "--position", PRISONERS, "-o", out)
        assert result.exit_code == 0, result.output
        state = ziggurat.load("stacktics").position(PRISONERS)
        assert len(ids(out.read_text(), "piece-")) == sum(len(s) for s in state.cells)

    def test_writes_png_with_options(self, tmp_path):
        """--set reaches the game: a size-2 board is drawn with its own pieces."""
        out = tmp_path / "small.png"
        result = run("render", "stacktics", "--set", "size=2", "-o", out)
        assert result.exit_code == 0, result.output
        assert out.read_bytes().startswith(PNG_SIGNATURE)

    def test_unknown_format_is_an_error(self, tmp_path):
        """A file name that is neither .svg nor .png exits 1 and says what to do."""
        result = run("render", "stacktics", "-o", tmp_path / "x.jpg")
        assert result.exit_code == 1
        assert ".svg or .png" in result.output

    def test_bad_position_is_an_error(self, tmp_path):
        """A bad --position exits 1 with the reason, and no picture is written."""
        out = tmp_path / "x.svg"
        result = run("render", "stacktics", "--position", "south 0 | z9=S1 |", "-o", out)
        assert result.exit_code == 1
        assert "bad --position" in result.output
        assert not out.exists()
