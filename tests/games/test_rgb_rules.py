"""RGB rule by rule against the source text (shared/seeds/000_1524b6c2433bb841.txt) and the
project's rulings (shared/games/rgb.md): each test sets up a small position where the rule decides
what is legal, and would fail if rgb.rules got that rule wrong."""

import pytest

import ziggurat

E = "reserve.south= reserve.north="


def pos(text, **options):
    """A position of RGB (the options as text)."""
    return ziggurat.load("rgb", {k: str(v).lower() for k, v in options.items()}).position(text)


def texts(st):
    return {st.move_text(m) for m in st.moves()}


def actions(st):
    """The legal moves' action parts, without the sustenance part."""
    return {t.split(" starve ")[0] for t in texts(st)}


def stack(st, cell):
    """The stack on a cell as piece codes, e.g. 'Sr1Sg1Sb1'."""
    game = st.game
    w = game.world
    c = next(i for i in range(w.ncells) if w.cell_name(i) == cell)
    return "".join(w.piece_text(p) for p in st.cells[c])


# A quiet frame: South's child a1 sustained by its Man a2, North's child h8 by its Woman h7.
FRAME = "a1=Sr1Sg1Sb1 a2=Sr3Sg3Sb3 h7=Nr2Ng2Nb2 h8=Nr1Ng1Nb1"


class TestMaterialAndOpening:
    def test_start_position_follows_the_ruling(self):
        """Children on d1 e1 f1 / d8 e8, the Golden Child (two yellow layers) on f8, empty bank,
        and the reserves hold 2 Men 3 Women (South) and 3 Men 2 Women (North)."""
        st = ziggurat.load("rgb").new()
        for c in ("d1", "e1", "f1"):
            assert stack(st, c) == "Sr1Sg1Sb1"
        for c in ("d8", "e8"):
            assert stack(st, c) == "Nr1Ng1Nb1"
        assert stack(st, "f8") == "Ny1Ny1"
        text = st.text()
        assert "bank= " in text
        assert text.count("Sr3") == 2 and text.count("Sr2") == 3
        assert text.count("Nr3") == 3 and text.count("Nr2") == 2

    def test_placement_on_own_half_only_and_nothing_else(self):
        """In the placement phase the only moves place a Man or Woman on an empty square of ranks
        1-4 (South): no move, attack or creation."""
        st = ziggurat.load("rgb").new()
        moves = texts(st)
        assert all(m.split("@")[0] in ("man", "woman") for m in moves)
        assert all(int(m.split("@")[1][1:]) <= 4 for m in moves)
        assert "man@d1" not in moves and "man@d5" not in moves and "man@a4" in moves
        with pytest.raises(ziggurat.GameError, match="own half"):
            st.play("man@a5")

    def test_placement_lasts_five_turns_each(self):
        """After both players placed their five stacks, the reserves are empty and stacks move."""
        st = ziggurat.load("rgb").new()
        for _ in range(10):
            st.push(st.moves()[0])
        assert "reserve.south= reserve.north=" in st.text()
        assert any("-" in m for m in texts(st))

    def test_fixed_opening_option(self):
        """With placement=false the Men and Women start on ranks 2 and 7 and moves start at once."""
        st = ziggurat.load("rgb", {"placement": "false"}).new()
        assert stack(st, "d2") == "Sr3Sg3Sb3" and stack(st, "c2") == "Sr2Sg2Sb2"
        assert stack(st, "c7") == "Nr3Ng3Nb3" and stack(st, "d7") == "Nr2Ng2Nb2"
        assert "d2-d3" in texts(st)


class TestMove:
    def test_rook_slide_stops_before_a_stack(self):
        """A stack slides along a rank or file over empty squares, never jumping."""
        st = pos(f"south 20 | {FRAME} c3=Sr2Sg2Sb2 c6=Nr2Ng2Nb2 | bank= {E}")
        moves = texts(st)
        assert "c3-c5" in moves and "c3-c6" not in moves and "c3-c7" not in moves
        assert "c3-h3" in moves and "c3-a3" in moves

    def test_one_diagonal_step(self):
        """A stack steps exactly one square diagonally; two squares is illegal and explained."""
        st = pos(f"south 20 | {FRAME} c3=Sr2Sg2Sb2 | bank= {E}")
        assert {"c3-d4", "c3-b2", "c3-d2", "c3-b4"} <= texts(st)
        with pytest.raises(ziggurat.GameError, match="diagonally"):
            st.play("c3-e5")


