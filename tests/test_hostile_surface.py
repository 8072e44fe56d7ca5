"""Issue 42: the newest commands as safe as `balance run`. Each test is a
defect the hostile-input and fault campaign found, and failed before the fix:
silent wrong results first, then crashes, unclear messages and cosmetics."""

from __future__ import annotations

import errno
import html
import os
import shlex
import subprocess

import polars as pl
import pytest
import yaml

from balance.errors import UserError

from .conftest import CARDS, ROOT, SCENARIO, cli, one_line, tiny_tmpfs

VARIANTS = (
    SCENARIO.replace("games: 30", "games: 12") + "variants:\n  - {name: NAME, overrides: {rules.starting_coins: 4}}\n"
)


# --- silent wrong results -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["baseline", "Baseline"])
def test_a_variant_named_like_the_baseline_is_refused_before_any_game(tmp_path, name):
    """A variant named `baseline` wrote into OUT/baseline over the baseline run
    and compared it with itself: 0 of 279 differences, all +0.0."""
    path = tmp_path / "v.yaml"
    path.write_text(VARIANTS.replace("NAME", name))
    line = one_line("compare", path, "--out", tmp_path / "cmp", "-j", "1")
    assert f"'{name}' is the baseline's name; rename it" in line and "v.yaml:10" in line
    assert not (tmp_path / "cmp" / "baseline").exists()


def test_two_variants_of_one_name_are_refused(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(VARIANTS.replace("NAME", "more") + "  - {name: more, overrides: {rules.starting_coins: 5}}\n")
    assert "'more' is another variant's name" in one_line("compare", path, "--out", tmp_path / "cmp")


def test_one_path_spelled_two_ways_is_one_parameter(scenario):
    """`effects.0.amount` and `effects.00.amount` name one value: a fit took
    them as two (every candidate played today's value and proposed one never
    played), --set kept both and played the last."""
    free = "cards.twin_turbo.effects.{}.amount={}"
    line = one_line("fit", scenario, "--free", free.format(0, "2..4"), "--free", free.format("00", "5..6"),
                    "--target", "strength:twin_turbo=0+-2")  # fmt: skip
    assert "cards.twin_turbo.effects.0.amount: is given twice (as cards.twin_turbo.effects.00.amount)" in line
    line = one_line("run", scenario, "--set", "cards.twin_turbo.effects.0.amount=4", "--set",
                    "cards.twin_turbo.effects.00.amount=5", "--out", scenario.parent / "r")  # fmt: skip
    assert "is given twice (as cards.twin_turbo.effects.00.amount)" in line


def test_overrides_of_one_value_spelled_two_ways_are_refused_at_the_line(tmp_path):
    path = tmp_path / "o.yaml"
    path.write_text(
        SCENARIO + "overrides:\n  cards.twin_turbo.effects.0.amount: 4\n  cards.twin_turbo.effects.00.amount: 5\n"
    )
    line = one_line("run", path, "--out", tmp_path / "r")
    assert "o.yaml:11: overrides.cards.twin_turbo.effects.00.amount: sets the same value as" in line


def test_a_line_break_in_a_name_never_adds_a_key_to_tuned_yaml():
    """A newline in --out (or a counter's name) was written into tuned.yaml's
    comment line as is: the next line became a top-level key."""
    from balance.experiments.tune.output import profile_yaml

    class Result:
        bot, profile, significant = "racer", {"noise": 0.05}, False

    class Rate:
        rate, low, high, n = 0.01, -0.01, 0.02, 100

    Result.gain = Rate
    text = profile_yaml(Result, "balance tune s.yaml --out 'DIR/nl\ninjected_key: {noise: 0.9}'\u2028x: 1")
    assert yaml.safe_load(text) == {"racer": {"noise": 0.05}}
    assert "\\x0ainjected_key" in text and "\\u2028" in text


# --- crashes --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("small")
    path = folder / "tiny.yaml"
    path.write_text(SCENARIO)
    code, _, stderr = cli("run", path, "--out", folder / "run", "-j", "1", "-q")
    assert code == 0, stderr
    return folder / "run"


def test_a_report_on_a_full_disk_is_one_line_and_leaves_no_temporary_file(small_run, tmp_path, monkeypatch):
    """Errno 28 while the report wrote its files was a 51-83-line traceback that
    left .cards.csv.tmp and .index.html.tmp behind."""
    real = pl.DataFrame.write_csv
    calls = []

    def full(self, file, *args, **kwargs):
        calls.append(file)
        if len(calls) == 3:
            with open(file, "w") as handle:
                handle.write("half")
            raise OSError(errno.ENOSPC, "No space left on device", str(file))
        return real(self, file, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_csv", full)
    out = tmp_path / "report"
    line = one_line("report", small_run, "--out", out)
    assert "write: the disk is full; nothing half-written is left" in line
    assert ".tmp" not in line and not [p for p in out.rglob("*") if ".tmp" in p.name]


def test_a_report_on_a_real_full_file_system(small_run, tmp_path):
    """A 256 KiB tmpfs where the test may mount one (root, as in CI); else the
    simulated disk above stands for it."""
    with tiny_tmpfs(tmp_path) as mount:
        line = one_line("report", small_run, "--out", mount / "report")
        assert "the disk is full" in line
        assert not [p for p in mount.rglob("*") if ".tmp" in p.name]


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "holds no counters: expected game -> counter name -> values"),
        ("hoarsepower:\n  rusher: {weights.drive: 2.0}\n", "'hoarsepower' is not a game (did you mean 'horsepower'?)"),
        ("heat:\n  careful: {risk: 0.3}\n", "holds no counters for horsepower (only for heat)"),
        ("horsepower: {}\n", "no counters under horsepower"),
        ("horsepower:\n  rusher: 3\n", "expected values to set"),
        (
            "horsepower:\n  rusher: {weights.drvie: 2.0}\n",
            "weights.drvie: unknown field 'drvie' (did you mean 'drive'?)",
        ),
        ("horsepower:\n  rusher: {buy_min: 1000000}\n", "buy_min: must be at most"),
    ],
    ids=["empty", "misspelled-game", "other-game-only", "no-counters", "not-values", "unknown-value", "out-of-bounds"],
)
def test_a_counters_file_is_read_like_every_input_and_refused_in_one_line(tmp_path, text, message):
    """Plain yaml.safe_load(read_text()) took an empty file, a misspelled game
    and a Heat-only file for Horsepower silently, and a bad value over several
    lines of validator internals ([type=..., input_value=...])."""
    counters = tmp_path / "c.yaml"
    counters.write_text(text)
    line = one_line("tune", ROOT / "scenarios" / "four-player-mixed.yaml", "--exploit", "--counters", counters)
    assert message in line and "input_value" not in line and "type=" not in line


