"""Shuffle Grand Prix, the card racer of drivers, co-pilots and tire health
(rulebook: ../shared/seeds/002_1ef1e3a514a1bc24.txt).

So far only the data layer: shuffle_gp.yaml is checked by `schema` and
compiled by `compile`. No engine races it yet, so the game is not in the
registry (balance/games/__init__.py); docs/shuffle_gp.md explains the file.
"""
