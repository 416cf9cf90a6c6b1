"""The words a refused Discord webhook is answered with (``checked_webhook``): a URL of
Discord's own webhooks whose token was cut short in the copying is told so, not told it is
not Discord's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.live.discord import SettingError, checked_webhook

API = "https://discord.com/api"
HOOK = "https://discord.com/api/webhooks/123456789012345678/"
TOKEN_CHARACTERS = st.sampled_from("abcXYZ019_-")


def refusal(url: str) -> str:
    with pytest.raises(SettingError) as refused:
        checked_webhook(url, API)
    assert refused.value.field == "webhook"
    return str(refused.value)


@given(st.text(TOKEN_CHARACTERS, max_size=19))
def test_a_token_cut_short_is_told_as_one(token: str) -> None:
    said = refusal(HOOK + token)
    assert "token" in said and "cut short" in said, said
    assert checked_webhook(HOOK + "x" * 68, API) == HOOK + "x" * 68


@given(st.sampled_from(["https://example.com/hook", "https://discord.com/channels/1/2", ""]))
def test_a_url_that_is_no_discord_webhook_is_told_what_one_looks_like(url: str) -> None:
    said = refusal(url)
    assert "Copy Webhook URL gives it" in said and "token" not in said, said
