"""`ziggurat rulesets` shows a variant's inherited option types as the base file writes them (it
showed `size  cs 3` for stacktics-3x5: the type cut from the variant's text at the base's offsets)."""

import functools
import json
import re

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.dsl.loader import find, shipped_names

EXTENDS = re.compile(r"^extends\s+(\S+)", re.M)


def variants():
    """(variant, base) for every shipped ruleset that extends another."""
    out = []
    for name in shipped_names():
        match = EXTENDS.search(find(name).read_text(encoding="utf-8"))
        if match:
            out.append((name, match.group(1)))
    return out


@functools.cache
def listing():
    result = CliRunner().invoke(cli, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    return {r["name"]: {o["name"]: o["type"] for o in r["options"]} for r in json.loads(result.stdout)}


@pytest.mark.parametrize("variant,base", variants())
def test_inherited_option_types_are_the_base_files(variant, base):
    """Each option the variant does not retype is listed with the base's type text, which the base
    file itself contains."""
    shown = listing()
    base_text = find(base).read_text(encoding="utf-8")
    variant_text = find(variant).read_text(encoding="utf-8")
    checked = 0
    for name, spec in ziggurat.load(variant).option_specs.items():
        if re.search(rf"^option\s+{name}\s*:", variant_text, re.M):
            continue  # retyped in the variant: its own text
        assert shown[variant][name] == shown[base][name], (variant, name)
        if spec.kind in ("range", "enum"):
            assert shown[variant][name] in base_text
            checked += 1
    assert variant != "stacktics-3x5" or checked >= 2  # size 2..5 and loaded 1..6


def test_stacktics_3x5_size_is_two_to_five():
    """The listing that showed 'cs 3' shows '2..5'."""
    assert listing()["stacktics-3x5"]["size"] == "2..5"
