"""`ziggurat test`: property-test a ruleset with Hypothesis.

Hypothesis draws option values from the ruleset's declared option types (and the seed of a random
setup, unless an option named `seed` chooses it), then plays a random game from the start, one
drawn index into `state.moves()` per ply. At every position reached the
engine's own properties and the ruleset's declared invariants are checked:

- *moves apply*: every generated move can be pushed, the list has no duplicates, the move played
  is in `state.legal_moves` and `explain` calls it legal;
- *undo*: `pop` restores cells, zones, counters, side, ply, seats, the legal moves and the position
  text exactly, after each move and after taking back the whole game;
- *move notation*: every legal move prints differently and `parse_move(move_text(m)) == m`;
- *position notation*: `game.position(state.text())` prints the same text and has the same legal
  moves;
- *perft*: `perft(1)` of the re-read position counts the legal moves;
- *conservation*: the multiset of pieces over cells and zones never changes (in a game that
  places pieces during play, no piece is ever lost);
- *a finished game has an outcome*: no legal moves means an outcome;
- every declared `invariant` of the ruleset, and every declared `symmetry` that applies at the
  game's options (proptest.symmetry: the mapped position has the mapped moves and outcome).

Hypothesis shrinks a failing game (the drawn options and indices) to a small one, checking only
the failing property while it shrinks; the failure gives the property, the options, the moves of
the shrunk game in notation and the position where it failed. After a failure the search runs
again without that property, so one report can name several independent failures.

The package, by what each part does:

- `report`: a failure and a report (`PropertyFailure`, `PropertyReport`), as the caller sees them;
- `options`: the Hypothesis strategy drawing option values (`options_strategy`);
- `checks`: one random game under test and the properties checked at each of its positions;
- `search`: `run_properties` and the two Hypothesis runs that find a failure and shrink it.
"""

from __future__ import annotations

from .checks import PROPERTIES
from .options import options_strategy
from .report import PropertyFailure, PropertyReport, invariant_property
from .search import run_properties

__all__ = ["PROPERTIES", "PropertyFailure", "PropertyReport", "invariant_property", "options_strategy",
           "run_properties"]
