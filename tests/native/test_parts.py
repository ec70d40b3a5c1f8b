"""Stages taken back by their inverse (native/undo.py), and the rollout policy `parts` (a turn
drawn part by part: native/parts.py, the kernel's `draw_parts`).

The undo is checked differentially (native perft equals Python perft on a small ruleset whose
Stages hold each kind of effect undone in place); the policy by its moves (legal in the Python
backend) and by its distribution: from a position where the first parts lead to different numbers
of whole turns, the first part drawn is uniform over the first parts (a chi-square with a fixed
seed and a generous threshold), while the default stays uniform over whole turns.
"""

import json
import os
from collections import Counter

import pytest
from click.testing import CliRunner
from native_replay import replay

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.interpreter.native.game import source
from ziggurat.interpreter.runtime import perft

numba = pytest.importorskip("numba")

HERE = os.path.dirname(__file__)
STAGES = os.path.join(HERE, "stages.rules")
_compiled: dict = {}


def fast(name: str, options=None):
    from ziggurat.interpreter.native.game import native

    key = (name, tuple(sorted((options or {}).items())))
    if key not in _compiled:
        game = ziggurat.load(name, options or None)
        # No loop now: each compiles at its first call, so that a test compiles only the loops it
        # uses (the part-by-part playout alone is 12 CPU s of stages.rules' 17, cold).
        _compiled[key] = (game, native(game, ()))
    return _compiled[key]


def chi_square(counts: Counter, expected: dict) -> float:
    return sum((counts[k] - e) ** 2 / e for k, e in expected.items())


def legal_text(game) -> str:
    text = source(game)[0]
    return text[text.index("def legal("):text.index("@njit", text.index("def legal("))]


def test_invertible_stages_are_taken_back_without_a_copy():
    assert "copy_state" not in legal_text(ziggurat.load("amazons", {"board_size": 6}))
    assert "copy_state" not in legal_text(ziggurat.load(STAGES))


