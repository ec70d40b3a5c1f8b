"""Action ids (ziggurat.bridges.actions): every legal move of every shipped ruleset round-trips
through its ids, distinct moves get distinct ids, the ids of a position form a tree whose leaves
are exactly its moves, illegal ids are refused with a message, and a ruleset without a fixed
action space is refused naming the choice. The compiler's number bounds (interpreter.bounds) hold
on every position reached."""

import os
import random

import pytest

import ziggurat
from ziggurat.bridges.actions import ActionSpace, Decisions
from ziggurat.dsl import surface
from ziggurat.dsl import types as T
from ziggurat.dsl.loader import shipped_names

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"
GAMES, PLIES = (6, 400) if SLOW else (2, 120)

# Option sets that change the action space: board sizes, player counts, variants.
OPTION_SETS = [("ryb", {"players": 5, "variable_card": "void"}), ("stacktics", {"size": 2}),
               ("stacktics", {"size": 5}), ("tic-tac-toe", {"width": 5, "height": 4, "k": 4}),
               ("liars-dice", {"dice": 2}), ("pig", {"sides": 4})]
if SLOW:
    OPTION_SETS += [("ryb", {"players": 2}), ("ryb", {"variable_card": "balance"}),
                    ("ryb", {"variable_card": "trade"}), ("stacktics", {"narrow": True, "size": 2})]


def has_spot(name: str) -> bool:
    """Whether a shipped ruleset chooses places on an open table (spelled, one id per character)."""
    game = ziggurat.load(name)
    return any(t == T.SPOT or (T.is_list(t) and t.elem == T.SPOT) for a in game.actions for _, t in a.choices)


def positions(game, games=GAMES, plies=PLIES):
    """The positions of a few random games (seeded), nature's moves drawn by their weights."""
    rng = random.Random(14)
    for g in range(games):
        st = game.new(seed=g)
        for _ in range(plies):
            if st.is_terminal():
                break
            yield st
            chance = st.chance_outcomes()
            if chance:
                moves, probs = zip(*chance)
                st.push(rng.choices(moves, probs)[0])
            else:
                st.push(rng.choice(st.moves()))


def check_round_trips(game):
    space = ActionSpace(game)
    seen = 0
    for st in positions(game):
        moves = st.moves() if not st.is_chance else [m for m, _ in st.chance_outcomes()]
        codes = [space.encode(m) for m in moves]
        assert len(set(codes)) == len(moves), "two moves share their ids"
        for m, code in zip(moves, codes):
            assert all(0 <= i < space.num_distinct_actions for i in code)
            assert space.decode(code) == m
        seen += len(moves)
    assert seen > 0


@pytest.mark.parametrize("name", shipped_names())
def test_every_legal_move_round_trips_through_its_ids(name):
    check_round_trips(ziggurat.load(name))


@pytest.mark.parametrize("name,options", OPTION_SETS, ids=[f"{n}-{o}" for n, o in OPTION_SETS])
def test_moves_round_trip_at_option_sets_that_change_the_space(name, options):
    check_round_trips(ziggurat.load(name, options))


def test_most_games_give_each_move_one_id():
    for name in ("tic-tac-toe", "breakthrough", "stacktics", "kuhn-poker", "othello", "clobber"):
        game = ziggurat.load(name)
        space = ActionSpace(game)
        for st in positions(game, games=1, plies=30):
            assert all(len(space.encode(m)) == 1 for m in st.moves()), name


def test_tic_tac_toe_ids_are_the_cells():
    game = ziggurat.load("tic-tac-toe")
    space = ActionSpace(game)
    assert space.num_distinct_actions == 9
    assert sorted(space.encode(m)[0] for m in game.new().moves()) == list(range(9))


def test_a_chain_of_jumps_is_one_id_per_jump_then_end():
    game = ziggurat.load("konane")
    space = ActionSpace(game)
    jump = next((m for st in positions(game, games=10) for m in st.moves() if m[0] == 1 and len(m[2]) >= 2), None)
    assert jump is not None, "random games of Konane reach a double jump"
    code = space.encode(jump)
    assert len(code) == 2 + len(jump[2]) and code[-1] == space.end_id
    assert [space.id_text(i) for i in code[1:-1]] == [game.world.cell_name(c) for c in jump[2]]


@pytest.mark.parametrize("name", ["checkers", "konane", "lasca", "rgb", "ryb"] + (["amazons"] if SLOW else []))
def test_the_ids_of_a_position_form_a_tree_whose_leaves_are_its_moves(name):
    game = ziggurat.load(name)
    space = ActionSpace(game)
    for st in positions(game, games=1, plies=60):
        if st.is_chance:
            continue
        moves = st.moves()
        d = Decisions(space, moves)
        leaves = []

        def walk(prefix):
            for i in d.next_ids(prefix):
                made = d.step(prefix, i)
                if made is not None:
                    leaves.append(made)
                else:
                    walk(prefix + (i,))
        walk(())
        assert sorted(leaves) == sorted(moves)


def test_an_illegal_id_is_refused_with_the_legal_ones():
    game = ziggurat.load("tic-tac-toe")
    space = ActionSpace(game)
    st = game.new()
    st.play("b2")
    d = Decisions(space, st.moves())
    taken = space.encode(game.new().parse_move("b2"))[0]
    with pytest.raises(ziggurat.GameError, match=r"action id \d+ is not legal here: the legal ids are"):
        d.step((), taken)


@pytest.mark.parametrize("ids,message", [([], "no action ids"), ([10_000], "not the first id of a move"),
                                         (["x"], "not the first id"), ([0, 0], "left over")])
