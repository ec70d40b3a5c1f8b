"""A study's results for people: the plots (results by agent and seat, game lengths with the draws
named at their peaks) and the Markdown report page, from the summaries stats.summarize makes;
and one CSV row per game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..outputs import atomic_open
from .stats import CONFIDENCE, partial_text
from .study import StudySpec


def plot(summaries: list, records_by_study: list, folder: Path) -> list:
    """PNG and SVG plots of the game lengths and of the result rates with CIs; the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []

    series = sum(1 + len({r.reason for r in recs if r.kind == "draw"}) for recs in records_by_study)
    fig, ax = plt.subplots(figsize=(7, 4 + 0.2 * series))  # room below for the legend, a line a series
    length_histogram(ax, summaries, records_by_study)
    fig.tight_layout()
    written += _save(fig, folder / "lengths")
    plt.close(fig)

    rows = []  # (label, proportion)
    for s in summaries:
        tag = s["study"]["label"] + ": " if len(summaries) > 1 else ""
        rows.append((tag + "first player", s["first_player"]["win_rate"]))
        for a in s["agents"]:
            rows.append((tag + a["agent"], a["win_rate"]))
        rows.append((tag + "draw", s["draws"]))
    rows = [(label, p) for label, p in rows if p["rate"] is not None]
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.4 * len(rows)))
    ys = list(range(len(rows)))[::-1]
    rates = [p["rate"] for _, p in rows]
    errs = [[p["rate"] - p["lo"] for _, p in rows], [p["hi"] - p["rate"] for _, p in rows]]
    ax.barh(ys, rates, xerr=errs, capsize=3, color="#6a8caf")
    ax.set_yticks(ys, [label for label, _ in rows], fontsize="small")
    ax.axvline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"win rate ({int(CONFIDENCE * 100)}% Wilson interval)")
    ax.set_title("Results" + _partial_note(summaries))
    fig.tight_layout()
    written += _save(fig, folder / "results")
    plt.close(fig)
    return written


