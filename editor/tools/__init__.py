"""Canvas tools, one module each; ``TOOLS`` lists them in toolbar order.

To add a tool: write ``editor/tools/<name>.py`` with a ``Tool`` subclass
(see ``base.py``) and append it to ``TOOLS`` (or call ``register``); the
main window makes a toolbar button and a shortcut for each.
"""

from __future__ import annotations

from .base import Tool, ToolEvent
from .corners import CornerTool
from .draw_space import DrawSpaceTool
from .grid import GridTool
from .lines import BettingLineTool, FinishLineTool
from .moves import MovesTool
from .select import SelectTool

TOOLS: list[type[Tool]] = [
    SelectTool,
    DrawSpaceTool,
    CornerTool,
    GridTool,
    BettingLineTool,
    FinishLineTool,
    MovesTool,
]


def register(tool: type[Tool], after: str | None = None) -> None:
    """Add a tool class to the toolbar, after the tool named ``after`` (else at the end).

    A tool with the same ``name`` as one already listed replaces it, so a module
    can supersede a built-in tool (the toolbar keeps one button per name).
    """
    if tool in TOOLS:
        return
    for k, existing in enumerate(TOOLS):
        if existing.name == tool.name:
            del TOOLS[k]
            break
    names = [t.name for t in TOOLS]
    TOOLS.insert(names.index(after) + 1 if after in names else len(TOOLS), tool)


__all__ = ["TOOLS", "Tool", "ToolEvent", "register"]
