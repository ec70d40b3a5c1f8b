"""A study's statistics: rates with 95% Wilson score intervals, means with Student's t intervals
(the quantiles from scipy.special), the moves of each action, the ruleset's `statistic`s, and the
summary of a study (plain data, ready for JSON)."""

from __future__ import annotations

import math
from typing import Optional

import ziggurat

from .study import SIM_CAP_REASON, StudySpec, agent_labels

CONFIDENCE = 0.95


def proportion(k: int, n: int) -> dict:
    """k successes in n trials: the rate and its 95% Wilson score interval (without continuity
    correction, as scipy.stats.binomtest's method="wilson"; written out so that a study does not
    import scipy.stats, a second of every run: only the normal quantile comes from scipy.special)."""
    if n == 0:
        return {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None}
    from scipy.special import ndtri

    z = float(ndtri((1 + CONFIDENCE) / 2))
    centre = (k + z * z / 2) / (n + z * z)
    half = z / (n + z * z) * math.sqrt(k * (n - k) / n + z * z / 4)
    # Exactly 0 below no successes and 1 above all of them (rounding left 5.6e-17 above a rate of
    # 0, which a plot's error bars refuse), and never on the wrong side of the rate.
    lo = 0.0 if k == 0 else min(k / n, max(0.0, centre - half))
    hi = 1.0 if k == n else max(k / n, min(1.0, centre + half))
    return {"k": k, "n": n, "rate": k / n, "lo": lo, "hi": hi}


def mean_interval(values: list, rate: bool = False) -> dict:
    """The mean of a sample and its 95% confidence interval: Wilson's for a `rate` (values 0 or 1:
    truths), else Student's t (its quantile from scipy.special), kept within the values seen."""
    import numpy as np

    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "lo": None, "hi": None}
    if rate:
        p = proportion(sum(values), n)
        return {"n": n, "mean": p["rate"], "lo": p["lo"], "hi": p["hi"]}
    x = np.asarray(values, dtype=float)
    mean = float(x.mean())
    if n < 2 or float(x.std(ddof=1)) == 0.0:
        return {"n": n, "mean": mean, "lo": mean, "hi": mean}
    from scipy.special import stdtrit

    half = float(stdtrit(n - 1, (1 + CONFIDENCE) / 2) * x.std(ddof=1) / np.sqrt(n))
    return {"n": n, "mean": mean, "lo": max(mean - half, float(x.min())), "hi": min(mean + half, float(x.max()))}


def action_use(game, records: list) -> list:
    """For each action: moves of it per game (mean, 95% interval) and the share of games that used it."""
    out = []
    for a in game.actions:
        counts = [r.actions.get(a.name, 0) for r in records]
        out.append({"action": a.name, "chance": a.chance, "per_game": mean_interval(counts),
                    "games": proportion(sum(1 for c in counts if c), len(counts))})
    return out


def statistics_of(game, records: list) -> list:
    """The ruleset's `statistic` declarations over the games' last positions: mean and interval."""
    out = []
    for text in game.statistic_texts:
        values = [r.statistics[text] for r in records]
        out.append({"statistic": text, **mean_interval([int(v) for v in values],
                                                       rate=all(isinstance(v, bool) for v in values))})
    return out


def _tally(results: list) -> dict:
    wins = sum(1 for r in results if r == 1)
    losses = sum(1 for r in results if r == 0)
    draws = len(results) - wins - losses
    return {"games": len(results), "wins": wins, "draws": draws, "losses": losses,
            "score": (sum(results) / len(results)) if results else None,
            "win_rate": proportion(wins, len(results))}


def _points(game, values: list) -> dict:
    """{"points": mean and 95% interval} of a game whose results are points (`win P by K`), else {}."""
    return {"points": mean_interval(values)} if getattr(game, "points", None) else {}


def partial_text(done: int, planned: int) -> Optional[str]:
    """'partial: 37 of 200 games' for a study stopped part way, else None."""
    return f"partial: {done} of {planned} games" if done < planned else None


def summarize(spec: StudySpec, records: list, game=None) -> dict:
    """The statistics of a study (plain data, ready for JSON)."""
    import numpy as np

    game = game or ziggurat.load(spec.ruleset, spec.options or None)
    players = len(game.players)
    labels = agent_labels(spec.agents)
    agents = []
    for j, label in enumerate(labels):
        res = [r.results_by_seat[r.seat_agents.index(j)] for r in records]
        points = [r.scores_by_seat[r.seat_agents.index(j)] for r in records if r.scores_by_seat]
        agents.append({"agent": label, **_tally(res), **_points(game, points)})
    seats = [{"seat": s, **_tally([r.results_by_seat[s] for r in records]),
              **_points(game, [r.scores_by_seat[s] for r in records if r.scores_by_seat])} for s in range(players)]
    sides = [{"side": game.players[p], **_tally([r.results_by_side[p] for r in records]),
              **_points(game, [r.scores_by_side[p] for r in records if r.scores_by_side])}
             for p in range(players)]
    first = [r.results_by_seat[r.first_seat] for r in records]
    decisive = [x for x in first if x in (0, 1)] if players == 2 else []
    endings: dict = {}
    for r in records:
        key = (r.kind, r.reason)
        endings[key] = endings.get(key, 0) + 1
    lengths = np.array([r.plies for r in records], dtype=float)
    positions = sum(r.positions for r in records)
    passes = sum(r.passes for r in records)
    return {
        "study": {"label": spec.name, "ruleset": spec.ruleset, "title": game.title,
                  "options": {k: v for k, v in game.options.items()}, "set": dict(spec.options),
                  "agents": list(spec.agents), "games": len(records), "seed": spec.seed,
                  "max_plies": spec.max_plies, "players": list(game.players), "backend": spec.backend,
                  **({"rollout": spec.rollout} if spec.rollout != "whole" else {}),
                  # an interrupted study: fewer games than planned ("partial: 37 of 200 games")
                  "planned_games": spec.games, "partial": partial_text(len(records), spec.games)},
        "agents": agents,
        "seats": seats,
        "sides": sides,
        "first_player": {
            "win_rate": proportion(sum(1 for x in first if x == 1), len(first)),
            "score": (sum(first) / len(first)) if first else None,
            # among decisive two-player games, the share the first player won (0.5: balanced)
            "decisive_share": proportion(sum(1 for x in decisive if x == 1), len(decisive)),
        },
        "endings": [{"kind": k, "reason": why, "games": c, "rate": c / len(records)}
                    for (k, why), c in sorted(endings.items(), key=lambda kv: -kv[1])],
        "draws": proportion(sum(1 for r in records if r.kind == "draw"), len(records)),
        "max_plies_cutoffs": sum(1 for r in records if r.reason == SIM_CAP_REASON),
        "length": {"mean": float(lengths.mean()), "median": float(np.median(lengths)),
                   "std": float(lengths.std(ddof=1)) if len(lengths) > 1 else 0.0,
                   "min": int(lengths.min()), "max": int(lengths.max())},
        "branching": (sum(r.branching for r in records) / positions) if positions else None,
        "passes": {"total": passes, "per_game": passes / len(records),
                   "share_of_moves": passes / positions if positions else 0.0},
        "actions": action_use(game, records),
        "statistics": statistics_of(game, records),
    }
