"""Text a user typed (a card's name, a path, a profile's name) made safe to
print on a terminal or to write on one line of a file: every control
character (C0 and C1, DEL, and the Unicode line and paragraph separators,
which YAML also reads as line breaks) is written as its escape, so that no
name can move the cursor, ring the bell, start a new line in a comment or
add a key to a YAML file."""

from __future__ import annotations

import re
import shlex

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` as a string with each control character escaped (a tab too)."""
    return _CONTROL.sub(_escape, str(text))


def comment(text: object) -> str:
    """One YAML comment line, `# text`, that stays one line whatever `text` holds."""
    return "# " + printable(text) + "\n"


SHOWN = 80  # characters of a user's value echoed in a message, at most


def shortened(text: str, most: int = 2 * SHOWN) -> str:
    """`text` cut to `most` characters, saying how long it was."""
    return text if len(text) <= most else text[:most] + f"... ({len(text):,} characters)"


def quoted(text: object) -> str:
    """A value the user gave, for a one-line message: quoted, control
    characters escaped, and cut to SHOWN characters (with how long it was)."""
    text = printable(text)
    if len(text) > SHOWN:
        return repr(text[:SHOWN]) + f"... ({len(text):,} characters)"
    return repr(text)


def command_line(*args: object) -> str:
    """A command to copy into a shell, each argument quoted where a shell needs
    it (a path with a space, a target with <=) and its control characters
    escaped: what is printed runs as printed."""
    return " ".join(shlex.quote(printable(a)) for a in args)
