"""The one reader of natural-language instructions: what each sentence asks of the agent.

The linter (every rule that reads instructions or descriptions), the offline rules model (whether
the parent checks ``answered`` or is told to repeat its sub-agents) and the simulator's
awkward-acknowledgement finder all ask these questions, so they read text the same way. A sentence
is read in three steps:

1. Roles are folded (:mod:`harness.text._roles`): any word for the person served is ``user``, any
   word for the caller is ``parent``, any word for the agents a parent calls is ``subagents``.
2. The sentence is cut into clauses; a clause opening with a condition ("if the lookup fails, ...")
   or closing with one ("... until you have the balance") is marked conditional.
3. Each clause is matched against frames built from word classes (:mod:`harness.text._vocab`): who
   acts (you, the parent, the user, the sub-agents), whether it is negated (and whether the
   negation is itself negated: "don't forget to greet the user"), what the act is (talking to the
   user, repeating what sub-agents said, checking ``answered``, claiming to be the only speaker).

:func:`read` gives one :class:`Reading` per sentence; the predicates below answer one question for a
whole text. :func:`acknowledgement` finds, in a bot's message, the phrase that refers to an earlier
answer ("as mentioned above", "to reiterate", "per the billing agent's message above").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from harness.text._acknowledge import acknowledgement
from harness.text._roles import clauses, sentences
from harness.text._vocab import (
    ADV,
    ALREADY_DONE,
    ANSWERS,
    CONDITION_HEAD,
    CONDITION_OPEN,
    GREETING,
    MSG,
    NEG,
    NEG_NEGATOR,
    PARENT,
    REPEAT,
    SEND,
    SPEAK,
    SUBS,
    TALK_OBJ,
    TALK_TO,
    USER,
)

__all__ = [
    "ASKS",
    "Ask",
    "Reading",
    "acknowledgement",
    "anchors_scope",
    "checks_answered",
    "claims_only_speaker",
    "forbids_user_messages",
    "hints_answered",
    "read",
    "read_sentence",
    "repeats_answers",
    "user_address",
]

Ask = Literal[
    "address",
    "silence",
    "conditional",
    "answered",
    "repeat",
    "only_speaker",
    "acknowledge",
    "scope",
]
"""What a sentence asks: address the user; never address the user; address (or not) the user only
under a condition; check ``answered``; repeat or summarise sub-agent answers (or ignore
``answered``); claim to be the only speaker; acknowledge an earlier message; keep to the scoped
request."""

ASKS: tuple[Ask, ...] = (
    "address",
    "silence",
    "conditional",
    "answered",
    "repeat",
    "only_speaker",
    "acknowledge",
    "scope",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """What one sentence asks."""

    sentence: str
    """The sentence as written (spacing collapsed, end dot cut)."""
    asks: frozenset[Ask]
    """Every reading of :data:`Ask` the sentence carries (empty for "none of them")."""


# -- talking to the user: silence, conditions, address ------------------------------------------

_CONDITIONAL_TAIL = re.compile(
    r"(?:until|unless|before|without|if|when|whenever|while|after|once|regarding|concerning"
    r"|about (?!(?:the |your |its )?(?:result|results|outcome|answer|findings|response|status"
    r"|decision|it|this|that)\b)"
    r"|more than|more often|other than|except|in (?!any\b|a direct\b|person\b|the chat\b"
    r"|the conversation\b|chat\b|any way\b|any form\b)|using|longer|shorter|twice|again|more\b"
    r"|multiple|for (?!any\b)|outside|beyond|that|which|who|containing|including"
    r"|on (?:topics?|subjects?|matters?)|unrelated|a second|another|prematurely|only (?:if|when|after)"
    r"|with (?!(?:the |your |any |an? )?(?:answer|response|result|results|findings|reply|replies"
    r"|it|anything|information|data|output|outputs|message|messages)\b))\b"
)
_CONDITIONAL_LEAD = re.compile(CONDITION_HEAD)
_IN_CONDITION = re.compile(CONDITION_OPEN)

_FORBID = re.compile(
    NEG
    + ADV
    + r"\s+(?:"
    + rf"{TALK_TO}(?:\s+(?:back|directly|anything|any messages?))*\s+(?:to|with)\s+{USER}"
    + rf"|{TALK_OBJ}(?:\s+directly)?\s+{USER}"
    + rf"|{SEND}\s+{MSG}(?:\s+(?:directly\s+)?(?:to|with)\s+{USER})?"
    + rf"|{SEND}\s+(?:anything|something)\s+(?:directly\s+)?(?:to|with)\s+{USER}"
    + rf"|{SEND}\s+{USER}\s+(?:anything|any messages?|a message|messages|a reply|replies)"
    + r"|(?:call|use|invoke|trigger|run)(?:s|ing)?\s+(?:the\s+|any\s+)?(?:sendmessagetool"
    + r"|send ?message ?tool|send_message|sendactivity|send activity|message tool|send tool"
    + r"|messaging tool)"
    + r"|(?:respond|reply|answer)(?:ing)?(?:\s+(?:in|to|into)\s+the\s+(?:conversation|chat|thread))?"
    + r"(?:\s+(?:directly|yourself|at all))+"
    + rf"|{SEND}\s+(?:anything|something|any\s+\w+)\s+(?:directly\s+)?(?:in|into|to)\s+the\s+"
    + r"(?:chat|conversation|thread)"
    + r"|(?:respond|reply)(?:ing)?(?=\s*$)"
    + r"|(?:have\s+|make\s+|engage in\s+|initiate\s+)?(?:any\s+|all\s+)?(?:direct\s+)?(?:contact"
    + r"|communication|conversations?|interactions?|messaging|correspondence|dialogue)\s+(?:with|to)\s+"
    + USER
    + r"|(?:be\s+)?(?:visible|heard|seen)\s+(?:to|by)\s+"
    + USER
    + r")"
)
# Someone else speaks for the agent, or the user never hears from it.
_OTHERS_SPEAK = re.compile(
    r"\bno\s+(?:direct\s+)?user\s+(?:conversations?|contact|messages?|communication|interactions?)"
    r"|\b(?:nothing|none of)\s+(?:\w+\s+){0,3}?(?:is|are|gets?|will be|should be)\s+(?:ever\s+)?"
    r"(?:shown|sent|visible|displayed|delivered|passed|given|seen by)\s+(?:directly\s+)?(?:to\s+)?"
    + USER
    + r"|"
    r"\b(?:let|allow)\s+" + PARENT + r"(?:\s+\w+){0,2}?"
    r"\s+(?:deliver|relay|present|send|communicate|give|write|provide|handle|respond|reply|talk"
    r"|speak|pass)(?:\s+\w+){0,4}?\s+(?:to|with)\s+"
    + USER
    + r"|(?:^|\bonly\s+|\b(?:and|so|but|because|as|while)\s+)"
    + PARENT
    + r"\s+(?:\w+\s+){0,4}?(?:will\s+|alone\s+|then\s+|is responsible for\s+|handles?\s+"
    r"|may\s+|can\s+|should\s+|must\s+|does\s+all\s+(?:the\s+)?)?"
    r"(?:deliver|relay|present|send|communicat(?:e|es|ing|ion)|talk|speak|respond|repl|answer"
    r"|contact|message|address|handl|deal|interact|messaging)\w*(?:\s+\w+){0,5}?"
    r"\s+(?:to\s+|with\s+|of\s+)?"
    + USER
    + r"|^"
    + PARENT
    + r"\s+(?:\w+\s+){0,2}?(?:does|do|handles?)\s+(?:that|this|the talking)\b"
    r"|\b(?:nobody|no one|none|no agent)\s+(?:but|except|other than|apart from|besides)\s+"
    + PARENT
    + r"|\b"
    + USER
    + r"\s+(?:should\s+|will\s+|must\s+|does\s+|do\s+|is\s+|are\s+)?(?:never|not"
    r"|n't|no longer)\s+(?:ever\s+|be\s+)?(?:see|read|receive|hear|get|notice|be\s+aware)\w*\s+"
    r"(?:\w+\s+){0,3}?(?:you|your|anything|what)\b"
    r"|\b" + USER + r"\s+(?:will\s+|should\s+)?(?:never|not|doesn't|does not|won't|cannot|can't)"
    r"\s+(?:\w+\s+)?(?:talk|speak|interact|chat)\w*\s+(?:to|with)\s+you\b"
    r"|\b"
    + USER
    + r"\s+(?:don't|do not|never|won't|will not)\s+(?:\w+\s+)?(?:talk|speak|interact|chat)"
    r"\w*\s+(?:to|with)\s+you\b"
    r"|\b"
    + USER
    + r"\s+(?:is|are|should be|must be|will be)\s+(?:never|not)\s+(?:\w+ed)\s+by\s+you\b"
    r"|\ball\s+(?:communication|messages|contact|replies|conversation|talking)\s+(?:with|to)\s+"
    + USER
    + r"\s+(?:goes|go|runs|run|passes|pass|is handled|are handled|happens)\s+(?:only\s+)?(?:through"
    r"|via|by)\s+"
    + PARENT
    + r"|\b(?:talk|messag|repl|communicat|contact|conversation)\w*\s+(?:\w+\s+){0,3}?(?:is|are)\s+"
    r"(?:the\s+)?parent'?s?\s+(?:job|task|role|responsibility|work)"
)
_SILENT_ROLE = re.compile(
    r"\bonly\s+(?:fill|populate|set|write to|write|return|use|update|provide|output)(?:\s+in)?"
    r"(?:\s+(?:the|your|its))?(?:\s+\w+)?\s+(?:output|outputs|output variables?|output fields?"
    r"|output parameters?|findings|return values?)\b"
    r"|\b(?:you are|you're|act as|you act as|as)\s+(?:a |an )?(?:silent|background|behind-the-scenes"
    r"|back-end|backend|headless|internal|invisible)\s+"
    r"|\b(?:keep|stay|remain|be)\s+(?:quiet|silent|mute|invisible|hidden|unseen)\b"
    r"(?!\s+(?:on|about)\b)"
    r"|\b(?:return|hand|give)\w*\s+(?:\w+\s+){0,2}?(?:results?|answers?|findings|outputs?|work"
    r"|response)\s+(?:only\s+)?to\s+"
    + PARENT
    + r"(?!\s+(?:and|who)\b)"
    + r"|\b(?:work|operate|run|act|stay|remain)\w*\s+(?:silently|invisibly|in the background"
    r"|behind the scenes|out of sight)\b|\bsilent mode\b|\bbehind the scenes\b"
    r"|\byour\s+(?:responses?|outputs?|answers?|repl(?:y|ies)|messages?|findings|results?|work|text)"
    r"\s+(?:goes|go|will go|(?:is|are|will be)(?:\s+only)?(?:\s+(?:\w+ed|read|seen|sent|given|shown|kept))?)"
    r"(?:\s+(?:only|directly|straight|just))*\s+(?:to|back to"
    r"|by|for)\s+"
    + PARENT
    + r"|\bleave\s+(?:all\s+|the\s+|any\s+)?(?:talking|communication|replying|replies|messaging"
    r"|conversation|speaking|contact)\s+(?:with\s+"
    + USER
    + r"\s+)?to\s+"
    + PARENT
    + r"|\b(?:send|say|write|post|output|show)\s+nothing\s+(?:directly\s+)?to\s+"
    + USER
    + r"|\byour\s+(?:only\s+)?(?:audience|reader|recipient|consumer)\s+is\s+(?:only\s+)?"
    + PARENT
    + r"|\b(?:hand|pass|send|give|return|report)\w*\s+(?:\w+\s+){0,2}?(?:results?|answers?|findings"
    r"|everything|outputs?|work|it|them|data|information)\s+back\b(?!\s+to\s+" + USER + r")"
    r"|\bkeep\s+(?:\w+\s+){0,4}?(?:away\s+from|hidden\s+from|from)\s+"
    + USER
    + r"|\b(?:write|respond|report|answer|reply|speak|talk)\w*(?:\s+back)?\s+(?:only\s+)?(?:to|for)\s+"
    + PARENT
    + r",?\s+(?:and\s+)?(?:not|never)\b"
)
_INSTEAD = re.compile(
    r"\b(?:instead of|rather than)\s+(?:directly\s+)?(?:reply|repl(?:y|ie)|respond|messag|answer"
    r"|talk|speak|writ|send|contact)\w*(?:\s+(?:directly|yourself))?(?:\s+(?:to|with)\s+"
    + USER
    + r"|\s+"
    + USER
    + r")?\s*(?:$|,|and\b)"
)
_OUTPUT_WORD = re.compile(r"\b(?:outputs?|findings|variables?|fields?|parent)\b")
_NEG_BEFORE = re.compile(r"(?:\bnot|\bnever|n't)\s+(?:\w+\s+)?$")
_NEGATED_NEGATION = re.compile(NEG + r"\s+" + NEG_NEGATOR + r"\s*$")
# Permission under a condition: "you may message the user only when ...", "only reply to the
# user after ...".
_PERMISSION = re.compile(
    r"\b(?:you\s+)?(?:may|can|are allowed to|are permitted to|are free to)\s+(?:only\s+)?"
    r"(?:\w+\s+){0,2}?(?:" + TALK_TO + r"|" + TALK_OBJ + r"|" + SEND + r")\b"
    r"|\bonly\s+(?:" + TALK_TO + r"|" + TALK_OBJ + r"|" + SEND + r")\b(?:\s+\w+){0,6}?\s+"
    r"(?:if|when|after|once|whenever|in case)\b"
)
_TALKS_TO_USER = re.compile(
    r"\b(?:" + TALK_TO + r"|" + TALK_OBJ + r"|" + SEND + r")\b(?:\s+[\w'-]+){0,6}?\s*\buser\b"
    r"|\b(?:" + TALK_TO + r"|" + SEND + r")\b"
)


def _forbids(clause: str) -> bool:
    if _CONDITIONAL_LEAD.match(clause):
        return False
    for match in _FORBID.finditer(clause):
        before = clause[: match.start()]
        tail = clause[match.end() :].lstrip(" ,")
        if _IN_CONDITION.search(before) or _NEGATED_NEGATION.search(clause[: match.end()]):
            continue
        if re.search(r"\b(?:subagents|parent)\s+(?:\w+\s+){0,2}$", before) and not re.search(
            r"\b(?:only|just)\b", before
        ):
            continue  # "sub-agents never speak to the user": about others, not this agent
        if re.search(r"\b(?:only|just)\s+(?:the\s+)?parent\b[^,]*$", before):
            return True  # "only the parent may ..., you must not": a silence either way
        if not _CONDITIONAL_TAIL.match(tail):
            return True
    for match in _OTHERS_SPEAK.finditer(clause):
        if not re.search(r"\b(?:if|unless|when|once|until)\b[^,]*$", clause[: match.start()]):
            return True
    for match in _SILENT_ROLE.finditer(clause):
        if not _NEG_BEFORE.search(clause[: match.start()]):
            return True
    return bool(_INSTEAD.search(clause) and _OUTPUT_WORD.search(clause))


_ONLY_THEN = re.compile(
    r"\bonly\s+(?:if|when|after|once|whenever|in case)\b|\b(?:not|never)\s+(?:before|until)\b"
)
_WAIT_BEFORE = re.compile(
    r"\bwait\b.*\b(?:before|until)\s+(?:you\s+)?(?:"
    + TALK_TO
    + r"|"
    + TALK_OBJ
    + r"|"
    + SEND
    + r")\b"
)


def _conditional(clause: str, sentence: str) -> bool:
    """A rule about talking to the user that holds only under a condition."""
    if _WAIT_BEFORE.search(clause) or (_ONLY_THEN.search(clause) and _addresses(clause)):
        return True
    permission = _PERMISSION.search(clause)
    if (
        permission
        and _TALKS_TO_USER.search(clause)
        and not re.search(r"\b(?:parent|subagents|user)\b", clause[: permission.start()])
    ):
        return bool(
            re.search(r"\b(?:only|if|when|after|once|unless|until|whenever|as long as)\b", clause)
        )
    for match in _FORBID.finditer(clause):
        if _NEGATED_NEGATION.search(clause[: match.end()]):
            continue
        tail = clause[match.end() :].lstrip(" ,")
        if (
            _CONDITIONAL_LEAD.match(sentence)
            or _IN_CONDITION.search(clause[: match.start()])
            or re.match(r"(?:until|unless|before|without|if|when|whenever|after|once|only)\b", tail)
            or re.search(
                r"\b(?:until|unless|before|if|whenever|once|only (?:if|when|after))\b", tail
            )
        ):
            return True
    return False


_ADDRESS = re.compile(
    r"\b(?P<verb>(?:tell|inform|notif(?:y|ies|ying)|updat|remind|advis|warn|greet|thank|ask|show"
    r"|messag|contact|email|answer|guid|walk|congratulat|reassur|prompt|let|giv|send|offer|pass|pay"
    r"|provid|suppl(?:y|ies|ying)|welcom|wish|assist|text|ping|call|repl(?:y|ies|ying)|respond|help)"
    r"(?:e|es|s|ing)?)\s+(?:back\s+)?"
    r"(?:(?:new|returning|existing|first-time|all|every|each|our|your|the|[\w-]+'s)\s+){0,2}(?:"
    + USER
    # "tell them the balance": in instructions, "them" after these verbs is the user.
    + r"|them\b(?!\s+apart))"
    + r"|\b(?P<verb2>(?:explain|present|give|send|reply|replie|respond|describe|display|provide"
    r"|offer|communicate|say|write|report|repeat|summari[sz]e|confirm|share|relay|deliver|show"
    r"|talk|speak|apologi[sz]e|read|clarify|check|discuss|verify|review|agree|wave|introduce"
    r"|reach out|chat|hand)\w*)\b"
    r"(?:\s+[\w'$.%/-]+){0,8}?\s+(?:to|with|for)\s+" + USER + r"|(?P<greet>" + GREETING + r")"
)
_IMPERATIVE_LEAD = re.compile(
    r"^(?:(?:please|always|then|first|finally|also|now|and|so|politely|clearly|briefly|kindly"
    r"|warmly|cheerfully|next|afterwards|after that|immediately|directly|you|should|must|will"
    r"|need to|have to|make sure to|make sure you|be sure to|remember to|try to|step|\d+"
    r"|begin by|start by|end by|finish by|first of all|please remember to"
    r"|(?:the|your|each|every)\s+(?:first\s+|opening\s+|final\s+|last\s+)?(?:message|reply|response"
    r"|answer)s?\s+(?:must|should|has to|needs to)"
    r"|(?:do not|don't|never|not)\s+" + NEG_NEGATOR + r")\s+)*$"
)
_LEAD_CUT = re.compile(r".*(?:,|\band\b|\bthen\b|:)\s*")


def _addresses(clause: str) -> bool:
    for match in _ADDRESS.finditer(clause):
        verb = match.group("verb") or match.group("verb2") or ""
        if re.search(r"\bnothing\b", match.group(0)):
            continue
        if verb.startswith("let") and " know" not in clause[match.end() : match.end() + 6]:
            continue
        if verb.startswith("help") and not re.match(
            r"\s+(?:with|to|find|understand)", clause[match.end() :]
        ):
            continue
        if verb.startswith("call") and not re.match(r"\s+back", clause[match.end() :]):
            continue
        lead = _LEAD_CUT.sub("", clause[: match.start()])
        if match.group("greet") and not verb:
            verb = match.group("greet").split()[0]
        if _IMPERATIVE_LEAD.match(lead) or (
            # "if it does not have enough funds tell the customer": a condition, then the
            # imperative (a base-form verb; "when the parent tells the user" is not one).
            _CONDITIONAL_LEAD.match(lead) and not verb.endswith(("s", "ed", "ing"))
        ):
            return True
    return False


# -- answered, repeating ------------------------------------------------------------------------

_ANSWERED_NAMED = re.compile(
    r"\bsets?\s+(?:its\s+|the\s+)?answered\s+(?:output\s+)?to\s+(?:true|false)\b"
    r"|\banswered\s+(?:output|flag|field|variable|value|property|parameter|result|boolean|bool)s?\b"
    r"|\banswered\s*(?:=|==|:|is|equals|was|returns?|comes back|set to|is set to|comes back as|as"
    r"|reported as|being)\s*"
    r"(?:true|false|yes|no)\b"
    r"|\b(?:check|read|look at|inspect|examine|consult|verify|evaluate|review|test|respect|honou?r"
    r"|use|follow|rely on|look for)(?:s|ing)?\s+"
    r"(?:whether\s+|if\s+)?(?:the\s+|its\s+|their\s+|each\s+|every\s+|a\s+|any\s+)?"
    r"(?:(?:subagents?|agent|tool|topic)'?s?\s+)?answered\b"
)
_ANSWERED_IGNORED = re.compile(
    r"\b(?:ignore|disregard|skip|regardless of|without checking|no need to check|never mind"
    r"|pay no attention to|override|don't care about|whatever|no matter what|no matter|even if"
    r"|(?:do not|don't|never)\s+bother\s+(?:checking|reading|looking at|with|about)"
    r"|(?:do not|don't|never|need not|needn't)\s+(?:check|read|use|look at|rely on|consult|trust"
    r"|follow|respect|honou?r))\s+"
    r"(?:the\s+|its\s+|their\s+|each\s+|any\s+|whether\s+)?(?:[\w-]+'?s?\s+)?answered\b"
)
_NO_REPEAT = re.compile(
    r"\b(?:do not|don't|never|avoid|without|must not|should not|shouldn't|no need to|not|nor)\s+"
    r"(?:\w+\s+)?(?:" + REPEAT + r"|answer\w*\s+(?:\w+\s+)?again|respond\w*\s+(?:\w+\s+)?again"
    r"|repl\w*\s+(?:\w+\s+)?again|say\w*\s+(?:\w+\s+)?again|tell\w*\s+(?:\w+\s+)?again"
    r"|acknowledg\w*)"
)
_NO_REPEAT_OTHERS = re.compile(
    r"\b(?:do not|don't|never|avoid|must not|should not|no need to)\s+(?:\w+\s+)?" + REPEAT + r"\s+"
    r"(?:\w+\s+){0,2}?(?:what|anything|information|answers?|responses?|content|messages?|replies"
    r"|results?)\s+(?:that\s+)?(?:\w+\s+){0,2}?(?:subagents?|agents?|topics?|tools?)\s+"
    r"(?:\w+\s+){0,2}?(?:said|told|sent|answered|gave|provided|shared|responded|replied|delivered"
    r"|returned|wrote|posted|gave)\b"
)
_NO_ANSWERED = re.compile(
    r"\b(?:no|not|never|doesn't|does not|without)\s+(?:return|set|report|provide|have|output|has)"
    r"\w*\s+(?:an?\s+|the\s+|any\s+)?answered\b"
)
_INTERPRETS = re.compile(r"\b(?:true|false|already|again|repeat\w*|received|has the answer)\b")
# "repeat each of their answers", "summarise all results", "restate every subagent response":
# repeating everything the sub-agents said.
_REPEATS = re.compile(
    r"\b(?P<verb>" + REPEAT + r")\b(?P<object>(?:\s+[\w'-]+){0,8}?)\s+(?:" + ANSWERS + r")\b"
    r"(?P<tail>.*)$"
)
_ALL_OF_THEIRS = re.compile(
    r"\b(?:subagents?|their|all|each|every|everything|whatever|both|combined)\b"
)
_REPEAT_OBJECT_SUBS = re.compile(r"\b(?:subagents?|their|they|them|each agent|every agent)\b")


# A mention of ``answered`` is a check only with a verb of checking or a condition on its value
# ("Returns: `answered` and `findings`" is not one).
_CHECK_CONTEXT = re.compile(
    r"\b(?:check|read|look|inspect|examine|consult|verify|evaluate|review|test|respect|honou?r"
    r"|follow|rely|decide|determine|depend|if|when|whenever|unless|true|false|yes|no|whether|before|skip|only)\w*"
)


# Leaving an answered part alone: "stay silent on that part", "skip it", "leave it alone".
_LEAVE_ALONE = re.compile(
    r"\b(?:stay|remain|keep)\s+(?:silent|quiet)|\bsay nothing|\bleave\s+(?:\w+\s+){0,2}?alone"
    r"|\bskip\b|\b(?:do not|don't|never)\s+(?:answer|address|cover|mention)\w*\s+(?:it|that|them)\b"
)


def _checks_answered(clause: str) -> bool:
    if _ANSWERED_IGNORED.search(clause):
        return False
    if _ANSWERED_NAMED.search(clause) and _CHECK_CONTEXT.search(clause):
        return True
    if _NO_REPEAT_OTHERS.search(clause):
        return True
    return bool(
        re.search(ALREADY_DONE, clause)
        and (_NO_REPEAT.search(clause) or _LEAVE_ALONE.search(clause))
    )


def _repeats(clause: str, sentence: str) -> bool:
    """Told to repeat or summarise the sub-agents' answers, or to ignore ``answered``."""
    if _ANSWERED_IGNORED.search(clause):
        return True
    for match in _REPEATS.finditer(clause):
        before = clause[: match.start()]
        if re.search(NEG + r"\s+(?:\w+\s+){0,2}$", before) or re.search(r"\bnot\s+$", before):
            continue
        if re.match(
            r"(?:combin|merg|aggregat|consolidat|compil|synthesi|collat)", match.group("verb")
        ) and ("subagents" not in clause):
            continue
        if re.search(r"\b(?:parent|it|user)\s+(?:\w+\s+){0,2}$", before):
            continue  # someone else repeats: "the supervisor relays everything"
        whole = match.group("object") + " " + match.group(0)
        if not _ALL_OF_THEIRS.search(whole) and not _REPEAT_OBJECT_SUBS.search(sentence):
            continue
        if "findings" in whole or (
            "answered" in sentence and not _ANSWERED_IGNORED.search(sentence)
        ):
            continue  # silent findings are the parent's to relay; a check on answered limits it
        if re.search(r"\b(?:not|n't|never|no)\s+(?:\w+\s+){0,3}(?:answer|repl|respond)", before):
            continue  # "if a sub-agent did not answer, summarise ..."
        if re.search(r"\bonly\b", before + match.group("tail")) and re.search(
            r"\b(?:silent|missing|new|not|unanswered|failed)\b", clause
        ):
            continue
        return True
    return False


