"""Play mode: full games on the open circuit in a board view inside the main window.

``install_play_mode(window)`` adds the Play menu (F5 starts a new game) and the
board view; ``PlayController`` routes the engine's decision requests to bots
or to the person at the screen; ``PlayView`` renders the game and collects a
person's clicks. The rules are the engine's (``engine.game``); nothing here
decides what is legal.
"""

from trackside.editor.play.mode import PlayMode, install_play_mode

__all__ = ["PlayMode", "install_play_mode"]
