"""Tests of the two independent plain-Python Stacktics implementations
(tests/reference/stacktics_ref.py and benchmarks/handwritten_stacktics.py)
and of the perft data file tests/perft/stacktics.perft they produced.

Depth <= 3 perft lines are always checked (fast); depth 4 and deeper only
when ZIGGURAT_SLOW=1 (depth 4 by both implementations, depth 5 by the
hand-written one only: the reference needs ~1 minute for size 3 depth 5).
"""

import importlib.util
import os
import random

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PERFT_FILE = os.path.join(ROOT, "tests", "perft", "stacktics.perft")
SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load("stacktics_ref", os.path.join(ROOT, "tests", "reference", "stacktics_ref.py"))
fast = _load("handwritten_stacktics", os.path.join(ROOT, "benchmarks", "handwritten_stacktics.py"))


# ------------------------------------------------------------------ helpers

def ref_position(text, **options):
    return ref.parse_position(text, **options)


def fast_position(text, **options):
    game = fast.Stacktics(**options)
    game.set_position(text)
    return game


def both_perft(text, depth, **options):
    """perft by both implementations; asserts they agree and returns it."""
    r = ref.perft(ref_position(text, **options), depth)
    f = fast_position(text, **options).perft(depth)
    assert r == f, (text, depth, r, f)
    return r


def ref_move_texts(text, **options):
    return sorted(ref.format_move(m) for m in ref.moves(ref_position(text, **options)))


def fast_move_texts(text, **options):
    game = fast_position(text, **options)
    return sorted(game.move_text(m) for m in game.generate())


def pos(side_ply, cells, south="", north="", seats=""):
    text = "%s | %s | prisoners.south=%s prisoners.north=%s" % (side_ply, cells, south, north)
    if seats:
        text += " | seats=" + seats
    return text


# ------------------------------------------------------------------ (a) hand count

def test_size3_start_depth1_hand_count():
    """Size 3 start (5x5, trees on b1 c1 d1), South to move; perft(1) = 31.

    Tree on b1 (L=3 at level 1, M=2 at level 2, S=1 at level 3):
      * small alone (unlimited, diagonal): a2; c2, d3, e4; (down: off board) = 4
      * medium+small (above 1 < 2: loaded, at most 2, orthogonal):
        b2, b3; a1; c1 is a friendly stack whose top is a small and the base
        is a medium (2 > 1): illegal, and it blocks the line               = 3
      * whole tree (above 3 >= 3: overloaded, exactly 1, all 8 directions):
        a1, a2, b2, c2 (c1 friendly top small: 3 > 1 illegal)              = 4
      b1 total 11.
    Tree on c1: small b2, a3; d2, e3 = 4; medium pair c2, c3 = 2 (b1 and d1
      hold a small on top: illegal); whole tree b2, c2, d2 = 3;  total 9.
    Tree on d1: mirror image of b1 = 11.
    Total 11 + 9 + 11 = 31.
    """
    assert ref.moves(ref.start(3)).__len__() == 31
    assert ref.perft(ref.start(3), 1) == 31
    assert fast.Stacktics(3).perft(1) == 31
    b1 = sorted(ref.format_move(m) for m in ref.moves(ref.start(3)) if m[0] == "b1")
    assert b1 == sorted(["b1:3-a2", "b1:3-c2", "b1:3-d3", "b1:3-e4",
                         "b1:2-b2", "b1:2-b3", "b1:2-a1",
                         "b1:1-a1", "b1:1-a2", "b1:1-b2", "b1:1-c2"])
    game = fast.Stacktics(3)
    assert sorted(game.move_text(m) for m in game.generate()) == \
        sorted(ref.format_move(m) for m in ref.moves(ref.start(3)))


def test_start_text():
    text = ("south 0 | b1=S3S2S1 c1=S3S2S1 d1=S3S2S1 b5=N3N2N1 c5=N3N2N1 d5=N3N2N1 "
            "| prisoners.south= prisoners.north=")
    assert ref.format_position(ref.start(3)) == text
    narrow = ("south 0 | a1=S3S2S1 c1=S3S2S1 a5=N3N2N1 c5=N3N2N1 "
              "| prisoners.south= prisoners.north=")
    assert ref.format_position(ref.start(2, narrow=True)) == narrow
    assert fast.Stacktics(2, narrow=True).board_text() == narrow.rsplit(" | ", 1)[0]


