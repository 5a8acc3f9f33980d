"""Render every generated instruction from plain views of the agents (docs/instructions.md).

The templates live in ``instructions/templates``. The environment uses ``StrictUndefined`` (a
misspelt variable is an error, not an empty string) and a ``finalize`` hook that refuses anything
but text and numbers, so a Python repr (``None``, ``True``, ``['a']``) can never reach a prompt.

Multi-section texts (instructions, system prompts, Markdown) end with one newline; descriptions,
which are single field values, do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from instructions._copilot_studio import (
    COPILOT_STUDIO_INSTRUCTIONS_LIMIT,
    ChildFragment,
    ConnectedFragment,
    ExternalFragment,
    PropertyView,
    render_fragments,
    too_long_text,
)
from instructions.contract import (
    ANSWERED,
    CHILD,
    CONVERSATIONAL,
    COPILOT_TYPES,
    DIRECT,
    HISTORY,
    INPUT_DESCRIPTIONS,
    OPEN_QUESTIONS,
    OUTPUT_DESCRIPTIONS,
    OUTPUT_JSON_TYPES,
    OUTPUTS,
    REQUIRED_BY_MODE,
    SCOPED_REQUEST,
    SILENT,
)
from instructions.views import AgentView, CopilotStudioSource, ParentView

__all__ = [
    "COPILOT_STUDIO_INSTRUCTIONS_LIMIT",
    "InstructionsLength",
    "copilot_studio_lengths",
    "output_description",
    "render_copilot_studio",
    "render_markdown",
    "render_parent_system",
    "render_subagent_description",
    "render_subagent_instructions",
    "render_subagent_system",
    "render_top_level_instruction",
]

_TEMPLATES = Path(__file__).with_name("templates")

_TYPE_WORDS = {"boolean": "true or false", "string": "text", "array": "a list of text"}
"""How an output's JSON type (``contract.OUTPUT_JSON_TYPES``) reads in prose."""

_ANSWERED_NOTES = {
    SILENT: "Yours is always false.",
    DIRECT: "Set it to true once you have sent the answer.",
    CONVERSATIONAL: "Keep it false until the user has the final answer or outcome.",
}

_EXTERNAL_SAYS = {
    SILENT: "{name} never talks to the user: its replies are for you to deliver.",
    DIRECT: "{name} answers the user itself: never repeat, summarise or acknowledge its reply.",
    CONVERSATIONAL: (
        "{name} answers the user itself: never repeat, summarise or acknowledge its reply."
    ),
}
"""What the parent is told of an external agent, which has no ``answered`` output to say it: the
sentence ``harness lint`` (HC001) asks for, naming the agent."""

