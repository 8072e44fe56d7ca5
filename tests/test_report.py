"""`balance report` from a tiny real run: the page, its charts and tables, and
names escaped as text."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.runner import RunOptions, run

from .conftest import CARDS, ROOT


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    data = yaml.safe_load(CARDS.read_text())
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


@pytest.fixture(scope="module")
def reported(tiny_run):
    """The tiny run's report, made once for the tests that only read it: (CLI result, folder)."""
    out = tiny_run / "report"
    return CliRunner().invoke(app, ["report", str(tiny_run / "run"), "--out", str(out)]), out


def test_report_writes_page_charts_and_tables(reported):
    result, out = reported
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
    assert shown["added_drafted_pp"].drop_nans().drop_nulls().is_sorted(descending=True)
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


def test_seat_finding_says_it_measures_the_turn_order_and_the_draft_has_its_own(reported):
    """Issue 14: the first drafter is drawn apart from the first player; the page
    separates the two advantages and says how often the Debris supply ran out."""
    _, out = reported
    page = (out / "index.html").read_text()
    assert "Seats are the turn order (seat 0 plays first); who drafts first is drawn apart" in page
    assert "Draft position 1 (the first pick) wins" in page and "the draft&#39;s own advantage" in page
    assert "The Debris supply ran out in" in page
    draft = (out / "win_rate_by_draft_position.csv").read_text().splitlines()
    assert draft[0].startswith("n_players,draft_position,games,wins,win_rate_pct") and len(draft) == 5


def test_findings_come_in_the_order_a_designer_acts_on(reported, tiny_run):
    """Issue 19: position first, then the items too strong or too weak (with a
    pointer to the experiment while none exists), then the bots, then length and supply."""
    result, out = reported
    page = (out / "index.html").read_text()
    headings = re.findall(r'<h3 class="findings">([^<]*)</h3>', page)
    assert headings == [
        "Who wins from where",
        "Cards and Playbooks too strong or too weak",
        "What the bots like to take",
        "What the bots reveal about strategies",
        "Game length, track and supply",
    ]
    sections = dict(zip(headings, re.split(r'<h3 class="findings">[^<]*</h3>', page)[1:], strict=True))
    assert "Seat " in sections["Who wins from where"] and "Draft position 1" in sections["Who wins from where"]
    assert "Not measured by experiment yet: " in sections["Cards and Playbooks too strong or too weak"]
    assert "-&gt; balance report " in sections["Cards and Playbooks too strong or too weak"]
    assert "not what the item does" in sections["What the bots like to take"]
    assert "Best bot" in sections["What the bots reveal about strategies"]
    assert "The Debris supply ran out" in sections["Game length, track and supply"]
    assert result.stdout.index("Who wins from where:") < result.stdout.index("Game length, track and supply:")
    # issue 20: the page ends its findings with the commands that go deeper, on this run and its scenario
    deeper = page[page.index('<h3 class="deeper">Going deeper</h3>') :]
    assert f"<code>balance report {tiny_run / 'run'} --measure --budget 400000</code>" in deeper
    # issue 43: no placeholder a designer must fill in (runs/AFTER, cards.ID): a compare only beside a kept run
    assert "runs/AFTER" not in deeper and "cards.ID" not in deeper and "balance compare" not in deeper


def test_card_names_appear_as_text_not_markup(reported):
    _, out = reported
    page = (out / "index.html").read_text()
    assert "<script>alert(1)" not in page
    assert page.count("<script>") == 1, "the page's one script is its own (sort and filter the tables)"
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


def _chromium_and_report(reported) -> tuple[str, Path]:
    """Debian's chromium, and the tiny run's report."""
    import shutil

    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is needed: make test (or .ci/run) installs it with apt-get"
    return chromium, reported[1]


def _probed_dom(chromium: str, page: Path, probe: str, user_dir: Path) -> str:
    """The DOM of a copy of `page` with the `probe` script before </body>, after it ran (its verdict in the title)."""
    import subprocess

    copy = page.with_name(f"probe-{user_dir.name}.html")
    copy.write_text(page.read_text().replace("</body>", probe + "</body>"))
    flags = [*CHROMIUM_FLAGS, f"--user-data-dir={user_dir}", "--virtual-time-budget=5000", "--dump-dom"]
    return subprocess.run([chromium, *flags, copy.as_uri()], capture_output=True, text=True, timeout=120).stdout


