"""The lint rules, one class each, grouped by what they judge (registered in ``registry``)."""
