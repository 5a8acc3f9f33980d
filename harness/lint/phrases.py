"""What instructions and descriptions say, read from realistic phrasing.

The text rules (HC005, HC006, HC009, HC010, HC011) and Copilot Studio's mode inference ask the same
few questions of free text: does it forbid messaging the user, check ``answered``, anchor the agent
to its scoped request, tell the parent how to read ``answered``, or claim the parent is the only
speaker? Each question is a public function here, regex and keyword based, sentence by sentence,
with negation and condition handling ("do not forget to reply to the user" does not forbid replying;
"do not reply to the user until you have the balance" only delays it). The offline runtime model
reuses :func:`checks_answered`.

HC013 compares descriptions with :func:`description_similarity`: the cosine similarity of the sets of
stemmed content words, generic routing words left out; :data:`OVERLAP_THRESHOLD` (0.7) or more is a
near-duplicate.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from functools import lru_cache

from harness.text import split_sentences, stem
from harness.text.words import DESCRIPTION_STOPWORDS
from instructions.contract import ANSWERED

__all__ = [
    "OVERLAP_THRESHOLD",
    "anchors_scope",
    "checks_answered",
    "claims_only_speaker",
    "description_similarity",
    "description_words",
    "forbids_user_messages",
    "hints_answered",
    "user_address",
]

OVERLAP_THRESHOLD = 0.7
"""Descriptions at or above this similarity are near-duplicates (HC013)."""

# -- normalisation ----------------------------------------------------------------------------

_TRANSLATE = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)
_ABBREVIATIONS = re.compile(r"\b(?:i\.e\.|e\.g\.|etc\.|vs\.)")
_NAMED_ANSWERED = re.compile(
    r"[`'\"]answered[`'\"]|\{[^}\n]*\banswered\b[^}\n]*\}|\b\w+\.answered\b"
)
_NAMED_SCOPE = re.compile(r"\{[^}\n]*\bscoped_?request\b[^}\n]*\}|\b\w+\.scoped_?request\b")
# Power Fx references ({System.Bot.DisplayName}, {Topic.Components...}) name a tool or a value;
# what they say is no instruction.
_POWER_FX = re.compile(r"\{[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*\}")
# A quotation of three words or more is an example of what someone says, not an instruction.
_QUOTED = re.compile(r'"[^"\n]*\s[^"\n]*\s[^"\n]*"')
_CLAUSES = re.compile(r";|\s-\s|\n")
_MARKUP = re.compile(r"[*`#>_\"()\[\]]+")


def _reference(match: re.Match[str]) -> str:
    # A reference to the send-message tool still names it; any other is just "ref".
    return " sendmessagetool " if "sendmessage" in match.group() else " ref "


@lru_cache(maxsize=8192)
def _normalise(sentence: str) -> str:
    t = sentence.lower().translate(_TRANSLATE)
    t = _ABBREVIATIONS.sub(" ", t)
    t = _NAMED_ANSWERED.sub(" answered output ", t)
    t = _NAMED_SCOPE.sub(" scopedrequest ", t)
    t = t.replace("scoped_request", "scopedrequest")
    t = _POWER_FX.sub(_reference, t)
    t = _QUOTED.sub(" quote ", t)
    return _ADDRESSEE.sub("user", t)


def _tidy(part: str) -> str:
    part = _MARKUP.sub(" ", part)
    return " ".join(part.split()).strip(" ,:-.!?")


def _sentences(text: str) -> tuple[str, ...]:
    """Lower-cased sentences of ``text`` (split by :func:`harness.text.split_sentences`, which
    keeps Power Fx ``{…}`` references and code spans whole), with markup removed."""
    return _sentence_list(text)


@lru_cache(maxsize=4096)
def _sentence_list(text: str) -> tuple[str, ...]:
    return tuple(_sentence_iter(text))


def _sentence_iter(text: str) -> Iterator[str]:
    for span in split_sentences(text):
        sentence = _tidy(_normalise(span.text))
        if sentence:
            yield sentence


@lru_cache(maxsize=4096)
def _clauses(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` cut further at ``;`` and `` - `` (one instruction each)."""
    return tuple(_clause_iter(text))


