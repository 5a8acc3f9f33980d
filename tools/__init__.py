"""Development tools kept with the repository (not part of the installed package)."""
