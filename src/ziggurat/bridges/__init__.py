"""Bridges to the frameworks where games are studied with AI: every ruleset as an OpenSpiel game
(`ziggurat.bridges.openspiel.load_game`) and as a PettingZoo environment
(`ziggurat.bridges.pettingzoo.env`).

Both share `actions` (a fixed, numbered action space for a game's moves) and `observations` (a
tensor and the strings of a position as one player sees it). The frameworks are optional extras:
`pip install 'ziggurat[openspiel]'` or `'ziggurat[pettingzoo]'`; `import ziggurat` never needs them.
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
