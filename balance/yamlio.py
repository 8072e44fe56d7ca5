"""Safe YAML loading that remembers where every value came from.

We compose the YAML into nodes with the safe loader, then build plain Python
data from them while recording the line of each value under its path (a tuple
of keys and list indices). Validators report problems by path; `line_of` turns
that path into the line the designer should look at.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Problem, UserError

Path_ = tuple[Any, ...]


@dataclass
class YamlDoc:
    source: str  # the file name as the user gave it
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)  # path -> line of its value (1-based)
    key_lines: dict[Path_, int] = field(default_factory=dict)  # path -> line of its key
    # path -> (file, line, field) of a value set from elsewhere (a scenario's overrides)
    origins: dict[Path_, tuple[str, int | None, str]] = field(default_factory=dict)
    # a scenario's overrides given outside its file (--set, a sweep's or a fit's value): path -> the option
    given: dict[str, str] = field(default_factory=dict)

    def line_of(self, path: Path_) -> int | None:
        """The line of the deepest known prefix of `path`.

        A missing field is reported at the mapping that lacks it; an unknown
        key at the key itself.
        """
        for end in range(len(path), -1, -1):
            prefix = tuple(path[:end])
            if prefix in self.key_lines and end == len(path):
                return self.key_lines[prefix]
            if prefix in self.lines:
                return self.lines[prefix]
        return None

    def problem(self, path: Path_, message: str, field_name: str | None = None) -> Problem:
        for end in range(len(path), 0, -1):
            origin = self.origins.get(tuple(path[:end]))
            if origin is not None:
                source, line, name = origin
                rest = ".".join(str(p) for p in path[end:])
                return Problem(source, line, name + (f".{rest}" if rest else ""), message)
        return Problem(self.source, self.line_of(path), field_name or dotted(path), message)


def dotted(path: Path_) -> str:
    return ".".join(str(p) for p in path) or "(top)"


# A YAML file here is a card database or a scenario: a few hundred KB at most.
# The caps refuse what would hang or exhaust memory before it is built: a huge
# file, an alias bomb ("billion laughs": a few lines that expand to 10**9
# values), nesting deeper than any of our files has.
MAX_BYTES = 16 * 2**20
MAX_VALUES = 1_000_000
MAX_DEPTH = 64


def file_problem(path: str | Path) -> str | None:
    """What stops `path` being read as a YAML file (None: nothing): no such
    file, a directory, a FIFO or device, a symbolic link loop, too big."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return _os_reason(exc)
    return _kind_problem(info)


def _kind_problem(info: os.stat_result) -> str | None:
    if stat.S_ISDIR(info.st_mode):
        return "is a directory, expected a YAML file"
    if not stat.S_ISREG(info.st_mode):
        kind = "a FIFO" if stat.S_ISFIFO(info.st_mode) else "a device or socket"
        return f"is {kind}, not a regular file; expected a YAML file"
    if info.st_size > MAX_BYTES:
        return f"is {info.st_size / 2**20:,.1f} MiB; a YAML file here may be at most {MAX_BYTES // 2**20} MiB"
    return None


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "is a loop of symbolic links"
    return f"cannot be read ({exc.strerror or exc})"


