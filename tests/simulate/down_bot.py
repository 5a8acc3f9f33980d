"""A bot double whose ``payroll`` agent's model cannot be reached
(``--bot tests.simulate.down_bot:make``): every call to it raises ``ModelRequestError``."""

from __future__ import annotations

from typing import Any

from harness import ChildAgent, FunctionModel, Parent
from harness.exceptions import ModelRequestError


async def _unreachable(request: Any) -> Any:
    raise ModelRequestError("cannot reach the model", attempts=3)


def make() -> Parent:
    payroll = ChildAgent(
        name="payroll",
        mode="silent",
        model=FunctionModel(_unreachable),
        description="Knows the payday dates and payslips.",
        examples=["when is payday", "when do i get paid"],
    )
    return Parent(name="office", subagents=[payroll], model="rules")
