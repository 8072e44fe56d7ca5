"""Issue 32: the experiments that play runs (strength, compare, sweep) on a
Dask cluster give the same tables as on this machine: every game is keyed by
its seed and id (games/chance.py), whoever plays it."""

from __future__ import annotations

import polars as pl
import pytest

from balance.experiments.setup import ExperimentOptions

from .conftest import CARDS

SCENARIO = f"""name: dk
game: horsepower
cards: {CARDS}
players: 3
bots: [racer, economist, balanced]
games: 24
seed: 7
chunk_size: 8
variants:
  - name: v8-up
    overrides: {{cards.v8_block.effects.0.amount: 6}}
"""


@pytest.fixture(scope="module")
def cluster():
    import distributed  # a dev dependency (pyproject: dev extras), so this test always runs

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
    ) as local:
        yield local.scheduler_address


def test_strength_compare_and_sweep_on_a_cluster_match_this_machine(tmp_path, cluster):
    from balance.experiments.compare import compare
    from balance.experiments.strength import strength
    from balance.experiments.sweep import sweep

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    dask = {"backend": "dask", "scheduler": cluster}
    for where, extra in (("here", {"jobs": 1}), ("dask", dask)):
        strength(
            path, ["v8_block", "twin_turbo"], options=ExperimentOptions(out=tmp_path / f"strength-{where}", **extra)
        )
        compare(path, options=ExperimentOptions(out=tmp_path / f"compare-{where}", **extra))
        sweep(
            path,
            "cards.v8_block.effects.0.amount=2,5",
            options=ExperimentOptions(out=tmp_path / f"sweep-{where}", **extra),
        )
    for name in ("strength/strength.csv", "compare/compare.csv", "sweep/sweep.csv"):
        folder, file = name.split("/")
        here = pl.read_csv(tmp_path / f"{folder}-here" / file)
        there = pl.read_csv(tmp_path / f"{folder}-dask" / file)
        assert here.equals(there), name
    assert pl.read_csv(tmp_path / "strength-dask" / "strength.csv")["games"].to_list() == [24, 24]


def test_tune_and_strong_on_a_cluster_match_this_machine(tmp_path, cluster):
    """The searches play their candidates' tasks there (experiment.play): the same
    candidates, curve and proposal; strong's replay and ladder likewise."""
    from balance.experiments.strong import play_strong
    from balance.experiments.tune import TuneOptions, tune
    from balance.runner import RunOptions, run

    from .test_tune import DUEL

    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    small = dict(bot="miser", games_per_eval=16, budget=500, population=8, confirm_games=256)
    here = tune(path, TuneOptions(**small, jobs=1, out=tmp_path / "tune-here"))
    there = tune(path, TuneOptions(**small, out=tmp_path / "tune-dask", backend="dask", scheduler=cluster))
    for file in ("candidates.csv", "curve.csv"):
        assert pl.read_csv(here.out / file).equals(pl.read_csv(there.out / file)), file
    runs = {}
    for where, extra in (("here", {"jobs": 1}), ("dask", {"backend": "dask", "scheduler": cluster})):
        runs[where] = tmp_path / f"run-{where}"
        run(path, RunOptions(out=runs[where], games=32, chunk_size=16, jobs=1))
        play_strong(runs[where], ExperimentOptions(games=32, **extra), ladder_games=32)
    a, b = (pl.read_csv(runs[w] / "strong" / "ladder.csv") for w in ("here", "dask"))
    assert a.equals(b)


def test_fit_on_a_cluster_matches_this_machine(tmp_path, cluster):
    from typer.testing import CliRunner

    from balance.cli import app

    from .test_fit import FIT, SCENARIO, SMALL

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    for where, extra in (("here", []), ("dask", ["--backend", "dask", "--scheduler", cluster])):
        result = CliRunner().invoke(app, ["fit", str(path), *FIT, *SMALL, "--out", str(tmp_path / where), *extra])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "here" / "proposal.yaml").read_text() == (tmp_path / "dask" / "proposal.yaml").read_text()
    here, there = (pl.read_csv(tmp_path / w / "candidates.csv") for w in ("here", "dask"))
    assert here.equals(there)
