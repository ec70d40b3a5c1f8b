"""The lab: tools that play many games and report on them, over the game kernel.

- `study`: a study's spec and its games (one runner for both backends); `table`: its games as
  records (`GameResult`) and as typed columns (`GameTable`);
- `stats`: a study's statistics; `report`: its CSV, plots and Markdown page; `journal`: its
  finished games on disk, to resume it;
- `runner`: work spread over local processes or a Dask cluster;
- `solve`, `census`: exact solving of positions and of a puzzle's setups; `matches`: rotation matches.

Each is imported by name (`from ziggurat.lab.study import run_study`): importing the package
loads none of them.
"""
