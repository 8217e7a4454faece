"""The race (R-RACE): turns, card resolution, moves (R-MOVE, R-FIN), powers in play
(R-POW) and the bets the lines open (R-BET).

Plain step functions over the ``GameState``. ``start`` begins the race;
``on_card`` takes the card played, ``on_order``, ``on_skip`` and ``on_wild``
the Tricky, Strategic and WILD answers about it, ``on_path`` each car's path;
a secret bet is collected by ``Game.apply`` and ``resolve_bet`` records the
bets once every seat has made its own. The race ends in scoring
(``scoring.end_race``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from trackside.engine.game.cards import COLOURS
from trackside.engine.game.decisions import Bet, Decision, Order, Path, PlayCard, Skip, Wild
from trackside.engine.game.scoring import end_race
from trackside.engine.game.state import GameState, Next
from trackside.engine.game.steps import (
    NOBODY,
    OFF,
    STEP_BET,
    STEP_CARD,
    STEP_ORDER,
    STEP_PATH,
    STEP_SKIP,
    STEP_WILD,
)
from trackside.engine.text import ordinal
from trackside.engine.track.movement import Move

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


# -- turns (R-RACE) -------------------------------------------------------------
def start(state: GameState) -> Next:
    """The first turn goes to the owner of the car furthest up the grid (R-RACE-1)."""
    first = first_seat(state.owner, state.deal.grid[: len(state.board.grid)])
    state.say("race", f"The race starts: {state.seat_name(first)} plays first", seat=first)
    return lambda state: _begin_turn(state, first)


def _begin_turn(state: GameState, start: int) -> Next:
    # The board's use_finish is the variant's (Game.new sees to it), without a property call.
    if state.board.use_finish and len(state.finished) == len(COLOURS):
        return end_race
    players, retired, hands, face_up = state.players, state.retired, state.hands, state.face_up
    for k in range(players):  # R-RACE-5: skip empty hands
        seat = (start + k) % players
        if not retired[seat] and (hands[seat] or face_up[seat]):
            break
    else:
        return end_race  # R-RACE-6
    state.turn = seat
    state.ask(STEP_CARD, {seat: card_options(state, seat)})
    return None


def card_options(state: GameState, seat: int) -> list[Decision]:
    """The cards ``seat`` may play: its hand, then its face-up Speed-8 cards (R-RACE-2)."""
    plays = _PLAYS
    options: list[Decision] = [plays.get((seat, c)) or _play(seat, c) for c in state.hands[seat]]
    if state.face_up[seat]:
        options += [_play(seat, c) for c in state.face_up[seat]]
    return options


def on_card(state: GameState, decision: PlayCard) -> Next:
    """The card played (R-RACE-2): then the Tricky order or Strategic skip it allows."""
    seat = decision.player
    state.from_hand = decision.card in state.hands[seat]
    if state.from_hand:
        state.hands[seat].remove(decision.card)
    else:
        state.face_up[seat].remove(decision.card)
    state.card = decision.card
    state.cards_played += 1
    card = state.cards[decision.card]
    if state.logging:
        state.say(
            "play", f"{state.seat_name(seat)} plays {card.label}", seat=seat, card=decision.card
        )
    state.row_order = list(range(len(card.rows)))
    state.skipped_row = None
    state.wild_cars = {}
    state.lines_just_crossed = 0
    power = state.power[seat]
    if power == "tricky" and len(card.rows) > 1:
        # Rows of finished cars move nothing: their place in the order cannot matter.
        dead = tuple(
            r
            for r, (c, _) in enumerate(card.rows)
            if c != "wild" and state.car_spaces[COLOURS.index(c)] == OFF
        )
        live = [r for r in state.row_order if r not in dead]
        options = _shared(
            ("order", seat, tuple(live), dead),
            lambda: [Order(seat, perm + dead) for perm in itertools.permutations(live)],
        )
        state.ask(STEP_ORDER, {seat: options})
        return None
    if power == "strategic":
        rows = len(state.row_order)
        options = _shared(
            ("skip", seat, rows), lambda: [Skip(seat, r) for r in (None, *range(rows))]
        )
        state.ask(STEP_SKIP, {seat: options})
        return None
    return _ask_wild


def on_order(state: GameState, decision: Order) -> Next:
    """R-POW-TRI: the rows in the order chosen."""
    state.row_order = list(decision.rows)
    if decision.rows != tuple(sorted(decision.rows)):
        state.say(
            "order",
            f"{state.seat_name(decision.player)} resolves the rows in the order "
            + ", ".join(str(r + 1) for r in decision.rows)
            + " (Tricky)",
            rows=list(decision.rows),
        )
    return _ask_wild


def order_legal(state: GameState, decision: Order) -> bool:
    """Any order of the card's rows is legal (R-POW-TRI), listed or not."""
    if state.card is None:
        return False
    n = len(state.cards[state.card].rows)
    rows = decision.rows if isinstance(decision.rows, tuple) else ()
    return all(type(r) is int for r in rows) and sorted(rows) == list(range(n))


