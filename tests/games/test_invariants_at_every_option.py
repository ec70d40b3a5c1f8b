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


def cases():
    for name in shipped_names():
        game = ziggurat.load(name)
        if not game.invariant_texts:
            continue
        for option, spec in game.option_specs.items():
            values = (True, False) if spec.kind == "bool" else spec.values if spec.kind == "enum" else ()
            for value in values:
                yield pytest.param(name, option, value, id=f"{name}-{option}={value}")


@pytest.mark.parametrize("name, option, value", list(cases()))
def test_the_invariants_hold_at_the_start(name, option, value):
    try:
        game = ziggurat.load(name, {option: value})
    except GameError:
        pytest.skip(f"{option}={value} does not go with the other defaults")
    assert game.new().invariant_failures() == []
