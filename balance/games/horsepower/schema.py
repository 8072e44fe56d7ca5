"""The Horsepower card database: what `cards.yaml` may say, checked with
errors that point at the file and line.

`load_database(path)` is the entry point: YAML → structure (pydantic) →
effects (one model per op) → cross-references → a `Database` of plain,
frozen values plus warnings for numbers that differ from the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, create_model

from ...errors import Problem, did_you_mean, raise_first
from ...validation import ID_PATTERN, Strict, duplicate_ids, validate_model, validate_top
from ...yamlio import YamlDoc, load_yaml
from . import limits as LIM
from . import vocabulary as V
from .limits import MAX_COPIES

# The rulebook's numbers (1.1): counts that differ are warnings, not errors.
RULEBOOK_COUNTS = {"parts": 77, "starters": 20, "debris": 18, "playbooks": 32}

ID_LISTS = ("cards", "playbooks")  # list sections whose items errors name by id

NonNeg = Annotated[int, Field(ge=0)]
Pos = Annotated[int, Field(ge=1)]
Coins = Annotated[int, Field(ge=0, le=LIM.MAX_COINS)]  # limits.py says why each bound
CardType = Literal[V.CARD_TYPES]  # type: ignore[valid-type]
PlayableType = Literal[V.PLAYABLE_TYPES]  # type: ignore[valid-type]
Flag = Literal[tuple(V.FLAGS)]  # type: ignore[valid-type]
Trigger = Literal[V.TRIGGERS]  # type: ignore[valid-type]
CardId = Annotated[str, Field(pattern=ID_PATTERN)]


# --- rules -----------------------------------------------------------------


class DraftPool(Strict):
    parts: Annotated[int, Field(ge=0, le=LIM.MAX_DRAFT_PARTS)]
    playbooks: Annotated[int, Field(ge=0, le=LIM.MAX_DRAFT_PLAYBOOKS)]


class PitStop(Strict):
    draw: Annotated[int, Field(ge=1, le=LIM.MAX_PIT_DRAW)]
    keep: Annotated[int, Field(ge=1, le=LIM.MAX_PIT_DRAW)]


TypeLimit = Annotated[int, Field(ge=0, le=LIM.MAX_TYPE_LIMIT)]


class TypeLimits(Strict):
    engine: TypeLimit
    frame: TypeLimit
    wheels: TypeLimit
    utility: TypeLimit
    investment: TypeLimit


class Rules(Strict):
    track_length: Annotated[int, Field(ge=2, le=LIM.MAX_TRACK)]
    laps: Annotated[int, Field(ge=1, le=LIM.MAX_LAPS)]
    auction_spaces: Annotated[list[Pos], Field(max_length=LIM.MAX_TRACK)]  # on the track: _cross_checks
    incinerator_spaces: Annotated[list[Pos], Field(max_length=LIM.MAX_TRACK)]  # on the track: _cross_checks
    starting_coins: Coins
    hand_size: Annotated[int, Field(ge=1, le=LIM.MAX_HAND)]
    purchase_cost: Coins
    refresh_cost: Coins
    showroom_size: Annotated[int, Field(ge=1, le=LIM.MAX_SHOWROOM)]
    draft_pool: dict[int, DraftPool]
    parts_drafted: Annotated[int, Field(ge=0, le=LIM.MAX_PARTS_DRAFTED)]
    playbooks_drafted: Annotated[int, Field(ge=0, le=LIM.MAX_PLAYBOOKS_DRAFTED)]
    starting_deck: dict[str, Annotated[int, Field(ge=1, le=MAX_COPIES)]]
    type_limits: TypeLimits
    debris_card: str
    debris_per_lap: Annotated[int, Field(ge=0, le=MAX_COPIES)]
    die_sides: Annotated[int, Field(ge=2, le=LIM.MAX_DIE_SIDES)]
    dice_per_drive: Annotated[int, Field(ge=1, le=LIM.MAX_DICE)]
    min_drive: Annotated[int, Field(ge=0, le=LIM.MAX_MIN_DRIVE)]  # the floor of the Drive total (3.2.3, docs/rules.md)
    pit_stop: PitStop
    multiplayer_min_players: Annotated[int, Field(ge=1, le=LIM.MAX_PLAYERS)]
    max_rounds: Annotated[int, Field(ge=1, le=LIM.MAX_ROUNDS)]
    banana_blocked: Literal["next_free", "lost"]
    # Readings the rulebook leaves open (docs/rules.md); the defaults are ours.
    first_drafter: Literal["random", "first_player"] = "random"  # 2.3 vs 2.6: who is the draft's Player 1
    wiped_during_own_turn: Literal["this_turn", "next_turn"] = "this_turn"  # 3.2.3 vs 5.3
    debris_supply: Annotated[int, Field(ge=0, le=MAX_COPIES)] | Literal["unlimited"] | None = None  # None: the count
    # A design knob, not a rule of the rulebook (docs/rules.md): extra starting coins by seat (seat 0 plays
    # first), to compensate the turn order; a seat past the list gets none.
    seat_coins: Annotated[list[Coins], Field(max_length=LIM.MAX_PLAYERS)] = []
    # The same for the draft (docs/rules.md): extra starting coins by draft position (the first picker first),
    # to compensate the draft's order; a position past the list gets none.
    draft_coins: Annotated[list[Coins], Field(max_length=LIM.MAX_PLAYERS)] = []


# --- cards and playbooks (effects are checked per op, below) ----------------


class CardModel(Strict):
    id: CardId
    name: str
    type: CardType
    count: Annotated[int, Field(ge=0, le=MAX_COPIES)]
    flags: list[Flag] = []
    cost: Coins | None = None  # None: rules.purchase_cost
    effects: Annotated[list[dict[Any, Any]], Field(max_length=LIM.MAX_EFFECTS)]
    text: str


class PlaybookModel(Strict):
    id: CardId
    name: str
    count: Annotated[int, Field(ge=0, le=1)] = 1
    effects: Annotated[list[dict[Any, Any]], Field(max_length=LIM.MAX_EFFECTS)]
    text: str


class DatabaseModel(Strict):
    rules: dict[Any, Any]
    cards: Annotated[list[Any], Field(max_length=LIM.MAX_CARDS)]
    playbooks: Annotated[list[Any], Field(max_length=LIM.MAX_PLAYBOOKS)]


class Condition(Strict):
    played: list[PlayableType] | None = None
    leading: bool | None = None
    last: bool | None = None
    lap: Pos | list[Pos] | None = None  # at most rules.laps: _cross_checks
    min_coins: Coins | None = None
    min_puzzle_in_play: Annotated[int, Field(ge=0, le=LIM.MAX_HAND)] | None = None
    behind_leader: Annotated[int, Field(ge=0, le=LIM.MAX_TRACK * LIM.MAX_LAPS)] | None = None  # spaces of race progress


def _nonzero(value: int) -> int:
    if value == 0:
        raise ValueError("must not be 0")
    return value


def _field_annotation(spec: V.FieldSpec) -> Any:
    if spec.kind == "int":
        checks = [Field(ge=spec.ge, le=spec.le)]
        if spec.nonzero:
            checks.append(AfterValidator(_nonzero))
        return Annotated[int, *checks]
    return Literal[V.CHOICES[spec.kind]]  # type: ignore[valid-type]


def _op_model(op: V.OpSpec, on_playbook: bool) -> type[Strict]:
    fields: dict[str, Any] = {"op": (Literal[op.name], ...), "if_": (Condition | None, Field(None, alias="if"))}
    if on_playbook:
        fields["when"] = (Trigger, ...)
    for name, spec in op.fields.items():
        default = ... if spec.required else spec.default
        fields[name + "_"] = (_field_annotation(spec), Field(default, alias=name))
    suffix = "Playbook" if on_playbook else "Card"
    return create_model(f"{op.name.title().replace('_', '')}{suffix}Effect", __base__=Strict, **fields)


OP_MODELS = {(name, pb): _op_model(op, pb) for name, op in V.OPS.items() for pb in (False, True)}


# --- the validated database ---------------------------------------------------


@dataclass(frozen=True)
class Effect:
    op: str
    params: dict[str, Any]  # every field of the op, defaults filled in
    condition: Condition | None
    when: str | None  # Playbook trigger; None on cards (they resolve when played)


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    type: str
    count: int
    flags: frozenset[str]
    cost: int | None
    effects: tuple[Effect, ...]
    text: str

    @property
    def group(self) -> str:
        """starter, debris or parts: which pile of the rulebook's 1.1 it belongs to."""
        if "S" in self.flags:
            return "starter"
        if "D" in self.flags or self.type == "debris":
            return "debris"
        return "parts"


