"""Two variants compared, as ``trackside simulate --against`` prints them: one line per
figure with both values and the change, marked when it is within noise."""

from __future__ import annotations

from trackside.engine.balance.against import VariantComparison, only_in
from trackside.engine.balance.compare import MONEY, NOISE_LEGEND, NOISE_MARK, SHARE, Change
from trackside.engine.balance.hints import hints
from trackside.engine.balance.players import bots_named
from trackside.engine.text import plural
from trackside.engine.track.model import Track

NAME_WIDTH = 44


def comparison_text(comparison: VariantComparison, track: Track) -> str:
    """The figures of both variants side by side, then what each one's figures say."""
    a, b = comparison.before, comparison.after
    value_width = max(14, len(a.variant), len(b.variant))
    out = [
        f"{a.variant} against {b.variant} on {a.track}: {plural(a.games, 'game', spec=',')} "
        f"each with {a.players} players and {bots_named(a.bots)}, paired (game i of both "
        f"from seed {a.seed} + i, dealt alike as far as the rules allow)"
        + (" (cancelled)" if comparison.cancelled else ""),
        "",
        f"{'figure':<{NAME_WIDTH}} {a.variant:>{value_width}} {b.variant:>{value_width}}  change",
    ]
    for change in comparison.changes:
        out.append(
            f"{change.figure:<{NAME_WIDTH}} {_value(change.before, change.unit):>{value_width}} "
            f"{_value(change.after, change.unit):>{value_width}}  {_change(change)}"
        )
    out += ["", NOISE_LEGEND]
    names = {"a": a.variant, "b": b.variant}
    for side, groups in only_in(a, b).items():
        out.append(f"Only {names[side]} has these figures (not compared): {', '.join(groups)}.")
    for report in (a, b):
        out += ["", f"{report.variant}:"]
        out += [
            f"  {'!' if h.severity == 'warning' else '-'} {h.text}" for h in hints(report, track)
        ]
    return "\n".join(out)


def _value(value: float, unit: str) -> str:
    if unit == SHARE:
        return f"{100 * value:.1f}%"
    if unit == MONEY:
        return f"${value:.2f}M"
    return f"{value:.2f}"


def _change(change: Change) -> str:
    scale, suffix = (100, " points") if change.unit == SHARE else (1, "")
    text = f"{change.delta * scale:+.2f}{suffix}"
    return text if change.significant else f"{NOISE_MARK} {text}"
