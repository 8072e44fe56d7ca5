"""Schema checking shared by every input file: pydantic models that reject
unknown keys and loose types, and the translation of pydantic's errors into
one-line problems that point at the file and line."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from .errors import Problem, UserError, did_you_mean, raise_first
from .printable import quoted, shortened
from .yamlio import YamlDoc


class Strict(BaseModel):
    """A mapping in a user's file: known keys only, no silent type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=False)

    @model_validator(mode="before")
    @classmethod
    def _known_keys_only(cls, data: Any) -> Any:
        if isinstance(data, dict):
            known = [f.alias or name for name, f in cls.model_fields.items()]
            for key in data:
                if key not in known:
                    raise PydanticCustomError(
                        "unknown_key",
                        "unknown field '{key}'{hint} (known: {known})",
                        {"key": str(key), "hint": did_you_mean(str(key), known), "known": ", ".join(known)},
                    )
        return data


_TYPE_WORDS = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "string_type": "text",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "float_type": "a number",
    "int_from_float": "an integer",
    "frozen_set_type": "a list",
}


# What a list of allowed words is called, by the field that takes it.
_CHOICE_WORDS = {"flags": "flag", "when": "trigger", "from": "zone", "played": "card type", "op": "op"}


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return quoted(value) if isinstance(value, str) else shortened(repr(value))


def _bound(limit: Any) -> Any:
    """A limit as a designer writes it: 100, not 100.0."""
    return int(limit) if isinstance(limit, float) and limit.is_integer() else limit


def problem_from_error(doc: YamlDoc, err: dict[str, Any], prefix: tuple[Any, ...] = (), label=None) -> Problem:
    """One pydantic error → one readable problem.

    `prefix` is where the validated value sits in the document; `label` turns
    a path into the field name shown to the user (ids instead of indices).
    """
    kind = err["type"]
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    # Unions add the member's name (e.g. 'int', 'list[int]') to the location.
    # Tagged unions add their tag, written in brackets (scenario.Bots).
    loc = tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p in {"int", "str", "bool"})))
    path = prefix + loc
    ctx = err.get("ctx") or {}
    value = err.get("input")
    if kind == "unknown_key":
        path = path + (ctx["key"],)
        message = err["msg"]
    elif kind == "missing":
        message = "required field missing"
    elif kind == "too_short" and ctx.get("min_length") == 1:
        message = "must not be empty"
    elif kind in ("too_short", "too_long"):
        bound = "at least" if kind == "too_short" else "at most"
        limit = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        message = f"must have {bound} {limit} items, got {ctx.get('actual_length')}"
    elif kind == "literal_error":
        word = next((p for p in reversed(path) if isinstance(p, str)), "value")
        word = _CHOICE_WORDS.get(word, word)
        known = ctx["expected"].replace("'", "").replace(" or ", ", ")
        message = f"{_describe(value)} is not a known {word} (known: {known})"
    elif kind == "int_parsing_size":
        message = f"{_describe(value)} is too large a number"
    elif kind in _TYPE_WORDS:
        message = f"expected {_TYPE_WORDS[kind]}, got {_describe(value)}"
    elif kind == "greater_than_equal":
        message = f"must be at least {_bound(ctx['ge'])}, got {_describe(value)}"
    elif kind == "greater_than":
        message = f"must be more than {_bound(ctx['gt'])}, got {_describe(value)}"
    elif kind == "less_than_equal":
        message = f"must be at most {_bound(ctx['le'])}, got {_describe(value)}"
    elif kind == "string_pattern_mismatch" and ctx.get("pattern") == NAME_PATTERN:
        message = (
            f"{_describe(value)} must be a plain name: letters, digits, _ . and -, starting with a letter or digit"
            " (it names a folder)"
        )
    elif kind == "string_pattern_mismatch":
        message = f"{_describe(value)} must be snake_case (lower-case letters, digits and _)"
    else:
        message = err["msg"][0].lower() + err["msg"][1:]
    field = label(path) if label else None
    return doc.problem(path, message, field)


def field_bounds(model: type[BaseModel], name: str) -> tuple[int | None, int | None]:
    """(ge, le) of a model's field, for checking a command-line value against
    the same bounds as the file's."""
    low = high = None
    for meta in model.model_fields[name].metadata:
        low = getattr(meta, "ge", low)
        high = getattr(meta, "le", high)
    return low, high


def validate_model(
    model: type[BaseModel], data: Any, doc: YamlDoc, prefix: tuple[Any, ...] = (), label=None
) -> tuple[BaseModel | None, list[Problem]]:
    """Validate `data` (found at `prefix` in `doc`) against `model`."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, [problem_from_error(doc, e, prefix, label) for e in exc.errors()]


# --- helpers every game's schema uses -------------------------------------------------------

ID_PATTERN = r"^[a-z][a-z0-9_]*$"  # ids of cards, tracks, drivers...: snake_case
# Names that become a folder (runs/<name>, reports/<name>): plain, never "." or
# ".." or hidden, no separators.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"


def id_labeller(data: Any, id_lists: tuple[str, ...]):
    """label(path) -> the field as a user reads it: list items of the sections
    named in `id_lists` (at any depth) shown by their id, e.g.
    drivers.blaze.cards.blaze_ram.effects.0.op instead of drivers.0.cards.0..."""

    def label(path: tuple[Any, ...]) -> str:
        parts: list[str] = []
        node = data
        for key in path:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                node = None
            item_id = node.get("id") if isinstance(node, dict) else None
            named = isinstance(key, int) and parts and parts[-1] in id_lists
            if named and isinstance(item_id, str) and re.match(ID_PATTERN, item_id):
                parts.append(item_id)
            else:
                parts.append(str(key))
        return ".".join(parts) or "(top)"

    return label


def validate_top(
    doc: YamlDoc, top_model: type[BaseModel], rules_model: type[BaseModel], id_lists: tuple[str, ...], what: str
):
    """The opening every game's database check shares: the file is a mapping
    with the top-level keys of `top_model` (a one-line error naming them, for
    `what` database, if not; the first mistake in them raised), then the
    `rules` section checked. Returns (top, rules, problems so far, label)."""
    label = id_labeller(doc.data, id_lists)
    if not isinstance(doc.data, dict):
        found = "an empty file" if doc.data is None else "no mapping"
        keys = ", ".join(top_model.model_fields)
        raise UserError(doc.problem((), f"{found}; {what} database has the top-level keys {keys}", "file"))
    top, problems = validate_model(top_model, doc.data, doc, label=label)
    raise_first(problems)
    rules, problems = validate_model(rules_model, top.rules, doc, ("rules",), label)
    return top, rules, problems, label


def validate_items(where: tuple[Any, ...], model: type[BaseModel], raws: list[Any], doc: YamlDoc, label):
    """Each item of the list at `where` checked against `model`: the (index,
    model) pairs that passed, and every problem."""
    out, problems = [], []
    for i, raw in enumerate(raws):
        item, item_problems = validate_model(model, raw, doc, (*where, i), label)
        problems += item_problems
        if item is not None:
            out.append((i, item))
    return out, problems


def duplicate_ids(ids: list[tuple[tuple[Any, ...], str]], doc: YamlDoc, label) -> list[Problem]:
    """ids: (path to the item, its id); one problem for each id seen before,
    naming the line that defined it first."""
    problems, first_seen = [], {}
    for where, item_id in ids:
        path = (*where, "id")
        if item_id in first_seen:
            message = f"duplicate id {item_id!r} (first defined at line {first_seen[item_id]})"
            problems.append(doc.problem(path, message, label(path)))
        else:
            first_seen[item_id] = doc.line_of(path)
    return problems
