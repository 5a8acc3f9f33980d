"""What the SDK's generated text adds to a maker's own, so that the linter can leave it out.

A routing description pasted from ``harness instructions --format copilot-studio`` ends with the
generated hint on how to read the agent's outputs ("It answers the user directly. If its answered
output is true, ..."), the same words for every agent of a mode. :func:`routing_text` keeps only
the maker's routing sentences: ``harness instructions`` writes them back into a starter config,
and HC013 compares them (the shared hint would make every pair of pasted descriptions look alike).
"""

from __future__ import annotations

from functools import cache

from harness.lint import phrases
from harness.text import split_sentences
from instructions import (
    AgentView,
    IOView,
    ParentView,
    render_subagent_description,
    render_subagent_instructions,
    render_top_level_instruction,
)
from instructions.contract import MODES, OPEN_QUESTIONS

__all__ = ["generated_first_lines", "routing_text"]


@cache
def _generated() -> tuple[frozenset[str], frozenset[str]]:
    firsts = {
        render_top_level_instruction(ParentView(name="p")).splitlines()[0].strip(),
        render_subagent_instructions(
            AgentView(name="a", kind="child", mode="direct", description="")
        )
        .splitlines()[0]
        .strip(),
    }
    added: set[str] = set()
    for mode in MODES:
        for outputs in ((), (IOView(name=OPEN_QUESTIONS),)):
            view = AgentView(name="a", kind="child", mode=mode, description="", outputs=outputs)
            added.update(s.text.strip() for s in split_sentences(render_subagent_description(view)))
    return frozenset(firsts), frozenset(added)


def generated_first_lines() -> frozenset[str]:
    """The first lines of generated instructions (the parent's and a sub-agent's)."""
    return _generated()[0]


def routing_text(text: str) -> str:
    """``text`` (a routing description) without what tells the parent how to read the agent's
    outputs: every sentence a generated description adds (all modes, with and without
    ``openQuestions``), and any sentence, generated or written by hand, that says how to read
    ``answered``. Line breaks are kept; lines left empty are dropped."""
    added = _generated()[1]
    lines = []
    for line in text.splitlines():
        kept = [
            span.text.strip()
            for span in split_sentences(line)
            if span.text.strip() not in added and not phrases.hints_answered(span.text)
        ]
        if any(kept):
            lines.append(" ".join(k for k in kept if k))
    return "\n".join(lines)
