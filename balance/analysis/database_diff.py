"""What changed between two card databases (`balance compare RUN_A RUN_B`):
every value that differs, named by the dotted path `sweep`, `fit` and
`overrides:` take (a list of items with ids is named by id:
`cards.twin_turbo.effects.0.amount`), as "PATH: old -> new"."""

from __future__ import annotations

from typing import Any

import yaml

MISSING = object()


def _flat(node: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            _flat(value, f"{prefix}.{key}" if prefix else str(key), out)
    elif isinstance(node, list) and node and all(isinstance(i, dict) and "id" in i for i in node):
        for item in node:
            _flat(item, f"{prefix}.{item['id']}", out)
    elif isinstance(node, list) and any(isinstance(i, dict | list) for i in node):
        for i, item in enumerate(node):
            _flat(item, f"{prefix}.{i}", out)
    else:
        out[prefix] = node


def flatten(data: dict[str, Any]) -> dict[str, Any]:
    """{dotted path: value} of every leaf of a database."""
    out: dict[str, Any] = {}
    _flat(data, "", out)
    return out


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(path, old, new) for each value that differs, in the order of the
    databases (MISSING where one side lacks the path)."""
    a, b = flatten(before), flatten(after)
    return [(p, a.get(p, MISSING), b.get(p, MISSING)) for p in _merged(a, b) if a.get(p, MISSING) != b.get(p, MISSING)]


def _merged(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Every path of either database, in the new one's order, each path only the old one holds where the old one
    had it: an effect added to a card comes with the card's other changes, before its text (in the order of
    [*a, *b] it came after every path of the old database, past the page's first few changes)."""
    old = list(a)
    place = {p: i for i, p in enumerate(old)}
    out: list[str] = []
    done = 0
    for path in b:
        if path in place:
            out += [p for p in old[done : place[path]] if p not in b]
            done = max(done, place[path] + 1)
        out.append(path)
    return out + [p for p in old[done:] if p not in b]


def _shown(value: Any) -> str:
    return "(none)" if value is MISSING else str(value)


def change_lines(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Each change as "PATH: old -> new"; an item (a card, a Playbook, a rule
    section's entry) added or removed whole is one line, and so is an item's
    effect list whose shape changed (an effect added, removed or given another
    op), old list -> new list as the database writes them: read position by
    position, a removed first effect showed every later one renamed
    (effects.0.op: drive -> hand_size, effects.1.op: hand_size -> (none), ...)."""
    a, b = flatten(before), flatten(after)

    def holds(flat: dict[str, Any], item: str) -> bool:
        return any(p == item or p.startswith(item + ".") for p in flat)

    lines, whole = [], set()
    for path, old, new in changes(before, after):
        item = ".".join(path.split(".")[:2])
        if not (holds(a, item) and holds(b, item)):
            if item not in whole:
                whole.add(item)
                lines.append(f"{item}: {'added' if not holds(a, item) else 'removed'}")
            continue
        if path == item + ".effects" or path.startswith(item + ".effects."):  # `effects: []` is a leaf
            effects = [_effects(data, item) for data in (before, after)]
            if _reshaped(*effects):
                if item + ".effects" not in whole:
                    whole.add(item + ".effects")
                    lines.append(f"{item}.effects: {_written(effects[0])} -> {_written(effects[1])}")
                continue
        lines.append(f"{path}: {_shown(old)} -> {_shown(new)}")
    return lines


def _effects(data: dict[str, Any], item: str) -> list[Any]:
    """The effect list of the item named `section.id` (empty where it has none)."""
    section, ident = item.split(".", 1)
    entries = data.get(section)
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and entry.get("id") == ident:
            effects = entry.get("effects")
            return effects if isinstance(effects, list) else []
    return []


def _reshaped(old: list[Any], new: list[Any]) -> bool:
    """An effect added or removed, or one at the same place given another op."""
    ops = [[e.get("op") if isinstance(e, dict) else e for e in effects] for effects in (old, new)]
    return ops[0] != ops[1]


def _written(effects: list[Any]) -> str:
    """An effect list as the database writes it, on one line."""
    return yaml.safe_dump(effects, default_flow_style=True, sort_keys=False, width=10**6).strip()
