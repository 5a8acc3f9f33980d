"""Speed-ups of the detectors must not change what they find.

``fixtures_perf/expected_findings.json`` was written by the detectors as they were before the
performance work (caches, cheaper candidate counting, the fast text report); every test here
recomputes the same things and compares them with it, exactly (order, evidence and unrounded scores
included). The inputs are varied on purpose: generated helpdesk conversations with facts, relays,
paraphrases, closers, holding messages, awkward acks, silent leaks, plans with missed and
wrong-scope requests, repeats across the window's edge and repeated questions, checked under several
configs interleaved in one process (so a cache shared between configs would show), with a toy
embedder for ``semantic``; the runtime duplicate guard on the same messages; and the calibration
pairs the way ``calibration/measure.py`` builds them.

After an intended change of behaviour, regenerate the file::

    .venv/bin/python -m tests.simulate.test_perf_equivalence --write
"""

from __future__ import annotations

import json
import random
import re
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.detect import DetectionResult, DetectorConfig, Finding, detect, render_text
from harness.detect.embeddings import Embedder
from harness.detect.findings import floor_score
from harness.detect.guard import DuplicateGuard
from harness.detect.transcript import Message, PlannedRequest, Transcript, TurnRecord
from tests.simulate.calibration.measure import conversation as calibration_conversation
from tests.simulate.calibration.measure import load_pairs

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures_perf" / "expected_findings.json"
CALIBRATION = HERE / "calibration"

# --- a varied generated transcript --------------------------------------------------------------

AGENTS = {"pto": "direct", "payroll": "silent", "benefits": "conversational", "it": "direct"}
QUESTIONS = {
    "pto": ["How many vacation days do I have left?", "how much PTO have I used this year"],
    "payroll": ["When is payday?", "how much tax has been withheld so far"],
    "benefits": ["What is my deductible?", "which medical plan am I on"],
    "it": ["What's the status of my ticket?", "please reset my password"],
}
ANSWERS = {
    "pto": [
        "You have {n} vacation days left for {year}.",
        "You have used {n} PTO days so far this year.",
        "Your vacation request for {month} {d} to {month} {d2} has been {state}.",
    ],
    "payroll": [
        "Your next payday is {weekday}, {month} {d}.",
        "Your federal tax withholding so far in {year} is ${amount}.",
    ],
    "benefits": [
        "You are enrolled in the {plan} medical plan with a ${amount} deductible.",
        "Your HSA balance is ${amount}; contributions are not taxed.",
        "You’re not eligible for the {plan} plan until {month} {d}, and your spouse is covered.",
    ],
    "it": [
        "Ticket INC00{n}{d} is {state} and assigned to the {team} team.",
        "I've reset your password; it expires in {n} days.\n- Sign in at the portal.\n"
        "- Set up MFA again.",
        "Your laptop repair is {state} – pick it up on {weekday} at {d}:00 from Dana at reception.",
    ],
}
CLOSERS = [
    "Anything else I can help with?",
    "Is there anything else I can help you with today?",
    "Let me know if you need anything else.",
    "Hope that helps!",
    "Have a great day!",
    "Is there anything more I can help you with?",
    "Talk soon.",
]
HOLDING = ["Let me check that for you.", "One moment please.", "Sure, let me look into that."]
AWKWARD = ["As I mentioned earlier, ", "Like I said, ", "As the PTO agent just said, ", ""]
STATES = ["approved", "pending", "denied", "in progress", "completed", "not approved"]
MONTHS = ["March", "May", "December", "Jan", "Sept"]
WEEKDAYS = ["Monday", "Thursday", "Friday"]
PLANS = ["Aetna PPO", "Kaiser HMO", "Blue Shield"]
TEAMS = ["Network", "Desktop", "Identity"]


def _answer(rng: random.Random, agent: str) -> str:
    return rng.choice(ANSWERS[agent]).format(
        n=rng.randrange(2, 40),
        d=rng.randrange(1, 28),
        d2=rng.randrange(1, 28),
        year=rng.choice([2025, 2026]),
        amount=f"{rng.randrange(500, 20000):,}",
        month=rng.choice(MONTHS),
        weekday=rng.choice(WEEKDAYS),
        state=rng.choice(STATES),
        plan=rng.choice(PLANS),
        team=rng.choice(TEAMS),
    )