class TestAttack:
    def test_attack_needs_a_clear_line(self):
        """No line of sight through another stack, and none diagonally."""
        st = pos(f"south 20 | {FRAME} c3=Sr3Sg3Sb3 c5=Sr1Sg1Sb1 c4=Sr2Sg2Sb2 c7=Nr2Ng2Nb2 d4=Nr2Ng2Nb2 | bank= {E}")
        with pytest.raises(ziggurat.GameError, match="line of sight"):
            st.play("c3xc7:red")
        with pytest.raises(ziggurat.GameError, match="line of sight"):
            st.play("c3xd4:red")
        assert "c4xd4:red" in texts(st)

    def test_attacker_chooses_the_layer_and_it_goes_to_the_bank(self):
        """Each layer of the victim is a separate move; the lost layer joins the bank, ownerless."""
        st = pos(f"south 20 | {FRAME} c3=Sr3Sg3Sb3 c6=Nr2Ng2Nb2 | bank= {E}")
        assert {"c3xc6:red", "c3xc6:green", "c3xc6:blue"} <= texts(st)
        st.play("c3xc6:green")
        assert stack(st, "c6") == "Nr2Nb2" and "bank=Xg2" in st.text()

    def test_smaller_attacker_needs_support(self):
        """A Woman cannot attack a Man alone ('too small'); with support she can."""
        st = pos(f"south 20 | {FRAME} c3=Sr2Sg2Sb2 c6=Nr3Ng3Nb3 | bank= {E}")
        assert not any(m.startswith("c3xc6") and "^" not in m for m in texts(st))
        with pytest.raises(ziggurat.GameError, match="too small"):
            st.play("c3xc6:red")

    def test_no_red_layer_needs_support(self):
        """A stack without Red cannot attack alone, even a smaller victim."""
        st = pos(f"south 20 | {FRAME} c3=Sg3Sb3 c6=Nr1Ng1Nb1 | bank= {E}")
        with pytest.raises(ziggurat.GameError, match="no Red layer"):
            st.play("c3xc6:red")


class TestSupport:
    def test_supporter_in_line_with_blockers_between(self):
        """Any own stack on the attacker's rank or file supports, even with stacks between; one
        off the line does not."""
        st = pos(f"south 20 | a1=Sr1Sg1Sb1 a2=Sr3Sg3Sb3 c1=Sr3Sg3Sb3 c2=Nr1Ng1Nb1 c3=Sg2Sb2 c6=Nr2Ng2Nb2 "
                 f"e4=Sr1Sg1Sb1 h7=Nr2Ng2Nb2 h8=Nr1Ng1Nb1 | bank= {E}")
        moves = actions(st)
        assert "c3xc6:red^c1" in moves  # c2 (an enemy) stands between c1 and c3
        assert "c3xc6:red^e4" not in moves
        with pytest.raises(ziggurat.GameError, match="supporter must be"):
            st.play("c3xc6:red^e4")

    def test_support_only_where_needed(self):
        """An attack that is legal alone is not offered with a supporter."""
        st = pos(f"south 20 | {FRAME} c3=Sr3Sg3Sb3 c1=Sr2Sg2Sb2 c6=Nr2Ng2Nb2 | bank= {E}")
        assert "c3xc6:red" in texts(st)
        assert not any(m.startswith("c3xc6") and "^" in m for m in texts(st))

    def test_supporter_discards_its_top_layer_and_may_die(self):
        """The supporter's top layer goes to the bank; a one-layer supporter dies."""
        st = pos(f"south 20 | {FRAME} c3=Sr1Sg1Sb1 c1=Sb2 c6=Nr3Ng3Nb3 | bank= {E}")
        st.play("c3xc6:blue^c1 starve c3:red")
        assert stack(st, "c1") == "" and stack(st, "c6") == "Nr3Ng3"
        assert sorted(st.text().split("bank=")[1].split()[0]) == sorted("Xb2Xb3Xr1")

    def test_golden_child_supports(self):
        """The Golden Child can lend support (it has layers to discard)."""
        st = pos(f"north 21 | {FRAME} d4=Nr1Ng1Nb1 d6=Ny1Ny1 d2=Sr3Sg3Sb3 | bank= {E}")
        assert "d4xd2:red^d6" in actions(st)


