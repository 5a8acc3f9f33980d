"""Structure rules: routing descriptions, Copilot Studio's layout, and files that do not load."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterator

from harness.lint import phrases
from harness.lint._generated import routing_text
from harness.lint.model import AgentSystem, LintFinding, Severity, SubagentSpec
from harness.lint.rule import Rule
from subagents.contract import Kind

__all__ = [
    "ChildHasActions",
    "ConnectedIoMisplaced",
    "InvalidConfig",
    "MissingDescription",
    "NothingRecognised",
    "OverlappingDescriptions",
]

_WORD = re.compile(r"[a-z0-9]+")


class MissingDescription(Rule):
    """The parent routes by descriptions; an agent without one is never picked, or picked at
    random. A description that only says how to read `answered` (the generated hint pasted from
    `harness instructions`, or one written by hand) gives the parent nothing to route by either."""

    id = "HC008"
    name = "missing-description"
    severity = Severity.ERROR
    summary = (
        "A sub-agent has no routing description, or one that only says how to read `answered`."
    )
    fix = (
        "Describe what it handles (Copilot Studio: `beginDialog.description` for a child agent, "
        "`modelDescription` for a connected agent, `mcs.metadata.description` or the component's "
        "`botcomponent.xml` for a ConnectedAgentTool)."
    )
    bad = "- name: pto\n  kind: child\n  mode: direct"
    good = "- name: pto\n  kind: child\n  mode: direct\n  description: Answers leave balance questions."

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        text = agent.description
        only_hint = text is not None and bool(text.text.strip()) and not routing_text(text.text)
        if text is not None and text.text.strip() and not only_hint:
            return
        where = {
            ("harness", Kind.CHILD): "`description`",
            ("harness", Kind.CONNECTED): "`description`",
            ("copilot-studio", Kind.CHILD): "`beginDialog.description`",
            ("copilot-studio", Kind.CONNECTED): "`modelDescription`",
        }[(agent.source, agent.kind)]
        if agent.layout == "connected-agent-tool":
            where = (
                "a description (`mcs.metadata.description` in a workspace, `<description>` in "
                "the component's botcomponent.xml in a solution)"
            )
        said = (
            "has a description that only says how to read `answered`, with no routing sentence"
            if only_hint
            else "has no routing description"
        )
        yield self.finding(
            agent=agent.name,
            file=agent.file,
            line=text.line if text is not None else agent.line,
            message=(
                f"'{agent.name}' {said}, so the parent cannot tell when to call it. "
                f"{'Add a sentence to' if only_hint else 'Add'} {where} saying which requests it "
                "handles."
            ),
        )


class OverlappingDescriptions(Rule):
    """When two descriptions say nearly the same thing the parent picks either agent, or both, and
    the user gets the answer twice. Descriptions are compared as sets of stemmed content words
    (cosine similarity of the sets, generic words such as "agent" and "questions" left out); 0.7
    or more is a near-duplicate. Only the maker's routing sentences are compared: the hint on how
    to read `answered` (the generated one pasted from `harness instructions`, the same in every
    description of a mode, or one written by hand) is left out."""

    id = "HC013"
    name = "overlapping-descriptions"
    severity = Severity.WARNING
    summary = (
        "Two sub-agents' descriptions are near-duplicates (cosine 0.7 or more on their stemmed "
        "content words, the hint on how to read `answered` left out)."
    )
    fix = "Say what each handles that the other does not."
    bad = "- description: Answers payroll questions.\n- description: Answers questions on payroll."
    good = "- description: Answers payslip questions.\n- description: Changes bank details for pay."

    def check(self, system: AgentSystem, *, enabled: frozenset[str]) -> Iterator[LintFinding]:
        """Each description against the earlier ones, with a prefix-filtered index.

        A pair reaching cosine ``t`` shares at least ``t² * |A|`` words of either set, so indexing
        only each set's rarest ``|A| - ceil(t² * |A|) + 1`` words finds every such pair without
        scoring the pairs that share only common words (all-pairs similarity search).
        """
        if len(system.subagents) < 2:
            return
        threshold = phrases.OVERLAP_THRESHOLD
        # The maker's routing sentences only: the generated hint pasted from the fragments ("If
        # its answered output is true, ...") is the same in every description of a mode.
        described = [
            (a, routing_text(a.description.text))
            for a in system.subagents
            if a.description is not None and a.description.text.strip()
        ]
        # A description left empty is only the hint: HC008 reports it (no routing description).
        agents = [a for a, text in described if text.strip()]
        texts = [text for _, text in described if text.strip()]
        words = [phrases.description_words(text) for text in texts]
        frequency: dict[str, int] = defaultdict(int)
        for group in words:
            for word in group:
                frequency[word] += 1
        index: dict[str, list[int]] = defaultdict(list)
        exact: dict[str, int] = {}
        for i, agent in enumerate(agents):
            raw = " ".join(_WORD.findall(texts[i].lower()))
            match: tuple[float, int] | None = None
            if raw in exact:
                match = (1.0, exact[raw])
            exact.setdefault(raw, i)
            mine = words[i]
            size = len(mine)
            ordered = sorted(mine, key=lambda w: (frequency[w], w))
            prefix = ordered[: max(1, size - math.ceil(threshold * threshold * size - 1e-9) + 1)]
            seen: set[int] = set()
            for word in prefix if match is None else ():
                for j in index[word]:
                    if j in seen:
                        continue
                    seen.add(j)
                    score = len(mine & words[j]) / math.sqrt(size * len(words[j]))
                    if score >= threshold:
                        match = (score, j)
                        break
                if match is not None:
                    break
            for word in prefix:
                index[word].append(i)
            if match is None:
                continue
            other = agents[match[1]]
            yield self.report(
                agent,
                (
                    f"The description of '{agent.name}' nearly duplicates that of '{other.name}' "
                    f"(similarity {match[0]:.2f}), so the parent cannot tell which to call and may "
                    f"call both. Say what each handles that the other does not."
                ),
                at=agent.description,
            )


class ConnectedIoMisplaced(Rule):
    """For connected agents (`InvokeConnectedAgentTaskAction`) the input and output types belong
    inside `action`; at the root of the `TaskDialog` they are not part of the schema and Copilot
    Studio does not pass them. The linter still counts them for the other rules, so this is the
    one finding to act on."""

    id = "HC014"
    name = "connected-io-misplaced"
    severity = Severity.ERROR
    summary = (
        "Copilot Studio: `inputType` / `outputType` at the root of a connected agent's "
        "`TaskDialog`."
    )
    fix = "Move them inside `action`."
    bad = "kind: TaskDialog\noutputType: {properties: {answered: {type: Boolean}}}\naction: {...}"
    good = "kind: TaskDialog\naction:\n  kind: InvokeConnectedAgentTaskAction\n  outputType: {...}"

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        for key, line in agent.misplaced_io:
            yield self.finding(
                agent=agent.name,
                file=agent.file,
                line=line,
                message=(
                    f"'{agent.name}' is a connected agent with `{key}` at the root of its "
                    f"TaskDialog, where Copilot Studio does not read it. Move `{key}` inside "
                    f"`action`."
                ),
            )


class ChildHasActions(Rule):
    """Child agents use generative orchestration driven by their instructions; action nodes
    (SendActivity, Question...) in `beginDialog.actions` bypass it and can message the user
    behind the contract."""

    id = "HC015"
    name = "child-has-actions"
    severity = Severity.WARNING
    summary = "Copilot Studio: an `AgentDialog` with `beginDialog.actions`."
    fix = "Remove the actions; put fixed flows in a topic of the parent."
    bad = "kind: AgentDialog\nbeginDialog:\n  kind: OnToolSelected\n  actions:\n    - kind: SendActivity"
    good = "kind: AgentDialog\nbeginDialog:\n  kind: OnToolSelected\n  description: ..."

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if agent.actions_line is None:
            return
        yield self.report(
            agent,
            (
                f"'{agent.name}' is a child agent (AgentDialog) with `beginDialog.actions`, which "
                f"bypass its instructions and can message the user behind the contract. Remove "
                f"the actions; put fixed flows in a topic of the parent."
            ),
            line=agent.actions_line,
        )


class InvalidConfig(Rule):
    """A broken YAML file, an unknown `kind` or `mode`, a value of the wrong type, a missing
    required field, an unknown key, a tool reference that does not resolve, or a file that cannot
    be read safely (not UTF-8, UTF-16, NUL bytes, over the size limit, an alias bomb, nesting too
    deep). The other files are still linted. Reported even under `--select`, unless ignored
    explicitly."""

    id = "HC100"
    name = "invalid-config"
    severity = Severity.ERROR
    summary = "A file cannot be read or parsed, or does not match the schema."
    fix = "Fix the file at the reported line."
    bad = "subagents:\n  - name: pto\n    kind: grandchild"
    good = "subagents:\n  - name: pto\n    kind: child"


class NothingRecognised(Rule):
    """Linting nothing must not pass in silence: a path where no agent file is recognised (a typo,
    an unknown layout, a folder of unrelated YAML) is an error that names the layouts looked for.
    Reported even under `--select`, unless ignored explicitly."""

    id = "HC101"
    name = "nothing-recognised"
    severity = Severity.ERROR
    summary = "No agent config is recognised under a path given to the linter."
    fix = (
        "Point the linter at this SDK's YAML, a Copilot Studio workspace, an exported solution, a "
        ".mcs.yml component or a botdefinition.json."
    )
    bad = "harness lint .github/workflows/"
    good = "harness lint agents/ copilot-studio-export/"
