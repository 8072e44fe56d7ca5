"""A seeded mutator for the shipped databases and scenarios, and the check
every mutant must pass: `balance validate` (or `balance run`, for a scenario)
ends with exit 0, or with exit 2 and one line on stderr, never a traceback or
a hang; a database mutant that validates also plays a few games.

The test suite runs a few mutants of each file (tests/test_fuzz.py); the
campaign runs many and prints every failure, grouped by where it was raised:

    python -m tests.mutants --count 40 --seed 1

Each mutant is checked in this process with a time limit (SIGALRM) and under
an address-space limit, so that a mutant that asks for all the memory fails
with MemoryError instead of taking the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import resource
import signal
import tempfile
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "examples" / "first-draft" / "cards.yaml"  # as conftest.CARDS
DATABASES = {
    "horsepower": CARDS,
    "heat": ROOT / "heat.yaml",
    "downforce": ROOT / "downforce.yaml",
    "shuffle_gp": ROOT / "shuffle_gp.yaml",
}
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

# Numbers at the edges of what a schema may take: zero, negatives, a 16-bit
# wrap, the sizes that made games hang or run out of memory.
EXTREMES = [0, -1, -7, 1, 2, 255, 256, 33_000, 40_000, 10**6, 10**9, 2**63, 10**30, 0.5, -2.5, 1e30]
# What a value of another type may become.
STRANGERS = ["text", "", None, True, [], [1, 2], {}, {"op": "drive"}, 3, -3, 1.5, [[]], {"a": {"b": 1}}]


@dataclass(frozen=True)
class Failure:
    file: str  # the file mutated
    mutation: str  # what was done to it
    stage: str  # validate, run
    kind: str  # traceback, hang, exit code, lines
    where: str  # the exception and where it was raised, or what was printed
    text: str  # the mutant

    def key(self) -> str:
        return f"{self.stage}: {self.kind}: {self.where}"


# --- mutations ------------------------------------------------------------------------------


def _paths(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, (*path, i))


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def _parent(data: Any, path: tuple) -> Any:
    node = data
    for key in path[:-1]:
        node = node[key]
    return node


def mutate(text: str, rng: np.random.Generator) -> tuple[str, str]:
    """One mutant of a YAML file's text: (mutant, what was done)."""
    lines = text.splitlines(keepends=True)
    kind = rng.choice(
        ["delete_line", "duplicate_block", "swap_lines", "retype", "extreme", "swap_keys", "drop", "extreme", "retype"]
    )
    if kind in ("delete_line", "duplicate_block", "swap_lines"):
        i = int(rng.integers(len(lines)))
        if kind == "delete_line":
            return "".join(lines[:i] + lines[i + 1 :]), f"deleted line {i + 1}"
        if kind == "duplicate_block":
            n = int(rng.integers(1, 7))
            return "".join(lines[: i + n] + lines[i : i + n] + lines[i + n :]), f"duplicated lines {i + 1}-{i + n}"
        j = int(rng.integers(len(lines)))
        lines[i], lines[j] = lines[j], lines[i]
        return "".join(lines), f"swapped lines {i + 1} and {j + 1}"
    data = yaml.safe_load(text)
    nodes = list(_paths(data))[1:]
    path, value = nodes[int(rng.integers(len(nodes)))]
    if kind == "extreme":
        numbers = [(p, v) for p, v in nodes if isinstance(v, int | float) and not isinstance(v, bool)]
        if numbers:
            path, value = numbers[int(rng.integers(len(numbers)))]
        new = EXTREMES[int(rng.integers(len(EXTREMES)))]
        what = f"{_dotted(path)}: {value!r} -> {new!r}"
        data = _set(data, path, new)
    elif kind == "retype":
        new = copy.deepcopy(STRANGERS[int(rng.integers(len(STRANGERS)))])
        what = f"{_dotted(path)}: {_short(value)} -> {new!r}"
        data = _set(data, path, new)
    elif kind == "swap_keys":
        maps = [(p, v) for p, v in nodes if isinstance(v, dict) and len(v) >= 2]
        if not maps:
            return text, "unchanged"
        path, mapping = maps[int(rng.integers(len(maps)))]
        a, b = rng.choice(list(mapping), size=2, replace=False).tolist()
        mapping[a], mapping[b] = mapping[b], mapping[a]
        what = f"{_dotted(path)}: swapped the values of {a!r} and {b!r}"
    else:  # drop a key, a list item, or empty a list
        parent = _parent(data, path)
        if isinstance(parent, list) and rng.random() < 0.3:
            parent.clear()
            what = f"{_dotted(path[:-1])}: emptied"
        else:
            del parent[path[-1]]
            what = f"{_dotted(path)}: removed"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True), what


def _dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)


def _short(value: Any) -> str:
    return repr(value) if not isinstance(value, dict | list) else type(value).__name__


# --- the checks -----------------------------------------------------------------------------


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def on_alarm(signum, frame):
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _where(exc: BaseException) -> str:
    last = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {Path(last.filename).name}:{last.lineno}" if last else ""
    return f"{type(exc).__name__}{at}: {str(exc)[:160]}"


