"""`balance trace` for Shuffle Grand Prix: one game of a scenario, turn by
turn, in plain words. The traced game is exactly game K of `balance run`
with the same seed, played alone (a game depends on no other) with the
recorder on it."""

from __future__ import annotations

import numpy as np

from ..base import ScenarioView
from ..chunks import traced_game
from .chunk import play_chunk, prepare
from .log import finish_order
from .state import total_distance


def trace_game(scenario: ScenarioView, seed: int, game: int, verbose: bool = False) -> str:
    m = scenario.model
    t = traced_game(scenario, seed, game, prepare, play_chunk, verbose=verbose)
    st, names, tables = t.st, t.names, t.prep.tables
    row = 0  # the traced game is its batch's only row
    head = [
        f"Shuffle Grand Prix: scenario {m.name}, seed {seed}, game {game}",
        "seats (clockwise): " + ", ".join(f"{i}={n}" for i, n in enumerate(names)),
    ]
    position = finish_order(st, tables)[row]
    dist = total_distance(st, tables.distance.value.astype(np.int32))[row]
    drivers = tables.drivers.names
    result = [
        f"  {position[p]}. seat {p} ({names[p]}, {drivers[st.driver[row, p]]} driving): distance {dist[p]}, "
        f"trophies {st.trophies[row, p]}, spin-outs {st.spin_outs[row, p]}"
        for p in np.argsort(position)
    ]
    return "\n".join([*head, *t.lines, f"Result after {st.turn[row]} turns:", *result]) + "\n"
