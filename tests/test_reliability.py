"""The newer commands under interrupts and races (issue 35): fit, tune,
strength, sweep, strong and compare killed mid-way by SIGTERM, by SIGKILL of
their process group, or by SIGKILL of the parent alone (its workers orphaned),
then finished (--resume where the command keeps a state, else --force after a
one-line refusal), give the very files an uninterrupted run of the same seed
gives; two processes never share an --out; a garbled or truncated state file
is a one-line refusal that leaves the file as it was.

CI plays each signal once (on tune, strength and compare) and two of the
damaged states; BALANCE_RELIABILITY=full plays every command with every
signal and every damage.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from .conftest import CARDS, ROOT

pytestmark = pytest.mark.reliability

FULL = os.environ.get("BALANCE_RELIABILITY") == "full"
SIGNALS = ("term", "kill-group", "kill-parent")

SCENARIO = f"""name: rel
game: horsepower
cards: {CARDS}
players: 2
bots: [racer, balanced]
games: 400
seed: 3
chunk_size: 50
variants:
  - name: v9
    overrides: {{cards.v8_block.effects.0.amount: 9}}
"""

# command -> (its arguments after the scenario or run, what it keeps (resume flag or None), the files compared)
COMMANDS = {
    "tune": (
        ["--bot", "racer", "--budget", "2000", "--games-per-eval", "64", "--confirm-games", "256"],
        "--resume",
        ["tuned.yaml", "candidates.csv"],
    ),
    "fit": (
        [
            *("--free", "cards.twin_turbo.effects.0.amount=0..8", "--target", "strength:twin_turbo=0+-10"),
            *("--games", "100", "--budget", "1800", "--population", "2", "--confirm-games", "100"),
        ],
        "--resume",
        ["proposal.yaml", "candidates.csv"],
    ),
    "strength": (["--cards", "twin_turbo,v8_block", "--games", "600"], None, ["strength.csv"]),
    "sweep": (["--set", "cards.twin_turbo.effects.0.amount=3..6"], None, ["sweep.csv"]),
    "strong": (["--ladder-games", "200"], "--resume", ["strong/ladder.csv"]),
    "compare": ([], None, ["compare.csv"]),
}
# CI: each signal once, on the quicker commands (a state resumed, orphaned workers writing parts, a group killed)
CASES = (
    [(c, s) for c in COMMANDS for s in SIGNALS]
    if FULL
    else [("tune", "term"), ("strength", "kill-parent"), ("compare", "kill-group")]
)


def _balance(*args: str, **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    return subprocess.Popen(
        [sys.executable, "-m", "balance", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **kw,
    )


def _done(*args: str) -> subprocess.CompletedProcess:
    p = _balance(*args)
    out, err = p.communicate(timeout=300)
    return subprocess.CompletedProcess(args, p.returncode, out, err)


def _args(command: str, tmp: Path, out: Path) -> list[str]:
    extra, _, _ = COMMANDS[command]
    if command == "strong":  # strong plays beside a run: out is the run
        return ["strong", str(out), *extra, "-j", "2", "-q"]
    return [command, str(tmp / "s.yaml"), *extra, "-j", "2", "-q", "--out", str(out)]


def _started(command: str, out: Path) -> bool:
    """Something of the experiment is on disk: a state, a run's manifest, a part."""
    where = out / "strong" if command == "strong" else out
    return any(p.name in ("tune.json", "fit.json") or p.name.startswith("part-") for p in where.rglob("*"))


def _interrupt(p: subprocess.Popen, how: str) -> None:
    if how == "term":
        p.send_signal(signal.SIGTERM)
    elif how == "kill-group":
        os.killpg(p.pid, signal.SIGKILL)
    else:  # the parent alone: its workers are orphaned and may still write
        p.kill()
    p.wait(timeout=60)


def _files(command: str, out: Path) -> dict[str, object]:
    _, _, names = COMMANDS[command]
    read = {}
    for name in names:
        path = out / name
        text = path.read_text()
        if name.endswith(".yaml"):  # a tuned profile's comment names the date and command: the values must agree
            text = yaml.safe_load(text)
        read[name] = text
    return read


def _prepare(command: str, tmp: Path, out: Path) -> None:
    (tmp / "s.yaml").write_text(SCENARIO)
    if command == "strong":
        done = _done("run", str(tmp / "s.yaml"), "-o", str(out), "-j", "2", "-q")
        assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("command", "how"), CASES)
