"""The `ziggurat` command line: one entry point, a command per thing an author reaches for.

`main.py` holds the command group and the error policy (never a traceback); each other module
holds one concern: shared options, drawing a position, the terminal game, and the commands.
"""
