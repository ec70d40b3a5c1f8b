"""The engine's version (part of the key of every cached compiled game)."""

__version__ = "0.1.0"