def length_histogram(ax, summaries: list, records_by_study: list) -> None:
    """The game lengths of each study, its draws stacked on its other games and hatched, one bar
    series per draw reason; the peak of each draw reason is named on the plot ("max plies
    (simulator): 269 games"), so a spike at a ply cap or a turn limit says what it is."""
    top = max((r.plies for recs in records_by_study for r in recs), default=1)
    bins = list(range(0, top + 2, max(1, (top + 1) // 40 or 1)))
    peaks = []  # (x, height, text, colour)
    for i, (s, recs) in enumerate(zip(summaries, records_by_study)):
        label, colour = s["study"]["label"], f"C{i}"
        reasons = Counter(r.reason for r in recs if r.kind == "draw")
        groups = [[r.plies for r in recs if r.kind != "draw"]]
        names = [label]
        for reason, n in reasons.most_common():
            groups.append([r.plies for r in recs if r.kind == "draw" and r.reason == reason])
            names.append(f"{label}: draw, {reason} ({n})")
        counts, _, containers = ax.hist(groups, bins=bins, alpha=0.5, stacked=True, color=[colour] * len(groups),
                                        label=names)
        containers = containers if len(groups) > 1 else [containers]
        counts = counts if len(groups) > 1 else [counts]
        for j, container in enumerate(containers[1:], 1):
            for patch in container:
                patch.set_hatch("///")
            drawn = counts[j] - counts[j - 1]  # stacked: each series' counts are cumulative
            k = max(range(len(drawn)), key=lambda b: drawn[b])
            reason, n = reasons.most_common()[j - 1]
            peaks.append(((bins[k] + bins[k + 1]) / 2, counts[j][k], f"{reason}: {n} games", colour))
    ax.set_xlabel("game length (plies)")
    ax.set_ylabel("games")
    ax.set_title("Game length" + _partial_note(summaries))
    # The legend sits below the axes, outside them, so that no bar and no note is under it.
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.15), frameon=False)
    # Each note has a row of its own above the tallest bar (the first the lowest), so that two notes
    # never share a line, whatever their peaks.
    _, y_top = ax.get_ylim()
    row = 0.09 * y_top
    for k, (x, height, text, colour) in enumerate(peaks):
        ax.annotate(text, xy=(x, height), xytext=(x, y_top + row * (k + 0.5)), ha="center", va="bottom",
                    fontsize="small", color=colour, arrowprops={"arrowstyle": "->", "color": colour})
    if peaks:
        ax.set_ylim(0, y_top + row * (len(peaks) + 0.8))


def _partial_note(summaries: list) -> str:
    notes = [s["study"]["partial"] for s in summaries if s["study"].get("partial")]
    return f" ({'; '.join(notes)})" if notes else ""


def _save(fig, stem: Path) -> list:
    out = []
    for ext in ("png", "svg"):
        path = stem.with_suffix("." + ext)
        with atomic_open(path, "wb") as f:  # whole or not at all
            fig.savefig(f, format=ext, dpi=120, metadata={"Date": None} if ext == "svg" else None,
                        bbox_inches="tight")  # the legend below the axes too, no margin beyond it
        out.append(path)
    return out


# ---- one row per game (CSV) -----------------------------------------------------------------------


CSV_FIELDS = ["study", "index", "seed", "agents_by_seat", "first_seat", "results_by_seat", "results_by_side",
              "scores_by_seat", "kind", "reason", "plies", "branching", "positions", "passes"]


def csv_rows(spec: StudySpec, records: list) -> list:
    """One flat row per game (lists joined with ';')."""
    rows = []
    for r in records:
        rows.append({
            "study": spec.name, "index": r.index, "seed": r.seed,
            "agents_by_seat": ";".join(spec.agents[j] for j in r.seat_agents),
            "first_seat": r.first_seat,
            "results_by_seat": ";".join(f"{x:g}" for x in r.results_by_seat),
            "results_by_side": ";".join(f"{x:g}" for x in r.results_by_side),
            "scores_by_seat": ";".join(f"{x:g}" for x in r.scores_by_seat),
            "kind": r.kind, "reason": r.reason, "plies": r.plies,
            "branching": r.branching, "positions": r.positions, "passes": r.passes,
        })
    return rows


# ---- a markdown report -----------------------------------------------------------------------------


def pct(p: dict) -> str:
    if p["rate"] is None:
        return "-"
    return f"{100 * p['rate']:.1f}% [{100 * p['lo']:.1f}, {100 * p['hi']:.1f}]"


def mean_text(m: dict) -> str:
    if m["mean"] is None:
        return "-"
    return f"{m['mean']:.2f} [{m['lo']:.2f}, {m['hi']:.2f}]"


def report_markdown(summaries: list, command: str, plots: list = (), title: str = "", unplayed: list = ()) -> str:
    """A study page: how to regenerate it, what was played, and the comparison table. `unplayed`:
    (label, planned games) of the studies of an interrupted command that finished no game (they
    have no column, and the page says so)."""
    lines = [f"# {title or 'Study: ' + ', '.join(s['study']['label'] for s in summaries)}", ""]
    for s in summaries:
        if s["study"].get("partial"):
            lines += [f"**{s['study']['label']}: {s['study']['partial']}** (the study was interrupted; "
                      "`--resume` goes on with it).", ""]
    for label, planned in unplayed:
        lines += [f"**{label}: {partial_text(0, planned)}** (the study was interrupted before any of its games "
                  "finished, so it has no column below; `--resume` goes on with it).", ""]
    lines += ["Generated by:", "", "```", command, "```", ""]
    s0 = summaries[0]["study"]
    lines += [f"Agents: {', '.join(s0['agents'])} (seats rotate every game); seed {s0['seed']}; "
              f"games end at the ruleset's own end or at {s0['max_plies']} plies. "
              f"Rates are given with their {int(CONFIDENCE * 100)}% Wilson confidence interval.", ""]
    for text in dict.fromkeys(t for s in summaries for t in s["study"].get("notes", ())):
        lines += [f"Note: {text}.", ""]
    lines += comparison_markdown(summaries)
    for p in plots:
        if str(p).endswith(".svg"):
            lines += ["", f"![{Path(p).stem}]({p})"]
    return "\n".join(lines) + "\n"


def comparison_rows(summaries: list) -> list:
    """(metric, [text per study]) rows for a side-by-side table."""
    rows = [("games", [str(s["study"]["games"]) for s in summaries]),
            ("first player wins", [pct(s["first_player"]["win_rate"]) for s in summaries]),
            ("first player, decisive games", [pct(s["first_player"]["decisive_share"]) for s in summaries]),
            ("draws", [pct(s["draws"]) for s in summaries])]
    labels = []
    for s in summaries:
        for a in s["agents"]:
            if a["agent"] not in labels:
                labels.append(a["agent"])
    for label in labels:
        rows.append((f"{label} wins", [next((pct(a["win_rate"]) for a in s["agents"] if a["agent"] == label), "-")
                                       for s in summaries]))
    for label in labels:  # results in points: the mean points of each agent
        cells = [next((mean_text(a["points"]) for a in s["agents"] if a["agent"] == label and "points" in a), "-")
                 for s in summaries]
        if any(c != "-" for c in cells):
            rows.append((f"{label} points", cells))
    if max(len(s["seats"]) for s in summaries) > 2:  # with two, the first player's row says it
        for k in range(max(len(s["seats"]) for s in summaries)):
            rows.append((f"seat {k + 1} wins", [pct(s["seats"][k]["win_rate"]) if k < len(s["seats"]) else "-"
                                                for s in summaries]))
    rows += [("length mean / median", [f"{s['length']['mean']:.1f} / {s['length']['median']:g}" for s in summaries]),
             ("length std, min-max", [f"{s['length']['std']:.1f}, {s['length']['min']}-{s['length']['max']}"
                                      for s in summaries]),
             ("branching", [f"{s['branching']:.1f}" if s["branching"] is not None else "-" for s in summaries]),
             ("passes per game", [f"{s['passes']['per_game']:.2f}" for s in summaries]),
             ("endings", [endings_text(s["endings"]) for s in summaries])]
    for name in dict.fromkeys(a["action"] for s in summaries for a in s.get("actions", ()) if a["games"]["k"]):
        rows.append((f"{name} per game", [next((mean_text(a["per_game"]) for a in s["actions"] if a["action"] == name),
                                               "-") for s in summaries]))
    for text in dict.fromkeys(st["statistic"] for s in summaries for st in s.get("statistics", ())):
        rows.append((text, [next((mean_text(st) for st in s["statistics"] if st["statistic"] == text), "-")
                            for s in summaries]))
    return rows


def endings_text(endings: list) -> str:
    """The endings of a study on one line, one entry a reason: a reason that ended games with
    different results (some won, some drawn) is one entry with its results beside it
    ("a player has captured every colour 200 (win 198, draw 2)"), not the same words twice."""
    kinds: dict = {}
    for e in endings:
        kinds.setdefault(e["reason"], []).append((e["kind"], e["games"]))
    parts = []
    for reason, by_kind in kinds.items():
        total = sum(games for _, games in by_kind)
        split = f" ({', '.join(f'{kind} {games}' for kind, games in by_kind)})" if len(by_kind) > 1 else ""
        parts.append(f"{reason} {total}{split}")
    return "; ".join(parts)


def comparison_markdown(summaries: list) -> list:
    head = ["", *[s["study"]["label"] for s in summaries]]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for metric, cells in comparison_rows(summaries):
        out.append("| " + " | ".join([metric, *cells]) + " |")
    return out
