"""A study's workers report a ruleset's mistake as the mistake, not as workers that died."""

from __future__ import annotations

import pickle

import pytest

import ziggurat
from ziggurat.lab.runner import run_batches

BROKEN = ("players a\nboard:\n    files: 2\n    ranks: 2\npiece:\n    owner: players\n"
          "action m:\n    c: cells where hieght(c) == 0\n    do:\n        place(piece(mover), c)\n")


def load_broken(_batch):
    """What a worker does when the ruleset it was given has gone bad (edited during the study)."""
    return ziggurat.load("broken.rules", text=BROKEN)


def test_a_ruleset_error_survives_pickling():
    with pytest.raises(ziggurat.RulesetError) as caught:
        load_broken(None)
    back = pickle.loads(pickle.dumps(caught.value))
    assert type(back) is ziggurat.RulesetError and back.diagnostics == caught.value.diagnostics
    assert str(back) == str(caught.value)


def test_a_workers_ruleset_error_reaches_the_parent_as_itself():
    """Unpicklable, it broke the pool, and the study said 'a worker process died 4 times'."""
    with pytest.raises(ziggurat.RulesetError, match="unknown function 'hieght'"):
        run_batches(load_broken, [1, 2, 3], workers=2)
