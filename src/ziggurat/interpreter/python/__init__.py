"""The Python backend: a module of plain Python functions written for one game at one option set.

- `emit`: Python code as a tree (templates, tree edits, text with a line map);
- `exprs`: folded expressions, with what the generator knows about its locals;
- `effects`: statements and effects, every change logged for undo;
- `generate`, `apply`, `explain`: legal(st), do_<action>(st, m), explain_<action>(st, m) (`do_move`),
  each from the step plans;
- `module`: the whole module and its constants;
- `load`: running a written module (count derived from legal), without the writers.
"""
