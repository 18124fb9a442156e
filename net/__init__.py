"""Networking (discovery, host agreement, fair dealing); see the networking issue."""