def test_a_counters_file_that_is_binary_a_fifo_or_too_large_is_one_line(tmp_path):
    from .mutants import time_limit

    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"\xff\xfe\x00\x01" * 100)
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(17 * 2**20)
    scenario = ROOT / "scenarios" / "four-player-mixed.yaml"
    with time_limit(20):
        assert "c.yaml" not in one_line("tune", scenario, "--exploit", "--counters", binary)
        assert "FIFO" in one_line("tune", scenario, "--exploit", "--counters", fifo)
        assert "at most 16 MiB" in one_line("tune", scenario, "--exploit", "--counters", big)


def test_a_report_of_a_run_being_replaced_is_refused_in_one_line(small_run):
    """A run replaced under `balance report` (run --force) gave a
    FileNotFoundError traceback in 3 of 5 tries: a reader now shares the run's
    lock, and is refused while a run writes."""
    from balance.folder_lock import acquire_lock

    writer = acquire_lock(small_run)  # as balance run --force holds it while it replaces the folder
    try:
        line = one_line("report", small_run, "--out", small_run.parent / "rep")
        assert "is writing this run directory; wait for it, then run this again" in line
    finally:
        writer.release()


def test_a_run_cannot_replace_a_folder_a_command_is_reading(small_run, tmp_path):
    """Another process reads the run (as balance report does, holding it for
    its life): balance run --force into it is refused and leaves it whole."""
    import sys

    reader = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from balance import folder_lock as f; "
         "f.READERS_LOCK[0] = True; f.hold_for_reading(Path(sys.argv[1])); print('reading', flush=True); "
         "time.sleep(60)", str(small_run)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert reader.stdout.readline().strip() == "reading"
        scenario = tmp_path / "tiny.yaml"
        scenario.write_text(SCENARIO)
        code, _, stderr = cli("run", scenario, "--out", small_run, "--force", "-j", "1")
    finally:
        reader.kill()
        reader.wait()
    assert code == 2 and "another balance process is reading or writing this run directory" in stderr
    assert len(pl.read_parquet(small_run / "games" / "part-000000.parquet")) == 8, "the run is untouched"


