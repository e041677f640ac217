"""The error users see: one message naming the field, line or value at fault."""


class SeekplanError(Exception):
    """Bad input or an impossible request; the CLI prints it and exits with 2."""