# -- the only-speaker claim -------------------------------------------------------------------

_EXCLUSIVE = r"(?:only|sole|single|one and only|exclusive|one|lone|unique)"
_ONLY_SPEAKER = re.compile(
    r"\b(?:you are|you're|you|act as|as)\s+(?:the\s+|their\s+|its\s+)?" + _EXCLUSIVE + r"\s+"
    r"(?:\w+\s+){0,2}?(?:agent|one|assistant|bot|component|entity|participant|party|voice|speaker"
    r"|point of contact|contact|interface|channel|communicator|face|presence|spokesperson"
    r"|mouthpiece|front)\b(?:\s+[\w'-]+){0,6}?\s+(?:" + SPEAK + r"|user)\b"
    r"|\b" + _EXCLUSIVE + r"\s+(?:point of contact|voice|interface|channel|speaker|communicator"
    r"|contact|spokesperson|mouthpiece|face)\s+(?:for|with|to|of|facing)\s+"
    + USER
    + r"|\b(?:only\s+you|you\s+alone|you\s+and\s+you\s+alone|nobody\s+(?:but|except|other than"
    r"|apart from|besides)\s+you|no\s+one\s+(?:but|except|else|other than|apart from|besides)"
    r"(?:\s+you)?|nobody\s+else|none\s+but\s+you)\s+(?:\w+\s+){0,2}?" + SPEAK + r"\b"
    r"|\b(?:no other|none of the other|no|neither)\s+(?:subagents?|agents?|components?|bots?|tools?"
    r"|specialists?|one else|assistants?)\s+(?:\w+\s+){0,2}?"
    + SPEAK
    + r"\b(?:\s+\w+){0,3}?\s+(?:to\s+|with\s+)?"
    + USER
    + r"|\b"
    + SUBS
    + r"\s+(?:will\s+|can\s+|do\s+|does\s+|should\s+|must\s+|may\s+)?(?:never|not"
    r"|don't|do not|cannot|can't|won't|will not|doesn't|does not)\s+(?:\w+\s+)?"
    + SPEAK
    + r"\b(?:\s+\w+){0,3}?\s+(?:to\s+|with\s+)?"
    + USER
    + r"|\b"
    + USER
    + r"\s+(?:only\s+)?(?:ever\s+)?(?:hears?|receives? messages|gets? messages"
    r"|sees? messages|talks?|interacts?|speaks?|deals?)\s+(?:only\s+)?(?:from|to|with)\s+you\b"
    r"(?!\s+and)(?!\s+(?:when|if|about|for))"
    r"|\ball\s+(?:messages|responses|replies|communication|answers)\s+(?:to|with)\s+"
    + USER
    + r"\s+(?:must\s+|should\s+)?(?:come|comes|go|goes|are sent|is sent|pass|passes)\s+(?:only\s+)?"
    r"(?:from|through|via)\s+you\b"
    r"|\bonly\s+" + PARENT + r"\s+(?:\w+\s+){0,2}?" + SPEAK + r"\s+(?:to\s+|with\s+)?" + USER
)
_NOT_ONLY = re.compile(
    r"\b(?:not|never|no longer|isn't|aren't)\s+(?:the\s+|an?\s+)?(?:only|sole|single)\b"
    r"|\b(?:never|don't|do not|avoid|stop)\s+(?:assum|think|believ|pretend|act as if|act as though"
    r"|behave as if|behave as though|claim)\w*"
    r"|\bnot\s+alone\b"
)
_ONLY_NOT_SPEAKER = re.compile(r"\bonly\s+(?:" + SPEAK + r")\b.*\b(?:about|on|in|for|when|if)\b")


