"""Issue 32: the experiments that play runs (strength, compare, sweep) on a
Dask cluster give the same tables as on this machine: every game is keyed by
its seed and id (games/chance.py), whoever plays it."""

from __future__ import annotations

import polars as pl
import pytest

from .conftest import ROOT

SCENARIO = f"""name: dk
game: horsepower
cards: {ROOT / "cards.yaml"}
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
    from balance.compare import compare
    from balance.strength import strength
    from balance.sweep import sweep

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    dask = {"backend": "dask", "scheduler": cluster}
    for where, extra in (("here", {"jobs": 1}), ("dask", dask)):
        strength(path, ["v8_block", "twin_turbo"], out=tmp_path / f"strength-{where}", **extra)
        compare(path, out=tmp_path / f"compare-{where}", **extra)
        sweep(path, "cards.v8_block.effects.0.amount=2,5", out=tmp_path / f"sweep-{where}", **extra)
    for name in ("strength/strength.csv", "compare/compare.csv", "sweep/sweep.csv"):
        folder, file = name.split("/")
        here = pl.read_csv(tmp_path / f"{folder}-here" / file)
        there = pl.read_csv(tmp_path / f"{folder}-dask" / file)
        assert here.equals(there), name
    assert pl.read_csv(tmp_path / "strength-dask" / "strength.csv")["games"].to_list() == [24, 24]
