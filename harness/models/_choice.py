"""Which tool the offline model calls for a clause of a request: the best match by words, with
what the request does weighed above the words it shares (``choose``), and which tools change
something (``acting``). ``harness.models.rules`` makes the calls; ``harness.models._actions``
reads what a request asks for; docs/models.md ("Tools that change something") says it in prose.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from harness.models._actions import (
    acts,
    asks_by_question,
    asks_for_change,
    base_forms,
    is_question,
    mentions_change,
    request_form,
    states_past,
    uses_verb,
    wh_question,
)
from harness.models._argnames import takes_money
from harness.models._arguments import FREE_TEXT, fill, names_when, only_values
from harness.models._asked import asked_words, by_asked
from harness.models._credit import asked_kind, only_reads, tells, told_by_name
from harness.models._text import Router
from harness.models.base import AgentCard, ToolDefinition
from harness.text.words import keyword_texts, words_of_name

__all__ = [
    "NEAR_TIE",
    "TOOL_MINIMUM",
    "acting",
    "acting_description",
    "agent_router",
    "asks_no_change",
    "choose",
    "described",
    "fact_question",
    "lone_tool",
    "moves_money",
    "read_by_question",
    "stated",
    "tool_router",
    "typed",
]

TOOL_MINIMUM = 0.5
"""The lowest routing score at which a tool matches a request's clause."""
NEAR_TIE = 0.8
"""A tool scoring at least this share of the best tool's score ties with it on words."""


def _card_texts(card: AgentCard) -> list[str]:
    """The agent's name, description and keywords, a name or a tool name read as its words
    (``harness.text.words.keyword_texts``)."""
    keywords = [t for k in card.keywords for t in keyword_texts(k)]
    return [words_of_name(card.name), card.description, *keywords]


def lone_tool(tool: ToolDefinition, text: str) -> bool:
    """Whether the agent's only tool serves the request ``text`` when no request of the call
    matched any tool by its words: the planner sent the request to this agent, so a tool that
    reads answers it, and so does a tool that changes something, unless the request only names
    the change ("did you cancel it?", ``_actions.mentions_change``) or asks for a fact with a
    question word without asking for the change ("how many scooters are there?",
    ``fact_question``). A tool that acts only by its description answers a question that does
    not use its verb as it did before (``read_by_question``: "where is parcel 4471?" for
    ``track_parcel``)."""
    if not acting(tool):
        return True
    if mentions_change(text, tool.name, description=acting_description(tool)):
        return False
    if asks_for_change(text, tool.name, description=acting_description(tool)):
        return True
    if read_by_question(tool, text):
        return True
    statement = typed(tool) and stated(text)
    return not (fact_question(tool, text) or asks_no_change(tool, text) or statement)


