"""Invariants over thousands of random-bot games (issue 3 item 7).

Checked after every decision: no two cars on one space (R-MOVE-3); cars never
move back (R-MOVE-1/2: distance along the track never decreases, a lap counts
across the seam); every card is in exactly one place (R-SET-3, R-RACE-2/5:
hands, draw piles, face-up Speed-8 cards, the card being played, discards,
cards out of the game, Speed-8 cards not yet auctioned = the deck). After each
game: money adds up (R-SCORE-1: winnings = race payouts + bet payouts - auction
prices, seat by seat and in total) and the game's record replays to the same
result (through its YAML text for the hypothesis examples).
"""
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot, drive, race_of
from engine.game import COLOURS, Series, bet_payout_table, load_variant  # noqa: F401
