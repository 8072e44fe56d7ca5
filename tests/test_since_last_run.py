"""Since the last run (issue 43, item 3): `balance run` keeps the run it
replaces (RUN.previous), the report opens with what changed and each changed
item's causal strength before -> after, and `balance compare` gives the same
causal line. The figures are the two runs' own strength experiments."""

from __future__ import annotations

import json
import shutil

import pytest

from balance.experiments.setup import ExperimentOptions
from balance.experiments.strength import strength
from balance.report.headline import MEASURED

from .conftest import CARDS, cli, one_line

SCENARIO = """name: loop
game: horsepower
cards: {cards}
players: 3
bots: [racer, economist, racer]
games: 64
seed: 5
chunk_size: 32
"""


@pytest.fixture
def loop(tmp_path):
    """A scenario over its own copy of cards.yaml (the designer's file to edit) and its run's folder."""
    cards = tmp_path / "cards.yaml"
    shutil.copy(CARDS, cards)
    path = tmp_path / "loop.yaml"
    path.write_text(SCENARIO.format(cards=cards))
    return path, cards, tmp_path / "runs" / "loop"


def edit(cards, old: str, new: str) -> None:
    text = cards.read_text()
    assert text.count(old) == 1
    cards.write_text(text.replace(old, new))


ROCKET = '      - {when: always, op: drive, amount: 3}\n    text: "Each turn, +3 Drive."'


def play(path, out) -> str:
    code, stdout, stderr = cli("run", path, "--out", out, "-j", "1", "-q")
    assert code == 0, stdout + stderr
    return stdout


def test_a_run_keeps_the_run_it_replaces_when_its_inputs_differ(loop):
    path, cards, out = loop
    play(path, out)
    first = json.loads((out / "manifest.json").read_text())
    again = play(path, out)  # the same inputs: played again in place, no --force, nothing kept
    assert "the run it replaced" not in again and not (out.parent / "loop.previous").exists()
    edit(cards, ROCKET, ROCKET.replace("amount: 3", "amount: 1"))
    stdout = play(path, out)
    previous = out.parent / "loop.previous"
    assert f"the run it replaced: {previous}/" in stdout
    kept = json.loads((previous / "manifest.json").read_text())
    assert kept["cards_sha256"] == first["cards_sha256"] and kept["status"] == "complete"
    assert json.loads((out / "manifest.json").read_text())["cards_sha256"] != first["cards_sha256"]
    assert sorted(p.name for p in (previous / "games").iterdir()) == ["part-000000.parquet", "part-000001.parquet"]
    # one generation: the next edit replaces the kept run with the one before it, and leaves no other folder
    edit(cards, ROCKET.replace("amount: 3", "amount: 1"), ROCKET.replace("amount: 3", "amount: 2"))
    play(path, out)
    kept = json.loads((previous / "manifest.json").read_text())
    rocket = next(p for p in kept["database"]["playbooks"] if p["id"] == "rocket_fuel")
    assert rocket["effects"][0]["amount"] == 1
    assert sorted(p.name for p in out.parent.iterdir()) == ["loop", "loop.previous"]


def test_a_previous_folder_that_is_not_a_run_is_refused_before_anything_moves(loop):
    path, cards, out = loop
    play(path, out)
    stray = out.parent / "loop.previous"
    stray.mkdir()
    (stray / "notes.txt").write_text("mine")
    edit(cards, ROCKET, ROCKET.replace("amount: 3", "amount: 1"))
    line = one_line("run", path, "--out", out, "-j", "1", "-q")
    assert "loop.previous: --out: is where balance run keeps the run it replaces, but holds something else" in line
    assert (stray / "notes.txt").read_text() == "mine" and (out / "manifest.json").is_file()


def measure(out, item: str) -> None:
    """The run's own strength experiment for one item (what balance report --measure writes, smaller)."""
    from balance.runner import scenario_of_run

    scenario, _ = scenario_of_run(out)
    options = ExperimentOptions(jobs=1, out=out / MEASURED, force=True, fixed_out=True)
    strength(scenario, [item], options)


