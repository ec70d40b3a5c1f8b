"""Finding rulesets by name or path, and reading a variant together with what it extends."""

from __future__ import annotations

import errno
import os
import stat
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from . import budgets
from ..errors import Diagnostic, GameError, Reporter, RulesetError, did_you_mean

if TYPE_CHECKING:
    from .ast import Ruleset
    from .model import Model
# The parser (lark) and the model are imported where a file is parsed, not here: finding and
# reading a ruleset, all that loading a game from the cache needs, stays light.

SUFFIX = ".rules"


def shipped_names() -> list:
    """The rulesets that come with Ziggurat, by name."""
    folder = resources.files("ziggurat") / "rulesets"
    return sorted(p.name[: -len(SUFFIX)] for p in folder.iterdir() if p.name.endswith(SUFFIX))


SEARCH_PATH = "ZIGGURAT_PATH"  # more folders `extends` may reach, separated like PATH (os.pathsep)


def _shipped(name: str):
    """The shipped ruleset called `name` (no folder, no suffix), or None."""
    if not name or "/" in name or "\\" in name or name.endswith(SUFFIX) or name in (".", ".."):
        return None
    shipped = resources.files("ziggurat") / "rulesets" / (name + SUFFIX)
    return Path(str(shipped)) if shipped.is_file() else None


def _real(path: Path, *, strict: bool = False) -> Path:
    """`path` with every link followed; GameError for a link that leads back to itself."""
    try:
        return path.resolve(strict=strict)
    except (RuntimeError, OSError) as e:  # RuntimeError: Python before 3.13 on a symlink loop
        if isinstance(e, FileNotFoundError):
            raise GameError(f"no ruleset {str(path)!r}: no such file") from None
        if isinstance(e, RuntimeError) or getattr(e, "errno", None) == errno.ELOOP:
            raise GameError(f"{str(path)!r} is a symbolic link that leads back to itself (a loop): "
                            f"no ruleset there; point the link at a .rules file") from None
        raise GameError(f"cannot read {str(path)!r}: {e.strerror or e}") from None


def ruleset_file(path: Path) -> Path:
    """The real file a ruleset path names (every link followed), which must be a regular file
    whose own name ends in `.rules`; GameError otherwise. Every ruleset path is checked by this
    before it is read (a command's argument, `extends`, a record's `ruleset:`, the server's and
    the language server's), so no error ever quotes a line of a file that is not a ruleset: a
    link `x.rules` to another file is refused, and a link that loops is named as one."""
    real = _real(Path(path), strict=True)
    if not real.name.endswith(SUFFIX):
        shown_as = f"{str(path)!r} (a link to {str(real)!r})" if real.name != Path(path).name else repr(str(path))
        raise GameError(f"{shown_as} is not a .rules file: a ruleset is named by a shipped name or a "
                        f"path to a .rules file, and no other file is opened")
    try:
        mode = real.stat().st_mode
    except OSError as e:
        raise GameError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    if not stat.S_ISREG(mode):
        raise GameError(f"{str(path)!r} is not a regular file (a folder, a device or a pipe): "
                        f"a ruleset is a .rules file")
    return real


def _inside(path: Path, folders) -> bool:
    target = _real(path)
    return any(target == _real(f) or _real(f) in target.parents for f in folders)


def find(name_or_path: str, relative_to: Path | None = None, *, rules_only: bool = False) -> Path:
    """A ruleset file from the name of a shipped ruleset or from a path.

    A bare name (`NAME`) is the shipped ruleset when there is one, whatever the current folder
    holds; write a path (`./NAME.rules`) for a file of that name. With `relative_to`
    (the folder of a variant that `extends` something), a file must be a `.rules` file in that
    folder or below it, or in a folder listed in ZIGGURAT_PATH: nothing else is opened. With
    `rules_only` (a record's `ruleset:`), a file must end in `.rules`."""
    if any(ord(ch) < 32 for ch in str(name_or_path)):
        raise GameError(f"no ruleset {name_or_path!r}: a name or a path has no control characters")
    p = Path(name_or_path)
    if not p.name:  # '', '.', '/': no file name to look for
        raise GameError(f"no ruleset {name_or_path!r}: give the name of a shipped ruleset (`ziggurat rulesets` "
                        "lists them) or a path to a .rules file")
    shipped = _shipped(str(name_or_path))
    if shipped is not None:
        return shipped
    candidates = [p, p.with_name(p.name + SUFFIX)] if not p.name.endswith(SUFFIX) else [p]
    if relative_to is not None or rules_only:
        if not p.name.endswith(SUFFIX) and not p.with_name(p.name + SUFFIX).is_file() and p.exists():
            raise GameError(f"{name_or_path!r} is not a .rules file: a ruleset is named by a shipped "
                            f"name or a path to a .rules file, and no other file is opened")
        candidates = [c for c in candidates if c.name.endswith(SUFFIX)]
    if relative_to is not None:
        folders = [relative_to] + [Path(f) for f in os.environ.get(SEARCH_PATH, "").split(os.pathsep) if f]
        candidates = [f / c for f in folders for c in candidates]
        outside = [c for c in candidates if not _inside(c, folders)]
        if outside:
            raise GameError(f"{name_or_path!r} is outside the folder of the ruleset that extends it "
                            f"({relative_to}): a variant extends a shipped ruleset or a .rules file in "
                            f"its own folder or below (add folders to {SEARCH_PATH} to reach others)")
    for c in candidates:
        if c.is_file() or c.is_symlink():  # a link is checked, even one that leads nowhere
            ruleset_file(c)
            return c
    shipped = _shipped(p.name[: -len(SUFFIX)]) if p.name.endswith(SUFFIX) else None
    if shipped is not None and relative_to is None and not p.parent.parts:  # `NAME.rules`, no such file here
        return shipped
    hint = did_you_mean(p.stem, shipped_names())
    raise GameError(f"no ruleset {name_or_path!r}: not a file, nor a shipped ruleset"
                    + (f"; {hint}" if hint else f" (shipped: {', '.join(shipped_names())})"))


