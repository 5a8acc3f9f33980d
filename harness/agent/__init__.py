"""How one agent runs in this process, below the transports and the team: its model loop
(``loop``: model calls, tool calls, one tool-error format and timeout, one crash policy per caller)
and its tool calls (``tools``: threads, cancellation, crash containment, results as text). Used by
the local transport (sub-agents) and by team members."""

__all__: list[str] = []  # the modules are the API; nothing is re-exported here
