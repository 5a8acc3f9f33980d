"""The lint rules, one class each, grouped by what they judge (registered in ``registry``)."""

__all__: list[str] = []  # the modules are the API; nothing is re-exported here