# ------------------------------------------------------------------ (b) tiny positions

def test_lone_small_in_corner():
    """Size 3. South small alone on the ground at a1, North small at e5.
    Diagonal up-right: b2, c3, d4; e5 is an enemy, but a piece that is not on
    top of a stack of two or more cannot capture, so it stops before it.
    The other three diagonals leave the board at once.  perft(1) = 3."""
    text = pos("south 0", "a1=S1 e5=N1")
    assert both_perft(text, 1) == 3
    assert ref_move_texts(text) == fast_move_texts(text) == ["a1:1-b2", "a1:1-c3", "a1:1-d4"]


def test_overloaded_pair():
    """Size 3. South medium pair c3=S2S2, North small at a1 (not on a line).
    Level 1 (medium, 2 pips above >= 2: overloaded): exactly 1 step
      orthogonally: c2, c4, b3, d3                                    = 4
    Level 2 (medium alone, unlimited, orthogonal): c4 c5, c2 c1, b3 a3,
      d3 e3                                                           = 8
    perft(1) = 12."""
    text = pos("south 0", "a1=N1 c3=S2S2")
    assert both_perft(text, 1) == 12


def test_capture_from_two_stack():
    """Size 3. South a1=S3S1 (large, small on top), North medium on c3.
    Level 2 (small alone on a stack of 2, diagonal, unlimited): b2, then c3
      holds an enemy: capture allowed                                = 2
    Level 1 (large with 1 pip above < 3: loaded, at most 2, 8 directions):
      a2 a3, b1 c1, b2 (c3: the unit is two pieces, cannot capture,
      and the line stops)                                            = 5
    perft(1) = 7."""
    text = pos("south 0", "a1=S3S1 c3=N2")
    assert both_perft(text, 1) == 7
    moves = ref_move_texts(text)
    assert "a1:2-c3" in moves and "a1:1-c3" not in moves
    after = ref.apply(ref_position(text), ref.parse_move("a1:2-c3"))
    assert ref.format_position(after) == pos("north 1", "a1=S3 c3=S1", south="N2")
    # Same capture reaching 9 pips (3 x size) ends the game at once.
    text9 = pos("south 0", "a1=S3S1 c3=N2 e5=N3", south="N3N2N1N1")
    win = ref.apply(ref_position(text9), ref.parse_move("a1:2-c3"))
    assert ref.moves(win) == [] and ref.result(win) == "south"
    game = fast_position(text9)
    game.make(next(m for m in game.generate() if game.move_text(m) == "a1:2-c3"))
    assert game.generate() == [] and game.count() == 0
    # perft(2): the capture ends the game (contributes 0); the other moves
    # leave North replies -- only require that both implementations agree.
    both_perft(text9, 2)


def test_blocked_friendly_landing():
    """Size 3. South medium b2=S2, South small b4=S1, North small at e5.
    Medium (alone, orthogonal, unlimited): up b3, then b4 is a friendly
      stack topped by a small (2 > 1): illegal and blocks            = 1
      down b1 = 1, left a2 = 1, right c2 d2 e2 = 3                    -> 6
    Small (alone, diagonal, unlimited): c5; c3 d2 e1; a5; a3          -> 6
    perft(1) = 12.  (The reverse landing, small onto the medium, is legal:
    see the second position.)"""
    text = pos("south 0", "b2=S2 b4=S1 e5=N1")
    assert both_perft(text, 1) == 12
    assert "b2:1-b4" not in ref_move_texts(text)
    # Small on d4 sliding down-left: c3, then b2 friendly medium (1 <= 2):
    # legal landing, stop.  Small d4: c5; e5 is enemy (no capture) stop;
    # e3; c3, b2 -> 4.  Medium b2: b3 b4 b5 | b1 | a2 | c2 d2 e2 -> 8.
    # Total 12.
    text2 = pos("south 0", "b2=S2 d4=S1 e5=N1")
    assert both_perft(text2, 1) == 12
    assert "d4:1-b2" in ref_move_texts(text2)
    after = ref.apply(ref_position(text2), ref.parse_move("d4:1-b2"))
    assert ref.format_position(after) == pos("north 1", "b2=S2S1 e5=N1")


