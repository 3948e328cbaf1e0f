"""Settings: one pydantic-settings object read from the environment (`RULEBOOK_*`), and how
secrets are held (`SecretStr`, revealed only where used)."""

from config.settings import Settings, get_settings, reset_settings

__all__ = ["Settings", "get_settings", "reset_settings"]