@dataclass(frozen=True)
class Playbook:
    id: str
    name: str
    count: int
    effects: tuple[Effect, ...]
    text: str


@dataclass(frozen=True)
class Database:
    source: str
    rules: Rules
    cards: tuple[Card, ...]
    playbooks: tuple[Playbook, ...]
    warnings: tuple[Problem, ...] = field(default=())

    def card(self, card_id: str) -> Card:
        return next(c for c in self.cards if c.id == card_id)

    def counts(self) -> dict[str, int]:
        """Copies per pile, as the rulebook counts them (1.1)."""
        out = {"parts": 0, "starters": 0, "debris": 0, "playbooks": sum(p.count for p in self.playbooks)}
        for card in self.cards:
            out[{"parts": "parts", "starter": "starters", "debris": "debris"}[card.group]] += card.count
        return out


def load_database(path: str | Path) -> Database:
    """Load and check a card database; raises UserError on the first mistake."""
    return validate_database(load_yaml(path))


def validate_database(doc: YamlDoc) -> Database:
    top, rules, problems, label = validate_top(doc, DatabaseModel, Rules, ID_LISTS, "a card")
    cards, playbooks = [], []
    for section, model, out in (("cards", CardModel, cards), ("playbooks", PlaybookModel, playbooks)):
        for i, raw in enumerate(getattr(top, section)):
            item, item_problems = validate_model(model, raw, doc, (section, i), label)
            problems += item_problems
            if item is None:
                continue
            effects, effect_problems = _effects(item, doc, (section, i), label, on_playbook=section == "playbooks")
            problems += effect_problems
            out.append((i, item, effects))
    raise_first(problems)
    problems += _cross_checks(rules, cards, playbooks, doc, label)
    raise_first(problems)
    db = Database(
        source=doc.source,
        rules=rules,
        cards=tuple(
            Card(c.id, c.name, c.type, c.count, frozenset(c.flags), c.cost, effects, c.text) for _, c, effects in cards
        ),
        playbooks=tuple(Playbook(p.id, p.name, p.count, effects, p.text) for _, p, effects in playbooks),
    )
    return Database(db.source, db.rules, db.cards, db.playbooks, tuple(_warnings(db, cards, doc, label)))


