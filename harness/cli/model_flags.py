"""The one reading of the model flags: ``--model``, ``--base-url``, ``--model-setting``,
``--record`` and ``--replay``.

Every command that runs a bot (``chat``, ``simulate``, ``serve``, and each ``simulate --jobs``
worker) declares the flags with :func:`model_options` and turns them into a model, or into the
loaded bot, with :class:`ModelFlags`; every error that names a flag is raised here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Any, TypeVar

import click
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from harness.exceptions import UsageError
from harness.models import Model
from harness.models.registry import check_model_name, resolve_model

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = ["ModelFlags", "model_options", "parse_model_settings"]

F = TypeVar("F", bound=Callable[..., Any])


def model_options() -> Callable[[F], F]:
    """``--model``, ``--base-url`` and ``--model-setting``: the options of every command that runs a
    bot (``chat``, ``simulate``, ``serve``), read by :meth:`ModelFlags.parse`."""
    model = click.option(
        "--model", help="rules (default), openai:<model>, replay:<cassette> or a registered prefix."
    )
    base_url = click.option(
        "--base-url", help="Base URL of an OpenAI-compatible server (with --model openai:*)."
    )
    setting = click.option(
        "--model-setting",
        "model_settings",
        multiple=True,
        metavar="KEY=VALUE",
        help="A model setting (temperature=0, seed=42, output_mode=json_object, "
        "max_concurrency=1, ...; see docs/models.md). Repeatable.",
    )

    def decorate(command: F) -> F:
        return model(base_url(setting(command)))

    return decorate


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelFlags:
    """The model flags as given on the command line."""

    model: str | None = None
    """``--model``: any known model name."""
    base_url: str | None = None
    """``--base-url``: an OpenAI-compatible endpoint for an ``openai:`` model."""
    settings: Mapping[str, object] = field(default_factory=dict)
    """``--model-setting KEY=VALUE``s, parsed."""
    record: str | None = None
    """``--record CASSETTE``: record the model's traffic to this file."""
    replay: str | None = None
    """``--replay CASSETTE``: answer from this cassette, with no network."""

    @classmethod
    def parse(
        cls,
        model: str | None,
        base_url: str | None,
        model_settings: tuple[str, ...] = (),
        *,
        record: str | None = None,
        replay: str | None = None,
    ) -> ModelFlags:
        """The flags, with each ``--model-setting`` checked and parsed.

        Raises:
            UsageError: a setting that is not ``KEY=VALUE`` or not a known setting.
        """
        return cls(
            model=model,
            base_url=base_url,
            settings=parse_model_settings(model_settings),
            record=record,
            replay=replay,
        )

    @property
    def given(self) -> bool:
        """Whether any model flag was given."""
        return bool(self.model or self.base_url or self.settings or self.record or self.replay)

    def build(self) -> Model | str | None:
        """The model the flags ask for; None keeps the bot's own (``--model-setting``s then go to
        it, see :meth:`load_bot`). A bare name is checked now (one line naming the known
        prefixes) and built by the bot.

        Raises:
            UsageError: for flags that do not go together.
            ConfigError: for an unknown model name or a bad cassette.
        """
        if self.record or self.replay:
            return self._recorded()
        if self.model is None:
            if self.base_url:
                raise UsageError("--base-url needs --model openai:<model>")
            return None
        if self.base_url or self.settings:
            return resolve_model(self.model, **self._options())
        return check_model_name(self.model)

    def load_bot(self, target: str, *, model: Model | str | EllipsisType | None = ...) -> Parent:
        """The bot in ``target`` (a config or ``module:attr``) with the model the flags ask for.

        Args:
            target: a config path or ``module:attr``.
            model: the model :meth:`build` returned, when the caller built it already (so one
                model object serves the bot and the caller); built here when not given.

        Raises:
            UsageError: model flags with a bot built in Python (it is built with its own model).
        """
        from harness.runtime.loading import load_bot

        path = Path(target)
        is_file = path.suffix in (".yaml", ".yml") or path.exists()
        if self.given and not is_file and ":" in target:
            raise UsageError(
                f"{target!r} is a Python object: build it with the model you want; --model, "
                "--base-url, --model-setting, --record and --replay apply to config files only"
            )
        chosen = self.build() if isinstance(model, EllipsisType) else model
        extra: dict[str, Any] = (
            {"settings": dict(self.settings)} if self.settings and chosen is None else {}
        )
        return load_bot(target, model=chosen, **extra)

    def _options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"settings": dict(self.settings)} if self.settings else {}
        if self.base_url:
            options["base_url"] = self.base_url
        return options

    def _recorded(self) -> Model:
        if self.record and self.replay:
            raise UsageError("--record and --replay cannot be used together")
        if self.replay:
            return resolve_model(f"replay:{self.replay}")
        if self.base_url and (self.model is None or self.model.partition(":")[0] != "openai"):
            raise UsageError("--base-url needs an OpenAI model: add --model openai:<model>")
        if not self.model:
            raise UsageError("--record needs the model to record: add --model openai:<model>")
        from harness.models.replay import recording

        assert self.record is not None
        return recording(resolve_model(self.model, **self._options()), self.record)


def parse_model_settings(options: Iterable[str]) -> dict[str, Any]:
    """``--model-setting key=value`` options as a mapping; values are read as YAML scalars or
    flow collections (``0``, ``true``, ``auto``, ``{"X-Trace": "1"}``).

    Raises:
        UsageError: for an option without ``=``.
    """
    out: dict[str, Any] = {}
    for option in options:
        key, sep, raw = option.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--model-setting must look like key=value, got {option!r}")
        try:
            value = YAML(typ="safe", pure=True).load(raw) if raw.strip() else None
        except YAMLError:
            value = raw
        out[key.strip().replace("-", "_")] = raw if value is None and raw else value
    return out