def _clause_iter(text: str) -> Iterator[str]:
    for span in split_sentences(text):
        for part in _CLAUSES.split(_normalise(span.text)):
            clause = _tidy(part)
            if clause:
                yield clause


# -- shared vocabulary ------------------------------------------------------------------------

# Whoever the agent serves (customer, policyholder, traveller...) is "user" once normalised, so the
# patterns below name one addressee and stay small (compiling them is most of the import time).
_ADDRESSEE = re.compile(
    r"\b(?:end[- ]?)?(?:users?|customers?|employees?|requesters?|requestors?|callers?|persons?"
    r"|people|humans?|visitors?|clients?|policy ?holders?|travell?ers?|members?|students?"
    r"|patients?|guests?|shoppers?|buyers?|citizens?|residents?|tenants?|applicants?|candidates?"
    r"|learners?|subscribers?|(?:account|card) ?holders?|claimants?|passengers?|consumers?"
    r"|staff(?: members?)?|colleagues?|participants?)\b"
)
_USER = r"(?:the |a |an |any |your |our |this |that |each |every )?user\b"

_NEG = (
    r"\b(?:do not|don't|dont|does not|doesn't|never|must not|mustn't|should not|shouldn't|shall not"
    r"|cannot|can not|can't|may not|will not|won't|are not (?:allowed|permitted|supposed) to"
    r"|is not (?:allowed|permitted) to|not allowed to|not permitted to|forbidden to|prohibited from"
    r"|refrain from|avoid|under no circumstances(?: should you| may you| are you to| do you)?)"
)
_ADV = (
    r"(?:\s+(?:ever|directly|yourself|personally|proactively|even|try to|attempt to|ever try to))*"
)
_TALK_TO = (
    r"(?:respond(?:s|ing|ed)?|repl(?:y|ies|ying|ied)|answer(?:s|ing|ed)?|talk(?:s|ing|ed)?"
    r"|speak(?:s|ing)?|writ(?:e|es|ing)|communicat(?:e|es|ing)|chat(?:s|ting)?|interact(?:s|ing)?"
    r"|get(?:ting)? back|com(?:e|ing) back|(?:output|send|say|write)(?:s|ting|ing)? anything)"
)
_TALK_OBJ = (
    r"(?:messag(?:e|es|ing|ed)|contact(?:s|ing)?|address(?:es|ing)?|answer(?:s|ing)?"
    r"|notif(?:y|ies|ying)|inform(?:s|ing)?|tell(?:s|ing)?|greet(?:s|ing)?|email(?:s|ing)?"
    r"|ping(?:s|ing)?|text(?:s|ing)?)"
)
_SEND = (
    r"(?:send(?:s|ing)?|post(?:s|ing)?|writ(?:e|es|ing)|output(?:s|ting)?|produc(?:e|es|ing)"
    r"|emit(?:s|ting)?|deliver(?:s|ing)?)"
)
_MSG = (
    r"(?:any |a |the |your |an |one |)(?:(?:chat|text|direct|final|user-facing) )?"
    r"(?:messages?|replies|reply|responses?|texts?|activit(?:y|ies)|answers?)"
)

