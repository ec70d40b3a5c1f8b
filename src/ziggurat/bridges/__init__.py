"""Bridges to the frameworks where games are studied with AI: every ruleset as an OpenSpiel game
(`ziggurat.bridges.openspiel.load_game`), as a PettingZoo environment
(`ziggurat.bridges.pettingzoo.env`), and for one learner as a Gymnasium environment
(`ziggurat.bridges.single_agent.single_agent_env`).

All share `actions` (a fixed, numbered action space for a game's moves), `observations` (a
tensor of a position as one player sees it) and `progress` (a state and the move under way in
it). The frameworks are optional extras: `pip install 'ziggurat[openspiel]'` or
`'ziggurat[pettingzoo]'` (which brings gymnasium); `import ziggurat` never needs them.
"""

from __future__ import annotations

import importlib


def need(module: str, extra: str, package: str):
    """`module` imported, or an ImportError that names the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"this bridge needs {package}, which is not installed: "
                          f"pip install 'ziggurat[{extra}]'") from None
