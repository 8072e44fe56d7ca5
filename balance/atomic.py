"""Writing a file whole or not at all: into a temporary name beside it, then
a rename over the final name. A failure on the way (a full disk, an
interrupt) removes the temporary file and leaves whatever was there before."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """The temporary path to write; renamed over `path` when the block ends
    without an error, removed when it raises."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:  # named by the file meant, not the temporary one
        tmp.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> Path:
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


def write_with(path: Path, write: Callable[[Path], object]) -> Path:
    """`write(tmp)` writes the file (a library's own writer), then the rename."""
    with replacing(path) as tmp:
        write(tmp)
    return path
