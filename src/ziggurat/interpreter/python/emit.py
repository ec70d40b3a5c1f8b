"""Python code as a tree: templates, blocks, tree edits, and text with a line map.

The backend builds generated code as Python `ast` nodes. Small pieces are written as templates,
Python text with placeholders `_0`, `_1`, ... that are replaced by trees (`expr("len(_0)", s)`);
no text is ever pasted into other text. A statement may carry the rules position it comes from
(`at(node, pos)`); `render` writes the module, one statement a line, with a `# file:line` comment
where the rules position changes, and returns the line map (generated line -> rules position).

Tree edits instead of text patching: `Hoist` marks a place in a block where statements can be
inserted later; `tidy` removes the marks and empty `pass`es; `drop_unused_loads` removes the
`name = st.x` loads at the top of a function that its body never reads; `declare_nonlocals` adds
`nonlocal` to nested functions that assign a name of the function around them.
"""

from __future__ import annotations

import ast
from functools import lru_cache

PLACEHOLDER = "_"


@lru_cache(maxsize=None)
def _template(text: str, mode: str):
    tree = ast.parse(text, mode=mode)
    assert isinstance(tree, (ast.Module, ast.Expression))  # the modes asked for: "exec" and "eval"
    return tree.body


def clone(node):
    """A copy of a tree (its nodes' positions and marks kept)."""
    return _filled(node, None)


def _filled(node, subs):
    """A copy of a template's tree with `_0`, `_1`, ... replaced by `subs` (the trees given are
    put in as they are; None: no replacing). Only the template is copied: faster than deepcopy
    and a transformer."""
    if isinstance(node, list):
        return [_filled(x, subs) for x in node]
    if not isinstance(node, ast.AST) or isinstance(node, ast.expr_context):
        return node  # constants, names as text, and the shared Load/Store markers
    if (subs is not None and isinstance(node, ast.Name) and node.id.startswith(PLACEHOLDER)
            and node.id[1:].isdigit()):
        value = subs[int(node.id[1:])]
        if isinstance(node.ctx, ast.Store):
            return ast.Name(id=value if isinstance(value, str) else value.id, ctx=ast.Store())
        return to_expr(value)
    new = node.__class__()
    for field in node._fields:
        setattr(new, field, _filled(getattr(node, field, None), subs))
    for attr, value in node.__dict__.items():  # line numbers, and a statement's rules position
        if attr not in node._fields:
            setattr(new, attr, value)
    return new


def to_expr(value) -> ast.expr:
    """An expression tree from a tree, a Python name, or a constant."""
    if isinstance(value, ast.expr):
        return value
    if isinstance(value, str):
        return ast.Name(id=value, ctx=ast.Load())
    return ast.Constant(value=value)


def expr(template: str, *subs) -> ast.expr:
    """The expression `template` with `_0`, `_1`, ... replaced by `subs` (trees, names or constants)."""
    return _filled(_template(template, "eval"), subs)


def stmt(template: str, *subs) -> ast.stmt:
    """One statement from a template (see `expr`)."""
    body = _template(template, "exec")
    assert len(body) == 1, template
    return _filled(body[0], subs)


def const(value: object) -> ast.Constant:
    """A constant: a number, a string, ..., or any value whose repr is Python source (a tuple, a
    dict, ... of constants): the module is printed with ast.unparse, which writes the value's repr,
    and then parsed again."""
    # typeshed types Constant.value as a scalar only; ast and unparse take a tuple (see above)
    return ast.Constant(value=value)  # type: ignore[arg-type]


def name(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Load())


def at(node, pos):
    """Tag a statement with the rules position it comes from (shown as a comment)."""
    if pos is not None and getattr(pos, "line", 0):
        node.zpos = pos
    return node


class Comment(ast.stmt):
    """A comment line of its own (`# action move`)."""

    _fields = ("text",)

    def __init__(self, text: str):
        super().__init__()
        self.text = text


class Hoist(ast.stmt):
    """A place in a block where statements computed once for what follows can be inserted."""

    _fields = ()


def hoist_into(body: list, mark: Hoist, node: ast.stmt) -> None:
    """Insert a statement just before a hoisting mark."""
    body.insert(next(i for i, s in enumerate(body) if s is mark), node)


