"""`balance trace` for Shuffle Grand Prix: one game of a scenario, turn by
turn, in plain words. The traced game is exactly game K of `balance run`
with the same seed and chunk size: its whole chunk is played and the
recorder watches its row."""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...scenario import Scenario
from ...seeding import chunk_plan, chunk_rng
from ..recorder import Recorder
from .chunk import play_chunk, prepare
from .log import finish_order
from .state import total_distance


def trace_game(scenario: Scenario, seed: int, game: int) -> str:
    m = scenario.model
    if not 0 <= game < m.games:
        raise UserError(
            scenario.doc.problem(("games",), f"game {game} is not in the run (0 to {m.games - 1})", "--game")
        )
    prep = prepare(scenario)
    tables = prep.tables
    plan = chunk_plan(m.games, m.chunk_size)
    chunk = game // m.chunk_size
    first, size = plan[chunk]
    row = game - first
    rec = Recorder(watch=row)
    seats, st = play_chunk(prep, scenario, first, size, chunk_rng(seed, chunk, len(plan)), rec)
    names = [prep.bots.names[q] for q in seats[row]]
    head = [
        f"Shuffle Grand Prix: scenario {m.name}, seed {seed}, game {game} (chunk {chunk} of {len(plan)}, row {row})",
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
    return "\n".join([*head, *rec.lines, f"Result after {st.turn[row]} turns:", *result]) + "\n"
