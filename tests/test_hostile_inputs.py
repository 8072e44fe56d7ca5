"""Issue 17: hostile inputs end in one line and exit code 2, never a
traceback, a hang or all the memory; a report says when its run is not
whole or has no winner; CSV cells never run as spreadsheet formulas."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

import polars as pl
import pytest

from balance.errors import UserError
from balance.runner import RunOptions, run
from balance.scenario import load_scenario
from balance.yamlio import MAX_BYTES, load_yaml

from .conftest import CARDS, ROOT, SCENARIO, cli, one_line, tiny_tmpfs
from .mutants import time_limit

# --- item 6: YAML that hangs, recurses or never ends -------------------------------------------


BILLION_LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{b}: &{b} [{', '.join(['*' + a] * 9)}]\n" for a, b in zip("abcdefgh", "bcdefghi", strict=True)
)


@pytest.mark.parametrize(
    "text, message",
    [
        (BILLION_LAUGHS, "expands to more than 1,000,000 values"),
        ("a: &a [*a]\n", "an alias inside the value it names"),
        ("a: &a {x: 1, <<: *a}\n", "an alias inside the value it names"),
        ("a: " + "[" * 100 + "]" * 100 + "\n", "nested more than 64 levels deep"),
        ("a: " + "[" * 50_000 + "]" * 50_000 + "\n", "nest"),
    ],
    ids=["alias-bomb", "recursive-alias", "recursive-merge", "deep", "deeper-than-libyaml"],
)
def test_yaml_that_would_hang_or_recurse_is_one_line(tmp_path, text, message):
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    with time_limit(10):
        line = one_line("validate", path)
    assert message in line


def test_files_that_are_not_regular_files_are_refused_before_reading(tmp_path):
    """A FIFO blocked for ever, /dev/zero filled the memory, a symbolic link
    loop gave OSError, a directory said "no such file"."""
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(tmp_path / "loop2.yaml")
    (tmp_path / "loop2.yaml").symlink_to(loop)
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    cases = {
        fifo: "is a FIFO, not a regular file",
        "/dev/zero": "is a device or socket, not a regular file",
        loop: "is a loop of symbolic links",
        tmp_path: "is a directory",
        big: "may be at most 16 MiB",
    }
    with time_limit(10):
        for path, message in cases.items():
            assert message in one_line("validate", path)


def test_a_scenarios_cards_path_says_what_it_is(tmp_path, scenario):
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "folder.yaml").mkdir()
    cases = (
        ("folder.yaml", "folder.yaml is a directory"),
        ("pipe.yaml", "pipe.yaml is a FIFO"),
        ("gone.yaml", "no such file: .*gone.yaml"),
    )
    for target, message in cases:
        scenario.write_text(SCENARIO.replace(f"cards: {CARDS}", f"cards: {target}"))
        with pytest.raises(UserError, match=f"tiny.yaml:3: cards: .*{message}"):
            load_scenario(scenario)


def test_yaml_11_words_as_keys_are_named_as_written(tmp_path):
    """`yes:` and `~:` were reported as unknown fields 'True' and 'None'."""
    path = tmp_path / "cards.yaml"
    path.write_text("yes: 1\n")
    assert "unknown field 'yes'" in str(pytest.raises(UserError, load_yaml_db, path).value)
    path.write_text("~: 1\n")
    assert "unknown field '~'" in str(pytest.raises(UserError, load_yaml_db, path).value)
    assert load_yaml(path).data == {"~": 1}


def load_yaml_db(path):
    from balance.games.horsepower.schema import load_database

    return load_database(path)


# --- item 7: sizes that ran out of memory or hung ----------------------------------------------


def test_games_and_chunks_are_bounded_in_the_file_and_on_the_command_line(tmp_path, scenario):
    scenario.write_text(SCENARIO.replace("games: 30", "games: 1000000000000"))
    with pytest.raises(UserError, match="tiny.yaml:6: games: must be at most 1000000000, got 1000000000000"):
        load_scenario(scenario)
    scenario.write_text(SCENARIO.replace("games: 30", "games: 100000000").replace("chunk_size: 8", "chunk_size: 1"))
    with pytest.raises(UserError, match="make 100,000,000 chunks; at most 1,000,000"):
        load_scenario(scenario)
    scenario.write_text(SCENARIO)
    assert "--games: must be at most 1,000,000,000, got 1,000,000,000,000" in one_line(
        "run", scenario, "--games", 10**12
    )
    assert "--chunk-size: must be at most 1,000,000, got 1,000,000,000" in one_line(
        "run", scenario, "--chunk-size", 10**9
    )
    assert "at most 1,000,000: raise --chunk-size" in one_line("run", scenario, "--games", 10**8, "--chunk-size", 1)
    assert "jobs: must be between 1 and" in one_line("run", scenario, "--jobs", 1000)
    assert "jobs: must be between 1 and" in one_line("run", scenario, "--jobs", 0)
    assert not (tmp_path / "runs").exists()


def test_a_plan_that_would_not_fit_in_memory_is_refused_before_any_game(tmp_path, scenario, monkeypatch):
    from balance import limits

    with pytest.raises(UserError, match=r"need about .* GiB each.*this machine has 4.0 GiB free: use --chunk-size"):
        limits.check_memory(1_000_000, 4, 100, 2, available=4 * 2**30)
    limits.check_memory(4096, 4, 100, 2, available=4 * 2**30)  # the default chunks fit easily
    monkeypatch.setattr(limits, "available_bytes", lambda: 1 * 2**30)
    line = one_line("run", scenario, "--chunk-size", 1_000_000, "--games", 2_000_000, "--out", tmp_path / "r")
    assert "memory: chunks of 1,000,000 games (3 players" in line and "1.0 GiB free" in line
    assert not (tmp_path / "r").exists()


def test_usage_mistakes_are_one_line_too(tmp_path, scenario):
    """Typer's usage errors were a framed box of several lines."""
    for args in (["run", scenario, "--games", "1e12"], ["run", scenario, "--bogus"], ["nosuch"], ["run"]):
        done = subprocess.run([sys.executable, "-m", "balance", *map(str, args)], capture_output=True, text=True)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), done.stderr
        assert "--help" in lines[0]


