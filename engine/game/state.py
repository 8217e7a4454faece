"""The game state: set-up, whose decisions are due, legal options, applying one.

The state is a small set of lists; ``copy`` duplicates them shallowly, so bots
can search cheaply. The flow is a trampoline of step functions: each either
asks for decisions (sets ``_due`` and returns None) or returns the next step.
A step whose only legal option is one decision applies it without asking.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from trackside.engine.errors import InvalidInput
from trackside.engine.game.auction import AuctionSteps
from trackside.engine.game.board import Board
from trackside.engine.game.cards import COLOURS, Card
from trackside.engine.game.decisions import (
    Bet,
    Bid,
    Decision,
    IllegalDecision,
    Order,
    Path,
    PlayCard,
    Skip,
    SwapPower,
    Wild,
)
from trackside.engine.game.events import Event, Pending, Phase
from trackside.engine.game.setup import Deal, check_deal, shuffled_setup
from trackside.engine.game.steps import NOBODY, OFF, Next, Step
from trackside.engine.game.variants import Variant
from trackside.engine.track.model import Track


@dataclass(frozen=True)
class PlayerView:
    """What one seat may see: its own hand and bets, public facts.

    Other players' hands appear only as sizes and their bets only as
    counts until the game is over.
    """

    seat: int
    phase: Phase
    pending: Pending
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    face_up: tuple[tuple[int, ...], ...]
    positions: dict[str, str | None]
    finished: tuple[str, ...]
    owners: dict[str, int | None]
    powers: tuple[str | None, ...]
    held_powers: tuple[tuple[str, ...], ...]
    prices: tuple[int, ...]
    my_bets: tuple[str | None, ...]
    bets_made: tuple[int, ...]
    all_bets: tuple[tuple[str | None, ...], ...]  # every seat's bets, once the game is over
    turn: int | None
    log: tuple[Event, ...]


class Game(AuctionSteps):
    """One Downforce race under a variant on a board (see ``engine.game``).

    Its fields (``GameState``) are read-only for views, bots and records
    (change them only through ``apply``): ``hands``, ``piles``, ``pile``,
    ``face_up``, ``discard``, ``out`` hold card ids; ``pos``, ``occ``,
    ``laps``, ``finished`` the cars; ``owner``, ``held``, ``power``,
    ``prices`` the auction; ``lines`` and ``bets`` the betting (``bets`` is
    secret: use ``view``); ``turn`` the seat playing a card (None outside the
    race), ``card`` the card being resolved; ``deal`` the set-up used; ``log``.
    """

    __slots__ = ()

    # -- creation -------------------------------------------------------------
    @classmethod
    def new(
        cls,
        track: Track | Board,
        variant: Variant,
        players: int,
        seed: int = 0,
        deal: Deal | None = None,
        log: bool = True,
    ) -> Game:
        """A game after set-up (R-SET), waiting for its first decisions.

        ``track`` may be a prepared ``Board`` (share one across games). With
        ``deal`` the set-up shuffles are replaced by that deal; ``seed`` still
        drives later random steps (auction ties, private piles). With
        ``log=False`` the routine events (cards, moves, WILD colours) are not
        logged, for fast simulation; auctions, finishes, bets and the score
        sheet still are.
        """
        board = track if isinstance(track, Board) else Board.of(track, variant.use_finish)
        if not variant.min_players <= players <= variant.max_players:
            raise InvalidInput(
                f"variant {variant.name!r} is for {variant.min_players} to "
                f"{variant.max_players} players, not {players}",
                hint="choose another number of players or another variant",
            )
        if len(board.grid) != len(COLOURS):
            raise InvalidInput(
                f"track {board.track.name!r} has {len(board.grid)} start spaces; a game needs 6",
                hint="validate the track",
            )
        if variant.finish == "distance" and not board.geometry.wraps:
            raise InvalidInput(
                f"{variant.name!r} races lap after lap, but track "
                f"{board.track.name!r} is not a closed circuit",
                hint="choose a closed circuit (centerline closed: true)",
            )
        if board.use_finish != variant.use_finish:
            board = Board.of(board.track, variant.use_finish)
        deck = variant.deck
        if deal is None:
            setup = shuffled_setup(variant, deck, players, seed)
            deal, rng = setup.deal, setup.rng
        else:
            check_deal(deal, variant, deck, players)
            rng = random.Random(seed)
        n = players
        used = {c for h in deal.hands for c in h} | set(deal.pile)
        pos = [OFF] * len(COLOURS)
        for slot, colour in enumerate(deal.grid):  # R-SET-4
            pos[COLOURS.index(colour)] = board.grid[slot]
        game = cls(
            board=board,
            variant=variant,
            deck=deck,
            cards=deck.cards,
            players=players,
            seed=seed,
            deal=deal,
            rng=rng,
            _rng_shared=False,
            logging=log,
            step=Step.START,
            _due=[],
            _opts={},
            collected={},
            _pending=None,
            log=[],
            result=None,
            hands=[list(h) for h in deal.hands],
            piles=[[] for _ in range(n)],
            pile=list(deal.pile),
            face_up=[[] for _ in range(n)],
            discard=[],
            out=[c for c in range(deck.size) if c not in used],
            owner=[NOBODY] * len(COLOURS),
            pos=pos,
            occ=set(pos),
            laps=[0] * len(COLOURS),
            finished=[],
            retired=[False] * n,
            s8_queue=[COLOURS.index(c) for c in deal.speed8],
            pw_queue=list(deal.powers),
            car_up=NOBODY,
            power_up=None,
            set_aside=[],
            second_queue=[],
            held=[[] for _ in range(n)],
            power=[None] * n,
            prices=[[] for _ in range(n)],
            cunning_winner=NOBODY,
            turn=None,
            card=None,
            from_hand=True,
            cards_played=0,
            order=[],
            skipped=None,
            wild={},
            wild_rows=[],
            row_at=0,
            row_now=None,
            mover=NOBODY,
            move_start=OFF,
            move_n=0,
            bonus=False,
            move_choices={},
            lines=0,
            new_lines=0,
            bet_lines=[],
            bets=[[None] * n for _ in range(3)],
        )
        game._run(game._start)
        return game

    def copy(self, log: bool | None = None) -> Game:
        """An independent copy (shares the board, variant, deck and log events).

        ``log=False`` gives a copy that stops logging routine events (for bots
        that search); None keeps this game's setting."""
        # Copy-on-draw: both games share the random source until one draws from it.
        self._rng_shared = True
        return Game(
            board=self.board,
            variant=self.variant,
            deck=self.deck,
            cards=self.cards,
            players=self.players,
            seed=self.seed,
            deal=self.deal,
            rng=self.rng,
            _rng_shared=True,
            logging=self.logging if log is None else log,
            step=self.step,
            _due=list(self._due),
            _opts=dict(self._opts),
            collected=dict(self.collected),
            _pending=self._pending,
            log=list(self.log),
            result=self.result,
            hands=[list(h) for h in self.hands],
            piles=[list(p) for p in self.piles],
            pile=list(self.pile),
            face_up=[list(f) for f in self.face_up],
            discard=list(self.discard),
            out=list(self.out),
            owner=list(self.owner),
            pos=list(self.pos),
            occ=set(self.occ),
            laps=list(self.laps),
            finished=list(self.finished),
            retired=list(self.retired),
            s8_queue=list(self.s8_queue),
            pw_queue=list(self.pw_queue),
            car_up=self.car_up,
            power_up=self.power_up,
            set_aside=list(self.set_aside),
            second_queue=list(self.second_queue),
            held=[list(h) for h in self.held],
            power=list(self.power),
            prices=[list(p) for p in self.prices],
            cunning_winner=self.cunning_winner,
            turn=self.turn,
            card=self.card,
            from_hand=self.from_hand,
            cards_played=self.cards_played,
            order=list(self.order),
            skipped=self.skipped,
            wild=dict(self.wild),
            wild_rows=list(self.wild_rows),
            row_at=self.row_at,
            row_now=self.row_now,
            mover=self.mover,
            move_start=self.move_start,
            move_n=self.move_n,
            bonus=self.bonus,
            move_choices=self.move_choices,  # shared with the board's cache, never changed
            lines=self.lines,
            new_lines=self.new_lines,
            bet_lines=list(self.bet_lines),
            bets=[list(b) for b in self.bets],
        )

    # -- public queries -------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The phase: auction, power, race, bet or over."""
        return self.step.phase

    @property
    def over(self) -> bool:
        return self.step is Step.OVER

    def options(self, seat: int) -> list[Decision]:
        """The legal options of ``seat`` now (empty when nothing is due from it).

        Paths are offered one per distinct outcome; ``all_paths`` lists every
        concrete path, and any of them may be applied.
        """
        if seat in self.collected:
            return []
        return list(self._opts.get(seat, ()))

    def all_paths(self, seat: int) -> list[Path]:
        """Every concrete legal path for the pending move (R-MOVE-4), if any."""
        if self.step is not Step.PATH or seat not in self._due:
            return []
        start, n = self.move_start, self.move_n
        occ = self.occ - {start}
        car = COLOURS[self.mover]
        return [
            Path(seat, car, tuple(self.board.ids[i] for i in m.path))
            for m in self.board.graph.moves(start, n, occ)
        ]

    @property
    def pending(self) -> Pending:
        """What is asked now, with its context."""
        if self._pending is None:
            self._pending = self._describe()
        return self._pending

    def _describe(self) -> Pending:
        step = self.step
        kind = step.kind
        if step is Step.PATH and self.bonus:
            kind = "bonus"
        car = None
        if step is Step.BID and self.car_up != NOBODY:
            car = COLOURS[self.car_up]
        elif step is Step.PATH:
            car = COLOURS[self.mover]
        line = self.bet_lines[0] if step is Step.BET and self.bet_lines else None
        return Pending(
            kind,
            tuple(self.due()),
            car=car,
            power=self.power_up if step is Step.BID else None,
            card=self.card,
            spaces=self.move_n if step is Step.PATH else None,
            row=self.row_now if step is Step.PATH and not self.bonus else None,
            line=line,
            set_aside=tuple(COLOURS[c] for c, _ in self.set_aside) if step is Step.SECOND else (),
        )

    def card_of(self, card_id: int) -> Card:
        """The card with this id."""
        return self.cards[card_id]

    def position(self, colour: str) -> str | None:
        """The space id of a car, or None once it has finished."""
        i = self.pos[COLOURS.index(colour)]
        return None if i == OFF else self.board.ids[i]

    def owner_of(self, colour: str) -> int | None:
        """The seat owning a car, or None."""
        o = self.owner[COLOURS.index(colour)]
        return None if o == NOBODY else o

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand and bets; others' only as counts."""
        ids = self.board.ids
        return PlayerView(
            seat=seat,
            phase=self.phase,
            pending=self.pending,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            pile_sizes=tuple(len(p) for p in self.piles)
            if self.variant.hand_mode == "private"
            else (len(self.pile),),
            face_up=tuple(tuple(f) for f in self.face_up),
            positions={
                c: (None if self.pos[i] == OFF else ids[self.pos[i]]) for i, c in enumerate(COLOURS)
            },
            finished=tuple(COLOURS[c] for c in self.finished),
            owners={
                c: (None if self.owner[i] == NOBODY else self.owner[i])
                for i, c in enumerate(COLOURS)
            },
            powers=tuple(self.power),
            held_powers=tuple(tuple(h) for h in self.held),
            prices=tuple(sum(p for _, p in pr) for pr in self.prices),
            my_bets=self._my_bets(seat),
            bets_made=tuple(self.bet_lines_done()),
            all_bets=tuple(tuple(self._bet_name(b) for b in self.bets[k]) for k in range(3))
            if self.over
            else (),
            turn=self.turn,
            log=tuple(self.log),
        )

    def _my_bets(self, seat: int) -> tuple[str | None, ...]:
        """A seat's bets, the one it just chose among them while others still choose."""
        bets = [self._bet_name(self.bets[k][seat]) for k in range(3)]
        chosen = self.collected.get(seat)
        if isinstance(chosen, Bet) and self.bet_lines:
            bets[self.bet_lines[0]] = chosen.car
        return tuple(bets)

    def bet_lines_done(self) -> list[int]:
        """Betting lines (0-based) whose bet has been made."""
        return [k for k in range(3) if all(b is not None for b in self.bets[k])]

    # -- applying -------------------------------------------------------------
    def is_legal(self, decision: Decision) -> bool:
        """True when ``decision`` may be applied now."""
        try:
            self._check(decision)
        except IllegalDecision:
            return False
        return True

    def apply(self, decision: Decision) -> None:
        """Apply one decision; raises ``IllegalDecision`` if it is not legal now."""
        self._check(decision)
        self._pending = None
        self._run(lambda: self._take(decision))

    def _check(self, d: Decision) -> None:
        seat = d.player
        if self.step is Step.OVER:
            raise IllegalDecision("the game is over; no decision is due")
        if seat not in self._due or seat in self.collected:
            due = ", ".join(f"seat {p}" for p in self.due()) or "nobody"
            raise IllegalDecision(f"seat {seat} has no decision due now ({due} must decide)")
        kind = self.step.kind
        if d.type != kind:
            raise IllegalDecision(f"a {kind} decision is due from seat {seat}, not {d.type}")
        if not isinstance(d, Order) and d in self._opts.get(seat, ()):
            return
        if self._also_legal(d):
            return
        raise IllegalDecision(
            f"{d.type} {d.to_dict()} is not a legal option now",
            hint=f"legal: {self._short_options(seat)}",
        )

    def _short_options(self, seat: int) -> str:
        opts = self._opts.get(seat, [])
        text = ", ".join(
            str({k: v for k, v in o.to_dict().items() if k not in ("type", "player")})
            for o in opts[:6]
        )
        return text + (f" and {len(opts) - 6} more" if len(opts) > 6 else "")

    def _also_legal(self, d: Decision) -> bool:
        """Legal decisions not listed as options: a pass played with a card,
        any row order (Tricky), any concrete legal path."""
        if isinstance(d, Bid) and d.card is not None:
            if d.card not in self.hands[d.player]:
                return False
            if self.step is Step.BID and d.car not in (None, COLOURS[self.car_up]):
                return False
            colour = d.car if self.step is Step.SECOND else COLOURS[self.car_up]
            if self.step is Step.SECOND and COLOURS.index(colour) not in [
                c for c, _ in self.set_aside
            ]:
                return False
            return (
                self._bid_value(d.player, d.card, colour) is None
                and Bid(d.player, None) in self._opts[d.player]
            )
        if isinstance(d, Order):
            n = len(self.cards[self.card].rows)
            rows = d.rows if isinstance(d.rows, tuple) else ()
            return all(type(r) is int for r in rows) and sorted(rows) == list(range(n))
        if isinstance(d, Path):
            return (
                d.car == COLOURS[self.mover]
                and isinstance(d.path, tuple)
                and all(isinstance(s, str) for s in d.path)
                and self._path_legal(d.path)
            )
        return False

    def _path_legal(self, path: tuple[str, ...]) -> bool:
        """R-MOVE-4 checked directly on a concrete path."""
        index, graph = self.board.index, self.board.graph
        start, n = self.move_start, self.move_n
        if not path or len(path) > n or any(s not in index for s in path):
            return False
        occ = self.occ - {start}
        here = start
        for k, sid in enumerate(path):
            b = index[sid]
            if b not in graph.forward[here] or b in occ:
                return False
            if graph.beyond_finish[b] and not graph.beyond_finish[here]:
                return k == len(path) - 1  # R-FIN-1: a finishing step ends the move
            here = b
        return len(path) == n or not graph.free_forward(here, occ)

    def _take(self, d: Decision) -> Next:
        step = self.step
        if step.simultaneous:  # resolved once every seat asked has answered
            self.collected[d.player] = d
            if self.due():
                return None
            if step is Step.BID:
                return self._resolve_bids
            return self._resolve_keep if step is Step.KEEP else self._resolve_bet
        # Otherwise each step asks for its own kind of decision (checked by ``_check``).
        if isinstance(d, Path):
            return self._on_path(d)
        if isinstance(d, PlayCard):
            return self._on_card(d)
        if isinstance(d, Wild):
            return self._on_wild(d)
        if isinstance(d, Order):
            return self._on_order(d)
        if isinstance(d, Skip):
            return self._on_skip(d)
        if isinstance(d, Bid):
            return self._on_second(d)
        if isinstance(d, SwapPower):
            return self._on_swap(d)
        raise IllegalDecision(f"no step takes a {d.type} decision")

    def _run(self, first: Next) -> None:
        step = first
        while step is not None:
            step = step()
