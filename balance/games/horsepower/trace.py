"""`balance trace`: one game of a scenario, turn by turn, in plain words.

The traced game is exactly game K of `balance run` with the same seed,
played alone (a game depends on no other) with the recorder on it.
"""

from __future__ import annotations

from ..base import ScenarioView
from ..chunks import traced_game
from .chunk import play_chunk, prepare


def trace_game(scenario: ScenarioView, seed: int, game: int, verbose: bool = False) -> str:
    m = scenario.model
    t = traced_game(scenario, seed, game, prepare, play_chunk, verbose=verbose)
    st, names = t.st, t.names
    row = 0  # the traced game is its batch's only row
    pb = t.prep.tables.playbooks.names
    head = [
        f"Horsepower: scenario {m.name}, seed {seed}, game {game}",
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
    return "\n".join([*head, *t.lines, result, *final]) + "\n"
