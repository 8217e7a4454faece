"""Guard against a PySide6 bug that kills the process on Python 3.11.

PySide6-Essentials 6.12.0 (measured here on CPython 3.11.7) drops one reference
to ``None`` on every call of a Qt method that returns nothing (``setPen``,
``drawRect``, ``translate``...). After a few thousand such calls ``None``'s
reference count reaches zero and CPython aborts with "none_dealloc". From
Python 3.12 on, ``None`` is immortal and the bug is harmless. Where the bug is
present, ``guard_none()`` gives ``None`` a reference count so large that it
behaves as immortal too, which is what 3.12 does.
"""
from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 48  # far more void calls than any session makes
_done = False


def void_calls_leak_none() -> bool:
    """True when a void Qt call loses a reference to None (the PySide6 6.12 bug)."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    from PySide6.QtGui import QColor

    colour = QColor()
    before = sys.getrefcount(None)
    for _ in range(16):
        colour.setAlpha(255)
    return sys.getrefcount(None) < before


def guard_none() -> None:
    """Make None effectively immortal when this Qt build leaks its references."""
    global _done
    if _done:
        return
    _done = True
    if void_calls_leak_none():
        # CPython < 3.12 keeps the count in the first field of every object.
        # The same builds also drop a reference to the bool a Python override returns
        # to Qt (QUndoCommand.mergeWith), so True and False get the reserve too.
        for obj in (None, True, False):
            ctypes.c_ssize_t.from_address(id(obj)).value += _RESERVE
