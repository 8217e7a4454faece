"""Fingerprints (engine.fingerprint): the same data gives the same one however it was
written; any change of a value gives another."""

from hypothesis import given
from hypothesis import strategies as st

from trackside.engine.fingerprint import fingerprint

numbers = st.integers(-(10**6), 10**6)


def test_key_order_and_number_spelling_do_not_count():
    assert fingerprint({"a": 1, "b": [2.0, (3, -0.0)]}) == fingerprint(
        {"b": [2, [3.0, 0]], "a": 1.0}
    )
    assert fingerprint({"a": 1}).startswith("sha256:") and len(fingerprint({})) == 7 + 64


@given(st.lists(numbers, min_size=1), st.integers(0, 100), numbers)
def test_any_changed_value_changes_the_fingerprint(values, where, new):
    k = where % len(values)
    changed = [*values]
    changed[k] = new
    same = changed == values
    assert (fingerprint({"v": values}) == fingerprint({"v": changed})) == same
