"""`balance report` from a tiny real run: the page, its charts and tables, and
names escaped as text."""

from __future__ import annotations

import re

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.runner import RunOptions, run

from .conftest import ROOT


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    data = yaml.safe_load((ROOT / "cards.yaml").read_text())
    for card in data["cards"]:
        if card["id"] == "twin_turbo":
            card["name"] = "<script>alert(1)</script>"
    (tmp / "cards.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (tmp / "s.yaml").write_text(
        "name: tiny-report\ngame: horsepower\nplayers: 4\nbots: [racer, economist, saboteur, balanced]\n"
        "games: 120\nseed: 3\nchunk_size: 60\n"
    )
    run(tmp / "s.yaml", RunOptions(out=tmp / "run", jobs=1))
    return tmp


def test_report_writes_page_charts_and_tables(tiny_run, tmp_path):
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["report", str(tiny_run / "run"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "report: " in result.stdout and "8 charts, 14 tables" in result.stdout
    page = (out / "index.html").read_text()
    for image in re.findall(r'<img src="([^"]+)"', page):
        assert (out / image).stat().st_size > 5000, image
        assert (out / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(re.findall(r"<img ", page)) == 8
    for csv in (
        "cards.csv",
        "playbooks.csv",
        "win_rate_by_seat.csv",
        "lap_times.csv",
        "bot_tallies.csv",
        "win_rate_by_draft_position.csv",
        "debris_supply.csv",
    ):
        assert (out / csv).read_text().count("\n") >= 2
    assert "tiny-report" in page and "120 games" in page and "seed 3" in page
    assert "http://" not in page and "https://" not in page, "the page needs no network"
    # issue 19: the card chart shows the findings' figure (within each bot profile) and says which
    assert "Compared within each bot profile" in page and "the findings quote the same figure" in page
    shown = pl.read_csv(out / "cards.csv")
    assert shown["added_by_bot_drafted_pp"].drop_nans().drop_nulls().is_sorted(descending=True)
    # issue 19: one set of units: a rate in percent, a difference in points, and the column name says which
    for csv in out.glob("*.csv"):
        table = pl.read_csv(csv)
        for column, dtype in table.schema.items():
            values = table[column].drop_nulls()
            if dtype.is_float():
                values = values.drop_nans()
            assert not (column.startswith(("win_rate", "added")) or column.endswith("_rate")) or column.endswith(
                ("_pct", "_pp")
            ), f"{csv.name}: {column} does not say its unit"
            if column.endswith("_pct") and len(values):
                assert values.min() >= 0 and values.max() <= 100, (csv.name, column)
            if column.endswith("_pp") and len(values):
                assert values.min() >= -100 and values.max() <= 100, (csv.name, column)
    seats = pl.read_csv(out / "win_rate_by_seat.csv")
    assert seats["win_rate_pct"].sum() == pytest.approx(100.0), "seat win rates in percent add up to 100"
    assert "<th>win_rate_pct</th>" in page, "the page's tables carry the same names and units as the CSVs"


def test_seat_finding_says_it_measures_the_turn_order_and_the_draft_has_its_own(tiny_run, tmp_path):
    """Issue 14: the first drafter is drawn apart from the first player; the page
    separates the two advantages and says how often the Debris supply ran out."""
    out = tmp_path / "report"
    CliRunner().invoke(app, ["report", str(tiny_run / "run"), "--out", str(out)])
    page = (out / "index.html").read_text()
    assert "Seats are the turn order (seat 0 plays first); who drafts first is drawn apart" in page
    assert "Draft position 1 (the first pick) wins" in page and "the draft&#39;s own advantage" in page
    assert "The Debris supply ran out in" in page
    draft = (out / "win_rate_by_draft_position.csv").read_text().splitlines()
    assert draft[0].startswith("n_players,draft_position,games,wins,win_rate_pct") and len(draft) == 5


def test_findings_come_in_the_order_a_designer_acts_on(tiny_run, tmp_path):
    """Issue 19: position first, then the items too strong or too weak (with a
    pointer to the experiment while none exists), then the bots, then length and supply."""
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["report", str(tiny_run / "run"), "--out", str(out)])
    page = (out / "index.html").read_text()
    headings = re.findall(r'<h3 class="findings">([^<]*)</h3>', page)
    assert headings == [
        "Who wins from where",
        "Cards and Playbooks too strong or too weak",
        "What the bots reveal about strategies",
        "Game length, track and supply",
    ]
    sections = dict(zip(headings, re.split(r'<h3 class="findings">[^<]*</h3>', page)[1:], strict=True))
    assert "Seat " in sections["Who wins from where"] and "Draft position 1" in sections["Who wins from where"]
    assert "balance strength " in sections["Cards and Playbooks too strong or too weak"]
    assert "Best bot" in sections["What the bots reveal about strategies"]
    assert "The Debris supply ran out" in sections["Game length, track and supply"]
    assert result.stdout.index("Who wins from where:") < result.stdout.index("Game length, track and supply:")


def test_card_names_appear_as_text_not_markup(tiny_run, tmp_path):
    out = tmp_path / "report"
    CliRunner().invoke(app, ["report", str(tiny_run / "run"), "--out", str(out)])
    page = (out / "index.html").read_text()
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, "the card's name is shown, as text"


def test_report_of_a_directory_that_is_not_a_run(tmp_path):
    result = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2
    assert "not a run directory (no manifest.json)" in result.stderr


CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PROBE = """<script>window.addEventListener("load", () => {
const imgs = [...document.images];
const bad = imgs.filter(i => !i.complete || i.naturalWidth === 0);
document.title = "PROBE " + imgs.length + " " + bad.length; });</script>"""


def test_page_opens_in_headless_chromium(tiny_run, tmp_path):
    import shutil
    import subprocess

    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is needed: make test (or .ci/run) installs it with apt-get"
    out = tmp_path / "report"
    CliRunner().invoke(app, ["report", str(tiny_run / "run"), "--out", str(out)])
    page = out / "index.html"
    # console errors while the page itself loads
    logged = subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path / 'ud1'}",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert logged.returncode == 0, logged.stderr[-2000:]
    console = [line for line in logged.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console
    assert "Horsepower balance report" in logged.stdout
    # every image loaded: a copy of the page that reports it in its title
    probe = out / "probe.html"
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path / 'ud2'}",
            "--virtual-time-budget=5000",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "<title>PROBE 8 0</title>" in dom, re.findall(r"<title>[^<]*</title>", dom)
    # a screenshot, kept as a test artifact
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    shot = artifacts / "report-screenshot.png"
    subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path / 'ud3'}",
            "--window-size=1280,2400",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000
