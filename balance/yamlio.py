"""Safe YAML loading that remembers where every value came from.

We compose the YAML into nodes with the safe loader, then build plain Python
data from them while recording the line of each value under its path (a tuple
of keys and list indices). Validators report problems by path; `line_of` turns
that path into the line the designer should look at.
"""

from __future__ import annotations

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


def load_yaml(path: str | Path) -> YamlDoc:
    """Read a YAML file safely; any syntax error becomes a one-line UserError."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(Problem(source, None, "file", "no such file")) from None
    except IsADirectoryError:
        raise UserError(Problem(source, None, "file", "is a directory, expected a YAML file")) from None
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
        doc.data = _build(root, (), doc, loader) if root is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        message = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        raise UserError(Problem(source, line, "yaml", message or "not valid YAML")) from None
    except yaml.YAMLError as exc:
        raise UserError(Problem(source, None, "yaml", str(exc).splitlines()[0])) from None
    finally:
        loader.dispose()
    return doc


def _build(node: yaml.Node, path: Path_, doc: YamlDoc, loader: Any) -> Any:
    doc.lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves `<<:` merge keys
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, bool)) and key is not None:
                raise UserError(doc.problem(path, "mapping keys must be plain words or numbers"))
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
    return loader.construct_object(node, deep=True)
