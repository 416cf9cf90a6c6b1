"""What both smart dice's codecs refuse: bytes that are not the message they claim to be."""

from __future__ import annotations


class DiceBytesError(ValueError):
    """Bytes that are not the message they claim to be; ``field`` names what is wrong, so the
    station counts a garbled notification by its field and never takes it for a roll."""

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(f"{field}: {detail}")
        self.field = field
