"""The track raced, laid out over the whole race: every corner line of every
lap as a position counted from the start/finish line, so "which corners did
this move cross" is two searches over one sorted array.

A line "at p" lies just before space p: a move from a to b crosses it when
a < p <= b. The race is done at `finish` = laps x spaces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .compile import TrackTable

FAR = 10_000  # a line nobody reaches: pads the corner arrays past the last corner


@dataclass(frozen=True)
class Course:
    track: TrackTable
    finish: int  # laps * spaces
    corner_at: np.ndarray  # (C + 1,) int32: every corner line of the race in order, then FAR
    limit: np.ndarray  # (C + 1,) int32: its speed limit (FAR for the pad)
    legend_at: np.ndarray  # (C + 1,) int32: its Legend line (FAR for the pad)

    @property
    def corners(self) -> int:
        return len(self.corner_at) - 1

    def next_corner(self, pos: np.ndarray) -> np.ndarray:
        """(n,) index of the first corner line ahead of each position (C if none)."""
        return np.searchsorted(self.corner_at, pos, side="right")

    def crossed(self, before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(first corner index, how many) crossed by moves from `before` to `after`."""
        first = self.next_corner(before)
        return first, np.maximum(self.next_corner(after) - first, 0)

    def checked(self, before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """crossed(), less a move that crosses the finish line: its corners are
        not checked ("If you have crossed the finish line, this step is ignored")."""
        first, count = self.crossed(before, after)
        return first, np.where(np.asarray(after) >= self.finish, 0, count)

    def heat_due(self, start: np.ndarray, end: np.ndarray, speed: np.ndarray, mod: np.ndarray | int = 0) -> np.ndarray:
        """(n,) Heat owed for the corners checked after moving from `start` to
        `end` at `speed` (each corner: the points over its limit, raised by `mod`)."""
        first, count = self.checked(start, end)
        due = np.zeros(len(first), np.int32)
        for j in range(int(count.max(initial=0))):
            at = np.minimum(first + j, self.corners)
            due += np.where(j < count, np.maximum(speed - (self.limit[at] + mod), 0), 0).astype(np.int32)
        return due


def course(track: TrackTable) -> Course:
    laps = np.arange(track.laps)[:, None] * track.spaces
    corner_at = (track.corner_at[None, :].astype(np.int32) + laps).ravel()
    legend_at = (corner_at.reshape(track.laps, -1) - (track.corner_at - track.legend_at) % track.spaces).ravel()
    limit = np.tile(track.limit.astype(np.int32), track.laps)
    pad = np.array([FAR], np.int32)
    return Course(
        track=track,
        finish=track.laps * track.spaces,
        corner_at=np.concatenate([corner_at, pad]),
        limit=np.concatenate([limit, pad]),
        legend_at=np.concatenate([legend_at, pad]),
    )