def choose(
    tools: Sequence[ToolDefinition], router: Router, text: str, request: str = ""
) -> ToolDefinition | None:
    """The best-matching tool for ``text`` (``Router.best``, on the request's words with irregular
    pasts read as their base form: ``_actions.base_forms``), with what the request does weighed
    above the words it shares:

    - when the best tool reads, a tool that changes something, shares a word with ``text`` and
      is asked for (``_actions.asks_for_change``) with what the change needs (``_says_what``:
      "switch me to the Basic plan" is ``change_plan``'s, not ``subscription_plans``'s, whose
      docstring names the plans), or that
      gets a count, a day, a month or an identifier from ``text`` in a request that is no
      question and does not name the change as done ("2 adults and a child for Saturday please"
      is ``buy_tickets``'s, not ``ticket_prices``');
    - when the best tool changes something and ``text`` does not ask for that change
      (``_actions.asks_for_change``):

      - ``text`` names the change without asking for it (``_actions.mentions_change``: "is my
        ticket still open?", "did you freeze my membership?", "someone renewed my loan"): the
        best tool that reads and shares a word with ``text``, or None (nothing is changed; the
        agent hands the request back);
      - a tool that reads ties with it on words (``NEAR_TIE``): the best such tool ("what seat
        am I in?" between ``change_seat`` and ``current_seat``);
      - ``text`` asks for a fact with a question word that the tool does not say it tells
        (``fact_question``: "how many scooters are there"): the best tool that reads and
        shares a word, or None.

    None when nothing matches.

    A tool that acts only by its description (``described``) changes what happens to requests
    for that tool, never which reading tool a question goes to: the choice is made as if such
    tools read (``_choose`` with no marks, as before they were marked), and the choice made with
    them acting is taken only when the request is for one of them: it asks for the tool's
    change by its own verb (``_actions.asks_for_change``, ``asks_by_question``: "please groom
    Bella on Friday"), or the choice as readers is the tool and the request uses its verb as a
    verb (``_actions.uses_verb``; "the grooming", "the groom price" are nouns); a change it
    names without asking for it ("did you groom Bella?") is then handed back (None)."""
    marked = frozenset(t.name for t in tools if described(t))
    chosen = _choose(tools, router, text, request, marked)
    if not marked:
        return chosen
    read = _choose(tools, router, text, request, frozenset())
    if chosen is read:
        return chosen
    if chosen is not None and chosen.name in marked and _asks_for(chosen, text):
        return chosen
    if read is not None and read.name in marked and _names_verb(read, text):
        # The request is for the tool: a change it names without asking for it ("did you groom
        # Bella?", "you groomed her last week and ...") is handed back, never given to another
        # reader with whatever words are left (as the tool that read made no call for it).
        if mentions_change(text, read.name, description=read.description):
            return None
        return chosen
    return read


def _asks_for(tool: ToolDefinition, text: str) -> bool:
    """Whether ``text`` asks for the change of ``tool``, which acts only by its description, by
    its verb (``_actions.asks_for_change`` / ``asks_by_question``): the positive evidence that
    lets ``choose`` pick it over the tool chosen as if it read."""
    said = tool.description
    return asks_for_change(text, tool.name, description=said) or asks_by_question(
        text, tool.name, description=said
    )


def _names_verb(tool: ToolDefinition, text: str) -> bool:
    """Whether ``text`` uses the verb of ``tool``, which acts only by its description, as a verb
    (``_actions.uses_verb``: "did you groom Bella?", "I printed 10 posters here"; not "the
    print run", "what does printing cost")."""
    return uses_verb(text, tool.name, description=tool.description)


def _choose(
    tools: Sequence[ToolDefinition],
    router: Router,
    text: str,
    request: str,
    marked: frozenset[str],
) -> ToolDefinition | None:
    """``choose`` with the tools that act only by their description counted as acting when
    their names are in ``marked``, as reading tools otherwise."""
    scores = router.scores(asked_words(base_forms(text)))
    ranked = [(name, score) for name, score in scores if score >= TOOL_MINIMUM]
    readers = [t for t in tools if not _acts(t, marked)]
    if not ranked:
        # No tool shares a word: the one tool whose change ``text`` asks for by a verb of the
        # same action and names a value for ("switch me to premium" for ``change_plan`` whose
        # plan is "Basic" or "Premium": ``_says_what``), or the one tool that reads and tells
        # what the question asks for by its build ("where are you?": ``_asked.by_asked``), or
        # none.
        asked = [t for t in tools if _asked_by_verb(t, text, marked)]
        if asked:
            return asked[0] if len(asked) == 1 else None
        return by_asked(readers, router, text, None)
    by_name = {t.name: t for t in tools}
    best, top = by_name[ranked[0][0]], ranked[0][1]
    if not _acts(best, marked):
        # Of the tools that read, the one that tells what the question asks for ("how much is
        # the tour?" is ``tour_prices``'s, not ``tour_times``'s: ``_asked.by_asked``).
        return (
            _asked_change(by_name, scores, text, request or text, marked)
            or by_asked(readers, router, text, best)
            or best
        )
    if asks_for_change(text, best.name, description=_said(best, marked)):
        return best
    # Another change the request asks for by its verb, sharing a word ("can you book 3 adults
    # from Bristol to Cardiff" is ``buy_ticket``'s, whose verb "buy" books, not
    # ``cancel_booking``'s, which shares "book").
    # (Not for a tool that acts only for the money it takes, and has no verb to be asked by:
    # "buy a gift voucher worth 40 pounds" is ``gift_voucher(value)``'s.)
    verb = next(
        (
            by_name[n]
            for n, score in scores
            if (score > 0 or _counts(by_name[n], text))
            and n != best.name
            and _acts(by_name[n], marked)
            and asks_for_change(text, n, description=_said(by_name[n], marked))
            and (acts(best.name) or best.name in marked)
        ),
        None,
    )
    if verb is not None:
        return verb
    if mentions_change(text, best.name, description=_said(best, marked)):
        return _reader(by_name, scores, text, request, marked)
    tied = [
        by_name[n]
        for n, score in ranked[1:]
        if score >= NEAR_TIE * top and not _acts(by_name[n], marked)
    ]
    if tied:
        # A reader ties on words; a request worded as one that gives the change a count, a
        # date or a time still asks for it ("I'd like an appointment for Bella tomorrow"
        # beside ``appointment_times``: ``_asked_change``). Of the readers, the first the
        # request gives every required value ("the next train from St Pancras": ``departures``
        # of a station, not ``ticket_price`` from one station to another).
        wanted = _asked_change(by_name, scores, text, request or text, marked)
        return wanted or next((t for t in tied if _fills(t, text, request)), tied[0])
    if (
        fact_question(best, text)
        or asks_no_change(best, text, description=_said(best, marked))
        or (typed(best) and stated(text) and stated(request or text))
        or (moves_money(best) and (stated(text) or stated(request or text)))
    ):
        reader = _reader(by_name, scores, text, request, marked)
        # A tool that acts only by its description answers a question no reader takes, as it
        # did before it was marked acting (``read_by_question``).
        answers = best.name in marked and read_by_question(best, text)
        return best if reader is None and answers else reader
    return best


