"""The native backend: the same step plans as the Python backend, written for Numba, for the
whole loops (perft, random playouts) at compiled speed. See `game.native`."""
