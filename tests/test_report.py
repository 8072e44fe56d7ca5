"""`balance report` from a tiny real run: the page, its charts and tables, and
names escaped as text."""

from __future__ import annotations

import re

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
    assert "report: " in result.stdout and "6 charts, 10 tables" in result.stdout
    page = (out / "index.html").read_text()
    for image in re.findall(r'<img src="([^"]+)"', page):
        assert (out / image).stat().st_size > 5000, image
        assert (out / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(re.findall(r"<img ", page)) == 6
    for csv in ("cards.csv", "playbooks.csv", "win_rate_by_seat.csv", "lap_times.csv"):
        assert (out / csv).read_text().count("\n") >= 2
    assert "tiny-report" in page and "120 games" in page and "seed 3" in page
    assert "http://" not in page and "https://" not in page, "the page needs no network"


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
