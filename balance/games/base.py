"""What every game in the registry provides.

A game is data plus functions: how to load and check its card database, how
to compile it into the engine's tables, and how to summarise it for
`balance validate`. Later stages (simulate, log columns, trace) join here as
each game gains them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..errors import Problem, did_you_mean
from ..yamlio import YamlDoc


class ScenarioView(Protocol):
    """What a game reads of a scenario (balance.scenario.Scenario is one): the
    engine is handed it and imports nothing above games/, so the scenario may
    import the games' registry without a circle."""

    model: Any  # the scenario's fields (players, bots, seed, seat_rotation, bot_profiles, bonus_card, ...)
    doc: YamlDoc  # the scenario file, for errors that point at a line
    cards_path: Path

    @property
    def bot_names(self) -> list[str]: ...

    @property
    def chunks(self) -> list[tuple[int, int]]: ...

    def database_doc(self) -> YamlDoc: ...


def unknown_bot_problems(scenario: ScenarioView, known: list[str]) -> list[Problem]:
    """One problem for each of the scenario's bots that no profile names."""
    where = ("bots",) if isinstance(scenario.model.bots, list) else ("bots", "pool")
    return [
        scenario.doc.problem(
            (*where, i), f"unknown bot {name!r}{did_you_mean(name, known)} (known: {', '.join(known)})"
        )
        for i, name in enumerate(scenario.bot_names)
        if name not in known
    ]


def studied_cards(catalog: dict[str, Any]) -> list[str] | None:
    """The card ids a report tabulates, from a manifest's `catalog`: those marked
    `studied` (Heat: the Garage upgrades, or every deck card without the Garage
    module), or for manifests without the flag (Horsepower) the Parts Deck
    (`group == "parts"`). None when there are none (every card seen counts)."""
    cards = catalog.get("cards", [])
    if any("studied" in c for c in cards):
        ids = [c["id"] for c in cards if c.get("studied")]
    else:
        ids = [c["id"] for c in cards if c.get("group") == "parts"]
    return ids or None


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    load_database: Callable[[str | Path], Any]  # path -> validated database; raises UserError
    compile: Callable[[Any], Any]  # database -> read-only tables for the engine
    summary: Callable[[Any], Summary]
    trace: Callable[[Any, int, int], str]  # (scenario, seed, game index) -> the game in words
    prepare: Callable[[Any], Any]  # scenario -> everything a chunk needs, validated (raises UserError)
    play_chunk: Callable[
        ..., dict[str, Any]
    ]  # (prepared, scenario, chunk, first, size, streams, after_turn) -> log tables
    catalog: Callable[[Any], dict[str, Any]]  # prepared -> the cards and Playbooks in play, for the manifest
    # the bots: profiles as data, a pydantic model; profiles(overrides, doc) -> name -> profile, the
    # built-in ones with a scenario's bot_profiles merged in (balance tune searches the model's values)
    profile_model: Any = None
    profiles: Callable[..., dict[str, Any]] | None = None
    database_file: str = "cards.yaml"  # what a scenario without `cards:` looks for, beside it or above
    # the database path of the cap on a game's length; a scenario's max_rounds: sets it where it counts rounds
    round_cap: str = "rules.max_rounds"
    # what `balance strength` can give one seat (scenario bonus_card), from a run's catalog: [{"id", "name",
    # "kind", "how", "more"?}], the items a designer tunes ("more": only with --all); None: no experiment
    strength_items: Callable[[dict[str, Any]], list[dict[str, str]]] | None = None
    # what a player drafts, from a run's catalog: the ids whose "win rate added when drafted" exists (sweep's
    # card:ID); None: nothing is drafted (Downforce deals its cards, Shuffle GP's come with the driver)
    drafted_items: Callable[[dict[str, Any]], list[str]] | None = None
    # how far each game of a chunk has got, (prepared, state) -> (G,) in 0..1 (1: over), for the progress
    # bar within a chunk: the games of a batch advance together, so finished games alone say little
    progress: Callable[[Any, Any], Any] | None = None


@dataclass(frozen=True)
class Summary:
    """What `balance validate` prints about a database."""

    piles: dict[str, int]  # headline counts, e.g. parts / starters / debris / playbooks
    by_type: dict[str, tuple[int, int]]  # type -> (distinct cards, copies)
    by_flag: dict[str, tuple[int, int]]  # flag -> (distinct cards, copies)
    warnings: tuple[Any, ...]  # errors.Problem
    flag_word: str = "flag"  # what by_flag's keys are called (Heat: tier)
