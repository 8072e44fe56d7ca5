"""`balance run`: the same seed gives the same tables whatever --jobs or
backend; interrupted runs resume to identical tables; a live or finished run
is not overwritten; a crash names its chunk; the logs follow docs/logs.md."""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from balance import load_run
from balance.cli import app
from balance.errors import UserError
from balance.runner import ChunkFailed, RunOptions, part_path, run
from balance.scenario import load_scenario

from .conftest import CARDS, ROOT, SCENARIO


def tables(out) -> dict[str, pl.DataFrame]:
    frames = load_run(out)
    return {
        name: frame.collect().sort(["game_id", "seat"] if name != "games" else ["game_id"], maintain_order=True)
        for name, frame in frames.items()
    }


def assert_same(a, b):
    for name in ("games", "players", "cards"):
        assert a[name].equals(b[name]), name


def test_tables_and_manifest_follow_the_contract(scenario, tmp_path):
    result = run(scenario, RunOptions(out=tmp_path / "run", jobs=1))
    m = result.manifest
    assert m["status"] == "complete" and m["games"] == 30 and m["chunks"] == [[0, 8], [8, 8], [16, 8], [24, 6]]
    assert len(m["cards_sha256"]) == 64 and m["seed"] == 5
    t = tables(tmp_path / "run")
    games, players, cards = t["games"], t["players"], t["cards"]
    assert games["game_id"].to_list() == list(range(30)) and games.height == 30
    assert players.height == 90 and set(players["seat"].unique()) == {0, 1, 2}
    finished = games.filter(pl.col("finished"))
    assert players.filter(pl.col("won")).height == finished.height
    winners = players.filter(pl.col("won")).select("game_id", "seat")
    assert winners.sort("game_id")["seat"].to_list() == finished.sort("game_id")["winner_seat"].to_list()
    assert set(players.filter(pl.col("won"))["finish_position"].to_list()) == {1}
    assert players.filter(pl.col("laps_completed") == 3)["lap3_turns"].null_count() == 0
    assert (
        players.filter(pl.col("laps_completed") < 3)["lap3_turns"].null_count()
        == players.filter(pl.col("laps_completed") < 3).height
    )
    drafts = cards.filter(pl.col("event") == "draft")
    assert drafts.height == 30 * 3 * 5 and drafts["pick"].null_count() == 0 and drafts["turn"].max() == 0
    assert cards.filter(pl.col("event") == "playbook_draft").height == 90
    buys = cards.filter(pl.col("event") == "buy")
    assert buys.height == players["cards_bought"].sum() and buys["price"].null_count() == 0
    assert set(cards["event"].unique().to_list()) >= {"draft", "buy", "play", "playbook_draft"}
    assert players["playbooks"].list.len().min() >= 1


@pytest.mark.parametrize("jobs", [2])
def test_same_seed_same_tables_whatever_the_jobs(scenario, tmp_path, jobs):
    run(scenario, RunOptions(out=tmp_path / "one", jobs=1))
    run(scenario, RunOptions(out=tmp_path / "many", jobs=jobs))
    assert_same(tables(tmp_path / "one"), tables(tmp_path / "many"))


def test_a_different_seed_gives_different_games(scenario, tmp_path):
    run(scenario, RunOptions(out=tmp_path / "a", jobs=1))
    run(scenario, RunOptions(out=tmp_path / "b", jobs=1, seed=6))
    assert not tables(tmp_path / "a")["cards"].equals(tables(tmp_path / "b")["cards"])


def test_resume_runs_only_the_missing_chunks_and_gives_the_same_tables(scenario, tmp_path):
    run(scenario, RunOptions(out=tmp_path / "whole", jobs=1))
    out = tmp_path / "broken"
    run(scenario, RunOptions(out=out, jobs=1))
    # as if killed during chunk 2: its parts missing or half there, a temporary file left behind
    part_path(out, "games", 2).unlink()
    part_path(out, "cards", 2).unlink()
    (out / "players" / ".part-000002.parquet.999.tmp").write_bytes(b"half a file")
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["status"] = "interrupted"
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(UserError, match="unfinished run: --resume"):
        run(scenario, RunOptions(out=out, jobs=1))
    result = run(scenario, RunOptions(out=out, jobs=1, resume=True))
    assert result.ran_chunks == [2] and result.manifest["status"] == "complete"
    assert_same(tables(tmp_path / "whole"), tables(out))


