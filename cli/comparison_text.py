"""Two variants or two circuits compared, as ``trackside simulate --against`` prints
them: one line per figure with both values and the change, marked when it is within
noise."""

from __future__ import annotations

from trackside.engine.balance.against import VariantComparison, only_in
from trackside.engine.balance.compare import NOISE_LEGEND, change_words, figure_value
from trackside.engine.balance.hints import hints
from trackside.engine.balance.players import bots_named
from trackside.engine.balance.report import BalanceReport
from trackside.engine.balance.wording import BRACKETS, hints_text
from trackside.engine.text import plural
from trackside.engine.track.model import Track

NAME_WIDTH = 44


def comparison_text(comparison: VariantComparison, track: Track) -> str:
    """The figures of both variants side by side, the one compared with first, then
    what each one's figures say."""
    a, b = comparison.before, comparison.after
    out = [
        f"{b.variant} against {a.variant} on {a.track}: {plural(a.games, 'game', spec=',')} "
        f"each with {a.players} players and {bots_named(a.bots)}, paired (game i of both "
        f"from seed {a.seed} + i, dealt alike as far as the rules allow); "
        f"changes are from {a.variant} to {b.variant}"
        + (" (cancelled)" if comparison.cancelled else ""),
        "",
        *change_lines(comparison, (a.variant, b.variant)),
    ]
    names = {"a": a.variant, "b": b.variant}
    for side, groups in only_in(a, b).items():
        out.append(f"Only {names[side]} has these figures (not compared): {', '.join(groups)}.")
    out += hint_lines([(a.variant, a, track), (b.variant, b, track)])
    return "\n".join(out)


def circuits_text(comparison: VariantComparison, tracks: tuple[Track, Track]) -> str:
    """The figures of two circuits under one variant side by side (``tracks``: the one
    compared with first), in the table of two variants, then what each one's figures
    say of its own circuit."""
    a, b = comparison.before, comparison.after
    out = [
        f"{b.track} against {a.track} with {a.variant}: "
        f"{plural(a.games, 'game', spec=',')} each with {a.players} players and "
        f"{bots_named(a.bots)}, paired (game i of both from seed {a.seed} + i, dealt alike, "
        f"the same seats); changes are from {a.track} to {b.track}"
        + (" (cancelled)" if comparison.cancelled else ""),
        "",
        *change_lines(comparison, (a.track, b.track)),
    ]
    out += hint_lines([(a.track, a, tracks[0]), (b.track, b, tracks[1])])
    return "\n".join(out)


def change_lines(comparison: VariantComparison, names: tuple[str, str]) -> list[str]:
    """The table of every figure with both values (columns headed by ``names``) and the
    change, then the noise mark's legend."""
    value_width = max(14, *(len(name) for name in names))
    out = [f"{'figure':<{NAME_WIDTH}} {names[0]:>{value_width}} {names[1]:>{value_width}}  change"]
    for change in comparison.changes:
        was, now = (figure_value(v, change.unit) for v in (change.before, change.after))
        out.append(
            f"{change.figure:<{NAME_WIDTH}} {was:>{value_width}} {now:>{value_width}}  "
            f"{change_words(change)}"
        )
    rows = len(comparison.changes)
    return [
        *out,
        "",
        NOISE_LEGEND,
        f"In brackets after a change: its 95% interval. Each row but the balance is judged "
        f"on its own: when nothing changed, about 1 row in 20 ({plural(rows, 'row')} here: "
        f"about {rows / 20:.0f}) is still shown beyond noise by chance alone, so read one "
        "such row with care; the balance, and the hints below, judge the grid slots "
        "together (the hints the powers too).",
    ]


def hint_lines(named: list[tuple[str, BalanceReport, Track]]) -> list[str]:
    """What each report's figures say of its circuit, under its name."""
    out = ["", BRACKETS]
    for name, report, track in named:
        out += ["", f"{name}:"]
        out += hints_text(hints(report, track))
    return out
