"""A study's statistics: rates with 95% Wilson score intervals, means with Student's t intervals
(the quantiles from scipy.special), the moves of each action, the ruleset's `statistic`s, and the
summary of a study (plain data, ready for JSON)."""

from __future__ import annotations

import math
from typing import Optional

import ziggurat

import numpy as np

from .study import SIM_CAP_REASON, StudySpec, agent_labels
from .table import GameTable

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


def action_use(game, table: GameTable) -> list:
    """For each action: moves of it per game (mean, 95% interval) and the share of games that used it."""
    out = []
    for a in game.actions:
        counts = table.action_counts(a.name)
        out.append({"action": a.name, "chance": a.chance, "per_game": mean_interval(counts),
                    "games": proportion(int((counts > 0).sum()), len(counts))})
    return out


def statistics_of(game, table: GameTable) -> list:
    """The ruleset's `statistic` declarations over the games' last positions: mean and interval."""
    out = []
    for text in game.statistic_texts:
        values = [s[text] for s in table.statistics or ()]
        out.append({"statistic": text, **mean_interval([int(v) for v in values],
                                                       rate=all(isinstance(v, bool) for v in values))})
    return out


def _tally(results) -> dict:
    """Wins (1), losses (0) and draws (a share) of an array of results."""
    results = np.asarray(results, dtype=float)
    n = len(results)
    wins, losses = int((results == 1).sum()), int((results == 0).sum())
    return {"games": n, "wins": wins, "draws": n - wins - losses, "losses": losses,
            "score": float(results.sum()) / n if n else None, "win_rate": proportion(wins, n)}


def _points(game, values: list) -> dict:
    """{"points": mean and 95% interval} of a game whose results are points (`win P by K`), else {}."""
    return {"points": mean_interval(values)} if getattr(game, "points", None) else {}


def partial_text(done: int, planned: int) -> Optional[str]:
    """'partial: 37 of 200 games' for a study stopped part way, else None."""
    return f"partial: {done} of {planned} games" if done < planned else None


def summarize(spec: StudySpec, records, game=None) -> dict:
    """The statistics of a study (plain data, ready for JSON), from its table of games (or a list
    of its records), column by column."""
    game = game or ziggurat.load(spec.ruleset, spec.options or None)
    players = len(game.players)
    table = records if isinstance(records, GameTable) else GameTable.of_records(records, players)
    n = len(table)
    rows = np.arange(n)
    by_seat, by_side = table.results_by_seat, table.results_by_side
    scores_seat, scores_side = table.scores_by_seat, table.scores_by_side
    labels = agent_labels(spec.agents)
    agents = []
    for j, label in enumerate(labels):
        seat = table.agent_seat(j)
        points = scores_seat[rows, seat] if scores_seat is not None else []
        agents.append({"agent": label, **_tally(by_seat[rows, seat]), **_points(game, points)})
    seats = [{"seat": s, **_tally(by_seat[:, s]),
              **_points(game, scores_seat[:, s] if scores_seat is not None else [])} for s in range(players)]
    sides = [{"side": game.players[p], **_tally(by_side[:, p]),
              **_points(game, scores_side[:, p] if scores_side is not None else [])} for p in range(players)]
    first = by_seat[rows, table.first_seat]
    decisive = first[(first == 0) | (first == 1)] if players == 2 else first[:0]
    counts = np.bincount(table.ending, minlength=len(table.endings))
    firsts = [int(np.argmax(table.ending == e)) for e in range(len(table.endings))]
    order = sorted((e for e in range(len(table.endings)) if counts[e]), key=lambda e: (-counts[e], firsts[e]))
    kinds, reasons = [k for k, _ in table.endings], [r for _, r in table.endings]
    lengths = table.plies.astype(float)
    positions = int(table.positions.sum())
    passes = int(table.passes.sum())
    draws = sum(int(counts[e]) for e in range(len(kinds)) if kinds[e] == "draw")
    cut = sum(int(counts[e]) for e in range(len(reasons)) if reasons[e] == SIM_CAP_REASON)
    return {
        "study": {"label": spec.name, "ruleset": spec.ruleset, "title": game.title,
                  "options": {k: v for k, v in game.options.items()}, "set": dict(spec.options),
                  "agents": list(spec.agents), "games": n, "seed": spec.seed,
                  "max_plies": spec.max_plies, "players": list(game.players), "backend": spec.backend,
                  **({"rollout": spec.rollout} if spec.rollout != "whole" else {}),
                  # an interrupted study: fewer games than planned ("partial: 37 of 200 games")
                  "planned_games": spec.games, "partial": partial_text(len(records), spec.games)},
        "agents": agents,
        "seats": seats,
        "sides": sides,
        "first_player": {
            "win_rate": proportion(int((first == 1).sum()), n),
            "score": float(first.sum()) / n if n else None,
            # among decisive two-player games, the share the first player won (0.5: balanced)
            "decisive_share": proportion(int((decisive == 1).sum()), len(decisive)),
        },
        "endings": [{"kind": kinds[e], "reason": reasons[e], "games": int(counts[e]), "rate": int(counts[e]) / n}
                    for e in order],
        "draws": proportion(draws, n),
        "max_plies_cutoffs": cut,
        "length": {"mean": float(lengths.mean()), "median": float(np.median(lengths)),
                   "std": float(lengths.std(ddof=1)) if len(lengths) > 1 else 0.0,
                   "min": int(lengths.min()), "max": int(lengths.max())},
        "branching": (int(table.branching.sum()) / positions) if positions else None,
        "passes": {"total": passes, "per_game": passes / n,
                   "share_of_moves": passes / positions if positions else 0.0},
        "actions": action_use(game, table),
        "statistics": statistics_of(game, table),
    }
