"""Public test doubles: scripted and function models, a fake sub-agent, transports and a driver.

The same doubles power the simulator and the pytest plugin, so a user's regression test and
``harness simulate`` judge a bot the same way::

    driver = ConversationDriver("samples/helpdesk/helpdesk.yaml")
    await driver.send("How many vacation days do I have left, and when is payday?",
                      expect=[("pto", "12 PTO days"), ("payroll", "Friday")])
    driver.assert_no_duplicates()
    driver.assert_each_request_answered_once()
    driver.assert_no_silent_leaks()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.models import FunctionModel, ScriptedModel
    from harness.testing._driver import ConversationDriver, fake_subagent, format_findings
    from harness.transport import InProcessTransport, MockTransport

__all__ = [
    "ConversationDriver",
    "FunctionModel",
    "InProcessTransport",
    "MockTransport",
    "ScriptedModel",
    "fake_subagent",
    "format_findings",
]


def __getattr__(name: str) -> Any:
    """Import the doubles on first use, so loading the pytest plugin does not load the runtime."""
    if name in ("ConversationDriver", "fake_subagent", "format_findings"):
        from harness.testing import _driver

        value = getattr(_driver, name)
    elif name in ("FunctionModel", "ScriptedModel"):
        from harness import models

        value = getattr(models, name)
    elif name in ("InProcessTransport", "MockTransport"):
        from harness import transport

        value = getattr(transport, name)
    else:
        raise AttributeError(f"module 'harness.testing' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
