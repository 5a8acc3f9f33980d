"""Frames for talking to the user: silence, conditional rules and instructions to address the user
(read by :mod:`harness.text.instructions`, over clauses normalised by :mod:`harness.text._roles`)."""

from __future__ import annotations

import re

from harness.text._vocab import (
    ADV,
    CONDITION_HEAD,
    CONDITION_OPEN,
    GREETING,
    MSG,
    NEG,
    NEG_NEGATOR,
    PARENT,
    SEND,
    TALK_OBJ,
    TALK_TO,
    USER,
)

# -- talking to the user: silence, conditions, address ------------------------------------------

_CONDITIONAL_TAIL = re.compile(
    r"(?:until|unless|before|without|if|when|whenever|while|after|once|regarding|concerning"
    r"|about (?!(?:the |your |its )?(?:result|results|outcome|answer|findings|response|status"
    r"|decision|it|this|that)\b)"
    r"|more than|more often|other than|except(?:ing)?|in (?!any\b|a direct\b|person\b|the chat\b"
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
# An adverb between the prohibition and its condition ("never contact the user yourself except in
# an emergency") belongs to the prohibition: the tail is read from the condition.
_TAIL_ADVERBS = re.compile(
    r"^(?:(?:yourself|itself|themselves|directly|personally|proactively|ever|at all|on your own"
    r"|by yourself),?\s+)+"
    r"(?=(?:until|unless|before|without|if|when|whenever|after|once|only|except(?:ing)?"
    r"|other than)\b)"
)
# An exception that names the parent is no condition: "do not send messages except to the parent",
# "never talk to the user other than through the parent" are silences.
_EXCEPT_PARENT = re.compile(
    r"(?:except|other than)\s+(?:for\s+)?(?:(?:to|through|via|by way of|by|with|for)\s+)?"
    r"(?:the\s+|your\s+)?"
    r"parent\b"
)
# An exception after a prohibition sets the condition under which it is lifted, as "unless" does:
# "never talk to the user except in an emergency", "... other than to confirm the booking".
_EXCEPT = re.compile(r"(?:except|excepting|other than)\b")


def _tail(clause: str, end: int) -> str:
    """What follows a prohibition's verb phrase, from its condition if an adverb comes first."""
    return _TAIL_ADVERBS.sub("", clause[end:].lstrip(" ,"))


_OUTPUT_WORD = re.compile(r"\b(?:outputs?|findings|variables?|fields?|parent)\b")
_NEG_BEFORE = re.compile(r"(?:\bnot|\bnever|n't)\s+(?:\w+\s+)?$")
_NEGATED_NEGATION = re.compile(NEG + r"\s+(?:ever\s+)?" + NEG_NEGATOR + r"\s*$")
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
        tail = _tail(clause, match.end())
        if _EXCEPT_PARENT.match(tail):
            return True
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
        tail = _tail(clause, match.end())
        if _EXCEPT_PARENT.match(tail):
            continue
        if (
            _EXCEPT.match(tail)
            or _CONDITIONAL_LEAD.match(sentence)
            or _IN_CONDITION.search(clause[: match.start()])
            or re.match(r"(?:until|unless|before|without|if|when|whenever|after|once|only)\b", tail)
            or re.search(
                # "even if asked" concedes, it sets no condition
                r"\b(?<!even )(?:until|unless|before|if|whenever|once|only (?:if|when|after))\b",
                tail,
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
    r"|(?:do not|don't|never|not)\s+(?:ever\s+)?" + NEG_NEGATOR + r")\s+)*$"
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