def _only_speaker(sentence: str) -> bool:
    if _NOT_ONLY.search(sentence):
        return False
    return bool(_ONLY_SPEAKER.search(sentence))


# -- scope --------------------------------------------------------------------------------------

_SCOPE_NAME = re.compile(r"\bscoped[\s-]?requests?\b|\bscopedrequest\b")
_SCOPE_REJECTED = re.compile(
    r"\b(?:ignore|disregard|instead of|rather than|(?:do not|don't|never)\s+(?:use|read|rely on"
    r"|look at|limit yourself to|stick to))\s+(?:the\s+|your\s+|its\s+)?scoped[\s-]?request"
)
_SCOPE_NATURAL = re.compile(
    r"\b(?:only|just|solely|exclusively)\s+(?:handle|answer|address|work on|focus on|respond to"
    r"|deal with|act on|fulfil|fulfill|complete|process)\s+(?:the\s+|your\s+)?(?:specific\s+"
    r"|single\s+|one\s+|exact\s+|scoped\s+)?(?:request|task|question|part)s?\s+(?:that\s+|which\s+)?"
    r"(?:you were\s+|you've been\s+|you are\s+|is\s+|was\s+|has been\s+)?(?:given|passed|handed"
    r"|assigned|sent|routed|delegated)"
    r"|\bignore\s+(?:any|all|every)\s+other\s+(?:requests?|questions?|tasks?|intents?)"
    r"|\btreat\s+(?:the|your|this)\s+(?:\w+\s+){0,3}?as\s+your\s+(?:initial|only|sole|whole)\s+"
    r"(?:request|task)"
)


