"""Games without a board (issue 28, item 9): drawn as a table of what they have, and counters
the rules keep for themselves marked `bookkeeping` and not shown to players.

The expectations are read from the small rulesets below (a card game whose board is only places,
and the same game on a grid), not from today's output: a card's facts are its table's columns the
rules read in play, a hidden zone is its count, a bookkeeping counter is nowhere on screen but in
the position's text.
"""

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

import ziggurat
from ziggurat import layout, render
from ziggurat.cli.board import draw
from ziggurat.dsl.checks import check
from ziggurat.dsl.parser import parse
from ziggurat.records import load_record, record_of, replay, save_record

CARDS = '''game "Cards" "A test card game without a board: goals played to places, dice in pools."
players north, south
board:
    files: 3
    ranks: 1
piece:
    kind: (red as "rd", blue as "bd", point as "pt", ace as "Ac", deuce as "De", joker as "Jo")
table cards(target, value, copies):
    ace: 9, 5, 2
    deuce: 18, 10, 1
    joker: 0, 0, 1
    red: 0, 0, 0
    blue: 0, 0, 0
    point: 0, 0, 0
zone deck hidden
zone hand per player hidden
zone pool per player
zone bank
counter phase = 0 bookkeeping
counter score per player = 0
setup:
    add(hand[north], [piece(ace), piece(joker)])
    add(hand[south], [piece(deuce)])
    add(deck, [piece(ace), piece(ace), piece(deuce)])
    add(pool[north], [piece(red), piece(red), piece(blue)])
    add(bank, [piece(point), piece(point), piece(point)])
action play "play {card}":
    card: hand[mover] where cards[card.kind].target > 0 else "play a goal card"
    do:
        let c = list(x for x in cells where empty(x))[1]
        put(hand[mover], card, c)
        put(bank, piece(point), c)
        score[mover] += cards[card.kind].value
        phase += 1
action pass "pass":
    do:
        phase += 1
end:
    if phase >= 4:
        draw "enough"
'''
# The same game on a grid: one rule reads the board's geometry (its files).
GRID = CARDS.replace('action pass "pass":\n', 'action pass "pass":\n    when files == 3\n')
FACTS = {"Ac": "ace: target 9, value 5", "De": "deuce: target 18, value 10"}  # `copies` is read by no rule


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    path = tmp_path_factory.mktemp("boardless") / "cards.rules"
    path.write_text(CARDS)
    return ziggurat.load(str(path))


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    path = tmp_path_factory.mktemp("grid") / "grid.rules"
    path.write_text(GRID)
    return ziggurat.load(str(path))


def shown(state, viewer=None, width=100) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))
    console.print(draw(state, viewer))
    return console.export_text()


def ids(svg_text) -> dict:
    """id -> text (or '' for a shape) of every element of the picture with an id."""
    out = {}
    for el in ET.fromstring(svg_text).iter():
        ident = el.get("id")
        if ident:
            out[ident] = "".join(el.itertext()).strip()
    return out


# ---- the marker -----------------------------------------------------------------------------