class TestCreation:
    FERTILE = "a1=Sr1Sg1Sb1 a2=Sr3Sg3Sb3 b2=Sr2Sg2Sb2 h7=Nr2Ng2Nb2 h8=Nr1Ng1Nb1"

    def test_create_beside_either_parent_from_the_bank(self):
        """A Man beside a Woman (both with Blue) and a small r, g, b in the bank: a new full Child
        on an empty square beside either parent; the bank gives up the three pieces."""
        st = pos(f"south 20 | {self.FERTILE} | bank=Xr1Xg1Xb1 {E}")
        assert {"new@a3", "new@b1", "new@b3", "new@c2"} == {m for m in texts(st) if m.startswith("new")}
        st.play("new@c2")
        assert stack(st, "c2") == "Sr1Sg1Sb1" and "bank= " in st.text()

    def test_no_creation_without_the_bank(self):
        """Without a small blue in the bank, no Child can be created."""
        st = pos(f"south 20 | {self.FERTILE} | bank=Xr1Xg1Xb2 {E}")
        with pytest.raises(ziggurat.GameError, match="bank"):
            st.play("new@c2")

    def test_parents_need_blue(self):
        """A Woman without her Blue layer is not fertile."""
        st = pos(f"south 20 | a1=Sr1Sg1Sb1 a2=Sr3Sg3Sb3 b2=Sr2Sg2 h7=Nr2Ng2Nb2 h8=Nr1Ng1Nb1 | bank=Xr1Xg1Xb1 {E}")
        with pytest.raises(ziggurat.GameError, match="no parents"):
            st.play("new@c2")


class TestHeal:
    def test_heal_puts_the_layer_back_in_order(self):
        """A stack beside the Golden Child gets a missing Green back between Red and Blue."""
        st = pos(f"north 21 | {FRAME} e5=Nr2Nb2 f5=Ny1Ny1 | bank=Xg2Xg3 {E}")
        assert {m for m in texts(st) if m.startswith("heal")} == {"heal e5:green"}
        st.play("heal e5:green")
        assert stack(st, "e5") == "Nr2Ng2Nb2" and "bank=Xg3" in st.text()

    def test_heal_needs_the_golden_child_beside(self):
        """A damaged stack diagonal to the Golden Child cannot be healed."""
        st = pos(f"north 21 | {FRAME} e4=Nr2Nb2 f5=Ny1Ny1 | bank=Xg2 {E}")
        with pytest.raises(ziggurat.GameError, match="beside your Golden Child"):
            st.play("heal e4:green")


