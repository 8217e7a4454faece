"""Play mode: full games on the open circuit in a board view inside the main window.

``PlayMode(window)`` puts the board view beside the editing canvas and offers
the Play menu's actions (F5 starts a new game), which the main window places;
``PlayController`` routes the engine's decision requests to bots or to the
person at the screen; ``PlayView`` renders the game and collects a
person's clicks. The rules are the engine's (``engine.game``); nothing here
decides what is legal.
"""

from trackside.editor.play.mode import PlayMode

__all__ = ["PlayMode"]