def invoke(args: list[str], seconds: int) -> tuple[int | None, str, BaseException | None]:
    """(exit code, stderr, exception) of `balance ARGS` in this process."""
    from balance.cli import app

    runner = CliRunner()
    try:
        with time_limit(seconds):
            result = runner.invoke(app, args)
    except Hang as exc:
        return None, "", exc
    exc = result.exception
    if isinstance(exc, SystemExit):
        exc = None
    return result.exit_code, result.stderr, exc


def judge(args: list[str], seconds: int) -> tuple[str, str] | None:
    """None when the command ended as a user may expect; else (kind, where)."""
    code, stderr, exc = invoke(args, seconds)
    if isinstance(exc, Hang):
        return "hang", f"{args[0]}: {exc}"
    if exc is not None:
        return "traceback", _where(exc)
    if code not in (0, 2):
        return "exit code", f"{code}: {stderr.strip()[:200]}"
    if code == 2 and len(stderr.strip().splitlines()) != 1:
        return "lines", stderr.strip()[:300]
    if "Traceback" in stderr:
        return "traceback", stderr.strip()[-300:]
    return None


def scenario_for(game: str, cards: Path) -> str:
    """A small scenario of `game` that plays the database at `cards`."""
    base = {
        "horsepower": "four-player-mixed.yaml",
        "heat": "heat-usa.yaml",
        "downforce": "downforce-four.yaml",
        "shuffle_gp": "shuffle-gp-four.yaml",
    }[game]
    data = yaml.safe_load((ROOT / "scenarios" / base).read_text())
    data.update({"cards": str(cards), "games": 6, "chunk_size": 6})
    return yaml.safe_dump(data, sort_keys=False)


def check_database(
    game: str, text: str, folder: Path, seconds: int = 20, report: bool = False
) -> tuple[str, str, str] | None:
    """(stage, kind, where) of the first thing wrong with a database mutant, or
    None; `report`: a mutant that runs also gets `balance report`."""
    path = folder / "mutant.yaml"
    path.write_text(text)
    bad = judge(["validate", "--game", game, str(path)], seconds)
    if bad:
        return ("validate", *bad)
    code, _, _ = invoke(["validate", "--game", game, str(path)], seconds)
    if code != 0:
        return None
    scenario = folder / "scenario.yaml"
    scenario.write_text(scenario_for(game, path))
    bad = _run_stage(scenario, folder, seconds)
    if bad or not report:
        return bad
    bad = judge(["report", str(folder / "run"), "--out", str(folder / "report")], seconds * 3)
    return ("report", *bad) if bad else None


def check_scenario(text: str, folder: Path, seconds: int = 20) -> tuple[str, str, str] | None:
    """A scenario mutant: `balance run` with a few games (placed beside the
    shipped databases, so its `cards:` and database search work as shipped)."""
    path = folder / "scenarios" / "mutant.yaml"
    path.parent.mkdir(exist_ok=True)
    for db in DATABASES.values():
        if not (folder / db.name).exists():
            (folder / db.name).write_text(db.read_text())
    path.write_text(text)
    return _run_stage(path, folder, seconds)


def _run_stage(scenario: Path, folder: Path, seconds: int) -> tuple[str, str, str] | None:
    out = folder / "run"
    args = ["run", str(scenario), "--games", "6", "--chunk-size", "6", "-j", "1", "-q", "--out", str(out), "--force"]
    bad = judge(args, seconds)
    return ("run", *bad) if bad else None


def campaign(
    count: int, seed: int, files: list[Path] | None = None, seconds: int = 20, report_every: int = 0
) -> tuple[int, list[Failure]]:
    """`count` mutants of each file (every database and scenario by default):
    (mutants tried, failures). `report_every` N: every Nth database mutant
    also gets `balance report` when it runs (a report takes seconds)."""
    rng = np.random.default_rng(seed)
    failures: list[Failure] = []
    tried = 0
    games = {v: k for k, v in DATABASES.items()}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for file in [f.resolve() for f in files or [*DATABASES.values(), *SCENARIOS]]:
            original = file.read_text()
            for _ in range(count):
                text, what = mutate(original, rng)
                tried += 1
                if file in games:
                    report = report_every > 0 and tried % report_every == 0
                    bad = check_database(games[file], text, folder, seconds, report)
                else:
                    bad = check_scenario(text, folder, seconds)
                if bad:
                    failures.append(Failure(file.name, what, *bad, text))
    return tried, failures


def limit_memory(gib: float) -> None:
    """Cap this process's address space, so a mutant that asks for too much
    memory raises MemoryError instead of taking the machine."""
    limit = int(gib * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="mutants of each file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=int, default=20, help="time limit of one command")
    parser.add_argument("--memory-gib", type=float, default=8.0)
    parser.add_argument("--report-every", type=int, default=0, help="report every Nth database mutant that runs")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    limit_memory(args.memory_gib)
    tried, failures = campaign(args.count, args.seed, args.files or None, args.seconds, args.report_every)
    groups = Counter(f.key() for f in failures)
    print(f"{tried} mutants, {len(failures)} failures, {len(groups)} distinct")
    shown = set()
    for failure in failures:
        if failure.key() in shown:
            continue
        shown.add(failure.key())
        print(f"\n[{groups[failure.key()]}x] {failure.key()}\n    {failure.file}: {failure.mutation}")
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