def _relay(rng: random.Random, answer: str, other: str) -> str:
    """The parent's message about a sub-agent's answer: a repeat, a rewording, or new content."""
    lowered = answer[0].lower() + answer[1:]
    return rng.choice(
        [
            answer,
            f"Here's what I found: {answer} {rng.choice(CLOSERS)}",
            f"{rng.choice(AWKWARD)}{lowered}",
            f"To sum up: {answer} Also, {other[0].lower()}{other[1:]}",
            answer.replace(".", "!", 1),
            re.sub(r"\d+", lambda m: str(int(m.group(0)) + 1), answer, count=1),
            f"{answer.rstrip('.')}, and the office is closed {rng.choice(WEEKDAYS)}.",
            other,
            rng.choice(CLOSERS),
            f"Good news: {lowered}",
            _paraphrase(answer),
            _paraphrase(answer),
            "   ",
        ]
    )


SYNONYMS = [
    ("You have", "There are"),
    (" left", " remaining"),
    ("Your next", "The upcoming"),
    ("is ", "will be "),
    ("so far", "to date"),
    ("medical plan", "health plan"),
    ("assigned to", "owned by"),
]


def _paraphrase(answer: str) -> str:
    for old, new in SYNONYMS:
        answer = answer.replace(old, new, 1)
    return answer


def generated(seed: int, turns: int, *, modes_known: bool) -> Transcript:
    """One helpdesk conversation of ``turns`` turns with every kind of finding in it."""
    rng = random.Random(seed)
    messages: list[Message] = []
    records: list[TurnRecord] = []
    history: list[tuple[str, str]] = []  # (agent, answer) already sent
    asked: list[str] = []

    def add(turn: int, role: str, sender: str, text: str, **extra: Any) -> None:
        messages.append(
            Message(
                id=f"c{seed}m{len(messages) + 1}",
                turn=turn,
                role="user" if role == "user" else "bot",
                sender=sender,
                text=text,
                **extra,
            )
        )

    for turn in range(1, turns + 1):
        agents = rng.sample(sorted(AGENTS), rng.choice([1, 1, 2, 3]))
        questions = [rng.choice(QUESTIONS[a]) for a in agents]
        roll = rng.random()
        if asked and roll < 0.1:
            user = rng.choice(asked)  # the same question again
        elif asked and roll < 0.2:
            user = rng.choice(asked).rstrip("?") + " again?"
        elif roll < 0.25:
            user = "Remind me what you said"
        else:
            user = " and ".join(questions)
        asked.append(user)
        add(turn, "user", "user", user)
        plan = tuple(
            PlannedRequest(agent=a, request=q) for a, q in zip(agents, questions, strict=True)
        )
        answered = tuple(a for a in agents if rng.random() < 0.4)
        failed = tuple(a for a in agents if rng.random() < 0.08)
        if rng.random() < 0.85:
            records.append(TurnRecord(turn=turn, plan=plan, answered_by=answered, failed=failed))
        if rng.random() < 0.2:
            add(turn, "bot", "helpdesk", rng.choice(HOLDING))
        sent: list[str] = []
        for agent, question in zip(agents, questions, strict=True):
            if agent in failed or rng.random() < 0.1:
                continue  # nothing from this agent: a missed request
            if history and rng.random() < 0.15:
                answer = rng.choice(history[-12:])[1]  # an old answer again, maybe out of window
            else:
                answer = _answer(rng, agent)
            sender = agent if rng.random() < 0.9 else rng.choice(sorted(AGENTS))
            request = None
            tag = rng.random()
            if tag < 0.5:
                request = question
            elif tag < 0.6:
                request = question.upper() + "!"  # the same request, written differently
            elif tag < 0.7:
                request = rng.choice(questions)
            extra: dict[str, Any] = {"request": request}
            if not modes_known or rng.random() < 0.3:
                extra["mode"] = AGENTS.get(sender)
            add(turn, "bot", sender, answer, **extra)
            sent.append(answer)
            history.append((agent, answer))
            if rng.random() < 0.1:
                add(turn, "bot", sender, answer, **extra)  # sent twice by the same agent
        if sent or rng.random() < 0.5:
            other = _answer(rng, rng.choice(sorted(AGENTS)))
            add(turn, "bot", "helpdesk", _relay(rng, rng.choice(sent) if sent else other, other))
        if rng.random() < 0.3:
            add(turn, "bot", "helpdesk", rng.choice(CLOSERS))
        if rng.random() < 0.05:
            add(turn, "bot", "helpdesk", rng.choice(HOLDING))
    return Transcript.from_messages(
        messages,
        conversation=f"generated-{seed}",
        turns=records,
        agent_modes=dict(AGENTS) if modes_known else None,
    )