_CONDITIONAL_TAIL = re.compile(
    r"(?:until|unless|before|without|if|when|whenever|while|after|regarding|concerning"
    r"|about (?!(?:the |your |its )?(?:result|results|outcome|answer|findings|response|status"
    r"|decision|it|this|that)\b)"
    r"|more than|more often|other than|except|in (?!any\b|a direct\b|person\b|the chat\b|the conversation\b|chat\b)|using|longer"
    r"|shorter|twice|again|more\b|multiple|for (?!any\b)|outside|beyond|that|which|who|containing"
    r"|including|on (?:topics?|subjects?|matters?)|unrelated|a second|another|prematurely"
    r"|with (?!(?:the |your |any |an? )?(?:answer|response|result|results|findings|reply|replies"
    r"|it|anything|information|data|output|outputs|message|messages)\b))\b"
)
_CONDITIONAL_HEAD = re.compile(r"(?:if|unless|in case|only if|only when|except)\b")
# A negation inside a condition that has not been closed by a comma: "if it does not ...".
_IN_CONDITION = re.compile(
    r"\b(?:if|unless|whether|when|whenever|once|until|in case|as long as)\s+[^,]*$"
)

_FORBID = re.compile(
    _NEG
    + _ADV
    + r"\s+(?:"
    + rf"{_TALK_TO}(?:\s+(?:back|directly|anything|any messages?))*\s+(?:to|with)\s+{_USER}"
    + rf"|{_TALK_OBJ}(?:\s+directly)?\s+{_USER}"
    + rf"|{_SEND}\s+{_MSG}(?:\s+(?:directly\s+)?(?:to|with)\s+{_USER})?"
    + rf"|{_SEND}\s+(?:anything|something)\s+(?:directly\s+)?(?:to|with)\s+{_USER}"
    + rf"|{_SEND}\s+{_USER}\s+(?:anything|any messages?|a message|messages|a reply|replies)"
    + r"|(?:call|use|invoke|trigger|run)(?:s|ing)?\s+(?:the\s+|any\s+)?(?:sendmessagetool"
    + r"|send ?message ?tool|send_message|sendactivity|send activity|message tool|send tool"
    + r"|messaging tool)"
    + r"|(?:respond|reply|answer)(?:ing)?(?:\s+(?:directly|yourself|at all))+"
    + r"|(?:respond|reply)(?:ing)?(?=\s*$)"
    + r")"
)
_SILENT_STATEMENTS = re.compile(
    r"\bonly\s+(?:fill|populate|set|write to|write|return|use|update|provide|output)(?:\s+in)?"
    r"(?:\s+(?:the|your|its))?(?:\s+\w+)?\s+(?:output|outputs|output variables?|output fields?"
    r"|output parameters?|findings|return values?)\b"
    r"|\b(?:let|allow)\s+(?:the\s+)?(?:parent|orchestrator|main agent|calling agent)(?:\s+\w+){0,2}?"
    r"\s+(?:deliver|relay|present|send|communicate|give|write|provide|handle|respond|reply|talk)"
    r"(?:\s+\w+){0,4}?\s+(?:to|with)\s+" + _USER + r"|\bthe\s+(?:parent|orchestrator|calling agent)"
    r"(?:\s+agent|\s+orchestrator)?\s+(?:will\s+|alone\s+|then\s+|is responsible for\s+)?"
    r"(?:deliver|relay|present|send|communicat(?:e|es|ing)|talk|speak|respond|reply)(?:s|ing)?"
    r"(?:\s+\w+){0,4}?\s+(?:to|with)\s+" + _USER + r"|\b(?:you are|you're|act as|you act as)\s+"
    r"(?:a |an )?(?:silent|background|behind-the-scenes|back-end|backend|headless)\s+"
    r"|\b(?:work|operate|run|act)\s+silently\b|\bsilent mode\b"
    r"|\b(?:the\s+)?users?\s+(?:will\s+)?(?:never|not|does not|doesn't|won't|cannot|can't)\s+"
    r"(?:see|read|receive)s?\s+(?:your|any of your)\s+(?:output|messages?|repl(?:y|ies)|responses?"
    r"|text|answers?)"
    r"|\byour\s+(?:response|output|answer|reply|messages?|findings|results?)\s+(?:is|are|goes|go"
    r"|will go|will be sent|will be returned|will be passed|is returned|is sent|is passed)"
    r"(?:\s+only)?\s+(?:to|back to)\s+(?:the\s+)?(?:parent|orchestrator|calling agent)"
)
_INSTEAD = re.compile(
    r"\b(?:instead of|rather than)\s+(?:directly\s+)?(?:reply|repl(?:y|ie)|respond|messag|answer"
    r"|talk|speak|writ|send|contact)\w*(?:\s+(?:directly|yourself))?(?:\s+(?:to|with)\s+"
    + _USER
    + r"|\s+"
    + _USER
    + r")?\s*(?:$|,|and\b)"
)
_OUTPUT_WORD = re.compile(r"\b(?:outputs?|findings|variables?|fields?|parent|orchestrator)\b")
_NEG_BEFORE = re.compile(r"(?:\bnot|\bnever|n't)\s+(?:\w+\s+)?$")


