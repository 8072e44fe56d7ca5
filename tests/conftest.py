from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards.yaml"


@pytest.fixture(scope="session")
def cards_text() -> str:
    return CARDS.read_text()


@pytest.fixture(scope="session")
def database():
    from balance.games.horsepower.schema import load_database

    return load_database(CARDS)


@pytest.fixture(scope="session")
def tables(database):
    from balance.games.horsepower.compile import compile_database

    return compile_database(database)