def test_resume_refuses_other_settings(scenario, tmp_path):
    out = tmp_path / "run"
    run(scenario, RunOptions(out=out, jobs=1))
    with pytest.raises(UserError, match="different seed"):
        run(scenario, RunOptions(out=out, jobs=1, seed=9, resume=True))


def test_a_finished_run_is_not_overwritten_without_force(scenario, tmp_path):
    out = tmp_path / "run"
    run(scenario, RunOptions(out=out, jobs=1))
    with pytest.raises(UserError, match="holds a finished run; use --force"):
        run(scenario, RunOptions(out=out, jobs=1))
    result = run(scenario, RunOptions(out=out, jobs=1, force=True, games=8))
    assert result.manifest["games"] == 8 and tables(out)["games"].height == 8


def test_a_directory_held_by_a_live_run_is_refused(scenario, tmp_path):
    """The lock is an OS lock held for the run's life: refused while held; a
    lock file left behind (whatever pid it names, even a live unrelated
    process's, issue 17 item 5) is taken over once nobody holds it."""
    from balance.folder_lock import acquire_lock

    out = tmp_path / "run"
    out.mkdir()
    held = acquire_lock(out)
    with pytest.raises(UserError, match=rf"a live run \(pid {os.getpid()}\) is writing here"):
        run(scenario, RunOptions(out=out, jobs=1))
    held.release()
    import socket

    (out / ".lock").write_text(f"{os.getppid()} {socket.gethostname()}")  # a live pid, but no lock held
    assert run(scenario, RunOptions(out=out, jobs=1, games=8)).manifest["status"] == "complete"
    assert not (out / ".lock").exists()


def _race_for(out: str, start, results) -> None:
    from balance.folder_lock import acquire_lock

    start.wait()
    try:
        lock = acquire_lock(Path(out))
    except UserError:
        results.put(False)
        return
    results.put(True)
    time.sleep(0.5)  # hold it while the others try
    lock.release()


def test_two_processes_racing_for_a_fresh_run_directory_never_both_get_it(tmp_path):
    """Issue 17 item 2: the old lock file was created empty and filled in after,
    and a lock that could not be read was "stale": two racing runs both took a
    fresh directory in some trials, and an empty .lock was always taken over."""
    import multiprocessing

    from balance.folder_lock import acquire_lock

    held = acquire_lock(tmp_path)
    os.truncate(tmp_path / ".lock", 0)  # held, but its holder has not written its pid yet
    with pytest.raises(UserError, match="another balance process is reading or writing this run directory"):
        acquire_lock(tmp_path)
    held.release()
    ctx = multiprocessing.get_context("fork")
    for trial in range(4):
        out = tmp_path / f"run{trial}"
        out.mkdir()
        if trial % 2:
            (out / ".lock").write_text("")  # an empty lock file, as a process that has just created it leaves it
        start, results = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_race_for, args=(str(out), start, results)) for _ in range(6)]
        for proc in procs:
            proc.start()
        start.set()
        got = [results.get(timeout=30) for _ in procs]
        for proc in procs:
            proc.join(timeout=30)
        assert sum(got) == 1, (trial, got)


def test_a_scenario_name_must_be_a_plain_folder_name(tmp_path):
    """Issue 17 item 1: `name: ..` made the default run directory runs/.., the
    working directory, which --force then emptied."""
    for name in ("..", ".", ".hidden", "a/b", "-x"):
        path = tmp_path / "s.yaml"
        path.write_text(f"name: {name!r}\ngame: horsepower\nplayers: 2\nbots: [racer, random]\ngames: 4\n")
        with pytest.raises(UserError, match="must be a plain name"):
            load_scenario(path)


def test_force_replaces_only_a_run_of_ours(scenario, tmp_path):
    """--force removes a run's part files and manifest and nothing else; a
    directory with part-like files but no run manifest is refused, and a broken
    manifest is one line, not a traceback (issue 17 items 1 and 10)."""
    out = tmp_path / "mine"
    (out / "games").mkdir(parents=True)
    keep = out / "games" / "notes.txt"
    keep.write_text("a designer's file")
    (out / "games" / "part-000000.parquet").write_text("not ours")
    with pytest.raises(UserError, match="no manifest.json of a balance run"):
        run(scenario, RunOptions(out=out, jobs=1, force=True))
    assert keep.exists() and (out / "games" / "part-000000.parquet").exists()
    (out / "games" / "part-000000.parquet").unlink()
    run(scenario, RunOptions(out=out, jobs=1, games=8))
    run(scenario, RunOptions(out=out, jobs=1, games=4, force=True))
    assert keep.read_text() == "a designer's file" and tables(out)["games"].height == 4
    (out / "manifest.json").write_text("[1, 2]")
    with pytest.raises(UserError, match="is not a run manifest"):
        run(scenario, RunOptions(out=out, jobs=1, force=True))
    (out / "manifest.json").write_text("{not json")
    with pytest.raises(UserError, match="is not a run manifest"):
        run(scenario, RunOptions(out=out, jobs=1, resume=True))


