"""A finished chunk of Heat races as the three log tables of a run (docs/logs.md):
games (one row per race), players (one per race and car; `seat` is the grid
slot, 0 = pole), cards (one per card event: start, draft, play)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..events import Events
from .bots import BotTable
from .compile import Tables
from .state import State


def finish_order(st: State) -> np.ndarray:
    """(G, P) finishing position (1 = winner): cars home first, by the round
    they crossed, then the furthest ahead, the race line first; then the
    cars still racing (at the round cap) by distance, then lane; then the
    cars out of the race (a Championship Event's)."""
    G, P = st.pos.shape
    home = st.finished & ~st.out  # (a car out of the race, an Event's, is off the track but not home: last)
    rank_key = np.where(home, 10**8 - st.finish_round.astype(np.int64) * 10_000, 0)
    key = rank_key + (st.pos.astype(np.int64) + 1_000) * 2 + (st.lane == 0)
    key = np.where(st.out, -1, key)
    key = key * P + (P - 1 - np.arange(P))[None, :]  # ties (none expected) in grid order
    return np.argsort(np.argsort(-key, axis=1), axis=1) + 1


def chunk_tables(
    st: State, events: Events, seats: np.ndarray, tables: Tables, bots: BotTable, first_game: int, chunk: int
) -> dict[str, pa.Table]:
    G, P, _ = st.shape
    track = tables.tracks[tables.rules.track]
    game_id = np.arange(first_game, first_game + G, dtype=np.int64)
    position = finish_order(st)
    has_winner = (st.finished & ~st.out).any(axis=1)  # someone crossed the line (the round cap may cut the rest)
    finished = st.finished.all(axis=1)  # every car crossed the line: not cut by the round cap
    won = (position == 1) & has_winner[:, None]
    winner = np.where(has_winner, won.argmax(axis=1), 0)
    winner_round = st.finish_round[np.arange(G), winner].astype(np.int16)
    names = np.array(bots.names, dtype=object)

    games = pa.table(
        {
            "game_id": game_id,
            "chunk": np.full(G, chunk, np.int32),
            "n_players": np.full(G, P, np.int8),
            "rounds": st.round.astype(np.int16),
            "finished": finished,
            "winner_round": pa.array(winner_round, mask=~has_winner),
            "winner_seat": pa.array(winner.astype(np.int8), mask=~has_winner),
            "winner_bot": pa.array(np.where(has_winner, names[seats[np.arange(G), winner]], None)),
            "track": np.full(G, track.id, dtype=object),
            "legends": st.is_legend.sum(axis=1).astype(np.int8),
            "stress_short": st.stress_short.astype(np.int16),
            "stress_left": pa.array(st.stress_supply.astype(np.int16), mask=st.stress_supply < 0),
            **{f"corner{k + 1}_spin_outs": st.corner_spins[:, k] for k in range(st.corner_spins.shape[1])},
            **{f"corner{k + 1}_heat": st.corner_paid[:, k] for k in range(st.corner_paid.shape[1])},
        }
    )

    laps_done = (st.lap_round > 0).sum(axis=2)
    previous = np.concatenate([np.zeros((G, P, 1), np.int16), st.lap_round[:, :, :-1]], axis=2)
    lap_cols = {
        f"lap{lap + 1}_turns": pa.array(
            (st.lap_round[:, :, lap] - previous[:, :, lap]).ravel(), mask=~(laps_done > lap).ravel()
        )
        for lap in range(track.laps)
    }
    owned = (st.deck + st.hand + st.play + st.discard).sum(axis=2) + st.engine
    players = pa.table(
        {
            "game_id": np.repeat(game_id, P),
            "seat": np.tile(np.arange(P, dtype=np.int8), G),
            "bot": names[seats].ravel(),
            "legend": st.is_legend.ravel(),
            "won": won.ravel(),
            "finished": st.finished.ravel(),
            "finish_position": position.astype(np.int8).ravel(),
            "laps_completed": laps_done.astype(np.int8).ravel(),
            **lap_cols,
            "turns": st.turns.ravel(),
            "finish_round": pa.array(st.finish_round.ravel(), mask=~st.finished.ravel()),
            "distance": st.pos.ravel(),
            "final_gear": st.gear.ravel(),
            "heat_paid": st.heat_paid.ravel(),
            "corner_heat": st.corner_heat.ravel(),
            "spin_outs": st.spin_outs.ravel(),
            "boosts": st.boosts.ravel(),
            "slipstreams": st.slipstreams.ravel(),
            "adrenaline": st.adrenaline.ravel(),
            "cooled": st.cooled.ravel(),
            "overheats": st.overheats.ravel(),
            "stress_added": st.stress_added.ravel(),
            "final_deck_size": owned.astype(np.int16).ravel(),
        }
    )

    cards = events.table(first_game, tables.cards.ids)
    return {"games": games, "players": players, "cards": cards}