# --- scenario messages that pointed the wrong way ----------------------------------------------


def test_scenario_messages_say_what_is_wrong(scenario):
    scenario.write_text(SCENARIO.replace("bots: [racer, economist, random]", "bots: {pool: []}"))
    with pytest.raises(UserError, match="tiny.yaml:5: bots.pool: must not be empty"):
        load_scenario(scenario)
    scenario.write_text(SCENARIO.replace("bots: [racer, economist, random]", "bots: {pool: [racer, [x]]}"))
    with pytest.raises(UserError, match="bots.pool.1: expected text, got a list"):
        load_scenario(scenario)
    body = (
        ROOT / "scenarios" / "downforce-four.yaml"
    ).read_text() + f"cards: {ROOT / 'downforce.yaml'}\nmax_rounds: 5\n"
    scenario.write_text(body)
    with pytest.raises(UserError, match=r"max_rounds: Downforce caps a race by turns.*rules.max_turns"):
        load_scenario(scenario)


# --- item 9: paths that are not folders --------------------------------------------------------


def test_out_and_run_paths_that_are_files(tmp_path, scenario):
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert "--out: is a file, not a folder" in one_line("run", scenario, "--out", afile)
    assert "--out: lies under a file" in one_line("run", scenario, "--out", afile / "sub")
    assert "is a file, not a run directory" in one_line("report", afile)
    assert "is a file, not a run directory" in one_line("report", scenario)
    run(scenario, RunOptions(out=tmp_path / "run", jobs=1))
    assert "--out: is a file, not a folder" in one_line("report", tmp_path / "run", "--out", afile)
    assert afile.read_text() == "x"


# --- item 5: a manifest says how a run ended; a report says when a run is not whole -----------


def test_a_failure_mid_run_is_recorded_and_the_report_says_the_run_is_not_whole(tmp_path, scenario, monkeypatch):
    from balance import runner

    real = runner.run_chunk

    def failing(scenario, chunk, *args, **kwargs):
        if chunk == 2:
            raise KeyboardInterrupt
        return real(scenario, chunk, *args, **kwargs)

    monkeypatch.setattr(runner, "run_chunk", failing)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run(scenario, RunOptions(out=out, jobs=1))
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"

    def broken(scenario, chunk, *args, **kwargs):
        if chunk == 3:
            raise RuntimeError("the scheduler went away")
        return real(scenario, chunk, *args, **kwargs)

    monkeypatch.setattr(runner, "run_chunk", broken)
    with pytest.raises(RuntimeError):
        run(scenario, RunOptions(out=out, jobs=1, resume=True))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "failed" and "the scheduler went away" in manifest["error"]
    code, stdout, _ = cli("report", out, "--out", tmp_path / "rep")
    assert code == 0
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "Incomplete run." in page and "its logs hold 24 of the 30 games planned" in page
    assert "24 of 30 planned games" in page and "--resume" in page
    assert "warning: This run failed" in stdout
    monkeypatch.setattr(runner, "run_chunk", real)
    run(scenario, RunOptions(out=out, jobs=1, resume=True))
    cli("report", out, "--out", tmp_path / "rep")
    assert "Incomplete run." not in (tmp_path / "rep" / "index.html").read_text()


