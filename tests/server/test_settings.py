"""Settings: flags over environment over a TOML file over defaults."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from server.settings import Settings, default_db


def test_the_default_database_is_in_the_users_data_folder() -> None:
    assert default_db() == Path(platformdirs.user_data_dir("seize")) / "seize.db"
    assert Settings().db == default_db()


def test_a_toml_file_then_the_environment_then_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('port = 9000\nsnapshot_every = 25\nadmin_token = "from-file"\n')
    monkeypatch.setenv("SEIZE_CONFIG", str(config))
    assert Settings().port == 9000 and Settings().snapshot_every == 25
    monkeypatch.setenv("SEIZE_PORT", "9100")
    assert Settings().port == 9100 and Settings().snapshot_every == 25
    assert Settings(port=9200).port == 9200
    secret = Settings().admin_token
    assert secret is not None and secret.get_secret_value() == "from-file"
    assert "from-file" not in repr(Settings())


def test_a_bad_setting_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEIZE_PORT", "eighty")
    with pytest.raises(ValueError, match="port"):
        Settings()