def _effects(item, doc: YamlDoc, where, label, on_playbook: bool) -> tuple[tuple[Effect, ...], list[Problem]]:
    effects, problems = [], []
    for j, raw in enumerate(item.effects):
        path = (*where, "effects", j)
        op_name = raw.get("op")
        if op_name is None:
            problems.append(doc.problem(path, "required field missing", label((*path, "op"))))
            continue
        if not isinstance(op_name, str) or op_name not in V.OPS:
            known = ", ".join(V.OPS)
            what = (
                f"unknown op {op_name!r}{did_you_mean(op_name, list(V.OPS))}"
                if isinstance(op_name, str)
                else f"expected an op, got {_kind(op_name)}"
            )
            problems.append(doc.problem((*path, "op"), f"{what} (known: {known})", label((*path, "op"))))
            continue
        if not on_playbook and "when" in raw:
            problems.append(
                doc.problem(
                    (*path, "when"),
                    "only Playbook effects have a trigger; a card resolves when played",
                    label((*path, "when")),
                )
            )
            continue
        model, model_problems = validate_model(OP_MODELS[op_name, on_playbook], raw, doc, path, label)
        problems += model_problems
        if model is None:
            continue
        spec = V.OPS[op_name]
        params = {name: getattr(model, name + "_") for name in spec.fields}
        when = getattr(model, "when", None)
        if on_playbook:
            problem = _trigger_problem(spec, when, params)
            if problem:
                problems.append(doc.problem((*path, "when"), problem, label((*path, "when"))))
        effects.append(Effect(op_name, params, model.if_, when))
    return tuple(effects), problems


