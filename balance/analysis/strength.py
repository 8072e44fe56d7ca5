"""Card strength by experiment: the same games with and without an extra copy
of a card in one seat's starting deck. The receiving seat is fixed per game
(seeding.bonus_seat), so each game is paired with itself: the change in that
seat's win rate is the card's effect, free of which bots pick which cards."""

from __future__ import annotations

import numpy as np
import polars as pl

from ..seeding import bonus_seat
from .stats import Z95, benjamini_hochberg, two_sided_p
from .winrate import Run


def receiving_seat_wins(run: Run, seed: int, players: int) -> pl.DataFrame:
    """(game_id, won) of the seat that gets the extra card in each game."""
    games = run["games"].select("game_id").collect()["game_id"].to_numpy()
    seats = pl.DataFrame({"game_id": games, "seat": bonus_seat(seed, games, players).astype(np.int8)})
    return seats.join(run["players"].select("game_id", "seat", "won").collect(), on=["game_id", "seat"])


def strength_table(baseline: pl.DataFrame, with_card: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per card: the receiving seat's win rate without and with it, the
    paired difference and its 95% interval, p-value, BH flag; ranked."""
    rows = []
    for card, frame in with_card.items():
        joined = baseline.join(frame, on="game_id", suffix="_with")
        d = (joined["won_with"].cast(pl.Int8) - joined["won"].cast(pl.Int8)).to_numpy().astype(float)
        n = len(d)
        mean = float(d.mean()) if n else float("nan")
        se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
        z = abs(mean) / se if se > 0 else (0.0 if mean == 0 else float("inf"))
        rows.append(
            {
                "card": card,
                "games": n,
                "win_rate_without": float(joined["won"].mean()),
                "win_rate_with": float(joined["won_with"].mean()),
                "change": mean,
                "ci_low": mean - Z95 * se,
                "ci_high": mean + Z95 * se,
                "p_value": float(two_sided_p(z)),
            }
        )
    table = pl.DataFrame(rows)
    return table.with_columns(pl.Series("significant", benjamini_hochberg(table["p_value"].to_numpy()))).sort(
        "change", descending=True
    )