def on_skip(state: GameState, decision: Skip) -> Next:
    """R-POW-STR: the row skipped, if any."""
    if decision.row is not None:
        state.skipped_row = decision.row
        state.row_order.remove(decision.row)
        assert state.card is not None  # a card is being resolved
        colour, n = state.cards[state.card].rows[decision.row]
        label = "WILD" if colour == "wild" else colour
        state.say(
            "skip",
            f"{state.seat_name(decision.player)} skips the row {label} {n} (Strategic)",
            row=decision.row,
        )
    return _ask_wild


def _ask_wild(state: GameState) -> Next:
    seat, card_id = state.turn, state.card
    assert seat is not None and card_id is not None  # a card is being resolved
    card = state.cards[card_id]
    rows = [r for r in state.row_order if card.rows[r][0] == "wild"] if card.wild_rows else []
    if not rows:
        state.rows_started = 0
        return _next_row
    on_card = {c for c, _ in card.rows}
    allowed = [c for c in COLOURS if state.power[seat] == "unpredictable" or c not in on_card]
    rows.sort()  # colours are named top to bottom
    k = len(rows)
    options = _shared(
        ("wild", seat, tuple(allowed), k),
        lambda: [Wild(seat, combo) for combo in itertools.permutations(allowed, k)],
    )
    state.wild_rows = rows
    state.ask(STEP_WILD, {seat: options})
    return None


def on_wild(state: GameState, decision: Wild) -> Next:
    """R-RACE-4, R-POW-UNP: the cars the WILD rows move."""
    rows = state.wild_rows
    state.wild_cars = {r: COLOURS.index(c) for r, c in zip(rows, decision.colours, strict=False)}
    if state.logging:
        state.say(
            "wild",
            f"{state.seat_name(decision.player)}'s WILD names {', '.join(decision.colours)}",
            seat=decision.player,
            colours=list(decision.colours),
        )
    state.rows_started = 0
    return _next_row


def _next_row(state: GameState) -> Next:
    if state.rows_started >= len(state.row_order):
        return _end_card
    r = state.row_order[state.rows_started]
    state.rows_started += 1
    state.current_row = r
    seat, card_id = state.turn, state.card
    assert seat is not None and card_id is not None  # a card is being resolved
    colour, n = state.cards[card_id].rows[r]
    if colour == "wild":
        car = state.wild_cars[r]
    else:
        car = COLOURS.index(colour)
        # R-POW-AGG: the printed top row of the player's own car may go further.
        if r == 0 and state.owner[car] == seat and state.power[seat] == "aggressive":
            return _start_move(state, car, n, False, state.variant.aggressive_bonus)
    return _start_move(state, car, n, False)


