"""Scenario files: scripted multi-intent conversations with the requests each turn must get answered.

```yaml
bot: helpdesk.yaml          # optional: the bot to run them against, relative to this file
scenarios:
  - name: pto-and-payday
    turns:
      - user: "How many vacation days do I have left, and when is the next payday?"
        requests:
          - {agent: pto, expect: "12 days"}
          - {agent: payroll, expect: "Friday"}
```

``expect`` is text that some bot message of that turn must contain (case-insensitive); with it, the
simulator can tell a missed request from an answered one, and an answer given twice.

The missed-request check splits each user message into its requests itself. A turn whose
requests all give their ``text`` is checked against those instead, and ``words`` (when given)
are what an answer to the request mentions, in place of the request's own words:

```yaml
      - user: "How many PTO days have I used and how many are left?"
        requests:
          - {text: "how many PTO days have I used", agent: pto, words: [used]}
          - {text: "how many PTO days are left", agent: pto, words: [left]}
```

A turn also checks its bot messages (``expect``, ``not``, ``regex``, ``equals``, an ordered
``bot:`` list with ``optional`` entries), and a request the tools its agent calls (``tools`` with
``calls: strict | unordered | subset | superset``, ``never_calls``); ``harness.detect.checks`` runs
them (docs/simulate.md, "Checks per turn"):

```yaml
      - user: "When is the next payday?"
        not: password
        requests:
          - {agent: payroll, tools: [next_payday], never_calls: [gross_pay]}
```

Instead of ``bot:``, ``target:`` names a deployed bot (``--bot`` still runs the file in-process).
Credentials never go in the file, only the names of the environment variables that hold them:

```yaml
target:
  directline: {url: https://europe.directline.botframework.com/v3/directline}
  # or: copilot_studio: {environment_id: ..., schema_name: cr123_helpdesk}
```
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from harness.detect.checks import MessageCheck, TextCheck, TextCheckKind, ToolCheck, TurnChecks
from harness.exceptions import ConfigError
from harness.runtime.config_files import load_yaml
from subagents.config import locate, validate_yaml

if TYPE_CHECKING:
    from harness.detect.expectations import Expectation
    from harness.runtime.parent import Parent

__all__ = [
    "BotMessage",
    "CopilotStudioSpec",
    "DirectLineSpec",
    "RequestExpectation",
    "Scenario",
    "ScenarioFile",
    "ScenarioTurn",
    "TargetSpec",
    "TurnCheckSpec",
    "check_names",
    "directline_turn_limit",
    "load_scenarios",
    "turn_checks",
]


class RequestExpectation(BaseModel):
    """One request inside a user turn, and what answers it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str = Field(min_length=1)
    """The component expected to handle it (a sub-agent's name, or the parent's)."""
    expect: str | None = None
    """Text the answer must contain (case-insensitive)."""
    text: str | None = Field(default=None, min_length=1)
    """The request as it would be asked on its own; when every request of the turn gives it,
    the missed-request check uses these requests instead of splitting the message itself."""
    words: list[str] = Field(default_factory=list)
    """Words an answer to the request mentions (any one of them will do); the content words of
    ``text`` when empty."""
    tools: list[str] | None = None
    """The tools ``agent`` must call for it this turn, compared as ``calls`` says; None: no
    check of what it calls."""
    calls: Literal["strict", "unordered", "subset", "superset"] = "superset"
    """How the agent's calls are compared with ``tools``: ``strict`` (the same calls in this
    order), ``unordered`` (the same calls, any order), ``subset`` (none outside ``tools``),
    ``superset`` (at least ``tools``, the default)."""
    never_calls: list[str] = Field(default_factory=list)
    """Tools ``agent`` must not call this turn."""

    @field_validator("words")
    @classmethod
    def _matchable(cls, words: list[str]) -> list[str]:
        # The check looks for an entry's content words and numbers, read as it reads them: an
        # entry that gives none ("no", "it is", "£") never matches an answer.
        from harness.detect.missed import answer_terms  # here: loading needs no more of it

        for word in words:
            if not answer_terms((word,)):
                raise ValueError(
                    f"{word!r} gives no content word or number, so no answer can match it: give "
                    "a word or number the answer says (a price as '£14.60', not '£'; 'cancelled', "
                    "not 'no')"
                )
        return words

    @model_validator(mode="after")
    def _calls_need_tools(self) -> RequestExpectation:
        if "calls" in self.model_fields_set and self.tools is None:
            raise ValueError("'calls' says how to compare 'tools': give 'tools' too")
        return self