_MODE_WORDS = {
    SILENT: "silent (it never talks to the user; you relay its findings)",
    DIRECT: "direct (it answers the user itself, once)",
    CONVERSATIONAL: (
        "conversational (it talks with the user over several turns until the request is done)"
    ),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class _Field:
    """An input or output as the templates show it."""

    name: str
    description: str
    type_words: str = ""
    note: str = ""
    required: bool = False


def output_description(name: str) -> str:
    """The contract's words for one of its outputs.

    Args:
        name: the output's wire name (``answered``, ``findings``, ...).

    Raises:
        ValueError: for a name that is not one of the contract's outputs.
    """
    try:
        return OUTPUT_DESCRIPTIONS[name]
    except KeyError:
        known = ", ".join(OUTPUT_DESCRIPTIONS)
        raise ValueError(
            f"{name!r} is not a contract output; the contract's are: {known}"
        ) from None


def render_top_level_instruction(parent: ParentView) -> str:
    """The generated top-level instruction that makes the parent check ``answered`` before it speaks.

    It names which of the parent's sub-agents talk to the user and which never do.
    """
    return _top_level(parent, level=2)


def render_subagent_description(agent: AgentView) -> str:
    """The routing description for the parent, with the hint on how to read ``answered``.

    Silent agents never answer the user, so their hint says to relay their ``findings`` instead.
    """
    return _render("subagent_description.md.j2", agent=agent, **_open_questions(agent)).strip()


def render_subagent_instructions(agent: AgentView) -> str:
    """The generated block of a sub-agent's instructions, for its mode.

    It anchors the agent to ``scopedRequest``, says how to treat history, gives the mode's rules
    (the explicit do-not-message-the-user block for silent agents) and describes every output it
    must return.
    """
    return _subagent_instructions(agent, level=2)


def render_subagent_system(agent: AgentView, *, generated: bool = True) -> str:
    """A sub-agent's full system prompt: the generated block, then its own instructions.

    Args:
        agent: the sub-agent.
        generated: include the generated block; without it only the agent's own instructions remain
            (an empty string when it has none).
    """
    return _subagent_system(agent, level=2, generated=generated)


def render_parent_system(parent: ParentView, *, generated: bool = True) -> str:
    """The parent's full system prompt.

    The generated top-level instruction, the parent's own instructions, then a catalogue of its
    sub-agents (description, mode, inputs, outputs, example requests).

    Args:
        parent: the parent and its sub-agents.
        generated: include the generated top-level instruction and the ``answered`` hints in the
            sub-agents' descriptions; without them this is the "naive" parent used as a baseline.
    """
    agents = [
        {
            "name": agent.name,
            "description": (
                render_subagent_description(agent) if generated else agent.description.strip()
            ),
            "mode_words": _MODE_WORDS[agent.mode],
            "inputs": [field for field in _inputs(agent) if field.name != HISTORY],
            "receives_history": agent.receives_history,
            "output_names": [f"`{field.name}`" for field in _outputs(agent)],
            "examples": [example.strip() for example in agent.examples if example.strip()],
        }
        for agent in parent.subagents
    ]
    return _finish(
        _render(
            "parent_system.md.j2",
            h="##",
            top_level=_top_level(parent, level=2) if generated else "",
            instructions=parent.instructions.strip(),
            agents=agents,
        )
    )


def render_markdown(parent: ParentView, *, agent: str | None = None) -> str:
    """Everything generated for a bot, as Markdown (``harness instructions CONFIG``).

    The parent's instructions (top-level instruction, then its own), then for each sub-agent its
    description, its instructions and the descriptions of its inputs and outputs.

    Args:
        parent: the parent and its sub-agents.
        agent: show only this sub-agent.

    Raises:
        ValueError: when ``agent`` names no sub-agent of the parent.
    """
    chosen = _select(parent, agent)
    agents = [
        {
            "name": sub.name,
            "summary": _summary(sub),
            "description": render_subagent_description(sub),
            "instructions": _subagent_system(sub, level=4, generated=True).strip(),
            "inputs": _inputs(sub),
            "outputs": _outputs(sub),
        }
        for sub in chosen
    ]
    parent_view = None
    if agent is None:
        parent_view = {"name": parent.name, "instructions": _parent_instructions(parent, level=3)}
    title = parent.name if agent is None else f"{parent.name} / {agent}"
    return _finish(_render("markdown.md.j2", title=title, parent=parent_view, agents=agents))


def render_copilot_studio(
    parent: ParentView,
    *,
    agent: str | None = None,
    sources: Mapping[str, CopilotStudioSource] | None = None,
) -> str:
    """YAML fragments a Copilot Studio maker can paste, each introduced by a comment saying where.

    The parent's ``instructions`` (``GptComponentMetadata``); for each child agent an
    ``AgentDialog`` (``beginDialog.description``, ``settings.instructions``, ``inputs``,
    ``inputType`` / ``outputType``); for each connected agent the calling side's ``TaskDialog``
    (``modelDescription``, ``inputs``, ``outputs``, and ``inputType`` / ``outputType`` inside
    ``action``, as ``InvokeConnectedAgentTaskAction`` requires) and the ``instructions`` for the
    connected agent itself.

    What concerns a call carrying several numbered requests (the ``answeredRequests`` output) is
    left out: Copilot Studio's orchestrator gives each agent call its own inputs and never makes
    such a call, so the fragments do not ask for an output nothing would fill.

    With ``sources`` (a config read from Copilot Studio files), each agent is named by its name
    in Copilot Studio and each comment names its file. An external agent
    (``InvokeExternalAgentTaskAction``) cannot declare outputs: it gets no ``TaskDialog``, and the
    parent's instructions say in a sentence naming it whether it talks to the user.

    Args:
        parent: the parent and its sub-agents.
        agent: only this sub-agent's fragments (the parent's are left out).
        sources: where each agent lives in Copilot Studio, by its name in ``parent``.

    Raises:
        ValueError: when ``agent`` names no sub-agent of the parent.
    """
    parts = _copilot_studio_parts(parent, agent=agent, sources=sources)
    return render_fragments(
        parent=parts.parent,
        parent_file=parts.parent_file,
        parent_instructions=parts.parent_instructions,
        agents=parts.agents,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class InstructionsLength:
    """How long one instructions field of the Copilot Studio fragments is, and how much of it
    the maker wrote."""

    agent: str
    """The agent's name (its Copilot Studio name when the config was read from there)."""
    role: str
    """``parent``, ``child`` or ``connected``."""
    characters: int
    """Characters of the instructions as the fragment gives them."""
    own: int
    """Characters of them that are the agent's own instructions (the rest is generated)."""

    @property
    def generated(self) -> int:
        """Characters the generated block adds (headings included)."""
        return self.characters - self.own

    @property
    def over_limit(self) -> bool:
        """True above ``COPILOT_STUDIO_INSTRUCTIONS_LIMIT``."""
        return self.characters > COPILOT_STUDIO_INSTRUCTIONS_LIMIT

    def warning(self) -> str:
        """One line for a user: how long, what the limit is, and how far to shorten; an empty
        string when the instructions are within the limit (:attr:`over_limit` is False), as there
        is nothing to warn about."""
        if not self.over_limit:
            return ""
        said = too_long_text(self.characters, own=self.own)
        return f"the instructions of the {self.role} agent {self.agent!r} are {said}"


def copilot_studio_lengths(
    parent: ParentView,
    *,
    agent: str | None = None,
    sources: Mapping[str, CopilotStudioSource] | None = None,
) -> tuple[InstructionsLength, ...]:
    """The length of each instructions field ``render_copilot_studio`` writes (same arguments):
    the parent's (unless ``agent`` is given), each child agent's and each connected agent's own.

    A caller warns about those with ``over_limit``: Copilot Studio's web editor accepts at most
    ``COPILOT_STUDIO_INSTRUCTIONS_LIMIT`` characters of instructions (docs/instructions.md).

    Raises:
        ValueError: when ``agent`` names no sub-agent of the parent.
    """
    parts = _copilot_studio_parts(parent, agent=agent, sources=sources)
    lengths: list[InstructionsLength] = []
    if parts.parent_instructions is not None:
        lengths.append(
            InstructionsLength(
                agent=parts.parent,
                role="parent",
                characters=len(parts.parent_instructions.strip()),
                own=len(parent.instructions.strip()),
            )
        )
    for fragment, own in zip(parts.agents, parts.own, strict=True):
        if isinstance(fragment, ExternalFragment):
            continue
        lengths.append(
            InstructionsLength(
                agent=fragment.name,
                role="child" if isinstance(fragment, ChildFragment) else "connected",
                characters=len(fragment.instructions.strip()),
                own=own,
            )
        )
    return tuple(lengths)


@dataclass(frozen=True, slots=True, kw_only=True)
class _CopilotStudioParts:
    parent: str
    parent_file: str
    parent_instructions: str | None
    agents: list[ChildFragment | ConnectedFragment | ExternalFragment]
    own: list[int]
    """The length of each agent's own instructions, in the order of ``agents``."""


def _copilot_studio_parts(
    parent: ParentView,
    *,
    agent: str | None,
    sources: Mapping[str, CopilotStudioSource] | None,
) -> _CopilotStudioParts:
    sources = sources or {}
    chosen = _select(parent, agent)
    external = {
        sub.name for sub in parent.subagents if (src := sources.get(sub.name)) and src.external
    }
    fragments: list[ChildFragment | ConnectedFragment | ExternalFragment] = []
    own_lengths: list[int] = []
    for sub in chosen:
        own_lengths.append(len(sub.instructions.strip()))
        source = sources.get(sub.name)
        if source is not None:
            sub = replace(sub, name=source.name)
        if source is not None and source.external:
            fragments.append(
                ExternalFragment(name=sub.name, file=source.file, sentence=_external_sentence(sub))
            )
            continue
        inputs = tuple(
            PropertyView(
                name=field.name,
                description=field.description,
                type="String",
                required=field.required,
            )
            for field in _inputs(sub)
            if field.name != HISTORY  # Copilot Studio passes history by its own setting
        )
        outputs = tuple(
            PropertyView(
                name=field.name,
                description=field.description,
                type=COPILOT_TYPES.get(_json_type(field.name), "String"),
                required=field.required,
            )
            for field in _outputs(sub)
        )
        common: dict[str, Any] = {
            "name": sub.name,
            "description": render_subagent_description(sub),
            "instructions": _subagent_system(sub, level=2, generated=True, several=False).strip(),
            "inputs": inputs,
            "outputs": outputs,
            "file": source.file if source is not None else "",
        }
        if sub.kind == CHILD:
            fragments.append(ChildFragment(**common))
        else:
            own_file = source.own_file if source is not None else ""
            fragments.append(
                ConnectedFragment(**common, history=sub.receives_history, own_file=own_file)
            )
    parent_instructions = None
    if agent is None:
        shown = tuple(
            replace(sub, name=sources[sub.name].name) if sub.name in sources else sub
            for sub in parent.subagents
        )
        said = [
            _external_sentence(view)
            for sub, view in zip(parent.subagents, shown, strict=True)
            if sub.name in external
        ]
        parent_instructions = _parent_instructions(
            replace(parent, subagents=shown), level=2, several=False, said=said
        )
    own = sources.get(parent.name)
    return _CopilotStudioParts(
        parent=own.name if own is not None else parent.name,
        parent_file=own.file if own is not None else "",
        parent_instructions=parent_instructions,
        agents=fragments,
        own=own_lengths,
    )


def _external_sentence(agent: AgentView) -> str:
    return _EXTERNAL_SAYS[agent.mode].format(name=agent.name)


# -- internals -------------------------------------------------------------------------------------


def _finalize(value: object) -> object:
    """Let only text and numbers into rendered text; anything else is a template bug."""
    if isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool)):
        return value
    raise TypeError(
        f"template tried to print a {type(value).__name__} ({value!r}); render it as words"
    )


