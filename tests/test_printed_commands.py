"""Every command a page or the console prints runs as printed (issue 43, item 1).

For each game: a small run and its report; every command the report page and
the console print (after "next: ", after "-> ", in <code>) is collected and
run exactly as printed, each from a copy of the folder it was printed in (a
designer runs one of them, not all in a row), with BALANCE_SCALE=0.001 (the
one knob: it shrinks the experiments' budgets of games, never the command).
Horsepower (a database of 14 parts and 6 Playbooks, so that measuring every
item is quick) is then edited, run again and measured, and the commands of
that measured page run too: its fits, its sweep, the comparison with the kept run.

Marked `printed`. CI runs every command of Horsepower's measured page (the
first page's are the same commands: parsed only) and, of the other games,
every printed command but the whole-database measurements (`--measure`: each
item in 16-game tasks, where the lockstep engines pay per step: a minute a
game); BALANCE_PRINTED=full runs those too.
"""

from __future__ import annotations

import html
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml

from .conftest import CARDS, ROOT, cli

PAGE = (  # on the page's HTML, each command unescaped once found (its text may hold &lt;, as in 'seat-balance<=2')
    re.compile(r"<code>(balance [a-z]+ [^<]+)</code>"),  # a command, not a command's name
    re.compile(r"-&gt; (balance [^<\n]+?)(?= and -&gt; |$|<)", re.M),
)
CONSOLE = (
    re.compile(r"-> (balance .+?)(?= and -> |$)", re.M),
    re.compile(r"^next: (balance .+)$", re.M),
)


SCENARIO = """name: {name}
game: {game}
cards: {cards}
players: {players}
bots: {bots}
games: {games}
seed: 5
chunk_size: {games}
"""
GAMES = {
    "horsepower": ("cards.yaml", "[racer, economist, balanced]"),
    "heat": ("heat.yaml", "[balanced, aggressive, cautious, balanced]"),
    "downforce": ("downforce.yaml", "[balanced, shark, miser, random]"),
    "shuffle_gp": ("shuffle_gp.yaml", "[balanced, aggressive, defensive, random]"),
}


def printed(page: str = "", console: str = "") -> list[str]:
    """The commands a page's HTML and a console's text print, once each, in order."""
    found = [html.unescape(m).strip() for p in PAGE for m in p.findall(page)]
    found += [m.strip() for p in CONSOLE for m in p.findall(console)]
    return list(dict.fromkeys(found))


FULL = os.environ.get("BALANCE_PRINTED") == "full"
pytestmark = pytest.mark.printed

# the small Horsepower database: the starters, the Debris, the first 14 parts and these Playbooks
PLAYBOOKS = ("rocket_fuel", "seasoned_veteran", "lead_foot", "tinkerer", "sponsor_logo", "haggler")


def small_horsepower(path: Path) -> None:
    data = yaml.safe_load(CARDS.read_text())
    kept = [c for c in data["cards"] if {"S", "D"} & set(c.get("flags", []))]
    parts = [c for c in data["cards"] if not {"S", "D"} & set(c.get("flags", []))]
    data["cards"] = kept + parts[:14]
    data["playbooks"] = [p for p in data["playbooks"] if p["id"] in PLAYBOOKS]
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def run_each(commands: list[str], work: Path, tmp: Path, monkeypatch, stage: str = "first") -> None:
    """Each command from its own copy of `work`, as a shell would split it; exit code 0."""
    monkeypatch.setenv("BALANCE_SCALE", "0.001")
    for k, command in enumerate(commands):
        copy = tmp / f"{work.name}-{stage}-{k}"
        shutil.copytree(work, copy, symlinks=True)
        monkeypatch.chdir(copy)
        words = shlex.split(command)
        assert words[0] == "balance", command
        code, stdout, stderr = cli(*words[1:], "-q") if _quiet(words[1]) else cli(*words[1:])
        assert code == 0, f"{command}\n{stdout}\n{stderr}"
    monkeypatch.chdir(work)


