"""The exceptions this SDK raises, in one tree.

```
HarnessError                      root: catch this to catch everything we raise
├── UsageError                    the caller did something wrong (CLI exit code 2)
│   ├── ConfigError               a config, scenario or transcript file is invalid (file=, line=, field=)
│   ├── MissingExtraError         an optional part is used without its extra installed (also ImportError)
│   ├── YamlSyntaxError           the linter's YAML is invalid or too large (harness._yaml; also ValueError)
│   ├── UnreadableFileError       the linter cannot read a file as UTF-8 text (also ValueError)
│   ├── UnknownNameError          render_instructions got an unknown sub-agent or format (also ValueError)
│   └── BodyError                 a hosted agent got an unusable HTTP request body
└── RunError                      something went wrong while a conversation ran
    ├── ContractViolationError    a sub-agent result broke its mode's contract (strict mode only)
    ├── ModelBehaviorError        a model returned something unusable (malformed JSON, schema break)
    ├── ModelRequestError         a model call failed after its retries (HTTP error, connection)
    │   └── CassetteMissError     a replay cassette has no answer for the request
    ├── SubagentError             a sub-agent failed (strict mode only; otherwise a failed result)
    │   ├── SubagentTimeoutError  a sub-agent did not finish within its timeout
    │   └── TeamFailedError       a team sub-agent's members failed (harness.team; a failed result)
    ├── TurnLimitError            a bounded loop (composition steps, tool calls) ran out of steps
    ├── HumanEscalationError      aggregation needs a human to resolve a conflict
    ├── ToolTimeoutError          a tool outlasted its tool_timeout (harness.agent.loop)
    ├── ToolCrashError            a tool raised a non-Exception error (harness.agent.tools)
    ├── ToolArgumentsError        a model's arguments do not fit a tool (also TypeError)
    ├── AttemptFailed             one model request attempt failed (internal to the retry loop)
    ├── UnavailableError          a host cannot run a turn right now: answered 503 (harness.hosting)
    │   ├── AuthUnavailableError  it cannot validate or obtain tokens right now
    │   └── StorageUnavailableError  its state store is down or silent
    │       └── LeaseLostError    a hosting worker lost its lease on a conversation
    ├── TurnTimeoutError          a hosted turn ran past its turn_timeout (also TimeoutError)
    ├── RedirectRefusedError      a channel answered a reply with a redirect (also aiohttp.ClientError)
    ├── BusyError                 a host is at its limit of turns in flight
    ├── GuardProcessError         the duplicate guard's worker process died twice (harness.runtime)
    ├── EmbeddingCountError       an embedder returned more or fewer vectors than texts (also ValueError)
    ├── ConversationError         a simulated conversation could not go on (harness.simulate)
    └── ScenarioFailedError       a pytest scenario produced error findings (also AssertionError)
```

The classes of the first block are defined in ``subagents._errors`` (the lowest package that raises
them) and exported from here, which is where users import them; the others live beside the code that
raises them. The one exception outside the tree is ``ShadowedPackageError`` (an ``ImportError``),
raised while checking that ``subagents``, the home of ``HarnessError``, is ours. Warnings
(``ConfigWarning``) are not errors and derive from ``UserWarning``.
"""

from subagents._errors import (
    ConfigError,
    ContractViolationError,
    HarnessError,
    HumanEscalationError,
    MissingExtraError,
    ModelBehaviorError,
    ModelRequestError,
    RunError,
    SubagentError,
    SubagentTimeoutError,
    TurnLimitError,
    UsageError,
)

__all__ = [
    "ConfigError",
    "ContractViolationError",
    "HarnessError",
    "HumanEscalationError",
    "MissingExtraError",
    "ModelBehaviorError",
    "ModelRequestError",
    "RunError",
    "SubagentError",
    "SubagentTimeoutError",
    "TurnLimitError",
    "UsageError",
]