def wide(seed: int) -> Transcript:
    """Turns of 1 to 260 bot messages drawn from a few answers: big windows, many candidates."""
    rng = random.Random(seed)
    pool = [_answer(rng, agent) for agent in sorted(AGENTS) for _ in range(3)]
    messages: list[Message] = []
    for turn, size in enumerate([2, 40, 90, 3, 1, 260, 5, 70, 2, 1, 120, 4, 2, 3], start=1):
        messages.append(
            Message(
                id=f"w{seed}m{len(messages) + 1}",
                turn=turn,
                role="user",
                sender="user",
                text=rng.choice(QUESTIONS[rng.choice(sorted(AGENTS))]),
            )
        )
        for _ in range(size):
            answer = rng.choice(pool)
            text = answer if rng.random() < 0.5 else _relay(rng, answer, rng.choice(pool))
            messages.append(
                Message(
                    id=f"w{seed}m{len(messages) + 1}",
                    turn=turn,
                    role="bot",
                    sender=rng.choice([*sorted(AGENTS), "helpdesk"]),
                    text=text,
                )
            )
    return Transcript.from_messages(messages, conversation=f"wide-{seed}")


def conversations() -> list[Transcript]:
    return [
        generated(1, 120, modes_known=True),
        generated(2, 80, modes_known=False),
        generated(3, 150, modes_known=True),
        generated(4, 40, modes_known=False),
        wide(5),
    ]


CONFIGS: dict[str, DetectorConfig] = {
    "default": DetectorConfig(),
    "no-window": DetectorConfig(cross_turn_window=0),
    "loose": DetectorConfig(
        cross_turn_window=2, near_threshold=0.5, containment_threshold=0.6, min_words=2
    ),
    "strict": DetectorConfig(
        near_threshold=0.9, sentence_threshold=0.95, strict_threshold=0.97, cross_turn_window=8
    ),
    "semantic": DetectorConfig(semantic_threshold=0.7),
    "own-closers": DetectorConfig(
        boilerplate=("Talk soon.", "Hope that helps!"),
        kinds=frozenset({"duplicate", "awkward_ack"}),
    ),
}


