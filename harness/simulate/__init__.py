"""The simulator: scenario conversations run against a bot, in process or deployed.

Scenarios (``harness.simulate.scenarios``) are run by ``harness.simulate.runner`` against a target
(``harness.simulate.targets``: a bot in this process, ``directline``, ``copilot_studio`` or
``endpoint``); their transcripts are checked and reported by :mod:`harness.detect`.
:func:`load_agent_modes` reads the sub-agents' modes from a bot's config, for checking a recorded
transcript of that bot.
"""

from harness.simulate.modes import load_agent_modes

__all__ = ["load_agent_modes"]