def _anchors_scope(sentence: str) -> bool:
    if _SCOPE_REJECTED.search(sentence):
        return False
    return bool(_SCOPE_NAME.search(sentence) or _SCOPE_NATURAL.search(sentence))


# -- reading ------------------------------------------------------------------------------------


# An instruction to acknowledge an earlier message: "acknowledge what the specialist said".
_ACK_INSTRUCTION = re.compile(
    r"\b(?:acknowledg|refer(?:ence)?\s+(?:back\s+)?to|point\s+(?:back\s+)?to|credit|cite|mention"
    r"|thank)\w*\s+(?:\w+\s+){0,3}?(?:what|that|the|their|each|any|its)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:subagents?'?s?|answers?|said|replied|answered|told|earlier|previous|above|responses?"
    r"|replies|messages?)\b"
    r"|\b(?:begin|start|open|preface)\w*\s+(?:\w+\s+){0,3}?(?:with|by)\s+(?:saying\s+)?"
    r"(?:as|like|per)\b"
)
_ACK_NEGATED = re.compile(r"(?:\bnot|\bnever|n't|\bavoid|\bno need to|\bwithout)\b[^,;]*$")


def _acknowledges(original: str, sentence: str) -> bool:
    match = _ACK_INSTRUCTION.search(sentence)
    if match and not _ACK_NEGATED.search(sentence[: match.start()]):
        return True
    if _CONDITIONAL_LEAD.match(sentence):
        return False  # "if a helper agent has already replied, ...": a condition, not a reference
    phrase = acknowledgement(original)
    if phrase is None:
        return False
    start = original.replace("\u2019", "'").find(phrase)
    return not _ACK_NEGATED.search(original[:start].lower())


