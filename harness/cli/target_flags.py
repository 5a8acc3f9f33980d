"""Where ``harness simulate``'s deployed-bot options apply: no option is silently ignored.

``--quiet-period``, ``--reply-timeout``, ``--turn-timeout`` and ``--transport`` set up the bot
``--endpoint``, ``--directline`` or ``--copilot-studio`` names, or override the same keys of a
scenario file's ``target:``. An option that the bot being run cannot use (``--transport`` with
Copilot Studio, any of them with ``--bot``, ``--cloud`` without ``--copilot-studio``) is a usage
error that says where it applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import click
from click.core import ParameterSource

from harness.exceptions import UsageError
from harness.simulate.scenarios import ScenarioFile, TargetSpec

__all__ = ["TargetFlags", "with_overrides"]

_TIMING = {"quiet_period": "--quiet-period", "reply_timeout": "--reply-timeout"}
_TIMING |= {"turn_timeout": "--turn-timeout", "transport": "--transport"}
"""The options a file's ``target:`` takes too: parameter (and spec key) to option name."""
_SECRETS = {"directline_secret": "--directline-secret", "directline_token": "--directline-token"}
_STUDIO = {
    "environment_id": "--environment-id",
    "cloud": "--cloud",
    "agent_type": "--agent-type",
    "tenant_id": "--tenant-id",
    "client_id": "--client-id",
}
_DEPLOYED = (
    "a deployed bot (--endpoint, --directline, --copilot-studio or a scenario file's target:)"
)


def _given(ctx: click.Context, name: str, *, environment: bool = True) -> bool:
    source = ctx.get_parameter_source(name)
    sources = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    return source in (sources if environment else sources[:1])


@dataclass(frozen=True, slots=True, kw_only=True)
class TargetFlags:
    """The deployed-bot options given to one ``harness simulate`` run."""

    overrides: dict[str, Any] = field(default_factory=dict)
    """``quiet_period``, ``reply_timeout``, ``turn_timeout``, ``transport``: the value of each
    one given (a ``TargetSpec`` key; ``transport`` is ``directline.transport``)."""
    others: tuple[str, ...] = ()
    """The other deployed-bot options given: ``--directline-secret`` / ``--directline-token``
    as options (not from their variables) and the Copilot Studio ones."""

    @classmethod
    def of(cls, ctx: click.Context) -> TargetFlags:
        """The options given on the command line (or, for the timings, from no variable)."""
        overrides = {key: ctx.params[key] for key in _TIMING if _given(ctx, key)}
        others = [flag for key, flag in _SECRETS.items() if _given(ctx, key, environment=False)]
        others += [flag for key, flag in _STUDIO.items() if _given(ctx, key)]
        return cls(overrides=overrides, others=tuple(others))

    def names(self) -> list[str]:
        """Every option given, as typed."""
        return [_TIMING[key] for key in self.overrides] + list(self.others)

    def refuse(self, allowed: Sequence[str], where: str) -> None:
        """Refuse every option given that is not in ``allowed``, saying it does not apply to
        ``where`` (the bot being run)."""
        extra = [name for name in self.names() if name not in allowed]
        studio = [name for name in extra if name in _STUDIO.values()]
        others = [name for name in extra if name not in studio]
        problems = []
        if others:
            verb = "does" if len(others) == 1 else "do"
            problems.append(f"{', '.join(others)} {verb} not apply to {where}")
        if studio:
            verb, them = ("applies", "it as a") if len(studio) == 1 else ("apply", "them as")
            problems.append(
                f"{', '.join(studio)} {verb} to --copilot-studio only (a scenario file's "
                f"target: takes {them} copilot_studio key{'' if len(studio) == 1 else 's'})"
            )
        if problems:
            raise UsageError("; ".join(problems))

    def check(
        self,
        *,
        bot: str | None,
        endpoint: str | None,
        directline: str | None,
        copilot_studio: str | None,
    ) -> None:
        """Refuse the options the bot named on the command line cannot use; without one, the
        files' ``target:`` decide (:meth:`apply`). Several bots named: the command says so."""
        if sum(1 for named in (bot, endpoint, directline, copilot_studio) if named) > 1:
            return
        if bot:
            self.refuse([], f"--bot (a bot in this process); they are for {_DEPLOYED}")
        elif endpoint:
            self.refuse(["--quiet-period", "--turn-timeout"], "--endpoint")
        elif directline:
            allowed = [*_TIMING.values(), *_SECRETS.values()]
            self.refuse(allowed, "--directline")
        elif copilot_studio:
            self.refuse(["--reply-timeout", *_STUDIO.values()], "--copilot-studio")

    def apply(self, files: Sequence[ScenarioFile]) -> list[ScenarioFile]:
        """``files`` with these options over each ``target:``; an option no file can use is
        refused (an in-process bot's file, or a target of the other kind)."""
        if not self.names():
            return list(files)
        targets = [f for f in files if f.target is not None]
        if not targets:
            self.refuse([], f"a bot run in this process; they are for {_DEPLOYED}")
        out = []
        for scenario_file in files:
            spec = scenario_file.target
            if spec is not None:
                where = f"{scenario_file.path}'s target:"
                if spec.copilot_studio is not None:
                    self.refuse(["--reply-timeout"], f"{where} (Copilot Studio)")
                else:
                    secrets = [name for name in self.others if name in _SECRETS.values()]
                    if len(secrets) == 1:
                        key, default = (
                            ("secret_env", "DIRECTLINE_SECRET")
                            if secrets[0] == "--directline-secret"
                            else ("token_env", "DIRECTLINE_TOKEN")
                        )
                        raise UsageError(
                            f"{secrets[0]} only applies to --directline: {where} reads it from "
                            f"the variable its directline.{key} names ({default} by default)"
                        )
                    if secrets:
                        raise UsageError(
                            f"{', '.join(secrets)} only apply to --directline: {where} reads "
                            "them from the variables its directline.secret_env and token_env "
                            "name (DIRECTLINE_SECRET and DIRECTLINE_TOKEN by default)"
                        )
                    self.refuse(list(_TIMING.values()), f"{where} (Direct Line)")
                spec = with_overrides(spec, self.overrides, where=where)
                scenario_file = scenario_file.model_copy(update={"target": spec})
            out.append(scenario_file)
        return out


def with_overrides(spec: TargetSpec, overrides: Mapping[str, Any], *, where: str) -> TargetSpec:
    """``spec`` with the command line's ``overrides`` (``TargetFlags.overrides``), validated
    again (a ``--reply-timeout`` above the file's ``turn_timeout`` is refused)."""
    if not overrides:
        return spec
    from pydantic import ValidationError

    data = spec.model_dump(exclude_unset=True)
    for key, value in overrides.items():
        if key == "transport":
            data["directline"] = {**data.get("directline", {}), "transport": value}
        else:
            data[key] = value
    try:
        return TargetSpec.model_validate(data)
    except ValidationError as exc:
        problem = exc.errors()[0]["msg"].removeprefix("Value error, ")
        flags = ", ".join(_TIMING[key] for key in overrides)
        raise UsageError(f"{where} with {flags}: {problem}") from exc
