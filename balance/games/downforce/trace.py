"""`balance trace` for Downforce: one game of a scenario, the auction and the
race card by card, in plain words. The traced game is exactly game K of
`balance run` with the same seed, played alone (a game depends on no other)."""

from __future__ import annotations

import numpy as np

from ..base import ScenarioView
from ..chunks import traced_game
from .chunk import play_chunk, prepare
from .log import money, standings


def trace_game(scenario: ScenarioView, seed: int, game: int, verbose: bool = False) -> str:
    m = scenario.model
    t = traced_game(scenario, seed, game, prepare, play_chunk, verbose=verbose)
    st, names, tables = t.st, t.names, t.prep.tables
    row = 0  # the traced game is its batch's only row
    track = tables.tracks[tables.rules.track]
    head = [
        f"Downforce: scenario {m.name}, seed {seed}, game {game}",
        f"track {track.name}: finish at row {track.finish_row}, betting lines at rows "
        + ", ".join(map(str, track.betting_rows.tolist())),
        "players: " + ", ".join(f"{i}={n}" for i, n in enumerate(names)),
    ]
    cash = money(st, tables)
    position = standings(st, tables)[row]
    result = []
    for car in np.argsort(np.where(st.place[row] > 0, st.place[row], 99)):
        unplaced = "still racing" if st.cut[row] else "stalled"  # the cap cut the race, or it ended by itself
        where = f"place {st.place[row, car]}" if st.place[row, car] else unplaced
        result.append(f"  {tables.cars[car]} (player {st.owner[row, car]}): {where}")
    for p in np.argsort(position):
        result.append(
            f"  {position[p]}. player {p} ({names[p]}): ${cash['money'][row, p]}M = prizes {cash['prizes'][row, p]}"
            f" + bets {cash['bets'][row, p]} - bids {cash['bids'][row, p]}"
        )
    ending = f"Result after {st.turns[row]} cards" + (
        " (cut by rules.max_turns: the cars still racing earn nothing)" if st.cut[row] else ""
    )
    return "\n".join([*head, *t.lines, f"{ending}:", *result]) + "\n"