def test_loaded_distance():
    """South a1=S3S2: level 1 large with 2 pips above < 3 is loaded.
    Size 3 (at most 2): a2 a3, b1 c1, b2 c3 = 6; level 2 medium alone:
      a2..a5 = 4, b1..e1 = 4 -> 8.  perft(1) = 14.
    Size 4 (6x6, at most 3): a2 a3 a4, b1 c1 d1, b2 c3 d4 = 9; medium alone
      a2..a6 = 5, b1..f1 = 5 -> 10.  perft(1) = 19.
    Option loaded=1 on size 3: a2, b1, b2 = 3 + 8 = 11."""
    text3 = pos("south 0", "a1=S3S2 e5=N1")
    assert both_perft(text3, 1) == 14
    text4 = pos("south 0", "a1=S3S2 f6=N1")
    assert both_perft(text4, 1, size=4) == 19
    assert both_perft(text3, 1, loaded=1) == 11


def test_swap_move():
    """Size 2 (4x4), pie on by default, ply 1, North to move.
    North small alone on the ground at d4: c3, b2, then a1 is an enemy
    (no capture from the ground) -> 2 moves, plus 'swap' -> perft(1) = 3.
    With pie=false: 2.  After the swap the board is unchanged, North's army
    is to move again at ply 2 (seat 0 now plays north) and swap is gone: 2."""
    text = pos("north 1", "a1=S1 d4=N1")
    assert both_perft(text, 1, size=2) == 3
    assert both_perft(text, 1, size=2, pie=False) == 2
    assert ref_move_texts(text, size=2) == fast_move_texts(text, size=2) == \
        ["d4:1-b2", "d4:1-c3", "swap"]
    after = ref.apply(ref_position(text, size=2), "swap")
    swapped = pos("north 2", "a1=S1 d4=N1", seats="north,south")
    assert ref.format_position(after) == swapped
    assert both_perft(swapped, 1, size=2) == 2
    # Size 3 (5x5) has no pie rule by default: d4 small c3 b2 (a1 enemy),
    # e5, e3, c5 -> 5 and no swap.
    assert both_perft(text, 1) == 5
    # perft(2): after d4-c3 South's a1 small has b2 only (it cannot capture
    # c3 from the ground): 1; after d4-b2 South has no move: 0; after swap
    # North's army moves again: c3, b2 = 2.  Total 3.
    assert both_perft(text, 2, size=2) == 3


def test_no_legal_move_loses():
    """South's only piece, a small on the ground at a1, faces North's b2:
    no legal move (no capture from the ground), so South has lost."""
    text = pos("south 4", "a1=S1 b2=N1 d4=N2")
    assert both_perft(text, 1, size=2) == 0
    assert ref.result(ref_position(text, size=2)) == "north"


def test_win_and_ply_cap_are_terminal():
    """9 captured pips on size 3 ends the game; ply >= ply_cap is a draw."""
    won = pos("north 7", "a1=S3S2S1 e5=N1", south="N3N2N1N3")
    assert both_perft(won, 1) == 0
    assert ref.result(ref_position(won)) == "south"
    capped = pos("south 300", "a1=S3S2S1 e5=N1")
    assert both_perft(capped, 1) == 0
    assert ref.result(ref_position(capped)) == "draw"
    assert both_perft(capped, 1, ply_cap=0) > 0


# ------------------------------------------------------------------ repetition and playouts

def test_repetition_draw():
    """Shuffle two lone pieces back and forth: after two full cycles the start
    position occurs a third time and the game is drawn (both implementations)."""
    text = pos("south 0", "a1=S2 e5=N2")
    seq = ["a1:1-a2", "e5:1-e4", "a2:1-a1", "e4:1-e5"] * 2
    state = ref_position(text)
    game = fast_position(text)
    for i, mv in enumerate(seq):
        assert ref.moves(state), i
        state = ref.apply(state, ref.parse_move(mv))
        m = next(m for m in game.generate() if game.move_text(m) == mv)
        game.make(m)
        game.seen[game.hash] = game.seen.get(game.hash, 0) + 1
    assert ref.moves(state) == [] and ref.result(state) == "draw"
    assert game.seen[game.hash] == 3
    # With the repetition option off the game goes on.
    assert ref.moves(_replay(text, seq, repetition=False))


