"""One root seed → one generator per chunk of games.

Chunk c of a run always gets `SeedSequence(seed).spawn(n)[c]`, whatever the
number of jobs or the backend, so the same seed and chunk size give the same
games everywhere.
"""

from __future__ import annotations

import numpy as np


def chunk_plan(games: int, chunk_size: int) -> list[tuple[int, int]]:
    """(first game, number of games) of each chunk."""
    return [(start, min(chunk_size, games - start)) for start in range(0, games, chunk_size)]


def chunk_rng(seed: int, chunk: int, n_chunks: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(n_chunks)[chunk])


def seat_order(n_bots: int, first_game: int, games: int, rotate: bool) -> np.ndarray:
    """(games, n_bots) which of the scenario's bots sits in each seat, seat 0
    playing first. With rotation game i shifts the order by i, so every bot
    starts equally often: the rulebook's random starting player (2.6), balanced."""
    game = np.arange(first_game, first_game + games)[:, None]
    seat = np.arange(n_bots)[None, :]
    return ((seat + game) % n_bots if rotate else np.broadcast_to(seat, (games, n_bots))).astype(np.int16)
