"""The bot's tools: plain Python functions. The docstring is what the model reads."""

from __future__ import annotations

from subagents import Reply, ToolContext


def registration_dates() -> str:
    """When course registration opens and closes for next term."""
    return "Course registration opens on January 12 at 8 am and closes on January 30."


def library_hours() -> str:
    """The library's opening hours."""
    return "The library is open from 8 am to 10 pm on weekdays and from 10 am to 6 pm on weekends."


def change_room(ctx: ToolContext) -> Reply:
    """Change a dorm room: move to another residence hall (a short dialogue)."""
    if not ctx.state.get("asked"):
        ctx.state["asked"] = True
        return Reply(text="Sure. Which residence hall would you like to move to?", done=False)
    ctx.state.clear()
    return Reply(text=f"Your room change to {ctx.scoped_request} has been submitted.")
