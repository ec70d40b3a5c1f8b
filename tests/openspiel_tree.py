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
