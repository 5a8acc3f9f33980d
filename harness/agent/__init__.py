"""How one agent runs in this process, below the transports and the team: its tool calls
(``tools``: threads, cancellation, crash containment, results as text). Used by the local transport
(sub-agents) and by team members."""
