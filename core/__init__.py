"""The rules engine shared by every variant; it names no variant."""