def test_a_running_run_is_told_from_a_dead_one_by_its_lock(tmp_path, scenario):
    from balance.folder_lock import acquire_lock, lock_held

    out = tmp_path / "run"
    run(scenario, RunOptions(out=out, jobs=1))
    assert not lock_held(out)
    lock = acquire_lock(out)
    try:
        assert lock_held(out)
    finally:
        lock.release()
    assert not lock_held(out)


def test_disk_full_mid_run_keeps_whole_parts_and_says_how_to_finish(tmp_path, scenario, monkeypatch):
    """Errno 28 was a traceback, left the manifest `running` and could leave a
    half-written temporary part; now one line with what was kept."""
    import errno

    import pyarrow.parquet as pq

    from balance import runner

    real = pq.write_table
    calls = []

    def full_disk(table, where, **kwargs):
        calls.append(where)
        if len(calls) == 8:  # chunk 2's players part
            with open(where, "wb") as handle:
                handle.write(b"PAR1 half")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(table, where, **kwargs)

    monkeypatch.setattr(runner.pq, "write_table", full_disk)
    out = tmp_path / "run"
    with pytest.raises(UserError) as info:
        run(scenario, RunOptions(out=out, jobs=1, games=28, chunk_size=7))
    assert "the disk is full: 2 of 4 chunks are saved whole" in str(info.value)
    assert "\n" not in str(info.value)
    assert not list(out.rglob("*.tmp")) and json.loads((out / "manifest.json").read_text())["status"] == "failed"
    # the command it gives finishes the run: with the games and chunk size given on the command line
    command = str(info.value).split("finish with ")[1]
    assert command == f"balance run {scenario} --resume --out {out} --games 28 --chunk-size 7 --seed 5"
    monkeypatch.setattr(runner.pq, "write_table", real)
    code, _, stderr = cli(*command.split()[1:])
    assert code == 0, stderr
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_a_real_full_file_system(tmp_path, scenario):
    """A 1 MiB tmpfs where the test may mount one (root, as in CI); else the
    simulated disk above stands for it."""
    with tiny_tmpfs(tmp_path) as mount:
        big = SCENARIO.replace("games: 30", "games: 2000").replace("chunk_size: 8", "chunk_size: 20")
        scenario.write_text(big)
        line = one_line("run", scenario, "--out", mount / "run", "-j", "1", "-q")
        assert "the disk is full:" in line and "chunks are saved whole" in line and "--resume" in line
        assert not list(mount.rglob("*.tmp"))
        for part in (mount / "run").rglob("part-*.parquet"):
            pl.read_parquet(part)  # every part left is whole
        view = tmp_path / "read-only"  # the run directory seen through a read-only bind mount
        view.mkdir()
        subprocess.run(["mount", "--bind", str(mount / "run"), str(view)], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        assert "cannot be written (Read-only file system)" in one_line("run", scenario, "--out", view, "--resume", "-q")
        assert "--out: cannot be made (Read-only file system)" in one_line("run", scenario, "--out", view / "x", "-q")
        subprocess.run(["umount", str(view)], check=True)


# --- Dask addresses ----------------------------------------------------------------------------


def test_dask_addresses_are_checked_before_any_game(tmp_path, scenario, monkeypatch):
    out = tmp_path / "run"
    for address in ("garbage", "http://localhost:80", "tcp://host:port"):
        assert "is not a Dask scheduler address" in one_line(
            "run", scenario, "--backend", "dask", "--scheduler", address, "--out", out
        )
    one_chunk = ["run", scenario, "--games", "4", "--backend", "dask", "--out", out]
    assert "--backend dask needs --scheduler" in one_line(*one_chunk)
    assert "--scheduler is for --backend dask" in one_line("run", scenario, "--scheduler", "tcp://a:1", "--out", out)
    # something that listens but never speaks Dask: refused within the hard limit
    from balance import runner

    monkeypatch.setattr(runner, "CONNECT_SECONDS", 3)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    held = []
    threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()
    try:
        with time_limit(30):
            line = one_line(
                "run",
                scenario,
                "--backend",
                "dask",
                "--scheduler",
                f"tcp://{server.getsockname()[0]}:{server.getsockname()[1]}",
                "--out",
                out,
            )
    finally:
        server.close()
    assert "cannot reach" in line
    assert not (out / "manifest.json").exists()


# --- item 12: no game with a winner ------------------------------------------------------------


@pytest.mark.parametrize(
    "body, cap",
    [
        (SCENARIO + "max_rounds: 2\n", "the round cap, rules.max_rounds"),
        (
            (ROOT / "scenarios" / "shuffle-gp-four.yaml").read_text()
            + f"cards: {ROOT / 'shuffle_gp.yaml'}\noverrides: {{rules.max_turns: 3}}\n",
            "the turn cap, rules.max_turns",
        ),
    ],
    ids=["horsepower", "shuffle_gp"],
)
def test_a_run_with_no_winner_gets_a_page_that_says_so(tmp_path, body, cap):
    """Every game cut by the cap crashed report (polars ShapeError)."""
    path = tmp_path / "s.yaml"
    path.write_text(body)
    out = tmp_path / "run"
    code, _, stderr = cli("run", path, "--games", 40, "--chunk-size", 20, "--out", out, "-j", 1, "-q")
    assert code == 0, stderr
    code, stdout, stderr = cli("report", out, "--out", tmp_path / "rep")
    assert code == 0, stderr
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "of the 40 in this run has a winner: 40 were cut by " + cap in page
    assert "balance trace" in stdout
    assert pl.read_csv(tmp_path / "rep" / "game_length.csv")["unfinished_share_pct"][0] == 100.0


# --- item 15: CSV cells that a spreadsheet would run -------------------------------------------


def test_csv_cells_never_start_a_formula(tmp_path):
    cards = tmp_path / "cards.yaml"
    text = CARDS.read_text()
    cards.write_text(text.replace("name: Twin Turbo", 'name: "=HYPERLINK(\\"http://x\\")"'))
    path = tmp_path / "s.yaml"
    path.write_text(
        SCENARIO.replace(f"cards: {CARDS}", f"cards: {cards}").replace("games: 30", "games: 200")
    )  # not any "30" (a tmp path may hold one)
    out = tmp_path / "run"
    run(path, RunOptions(out=out, jobs=1, chunk_size=100))
    code, _, stderr = cli("report", out, "--out", tmp_path / "rep")
    assert code == 0, stderr
    texts = [p.read_text() for p in (tmp_path / "rep").glob("*.csv")]
    assert any("'=HYPERLINK" in t for t in texts)
    for csv in (tmp_path / "rep").glob("*.csv"):
        table = pl.read_csv(csv, infer_schema_length=0)  # every cell as text
        for column in table.columns:
            numeric = table[column].str.contains(r"^-?[0-9.e+-]+$|^$|^-?inf$|^NaN$").fill_null(True).all()
            if not numeric:
                assert not table[column].str.contains(r"^[=+\-@]").fill_null(False).any(), (csv.name, column)


# --- found by an audit of the first fixes ------------------------------------------------------


def test_emoji_codes_in_user_text_are_printed_as_is(tmp_path):
    """Rich turned ":100:" into an emoji: an error on line 100 lost its line."""
    path = tmp_path / "cards.yaml"
    lines = CARDS.read_text().splitlines()
    at = lines.index("  - id: v8_block")
    assert all(line.startswith("#") for line in lines[: at - 99]), "only header comments are dropped"
    lines = ["# padding"] * (99 - at) + lines[max(at - 99, 0) :]  # header comments added or dropped: line 100
    assert lines[99] == "  - id: v8_block"
    lines[99] = "  - id: V8_block"  # not snake_case: an error on line 100
    path.write_text("\n".join(lines) + "\n")
    assert f"{path}:100: " in one_line("validate", path)
    named = tmp_path / "named.yaml"
    named.write_text(CARDS.read_text().replace("name: Twin Turbo", 'name: ":100:"'))
    code, stdout, _ = cli("cards", "--db", named, "--type", "engine")
    assert code == 0 and ":100:" in stdout


def test_the_most_laps_a_database_takes_get_a_report(tmp_path):
    """16 laps (the limit) ran, then report failed: 10 colours for the lap lines."""
    cards = tmp_path / "cards.yaml"
    text = (CARDS).read_text().replace("  laps: 3 ", "  laps: 16 ").replace("max_rounds: 200", "max_rounds: 500")
    cards.write_text(text.replace("lap: 3", "lap: 16"))
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace(f"cards: {CARDS}", "cards: cards.yaml").replace("games: 30", "games: 40"))
    run(path, RunOptions(out=tmp_path / "run", jobs=1, chunk_size=40))
    code, _, stderr = cli("report", tmp_path / "run", "--out", tmp_path / "rep")
    assert code == 0, stderr
    assert (tmp_path / "rep" / "lap_times.png").read_bytes()[:4] == b"\x89PNG"


