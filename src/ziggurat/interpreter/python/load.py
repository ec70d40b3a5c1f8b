"""Loading a written module: its text run in a namespace of the helpers and board tables it
uses, with `count` derived from `legal`. Kept apart from the writers (module.py and the rest of the
backend) so that a game taken from the cache is loaded without importing the compiler.
"""

from __future__ import annotations

import ast
from typing import Iterable

from ...dsl import budgets
from ...dsl.world import World
from ..helpers import HELPERS
from .emit import clone, declare_nonlocals


class _Count(ast.NodeTransformer):
    """legal -> count: `add(move)` becomes `n += 1`, the list of moves its length."""

    def visit_Expr(self, node):
        c = node.value
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "add":
            return ast.copy_location(ast.AugAssign(ast.Name("n", ast.Store()), ast.Add(), ast.Constant(1)), node)
        return self.generic_visit(node)

    def visit_Call(self, node):
        if (isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1
                and isinstance(node.args[0], ast.Name) and node.args[0].id == "out"):
            return ast.copy_location(ast.Name("n", ast.Load()), node)
        return self.generic_visit(node)

    def visit_Name(self, node):
        if node.id == "out" and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Name("n", ast.Load()), node)
        return node

    def visit_Assign(self, node):
        t = node.targets[0]
        if isinstance(t, ast.Name) and t.id in ("out", "add"):
            if t.id == "add":
                return None
            return ast.copy_location(ast.Assign([ast.Name("n", ast.Store())], ast.Constant(0)), node)
        return self.generic_visit(node)


def derive_count(tree: ast.Module) -> None:
    """Add `count` to a parsed module, made from its `legal` (keeping its line numbers)."""
    legal = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "legal")
    count = _Count().visit(clone(legal))
    count.name = "count"
    declare_nonlocals(count)
    ast.fix_missing_locations(count)
    tree.body.append(count)


def load_module(text: str, filename: str, world: World, tables: Iterable[str]) -> dict:
    """Run a module's text (with count derived) in a namespace holding the helpers and the board
    tables it uses; the namespace."""
    tree = ast.parse(text, filename)
    derive_count(tree)
    namespace = {"__name__": "ziggurat_generated", **HELPERS, "MAX_MOVES": budgets.MAX_MOVES}
    namespace.update({t: world.table(t) for t in tables})
    exec(compile(tree, filename, "exec"), namespace)
    return namespace