def test_a_crash_names_the_chunk_and_keeps_completed_chunks(scenario, tmp_path, monkeypatch):
    from balance.games.horsepower import GAME

    real = GAME.play_chunk

    def flaky(prep, scen, chunk, first, size, rng, after_turn=None):
        if chunk == 2:
            raise ValueError("boom")
        return real(prep, scen, chunk, first, size, rng, after_turn)

    import dataclasses

    from balance.games import GAMES

    monkeypatch.setitem(GAMES, "horsepower", dataclasses.replace(GAME, play_chunk=flaky))
    out = tmp_path / "run"
    with pytest.raises(ChunkFailed) as info:
        run(scenario, RunOptions(out=out, jobs=1))
    text = str(info.value)
    assert "chunk 2 (games 16-23, seed 5) failed: ValueError: boom" in text
    assert "reproduce with: balance run" in text and "--only-chunk 2" in text
    assert part_path(out, "games", 1).exists() and not part_path(out, "games", 2).exists()
    assert json.loads((out / "manifest.json").read_text())["status"] == "failed"


def test_overrides_and_max_rounds_change_the_database(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + "overrides:\n  rules.purchase_cost: 1\n  cards.twin_turbo.count: 0\nmax_rounds: 3\n")
    result = run(path, RunOptions(out=tmp_path / "run", jobs=1, games=8))
    t = tables(tmp_path / "run")
    assert not t["games"]["finished"].any() and (t["games"]["rounds"] == 3).all()
    assert result.manifest["unfinished_games"] == 8
    assert "twin_turbo" not in t["cards"]["card"].to_list()
    assert set(t["cards"].filter(pl.col("event") == "buy")["price"].to_list()) <= {0, 1}


def test_a_bad_override_points_at_the_scenario_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + "overrides:\n  cards.warp_drive.count: 2\n")
    with pytest.raises(UserError) as info:
        run(path, RunOptions(out=tmp_path / "run", jobs=1))
    assert str(info.value) == f"{path}:10: overrides.cards.warp_drive.count: no card with id 'warp_drive'"
    path.write_text(SCENARIO + "overrides:\n  cards.twin_turbo.count: -1\n")
    with pytest.raises(UserError) as info:
        run(path, RunOptions(out=tmp_path / "run", jobs=1))
    assert str(info.value) == f"{path}:10: overrides.cards.twin_turbo.count: must be at least 0, got -1"


def test_a_bot_pool_draws_each_seat(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("bots: [racer, economist, random]", "bots: {pool: [racer, saboteur]}"))
    run(path, RunOptions(out=tmp_path / "run", jobs=1))
    bots = tables(tmp_path / "run")["players"]["bot"]
    assert set(bots.to_list()) == {"racer", "saboteur"}


def test_cli_run_prints_progress_and_a_summary(scenario, tmp_path):
    result = CliRunner().invoke(
        app, ["run", str(scenario), "--out", str(tmp_path / "run"), "--jobs", "1", "--games", "16"]
    )
    assert result.exit_code == 0, result.output
    assert "win rate by seat" in result.stdout and "win rate by bot" in result.stdout
    assert "16 games (0 unfinished), seed 5" in result.stdout
    assert f"logs: {tmp_path / 'run'}/" in result.stdout


def test_dask_local_cluster_gives_the_same_tables(scenario, tmp_path):
    import distributed  # a dev dependency (pyproject: dev extras), so this test always runs

    run(scenario, RunOptions(out=tmp_path / "local", jobs=1))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
    ) as cluster:
        run(scenario, RunOptions(out=tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address))
    assert_same(tables(tmp_path / "local"), tables(tmp_path / "dask"))
    assert np.array_equal(tables(tmp_path / "dask")["games"]["game_id"].to_numpy(), np.arange(30))


