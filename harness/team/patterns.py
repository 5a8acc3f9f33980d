"""Ready-made collaboration patterns: a team with the right order and stop criteria for each.

| pattern | who speaks | stops when |
|---|---|---|
| ``planner_solver`` | planner, then the solvers in turn (then the critic, if any) | a solver (or the critic) says DONE |
| ``proposer_critic`` | proposer and critic alternate; a rejection hands back to the proposer | the critic says DONE, or K rejections in a row |
| ``debate`` | the debaters for ``rounds`` rounds, then the arbiter | the arbiter says DONE |
| ``self_ask`` | the asker poses sub-questions, the answerer answers, alternating | the asker says DONE with the final answer |
| ``produce_test_fix`` | producer and verifier alternate until the tests pass | the verifier says DONE, or K failures in a row |

Every pattern also stops at the turn limit and on the loop watchdog. Extra keyword arguments go to
``Team`` (``max_turns``, ``guardrails``, ``budget``, ``on_event``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.exceptions import ConfigError
from harness.team.loop import Team
from harness.team.members import Member
from harness.team.messages import TeamRole
from harness.team.policies import RoundRobin
from harness.team.termination import StopToken, ValidationFailures

__all__ = ["debate", "planner_solver", "produce_test_fix", "proposer_critic", "self_ask"]


def _expect(member: Member, *roles: TeamRole) -> None:
    if member.role not in roles:
        wanted = " or ".join(r.value for r in roles)
        raise ConfigError(
            f"this pattern needs a {wanted} here, not a {member.role.value}", field=member.name
        )


def planner_solver(
    planner: Member,
    solvers: Member | Sequence[Member],
    *,
    critic: Member | None = None,
    name: str = "planner-solver",
    **team: Any,
) -> Team:
    """Planner then solver(s): decompose, execute step by step, report."""
    workers = [solvers] if isinstance(solvers, Member) else list(solvers)
    _expect(planner, TeamRole.PLANNER)
    for s in workers:
        _expect(s, TeamRole.SOLVER)
    members = [planner, *workers, *([critic] if critic else [])]
    if critic is not None:
        _expect(critic, TeamRole.CRITIC)
    stoppers = [critic.name] if critic else [s.name for s in workers]
    team.setdefault("termination", StopToken(senders=stoppers) | ValidationFailures(3))
    return Team(name=name, members=members, policy=RoundRobin(), **team)


def proposer_critic(
    proposer: Member,
    critic: Member,
    *,
    max_rejections: int = 3,
    name: str = "proposer-critic",
    **team: Any,
) -> Team:
    """Proposer and critic: generate, critique with reasons, revise."""
    _expect(proposer, TeamRole.SOLVER)
    _expect(critic, TeamRole.CRITIC)
    team.setdefault(
        "termination", StopToken(senders=[critic.name]) | ValidationFailures(max_rejections)
    )
    return Team(name=name, members=[proposer, critic], policy=RoundRobin(), **team)


def debate(
    debaters: Sequence[Member],
    arbiter: Member,
    *,
    rounds: int = 2,
    name: str = "debate",
    **team: Any,
) -> Team:
    """Controlled debate: opposing positions for ``rounds`` rounds, then the arbiter's synthesis."""
    if len(debaters) < 2 or rounds < 1:
        raise ConfigError("a debate needs two debaters or more and at least one round", field=name)
    for d in debaters:
        _expect(d, TeamRole.SOLVER)
    _expect(arbiter, TeamRole.ARBITER)
    schedule = [d.name for d in debaters] * rounds + [arbiter.name]
    team.setdefault("termination", StopToken(senders=[arbiter.name]))
    # one turn of slack: a debate that ends on the arbiter's DONE has not used up its turn limit
    team.setdefault("max_turns", len(schedule) + 1)
    return Team(
        name=name,
        members=[*debaters, arbiter],
        policy=RoundRobin(schedule, handoffs=False),
        **team,
    )


def self_ask(asker: Member, answerer: Member, *, name: str = "self-ask", **team: Any) -> Team:
    """Self-ask: sub-questions, their answers, then the asker's final decision."""
    _expect(asker, TeamRole.PLANNER)
    _expect(answerer, TeamRole.SOLVER)
    team.setdefault("termination", StopToken(senders=[asker.name]) | ValidationFailures(3))
    return Team(name=name, members=[asker, answerer], policy=RoundRobin(), **team)


def produce_test_fix(
    producer: Member,
    verifier: Member,
    *,
    max_failures: int = 3,
    name: str = "produce-test-fix",
    **team: Any,
) -> Team:
    """Produce, test, fix until the verifier passes the result."""
    _expect(producer, TeamRole.SOLVER)
    _expect(verifier, TeamRole.VERIFIER)
    team.setdefault(
        "termination", StopToken(senders=[verifier.name]) | ValidationFailures(max_failures)
    )
    return Team(name=name, members=[producer, verifier], policy=RoundRobin(), **team)
