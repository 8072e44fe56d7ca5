"""The largest (and smallest) values a Horsepower database and bot profile may
hold: what a designer could want and the engine can play. Each limit names
the array or the loop it protects; docs/cards.md ("Limits") lists them.

The engine keeps its state narrow on purpose (docs/performance.md): card piles
in 8 bits, positions, coins and tallies in 16. A limit here keeps every value
the schema accepts, and every sum of them over a capped game, inside those types.
"""

from __future__ import annotations

# Players: seats are 8-bit and the targeting tables are built for 2 to 8 seats.
MAX_PLAYERS = 8

# Copies of one card in a game: the piles (deck, hand, garage...) are 8-bit (at
# most 127), and one player may hold every copy plus a strength bonus copy.
MAX_COPIES = 100

# Distinct cards and Playbooks: the (games, players, cards) piles grow with
# them, and a player's whole deck (at most MAX_CARDS x MAX_COPIES) is logged in 16 bits.
MAX_CARDS = 300
MAX_PLAYBOOKS = 200
MAX_EFFECTS = 10  # effects of one card or Playbook

# The track: positions are 16-bit, Bananas and the paths of moves are
# (games, track_length + 1) arrays; four times the rulebook's 50 spaces.
MAX_TRACK = 200
# Laps: the Pit Stop record is a 16-bit mask with one bit per lap completed
# before the last (so at most 15 of them), and every lap is a log column.
MAX_LAPS = 16
# Rounds: a game that cannot finish plays this many rounds before it is
# recorded unfinished (about a minute for a chunk of 2,048 four-player games);
# the whole track at the rulebook's pace (MAX_TRACK x MAX_LAPS at ~7.5 a turn)
# fits. Rounds and turns are 16-bit in the state and the logs.
MAX_ROUNDS = 500

# Coins: any number of coins the database names (starting coins, prices,
# coin effects, conditions). A purse is 16-bit: coins gained past
# COIN_CAP are lost (no game within these limits comes near).
MAX_COINS = 1000
COIN_CAP = 32_767

# Cards counted in a hand or an effect (hand size, draws, scraps, Debris given).
MAX_HAND = 30
MAX_SHOWROOM = 20  # Showroom slots: each refresh reveals them one by one

# The draft (2.2, 2.3): cards revealed are drawn one by one for the whole batch;
# the pick number is logged in 8 bits (MAX_PLAYERS x (parts + Playbooks drafted) <= 127).
MAX_DRAFT_PARTS = 200
MAX_DRAFT_PLAYBOOKS = 100
MAX_PARTS_DRAFTED = 10
MAX_PLAYBOOKS_DRAFTED = 5

# Dice (3.2.2): a die is rolled into a 16-bit array; d100 is the largest die sold.
MAX_DIE_SIDES = 100
MAX_DICE = 10
MAX_MIN_DRIVE = 20  # the floor of the Drive total (3.2.3, docs/rules.md)

# Play and shop limits of the engine (compiled/rules.py): after one play of each type the
# engine offers extra plays (extra_play) at most EXTRA_PLAY_ROUNDS times, and a
# bot makes at most SHOP_STEPS buys and refreshes a turn. A larger type limit,
# extra play or free refresh count would be accepted and never played.
MAX_TYPE_LIMIT = 1
EXTRA_PLAY_ROUNDS = 2
SHOP_STEPS = 8

MAX_PIT_DRAW = 10  # Playbooks drawn at a Pit Stop (6.2)

# Bot profiles: values are float32 sums of weight x feature; these keep every
# value finite and the yes/no bars meaningful.
MAX_WEIGHT = 100.0
MAX_BAR = 1000.0  # |buy_min|, |scrap_below|
