"""The checks that a sub-agent's options share between Python (``ChildAgent(...)``) and YAML.

Each returns the problem's text, or None, so the dataclasses (``ConfigError``) and the YAML
schema (a pydantic validator) word the same mistake the same way.
"""

from __future__ import annotations

__all__ = ["retries_problem", "timeout_problem", "token_env_problem", "url_problem"]


def timeout_problem(value: float, *, name: str = "timeout") -> str | None:
    """A call's (or a tool call's) timeout must be positive."""
    return f"{name} must be positive" if value <= 0 else None


def retries_problem(value: int) -> str | None:
    """A remote agent's retries are 0 or more."""
    return "retries must be 0 or more" if value < 0 else None


def url_problem(value: str | None) -> str | None:
    """A remote agent's url is http(s)."""
    if value is not None and not value.startswith(("http://", "https://")):
        return "url must be an http(s) URL"
    return None


def token_env_problem(value: str | None, *, url: str | None) -> str | None:
    """The variable holding a remote host's token: an environment variable name, with a url."""
    if value is None:
        return None
    if url is None:
        return "token_env needs a url"
    if not value.replace("_", "").isalnum() or value[0].isdigit():
        return "token_env must be an environment variable name"
    return None
