"""A small fixed helpdesk: one sub-agent per mode, both kinds, with and without history."""

from __future__ import annotations

from instructions import AgentView, IOView, ParentView

PTO = AgentView(
    name="pto",
    kind="child",
    mode="direct",
    description="Answers questions about paid time off: balances, requests and holidays.",
    instructions="You are the PTO specialist. Use the pto_balance tool for balances.",
    inputs=(IOView(name="scopedRequest"),),
    outputs=(IOView(name="answered"), IOView(name="interactionSummary")),
    examples=("How many vacation days do I have left?", "Is Monday a public holiday?"),
)

PAYROLL = AgentView(
    name="payroll",
    kind="connected",
    mode="silent",
    description="Answers payroll questions: paydays, pay stubs and direct deposit.",
    instructions="Look up pay dates with the payday tool.",
    inputs=(
        IOView(name="scopedRequest"),
        IOView(name="employeeId", description="The employee's id, when the user gave it."),
    ),
    outputs=(
        IOView(name="answered"),
        IOView(name="findings", description="Whatever the maker wrote here is replaced."),
        IOView(name="openQuestions"),
        IOView(name="payDate", description="The next payday as an ISO date."),
    ),
    receives_history=False,
    examples=("When is the next payday?",),
)

IT_TICKET = AgentView(
    name="it_ticket",
    kind="connected",
    mode="conversational",
    description="Opens IT support tickets and collects the details they need.",
    instructions="Ask for the device and the symptom before you open a ticket.",
    outputs=(
        IOView(name="answered"),
        IOView(name="scopedRequest"),
        IOView(name="interactionSummary"),
        IOView(name="openQuestions"),
    ),
)

HELPDESK = ParentView(
    name="helpdesk",
    instructions="You are the HR and IT helpdesk. Be brief and friendly.",
    subagents=(PTO, PAYROLL, IT_TICKET),
)
