"""Scenario files: what to simulate. Validated like card databases (one-line
`file:line: field: message` errors); `load_scenario` resolves the card
database path and the bot profiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from .errors import Problem, UserError, raise_first
from .validation import Strict, validate_model
from .yamlio import YamlDoc, load_yaml

DEFAULT_SEED = 1  # fixed, so that a run is reproducible unless asked otherwise


class ScenarioModel(Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    game: str
    cards: str | None = None  # relative to the scenario file; None: the nearest cards.yaml above it
    players: int = Field(ge=2, le=8)
    bots: list[str] = Field(min_length=1)
    seat_rotation: bool = True
    bot_profiles: dict[str, dict[str, Any]] = {}
    games: int = Field(default=1000, ge=1)
    seed: int = Field(default=DEFAULT_SEED, ge=0)
    chunk_size: int = Field(default=1024, ge=1, le=1_000_000)


@dataclass(frozen=True)
class Scenario:
    source: str
    model: ScenarioModel
    cards_path: Path
    doc: YamlDoc

    @property
    def name(self) -> str:
        return self.model.name


def find_cards(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / "cards.yaml").is_file():
            return folder / "cards.yaml"
    return None


def load_scenario(path: str | Path) -> Scenario:
    doc = load_yaml(path)
    if not isinstance(doc.data, dict):
        raise UserError(doc.problem((), "a scenario is a mapping with name, game, players, bots...", "file"))
    model, problems = validate_model(ScenarioModel, doc.data, doc)
    raise_first(problems)
    folder = Path(path).resolve().parent
    if model.cards is None:
        cards = find_cards(folder)
        if cards is None:
            raise UserError(
                doc.problem(("name",), "no cards.yaml found beside or above the scenario; set cards:", "cards")
            )
    else:
        cards = folder / model.cards
        if not cards.is_file():
            raise UserError(doc.problem(("cards",), f"no such file: {cards}"))
    problems = []
    if len(model.bots) != model.players:
        problems.append(doc.problem(("bots",), f"{len(model.bots)} bots for {model.players} players (one per seat)"))
    raise_first(problems)
    return Scenario(str(path), model, cards, doc)


def unknown_bot_problems(scenario: Scenario, known: list[str]) -> list[Problem]:
    return [
        scenario.doc.problem(("bots", i), f"unknown bot {name!r} (known: {', '.join(known)})")
        for i, name in enumerate(scenario.model.bots)
        if name not in known
    ]
