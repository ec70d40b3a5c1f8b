"""Pass 1: resolve a model's names and types once, into the checked plan (dsl.ir).

The plan does not depend on option values: an option is an `Opt` node until `fold` gives it a
value, so a rule an option switches off is still checked. Each module handles one kind of rule:

- `core`: the context of a rule (`Where`, `Ctx`), type compatibility, errors;
- `names`: what a bare word means (`names.name`);
- `operators`: operators, attributes, indexing, tables, lists, comprehensions;
- `calls`: built-in functions, `piece(...)`, defs (expanded in place);
- `statements`, `effects`: the statements of blocks and the effects that change the game;
- `actions`: actions, their choices and repeated parts, the after block, notation checks;
- `decls`: every declaration, in order (`resolve_model`).
"""

from . import calls, names, operators, statements  # noqa: F401  (each registers its handlers in core)
from .core import CheckError, Ctx, Resolver, Where
from .decls import resolve_model

__all__ = ["resolve_model", "Resolver", "Ctx", "Where", "CheckError"]
