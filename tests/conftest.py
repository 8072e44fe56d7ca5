from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

# the commands' remembered rates (progress.RATES) in a cache of the tests' own: never the user's, and a plan
# line that does not depend on what ran before on this machine
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="balance-test-cache-")
# one a test process (each xdist worker imports this file): gone when it exits, not left in /tmp run after run
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], ignore_errors=True)

ROOT = Path(__file__).resolve().parents[1]
# Horsepower's first draft (examples/first-draft): the tests' figures are of a database that does not move when
# the shipped cards.yaml is rebalanced
CARDS = ROOT / "examples" / "first-draft" / "cards.yaml"
SHIPPED = ROOT / "cards.yaml"

# A small Horsepower scenario for the run-directory tests: 30 games in 4 chunks.
SCENARIO = f"""name: tiny
game: horsepower
cards: {CARDS}
players: 3
bots: [racer, economist, random]
games: 30
seed: 5
chunk_size: 8
"""


@pytest.fixture
def scenario(tmp_path):
    """SCENARIO written as tmp_path/tiny.yaml."""
    path = tmp_path / "tiny.yaml"
    path.write_text(SCENARIO)
    return path


@pytest.fixture(scope="session")
def cards_text() -> str:
    return CARDS.read_text()


@pytest.fixture(scope="session")
def database():
    from balance.games.horsepower.schema import load_database

    return load_database(CARDS)


@pytest.fixture(scope="session")
def tables(database):
    from balance.games.horsepower.compile import compile_database

    return compile_database(database)


def broken_copy(tmp_path: Path, text: str, name: str):
    """make(old, new) -> (path, line): a copy of a database file `text` with one
    unique snippet replaced, written to tmp_path/name; line = where the snippet began."""

    def make(old: str, new: str) -> tuple[str, int]:
        assert text.count(old) == 1, f"snippet not unique: {old!r}"
        line = text[: text.index(old)].count("\n") + 1
        path = tmp_path / name
        path.write_text(text.replace(old, new))
        return str(path), line

    return make


def one_line_error(load, path: str) -> str:
    """The UserError `load(path)` raises, which must be a single line."""
    from balance.errors import UserError

    with pytest.raises(UserError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message
    return message


# Small runs of Heat (USA, a Legend) and Downforce (four players) with their reports, shared by the
# report tests of each game and the tests of their game-specific views (corners, powers kept).
HEAT_USA = f"""name: heat-tiny
game: heat
cards: {ROOT / "heat.yaml"}
players: 4
bots: [balanced, aggressive, cautious, legend]
overrides:
  rules.track: usa
games: 512
seed: 5
chunk_size: 256
"""
DOWNFORCE_FOUR = f"""name: downforce-tiny
game: downforce
cards: {ROOT / "downforce.yaml"}
players: 4
bots: [balanced, shark, miser, random]
games: 512
seed: 5
chunk_size: 256
"""


def run_and_report(tmp: Path, text: str) -> tuple[str, Path, Path]:
    """The scenario `text` run in `tmp` and reported: (the report's stdout, its folder, the run's folder)."""
    from typer.testing import CliRunner

    from balance.cli import app
    from balance.runner import RunOptions, run

    (tmp / "s.yaml").write_text(text)
    run(tmp / "s.yaml", RunOptions(out=tmp / "run", jobs=1))
    result = CliRunner().invoke(app, ["report", str(tmp / "run"), "--out", str(tmp / "report")])
    assert result.exit_code == 0, result.output
    return result.stdout, tmp / "report", tmp / "run"


@pytest.fixture(scope="session")
def heat_usa(tmp_path_factory) -> tuple[str, Path, Path]:
    return run_and_report(tmp_path_factory.mktemp("heat-usa"), HEAT_USA)


@pytest.fixture(scope="session")
def downforce_four(tmp_path_factory) -> tuple[str, Path, Path]:
    return run_and_report(tmp_path_factory.mktemp("downforce-four"), DOWNFORCE_FOUR)


def cli(*args) -> tuple[int, str, str]:
    """`balance ARGS` in this process: (exit code, stdout, stderr); a traceback fails the test."""
    from typer.testing import CliRunner

    from balance.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def one_line(*args) -> str:
    """The one error line of `balance ARGS` (exit code 2, nothing else on stderr)."""
    code, stdout, stderr = cli(*args)
    assert code == 2, stdout + stderr
    lines = stderr.splitlines()  # not stripped: an empty line before the error counts too
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0]


@pytest.fixture(autouse=True)
def _release_experiment_folders():
    """An experiment called as a library holds its folder for the process's life
    (setup.hold_folder); a test lets go of them when it ends, as a command does."""
    yield
    from balance.folder_lock import release_folders

    release_folders()


@contextmanager
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs at tmp_path/tiny where the test may mount one (root, as
    in CI), unmounted after (lazily: a mapped file must not keep it); else the
    test is skipped, its simulated full disk standing for it."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({made.stderr.decode().strip()}); the simulated test covers it")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "--lazy", str(mount)], check=False)
