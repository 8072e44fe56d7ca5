"""A finished chunk of Shuffle Grand Prix games as the three log tables of a
run (docs/logs.md): games (one row per game), players (one per game and
seat; seats clockwise), cards (one per card event: `draft` (a driver picked:
card = the driver's first ability card in the database, pick = the pick
number), `play` (an ability card played from hand, anytime answers included))."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..events import Events
from .bots import BotTable
from .compile import Tables
from .state import State, total_distance


def finish_order(st: State, tables: Tables) -> np.ndarray:
    """(G, P) finishing position (1 = winner): total distance, then trophies
    (rulebook "Winning"); ours: a tie after both (the rulebook's foot race)
    goes to the earlier seat from the first player."""
    G, P = st.tire.shape
    dist = total_distance(st, tables.distance.value.astype(np.int32))
    order = (np.arange(P)[None, :] - st.first[:, None].astype(np.int64)) % P
    # trophies held never pass the box's: ranked under distance by a place above them
    key = (dist * (tables.rules.trophies + 1) + st.trophies) * P + (P - 1 - order)
    return np.argsort(np.argsort(-key, axis=1), axis=1) + 1


def chunk_tables(
    st: State, events: Events, seats: np.ndarray, tables: Tables, bots: BotTable, first_game: int, chunk: int
) -> dict[str, pa.Table]:
    G, P, _ = st.shape
    game_id = np.arange(first_game, first_game + G, dtype=np.int64)
    position = finish_order(st, tables)
    finished = (st.deck.sum(axis=1) + st.bottom.sum(axis=1)) == 0  # not cut off by the turn cap
    won = (position == 1) & finished[:, None]
    winner = np.where(finished, won.argmax(axis=1), 0)
    names = np.array(bots.names, dtype=object)
    drivers = np.array(tables.drivers.ids, dtype=object)
    dist = total_distance(st, tables.distance.value.astype(np.int32))

    games = pa.table(
        {
            "game_id": game_id,
            "chunk": np.full(G, chunk, np.int32),
            "n_players": np.full(G, P, np.int8),
            "rounds": st.turn.astype(np.int16),
            "finished": finished,
            "winner_seat": pa.array(winner.astype(np.int8), mask=~finished),
            "winner_bot": pa.array(np.where(finished, names[seats[np.arange(G), winner]], None)),
            "first_seat": st.first.astype(np.int8),
            "spin_outs": st.spin_outs.sum(axis=1).astype(np.int32),
        }
    )
    players = pa.table(
        {
            "game_id": np.repeat(game_id, P),
            "seat": np.tile(np.arange(P, dtype=np.int8), G),
            "bot": names[seats].ravel(),
            "won": won.ravel(),
            "finish_position": position.astype(np.int8).ravel(),
            "distance": dist.ravel(),
            "distance_cards": st.height.ravel(),
            "distance_bonus": st.bonus.ravel(),
            "trophies": st.trophies.ravel(),
            "driver": drivers[st.driver].ravel(),
            "co_pilot": drivers[st.co_pilot].ravel(),
            "tire_health": st.tire.ravel(),
            "spin_outs": st.spin_outs.ravel(),
            "spin_outs_caused": st.spins_caused.ravel(),
            "damage_dealt": st.damage_dealt.ravel(),
            "damage_taken": st.damage_taken.ravel(),
            "damage_absorbed": st.absorbed.ravel(),
            "cards_played": st.played.sum(axis=2).astype(np.int32).ravel(),
            "cancels": st.cancels.ravel(),
            "anytime_plays": st.anytime_plays.ravel(),
            "trophies_won": st.trophies_won.ravel(),
            "trophies_spent": st.trophies_spent.ravel(),
            "driver_swaps": st.swaps.ravel(),
            "extra_plays": st.extra_plays.ravel(),
            "pit_stops": st.pit_stops.ravel(),
            "traps_sprung": st.traps_sprung.ravel(),
            "distance_drawn": st.distance_drawn.ravel(),
            "distance_lost": st.distance_lost.ravel(),
            "turns": st.turns_taken.ravel(),
            "turns_skipped": st.turns_skipped.ravel(),
        }
    )
    cards = events.table(first_game, tables.cards.ids)
    return {"games": games, "players": players, "cards": cards}
