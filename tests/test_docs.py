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