def test_stages_undone_in_place_list_the_moves_python_lists():
    game, native = fast(STAGES)
    start = game.new()
    for d in range(4):
        assert native.perft(start, d) == perft(start, d), f"depth {d}"
    for seed in range(12):  # and from positions met in playouts, both actions played
        p = native.playout(start, seed, 30)
        state = replay(game, p)
        for cut in (len(state.stack) // 3, 2 * len(state.stack) // 3):
            mid = game.new()
            for m in state.stack[:cut]:
                mid.push(m)
            assert native.perft(mid, 2) == perft(mid, 2), f"seed {seed}, ply {cut}"


def test_a_cell_part_already_drawn_is_not_looked_for_again_over_the_board():
    text = source(ziggurat.load("amazons", {"board_size": 6}))[0]
    parts = text[text.index("def legal_parts("):]
    parts = parts[:parts.index("\n# ----")]
    # once past the queen's part (depth > 0), its loop runs over the drawn cell alone: the queen's
    # cells are the mover's own, whose occupancy bits it walks, and it keeps the drawn cell's bit
    assert "for v_from in range(NC)" not in parts
    lo = next(line.split(" = ")[0].strip() for line in parts.splitlines() if "if depth > 0 else 0" in line)
    assert f"&= (np.uint64(1) << np.uint64({lo} & 63)) if ({lo} >> 6) ==" in parts.split("v_from = ")[0]
    # legal: every cell of the mover's (its occupancy bits), not one drawn cell
    assert "v_from = low_bit(" in legal_text(ziggurat.load("amazons", {"board_size": 6}))


@pytest.mark.parametrize("name, options", [("amazons", {"board_size": 6}), (STAGES, {}),
                                           (os.path.join(HERE, "after.rules"), {"each": True})])
def test_moves_drawn_part_by_part_are_legal_and_games_end_as_python_says(name, options):
    game, native = fast(name, options)
    for seed in range(15):
        p = native.playout(game.new(), seed, 400, parts=True)
        state = replay(game, p)
        outcome = state.outcome()
        assert p.kind is not None and outcome is not None
        assert (outcome.kind, outcome.player, outcome.reason) == (p.kind, p.who, p.reason)


def uneven():
    """Amazons 6x6 after four turns (its start is symmetric: every queen has as many turns; here
    they have 25 to 117)."""
    game, native = fast("amazons", {"board_size": 6})
    state = game.new()
    for m in native.playout(state, 0, 4).moves:
        state.push(m)
    return game, native, state


def first_parts(parts: bool, n: int) -> tuple:
    """(Counter of the first move's first choice over n seeded one-ply playouts, the whole turns
    of each first choice), from `uneven()`."""
    _game, native, start = uneven()
    drawn = Counter(native.playout(start, seed, 1, parts=parts).moves[0][1] for seed in range(n))
    turns = Counter(m[1] for m in start.moves())
    return drawn, turns


def test_the_first_part_is_drawn_uniformly_over_first_parts():
    n = 4000
    drawn, turns = first_parts(True, n)
    assert len(set(turns.values())) > 1  # the queens lead to different numbers of turns
    assert set(drawn) == set(turns)
    assert chi_square(drawn, {q: n / len(turns) for q in turns}) < 25  # 3 degrees of freedom
    # the second part, given the first: uniform over the destinations of that queen
    _game, native, start = uneven()
    queen = min(turns)
    seconds = Counter()
    for seed in range(20000):
        m = native.playout(start, seed, 1, parts=True).moves[0]
        if m[1] == queen:
            seconds[m[2]] += 1
    dests = {m[2] for m in start.moves() if m[1] == queen}
    total = sum(seconds.values())
    assert set(seconds) == dests
    assert chi_square(seconds, {d: total / len(dests) for d in dests}) < 3 * len(dests) + 30


def test_whole_turns_stay_the_default():
    n = 4000
    drawn, turns = first_parts(False, n)
    total = sum(turns.values())
    assert chi_square(drawn, {q: n * k / total for q, k in turns.items()}) < 25
    uniform = chi_square(drawn, {q: n / len(turns) for q in turns})
    assert uniform > 25  # far from uniform over the queens: this is not the parts policy
    game, native = fast("amazons", {"board_size": 6})
    assert native.playout(game.new(), 3, 50).moves == native.playout(game.new(), 3, 50, parts=False).moves


def test_simulate_draws_part_by_part_when_asked_and_only_natively():
    runner = CliRunner()
    r = runner.invoke(cli, ["simulate", "amazons", "--set", "board_size=6", "-n", "20", "--rollout", "parts"])
    assert r.exit_code == 2 and "--backend native" in r.output and "Traceback" not in r.output
    r = runner.invoke(cli, ["simulate", "amazons", "--set", "board_size=6", "-n", "20", "-w", "1",
                            "--backend", "native", "--rollout", "parts", "--json"])
    assert r.exit_code == 0, r.output
    study = json.loads(r.stdout)["studies"][0]["study"]
    assert study["rollout"] == "parts" and study["games"] == 20 and study["backend"] == "native"


def test_mcts_rollouts_can_draw_turns_part_by_part():
    from ziggurat.agents import AgentError, make_agent

    game, _native = fast("amazons", {"board_size": 6})
    state = game.new()
    agent = make_agent("mcts:iterations=60:rollouts=native:rollout_policy=parts", 3)
    assert agent.spec() == "mcts:iterations=60:rollouts=native:rollout_policy=parts"
    assert agent.choose(state) in state.moves()
    assert make_agent("mcts:iterations=60:rollouts=native", 3).spec() == "mcts:iterations=60:rollouts=native"
    with pytest.raises(AgentError, match="rollouts=native"):
        make_agent("mcts:rollout_policy=parts")
    with pytest.raises(AgentError, match="whole or parts"):
        make_agent("mcts:rollouts=native:rollout_policy=sideways")


def test_whole_turn_loops_never_compile_the_parts_code(tmp_path, monkeypatch):
    """The loops of whole turns leave `legal_parts` out (Numba drops the branch where `parts` is
    None); the policy compiles it at its first use. A module of its own (a file name no other test
    uses), so that no other test has asked it for parts before, in a cache folder of its own, so
    that no earlier run has either (its loop asked for parts, kept in the cache, would be loaded)."""
    from ziggurat.interpreter.native.game import native

    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "whole-turns-only.rules"
    with open(STAGES, encoding="utf-8") as f:
        rules.write_text(f.read(), encoding="utf-8")
    game = ziggurat.load(str(rules))
    ng = native(game)  # perft, playouts and playout
    ng.playout(game.new(), 1, 20)
    ng.playouts(game.new(), 3, 1, 20)
    ng.study_chunk(ng.start(game.new())[0], [1, 2], 20)
    assert ng.module.legal.signatures and not ng.module.legal_parts.signatures
    assert ng.playout(game.new(), 1, 20, parts=False).moves == ng.playout(game.new(), 1, 20).moves
    assert not ng.module.legal_parts.signatures  # False is whole turns too, compiled as None is
    replay(game, ng.playout(game.new(), 1, 20, parts=True))
    assert ng.module.legal_parts.signatures
