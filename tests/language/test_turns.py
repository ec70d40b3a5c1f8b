"""Moves out of turn: with `turn_to(p)`, a response window written in the rules (a player zaps
another; the victim answers at once, spending a shield to deny it or taking the hit; then play
goes on after the zapper, as the table `after` says; and a counter-spell window in turn order);
and the same with a declared window (`ask`, `answer`, `pass_on`, `close`)."""

from __future__ import annotations

import pytest

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.interpreter.runtime import perft

ZAP = """\
players a, b, c
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter shields per player = 1
counter hits per player = 0
counter targeted per player = 0
counter zapping per player = 0
counter zaps = 0
table after:
    a: b
    b: c
    c: a
def window(): sum(targeted[p] for p in players) > 0
action zap "zap {victim}":
    when not window()
    victim: players where victim != mover
    do:
        targeted[victim] = 1
        zapping[mover] = 1
        zaps += 1
        turn_to(victim)
action deny "deny":
    when targeted[mover] == 1 and shields[mover] > 0
    do:
        shields[mover] -= 1
        close(mover)
action take "take":
    when targeted[mover] == 1
    do:
        hits[mover] += 1
        close(mover)
end:
    if zaps >= 6 and not window():
        draw "six zaps"
"""
# `close` is written out in each action (defs are expressions, not statements).
CLOSE = """\
        targeted[mover] = 0
        for p in players:
            if zapping[p] == 1:
                zapping[p] = 0
                turn_to(after[p])
"""


def game(tmp_path):
    text = ZAP.replace("        close(mover)\n", CLOSE)
    path = tmp_path / "zap.rules"
    path.write_text(text)
    assert [d.render() for d in check(str(path)) if d.severity == "error"] == []
    return ziggurat.load(str(path))


def test_the_victim_answers_out_of_turn_and_play_goes_on_after_the_zapper(tmp_path):
    st = game(tmp_path).new()
    st.play("zap c")
    assert st.mover_name == "c"
    assert sorted(st.move_text(m) for m in st.moves()) == ["deny", "take"]
    st.play("deny")
    assert st.mover_name == "b"  # after a, not after c
    st.play("zap c")
    assert st.mover_name == "c" and [st.move_text(m) for m in st.moves()] == ["take"]  # no shield left
    st.play("take")
    assert st.mover_name == "c"  # after b: c's own turn now
    assert sorted(st.move_text(m) for m in st.moves()) == ["zap a", "zap b"]


def test_undo_gives_the_turn_back(tmp_path):
    st = game(tmp_path).new()
    before = st.text()
    st.play("zap b")
    st.play("take")
    st.pop()
    assert st.mover_name == "b"
    st.pop()
    assert st.text() == before and st.mover_name == "a"


def test_perft_counts_the_answers_as_plies(tmp_path):
    """By hand. Ply 1: a zaps b or c (2). Ply 2: deny or take (4). Ply 3: the turn is b's (after
    a), who zaps a or c (8). Ply 4: two answers, except where c denied a's zap and b zaps c again:
    c has no shield left, only take (7 * 2 + 1 = 15). Ply 5: the turn is c's (after b), who zaps a
    or b in each (30)."""
    assert [perft(game(tmp_path).new(), d) for d in range(1, 6)] == [2, 4, 8, 15, 30]


