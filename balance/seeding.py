"""A run's chunks, its seats, and the seat a strength experiment gives its item.

The games' random numbers are keyed by (seed, game id, purpose) in
games/chance.py, so a chunk needs no generator of its own: the same seed gives
the same games whatever the chunk size, the number of jobs or the backend.
"""

from __future__ import annotations

import numpy as np


def chunk_plan(games: int, chunk_size: int) -> list[tuple[int, int]]:
    """(first game, number of games) of each chunk."""
    return [(start, min(chunk_size, games - start)) for start in range(0, games, chunk_size)]


def seat_order(n_bots: int, first_game: int, games: int, rotate: bool) -> np.ndarray:
    """(games, n_bots) which of the scenario's bots sits in each seat, seat 0
    playing first. With rotation game i shifts the order by i, so every bot
    starts equally often: the rulebook's random starting player (2.6), balanced."""
    game = np.arange(first_game, first_game + games)[:, None]
    seat = np.arange(n_bots)[None, :]
    return ((seat + game) % n_bots if rotate else np.broadcast_to(seat, (games, n_bots))).astype(np.int16)


def bonus_seat(seed: int, game_ids: np.ndarray, players: int, eligible: np.ndarray | None = None) -> np.ndarray:
    """(n,) the seat that gets a strength experiment's extra card in each game: a
    fixed hash of (seed, game id), so the engine and the analysis agree on it
    without sharing any state (splitmix64, vectorised). Any seed balance run
    takes: one past 64 bits is folded into them (they are all the hash reads).
    `eligible` (n, players) bool: the seats that can take an item (Heat: a car
    with a deck, not a Legend); the hash picks among them (every game has one).
    With every seat eligible the seat is the same as without."""
    mask = np.uint64(0xFFFFFFFFFFFFFFFF)
    with np.errstate(over="ignore"):
        z = (np.asarray(game_ids, dtype=np.uint64) + np.uint64(seed % 2**64) * np.uint64(0x9E3779B97F4A7C15)) & mask
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    if eligible is None:
        return (z % np.uint64(players)).astype(np.int64)
    eligible = np.asarray(eligible, bool)
    count = eligible.sum(axis=1).astype(np.uint64)
    rank = (z % np.maximum(count, np.uint64(1))).astype(np.int64)  # the rank-th eligible seat
    return np.argmax(np.cumsum(eligible, axis=1) > rank[:, None], axis=1).astype(np.int64)