def _replay(text, seq, **options):
    state = ref_position(text, **options)
    for mv in seq:
        state = ref.apply(state, ref.parse_move(mv))
    return state


@pytest.mark.parametrize("size,narrow", [(2, False), (2, True), (3, False), (4, False), (5, False)])
def test_playouts_agree(size, narrow):
    """Seeded random playouts are the same game in both implementations
    (same move order, same termination: win, no move, ply cap, repetition)."""
    for seed in range(6):
        state = ref.start(size, narrow=narrow)
        rng = random.Random(seed)
        plies = 0
        while True:
            ms = ref.moves(state)
            if not ms:
                break
            state = ref.apply(state, rng.choice(ms))
            plies += 1
        game = fast.Stacktics(size, narrow)
        assert game.playout(seed) == plies
        assert game.board_text() == " | ".join(ref.format_position(state).split(" | ")[:2])
        assert ref.result(state) is not None


def test_move_and_position_text_round_trip():
    state = ref.start(3)
    rng = random.Random(7)
    for _ in range(40):
        ms = ref.moves(state)
        if not ms:
            break
        for m in ms:
            assert ref.parse_move(ref.format_move(m)) == m
        text = ref.format_position(state)
        assert ref.format_position(ref.parse_position(text)) == text
        state = ref.apply(state, rng.choice(ms))


# ------------------------------------------------------------------ (c) perft file

def read_perft_file(path=PERFT_FILE):
    records = []
    with open(path) as fh:
        blocks = fh.read().split("\n\n")
    for block in blocks:
        rec = {"perft": []}
        for line in block.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "perft":
                d, n = value.split()
                rec["perft"].append((int(d), int(n)))
            elif key == "options":
                rec["options"] = dict(kv.split("=") for kv in value.split())
            else:
                rec[key] = value
        if "id" in rec:
            records.append(rec)
    return records


RECORDS = read_perft_file()


def test_perft_file_shape():
    ids = [r["id"] for r in RECORDS]
    assert len(ids) == len(set(ids))
    for size in ("2", "3", "4", "5"):
        assert any(r["position"] == "start" and r["options"] == {"size": size} and
                   max(d for d, _ in r["perft"]) >= 4 for r in RECORDS)
    assert sum(1 for r in RECORDS if r["position"] != "start") >= 4
    for r in RECORDS:
        assert r["ruleset"] == "stacktics"
        if r["position"] != "start":
            kw = ref.options_from_dict(r["options"])
            assert ref.format_position(ref.parse_position(r["position"], **kw)) == r["position"]


def _cases(slow):
    for r in RECORDS:
        for depth, count in r["perft"]:
            if (depth >= 4) == slow:
                yield pytest.param(r, depth, count, id="%s-d%d" % (r["id"], depth))


def _check(rec, depth, count, use_ref=True):
    kw = ref.options_from_dict(rec["options"])
    if rec["position"] == "start":
        state = ref.start(**kw)
        game = fast.Stacktics(**kw)
    else:
        state = ref.parse_position(rec["position"], **kw)
        game = fast.Stacktics(**kw)
        game.set_position(rec["position"])
    assert game.perft(depth) == count
    if use_ref:
        assert ref.perft(state, depth) == count


@pytest.mark.parametrize("rec,depth,count", list(_cases(slow=False)))
def test_perft_file_shallow(rec, depth, count):
    _check(rec, depth, count)


@pytest.mark.skipif(not SLOW, reason="set ZIGGURAT_SLOW=1 for depth >= 4")
@pytest.mark.parametrize("rec,depth,count", list(_cases(slow=True)))
def test_perft_file_deep(rec, depth, count):
    _check(rec, depth, count, use_ref=depth <= 4)