def _kind(value: Any) -> str:
    """What a value that should have been a word is, in words."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _trigger_problem(spec: V.OpSpec, when: str, params: dict[str, Any]) -> str | None:
    allowed = V.TRIGGERS_BY_KIND[spec.kind]
    if not allowed:
        return f"op {spec.name!r} lasts until your next turn: only cards with the E flag may use it"
    if when not in allowed:
        return f"op {spec.name!r} is a {spec.kind}; on a Playbook it needs when: {' or '.join(allowed) if len(allowed) < 3 else 'any trigger but always'}"
    if spec.name == "scrap" and params["from"] == "this":
        return "a Playbook is never scrapped: use from: hand, garage or hand_or_garage"
    return None


def _cross_checks(rules: Rules, cards, playbooks, doc: YamlDoc, label) -> list[Problem]:
    ids = [
        ((section, i), item.id)
        for section, items in (("cards", cards), ("playbooks", playbooks))
        for i, item, _ in items
    ]
    problems = duplicate_ids(ids, doc, label)
    card_ids = {item.id for _, item, _ in cards}
    for card_id in rules.starting_deck:
        if card_id not in card_ids:
            hint = did_you_mean(card_id, sorted(card_ids))
            problems.append(doc.problem(("rules", "starting_deck", card_id), f"no card with id {card_id!r}{hint}"))
    if rules.debris_card not in card_ids:
        hint = did_you_mean(rules.debris_card, sorted(card_ids))
        problems.append(doc.problem(("rules", "debris_card"), f"no card with id {rules.debris_card!r}{hint}"))
    problems += _starting_deck_problems(rules, cards, doc)

    for name in ("auction_spaces", "incinerator_spaces"):
        for k, space in enumerate(getattr(rules, name)):
            if not 0 < space < rules.track_length:
                problems.append(
                    doc.problem(("rules", name, k), f"space {space} is off the track (1 to {rules.track_length - 1})")
                )
    shared = set(rules.auction_spaces) & set(rules.incinerator_spaces)
    if shared:
        problems.append(
            doc.problem(("rules", "incinerator_spaces"), f"space(s) {sorted(shared)} are also Auction spaces")
        )
    playbook_deck = sum(item.count for _, item, _ in playbooks)
    for players, pool in rules.draft_pool.items():
        path = ("rules", "draft_pool", players)
        if players < 2:
            problems.append(doc.problem(path, "a race needs at least 2 players"))
        elif players > LIM.MAX_PLAYERS:
            problems.append(doc.problem(path, f"a race has at most {LIM.MAX_PLAYERS} players, got {players}"))
        elif pool.parts < players * rules.parts_drafted:
            problems.append(
                doc.problem(path, f"{pool.parts} parts cannot give {players} players {rules.parts_drafted} each")
            )
        elif pool.playbooks < players * rules.playbooks_drafted:
            problems.append(
                doc.problem(
                    path, f"{pool.playbooks} Playbooks cannot give {players} players {rules.playbooks_drafted} each"
                )
            )
        elif pool.playbooks > playbook_deck:  # the draft draws them from the Playbook Deck (2.2)
            problems.append(
                doc.problem(
                    (*path, "playbooks"),
                    f"the draft reveals {pool.playbooks} Playbooks but the Playbook Deck holds {playbook_deck}",
                )
            )
    if rules.pit_stop.keep > rules.pit_stop.draw:
        problems.append(doc.problem(("rules", "pit_stop", "keep"), "cannot keep more Playbooks than drawn"))

    for section, items in (("cards", cards), ("playbooks", playbooks)):
        for i, item, effects in items:
            for j, effect in enumerate(effects):
                path = (section, i, "effects", j)
                if section == "cards" and V.OPS[effect.op].kind == "duration" and "E" not in item.flags:
                    problems.append(
                        doc.problem(
                            (*path, "op"),
                            f"op {effect.op!r} lasts until your next turn: the card needs the E flag",
                            label((*path, "op")),
                        )
                    )
                laps = effect.condition.lap if effect.condition else None
                for lap in [laps] if isinstance(laps, int) else laps or []:
                    if lap > rules.laps:
                        problems.append(
                            doc.problem(
                                (*path, "if", "lap"),
                                f"lap {lap} does not exist (the race has {rules.laps})",
                                label((*path, "if", "lap")),
                            )
                        )
    return problems


def _starting_deck_problems(rules: Rules, cards, doc: YamlDoc) -> list[Problem]:
    """2.4: each player's starting cards come out of the cards' copies (the rest
    stay in the supply), so a starting card must be a starter or Debris (a part's
    copies are all in the Parts Deck) with copies enough for the most players."""
    problems = []
    by_id = {item.id: item for _, item, _ in cards}
    most_players = max((n for n in rules.draft_pool if 2 <= n <= LIM.MAX_PLAYERS), default=0)  # others: reported
    for card_id, copies in rules.starting_deck.items():
        card, path = by_id.get(card_id), ("rules", "starting_deck", card_id)
        if card is None:  # reported as an unknown id
            continue
        count = card.count
        if card_id == rules.debris_card and rules.debris_supply is not None:
            count = MAX_COPIES if rules.debris_supply == "unlimited" else rules.debris_supply
        if "S" not in card.flags and "D" not in card.flags and card.type != "debris":
            problems.append(
                doc.problem(path, f"{card_id!r} is a part (in the Parts Deck): a starting card needs the S flag")
            )
        elif count < copies * most_players:
            problems.append(
                doc.problem(path, f"{count} copies of {card_id!r} cannot give {most_players} players {copies} each")
            )
    return problems


def _warnings(db: Database, cards, doc: YamlDoc, label) -> list[Problem]:
    warnings = []
    counts = db.counts()
    for pile, expected in RULEBOOK_COUNTS.items():
        if counts[pile] != expected:
            warnings.append(
                doc.problem(
                    (pile if pile == "playbooks" else "cards",),
                    f"{counts[pile]} {pile} (the rulebook has {expected})",
                    f"count of {pile}",
                )
            )
    for (i, _, _), card in zip(cards, db.cards, strict=True):
        path = ("cards", i)
        if card.type == "debris" and "D" not in card.flags:
            warnings.append(doc.problem((*path, "flags"), "a debris card without the D flag", label((*path, "flags"))))
        if "D" in card.flags and card.effects:
            warnings.append(
                doc.problem(
                    (*path, "effects"), "Debris cannot be played: its effects never fire", label((*path, "effects"))
                )
            )
        if "E" in card.flags and not any(V.OPS[e.op].kind == "duration" for e in card.effects):
            warnings.append(
                doc.problem(
                    (*path, "flags"),
                    "E flag but no effect that lasts (shield, slow): it just sits in play",
                    label((*path, "flags")),
                )
            )
    for players in sorted(db.rules.draft_pool):
        deck, wanted = _parts_deck_size(db, players), db.rules.draft_pool[players].parts
        if deck < wanted:
            warnings.append(
                doc.problem(
                    ("rules", "draft_pool", players, "parts"),
                    f"the draft reveals {wanted} parts but the Parts Deck holds {deck} at {players} players:"
                    " players draft what there is",
                )
            )
    return warnings


def _parts_deck_size(db: Database, players: int) -> int:
    """Copies in the Parts Deck at this player count ((M) cards leave it below
    rules.multiplayer_min_players, 1.2), as compile.Tables.parts_deck counts them."""
    small = players < db.rules.multiplayer_min_players
    return sum(c.count for c in db.cards if c.group == "parts" and not (small and "M" in c.flags))
