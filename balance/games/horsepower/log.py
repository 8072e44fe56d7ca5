"""A finished chunk as the three log tables of a run (docs/logs.md):
games (one row per game), players (one per game and seat), cards (one per
card event). Built from the final state and the engine's event buffer with
array operations only."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..events import Events
from .bots import BotTable
from .compile import Tables
from .state import State


def chunk_tables(
    st: State, events: Events, seats: np.ndarray, tables: Tables, bots: BotTable, first_game: int, chunk: int
) -> dict[str, pa.Table]:
    G, P, _ = st.shape
    L, laps = tables.rules.track_length, tables.rules.laps
    game_id = np.arange(first_game, first_game + G, dtype=np.int64)
    finished = st.winner >= 0
    names = np.array(bots.names, dtype=object)

    games = pa.table(
        {
            "game_id": game_id,
            "chunk": np.full(G, chunk, np.int32),
            "n_players": np.full(G, P, np.int8),
            "rounds": st.round.astype(np.int16),
            "finished": finished,
            "winner_seat": pa.array(np.where(finished, st.winner, 0).astype(np.int8), mask=~finished),
            "winner_bot": pa.array(np.where(finished, names[seats[np.arange(G), np.maximum(st.winner, 0)]], None)),
            "first_drafter": st.first_drafter.astype(np.int8),
            "debris_short": st.debris_short.astype(np.int32),  # a game's Debris owed can pass 16 bits
            "debris_left": st.supply[:, tables.rules.debris_card].astype(np.int16),
        }
    )

    won = (np.arange(P)[None, :] == st.winner[:, None]) & finished[:, None]
    laps_done = st.lap.astype(np.int16) - 1 + won  # the winner's last lap is complete too
    progress = (st.lap.astype(np.int32) - 1) * L + st.pos + won * L
    # finish position: the winner first, then by race progress, ties in seat order
    key = np.where(won, 10**9, progress) * P + (P - 1 - np.arange(P))[None, :]
    position = np.argsort(np.argsort(-key, axis=1), axis=1) + 1
    owned = (st.deck + st.hand + st.play + st.lingering + st.garage).sum(axis=2)
    rows = G * P
    lap_cols = {}
    for lap in range(laps):
        done = laps_done > lap
        lap_cols[f"lap{lap + 1}_turns"] = pa.array(st.lap_turns[:, :, lap].ravel(), mask=~done.ravel())
    pb_game, pb_seat, pb = np.nonzero(st.playbooks)  # ordered by game, then seat
    counts = np.bincount(pb_game * P + pb_seat, minlength=rows)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    playbook_ids = np.array(tables.playbooks.ids, dtype=object)
    players = pa.table(
        {
            "game_id": np.repeat(game_id, P),
            "seat": np.tile(np.arange(P, dtype=np.int8), G),
            "draft_position": ((np.arange(P)[None, :] - st.first_drafter[:, None]) % P + 1).astype(np.int8).ravel(),
            "bot": names[seats].ravel(),
            "won": won.ravel(),
            "finish_position": position.astype(np.int8).ravel(),
            "laps_completed": laps_done.astype(np.int8).ravel(),
            **lap_cols,
            "turns": st.turns.ravel(),
            "final_lap": st.lap.ravel(),
            "final_space": st.pos.ravel(),
            "pit_stops": st.pit_stops.ravel(),
            "pit_stop_pending": st.pit_next.ravel(),
            **{f"pit_after_lap{lap + 1}": ((st.pit_laps >> lap) & 1).astype(bool).ravel() for lap in range(laps - 1)},
            "wiped_out": st.wiped_count.ravel(),
            "coins_spent": st.coins_spent.astype(np.int32).ravel(),  # a game's spending can pass 16 bits
            "coins_left": st.coins.ravel(),
            "cards_bought": st.bought.sum(axis=2, dtype=np.int16).ravel(),
            "cards_scrapped": st.scrapped.sum(axis=2, dtype=np.int16).ravel(),
            "playbooks": pa.ListArray.from_arrays(offsets, pa.array(playbook_ids[pb], pa.string())),
            "final_deck_size": owned.astype(np.int16).ravel(),
        }
    )

    # Playbook events name a Playbook
    cards = events.table(first_game, tables.cards.ids, tables.playbooks.ids, ("playbook_draft", "playbook_pit"))
    return {"games": games, "players": players, "cards": cards}
