"""Broken: the hook method lacks @hookimpl, so pluggy would silently ignore it."""


class Forgetful:
    name = "forgetful"
    version = "1.0"

    def tarock_premiums(self, state: object) -> list[object]:
        return []


PLUGIN = Forgetful