def test_sweep_values_are_bounded_and_finite():
    from balance.experiments.sweep import parse_values

    for text, message in (
        ("1..1000000000000", "1,000,000,000,000 values; a sweep takes at most 1000"),
        ("0:1:1e-12", "values; a sweep takes at most 1000"),
        ("0:1e300:1e-300", "inf values"),
        ("0:inf:1", "'inf' is not a finite number"),
        ("nan:1:0.1", "'nan' is not a finite number"),
    ):
        with time_limit(5), pytest.raises(UserError, match=message):
            parse_values(text)
    assert parse_values("0:1:0.3") == [0.0, 0.3, 0.6, 0.9] and parse_values("1..3") == [1, 2, 3]


def test_a_chunk_with_a_part_missing_is_not_read_and_the_page_says_so(tmp_path, scenario):
    """A players part deleted by hand (or a disk that filled between a chunk's
    parts) made the report count the chunk's games but not its players."""
    from balance import load_run

    out = tmp_path / "run"
    run(scenario, RunOptions(out=out, jobs=1))
    (out / "players" / "part-000001.parquet").unlink()
    frames = load_run(out)
    assert frames["games"].collect().height == frames["players"].collect().height / 3 == 22
    code, stdout, stderr = cli("report", out, "--out", tmp_path / "rep")
    assert code == 0, stderr
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "its logs hold 22 of the 30 games planned" in page
    assert "Parts of 1 more chunk(s) are on disk but not read (chunk 1: no players part)" in page


