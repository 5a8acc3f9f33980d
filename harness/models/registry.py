"""Model names: the provider of a name such as ``openai:gpt-4o-mini`` is picked by its prefix.

Every place that takes a model by name (YAML ``model:``, ``Parent(model=...)``, ``load_bot``,
``--model`` on the command line, the judge of ``harness detect``) resolves it here, so a prefix
registered once with ``register_model`` works everywhere. Built in: ``rules`` (the offline
default), ``openai:<model>`` (extra ``openai``) and ``replay:<cassette>``. Installed packages can
add prefixes through the ``harness.models`` entry-point group (the entry's name is the prefix, its
value a factory), so ``harness chat --model mylab:small`` works without code in the bot.

The providers are imported only when a name of theirs is resolved: this module depends on them,
never the other way round.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.exceptions import ConfigError, UsageError
from harness.models.base import Model

__all__ = [
    "ENTRY_POINT_GROUP",
    "ModelFactory",
    "check_model_name",
    "model_names",
    "register_model",
    "resolve_model",
    "unregister_model",
]

ModelFactory = Callable[..., Model]
"""Builds a model: called with the text after the prefix's colon (``""`` for a bare prefix such
as ``rules``) and the caller's options as keywords (``base_url=``, ``settings=``, ...)."""

ENTRY_POINT_GROUP = "harness.models"
"""The entry-point group read for prefixes that are not registered in this process."""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Provider:
    prefix: str
    factory: ModelFactory
    argument: str | None
    """What follows the colon (``model``, ``cassette``), or None for a bare name (``rules``)."""

    @property
    def usage(self) -> str:
        return self.prefix if self.argument is None else f"{self.prefix}:<{self.argument}>"


def _rules(name: str, **options: Any) -> Model:
    from harness.models.rules import RulesModel

    # Options such as --base-url or model settings belong to hosted models; rules has none.
    return RulesModel()


def _openai(name: str, **options: Any) -> Model:
    from harness.models.openai import OpenAIModel

    return OpenAIModel(name, **options)


def _replay(name: str, **options: Any) -> Model:
    from harness.models.replay import ReplayModel

    return ReplayModel(name, **options)


_BUILT_IN = (
    _Provider(prefix="rules", factory=_rules, argument=None),
    _Provider(prefix="openai", factory=_openai, argument="model"),
    _Provider(prefix="replay", factory=_replay, argument="cassette"),
)
_providers: dict[str, _Provider] = {p.prefix: p for p in _BUILT_IN}


def register_model(
    prefix: str, factory: ModelFactory, *, argument: str | None = "name", replace: bool = False
) -> None:
    """Make model names starting with ``prefix`` resolve with ``factory``.

    Args:
        prefix: letters, digits, ``-`` or ``_``; names are then ``prefix:<argument>``.
        factory: called as ``factory(argument, **options)`` and returns a ``Model``.
        argument: what the text after the colon is, for messages (``model``, ``path``); None for
            a name without a colon, as ``rules``.
        replace: allow replacing a prefix that is already registered (built-ins included).

    Raises:
        UsageError: for an invalid prefix, or one already registered without ``replace``.
    """
    if not prefix or not prefix.replace("_", "").replace("-", "").isalnum():
        raise UsageError(f"a model prefix must be letters, digits, '-' or '_', not {prefix!r}")
    if prefix in _providers and not replace:
        raise UsageError(f"the model prefix {prefix!r} is already registered; pass replace=True")
    if not callable(factory):
        raise UsageError(f"the factory of model prefix {prefix!r} must be callable")
    _providers[prefix] = _Provider(prefix=prefix, factory=factory, argument=argument)


def unregister_model(prefix: str) -> None:
    """Forget a prefix registered with ``register_model`` (a built-in one comes back)."""
    _providers.pop(prefix, None)
    # Built-ins first, in their order, so messages list the prefixes the same way every time.
    restored = {p.prefix: _providers.get(p.prefix, p) for p in _BUILT_IN}
    others = {k: v for k, v in _providers.items() if k not in restored}
    _providers.clear()
    _providers.update(restored | others)


def model_names() -> tuple[str, ...]:
    """The forms of model name known now: ``rules``, ``openai:<model>``, ``replay:<cassette>``, ..."""
    return tuple(p.usage for p in _providers.values())


def _from_entry_points(prefix: str) -> _Provider | None:
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=prefix):
        try:
            factory = entry.load()
        except Exception as exc:
            raise ConfigError(
                f"cannot load the model prefix {prefix!r} from {entry.value!r}: {exc}",
                field="model",
            ) from exc
        register_model(prefix, factory, replace=True)
        return _providers[prefix]
    return None


def _provider(name: str) -> tuple[_Provider, str]:
    prefix, colon, argument = name.partition(":")
    provider = _providers.get(prefix) or _from_entry_points(prefix)
    if provider is None:
        known = ", ".join(repr(usage) for usage in model_names())
        raise ConfigError(f"unknown model {name!r}; known: {known}", field="model")
    if provider.argument is None and colon:
        raise ConfigError(f"model {name!r}: use {provider.prefix!r} alone", field="model")
    if provider.argument is not None and not argument:
        raise ConfigError(
            f"model {name!r} needs a {provider.argument} after the colon: {provider.usage}",
            field="model",
        )
    return provider, argument


def check_model_name(name: str) -> str:
    """Check that ``name`` is a known model name without building the model; returns it.

    Raises:
        ConfigError: for an unknown prefix (naming the known ones) or a missing argument.
    """
    _provider(name)
    return name


def resolve_model(spec: Model | str | None, **options: Any) -> Model:
    """Turn a model name (or a ``Model``, or None for the default) into a ``Model``.

    Args:
        spec: a name (``rules``, ``openai:<model>``, ``replay:<cassette>`` or a registered
            prefix), a ``Model`` (returned as is) or None (``rules``).
        **options: passed to the provider's factory (``base_url``, ``api_key``, ``settings``, ...).

    Raises:
        ConfigError: for an unknown model name, naming the known prefixes.
        MissingExtraError: when the model needs an extra that is not installed.
    """
    if isinstance(spec, Model):
        return spec
    provider, argument = _provider("rules" if spec is None else spec)
    return provider.factory(argument, **options)