def acting(tool: ToolDefinition) -> bool:
    """Whether ``tool`` changes something: its name opens with a verb of change
    (``_actions.acts``), or it takes a required amount of money (``_argnames.takes_money``:
    ``top_up(amount)``, ``fund_wallet(amount)``), which a statement, a complaint or a past
    mention never gives it (the guards of ``choose`` apply)."""
    return acts(tool.name) or moves_money(tool) or described(tool)


def described(tool: ToolDefinition) -> bool:
    """Whether ``tool``'s description says it does what its name's first word, off the list of
    verbs of change, says (``_actions.acts`` with the description: "Prints a poster" for
    ``print_poster``), and it is not known to only read (``_credit.only_reads``: "Checks
    availability" for ``check_availability``) nor named for a value a reading tool tells
    (``_credit.told_by_name``: "Ticket prices for adults" for ``ticket_prices``)."""
    return _described(tool.name, tool.description)


@functools.lru_cache(maxsize=1024)
def _described(name: str, description: str) -> bool:
    return (
        not acts(name)
        and acts(name, description)
        and not only_reads(name, description)
        and not told_by_name(name)
    )


def read_by_question(tool: ToolDefinition, text: str) -> bool:
    """Whether ``tool``, which acts only by its description (``described``: "Tracks a parcel by
    its tracking number" for ``track_parcel``), reads for ``text`` as it did before it was
    marked acting: ``text`` is a question (``_actions.is_question``), not worded as a request
    (``_actions.request_form``) and not using the tool's own verb as a verb
    (``_actions.uses_verb``: "can you tune my piano?", "which days do you mow?" keep the
    guards of a tool that acts, ``lone_tool`` and ``choose``). "where is parcel 4471?" and
    "what does the tracking show?" (a noun of the verb's form) are answered; requests and
    statements keep those guards too."""
    return (
        described(tool)
        and is_question(text)
        and not request_form(text)
        and not uses_verb(text, tool.name, description=tool.description)
    )


def _acts(tool: ToolDefinition, marked: frozenset[str]) -> bool:
    """``acting`` with a tool that acts only by its description counted as acting only when
    ``marked`` names it (``choose``)."""
    return acts(tool.name) or moves_money(tool) or tool.name in marked


