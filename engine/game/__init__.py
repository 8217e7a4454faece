"""The Downforce rules engine: set-up, auction, powers, race, bets, scoring.

A game is a ``Game`` (``engine/game/game.py``) built from a track (or a shared
``Board``), a ``Variant`` and a number of players, set up from a seed or an
explicit ``Deal`` (R-SET). It then waits for decisions. Its public methods are
the whole contract:

- ``game.phase`` is the ``Phase`` (auction, power, race, bet, over), and
  ``game.over`` says whether the game has ended;
- ``game.due()`` lists the seats whose decision is due (several at once for
  the secret bids, power choices and bets);
- ``game.options(seat)`` lists that seat's legal decisions (plain, frozen
  dataclasses: ``Bid``, ``KeepPower``, ``SwapPower``, ``PlayCard``, ``Order``,
  ``Skip``, ``Wild``, ``Path``, ``Bet``);
- ``game.apply(decision)`` applies one, or raises ``IllegalDecision``;
  ``game.undo()`` takes the last one back exactly, random draws included, and
  ``game.history`` lists those applied;
- ``game.pending`` says what is asked (with the car, card, spaces, line);
- ``game.view(seat)`` is what that seat may see (others' hands and bets hidden),
  and ``game.determinized(seat, rng)`` the world as that seat may believe it
  (what it cannot see drawn again), for bots that search;
- ``game.copy()`` is cheap, for bots that try things;
- ``game.log`` is the list of human-readable ``Event`` lines so far, and
  ``game.state`` the typed ``GameState`` behind it all (read-only).

What the rules do lives in plain step functions over the state:
``auction.py`` (set-up, auction, powers), ``race.py`` (turns, cards, moves,
bets) and ``scoring.py`` (the end and the score sheet); ``hidden.py`` draws
determinized worlds, ``view.py`` builds what a seat sees.

A card play is split into steps: the card (``PlayCard``), the Tricky row order
(``Order``), the Strategic skip (``Skip``), the WILD colours (``Wild``), then a
``Path`` for each row whose car has several distinct outcomes, asked of the card
player or of the Cunning owner of the car (R-POW-CUN); a Determined bonus step
is one more ``Path`` (``pending.kind == "bonus"``). A step with a single legal
option is applied automatically and never asked. Paths are offered one per
distinct outcome; ``game.all_paths(seat)`` lists every concrete path, and any
legal path may be applied.

When ``game.over``, ``game.result`` is a ``Result`` with the ranking (finish
order), stalled cars, earnings, bet payouts, prices, scores by seat and the
winners. Every random step draws from the game's ``random.Random(seed)`` in a
fixed order, so a seed (or deal) plus the decisions replays a game.

Example: drive a game to the end by always taking the first legal option::

    from trackside.engine.track.model import load_track
    from trackside.engine.game import Board, Game, load_variant

    variant = load_variant("standard")
    board = Board.of(load_track("tracks/harbour-loop.yaml"), variant.use_finish)
    game = Game.new(board, variant, players=4, seed=7)
    while not game.over:
        for seat in game.due():
            game.apply(game.options(seat)[0])
    print(game.result.scores, game.result.winners)
    for event in game.log:
        print(event)

A world tour (a variant with ``series``) is a ``Series`` of games with the
same interface (``phase``, ``due``, ``options``, ``apply``, ``undo``,
``view``, ``determinized``, ``log``, ``over``, ``result``).
"""

from trackside.engine.game.board import Board
from trackside.engine.game.cards import (
    COLOURS,
    WILD,
    Card,
    Deck,
    bid_value,
    load_deck,
    lowest_price,
)
from trackside.engine.game.decisions import (
    DECISION_TYPES,
    Bet,
    Bid,
    Decision,
    IllegalDecision,
    KeepPower,
    Order,
    Path,
    PlayCard,
    Skip,
    SwapPower,
    Wild,
    decision_from_dict,
)
from trackside.engine.game.events import Event, Pending, Phase
from trackside.engine.game.game import Game
from trackside.engine.game.result import Result
from trackside.engine.game.series import Series, SeriesResult
from trackside.engine.game.setup import Deal
from trackside.engine.game.variants import (
    POWERS,
    Variant,
    bundled_variants,
    load_variant,
    variant_from_data,
    variant_path,
)
from trackside.engine.game.view import PlayerView

__all__ = [
    "COLOURS",
    "DECISION_TYPES",
    "POWERS",
    "WILD",
    "Bet",
    "Bid",
    "Board",
    "Card",
    "Deal",
    "Decision",
    "Deck",
    "Event",
    "Game",
    "IllegalDecision",
    "KeepPower",
    "Order",
    "Path",
    "Pending",
    "Phase",
    "PlayCard",
    "PlayerView",
    "Result",
    "Series",
    "SeriesResult",
    "Skip",
    "SwapPower",
    "Variant",
    "Wild",
    "bid_value",
    "bundled_variants",
    "decision_from_dict",
    "load_deck",
    "load_variant",
    "lowest_price",
    "variant_from_data",
    "variant_path",
]
