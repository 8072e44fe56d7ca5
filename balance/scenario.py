"""Scenario files: what to simulate. Validated like card databases (one-line
`file:line: field: message` errors); `load_scenario` resolves the card
database path and the bot profiles.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from .errors import Problem, UserError, raise_first
from .limits import MAX_CHUNK_SIZE, MAX_GAMES, check_plan
from .seeding import chunk_plan
from .validation import NAME_PATTERN, Strict, validate_model
from .yamlio import YamlDoc, file_problem, load_yaml

DEFAULT_SEED = 1  # fixed, so that a run is reproducible unless asked otherwise


class BotPool(Strict):
    pool: list[str] = Field(min_length=1)  # each seat of each game draws its bot from these


# One profile per seat (a list) or a pool (a mapping): the input's shape picks the
# member, so a mistake inside a pool is reported as such, not as "expected a list"
# (the tags are in brackets so that error locations drop them, like union members').
Bots = Annotated[
    Annotated[list[str], Tag("[seats]")] | Annotated[BotPool, Tag("[pool]")],
    Discriminator(lambda v: "[pool]" if isinstance(v, dict | BotPool) else "[seats]"),
]


class Variant(Strict):
    """A design change to compare with the scenario as written (the baseline)."""

    name: str = Field(pattern=NAME_PATTERN)
    overrides: dict[str, Any] = {}  # added to the scenario's own overrides
    cards: str | None = None  # another card database, relative to the scenario file


class ScenarioModel(Strict):
    name: str = Field(pattern=NAME_PATTERN)
    game: str
    cards: str | None = None  # relative to the scenario file; None: the game's database file (cards.yaml) above it
    players: int = Field(ge=2, le=8)
    bots: Bots  # one profile per seat, or a pool to draw from
    seat_rotation: bool = True
    bot_profiles: dict[str, dict[str, Any]] = {}
    overrides: dict[str, Any] = {}  # dotted paths into the card database
    max_rounds: int | None = Field(default=None, ge=1)  # overrides rules.max_rounds
    games: int = Field(default=1000, ge=1, le=MAX_GAMES)
    seed: int = Field(default=DEFAULT_SEED, ge=0)
    # games simulated together: bigger is faster per game (docs/performance.md) and takes more memory
    chunk_size: int = Field(default=4096, ge=1, le=MAX_CHUNK_SIZE)
    variants: list[Variant] = []  # for balance compare
    # balance strength: one seat of each game (bonus_seat of seed and game id) starts with an extra copy
    bonus_card: str | None = None
    # Horsepower: a given Playbook is held instead of the one the seat drafted (a Playbook's worth against
    # the seat's own pick, as Downforce's powers and Shuffle GP's drivers are given), or as an extra one
    bonus_playbook: Literal["instead", "extra"] = "instead"


@dataclass(frozen=True)
class Scenario:
    source: str
    model: ScenarioModel
    cards_path: Path
    doc: YamlDoc
    cards_doc: YamlDoc | None = None  # the card database file, read once (workers on other machines cannot read it)
    # the chunks ([first game, games] each) of the run this scenario replays (a run's manifest);
    # None: the plan `balance run` makes of games and chunk_size
    plan: tuple[tuple[int, int], ...] | None = None

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def chunks(self) -> list[tuple[int, int]]:
        """(first game, number of games) of each chunk of the run."""
        return list(self.plan) if self.plan is not None else chunk_plan(self.model.games, self.model.chunk_size)

    @property
    def bot_names(self) -> list[str]:
        """The profiles a run uses: one per seat, or the pool."""
        bots = self.model.bots
        return list(bots.pool) if isinstance(bots, BotPool) else list(bots)

    def with_overrides(self, overrides: dict[str, Any], name: str, given: str = "--set") -> Scenario:
        """This scenario with more overrides of its card database (a swept or
        fitted value), under another name; the same seed, field and chunks.
        `given`: the option they came from, where a mistake in one is reported."""
        m = self.model
        model = m.model_copy(update={"overrides": dict(m.overrides) | overrides, "name": name})
        doc = replace(self.doc, given=self.doc.given | dict.fromkeys(overrides, given))
        return Scenario(self.source, model, self.cards_path, doc, self.cards_doc)

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


def variant_scenarios(scenario: Scenario) -> list[tuple[str, Scenario]]:
    """(name, scenario) for each variant: the baseline with the variant's cards
    and overrides, and the same seed, games and chunks (common random numbers)."""
    out = []
    folder = Path(scenario.source).resolve().parent
    seen: set[str] = set()
    for i, variant in enumerate(scenario.model.variants):
        where = ("variants", i)
        # each run goes to OUT/<name>: a variant named like the baseline, or like another, would overwrite it
        if variant.name.lower() == "baseline" or variant.name.lower() in seen:
            taken = "the baseline's" if variant.name.lower() == "baseline" else "another variant's"
            raise UserError(scenario.doc.problem((*where, "name"), f"{variant.name!r} is {taken} name; rename it"))
        seen.add(variant.name.lower())
        cards = scenario.cards_path
        if variant.cards is not None:
            cards = folder / variant.cards
            problem = _cards_problem(cards)
            if problem is not None:
                raise UserError(scenario.doc.problem((*where, "cards"), problem))
        overrides = dict(scenario.model.overrides) | dict(variant.overrides)
        model = scenario.model.model_copy(
            update={"name": f"{scenario.model.name}-{variant.name}", "overrides": overrides, "variants": []}
        )
        # the variant's override lines are reported where the variant wrote them
        doc = YamlDoc(
            scenario.doc.source,
            scenario.doc.data,
            dict(scenario.doc.lines),
            dict(scenario.doc.key_lines),
            given=dict(scenario.doc.given),
        )
        for path in variant.overrides:
            key = ("overrides", path)
            doc.key_lines[key] = scenario.doc.line_of((*where, "overrides", path)) or 0
            doc.lines[key] = doc.key_lines[key]
        out.append((variant.name, Scenario(scenario.source, model, cards, doc)))
    return out


def _cards_problem(cards: Path) -> str | None:
    """What is wrong with a scenario's `cards:` path, in words (None: nothing)."""
    problem = file_problem(cards)
    if problem is None:
        return None
    return f"no such file: {cards}" if problem == "no such file" else f"{cards} {problem}"