def _said(tool: ToolDefinition, marked: frozenset[str]) -> str:
    """``acting_description`` for a choice with ``marked`` tools acting (``_acts``)."""
    return tool.description if tool.name in marked else ""


def acting_description(tool: ToolDefinition) -> str:
    """The description ``_actions`` reads ``tool``'s verb from: the tool's own when only it
    says the tool acts (``described``), else none, so that a tool named with a verb of change
    reads as before."""
    return tool.description if described(tool) else ""


def moves_money(tool: ToolDefinition) -> bool:
    """Whether ``tool`` takes a required amount of money: a statement anywhere in the request
    ("I put £30 in my wallet last week and it vanished") never makes its change."""
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    return any(takes_money(n) for n in tool.parameters.get("required", []) if n in props)


def _reader(
    by_name: Mapping[str, ToolDefinition],
    scores: Sequence[tuple[str, float]],
    text: str,
    request: str,
    marked: frozenset[str],
) -> ToolDefinition | None:
    """The best tool that reads (``_acts`` with ``marked``), shares a word with ``text`` and
    gets every required value from it, for a request that names a change without asking for it
    ("did you book the appointment for Max?"): a reader chosen only for a shared word is no call
    to ask the user a value for (the request is handed back instead); None when there is
    none."""
    for name, score in scores:
        tool = by_name[name]
        if score > 0 and not _acts(tool, marked) and _fills(tool, text, request):
            return tool
    return None


def _fills(tool: ToolDefinition, text: str, request: str) -> bool:
    """Whether ``text`` (in ``request``) gives ``tool`` every required value."""
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    required = [n for n in tool.parameters.get("required", []) if n in props]
    args = fill(
        props, required, text, tool=tool.name, whole=request or text, about=tool.description
    )
    return all(n in args for n in required)


def _counts(tool: ToolDefinition, text: str) -> bool:
    """Whether ``text`` gives ``tool`` a count before one of its arguments' nouns ("3 adults"):
    that noun is a word the two share, though the tool's name and docstring lack it."""
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    return any(isinstance(v, int) for v in fill(props, (), text, strict=True).values())


def _asked_by_verb(tool: ToolDefinition, text: str, marked: frozenset[str]) -> bool:
    """Whether ``text``, no question, asks for the change of ``tool`` by a verb of its action
    and names a value of an argument that is not free text (``_says_what``); a tool that acts
    only by its description, only when ``marked`` names it."""
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    return (
        (acts(tool.name) or tool.name in marked)
        and bool(props)
        and not is_question(text)
        and asks_for_change(text, tool.name, description=_said(tool, marked))
        and _says_what(tool, text)
    )


def stated(text: str) -> bool:
    """Whether ``text``, which does not ask for a tool's change by its verb, is a statement of
    what happened or what is not, not worded as a request (``_actions.states_past``): "my 2
    children loved the zoo on Saturday" and "my order 55123 hasn't arrived" make no change of a
    tool with typed arguments (``typed``)."""
    return not is_question(text) and states_past(text)


def asks_no_change(tool: ToolDefinition, text: str, *, description: str | None = None) -> bool:
    """Whether the question ``text`` asks for no change of ``tool``, which changes something: a
    question acts only as "can/could/would you <the tool's verb>" or "can I <its verb>"
    (``_actions.asks_by_question``), so "when will order 55123 arrive?" cancels nothing and "is
    scooter 40213 still broken?" files no report. A tool whose name or docstring tells the kind
    of value asked is left to answer it, and so is a yes/no or how-to question to a tool that
    takes the request as free text only, as before: the helpdesk sample's "Is my account
    locked?" gets its reset link. ``description`` is the one ``_actions`` reads the tool's verb
    from (``acting_description`` when None)."""
    said = acting_description(tool) if description is None else description
    if not is_question(text) or asks_by_question(text, tool.name, description=said):
        return False
    kind = asked_kind(text)
    if kind is not None and tells(tool.name, tool.description, kind):
        return False  # the tool says it tells what is asked (``fact_question``)
    return typed(tool) or wh_question(text, modals=True)


