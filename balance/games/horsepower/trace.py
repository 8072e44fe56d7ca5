"""`balance trace`: one game of a scenario, turn by turn, in plain words.

The traced game is exactly game K of `balance run` with the same seed and
chunk size: its whole chunk is simulated and the recorder watches its row.
"""

from __future__ import annotations

from ...errors import UserError
from ...scenario import Scenario
from ...seeding import chunk_plan, chunk_rng
from ..recorder import Recorder
from .chunk import play_chunk, prepare


def trace_game(scenario: Scenario, seed: int, game: int) -> str:
    m = scenario.model
    if not 0 <= game < m.games:
        raise UserError(
            scenario.doc.problem(("games",), f"game {game} is not in the run (0 to {m.games - 1})", "--game")
        )
    prep = prepare(scenario)
    tables, bots = prep.tables, prep.bots
    plan = chunk_plan(m.games, m.chunk_size)
    chunk = game // m.chunk_size
    first, size = plan[chunk]
    rec = Recorder(watch=game - first)
    seats, st = play_chunk(prep, scenario, first, size, chunk_rng(seed, chunk, len(plan)), rec)
    row = game - first
    names = [bots.names[q] for q in seats[row]]
    pb = tables.playbooks.names
    head = [
        f"Horsepower: scenario {m.name}, seed {seed}, game {game} (chunk {chunk} of {len(plan)}, row {row})",
        f"cards: {scenario.cards_path.name}; seats in turn order (seat 0 first): "
        + ", ".join(f"{i}={n}" for i, n in enumerate(names)),
        "Draft:",
    ]
    if st.winner[row] >= 0:
        result = f"Result: seat {st.winner[row]} ({names[st.winner[row]]}) wins in round {st.round[row]}"
    else:
        result = f"Result: no winner after {st.round[row]} rounds (the round cap)"
    final = [
        f"  seat {p}: lap {st.lap[row, p]} space {st.pos[row, p]}, {st.coins[row, p]} coins, Playbooks: "
        + ", ".join(pb[b] for b in range(len(pb)) if st.playbooks[row, p, b])
        for p in range(m.players)
    ]
    return "\n".join([*head, *rec.lines, result, *final]) + "\n"