def test_a_killed_run_leaves_whole_parts_and_resumes_to_the_same_tables(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("games: 30", "games: 96"))
    out = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "balance", "run", str(path), "--out", str(out), "--jobs", "1", "--quiet"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "games").glob("part-*.parquet"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    parts = {t: sorted(p.name for p in (out / t).glob("part-*.parquet")) for t in ("games", "players", "cards")}
    assert 3 <= len(parts["games"]) < 12, "killed part-way"
    for table in parts:
        for name in parts[table]:
            pl.read_parquet(out / table / name)  # every part that exists is whole
    result = run(path, RunOptions(out=out, jobs=1, resume=True))
    complete = {c for c in range(12) if all(f"part-{c:06d}.parquet" in parts[t] for t in parts)}
    assert set(result.ran_chunks) == set(range(12)) - complete, "only the missing chunks ran"
    run(path, RunOptions(out=tmp_path / "whole", jobs=1))
    assert_same(tables(tmp_path / "whole"), tables(out))


def test_more_games_extend_a_run_to_the_same_tables_as_one_run(scenario, tmp_path):
    run(scenario, RunOptions(out=tmp_path / "grown", jobs=1, games=16))
    result = run(scenario, RunOptions(out=tmp_path / "grown", jobs=1, games=32, resume=True))
    assert result.ran_chunks == [2, 3]
    run(scenario, RunOptions(out=tmp_path / "direct", jobs=1, games=32))
    assert_same(tables(tmp_path / "grown"), tables(tmp_path / "direct"))


def test_a_run_grows_from_a_short_last_chunk_by_any_number_of_games(scenario, tmp_path):
    """compare --until-ci steps by what the width asks for, not whole chunks:
    20 games (chunks 8, 8, 4) grown to 27 play the short chunk again and the
    new games; the tables are one 27-game run's (a game is keyed by its id)."""
    run(scenario, RunOptions(out=tmp_path / "grown", jobs=1, games=20))
    result = run(scenario, RunOptions(out=tmp_path / "grown", jobs=1, games=27, resume=True))
    assert result.ran_chunks == [2, 3] and result.manifest["chunks"] == [[0, 8], [8, 8], [16, 8], [24, 3]]
    run(scenario, RunOptions(out=tmp_path / "direct", jobs=1, games=27))
    assert_same(tables(tmp_path / "grown"), tables(tmp_path / "direct"))
    with pytest.raises(UserError, match="different chunk plan"):  # fewer games would drop played ones
        run(scenario, RunOptions(out=tmp_path / "grown", jobs=1, games=12, resume=True))


@pytest.mark.parametrize(
    "game,body",
    [
        (
            "heat",
            "players: 4\nbots: [balanced, aggressive, cautious, legend]\noverrides:\n  rules.garage_module: true\n",
        ),
        ("downforce", "players: 4\nbots: [balanced, shark, miser, random]\n"),
    ],
)
def test_the_other_games_give_the_same_tables_whatever_the_jobs(game, body, tmp_path):
    path = tmp_path / f"{game}.yaml"
    path.write_text(
        f"name: tiny-{game}\ngame: {game}\ncards: {ROOT / f'{game}.yaml'}\n{body}games: 40\nseed: 3\nchunk_size: 16\n"
    )
    run(path, RunOptions(out=tmp_path / "one", jobs=1))
    run(path, RunOptions(out=tmp_path / "many", jobs=2))
    assert_same(tables(tmp_path / "one"), tables(tmp_path / "many"))
    assert load_run(tmp_path / "one")["games"].collect().height == 40


# --- parts a run can trust (issue 17, items 3 and 4) ---------------------------------


def test_a_dead_runs_orphaned_worker_writes_nothing_into_a_later_run(scenario, tmp_path):
    """`kill -9` of the parent alone leaves loky workers running. Each part is
    stamped with its run's id, and a worker whose run is no longer the
    directory's (a --force run took over) writes nothing; parts of chunks the
    run does not plan are removed at its end."""
    from balance.runner import read_manifest, run_chunk
    from balance.scenario import load_scenario

    out = tmp_path / "run"
    first = run(scenario, RunOptions(out=out, jobs=1))  # 30 games in 4 chunks
    old_id = first.manifest["run_id"]
    second = run(scenario, RunOptions(out=out, jobs=1, games=8, seed=9, force=True))
    assert second.manifest["run_id"] != old_id
    before = tables(out)
    loaded = load_scenario(scenario)
    got = run_chunk(loaded, 2, 4, 16, 8, out, old_id)  # the dead run's worker finishes its chunk 2
    assert got.get("orphaned") and not part_path(out, "games", 2).exists()
    assert read_manifest(out)["run_id"] == second.manifest["run_id"]
    assert_same(before, tables(out))
    # a part an orphan slipped in before the check (chunk 3 of the old plan) goes at the next run's end
    from balance.runner import write_part

    write_part(out, "games", 3, pl.read_parquet(part_path(out, "games", 0)).to_arrow(), old_id)
    result = run(scenario, RunOptions(out=out, jobs=1, games=8, seed=9, resume=True))
    assert result.manifest["status"] == "complete" and not part_path(out, "games", 3).exists()
    assert tables(out)["games"].height == 8


def test_resume_replays_parts_that_are_truncated_empty_or_another_runs(scenario, tmp_path):
    """A truncated part crashed --resume and report; a zero-byte players part made
    report drop its games silently; a part of another run passed for this
    one's. --resume plays those chunks again and says which."""
    out = tmp_path / "run"
    full = run(scenario, RunOptions(out=out, jobs=1))
    good = tables(out)
    games0 = part_path(out, "games", 0)
    games0.write_bytes(games0.read_bytes()[:-40])  # truncated
    part_path(out, "players", 1).write_bytes(b"")  # zero bytes
    from balance.runner import write_part

    data = pl.read_parquet(part_path(out, "cards", 2)).to_arrow()
    write_part(out, "cards", 2, data, "another-run")
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["status"] = "interrupted"
    (out / "manifest.json").write_text(json.dumps(manifest))
    result = run(scenario, RunOptions(out=out, jobs=1, resume=True))
    assert result.replaced_chunks == [0, 1, 2] and sorted(result.ran_chunks) == [0, 1, 2]
    assert result.manifest["status"] == "complete" and result.manifest["run_id"] == full.manifest["run_id"]
    assert_same(good, tables(out))


def test_report_names_a_part_it_cannot_read(scenario, tmp_path):
    """A zero-byte players part made `report` drop its chunk's games silently; a
    truncated one crashed it (polars "out of specification")."""
    out = tmp_path / "run"
    run(scenario, RunOptions(out=out, jobs=1))
    part_path(out, "players", 1).write_bytes(b"")
    with pytest.raises(UserError, match=r"part-000001\.parquet.*is not a readable part.*--resume"):
        load_run(out)
    result = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_user_text_that_reads_as_rich_markup_or_a_glob_is_printed_and_read_as_is(tmp_path):
    """Issue 17 item 8: a card name or a path holding "[/]" crashed printing
    (rich.errors.MarkupError) in validate, cards, run and report; a run folder
    named with brackets was read as a glob pattern (polars "invalid glob")."""
    folder = tmp_path / "x[/]y"  # folders "x[" and "]y"
    folder.mkdir(parents=True)
    cards = folder / "cards.yaml"
    cards.write_text(CARDS.read_text().replace("name: Turbocharger", 'name: "Turbo [/] charger"'))
    (folder / "s.yaml").write_text(SCENARIO.replace(f"cards: {CARDS}", f"cards: {cards}"))
    runner = CliRunner()
    result = runner.invoke(app, ["validate", str(cards)])
    assert result.exit_code == 0 and "cards.yaml: ok" in result.output.replace("\n", ""), result.output
    result = runner.invoke(app, ["cards", "--db", str(cards)])
    assert result.exit_code == 0 and "Turbo [/]" in result.output, result.output
    out = tmp_path / "r[/]x"
    result = runner.invoke(app, ["run", str(folder / "s.yaml"), "--out", str(out), "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    assert "r[/]x/ (games/" in result.output.replace("\n", "")
    result = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep[/]")])
    assert result.exit_code == 0, result.output


def test_a_seed_past_64_bits_works_in_strength_as_in_run():
    """Issue 17 item 11: `balance strength --seed 2**70` raised OverflowError in
    the bonus seat's hash; balance run takes any seed >= 0 (SeedSequence)."""
    from balance.seeding import bonus_seat

    ids = np.arange(1000)
    seats = bonus_seat(2**70 + 5, ids, 4)
    assert ((seats >= 0) & (seats < 4)).all() and len(set(seats.tolist())) == 4
    assert (bonus_seat(2**64 + 7, ids, 4) == bonus_seat(7, ids, 4)).all()


def test_killing_the_parent_alone_leaves_no_foreign_games_in_a_later_run(tmp_path):
    """Issue 17 item 3, as the out-of-memory killer does it: `kill -9` of the
    `balance run` parent alone leaves its loky workers playing their chunks; a
    `--force` run with another seed and size that follows at once must end
    holding its own games only, whatever the orphans finish afterwards."""
    import signal
    import subprocess
    import sys

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("games: 30", "games: 4000").replace("chunk_size: 8", "chunk_size: 40"))
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "balance", "run", str(path), "--out", str(out), "--jobs", "2", "--quiet"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its workers share its process group: the test can clean them all up
    )
    try:
        deadline = time.time() + 120
        while time.time() < deadline and len(list((out / "games").glob("part-*.parquet"))) < 4:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # the parent alone
        proc.wait()
        orphans = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _group(p) == proc.pid]
        result = run(path, RunOptions(out=out, jobs=1, games=200, seed=7, force=True))
        time.sleep(3)  # the orphans finish the chunks they held, and try to write them
        assert result.manifest["status"] == "complete"
        got = tables(out)
        assert got["games"]["game_id"].to_list() == list(range(200)), f"{len(orphans)} orphaned workers"
        assert set(got["players"]["game_id"].unique().to_list()) == set(range(200))
        run(path, RunOptions(out=tmp_path / "clean", jobs=1, games=200, seed=7))
        assert_same(tables(tmp_path / "clean"), got)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def test_a_run_takes_over_only_after_an_orphaned_workers_write_in_flight(tmp_path):
    """The race behind the test above, made certain: a killed run's worker has
    checked that its run is still the directory's and is writing its chunk when
    a --force run starts. On the compiled engine the whole new run fits in that
    gap, and the orphan's chunk landed over the new run's own (the new run then
    read "partial", its games lost). The new run waits for the write in flight,
    then replaces it."""
    import threading

    from balance.folder_lock import parts_guard
    from balance.runner import current_run, write_part

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    out = tmp_path / "run"
    killed = run(path, RunOptions(out=out, jobs=1, games=16, seed=3))
    orphan_part = pl.read_parquet(part_path(out, "games", 0)).to_arrow()
    result: dict = {}
    with parts_guard(out):  # the orphan, between its check and its write
        assert current_run(out) == killed.manifest["run_id"]
        taker = threading.Thread(
            target=lambda: result.update(r=run(path, RunOptions(out=out, jobs=1, games=16, seed=7, force=True)))
        )
        taker.start()
        taker.join(timeout=2)
        assert taker.is_alive() and current_run(out) == killed.manifest["run_id"], "it waits for the write"
        write_part(out, "games", 0, orphan_part, killed.manifest["run_id"])
    taker.join(timeout=60)
    assert result["r"].manifest["status"] == "complete"
    run(path, RunOptions(out=tmp_path / "clean", jobs=1, games=16, seed=7))
    assert_same(tables(tmp_path / "clean"), tables(out))


def _group(proc_dir: Path) -> int | None:
    """The process group of /proc/PID (None when it ended meanwhile)."""
    try:
        return int((proc_dir / "stat").read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None


def test_a_database_edited_between_two_runs_in_one_process_is_played_as_edited(tmp_path):
    """The worker's cache of prepared scenarios was keyed by the scenario alone:
    in one process (a notebook, the mutator, --jobs 1) a run after an edit of
    the card database played the database as it was before the edit."""
    from balance import runner

    cards = tmp_path / "cards.yaml"
    cards.write_text(CARDS.read_text())
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace(f"cards: {CARDS}", "cards: cards.yaml"))
    run(path, RunOptions(out=tmp_path / "before", jobs=1))
    cards.write_text(cards.read_text().replace("  die_sides: 6 ", "  die_sides: 12 "))
    run(path, RunOptions(out=tmp_path / "edited", jobs=1))
    runner._PREPARED.clear()
    run(path, RunOptions(out=tmp_path / "fresh", jobs=1))
    assert_same(tables(tmp_path / "edited"), tables(tmp_path / "fresh"))
    assert not tables(tmp_path / "edited")["games"].equals(tables(tmp_path / "before")["games"])