def test_page_opens_in_headless_chromium(reported, tmp_path):
    import subprocess

    chromium, out = _chromium_and_report(reported)
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
    dom = _probed_dom(chromium, page, PROBE, tmp_path / "ud2")
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


# Issue 20: the tables sort and filter in the page. A table of the awkward cells a
# report shows (thousands, signs, "< 0.001", blank), then a probe that clicks and
# types as a designer would and writes what went wrong into the title.
SORT_PROBE = """<h3>Probe table</h3><div class="scroll"><table>
<tr><th>name</th><th>value</th></tr>
<tr><td>a</td><td>1,234</td></tr><tr><td>b</td><td>28.4</td></tr><tr><td>c</td><td>-0.5</td></tr>
<tr><td>d</td><td>+3.2</td></tr><tr><td>e</td><td></td></tr><tr><td>f</td><td>&lt; 0.001</td></tr>
<tr><td>g</td><td>0.001</td></tr></table></div>
<script>window.addEventListener("load", () => {
const bad = [];
const table = title => {
  let el = [...document.querySelectorAll("h3")].find(h => h.textContent === title || h.textContent.startsWith(title + " ("));
  while (!el.matches(".scroll")) el = el.nextElementSibling;
  return el.querySelector("table");
};
const header = (t, name) => [...t.rows[0].cells].find(c => c.textContent === name);
const column = (t, name) => [...t.rows].slice(1).map(r => r.cells[header(t, name).cellIndex].textContent);
let t = table("Probe table");
header(t, "value").click();
if (column(t, "value").join("|") !== "-0.5|< 0.001|0.001|+3.2|28.4|1,234|") bad.push("up " + column(t, "value"));
if (!getComputedStyle(header(t, "value"), "::after").content.includes("\\u25B2")) bad.push("no up arrow");
header(t, "value").click();
if (column(t, "value").join("|") !== "1,234|28.4|+3.2|0.001|< 0.001|-0.5|") bad.push("down " + column(t, "value"));
if (!getComputedStyle(header(t, "value"), "::after").content.includes("\\u25BC")) bad.push("no down arrow");
header(t, "name").click();
if (column(t, "name").join("") !== "abcdefg") bad.push("text " + column(t, "name"));
t = table("Win rate by seat");
header(t, "win_rate_pct").click();
const rates = column(t, "win_rate_pct").map(Number);
if (rates.join() !== [...rates].sort((x, y) => x - y).join()) bad.push("seats " + rates);
t = table("Cards");
const box = t.closest(".scroll"), filter = box.previousElementSibling;
filter.value = "stock";
filter.dispatchEvent(new Event("input"));
const shown = [...t.rows].slice(1).filter(r => !r.hidden).map(r => r.cells[0].textContent).sort();
if (shown.join() !== "stock_engine,stock_frame,stock_wheels") bad.push("filter " + shown);
if (getComputedStyle(box).overflowX !== "auto") bad.push("box does not scroll");
if (getComputedStyle(t.rows[1].cells[0]).position !== "sticky") bad.push("first column not frozen");
document.title = "SORTED " + (bad.join("; ") || "ok");
});</script>"""


def test_tables_sort_and_filter_in_headless_chromium(reported, tmp_path):

    chromium, out = _chromium_and_report(reported)
    dom = _probed_dom(chromium, out / "index.html", SORT_PROBE, tmp_path / "ud")
    assert "<title>SORTED ok</title>" in dom, re.findall(r"<title>[^<]*</title>", dom)