class TestMarker:
    def test_parsed_and_carried_to_the_game(self, cards):
        counter = next(d for d in parse(CARDS).decls if getattr(d, "name", None) == "phase"
                       and hasattr(d, "bookkeeping"))
        assert counter.bookkeeping
        names = cards.world.counter_names
        assert [names[i] for i in cards.shown_counters] == ["score.north", "score.south"]

    def test_on_a_zone_an_error_at_its_place_with_a_hint(self):
        text = CARDS.replace("zone bank\n", "zone bank bookkeeping\n")
        errs = [d for d in check("bad.rules", text=text) if d.severity == "error"]
        assert len(errs) == 1
        line = text[:text.index("zone bank bookkeeping")].count("\n") + 1
        assert (errs[0].line, errs[0].col) == (line, len("zone bank ") + 1)
        assert "only a counter is marked 'bookkeeping'" in errs[0].hint
        assert "bad.rules:%d:11" % line in errs[0].render() and "^" in errs[0].render()

    def test_rank_by_a_bookkeeping_counter_is_refused(self):
        text = (CARDS.replace("counter score per player = 0", "counter score per player = 0 bookkeeping")
                .replace('        draw "enough"', '        rank by score "enough"'))
        errs = [d for d in check("bad.rules", text=text) if d.severity == "error"]
        assert len(errs) == 1 and "marked bookkeeping" in errs[0].message
        assert errs[0].line == text[:text.index("rank by score")].count("\n") + 1
        assert "line 20" in errs[0].hint  # where the counter is declared

    def test_kept_in_positions_and_records(self, cards, tmp_path):
        state = cards.new()
        state.push(next(m for m in state.moves() if state.move_text(m) == "play Ac"))
        assert "phase=1" in state.text() and cards.position(state.text()).counters == state.counters
        path = save_record(tmp_path / "game.record", record_of(state, cards.spec.sources[-1]))
        assert "final:" in path.read_text() and "phase=1" in path.read_text()
        assert replay(load_record(path)).text() == state.text()

    def test_not_shown_in_the_terminal_the_picture_or_serve(self, cards, grid):
        for game in (cards, grid):
            state = game.new()
            assert "phase" not in shown(state) and "score" in shown(state)
            svg = render.svg(state)
            assert not any("phase" in i for i in ids(svg)) and any("score" in i for i in ids(svg))
        table = layout.to_json(cards.new(), render.scheme(cards), 0)
        slots = [x["slot"] for seat in table["seats"] for x in seat["items"]] + [x["slot"] for x in table["shared"]]
        assert "phase" not in slots and "score.north" in slots

    def test_shipped_rulesets_mark_their_bookkeeping(self):
        ryb = ziggurat.load("ryb")
        hidden = {ryb.world.counter_names[i] for i in range(len(ryb.world.counter_names))} - {
            ryb.world.counter_names[i] for i in ryb.shown_counters}
        assert {"step", "active", "got_red", "asker"} <= hidden
        assert "step=" in ryb.new(1).text()  # still in the position


# ---- a game without a board -----------------------------------------------------------------


class TestWhatIsABoard:
    def test_places_when_no_rule_reads_the_geometry(self, cards, grid):
        assert cards.board_is_places and not grid.board_is_places
        for name in ("ryb", "kuhn-poker", "pig", "liars-dice"):
            assert ziggurat.load(name).board_is_places, name
        for name in ("stacktics", "tic-tac-toe", "othello", "chaos"):
            assert not ziggurat.load(name).board_is_places, name


class TestTerminal:
    def test_a_table_of_what_it_has_for_its_viewer(self, cards):
        state = cards.new()
        text = shown(state, viewer=0)
        assert not re.search(r"^\s+a\s+b\s+c\s*$", text, re.M)  # no grid's file letters
        lines = [line.strip() for line in text.splitlines()]
        assert "north (you)" in lines and "south" in lines
        for code, facts in FACTS.items():
            if code == "Ac":
                assert any(line.endswith(f"{code} {facts}") for line in lines), text  # the hand, readable
        assert "De deuce" not in text  # the other hand: hidden
        assert [line for line in lines if line.startswith("hand")] == ["hand        Ac ace: target 9, value 5",
                                                                     "hand        1 hidden"]
        deck = [line for line in lines if line.startswith("deck")]
        assert deck == ["deck        3 hidden"] and "none" not in text

    def test_a_goal_on_its_place_with_its_points(self, cards):
        state = cards.new()
        state.push(next(m for m in state.moves() if state.move_text(m) == "play Ac"))
        lines = [line.strip() for line in shown(state, viewer=0).splitlines()]
        assert f"a1          Ac {FACTS['Ac']}  pt" in lines

    def test_ryb_shows_no_board_no_bookkeeping_and_one_deck_line(self):
        state = ziggurat.load("ryb").new(1)
        rng = random.Random(2)
        while not state.zones[state.game.world.zone_names.index("hand.al")]:
            state.push(rng.choice(state.moves()))
        text = shown(state, viewer=0, width=120)
        assert not re.search(r"\bstep\b|\bgot_red\b|\baim\b|\basker\b", text)
        assert len([line for line in text.splitlines() if "deck" in line]) == 1
        card = state.zones[state.game.world.zone_names.index("hand.al")][0]
        assert f"{state.game.world.piece_text(card).strip()} {layout.piece_name(state.game, card)}" in text


