"""Rule variants and house rules, each a pluggy plugin over ``core``."""
