"""Issue 20, items 7 and 11: the designer's first commands on every game.

`balance validate FILE` and `balance cards --db FILE` without --game read the
file as the game its top-level keys show (saying so), or name the --game to
give; `balance cards` lists every game's cards; `--game` names a game in every
command, and trace's game number is --game-number; the analysis API refuses
an argument of the wrong kind with a TypeError that says what it wanted."""

from __future__ import annotations

import polars as pl
import pytest

from balance.analysis import cards as card_analysis
from balance.analysis import corners, laps, tallies, winrate
from balance.games import GAMES

from .conftest import CARDS, ROOT, cli, one_line

GOLDEN = ROOT / "tests/golden/scenario.yaml"

# each game's shipped database: (file, the note's title, the validate table's title)
SHIPPED = {
    "heat": ("heat.yaml", "Heat", "Heat: Pedal to the Metal"),
    "downforce": ("downforce.yaml", "Downforce", "Downforce"),
    "shuffle_gp": ("shuffle_gp.yaml", "Shuffle Grand Prix", "Shuffle Grand Prix"),
}


@pytest.fixture
def wide(monkeypatch):
    """A terminal wide enough that no cell folds, so rows read back whole (a
    terminal's width is its user's, not a rule of the command)."""
    from rich.console import Console

    from balance import cli as cli_module

    monkeypatch.setattr(cli_module, "out", Console(highlight=False, markup=False, emoji=False, width=400))


