"""Rendering the HTML pages of report, compare and strength: one jinja2
environment (autoescape, so any name from a card database is shown as text)."""

from __future__ import annotations

from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).parent / "templates"
_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined)


def render(template: str, path: Path, **context: object) -> Path:
    """Render `template` into `path` atomically (a temporary name, then a rename)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(_ENV.get_template(template).render(**context), encoding="utf-8")
    tmp.replace(path)
    return path


def short(value: object) -> str:
    """A table cell: four significant digits for numbers, blank for missing."""
    if value is None:
        return ""
    return f"{value:.4g}" if isinstance(value, float) else str(value)
