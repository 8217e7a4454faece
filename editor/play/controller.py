"""The play controller: routes the engine's decision requests to bots or people.

The engine decides what is legal and what happens; the controller only asks.
Each tick (a ``QTimer``, never a loop that blocks the UI) it looks at the
seats due: a bot's decision is computed on a copy of the game in a worker
thread and applied when it comes back; a person's decision is asked through
``asked`` (after ``handover`` when another person was looking at the screen)
and arrives through ``decide``. Bot turns are paced by ``bot_ms`` and can be
paused and stepped; car moves are announced through ``moved`` and the next
tick waits ``anim_ms`` per space so the board can animate them.

A person playing against bots may take back their own last decision
(``take_back``), with the bots' replies after it, while no other person has
decided since (``take_back_problem`` says why not otherwise).

A replay (``PlayController.replay``) applies a record's decisions one by one
with the same pacing, pause and step.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from trackside.editor.play.setup import GameSetup, current_game
from trackside.engine.game import Decision, Event, Game, Series

BotFn = Callable[[Game | Series, int], Decision]
SIMULTANEOUS = ("bid", "keep_power", "bet")


class _BotRelay(QObject):
    done = Signal(int, object)  # generation, decision or exception


class _BotJob(QRunnable):
    """One bot decision, computed on a copy so the live game is never shared."""

    def __init__(self, generation: int, bot: BotFn, game, seat: int, relay: _BotRelay):
        super().__init__()
        self.generation, self.bot, self.game, self.seat, self.relay = (
            generation,
            bot,
            game,
            seat,
            relay,
        )

    def run(self) -> None:
        try:
            result: object = self.bot(self.game, self.seat)
        except Exception as exc:  # reported on the UI thread, never lost
            result = exc
        # The game may have been closed while the bot thought: then nobody is waiting.
        with contextlib.suppress(RuntimeError):
            self.relay.done.emit(self.generation, result)


class PlayController(QObject):
    """Drives one game (or world tour, or replay) from the Qt event loop."""

    changed = Signal()  # the state changed: redraw
    asked = Signal(int)  # a person's decision is due from this seat (it is the viewer)
    handover = Signal(int)  # pass the screen to this seat before asking it
    logged = Signal(list)  # new engine events
    moved = Signal(str, list)  # car colour, space ids entered (animate)
    raceStarted = Signal(int)  # world tour: race k began
    finished = Signal()
    failed = Signal(str)  # a bot or record broke: the message
    tookBack = Signal()  # decisions were taken back: show the game again from its log

    def __init__(
        self,
        game: Game | Series,
        setup: GameSetup,
        bots: dict[int, BotFn],
        *,
        bot_ms: int = 600,
        anim_ms: int = 90,
        threaded: bool = True,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.game, self.setup, self.bots = game, setup, bots
        self.bot_ms, self.anim_ms, self.threaded = bot_ms, anim_ms, threaded
        self.decisions: list[Decision] = []
        self.viewer: int | None = self._only_person()
        self.waiting_for: int | None = None  # the person asked now
        self.handing_to: int | None = None
        self.paused = False
        self.held = False  # e.g. a tour's sheet between races
        # Why play stopped for good (a decision refused, a bot failed, a record cut
        # short): nothing steps or resumes after it.
        self.stopped: str | None = None
        self.script: list[Decision] | None = None  # a replay's decisions
        # Why a replay may stop, and what to do: files its record names changed since.
        self.script_cause: tuple[str, str] | None = None
        self._steps = 0  # single steps allowed while paused
        self._log_seen = len(game.log)
        self._race = self._race_index()
        self._generation = 0
        self._busy = False
        self._answered: tuple[int, object] | None = None  # a bot's answer while held
        self._done = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._tick)
        self._relay = _BotRelay(self)
        self._relay.done.connect(self._bot_done)

    @classmethod
    def replay(
        cls,
        game: Game | Series,
        setup: GameSetup,
        decisions: Sequence[Decision],
        *,
        bot_ms: int = 600,
        anim_ms: int = 90,
        parent: QObject | None = None,
        cause: tuple[str, str] | None = None,
    ) -> PlayController:
        """A controller that watches a record: its decisions are applied one per step.
        ``cause`` (why the record may not replay, and the fix) is told if it stops."""
        c = cls(game, setup, {}, bot_ms=bot_ms, anim_ms=anim_ms, threaded=False, parent=parent)
        c.script = list(decisions)
        c.script_cause = cause
        c.viewer = None
        c.paused = True  # watching starts still: Step, or Resume to run at bot speed
        return c

    # -- queries ----------------------------------------------------------------
    @property
    def race(self) -> Game:
        """The race being played (a tour's current race)."""
        return current_game(self.game)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def idle(self) -> bool:
        """Nothing runs or is scheduled: no bot thinks and no tick is due, so the game
        stays as it is until someone acts (paused, holding, asking, or over)."""
        return not self._busy and not self._timer.isActive()

    def persons(self) -> list[int]:
        return [s for s, seat in enumerate(self.setup.seats) if seat.is_person]

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.setup.seats[seat].name

    def describe(self, event: Event | str) -> str:
        """An engine log line with 'Player N' replaced by the seat's name."""
        return re.sub(r"Player (\d+)", lambda m: self._name_of(int(m.group(1)) - 1), str(event))

    def _name_of(self, seat: int) -> str:
        return (
            self.setup.seats[seat].name
            if 0 <= seat < len(self.setup.seats)
            else f"Player {seat + 1}"
        )

    def _only_person(self) -> int | None:
        """The person looking at the screen from the start: the only one, if one.
        With several, nobody yet: the first person asked gets a hand-over screen."""
        persons = self.persons()
        return persons[0] if len(persons) == 1 else None

    def _race_index(self) -> int:
        return self.game.race if isinstance(self.game, Series) else 0

    # -- control ------------------------------------------------------------------
    def start(self) -> None:
        """Begin (or continue) playing from the event loop."""
        self.changed.emit()
        self._schedule(0)

    def stop(self) -> None:
        """Stop for good (leaving play mode): no more ticks, late bot answers ignored."""
        self._timer.stop()
        self._generation += 1
        self._done = True
        if self._busy:
            QThreadPool.globalInstance().waitForDone(5000)
            self._busy = False

    def set_paused(self, paused: bool) -> None:
        """Pause or resume bots and replays (people may still decide); a game that
        stopped stays paused."""
        self.paused = paused or self.stopped is not None
        if not self.paused:
            self._schedule(0)

    def step(self) -> None:
        """While paused: let one bot decision (or one recorded decision) happen;
        nothing once play has stopped."""
        if self.stopped is not None:
            return
        self._steps += 1
        self._schedule(0)

    def hold(self, held: bool) -> None:
        """Hold everything (people too) while something else is on screen; a bot's
        answer that comes meanwhile is applied once released."""
        self.held = held
        if held:
            return
        answered, self._answered = self._answered, None
        if answered is not None and answered[0] == self._generation:
            self._bot_done(*answered)
        else:
            self._schedule(0)

    def set_speed(self, bot_ms: int) -> None:
        self.bot_ms = max(0, bot_ms)

    def accept_handover(self) -> None:
        """The person handed the screen to confirms they are looking: ask them."""
        seat = self.handing_to
        if seat is None:
            return
        self.handing_to = None
        self.viewer = seat
        self._ask(seat)

    def decide(self, decision: Decision) -> None:
        """A person's decision from the UI (raises ``IllegalDecision`` if illegal)."""
        if self.waiting_for is None or decision.player != self.waiting_for:
            raise ValueError(f"no decision is being asked of seat {decision.player}")
        self.game.apply(decision)
        self.waiting_for = None
        self.decisions.append(decision)
        self._after_apply()

    # -- taking back ------------------------------------------------------------------
    def take_back_problem(self) -> str | None:
        """Why the person at the screen cannot take back their last decision now,
        or None when they can."""
        if self.script is not None:
            return "A record being watched is not yours to take back: Play from here first"
        if self.stopped is not None:
            return "Play has stopped: the game cannot go on"
        if self.game.over:
            return "The game is over"
        seat = self.viewer
        if seat is None or seat in self.bots:
            return "Only a person takes back, their own last decision"
        count = self._since_own(seat)
        if isinstance(count, str):
            return count
        race = self.game.game if isinstance(self.game, Series) else self.game
        if count > len(race.history):
            return "Your last decision was in a race that is over"
        return None

    def _since_own(self, seat: int) -> int | str:
        """How many decisions to take back for ``seat``'s last one (it and the bots'
        after it), or why it cannot be taken back."""
        for count, decision in enumerate(reversed(self.decisions), 1):
            if decision.player == seat:
                return count
            if decision.player not in self.bots:
                return f"{self.name(decision.player)} has decided since your last decision"
        return f"{self.name(seat)} has made no decision to take back"

    def take_back(self) -> None:
        """Take back the last decision of the person at the screen and the bots'
        replies after it; that person is asked again (raises ``ValueError`` with
        ``take_back_problem`` when it cannot be done)."""
        problem = self.take_back_problem()
        if problem is not None:
            raise ValueError(problem)
        assert self.viewer is not None  # checked above
        count = self._since_own(self.viewer)
        assert isinstance(count, int)
        self._timer.stop()
        self._generation += 1  # a bot thinking now answers a position that is gone
        self._busy = False
        for _ in range(count):
            self.game.undo()
        del self.decisions[-count:]
        self.waiting_for = self.handing_to = None
        self._steps = 0
        self._log_seen = len(self.game.log)
        self._race = self._race_index()
        self.tookBack.emit()
        self.changed.emit()
        self._schedule(0)

    # -- the loop -------------------------------------------------------------------
    def _schedule(self, ms: int) -> None:
        if not self._done:
            self._timer.start(max(0, ms))

    def _tick(self) -> None:
        if (
            self._done
            or self._busy
            or self.held
            or self.waiting_for is not None
            or self.handing_to is not None
        ):
            return
        if self.game.over:
            self._finish()
            return
        if self.script is not None:
            self._replay_tick()
            return
        due = self.game.due()
        bots = [s for s in due if s in self.bots]
        people = [s for s in due if s not in self.bots]
        # Secret choices made at once: people choose first, so the screen that asks them
        # shows their cards at once instead of waiting for every bot to think.
        people_first = bool(people) and self.game.pending.kind in SIMULTANEOUS
        if bots and not people_first and self._may_run_bot():
            self._run_bot(bots[0])
            return
        if people:
            seat = self.viewer if self.viewer in people else people[0]
            if seat != self.viewer and len(self.persons()) > 1:
                self.handing_to = seat
                self.changed.emit()
                self.handover.emit(seat)
                return
            self.viewer = seat
            self._ask(seat)

    def _may_run_bot(self) -> bool:
        if not self.paused:
            return True
        if self._steps > 0:
            self._steps -= 1
            return True
        return False

    def _ask(self, seat: int) -> None:
        self.waiting_for = seat
        self.changed.emit()
        self.asked.emit(seat)

    def _run_bot(self, seat: int) -> None:
        bot = self.bots[seat]
        self._busy = True
        self._generation += 1
        if not self.threaded:
            try:
                result: object = bot(self._bot_world(seat), seat)
            except Exception as exc:
                result = exc
            self._bot_done(self._generation, result)
            return
        QThreadPool.globalInstance().start(
            _BotJob(self._generation, bot, self._bot_world(seat), seat, self._relay)
        )

    def _bot_world(self, seat: int) -> Game | Series:
        """The game as the bot's seat may believe it (``determinized``), for the bot
        to think on in its thread: a copy without the other hands, the cards to come
        or the secret choices others made this step (people choose their bids and
        bets before the bots do). Drawn from the game's seed and the decisions made,
        so the same game plays the same again."""
        rng = random.Random(f"{self.setup.seed}:{seat}:{len(self.decisions)}")
        return self.game.determinized(seat, rng)

    def _bot_done(self, generation: int, result: object) -> None:
        if generation != self._generation or self._done:
            return
        self._busy = False
        if self.held:  # thought out before the hold: the game stays as it is till released
            self._answered = (generation, result)
            return
        if isinstance(result, Exception):
            self._fail(
                f"the {self.name(self._due_bot())} bot failed: {type(result).__name__}: {result}"
            )
            return
        if not isinstance(result, Decision):
            self._fail(f"the {self.name(self._due_bot())} bot answered {result!r}")
            return
        if self._apply_given(result, "a bot chose an illegal decision"):
            self._after_apply(paced=result.type not in SIMULTANEOUS)

    def _due_bot(self) -> int | None:
        due = [s for s in self.game.due() if s in self.bots]
        return due[0] if due else None

    def _replay_tick(self) -> None:
        if not self._may_run_bot():
            return
        if not self.script:
            self._fail("the record ends before the game does")
            return
        refused = f"the record's decision {len(self.decisions) + 1} cannot be applied"
        if self._apply_given(self.script[0], refused):  # a refused one stays to come
            self.script.pop(0)
            self._after_apply(paced=True)

    def _apply_given(self, decision: Decision, refused: str) -> bool:
        """Apply a decision no person made here (a bot's, the record's): True when
        applied; one the game refuses stops play, saying ``refused`` and why."""
        try:
            self.game.apply(decision)
        except Exception as exc:
            self._fail(f"{refused}: {exc}")
            return False
        self.decisions.append(decision)
        return True

    def _after_apply(self, paced: bool = False) -> None:
        """Announce what happened, then schedule the next tick after the animation."""
        log = self.game.log
        new = log[self._log_seen :]
        self._log_seen = len(log)
        steps = 0
        race = self._race_index()
        if race != self._race:
            self._race = race
            self.raceStarted.emit(race)
        if new:
            self.logged.emit(list(new))
            for e in new:
                if e.kind in ("move", "finish") and e.data.get("path"):
                    steps += len(e.data["path"])
                    self.moved.emit(e.data["car"], list(e.data["path"]))
        self.changed.emit()
        delay = steps * self.anim_ms
        if paced:
            delay = max(delay, self.bot_ms)
        self._schedule(delay)

    def _finish(self) -> None:
        if not self._done:
            self._done = True
            self.changed.emit()
            self.finished.emit()

    def _fail(self, message: str) -> None:
        if self.script is not None and self.script_cause is not None:
            why, fix = self.script_cause
            message = f"{why}, and {message}. To watch it to the end, {fix}."
        self._busy = False
        self.paused = True
        self.stopped = message
        self.changed.emit()
        self.failed.emit(message)
