"""Sets of cells in the state (`set visited of cells [per player] [, cleared each turn]`): how
they parse, each mistake at its line and column, perft counted by hand on a small game (both
backends), position texts and the hash holding them, and the clearing as the turn passes."""

import os

import pytest
from native_replay import replay
from rules_edits import at, replace_once, the_error

import ziggurat
from ziggurat.dsl import ast
from ziggurat.dsl.checks import check
from ziggurat.dsl.parser import parse
from ziggurat.interpreter.runtime import perft

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(HERE, "native", "sets.rules")  # Set walk: read it beside these counts
with open(PATH) as f:
    GAME = f.read()

# Set walk by hand. Each row is a1 b1 c1 (south) or a2 b2 c2 (north); each piece starts on file a.
# A turn is two steps along the row; a step may not go to a cell left this turn (`visited`).
# Turn 1 of south: a1->b1 or a1->c1 (2), then the one cell neither left nor held (1 each): 2, 2.
# North the same: 4, 4. Turn 2 of south: from c1 (or b1) to either other cell (2 each): 8, and
# then every line has south having left all three of its cells (`left[south]`): south wins, 0.
PERFT = [1, 2, 2, 4, 4, 8, 0]
# Without `cleared each turn`, visited keeps a1 and the cell left second, and count(visited) < 2
# never grants north its second step: south's second turn has no step at all.
PERFT_NEVER_CLEARED = [1, 2, 2, 4, 0]


def edit(old: str, new: str, text: str = GAME) -> str:
    return replace_once(text, old, new)


def load(tmp_path, text: str = GAME):
    p = tmp_path / "sets.rules"
    p.write_text(text)
    return ziggurat.load(str(p))


def test_a_set_declaration_parses_to_what_it_holds_whose_and_when_it_empties():
    decls = {d.name: d for d in parse(GAME).decls if isinstance(d, ast.Counter)}
    visited, left = decls["visited"], decls["left"]
    assert (visited.kind, visited.holds, visited.per_player, visited.cleared) == ("set", "cells", False, True)
    assert (left.kind, left.holds, left.per_player, left.cleared) == ("set", "cells", True, False)


def test_the_test_ruleset_checks_clean():
    assert [d.render() for d in check(PATH) if d.severity == "error"] == []


@pytest.mark.parametrize("old, new, needle, words", [
    ("set left of cells per player", "set left of players per player", "set left of players",
     "set 'left' holds cells, not 'players'"),
    ("add(visited, from)", "add(visited, mover)", "mover)", "set 'visited' holds cells, not a player"),
    ("add(visited, from)", "clear(visted)", "clear(visted)", "clear() empties a set, and 'visted' is not one"),
    ("add(visited, from)", "add(visited)", "add(visited)", "add() of a set takes 2 arguments, not 1"),
    ("all(empty(c) for c in visited)", "count(visited[mover]) == 0", "visited[mover]",
     "set 'visited' is one for the whole game, not per player"),
    ("size(left[p]) == 3", "size(left) == 3", "left)", "set 'left' is kept per player: write left[PLAYER]"),
    ("to not in visited", "to != visited", "visited\n", "set 'visited' is not a value of its own"),
    ("to not in visited", "mover not in visited", "mover not", "what is looked for in set 'visited' must be a cell"),
])
def test_each_mistake_with_a_set_is_named_at_its_line_and_column(old, new, needle, words):
    text = edit(old, new)
    err = the_error(text)
    assert words in err.message
    assert (err.line, err.col) == at(text, needle)


def test_a_set_changes_only_where_the_game_changes():
    text = edit("        if size(left[p]) == 3:", "        add(left[p], a1)\n        if size(left[p]) == 3:")
    text = text.replace("add(left[p], a1)", "clear(left[p])")
    err = the_error(text)
    assert "clear() changes the game" in err.message and (err.line, err.col) == at(text, "clear(left[p])")


def test_the_error_for_a_mistake_has_a_hint():
    err = the_error(edit("add(visited, from)", "clear(visted)"))
    assert "visited" in (err.hint or "")


def test_perft_counted_by_hand(tmp_path):
    game = load(tmp_path)
    assert [perft(game.new(), d) for d in range(len(PERFT))] == PERFT


def test_a_set_not_cleared_each_turn_keeps_its_cells_into_the_next_turn(tmp_path):
    game = load(tmp_path, edit(", cleared each turn", ""))
    assert [perft(game.new(), d) for d in range(len(PERFT_NEVER_CLEARED))] == PERFT_NEVER_CLEARED