_OBJECT_PRONOUN = re.compile(r"(?<=\s)(?:them|him|her)\b")
_PRONOUN_SUBJECT = re.compile(
    r"^(?:it|they|he|she)\s+(?=(?:\w+\s+){0,2}?(?:speak|talk|repl|respond|answer"
    r"|handl|deal|message|contact|communicat|will|does|do)\w*)"
)


@lru_cache(maxsize=16_384)
def _read_normalised(sentence: str) -> frozenset[Ask]:
    asks: set[Ask] = set()
    previous = ""
    for clause in clauses(sentence):
        if "user" in sentence and not clause.startswith("user"):
            rest = sentence.partition("user")[2]
            if rest and clause in rest:
                clause = _OBJECT_PRONOUN.sub("user", clause)
        if "parent" in previous:
            # "return results to the coordinator; it speaks to the patient": "it" is the parent.
            clause = _PRONOUN_SUBJECT.sub("parent ", clause)
        previous = clause
        if _forbids(clause):
            asks.add("silence")
        if _conditional(clause, sentence):
            asks.add("conditional")
        if _addresses(clause):
            asks.add("address")
        if _checks_answered(clause):
            asks.add("answered")
        if _repeats(clause, sentence):
            asks.add("repeat")
    if _only_speaker(sentence):
        asks.add("only_speaker")
    if _anchors_scope(sentence):
        asks.add("scope")
    return frozenset(asks)


