"""What `balance fit` may change: `--free PATH=RANGE`, the paths and ranges of
`balance sweep` (`cards.twin_turbo.effects.0.amount=2..8`, `1,3,5`,
`2.5:3.5:0.5`), as the search's numbers: bounds from the range, today's value
from the card database as the scenario plays it, an integer where the range
is one. A value that is a word takes a list of words
(`cards.mag_wheels.effects.1.keep=sum,best`): a choice, today's word among them."""

from __future__ import annotations

import itertools
from typing import Any

from ...errors import Problem, UserError
from ...overrides import canonical_path, resolve_path, split_path
from ...scenario import Scenario
from ..sweep import parse_values
from ..tune.space import Param


def free_params(scenario: Scenario, frees: list[str]) -> list[Param]:
    """One search Param per `--free`; one-line errors before any game."""
    data = scenario.database_doc().data
    params: list[Param] = []
    for text in frees:
        if "=" not in text:
            raise UserError(
                Problem(
                    "--free",
                    None,
                    "free",
                    f"{text!r}: expected PATH=RANGE, e.g. cards.twin_turbo.effects.0.amount=2..8",
                )
            )
        path, values_text = text.split("=", 1)
        path = path.strip()
        where = resolve_path(data, split_path(path))
        if isinstance(where, str):
            raise UserError(Problem("--free", None, path, where))
        given, path = path, canonical_path(data, where)  # one path, however it is spelled
        parent = data
        for key in where[:-1]:
            parent = parent[key]
        node = parent.get(where[-1]) if isinstance(parent, dict) else parent[where[-1]]  # a key may be unset
        if node is None:
            raise UserError(Problem("--free", None, path, "is not set in the card database: nothing to start from"))
        if path in (p.name for p in params):
            again = "" if given == path else f" (as {given})"
            raise UserError(Problem("--free", None, path, f"is given twice{again}"))
        if isinstance(node, str) and where[-1] in ("name", "id", "art", "text"):
            raise UserError(Problem("--free", None, path, f"is {node!r}, a name, not a value to search"))
        if isinstance(node, str):  # a word (dice keep: sum or best): a choice among the words given, today's too
            words = [w.strip() for w in values_text.split(",") if w.strip()]
            if not words or any(not w.replace("_", "").isalnum() for w in words):
                raise UserError(
                    Problem("--free", None, path, f"is {node!r}: give the words to choose from, e.g. sum,best")
                )
            params.append(Param(tuple(split_path(path)), "choice", node, choices=tuple(dict.fromkeys([node, *words]))))
            continue
        if isinstance(node, bool) or not isinstance(node, int | float):
            raise UserError(Problem("--free", None, path, f"is {node!r}, not a number to search"))
        values = parse_values(values_text, "--free")
        # a comma list is those values, not the range between them (unless it is that range, 0,1,2,3)
        whole_run = all(isinstance(v, int) for v in values) and sorted(set(values)) == list(
            range(int(min(values)), int(max(values)) + 1)
        )
        if "," in values_text and len(set(values)) > 1 and not whole_run:
            params.append(Param(tuple(split_path(path)), "choice", node, choices=tuple(dict.fromkeys([node, *values]))))
            continue
        if min(values) == max(values):  # nothing to search: a fixed value is an override, not a free one
            raise UserError(
                Problem(
                    "--free",
                    None,
                    path,
                    f"={values_text}: a range of one value leaves nothing to search; give two or more "
                    f"(e.g. {path}={min(values)}..{max(values) + 2}), or set it with overrides: in the scenario",
                )
            )
        whole = all(isinstance(v, int) for v in values) and isinstance(node, int)
        params.append(Param(tuple(split_path(path)), "int" if whole else "real", node, min(values), max(values)))
    if not params:
        raise UserError(Problem("--free", None, "free", "give at least one --free PATH=RANGE"))
    return params


def at_range_ends(values: dict[str, Any], params: list[Param]) -> list[str]:
    """The numbers of `values` at an end of their --free range, as "PATH = 1 (range 1..3)":
    where a target is still missed, the range may be what stops the search."""
    return [
        f"{p.name} = {values[p.name]} (range {_number(p.low)}..{_number(p.high)})"
        for p in params
        if p.kind != "choice" and p.low < p.high and values[p.name] in (p.low, p.high)
    ]


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


MAX_GRID = 4096  # combinations of the free values a fit would play one by one, at most


def _values_of(p: Param) -> list[Any] | None:
    """Every value a free whole number or word may take; None for a real number."""
    if p.kind == "choice":
        return list(p.choices)
    if p.kind == "int":
        return list(range(int(p.low), int(p.high) + 1))
    return None


def small_grid(params: list[Param]) -> list[dict[str, Any]] | None:
    """Every combination of the free values, today's first, where each is a
    whole number or a word and they are at most MAX_GRID; else None."""
    each = [_values_of(p) for p in params]
    if (
        any(v is None for v in each)
        or sum(1 for _ in itertools.islice(itertools.product(*each), MAX_GRID + 1)) > MAX_GRID
    ):
        return None
    start = {p.name: p.start for p in params}
    grid = [dict(zip((p.name for p in params), combo, strict=True)) for combo in itertools.product(*each)]
    return sorted(grid, key=lambda values: values != start)  # today's values first: a stable baseline


def untried_values(params: list[Param], played: list[dict[str, Any]]) -> list[str]:
    """Per free whole number or word, the values of its range no candidate played: "PATH: 2, 3"."""
    out = []
    for p in params:
        values = _values_of(p)
        if values is None:
            continue
        seen = {v[p.name] for v in played}
        missing = [v for v in values if v not in seen]
        if missing:
            out.append(f"{p.name}: {', '.join(str(v) for v in missing)}")
    return out
