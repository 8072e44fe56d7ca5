"""Record the golden results in tests/golden/results/ (issue 44): for several
scenarios of each game, thousands of games played by the engine as it is,
every game's row (winner, rounds, ...) and every player's tallies (the logs'
games and players tables, whole), and a sha256 of each chunk's cards table.
A compiled engine must reproduce them exactly: a game is a function of
(scenario, seed, game id). Afterwards they stay as regression tests,
regenerated (and the diff read) only after a deliberate rule, bot or
database change, as the golden traces are.

Usage: python scripts/regen_golden_results.py [NAME ...]
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from balance.runner import RunOptions, resolve_scenario, run_chunk
from balance.scenario import load_scenario
from balance.seeding import chunk_plan

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "tests" / "golden" / "results"
CHUNK = 256  # games a chunk: the reduced check (CI) replays the first chunk of each case
# name -> (scenario, seed, games): each game's shipped scenarios (Horsepower's first draft: the games recorded from
# the numpy engine stay the regression test whatever cards.yaml becomes), on seeds of their own
CASES = {
    "horsepower-four": ("examples/first-draft/four-player-mixed.yaml", 11, 2048),
    "horsepower-three": ("examples/first-draft/three-player-mixed.yaml", 12, 1024),
    "horsepower-duel": ("examples/first-draft/two-player-duel.yaml", 13, 1024),
    "heat-usa": ("scenarios/heat-usa.yaml", 21, 1024),
    "heat-france-garage": ("scenarios/heat-france-garage.yaml", 22, 512),
    "heat-italia-duel": ("scenarios/heat-italia-duel.yaml", 23, 512),
    "downforce-four": ("scenarios/downforce-four.yaml", 31, 1024),
    "downforce-duel": ("scenarios/downforce-duel.yaml", 32, 1024),
    "shuffle-gp-four": ("scenarios/shuffle-gp-four.yaml", 41, 1024),
    "shuffle-gp-duel": ("scenarios/shuffle-gp-duel.yaml", 42, 1024),
}


def cards_digest(table: pa.Table) -> str:
    """sha256 of a cards table as Parquet bytes would not be stable; of its columns' values, it is."""
    digest = hashlib.sha256()
    for name in table.column_names:
        digest.update(name.encode())
        digest.update(repr(table[name].to_pylist()).encode())
    return digest.hexdigest()


def play(name: str, games: int | None = None) -> dict[str, pa.Table | list[str]]:
    """The case's games (the first `games` of them): its games and players tables, and each chunk's cards digest."""
    file, seed, total = CASES[name]
    games = games or total
    scenario = resolve_scenario(load_scenario(ROOT / file), RunOptions(games=games, seed=seed, chunk_size=CHUNK))
    plan = chunk_plan(games, CHUNK)
    parts: dict[str, list[pa.Table]] = {"games": [], "players": []}
    digests = []
    for c, (first, size) in enumerate(plan):
        tables = run_chunk(scenario, c, len(plan), first, size, None)["tables"]
        parts["games"].append(tables["games"])
        parts["players"].append(tables["players"])
        digests.append(cards_digest(tables["cards"]))
    return {k: pa.concat_tables(v) for k, v in parts.items()} | {"cards": digests}


def path_of(name: str, table: str) -> Path:
    return RESULTS / f"{name}.{table}.parquet"


def write(name: str) -> None:
    played = play(name)
    RESULTS.mkdir(parents=True, exist_ok=True)
    for table in ("games", "players"):
        pq.write_table(played[table], path_of(name, table), compression="zstd", compression_level=19)
    (RESULTS / f"{name}.cards.sha256").write_text("\n".join(played["cards"]) + "\n")
    size = sum(path_of(name, t).stat().st_size for t in ("games", "players"))
    print(f"wrote {name}: {played['games'].num_rows:,} games, {size / 1024:.0f} KiB")


def read(name: str) -> dict[str, pa.Table | list[str]]:
    out: dict[str, pa.Table | list[str]] = {t: pq.read_table(path_of(name, t)) for t in ("games", "players")}
    out["cards"] = (RESULTS / f"{name}.cards.sha256").read_text().split()
    return out


def main(names: list[str]) -> None:
    for name in names or list(CASES):
        write(name)


if __name__ == "__main__":
    main(sys.argv[1:])
