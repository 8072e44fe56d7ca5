"""A finished chunk of Downforce games as the three log tables of a run
(docs/logs.md): games (one row per game, with each car's buyer, price,
auction round, power, start and place), players (one per game and player:
money and where it came from), cards (start, auction, power, play, bet)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..events import Events
from .bots import BotTable
from .compile import Tables
from .state import State


def money(st: State, tables: Tables) -> dict[str, np.ndarray]:
    """(G, N) each player's prizes, bet winnings, bids and total ($M)."""
    G, N, _ = st.hand.shape
    rows = np.arange(G)[:, None]
    finished = st.place > 0
    prize_of_car = np.where(finished, tables.rules.prizes[np.maximum(st.place - 1, 0)], 0)  # (G, 6)
    prizes = np.zeros((G, N), np.int32)
    np.add.at(prizes, (np.broadcast_to(rows, st.owner.shape), np.maximum(st.owner, 0)), prize_of_car)
    bets = np.zeros((G, N), np.int32)
    for k in range(st.bets.shape[2]):
        car = st.bets[:, :, k]  # (G, N)
        place = np.where(car >= 0, st.place[rows, np.maximum(car, 0)], 0)
        pays = (place >= 1) & (place <= tables.rules.payouts.shape[1])
        bets += np.where(pays, tables.rules.payouts[k, np.clip(place - 1, 0, 2)], 0)
    bids = st.paid.astype(np.int32)
    return {"prizes": prizes, "bets": bets, "bids": bids, "money": prizes + bets - bids}


def standings(st: State, tables: Tables) -> np.ndarray:
    """(G, N) final position (1 = winner): most money; ties go to the player
    whose best car finished higher (a stalled car counts as no finish)."""
    G, N, _ = st.hand.shape
    total = money(st, tables)["money"]
    place = np.where(st.place > 0, st.place, 99)
    mine = st.owner[:, None, :] == np.arange(N)[None, :, None]  # (G, N, 6)
    best = np.where(mine, place[:, None, :], 99).min(axis=2)
    key = total.astype(np.int64) * 1000 + (100 - best)
    key = key * N + (N - 1 - np.arange(N))[None, :]  # still tied: the lower seat (ours)
    return np.argsort(np.argsort(-key, axis=1), axis=1) + 1


def chunk_tables(
    st: State, events: Events, seats: np.ndarray, tables: Tables, bots: BotTable, first_game: int, chunk: int
) -> dict[str, pa.Table]:
    G, N, C = st.hand.shape
    game_id = np.arange(first_game, first_game + G, dtype=np.int64)
    names = np.array(bots.names, dtype=object)
    position = standings(st, tables)
    won = position == 1
    winner = won.argmax(axis=1)
    cash = money(st, tables)
    powers = np.array([*tables.powers.ids, None], dtype=object)  # a power index of -1 (none) reads None
    per_car = {}
    for c, colour in enumerate(tables.cars):
        per_car[f"{colour}_owner"] = st.owner[:, c]
        per_car[f"{colour}_price"] = st.price[:, c]
        per_car[f"{colour}_auction"] = st.sold[:, c]
        per_car[f"{colour}_power"] = pa.array(powers[st.car_power[:, c]], pa.string())  # null: sold without one
        per_car[f"{colour}_start"] = st.start[:, c]
        per_car[f"{colour}_place"] = pa.array(st.place[:, c], mask=st.place[:, c] == 0)
    games = pa.table(
        {
            "game_id": game_id,
            "chunk": np.full(G, chunk, np.int32),
            "n_players": np.full(G, N, np.int8),
            "rounds": st.turns.astype(np.int16),  # cards played in the race
            # false where rules.max_turns cut the race; it is scored there all the same: the cars still
            # racing earn nothing, like stalled ones, and the richest player wins
            "finished": ~st.cut,
            "winner_seat": winner.astype(np.int8),
            "winner_bot": names[seats[np.arange(G), winner]],
            "track": np.full(G, tables.tracks[tables.rules.track].id, dtype=object),
            "stalled": (st.place == 0).sum(axis=1).astype(np.int8),
            **per_car,
        }
    )

    owns = st.owner[:, None, :] == np.arange(N)[None, :, None]  # (G, N, 6)
    place = np.where(st.place > 0, st.place, 99)
    best = np.where(owns, place[:, None, :], 99).min(axis=2)
    colours = np.array(tables.cars, dtype=object)
    g_, n_, c_ = np.nonzero(owns)
    counts = np.bincount(g_ * N + n_, minlength=G * N)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    players = pa.table(
        {
            "game_id": np.repeat(game_id, N),
            "seat": np.tile(np.arange(N, dtype=np.int8), G),
            "bot": names[seats].ravel(),
            "won": won.ravel(),
            "finish_position": position.astype(np.int8).ravel(),
            "money": cash["money"].astype(np.int16).ravel(),
            "prizes": cash["prizes"].astype(np.int16).ravel(),
            "bets_won": cash["bets"].astype(np.int16).ravel(),
            "bids_paid": cash["bids"].astype(np.int16).ravel(),
            "cars": pa.ListArray.from_arrays(offsets, pa.array(colours[c_], pa.string())),
            "n_cars": owns.sum(axis=2).astype(np.int8).ravel(),
            "best_place": pa.array(best.astype(np.int8).ravel(), mask=(best == 99).ravel()),
            "power": pa.array(powers[st.power].ravel(), pa.string()),
            "cards_played": st.played.sum(axis=2).astype(np.int16).ravel(),
        }
    )

    cards = events.table(first_game, tables.cards.ids, tables.powers.ids, ("power",))
    return {"games": games, "players": players, "cards": cards}
