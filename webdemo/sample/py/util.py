"""Helpers for the demo app."""


def shout(text: str, times: int = 1) -> str:
    """Return text in capitals, repeated times."""
    return (text.upper() + " ") * times