def _texts(value: object) -> object:
    """One text or a list of them: a list."""
    return [value] if isinstance(value, str) else value


def _regexes(patterns: list[str]) -> list[str]:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"not a regular expression: {pattern!r}: {exc}") from None
    return patterns


class BotMessage(BaseModel):
    """One entry of a turn's ``bot:`` list: what the next bot message must say."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    expect: str | None = None
    """Text the message contains (case-insensitive)."""
    not_: str | None = Field(default=None, alias="not")
    """Text the message must not contain."""
    regex: str | None = None
    """A regular expression the message matches (``re.search``)."""
    equals: str | None = None
    """The whole message (case and white space aside)."""
    optional: bool = False
    """The message may be missing: a message that does not pass is checked against the next
    entry instead."""

    @field_validator("regex")
    @classmethod
    def _valid_regex(cls, value: str | None) -> str | None:
        return None if value is None else _regexes([value])[0]

    def check(self) -> MessageCheck:
        given: tuple[tuple[TextCheckKind, str | None], ...] = (
            ("expect", self.expect),
            ("not", self.not_),
            ("regex", self.regex),
            ("equals", self.equals),
        )
        return MessageCheck(
            checks=tuple(
                TextCheck(kind=kind, value=value) for kind, value in given if value is not None
            ),
            optional=self.optional,
        )


class TurnCheckSpec(BaseModel):
    """What the bot's messages of a turn must say: the checks of a scenario turn, also given to
    ``ConversationDriver.send(checks=...)`` as a mapping with the same keys."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    expect: list[str] = Field(default_factory=list)
    """Texts some bot message of the turn contains (case-insensitive), each."""
    not_: list[str] = Field(default_factory=list, alias="not")
    """Texts no bot message of the turn contains."""
    regex: list[str] = Field(default_factory=list)
    """Regular expressions some bot message of the turn matches (``re.search``), each."""
    equals: list[str] = Field(default_factory=list)
    """Texts some bot message of the turn is, whole (case and white space aside), each."""
    bot: list[BotMessage] = Field(default_factory=list)
    """The turn's bot messages one by one, in order; later messages are not checked."""

    @field_validator("expect", "not_", "regex", "equals", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return _texts(value)

    @field_validator("regex")
    @classmethod
    def _valid_regexes(cls, value: list[str]) -> list[str]:
        return _regexes(value)


class ScenarioTurn(TurnCheckSpec):
    """One user message of a scenario, and its checks."""

    user: str = Field(min_length=1)
    """What the user says."""
    requests: list[RequestExpectation] = Field(default_factory=list)
    """The requests it contains, when the scenario checks exactly-once answering."""


def turn_checks(
    spec: TurnCheckSpec | None, requests: Sequence[RequestExpectation] = ()
) -> TurnChecks:
    """The checks of one turn as ``harness.detect.checks.run_checks`` takes them."""
    texts: list[TextCheck] = []
    if spec is not None:
        given: tuple[tuple[TextCheckKind, list[str]], ...] = (
            ("expect", spec.expect),
            ("not", spec.not_),
            ("regex", spec.regex),
            ("equals", spec.equals),
        )
        for kind, values in given:
            texts.extend(TextCheck(kind=kind, value=v) for v in values)
    return TurnChecks(
        texts=tuple(texts),
        bot=tuple(m.check() for m in spec.bot) if spec is not None else (),
        tools=tuple(
            ToolCheck(
                agent=r.agent,
                tools=None if r.tools is None else tuple(r.tools),
                calls=r.calls,
                never_calls=tuple(r.never_calls),
            )
            for r in requests
            if r.tools is not None or r.never_calls
        ),
    )


def check_names(parent: Parent, request: Expectation) -> str | None:
    """What a request names that the bot does not have: an agent, or a tool of the agent's that
    ``tools`` names; None when the bot has them all.

    Scenario files and ``ConversationDriver.send`` are checked alike, before the conversation,
    so that a misspelt name is an error rather than a check that never fails.
    """
    known = {parent.name, *parent.subagents}
    if request.agent not in known:
        return f"unknown agent {request.agent!r} (the bot has {', '.join(sorted(known))})"
    agent = parent.subagents.get(request.agent)
    if agent is None or agent.handler is not None or getattr(agent, "url", None):
        return None  # the parent calls no tools; a handler's or remote agent's are its own
    has = {t.name for t in agent.tool_specs}
    # never_calls may name a tool it lacks: a model can still try to call one.
    unknown = [t for t in getattr(request, "tools", None) or () if t not in has]
    if unknown:
        return (
            f"{request.agent} has no tool {', '.join(map(repr, unknown))} "
            f"(it has {', '.join(sorted(has)) or 'none'})"
        )
    return None


class Scenario(BaseModel):
    """A named conversation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    turns: list[ScenarioTurn] = Field(min_length=1)
    line: int | None = Field(default=None, exclude=True)
    """Where the scenario starts in its file."""


class DirectLineSpec(BaseModel):
    """A bot reached through Direct Line 3.0 (``harness.simulate.directline``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str = Field(default="https://directline.botframework.com/v3/directline", min_length=1)
    """The Direct Line endpoint up to ``/conversations`` (global, regional or a local server)."""
    secret_env: str = "DIRECTLINE_SECRET"
    """The environment variable holding the Direct Line secret (used when set)."""
    token_env: str = "DIRECTLINE_TOKEN"
    """The environment variable holding a ready token (used when set and no secret is)."""
    transport: Literal["websocket", "polling"] = "websocket"
    """How replies are received."""


class CopilotStudioSpec(BaseModel):
    """A Copilot Studio agent reached through its client API (``harness.simulate.copilot_studio``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    environment_id: str | None = None
    """The Power Platform environment id (Settings > Advanced > Metadata in Copilot Studio)."""
    schema_name: str | None = None
    """The agent's schema name, e.g. ``cr123_helpdesk`` (same page)."""
    cloud: str = "Prod"
    """The Power Platform cloud (``Prod``, ``Gov``, ``High``, ``DoD``, ``Mooncake``, ...)."""
    agent_type: Literal["published", "prebuilt"] = "published"
    """A published custom agent, or a prebuilt one."""
    direct_connect_url: str | None = None
    """A direct-connect URL, instead of the environment id and schema name."""
    token_env: str = "COPILOT_STUDIO_TOKEN"
    """The environment variable holding a Power Platform API token (used when set)."""
    tenant_id: str | None = None
    """For MSAL sign-in: the Entra tenant id."""
    client_id: str | None = None
    """For MSAL sign-in: the app registration's client id."""
    client_secret_env: str = "COPILOT_STUDIO_CLIENT_SECRET"
    """The environment variable holding the app's client secret (client credentials, for CI);
    without it, sign-in is by device code (a person)."""

    @model_validator(mode="after")
    def _addressed(self) -> CopilotStudioSpec:
        if not self.direct_connect_url and not (self.environment_id and self.schema_name):
            raise ValueError("give environment_id and schema_name, or direct_connect_url")
        return self


TURN_TIMEOUT_MARGIN = 60.0
"""Seconds a Direct Line turn may go on after ``reply_timeout`` (``TargetSpec.turn_limit``)."""
TURN_TIMEOUT_FLOOR = 120.0
"""The shortest default turn limit, in seconds (``TargetSpec.turn_limit``)."""


def directline_turn_limit(reply_timeout: float, turn_timeout: float | None = None) -> float:
    """The longest a Direct Line turn may take: ``turn_timeout`` when given, else
    ``reply_timeout`` plus 60 s and at least 120 s, so a long ``reply_timeout`` is not cut short
    (``TargetSpec.turn_limit``, ``DirectLineTarget``'s default, ``harness chat --directline``)."""
    if turn_timeout is not None:
        return turn_timeout
    return max(TURN_TIMEOUT_FLOOR, reply_timeout + TURN_TIMEOUT_MARGIN)


class TargetSpec(BaseModel):
    """A deployed bot to run a scenario file against: exactly one of the two kinds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    directline: DirectLineSpec | None = None
    copilot_studio: CopilotStudioSpec | None = None
    quiet_period: float = Field(default=3.0, gt=0)
    """Direct Line: seconds without a new reply that end a turn (an agent that pauses longer
    between its messages needs more)."""
    reply_timeout: float = Field(default=60.0, gt=0)
    """Direct Line: the longest wait for a turn's first reply. Copilot Studio: the longest a
    turn's reply stream may stay open. A bot slower than that fails the scenario."""
    turn_timeout: float | None = Field(default=None, gt=0)
    """Direct Line: the longest a whole turn may take, its first reply and the later ones; None
    (the default) is ``reply_timeout`` plus 60 s, and at least 120 s (:attr:`turn_limit`). It
    may not be below ``reply_timeout``."""

    @model_validator(mode="after")
    def _one_kind(self) -> TargetSpec:
        if (self.directline is None) == (self.copilot_studio is None):
            raise ValueError("give exactly one of 'directline' and 'copilot_studio'")
        if self.copilot_studio is not None:
            # Copilot Studio's stream ends its turn: these would be ignored, so they are refused.
            ignored = [k for k in ("quiet_period", "turn_timeout") if k in self.model_fields_set]
            if ignored:
                verb = "applies" if len(ignored) == 1 else "apply"
                raise ValueError(
                    f"{' and '.join(ignored)} {verb} to Direct Line; a Copilot Studio turn ends "
                    "with its reply stream, which reply_timeout bounds"
                )
        if self.turn_timeout is not None and self.turn_timeout < self.reply_timeout:
            raise ValueError(
                f"turn_timeout ({self.turn_timeout:g}s) is below reply_timeout "
                f"({self.reply_timeout:g}s), which it would cut short"
            )
        return self

    @property
    def turn_limit(self) -> float:
        """The longest a Direct Line turn may take: ``turn_timeout``, else ``reply_timeout``
        plus 60 s and at least 120 s."""
        return directline_turn_limit(self.reply_timeout, self.turn_timeout)


class ScenarioFile(BaseModel):
    """A whole scenario file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bot: str | None = None
    """The bot config (relative to the file) or ``module:attr``; the CLI's ``--bot`` overrides it."""
    target: TargetSpec | None = None
    """A deployed bot instead (Direct Line or Copilot Studio); ``--bot`` and the CLI's target
    options override it."""
    scenarios: list[Scenario] = Field(min_length=1)
    path: str | None = Field(default=None, exclude=True)

    def bot_target(self) -> str | None:
        """The bot reference resolved against the file's folder."""
        if self.bot is None:
            return None
        if self.path and (self.bot.endswith((".yaml", ".yml")) or "/" in self.bot):
            return str(Path(self.path).parent / self.bot)
        return self.bot

    def in_process_bot(self, override: str | None) -> tuple[str | None, Path | None]:
        """The bot this file's scenarios run on in this process, and the folder a ``module:attr``
        is also imported from (``load_bot``'s ``near``): ``override`` (``--bot``) as given, else
        the file's own ``bot:`` next to the file."""
        if override is not None:
            return override, None
        return self.bot_target(), Path(self.path).parent if self.path else None


def load_scenarios(path: str | Path) -> ScenarioFile:
    """Read and validate a scenario file.

    Raises:
        ConfigError: with the file, line and field of the first problem.
    """
    file = Path(path)
    tree = load_yaml(file)
    parsed = validate_yaml(ScenarioFile, tree, file, what="a scenario file (with 'scenarios')")
    names = [s.name for s in parsed.scenarios]
    scenarios = []
    for index, scenario in enumerate(parsed.scenarios):
        line = locate(tree, ("scenarios", index))
        if names.index(scenario.name) != index:
            raise ConfigError(
                f"duplicate scenario name {scenario.name!r}",
                file=str(file),
                line=line,
                field=f"scenarios[{index}].name",
            )
        scenarios.append(scenario.model_copy(update={"line": line}))
    return parsed.model_copy(update={"path": str(file), "scenarios": scenarios})