def forbids_user_messages(text: str) -> bool:
    """True when ``text`` explicitly forbids messaging the user.

    Recognised: prohibitions ("do not respond to the user", "never message the user directly",
    "don't send any messages", "do not call SendMessageTool"), output-only statements ("only fill
    the output variables", "return your answer in findings instead of replying", "let the parent
    deliver the response to the user") and silent-role statements ("you are a silent agent").
    Not recognised as forbidding: conditional or partial prohibitions ("do not reply to the user
    until you have the balance", "never send more than one message") and sentences opening with a
    condition ("if the lookup fails, do not message the user").
    """
    for sentence in _clauses(text):
        if _CONDITIONAL_HEAD.match(sentence):
            continue
        for match in _FORBID.finditer(sentence):
            tail = sentence[match.end() :].lstrip(" ,")
            if _IN_CONDITION.search(sentence[: match.start()]):
                continue  # "..., if it does not tell the user and you're done": a condition
            if not _CONDITIONAL_TAIL.match(tail):
                return True
        for match in _SILENT_STATEMENTS.finditer(sentence):
            if not _NEG_BEFORE.search(sentence[: match.start()]):
                return True
        if _INSTEAD.search(sentence) and _OUTPUT_WORD.search(sentence):
            return True
    return False


# -- telling the agent to address the user (HC016) -----------------------------------------------

_ADDRESS = re.compile(
    r"\b(?P<verb>(?:tell|inform|notify|update|remind|advise|warn|greet|thank|ask|show|message"
    r"|contact|email|answer|guide|walk|congratulate|reassure|prompt|let|give|send|offer|pass|pay"
    r"|provide|supply)(?:s|ing)?)\s+(?:"
    + _USER
    # "tell them the balance": in instructions, "them" after these verbs is the user.
    + r"|them\b(?!\s+apart))"
    + r"|\b(?P<verb2>(?:explain|present|give|send|reply|replie|respond|describe|display|provide"
    r"|offer|communicate|say|write|report|repeat|summari[sz]e|confirm|share|relay|deliver|show"
    r"|talk|speak|apologi[sz]e|read|clarify|check|discuss|verify|review|agree)\w*)\b"
    r"(?:\s+[\w'$.%/-]+){0,8}?\s+(?:to|with|for)\s+" + _USER
)
_IMPERATIVE_LEAD = re.compile(
    r"^(?:(?:please|always|then|first|finally|also|now|and|so|politely|clearly|briefly|kindly"
    r"|next|afterwards|after that|immediately|directly|you|should|must|will|can|need to|have to"
    r"|make sure to|make sure you|be sure to|remember to|try to|step|\d+)\s+)*$"
)
_LEAD_CUT = re.compile(r".*(?:,|\band\b|\bthen\b|:)\s*")


def user_address(text: str) -> str | None:
    """The first sentence of ``text`` that tells the agent to address the user, or None.

    Recognised: imperatives whose object is the user, with any addressee ("explain the score to
    the customer", "tell the employee the balance", "let the traveller know", "reply to the
    policyholder"), also after a condition ("if the lookup fails, tell the user"). Not recognised:
    prohibitions ("do not tell the user"), someone else speaking ("the parent will tell the
    user"), the user as the subject ("when the user tells you their ID") and quoted examples.
    """
    for span in split_sentences(text):
        for part in _CLAUSES.split(_normalise(span.text)):
            clause = _tidy(part)
            if clause and _addresses(clause):
                return " ".join(span.text.split()).rstrip(".")
    return None


