"""The run directory's lock: an OS lock (flock) on DIR/.lock. A writer (a
run, an experiment's folder) holds it alone; readers (a report, a compare, a
trace of a run) share it, so that a run cannot replace a folder while it is
read, nor a report read one while it is written: whichever comes second is
refused in one line. The kernel drops a lock when its process dies, however
it dies, so a lock is never stale."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import Problem, UserError

LOCK = ".lock"


@dataclass
class RunLock:
    """An OS lock (flock) on out/.lock held for the run's life. The kernel
    drops it when the process dies, however it dies, so it is never stale and
    never shared: a pid written in a file can be reused by another process,
    and a lock file another process has just created may not hold its pid yet
    (both were read as "stale" before, and two runs could hold one directory).
    The file holds "pid host" for the message to whoever is refused."""

    path: Path
    fd: int
    shared: bool = False  # a reader's: other readers may hold the same file

    def release(self) -> None:
        # a writer's is unlinked while still held, so nobody can take the old
        # file; a process that opened it just before checks the path still names its file
        if not self.shared:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, 0)
                self.path.unlink()
        os.close(self.fd)


def _open(path: Path, shared: bool) -> int | None:
    """The lock file's descriptor; None where a reader cannot lock (a folder it may not write)."""
    try:
        return os.open(path, os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if shared and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            try:  # a read-only folder: lock the file if a writer made one, else nobody can write here
                return os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                return None
        what = "is a symbolic link; remove it" if exc.errno == errno.ELOOP else f"cannot be written ({exc.strerror})"
        raise UserError(Problem(str(path.parent), None, "--out", f"the run directory's lock {path} {what}")) from None


def acquire_lock(out: Path, shared: bool = False) -> RunLock | None:
    """Take the run directory (a writer), or share it (`shared`: a reader);
    refuse in one line while another process holds it the other way. The lock
    file is opened without following a symbolic link and must be a regular
    file: a .lock planted as a link would have us truncate its target, a FIFO
    would not hold a lock. A reader gets None where it cannot lock."""
    path = out / LOCK
    for _ in range(20):
        fd = _open(path, shared)
        if fd is None:
            return None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise UserError(Problem(str(out), None, "--out", f"{path} is not a regular file; remove it"))
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise UserError(Problem(str(out), None, "run" if shared else "--out", _holder(path, shared))) from None
        except OSError as exc:  # a file system without locks
            os.close(fd)
            if shared:
                return None
            raise UserError(
                Problem(str(out), None, "--out", f"cannot lock the run directory here ({exc.strerror or exc})")
            ) from None
        try:
            current = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            current = False
        if not current:  # its holder released (unlinked) it between our open and our flock
            os.close(fd)
            continue
        if not shared:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {socket.gethostname()}".encode())
        return RunLock(path, fd, shared)
    raise UserError(Problem(str(out), None, "--out", "could not take the run directory's lock"))


def _holder(path: Path, reader: bool = False) -> str:
    try:
        pid = int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        if reader:
            return "another balance process is writing this run directory; wait for it, then run this again"
        return "another balance process is reading or writing this run directory; wait for it or choose another --out"
    if reader:
        return f"a live process (pid {pid}) is writing this run directory; wait for it, then run this again"
    return f"a live run (pid {pid}) is writing here; wait for it or choose another --out"


def lock_held(out: str | Path) -> bool:
    """Whether a live `balance run` holds the run directory (its OS lock on
    .lock, which the kernel drops when that process dies however it dies).
    Asked with a shared lock, released at once."""
    try:  # never through a link, never blocking on a FIFO
        fd = os.open(Path(out) / ".lock", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing drops the shared lock if we took it
    return False


_HELD: dict[Path, RunLock] = {}  # the folders this process holds to write (experiments, acquire_lock's)
_READING: dict[Path, RunLock] = {}  # the run directories this process reads (a shared lock each)


def hold_folder(out: Path) -> None:
    """Take `out` for this process (an OS lock on out/.lock, the run directory's
    kind: dropped by the kernel however the process ends), or refuse it in one
    line while another process holds it. Held again by the same process, it is
    the same lock: a resumed or repeated experiment in one process is not a rival."""
    key = out.resolve()
    if key not in _HELD:
        release_reading(key)  # this process read it before: its own shared lock is no rival
        _HELD[key] = acquire_lock(out)


READERS_LOCK = [False]  # a command's readers share the lock (cli.user_errors); a library caller's do not


def hold_for_reading(run_dir: Path) -> None:
    """Share the run directory's lock for the command's life: refused in one
    line while a run writes it, and a run that would replace it meanwhile is
    refused. A folder that cannot be locked (read-only, or a file system
    without locks) is read as it is: nobody can write it either. Outside a
    command (a notebook's balance.load_run) nothing is locked: a process that
    lives on must not keep runs from being replaced."""
    key = run_dir.resolve()
    if not READERS_LOCK[0] or key in _READING or key in _HELD:
        return
    lock = acquire_lock(run_dir, shared=True)
    if lock is not None:
        _READING[key] = lock


def take_for_writing(out: Path) -> RunLock:
    """A run's own lock on its directory (acquire_lock), after letting go of
    this process's reading of it (a compare or strength run that grows a run
    it has read)."""
    release_reading(out.resolve())
    return acquire_lock(out)


def release_reading(key: Path) -> None:
    lock = _READING.pop(key, None)
    if lock is not None:
        lock.release()


def release_folders() -> None:
    """Let go of every folder this process holds or reads (the end of a command; a test's teardown)."""
    while _HELD:
        _, lock = _HELD.popitem()
        lock.release()
    while _READING:
        _, lock = _READING.popitem()
        lock.release()


PARTS_LOCK = ".parts.lock"


@contextlib.contextmanager
def parts_guard(out: Path, takeover: bool = False) -> Iterator[None]:
    """Order a worker's part writes against a run taking the directory over.
    A worker checks that its run is still the directory's and writes its parts
    holding out/.parts.lock shared; a run replaces the manifest holding it
    alone (`takeover`). Without it, the worker of a killed run could pass its
    check just before a --force run took over and write after that run had
    written the same chunk (on a fast engine a whole run fits in that gap):
    the new run's chunk lost. Both wait (each holds it for milliseconds); a
    folder where nothing can be locked is written as before."""
    try:
        fd = os.open(out / PARTS_LOCK, os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):  # a file system without locks: written as before
            fcntl.flock(fd, fcntl.LOCK_EX if takeover else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # drops the lock