def table(stdout: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the rich table in `stdout`, cells stripped (a row
    that a cell's line break folds over two lines is joined back into one)."""
    header: list[str] = []
    rows: list[list[str]] = []
    for line in stdout.splitlines():
        if line.startswith("┃"):
            cells = [c.strip() for c in line.strip("┃").split("┃")]
            header = cells if not header else [f"{a}{b}" for a, b in zip(header, cells, strict=True)]
        elif line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            if rows and not cells[0]:  # a folded row goes on
                rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
            else:
                rows.append(cells)
    return header, rows


# --- 7a: the game a file looks like ------------------------------------------------------------


@pytest.mark.parametrize("game", SHIPPED)
def test_validate_without_game_reads_the_file_as_its_game(game):
    file, short, title = SHIPPED[game]
    code, stdout, stderr = cli("validate", ROOT / file)
    assert code == 0, stderr
    lines = stdout.splitlines()
    assert lines[0].startswith(f"note: {ROOT / file} looks like a {short} database (top-level keys ")
    assert lines[0].endswith(f"): validated with --game {game}")
    assert f"({title})" in " ".join(stdout.split()) and lines[-1] == f"{ROOT / file}: ok"  # the title may wrap
    # exactly what --game gives, below the note
    assert cli("validate", ROOT / file, "--game", game)[1] == "\n".join(lines[1:]) + "\n"


def test_validate_without_game_on_horsepower_is_as_before():
    code, stdout, _ = cli("validate", CARDS)
    assert code == 0 and "note:" not in stdout and "(Horsepower)" in stdout
    assert stdout.splitlines()[-1] == f"{CARDS}: ok"


@pytest.mark.parametrize("game", SHIPPED)
def test_cards_without_game_lists_the_file_as_its_game(game):
    file, short, _ = SHIPPED[game]
    code, stdout, _ = cli("cards", "--db", ROOT / file)
    assert code == 0
    assert stdout.splitlines()[0].endswith(f"): listed with --game {game}")
    assert f"looks like a {short} database" in stdout.splitlines()[0]
    assert stdout.splitlines()[1].startswith(f"{ROOT / file}: ")


def test_a_file_that_looks_like_two_games_names_both(tmp_path):
    """Heat's and Downforce's databases both have `tracks`: a file with only
    that is either, so neither is guessed."""
    path = tmp_path / "track.yaml"
    path.write_text("rules: {}\ntracks: []\n")
    assert one_line("validate", path) == (
        f"error: {path}: --game: looks like a Heat or a Downforce database (top-level keys tracks): "
        f"run balance validate {path} --game heat or --game downforce"
    )
    assert f"run balance cards --db {path} --game heat or --game downforce" in one_line("cards", "--db", path)


def test_a_typo_in_one_key_still_reads_as_its_game(tmp_path):
    """Three of Heat's four keys: read as Heat, and Heat's schema names the typo."""
    path = tmp_path / "heat.yaml"
    path.write_text((ROOT / "heat.yaml").read_text().replace("\nlegends:", "\nlegend:"))
    code, stdout, stderr = cli("validate", path)
    assert code == 2 and stdout.startswith(f"note: {path} looks like a Heat database")
    assert (
        stderr.count("\n") == 1
        and "unknown field 'legend' (did you mean 'legends'?) (known: rules, cards, tracks, legends, weather, road_conditions, events, seasons)"
        in stderr
    )


def test_the_wrong_game_given_says_which_game_the_file_looks_like():
    heat = ROOT / "heat.yaml"
    line = one_line("validate", heat, "--game", "horsepower")
    assert "tracks: unknown field 'tracks'" in line
    assert line.endswith(f"; {heat} looks like a Heat database: run balance validate {heat} --game heat")
    line = one_line("cards", "--db", CARDS, "--game", "shuffle_gp")
    assert line.endswith(f"looks like a Horsepower database: run balance cards --db {CARDS} --game horsepower")


# --- 7b: balance cards for every game ----------------------------------------------------------


@pytest.mark.parametrize(
    "game, columns, some_row",
    [
        ("heat", ["id", "name", "type", "tier", "group", "count", "speed", "flips", "effects"], ["speed_1", "Speed 1"]),
        ("downforce", ["id", "type", "count", "moves", "name", "text"], ["s01", "speed", "1", "black 6, orange 3"]),
        ("shuffle_gp", ["id", "name", "driver", "type", "count", "turns", "text"], ["blaze_ram", "Ram", "blaze"]),
    ],
)
def test_cards_lists_every_game(game, columns, some_row, monkeypatch, wide):
    monkeypatch.chdir(ROOT)  # --game alone: the game's database file here
    code, stdout, stderr = cli("cards", "--game", game)
    assert code == 0, stderr
    assert stdout.startswith(f"{SHIPPED[game][0]}: ")
    header, rows = table(stdout)
    assert header == columns
    assert any(row[: len(some_row)] == some_row for row in rows)
    assert "cost" not in header  # none of the shipped databases sets cost:


def test_cards_filters_by_each_games_own_words(monkeypatch, wide):
    monkeypatch.chdir(ROOT)
    code, stdout, _ = cli("cards", "--game", "shuffle_gp", "--flag", "blaze", "--type", "trap")
    _, rows = table(stdout)
    assert code == 0 and [r[:4] for r in rows] == [["blaze_oil_fire", "Oil Fire", "blaze", "trap (plays_action)"]]
    code, stdout, _ = cli("cards", "--game", "heat", "--flag", "garage_basic")
    assert code == 0 and {r[3] for r in table(stdout)[1]} == {"garage_basic"}
    assert one_line("cards", "--game", "downforce", "--flag", "x") == (
        "error: --flag: Downforce cards have no flags (filter with --type)"
    )
    assert one_line("cards", "--game", "downforce", "--type", "x") == (
        "error: --type: unknown type 'x' (known: power, speed, speed8)"
    )


def test_heat_stress_copies_are_set_by_the_track(monkeypatch, wide):
    monkeypatch.chdir(ROOT)
    code, stdout, _ = cli("cards", "--game", "heat", "--type", "stress")
    assert code == 0 and table(stdout)[1][0][5] == "by track"
    assert "count by track: the track raced sets the copies (its stress)" in stdout


def test_cards_shows_a_cost_column_where_cards_set_cost(tmp_path, wide):
    text = CARDS.read_text()
    old = "  - id: twin_turbo\n"
    assert text.count(old) == 1
    path = tmp_path / "cards.yaml"
    path.write_text(text.replace(old, old + "    cost: 5\n"))
    code, stdout, _ = cli("cards", "--db", path, "--type", "engine")
    header, rows = table(stdout)
    assert code == 0 and header == ["id", "name", "type", "count", "flags", "cost", "text"]
    cost = {row[0]: row[5] for row in rows}
    assert cost["twin_turbo"] == "5" and cost["stock_engine"] == ""
    assert stdout.splitlines()[-1] == "blank cost: rules.purchase_cost (3)"


def test_every_game_has_a_card_listing():
    from balance.card_listing import LISTINGS

    assert set(LISTINGS) == set(GAMES)


# --- 7c: --game is the game; trace's game number is --game-number ------------------------------


def test_trace_picks_its_game_with_game_number():
    code, stdout, _ = cli("trace", GOLDEN, "--seed", 2, "--game-number", 5)
    assert code == 0 and stdout.splitlines()[0] == "Horsepower: scenario golden, seed 2, game 5"
    assert cli("trace", GOLDEN, "--seed", 2, "-k", 5)[1] == stdout
    code, help_text, _ = cli("trace", "--help")
    assert "--game-number" in help_text and "--game " not in help_text


def test_trace_refuses_a_game_name_for_its_number_and_the_old_option():
    assert one_line("trace", GOLDEN, "--game-number", "heat") == (
        "error: --game-number: game number: 'heat' is a game: --game-number is which game of the run to trace, "
        "from 0 (the scenario or run names the game)"
    )
    assert one_line("trace", GOLDEN, "--game", 5) == (
        "error: --game: --game names a game (horsepower, heat, downforce, shuffle_gp); which game of the "
        "run to trace is --game-number 5"
    )
    assert one_line("trace", GOLDEN, "--game", "horsepower") == (
        "error: --game: trace plays the game its scenario or run names: drop --game horsepower (which "
        "game of the run to trace: --game-number N)"
    )


def test_a_game_outside_the_run_names_the_option():
    assert one_line("trace", GOLDEN, "--game-number", 8).endswith(": --game-number: game 8 is not in the run (0 to 7)")


# --- 11b: the analysis API says what it wanted --------------------------------------------------


RUN = {"games": pl.LazyFrame(), "players": pl.LazyFrame(), "cards": pl.LazyFrame()}
CATALOG = {"cards": [{"id": "twin_turbo", "name": "Twin Turbo"}], "playbooks": [{"id": "haggler"}]}


def test_card_stats_refuses_the_manifest_catalog_for_its_ids():
    """It used to add rows named `cards` and `playbooks`."""
    with pytest.raises(TypeError) as caught:
        card_analysis.card_stats(RUN, CATALOG)
    assert str(caught.value) == (
        'card_stats: catalog must be a list of card ids (str), e.g. [c["id"] for c in manifest["catalog"]["cards"]]; '
        "got a dict with keys 'cards', 'playbooks'"
    )
    with pytest.raises(TypeError, match=r"^playbook_stats: catalog must be a list of Playbook ids \(str\)"):
        card_analysis.playbook_stats(RUN, CATALOG["playbooks"])  # dicts, not their ids


def test_a_table_or_a_manifest_is_not_a_run():
    with pytest.raises(TypeError) as caught:
        winrate.by_seat(RUN["players"])
    assert str(caught.value) == (
        "run must be a run directory (str or Path) or the dict of its tables that balance.load_run returns; "
        "got a polars LazyFrame (one table? pass the whole run: the directory or balance.load_run(directory))"
    )
    with pytest.raises(TypeError, match=r"^card_stats: run must be .*; got a dict with keys .*\(a manifest\?"):
        card_analysis.card_stats({"game": "horsepower", "catalog": CATALOG, "scenario": {}})


def test_names_and_sets_of_the_wrong_kind_are_refused():
    with pytest.raises(
        TypeError, match=r"^means: columns must be a list of players columns \(str\) \(one: \['heat_paid'\]\)"
    ):
        tallies.means(RUN, "heat_paid")
    with pytest.raises(TypeError, match=r"^lap_summary: by must be a list of column names"):
        laps.lap_summary(RUN, by="lap")
    with pytest.raises(TypeError, match=r"^informative: events must be a set of event names \(str\)"):
        card_analysis.informative(pl.DataFrame({"card": ["x"]}), ["draft"])
    with pytest.raises(TypeError, match=r"^corner_table: catalog must be the manifest's catalog .*; got a list"):
        corners.corner_table(RUN, ["usa"])