def test_a_part_damaged_inside_is_named_by_report_and_replayed_by_resume(tmp_path, scenario):
    """Bytes flipped in a part's data (its footer sound) crashed report with
    polars "out of specification" and passed --resume's check."""
    from balance.runner import part_path

    out = tmp_path / "run"
    run(scenario, RunOptions(out=out, jobs=1))
    part = part_path(out, "cards", 1)
    data = bytearray(part.read_bytes())
    for i in range(40, 48):
        data[i] ^= 0xFF
    part.write_bytes(bytes(data))
    line = one_line("report", out, "--out", tmp_path / "rep")
    assert "cards/part-000001.parquet: cards: is not a readable part" in line and "--resume" in line
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["status"] = "failed"
    (out / "manifest.json").write_text(json.dumps(manifest))
    result = run(scenario, RunOptions(out=out, jobs=1, resume=True))
    assert result.ran_chunks == [1] and result.manifest["status"] == "complete"


@pytest.mark.parametrize(
    "change",
    [
        {"games": "x"},
        {"games": 1e400},
        {"scenario": []},
        {"catalog": []},
        {"catalog": {"cards": 5}},
        {"cards_file": 5},
        {"game": 5},
        {"chunks": 5},
        {"chunks": [[0, "8"]]},
        {"run_id": 5},
    ],
    ids=lambda change: "-".join(f"{k}={v}" for k, v in change.items()),
)
def test_a_manifest_with_fields_of_the_wrong_type_is_one_line(tmp_path, scenario, change):
    out = tmp_path / "run"
    run(scenario, RunOptions(out=out, jobs=1))
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, **change}).replace("Infinity", "1e400"))
    assert "is not a run manifest" in one_line("report", out, "--out", tmp_path / "rep")
    assert "is not a run manifest" in one_line("run", scenario, "--out", out, "--resume")


