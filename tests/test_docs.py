"""docs/cards.md documents every word the validator accepts, and names only
real cards as suspects."""

from __future__ import annotations

import re

from balance.games.horsepower import vocabulary as V

from .conftest import ROOT

DOC = (ROOT / "docs" / "cards.md").read_text()


def test_every_op_has_its_own_section():
    for op in V.OPS:
        assert f"#### `{op}` ({V.OPS[op].kind}" in DOC, op


def test_every_word_is_documented():
    words = [*V.TARGETS, *V.TRIGGERS, *V.PER_COUNTERS, *V.CONDITIONS, *V.FLAGS, *V.CARD_TYPES]
    for word in words:
        assert f"`{word}`" in DOC, word


def test_every_op_field_is_documented():
    for op in V.OPS.values():
        section = DOC.split(f"#### `{op.name}`")[1].split("####")[0]
        for field in op.fields:
            assert f"`{field}`" in section, (op.name, field)


def test_suspects_are_real_cards(database):
    suspects = DOC.split("### Suspects")[1]
    named = set(re.findall(r"^- `([a-z0-9_]+)`", suspects, flags=re.M))
    ids = {c.id for c in database.cards} | {p.id for p in database.playbooks}
    assert len(named) >= 6 and named <= ids


def test_every_heat_bot_field_and_profile_is_documented():
    from balance.games.heat.bots import Profile, builtin_profiles

    section = (ROOT / "docs" / "bots.md").read_text().split("## Heat bots")[1]
    header = next(line for line in section.splitlines() if line.startswith("| profile |"))
    for field in Profile.model_fields:
        if field not in ("legend", "draft"):  # the Legend flag and the draft weights have their own paragraphs
            assert f"| {field} |" in header, field
    rows = {line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ")}
    for name in builtin_profiles():
        assert name in rows or f"`{name}`" in section, name
    assert "**Garage draft**" in section and "`draft` weights" in section


def test_every_horsepower_bot_field_is_documented():
    from balance.games.horsepower.bots import Profile

    section = (ROOT / "docs" / "bots.md").read_text().split("## Profile fields")[1].split("\n## ")[0]
    for name, field in Profile.model_fields.items():
        if name == "weights":
            assert "`weights.drive`" in section
        else:
            assert f"| `{field.alias or name}` |" in section, name
