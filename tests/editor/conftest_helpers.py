"""Re-export of the pointer helpers for test modules (conftest is not importable)."""

from conftest import click, drag, view_point, wait_issues  # noqa: F401