def test_a_lock_file_that_is_a_link_or_a_fifo_is_refused(tmp_path, scenario):
    """A .lock planted as a symbolic link had its target emptied; a FIFO gave
    a traceback, and made report hang."""
    from balance.folder_lock import lock_held

    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / ".lock").symlink_to(precious)
    assert "is a symbolic link; remove it" in one_line("run", scenario, "--out", linked)
    assert precious.read_text() == "keep me"
    piped = tmp_path / "piped"
    run(scenario, RunOptions(out=piped, jobs=1))
    (piped / ".lock").unlink(missing_ok=True)
    os.mkfifo(piped / ".lock")
    assert "is not a regular file; remove it" in one_line("run", scenario, "--out", piped, "--force")
    with time_limit(10):
        assert not lock_held(piped)


def test_compare_bounds_its_numbers(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + "variants:\n  - {name: cheap, overrides: {rules.purchase_cost: 2}}\n")
    assert "--until-ci: must be between 0 and 100 percentage points, got nan" in one_line(
        "compare", path, "--until-ci", "nan"
    )
    assert "--max-games: must be between 1 and 1,000,000,000" in one_line(
        "compare", path, "--until-ci", "0.1", "--max-games", 10**20
    )


def test_messages_say_what_they_mean(tmp_path, scenario):
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(17_000_000)
    assert "is 16.2 MiB; a YAML file here may be at most 16 MiB" in one_line("validate", big)
    keyed = tmp_path / "keyed.yaml"
    keyed.write_text("rules: {}\n1.5: x\n")
    assert f"{keyed}:2: " in one_line("validate", keyed)
    scenario.write_text(SCENARIO.replace("games: 30", "games: 5000000").replace("chunk_size: 8", "chunk_size: 1"))
    with pytest.raises(UserError, match="raise chunk_size$"):
        load_scenario(scenario)
    subprocess_line = subprocess.run(
        [sys.executable, "-m", "balance", "run", str(tmp_path / "nosuch.yaml"), "--games", "5"],
        capture_output=True,
        text=True,
    )
    assert subprocess_line.stderr.startswith("error: ") and subprocess_line.stderr.count("\n") == 1


def test_hostile_card_names_on_the_newer_commands_pages_and_csvs(tmp_path):
    """Issue 35: a card named as HTML and one named as a spreadsheet formula,
    through strength, compare, fit and tune: escaped on every page, never a
    formula in a CSV cell."""
    import yaml

    data = yaml.safe_load(CARDS.read_text())
    for card in data["cards"]:
        if card["id"] == "twin_turbo":
            card["name"] = "<script>alert(1)</script>"
        if card["id"] == "v8_block":
            card["name"] = '=HYPERLINK("http://x")'
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: hostile\ngame: horsepower\ncards: {tmp_path / 'cards.yaml'}\nplayers: 2\nbots: [racer, balanced]\n"
        "games: 80\nseed: 3\nchunk_size: 40\nvariants:\n  - name: v9\n    overrides: {cards.v8_block.count: 3}\n"
    )
    commands = {
        "strength": ["strength", path, "--cards", "twin_turbo,v8_block"],
        "compare": ["compare", path],
        "fit": [
            *("fit", path, "--free", "cards.twin_turbo.effects.0.amount=5..6"),
            *("--target", "strength:twin_turbo=0+-20", "--budget", "480", "--population", "2", "--confirm-games", "40"),
        ],
        "tune": ["tune", path, "--bot", "racer", "--budget", "300", "--games-per-eval", "16", "--confirm-games", "32"],
    }
    for name, args in commands.items():
        code, _, stderr = cli(*args, "-j", "1", "-q", "--out", tmp_path / name)
        assert code == 0, (name, stderr)
        for page in (tmp_path / name).rglob("*.html"):
            text = page.read_text()
            assert "<script>alert(1)" not in text, (name, page.name)
        for csv in (tmp_path / name).rglob("*.csv"):
            table = pl.read_csv(csv, infer_schema_length=0)
            for column in table.columns:
                numeric = table[column].str.contains(r"^-?[0-9.e+-]+$|^$|^-?inf$|^NaN$").fill_null(True).all()
                if not numeric:
                    assert not table[column].str.contains(r"^[=+\-@]").fill_null(False).any(), (name, csv.name, column)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (tmp_path / "strength" / "index.html").read_text()
    assert any("'=HYPERLINK" in p.read_text() for p in (tmp_path / "strength").rglob("*.csv"))