def _quiet(command: str) -> bool:
    return command in ("run", "strong", "fit", "sweep", "strength")


def setup_game(game: str, tmp: Path, monkeypatch) -> tuple[Path, Path, list[str]]:
    """A work folder with a copy of the game's database and a small scenario, run and reported
    as the console says: (the folder, its database, the commands printed so far)."""
    work = tmp / game
    (work / "scenarios").mkdir(parents=True)
    database, bots = GAMES[game]
    cards = work / database
    if game == "horsepower":
        small_horsepower(cards)
    else:
        shutil.copy(ROOT / database, cards)
    (work / "scenarios" / "small.yaml").write_text(
        SCENARIO.format(
            name="small",
            game=game,
            cards=cards,
            bots=bots,
            players=3 if game == "horsepower" else 4,
            games=64 if game == "horsepower" else 16,
        )
    )
    monkeypatch.chdir(work)
    code, ran, stderr = cli("run", "scenarios/small.yaml", "-j", "1", "-q")
    assert code == 0, stderr
    (nxt,) = printed(console=ran)
    assert nxt == "balance report runs/small"
    code, reported, stderr = cli(*shlex.split(nxt)[1:])
    assert code == 0, stderr
    page = (work / "reports" / "small" / "index.html").read_text()
    return work, cards, printed(page, reported)


@pytest.mark.parametrize("game", ["heat", "downforce", "shuffle_gp"])
def test_every_command_a_small_report_prints_runs_as_printed(game, tmp_path, monkeypatch):
    work, _, commands = setup_game(game, tmp_path, monkeypatch)
    assert "balance report runs/small --measure" in commands and "balance strong runs/small" in commands
    for command in commands:  # each parses as the command it names, with its options (no placeholder)
        words = shlex.split(command)
        code, _, stderr = cli(*words[1:], "--help")
        assert code == 0 and words[1] in {"report", "strong", "fit", "sweep", "compare"}, stderr
    run_each([c for c in commands if FULL or "--measure" not in c], work, tmp_path, monkeypatch)


def test_every_command_of_the_designers_loop_runs_as_printed(tmp_path, monkeypatch):
    """Horsepower: the first page's commands, then after an edit, a run and a
    measure, the commands of the measured page (What to change's fits, the
    sweep, the comparison with the run kept)."""
    work, cards, commands = setup_game("horsepower", tmp_path, monkeypatch)
    for command in commands:  # the first page's: each parses as the command it names (the measured page's run below)
        words = shlex.split(command)
        assert cli(*words[1:], "--help")[0] == 0, command
    if FULL:
        run_each(commands, work, tmp_path, monkeypatch)
    monkeypatch.setenv("BALANCE_SCALE", "0.001")
    measure = "balance report runs/small --measure"
    assert measure in commands
    code, _, stderr = cli(*shlex.split(measure)[1:], "-q")
    assert code == 0, stderr
    data = yaml.safe_load(cards.read_text())  # the designer's edit: Rocket Fuel's Drive 3 -> 1
    next(p for p in data["playbooks"] if p["id"] == "rocket_fuel")["effects"][0]["amount"] = 1
    cards.write_text(yaml.safe_dump(data, sort_keys=False))

    code, ran, stderr = cli("run", "scenarios/small.yaml", "-j", "1", "-q")
    assert code == 0 and "the run it replaced: runs/small.previous/" in ran, stderr
    code, reported, stderr = cli(*shlex.split(measure)[1:], "-q")
    assert code == 0, stderr
    assert "Since the last run:" in reported
    page = (work / "reports" / "small" / "index.html").read_text()
    measured = printed(page, reported)
    kinds = {shlex.split(c)[1] for c in measured}
    assert {"fit", "sweep", "compare", "strong", "report", "rebalance"} <= kinds, measured
    assert "balance compare runs/small.previous runs/small" in measured
    run_each(measured, work, tmp_path, monkeypatch, "measured")
