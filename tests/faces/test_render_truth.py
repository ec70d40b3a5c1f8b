"""Pictures that tell the truth: colours as the rules name them, zone titles in the rules' words,
the last move marked, a record's position after N plies, and marks that never overlap.

Colours are read back from the SVG and named by their hue and lightness (a small classifier of
its own below), never compared with the renderer's own table, so a piece drawn in the wrong colour
fails whatever tones the renderer picks.
"""

import colorsys
import random
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.dsl.surface import spot_text
from ziggurat.interpreter.geometry import CODE_BITS, CODE_MASK
from ziggurat import render
from ziggurat.cli.main import cli
from ziggurat.dsl.loader import shipped_names
from ziggurat.records import record_of, save_record

SVG_NS = "{http://www.w3.org/2000/svg}"
PRISONERS = "south 10 | a1=S2S1 b2=N1 e5=N3 | prisoners.south=N3N3N2 prisoners.north=S1"
# The colour names the classifier knows (a value named after another colour is not checked).
KNOWN = ("black", "white", "grey", "red", "orange", "yellow", "green", "cyan", "blue", "purple", "pink")

MARKED = """\
game "Marked" "Stacks whose pieces have pips and a mark, for the overlap test."
players south, north
board:
    files: 3
    ranks: 2
piece:
    owner: players
    size: small = 1, medium = 2, large = 3
    kind: plain, crowned
control: top.owner
setup:
    for c in cells where c.rank == 1 and c.file == 1:
        place([piece(south, large, crowned), piece(north, medium, crowned), piece(south, small, crowned)], c)
    for c in cells where c.rank == 1 and c.file == 2:
        place([piece(south, large, plain), piece(north, large, crowned)], c)
    for c in cells where c.rank == 1 and c.file == 3:
        place([piece(north, large, crowned), piece(south, large, crowned), piece(north, medium, crowned),
               piece(south, medium, crowned), piece(north, small, crowned), piece(south, small, crowned)], c)
    for c in cells where c.rank == 2 and c.file == 1:
        place([piece(north, small, crowned)], c)
action pass "pass":
    require false else "no moves here"
end:
    if no_moves:
        lose mover "no legal move"
"""


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def played(name, plies, seed=5):
    """A state some seeded random moves into a game of the ruleset (its moves on its stack)."""
    state = ziggurat.load(name).new(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = state.moves()
        if not moves:
            break
        state.push(rng.choice(moves))
    return state


def colour_name(tone: str) -> str:
    """The plain name of a '#rrggbb' tone, by its hue, saturation and value."""
    r, g, b = (int(tone[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    if v < 0.25:
        return "black"
    if s < 0.15:
        return "white" if v > 0.85 else "grey"
    for limit, name in ((0.04, "red"), (0.11, "orange"), (0.19, "yellow"), (0.45, "green"), (0.54, "cyan"),
                        (0.7, "blue"), (0.87, "purple"), (0.95, "pink"), (1.01, "red")):
        if h < limit:
            return name
    return "red"


def shapes(svg_text, prefix):
    """id -> (fill, stroke) of every drawn shape whose group id starts with `prefix`."""
    out = {}
    for el in ET.fromstring(svg_text).iter():
        if el.get("id", "").startswith(prefix):
            path = el.find(f"{SVG_NS}path")
            if path is None:
                continue
            style = dict(part.split(":", 1) for part in path.get("style", "").split(";") if ":" in part)
            style = {k.strip(): v.strip() for k, v in style.items()}
            out[el.get("id")] = (style.get("fill"), style.get("stroke"))
    return out


def texts(svg_text, prefix=""):
    """id -> text of the SVG text elements whose group id starts with `prefix`."""
    out = {}
    for el in ET.fromstring(svg_text).iter():
        ident = el.get("id", "")
        if ident.startswith(prefix) and el.find(f"{SVG_NS}text") is not None:
            out[ident] = "".join(el.find(f"{SVG_NS}text").itertext()).strip()
    return out


def named_colours(game, code):
    """The colours a piece's attribute values name (`red`, or `red1`'s first word)."""
    tables, out = game.world.attr_tables, set()
    for attr in game.attributes:
        name = attr.value_name(tables[attr.name][code]) or ""
        word = re.match(r"[a-z]+", name)
        for candidate in (name, word.group() if word else ""):
            if candidate in KNOWN:
                out.add(candidate)
    return out


class TestColours:
    def test_rgb_layers_are_red_green_blue(self):
        """RGB's layers (a colour attribute with numbers, red = 1) are drawn red, green and blue,
        bottom to top, whoever owns them; the Golden Child is yellow."""
        state = ziggurat.load("rgb").new()
        svg = render.svg(state)
        fills = {k: colour_name(f) for k, (f, _) in shapes(svg, "piece-").items()}
        world = state.game.world
        colour = next(a for a in state.game.attributes if a.name == "colour")
        seen = set()
        for c, stack in enumerate(state.cells):
            for level, code in enumerate(stack, 1):
                named = colour.value_name(world.attr_tables["colour"][code])
                assert fills[f"piece-{world.cell_name(c)}-{level}"] == named
                seen.add(named)
        assert seen == {"red", "green", "blue", "yellow"}
        home = [stack for stack in state.cells if len(stack) == 3]
        assert home and all([fills_of(svg, state, stack) for stack in home])

    def test_owners_are_told_apart_by_outline(self):
        """With the fill taken by the colour, the two armies' outlines differ, and neither is a
        layer's colour."""
        state = ziggurat.load("rgb").new()
        drawn = shapes(render.svg(state), "piece-")
        world = state.game.world
        strokes = {}
        for c, stack in enumerate(state.cells):
            for level, code in enumerate(stack, 1):
                owner = state.game.owner_attribute.value_name(world.attr_tables["owner"][code])
                strokes.setdefault(owner, set()).add(drawn[f"piece-{world.cell_name(c)}-{level}"][1])
        assert set(strokes) == {"south", "north"}
        assert all(len(s) == 1 for s in strokes.values())
        south, north = strokes["south"].pop(), strokes["north"].pop()
        assert south != north
        assert not {colour_name(south), colour_name(north)} & {"red", "green", "blue", "yellow"}

    @pytest.mark.parametrize("name", shipped_names())
    def test_no_piece_drawn_in_a_colour_its_names_contradict(self, name):
        """Every shipped ruleset renders its start and a later position; a piece (on the board or
        in a zone) one of whose values names a colour is filled with a colour it names."""
        for state in (ziggurat.load(name).new(3), played(name, 25, seed=3)):
            svg = render.svg(state)
            game, world = state.game, state.game.world
            drawn = shapes(svg, "piece-") | shapes(svg, "zone-")
            where = {f"piece-{world.cell_name(c)}-{level}": code
                     for c, stack in enumerate(state.cells) for level, code in enumerate(stack, 1)}
            where |= {"piece-" + spot_text(e >> CODE_BITS).replace(">", "-"): e & CODE_MASK  # the open table
                      for e in state.table[0]}
            for slot, pieces in enumerate(state.zones):
                where |= {f"zone-{world.zone_names[slot]}-{i}": code for i, code in enumerate(pieces, 1)}
                kinds = list(dict.fromkeys(pieces))  # a zone drawn by kind: in order of first appearance
                where |= {f"zone-{world.zone_names[slot]}-kind{k}": code for k, code in enumerate(kinds, 1)}
            checked = 0
            for ident, (fill, _) in drawn.items():
                code = where[ident]
                names = named_colours(game, code)
                if names:
                    assert colour_name(fill) in names, (ident, world.piece_text(code), fill, names)
                    checked += 1
            if any(named_colours(game, code) for code in where.values()):
                assert checked


def fills_of(svg, state, stack):
    """True when a stack's layers are red, green, blue from the bottom up (RGB's full creature)."""
    c = state.cells.index(stack)
    name = state.game.world.cell_name(c)
    drawn = shapes(svg, f"piece-{name}-")
    return [colour_name(drawn[f"piece-{name}-{i}"][0]) for i in (1, 2, 3)] == ["red", "green", "blue"]


def test_a_die_shows_its_face():
    """Liar's Dice's faces (1 to 9: too many for pips) are written on the dice in the cups."""
    state = played("liars-dice", 3, seed=1)
    world, face = state.game.world, state.game.attributes[0]
    dice = {f"label-zone-{world.zone_names[z]}-{i}": face.codes[face.numbers.index(world.attr_tables[face.name][p])]
            for z, pieces in enumerate(state.zones) for i, p in enumerate(pieces, 1)}
    assert dice
    got = texts(render.svg(state), "label-zone-")
    assert got == dice


class TestWords:
    def test_zone_titles_say_whose_and_how_many(self):
        """A `per player` zone is titled '<zone> of <player>' with what it holds; no raw slot name."""
        state = ziggurat.load("stacktics").position(PRISONERS)
        got = texts(render.svg(state), "title-")
        assert got == {"title-prisoners.south": "prisoners of south: 3",
                       "title-prisoners.north": "prisoners of north: 1"}

    def test_empty_zone_is_said_plainly(self):
        """An empty zone says 'none' (not '(empty)' after an identifier)."""
        got = texts(render.svg(ziggurat.load("stacktics").new()), "title-")
        assert set(got.values()) == {"prisoners of south: none", "prisoners of north: none"}

    def test_participle_zone_names_the_taker(self):
        """`captured per player` holds what each player took: 'captured by white' (it holds
        black pieces), checked against the pieces it holds."""
        state = played("checkers", 60, seed=2)
        world, owner = state.game.world, state.game.owner_attribute
        slot = next(i for i, z in enumerate(state.zones) if z and world.zone_names[i].startswith("captured."))
        taker = world.zone_names[slot].partition(".")[2]
        held = {owner.value_name(world.attr_tables[owner.name][p]) for p in state.zones[slot]}
        assert taker not in held
        got = texts(render.svg(state), "title-")[f"title-{world.zone_names[slot]}"]
        assert got == f"captured by {taker}: {len(state.zones[slot])}"

    def test_hidden_zones_and_counters_in_words(self):
        """A card game's picture (a table of what it has): each player's zones and counters under
        their name, in words; a zone hidden from the viewer says how many pieces it holds."""
        state = ziggurat.load("kuhn-poker").new(1)
        for _ in range(2):
            state.push(state.moves()[0])  # the deal
        svg = render.svg(state, viewer=0)
        assert texts(svg, "seat-") == {"seat-first": "first (you)", "seat-second": "second",
                                       "seat-shared": "on the table"}
        titles = texts(svg, "title-")
        assert titles["title-hand.first"] == "hand" and titles["title-deck"] == "deck"
        assert "zone-hand.second-1" not in svg and svg.count(">1 hidden<") == 2  # the other hand, the deck
        counters = texts(svg, "counter-")
        assert counters["counter-chips.first"] == f"chips: {state.counters[0]}"
        assert not any("." in t.split(": ")[0] for t in counters.values())


class TestLastMove:
    def test_cells_of_the_last_move_are_outlined(self):
        """After a move, exactly the cells it names are outlined, and the move is written."""
        state = ziggurat.load("amazons").new()
        move = state.moves()[7]
        text = state.move_text(move)
        state.push(move)
        svg = render.svg(state)
        named = set(re.findall(r"[a-z]\d+", text))
        assert len(named) == 3
        assert set(re.findall(r'id="last-([a-z]\d+)"', svg)) == named
        assert texts(svg, "last-move") == {"last-move": f"last move: {text}"}

    def test_a_jump_marks_every_landing(self):
        """A move whose cells are a list (a checkers jump, repeated) marks each cell of it."""
        state = played("checkers", 200, seed=11)
        while state.stack and state.game.actions[state.stack[-1][0]].name != "jump":
            state.pop()
        assert state.stack, "a jump in this seeded game"
        move = state.pop()
        text = state.move_text(move)
        state.push(move)
        named = set(re.findall(r"[a-z]\d+", text))
        assert set(re.findall(r'id="last-([a-z]\d+)"', render.svg(state))) == named

    def test_no_mark_without_a_move(self):
        """The start, and a position read from text, have no last move to mark."""
        for state in (ziggurat.load("stacktics").new(), ziggurat.load("stacktics").position(PRISONERS)):
            svg = render.svg(state)
            assert "last-" not in svg
        state = played("stacktics", 4)
        assert "last-" not in render.svg(state, last=None)


    def test_a_bad_last_move_is_named(self):
        """render.svg(state, last=...) with something that is not a move of the game is a GameError."""
        state = ziggurat.load("stacktics").new()
        for bad in [(99, 1), "b1:3-a2", ()]:
            with pytest.raises(ziggurat.GameError, match="is not a move of Stacktics"):
                render.svg(state, last=bad)


class TestRecordPly:
    @pytest.fixture
    def record(self, tmp_path):
        state = played("stacktics", 14, seed=8)
        path = tmp_path / "game.zrec"
        save_record(path, record_of(state, "stacktics", date=None))
        moves = list(state.stack)
        while state.stack:
            state.pop()
        written = []
        for m in moves:  # each move's text is read at the position before it
            written.append(state.move_text(m))
            state.push(m)
        return path, written

    def test_ply_n_draws_the_position_after_n_moves(self, record, tmp_path):
        """--record FILE --ply N draws the position after N moves, its last move marked."""
        path, texts_ = record
        replay = ziggurat.load("stacktics").new()
        for text in texts_[:5]:
            replay.play(text)
        out = tmp_path / "p5.svg"
        result = run("render", "--record", path, "--ply", 5, "-o", out)
        assert result.exit_code == 0, result.output
        svg = out.read_text()
        world = replay.game.world
        expected = {f"piece-{world.cell_name(c)}-{level}" for c, s in enumerate(replay.cells)
                    for level in range(1, len(s) + 1)}
        assert set(shapes(svg, "piece-")) == expected
        assert f"{replay.mover_name} to move, ply 5" in svg
        assert set(re.findall(r'id="last-([a-z]\d+)"', svg)) == set(re.findall(r"[a-z]\d+", texts_[4]))

    def test_ply_zero_and_the_end(self, record, tmp_path):
        """--ply 0 is the start (nothing marked); without --ply, the record's last position."""
        path, texts_ = record
        run("render", "--record", path, "--ply", 0, "-o", tmp_path / "p0.svg")
        assert "last-" not in (tmp_path / "p0.svg").read_text()
        result = run("render", "--record", path, "-o", tmp_path / "end.svg")
        assert result.exit_code == 0, result.output
        assert f"ply {len(texts_)}" in result.output

    def test_bad_uses_are_named(self, record, tmp_path):
        """A ply past the end, --ply alone, or --record with a ruleset exit non-zero with a reason."""
        path, texts_ = record
        out = tmp_path / "x.svg"
        past = run("render", "--record", path, "--ply", len(texts_) + 1, "-o", out)
        assert past.exit_code == 1 and f"has {len(texts_)} moves" in past.output
        alone = run("render", "stacktics", "--ply", 2, "-o", out)
        assert alone.exit_code == 2 and "--ply needs --record" in alone.output
        both = run("render", "stacktics", "--record", path, "-o", out)
        assert both.exit_code == 2 and "leave out RULESET" in both.output
        neither = run("render", "-o", out)
        assert neither.exit_code == 2 and "RULESET" in neither.output
        assert not out.exists()


def mark_boxes(state, style="pyramids"):
    """Per piece (cell-level or zone piece): the window boxes of its text marks and its pips, and
    the box of each piece shape, from matplotlib's own layout of the figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = render.figure(state, style)
    renderer = FigureCanvasAgg(fig).get_renderer()
    ax = fig.axes[0]
    marks, pieces = [], {}
    for t in ax.texts:
        gid = t.get_gid() or ""
        if gid.startswith(("label-", "height-")):
            marks.append((gid, t.get_window_extent(renderer)))
    for p in ax.patches:
        gid = p.get_gid() or ""
        if gid.startswith("pip-"):
            marks.append((gid, p.get_window_extent(renderer)))
        elif gid.startswith(("piece-", "zone-")):
            pieces[gid] = p.get_window_extent(renderer)
    return marks, pieces


def owner_of(gid):
    """The piece a mark belongs to: 'a1-2' of label-a1-2, pip-a1-2-3 and piece-a1-2."""
    kind, _, rest = gid.partition("-")
    return rest.rsplit("-", 1)[0] if kind == "pip" else rest


def overlaps(a, b):
    return a.x0 < b.x1 - 0.5 and b.x0 < a.x1 - 0.5 and a.y0 < b.y1 - 0.5 and b.y0 < a.y1 - 0.5


class TestMarks:
    @pytest.fixture
    def marked(self, tmp_path):
        path = tmp_path / "marked.rules"
        path.write_text(MARKED)
        return ziggurat.load(str(path))

    def positions(self, marked):
        yield marked.new()
        yield played("lasca", 60, seed=4)
        yield played("rgb", 40, seed=6)
        yield played("leduc-poker", 3, seed=1)
        yield ziggurat.load("checkers").position(
            "white 10 | c3=Wm a1=Wk f6=Bk h8=Bm | captured.white= captured.black= quiet=0")

    def test_marks_in_a_cell_do_not_overlap(self, marked):
        """No two marks (layer letters, a king's K, the height count, pips of different pieces)
        share a place, and no mark covers a pip, whatever the stack, in both styles."""
        for state, style in [(s, "pyramids") for s in self.positions(marked)] + [(marked.new(), "layers")]:
            marks, _ = mark_boxes(state, style)
            labels = [m for m in marks if not m[0].startswith("pip-")]
            assert labels or state.game.name != "marked"
            for i, (ga, a) in enumerate(marks):
                for gb, b in marks[i + 1:]:
                    if ga.startswith("pip-") and gb.startswith("pip-") and owner_of(ga) == owner_of(gb):
                        continue  # one piece's own pips: the next test
                    assert not overlaps(a, b), (state.game.name, ga, gb)

    def test_pips_of_a_piece_stand_apart(self, marked):
        """The pips of one piece do not run into each other."""
        marks, _ = mark_boxes(marked.new())
        pips = [m for m in marks if m[0].startswith("pip-")]
        assert pips
        for i, (ga, a) in enumerate(pips):
            for gb, b in pips[i + 1:]:
                if owner_of(ga) == owner_of(gb):
                    assert not overlaps(a, b), (ga, gb)

    def test_a_lower_piece_mark_shows_below_the_piece_on_it(self, marked):
        """A covered piece's mark lies in its visible band: below the base of the piece above."""
        marks, pieces = mark_boxes(marked.new())
        checked = 0
        for gid, box in marks:
            if not gid.startswith("label-"):
                continue
            cell, level = owner_of(gid).rsplit("-", 1)
            above = pieces.get(f"piece-{cell}-{int(level) + 1}")
            if above is not None:
                assert box.y1 <= above.y0 + 1.0, gid  # window y grows upwards; a pixel of rounding
                checked += 1
        assert checked >= 5
