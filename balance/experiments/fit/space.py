"""What `balance fit` may change: `--free PATH=RANGE`, the paths and ranges of
`balance sweep` (`cards.twin_turbo.effects.0.amount=2..8`, `1,3,5`,
`2.5:3.5:0.5`), as the search's numbers: bounds from the range, today's value
from the card database as the scenario plays it, an integer where the range
is one. A value that is a word takes a list of words
(`cards.mag_wheels.effects.1.keep=sum,best`): a choice, today's word among them."""

from __future__ import annotations

from typing import Any

from ...errors import Problem, UserError
from ...overrides import resolve_path, split_path
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
        parent = data
        for key in where[:-1]:
            parent = parent[key]
        node = parent.get(where[-1]) if isinstance(parent, dict) else parent[where[-1]]  # a key may be unset
        if node is None:
            raise UserError(Problem("--free", None, path, "is not set in the card database: nothing to start from"))
        if path in (p.name for p in params):
            raise UserError(Problem("--free", None, path, "is given twice"))
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
