"""Every rule firing and not firing on this SDK's YAML configs."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from harness.lint import LintFinding, Severity
from instructions import AgentView, render_subagent_description
from tests.lint.conftest import ids

Lint = Callable[..., tuple[LintFinding, ...]]

GOOD = """\
- name: pto
  kind: child
  mode: direct
  description: Answers questions about paid time off.
  instructions: Look up the balance with the tool.
"""


def test_a_config_relying_on_the_contract_defaults_is_clean(lint_sdk: Lint) -> None:
    assert lint_sdk(GOOD) == ()


# -- HC001-HC003: outputs ---------------------------------------------------------------------


def test_hc001_fires_on_an_explicit_empty_output_list_and_hides_hc002_hc003(
    lint_sdk: Lint,
) -> None:
    findings = lint_sdk(GOOD + "  outputs: []\n")
    assert ids(findings) == ["HC001"]
    assert findings[0].line == 10
    assert "'answered' and 'interactionSummary'" in findings[0].message
    assert "harness lint --fix" in findings[0].message


def test_hc002_and_hc003_report_when_hc001_is_ignored(lint_sdk: Lint) -> None:
    findings = lint_sdk(GOOD + "  outputs: []\n", ignore=["HC001"])
    assert ids(findings) == ["HC002", "HC003"]


def test_hc001_does_not_fire_when_outputs_are_omitted(lint_sdk: Lint) -> None:
    assert "HC001" not in ids(lint_sdk(GOOD))


def test_hc002_fires_without_answered_and_not_with_it(lint_sdk: Lint) -> None:
    without = lint_sdk(
        GOOD + "  outputs:\n    - {name: interactionSummary, description: What it said.}\n"
    )
    assert ids(without) == ["HC002"]
    with_it = lint_sdk(
        GOOD
        + "  outputs:\n"
        + "    - {name: answered, description: True when the user has the answer.}\n"
        + "    - {name: interactionSummary, description: What it said.}\n"
    )
    assert with_it == ()


def test_hc003_names_the_outputs_a_silent_agent_lacks(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        """\
        - name: payroll
          kind: connected
          mode: silent
          pass_history: false
          description: Looks up pay dates.
          outputs:
            - {name: answered, description: Always false.}
            - {name: findings, description: The answer.}
        """
    )
    assert ids(findings) == ["HC003"]
    assert "'openQuestions'" in findings[0].message
    assert "silent" in findings[0].message


def test_hc003_checks_the_conversational_mode(lint_sdk: Lint) -> None:
    outputs = (
        "  outputs:\n"
        "    - {name: answered, description: Done.}\n"
        "    - {name: interactionSummary, description: What it said.}\n"
    )
    conversational = GOOD.replace("mode: direct", "mode: conversational")
    findings = lint_sdk(conversational + outputs)
    assert ids(findings) == ["HC003"]
    assert "'scopedRequest'" in findings[0].message
    complete = outputs + "    - {name: scopedRequest, description: The request it worked on.}\n"
    assert lint_sdk(conversational + complete) == ()


# -- HC004 / HC012: history -------------------------------------------------------------------


def test_hc004_fires_for_a_child_without_scoped_request(lint_sdk: Lint) -> None:
    findings = lint_sdk(GOOD + "  inputs: []\n")
    assert ids(findings) == ["HC004"]
    assert "child agent" in findings[0].message


def test_hc004_fires_for_a_connected_agent_with_history_on_by_default(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        GOOD.replace("kind: child", "kind: connected")
        + "  inputs:\n    - {name: orderId, description: The order number.}\n"
    )
    assert ids(findings) == ["HC004"]
    assert "pass_history: false" in findings[0].message


def test_hc004_does_not_fire_without_history_or_with_a_scoped_input(lint_sdk: Lint) -> None:
    no_history = GOOD.replace("kind: child", "kind: connected") + (
        "  pass_history: false\n  inputs: []\n"
    )
    assert lint_sdk(no_history) == ()
    scoped = GOOD + "  inputs:\n    - {name: scopedRequest, description: Its part.}\n"
    assert lint_sdk(scoped) == ()


def test_hc012_fires_for_a_child_with_history_off(lint_sdk: Lint) -> None:
    findings = lint_sdk(GOOD + "  pass_history: false\n")
    assert ids(findings) == ["HC012"]
    assert findings[0].line == 10


def test_hc012_does_not_fire_for_a_connected_agent(lint_sdk: Lint) -> None:
    assert (
        lint_sdk(GOOD.replace("kind: child", "kind: connected") + "  pass_history: false\n") == ()
    )


# -- HC005 / HC006: instructions --------------------------------------------------------------

HANDWRITTEN = GOOD + "  generated_instructions: false\n"
HINTED = "If its answered output is true, the user already has the answer."


def _own(instructions: str, *, mode: str = "direct") -> str:
    return (
        HANDWRITTEN.replace("Look up the balance with the tool.", instructions)
        .replace("mode: direct", f"mode: {mode}")
        .replace(
            "description: Answers questions about paid time off.",
            f"description: Answers questions about paid time off. {HINTED}",
        )
    )


def test_hc005_fires_when_own_instructions_never_anchor_the_scope(lint_sdk: Lint) -> None:
    findings = lint_sdk(_own("Look up the balance with the tool."))
    assert ids(findings) == ["HC005"]
    assert "scopedRequest" in findings[0].message
    assert findings[0].line == 9


def test_hc005_accepts_realistic_anchors(lint_sdk: Lint) -> None:
    for text in (
        "Only handle the request you were given by the parent.",
        "Work on scopedRequest and nothing else.",
        "Ignore any other requests in the conversation history.",
    ):
        assert lint_sdk(_own(text)) == (), text


def test_hc005_is_satisfied_by_generated_instructions(lint_sdk: Lint) -> None:
    assert "HC005" not in ids(lint_sdk(GOOD))


def test_hc006_fires_for_a_silent_agent_allowed_to_talk(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        _own("Treat scopedRequest as your task. Work out the result.", mode="silent")
    )
    assert ids(findings) == ["HC006"]
    assert "SendMessageTool" in findings[0].message


def test_hc016_fires_for_a_silent_agent_told_to_address_the_user(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        _own("Treat scopedRequest as your task. Tell the user the result.", mode="silent")
    )
    assert ids(findings) == ["HC006", "HC016"]
    assert '"Tell the user the result"' in findings[1].message


@pytest.mark.parametrize("generated", ["true", "false"])
def test_hc016_is_not_hidden_by_the_prepended_silence_block(lint_sdk: Lint, generated: str) -> None:
    findings = lint_sdk(
        f"""\
        - name: scoring
          kind: child
          mode: silent
          generated_instructions: {generated}
          description: Scores claims. It never talks to the user, so its answered output is always false.
          instructions: >-
            Fulfil the scopedRequest. Do not respond to the user; only fill the output variables.
            Score the claim and explain the score to the customer.
        """
    )
    hc016 = [f for f in findings if f.id == "HC016"]
    assert len(hc016) == 1
    assert "explain the score to the customer" in hc016[0].message
    assert ("prepends" in hc016[0].message) is (generated == "true")
    assert [f.id for f in findings if f.id != "HC016"] == []


def test_hc016_leaves_direct_agents_and_prohibitions_alone(lint_sdk: Lint) -> None:
    direct = _own("Treat scopedRequest as your task. Tell the user the result.", mode="direct")
    assert "HC016" not in ids(lint_sdk(direct))
    silent = _own(
        "Treat scopedRequest as your task. Do not tell the user; only fill the outputs.",
        mode="silent",
    )
    assert ids(lint_sdk(silent)) == []


def test_hc006_accepts_realistic_prohibitions(lint_sdk: Lint) -> None:
    for text in (
        "Never reply to the user yourself; put your answer in the findings output.",
        "DO NOT respond directly to the user. ONLY populate the output variables.",
        "Return your answer in findings instead of replying.",
    ):
        assert lint_sdk(_own(f"Handle the scopedRequest. {text}", mode="silent")) == (), text


def test_hc006_ignores_direct_agents_and_generated_instructions(lint_sdk: Lint) -> None:
    assert lint_sdk(_own("Handle the scopedRequest and tell the user.")) == ()
    assert lint_sdk(GOOD.replace("mode: direct", "mode: silent")) == ()


# -- HC007 / HC008 / HC009: documentation -----------------------------------------------------


def test_hc007_fires_per_undocumented_field_with_its_line(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        GOOD
        + "  outputs:\n"
        + "    - {name: answered}\n"
        + "    - {name: interactionSummary, description: What it said.}\n"
        + "  inputs:\n"
        + "    - name: orderId\n"
        + "    - {name: scopedRequest, description: Its part.}\n"
    )
    assert ids(findings) == ["HC007", "HC007"]
    assert [f.line for f in findings] == [11, 14]
    assert "True when the user has already received the answer" in findings[0].message
    assert "'orderId'" in findings[1].message


def test_hc008_fires_without_a_description(lint_sdk: Lint) -> None:
    missing = lint_sdk(GOOD.replace("  description: Answers questions about paid time off.\n", ""))
    assert ids(missing) == ["HC008"]
    empty = lint_sdk(GOOD.replace("Answers questions about paid time off.", '""'))
    assert ids(empty) == ["HC008"]


def test_hc009_fires_when_a_handwritten_description_lacks_the_hint(lint_sdk: Lint) -> None:
    findings = lint_sdk(HANDWRITTEN.replace("Look up", "Handle the scopedRequest; look up"))
    assert ids(findings) == ["HC009"]
    assert "If its answered output is true" in findings[0].message


def test_hc009_suggests_the_silent_hint_for_silent_agents(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        _own("Handle the scopedRequest. Do not message the user.", mode="silent").replace(
            HINTED, ""
        )
    )
    assert ids(findings) == ["HC009"]
    assert "always false" in findings[0].message


def test_hc009_is_satisfied_by_a_hint_or_by_generation(lint_sdk: Lint) -> None:
    assert lint_sdk(_own("Handle the scopedRequest.")) == ()
    assert lint_sdk(GOOD) == ()


# -- HC010 / HC011: the parent ----------------------------------------------------------------


def _parent(instructions: str, *, generated: bool = False) -> str:
    flag = "" if generated else "  generated_instructions: false\n"
    return f"parent:\n  name: helpdesk\n  instructions: {instructions}\n{flag}subagents:\n"


def test_hc010_fires_when_handwritten_parent_instructions_do_not_check_answered(
    lint_sdk: Lint,
) -> None:
    findings = lint_sdk(GOOD, parent=_parent("You are the HR helpdesk."))
    assert ids(findings) == ["HC010"]
    assert findings[0].agent == "helpdesk"
    assert findings[0].line == 3
    assert "harness instructions" in findings[0].message


def test_hc010_accepts_realistic_checks(lint_sdk: Lint) -> None:
    for text in (
        "Check the answered output of each sub-agent before you reply.",
        "If a sub-agent has already answered the user, don't answer again.",
        '"When answered is true, don\'t repeat it."',
    ):
        assert lint_sdk(GOOD, parent=_parent(text)) == (), text


def test_hc010_needs_sub_agents_and_is_satisfied_by_generation(lint_sdk: Lint) -> None:
    assert (
        lint_sdk(
            "[]\n", parent=_parent("You are the HR helpdesk.").replace("subagents:\n", "subagents:")
        )
        == ()
    )
    assert lint_sdk(GOOD, parent=_parent("You are the HR helpdesk.", generated=True)) == ()


def test_hc011_fires_on_the_only_speaker_claim_even_with_generation(lint_sdk: Lint) -> None:
    findings = lint_sdk(GOOD, parent=_parent("Only you talk to the user.", generated=True))
    assert ids(findings) == ["HC011"]
    assert findings[0].severity is Severity.WARNING


def test_hc011_ignores_other_only_claims(lint_sdk: Lint) -> None:
    parent = _parent("You are the only agent with access to the HR database.", generated=True)
    assert lint_sdk(GOOD, parent=parent) == ()


# -- HC013: overlapping descriptions ----------------------------------------------------------


def _two(first: str, second: str) -> str:
    return GOOD.replace("Answers questions about paid time off.", first) + GOOD.replace(
        "name: pto", "name: vacation"
    ).replace("Answers questions about paid time off.", second)


def test_hc013_fires_on_near_duplicate_descriptions(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        _two(
            "Handles IT support tickets and password resets.",
            "Resets passwords and handles IT support tickets.",
        )
    )
    assert ids(findings) == ["HC013"]
    assert findings[0].agent == "vacation"
    assert "'pto'" in findings[0].message


def test_hc013_does_not_fire_on_related_but_distinct_descriptions(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        _two(
            "Answers questions about PTO balances and accrual.",
            "Submits PTO requests for approval.",
        )
    )
    assert findings == ()


def test_hc013_flags_identical_generic_descriptions(lint_sdk: Lint) -> None:
    assert ids(lint_sdk(_two("Answers questions.", "Answers questions."))) == ["HC013"]


def test_hc006_accepts_a_prohibition_addressed_to_a_policyholder(lint_sdk: Lint) -> None:
    findings = lint_sdk(
        _own(
            "Treat scopedRequest as your task. Do not respond to the policyholder; the claims "
            "assistant does that.",
            mode="silent",
        )
    )
    assert "HC006" not in ids(findings)


def test_hc013_leaves_out_the_generated_hint_of_pasted_descriptions(lint_sdk: Lint) -> None:
    """Descriptions pasted from the fragments end with the same generated hint; it is not part of
    what HC013 compares, so distinct routing sentences stay distinct, and duplicates stay found."""

    def pasted(text: str) -> str:
        view = AgentView(name="a", kind="child", mode="direct", description=text)
        return render_subagent_description(view).replace("\n", " ")

    distinct = _two(pasted("Answers questions about PTO balances."), pasted("Books meeting rooms."))
    assert "HC013" not in ids(lint_sdk(distinct))
    same = _two(pasted("Answers questions about PTO."), pasted("Answers questions on PTO."))
    assert ids(lint_sdk(same)) == ["HC013"]


@pytest.mark.parametrize("hint", ["generated", "by hand"])
def test_hc008_reports_a_description_that_is_only_the_answered_hint(
    lint_sdk: Lint, hint: str
) -> None:
    """With the hint left out of HC013's comparison, a description that is nothing but the hint
    would get no finding: it gives the parent nothing to route by, as no description does."""
    view = AgentView(name="a", kind="child", mode="direct", description="")
    text = (
        render_subagent_description(view).replace("\n", " ").strip()
        if hint == "generated"
        else "If its answered output is true, the user already has the answer."
    )
    findings = lint_sdk(_two(text, "Books meeting rooms."))
    assert ids(findings) == ["HC008"]
    assert findings[0].agent == "pto"
    assert "only says how to read `answered`" in findings[0].message