def _join_words(items: Iterable[object]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_TEMPLATES),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    env.filters["join_words"] = _join_words
    return env


def _render(template: str, **context: Any) -> str:
    return _environment().get_template(template).render(**context)


def _finish(text: str) -> str:
    """Drop trailing spaces and runs of blank lines; end with exactly one newline."""
    lines = [line.rstrip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


def _top_level(parent: ParentView, *, level: int, several: bool = True) -> str:
    talkers = [f"`{a.name}`" for a in parent.subagents if a.mode != SILENT]
    silent = [f"`{a.name}`" for a in parent.subagents if a.mode == SILENT]
    return _finish(
        _render(
            "top_level.md.j2",
            h="#" * level,
            talkers=talkers,
            silent=silent,
            several_requests=several,
        )
    )


def _parent_instructions(
    parent: ParentView, *, level: int, several: bool = True, said: Sequence[str] = ()
) -> str:
    """What goes into the parent's instructions field: the top-level instruction, then its own.

    ``several=False`` leaves out what concerns a call carrying several numbered requests
    (``answeredRequests``), which only this SDK's runtime makes (Copilot Studio never does).
    ``said``: a sentence for each agent that has no ``answered`` output (an external agent of
    Copilot Studio), placed under its own heading before the parent's own text."""
    text = _top_level(parent, level=level, several=several)
    if said:
        lines = "\n".join(said)
        text += f"\n{'#' * level} Agents without an answered output\n\n{lines}\n"
    own = parent.instructions.strip()
    if own:
        text += f"\n{'#' * level} Role\n\n{own}\n"
    return _finish(text)


def _subagent_instructions(agent: AgentView, *, level: int, several: bool = True) -> str:
    contract_inputs = set(INPUT_DESCRIPTIONS)
    extra_inputs = [field for field in _inputs(agent) if field.name not in contract_inputs]
    return _finish(
        _render(
            "subagent_instructions.md.j2",
            h="#" * level,
            agent=agent,
            outputs=_outputs(agent),
            extra_inputs=extra_inputs,
            several_requests=several,
            # Only this SDK's runtime sends the user's answers (``userAnswers``), as only it
            # sends several numbered requests; Copilot Studio passes its declared inputs alone.
            user_answers=several,
            **_open_questions(agent),
        )
    )


def _subagent_system(agent: AgentView, *, level: int, generated: bool, several: bool = True) -> str:
    own = agent.instructions.strip()
    if not generated:
        return _finish(own) if own else ""
    text = _subagent_instructions(agent, level=level, several=several)
    if own:
        text += f"\n{'#' * level} Role\n\n{own}\n"
    return _finish(text)


def _open_questions(agent: AgentView) -> dict[str, bool]:
    return {"returns_open_questions": any(f.name == OPEN_QUESTIONS for f in _outputs(agent))}


def _inputs(agent: AgentView) -> list[_Field]:
    """``scopedRequest`` always, ``history`` when it is passed, then the agent's own inputs."""
    fields = [
        _Field(name=SCOPED_REQUEST, description=INPUT_DESCRIPTIONS[SCOPED_REQUEST], required=True)
    ]
    if agent.receives_history:
        fields.append(_Field(name=HISTORY, description=INPUT_DESCRIPTIONS[HISTORY]))
    seen = {field.name for field in fields} | set(INPUT_DESCRIPTIONS)
    for io in agent.inputs:
        if io.name not in seen:
            seen.add(io.name)
            fields.append(_Field(name=io.name, description=io.description.strip()))
    return fields


def _outputs(agent: AgentView) -> list[_Field]:
    """The mode's outputs and the declared contract outputs in contract order, then the agent's own.

    Contract outputs carry the contract's words whatever the config says, and are all required (a
    declared contract output is enforced like the mode's own); the agent's own are not.
    """
    required = REQUIRED_BY_MODE[agent.mode]
    declared = [io.name for io in agent.outputs]
    fields = [
        _Field(
            name=name,
            description=OUTPUT_DESCRIPTIONS[name],
            type_words=_TYPE_WORDS[_json_type(name)],
            note=_ANSWERED_NOTES[agent.mode] if name == ANSWERED else "",
            required=True,
        )
        for name in OUTPUTS
        if name in required or name in declared
    ]
    seen = {field.name for field in fields}
    for io in agent.outputs:
        if io.name not in seen:
            seen.add(io.name)
            fields.append(_Field(name=io.name, description=io.description.strip()))
    return fields


def _json_type(name: str) -> str:
    """The JSON type of a contract output (``string`` for an agent's own outputs)."""
    return str(OUTPUT_JSON_TYPES.get(name, {}).get("type", "string"))


def _summary(agent: AgentView) -> str:
    kind = "A child agent" if agent.kind == CHILD else "A connected agent"
    history = "receives" if agent.receives_history else "does not receive"
    return f"{kind} in {agent.mode} mode. It {history} the parent's conversation history."


def _select(parent: ParentView, agent: str | None) -> Sequence[AgentView]:
    if agent is None:
        return parent.subagents
    for sub in parent.subagents:
        if sub.name == agent:
            return (sub,)
    known = ", ".join(sub.name for sub in parent.subagents) or "none"
    raise ValueError(f"{parent.name} has no sub-agent named {agent!r}; its sub-agents: {known}")
