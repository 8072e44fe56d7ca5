"""The card events of a batch, for the `cards` log table: each event site in
an engine appends whole arrays (the games, seats and cards it concerns), so
logging costs a few array copies per step, not a Python call per game.

One vocabulary for every game, so the reports read every run the same way:
Heat logs start, draft (Garage upgrades) and play; Downforce start, auction,
power, play and bet; Horsepower all but power and bet."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

EVENTS: tuple[str, ...] = (
    "start",  # a starting card (Horsepower 2.4), dealt before the first turn
    "draft",  # a part (Heat: a Garage upgrade) drafted (pick = pick number)
    "buy",  # bought from the Showroom (price)
    "auction",  # won at an Auction (price)
    "free_auction",  # taken free after nobody bid
    "scrap",  # scrapped to the Scrapyard
    "playbook_draft",  # the Playbook drafted (card = Playbook id; pick)
    "playbook_pit",  # the Playbook kept at a Pit Stop
    "play",  # played from hand
    "power",  # Downforce: the power card a player kept (card = the power's id)
    "bet",  # Downforce: a bet (card = the bet car's Speed-8 card; pick = the betting line)
)
_CODE = {name: i for i, name in enumerate(EVENTS)}
# Each column's type in the finished table: narrow, so a chunk's millions of
# events cost little memory; -1 in pick and price means "not applicable".
_FIELDS: dict[str, type] = {
    "game": np.int32,
    "seat": np.int8,
    "card": np.int16,
    "event": np.int8,
    "turn": np.int16,
    "pick": np.int16,
    "price": np.int16,
}


class Events:
    def __init__(self) -> None:
        # per add(): the event count and each field as given (an array or one number)
        self._parts: list[tuple[int, tuple[np.ndarray | int, ...]]] = []

    def add(
        self,
        event: str,
        games: np.ndarray,
        seats: np.ndarray | int,
        cards: np.ndarray,
        turns: np.ndarray,
        pick: np.ndarray | int = -1,
        price: np.ndarray | int = -1,
    ) -> None:
        """Record one event per element of `games` (-1 pick/price: not applicable).
        The arrays are kept as they are (callers pass fresh ones) and copied
        once, into the finished columns, by arrays()."""
        n = len(games)
        if n:
            self._parts.append((n, (games, seats, cards, _CODE[event], turns, pick, price)))

    def add_coded(self, games, seats, cards, codes, turns, picks, prices) -> None:
        """Events of several kinds at once, `codes` (n,) their positions in EVENTS:
        what an engine that writes its events into a buffer of its own hands over."""
        if len(games):
            self._parts.append((len(games), (games, seats, cards, codes, turns, picks, prices)))

    def arrays(self) -> dict[str, np.ndarray]:
        """All events as columns, game by game, each game's in the order they
        happened: a game's events do not depend on which others shared its
        batch, so neither does the log (an engine that plays games one at a
        time writes the same table as one that plays them in lockstep)."""
        total = sum(n for n, _ in self._parts)
        out = {name: np.empty(total, dtype) for name, dtype in _FIELDS.items()}
        columns = list(out.values())
        at = 0
        for n, values in self._parts:
            for column, value in zip(columns, values, strict=True):
                column[at : at + n] = value
            at += n
        order = np.argsort(out["game"], kind="stable")
        return {name: column[order] for name, column in out.items()}

    def table(self, first_game: int, card_ids, other_ids=(), other_events: tuple[str, ...] = ()) -> pa.Table:
        """The `cards` log table (docs/logs.md) of a chunk whose first game is
        `first_game`. The card column names the id of card_ids; an event in
        `other_events` names an item of `other_ids` instead (a Playbook, a
        power card), whose index follows the cards' in the column's dictionary."""
        ev = self.arrays()
        card = ev["card"]
        if other_events:
            other = np.isin(ev["event"], [_CODE[e] for e in other_events])
            card = card + other.astype(np.int16) * np.int16(len(card_ids))
        return pa.table(
            {
                "game_id": ev["game"].astype(np.int64) + first_game,
                "seat": ev["seat"],
                "card": pa.DictionaryArray.from_arrays(card, pa.array([*card_ids, *other_ids], pa.string())),
                "event": pa.DictionaryArray.from_arrays(ev["event"], pa.array(EVENTS)),
                "turn": ev["turn"],
                "pick": pa.array(ev["pick"], mask=ev["pick"] < 0),
                "price": pa.array(ev["price"], mask=ev["price"] < 0),
            }
        )
