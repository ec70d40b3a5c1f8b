"""Variants extend a ruleset and change exactly what they say they change."""

import random

import pytest

import ziggurat
from perft_data import all_records

SHAPES = {1: [(1, 1), (1, -1), (-1, 1), (-1, -1)], 2: [(1, 0), (-1, 0), (0, 1), (0, -1)]}
SHAPES[3] = SHAPES[1] + SHAPES[2]


def positions_by_play(game, count, seed, plies=40):
    """Positions of `game` reached by seeded random play (text), a few per game."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = game.new()
        for _ in range(rng.randrange(2, plies)):
            moves = st.moves()
            if not moves:
                break
            st.push(rng.choice(moves))
        out.append(st.text())
    return out


def lone_ground_captures(state):
    """Independently computed: captures by a lone piece standing on the ground (stack of one)."""
    w = state.game.world
    size = w.attr_tables["size"]
    owner = w.attr_tables["owner"]
    found = set()
    for c, stack in enumerate(state.cells):
        if len(stack) != 1 or owner[stack[0]] != state.side:
            continue
        f, r = c % w.files, c // w.files
        for df, dr in SHAPES[size[stack[0]]]:
            tf, tr = f + df, r + dr
            while 0 <= tf < w.files and 0 <= tr < w.ranks:
                t = tr * w.files + tf
                if state.cells[t]:
                    if owner[state.cells[t][-1]] != state.side:
                        found.add(f"{w.cell_name(c)}:1-{w.cell_name(t)}")
                    break
                tf, tr = tf + df, tr + dr
    return found


class TestBoard3x5:
    def test_variant_is_the_narrow_size2_game(self):
        """stacktics-3x5 sets size 2 and the narrow board, and nothing else."""
        variant = ziggurat.load("stacktics-3x5")
        base = ziggurat.load("stacktics", {"size": "2", "narrow": "true"})
        assert variant.options == base.options
        assert variant.new().text() == base.new().text()

    def test_perft_matches_the_independent_narrow_counts(self):
        """Its perft equals the narrow-board counts computed by the two reference implementations."""
        record = next(r for r in all_records() if r.options == {"size": "2", "narrow": "true"}
                      and r.position == "start")
        state = ziggurat.load("stacktics-3x5").new()
        for depth, leaves in record.counts:
            if leaves < 100_000:
                assert ziggurat.perft(state, depth) == leaves

    def test_trees_stand_in_the_corners(self):
        """The trees start on a1, c1, a5 and c5, as the source says for the 3x5 board."""
        state = ziggurat.load("stacktics-3x5").new()
        occupied = {state.game.world.cell_name(c) for c, s in enumerate(state.cells) if s}
        assert occupied == {"a1", "c1", "a5", "c5"}


class TestGroundAttack:
    @pytest.mark.parametrize("size", ["2", "3", "4"])
    def test_adds_exactly_the_lone_ground_captures(self, size):
        """Its moves are the base game's moves plus captures by a lone ground piece, no more."""
        base = ziggurat.load("stacktics", {"size": size})
        variant = ziggurat.load("stacktics-ground-attack", {"size": size})
        for text in positions_by_play(base, 25, seed=int(size)):
            b, v = base.position(text), variant.position(text)
            base_moves = {b.move_text(m) for m in b.moves()}
            variant_moves = {v.move_text(m) for m in v.moves()}
            if b.is_terminal():
                continue
            assert base_moves <= variant_moves
            assert variant_moves - base_moves == lone_ground_captures(v)

    def test_some_positions_do_differ(self):
        """The comparison above is not vacuous: random play reaches lone ground captures."""
        base = ziggurat.load("stacktics")
        assert any(lone_ground_captures(base.position(t)) for t in positions_by_play(base, 40, seed=7))

    def test_variant_capture_takes_the_stack(self):
        """A lone ground piece that captures takes the whole enemy stack into its prisoners."""
        game = ziggurat.load("stacktics-ground-attack")
        state = game.position("south 4 | a1=S2 a4=N3N2 | prisoners.south= prisoners.north=")
        state.play("a1:1-a4")
        assert "a4=S2" in state.text() and "prisoners.south=N3N2" in state.text()

    def test_base_game_forbids_the_same_capture(self):
        """In the base game the same move is illegal, and the reason names the landing rule."""
        state = ziggurat.load("stacktics").position(
            "south 4 | a1=S2 a4=N3N2 | prisoners.south= prisoners.north=")
        with pytest.raises(ziggurat.GameError, match="no landing there"):
            state.play("a1:1-a4")