@lru_cache(maxsize=4096)
def read(text: str) -> tuple[Reading, ...]:
    """One :class:`Reading` per sentence of ``text``.

    Example:
        >>> [sorted(r.asks) for r in read("Greet the flyer. Never echo what a helper agent said.")]
        [['address'], ['answered']]
    """
    readings = []
    for original, sentence in sentences(text):
        asks = set(_read_normalised(sentence))
        if not asks & {"repeat", "answered"} and _acknowledges(original, sentence):
            asks.add("acknowledge")
        readings.append(Reading(sentence=original, asks=frozenset(asks)))
    return tuple(readings)


def read_sentence(sentence: str) -> frozenset[Ask]:
    """What one sentence asks (see :data:`Ask`)."""
    return frozenset().union(*(r.asks for r in read(sentence))) if sentence.strip() else frozenset()


def _first(text: str, ask: Ask) -> str | None:
    return next((r.sentence for r in read(text) if ask in r.asks), None)


def forbids_user_messages(text: str) -> bool:
    """True when ``text`` forbids messaging the user without a condition.

    Recognised: prohibitions ("do not respond to the customer", "don't call SendMessageTool"),
    others speaking for the agent ("hand results back; the main agent talks to the user", "only
    the orchestrator may contact the user"), the user never hearing from it ("the customer should
    never see anything you write") and silent roles ("you work behind the scenes"). Not
    recognised: conditional prohibitions ("do not reply to the user until you have the balance").
    """
    return _first(text, "silence") is not None


