"""Option values for property tests: a Hypothesis strategy drawn from a game's `option_specs`."""

from __future__ import annotations

from typing import Optional

from hypothesis import strategies as st

# The range drawn from for an `int` option, or a range without known bounds: the default plus or
# minus this.
INT_SPREAD = 5


def options_strategy(game, fixed: Optional[dict] = None) -> st.SearchStrategy:
    """Option overrides drawn from the declared types of `game`'s ruleset (a dict; an option left
    out keeps its default, which may depend on others). Options in `fixed` are not drawn. Some
    drawn combinations may be refused by `load` (a `check` between options, or a range whose
    bounds depend on another option: its bounds are those at `game`'s option values)."""
    fixed = fixed or {}
    parts = {}
    for name, spec in game.option_specs.items():
        if name in fixed:
            continue
        parts[name] = st.one_of(st.none(), option_values(spec, game.options.get(name)))
    return st.fixed_dictionaries(parts).map(lambda d: {k: v for k, v in d.items() if v is not None})


def option_values(spec, default) -> st.SearchStrategy:
    """The values of one option (an `OptionSpec`) whose value in the game is `default`."""
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "enum":
        return st.sampled_from(list(spec.values)) if spec.values else st.just(default)
    if spec.kind == "range" and spec.low is not None and spec.high is not None and spec.low <= spec.high:
        return st.integers(spec.low, spec.high)
    centre = default if isinstance(default, int) and not isinstance(default, bool) else 0
    return st.integers(centre - INT_SPREAD, centre + INT_SPREAD)
