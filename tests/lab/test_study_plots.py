"""Study plots say what their spikes are: in the game-length histogram, draws are their own hatched
series and the peak of each draw reason (a ply cap, a turn limit) is named on the plot."""

import random
from types import SimpleNamespace as Game

from matplotlib.figure import Figure

from ziggurat.lab.report import length_histogram
from ziggurat.lab.study import SIM_CAP_REASON


def study(label, games):
    return {"study": {"label": label, "partial": ""}}, games


def games(rng, n, kind, reason, lo, hi):
    return [Game(plies=rng.randint(lo, hi), kind=kind, reason=reason) for _ in range(n)]


def drawn(summaries, records):
    fig = Figure()
    ax = fig.add_subplot()
    length_histogram(ax, summaries, records)
    notes = {t.get_text(): t.xy for t in ax.texts}
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    return ax, notes, legend


def test_the_cap_spike_is_named_at_its_peak():
    """Games cut at a cap of 400 plies: the note names the reason and the count, and points at 400."""
    rng = random.Random(1)
    won = games(rng, 150, "win", "captured the king", 20, 300)
    capped = [Game(plies=400, kind="draw", reason=SIM_CAP_REASON) for _ in range(37)]
    summary, records = study("chess-ish", won + capped)
    _, notes, legend = drawn([summary], [records])
    assert set(notes) == {f"{SIM_CAP_REASON}: 37 games"}
    x, y = notes[f"{SIM_CAP_REASON}: 37 games"]
    assert abs(x - 400) < 15 and y >= 37
    assert legend == ["chess-ish", f"chess-ish: draw, {SIM_CAP_REASON} (37)"]


def test_each_study_and_draw_reason_is_its_own_series():
    """Two studies, one with two draw reasons: every reason is named once, with its own count."""
    rng = random.Random(2)
    a = games(rng, 50, "win", "goal", 100, 500) + games(rng, 20, "draw", "the turn limit", 550, 560) \
        + games(rng, 5, "draw", "repetition", 200, 300)
    b = games(rng, 60, "lose", "no legal move", 10, 90)
    _, notes, legend = drawn([study("a", a)[0], study("b", b)[0]], [a, b])
    assert set(notes) == {"the turn limit: 20 games", "repetition: 5 games"}
    assert 550 <= notes["the turn limit: 20 games"][0] <= 575
    assert legend == ["a", "a: draw, the turn limit (20)", "a: draw, repetition (5)", "b"]


def test_no_note_without_draws():
    """A study with no draw has one plain series and nothing to name."""
    rng = random.Random(3)
    records = games(rng, 40, "win", "goal", 5, 50)
    ax, notes, legend = drawn([study("plain", records)[0]], [records])
    assert notes == {} and legend == ["plain"]
    assert sum(p.get_height() for p in ax.patches) == 40


def overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_notes_are_clear_of_the_legend_and_of_each_other():
    """Nine studies whose games all end in a draw, their peaks close together (the Chaos variants
    page): once drawn, no note overlaps the legend, another note, or the title."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    rng = random.Random(4)
    summaries, records = [], []
    for k in range(9):
        recs = games(rng, 100, "draw", "nothing more can be placed", 90 + 25 * k, 130 + 25 * k)
        summaries.append(study(f"chaos players={k % 3 + 2} colours={('ten', 'six', 'four')[k // 3]}", recs)[0])
        records.append(recs)
    fig = Figure(figsize=(7, 4 + 0.2 * 18))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    length_histogram(ax, summaries, records)
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    notes = [Text.get_window_extent(t, renderer) for t in ax.texts]  # the words, not their arrows
    legend = ax.get_legend().get_window_extent(renderer)
    title = ax.title.get_window_extent(renderer)
    assert len(notes) == 9
    for i, box in enumerate(notes):
        assert not overlaps(box, legend), f"note {i} under the legend"
        assert not overlaps(box, title), f"note {i} over the title"
        for j in range(i):
            assert not overlaps(box, notes[j]), f"notes {j} and {i} overlap"