class TestPicture:
    def test_cards_and_hidden_counts_no_grid(self, cards):
        svg = render.svg(cards.new(), viewer=0)
        got = ids(svg)
        assert not any(re.fullmatch(r"cell-[a-c]1", i) for i in got)  # no chequered squares
        assert got["label-zone-hand.north-1"] == "Ac" and "target 9, value 5" in svg
        assert "zone-hand.south-1" not in got and "1 hidden" in svg and "3 hidden" in svg
        assert "none" not in svg

    def test_cards_are_the_pieces_a_table_lists_dice_are_not(self, cards):
        """The joker (copies 1, no target) is a card; a die (a row of 0s) is drawn as a die."""
        got = ids(render.svg(cards.new(), viewer=0))
        assert "card-zone-hand.north-1" in got and "card-zone-hand.north-2" in got  # the ace, the joker
        assert got["label-zone-pool.north-1"] == "rd" and "card-zone-pool.north-1" not in got
        dice = ziggurat.load("liars-dice").new(1)
        for _ in range(2):
            dice.push(dice.moves()[0])  # a die rolled into each hidden cup
        got = ids(render.svg(dice, viewer=0))
        assert "zone-cup.first-1" in got and "card-zone-cup.first-1" not in got  # a die in a cup, not a card

    def test_a_grid_game_names_a_hidden_zone_s_count(self, grid):
        """A position emptied for a viewer (serve) says how many cards a hidden zone holds."""
        state = grid.new()
        emptied = grid.position(re.sub(r"(\S+)=\?(\d+)", r"\1=", state.observation(0)))
        svg = render.svg(emptied, hidden={"deck": 3, "hand.south": 1})
        titles = {k: v for k, v in ids(svg).items() if k.startswith("title-")}
        assert titles["title-deck"] == "deck (hidden): 3" and titles["title-hand.south"] == "hand of south (hidden): 1"


class TestServe:
    def test_the_page_gets_the_table_as_the_seat_sees_it(self, cards):
        from ziggurat.serve.tables import view

        got = view(cards.new(), 0)
        assert got["svg"] is None and got["table"] is not None
        table = got["table"]
        north, south = ({x["slot"]: x for x in seat["items"]} for seat in table["seats"])
        hand = [table["pieces"][str(r["piece"])] for r in north["hand.north"]["pieces"]]
        assert [(p["code"], p["facts"]) for p in hand] == [("Ac", ["target 9", "value 5"]), ("Jo", [])]
        assert north["hand.north"]["cards"] and not north["pool.north"]["cards"]
        assert [table["pieces"][str(r["piece"])]["card"] for r in north["pool.north"]["pieces"]] == [False] * 3
        assert south["hand.south"]["hidden"] and south["hand.south"]["size"] == 1 and not south["hand.south"]["pieces"]
        shared = {x["slot"]: x for x in table["shared"]}
        assert shared["deck"]["hidden"] and shared["deck"]["size"] == 3

    def test_a_grid_game_still_gets_its_picture(self, grid):
        from ziggurat.serve.tables import view

        got = view(grid.new(), 0)
        assert got["table"] is None and got["svg"].startswith("<?xml") and "deck (hidden): 3" in got["svg"]
