"""The planted-defect benchmark: does the default flow find changes a designer
makes, and only those?

For each game: the shipped scenario's default flow (balance run, then the
report's experiment, `balance report --measure`'s adaptive strength) on the
shipped database (V0); K random plants in a copy of the database, each a
number of an item that V0 reads as not significant (so that a plant moves a
fair item away from fair), scaled up or down at random; the default flow again
on the copy (V1); and an oracle: the planted items' strength on both
databases at many more games, whose difference is each plant's true effect
and direction. Then:

- recall: of the plants whose true effect is 3+ points, the share V1 flags
  ("too strong" / "too weak") in the plant's true direction;
- false alarms: untouched items whose verdict V1 changes to a flag (V0 not
  flagged, or flagged the other way), per game; and of those, the ones the
  oracle does not confirm (its reading after the plants is not that flag):
  a plant can move an untouched item for real (Turbocharger 4 -> 8 Drive
  made Roll Cage too strong, seed 7), which is no error of the measure.

Both for the experiment (the report's causal findings) and, for comparison,
for the associations the report led with before (an item flagged where its
within-bot win rate added is significant). The plants come from `--seed`,
never from a test's fixtures: the benchmark stays blind to tuning.

    python scripts/bench_accuracy.py [--seed 7] [--plants 3] [--games horsepower,downforce,shuffle_gp]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

import polars as pl
import yaml

from balance.analysis.strength import STRONGER, WEAKER
from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions
from balance.experiments.strength import default_budget, strength
from balance.games import get_game
from balance.overrides import resolve_path, split_path
from balance.report.causal import associations, free_value
from balance.report.html import build_report
from balance.runner import RunOptions, run
from balance.scenario import load_scenario
from balance.units import from_units

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = {
    "horsepower": "scenarios/four-player-mixed.yaml",
    "downforce": "scenarios/downforce-four.yaml",
    "shuffle_gp": "scenarios/shuffle-gp-four.yaml",
    "heat": "scenarios/heat-france-garage.yaml",
}
ORACLE_GAMES = 16_384
FLAGS = (STRONGER, WEAKER)


def default_flow(scenario: Path, work: Path, jobs: int) -> tuple[pl.DataFrame, dict]:
    """The run, its experiment and its report, as make report plays them:
    (strength table, the report's associations by item)."""
    loaded = load_scenario(scenario)
    run(loaded, RunOptions(out=work / "run", jobs=jobs, force=True))
    measured = strength(
        loaded,
        None,
        ExperimentOptions(jobs=jobs, out=work / "run" / "strength", force=True),
        all_items=True,
        budget=default_budget(loaded),
    ).table
    build_report(work / "run", work / "report")
    tables = [work / "report" / name for name in ("cards.csv", "playbooks.csv")]
    cards, books = (from_units(pl.read_csv(t)) if t.is_file() else None for t in tables)
    return measured, associations(cards, books)


def plant(database: dict, table: pl.DataFrame, main: set[str], k: int, rng: random.Random, valid) -> list[dict]:
    """K plants on items V0 reads as not significant, the game's main items
    first (Horsepower's cards, Downforce's powers, Shuffle GP's drivers, Heat's
    studied cards): a number of the item doubled (at least +2) or taken to
    about nothing (at least -2), the other way where the database refuses the
    first (`valid(database)`), a defect a designer would want caught."""
    fair = table.filter(~pl.col("significant"))["card"].to_list()
    rng.shuffle(fair)
    fair.sort(key=lambda item: item not in main)  # stable: the main items first, each group shuffled
    plants = []
    for item in fair:
        found = free_value(database, item)
        if found is None:
            continue
        path, value = found
        up = rng.random() < 0.5
        for direction in (up, not up):
            if isinstance(value, int):
                step = max(2, abs(value))
                new = value + step if direction else max(0, value - step)
            else:
                new = value * 2 if direction else value / 4
            if new == value:
                continue
            _set(database, path, new)
            if valid(database):
                plants.append({"item": item, "path": path, "old": value, "new": new})
                break
            _set(database, path, value)
        if len(plants) == k:
            break
    return plants


def _set(database: dict, path: str, value) -> None:
    """Set a dotted path as the scenario overrides read it (items named by id, nested lists too)."""
    where = resolve_path(database, split_path(path))
    node = database
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value


def _alarms(classifier: str, v0: pl.DataFrame, v1: pl.DataFrame, seen0: dict, seen1: dict, planted: list) -> list:
    """Untouched items flagged where V0 ruled it out: fair there, or flagged the other way (an item that was
    undecided, or flagged the same way, is not an alarm: the plant may move it, the noise too)."""
    if classifier == "association":
        before = associated(seen0)
        return [i for i, v in associated(seen1).items() if i not in planted and before.get(i) not in (None, v)]
    v0_verdict = {r["card"]: r["verdict"] for r in v0.iter_rows(named=True)}
    return [
        item
        for item, verdict in flagged(v1).items()
        if item not in planted and v0_verdict.get(item) in ("fair", *(f for f in FLAGS if f != verdict))
    ]


def _interval(row: dict | None) -> dict | None:
    keys = ("change", "ci_low", "ci_high", "games", "verdict")
    return None if row is None else {k: row[k] for k in keys}


def flagged(table: pl.DataFrame) -> dict[str, str]:
    return {r["card"]: r["verdict"] for r in table.iter_rows(named=True) if r["verdict"] in FLAGS}


def associated(seen: dict) -> dict[str, str]:
    return {item: (STRONGER if s["added"] > 0 else WEAKER) for item, s in seen.items() if s["significant"]}


def one_game(game: str, plants: int, seed: int, jobs: int, work: Path) -> dict:
    scenario_path = ROOT / SCENARIOS[game]
    scenario = load_scenario(scenario_path)
    started = time.perf_counter()
    v0, seen0 = default_flow(scenario_path, work / "v0", jobs)
    database = yaml.safe_load(Path(scenario.cards_path).read_text())
    game_entry = get_game(scenario.model.game)
    listed = game_entry.strength_items(game_entry.catalog(game_entry.prepare(scenario)))
    main = {i["id"] for i in listed if not i.get("more")}
    copy = work / "planted.yaml"
    text = scenario_path.read_text()
    planted_scenario = work / "planted-scenario.yaml"
    lines = [line for line in text.splitlines() if not line.startswith("cards:")]
    planted_scenario.write_text("\n".join([*lines, f"cards: {copy}"]) + "\n")

    def valid(data: dict) -> bool:
        copy.write_text(yaml.safe_dump(data, sort_keys=False))
        try:
            game_entry.prepare(load_scenario(planted_scenario))
        except UserError:
            return False
        return True

    planted = plant(database, v0, main, plants, random.Random(seed), valid)
    copy.write_text(yaml.safe_dump(database, sort_keys=False))
    v1, seen1 = default_flow(planted_scenario, work / "v1", jobs)
    items = [p["item"] for p in planted]
    alarms = {c: _alarms(c, v0, v1, seen0, seen1, items) for c in ("experiment", "association")}
    # the oracle reads the alarms too: a plant can move an untouched item for real (it is measured against the
    # others), and only a larger experiment tells that from a verdict the noise flipped
    oracle_items = list(dict.fromkeys([*items, *alarms["experiment"], *alarms["association"]]))
    truth = {}
    for name, path in (("before", scenario_path), ("after", planted_scenario)):
        table = strength(
            load_scenario(path),
            oracle_items,
            ExperimentOptions(games=ORACLE_GAMES, jobs=jobs, out=work / f"oracle-{name}", force=True),
            all_items=True,
        ).table
        truth[name] = {r["card"]: _interval(r) for r in table.iter_rows(named=True)}
    result = {"game": game, "seed": seed, "plants": [], "seconds": 0.0}
    rows = {name: {r["card"]: r for r in table.iter_rows(named=True)} for name, table in (("v0", v0), ("v1", v1))}
    for classifier, after in (("experiment", flagged(v1)), ("association", associated(seen1))):
        result[f"false_{classifier}"] = alarms[classifier]
        # an alarm the oracle confirms: the plants moved the item past the band for real
        flags = flagged(v1) if classifier == "experiment" else associated(seen1)
        result[f"unconfirmed_{classifier}"] = [
            item for item in alarms[classifier] if truth["after"][item]["verdict"] != flags.get(item)
        ]
        result[f"alarm_detail_{classifier}"] = [
            {
                "item": item,
                "v0": _interval(rows["v0"].get(item)),
                "v1": _interval(rows["v1"].get(item)),
                "oracle_before": truth["before"][item],
                "oracle_after": truth["after"][item],
            }
            for item in alarms[classifier]
        ]
        for p in planted:
            p.setdefault("true", truth["after"][p["item"]]["change"] - truth["before"][p["item"]]["change"])
            want = STRONGER if p["true"] > 0 else WEAKER
            p[f"found_{classifier}"] = after.get(p["item"]) == want
            p[f"games_{classifier}"] = (
                int(v1.filter(pl.col("card") == p["item"])["games"].item()) if classifier == "experiment" else None
            )
    result["plants"] = planted
    result["games_v1"] = int(v1["games"].sum()) + int(v1["games"].max())
    result["seconds"] = time.perf_counter() - started
    return result


def _show(r: dict | None) -> str:
    if r is None:
        return "-"
    return (
        f"{100 * r['change']:+.1f} ({100 * r['ci_low']:+.1f} to {100 * r['ci_high']:+.1f}, n={r['games']:,}) "
        f"{r['verdict']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--plants", type=int, default=3)
    parser.add_argument("--games", default="horsepower,downforce,shuffle_gp")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="Write the results as JSON here.")
    args = parser.parse_args()
    results = []
    for i, game in enumerate(args.games.split(",")):
        with tempfile.TemporaryDirectory() as work:
            result = one_game(game, args.plants, args.seed * 100 + i, args.jobs, Path(work))
        results.append(result)
        if args.out:  # after each game: a later failure loses nothing measured
            args.out.write_text(json.dumps(results, indent=1, default=str))
        for p in result["plants"]:
            print(
                f"{game}: {p['path']} {p['old']} -> {p['new']}: true {100 * p['true']:+.1f} points; "
                f"experiment {'found' if p['found_experiment'] else 'missed'} (n={p['games_experiment']:,}), "
                f"association {'found' if p['found_association'] else 'missed'}",
                flush=True,
            )
        for a in result["alarm_detail_experiment"]:
            print(
                f"{game}: alarm {a['item']}: V0 {_show(a['v0'])}, V1 {_show(a['v1'])}; oracle before "
                f"{_show(a['oracle_before'])}, after {_show(a['oracle_after'])}",
                flush=True,
            )
        print(
            f"{game}: false alarms: experiment {len(result['false_experiment'])} {result['false_experiment']} "
            f"({len(result['unconfirmed_experiment'])} not confirmed by the oracle), association "
            f"{len(result['false_association'])} ({len(result['unconfirmed_association'])}); {result['seconds']:.0f} s",
            flush=True,
        )
    for classifier in ("experiment", "association"):
        big = [p for r in results for p in r["plants"] if abs(p["true"]) >= 0.03]
        found = sum(p[f"found_{classifier}"] for p in big)
        false = [len(r[f"false_{classifier}"]) for r in results]
        unconfirmed = [len(r[f"unconfirmed_{classifier}"]) for r in results]
        print(
            f"{classifier}: recall {found}/{len(big)} plants of 3+ points with the right sign; "
            f"false alarms per game {false}, of them not confirmed by the oracle {unconfirmed}"
        )
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
