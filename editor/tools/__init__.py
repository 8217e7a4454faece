"""Canvas tools, one module each; ``TOOLS`` lists them in toolbar order.

To add a tool: write ``editor/tools/<name>.py`` with a ``Tool`` subclass
(see ``base.py``) and list it in ``TOOLS``; the main window makes a toolbar
button and a shortcut for each. A tool works through the canvas and the
document it is given; it never imports a panel or the main window.
"""

from __future__ import annotations

from trackside.editor.tools.base import Tool, ToolEvent
from trackside.editor.tools.corners import CornerTool
from trackside.editor.tools.draw_space import DrawSpaceTool
from trackside.editor.tools.grid import GridTool
from trackside.editor.tools.lane_tool import LaneTool
from trackside.editor.tools.lines import BettingLineTool, FinishLineTool
from trackside.editor.tools.moves import MovesTool
from trackside.editor.tools.racing_line_tool import RacingLineTool
from trackside.editor.tools.select import SelectTool

TOOLS: list[type[Tool]] = [
    SelectTool,
    DrawSpaceTool,
    CornerTool,
    LaneTool,
    RacingLineTool,
    GridTool,
    BettingLineTool,
    FinishLineTool,
    MovesTool,
]


__all__ = ["TOOLS", "Tool", "ToolEvent"]
