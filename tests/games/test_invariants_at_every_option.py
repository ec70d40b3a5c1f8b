"""Every shipped ruleset's declared invariants hold at its start, at each value of each option
with few values (a boolean or a choice of names), the others at their defaults.

An invariant written for the default options only is a false alarm for a designer who plays a
variant: RGB's "both yellow pieces are on the board or in the bank" counted two yellows with the
Golden Child turned off, where the setup places none.
"""

import pytest

import ziggurat
from ziggurat.dsl.loader import shipped_names
from ziggurat.errors import GameError


def option_values(game):
    """Each value of each option with few values (a boolean or a choice of names)."""
    for option, spec in game.option_specs.items():
        values = (True, False) if spec.kind == "bool" else spec.values if spec.kind == "enum" else ()
        for value in values:
            yield option, value


# By name: the games are loaded in the test, not when the tests are collected (each worker of
# pytest-xdist collects every test, and loading every shipped ruleset there cost each one seconds).
@pytest.mark.parametrize("name", shipped_names())
def test_the_invariants_hold_at_the_start(name):
    game = ziggurat.load(name)
    if not game.invariant_texts:
        pytest.skip(f"{name} declares no invariants")
    failures = {}
    for option, value in option_values(game):
        try:
            variant = ziggurat.load(name, {option: value})
        except GameError:
            continue  # this value does not go with the other defaults
        if broken := variant.new().invariant_failures():
            failures[f"{option}={value}"] = broken
    assert failures == {}