class HashEmbedder(Embedder):
    """A toy bag-of-words embedder: texts sharing words get close vectors (deterministic)."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vector = [0.01] * 48
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                vector[zlib.crc32(word.encode()) % 48] += 1.0
            out.append(vector)
        return out


def _record(finding: Finding) -> list[Any]:
    return [
        finding.kind,
        finding.scope,
        finding.method,
        finding.turn,
        list(finding.message_ids),
        list(finding.senders),
        finding.score,
        finding.evidence,
        finding.severity,
    ]


def _records(findings: Sequence[Finding]) -> list[list[Any]]:
    return [_record(f) for f in findings]


# --- what is compared ----------------------------------------------------------------------------


LEXICAL = ("default", "no-window", "loose", "strict", "own-closers")
"""The configs the generated conversations are checked under (``wide``: default and loose)."""


def generated_findings() -> dict[str, Any]:
    """Every generated conversation under every config, the configs interleaved (twice over)."""
    convs = conversations()
    out: dict[str, Any] = {}
    for round_ in (1, 2):
        for conv in convs:
            names = ("default", "loose") if conv.conversation.startswith("wide") else LEXICAL
            for name in names:
                key = f"{conv.conversation}/{name}"
                found = _records(detect(conv, config=CONFIGS[name]))
                if round_ == 1:
                    out[key] = found
                elif found != out[key]:
                    out[key + "/second-run"] = found  # a stale cache would show here
    return out


def semantic_findings() -> dict[str, Any]:
    embedder = HashEmbedder()
    return {
        f"{conv.conversation}/{name}": _records(
            detect(conv, config=CONFIGS[name], embedder=embedder)
        )
        for conv in conversations()[1:3]
        for name in ("default", "loose", "semantic")
    }


def guard_decisions() -> dict[str, Any]:
    """The runtime guard on every parent message of two conversations, against what came before."""
    out: dict[str, Any] = {}
    for conv in conversations()[:2]:
        for policy in ("warn", "drop"):
            guard = DuplicateGuard(policy, config=CONFIGS["default"])
            decisions = []
            for index, message in enumerate(conv.messages):
                if message.role != "bot" or message.sender != "helpdesk":
                    continue
                decision = guard.check(message.text, sent=conv.messages[:index], turn=message.turn)
                decisions.append(
                    {
                        "id": message.id,
                        "text": decision.text,
                        "dropped": list(decision.dropped),
                        "findings": _records(decision.findings),
                    }
                )
            out[f"{conv.conversation}/{policy}"] = decisions
    return out


def calibration_findings() -> dict[str, Any]:
    """The calibration pairs as ``measure.py`` checks them, and under the default config."""
    pairs = load_pairs(CALIBRATION / "pairs.jsonl")
    handwritten = load_pairs(CALIBRATION / "handwritten.jsonl")
    for number, pair in enumerate(handwritten, start=1):
        pair.setdefault("id", f"handwritten-{number}")
    measured = DetectorConfig(kinds=frozenset({"duplicate"}))
    out: dict[str, Any] = {}
    for pair in [*pairs, *handwritten]:
        conv = calibration_conversation(pair)
        out[pair["id"]] = {
            "measure": _records(detect(conv, config=measured)),
            "default": _records(detect(conv)),
        }
    return out


def small_text_reports() -> dict[str, str]:
    """The text report of small conversations: a few turns each, a few findings each."""
    out: dict[str, str] = {}
    for seed in (11, 12, 13):
        conv = generated(seed, 6, modes_known=seed != 12)
        result = DetectionResult(
            file="generated.jsonl",
            conversation=conv.conversation,
            transcript=conv,
            findings=tuple(detect(conv)),
        )
        out[f"{seed}/120"] = render_text([result])
        out[f"{seed}/160-color"] = render_text([result], width=160, color=True)
    return out


SECTIONS = {
    "generated": generated_findings,
    "semantic": semantic_findings,
    "guard": guard_decisions,
    "calibration": calibration_findings,
    "text": small_text_reports,
}


def _expected(section: str) -> Any:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))[section]


# --- the tests -----------------------------------------------------------------------------------


def test_generated_conversations_give_the_frozen_findings_under_every_config() -> None:
    found = generated_findings()
    expected = _expected("generated")
    assert sorted(found) == sorted(expected)
    for key in expected:
        assert found[key] == expected[key], key
    total = sum(len(v) for v in expected.values())
    kinds = {f[0] for v in expected.values() for f in v}
    methods = {f[2] for v in expected.values() for f in v}
    assert total > 1000
    assert kinds == {"duplicate", "missed_request", "silent_leak", "wrong_scope", "awkward_ack"}
    assert {"exact", "near", "containment"} <= methods


def test_semantic_duplicates_with_an_embedder_are_unchanged() -> None:
    found = semantic_findings()
    assert found == _expected("semantic")
    assert any(f[2] == "semantic" for v in found.values() for f in v)


def test_the_runtime_guard_decides_as_before() -> None:
    found = guard_decisions()
    assert found == _expected("guard")
    assert any(d["dropped"] for v in found.values() for d in v)


def test_calibration_pairs_give_the_frozen_findings() -> None:
    found = calibration_findings()
    expected = _expected("calibration")
    assert sorted(found) == sorted(expected)
    for key in expected:
        assert found[key] == expected[key], key


def test_small_text_reports_are_unchanged() -> None:
    assert small_text_reports() == _expected("text")


AWKWARD_TEXTS = [
    "As I mentioned earlier, your PTO balance is 12 days.",
    "as we already said, payday is Friday.",
    "As previously mentioned, the ticket is open.",
    "AS NOTED ABOVE, the plan is Aetna.",
    "As you already know, the office is closed.",
    "As you heard, payday moved.",
    "As the PTO agent just said, you have 12 days.",
    "As our IT specialists pointed out, reboot first.",
    "Like I just said, it is approved.",
    "The payroll agent has already told you the date.",
    "You’ve already been told the balance.",
    "You were already given the form.",
    "To reiterate what the payroll agent said, it is Friday.",
    "Recap what I said: 12 days.",
    "Repeat what we covered? Sure.",
    "Aſ I mentioned, the form is signed.",  # a long s: case-folds to "s"
    "As I MENTIONED, the Kelvin sign K folds too.",
    "It was mentioned as a reminder that the plan renews.",
    "Your balance has already changed.",
    "Just so you know, payday is Friday.",
    "Your ticket is open and assigned to the Network team.",
    "Alias I mentioned is not an ack.",
    "",
]


def test_every_awkward_phrase_is_still_found() -> None:
    """The cheap first test of a message never hides a phrase the full pattern finds."""
    from harness.text._acknowledge import _AWKWARD

    texts = AWKWARD_TEXTS + [t.upper() for t in AWKWARD_TEXTS] + [t.lower() for t in AWKWARD_TEXTS]
    messages = [Message(id="u", turn=1, role="user", sender="user", text="hi")]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="helpdesk", text=text)
        for i, text in enumerate(texts)
    ]
    conv = Transcript.from_messages(messages)
    found = {
        f.message_ids[0]: f.evidence
        for f in detect(conv, config=DetectorConfig(kinds=frozenset({"awkward_ack"})))
    }
    expected = {}
    for i, text in enumerate(texts):
        match = _AWKWARD.search(text.replace("’", "'"))
        if match:
            expected[f"b{i}"] = (
                f'refers to an earlier answer instead of leaving it: "{match.group(0)}"'
            )
    assert found == expected
    assert len(expected) >= 3 * 16


# --- the fast text report ------------------------------------------------------------------------


def _result(conv: Transcript) -> DetectionResult:
    return DetectionResult(
        file="generated.jsonl",
        conversation=conv.conversation,
        transcript=conv,
        findings=tuple(detect(conv)),
    )


def _lines_of(text: str, result: DetectionResult) -> list[str]:
    """The finding lines of one conversation in a report (colours taken out)."""
    lines = re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(result.title + " ("))
    return lines[start + 2 : start + 2 + len(result.findings)]


def test_a_large_report_lists_every_finding_on_its_own_line() -> None:
    big = _result(generated(21, 60, modes_known=True))
    assert len(big.findings) > 50
    text = render_text([big], width=100)
    lines = text.splitlines()
    assert lines[0] == (
        f"{big.title} (60 turns, {len(big.transcript)} messages): {len(big.findings)} findings"
    )
    assert lines[1].split() == ["turn", "finding", "scope", "messages", "evidence"]
    rows = _lines_of(text, big)
    for finding, row in zip(big.findings, rows, strict=True):
        what = finding.kind + (f"/{finding.method}" if finding.method else "")
        assert row.split()[:2] == [str(finding.turn), what]
        if finding.message_ids:
            for message_id, sender in zip(finding.message_ids, finding.senders, strict=True):
                assert f"{message_id} ({sender})" in row
        else:
            assert (
                "(none) expected from " + ", ".join(finding.senders)
                if finding.senders
                else "(none)"
            ) in row
        # Never cut short; a missed request's row then shows its turn's plan, when it has one
        # (the independent check also finds requests in turns the runtime recorded no plan for).
        # A missed request the check judged shows its confidence after the evidence.
        planned = any(r.turn == finding.turn and r.plan for r in big.transcript.turns)
        evidence = finding.evidence
        if finding.kind == "missed_request" and finding.score is not None:
            evidence += f"; confidence {floor_score(finding.score):.3f}"
        if finding.kind == "missed_request" and planned:
            assert f"{evidence}; plan: " in row
        else:
            assert row.endswith(evidence)
    assert "│" not in text  # no table
    assert f"1 conversation: {len(big.errors)} errors" in text
    # The columns line up: the finding column starts at the same place on every line.
    starts = {row.index(row.split()[1], len(row.split()[0]) + 2) for row in rows}
    assert len(starts) == 1


def test_small_conversations_keep_their_table_next_to_a_large_one() -> None:
    big = _result(generated(21, 60, modes_known=True))
    small = _result(generated(11, 6, modes_known=True))
    text = render_text([small, big])
    table = _expected("text")["11/120"].split("1 conversation:")[0]
    assert text.startswith(table)  # as before the fast report
    assert "┃ kind" in text
    rows = _lines_of(text, big)
    assert [row.split()[0] for row in rows] == [str(f.turn) for f in big.findings]


def test_many_findings_in_all_are_listed_as_lines_even_in_small_conversations() -> None:
    results = [_result(generated(seed, 8, modes_known=True)) for seed in range(100, 160)]
    assert all(len(r.findings) <= 50 for r in results)
    assert sum(len(r.findings) for r in results) > 500
    text = render_text(results, color=True)
    assert "┃" not in text
    for result in results:
        if result.findings:
            rows = _lines_of(text, result)
            assert [row.split()[0] for row in rows] == [str(f.turn) for f in result.findings]
    assert "\x1b[31mduplicate/" in text  # errors in red, as in the table
    assert "\x1b[33mawkward_ack\x1b[0m" in text  # warnings in yellow


def main(argv: list[str]) -> int:
    """``--write``: regenerate the fixture from the code as it is now."""
    if argv != ["--write"]:
        print(__doc__)
        return 2
    document = {name: build() for name, build in SECTIONS.items()}
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(
        json.dumps(document, indent=0, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {FIXTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