def typed(tool: ToolDefinition) -> bool:
    """Whether ``tool`` takes an argument that is not free text: its change is made with values
    read from the request, so a question or a statement of a fact does not make it. A tool that
    takes the request whole (or nothing) is left to read it, as before ("My card was stolen"
    blocks the card)."""
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    return any(name not in FREE_TEXT for name in props)


def _says_what(tool: ToolDefinition, text: str) -> bool:
    """Whether ``text`` says all the change of ``tool`` needs beside its verb: the tool takes no
    argument ("cancel my subscription" for ``cancel_subscription()``), or ``text`` names a
    value for one that is not free text ("the Basic plan" for ``change_plan(plan)``,
    ``_arguments.fill``). A tool that takes the request as free text only gets no such value:
    "I would like to rent a car" beside a search tool that shares "car" stays the search."""
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    return not props or any(
        k not in FREE_TEXT for k in fill(props, (), text, about=tool.description)
    )


def fact_question(tool: ToolDefinition, text: str) -> bool:
    """Whether ``text`` asks for a fact with a question word (``_actions.wh_question``) that the
    tool ``tool``, which changes something, does not say it tells: "how many scooters are there"
    is no call of ``report_damage``, but "when is my next paycheck" is one of a tool named
    ``pay`` whose docstring says "When the next paycheck arrives" (``_credit.tells``)."""
    if not wh_question(text):
        return False
    kind = asked_kind(text)
    return kind is None or not tells(tool.name, tool.description, kind)


def _asked_change(
    by_name: Mapping[str, ToolDefinition],
    scores: Sequence[tuple[str, float]],
    text: str,
    request: str,
    marked: frozenset[str],
) -> ToolDefinition | None:
    """The best tool that changes something (``_acts`` with ``marked``), shares a word with
    ``text`` and that ``text`` asks for by its verb, or else that gets a count, a date or a
    time from ``text`` (``_arguments.fill``, strict; an identifier alone is not enough) when
    ``text`` is no question, is worded as a request (``_actions.request_form``, or a fragment of
    values of a ``request`` that is) and does not name that change as done; None when there is
    none (``choose``)."""
    changes = [(by_name[n], score) for n, score in scores if _acts(by_name[n], marked)]
    asked = next(
        (
            t
            for t, s in changes
            if s > 0
            and asks_for_change(text, t.name, description=_said(t, marked))
            and _says_what(t, text)
        ),
        None,
    )
    if asked is not None or is_question(text):
        return asked
    for tool, score in changes:
        props: Mapping[str, Any] = tool.parameters.get("properties", {})
        # A statement acts only when worded as a request ("2 adults for Saturday please"; a
        # fragment of values, "2 adults", when its request is): "my 2 children loved the zoo
        # on Saturday" and "my order 55123 hasn't arrived" do not.
        if not request_form(text) and not (
            request_form(request or text) and only_values(props, text)
        ):
            continue
        values = fill(props, (), text, strict=True)
        # A count is read before the argument's own noun ("2 adults"): that noun is the word
        # the two share, even when the tool's name and docstring do not have it. An identifier
        # alone asks for no change ("details for membership 44120 please").
        counted = any(isinstance(v, int) for v in values.values())
        dated = any(names_when(name) for name in values)
        if (
            (counted or dated)
            and (score > 0 or counted)
            and not mentions_change(text, tool.name, description=_said(tool, marked))
        ):
            return tool
    return None


def tool_router(tools: Sequence[ToolDefinition]) -> Router:
    return _cached_tool_router(tuple((t.name, t.description, t.keywords) for t in tools))


@functools.lru_cache(maxsize=256)
def _cached_tool_router(tools: tuple[tuple[str, str, tuple[str, ...]], ...]) -> Router:
    return Router(
        [(name, [name.replace("_", " "), desc, *words], ()) for name, desc, words in tools]
    )


@functools.lru_cache(maxsize=64)
def agent_router(agents: tuple[AgentCard, ...]) -> Router:
    """The router over sub-agents' words (the offline planner routes requests with it too)."""
    return Router([(a.name, _card_texts(a), a.examples) for a in agents])
