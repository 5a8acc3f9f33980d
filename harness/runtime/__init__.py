"""The runtime every bot loads: ``Parent`` and ``Conversation`` (``parent``), the turn pipeline
(``turn``, ``parts``; ``guard_process``: where the duplicate guard's check runs), one sub-agent call (``runner``), tool calls (``tools``), the views the
instruction templates read (``views``), config files (``config_files``: read, validate, import
tools) and bot loading (``loading``).

It never imports the hosting layer, the simulator, the linter or the CLI (``make test`` checks
this with import-linter); see ``docs/architecture.md``."""

__all__: list[str] = []  # the modules are the API; nothing is re-exported here
