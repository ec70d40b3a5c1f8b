"""A game's spec (interpreter/spec.py): made whole by the compiler, never changed after, and read
back from its JSON (the cache's manifest) equal to what was written."""

import json

import attrs
import pytest

import ziggurat
from ziggurat.dsl import types as T
from ziggurat.dsl.loader import load_model, shipped_names
from ziggurat.interpreter import cache, games
from ziggurat.interpreter.compile import compile_model
from ziggurat.interpreter.spec import PRESENT, ActionSpec, GameSpec

SHIPPED = shipped_names()


def compiled(name: str, options: dict | None = None) -> GameSpec:
    """The spec as the compiler makes it (not read from the cache)."""
    return compile_model(load_model(name), options or {}, name).spec


class TestMadeOnce:
    @pytest.mark.parametrize("record", ["game", "action"])
    def test_no_field_can_be_set_after_construction(self, record):
        """Every field of a GameSpec and of an ActionSpec refuses assignment (attrs frozen)."""
        spec = ziggurat.load("checkers").spec
        obj = spec if record == "game" else spec.actions[0]
        for f in attrs.fields(type(obj)):
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                setattr(obj, f.name, getattr(obj, f.name))

    def test_a_spec_is_built_by_keyword_only(self):
        """Positional arguments are refused: a field can never land in the wrong place."""
        spec = ziggurat.load("tic-tac-toe").spec
        values = [getattr(spec, f.name) for f in attrs.fields(GameSpec)]
        with pytest.raises(TypeError):
            GameSpec(*values)
        with pytest.raises(TypeError):
            ActionSpec(0, "move", "{to}", ())
        assert GameSpec(**attrs.asdict(spec, recurse=False)) == spec

    def test_the_after_notation_is_in_each_action_as_made(self):
        """RGB's `after` block (`starve ...`) is in the spec of each of its own actions."""
        spec = compiled("rgb")
        assert spec.actions and all(a.after_fmt == "starve {starving}:{cuts}" for a in spec.actions)

    def test_the_number_choices_bounds_are_in_each_action_as_made(self):
        """Liar's dice: the bid's quantity and face have their ranges in the compiled spec."""
        spec = compiled("liars-dice")
        bounds = {a.name: a.bounds for a in spec.actions if a.bounds}
        assert {"q", "f"} <= set(next(b for b in bounds.values() if "q" in b))
        assert all(b is None or (len(b) == 3 and b[0] >= 0) for bs in bounds.values() for b in bs.values())

    def test_an_after_part_marked_present_is_one_more_choice_of_the_spec(self, tmp_path):
        """An after block without choices but with a condition gives each action one more choice
        (PRESENT, a bool), made before the spec, not appended to it."""
        text = """\
game "T"
players a, b
board:
    files: 3
    ranks: 1
piece:
    owner: players
counter turns = 0
action put "{to}":
    to: cells where empty(to)
    do:
        place(piece(mover), to)
after "and count":
    when turns < 2
    do:
        turns += 1
"""
        path = tmp_path / "t.rules"
        path.write_text(text)
        spec = ziggurat.load(str(path)).spec
        (action,) = spec.actions
        assert action.choices == (("to", T.CELL), (PRESENT, T.BOOL)) and action.nbase == 1
        assert action.after_fmt == "and count"


class TestJson:
    @pytest.mark.parametrize("name", SHIPPED)
    def test_every_shipped_spec_reads_back_equal(self, name):
        """GameSpec.from_json(spec.to_json()) == spec, through JSON text, for every shipped ruleset
        at its default options."""
        spec = compiled(name)
        text = json.dumps(spec.to_json())
        assert GameSpec.from_json(json.loads(text)) == spec

    def test_the_json_is_data_and_the_same_in_every_process(self):
        """Tuples and sets are written as lists (a set sorted), types as dicts: plain JSON."""
        spec = compiled("checkers")
        data = spec.to_json()
        jump = next(a for a in data["actions"] if a["repeated"])
        assert jump["repeated"] == sorted(jump["repeated"])
        assert isinstance(data["players"], list) and isinstance(data["option_specs"], dict)
        assert jump["choices"][0][1] == {"name": "cell", "elem": None, "attr": None}
        assert json.loads(json.dumps(data)) == data

    @pytest.mark.parametrize("damage", [
        lambda d: d.pop("actions"),
        lambda d: d.__setitem__("zones", [["supply", True]]),
        lambda d: d.__setitem__("option_specs", []),
        lambda d: d.__setitem__("players", "ab"),
        lambda d: d["actions"][0].__setitem__("choices", {}),
    ])
    def test_data_of_another_shape_is_refused_with_an_error_the_cache_catches(self, damage):
        """A manifest of another shape raises KeyError, TypeError or ValueError (the cache then
        compiles the game again), never some other error."""
        data = compiled("chaos").to_json()
        damage(data)
        with pytest.raises((KeyError, TypeError, ValueError)):
            GameSpec.from_json(data)


class TestCache:
    def test_the_spec_read_from_the_cache_equals_the_compiled_one(self, monkeypatch, tmp_path):
        """A second process's load (nothing in memory, the entry on disk) gives the same spec."""
        monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.setattr(games, "_MEMORY", type(games._MEMORY)())
        first = ziggurat.load("rgb").spec
        games._MEMORY.clear()
        again = ziggurat.load("rgb")
        assert again.filename.startswith(str(tmp_path))
        assert again.spec == first == compiled("rgb")

    def test_the_entry_format_is_part_of_every_key(self, monkeypatch):
        """Entries written in an older layout (FORMAT 1: the spec written field by field) are
        never looked up: the format goes into the engine's fingerprint, so into every key."""
        now = cache.key("x", "text", {})
        monkeypatch.setattr(cache, "FORMAT", 1)
        cache.engine_fingerprint.cache_clear()
        try:
            assert cache.key("x", "text", {}) != now
        finally:
            monkeypatch.undo()
            cache.engine_fingerprint.cache_clear()
        assert cache.key("x", "text", {}) == now and cache.FORMAT == 2
