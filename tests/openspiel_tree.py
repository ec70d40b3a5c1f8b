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