def test_the_report_and_compare_open_with_the_changed_items_causal_before_and_after(loop):
    path, cards, out = loop
    play(path, out)
    measure(out, "rocket_fuel")
    edit(cards, ROCKET, ROCKET.replace("amount: 3", "amount: 1"))
    play(path, out)
    code, stdout, _ = cli("report", out, "--out", out.parent / "report")
    assert code == 0
    since = stdout.split("Since the last run:\n", 1)[1]
    first = since.splitlines()[0]
    assert first == f"- 1 change since the last run ({out}.previous): playbooks.rocket_fuel.effects.0.amount: 3 -> 1."
    assert "needs both runs measured" in since and f"balance report {out} --measure --out reports/loop" in since
    measure(out, "rocket_fuel")
    code, stdout, _ = cli("report", out, "--out", out.parent / "report")
    line = next(x for x in stdout.splitlines() if x.startswith("- Rocket Fuel (changed): "))
    # the page's first answer, then what changed (issue 45): both from the measured figures
    answer = stdout.split("Is the game balanced?\n", 1)[1]
    assert stdout.index("Is the game balanced?") < stdout.index("Since the last run:")
    assert "- In the scenario's field: " in answer.split("Since the last run:")[0]
    assert "- Not measured: the tuned field (measured by balance strong " in answer.split("Since the last run:")[0]
    before = json.loads((out.parent / "loop.previous" / MEASURED / "baseline" / "manifest.json").read_text())
    assert before["status"] == "complete"
    import polars as pl

    rows = [
        pl.read_csv(folder / MEASURED / "strength.csv").row(0, named=True)
        for folder in (out.parent / "loop.previous", out)
    ]
    assert line.startswith(
        f"- Rocket Fuel (changed): {rows[0]['change_pp']:+.1f} ({rows[0]['ci_low_pp']:+.1f} to "
        f"{rows[0]['ci_high_pp']:+.1f}, n={rows[0]['games']:,}) -> {rows[1]['change_pp']:+.1f}"
    ), "the figures are each run's own strength table"
    assert "Win rate by seat (3 players, n=64 games a run): seat 0: " in stdout
    assert "Win rate by draft position (3 players" in stdout
    page = (out.parent / "report" / "index.html").read_text()
    assert page.index(">Since the last run<") < page.index(">What to change<")  # the sections, not the answer
    # Going deeper: the comparison with the kept run, and a sweep of the measured item's own number, as they run
    assert f"<code>balance compare {out}.previous {out}</code>" in page
    assert (
        f"<code>balance sweep {path} --set playbooks.rocket_fuel.effects.0.amount=0,1,2,3 --metric strength:rocket_fuel "
        "--target 0 --games 4096</code>" in page
    )
    code, stdout, _ = cli("compare", out.parent / "loop.previous", out, "--out", out.parent / "cmp")
    assert code == 0 and "By experiment (causal)" in stdout
    assert line.removeprefix("- ") in stdout
    assert "Rocket Fuel (changed)" in (out.parent / "cmp" / "index.html").read_text()


def test_nothing_kept_means_no_section(loop):
    path, _, out = loop
    play(path, out)
    code, stdout, _ = cli("report", out, "--out", out.parent / "report")
    assert code == 0 and "Since the last run" not in stdout


def test_the_kept_run_sits_beside_the_run_whatever_the_out_is_called(tmp_path, monkeypatch):
    from pathlib import Path

    from balance.runner import previous_of

    monkeypatch.chdir(tmp_path)
    assert previous_of(Path("runs/loop")) == Path("runs/loop.previous") == previous_of(Path("runs/loop/"))
    assert previous_of(Path(".")) == tmp_path.with_name(tmp_path.name + ".previous"), "--out . has no name of its own"


def test_a_changed_text_that_ends_its_sentence_is_not_given_a_second_period(loop):
    """The eighth database's report read "... Put 2 Debris into your Garage.." after Turbocharger's text changed."""
    path, cards, out = loop
    play(path, out)
    edit(cards, ROCKET, ROCKET.replace("amount: 3", "amount: 2").replace("+3 Drive.", "+2 Drive."))
    play(path, out)
    code, stdout, _ = cli("report", out, "--out", out.parent / "report")
    assert code == 0
    first = stdout.split("Since the last run:\n", 1)[1].splitlines()[0]
    assert first.endswith("Each turn, +3 Drive. -> Each turn, +2 Drive.") and first.count("3 -> 2") == 1, first
