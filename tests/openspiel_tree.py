"""What the tests that compare a ruleset with an OpenSpiel game share: OpenSpiel's own perft."""

from __future__ import annotations


def os_perft(state, depth: int) -> int:
    """Leaves `depth` plies below an OpenSpiel state (a chance outcome is one ply, as a move is;
    a finished game has none below it)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(os_perft(state.child(a), depth - 1) for a in state.legal_actions())


def walk_together(st, os, os_action, visit, pairs=None) -> None:
    """Walk a Ziggurat state and an OpenSpiel state down the same tree (Ziggurat's moves, mapped
    by os_action), calling visit(st, os) at every node, a finished game included. With `pairs`
    (player -> set), each decision node adds (Ziggurat's, OpenSpiel's) information state of the
    player to move: the two engines tell the same nodes apart when every first item has one
    second item and the other way round."""
    visit(st, os)
    if os.is_terminal():
        return
    if pairs is not None and not os.is_chance_node():
        p = os.current_player()
        pairs[p].add((st.information_state(p), os.information_state_string(p)))
    for m in st.moves():
        child = os.child(os_action(st, m))
        st.push(m)
        walk_together(st, child, os_action, visit, pairs)
        st.pop()


def same_node(st, os, os_action) -> None:
    """The same kind of node in both: at a chance node the same outcomes with the same
    probabilities, at a decision the same player to move with the same legal moves (Ziggurat's
    moves mapped to OpenSpiel's actions by os_action)."""
    import pytest

    assert st.is_chance == os.is_chance_node()
    if os.is_chance_node():
        ours = {os_action(st, m): p for m, p in st.chance_outcomes()}
        assert ours == pytest.approx(dict(os.chance_outcomes()))
    else:
        assert st.mover == os.current_player()
        assert sorted(os_action(st, m) for m in st.moves()) == os.legal_actions()