# ---- tree edits ---------------------------------------------------------------------------------


def _blocks(node):
    fields = ("body", "orelse", "finalbody") if not isinstance(node, (ast.If, ast.For, ast.While)) else ("body",)
    for field in fields:
        block = getattr(node, field, None)
        if isinstance(block, list):
            yield block
    if isinstance(node, (ast.If, ast.For, ast.While)) and node.orelse:
        yield node.orelse


def tidy(body: list) -> list:
    """Remove hoisting marks, and `pass` where the block holds something else; a block left empty
    gets one `pass`."""
    out = []
    for s in body:
        if isinstance(s, Hoist):
            continue
        for block in _blocks(s):
            block[:] = tidy(block)
        out.append(s)
    kept = [s for s in out if not isinstance(s, ast.Pass)] or ([ast.Pass()] if out or body else [])
    if not kept:
        kept = [ast.Pass()]
    return kept


class _FoldConstants(ast.NodeTransformer):
    """Arithmetic on constants computed, and slices that take all or nothing of a tuple."""

    _OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b}

    def visit_BinOp(self, node):
        self.generic_visit(node)
        left, right = node.left, node.right
        op = self._OPS.get(type(node.op))
        if op and isinstance(left, ast.Constant) and isinstance(right, ast.Constant) \
                and type(left.value) is int and type(right.value) is int:
            return ast.Constant(op(left.value, right.value))
        if isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(right, ast.Constant) and right.value == 0 \
                and type(right.value) is int:
            return left
        if isinstance(node.op, ast.Add) and isinstance(left, ast.Tuple) and not left.elts:
            return right  # () + t is t
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        sl = node.slice
        if isinstance(sl, ast.Slice) and sl.step is None:
            if sl.upper is None and isinstance(sl.lower, ast.Constant) and sl.lower.value == 0:
                return node.value  # t[0:] is t
            if sl.lower is None and isinstance(sl.upper, ast.Constant) and sl.upper.value == 0:
                return ast.Tuple([], ast.Load())  # t[:0] is ()
        return node


def fold_constants(node):
    """The tree with arithmetic on constants computed (`1 - 1` is 0, `t[0:]` is t)."""
    return _FoldConstants().visit(node)


ALIASES = ("_s", "_t", "_c", "_a", "_u")  # the stems of the generator's read-once locals


def drop_dead_aliases(fn: ast.FunctionDef) -> None:
    """Remove assignments to the generator's aliases (a cell's stack, its top, ...) that nothing
    reads, until none is left."""
    while True:
        read = loads(fn)
        dead = []
        for node in ast.walk(fn):
            for field in ("body", "orelse"):
                block = getattr(node, field, None)
                if not isinstance(block, list):
                    continue
                for s in block:
                    if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                            and s.targets[0].id.startswith(ALIASES) and s.targets[0].id not in read
                            and not s.targets[0].id.startswith(("_sa", "_sb"))):
                        dead.append((block, s))
        if not dead:
            return
        for block, s in dead:
            block.remove(s)


