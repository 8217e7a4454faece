"""What moving a line or the start grid did, in a few words for the status bar: how
many spaces earlier or later a line now lies, or how far back or forward the grid,
counted as the balance lab counts them (the fewest steps of the car on the pole);
and what undoing such a move did."""

from __future__ import annotations

from dataclasses import replace

from trackside.editor.document.track_document import is_unset
from trackside.engine.balance.edits import pole_steps
from trackside.engine.text import plural
from trackside.engine.track.geometry import FINISH, LINE_NAMES, GeometryCache
from trackside.engine.track.model import Segment, Track
from trackside.engine.track.movement import FAR


def line_moved(after: Track, k: int, old: Segment) -> str:
    """Line ``k`` (0-2 betting, 3 finish) now as in ``after``, where it lay at ``old``
    before: "Finish line moved 3 spaces later: the pole is 41 steps from it"."""
    name = LINE_NAMES[k].capitalize()
    lines = [*after.betting_lines, after.finish_line]
    if is_unset(lines[k]):
        return f"{name} taken off the track"
    lines[k] = old
    before = replace(after, betting_lines=lines[:FINISH], finish_line=lines[FINISH])
    was, now = _pole_steps(before, after, k)
    verb = "placed" if is_unset(old) else "moved"
    if now is None:
        return f"{name} {verb}"
    far = f"the pole is {plural(now, 'step')} from it"
    if was is None or was == now:
        return f"{name} {verb}: {far}"
    way = "earlier" if now < was else "later"
    return f"{name} moved {plural(abs(now - was), 'space')} {way}: {far}"


def line_back(k: int, old: Segment) -> str:
    """Line ``k`` put back at ``old`` by an undo: "Undone: betting line 2 back where
    it was"."""
    where = "taken off again" if is_unset(old) else "back where it was"
    return f"Undone: {LINE_NAMES[k]} {where}"


def grid_back(old: list[str]) -> str:
    """The start grid put back at ``old`` by an undo."""
    return "Undone: start grid back where it was" if old else "Undone: start grid taken off again"


def grid_moved(after: Track, old: list[str]) -> str:
    """The start grid now as in ``after``, where it was ``old`` before: "Start grid
    moved 2 spaces back: the pole is 45 steps from the finish"."""
    was, now = _pole_steps(replace(after, start_grid=list(old)), after, FINISH)
    if now is None:
        return f"Start grid set: pole on {after.start_grid[0]}" if after.start_grid else ""
    far = f"the pole is {plural(now, 'step')} from the finish"
    if was is None or was == now:
        return f"Start grid set: {far}"
    way = "back" if now > was else "forward"
    return f"Start grid moved {plural(abs(now - was), 'space')} {way}: {far}"


def _pole_steps(before: Track, after: Track, k: int) -> tuple[int | None, int | None]:
    """The pole's fewest steps across line ``k`` before and after (None where it cannot
    be counted: no pole, no way across, or a circuit too unfinished to measure)."""
    cache = GeometryCache()  # the spaces are the same objects in both: measured once
    return _steps(before, k, cache), _steps(after, k, cache)


def _steps(track: Track, k: int, cache: GeometryCache) -> int | None:
    try:
        steps = pole_steps(track, cache)
    except Exception:  # a half-drawn or hostile circuit: the move is said without a count
        return None
    return steps[k] if steps and steps[k] < FAR else None