# --- unclear messages ----------------------------------------------------------------------


def test_a_set_mistake_names_set_not_a_line_of_the_scenario(scenario):
    """`--set rules.laps=2.5` was blamed on `tiny.yaml:2: overrides.rules.laps`."""
    line = one_line("run", scenario, "--set", "rules.laps=2.5", "--out", scenario.parent / "r")
    assert line == "error: --set: rules.laps: expected an integer, got 2.5"


@pytest.mark.parametrize(
    "path, hint",
    [
        ("rules.starting_coin=2", "did you mean 'starting_coins'?"),
        ("cards.twin_turbo.effects.0.amout=2", "did you mean 'amount'?"),
    ],
)
def test_a_misspelled_field_of_a_path_gets_a_did_you_mean(scenario, path, hint):
    assert hint in one_line("run", scenario, "--set", path, "--out", scenario.parent / "r")


def test_misspelled_names_get_a_did_you_mean(scenario, tmp_path):
    bad_bot = tmp_path / "bot.yaml"
    bad_bot.write_text(SCENARIO.replace("racer", "racr"))
    assert "did you mean 'racer'?" in one_line("run", bad_bot, "--out", tmp_path / "r")
    bad_key = tmp_path / "key.yaml"
    bad_key.write_text(SCENARIO.replace("seed:", "sed:"))
    assert "did you mean 'seed'?" in one_line("run", bad_key, "--out", tmp_path / "r")
    assert "did you mean 'horsepower'?" in one_line("cards", "--game", "hoarsepower")
    assert "did you mean 'bot:racer'?" in one_line(
        "compare", scenario, "--set", "rules.starting_coins=4", "--headline", "bot:racr", "--out", tmp_path / "c"
    )
    assert "did you mean 'racer'?" in one_line(
        "sweep", scenario, "--set", "rules.starting_coins=3..4", "--metric", "bot:racr", "--out", tmp_path / "s"
    )


def test_compare_of_two_runs_refuses_set(small_run):
    """`compare RUN_A RUN_B --set ...` ignored --set and exited 0."""
    line = one_line("compare", small_run, small_run, "--set", "rules.laps=2")
    assert line == "error: --set: --set changes a scenario, not two runs on disk"


def test_compare_into_a_run_folder_says_it_holds_a_run(small_run, scenario):
    """`compare --out <a run>` said it "already holds a compare result" (and
    --force would have deleted the run)."""
    variants = scenario.parent / "v.yaml"
    variants.write_text(VARIANTS.replace("NAME", "more"))
    line = one_line("compare", variants, "--out", small_run, "--force")
    assert "holds a run of balance run, not a compare; choose another --out" in line
    assert (small_run / "manifest.json").is_file()


def test_strong_after_an_interrupt_names_resume_and_its_folder_no_out(small_run, tmp_path):
    from balance.experiments.setup import ExperimentOptions
    from balance.experiments.strong import _check_folder

    folder = tmp_path / "strong"
    folder.mkdir()
    (folder / "manifest.json").write_text("{}")
    with pytest.raises(UserError, match="holds an unfinished strong run: --resume to finish it") as info:
        _check_folder(folder, ExperimentOptions())
    assert "--out" not in str(info.value)
    (folder / "ladder.csv").write_text("bot\n")
    with pytest.raises(UserError, match="already holds a strong result: add --force to replace it$"):
        _check_folder(folder, ExperimentOptions())


def test_a_strength_folder_without_its_result_says_it_is_unfinished(tmp_path):
    from balance.experiments.setup import ExperimentOptions, output_folder

    out = tmp_path / "s"
    (out / "baseline").mkdir(parents=True)  # its own baseline run, begun
    with pytest.raises(UserError, match=r"holds an unfinished strength \(no strength.csv\): add --force"):
        output_folder(ExperimentOptions(out=out), "x", "strength", result="strength.csv")
    with pytest.raises(UserError, match=r"strength.csv\): add --force to start it over$"):
        output_folder(ExperimentOptions(out=out, fixed_out=True), "x", "strength", result="strength.csv")


