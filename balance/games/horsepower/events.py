"""The card events of a batch, for the `cards` log table: each event site in
the engine appends whole arrays (the games, seats and cards it concerns), so
logging costs a few array copies per step, not a Python call per game."""

from __future__ import annotations

import numpy as np

EVENTS: tuple[str, ...] = (
    "start",  # a starting card (2.4), dealt before the first turn
    "draft",  # a part drafted (pick = pick number)
    "buy",  # bought from the Showroom (price)
    "auction",  # won at an Auction (price)
    "free_auction",  # taken free after nobody bid
    "scrap",  # scrapped to the Scrapyard
    "playbook_draft",  # the Playbook drafted (card = Playbook id; pick)
    "playbook_pit",  # the Playbook kept at a Pit Stop
    "play",  # played from hand
)
_CODE = {name: i for i, name in enumerate(EVENTS)}
_FIELDS = ("game", "seat", "card", "event", "turn", "pick", "price")


class Events:
    def __init__(self) -> None:
        self._parts: list[tuple[np.ndarray, ...]] = []

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
        """Record one event per element of `games` (-1 pick/price: not applicable)."""
        n = len(games)
        if n == 0:
            return
        full = lambda value: np.broadcast_to(np.asarray(value, dtype=np.int32), (n,))  # noqa: E731
        self._parts.append(
            (full(games), full(seats), full(cards), full(_CODE[event]), full(turns), full(pick), full(price))
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """All events as columns, in the order they happened."""
        if not self._parts:
            return {name: np.zeros(0, np.int32) for name in _FIELDS}
        return {name: np.concatenate([part[i] for part in self._parts]) for i, name in enumerate(_FIELDS)}
