"""User errors: a mistake in something a designer wrote.

Every such mistake reaches the user as ONE line, `file:line: field: message`,
and exit code 2. A traceback means a bug in the toolkit, never a user error.
"""

from __future__ import annotations

from dataclasses import dataclass

EXIT_USER_ERROR = 2


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, located as precisely as we can."""

    source: str  # the file as the user named it
    line: int | None  # 1-based; None when the file itself is the problem
    field: str  # dotted path, e.g. cards.turbo_engine.effects.0.op
    message: str

    def __str__(self) -> str:
        from .printable import printable, shortened

        # what the user typed (a path, a field, a value) may hold control characters or run on for pages
        source, field = shortened(printable(self.source)), shortened(printable(self.field))
        where = source if self.line is None else f"{source}:{self.line}"
        message = printable(self.message)
        if source.startswith("--") and field.replace("_", "-") == source[2:]:
            return f"{where}: {message}"  # an option's own mistake: "--set: ...", not "--set: set: ..."
        return f"{where}: {field}: {message}"


class UserError(Exception):
    """Raised with the first problem found; the CLI prints it and exits 2."""

    def __init__(self, problem: Problem, more: int = 0) -> None:
        self.problem = problem
        self.more = more  # problems found after this one
        super().__init__(str(self))

    def __str__(self) -> str:
        text = str(self.problem)
        if self.more:
            text += f" (+{self.more} more problem{'s' if self.more > 1 else ''})"
        return text


def raise_first(problems: list[Problem]) -> None:
    """Raise the earliest problem in file order, counting the rest."""
    if problems:
        ordered = sorted(problems, key=lambda p: (p.source, p.line or 0))
        raise UserError(ordered[0], more=len(ordered) - 1)


def did_you_mean(word: str, choices) -> str:
    """' (did you mean 'x'?)' for the closest of `choices` to a mistyped `word`, or ''."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
