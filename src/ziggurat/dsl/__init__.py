"""The rules language: grammar front end, AST, model and checks."""
