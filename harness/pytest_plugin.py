"""pytest plugin for duplicate-message regression tests (registered through the ``pytest11`` entry point)."""
