"""The ``harness`` command line, the only package that imports click: the group and its entry point
(``harness.cli.app``), the one exit path (``harness.cli.command``), the shared options
(``harness.cli.options``) and model flags (``harness.cli.model_flags``), and every command:
``chat`` and ``instructions`` (``harness.cli.commands``, ``harness.cli.chat``), ``new``
(``harness.cli.scaffold``), ``lint``, ``detect``, ``simulate`` (with ``progress`` and ``jobs``)
and ``serve``. Each command is imported only when used."""

from harness.cli.app import cli, main

__all__ = ["cli", "main"]