# -- moves (R-MOVE, R-FIN) --------------------------------------------------------
def _start_move(state: GameState, car: int, n: int, bonus: bool, extra: int = 0) -> Next:
    start = state.car_spaces[car]
    name = COLOURS[car]
    if start == OFF:
        if not bonus and state.logging:
            state.say("stay", f"The {name} car has finished: nothing moves", car=name)
        return _next_row
    occupied = state.occupied
    occupied.discard(start)
    owner = state.owner[car]
    determined = not bonus and owner != NOBODY and state.power[owner] == "determined"
    keep = 0b1000 | (0b111 & ~state.lines_crossed)
    by_path, memo = state.board.memo_choices(start, n, occupied, keep, determined)
    if extra > 0:  # R-POW-AGG: the longer moves are offered too, when there are any
        longer, _ = state.board.memo_choices(start, n + extra, occupied, keep, determined)
        further = {p: m for p, m in longer.items() if len(p) > n}
        if further:
            by_path = {**by_path, **further}
            memo = {}  # the options of this mixed move are not shared
    occupied.add(start)
    if not by_path:
        if state.logging:
            state.say(
                "stay",
                f"The {name} car cannot move"
                + (" its bonus step" if bonus else "")
                + " (no free space ahead)",
                car=name,
            )
        return _next_row
    chooser = state.turn
    assert chooser is not None  # a card is being resolved
    if owner != NOBODY and state.power[owner] == "cunning":  # R-POW-CUN
        chooser = owner
    state.moving_car, state.move_start, state.move_spaces = car, start, n
    state.bonus_step = bonus
    state.move_choices = by_path
    # Decisions are immutable: the option list is shared by every game on the board.
    options = memo.get((chooser, car))
    if options is None:
        options = memo[(chooser, car)] = [Path(chooser, name, path) for path in by_path]
    state.ask(STEP_PATH, {chooser: options})
    return None


def move_limit(state: GameState) -> int:
    """The most spaces the pending move may take: its number, or more when the
    owner may take an Aggressive extra space (R-POW-AGG), which is then offered."""
    longest = state.move_spaces
    for p in state.move_choices:
        if len(p) > longest:
            longest = len(p)
    return longest


def all_paths(state: GameState, seat: int) -> list[Path]:
    """Every concrete legal path for the pending move (R-MOVE-4), if any."""
    if state.step is not STEP_PATH or seat not in state.due_seats:
        return []
    board = state.board
    start, n = state.move_start, state.move_spaces
    others = state.occupied - {start}
    car = COLOURS[state.moving_car]
    moves = board.graph.moves(start, n, others)
    limit = move_limit(state)
    if limit > n:  # R-POW-AGG: the moves that take the extra space too
        moves += [m for m in board.graph.moves(start, limit, others) if len(m.path) > n]
    return [Path(seat, car, tuple(board.ids[i] for i in m.path)) for m in moves]


def move_of(state: GameState, decision: Path) -> Move | None:
    """The move the path chosen makes: its option's, or for any other concrete
    path, ``path_move`` (None when the path is not legal)."""
    if decision.car != COLOURS[state.moving_car]:
        return None
    move = state.move_choices.get(decision.path)
    return move if move is not None else path_move(state, decision)


def path_move(state: GameState, decision: Path) -> Move | None:
    """The move of the car to move along the path given, all it does told
    (every line crossed, whether every space is rectangular), or None when the
    rules do not allow that path (R-MOVE-4, R-FIN-1)."""
    index = state.board.index
    if decision.car != COLOURS[state.moving_car] or not isinstance(decision.path, tuple):
        return None
    if not all(isinstance(s, str) and s in index for s in decision.path):
        return None
    path = tuple(index[s] for s in decision.path)
    graph, start, n = state.board.graph, state.move_start, state.move_spaces
    others = state.occupied - {start}
    move = graph.follow(start, path, n, others)
    limit = move_limit(state)
    if move is None and len(path) > n and limit > n:  # R-POW-AGG: the extra space taken
        move = graph.follow(start, path, limit, others)
    return move


