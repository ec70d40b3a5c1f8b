"""Observation tensors (ziggurat.bridges.observations): their documented shape, pieces where they
stand, and hidden information kept out: two positions that differ only in what a player cannot
see give that player the same tensor and strings."""

import random

import numpy as np
import pytest

import ziggurat
from ziggurat.bridges.actions import ActionSpace
from ziggurat.bridges.observations import LEVELS, Observer
from ziggurat.bridges.progress import Progress


def progress(name, options=None, seed=0):
    game = ziggurat.load(name, options or {})
    return Progress(ActionSpace(game), game.new(seed), seed=seed)


def tensor(p, player):
    obs = Observer(p.space.game)
    out = np.zeros(obs.size, np.float32)
    obs.fill(out, p, player)
    return out


def test_the_shape_is_the_documented_one():
    game = ziggurat.load("stacktics")
    obs = Observer(game)
    w = game.world
    assert obs.shapes["board"] == (w.npieces, LEVELS + 1, w.ranks, w.files)
    assert obs.shapes["zones"] == (len(w.zone_names), w.npieces + 1)
    assert obs.shapes["counters"] == (len(w.counter_names),)
    assert obs.shapes["mover"] == (len(game.players) + 1,)
    assert obs.size == sum(int(np.prod(s)) for s in obs.shapes.values())


def test_every_piece_on_the_board_is_in_its_plane_at_its_level():
    p = progress("stacktics")
    obs = Observer(p.space.game)
    v = obs.views(tensor(p, 0))
    world = p.space.game.world
    for c, stack in enumerate(p.state.cells):
        f, r = next((f, r) for f in range(world.files) for r in range(world.ranks) if world.cell(f, r) == c)
        for level, piece in enumerate(stack):
            assert v["board"][piece, level, r, f] == 1
    assert v["board"].sum() == sum(len(s) for s in p.state.cells)
    assert v["mover"][p.state.side] == 1 and v["player"][0] == 1


def deal(first_card, second_card):
    """Kuhn poker after nature deals the given cards (piece codes) to first and second."""
    p = progress("kuhn-poker")
    for card in (first_card, second_card):
        ids = [i for i, _ in p.chance_ids() if p.space.decode([i])[1] == card]
        p.apply(ids[0])
    return p


def test_kuhn_poker_hides_the_other_hand_from_the_tensor_and_the_strings():
    game = ziggurat.load("kuhn-poker")
    jack, queen, king = (game.world.piece_text(c) for c in range(3))
    assert (jack, queen, king) == ("J", "Q", "K")
    a, b = deal(0, 1), deal(0, 2)  # the first player holds the Jack in both; the second's card differs
    assert np.array_equal(tensor(a, 0), tensor(b, 0))
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert not np.array_equal(tensor(a, 1), tensor(b, 1))  # the second player sees its own card
    assert a.information_state_string(1) != b.information_state_string(1)


def test_ryb_hands_dealt_again_give_a_player_the_same_tensor():
    p = progress("ryb")
    rng = random.Random(3)
    while p.state.ply < 40 and not p.is_terminal():  # random play until hands are dealt
        if p.is_chance():
            ids, probs = zip(*p.chance_ids())
            p.apply(rng.choices(ids, probs)[0])
        else:
            p.apply(rng.choice(p.legal_ids()))
    changed = 0
    for side in range(len(p.space.game.players)):
        other = Progress(p.space, p.state.determinized(side, random.Random(side)))
        assert np.array_equal(tensor(p, side), tensor(other, side))
        assert p.state.observation(side) == other.state.observation(side)
        changed += any(not np.array_equal(tensor(p, s), tensor(other, s)) for s in range(len(p.space.game.players)))
    assert changed, "dealing again changed what some player sees"


def test_a_move_under_way_is_shown_to_its_player_only():
    game = ziggurat.load("konane")
    space = ActionSpace(game)
    p = Progress(space, game.new(0), seed=0)
    rng = random.Random(0)
    while True:
        jumps = [i for i in p.legal_ids() if space.id_text(i).startswith("jump")]
        if jumps:
            break
        p.apply(rng.choice(p.legal_ids()))
    mover = p.mover()
    before = [tensor(p, s) for s in range(2)]
    p.apply(jumps[0])
    assert p.prefix, "a jump is more than one id"
    assert not np.array_equal(tensor(p, mover), before[mover])
    assert np.array_equal(tensor(p, 1 - mover), before[1 - mover])
    assert "under way" in p.observation_string(mover) and "under way" not in p.observation_string(1 - mover)


@pytest.mark.parametrize("name", ["leduc-poker", "liars-dice"])
def test_hidden_zones_show_only_their_count(name):
    p = progress(name)
    rng = random.Random(1)
    while p.is_chance():
        ids, probs = zip(*p.chance_ids())
        p.apply(rng.choices(ids, probs)[0])
    game = p.space.game
    obs = Observer(game)
    for side in range(len(game.players)):
        zones = obs.views(tensor(p, side))["zones"]
        for slot, viewers in enumerate(game.zone_viewers):
            assert zones[slot, -1] == len(p.state.zones[slot])
            if viewers is not None and side not in viewers:
                assert zones[slot, :-1].sum() == 0
            else:
                assert zones[slot, :-1].sum() == len(p.state.zones[slot])


@pytest.mark.parametrize("name", ["leduc-poker", "kuhn-poker", "liars-dice"])
def test_the_information_state_kept_move_by_move_is_the_engines(name):
    p = progress(name)
    rng = random.Random(5)
    sides = range(len(p.space.game.players))
    for side in sides:
        p.information_state_string(side)  # asked once: kept up to date from here on
    while not p.is_terminal():
        if p.is_chance():
            ids, probs = zip(*p.chance_ids())
            p.apply(rng.choices(ids, probs)[0])
        else:
            p.apply(rng.choice(p.legal_ids()))
        if not p.prefix:
            for side in sides:
                assert p.information_state_string(side) == p.state.information_state(side)
    clone = p.clone()
    assert [clone.information_state_string(s) for s in sides] == [p.state.information_state(s) for s in sides]


def test_the_open_table_is_in_the_tensor():
    """Each piece on the table is a row: its kind, its centre in inches, its pose."""
    game = ziggurat.load("chaos")
    st = game.new()
    for text in ("red+blue", "red@0,0", "blue@6,0"):
        st.play(text)
    obs = Observer(game)
    assert obs.shapes["table"] == (150, game.world.npieces + 7)
    tensor = np.zeros(obs.size, dtype=np.float32)
    obs.fill(tensor, Progress(ActionSpace(game), st), 0)
    table, n = obs.views(tensor)["table"], game.world.npieces
    red, blue = (game.world.piece_by_text()[c] for c in ("rd3", "bl3"))
    assert table[0, red] == 1 and tuple(table[0, n:n + 3]) == (0, 0, 1)  # at 0,0, standing
    assert table[1, blue] == 1 and tuple(table[1, n:n + 3]) == (6, 0, 1)
    assert not table[2:].any()