def user_address(text: str) -> str | None:
    """The first sentence of ``text`` that tells the agent to address the user, or None.

    Recognised: imperatives whose object is the user, with any addressee ("explain the score to
    the customer", "welcome the guest", "wish the shopper a nice day", "don't forget to greet the
    user", "always begin with a friendly hello"), also after a condition. Not recognised:
    prohibitions, someone else speaking ("the parent will tell the user"), the user as the
    subject ("when the user tells you their ID") and quoted examples.
    """
    return _first(text, "address")


def checks_answered(text: str) -> bool:
    """True when ``text`` (a parent's instructions) checks the sub-agents' ``answered`` output.

    Recognised: naming it in a check ("check the answered output", "if answered is true, ...")
    and the natural form ("never echo what a helper agent has already told the user"). Not
    recognised: ignoring it ("ignore the answered flag") or "answered" in another sense.
    """
    return _first(text, "answered") is not None


def repeats_answers(text: str) -> str | None:
    """The first sentence of ``text`` telling a parent to repeat or summarise its sub-agents'
    answers, or to ignore ``answered``; None when there is none.

    Recognised: "after the sub-agents reply, always repeat each of their answers to the
    customer", "ignore the answered output and summarise all results", "recap everything the
    specialists said". Not recognised: prohibitions ("never repeat what a sub-agent said"),
    conditions on a missing answer ("if a sub-agent did not answer, summarise ...") and silent
    findings ("summarise the findings").
    """
    return _first(text, "repeat")


