"""Rendering the HTML pages of report, compare and strength: one jinja2
environment (autoescape, so any name from a card database is shown as text)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import jinja2
import polars as pl

from ..atomic import write_text, write_with

TEMPLATES = Path(__file__).parent / "templates"
_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined)


def render(template: str, path: Path, **context: object) -> Path:
    """Render `template` into `path` atomically (a temporary name, then a rename)."""
    return write_text(path, _ENV.get_template(template).render(**context))


# A cell a spreadsheet reads as a formula when it opens the CSV (CSV injection):
# user text such as a card named "=HYPERLINK(...)" or "@SUM(...)".
_FORMULA = re.compile(r"^\s*[=+\-@]|^[\t\r]")  # spaces before an = are skipped by some spreadsheets


def write_csv(table: pl.DataFrame, path: Path) -> Path:
    """Write a table as CSV, atomically, with every text cell (and column name)
    that a spreadsheet would run as a formula prefixed with ' (OWASP's advice):
    the text still reads the same, and nothing runs."""

    def safe(text: str) -> str:
        return "'" + text if _FORMULA.match(text) else text

    starts = _FORMULA.pattern
    table = table.rename({c: safe(c) for c in table.columns if safe(c) != c}).with_columns(
        pl.when(pl.col(c).cast(pl.String).str.contains(starts))
        .then(pl.lit("'") + pl.col(c).cast(pl.String))
        .otherwise(pl.col(c).cast(pl.String))
        .alias(c)
        for c, dtype in table.schema.items()
        if dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum)
    )
    return write_with(path, table.write_csv)


def cell(value: object, column: str) -> str:
    """A table cell as a designer reads it, by its column's unit (units.py names
    it): a rate in percent to one decimal (28.4), a difference in points with its
    sign (+5.2; 0.0, not -0.0), a p-value to three decimals ("< 0.001" below),
    yes/no for a flag; else three significant figures, whole from 1,000 on."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        if math.isnan(value):
            return ""
        if column.endswith("_pct"):
            return f"{value:.1f}"
        if column.endswith("_pp"):
            return "0.0" if round(value, 1) == 0 else f"{value:+.1f}"  # what rounds to zero has no sign
        if column == "p_value" or column.startswith("p_"):
            return "< 0.001" if value < 0.001 else f"{value:.3f}"
        if isinstance(value, int):
            return f"{value:,}"
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)
