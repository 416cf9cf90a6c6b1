"""Server settings: command-line flags over environment variables (``SEIZE_…``) over a TOML file
(``seize.toml`` in the working folder, or the file ``SEIZE_CONFIG`` names) over defaults."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal
from urllib.parse import SplitResult, urlsplit

import platformdirs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    IPvAnyNetwork,
    SecretStr,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


def config_path() -> str:
    """The settings file: the one ``SEIZE_CONFIG`` names, else ``seize.toml`` here."""
    return os.environ.get("SEIZE_CONFIG", "seize.toml")


Durability = Literal["disk", "os"]
"""Where an acknowledged command is before its answer: ``disk``, written through to the disk
(each commit's fsync returned), so a power cut loses nothing; or ``os``, handed to the operating
system, which writes it soon after, so a crash or ``kill -9`` of the server loses nothing but a
power cut or a crash of the machine may lose the last commands (docs/deploy.md, "Durability")."""


def default_db() -> Path:
    """One SQLite file in the user's data folder (created on first start)."""
    return Path(platformdirs.user_data_dir("seize")) / "seize.db"


def _url(value: str) -> SplitResult:
    """A URL taken apart, its port checked: a malformed one is refused as the setting's."""
    parts = urlsplit(value)
    try:
        parts.port  # noqa: B018  (parsing it is the check)
    except ValueError:
        raise ValueError("the URL's port is not a number from 0 to 65535") from None
    return parts


class DeviceSetting(BaseModel):
    """A card reader, reader station, dice tray or die station the server runs an adapter
    for."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["nfc", "tray", "station", "dice"]
    table: str
    token: SecretStr = Field(description="The table's GM token")
    device: str | None = Field(
        default=None,
        description="nfcpy's path (usb, tty:USB0:pn532) or the serial port; none for a die "
        "station, which finds its dice over the system's Bluetooth",
    )
    deck: Path | None = None
    seat: str | None = None
    name: str | None = None
    limit: int | None = Field(
        default=None, ge=1, le=32, description="A die station's dice connected at once (7)"
    )
    shells: dict[str, str] = Field(
        default_factory=dict,
        description='A die station\'s GoDice shells by die id (godice-B0C7B0 = "d20"); d6 '
        "unless named",
    )

    @model_validator(mode="after")
    def _fits_its_kind(self) -> DeviceSetting:
        """What each kind needs, and only that: a station reports bare tag UIDs, so without a
        deck map no tag could name a card; a die station has no device path, and only it has
        dice to limit and GoDice shells."""
        if self.kind == "station" and self.deck is None:
            raise ValueError("deck: a reader station needs a deck map")
        if self.kind == "dice" and self.device is not None:
            raise ValueError("device: a die station finds its dice over Bluetooth, not a path")
        if self.kind != "dice" and self.device is None:
            raise ValueError(f"device: a {self.kind} needs nfcpy's path or its serial port")
        if self.kind != "dice" and (self.limit is not None or self.shells):
            raise ValueError('limit, shells: only a die station (kind = "dice") has them')
        return self


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SEIZE_", extra="forbid", allow_inf_nan=False)

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    db: Path | str = Field(
        default_factory=default_db,
        description="An SQLite file's path, or a postgresql:// URL (kept as a str)",
    )
    durability: Durability = Field(
        default="disk",
        description="disk: every acknowledged command is on the disk before its answer (a power "
        "cut loses nothing); os: handed to the operating system before its answer, without "
        "waiting for the disk (a crash of the server loses nothing, a power cut may lose the "
        "last commands)",
    )
    bus: str | None = Field(
        default=None,
        description="A redis:// URL: servers sharing the database tell each other of commands",
    )
    workers: int = Field(
        default=1, ge=1, le=64, description="Processes serving the port (Linux and macOS)"
    )
    admin_token: SecretStr | None = Field(
        default=None, description="When set, creating a table needs it as a Bearer token"
    )
    snapshot_every: int = Field(default=100, ge=1, description="Events between snapshots")
    max_body: int = Field(default=64 * 1024, ge=1024, description="Largest request body, bytes")
    body_timeout: float = Field(
        default=10.0, gt=0, description="Seconds a request body may take to arrive, else 408"
    )
    rate_per_second: float = Field(default=50.0, gt=0, description="Requests a token may make")
    rate_burst: int = Field(default=100, ge=1)
    subscriber_backlog: int = Field(
        default=256 * 1024,
        ge=1024,
        description="Bytes a live subscriber may have waiting before it is told to resume",
    )
    heartbeat: float = Field(default=15.0, gt=0, description="Seconds between heartbeats")
    read_rate_per_second: float = Field(
        default=500.0, gt=0, description="Reads and reconnects a token may make"
    )
    read_burst: int = Field(
        default=5000, ge=1, description="Reads at once: every overlay of a stream reconnecting"
    )
    create_per_minute: float = Field(
        default=6.0, gt=0, description="Tables one address may create without the admin token"
    )
    create_burst: int = Field(default=30, ge=1)
    idle_table_seconds: float = Field(
        default=600.0, gt=0, description="A table nobody follows leaves memory after this"
    )
    devices: list[DeviceSetting] = Field(
        default_factory=list, description="Adapters to run beside the server ([[devices]] in TOML)"
    )
    forwarded_by: list[IPvAnyNetwork] = Field(
        default_factory=list,
        description="Reverse proxies (addresses or networks) whose X-Forwarded-For is believed",
    )
    outbound_allowed: list[IPvAnyNetwork] = Field(
        default_factory=list,
        description="Private addresses (or networks) the server may send pushes and posts to "
        "on purpose, such as a self-hosted push service: none by default, so no address a "
        "player or GM gives can reach this host or its network (docs/security.md)",
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        default="info",
        description="The least a line must matter to be logged (warning: not every request)",
    )
    public_url: str | None = Field(
        default=None,
        description="How clients reach the server, for printed links and served modules",
    )
    share: Literal["off", "auto", "tailscale", "cloudflare", "lan-ca"] = Field(
        default="off",
        description="Give phones an https link: through Tailscale Funnel or a Cloudflare quick "
        "tunnel (auto: whichever is here), or a certificate of this host's own on the LAN "
        "(lan-ca); docs/deploy.md",
    )
    push_contact: str = Field(
        default="mailto:push@seize.invalid",
        description="Who push services may write to about this server's Web Push (RFC 8292's "
        "sub: a mailto: or https: URL)",
    )
    discord_api: str = Field(
        default="https://discord.com/api",
        description="Discord's API, whose webhooks a table may post to (another only for a test)",
    )

    @field_validator("db", mode="before")
    @classmethod
    def _file_or_url(cls, value: object) -> object:
        """A ``postgresql://`` URL stays a URL (checked here, so a typo is one line naming
        ``db`` rather than a failure to connect); anything else is an SQLite file's path."""
        if not isinstance(value, str):
            return value
        if "://" not in value:
            if value.lower().startswith(("postgres:", "postgresql:", "postgres/", "postgresql/")):
                # A URL missing a colon or a slash would be a file of that name, in folders
                # named after the host: an empty database, quietly.
                raise ValueError(f"a postgresql:// URL needs its '://', not {value!r}")
            return Path(value)
        scheme = _url(value).scheme
        if scheme not in ("postgresql", "postgres"):
            raise ValueError(f"a file path or a postgresql:// URL, not a {scheme}:// URL")
        return value

    @field_validator("bus")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        """Checked here, so a typo is one line naming ``bus`` rather than a lost connection."""
        if value is None:
            return None
        parts = _url(value)
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise ValueError(f"a redis:// URL, not {value!r}")
        if parts.scheme != "unix" and not parts.hostname:
            raise ValueError(f"a redis:// URL names a host: redis://HOST:6379, not {value!r}")
        return value

    @property
    def shared(self) -> bool:
        """Whether other servers may write to the database: several workers, or PostgreSQL,
        which servers on other hosts may share."""
        return self.workers > 1 or isinstance(self.db, str)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, config_path())
        return init_settings, env_settings, toml

    @property
    def base_url(self) -> str:
        return self.public_url or f"http://{self.host}:{self.port}"
