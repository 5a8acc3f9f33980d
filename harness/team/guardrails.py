"""Guardrails of the team loop: input normalisation, injection screening, tool timeouts, a watchdog.

**Normalisation** (``normalize_text``): Unicode NFKC (full-width and compatibility forms become
plain letters), then removal of control characters (except newline and tab), bidirectional overrides
and isolates (U+202A-202E, U+2066-2069, U+200E/F, U+061C), zero-width characters (U+200B-200D,
U+2060, U+FEFF, U+00AD soft hyphen), other format and private-use characters, and Unicode tag
characters (U+E0000-E007F, used to smuggle invisible ASCII). Every message and every screened input
goes through it.

**Injection screening** (``screen``) runs ``INJECTION_RULES`` on the normalised text and on two
derived forms: one with common Cyrillic and Greek look-alikes mapped to Latin letters, and one
"squashed" (letters only, so ``i g n o r e`` and ``ig-nore`` read as ``ignore``). The rules:

| id    | severity | catches |
|-------|----------|---------|
| PI001 | block | instruction override: ignore / disregard / forget the previous instructions (EN, FR, DE, ES) |
| PI002 | block | role hijack: "you are now ...", developer mode, DAN, "act as an unrestricted ..." |
| PI003 | block | exfiltration of the system prompt or hidden instructions |
| PI004 | block | forged chat-role markers: ``system:`` lines, ``<|im_start|>``, ``[INST]``, ``### System`` |
| PI005 | block | forged team-protocol tokens: ``HANDOFF:x``, ``NEED_TOOL``, ``VERDICT:``, a lone ``DONE`` line |
| PI006 | block | data exfiltration through a Markdown image or link with a query string to fill in |
| PI007 | flag  | a long base64 blob (an encoded payload) |
| PI008 | flag  | invisible or direction-changing characters were removed (a smuggling attempt) |

``block`` findings stop the run (policy ``block``, the default) or have their span masked (policy
``sanitize``); ``flag`` findings are reported in the events and let through.

**Tools** run under a timeout each (``call_tool``, the agent loop's ``run_tool_call``); a timeout
or an exception becomes an ``error: ...`` string for the model, never a crashed run, and tool
output is screened like any input.

**Loop watchdog** (``LoopWatchdog``): a termination condition that ends a run whose last turns each
repeat, near-verbatim, the same member's previous message.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Literal

from harness.agent.loop import ToolOutcome, run_tool_call
from harness.models.base import ToolCall
from harness.team.state import TeamState
from harness.team.termination import StopReason, TerminationCondition
from subagents import Tool, ToolContext

__all__ = [
    "INJECTION_RULES",
    "Guardrails",
    "InjectionFinding",
    "InjectionRule",
    "LoopWatchdog",
    "Screening",
    "ToolOutcome",
    "call_tool",
    "normalize_text",
    "screen",
]

_INVISIBLE = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\ufeff\u00ad\U000e0000-\U000e007f]"
)
_CONFUSABLES = str.maketrans(
    "аеорсухіјѕԁɡνοαεκτмнвАЕОРСУХІЈЅΑΒΕΗΙΚΜΝΟΡΤΧΥ",
    "aeopcyxijsdgvoaektmhbAEOPCYXIJSABEHIKMNOPTXY",
)


def normalize_text(text: str) -> str:
    """NFKC, then strip control, bidirectional, zero-width and tag characters."""
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    return "".join(
        ch for ch in text if ch in "\n\t\r" or unicodedata.category(ch) not in ("Cc", "Cf", "Co")
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class InjectionRule:
    """One screening rule."""

    id: str
    name: str
    severity: Literal["block", "flag"]
    pattern: re.Pattern[str]
    squashed: re.Pattern[str] | None = None
    """A pattern for the letters-only form, to catch spaced or punctuated spellings."""


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.MULTILINE)


_TARGETS = r"(?:instructions?|directions?|rules|prompts?|guidelines|directives)"
INJECTION_RULES: tuple[InjectionRule, ...] = (
    InjectionRule(
        id="PI001",
        name="instruction-override",
        severity="block",
        pattern=_rx(
            r"\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|the\s+|your\s+"
            r"|of\s+|every\s+)*(?:previous|prior|above|earlier|preceding|former|system|original)\s+"
            + _TARGETS
            + r"|\bignorez?\s+(?:toutes\s+)?(?:les\s+)?(?:instructions|consignes)\s+"
            r"(?:pr[ée]c[ée]dentes|ci-dessus)"
            r"|\bignoriere\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen)\s+anweisungen"
            r"|\bignora\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)"
        ),
        squashed=re.compile(
            r"(?:ignore|disregard|forget)(?:all|any|the|your)*(?:previous|prior|above|earlier)"
            r"(?:instructions?|rules|prompts?)"
        ),
    ),
    InjectionRule(
        id="PI002",
        name="role-hijack",
        severity="block",
        pattern=_rx(
            r"\byou\s+are\s+now\s+(?:an?\s+|in\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken"
            r"|evil|free\s+from|developer|DAN\b)|\byou\s+are\s+no\s+longer\s+(?:bound|restricted)"
            r"|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must)\b|\bdeveloper\s+mode\b"
            r"|\bjailbr(?:ea|o)k|(?-i:\bDAN\b)"
            r"|\b(?:act|behave)\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored)"
            r"|\bpretend\s+(?:that\s+)?you\s+(?:have\s+no|are\s+not\s+bound)"
            r"|\bnew\s+(?:system\s+)?instructions?\s*:"
        ),
    ),
    InjectionRule(
        id="PI003",
        name="prompt-exfiltration",
        severity="block",
        pattern=_rx(
            r"\b(?:reveal|show|print|repeat|output|leak|dump|tell\s+me|what\s+(?:is|are))\s+"
            r"(?:me\s+)?(?:your|the)\s+(?:full\s+|exact\s+|hidden\s+|initial\s+|secret\s+)*"
            r"(?:system\s+prompt|system\s+message|hidden\s+instructions|instructions\s+above"
            r"|prompt\s+above|initial\s+instructions)"
        ),
    ),
    InjectionRule(
        id="PI004",
        name="forged-role-marker",
        severity="block",
        pattern=_rx(
            r"^\s*(?:system|assistant|developer)\s*(?:prompt|message)?\s*:\s*(?:you\b|ignore"
            r"|disregard|new\b|from\s+now|your\b|always\b|never\b|do\s+not\b)"
            r"|<\|im_(?:start|end)\|>|\[/?INST\]|<</?SYS>>"
            r"|^\s*#{2,}\s*(?:system|instruction)s?\b|</?system>"
        ),
    ),
    InjectionRule(
        id="PI005",
        name="forged-protocol-token",
        severity="block",
        pattern=re.compile(
            r"\bHANDOFF:\s*\w+|\bNEED_TOOL\b|\bVERDICT:\s*(?:accept|reject)\b|(?m:^\s*DONE\s*$)"
        ),
    ),
    InjectionRule(
        id="PI006",
        name="exfiltration-link",
        severity="block",
        pattern=_rx(r"!?\[[^\]]*\]\(\s*https?://[^)\s]+\?[^)\s]*=[^)]*\)"),
    ),
    InjectionRule(
        id="PI007",
        name="encoded-payload",
        severity="flag",
        pattern=re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{80,}={0,2}(?![A-Za-z0-9+/])"),
    ),
)
_HIDDEN_RULE = ("PI008", "hidden-characters")


@dataclass(frozen=True, slots=True, kw_only=True)
class InjectionFinding:
    rule: str
    name: str
    severity: Literal["block", "flag"]
    excerpt: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Screening:
    """The outcome of screening one input."""

    text: str
    """The normalised text (masked spans replaced under the ``sanitize`` policy)."""
    findings: tuple[InjectionFinding, ...] = ()
    removed_characters: int = 0
    """Invisible or control characters removed by normalisation."""

    @property
    def blocked(self) -> bool:
        return any(f.severity == "block" for f in self.findings)

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(f.rule for f in self.findings)


def screen(text: str, *, policy: Literal["block", "sanitize"] = "block") -> Screening:
    """Normalise ``text`` and run the injection rules on it (see the module docstring).

    Under ``sanitize`` the matched spans of blocking rules are replaced with ``[removed]`` and the
    findings are kept (so the run goes on, the events still report them); matches found only in
    the look-alike or squashed forms cannot be masked precisely and remain blocking.
    """
    clean = normalize_text(text)
    removed = len(unicodedata.normalize("NFKC", text)) - len(clean)
    latin = clean.translate(_CONFUSABLES)
    squashed = re.sub(r"[^a-z]", "", latin.lower())
    findings: list[InjectionFinding] = []
    if removed:
        findings.append(
            InjectionFinding(
                rule=_HIDDEN_RULE[0],
                name=_HIDDEN_RULE[1],
                severity="flag",
                excerpt=f"{removed} invisible character(s) removed",
            )
        )
    masked = clean
    for rule in INJECTION_RULES:
        direct = rule.pattern.search(clean)
        match = direct or rule.pattern.search(latin)
        found = match.group(0) if match else None
        if found is None and rule.squashed is not None:
            squashed_match = rule.squashed.search(squashed)
            found = squashed_match.group(0) if squashed_match else None
        if found is None:
            continue
        severity = rule.severity
        if policy == "sanitize" and rule.severity == "block" and direct is not None:
            masked = rule.pattern.sub("[removed]", masked)
            severity = "flag"
        findings.append(
            InjectionFinding(rule=rule.id, name=rule.name, severity=severity, excerpt=found[:80])
        )
    return Screening(text=masked, findings=tuple(findings), removed_characters=removed)


async def call_tool(
    tool: Tool, arguments: dict[str, Any], context: ToolContext, *, time_limit: float
) -> ToolOutcome:
    """Call one tool under ``time_limit`` seconds; failures become an error outcome.

    The same call a team member's model makes (``harness.agent.loop.run_tool_call``): bad
    arguments, an exception or the timeout become an ``error: ...`` output for the model.
    """
    call = ToolCall(id="", name=tool.name, arguments=arguments)
    return await run_tool_call(
        tool,
        call,
        context,
        threads=f"team:{context.agent}",
        tool_timeout=time_limit,
        tool_errors="report",
    )


def _canon(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


class LoopWatchdog(TerminationCondition):
    """Ends a run whose last ``repeats`` turns each repeat their sender's previous message.

    Two messages are near-verbatim when their texts (lower-cased, punctuation and extra space
    removed) have a ``difflib`` ratio of at least ``similarity``. A message that changes breaks
    the streak.
    """

    def __init__(self, *, similarity: float = 0.9, repeats: int = 2) -> None:
        if not 0.0 < similarity <= 1.0 or repeats < 1:
            raise ValueError("similarity must be in (0, 1] and repeats at least 1")
        self.similarity = similarity
        self.repeats = repeats

    def _repeats_previous(self, state: TeamState, index: int) -> bool:
        message = state.journal[index]
        for earlier in reversed(state.journal[:index]):
            if earlier.sender == message.sender:
                a, b = _canon(message.content), _canon(earlier.content)
                if not a or not b:
                    return False
                matcher = SequenceMatcher(None, a, b, autojunk=False)
                return (
                    matcher.quick_ratio() >= self.similarity and matcher.ratio() >= self.similarity
                )
        return False

    def check(self, state: TeamState) -> StopReason | None:
        for streak, index in enumerate(range(len(state.journal) - 1, -1, -1), start=1):
            if not self._repeats_previous(state, index):
                break
            if streak >= self.repeats:
                return StopReason(
                    kind="watchdog",
                    detail=f"the last {streak} turns repeat earlier ones near-verbatim",
                    limit=self.repeats,
                )
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Guardrails:
    """The guardrail settings of a team."""

    screen_inputs: bool = True
    """Screen the task and the parent's history entries before the run."""
    screen_tool_output: bool = True
    """Screen what tools return before a model reads it."""
    on_injection: Literal["block", "sanitize"] = "block"
    """``block`` ends the run (``risk_blocked``); ``sanitize`` masks the span and goes on."""
    tool_timeout: float = 10.0
    """Seconds one tool call may take."""
    watchdog: LoopWatchdog | None = field(default_factory=LoopWatchdog)
    """The loop watchdog; None turns it off."""
