"""The numba structures (StructRef) the compiled engines pass between their
phases: the tables, the batch's state and a game's context each travel as
one reference, not as a tuple of a hundred arrays unpacked at every call
(which made compiling take minutes, docs/engine.md).

`struct(module, name, fields)` defines one: its numba type (registered as
`<name>Type` in `module`, where numba's cache finds it again by name) and
its Python class. A structure made from Python (the tables, the state; a
game's context in tests that call one phase) needs a constructor numba
caches: the engine's structs module defines it (`@njit(cache=True) def
_make(values): return Name(*values)`) and sets it as `Name.make`. Under
NUMBA_DISABLE_JIT (the rules as plain Python, for debugging) a structure is a
plain record of the same fields (a StructRef's fields can be set, so can
these)."""

from __future__ import annotations

import sys
from typing import Any

from numba import types
from numba.core import config
from numba.experimental import structref

from .plain_refcounts import use_plain_refcounts

use_plain_refcounts()  # before any compiled code runs in this process (plain_refcounts.py says why)


def _plain_fields(self, fields):
    # a field typed by its first value, never by that value itself (a literal 4 would make every 4 a new type)
    return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Struct(structref.StructRefProxy):
    """A compiled structure made from Python, through its cached constructor `make`."""

    make: Any = None

    def __new__(cls, *values):
        return cls.make(values)


def struct(module: str, name: str, fields: tuple[str, ...], doc: str = "") -> type:
    """The Python class of the structure `name` with these fields, defined in
    `module` (its numba type beside it as `<name>Type`); a plain record under
    NUMBA_DISABLE_JIT."""
    if config.DISABLE_JIT:
        return _record(name, fields)
    names = {"__module__": module, "__qualname__": f"{name}Type", "preprocess_fields": _plain_fields}
    type_class = structref.register(type(f"{name}Type", (types.StructRef,), names))
    setattr(sys.modules[module], f"{name}Type", type_class)
    proxy = type(name, (Struct,), {"__module__": module, "__qualname__": name, "__doc__": doc})
    structref.define_constructor(proxy, type_class, fields)
    structref.define_boxing(type_class, proxy)
    return proxy


def _record(name: str, fields: tuple[str, ...]) -> type:
    """A class whose instances hold `fields`, given in order: `Name(*values)`."""

    def __init__(self, *values):
        for field, value in zip(fields, values, strict=True):
            setattr(self, field, value)

    return type(name, (), {"__slots__": fields, "__init__": __init__, "_fields": fields})
