"""Argument checks for the analysis API a notebook calls (docs/logs.md).

The arguments are easy to confuse: a manifest's `catalog` is a dict, while
card_stats wants the list of card ids in it; a run is a directory or the dict
`balance.load_run` returns, not one of its frames. Given the wrong one, polars
either fails deep inside with a message about something else, or (a dict
iterated as ids) silently adds rows named after its keys. These checks run
once at a function's start, never per row, and raise a TypeError naming what
was expected and what came.
"""

from __future__ import annotations

import os
from typing import Any

import polars as pl

RUN = "a run directory (str or Path) or the dict of its tables that balance.load_run returns"
# where a manifest's catalog keeps the ids the card functions take
CARD_IDS = ', e.g. [c["id"] for c in manifest["catalog"]["cards"]]'
PLAYBOOK_IDS = ', e.g. [p["id"] for p in manifest["catalog"]["playbooks"]]'


def describe(value: Any) -> str:
    """What a value is, in a few words: its type, and for a dict its first keys."""
    if isinstance(value, dict):
        keys = list(value)[:4]
        more = ", ..." if len(value) > len(keys) else ""
        return f"a dict with keys {', '.join(repr(k) for k in keys)}{more}" if keys else "an empty dict"
    if isinstance(value, pl.LazyFrame | pl.DataFrame | pl.Series):
        return f"a polars {type(value).__name__}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the str {shown!r}"
    return f"a {type(value).__name__}"


def check_run(run: Any, function: str = "") -> None:
    """`run` is a path, or a dict whose values are the run's polars frames
    (some callers pass only the tables they need). `function` names the caller
    in the message."""
    if isinstance(run, str | os.PathLike):
        return
    if isinstance(run, dict) and all(isinstance(v, pl.LazyFrame | pl.DataFrame) for v in run.values()):
        return
    hint = ""
    if isinstance(run, dict) and {"catalog", "scenario"} & set(run):
        hint = " (a manifest? pass the run directory)"
    elif isinstance(run, pl.LazyFrame | pl.DataFrame):
        hint = " (one table? pass the whole run: the directory or balance.load_run(directory))"
    where = f"{function}: " if function else ""
    raise TypeError(f"{where}run must be {RUN}; got {describe(run)}{hint}")


def check_ids(ids: Any, function: str, name: str, what: str, example: str = "") -> None:
    """`ids` is None or a list (tuple, set) of str: a dict, a str or a frame
    would be iterated as ids and read as other things."""
    if ids is None:
        return
    if isinstance(ids, list | tuple | set | frozenset) and all(isinstance(i, str) for i in ids):
        return
    if isinstance(ids, list | tuple | set | frozenset):
        wrong = next(i for i in ids if not isinstance(i, str))
        got = f"a {type(ids).__name__} holding {describe(wrong)}"
    else:
        got = describe(ids)
    raise TypeError(f"{function}: {name} must be a list of {what} (str){example}; got {got}")


def check_mapping(value: Any, function: str, name: str, what: str, optional: bool = True) -> None:
    """`value` is a dict (or None where `optional`)."""
    if isinstance(value, dict) or (optional and value is None):
        return
    raise TypeError(f"{function}: {name} must be {what} (a dict); got {describe(value)}")


def check_table(table: Any, function: str, name: str, what: str, optional: bool = False) -> None:
    """`table` is a polars DataFrame (None where `optional`)."""
    if isinstance(table, pl.DataFrame) or (optional and table is None):
        return
    raise TypeError(f"{function}: {name} must be {what} (a polars DataFrame); got {describe(table)}")


def check_names(names: Any, function: str, name: str, what: str) -> None:
    """`names` is a list or tuple of str; a single str would be read one letter at a time."""
    if isinstance(names, list | tuple) and all(isinstance(n, str) for n in names):
        return
    example = f" (one: [{names!r}])" if isinstance(names, str) else ""
    raise TypeError(f"{function}: {name} must be a list of {what} (str){example}; got {describe(names)}")


def check_set(values: Any, function: str, name: str, what: str, example: str = "") -> None:
    """`values` is a set of str (what logged_events returns)."""
    if isinstance(values, set | frozenset) and all(isinstance(v, str) for v in values):
        return
    raise TypeError(f"{function}: {name} must be a set of {what} (str){example}; got {describe(values)}")


def check_records(records: Any, function: str, name: str, what: str, example: str = "") -> None:
    """`records` is a list of dicts (a manifest catalog's entries)."""
    if isinstance(records, list | tuple) and all(isinstance(r, dict) for r in records):
        return
    raise TypeError(f"{function}: {name} must be a list of {what} (dicts){example}; got {describe(records)}")
