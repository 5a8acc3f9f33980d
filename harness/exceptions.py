"""The exceptions this SDK raises, in one tree.

```
HarnessError                      root: catch this to catch everything we raise
├── UsageError                    the caller did something wrong (CLI exit code 2)
│   ├── ConfigError               a config, scenario or transcript file is invalid (file=, line=, field=)
│   └── MissingExtraError         an optional part is used without its extra installed (also ImportError)
└── RunError                      something went wrong while a conversation ran
    ├── ContractViolationError    a sub-agent result broke its mode's contract (strict mode only)
    ├── ModelBehaviorError        a model returned something unusable (malformed JSON, schema break)
    ├── ModelRequestError         a model call failed after its retries (HTTP error, connection)
    ├── SubagentError             a sub-agent failed (strict mode only; otherwise a failed result)
    │   └── SubagentTimeoutError  a sub-agent did not finish within its timeout
    ├── TurnLimitError            a bounded loop (composition steps, tool calls) ran out of steps
    └── HumanEscalationError      aggregation needs a human to resolve a conflict
```

The classes are defined in ``subagents._errors`` (the lowest package that raises them) and exported
from here, which is where users import them.
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
