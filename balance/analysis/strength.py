"""Card strength by experiment: the same games with and without an item given
to one seat. The receiving seat is fixed per game (seeding.bonus_seat), so each
game is paired with itself: the change in that seat's win rate is the item's
effect, free of which bots pick which items.

Two references, by how an item is given (docs/strength_horsepower.md):
- an extra item (a card added to a deck) is measured against the same games
  without it;
- an item given in place of the seat's own pick (a Playbook, a Downforce power,
  a Shuffle GP driver) is measured against the average item of its kind: its
  change minus the mean change of every item of that kind. Against the seat's
  own pick, a dominant item that the bots take first (Shuffle GP's Comet) makes
  every other item read weak, and one weak item planted among them does not
  stand out; against the average, each reads as what it adds over a typical
  replacement. The raw change (against the own pick) stays as `change_vs_own`.

The change is the paired one with a control variate. The receiving seat is
drawn apart from the game, so its win rate without the item is known in
expectation from each baseline game alone: the mean win of the seats it is
drawn from (1/P where every game has one winner and every seat may receive).
Each game's with-item win less that expectation is the item's effect plus
noise; the baseline's own receiving-seat win less the same expectation has
mean 0 and is subtracted in proportion to how the two games move together
(beta, fitted per item, about 0.3 in Horsepower). The plain paired
difference (beta 1) carried the whole luck of the shared baseline into every
item: a baseline that read 22.3% where 25% is exact made 44 cards read 2.2
points strong together, and 17 of them "too strong". On four-player-mixed,
2,048 games an item: variance per game 0.265 paired, 0.170 with the control
variate (docs/performance.md).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import polars as pl

from ..seeding import bonus_seat
from .band import FAIR_BAND
from .stats import Z95, benjamini_hochberg, two_sided_p
from .winrate import Run

STRONGER, WEAKER, FAIR, UNDECIDED = "too strong", "too weak", "fair", "undecided"


def receiving_seat_wins(run: Run, seed: int, players: int, legends: frozenset[str] = frozenset()) -> pl.DataFrame:
    """(game_id, won, expected) of the seat that gets the extra card in each game (`expected`: the mean win of
    the seats it is drawn from, its win's expectation given the game); with `legends` (bot names of Heat's
    Legends), drawn among the other seats, as the engine draws it (seeding.bonus_seat)."""
    frame = run["players"].select("game_id", "seat", "bot", "won").collect()
    games = run["games"].select("game_id").collect()["game_id"].to_numpy()
    eligible = None
    if legends:
        eligible = eligible_seats(frame, games, players, legends)
    seats = pl.DataFrame({"game_id": games, "seat": bonus_seat(seed, games, players, eligible).astype(np.int8)})
    drawn_from = frame if not legends else frame.filter(~pl.col("bot").is_in(list(legends)))
    expected = drawn_from.group_by("game_id").agg(pl.col("won").cast(pl.Float64).mean().alias("expected"))
    return seats.join(frame.select("game_id", "seat", "won"), on=["game_id", "seat"]).join(expected, on="game_id")


def eligible_seats(frame: pl.DataFrame, games: np.ndarray, players: int, legends: frozenset[str]) -> np.ndarray:
    """(len(games), players) bool: the seats whose bot is not a Legend, game by game (a players table)."""
    out = np.zeros((len(games), players), bool)
    rows = frame.filter(~pl.col("bot").is_in(list(legends)))
    order = np.argsort(games, kind="stable")  # each row's game found by binary search, not a loop over games
    index = order[np.searchsorted(games, rows["game_id"].to_numpy(), sorter=order)]
    out[index, rows["seat"].to_numpy().astype(np.int64)] = True
    return out


def next_z(significant: np.ndarray, q: float = 0.05) -> float:
    """The z an item's paired change must reach to be the next one significant
    after the Benjamini-Hochberg correction: with S of m items significant,
    p <= (S + 1) q / m."""
    m = max(len(significant), 1)
    need = min(1.0, (int(np.sum(significant)) + 1) * q / m)
    return float(NormalDist().inv_cdf(1 - need / 2))


def deciding_width(change: float, tolerance: float, z_next: float) -> float:
    """The 95% half width at which an undecided item's interval decides (verdict),
    at its estimate: one estimated inside the band decides fair once the
    interval is narrower than the band's room around the estimate (tolerance -
    |change|), one estimated past its edge decides once it is clear of the
    band (|change| - tolerance) and significant (narrower than |change| scaled
    from the z the correction asks to the 95% z). An item near the edge, on
    either side, needs many games: more games would tell which side it is, and
    nothing less can."""
    if abs(change) < tolerance:
        return tolerance - abs(change)
    return min(abs(change) - tolerance, Z95 * abs(change) / z_next)


def games_to_decide(games: int, half_width: float, change: float, tolerance: float, z_next: float) -> int:
    """The paired games an item needs for its interval to decide, at its change
    (an interval narrows as 1/sqrt(games))."""
    width = deciding_width(change, tolerance, z_next)
    if width <= 0 and change == 0:
        return games  # a change of exactly 0 with no band: nothing to decide between
    width = max(width, 1e-6)  # an estimate exactly on the edge: as many games as a hair's breadth from it
    return int(math.ceil(games * (half_width / width) ** 2))


def games_in_rounds(games: int, needed: int) -> int:
    """The games an adaptive design (experiments.strength.Design) gives an item
    with `games` that needs `needed`: its games doubled, round by round, until
    they reach it."""
    while games < needed:
        games *= 2
    return games


def verdict(low: float, high: float, tolerance: float, change: float | None = None) -> str:
    """An interval's reading against the fair band (-tolerance, +tolerance):
    fair where it lies inside the band (even where it excludes 0: an effect too
    small to act on); too strong where it lies past the band's edge (low >
    tolerance), too weak the other way; else neither yet (more games would
    tell). Each side needs the same evidence: an item is called fair, or out
    of balance, only where its 95% interval says so.

    The flag's bar rose twice. Until 2026-12-06 an estimate past the edge with
    an interval clear of 0 was flagged: at a first look of 1,024 games that
    called an item at +2 points too strong about one time in four. Clearing
    the band's inner half halved that, but still called an item at +2.5 too
    strong 37% of the time, at +2 13% (scripts/verdict_error_rates.py): a
    database whose items sit at +2 to +3 (Horsepower's tenth: eight precise
    reads of +2 to +3.3) was "too strong" somewhere in every report, 5 to 8
    items a read. Clear of the band, 2% and 0.3%, for about twice the games
    near the edge (docs/performance.md).
    `change`: the estimate, where the interval is not symmetric around it."""
    if change is None:
        change = (low + high) / 2
    if -tolerance < low and high < tolerance:
        return FAIR
    if low > tolerance and change > tolerance:
        return STRONGER
    if high < -tolerance and change < -tolerance:
        return WEAKER
    return UNDECIDED


def on_the_edge(verdict_: str, low: float, high: float) -> bool:
    """An undecided item whose interval is clear of 0: neither inside the band nor past it, so it straddles the
    edge on its own side. More games only tell which side it sits (an item at the edge never decides); a small
    step toward 0 settles it, and rebalance steps it."""
    return verdict_ == UNDECIDED and (low > 0 or high < 0)


def verdict_counts(table: pl.DataFrame) -> dict[str, int]:
    """How many items each verdict holds (fair, too strong, too weak, undecided)."""
    counts = dict(table["verdict"].value_counts().iter_rows())
    return {v: int(counts.get(v, 0)) for v in (FAIR, STRONGER, WEAKER, UNDECIDED)}


def controlled(won_with: np.ndarray, won: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, float]:
    """Each game's estimate of the item's effect (the with-item win less the win expected without it, less
    beta times the baseline's own departure from that expectation) and the win rate without it so
    estimated (the module's docstring): beta the least-squares slope, 0 where the baseline's win is its
    expectation; an item that changes no game reads exactly 0 (beta exactly 1)."""
    y, c = won_with - expected, won - expected
    dy, dc = y - y.mean(), c - c.mean()
    spread = float(dc @ dc) if len(c) else 0.0
    beta = float(dy @ dc) / spread if spread > 0 else 0.0
    effect = y - beta * c
    return effect, float(won_with.mean() - effect.mean()) if len(c) else float("nan")


def strength_table(
    baseline: pl.DataFrame,
    with_card: dict[str, pl.DataFrame],
    replaces: dict[str, str] | None = None,
    tolerance: float = FAIR_BAND / 100,
) -> pl.DataFrame:
    """One row per item: the receiving seat's win rate without and with it, the
    paired difference and its 95% interval, p-value, BH flag and verdict;
    ranked. `replaces`: item -> its kind, for the items given in place of the
    seat's own pick (measured against the average of their kind, see the
    module's docstring). Each item's games are its own (an adaptive design
    gives the undecided ones more); the baseline holds at least as many."""
    rows = []
    if "expected" not in baseline.columns:  # no expectation known: the baseline's own win, the plain difference
        baseline = baseline.with_columns(pl.col("won").cast(pl.Float64).alias("expected"))
    for card, frame in with_card.items():
        joined = baseline.join(frame, on="game_id", suffix="_with")
        n = joined.height
        effect, without = controlled(
            joined["won_with"].cast(pl.Float64).to_numpy(),
            joined["won"].cast(pl.Float64).to_numpy(),
            joined["expected"].to_numpy(),
        )
        rows.append(
            {
                "card": card,
                "games": n,
                "win_rate_without": without if n else float("nan"),
                "win_rate_with": float(joined["won_with"].mean()) if n else float("nan"),
                "change_vs_own": float(effect.mean()) if n else float("nan"),
                "se": float(effect.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan"),
            }
        )
    table = pl.DataFrame(rows)
    versus = [("the average " + replaces[c]) if replaces and c in replaces else "without it" for c in table["card"]]
    change, se = table["change_vs_own"].to_numpy().copy(), table["se"].to_numpy().copy()
    for kind in sorted(set((replaces or {}).values())):
        mine = np.array([(replaces or {}).get(c) == kind for c in table["card"]])
        if mine.sum() < 2:  # one item of its kind: no average to hold it against
            continue
        # the mean change of the kind, and its standard error; adding it to each item's variance ignores their
        # positive covariance (the item is in the mean, the baseline is shared), so the interval errs wide
        mean = change[mine].mean()
        se_mean = np.sqrt(np.sum(se[mine] ** 2)) / mine.sum()
        change[mine] = change[mine] - mean
        se[mine] = np.sqrt(se[mine] ** 2 + se_mean**2)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, np.abs(change) / se, np.where(change == 0, 0.0, np.inf))
    low, high = change - Z95 * se, change + Z95 * se
    table = table.with_columns(
        pl.Series("change", change),
        pl.Series("ci_low", low),
        pl.Series("ci_high", high),
        pl.Series("versus", versus, dtype=pl.String),
        pl.Series("p_value", two_sided_p(z)),
    ).drop("se")
    table = with_verdicts(
        table.with_columns(pl.Series("significant", benjamini_hochberg(table["p_value"].to_numpy()))), tolerance
    )
    columns = ["card", "games", "win_rate_without", "win_rate_with", "change", "ci_low", "ci_high", "p_value"]
    return table.select(*columns, "significant", "verdict", "versus", "change_vs_own").sort("change", descending=True)


def with_verdicts(table: pl.DataFrame, tolerance: float) -> pl.DataFrame:
    """The table with each item's verdict read from its interval, estimate and significance (columns ci_low,
    ci_high, change, significant) at this band: a flag stands only where it is significant after the
    correction. A table stored by an earlier rule, or measured at another band, reads as today's does."""
    rows = table.select("ci_low", "ci_high", "change", "significant").iter_rows()
    verdicts = [read_verdict(lo, hi, tolerance, c, s) for lo, hi, c, s in rows]
    return table.with_columns(pl.Series("verdict", verdicts, dtype=pl.String))


def read_verdict(
    low: float | None, high: float | None, tolerance: float, change: float | None, significant: bool = True
) -> str:
    """One stored item's verdict (verdict), a flag standing only where it is significant after the correction;
    undecided where a cell is empty (a hand-edited table: nothing to read)."""
    if low is None or high is None or change is None:
        return UNDECIDED
    v = verdict(low, high, tolerance, change)
    return v if significant or v in (FAIR, UNDECIDED) else UNDECIDED