def on_path(state: GameState, decision: Path) -> Next:
    """The car moves along the path chosen (R-MOVE-4, R-FIN-1), crossing lines
    (R-BET-1); a Determined owner's car may then take a bonus step (R-POW-DET)."""
    board = state.board
    start = state.move_start
    move = state.move_choices.get(decision.path) or path_move(state, decision)
    assert move is not None  # the path is legal (``Game.apply`` checked it)
    path, finished, blocked, crossed, rect = move
    car = state.moving_car
    name = COLOURS[car]
    note = ""
    seat = state.turn
    if (
        seat is not None
        and state.power[seat] == "aggressive"
        and state.logging
        and move_limit(state) > state.move_spaces
    ):  # R-POW-AGG: say what the owner chose
        taken = len(path) > state.move_spaces
        note = " (Aggressive extra space)" if taken else " (Aggressive extra declined)"
    state.occupied.discard(start)
    if not board.use_finish:
        here = start
        for b in path:
            if (here, b) in board.wraps:
                state.laps[car] += 1
            here = b
    if finished:  # R-FIN-1
        state.car_spaces[car] = OFF
        state.finished.append(car)
        place = len(state.finished)
        state.say(
            "finish",
            f"The {name} car moves {' -> '.join(decision.path)}{note} "
            f"and finishes {ordinal(place)}",
            car=name,
            path=list(decision.path),
            place=place,
            spaces=state.move_spaces,
        )
    else:
        state.car_spaces[car] = path[-1]
        state.occupied.add(path[-1])
        if state.logging:
            state.say(
                "move",
                f"The {name} car moves {' -> '.join(decision.path)}"
                + (" (blocked)" if blocked else "")
                + note
                + (" (Determined bonus)" if state.bonus_step else ""),
                car=name,
                path=list(decision.path),
                blocked=blocked,
                bonus=state.bonus_step,
                spaces=state.move_spaces,
            )
    crossed &= 0b111 & ~state.lines_crossed
    if crossed:
        state.lines_crossed |= crossed
        state.lines_just_crossed |= crossed
        for k in range(3):
            if crossed >> k & 1:
                state.say(
                    "cross",
                    f"The {name} car is first across betting line {k + 1}",
                    car=name,
                    line=k,
                )
    owner = state.owner[car]
    if (
        not state.bonus_step
        and not finished
        and not blocked
        and rect
        and owner != NOBODY
        and state.power[owner] == "determined"
        and state.variant.determined_bonus > 0
    ):  # R-POW-DET
        return _start_move(state, car, state.variant.determined_bonus, True)
    state.bonus_step = False
    return _next_row


# -- the end of a card, and the bets it opens (R-BET) ------------------------------
def _end_card(state: GameState) -> Next:
    seat, card_id = state.turn, state.card
    assert seat is not None and card_id is not None  # a card was resolved
    state.discard.append(card_id)
    state.card = None
    state.bonus_step = False
    mode = state.variant.hand_mode
    if not state.from_hand:
        pass  # a face-up Speed-8 card is not replaced (R-VAR two players)
    elif mode == "common" and state.pile:
        state.hands[seat].append(state.pile.pop(0))
    elif mode == "private" and state.piles[seat]:
        state.hands[seat].append(state.piles[seat].pop(0))
    owners_done = {state.owner[c] for c in state.finished} if state.finished else set()
    for q in owners_done - {NOBODY}:  # R-RACE-5
        if state.retired[q]:
            continue
        cars = [c for c in range(6) if state.owner[c] == q]
        if cars and all(state.car_spaces[c] == OFF for c in cars):
            state.retired[q] = True
            state.discard.extend(state.hands[q] + state.piles[q] + state.face_up[q])
            state.hands[q], state.piles[q], state.face_up[q] = [], [], []
            state.say(
                "retire",
                f"{state.seat_name(q)}'s cars have all finished: the hand is discarded",
                seat=q,
            )
    crossed = state.lines_just_crossed
    if state.variant.betting:  # R-BET-3: one bet per line, in line order
        state.lines_to_bet = [k for k in range(3) if crossed >> k & 1] if crossed else []
    state.lines_just_crossed = 0
    return _next_bet


def _next_bet(state: GameState) -> Next:
    if not state.lines_to_bet:
        player = state.turn
        assert player is not None  # bets come between turns of the race
        return lambda state: _begin_turn(state, (player + 1) % state.players)
    k = state.lines_to_bet[0]
    options = {seat: _bet_options(seat) for seat in range(state.players)}
    state.say("bet-open", f"Bet {k + 1}: every player secretly chooses a car to win", line=k)
    state.ask(STEP_BET, options)
    return None


def resolve_bet(state: GameState) -> Next:
    """R-BET-2/3: the secret bets on the line, kept until scoring."""
    k = state.lines_to_bet.pop(0)
    for seat, bet in state.collected_of(Bet):
        state.bets[k][seat] = COLOURS.index(bet.car)
    state.collected = {}
    state.say("bet", f"Bet {k + 1} is made (revealed at scoring)", line=k)
    return _next_bet
