"""Frames for a parent's instructions: checking ``answered``, repeating the sub-agents, claiming to
be the only speaker, and the scope anchor (read by :mod:`harness.text.instructions`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from harness.text._vocab import (
    ADV,
    ALREADY_DONE,
    ANSWERS,
    NEG,
    NEG_NEGATOR,
    PARENT,
    REPEAT,
    SPEAK,
    SUBS,
    USER,
)
from instructions.contract import ANSWERED

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
# Ignoring denied: "never ignore the answered output", "do not skip the answered check".
_IGNORING_DENIED = re.compile(NEG + ADV + r"\s+$")


def _ignores_answered(text: str) -> bool:
    """Told to ignore ``answered`` (:data:`_ANSWERED_IGNORED`), and not told not to."""
    return any(
        not _IGNORING_DENIED.search(text[: m.start()]) for m in _ANSWERED_IGNORED.finditer(text)
    )


# The word between a negation and a verb of repeating is no verb of omission: "do not skip
# summarising what they said" asks for the summary.
_NOT_OMISSION = r"(?!" + NEG_NEGATOR + r"\b)"
_NO_REPEAT = re.compile(
    r"\b(?:do not|don't|never|avoid|without|must not|should not|shouldn't|no need to|not|nor)\s+"
    + _NOT_OMISSION
    + r"(?:\w+\s+)?(?:"
    + REPEAT
    + r"|answer\w*\s+(?:\w+\s+)?again|respond\w*\s+(?:\w+\s+)?again"
    r"|repl\w*\s+(?:\w+\s+)?again|say\w*\s+(?:\w+\s+)?again|tell\w*\s+(?:\w+\s+)?again"
    r"|acknowledg\w*)"
)
_NO_REPEAT_OTHERS = re.compile(
    r"\b(?:do not|don't|never|avoid|must not|should not|no need to)\s+"
    + _NOT_OMISSION
    + r"(?:\w+\s+)?"
    + REPEAT
    + r"\s+"
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
# The same act named by a noun: "end with a summary of everything the subagents told the user",
# "a rundown of all their answers", "a repetition of what they said" ("recap" and "restatement"
# are read by the verbs' pattern).
_REPEAT_NOUN = r"(?:summar(?:y|ies)|repetitions?|rundowns?|round-?ups?|run-?throughs?|lists?)"
_REPEATS = re.compile(
    r"\b(?P<verb>" + REPEAT + r"|" + _REPEAT_NOUN + r")\b(?P<object>(?:\s+[\w'-]+){0,8}?)\s+"
    r"(?P<answers>" + ANSWERS + r")\b(?P<tail>.*)$"
)
# Verbs that repeat only when what they take is what an agent said: "sum up what the leave agent
# said", "go through the answers the helpers gave", "list what each of them said" (but "list
# everything the user asked for" and "go through the user's message" are no repeating).
_WEAK_REPEAT = (
    r"(?:sum(?:s|med|ming)?\s+up|go(?:es|ing)?\s+(?:back\s+)?(?:over|through)|went\s+(?:over|through)"
    r"|run(?:s|ning)?\s+(?:back\s+)?through|walk(?:s|ed|ing)?\s+(?:\w+\s+)?through|list(?:s|ed|ing)?"
    r"|(?:pull|bring|put)(?:s|ed|ing)?\s+together|brought\s+together|mirror(?:s|ed|ing)?)"
)
_WEAK = re.compile(r"\b" + _WEAK_REPEAT + r"\b")
_REPEATS_MORE = re.compile(
    r"(?P<verb>" + _WEAK_REPEAT + r")\b(?P<object>(?:\s+[\w'-]+){0,8}?)\s+"
    r"(?P<answers>" + ANSWERS + r"|whatever)\b(?P<tail>.*)$"
)
# A strong verb of repeating whose object is a free relative, "whatever" an agent said or returned
# ("repeat whatever the billing agent returns"), is read as a weak verb is: only when the relative
# is what an agent said.
_REPEATS_WHATEVER = re.compile(
    r"\b(?P<verb>" + REPEAT + r")\b(?P<object>(?:\s+[\w'-]+){0,3}?)\s+whatever\b(?P<tail>.*)$"
)
_NOUN = re.compile(_REPEAT_NOUN + r"$")
# A noun of repeating is read only with its object ("a summary of ...") and the sub-agents named:
# "a summary of their account information" is about the user's account, not the answers. "What
# each ..." names them only with a word for an agent ("what each specialist replied", not "what
# each customer told the agent"); "what they/each of them ..." only in a sentence that names them.
_AGENT_WORD = r"(?:subagents?|agents?|specialists?|experts?|helpers?|assistants?|bots?|tools?)"
_NOUN_NAMES_SUBS = re.compile(
    r"\b(?:subagents?|each agent|every agent|what each\s+(?:of\s+(?:the\s+|their\s+)?)?"
    r"(?:[\w'-]+\s+)?" + _AGENT_WORD + r")\b"
)
_NOUN_NAMES_THEM = re.compile(r"\bwhat (?:they|each of them)\b")
# What one named agent said, or its answers: "what the leave agent said", "whatever the enrolment
# agent replied", "the HR assistant's reply", "the answers from the order agent" ("what the user
# told the billing agent" is the user's).
_OWNED = r"(?:answers?|repl(?:y|ies)|responses?|messages?|results?|outputs?)"
_NOT_USER = r"(?:(?!user\b)[\w'-]+\s+){0,2}?"
_AGENT_OWNER = re.compile(
    r"\b(?:what(?:ever)?|everything|all)\s+(?:that\s+)?(?:the\s+|each\s+|every\s+|your\s+"
    r"|our\s+)?" + _NOT_USER + _AGENT_WORD + r"\b"
    r"|\b" + _AGENT_WORD + r"'s?\s+(?:[\w-]+\s+)?" + _OWNED + r"\b"
    r"|\b"
    + _OWNED
    + r"\s+(?:from|of|by|given by)\s+(?:the\s+|each\s+|every\s+|your\s+)?"
    + _NOT_USER
    + _AGENT_WORD
    + r"\b"
)
# "its answer", "what it said", in a sentence that names an agent: the agent's.
_ITS = re.compile(r"\b(?:its|it)\b")
_NAMES_AGENT = re.compile(r"\b(?:" + _AGENT_WORD + r")\b")
# The output named, not the verb in a perfect: "once every specialist has answered", "when they
# have all answered" name no check on ``answered``.
_PERFECT = re.compile(
    r"\b(?:has|have|had|hasn't|haven't|hadn't)\s+(?:(?:not|already|all|both|each|just|now|finally"
    r"|fully|since)\s+)*$"
)


def _names_answered(sentence: str) -> bool:
    """``sentence`` names the ``answered`` output, not only the verb in a perfect."""
    return any(
        not _PERFECT.search(sentence[max(0, m.start() - 60) : m.start()])
        for m in re.finditer(ANSWERED, sentence)
    )


# Verbs of telling repeat only when they hand the user what agents said, again: "tell the user
# again what it said", "give the user the subagents' answers again", "include every
# specialist's answer once more"; and "remind the user of what the leave agent told them". The
# answer must be the verb's object, right after the verb and the user it is told to: "remind
# the user that the leave agent's answers are estimates", "send the user's message to the IT
# agent again" and "share the booking agent's results page link again" tell something else.
_TELL = (
    r"(?:tell(?:s|ing)?|say(?:s|ing)?|giv(?:e|es|ing)|present(?:s|ing)?|show(?:s|ing)?"
    r"|send(?:s|ing)?|shar(?:e|es|ing)|includ(?:e|es|ing)|provid(?:e|es|ing)|deliver(?:s|ing)?"
    r"|writ(?:e|es|ing)|mention(?:s|ing)?|explain(?:s|ing)?|read(?:s|ing)?\s+out)"
)
_REMIND = r"remind(?:s|ing)?"
_AGAIN = r"(?:again|once more|one more time|a second time|anew)"
# What agents said, as a phrase of its own: "what (the leave agent | it | each of them) said",
# "the HR assistant's reply", "their answers", "the answers from the order agent".
_ANSWER_VERB = (
    r"(?:said|told|replied|answered|responded|found|returned|gave|given|provided|sent|shared"
    r"|wrote|reported|says|tells|replies|answers|responds|finds|returns|gives|provides)"
)
_WHAT_THEY_SAID = (
    r"(?:what(?:ever)?|everything|all)\s+(?:that\s+)?(?:(?!user\b)[\w'-]+\s+){0,6}?"
    r"(?:"
    + _AGENT_WORD
    + r"|it|they|them)\s+(?:(?:has|have|had|already|just)\s+)*"
    + _ANSWER_VERB
    + r"\b"
)
_THEIR_ANSWER = (
    r"(?:(?:the|each|every|all(?:\s+the)?|both)\s+)?(?:(?!user\b)[\w-]+\s+){0,2}?"
    r"(?:"
    + _AGENT_WORD
    + r"\s*'s?|their|its)\s+(?:[\w-]+\s+)?"
    + _OWNED
    # the answer is the head of the phrase: not "the booking agent's results page link"
    + r"(?=\s*$|\s*[,.;:]|\s+(?:again|once|one|to|for|in|into|with|back|before|after|at|when"
    r"|if|and|from|so|as|word|verbatim|on|that|the|a|an)\b)"
)
_ANSWERS_FROM = (
    r"(?:(?:the|all(?:\s+the)?|every|each)\s+)?(?:[\w-]+\s+)?" + _OWNED + r"\s+(?:(?:from|of|by"
    r"|given by)\s+|(?:that\s+)?)(?:(?:the|each|every|your|our|all(?:\s+the)?|both)\s+)?"
    r"(?:(?!user\b)[\w-]+\s+){0,2}?" + _AGENT_WORD + r"\b"
)
_TELLS = re.compile(
    r"(?P<verb>"
    + _TELL
    + r"|"
    + _REMIND
    + r")\b(?P<object>(?:\s+(?:to\s+|for\s+)?(?:"
    + USER
    + r"|them|him|her|you))?(?:\s+"
    + _AGAIN
    + r")?(?:\s+(?:of|about))?\s+(?:"
    + _WHAT_THEY_SAID
    + r"|"
    + _THEIR_ANSWER
    + r"|"
    + _ANSWERS_FROM
    + r"))(?P<tail>.*)$"
)
# What an agent said, with the agent as the subject of a verb of saying, returning, answering or
# finding: "what the leave agent said", "everything the booking agent told them", "what each of
# them found" ("what every agent can help with" and "what the agents need from the user" say
# nothing an agent said). "They" and "them" are the agents only after the agents were named as
# several (:func:`_several_agents_before`): in "confirm back to the caller what they said" they
# are the caller.
_AGENT_SAID = (
    r"(?:what(?:ever)?|everything|all)\s+(?:that\s+)?(?:(?!user\b)[\w'-]+\s+){0,6}?"
    r"(?P<speaker>" + _AGENT_WORD + r"|it|they|them)\s+"
    r"(?:(?:has|have|had|already|just|all|both)\s+)*" + _ANSWER_VERB + r"\b"
)
# Verbs of telling or repeating that take the particle "back": "confirm back", "read back", "relay
# back" ("hold back", "keep back", "roll back" and "check back" do not hand anything on).
_BACK_VERB = (
    r"(?:confirm|report|relay|echo|play|mirror|repeat|restate|reiterate|recite|feed|fed|pass|read"
    r"|say|said)(?:s|es|ed|d|ing)?"
)
# A verb of telling or repeating with "back", to the user, whose object is what an agent said:
# "confirm back to the user what the leave agent said", "echo back to the guest the booking
# agent's reply". "Pass back to the billing agent what the user said", "report back to the
# supervisor what the agent found" and "read back to the caller the card number" are not.
_SAID_BACK = re.compile(
    r"\b(?P<verb>"
    + _BACK_VERB
    + r")\s+back\b(?P<object>\s+(?:to|for)\s+(?:"
    + USER
    + r")\s+(?:"
    + _AGENT_SAID
    + r"|"
    + _THEIR_ANSWER
    + r"|"
    + _ANSWERS_FROM
    + r"))(?P<tail>.*)$"
)
# A strong verb of repeating on a free relative "what" an agent said: "recap what every agent told
# the user", "summarise what each of them found".
_REPEATS_WHAT = re.compile(
    r"\b(?P<verb>" + REPEAT + r")\b(?P<object>(?:\s+[\w'-]+){0,3}?\s+" + _AGENT_SAID + r")"
    r"(?P<tail>.*)$"
)
# Where a repeat goes when it is not the user: another agent, a log, a ticket, a report, a person
# on the staff ("relay what the triage agent found to the billing agent", "copy whatever the
# agents return into the audit log", "send the supervisor a summary of ...").
_ELSEWHERE = (
    r"(?:" + _AGENT_WORD + r"'?s?|parent|orchestrator|log|logs|ticket|tickets|report|reports|record"
    r"|records|notes|case|queue|channel|database|system|supervisor|manager|team|engineer|staff"
    r"|colleague|reviewer|human|operator)"
)
_TO_ELSEWHERE = re.compile(
    r"^(?:\s+[\w'-]+){0,8}?\s+(?:to|into|in|for)\s+(?:(?:the|a|an|your|our|its|their|this|that"
    r"|each|every)\s+)?(?:(?!user\b)[\w'-]+\s+){0,2}?" + _ELSEWHERE + r"\b"
)
_GIVEN_ELSEWHERE = re.compile(
    r"\b(?:give|send|offer|provide|hand|show|write|pass)\s+(?:(?:the|a|an|your|our)\s+)?"
    r"(?:(?!user\b)[\w'-]+\s+){0,2}?"
    + _ELSEWHERE
    + r"\s+(?:(?:a|an|the|one|your)\s+)?(?:[\w'-]+\s+)?$"
)
# The agents named as several before a "they" or "them": "the subagents", "every specialist",
# "both helpers".
_SEVERAL_AGENTS = re.compile(
    r"\bsubagents\b|\b(?:each|every|all|both)\s+(?:[\w'-]+\s+){0,2}?" + _AGENT_WORD + r"\b"
    r"|\b(?:agents|specialists|experts|helpers|assistants|bots|tools)\b"
)


def _several_agents_before(text: str, sentence: str) -> bool:
    """The agents are named as several in ``text`` (what comes before a "they" or "them"), or
    as the sub-agents anywhere in ``sentence`` ("end with a summary of what each of them said,
    after calling the sub-agents")."""
    return "subagents" in sentence or bool(_SEVERAL_AGENTS.search(text))


def _speaker_is_an_agent(match: re.Match[str], clause: str, sentence: str) -> bool:
    """The one who said what ``match`` (:data:`_SAID_BACK`, :data:`_REPEATS_WHAT`) passes on is
    an agent: an agent word or "it", or "they", "them", "their" after the agents were named as
    several ("confirm back to the caller what they said" is the caller's)."""
    if match.group("speaker") in {"they", "them"}:
        return _several_agents_before(clause[: match.start("speaker")], sentence)
    if "object" in match.re.groupindex and re.search(r"\btheir\b", match.group("object")):
        return _several_agents_before(clause[: match.start("object")], sentence)
    return True


_TELL_OR_REMIND = re.compile(r"\b(?:" + _TELL + r"|" + _REMIND + r")\b")
# Told on to an agent, not to the user: "send the leave agent's reply to the payroll agent".
# "Again" on the verb, in its own stretch of words: "present their answers to the user again".
_AGAIN_ON = re.compile(r"\b" + _AGAIN + r"\b")
_AGAIN_AFTER = re.compile(
    r"^(?:\s+(?!and\b|then\b|if\b|when\b|but\b)[\w'-]+){0,4}?\s+" + _AGAIN + r"\b"
)
_TO_AN_AGENT = re.compile(
    r"^\s+(?:again\s+)?(?:to|for)\s+(?:(?!user\b)[\w-]+\s+){0,3}?" + _AGENT_WORD + r"\b"
)
# Repeating named as a thing ("a recap of ...", "repeating ...") and denied right after its
# object, in the same stretch of words: "a recap of their replies is not needed". A later clause
# does not deny an imperative: "repeat their answers, even if they are not helpful".
_DENIED_AFTER = re.compile(
    r"^(?:\s+[\w'-]+){0,6}?\s+(?:(?:(?:is|are|was|were|would be|will be)\s+(?:not|never)|isn't"
    r"|aren't)\s+(?:needed|necessary|required|wanted|allowed|helpful|useful)"
    r"|(?:is|are|would be|will be)\s+(?:unnecessary|unneeded|superfluous|not needed))\b"
)
_NAMED_AS_THING = re.compile(
    r"\b(?:a|an|the|any|no|your|this|that|such|some|one)\s+(?:[\w'-]+,?\s+){0,3}$"
)
# A noun negated further from its verb, commas allowed in between: "never end with a summary of
# ...", "don't ever end with a long, detailed summary of ...", "never, under any circumstances,
# end with ...", "no recap of ...", "there is no need for a summary of ...". The gap stops at a
# word that starts a new instruction ("never guess, just end with a summary ..."), and a negated
# "forget" or "skip" is no denial ("don't forget to end with a summary ...").
_GAP_WORD = r"(?!(?:and|but|or|then|instead|rather|just|simply|always|only|so)\b)[\w'-]+,?\s+"
_GAP, _SHORT_GAP = f"(?:{_GAP_WORD}){{0,8}}$", f"(?:{_GAP_WORD}){{0,3}}$"
_NOUN_NEGATED = re.compile(
    NEG + r",?\s+" + _GAP + r"|\b(?:no|without|not)\s+(?:need|call|reason|requirement)\s+"
    r"(?:for|of)\s+" + _SHORT_GAP + r"|\b(?:no|without|not)\s+" + _SHORT_GAP
)
_NOT_DENIED = re.compile(NEG + r"\s+(?:ever\s+)?" + NEG_NEGATOR + r"\b")
# A verb of omission right before the verb or noun of repeating, not negated: "skip the summary
# of ...", "leave out any recap of ...": a denial.
_OMITTED = re.compile(
    r"\b" + NEG_NEGATOR + r"\s+(?:(?:the|a|an|your|any|this|that)\s+)?(?:\w+\s+)?$"
)
# A negated verb of omission right before the verb or noun of repeating: "do not skip the summary
# of ...", "don't forget to recap ...", "never leave out a rundown of ...": no denial.
_OMISSION_DENIED = re.compile(
    NEG + ADV + r"\s+" + NEG_NEGATOR + r"\s+(?:(?:the|a|an|your|any|this|that)\s+)?(?:\w+\s+)?$"
)
# The user as the indirect object of an imperative of giving: "give the user a summary of what
# the sub-agents said" (the agent gives it), not "the user ..." as the one who acts; the
# imperative may follow an opening phrase or clause ("after they finish, give the user ...").
_GIVEN_TO_USER = re.compile(
    r"^(?:[^,]+,\s*)?(?:(?:please|always|then|also|finally|now)\s+)*(?:give|send|offer|provide|hand|show|write)"
    r"\s+(?:the\s+|your\s+)?user\s+(?:(?:a|an|the|one|your)\s+)?(?:[\w'-]+\s+)?$"
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
    if _ignores_answered(clause):
        return False
    if _ANSWERED_IGNORED.search(clause):
        return True  # every ignoring denied: "never ignore the answered output"
    if _ANSWERED_NAMED.search(clause) and _CHECK_CONTEXT.search(clause):
        return True
    if _NO_REPEAT_OTHERS.search(clause):
        return True
    return bool(
        re.search(ALREADY_DONE, clause)
        and (_NO_REPEAT.search(clause) or _LEAVE_ALONE.search(clause))
    )


def _noun_repeats(match: re.Match[str], before: str, sentence: str) -> bool:
    """A noun of repeating (``match`` of :data:`_REPEATS`) read as an instruction to repeat: its
    object opens with "of", names the sub-agents within a few words ("a summary of everything
    the subagents told the user", not "a summary of everything the user told you ... to the
    subagents"), and the words before do not deny it ("never end with a summary")."""
    obj = match.group("object")
    if not (obj == " of" or obj.startswith(" of ")):
        return False
    tail = match.group("tail")
    near = match.group(0)[: len(match.group(0)) - len(tail)] + " " + " ".join(tail.split()[:3])
    if (
        not _NOUN_NAMES_SUBS.search(near)
        and not _AGENT_OWNER.search(near)
        and not (_NOUN_NAMES_THEM.search(near) and _several_agents_before(before, sentence))
    ):
        return False
    return not _NOUN_NEGATED.search(before) or bool(_NOT_DENIED.search(before))


def _denied_after(match: re.Match[str], before: str) -> bool:
    """Repeating named as a thing (a noun, "a recap", "repeating") and denied right after its
    object: "a recap of the subagents' replies is not needed"."""
    verb = match.group("verb")
    named = bool(_NOUN.match(verb)) or verb.endswith("ing") or bool(_NAMED_AS_THING.search(before))
    return named and bool(_DENIED_AFTER.match(match.group("tail")))


def _verb_as_noun_denied(match: re.Match[str], before: str) -> bool:
    """A verb of repeating used as a noun ("a recap of ...", "the restatement of ...") and denied
    as the nouns are (:data:`_NOUN_NEGATED`)."""
    obj = match.group("object")
    return (
        (obj == " of" or obj.startswith(" of "))
        and bool(_NAMED_AS_THING.search(before))
        and bool(_NOUN_NEGATED.search(before))
        and not _NOT_DENIED.search(before)
    )


# A negation over a list of verbs: "never repeat, summarise or acknowledge its reply".
_NEGATED_LIST = re.compile(NEG + r"\s+(?:(?:\w+,\s+){1,3}|(?:\w+,?\s+){0,3}(?:or|nor|and)\s+)$")


def _near(match: re.Match[str]) -> str:
    """What the verb or noun of ``match`` takes: its object and the first words after it."""
    tail = match.group("tail")
    return match.group(0)[: len(match.group(0)) - len(tail)] + " " + " ".join(tail.split()[:4])


def _agents_said(match: re.Match[str], sentence: str) -> bool:
    """What ``match`` repeats is what agents said: the sub-agents' ("their answers", "what each
    of them said"), one named agent's ("what the leave agent said", "the HR assistant's reply"),
    or "its answer" / "what it said" in a sentence naming an agent."""
    near = _near(match)
    if _REPEAT_OBJECT_SUBS.search(near) or _AGENT_OWNER.search(near):
        return True
    return bool(_ITS.search(near) and _NAMES_AGENT.search(sentence))


def _more_matches(clause: str) -> Iterator[re.Match[str]]:
    """Every reading of :data:`_REPEATS_MORE` in ``clause``, one per verb (a match takes the rest
    of the clause, so a verb that is not read does not hide a later one)."""
    for verb in _WEAK.finditer(clause):
        match = _REPEATS_MORE.match(clause, verb.start())
        if match is not None:
            yield match


_AGENT_SAID_RE = re.compile(_AGENT_SAID + r"(?P<rest>.*)$")


def _what_not_said(match: re.Match[str], clause: str, sentence: str) -> bool:
    """The object of :data:`_REPEATS` is a free relative "what ..." that is not what an agent said
    ("summarise what each assistant can do", "recap what the agents need from the user"), or
    what an agent said passed on elsewhere ("copy what each agent returned into the ticket")."""
    if not match.group("answers").startswith("what"):
        return False
    said = _AGENT_SAID_RE.match(clause, match.start("answers"))
    return (
        said is None
        or not _speaker_is_an_agent(said, clause, sentence)
        or bool(_TO_ELSEWHERE.match(said.group("rest")))
    )


def _repeats(clause: str, sentence: str) -> bool:
    """Told to repeat or summarise the sub-agents' answers, or to ignore ``answered``."""
    if _ignores_answered(clause):
        return True
    for match in _REPEATS.finditer(clause):
        if _what_not_said(match, clause, sentence):
            continue
        if _read_as_repeat(match, clause, sentence, weak=False):
            return True
    for match in _more_matches(clause):
        if _what_not_said(match, clause, sentence):
            continue
        if _read_as_repeat(match, clause, sentence, weak=True):
            return True
    for match in _REPEATS_WHATEVER.finditer(clause):
        if not _TO_ELSEWHERE.match(match.group("tail")) and _read_as_repeat(
            match, clause, sentence, weak=True
        ):
            return True
    for pattern in (_REPEATS_WHAT, _SAID_BACK):
        for match in pattern.finditer(clause):
            if (
                _speaker_is_an_agent(match, clause, sentence)
                and not _TO_ELSEWHERE.match(match.group("tail"))
                and _read_as_repeat(match, clause, sentence, weak=True)
            ):
                return True
    return any(_read_as_repeat(m, clause, sentence, weak=True) for m in _tell_matches(clause))


def _tell_matches(clause: str) -> Iterator[re.Match[str]]:
    """Every reading of :data:`_TELLS` in ``clause`` that hands the user what agents said: a verb
    of telling with "again" on it ("tell the user what the agent found" asks for no repeat), or
    "remind"; not one told on to another agent."""
    for verb in _TELL_OR_REMIND.finditer(clause):
        match = _TELLS.match(clause, verb.start())
        if match is None or _TO_AN_AGENT.match(match.group("tail")):
            continue
        reminds = re.fullmatch(_REMIND, match.group("verb"))
        again = _AGAIN_ON.search(match.group("object")) or _AGAIN_AFTER.match(match.group("tail"))
        if reminds or again:
            yield match


# The main clause of a sentence states something when it opens with its subject: a pronoun, a
# determiner ("your payslip arrives ..."; an imperative opens with its verb), or a bare noun and a
# form of "be", "have" or a modal ("boarding is at 8").
_STATEMENT = re.compile(
    r"\s*(?:(?:you|i|we|it|they|he|she|there|this|that|the|your|my|our|its|their|a|an)\b"
    r"|[\w'-]+\s+(?:is|are|was|were|has|have|had|will|can|may)\b)"
)


def _participle_statement(match: re.Match[str], before: str, clause: str) -> bool:
    """A participle clause of repeating opens the sentence and its main clause, after the comma,
    is a statement: a message that acknowledges an answer, not an instruction. An imperative main
    clause keeps the instruction ("summing up what the agent said, close the chat")."""
    if before.strip() or not match.group("verb").split()[0].endswith("ing"):
        return False
    _, comma, main = clause.partition(",")
    return bool(comma) and bool(_STATEMENT.match(main))


def _read_as_repeat(match: re.Match[str], clause: str, sentence: str, *, weak: bool) -> bool:
    """Whether one verb or noun of repeating with its object (``match``) is an instruction to
    repeat. A weak verb (:data:`_WEAK_REPEAT`, :data:`_TELLS`) counts only when what it takes is
    what agents said (:func:`_agents_said`)."""
    before = clause[: match.start()]
    if (
        re.search(NEG + r"\s+(?:\w+\s+){0,2}$", before)
        or re.search(r"\bnot\s+$", before)
        or _NEGATED_LIST.search(before)
    ) and not _OMISSION_DENIED.search(before):
        return False
    if _OMITTED.search(before) and not _OMISSION_DENIED.search(before):
        return False  # "skip the summary of what they said"
    if re.search(r"\b(?:no|without)\s+(?:an?\s+|any\s+)?$", before):
        return False  # "answer without repeating what they said", "give no recap of ..."
    if _denied_after(match, before):
        return False
    if not weak and _NOUN.match(match.group("verb")) and not _noun_repeats(match, before, sentence):
        return False
    if _verb_as_noun_denied(match, before):
        return False  # "there is no need for a recap of ...", "never end with a long recap of ..."
    if re.match(
        r"(?:combin|merg|aggregat|consolidat|compil|synthesi|collat)", match.group("verb")
    ) and ("subagents" not in clause):
        return False
    if re.search(r"\b(?:parent|it|user)\s+(?:\w+\s+){0,2}$", before) and not _GIVEN_TO_USER.search(
        before
    ):
        return False  # someone else repeats: "the supervisor relays everything"
    if _GIVEN_ELSEWHERE.search(before):
        return False  # "send the billing agent a summary of ...": not the user
    whole = match.group("object") + " " + match.group(0)
    opener = _participle_statement(match, before, clause)
    # A weak verb always needs the agents' answers; a strong one needs them or "all", "their"...,
    # and one named agent's answer counts ("restate what the travel agent said").
    strong = not weak and (_ALL_OF_THEIRS.search(whole) or _REPEAT_OBJECT_SUBS.search(sentence))
    if not strong and (opener or not _agents_said(match, sentence)):
        return False
    if "findings" in whole or (_names_answered(sentence) and not _ignores_answered(sentence)):
        return False  # silent findings are the parent's to relay; a check on answered limits it
    if re.search(r"\b(?:not|n't|never|no)\s+(?:\w+\s+){0,3}(?:answer|repl|respond)", before):
        return False  # "if a sub-agent did not answer, summarise ..."
    return not (
        re.search(r"\bonly\b", before + match.group("tail"))
        and re.search(r"\b(?:silent|missing|new|not|unanswered|failed)\b", clause)
    )


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
