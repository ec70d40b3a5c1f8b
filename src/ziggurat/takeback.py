"""Taking back moves in a game that hides something: never past a reveal.

A take-back (`undo` in `ziggurat play`, Undo in `ziggurat serve`) goes back to a person's decision
with everything as it was then, the hidden pieces included. Had the person seen any of those
pieces since (a card drawn from a hidden deck, a public card dealt from it, a hand laid down, or
every hand shown when the game ends), they would decide again knowing what they could not know
then, with the same deal. So in a game with hidden information a take-back may go back only over
moves that showed none of the people a piece hidden from them: a piece that leaves the zones
hidden from a side is a reveal to that side, and a game that is over (shown whole) is one to
every side that had something hidden from it. Dealing a new hand on a take-back was the other
way; it was not chosen, since a person would then go back to a game that is not the one they
left (their own hand could change too).
"""

from __future__ import annotations

from collections import Counter


def hidden_from(state, side: int) -> Counter:
    """The pieces in the zones hidden from `side`, as a multiset."""
    viewers = state.game.zone_viewers
    return Counter(p for i, v in enumerate(viewers) if v is not None and side not in v for p in state.zones[i])


def revealed_since(state, plies: int, sides) -> bool:
    """Whether any of `sides` was shown a piece hidden from it since the position after the first
    `plies` moves of `state.stack` (a take-back to there would then undo a reveal). The state is
    walked back and forth, and left as it was."""
    sides = list(sides)
    if not state.game.has_secrets or not sides or len(state.stack) <= plies:
        return False
    if state.outcome() is not None and any(hidden_from(state, side) for side in sides):
        return True  # a game over is shown whole
    after = [hidden_from(state, side) for side in sides]
    undone, revealed = [], False
    while len(state.stack) > plies and not revealed:
        undone.append(state.pop())
        before = [hidden_from(state, side) for side in sides]
        revealed = any(b - a for b, a in zip(before, after))  # a piece left what was hidden
        after = before
    for move in reversed(undone):
        state.push(move)
    return revealed


REFUSED = ("no take-back past a reveal: since that decision the game has shown what was hidden then "
           "(a card dealt or drawn, a hand laid down, or every hand at the end), so it would be "
           "decided again knowing it")

__all__ = ["hidden_from", "revealed_since", "REFUSED"]
