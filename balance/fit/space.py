"""What `balance fit` may change: `--free PATH=RANGE`, the paths and ranges of
`balance sweep` (`cards.twin_turbo.effects.0.amount=2..8`, `1,3,5`,
`2.5:3.5:0.5`), as the search's numbers: bounds from the range, today's value
from the card database as the scenario plays it, an integer where the range
is one."""

from __future__ import annotations

from ..errors import Problem, UserError
from ..overrides import resolve_path, split_path
from ..scenario import Scenario
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
        values = parse_values(values_text, "--free")
        where = resolve_path(data, split_path(path))
        if isinstance(where, str):
            raise UserError(Problem("--free", None, path, where))
        parent = data
        for key in where[:-1]:
            parent = parent[key]
        node = parent.get(where[-1]) if isinstance(parent, dict) else parent[where[-1]]  # a key may be unset
        if node is None:
            raise UserError(Problem("--free", None, path, "is not set in the card database: nothing to start from"))
        if isinstance(node, bool) or not isinstance(node, int | float):
            raise UserError(Problem("--free", None, path, f"is {node!r}, not a number to search"))
        if path in (p.name for p in params):
            raise UserError(Problem("--free", None, path, "is given twice"))
        whole = all(isinstance(v, int) for v in values) and isinstance(node, int)
        params.append(Param(tuple(split_path(path)), "int" if whole else "real", node, min(values), max(values)))
    if not params:
        raise UserError(Problem("--free", None, "free", "give at least one --free PATH=RANGE"))
    return params
