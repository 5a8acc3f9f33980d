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
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from harness.exceptions import ConfigError
from subagents.config import load_yaml, locate, validate_yaml

__all__ = ["RequestExpectation", "Scenario", "ScenarioFile", "ScenarioTurn", "load_scenarios"]


class RequestExpectation(BaseModel):
    """One request inside a user turn, and what answers it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str = Field(min_length=1)
    """The component expected to handle it (a sub-agent's name, or the parent's)."""
    expect: str | None = None
    """Text the answer must contain (case-insensitive)."""


class ScenarioTurn(BaseModel):
    """One user message of a scenario."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    user: str = Field(min_length=1)
    """What the user says."""
    requests: list[RequestExpectation] = Field(default_factory=list)
    """The requests it contains, when the scenario checks exactly-once answering."""


class Scenario(BaseModel):
    """A named conversation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    turns: list[ScenarioTurn] = Field(min_length=1)
    line: int | None = Field(default=None, exclude=True)
    """Where the scenario starts in its file."""


class ScenarioFile(BaseModel):
    """A whole scenario file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bot: str | None = None
    """The bot config (relative to the file) or ``module:attr``; the CLI's ``--bot`` overrides it."""
    scenarios: list[Scenario] = Field(min_length=1)
    path: str | None = Field(default=None, exclude=True)

    def bot_target(self) -> str | None:
        """The bot reference resolved against the file's folder."""
        if self.bot is None:
            return None
        if self.path and (self.bot.endswith((".yaml", ".yml")) or "/" in self.bot):
            return str(Path(self.path).parent / self.bot)
        return self.bot


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