def test_a_position_text_writes_each_set_as_its_cells_and_reads_it_back(tmp_path):
    game = load(tmp_path)
    st = game.new()
    assert st.text().endswith("visited=- left.south=- left.north=-")
    st.play("a1-b1")
    assert st.text() == "south 1 | b1=S a2=N | visited=a1 left.south=a1 left.north=-"
    back = game.position(st.text())
    assert back.text() == st.text() and back.full_hash() == st.full_hash()
    assert [back.move_text(m) for m in back.moves()] == ["b1-c1"]  # a1 was left this turn
    st.play("b1-c1")  # the turn passes to north: visited is emptied, left is kept
    assert st.text() == "north 2 | c1=S a2=N | visited=- left.south=a1,b1 left.north=-"


def test_a_set_is_part_of_the_position_and_its_hash(tmp_path):
    game = load(tmp_path)
    one = game.position("south 1 | a2=N b1=S | visited=a1 left.south=a1 left.north=-")
    other = game.position("south 1 | a2=N b1=S | visited=- left.south=a1 left.north=-")
    assert one.full_hash() != other.full_hash()
    assert sorted(other.move_text(m) for m in other.moves()) == ["b1-a1", "b1-c1"]


def test_undo_takes_a_set_back(tmp_path):
    game = load(tmp_path)
    st = game.new()
    before = st.text()
    for text in ("a1-c1", "c1-b1", "a2-b2"):
        st.play(text)
    for _ in range(3):
        st.pop()
    assert st.text() == before


@pytest.mark.parametrize("bad, words", [
    ("visited=a9", "set 'visited' holds cells of this board"),
    ("visted=a1", "neither a zone nor a counter"),
])
def test_a_wrong_set_in_a_position_text_is_named(tmp_path, bad, words):
    game = load(tmp_path)
    with pytest.raises(ziggurat.GameError, match=words):
        game.position(f"south 1 | a2=N b1=S | {bad}")


def test_native_perft_and_seeded_playouts_equal_pythons(tmp_path):
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    game = load(tmp_path)
    fast = native(game)
    start = game.new()
    assert [fast.perft(start, d) for d in range(len(PERFT))] == PERFT
    mid = game.position("north 2 | a2=N c1=S | visited=- left.south=a1,b1 left.north=-")
    for d in range(4):
        assert fast.perft(mid, d) == perft(mid, d), f"depth {d}"
    for seed in range(8):
        p = fast.playout(start, seed, 100)
        state = replay(game, p)
        assert fast.state(p.final).counters == state.counters
        outcome = state.outcome()
        assert (outcome.kind, outcome.player) == (p.kind, p.who)


def written_otherwise() -> str:
    """Set walk with each read of a set written another way, and a set changed in a loop."""
    text = edit("        if count(visited) < 2:\n",
                "        if count(c.rank > 0 for c in visited) < 2:\n")
    loop = ("        for c in left[mover] where c.file == 3:\n"
            "            add(visited, c)\n            remove(visited, c)\n")
    text = edit("            extra_turn()\n", "            extra_turn()\n" + loop, text)
    return edit("size(left[p]) == 3", "sum(1 for c in cells where c in left[p]) == 3", text)


def test_each_way_of_reading_a_set_plays_the_same_game(tmp_path):
    game = load(tmp_path, written_otherwise())
    assert [perft(game.new(), d) for d in range(len(PERFT))] == PERFT


def test_each_way_of_reading_a_set_compiles_natively_to_the_same_game(tmp_path):
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    game = load(tmp_path, written_otherwise())
    assert [native(game).perft(game.new(), d) for d in range(len(PERFT))] == PERFT


def test_a_symmetry_maps_the_cells_of_a_set_and_its_players():
    """Set walk declares `mirror ranks, swap south north`: it holds only if the symmetry maps each
    set's cells (and a per-player set's players) as it maps the board."""
    from click.testing import CliRunner

    from ziggurat.cli.main import cli

    result = CliRunner().invoke(cli, ["test", PATH])
    assert result.exit_code == 0, result.output
    assert "1 symmetry hold" in result.output


def test_an_observation_has_a_counter_slot_for_each_cell_of_a_set(tmp_path):
    from ziggurat.bridges.observations import Observer

    game = load(tmp_path)
    assert len(Observer(game)._counter_slots()) == len(game.world.counter_names) == 3 * 6  # visited, left x2
