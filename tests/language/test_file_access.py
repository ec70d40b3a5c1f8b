"""What a ruleset, a record or an option may make Ziggurat open or accept (issue: hostile input).

`extends` reaches a shipped ruleset or a `.rules` file in the variant's own folder or below (or in
a folder listed in ZIGGURAT_PATH); a record's `ruleset:` is a shipped name or a `.rules` file; a
bare name is the shipped ruleset whatever the current folder holds; option values are plain
digits, and from Python exactly an int, a bool or a str. No error ever shows another file's text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ziggurat
import ziggurat.dsl.loader
from ziggurat.dsl.checks import check
from ziggurat.errors import GameError
from ziggurat.records import load_record

SECRET = "root:x:0:0:the secret line"


def messages(path) -> str:
    return "\n".join(d.render() for d in check(str(path)))


@pytest.mark.parametrize("target", ["{secret}", "../outside/secret.rules", "{abs_rules}", "/proc/self/environ"])
def test_extends_reaches_nothing_outside_the_variants_folder(tmp_path, target):
    game = tmp_path / "game"
    game.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret"
    secret.write_text(SECRET + "\n")
    (outside / "secret.rules").write_text(SECRET + "\n")
    target = target.format(secret=secret, abs_rules=outside / "secret.rules")
    variant = game / "variant.rules"
    variant.write_text(f'extends "{target}"\n')
    out = messages(variant)
    assert "error" in out and SECRET not in out and "root:x" not in out
    assert "outside the folder" in out or "not a .rules file" in out


def test_extends_reaches_a_rules_file_in_its_folder_and_below(tmp_path):
    (tmp_path / "sub").mkdir()
    base = (ziggurat.dsl.loader.find("tic-tac-toe")).read_text()
    (tmp_path / "sub" / "base.rules").write_text(base)
    (tmp_path / "variant.rules").write_text('extends "sub/base.rules"\ngame "Mine"\n')
    assert ziggurat.load(str(tmp_path / "variant.rules")).title == "Mine"


def test_a_folder_in_ziggurat_path_may_be_reached(tmp_path, monkeypatch):
    lib, game = tmp_path / "lib", tmp_path / "game"
    lib.mkdir()
    game.mkdir()
    (lib / "base.rules").write_text(ziggurat.dsl.loader.find("tic-tac-toe").read_text())
    (game / "variant.rules").write_text('extends "base.rules"\ngame "Mine"\n')
    assert "outside the folder" in messages(game / "variant.rules") or "cannot find" in messages(game / "variant.rules")
    monkeypatch.setenv("ZIGGURAT_PATH", str(lib))
    assert ziggurat.load(str(game / "variant.rules")).title == "Mine"


def test_a_record_opens_only_a_shipped_ruleset_or_a_rules_file(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text(SECRET + "\n")
    record = tmp_path / "game.zrec"
    plain = (Path(__file__).parent.parent / "golden" / "records" / "kuhn-poker-1.zrec").read_text()
    record.write_text(plain.replace("ruleset: kuhn-poker", f"ruleset: {secret}"))
    with pytest.raises(GameError, match="not a .rules file") as e:
        load_record(record).game()
    assert SECRET not in str(e.value)


def test_a_bare_name_is_the_shipped_ruleset_whatever_the_folder_holds(tmp_path, monkeypatch):
    (tmp_path / "stacktics.rules").write_text(ziggurat.dsl.loader.find("tic-tac-toe").read_text())
    monkeypatch.chdir(tmp_path)
    assert ziggurat.load("stacktics").title == "Stacktics"
    assert ziggurat.load("./stacktics.rules").title != "Stacktics"  # a path names the file


@pytest.mark.parametrize("text", ["٣", "３", "1_0", "+3", "3.0", "0x3"])
def test_option_values_are_plain_digits(text):
    with pytest.raises(GameError, match="digits 0-9"):
        ziggurat.load("stacktics", {"size": text})


@pytest.mark.parametrize("name, value", [("size", 3.0), ("size", True), ("pie", 1), ("size", None)])
def test_option_values_from_python_are_exactly_their_type(name, value):
    with pytest.raises(GameError):
        ziggurat.load("stacktics", {name: value})


def test_an_enum_option_from_python_is_a_plain_string():
    class Sly(str):
        def __repr__(self):
            return "x\nimport os"

    game = ziggurat.load("ryb", {"variable_card": Sly("trade")})
    assert type(game.options["variable_card"]) is str and "import os" not in game.source
    with pytest.raises(GameError):
        ziggurat.load("ryb", {"variable_card": 3})


def test_an_option_error_never_shows_what_a_value_says_of_itself():
    class Sly:
        def __repr__(self):
            return "1\nimport os"

    with pytest.raises(GameError) as refused:
        ziggurat.load("stacktics", {"size": Sly()})
    assert "import os" not in str(refused.value) and "'Sly'" in str(refused.value)
    with pytest.raises(GameError) as refused:
        ziggurat.load("stacktics", {"size": "9" * 5000})
    assert len(str(refused.value)) < 200


def test_a_format_spec_in_the_after_blocks_notation_is_refused_by_check():
    """Not only when a move is printed (once an internal error, once MemoryError)."""
    text = ziggurat.dsl.loader.find("rgb").read_text().replace('after "starve {starving}', 'after "starve {starving:>99999999}')
    found = [d.message for d in check("rgb-bad.rules", text=text) if d.severity == "error"]
    assert any("the notation of the after block writes '{starving:>99999999}'" in m for m in found), found


def linked_secret(folder: Path, name: str = "x.rules") -> Path:
    """A link named like a ruleset, in `folder`, to a file there that is not one."""
    secret = folder / "secret.txt"
    secret.write_text(SECRET + "\n")
    link = folder / name
    link.symlink_to(secret)
    return link


def test_a_link_named_rules_to_another_file_is_never_read(tmp_path):
    # The link and its target are both in the variant's folder: only the target's name tells.
    link = linked_secret(tmp_path)
    variant = tmp_path / "variant.rules"
    variant.write_text('extends "x"\n')
    out = messages(variant)
    assert "error" in out and "not a .rules file" in out and "root:x" not in out
    with pytest.raises(GameError, match="not a .rules file") as refused:
        ziggurat.load(str(link))
    assert "root:x" not in str(refused.value)
    assert "not a .rules file" in messages(link) and "root:x" not in messages(link)


def test_a_record_naming_a_link_to_another_file_is_refused(tmp_path):
    link = linked_secret(tmp_path)
    record = tmp_path / "game.zrec"
    record.write_text(f"ruleset: {link}\nplies: 0\n\n")
    with pytest.raises(GameError, match="not a .rules file") as refused:
        load_record(record).game()
    assert "root:x" not in str(refused.value)


def test_the_language_server_never_quotes_a_linked_file(tmp_path):
    pytest.importorskip("pygls")
    from ziggurat.editor.server import diagnostics

    linked_secret(tmp_path)
    found = diagnostics(str(tmp_path / "variant.rules"), 'extends "x"\n')
    assert found and all("root:x" not in d.message for d in found)
    assert any("not a .rules file" in d.message for d in found)


def symlink_loop(folder: Path) -> None:
    (folder / "a.rules").symlink_to(folder / "b.rules")
    (folder / "b.rules").symlink_to(folder / "a.rules")


@pytest.mark.parametrize("target", ["a", "a.rules"])
def test_extends_through_a_symlink_loop_is_a_ruleset_error(tmp_path, target):
    symlink_loop(tmp_path)
    variant = tmp_path / "variant.rules"
    variant.write_text(f'extends "{target}"\n')
    found = check(str(variant))
    assert len(found) == 1 and (found[0].path, found[0].line, found[0].col) == (str(variant), 1, 1)
    assert "a loop" in found[0].render() and "^" in found[0].render()


def test_a_symlink_loop_named_on_the_command_line_is_a_clean_error(tmp_path):
    from click.testing import CliRunner

    from ziggurat.cli.main import cli

    symlink_loop(tmp_path)
    result = CliRunner().invoke(cli, ["moves", str(tmp_path / "a.rules")])
    assert result.exit_code == 1 and "a loop" in result.output and "Traceback" not in result.output