def _addresses(clause: str) -> bool:
    for match in _ADDRESS.finditer(clause):
        verb = match.group("verb") or match.group("verb2") or ""
        if verb.startswith("let") and " know" not in clause[match.end() : match.end() + 6]:
            continue
        lead = _LEAD_CUT.sub("", clause[: match.start()])
        if _IMPERATIVE_LEAD.match(lead) or (
            # "if it does not have enough funds tell the customer": a condition, then the
            # imperative (a base-form verb; "when the parent tells the user" is not one).
            _CONDITIONAL_HEAD.match(lead) and not verb.endswith(("s", "ed", "ing"))
        ):
            return True
    return False


# -- answered ---------------------------------------------------------------------------------

_ANSWERED_NAMED = re.compile(
    r"\bsets?\s+(?:its\s+|the\s+)?answered\s+(?:output\s+)?to\s+(?:true|false)\b"
    r"|\banswered\s+(?:output|flag|field|variable|value|property|parameter|result|boolean|bool)s?\b"
    r"|\banswered\s*(?:=|==|:|is|equals|was|returns?|comes back|set to|is set to|comes back as)\s*"
    r"(?:true|false|yes|no)\b"
    r"|\b(?:check|read|look at|inspect|examine|consult|verify|evaluate|review|test)(?:s|ing)?\s+"
    r"(?:whether\s+|if\s+)?(?:the\s+|its\s+|their\s+|each\s+|every\s+|a\s+|any\s+)?"
    r"(?:(?:sub-?agent|child agent|connected agent|agent|tool|topic)'?s?\s+)?answered\b"
)
_ANSWERED_IGNORED = re.compile(
    r"\b(?:ignore|disregard|skip|regardless of|without checking|no need to check"
    r"|(?:do not|don't|never|need not|needn't)\s+(?:check|read|use|look at|rely on|consult))\s+"
    r"(?:the\s+|its\s+|their\s+|each\s+|any\s+)?(?:\w+'?s?\s+)?answered\b"
)
_ALREADY = re.compile(
    r"\balready\s+(?:been\s+)?(?:answered|responded|replied|told|sent|given|gave|provided|addressed"
    r"|handled|covered|received|delivered|has|have|had|got|gotten|heard|shared|said|explained"
    r"|communicated)\b"
)
_NO_REPEAT = re.compile(
    r"\b(?:do not|don't|never|avoid|without|must not|should not|shouldn't|no need to|not)\s+"
    r"(?:\w+\s+)?(?:repeat\w*|restat\w*|re-?answer\w*|duplicat\w*|rephras\w*|re-?send\w*"
    r"|answer\w*\s+(?:\w+\s+)?again|respond\w*\s+(?:\w+\s+)?again|repl\w*\s+(?:\w+\s+)?again"
    r"|say\w*\s+(?:\w+\s+)?again|tell\w*\s+(?:\w+\s+)?again|acknowledg\w*)"
)
_NO_REPEAT_OTHERS = re.compile(
    r"\b(?:do not|don't|never|avoid)\s+(?:repeat|restate|duplicate|re-?send)\w*\s+"
    r"(?:what|anything|information|answers?|responses?|content|messages?|replies)\s+(?:that\s+)?"
    r"(?:a\s+|the\s+|any\s+|other\s+)?(?:sub-?agents?|child agents?|connected agents?|other agents?"
    r"|agents?|topics?|tools?|specialists?)\s+(?:\w+\s+){0,2}?(?:said|told|sent|answered|gave"
    r"|provided|shared|responded|replied|delivered)\b"
)
_INTERPRETS = re.compile(r"\b(?:true|false|already|again|repeat\w*|received|has the answer)\b")
_NO_ANSWERED = re.compile(
    r"\b(?:no|not|never|doesn't|does not|without)\s+(?:return|set|report|provide|have|output|has)"
    r"\w*\s+(?:an?\s+|the\s+|any\s+)?answered\b"
)


