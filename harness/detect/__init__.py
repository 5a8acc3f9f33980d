"""The duplicate-message engine, below both the runtime and the simulator.

- ``findings``: ``Finding``, ``Highlight``, ``DetectorConfig`` (re-exported by
  ``harness.simulate.detectors``).
- ``restate``: whether a later message restates an earlier one, claim by claim.
- ``duplicates``: the whole-conversation comparison (an index of facts and content words, asking
  again, confirmations, clusters).
- ``requests``: ``segment_requests``, a user message split into its requests, independently of
  any planner.
- ``missed``: the missed-request check (``missed_requests``): each request of a user message
  against what the bot said in that turn, with or without the runtime's plan.
- ``guard``: ``DuplicateGuard``, the runtime check of the parent's draft against what was sent
  (``Parent(duplicate_guard="warn" | "drop")``; re-exported by ``harness.simulate``).

It builds on ``harness.text`` and never imports the simulator, so a parent with a guard loads no
simulator code (``make test`` checks this with import-linter; see ``docs/architecture.md``).
"""
