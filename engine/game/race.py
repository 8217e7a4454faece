"""The race (R-RACE): turns, card resolution, moves (R-MOVE, R-FIN), powers in play
(R-POW) and the bets the lines open (R-BET)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from trackside.engine.game.cards import COLOURS
from trackside.engine.game.decisions import Bet, Decision, Order, Path, PlayCard, Skip, Wild
from trackside.engine.game.scoring import ScoringSteps
from trackside.engine.game.steps import (
    NOBODY,
    OFF,
    STEP_BET,
    STEP_CARD,
    STEP_ORDER,
    STEP_PATH,
    STEP_SKIP,
    STEP_WILD,
    Next,
    ordinal,
)

# Option lists depend only on small keys (seat, rows, colours): built once and
# shared by every game, as decisions are immutable.
OptionsKey = tuple[object, ...]
_OPTIONS: dict[OptionsKey, Sequence[Decision]] = {}


def _shared(key: OptionsKey, build: Callable[[], Sequence[Decision]]) -> Sequence[Decision]:
    options = _OPTIONS.get(key)
    if options is None:
        options = _OPTIONS[key] = build()
    return options


# PlayCard decisions by (seat, card id), shared like the option lists.
_PLAYS: dict[tuple[int, int], PlayCard] = {}


def _play(seat: int, card: int) -> PlayCard:
    play = _PLAYS.get((seat, card))
    if play is None:
        play = _PLAYS[(seat, card)] = PlayCard(seat, card)
    return play


def _bet_options(seat: int) -> Sequence[Decision]:
    """A bet on each car (R-BET-2)."""
    return _shared(("bet", seat), lambda: [Bet(seat, c) for c in COLOURS])


def first_seat(owner: Sequence[int], grid: Sequence[str]) -> int:
    """The seat that plays first: the pole car's owner, else the owner of the next car
    in grid order (R-RACE-1 and its ruling); seat 0 when no car has an owner."""
    for colour in grid:
        seat = owner[COLOURS.index(colour)]
        if seat != NOBODY:
            return seat
    return 0


class RaceSteps(ScoringSteps):
    """The steps of the race; they end in scoring, whose steps they extend."""

    __slots__ = ()

    # -- race (R-RACE) --------------------------------------------------------
    def _race_start(self) -> Next:
        first = first_seat(self.owner, self.deal.grid[: len(self.board.grid)])
        self._say("race", f"The race starts: {self._seat(first)} plays first", seat=first)
        return lambda: self._begin_turn(first)

    def _can_play(self, seat: int) -> bool:
        return not self.retired[seat] and bool(self.hands[seat] or self.face_up[seat])

    def _begin_turn(self, start: int) -> Next:
        # The board's use_finish is the variant's (Game.new sees to it), without a property call.
        if self.board.use_finish and len(self.finished) == len(COLOURS):
            return self._end_race
        players, retired, hands, face_up = self.players, self.retired, self.hands, self.face_up
        for k in range(players):  # R-RACE-5: skip empty hands
            seat = (start + k) % players
            if not retired[seat] and (hands[seat] or face_up[seat]):  # _can_play, inlined
                break
        else:
            return self._end_race  # R-RACE-6
        self.turn = seat
        plays = _PLAYS
        options: list[Decision] = [plays.get((seat, c)) or _play(seat, c) for c in self.hands[seat]]
        if self.face_up[seat]:
            options += [_play(seat, c) for c in self.face_up[seat]]
        return self._ask(STEP_CARD, {seat: options}, lambda: None)

    def _on_card(self, decision: PlayCard) -> Next:
        seat = decision.player
        self.from_hand = decision.card in self.hands[seat]
        if self.from_hand:
            self.hands[seat].remove(decision.card)
        else:
            self.face_up[seat].remove(decision.card)
        self.card = decision.card
        self.cards_played += 1
        card = self.cards[decision.card]
        if self.logging:
            self._say(
                "play", f"{self._seat(seat)} plays {card.label}", seat=seat, card=decision.card
            )
        self.row_order = list(range(len(card.rows)))
        self.skipped_row = None
        self.wild_cars = {}
        self.lines_just_crossed = 0
        power = self.power[seat]
        if power == "tricky" and len(card.rows) > 1:
            # Rows of finished cars move nothing: their place in the order cannot matter.
            dead = tuple(
                r
                for r, (c, _) in enumerate(card.rows)
                if c != "wild" and self.car_spaces[COLOURS.index(c)] == OFF
            )
            live = [r for r in self.row_order if r not in dead]
            options = _shared(
                ("order", seat, tuple(live), dead),
                lambda: [Order(seat, perm + dead) for perm in itertools.permutations(live)],
            )
            return self._ask(STEP_ORDER, {seat: options}, lambda: None)
        if power == "strategic":
            rows = len(self.row_order)
            options = _shared(
                ("skip", seat, rows), lambda: [Skip(seat, r) for r in (None, *range(rows))]
            )
            return self._ask(STEP_SKIP, {seat: options}, lambda: None)
        return self._ask_wild

    def _on_order(self, decision: Order) -> Next:
        self.row_order = list(decision.rows)
        if decision.rows != tuple(sorted(decision.rows)):
            self._say(
                "order",
                f"{self._seat(decision.player)} resolves the rows in the order "
                + ", ".join(str(r + 1) for r in decision.rows)
                + " (Tricky)",
                rows=list(decision.rows),
            )
        return self._ask_wild

    def _on_skip(self, decision: Skip) -> Next:
        if decision.row is not None:
            self.skipped_row = decision.row
            self.row_order.remove(decision.row)
            assert self.card is not None  # a card is being resolved
            colour, n = self.cards[self.card].rows[decision.row]
            label = "WILD" if colour == "wild" else colour
            self._say(
                "skip",
                f"{self._seat(decision.player)} skips the row {label} {n} (Strategic)",
                row=decision.row,
            )
        return self._ask_wild

    def _ask_wild(self) -> Next:
        seat, card_id = self.turn, self.card
        assert seat is not None and card_id is not None  # a card is being resolved
        card = self.cards[card_id]
        rows = [r for r in self.row_order if card.rows[r][0] == "wild"] if card.wild_rows else []
        if not rows:
            self.rows_started = 0
            return self._next_row
        on_card = {c for c, _ in card.rows}
        allowed = [c for c in COLOURS if self.power[seat] == "unpredictable" or c not in on_card]
        rows.sort()  # colours are named top to bottom
        k = len(rows)
        options = _shared(
            ("wild", seat, tuple(allowed), k),
            lambda: [Wild(seat, combo) for combo in itertools.permutations(allowed, k)],
        )
        self.wild_rows = rows
        return self._ask(STEP_WILD, {seat: options}, lambda: None)

    def _on_wild(self, decision: Wild) -> Next:
        rows = self.wild_rows
        self.wild_cars = {r: COLOURS.index(c) for r, c in zip(rows, decision.colours, strict=False)}
        if self.logging:
            self._say(
                "wild",
                f"{self._seat(decision.player)}'s WILD names {', '.join(decision.colours)}",
                seat=decision.player,
                colours=list(decision.colours),
            )
        self.rows_started = 0
        return self._next_row

    def _next_row(self) -> Next:
        if self.rows_started >= len(self.row_order):
            return self._end_card
        r = self.row_order[self.rows_started]
        self.rows_started += 1
        self.current_row = r
        seat, card_id = self.turn, self.card
        assert seat is not None and card_id is not None  # a card is being resolved
        colour, n = self.cards[card_id].rows[r]
        if colour == "wild":
            car = self.wild_cars[r]
        else:
            car = COLOURS.index(colour)
            # R-POW-AGG: the printed top row of the player's own car may go further.
            if r == 0 and self.owner[car] == seat and self.power[seat] == "aggressive":
                return self._start_move(car, n, False, self.variant.aggressive_bonus)
        return self._start_move(car, n, False)

    def _start_move(self, car: int, n: int, bonus: bool, extra: int = 0) -> Next:
        start = self.car_spaces[car]
        name = COLOURS[car]
        if start == OFF:
            if not bonus and self.logging:
                self._say("stay", f"The {name} car has finished: nothing moves", car=name)
            return self._next_row
        occupied = self.occupied
        occupied.discard(start)
        owner = self.owner[car]
        determined = not bonus and owner != NOBODY and self.power[owner] == "determined"
        keep = 0b1000 | (0b111 & ~self.lines_crossed)
        by_path, memo = self.board.memo_choices(start, n, occupied, keep, determined)
        if extra > 0:  # R-POW-AGG: the longer moves are offered too, when there are any
            longer, _ = self.board.memo_choices(start, n + extra, occupied, keep, determined)
            further = {p: m for p, m in longer.items() if len(p) > n}
            if further:
                by_path = {**by_path, **further}
                memo = {}  # the options of this mixed move are not shared
        occupied.add(start)
        if not by_path:
            if self.logging:
                self._say(
                    "stay",
                    f"The {name} car cannot move"
                    + (" its bonus step" if bonus else "")
                    + " (no free space ahead)",
                    car=name,
                )
            return self._next_row
        chooser = self.turn
        assert chooser is not None  # a card is being resolved
        if owner != NOBODY and self.power[owner] == "cunning":  # R-POW-CUN
            chooser = owner
        self.moving_car, self.move_start, self.move_spaces, self.bonus_step = car, start, n, bonus
        self.move_choices = by_path
        # Decisions are immutable: the option list is shared by every game on the board.
        options = memo.get((chooser, car))
        if options is None:
            options = memo[(chooser, car)] = [Path(chooser, name, path) for path in by_path]
        return self._ask(STEP_PATH, {chooser: options}, lambda: None)

    def _on_path(self, decision: Path) -> Next:
        board = self.board
        start = self.move_start
        move = self.move_choices.get(decision.path)
        if move is None:  # a concrete path chosen by a person
            move = board.outcome_of(
                start, tuple(board.index[s] for s in decision.path), self.move_spaces
            )
        path, finished, blocked, crossed, rect = move
        car = self.moving_car
        name = COLOURS[car]
        note = ""
        seat = self.turn
        if (
            seat is not None
            and self.power[seat] == "aggressive"
            and self.logging
            and self.move_limit() > self.move_spaces
        ):  # R-POW-AGG: say what the owner chose
            taken = len(path) > self.move_spaces
            note = " (Aggressive extra space)" if taken else " (Aggressive extra declined)"
        self.occupied.discard(start)
        if not board.use_finish:
            here = start
            for b in path:
                if (here, b) in board.wraps:
                    self.laps[car] += 1
                here = b
        if finished:  # R-FIN-1
            self.car_spaces[car] = OFF
            self.finished.append(car)
            place = len(self.finished)
            self._say(
                "finish",
                f"The {name} car moves {' -> '.join(decision.path)}{note} "
                f"and finishes {ordinal(place)}",
                car=name,
                path=list(decision.path),
                place=place,
                spaces=self.move_spaces,
            )
        else:
            self.car_spaces[car] = path[-1]
            self.occupied.add(path[-1])
            if self.logging:
                self._say(
                    "move",
                    f"The {name} car moves {' -> '.join(decision.path)}"
                    + (" (blocked)" if blocked else "")
                    + note
                    + (" (Determined bonus)" if self.bonus_step else ""),
                    car=name,
                    path=list(decision.path),
                    blocked=blocked,
                    bonus=self.bonus_step,
                    spaces=self.move_spaces,
                )
        crossed &= 0b111 & ~self.lines_crossed
        if crossed:
            self.lines_crossed |= crossed
            self.lines_just_crossed |= crossed
            for k in range(3):
                if crossed >> k & 1:
                    self._say(
                        "cross",
                        f"The {name} car is first across betting line {k + 1}",
                        car=name,
                        line=k,
                    )
        owner = self.owner[car]
        if (
            not self.bonus_step
            and not finished
            and not blocked
            and rect
            and owner != NOBODY
            and self.power[owner] == "determined"
            and self.variant.determined_bonus > 0
        ):  # R-POW-DET
            return self._start_move(car, self.variant.determined_bonus, True)
        self.bonus_step = False
        return self._next_row

    def move_limit(self) -> int:
        """The most spaces the pending move may take: its number, or more when the
        owner may take an Aggressive extra space (R-POW-AGG), which is then offered."""
        longest = self.move_spaces
        for p in self.move_choices:
            if len(p) > longest:
                longest = len(p)
        return longest

    def _end_card(self) -> Next:
        seat, card_id = self.turn, self.card
        assert seat is not None and card_id is not None  # a card was resolved
        self.discard.append(card_id)
        self.card = None
        self.bonus_step = False
        mode = self.variant.hand_mode
        if not self.from_hand:
            pass  # a face-up Speed-8 card is not replaced (R-VAR two players)
        elif mode == "common" and self.pile:
            self.hands[seat].append(self.pile.pop(0))
        elif mode == "private" and self.piles[seat]:
            self.hands[seat].append(self.piles[seat].pop(0))
        owners_done = {self.owner[c] for c in self.finished} if self.finished else set()
        for q in owners_done - {NOBODY}:  # R-RACE-5
            if self.retired[q]:
                continue
            cars = [c for c in range(6) if self.owner[c] == q]
            if cars and all(self.car_spaces[c] == OFF for c in cars):
                self.retired[q] = True
                self.discard.extend(self.hands[q] + self.piles[q] + self.face_up[q])
                self.hands[q], self.piles[q], self.face_up[q] = [], [], []
                self._say(
                    "retire",
                    f"{self._seat(q)}'s cars have all finished: the hand is discarded",
                    seat=q,
                )
        crossed = self.lines_just_crossed
        if self.variant.betting:  # R-BET-3: one bet per line, in line order
            self.lines_to_bet = [k for k in range(3) if crossed >> k & 1] if crossed else []
        self.lines_just_crossed = 0
        return self._next_bet

    def _next_bet(self) -> Next:
        if not self.lines_to_bet:
            player = self.turn
            assert player is not None  # bets come between turns of the race
            return lambda: self._begin_turn((player + 1) % self.players)
        k = self.lines_to_bet[0]
        options = {seat: _bet_options(seat) for seat in range(self.players)}
        self._say("bet-open", f"Bet {k + 1}: every player secretly chooses a car to win", line=k)
        return self._ask(STEP_BET, options, self._resolve_bet)

    def _resolve_bet(self) -> Next:
        k = self.lines_to_bet.pop(0)
        for seat, bet in self._collected(Bet):
            self.bets[k][seat] = COLOURS.index(bet.car)
        self.collected = {}
        self._say("bet", f"Bet {k + 1} is made (revealed at scoring)", line=k)
        return self._next_bet