def test_cells_read_as_a_designer_reads_them():
    from balance.report.page import cell as _cell

    assert [_cell(True, "significant_drafted"), _cell(False, "rarely_taken")] == ["yes", "no"]
    # a rate in percent, to one decimal
    assert [_cell(28.437, "win_rate_pct"), _cell(25, "fair_pct"), _cell(0.04, "draft_rate_pct")] == [
        "28.4",
        "25.0",
        "0.0",
    ]
    # a difference in points, with its sign; what rounds to zero is 0.0, not -0.0
    assert [_cell(v, "added_drafted_pp") for v in (5.23, -0.26, -0.04, 0.0)] == ["+5.2", "-0.3", "0.0", "0.0"]
    # a p-value to three decimals, and "< 0.001" below that
    assert [_cell(v, c) for v, c in ((0.0004, "p_value"), (0.001, "p_raw_drafted"), (0.0234, "p_drafted"))] == [
        "< 0.001",
        "0.001",
        "0.023",
    ]
    # the rest as before (p10 is a percentile, not a p-value); missing is blank
    assert [_cell(1234, "n"), _cell(0.123456, "mean"), _cell(12.0, "p10"), _cell(1600.4, "distance")] == [
        "1,234",
        "0.123",
        "12",
        "1,600",
    ]
    assert [_cell(float("nan"), "win_rate_pct"), _cell(None, "p_value"), _cell("v8_block", "card")] == [
        "",
        "",
        "v8_block",
    ]


def _page_table(page: str, title: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the page's table under the heading `title`."""
    start = page.index(f"<h3>{title} ")
    body = page[start : page.index("</table>", start)]
    rows = [re.findall(r"<td>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)[1:]]
    return re.findall(r"<th>([^<]*)</th>", body), rows


def test_report_cells_and_the_cards_given_not_taken(reported, tiny_run):
    import json

    from balance.analysis import cards as card_analysis

    _, out = reported
    page = (out / "index.html").read_text()
    header, rows = _page_table(page, "Do all seats win equally?")
    assert re.fullmatch(r"< 0\.001|[01]\.\d{3}", rows[0][header.index("p_value")]), rows
    assert re.fullmatch(r"[+]\d+\.\d", rows[0][header.index("largest_gap_pp")]), rows
    assert "True" not in page and "False" not in page, "flags read yes or no"
    # Horsepower's starters and Debris are given to every player, not taken: never "rarely taken"
    catalog = json.loads((tiny_run / "run" / "manifest.json").read_text())["catalog"]["cards"]
    given = {c["id"] for c in catalog if c["group"] in ("starter", "debris")}
    assert len(given) == 6
    cards = pl.read_csv(out / "cards.csv")
    assert given <= set(cards["card"]), "they are in the table, with what they do"
    assert cards.filter(pl.col("card").is_in(given))["rarely_taken"].null_count() == len(given)
    assert cards.filter(~pl.col("card").is_in(given))["rarely_taken"].null_count() == 0
    header, rows = _page_table(page, "Cards")
    flag = {r[0]: r[header.index("rarely_taken")] for r in rows}
    assert all(flag[c] == "" for c in given) and {v for c, v in flag.items() if c not in given} <= {"yes", "no"}
    assert "Almost never taken" not in page
    # a card of the catalogue that nobody took is still flagged
    parts = [c["id"] for c in catalog if c["group"] == "parts"]
    table = card_analysis.card_stats(tiny_run / "run", [*parts, "never_seen"])
    assert table.filter(pl.col("card") == "never_seen")["rarely_taken"].to_list() == [True]
    assert table.filter(pl.col("card").is_in(given))["rarely_taken"].null_count() == len(given)


def test_intervals_of_counts_stay_at_or_above_zero():
    from balance.analysis import tallies

    # a rare event (one spin-out in 40) and money, which can be negative (bids paid over prizes)
    players = pl.LazyFrame(
        {
            "bot": ["a"] * 40 + ["b"] * 40,
            "spin_outs": [1] + [0] * 39 + [0] * 40,
            "money": [4] + [0] * 39 + [-5] + [3] * 39,
        }
    )
    table = tallies.means({"players": players}, ["spin_outs", "money"])
    row = {(r["bot"], r["measure"]): r for r in table.iter_rows(named=True)}
    spins = row["a", "spin_outs"]
    assert spins["mean"] == 0.025 and spins["ci_low"] == 0 and spins["ci_high"] > 0.05, "a count is never below 0"
    assert row["b", "spin_outs"]["ci_low"] == row["b", "spin_outs"]["ci_high"] == 0, "all zeros: exactly 0"
    # bot a's money is never negative, but another's is: money can be, so its interval is left whole
    money = row["a", "money"]
    assert money["ci_low"] < 0 and money["ci_low"] == pytest.approx(2 * money["mean"] - money["ci_high"])
    assert tallies.wide(table).filter(pl.col("bot") == "a")["spin_outs"].item().startswith("0.025 (0-")
