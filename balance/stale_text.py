"""`balance validate`'s check that each entry's `text:` still says its
numbers: after an edit (Twin Turbo's amount 6 -> 4), a text that still reads
"+6 Drive" is a warning naming the entry, the line and the number. A number
the text names that none of the entry's own numbers is (its effects, cost,
turns; not its count of copies) is what a stale text looks like; an entry
whose text names no number is not checked. Two readings keep it quiet on
texts that are right: a number one less than one of its numbers counts (a
reroll `below: 3` reads "shows 1 or 2"), and numbers in parentheses are
examples, not the card's numbers ("lap 1: +2")."""

from __future__ import annotations

import re
from typing import Any

from .errors import Problem
from .printable import quoted
from .yamlio import YamlDoc

_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")  # a whole number standing alone: 3, +3, 3rd is not one
_EXAMPLES = re.compile(r"\([^)]*\)")
_NOT_NUMBERS = {"count", "text", "name", "id", "art"}  # copies in the box are not what a card says


def _numbers(node: Any, top: bool = True) -> set[int]:
    """Every whole number in an entry (its nested effects too), but its count."""
    if isinstance(node, bool):
        return set()
    if isinstance(node, int | float):
        return {abs(int(node))} if float(node).is_integer() else set()
    found: set[int] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if not (top and key in _NOT_NUMBERS):
                found |= _numbers(value, False)
    elif isinstance(node, list):
        for value in node:
            found |= _numbers(value, False)
    return found


def stale_texts(doc: YamlDoc) -> list[Problem]:
    """A warning for each entry with an id whose text names a number none of its own numbers is."""
    out: list[Problem] = []

    def label(path: tuple[Any, ...]) -> str:  # cards.twin_turbo.text, not cards.7.text
        node, parts = doc.data, []
        for key in path:
            item = node[key] if isinstance(node, list | dict) else None
            parts.append(
                str(item["id"]) if isinstance(node, list) and isinstance(item, dict) and "id" in item else str(key)
            )
            node = item
        return ".".join(parts)

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            text = node.get("text")
            if isinstance(text, str) and "id" in node:
                own = _numbers(node)
                said = _NUMBER.findall(_EXAMPLES.sub("", text))
                missing = [n for n in dict.fromkeys(int(m) for m in said) if n not in own and n + 1 not in own]
                if missing:
                    out.append(
                        doc.problem(
                            (*path, "text"),
                            f"says {', '.join(str(n) for n in missing)}, which none of its numbers is: "
                            f"does the text still match them? ({quoted(text)})",
                            label((*path, "text")),
                        )
                    )
            for key, value in node.items():
                walk(value, (*path, key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, (*path, i))

    walk(doc.data, ())
    return out