def test_an_interrupted_experiment_finishes_as_if_never_stopped(tmp_path, command, how):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    _prepare(command, tmp_path, whole)
    _prepare(command, tmp_path, cut)
    first = _done(*_args(command, tmp_path, whole))
    assert first.returncode == 0, first.stderr
    p = _balance(*_args(command, tmp_path, cut))
    deadline = time.monotonic() + 120
    while not _started(command, cut) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert p.poll() is None, f"{command} ended before it could be interrupted: {p.stderr.read()}"
    time.sleep(0.3)  # mid-way: past the first thing written
    _interrupt(p, how)
    _, keeps, _ = COMMANDS[command]
    if how == "kill-parent":
        time.sleep(1.5)  # orphaned workers see their parent gone and stop
    again = _done(*_args(command, tmp_path, cut))
    if command != "strong" or again.returncode != 0:
        # a folder holding part of a result is never taken over silently: one line, saying how to go on
        # (--resume where a state was saved, --force where the command keeps none or had saved none yet)
        assert again.returncode == 2 and again.stderr.count("\n") == 1, again.stderr
        named = "--resume" if "--resume" in again.stderr else "--force"
        assert named in again.stderr and (keeps or named == "--force"), again.stderr
        finish = _done(*_args(command, tmp_path, cut), named)
        assert finish.returncode == 0, finish.stderr
    assert _files(command, cut) == _files(command, whole), _first_difference(
        _files(command, whole), _files(command, cut)
    )


def _first_difference(whole: dict[str, object], cut: dict[str, object]) -> str:
    """Where the finished files first differ from the uninterrupted run's: the file, line and both lines."""
    for name, text in whole.items():
        a, b = str(text).splitlines(), str(cut.get(name)).splitlines()
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return f"{name}, line {i + 1}: uninterrupted {x!r}, interrupted {y!r}"
        if len(a) != len(b):
            return f"{name}: {len(a)} lines uninterrupted, {len(b)} interrupted"
    return "no difference line by line"


def _holder(folder: Path) -> subprocess.Popen:
    """Another process holding `folder` as an experiment does (setup.hold_folder)."""
    code = (
        "import sys, time; from pathlib import Path; from balance.experiments.setup import hold_folder; "
        f"Path({str(folder)!r}).mkdir(); "
        f"hold_folder(Path({str(folder)!r})); print('held', flush=True); time.sleep(60)"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE, text=True
    )
    assert p.stdout.readline().strip() == "held"
    return p


@pytest.mark.parametrize("command", ["tune", "fit", "strength", "sweep", "compare"])
def test_two_processes_never_share_an_out(tmp_path, command):
    (tmp_path / "s.yaml").write_text(SCENARIO)
    out = tmp_path / "o"
    holder = _holder(out)
    try:
        second = _done(*_args(command, tmp_path, out), "--force")
        assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
        assert f"(pid {holder.pid}) is writing here" in second.stderr
        assert [p.name for p in out.iterdir()] == [".lock"], "nothing of the holder's was touched"
    finally:
        holder.kill()
        holder.wait()


DAMAGES = (
    [(c, d) for c in ("tune", "fit") for d in ("truncated", "garbled")]
    if FULL
    else [("tune", "truncated"), ("fit", "garbled")]
)


@pytest.mark.parametrize(("command", "damage"), DAMAGES)
def test_a_damaged_state_file_is_refused_in_one_line_and_left_alone(tmp_path, command, damage):
    (tmp_path / "s.yaml").write_text(SCENARIO)
    out = tmp_path / "o"
    small = {  # one round is enough to hold a state
        "tune": ["--budget", "100", "--population", "4", "--games-per-eval", "16", "--confirm-games", "32"],
        "fit": ["--budget", "600", "--confirm-games", "20", "--games", "100"],
    }[command]
    done = _done(*_args(command, tmp_path, out), *small)
    assert done.returncode == 0, done.stderr
    state = out / f"{command}.json"
    text = state.read_text()
    broken = text[: len(text) // 2] if damage == "truncated" else text.replace('"', "'", 3)
    state.write_text(broken)
    again = _done(*_args(command, tmp_path, out), *small, "--resume")
    assert again.returncode == 2 and again.stderr.count("\n") == 1, again.stderr
    assert f"is not a {command}'s state" in again.stderr
    assert state.read_text() == broken, "the state is left for the designer to look at"