def test_a_sequence_that_is_no_move_is_refused(ids, message):
    space = ActionSpace(ziggurat.load("tic-tac-toe"))
    with pytest.raises(ziggurat.GameError, match=message):
        space.decode(ids)


def test_a_list_without_its_end_is_refused():
    game = ziggurat.load("checkers")
    space = ActionSpace(game)
    jump = next(m for st in positions(game, games=10) for m in st.moves() if m[0] == 1)
    with pytest.raises(ziggurat.GameError, match="has no end"):
        space.decode(space.encode(jump)[:-1])


def test_a_number_with_no_bound_is_refused_naming_its_choice(tmp_path):
    path = tmp_path / "grow.rules"
    path.write_text(GROW)
    game = ziggurat.load(str(path))
    assert game.actions[0].bounds["n"] is None
    with pytest.raises(ziggurat.GameError, match="the choice 'n' of the action 'pick' is a number whose range"):
        ActionSpace(game)


def test_every_shipped_ruleset_has_an_action_space():
    """Every shipped ruleset, Chaos's places on the table included, numbers its actions."""
    for name in shipped_names():
        assert ActionSpace(ziggurat.load(name)).num_distinct_actions > 0


def test_a_place_on_the_table_is_spelled_one_character_an_id():
    """A spot is its text, a character an id, then END: `red@1.375,0>e` is the action and its
    colour (one id), the nine characters of `1.375,0>e`, END."""
    assert has_spot("chaos")
    game = ziggurat.load("chaos")
    space = ActionSpace(game)
    st = game.new()
    st.play("red+blue")
    first = st.parse_move("red@0,0")
    assert space.decode(space.encode(first)) == first and len(space.encode(first)) == 1 + 3 + 1
    move = first[:2] + (surface.parse_spot("1.375,0>e"),)  # a lying red piece (encoding needs no position)
    code = space.encode(move)
    assert len(code) == 1 + len("1.375,0>e") + 1 and code[-1] == space.end_id
    assert [space.id_text(i) for i in code[1:-1]] == list("1.375,0>e")
    assert space.decode(code) == move
    with pytest.raises(ziggurat.GameError, match="not a place on the table"):
        space.decode(code[:1] + code[2:])  # ".375,0>e"


@pytest.mark.parametrize("name", ["stacktics", "ryb", "liars-dice", "pig"])
def test_number_choices_stay_within_the_compilers_bounds(name):
    game = ziggurat.load(name)
    supply = game.piece_supply()
    pieces = supply.total if supply else 10_000
    checked = 0
    for st in positions(game):
        moves = st.moves() if not st.is_chance else [m for m, _ in st.chance_outcomes()]
        for m in moves:
            spec = game.actions[m[0]]
            for (choice, typ), v in zip(spec.choices, m[1:]):
                if typ == T.INT and v is not None:
                    lo, a, b = spec.bounds[choice]
                    assert lo <= v <= a * pieces + b, (spec.name, choice, v, spec.bounds[choice])
                    checked += 1
    assert checked > 0


GROW = '''game "Grow" "A counter that only grows, and a number chosen up to it."

players a, b

board:
    files: 1
    ranks: 1

piece:
    owner: players

counter c = 0

action pick "{n}":
    n: 0..c
    do:
        c += 1

end:
    if c >= 3:
        draw "enough"
'''


def test_the_bounds_survive_the_cached_spec():
    from ziggurat.interpreter.spec import GameSpec

    spec = ziggurat.load("ryb").spec
    again = GameSpec.from_json(spec.to_json())
    assert [a.bounds for a in again.actions] == [a.bounds for a in spec.actions]
    assert any(b is not None and b[1] > 0 for a in spec.actions for b in a.bounds.values())  # a * P: pieces


@pytest.mark.parametrize("move,message", [((0, 99), "outside the action space"), ((7,), "is not a move of"),
                                          ((0,), "has 1 choices"), ((0, 10 ** 500), "outside the action space"),
                                          ("b2", "is not a move of")])
def test_a_tuple_that_is_no_move_is_refused_with_a_short_message(move, message):
    space = ActionSpace(ziggurat.load("tic-tac-toe"))
    with pytest.raises(ziggurat.GameError, match=message) as e:
        space.encode(move)
    assert len(str(e.value)) < 200


def test_a_number_is_bounded_through_a_counter_and_a_height(tmp_path):
    path = tmp_path / "via.rules"
    path.write_text(VIA)
    game = ziggurat.load(str(path))
    bounds = {a.name: a.bounds for a in game.actions}
    # k is 0 or a v of 1..3, so n runs over k..2k+1 within 0..7; a height is at most the pieces (P).
    assert bounds == {"set": {"v": (1, 0, 3)}, "pick": {"n": (0, 0, 7)}, "lift": {"h": (1, 1, 0)}}
    space = ActionSpace(game)
    assert space.num_distinct_actions == 3 + 8 + 2  # two pieces: lift 1..2
    check_round_trips(game)


VIA = '''game "Via" "A number set, then a number chosen up to twice it and one, and a height."

players a, b

board:
    files: 2
    ranks: 1

piece:
    owner: players

counter k = 0

setup:
    place(piece(a), cells[1])
    place(piece(b), cells[1])

action set "set {v}":
    when k == 0
    v: 1..3
    do:
        k = v

action pick "pick {n}":
    when k > 0
    n: k..k * 2 + 1
    do:
        k = 0

action lift "lift {h}":
    h: 1..height(cells[1])
    do:
        k = 0

end:
    if ply >= 6:
        draw "enough"
'''
