"""`balance trace` for Heat: one race of a scenario, round by round, in plain
words. The traced race is exactly race K of `balance run` with the same seed
and chunk size: its whole chunk is raced and the recorder watches its row."""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...scenario import Scenario
from ...seeding import chunk_plan, chunk_rng
from ..recorder import Recorder
from .chunk import play_chunk, prepare
from .log import finish_order


def trace_game(scenario: Scenario, seed: int, game: int) -> str:
    m = scenario.model
    if not 0 <= game < m.games:
        raise UserError(
            scenario.doc.problem(("games",), f"race {game} is not in the run (0 to {m.games - 1})", "--game")
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
    track = tables.tracks[tables.rules.track]
    corners = ", ".join(f"{at} (limit {limit})" for at, limit in zip(track.corner_at, track.limit, strict=True))
    head = [
        f"Heat: scenario {m.name}, seed {seed}, race {game} (chunk {chunk} of {len(plan)}, row {row})",
        f"track {track.name}: {track.laps} laps of {track.spaces} spaces, corner lines at {corners}; "
        f"the race ends at space {track.laps * track.spaces}",
        "grid (slot 0 on pole): " + ", ".join(f"{i}={n}" for i, n in enumerate(names)),
    ]
    position = finish_order(st)[row]
    result = []
    for car in np.argsort(position):
        where = (
            f"finished in round {st.finish_round[row, car]}"
            if st.finished[row, car]
            else f"still racing at space {st.pos[row, car]}"
        )
        result.append(
            f"  {position[car]}. car {car} ({names[car]}): {where}; Heat paid {st.heat_paid[row, car]}, "
            f"spin-outs {st.spin_outs[row, car]}, boosts {st.boosts[row, car]}"
        )
    return "\n".join([*head, *rec.lines, f"Result after {st.round[row]} rounds:", *result]) + "\n"
