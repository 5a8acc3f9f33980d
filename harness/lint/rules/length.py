"""HC018: instructions longer than Copilot Studio's editor accepts."""

from __future__ import annotations

from collections.abc import Iterator

from harness.lint.model import (
    AgentSystem,
    IOField,
    LintFinding,
    ParentSpec,
    Severity,
    SubagentSpec,
)
from harness.lint.rule import Rule
from instructions import (
    COPILOT_STUDIO_INSTRUCTIONS_LIMIT,
    AgentView,
    InstructionsLength,
    IOView,
    ParentView,
    copilot_studio_lengths,
)
from instructions.contract import default_inputs, default_outputs

__all__ = ["InstructionsTooLong"]

_LIMIT = f"{COPILOT_STUDIO_INSTRUCTIONS_LIMIT:,}"


class InstructionsTooLong(Rule):
    """Copilot Studio's web editor accepts at most 8,000 characters of an agent's instructions
    (as reported in microsoft/vscode-copilotstudio issue #51; Microsoft's pages give no figure).
    Longer instructions pushed from the VS Code extension still run, but can no longer be edited
    in the web editor. For this SDK's YAML the rule measures the instructions that
    `harness instructions --format copilot-studio` writes: the agent's own plus the generated
    block, which adds 1,400 to 2,000 characters (more for a conversational agent)."""

    id = "HC018"
    name = "instructions-too-long"
    severity = Severity.WARNING
    summary = (
        "An agent's instructions for Copilot Studio (this SDK's YAML: with the generated block) "
        f"are over {_LIMIT} characters."
    )
    fix = (
        "Shorten the agent's own instructions (move reference material to a knowledge source); "
        "the finding says how far. Ignore it for a config not meant for Copilot Studio."
    )
    bad = "parent:\n  name: desk\n  instructions: <7,000 characters>"
    good = "parent:\n  name: desk\n  instructions: <5,000 characters>"

    def check(self, system: AgentSystem, *, enabled: frozenset[str]) -> Iterator[LintFinding]:
        if system.source == "copilot-studio":
            yield from self._as_written(system)
        elif system.parent is not None:
            yield from self._as_generated(system, system.parent)

    def _as_written(self, system: AgentSystem) -> Iterator[LintFinding]:
        specs: list[ParentSpec | SubagentSpec] = [*filter(None, [system.parent])]
        specs.extend(system.subagents)
        for spec in specs:
            text = spec.instructions
            if text is None:
                continue
            size = len(text.text.strip())
            role = "parent" if isinstance(spec, ParentSpec) else spec.kind.value
            length = InstructionsLength(agent=spec.name, role=role, characters=size, own=size)
            if length.over_limit:
                yield self.report(
                    spec,
                    f"{_sentence(length.warning())} (move reference material to a knowledge "
                    "source).",
                    at=text,
                )

    def _as_generated(self, system: AgentSystem, parent: ParentSpec) -> Iterator[LintFinding]:
        lengths = generated_lengths(system, parent)
        by_name: dict[tuple[bool, str], InstructionsLength] = {
            (x.role == "parent", x.agent): x for x in lengths
        }
        specs: list[tuple[bool, ParentSpec | SubagentSpec]] = [(True, parent)]
        specs.extend((False, agent) for agent in system.subagents)
        for is_parent, spec in specs:
            length = by_name.get((is_parent, spec.name))
            if length is None or not length.over_limit:
                continue
            yield self.report(
                spec,
                f"{_sentence(length.warning())}. Counted as `harness instructions --format "
                "copilot-studio` writes them (its own instructions and the generated block); "
                "ignore HC018 for a config not meant for Copilot Studio.",
                at=spec.instructions,
            )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def generated_lengths(system: AgentSystem, parent: ParentSpec) -> tuple[InstructionsLength, ...]:
    """The length of each instructions field `harness instructions --format copilot-studio`
    writes for this SDK's config (``copilot_studio_lengths`` of the same view)."""
    return copilot_studio_lengths(_view(system, parent))


def _view(system: AgentSystem, parent: ParentSpec) -> ParentView:
    return ParentView(
        name=parent.name,
        instructions=parent.instructions.text if parent.instructions is not None else "",
        subagents=tuple(_agent(agent) for agent in system.subagents),
    )


def _agent(agent: SubagentSpec) -> AgentView:
    return AgentView(
        name=agent.name,
        kind=agent.kind.value,
        mode=agent.mode.value,
        description=agent.description.text if agent.description is not None else "",
        instructions=agent.instructions.text if agent.instructions is not None else "",
        inputs=_io(agent.inputs, default_inputs()),
        outputs=_io(agent.outputs, default_outputs(agent.mode.value)),
        receives_history=agent.history,
    )


def _io(
    declared: tuple[IOField, ...] | None, default: tuple[tuple[str, str], ...]
) -> tuple[IOView, ...]:
    """The declared inputs or outputs; when none are declared, the contract's, which the runtime
    fills in and the generator writes."""
    if declared is None:
        return tuple(IOView(name=name, description=text) for name, text in default)
    return tuple(IOView(name=f.name, description=f.description or "") for f in declared)