class TestSustenance:
    def test_unsustained_child_loses_a_layer_of_the_movers_choice(self):
        """After a move that leaves a Child alone, the move names the Child and the layer."""
        st = pos(f"south 20 | {FRAME} | bank= {E}")
        assert {"a2-a3 starve a1:red", "a2-a3 starve a1:green", "a2-a3 starve a1:blue"} <= texts(st)
        assert "a2-a3" not in texts(st)
        st.play("a2-a3 starve a1:green")
        assert stack(st, "a1") == "Sr1Sb1"

    def test_children_sustain_each_other_but_not_the_golden_child(self):
        """Two Children side by side sustain each other; a Child beside only the Golden Child
        starves."""
        st = pos(f"north 21 | a1=Sr1Sg1Sb1 a2=Sr3Sg3Sb3 a5=Nr2Ng2Nb2 c8=Nr1Ng1Nb1 d8=Nr1Ng1Nb1 g8=Nr1Ng1Nb1 "
                 f"h8=Ny1Ny1 | bank= {E}")
        after = {m for m in texts(st) if m.startswith("a5-a4")}
        assert after == {"a5-a4 starve g8:red", "a5-a4 starve g8:green", "a5-a4 starve g8:blue"}

    def test_one_child_only_unless_each(self):
        """With two unsustained Children one loses a layer (3 + 3 moves); with each=true both do
        (3 x 3 moves)."""
        base = f"south 20 | a1=Sr1Sg1Sb1 c1=Sr1Sg1Sb1 h7=Nr2Ng2Nb2 h8=Nr1Ng1Nb1 a8=Sr3Sg3Sb3 | bank= {E}"
        one = [m for m in texts(pos(base)) if m.startswith("a8-a7 ")]
        each = [m for m in texts(pos(base, each=True)) if m.startswith("a8-a7 ")]
        assert len(one) == 6 and len(each) == 9
        st = pos(base, each=True)
        st.play("a8-a7 starve a1,c1:red,blue")
        assert stack(st, "a1") == "Sg1Sb1" and stack(st, "c1") == "Sr1Sg1"

    def test_sustainers_option_any_stack(self):
        """By default an enemy's Green does not sustain; with sustainers=any it does."""
        base = f"south 20 | a1=Sr1Sg1Sb1 b1=Nr3Ng3Nb3 h7=Nr2Ng2Nb2 h8=Nr1Ng1Nb1 a8=Sr3Sg3Sb3 | bank= {E}"
        assert "a8-a7" not in texts(pos(base))
        assert "a8-a7" in texts(pos(base, sustainers="any"))

    def test_the_golden_child_needs_no_sustenance(self):
        """North's lone Golden Child never starves."""
        st = pos(f"north 21 | {FRAME} d5=Ny1Ny1 | bank= {E}")
        assert "d5-d4" in texts(st)


class TestEnd:
    def test_no_children_loses(self):
        """A player whose last Child dies loses; the Golden Child does not count."""
        st = pos(f"south 20 | a1=Sr1Sg1Sb1 a2=Sr3Sg3Sb3 a8=Nr3Ng3Nb3 a7=Nr1Ng1Nb1 h8=Ny1Ny1 | bank= {E}")
        st.play("a2xa7:red")
        st2 = pos(f"south 20 | a1=Sr1Sg1Sb1 a2=Sr3Sg3Sb3 a7=Nr1 h8=Ny1Ny1 | bank= {E}")
        st2.play("a2xa7:red")
        out = st2.outcome()
        assert out is not None and out.player == 0 and out.kind == "win"

    def test_killing_the_last_enemy_child_wins_despite_own_starvation(self):
        """The attack resolves before sustenance: South kills North's last Child while its own
        last Child starves to death, and South wins."""
        st = pos(f"south 20 | a1=Sb1 c1=Sr3Sg3Sb3 c5=Nr1 h8=Ny1Ny1 | bank= {E}")
        st.play("c1xc5:red starve a1:blue")
        out = st.outcome()
        assert out.kind == "win" and st.game.players[out.player] == "south"

    def test_pass_when_nothing_is_legal(self):
        """A player with no legal action passes (its starving Child still loses a layer)."""
        st = pos(f"south 20 | a1=Sr1Sg1 a2=Nr3Ng3Nb3 b1=Nr3Ng3Nb3 b2=Nr3Ng3Nb3 h8=Nr1Ng1Nb1 | bank= {E}")
        assert texts(st) == {"pass starve a1:red", "pass starve a1:green"}

    def test_ply_cap_draws(self):
        """At the ply cap (400 by default) the game is drawn."""
        st = pos(f"south 400 | {FRAME} | bank= {E}")
        assert st.outcome().kind == "draw" and st.moves() == []


class TestNotation:
    def test_every_move_reads_back(self):
        """Every legal move's text (with its sustenance part) parses back to the same move."""
        st = pos(f"south 20 | a1=Sr1Sg1Sb1 c1=Sr1Sb1 c3=Sr2Sg2Sb2 c6=Nr3Ng3Nb3 h7=Nr2Ng2Nb2 h8=Nr1Ng1Nb1 "
                 f"| bank=Xg1 {E}", each=True)
        for m in st.moves():
            assert st.parse_move(st.move_text(m)) == m