def loads(node) -> set:
    """Every name a tree reads (`h ^= x` reads h too)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                out.add(n.id)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
    return out


def tag_all(stmts: list, pos) -> list:
    """Give every statement of a list that has no rules position this one."""
    for s in stmts:
        if getattr(s, "zpos", None) is None:
            at(s, pos)
    return stmts


def stores(body) -> set:
    """Every name a block assigns (not counting nested functions)."""
    out = set()
    todo = list(body)
    while todo:
        s = todo.pop()
        if isinstance(s, ast.FunctionDef):
            continue
        if isinstance(s, (ast.Assign, ast.AugAssign, ast.For)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            for t in targets:
                out |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        for block in _blocks(s):
            todo.extend(block)
    return out


def drop_unused_loads(fn: ast.FunctionDef, prologue: int) -> None:
    """Drop, from the first `prologue` statements of fn (loads such as `cells = st.cells`), the
    assignments whose name the rest of the function never reads."""
    head, rest = fn.body[:prologue], fn.body[prologue:]
    read = set().union(*(loads(s) for s in rest)) if rest else set()
    kept = []
    for s in reversed(head):  # a load kept may read an earlier one (nxt = NEXT[mover])
        if isinstance(s, ast.Assign) and all(isinstance(t, ast.Name) and t.id not in read for t in s.targets):
            continue
        kept.append(s)
        read |= loads(s)
    fn.body = kept[::-1] + rest


def declare_nonlocals(fn: ast.FunctionDef, shared=("n", "h", "nxt")) -> None:
    """A nested function that assigns one of the `shared` names of `fn` declares it nonlocal."""
    for inner in (s for s in ast.walk(fn) if isinstance(s, ast.FunctionDef) and s is not fn):
        names = [n for n in shared if n in stores(inner.body)]
        inner.body = [s for s in inner.body if not isinstance(s, ast.Nonlocal)]
        if names:
            inner.body.insert(0, ast.Nonlocal(names=names))


# ---- text ---------------------------------------------------------------------------------------


def comment_text(text: str) -> str:
    """Text safe inside a comment: one line, whatever a file name or a value holds (a line break
    in a comment would end it, and what follows would be code)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


class Renderer:
    """Writes statements as lines of Python; remembers, for each line, the rules position of the
    statement it belongs to (its own, or that of the nearest statement around it that has one).
    A line shows its rules position as a comment when it differs from the line before's."""

    def __init__(self, label):
        self.lines: list = []
        self.where: list = []  # per line: the rules Pos, or None
        self.label = label  # Pos -> the comment text for it ("game.rules:48")
        self.shown = None  # the label last shown

    def line(self, depth: int, text: str, pos=None) -> None:
        note = comment_text(self.label(pos)) if pos is not None and self.label(pos) else None
        if note == self.shown:
            note = None
        elif note is not None:
            self.shown = note
        self.lines.append("    " * depth + text + (f"  # {note}" if note else ""))
        self.where.append(pos)

    def block(self, body, depth: int, pos=None) -> None:
        for s in body:
            self.statement(s, depth, pos)

    def statement(self, s, depth: int, around=None) -> None:
        pos = getattr(s, "zpos", None) or around
        if isinstance(s, Comment):
            own = getattr(s, "zpos", None)
            note = comment_text(self.label(own)) if own is not None and self.label(own) else None
            if note:
                self.shown = note
            self.lines.append("    " * depth + f"# {comment_text(s.text)}" + (f" ({note})" if note else ""))
            self.where.append(pos)
            return
        if isinstance(s, ast.FunctionDef):
            self.shown = None
            args = ", ".join(a.arg for a in s.args.args)
            self.line(depth, f"def {s.name}({args}):", pos)
            self.block(s.body, depth + 1, pos)
            return
        if isinstance(s, (ast.For, ast.While)):
            head = (f"for {ast.unparse(s.target)} in {ast.unparse(s.iter)}:" if isinstance(s, ast.For)
                    else f"while {ast.unparse(s.test)}:")
            self.line(depth, head, pos)
            self.block(s.body, depth + 1, pos)
            return
        if isinstance(s, ast.If):
            self.line(depth, f"if {ast.unparse(s.test)}:", pos)
            self.block(s.body, depth + 1, pos)
            if s.orelse:
                self.line(depth, "else:", pos)
                self.block(s.orelse, depth + 1, pos)
            return
        if isinstance(s, ast.Try):
            self.line(depth, "try:", pos)
            self.block(s.body, depth + 1, pos)
            self.line(depth, "finally:", pos)
            self.block(s.finalbody, depth + 1, pos)
            return
        self.line(depth, ast.unparse(s), pos)


def render(body, label) -> tuple[str, list]:
    """(text, line map): the module's text, and for each line (from 1) the rules Pos or None."""
    r = Renderer(label)
    for s in body:
        if isinstance(s, ast.FunctionDef) and r.lines and r.lines[-1] != "":
            r.lines.append("")
            r.where.append(None)
        r.statement(s, 0)
        if isinstance(s, ast.FunctionDef):
            r.lines.append("")
            r.where.append(None)
            r.shown = None
    return "\n".join(r.lines) + "\n", [None] + r.where
