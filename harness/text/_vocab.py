"""Word classes the instruction reader is built from (regex fragments over normalised text).

Every fragment names a class of words (negations, verbs of talking to someone, verbs of repeating,
words of exclusivity...), never a whole instruction: :mod:`harness.text.instructions` combines them
with the roles of :mod:`harness.text._roles` (``user``, ``parent``, ``subagents``, ``you``).
"""

from __future__ import annotations

__all__: list[str] = []

USER = r"(?:the |a |an |any |your |our |this |that |each |every |their |its )?user\b"
PARENT = r"(?:the |your |its |our |a )?parent\b"
SUBS = r"(?:the |a |any |your |other |each |every |all |all of the |all the |these |those )?subagents\b"

# Negations, including "refrain from", "avoid" and "under no circumstances".
NEG = (
    r"\b(?:do not|don't|dont|does not|doesn't|never|must not|mustn't|should not|shouldn't|shall not"
    r"|cannot|can not|can't|may not|will not|won't|are not (?:allowed|permitted|supposed) to"
    r"|is not (?:allowed|permitted) to|not allowed to|not permitted to|forbidden to|prohibited from"
    r"|refrain from|avoid|under no circumstances(?: should you| may you| are you to| do you)?"
    r"|at no (?:point|time)(?: should you| may you| do you)?|no need to|not to|nor)"
)
# A negated verb that makes the following one positive: "don't forget to greet the user", and
# the verbs of omission, "do not skip the summary", "never leave out a recap".
NEG_NEGATOR = (
    r"(?:forget(?:s|ting)?|fail(?:s|ing)?|neglect(?:s|ing)?|omit(?:s|ting)?|hesitat(?:e|es|ing)"
    r"|miss(?:es|ing)?|skip(?:s|ping)?|overlook(?:s|ing)?|leav(?:e|es|ing)\s+out)(?:\s+to)?"
)
ADV = (
    r"(?:\s+(?:ever|directly|yourself|personally|proactively|even|try to|attempt to|ever try to"
    r"|independently|on your own|by yourself|really|actually|at any point))*"
)
# Verbs of talking to someone, intransitive or with "to/with": "reply to the user".
TALK_TO = (
    r"(?:respond(?:s|ing|ed)?|repl(?:y|ies|ying|ied)|answer(?:s|ing|ed)?|talk(?:s|ing|ed)?"
    r"|speak(?:s|ing)?|writ(?:e|es|ing)|communicat(?:e|es|ing)|chat(?:s|ting)?|interact(?:s|ing)?"
    r"|get(?:ting)? back|com(?:e|ing) back|reach(?:es|ing)? out|engag(?:e|es|ing)|converse"
    r"|(?:output|send|say|write)(?:s|ting|ing)? anything|surface anything|show anything)"
)
# Verbs whose object is the person talked to: "message the user", "greet the flyer".
TALK_OBJ = (
    r"(?:messag(?:e|es|ing|ed)|contact(?:s|ing)?|address(?:es|ing)?|answer(?:s|ing)?"
    r"|notif(?:y|ies|ying)|inform(?:s|ing)?|tell(?:s|ing)?|greet(?:s|ing)?|email(?:s|ing)?"
    r"|ping(?:s|ing)?|text(?:s|ing)?|welcom(?:e|es|ing)|thank(?:s|ing)?|wish(?:es|ing)?"
    r"|updat(?:e|es|ing)|remind(?:s|ing)?|advis(?:e|es|ing)|warn(?:s|ing)?|ask(?:s|ing)?"
    r"|prompt(?:s|ing)?|reassur(?:e|es|ing)|congratulat(?:e|es|ing)|assist(?:s|ing)?)"
)
SEND = (
    r"(?:send(?:s|ing)?|post(?:s|ing)?|writ(?:e|es|ing)|output(?:s|ting)?|produc(?:e|es|ing)"
    r"|emit(?:s|ting)?|deliver(?:s|ing)?)"
)
MSG = (
    r"(?:any |a |the |your |an |one |a single |one single |even one |)"
    r"(?:(?:chat|text|direct|final|user-facing|single) )?"
    r"(?:messages?|replies|reply|responses?|texts?|activit(?:y|ies)|answers?)"
)
# Greetings that need no object: "always begin with a friendly hello".
GREETING = (
    r"\b(?:(?:begin|start|open|end|close|finish)\w*\s+(?:each\s+|every\s+|the\s+|your\s+)?"
    r"(?:conversation\s+|chat\s+|reply\s+|response\s+|message\s+)?(?:with|by)\s+(?:a|an|your)?\s*"
    r"(?:\w+\s+){0,2}?(?:hello|hi|greeting|welcome|salutation|thank[\w-]*|goodbye|farewell)"
    r"|say(?:s|ing)?\s+(?:hello|hi|goodbye|good morning|good afternoon|thanks|thank you)"
    r"|introduc(?:e|es|ing)\s+yourself)"
)
# Words of talking or being heard, for the only-speaker claim.
SPEAK = (
    r"(?:talk|speak|respond|reply|repl(?:y|ie)|communicat(?:e|)|interact|message|writ(?:e|)"
    r"|answer|chat|send|address|contact|hear|heard|hears|voice|deal|converse)(?:s|es|ing|d)?"
)
# Verbs of repeating what was said.
REPEAT = (
    r"(?:repeat|restat|re-stat|recap|summari[sz]|echo|reiterat|rephras|paraphras|duplicat|resend"
    r"|re-send|parrot|rewor[dk]|retell|re-tell|re-?answer|read back|play back|copy|relay|pass(?:es)? on"
    r"|forward|re-?explain|repackag|regurgitat|re-?deliver|re-?present|reproduc|recount|go over"
    r"|combin|merg|aggregat|consolidat|compil|synthesi[sz]|collat)\w*"
)
# What the sub-agents said, as the object of a repeating verb.
ANSWERS = (
    r"(?:answers?|responses?|replies|reply|results?|messages?|outputs?|outcomes?|information|content"
    r"|what (?:they|it|each|the|subagents|\w+ subagents?)\b|everything|all of it)"
)
ALREADY_DONE = (
    r"\balready\s+(?:been\s+)?(?:answered|responded|replied|told|sent|given|gave|provided|addressed"
    r"|handled|covered|received|delivered|has|have|had|got|gotten|heard|shared|said|explained"
    r"|communicated|seen|saw|shown|replied to|spoken|talked)\b"
)
# Openers of a condition at the start of a sentence.
CONDITION_HEAD = r"(?:if|unless|in case|only if|only when|except|when|whenever|once|should)\b"
CONDITION_OPEN = (
    r"\b(?:if|unless|whether|when|whenever|once|until|in case|as long as|after|before|while)\s+"
    r"[^,]*$"
)