def find_cards(start: Path, name: str = "cards.yaml") -> Path | None:
    for folder in (start, *start.parents):
        if (folder / name).is_file():
            return folder / name
    return None


def _registered(game: str):
    """The registry's entry for this game, None for an unknown one (reported
    later, with the known ones listed)."""
    from .games import GAMES  # the registry imports the games, which import this module

    return GAMES.get(game)


def database_file(game: str) -> str:
    """The card database a scenario of this game uses when it names none."""
    entry = _registered(game)
    return entry.database_file if entry else "cards.yaml"


def scenario_model(doc: YamlDoc) -> ScenarioModel:
    """A scenario document validated (the first problem raised)."""
    if not isinstance(doc.data, dict):
        raise UserError(doc.problem((), "a scenario is a mapping with name, game, players, bots...", "file"))
    model, problems = validate_model(ScenarioModel, doc.data, doc)
    raise_first(problems)
    return model


def check_scenario(model: ScenarioModel, doc: YamlDoc) -> None:
    """What the model alone cannot check: one bot per seat, a bonus card only where the game has one."""
    try:
        check_plan(model.games, model.chunk_size, raise_what="chunk_size")
    except UserError as exc:
        raise UserError(doc.problem(("chunk_size",), exc.problem.message)) from None
    if isinstance(model.bots, list) and len(model.bots) != model.players:
        raise UserError(doc.problem(("bots",), f"{len(model.bots)} bots for {model.players} players (one per seat)"))
    entry = _registered(model.game)
    if model.max_rounds is not None and entry and entry.round_cap != "rules.max_rounds":
        raise UserError(
            doc.problem(
                ("max_rounds",),
                f"{entry.title} caps a race by turns, not rounds: write overrides: {{{entry.round_cap}: N}}",
            )
        )
    # the default is written into every run's manifest, whatever the game: only another reading is refused
    if model.bonus_playbook != "instead" and model.game != "horsepower":
        raise UserError(
            doc.problem(("bonus_playbook",), "bonus_playbook is Horsepower's (how a given Playbook is held)")
        )
    if model.bonus_card is not None and entry and entry.strength_items is None:
        raise UserError(doc.problem(("bonus_card",), f"balance strength is not available for {entry.title} yet"))


SHOWN_SCENARIOS = 40  # a missing scenario's message lists the folder's first this many


def missing_scenario(path: str | Path) -> Problem:
    """A scenario path that is not there: the closest file of its folder (or of
    ./scenarios) and the scenarios shipped there."""
    from .errors import did_you_mean

    path = Path(path)
    # the working folder holds card databases, not scenarios: only a named folder and ./scenarios are read
    folders = [f for f in dict.fromkeys([path.parent, Path("scenarios")]) if f != Path(".") and f.is_dir()]
    files = [str(f / p.name) for f in folders for p in sorted(f.glob("*.yaml"))]
    shown = ", ".join(Path(f).stem for f in files[:SHOWN_SCENARIOS]) if files else ""
    if len(files) > SHOWN_SCENARIOS:
        shown += f" (and {len(files) - SHOWN_SCENARIOS} more)"
    near = did_you_mean(str(path), files) or did_you_mean(path.name, [Path(f).name for f in files])
    listed = f"; scenarios in {', '.join(str(f) for f in folders)}: {shown}" if shown else ""
    return Problem(str(path), None, "file", f"no such file{near}{listed}")


def load_scenario(path: str | Path) -> Scenario:
    if not Path(path).exists() and not Path(path).is_symlink():
        raise UserError(missing_scenario(path))
    doc = load_yaml(path)
    model = scenario_model(doc)
    folder = Path(path).resolve().parent
    if model.cards is None:
        wanted = database_file(model.game)
        cards = find_cards(folder, wanted)
        if cards is None:
            raise UserError(
                doc.problem(("name",), f"no {wanted} found beside or above the scenario; set cards:", "cards")
            )
    else:
        cards = folder / model.cards
        problem = _cards_problem(cards)
        if problem is not None:
            raise UserError(doc.problem(("cards",), problem))
    check_scenario(model, doc)
    return Scenario(str(path), model, cards, doc)