def _mentions_answered_output(sentence: str) -> bool:
    return bool(_ANSWERED_NAMED.search(sentence)) and not _ANSWERED_IGNORED.search(sentence)


def _natural_no_repeat(sentence: str) -> bool:
    if _NO_REPEAT_OTHERS.search(sentence):
        return True
    return bool(_ALREADY.search(sentence) and _NO_REPEAT.search(sentence))


def checks_answered(text: str) -> bool:
    """True when ``text`` (a parent's instructions) checks sub-agents' ``answered`` before speaking.

    Recognised: naming the output in a check ("check the answered output of each sub-agent", "if
    answered is true, ...", "read `answered`", "when Topic.answered = true") and the natural-language
    form ("if a sub-agent has already answered the user, do not answer again", "don't repeat what a
    sub-agent already told the user"). Not recognised: ignoring it ("ignore the answered flag"),
    or "answered" in another sense ("make sure every question is answered").
    """
    for sentence in _sentences(text):
        if _mentions_answered_output(sentence) or _natural_no_repeat(sentence):
            return True
    return False


def hints_answered(text: str) -> bool:
    """True when ``text`` (a routing description) tells the parent how to read ``answered``.

    Recognised: "If its answered output is true, the user has already received their response and it
    should not be answered again", "returns answered = true when it already replied to the user",
    "when it has already answered the user, do not answer again". Not recognised: a mention without
    its meaning ("returns an answered flag") or a denial ("it does not return answered").
    """
    for sentence in _sentences(text):
        if _NO_ANSWERED.search(sentence):
            continue
        if _mentions_answered_output(sentence) and _INTERPRETS.search(sentence):
            return True
        if ANSWERED in sentence and _INTERPRETS.search(sentence) and "output" in sentence:
            return True
        if _natural_no_repeat(sentence):
            return True
    return False


# -- scope ------------------------------------------------------------------------------------

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


def anchors_scope(text: str) -> bool:
    """True when ``text`` (sub-agent instructions) anchors the agent to its scoped request.

    Recognised: naming it ("scopedRequest", "the scoped request", "Topic.scopedRequest") and the
    natural-language anchor ("only handle the request you were given", "ignore any other requests in
    the conversation", "treat the request you receive as your initial request"). Not recognised:
    rejecting it ("ignore the scoped request and read the whole conversation").
    """
    for sentence in _sentences(text):
        if _SCOPE_REJECTED.search(sentence):
            continue
        if _SCOPE_NAME.search(sentence) or _SCOPE_NATURAL.search(sentence):
            return True
    return False


# -- the only-speaker anti-pattern ------------------------------------------------------------

