"""Copilot Studio's plan events over Direct Line: which activities tell what the bot is doing
rather than answer, and whether its plan, or a step of it, is still running.

Copilot Studio's generative orchestration announces its plan (``DynamicPlanReceived``), then
each step (``DynamicPlanStepTriggered``, ``DynamicPlanStepBindUpdate``,
``DynamicPlanStepFinished``, its ``value.stepId`` naming the step and ``value.taskDialogId`` the
component that runs it), then ``DynamicPlanFinished``. Between two steps, and between the last
step and the orchestrator's own summary, no step is open but the plan is: the turn's answer may
still come. The names are read from ``name``, else ``valueType``. They come from public
transcripts, not a documented contract: a bot that sends none is timed by its messages and
typing alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.detect.activities import PLAN_EVENT

__all__ = ["PlanSteps", "is_trace"]


def is_trace(activity: Mapping[str, Any]) -> bool:
    """Whether an activity tells what the bot is doing rather than answering: an ``event`` or a
    ``trace`` (Copilot Studio's plan events, a channel's diagnostics), other than this SDK's
    ``harness.plan`` event, which a served bot sends after the turn's messages."""
    return activity.get("type") in ("event", "trace") and activity.get("name") != PLAN_EVENT


class PlanSteps:
    """The events of one turn, and the plans and plan steps they opened that have not
    finished."""

    _RECEIVED = "DynamicPlanReceived"
    _TRIGGERED = "DynamicPlanStepTriggered"
    _FINISHED = "DynamicPlanStepFinished"
    _PLAN_FINISHED = "DynamicPlanFinished"

    def __init__(self) -> None:
        self.names: list[str] = []
        """Each kind of event received in the turn, once, in order."""
        self._steps: dict[str, tuple[str, str]] = {}  # step id -> (its component, a short name)
        self._plans: set[str] = set()  # the open plans' identifiers ("" for one without)

    @property
    def open(self) -> bool:
        """Whether a plan or a step has started and not finished."""
        return bool(self._steps or self._plans)

    def describe(self) -> str:
        """What is still running, for a message: ``plan step 'Payroll'``, or ``its plan`` between
        steps."""
        if not self._steps:
            return "its plan (DynamicPlanReceived without DynamicPlanFinished)"
        shown = ", ".join(f"'{name}'" for _, name in self._steps.values())
        return f"plan step{'s' if len(self._steps) > 1 else ''} {shown}"

    def observe(self, activity: Mapping[str, Any]) -> None:
        name = str(activity.get("name") or activity.get("valueType") or activity.get("type"))
        if name not in self.names:
            self.names.append(name)
        value = activity.get("value")
        value = value if isinstance(value, Mapping) else {}
        plan = value.get("planIdentifier") or value.get("planId") or ""
        plan = plan if isinstance(plan, str) else ""
        if name == self._RECEIVED:
            self._plans.add(plan)
        elif name == self._PLAN_FINISHED:
            if plan in self._plans and len(self._plans) > 1:
                self._plans.discard(plan)  # another plan is still running, and its steps
            else:
                self._plans.clear()  # the plan is over, whatever step ended unannounced
                self._steps.clear()
        elif name in (self._TRIGGERED, self._FINISHED):
            self._step(name, value)

    def _step(self, name: str, value: Mapping[str, Any]) -> None:
        dialog = value.get("taskDialogId")
        dialog = dialog if isinstance(dialog, str) else ""
        step = value.get("stepId")
        step = step if isinstance(step, str) and step else dialog
        if not step:
            return
        if name == self._TRIGGERED:
            self._steps[step] = (dialog, (dialog or step).rsplit(".", 1)[-1])
        elif step in self._steps:
            del self._steps[step]
        elif dialog:
            # Finished names its component but not the step id it was triggered with: the step
            # that component runs is over (the earliest, when it runs more than one).
            for key, (component, _) in self._steps.items():
                if component == dialog:
                    del self._steps[key]
                    break
