"""The contract's standard descriptions of its inputs and outputs, in the contract's own words.

These strings are what ``harness lint --fix`` writes into configs, what the generated instructions
describe to each sub-agent, and what Copilot Studio fragments carry in ``inputType`` / ``outputType``.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["INPUT_DESCRIPTIONS", "OUTPUT_DESCRIPTIONS"]

INPUT_DESCRIPTIONS: Mapping[str, str] = {
    "scopedRequest": (
        "The specific request this agent should fulfil. The parent fills it with only the part of "
        "the user's message that belongs to this agent."
    ),
    "history": "The parent's conversation so far, for context only.",
}

OUTPUT_DESCRIPTIONS: Mapping[str, str] = {
    "answered": (
        "True when the user has already received the answer to the scoped request from this agent; "
        "false otherwise."
    ),
    "scopedRequest": "The request this agent worked on, echoed back exactly.",
    "interactionSummary": "A short summary of what this agent told the user.",
    "findings": "The answer to the scoped request, for the parent to relay to the user.",
    "openQuestions": (
        "Parts of the request this agent could not handle, and new requests that came up; "
        "an empty list when there are none."
    ),
}
