"""The parts ``turnbased/settings.py`` composes, one concern each.

``turnbased.settings`` stays the module Django loads (``DJANGO_SETTINGS_MODULE``) and the one place
that reads the environment: every variable, its default and why it is there. These modules hold what
no variable changes, and build the settings that need the values it read from those values, always
as new objects, so reading the settings afresh (as tests do) never changes the ones in use.
"""