def claims_only_speaker(text: str) -> bool:
    """True when ``text`` (a parent's instructions) claims the parent is the only one who talks
    to the user ("you're the single voice the customer hears", "nobody but you speaks to the
    user", "sub-agents never talk to the user"). Not recognised: other "only" claims and
    denials ("never assume you are the only one who talks to the user")."""
    return _first(text, "only_speaker") is not None


def anchors_scope(text: str) -> bool:
    """True when ``text`` anchors a sub-agent to its scoped request (naming it, or "only handle
    the request you were given"); rejecting it ("ignore the scoped request") does not count."""
    return _first(text, "scope") is not None


def hints_answered(text: str) -> bool:
    """True when ``text`` (a routing description) tells the parent how to read ``answered``.

    Recognised: "If its answered output is true, the user has already received their response",
    "returns answered = true when it already replied to the user", "when it has already answered
    the user, do not answer again". Not recognised: a mention without its meaning ("returns an
    answered flag") or a denial ("it does not return answered").
    """
    for _, sentence in sentences(text):
        if _NO_ANSWERED.search(sentence) or _ANSWERED_IGNORED.search(sentence):
            continue
        if _ANSWERED_NAMED.search(sentence) and _INTERPRETS.search(sentence):
            return True
        if "answered" in sentence and _INTERPRETS.search(sentence) and "output" in sentence:
            return True
        if _NO_REPEAT_OTHERS.search(sentence) or (
            re.search(ALREADY_DONE, sentence) and _NO_REPEAT.search(sentence)
        ):
            return True
    return False