def test_a_run_an_experiment_plays_names_the_experiments_command_to_finish_it(tmp_path):
    """A full disk in `balance strong` said `balance run RUN/manifest.json
    --resume`, which fails (unknown field 'scenario')."""
    from balance.logs import resume_command

    manifest = {"finish_command": "balance strong 'my runs/r' --resume", "scenario_file": "x.yaml"}
    assert resume_command(manifest, tmp_path) == "balance strong 'my runs/r' --resume"


# --- cosmetic ----------------------------------------------------------------------------


def test_a_comma_list_for_free_is_those_values():
    """`--free X=2,4` was read as the range 2..4 (and proposed 3)."""
    from balance.experiments.fit.space import free_params
    from balance.scenario import load_scenario

    scenario = load_scenario(ROOT / "scenarios" / "four-player-mixed.yaml")
    (param,) = free_params(scenario, ["cards.twin_turbo.effects.0.amount=2,4"])
    assert param.kind == "choice" and set(param.choices) == {2, 4, param.start}


@pytest.mark.parametrize("text", ["strength:twin_turbo=\uff10+-2", "seat-balance<=\u0662"])
def test_a_target_takes_ascii_digits_only(text):
    from balance.experiments.fit.targets import parse_target

    with pytest.raises(UserError, match="is not a target"):
        parse_target(text)


def test_a_sweep_value_takes_ascii_digits_only():
    from balance.experiments.sweep import parse_values

    with pytest.raises(UserError, match="digits 0-9"):
        parse_values("\uff11..\uff13", "--set")


def test_terminal_escapes_in_card_names_are_printed_escaped(tmp_path):
    """`balance cards` and `balance trace` printed ESC and BEL in a name raw."""
    cards = tmp_path / "cards.yaml"
    cards.write_text(CARDS.read_text().replace("name: Stock Engine", 'name: "Stock\\e[31m\\a Engine"'))
    code, stdout, _ = cli("cards", "--db", cards)
    assert code == 0 and "\x1b" not in stdout and "\x07" not in stdout and "Stock\\x1b[31m" in stdout
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.replace(str(CARDS), str(cards)))
    code, stdout, _ = cli("trace", scenario)
    assert code == 0 and "\x1b" not in stdout and "\x07" not in stdout


def test_printed_commands_are_shell_quoted(tmp_path):
    """`next:` and resume commands with a path holding a space did not run as printed."""
    folder = tmp_path / "my runs"
    folder.mkdir()
    scenario = folder / "tiny.yaml"
    scenario.write_text(SCENARIO)
    code, stdout, _ = cli("run", scenario, "--out", folder / "r 1", "-j", "1", "-q")
    assert code == 0 and f"next: balance report '{folder / 'r 1'}'" in stdout
    code, _, stderr = cli("report", folder / "r 1", "--out", folder / "rep")
    assert code == 0, stderr
    page = html.unescape((folder / "rep" / "index.html").read_text())
    assert "balance strong " in page
    for command in [c for c in ("balance sweep ", "balance strong ", "balance compare ") if c in page]:
        line = page[page.index(command) :].split("<", 1)[0].split(":", 1)[0]
        words = shlex.split(line)  # as a shell reads the command the page prints
        assert str(folder / "tiny.yaml") in words or str(folder / "r 1") in words, line


def test_set_errors_say_set_once_and_null_sets_nothing(scenario):
    out = scenario.parent / "r"
    assert one_line("run", scenario, "--set", "foo", "--out", out).startswith(
        "error: --set: 'foo': expected PATH=VALUE"
    )
    assert "'null' sets nothing" in one_line("run", scenario, "--set", "rules.laps=null", "--out", out)


def test_a_long_value_is_not_echoed_whole(scenario):
    line = one_line("run", scenario, "--set", "rules.laps=" + "9" * 100_000 + "x", "--out", scenario.parent / "r")
    assert len(line) < 400 and "100,001 characters" in line


def test_a_csv_cell_with_spaces_before_a_formula_is_neutralised(tmp_path):
    from balance.report.page import write_csv

    path = write_csv(pl.DataFrame({"name": [" =HYPERLINK(1)", "\t=X", "plain"]}), tmp_path / "t.csv")
    assert pl.read_csv(path)["name"].to_list() == ["' =HYPERLINK(1)", "'\t=X", "plain"]
