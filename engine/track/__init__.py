"""A circuit: its model (``model``), derived geometry, validation, lane builder, movement.

These modules answer questions about one track; the game (``engine.game``)
and the bots build on them and never the other way round.
"""