def load_yaml(path: str | Path) -> YamlDoc:
    """Read a YAML file safely; any problem with the file or its text becomes
    a one-line UserError. Only a regular file is read (a FIFO would block, a
    device never end), and at most MAX_BYTES of it."""
    source = str(path)
    try:
        # O_NONBLOCK: opening a FIFO returns at once, and fstat then refuses it
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise UserError(Problem(source, None, "file", "no such file")) from None
    except OSError as exc:
        raise UserError(Problem(source, None, "file", _os_reason(exc))) from None
    problem = _kind_problem(os.fstat(fd))
    if problem is not None:
        os.close(fd)
        raise UserError(Problem(source, None, "file", problem))
    with os.fdopen(fd, "rb") as handle:
        try:
            raw = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise UserError(Problem(source, None, "file", _os_reason(exc))) from None
    if len(raw) > MAX_BYTES:  # it grew since fstat
        raise UserError(Problem(source, None, "file", f"a YAML file here may be at most {MAX_BYTES // 2**20} MiB"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(Problem(source, None, "file", f"not UTF-8 text ({exc.reason})")) from None
    return parse_yaml(text, source)


# libyaml's parser when PyYAML was built with it (same safe constructors, ~5x faster).
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, source: str) -> YamlDoc:
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        doc = YamlDoc(source, None)
        if root is not None:
            _measure(root, source)
            doc.data = _build(root, (), doc, loader)
    except yaml.MarkedYAMLError as exc:
        line, message = _plain_syntax_error(exc, text)
        raise UserError(Problem(source, line, "yaml", message)) from None
    except yaml.YAMLError as exc:
        raise UserError(Problem(source, None, "yaml", str(exc).splitlines()[0])) from None
    except RecursionError:  # nesting libyaml's composer could not hold
        raise UserError(Problem(source, None, "yaml", f"nested more than {MAX_DEPTH} levels deep")) from None
    finally:
        loader.dispose()
    return doc


def _plain_syntax_error(exc: yaml.MarkedYAMLError, text: str) -> tuple[int | None, str]:
    """(line, message) of a YAML syntax error in words a designer acts on: the
    two mistakes a hand-edited database makes most, said with what to do, on
    the line to change; others as the parser says them."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    problem, context = str(exc.problem or ""), str(exc.context or "")
    lines = text.splitlines()
    if problem.startswith("mapping values are not allowed") and line is not None and line <= len(lines):
        # "text: Draw 2: then go": the second ": " starts a key inside a value
        key, _, value = lines[line - 1].strip().lstrip("- ").partition(":")
        example = f' (e.g. {key.strip()}: "{value.strip()}")' if key.strip() and value.strip() else ""
        return line, f"a ': ' inside a value reads as a new key: put the value in quotes{example}"
    if context.startswith(("while parsing a flow mapping", "while parsing a flow sequence")) and exc.context_mark:
        # reported where the parser gave up (a line late): the { or [ that is never closed is the mistake
        opened = exc.context_mark.line + 1
        bracket, close = ("{", "}") if "mapping" in context else ("[", "]")
        return opened, f"the {bracket} opened on this line is not closed: add {close} at its end (or a , between items)"
    message = " ".join(p for p in (context, problem) if p)
    return line, message or "not valid YAML"


def _measure(root: yaml.Node, source: str) -> None:
    """Refuse, before anything is built, a document that expands to more than
    MAX_VALUES values (an alias bomb: each alias is a reference, and a few
    lines of aliases inside aliases expand to 10**9 values), is nested more
    than MAX_DEPTH levels, or holds an alias inside itself (a recursive
    structure). The size of each node is counted once and reused, so this
    costs the size of the text, not of its expansion."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()  # the collection nodes from the root to here

    def fail(node: yaml.Node, message: str) -> UserError:
        return UserError(Problem(source, node.start_mark.line + 1, "yaml", message))

    def size(node: yaml.Node, depth: int) -> int:
        if id(node) in sizes:
            return sizes[id(node)]
        if isinstance(node, yaml.ScalarNode):
            return 1
        if depth > MAX_DEPTH:
            raise fail(node, f"nested more than {MAX_DEPTH} levels deep")
        if id(node) in open_:
            raise fail(node, "an alias inside the value it names (a recursive structure)")
        open_.add(id(node))
        children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
        total = 1
        for child in children:
            total += size(child, depth + 1)
            if total > MAX_VALUES:
                raise fail(node, f"expands to more than {MAX_VALUES:,} values (aliases repeated inside aliases)")
        open_.discard(id(node))
        sizes[id(node)] = total
        return total

    size(root, 0)


# Plain keys YAML 1.1 reads as true, false or null (yes, no, on, off, ~): kept
# as the word written, so that an unknown key is named as the user wrote it.
_WORD_KEY_TAGS = ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:null")


def _build(node: yaml.Node, path: Path_, doc: YamlDoc, loader: Any) -> Any:
    doc.lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves `<<:` merge keys
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = None
            if isinstance(key_node, yaml.ScalarNode):
                key = key_node.value if key_node.tag in _WORD_KEY_TAGS else loader.construct_object(key_node)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                line = key_node.start_mark.line + 1  # the key's own line, not its mapping's
                raise UserError(Problem(doc.source, line, dotted(path), "mapping keys must be plain words or numbers"))
            child = (*path, key)
            if key in out:
                first = doc.key_lines.get(child)
                raise UserError(
                    Problem(
                        doc.source,
                        key_node.start_mark.line + 1,
                        dotted(child),
                        f"duplicate key (first at line {first})",
                    )
                )
            doc.key_lines[child] = key_node.start_mark.line + 1
            out[key] = _build(value_node, child, doc, loader)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), doc, loader) for i, item in enumerate(node.value)]
    return loader.construct_object(node)