_SPEAK = (
    r"(?:talk|speak|respond|reply|repl(?:y|ie)|communicat(?:e|)|interact|message|writ(?:e|)"
    r"|answer|chat|send|address|contact)(?:s|es|ing)?"
)
_ONLY_SPEAKER = re.compile(
    r"\b(?:you are|you're|you|act as)\s+(?:the\s+)?(?:only|sole|single|one and only|exclusive)\s+"
    r"(?:\w+\s+){0,2}?(?:agent|one|assistant|bot|component|entity|participant|party)\s+"
    r"(?:that|who|which|allowed to|permitted to|able to|that can|who can|that may|who may|to|that will"
    r"|who will|that should|who should)\s+(?:\w+\s+)?" + _SPEAK + r"\b"
    r"|\b(?:sole|only|single|exclusive|one)\s+(?:point of contact|voice|interface|channel|speaker"
    r"|communicator|contact)\s+(?:for|with|to|of|facing)\s+"
    + _USER
    + r"|\bonly\s+you\s+(?:\w+\s+)?"
    + _SPEAK
    + r"\b|\byou\s+alone\s+(?:\w+\s+)?"
    + _SPEAK
    + r"\b|\b(?:no other|none of the other|no|neither)\s+(?:agents?|sub-?agents?|child agents?"
    r"|connected agents?|components?|bots?|one else|tools?|specialists?)\s+(?:\w+\s+){0,2}?"
    + _SPEAK
    + r"\b(?:\s+\w+){0,3}?\s+(?:to\s+|with\s+)?"
    + _USER
    + r"|\b(?:sub-?agents?|child agents?|connected agents?|other agents?|specialist agents?"
    r"|specialists|helper agents?|the tools|plugins)\s+(?:will\s+|can\s+|do\s+|does\s+|should\s+"
    r"|must\s+|may\s+)?(?:never|not|don't|do not|cannot|can't|won't|will not|doesn't|does not)\s+"
    r"(?:\w+\s+)?"
    + _SPEAK
    + r"\b(?:\s+\w+){0,3}?\s+(?:to\s+|with\s+)?"
    + _USER
    + r"|\b(?:the\s+)?users?\s+(?:only\s+)?(?:ever\s+)?(?:hears?|receives? messages|gets? messages"
    r"|sees? messages|talks?)\s+(?:only\s+)?(?:from|to|with)\s+you\b(?!\s+and)"
    r"|\ball\s+(?:messages|responses|replies|communication|answers)\s+(?:to|with)\s+"
    + _USER
    + r"\s+(?:must\s+|should\s+)?(?:come|comes|go|goes|are sent|is sent|pass|passes)\s+(?:only\s+)?"
    r"(?:from|through|via)\s+you\b"
    r"|\bonly\s+(?:the\s+)?(?:orchestrator|parent|parent agent|main agent|router)\s+(?:\w+\s+){0,2}?"
    + _SPEAK
    + r"\s+(?:to|with)\s+"
    + _USER
)
_NOT_ONLY = re.compile(
    r"\b(?:not|never|no longer|isn't|aren't)\s+(?:the\s+|an?\s+)?(?:only|sole|single)\b"
    r"|\b(?:never|don't|do not|avoid|stop)\s+(?:assum|think|believ|pretend|act as if|act as though"
    r"|behave as if|behave as though)\w*"
    r"|\bnot\s+alone\b"
)


def claims_only_speaker(text: str) -> bool:
    """True when ``text`` (a parent's instructions) claims the parent is the only one who talks to the user.

    Recognised: "You are the only agent that talks to the user", "Only you talk to the user", "You
    are the sole point of contact with the customer", "No other agent communicates with the user",
    "Sub-agents never talk to the user", "The user only hears from you". Not recognised: other
    "only" claims ("you are the only agent with access to the HR database", "only talk to the user
    about HR topics") and denials ("you are not the only agent that talks to the user", "never
    assume you are the only one who talks to the user").
    """
    for sentence in _sentences(text):
        if _ONLY_SPEAKER.search(sentence) and not _NOT_ONLY.search(sentence):
            return True
    return False


# -- description similarity (HC013) -----------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")


def description_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text``, generic routing words ("agent", "questions") left out."""
    words = _WORD.findall(text.lower().translate(_TRANSLATE).replace("'s", ""))
    return frozenset(stem(w) for w in words if w not in DESCRIPTION_STOPWORDS)


def description_similarity(a: str, b: str) -> float:
    """How alike two routing descriptions are, from 0.0 to 1.0.

    The cosine similarity of their sets of stemmed content words: ``|A ∩ B| / sqrt(|A| * |B|)``.
    Identical texts (ignoring case, spacing and punctuation) score 1.0 even when they hold only
    generic words.
    """
    if _WORD.findall(a.lower()) == _WORD.findall(b.lower()) and a.strip():
        return 1.0
    wa, wb = description_words(a), description_words(b)
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / math.sqrt(len(wa) * len(wb))
