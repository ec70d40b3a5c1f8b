"""Compiler (rules -> specialised Python) and runtime (states, moves, outcomes)."""
