"""Subcommands of the ``trackside`` CLI, one module each."""
