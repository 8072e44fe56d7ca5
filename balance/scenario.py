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


class BotPool(Strict):
    pool: list[str] = Field(min_length=1)  # each seat of each game draws its bot from these


class ScenarioModel(Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    game: str
    cards: str | None = None  # relative to the scenario file; None: the nearest cards.yaml above it
    players: int = Field(ge=2, le=8)
    bots: list[str] | BotPool  # one profile per seat, or a pool to draw from
    seat_rotation: bool = True
    bot_profiles: dict[str, dict[str, Any]] = {}
    overrides: dict[str, Any] = {}  # dotted paths into the card database
    max_rounds: int | None = Field(default=None, ge=1)  # overrides rules.max_rounds
    games: int = Field(default=1000, ge=1)
    seed: int = Field(default=DEFAULT_SEED, ge=0)
    chunk_size: int = Field(default=1024, ge=1, le=1_000_000)


@dataclass(frozen=True)
class Scenario:
    source: str
    model: ScenarioModel
    cards_path: Path
    doc: YamlDoc
    cards_doc: YamlDoc | None = None  # the card database file, read once (workers on other machines cannot read it)

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def bot_names(self) -> list[str]:
        """The profiles a run uses: one per seat, or the pool."""
        bots = self.model.bots
        return list(bots.pool) if isinstance(bots, BotPool) else list(bots)

    def database_doc(self) -> YamlDoc:
        """The card database as this scenario plays it: its file with the
        scenario's overrides (and max_rounds) applied, not yet validated."""
        from .overrides import apply_overrides

        doc = self.cards_doc if self.cards_doc is not None else load_yaml(self.cards_path)
        overrides = dict(self.model.overrides)
        doc = apply_overrides(doc, overrides, self.doc) if overrides else doc
        if self.model.max_rounds is not None:
            doc = apply_overrides(doc, {"rules.max_rounds": self.model.max_rounds}, self.doc, prefix=())
            key = ("rules", "max_rounds")
            doc.origins[key] = (self.source, self.doc.line_of(("max_rounds",)), "max_rounds")
        return doc


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
    if isinstance(model.bots, list) and len(model.bots) != model.players:
        raise UserError(doc.problem(("bots",), f"{len(model.bots)} bots for {model.players} players (one per seat)"))
    return Scenario(str(path), model, cards, doc)


def unknown_bot_problems(scenario: Scenario, known: list[str]) -> list[Problem]:
    where = ("bots", "pool") if isinstance(scenario.model.bots, BotPool) else ("bots",)
    return [
        scenario.doc.problem((*where, i), f"unknown bot {name!r} (known: {', '.join(known)})")
        for i, name in enumerate(scenario.bot_names)
        if name not in known
    ]
