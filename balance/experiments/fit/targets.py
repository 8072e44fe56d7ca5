"""What "balanced" means to `balance fit`: targets with tolerances, in the
units a designer reads (win rates in percent, differences in points).

    seat-balance<=2          every seat's win rate within 2 points of fair (one figure per seat)
    draft-balance<=2         the same for every draft position (Horsepower: 1 = the first pick)
    bot-spread<=10           best bot's win rate minus the worst's, at most 10 points
    strength:twin_turbo=0+-2 the item's causal strength within 0 +- 2 points
    strength:all+-3          every designable item's strength within +-3 points of 0
    rounds=18..24            the mean game length (the game's own unit) between 18 and 24

A target is a band [low, high] on each of its measured figures (one per
seat for seat-balance: the seat's win rate minus its fair share, in [-2, 2];
one per item for strength:all); `miss` is how far a figure lies outside it
(0 inside), the part of the search's objective that a proposal must bring to
0. Each seat is a figure of its own, not only the farthest: the sum of the
seats' misses falls as any seat comes nearer fair, where the largest distance
alone moves only with the worst seat and so ranks candidates by one seat's
noise. The search aims inside the band (`aim`): a figure
measured on the search's games moves by noise on fresh seeds, so a proposal
found at the band's edge would fail its held-out confirmation about half the
time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ...errors import Problem, UserError, did_you_mean
from ...printable import quoted

KINDS = ("seat-balance", "draft-balance", "bot-spread", "strength", "rounds")
_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"  # ASCII digits: \d would take a full-width ５ too
_FORMS = (
    (re.compile(rf"^(?P<kind>seat-balance|draft-balance|bot-spread)<=(?P<high>{_NUMBER})$"), "at most"),
    (re.compile(rf"^strength:(?P<key>all)\+-(?P<tol>{_NUMBER})$"), "all"),
    (re.compile(rf"^strength:(?P<key>[A-Za-z0-9_.-]+)=(?P<centre>{_NUMBER})\+-(?P<tol>{_NUMBER})$"), "within"),
    (re.compile(rf"^rounds=(?P<low>{_NUMBER})\.\.(?P<high>{_NUMBER})$"), "between"),
)
AIM = 0.5  # the search aims at the middle half of a band (at most half of an upper limit)
EXAMPLES = "seat-balance<=2, draft-balance<=2, bot-spread<=10, strength:ID=0+-2, strength:all+-3, rounds=18..24"


@dataclass(frozen=True)
class Target:
    kind: str  # one of KINDS
    key: str  # the item for strength (an id, or "all"); "" otherwise
    low: float  # the band the figure must fall in, in its unit (points, or the game's length unit)
    high: float
    text: str  # as the designer wrote it

    @property
    def aim(self) -> tuple[float, float]:
        """The part of the band the search aims at: an upper limit's lower half
        (nearer 0 is better), a band's middle half (a seat's: within half the limit of fair)."""
        if self.kind == "bot-spread":
            return self.low, self.high * AIM
        centre, half = (self.low + self.high) / 2, (self.high - self.low) * AIM / 2
        return centre - half, centre + half

    def miss(self, value: float, aim: bool = False) -> float:
        """How far `value` lies outside the band (or, with `aim`, outside the part
        the search aims at); 0 inside, inf for a figure that could not be measured."""
        if not math.isfinite(value):
            return math.inf
        low, high = self.aim if aim else (self.low, self.high)
        return max(low - value, value - high, 0.0)


def parse_target(text: str) -> Target:
    """One `--target`; a one-line error naming the forms it takes."""
    spec = "".join(text.split())
    for pattern, form in _FORMS:
        m = pattern.match(spec)
        if not m:
            continue
        if form == "at most":
            high = float(m["high"])
            if high < 0:
                break
            return Target(m["kind"], "", 0.0 if m["kind"] == "bot-spread" else -high, high, text)
        if form in ("all", "within"):
            tol = float(m["tol"])
            if tol < 0:
                break
            centre = 0.0 if form == "all" else float(m["centre"])
            return Target("strength", m["key"], centre - tol, centre + tol, text)
        low, high = float(m["low"]), float(m["high"])
        if low > high:
            break
        return Target("rounds", "", low, high, text)
    raise UserError(Problem("--target", None, "target", f"{quoted(text)} is not a target (forms: {EXAMPLES})"))


def check_items(targets: list[Target], items: list[str]) -> None:
    """Every `strength:ID` target names an item the game can give a seat (before any game)."""
    for t in targets:
        if t.kind == "strength" and t.key != "all" and t.key not in items:
            shown = ", ".join(items[:12]) + (f", and {len(items) - 12} more" if len(items) > 12 else "")
            raise UserError(
                Problem(
                    "--target",
                    None,
                    "target",
                    f"{t.text!r}: no item with id {t.key!r}{did_you_mean(t.key, items)} (known: {shown})",
                )
            )