def test_turn_to_is_for_moves(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(ZAP.replace("        close(mover)\n", CLOSE) + "setup:\n    turn_to(b)\n")
    errors = [d for d in check(str(path)) if d.severity == "error"]
    assert len(errors) == 1 and "turn_to() is for moves" in errors[0].message


# Three or four players with one counter each and a score (the two counter-spell games below).
TABLE = """\
option players: 2..4 = 3
players a, b, c, d
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter counters per player = 1
counter score per player = 0
"""

# A window in turn order, as in a "counter-spell" game: after a cast, every other player in turn
# order may counter it (once a game, with its one counter) or pass; the first counter cancels the
# spell, and when all have passed it resolves. Then the player after the caster moves.
COUNTER = TABLE + """\
counter asking = 0                 # the seat asked now; 0: no window open
counter caster = 0
counter casts = 0
def seat(p): sum(i for i in 1..count(players) where players[i] == p)
def after(i): i % count(players) + 1
action cast "cast":
    when asking == 0
    do:
        caster = seat(mover)
        casts += 1
        asking = after(caster)
        turn_to(players[asking])
action counter "counter":
    when asking != 0 and counters[mover] > 0
    do:
        counters[mover] -= 1
        asking = 0
        turn_to(players[after(caster)])
action pass "pass":
    when asking != 0
    do:
        if after(asking) == caster:
            score[players[caster]] += 1
            asking = 0
            turn_to(players[after(caster)])
        else:
            asking = after(asking)
            turn_to(players[asking])
end:
    if casts >= 4 and asking == 0:
        draw "four casts"
"""


def counter_game(tmp_path, players=3, text=COUNTER):
    path = tmp_path / "counter.rules"
    path.write_text(text)
    assert [d.render() for d in check(str(path)) if d.severity == "error"] == []
    return ziggurat.load(str(path), {"players": players})


def test_a_window_asks_every_other_player_in_turn_order(tmp_path):
    st = counter_game(tmp_path, 4).new()
    st.play("cast")
    asked = []
    while st.ply < 4:
        asked.append(st.mover_name)
        st.play("pass")
    assert asked == ["b", "c", "d"] and st.mover_name == "b"
    assert "score.a=1" in st.text()


def test_the_first_counter_closes_the_window(tmp_path):
    st = counter_game(tmp_path, 4).new()
    st.play("cast")
    st.play("pass")
    st.play("counter")  # c
    assert st.mover_name == "b" and "score.a=0" in st.text() and "counters.c=0" in st.text()
    st.play("cast")
    assert st.mover_name == "c" and sorted(st.move_text(m) for m in st.moves()) == ["pass"]


def test_window_perft_counted_by_hand(tmp_path):
    """Three players. 1: a casts. 2: b counters or passes. 3: after b's counter, b casts; after
    b's pass, c counters or passes (3). 4: b-counter, b-cast, then c counters or passes (2); after
    c's counter, b casts (1); after all passed, b casts (1): 4. 5: c-counter cancels b, c casts
    (1); c-pass asks a, who counters or passes (2); c has spent its counter, so after the branch
    pass-counter-cast c can only pass (1); after pass-pass-cast, c counters or passes (2): 6."""
    assert [perft(counter_game(tmp_path).new(), d) for d in range(1, 6)] == [1, 2, 3, 4, 6]


# The same kind of game with a declared window: `ask(LIST)` opens it, `answer` actions are the
# only ones offered meanwhile (to the player asked), `pass_on()` asks the next, `close()` ends it;
# then the caster moves again, to resolve or fizzle its spell.
SPELL = TABLE + """\
counter casting = 0
counter casts = 0
def seat(p): sum(i for i in 1..count(players) where players[i] == p)
def later(p): list(players[(seat(p) + k - 1) % count(players) + 1] for k in 1..count(players) - 1)
action cast "cast":
    when casting == 0
    do:
        casting = 1
        casts += 1
        ask(later(mover))
action resolve "resolve":
    when casting == 1
    do:
        score[mover] += 1
        casting = 0
action fizzle "fizzle":
    when casting == 2
    do:
        casting = 0
action counter "counter":
    answer
    when counters[mover] > 0
    do:
        counters[mover] -= 1
        casting = 2
        close()
action pass "pass":
    answer
    do:
        pass_on()
end:
    if casts >= 4 and casting == 0:
        draw "four casts"
"""


def spell_game(tmp_path, players=3):
    return counter_game(tmp_path, players, SPELL)


def test_a_declared_window_asks_in_order_and_gives_the_turn_back(tmp_path):
    st = spell_game(tmp_path, 4).new()
    st.play("cast")
    asked = []
    while st.mover_name != "a":
        asked.append(st.mover_name)
        assert sorted(st.move_text(m) for m in st.moves()) == ["counter", "pass"]
        st.play("pass")
    assert asked == ["b", "c", "d"] and [st.move_text(m) for m in st.moves()] == ["resolve"]
    st.play("resolve")
    assert st.mover_name == "b" and "score.a=1" in st.text() and "asker=0" in st.text()


def test_close_ends_the_window_at_the_first_answer(tmp_path):
    st = spell_game(tmp_path, 4).new()
    st.play("cast")
    st.play("pass")
    st.play("counter")  # c
    assert st.mover_name == "a" and [st.move_text(m) for m in st.moves()] == ["fizzle"]
    assert "asked.d=0" in st.text()  # d was never asked


def test_only_answers_while_a_window_is_open_and_none_after(tmp_path):
    from ziggurat.errors import GameError
    st = spell_game(tmp_path).new()
    with pytest.raises(GameError, match="there is nothing to answer now"):
        st.play("pass")
    st.play("cast")
    with pytest.raises(GameError, match="the window must close first"):
        st.play("resolve")


def test_declared_window_perft_counted_by_hand(tmp_path):
    """Three players. 1: a casts. 2: b counters or passes. 3: after b's counter, a fizzles; after
    b's pass, c counters or passes (3). 4: fizzle, then b casts; after c's counter a fizzles;
    after both passed a resolves (3). 5: after b's cast, c counters or passes (2); b casts after
    the others (1 + 1): 4. 6: c's counter, b fizzles (1); c's pass asks a, who counters or passes
    (2); c spent its counter, so after the branch pass-counter it can only pass (1); after
    pass-pass-resolve-cast, c counters or passes (2): 6."""
    assert [perft(spell_game(tmp_path).new(), d) for d in range(1, 7)] == [1, 2, 3, 3, 4, 6]


def test_window_mistakes_are_named(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(SPELL.replace("        ask(later(mover))", "        ask(mover, 1)"))
    assert any("ask() takes one argument" in d.message for d in check(str(path)))
    path.write_text(SPELL.replace("counter casts = 0", "counter casts = 0\ncounter asker = 0"))
    assert any("'asker' is kept by the response windows" in d.message for d in check(str(path)))


def test_an_answer_that_opens_a_window_is_named_at_the_call(tmp_path):
    """One window at a time: a counter that would ask the others in turn is refused at its ask()."""
    path = tmp_path / "bad.rules"
    path.write_text(SPELL.replace("        casting = 2\n        close()", "        casting = 2\n        ask(later(mover))"))
    found = [d for d in check(str(path)) if "an answer cannot open a window" in d.message]
    assert found and found[0].line == SPELL.splitlines().index("        close()") + 1


def test_answer_in_the_after_block_is_named(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(SPELL + "\nafter:\n    answer\n")
    assert any("the after block is not one" in d.message for d in check(str(path)))
    path.write_text("after:\n    answer\n")  # no action at all: the window has nothing to rewrite
    messages = [d.message for d in check(str(path))]
    assert any("declares no action" in m for m in messages) and any("after block is not one" in m for m in messages)
