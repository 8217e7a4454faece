"""Menu entries and right-click menus: the actions the main window puts in its menus.

Each module holds the actions of one subject (edits at a space, printing,
the clipboard and transforms, the background), is given the objects they
work on (document, scene, view, prompts) and opens the panels' dialogs
through the prompts. The main window places the actions in its menu bar.
Every entry, the main window's own too, is made by ``actions.make_action``.
A menu may import the panels, tools, canvas, widgets and document, never
play or the main window.
"""
