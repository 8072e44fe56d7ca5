"""`balance trace` for Heat: one race of a scenario, round by round, in plain
words. The traced race is exactly race K of `balance run` with the same seed,
raced alone (a race depends on no other) with the recorder on it."""

from __future__ import annotations

import numpy as np

from ..base import ScenarioView
from ..chunks import traced_game
from .championship import SeasonResult
from .chunk import play_chunk, prepare
from .log import finish_order


def spans(marked: np.ndarray) -> str:
    """The marked spaces as ranges: "4-9, 37-43"."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], marked.astype(np.int8), [0]))))
    return ", ".join(f"{a}-{b - 1}" if b - 1 > a else f"{a}" for a, b in zip(edges[::2], edges[1::2], strict=True))


def scenario_is_season(scenario: ScenarioView) -> bool:
    """Whether the scenario races a Championship season (rules.season), from its database as overridden."""
    rules = scenario.database_doc().data.get("rules")
    return isinstance(rules, dict) and rules.get("season") is not None


def trace_game(scenario: ScenarioView, seed: int, game: int, verbose: bool = False) -> str:
    m = scenario.model
    season = scenario_is_season(scenario)
    t = traced_game(scenario, seed, game, prepare, play_chunk, noun="season" if season else "race", verbose=verbose)
    if isinstance(t.st, SeasonResult):
        standing = t.st.standing[0]
        champion = [f"  {standing[c]}. car {c} ({t.names[c]}): {t.st.total[0, c]} points" for c in np.argsort(standing)]
        head = [f"Heat: scenario {m.name}, seed {seed}, season {game}: {t.st.season.name}"]
        return "\n".join([*head, *t.lines, "Championship:", *champion]) + "\n"
    st, names, tables = t.st, t.names, t.prep.tables
    row = 0  # the traced game is its batch's only row
    track = tables.tracks[tables.rules.track]
    corners = ", ".join(
        f"{at} (limit {limit}{', a chicane exit' if chicane else ''})"
        for at, limit, chicane in zip(track.corner_at, track.limit, track.chicane, strict=True)
    )
    head = [
        f"Heat: scenario {m.name}, seed {seed}, race {game}",
        f"track {track.name}: {track.laps} laps of {track.spaces} spaces, corner lines at {corners}; "
        f"the race ends at space {track.laps * track.spaces}",
        *(
            f"{what}: {spans(marked)}"
            for what, marked in (("flooded", track.flooded), ("tunnels", track.tunnel))
            if marked.any()
        ),
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
    return "\n".join([*head, *t.lines, f"Result after {st.round[row]} rounds:", *result]) + "\n"
