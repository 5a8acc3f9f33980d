"""Build a deployed-bot target from a ``TargetSpec`` (a scenario file's ``target:``, or the CLI's
``--directline`` / ``--copilot-studio`` options, which are turned into the same spec).

Secrets come from environment variables named in the spec, never from the spec itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from harness.exceptions import UsageError
from harness.simulate.scenarios import TargetSpec
from harness.simulate.targets import Target

__all__ = ["target_from_spec"]


def target_from_spec(spec: TargetSpec, *, environ: Mapping[str, str] | None = None) -> Target:
    """The target a spec describes.

    Raises:
        UsageError: a Copilot Studio agent with no way to get a token.
        MissingExtraError: the target's extra is not installed.
    """
    env = os.environ if environ is None else environ
    if spec.directline is not None:
        from harness.simulate.directline import DirectLineTarget

        line = spec.directline
        secret = env.get(line.secret_env) or None
        return DirectLineTarget(
            line.url,
            secret=secret,
            token=None if secret else env.get(line.token_env) or None,
            transport=line.transport,
            quiet_period=spec.quiet_period,
            reply_timeout=spec.reply_timeout,
            turn_timeout=spec.turn_limit,
        )
    assert spec.copilot_studio is not None
    from harness.simulate.copilot_studio import (
        CopilotStudioTarget,
        TokenProvider,
        msal_token_provider,
    )

    studio = spec.copilot_studio
    token: str | TokenProvider | None = env.get(studio.token_env) or None
    if token is None and studio.tenant_id and studio.client_id:
        token = msal_token_provider(
            tenant_id=studio.tenant_id,
            client_id=studio.client_id,
            client_secret=env.get(studio.client_secret_env) or None,
        )
    if token is None:
        raise UsageError(
            f"no Copilot Studio token: set {studio.token_env}, or give the tenant and client "
            "ids for MSAL sign-in (with a client secret in "
            f"{studio.client_secret_env} for client credentials)"
        )
    return CopilotStudioTarget(
        token=token,
        environment_id=studio.environment_id,
        schema_name=studio.schema_name,
        cloud=studio.cloud,
        agent_type=studio.agent_type,
        direct_connect_url=studio.direct_connect_url,
        turn_timeout=spec.reply_timeout,
    )
