"""The shipped cards.yaml: the rulebook's counts (1.1) and what the first
draft promises (issue 2: Puzzle, Multiplayer and Expires cards, every word of
the vocabulary used)."""

from __future__ import annotations

from balance.games.horsepower import vocabulary as V


def test_counts_match_the_rulebook(database):
    assert database.counts() == {"parts": 77, "starters": 20, "debris": 18, "playbooks": 32}
    assert database.warnings == ()


def test_starters_are_one_per_player_for_four_players(database):
    starters = [c for c in database.cards if "S" in c.flags]
    assert sorted(c.id for c in starters) == sorted(database.rules.starting_deck)
    assert {c.count for c in starters} == {4}
    assert {c.name for c in starters} == {"Stock Engine", "Stock Frame", "Stock Wheels", "Starting Capital", "Cut-Off"}


def test_debris_is_inert_and_is_the_lap_card(database):
    debris = database.card(database.rules.debris_card)
    assert debris.type == "debris" and debris.flags == {"D"} and debris.effects == () and debris.count == 18


def test_rules_hold_every_rulebook_number(database):
    r = database.rules
    assert (r.track_length, r.laps, r.starting_coins, r.hand_size) == (50, 3, 3, 5)
    assert (r.auction_spaces, r.incinerator_spaces) == ([10, 20, 30, 40], [15, 35])
    assert (r.purchase_cost, r.refresh_cost, r.showroom_size) == (3, 1, 4)
    assert {n: (p.parts, p.playbooks) for n, p in r.draft_pool.items()} == {2: (10, 3), 3: (15, 4), 4: (20, 5)}
    assert (r.parts_drafted, r.playbooks_drafted, r.debris_per_lap, r.die_sides) == (5, 1, 1, 6)
    assert (r.pit_stop.draw, r.pit_stop.keep, r.multiplayer_min_players, r.min_drive) == (2, 1, 3, 0)
    assert r.type_limits.model_dump() == dict.fromkeys(V.PLAYABLE_TYPES, 1)


def test_parts_deck_mix(database):
    parts = [c for c in database.cards if c.group == "parts"]
    copies = {t: sum(c.count for c in parts if c.type == t) for t in V.PLAYABLE_TYPES}
    assert all(n >= 10 for n in copies.values()), copies
    puzzle = [c for c in parts if "P" in c.flags]
    assert sum(c.count for c in puzzle) >= 8 and len(puzzle) >= 4
    assert any("M" in c.flags for c in parts) and any("E" in c.flags for c in parts)


def test_every_expiring_card_has_a_lasting_effect(database):
    for card in database.cards:
        lasting = any(V.OPS[e.op].kind == "duration" for e in card.effects)
        assert lasting == ("E" in card.flags), card.id


def test_the_draft_uses_the_whole_vocabulary(database):
    effects = [e for c in database.cards for e in c.effects] + [e for p in database.playbooks for e in p.effects]
    assert {e.op for e in effects} == set(V.OPS)
    assert {e.params["target"] for e in effects if "target" in e.params} == set(V.TARGETS)
    assert {e.when for e in effects if e.when} == set(V.TRIGGERS)
    assert {e.params["per"] for e in effects if e.params.get("per")} == set(V.PER_COUNTERS)
    used = {k for e in effects if e.condition for k, v in e.condition.model_dump().items() if v is not None}
    assert used == set(V.CONDITIONS)


def test_playbooks_are_single_copies_with_triggers(database):
    assert all(p.count == 1 and p.effects for p in database.playbooks)
    assert all(e.when in V.TRIGGERS for p in database.playbooks for e in p.effects)
