"""Dotted-path overrides of a card database, applied to its YAML before
validation: `rules.purchase_cost: 2`, `cards.turbo_engine.effects.0.amount: 5`,
`cards.v8_block.count: 2`, `tracks.usa.heat: 8`,
`drivers.blaze.cards.blaze_ram.effects.0.amount: 3`. In a list of items with
ids (cards, Playbooks, tracks, drivers and their cards) a segment names an
item by its id; any list takes an index. A problem in an overridden value is reported at the
scenario line that set it.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import Problem, UserError, did_you_mean
from .printable import quoted
from .yamlio import YamlDoc, dotted


def split_path(path: str) -> list[str]:
    return [part for part in str(path).split(".")]


def resolve_path(data: Any, parts: list[str]) -> tuple[Any, ...] | str:
    """The document path (keys and indices) that a dotted path names, or a
    message saying which segment does not exist."""
    node, out = data, []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(node, dict):
            key: Any = part
            if key not in node:
                as_int = int(part) if part.lstrip("-").isdigit() else None
                if as_int is not None and as_int in node:
                    key = as_int
                elif not last:
                    return f"no {'.'.join(parts[: i + 1])} in the card database{did_you_mean(part, node)}"
            out.append(key)
            node = node.get(key) if isinstance(node, dict) else None
        elif isinstance(node, list):
            by_id = any(isinstance(item, dict) and "id" in item for item in node)
            if by_id and not part.isdigit():
                index = next(
                    (j for j, item in enumerate(node) if isinstance(item, dict) and item.get("id") == part), None
                )
                if index is None:
                    ids = [str(item.get("id")) for item in node if isinstance(item, dict)]
                    hint = did_you_mean(part, ids)
                    if out in (["cards"], ["playbooks"]):
                        return f"no {'card' if out[0] == 'cards' else 'Playbook'} with id {part!r}{hint}"
                    return f"no {'.'.join(parts[:i])} item with id {part!r}{hint} (known: {', '.join(ids)})"
            else:
                if not part.isdigit() or int(part) >= len(node):
                    return f"{'.'.join(parts[:i])} has no item {part} ({_indices(len(node))})"
                index = int(part)
            out.append(index)
            node = node[index]
        else:
            return f"{'.'.join(parts[:i])} is a single value, not a mapping or list"
    return tuple(out)


def _indices(n: int) -> str:
    """The items a list has, by the index a path names them with (they count from 0)."""
    if n == 0:
        return "it is empty"
    return "its only item is 0" if n == 1 else f"its items are 0 to {n - 1}"


def value_at(data: Any, path: str) -> Any:
    """The value a dotted path names (one that resolve_path resolves: list entries by index or by id)."""
    for key in resolve_path(data, split_path(path)):
        data = data[key]
    return data


def canonical_path(data: Any, resolved: tuple[Any, ...]) -> str:
    """The dotted path of a resolved document path (resolve_path), spelled one
    way: an item of a list with ids by its id, another list's item by its
    index (`effects.00.amount` and `effects.0.amount` are one path)."""
    node, parts = data, []
    for key in resolved:
        if isinstance(node, list):
            item = node[key]
            parts.append(str(item["id"]) if isinstance(item, dict) and "id" in item else str(key))
            node = item
        else:
            parts.append(str(key))
            node = node.get(key) if isinstance(node, dict) else None
    return ".".join(parts)


def apply_overrides(doc: YamlDoc, overrides: dict[str, Any], origin: YamlDoc, prefix=("overrides",)) -> YamlDoc:
    """A copy of `doc` with each override set; lines of overridden values point at `origin`."""
    out = YamlDoc(doc.source, copy.deepcopy(doc.data), dict(doc.lines), dict(doc.key_lines))
    out.origins = dict(getattr(doc, "origins", {}))
    seen: dict[tuple[Any, ...], str] = {}
    for path, value in overrides.items():
        where = (*prefix, path)
        # where the user gave it: a line of the scenario, or an option (--set) with the bare path
        given = origin.given.get(path)
        source, line, name = (given, None, path) if given else (origin.source, origin.line_of(where), dotted(where))
        resolved = resolve_path(out.data, split_path(path))
        if isinstance(resolved, str):
            raise UserError(Problem(source, line, name, resolved))
        if resolved in seen:  # one value spelled two ways (effects.0 and effects.00): which one would win?
            raise UserError(Problem(source, line, name, f"sets the same value as {seen[resolved]}"))
        seen[resolved] = path
        parent = out.data
        for key in resolved[:-1]:
            parent = parent[key]
        parent[resolved[-1]] = copy.deepcopy(value)
        out.origins[resolved] = (source, line, name)
    return out


def parse_sets(texts: list[str], data: Any) -> dict[str, Any]:
    """`--set PATH=VALUE` (run, compare): a change tried without editing a file,
    the dotted paths of `overrides:`, `sweep` and `fit`. VALUE is read as YAML
    reads a scalar (3, 2.5, true, best). One-line errors naming --set, each path
    checked against the card database `data` before any game."""
    import yaml

    out: dict[str, Any] = {}
    for text in texts:
        path, eq, raw = text.partition("=")
        path = path.strip()
        if not eq or not path or not raw.strip():
            raise UserError(
                Problem(
                    "--set",
                    None,
                    "set",
                    f"{quoted(text)}: expected PATH=VALUE, e.g. cards.twin_turbo.effects.0.amount=4",
                )
            )
        where = resolve_path(data, split_path(path))
        if isinstance(where, str):
            raise UserError(Problem("--set", None, path, where))
        given, path = path, canonical_path(data, where)
        if path in out:
            again = "" if given == path else f" (as {given})"
            raise UserError(Problem("--set", None, path, f"is given twice{again}"))
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError:
            value = None
        if value is None:
            raise UserError(
                Problem("--set", None, path, f"{quoted(raw)} sets nothing: give a number, a word or true/false")
            )
        if not isinstance(value, int | float | str | bool):
            raise UserError(Problem("--set", None, path, f"{quoted(raw)} is not a number, a word or true/false"))
        out[path] = value
    return out
