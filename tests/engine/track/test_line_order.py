"""engine/track/line_order.py: the lines to blame for an order that is not the race's
are the fewest whose moving puts the others back in order, each with the line it lies
beyond and where it belongs."""

from __future__ import annotations

from itertools import combinations, pairwise

from hypothesis import given
from hypothesis import strategies as st

from trackside.engine.track.line_order import line_order

LENGTH = 100.0


def _in_order(lines, progress):
    return all(progress[a] < progress[b] for a, b in pairwise(lines))


@given(
    st.lists(
        st.one_of(st.none(), st.floats(0, LENGTH)),
        min_size=4,
        max_size=4,
    )
)
def test_the_lines_blamed_are_the_fewest_that_leave_the_rest_in_order(progress):
    present = [k for k, p in enumerate(progress) if p is not None]
    order = line_order(progress, LENGTH)
    if order.ok:
        assert _in_order(present, progress)
        return
    if order.reversed:
        assert len(present) >= 3 and _in_order(present[::-1], progress)
        return
    moved = {m.line for m in order.misplaced}
    kept = [k for k in present if k not in moved]
    assert _in_order(kept, progress)
    for fewer in range(len(moved)):
        assert not any(
            _in_order([k for k in present if k not in m], progress)
            for m in combinations(present, fewer)
        )
    for m in order.misplaced:
        assert m.past in kept and m.line not in m.instead
        if m.after:
            assert m.past > m.line and progress[m.past] <= progress[m.line]
        else:
            assert m.past < m.line and progress[m.past] >= progress[m.line]
        before, after = m.slot
        assert before is None or (before in kept and before < m.line)
        assert after is None or (after in kept and after > m.line)