def read_text(path: Path) -> str:
    """The text of the ruleset file at `path` (checked by `ruleset_file` first)."""
    real = ruleset_file(path)
    try:
        size = real.stat().st_size
        if size > budgets.MAX_SOURCE_BYTES:  # refused before it is read (budgets)
            from .text_budgets import too_large

            raise RulesetError([too_large(str(path), size)])
        return real.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise RulesetError([Diagnostic(str(path), 0, 0, f"not a text file (UTF-8): {e.reason}")]) from None
    except OSError as e:
        raise GameError(f"cannot read {str(path)!r}: {e.strerror}") from None


def load_files(name_or_path: str, text: str | None = None) -> list[tuple[Ruleset, Reporter, str]]:
    """[(Ruleset, Reporter, text as read)] for the file and everything it extends, base first."""
    chain = []
    seen = []
    if text is not None:
        path, source = Path(name_or_path), text
    else:
        path = find(name_or_path)
        source = read_text(path)
    while True:
        from .parser import parse

        rules = parse(source, str(path))
        rep = rules.file  # the parsed file (cached): start its diagnostics afresh for this load
        assert rep is not None  # parse() gives every Ruleset its file
        rep.diagnostics.clear()
        chain.append((rules, rep, source))
        seen.append(_real(path) if path.exists() else path)
        from . import ast

        ext = [d for d in rules.decls if isinstance(d, ast.Extends)]
        if len(ext) > 1:
            rep.error(ext[1].pos, "a ruleset extends at most one other")
        if not ext:
            break
        try:
            parent = find(ext[0].target, relative_to=path.parent)
        except GameError as e:
            hint = did_you_mean(ext[0].target, shipped_names())
            raise RulesetError([rep.make(ext[0].pos, f"cannot find the ruleset {ext[0].target!r} to extend",
                                         hint=hint or str(e))]) from None
        if _real(parent) in seen:
            raise RulesetError([rep.make(ext[0].pos, f"{ext[0].target!r} extends itself (through {path.name})",
                                         hint="a variant extends a base, never the other way round")])
        if len(chain) >= budgets.MAX_EXTENDS:
            raise RulesetError([rep.make(ext[0].pos,
                                         f"the chain of 'extends' is longer than {budgets.MAX_EXTENDS} files",
                                         hint="a variant extends a base; keep the chain short")])
        path, source = parent, read_text(parent)
    chain.reverse()
    return chain


def parsed_chain(chain: tuple) -> list:
    """[(Ruleset, Reporter, text)] of a chain read and checked before (the path and text of each
    file, base first, as a loaded game keeps them): parsed from those texts, no file read."""
    from .parser import parse

    files = []
    for path, source in chain:
        rules = parse(source, path)
        assert rules.file is not None  # parse gives every ruleset the file it was read from
        rules.file.diagnostics.clear()
        files.append((rules, rules.file, source))
    return files


def load_model(name_or_path: str, text: str | None = None, *, chain: tuple = ()) -> Model:
    """Parse and merge a ruleset; raise RulesetError with every problem found so far. With
    `chain` (see `parsed_chain`), the files are those texts and none is read."""
    from . import windows, words
    from .model import build_model, check_budgets

    files = parsed_chain(chain) if chain else load_files(name_or_path, text)
    model, reporters = build_model([(rules, rep) for rules, rep, _ in files])
    words.check([(rules, rep) for rules, rep, _ in files])  # no keyword names what a rule binds
    windows.apply(model)  # response windows written out as rules, before any name is checked
    check_budgets(model, reporters)  # sizes that would make the later passes too slow or too deep
    model.sources = [(rules.path, raw) for rules, _, raw in files]
    diags = [d for r in reporters for d in r.diagnostics]
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise RulesetError(errors)
    model.warnings = [d for d in diags if d.severity != "error"]
    for r in reporters:
        r.diagnostics.clear()
    return model
