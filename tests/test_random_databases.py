"""Property: any database built from the vocabulary loads and compiles, and
the compiled effect table says back exactly what the YAML said."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.games.horsepower import vocabulary as V
from balance.games.horsepower.compile import NONE, compile_database
from balance.games.horsepower.schema import load_database

RULES = yaml.safe_load((__import__("pathlib").Path(__file__).parents[1] / "cards.yaml").read_text())["rules"]
# the shipped Debris supply setting (unlimited) would set the Debris card's count: here counts compile as
# written (rules.debris_supply has its own tests, tests/test_horsepower_audit.py)
RULES.pop("debris_supply", None)


def field_value(spec: V.FieldSpec):
    if spec.kind != "int":
        return st.sampled_from(V.CHOICES[spec.kind])
    lo = spec.ge if spec.ge is not None else -5
    hi = spec.le if spec.le is not None else 9
    ints = st.integers(lo, hi)
    return ints.filter(lambda v: v != 0) if spec.nonzero else ints


conditions = st.fixed_dictionaries(
    {},
    optional={
        "played": st.lists(st.sampled_from(V.PLAYABLE_TYPES), min_size=1, max_size=3, unique=True),
        "leading": st.booleans(),
        "last": st.booleans(),
        "lap": st.one_of(st.integers(1, 3), st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True)),
        "min_coins": st.integers(0, 9),
        "min_puzzle_in_play": st.integers(0, 4),
        "behind_leader": st.integers(0, 40),
    },
)


@st.composite
def effects(draw, on_playbook: bool, expires: bool = False):
    allowed = [
        name
        for name, op in V.OPS.items()
        if (V.TRIGGERS_BY_KIND[op.kind] if on_playbook else op.kind != "duration" or expires)
    ]
    name = draw(st.sampled_from(allowed))
    spec = V.OPS[name]
    effect = {"op": name}
    for field_name, field_spec in spec.fields.items():
        if field_spec.required or draw(st.booleans()):
            effect[field_name] = draw(field_value(field_spec))
    if on_playbook:
        effect["when"] = draw(st.sampled_from(V.TRIGGERS_BY_KIND[spec.kind]))
        if name == "scrap" and effect["from"] == "this":
            effect["from"] = "hand"
    if draw(st.booleans()):
        effect["if"] = draw(conditions)
    return effect


@st.composite
def databases(draw):
    ids = draw(st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True), min_size=8, max_size=30, unique=True))
    n_cards = draw(st.integers(6, len(ids) - 2))
    cards = []
    for i, card_id in enumerate(ids[:n_cards]):
        if i < 5:  # the starters the rules name
            card_type, flags = V.PLAYABLE_TYPES[i], ["S"]
        elif i == 5:
            card_type, flags = "debris", ["D"]
        else:
            card_type = draw(st.sampled_from(V.PLAYABLE_TYPES))
            flags = draw(st.lists(st.sampled_from("MEP"), unique=True))
        expires = "E" in flags
        card_effects = [] if card_type == "debris" else draw(st.lists(effects(False, expires), max_size=3))
        if expires and not any(V.OPS[e["op"]].kind == "duration" for e in card_effects):
            card_effects.append({"op": "shield"})
        cards.append(
            {
                "id": card_id,
                "name": card_id.title(),
                "type": card_type,
                "count": draw(st.integers(4, 6)),
                "flags": flags,
                "effects": card_effects,
                "text": "x",
            }
        )
    playbooks = [
        {"id": pid, "name": pid, "effects": draw(st.lists(effects(True), min_size=1, max_size=3)), "text": "y"}
        for pid in ids[n_cards:]
    ]
    rules = dict(RULES, starting_deck={c["id"]: 1 for c in cards[:5]}, debris_card=cards[5]["id"])
    rules["draft_pool"] = {2: {"parts": 10, "playbooks": 2}}
    return {"rules": rules, "cards": cards, "playbooks": playbooks}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=databases())
def test_random_valid_databases_load_and_compile(tmp_path, data):
    path = tmp_path / "random.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    db = load_database(path)
    tables = compile_database(db)

    everything = [(False, i, e) for i, c in enumerate(data["cards"]) for e in c["effects"]]
    everything += [(True, i, e) for i, p in enumerate(data["playbooks"]) for e in p["effects"]]
    assert len(tables.effects) == len(everything)
    for row, (is_playbook, owner, effect) in enumerate(everything):
        spec = V.OPS[effect["op"]]
        assert tables.effects.owner_is_playbook[row] == is_playbook
        assert tables.effects.owner[row] == owner
        assert V.OPS[list(V.OPS)[tables.effects.op[row]]] is spec
        expected_value = effect.get(spec.value, spec.fields[spec.value].default) if spec.value else 0
        assert tables.effects.value[row] == expected_value
        target = effect.get("target")
        assert tables.effects.target[row] == (NONE if target is None else V.TARGETS.index(target))
        when = effect.get("when")
        assert tables.effects.trigger[row] == (NONE if when is None else V.TRIGGERS.index(when))
        leading = effect.get("if", {}).get("leading")
        assert tables.effects.if_leading[row] == (NONE if leading is None else int(leading))
    assert tables.cards.count.tolist() == [c["count"] for c in data["cards"]]
