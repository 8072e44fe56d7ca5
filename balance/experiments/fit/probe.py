"""Before a fit searches: how an item answers its own number (issue 43).

A range a designer (or the report) writes is a guess. Rocket Fuel's printed
`amount=1..3` could never reach fair: at 1 it still read +10.8 points, and
the search ended at the range's end with nothing said. So each free number
that belongs to an item with a strength target is probed first: the item's
strength at both ends of the range (the other values at today's), on the
search's own games (the same deals as every candidate, so the probes are
candidates: the search does not play them again). Where the fair value (the
band's centre) lies outside what the ends read, the range is widened toward
it along the line through the two nearest probes, as far as the database
allows (a value the game refuses is never played), at most WIDENINGS times.
The search then runs over the pair of probed values that bracket the fair
value. Where no pair does, or where the bracket lies between two whole
values that both miss the band, the fit says so in one sentence, with the
nearest value and the item's other levers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..tune.space import Param
from .measure import Figure
from .targets import Target

WIDENINGS = 3  # probes past the range's two ends, at most
REACH = 3.0  # a widening goes at most this many range widths past the end it leaves


@dataclass
class Response:
    """What the probes found for one free number: its item, the strength at each probed value, and the range the search keeps."""

    path: str
    item: str
    target: str  # the target's text
    band: tuple[float, float]
    probes: list[tuple[Any, Figure]] = field(default_factory=list)  # (value, the item's strength there), by value
    low: float = math.nan  # the range the search runs over
    high: float = math.nan
    reach: str = ""  # "band" (a probed value or a value between reaches it), "between" (no whole value does), "beyond"

    @property
    def nearest(self) -> tuple[Any, Figure]:
        """The probed value whose strength lies nearest the band."""
        low, high = self.band
        return min(self.probes, key=lambda p: max(low - p[1].value, p[1].value - high, 0.0))

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "item": self.item,
            "target": self.target,
            "band": list(self.band),
            "probes": [[v, vars(f)] for v, f in self.probes],
            "low": self.low,
            "high": self.high,
            "reach": self.reach,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Response:
        probes = [(v, Figure(**f)) for v, f in data["probes"]]
        return cls(
            data["path"],
            data["item"],
            data["target"],
            tuple(data["band"]),
            probes,
            data["low"],
            data["high"],
            data["reach"],
        )


def probed_params(
    params: list[Param], targets: list[Target], owners: dict[str, str | None]
) -> list[tuple[Param, Target]]:
    """The free numbers worth probing, each with the strength target of its item
    (the item's own, else strength:all): words are choices, tried by the search as they are."""
    out = []
    for p in params:
        item = owners.get(p.name)
        if p.kind == "choice" or item is None:
            continue
        own = [t for t in targets if t.kind == "strength" and t.key == item]
        every = [t for t in targets if t.kind == "strength" and t.key == "all"]
        if own or every:
            out.append((p, (own or every)[0]))
    return out


def probe(
    param: Param,
    target: Target,
    item: str,
    strength_at: Callable[[Any], Figure],
    legal: Callable[[Any], bool],
) -> Response:
    """The item's response to `param`: its strength at the range's ends, then
    toward the band's centre while it lies outside what the probes read.
    `strength_at(value)`: the item's strength with the param at `value` (the
    other values at today's); `legal(value)`: whether the database takes it."""
    whole = param.kind == "int"
    centre = (target.low + target.high) / 2
    read: dict[Any, Figure] = {}
    for value in (param.low, param.high):
        value = int(value) if whole else float(value)
        read[value] = strength_at(value)
    for _ in range(WIDENINGS):
        if _bracket(read, target) is not None:
            break
        low, high = min(read), max(read)
        # the line through the two probes nearest the centre: which way, and about how far, the fair value lies
        a, b = sorted(sorted(read, key=lambda v: abs(read[v].value - centre))[:2])
        slope = (read[b].value - read[a].value) / (b - a)
        if slope == 0 or _within_noise(read[a], read[b]):
            break  # the number barely moves the item: a line through noise points nowhere
        guess = a + (centre - read[a].value) / slope
        if low <= guess <= high:
            break  # the line crosses inside, the probes do not: noise; the search looks between
        end = high if guess > high else low
        width = high - low
        far = min(guess, end + REACH * width) if guess > high else max(guess, end - REACH * width)
        if whole:  # the nearest whole value, at least one step past the end
            far = max(round(far), end + 1) if guess > high else min(round(far), end - 1)
        value = _farthest_legal(end, far, legal, whole)
        if value == end or value in read:
            break  # the database allows nothing farther
        read[value] = strength_at(value)
    response = Response(param.name, item, target.text, (target.low, target.high))
    response.probes = sorted(read.items())
    pair = _bracket(read, target)
    values = sorted(read)
    if pair is None:
        response.reach = "beyond"
        response.low, response.high = min(values), max(values)
        return response
    response.low, response.high = pair
    inside = any(target.miss(f.value) == 0 for f in read.values())
    adjacent = whole and pair[1] - pair[0] == 1
    response.reach = "between" if adjacent and not inside else "band"
    return response


def _bracket(read: dict[Any, Figure], target: Target) -> tuple[Any, Any] | None:
    """Two neighbouring probed values whose strengths lie either side of the
    band's centre, else two of which one reads inside the band; None if none do."""
    centre = (target.low + target.high) / 2
    values = sorted(read)
    pairs = list(zip(values, values[1:], strict=False))
    across = [
        (a, b) for a, b in pairs if min(read[a].value, read[b].value) <= centre <= max(read[a].value, read[b].value)
    ]
    inside = [(a, b) for a, b in pairs if target.miss(read[a].value) == 0 or target.miss(read[b].value) == 0]
    return (across or inside or [None])[0]


def _within_noise(a: Figure, b: Figure) -> bool:
    """Two figures whose difference is smaller than their intervals' half widths added in quadrature."""
    half = math.hypot((a.high - a.low) / 2, (b.high - b.low) / 2)
    return abs(a.value - b.value) < half


def _farthest_legal(end: Any, far: Any, legal: Callable[[Any], bool], whole: bool) -> Any:
    """The value nearest `far` on the way from `end` that the database takes (a bisection: the schema's bounds are an interval)."""
    if legal(far):
        return far
    good, bad = end, far
    for _ in range(40):
        middle = (good + bad) / 2
        if whole:
            middle = int(math.floor(middle)) if bad > good else int(math.ceil(middle))
            if middle in (good, bad):
                break
        if legal(middle):
            good = middle
        else:
            bad = middle
    return good


def narrowed(params: list[Param], responses: list[Response]) -> list[Param]:
    """The params with each probed number's range set to what its probes found."""
    by_path = {r.path: r for r in responses}
    out = []
    for p in params:
        r = by_path.get(p.name)
        if r is None:
            out.append(p)
            continue
        whole = p.kind == "int"
        low, high = (int(r.low), int(r.high)) if whole else (float(r.low), float(r.high))
        out.append(replace(p, low=low, high=high))
    return out


def why_not(response: Response, levers: list[str], name: str) -> str:
    """One sentence where the probed number cannot bring its item into the band; "" where it can."""
    if response.reach == "band":
        return ""
    low, high = response.band
    band = f"{plain_number(low)} to {plain_number(high)} points"
    value, figure = response.nearest
    read = "; ".join(f"{plain_number(v)}: {f.value:+.1f}" for v, f in response.probes)
    other = f"; other levers of {name}: {', '.join(levers)}" if levers else ""
    if response.reach == "between":
        a, b = response.low, response.high
        return (
            f"No whole value of {response.path} brings {name} into its band ({band}): the fair value lies between "
            f"{plain_number(a)} and {plain_number(b)} ({read} points by value, n={figure.n:,} games each){other}, or a condition on the effect."
        )
    return (
        f"No value of {response.path} the database allows brings {name} into its band ({band}): the nearest, "
        f"{plain_number(value)}, reads {figure.value:+.1f} points ({figure.low:+.1f} to {figure.high:+.1f}, n={figure.n:,}; "
        f"probed {read}){other}, or a condition on the effect."
    )


def held_inside(figure: Figure | None, band: tuple[float, float], name: str) -> str:
    """The clause a why_not sentence ends with where the held-out games read the proposal inside the band
    the probes found out of reach: the two reads disagree within their noise ("" where they agree)."""
    if figure is None or not band[0] <= figure.value <= band[1]:
        return ""
    return (
        f" The held-out games read the proposal's {name} inside it ({figure.value:+.1f} points, {figure.low:+.1f} "
        f"to {figure.high:+.1f}, n={figure.n:,}): the probes and the held-out games disagree within their noise, "
        "and more games decide which holds."
    )


def plain_number(x: Any) -> str:
    """A value as a designer writes it: 3, not 3.0; 0.25 as it is."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def levers(entry: dict[str, Any] | None, fitted: str, prefix: str) -> list[str]:
    """The other numbers and words of an item's entry a designer can turn, as
    "PATH (today)": its count, cost, each effect's amounts and triggers; not
    its id, name, text or art, nor the number being fitted."""
    if not entry:
        return []
    out: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("id", "name", "text", "art", "op"):
                    continue
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}.{i}")
        elif isinstance(node, bool | int | float | str) and path != fitted:
            out.append(f"{path} ({node})")

    walk(entry, prefix)
    return out
