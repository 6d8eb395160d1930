from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "turnbased.play"
    label = "play"

    def ready(self) -> None:
        from django.utils import translation

        import games.i18n

        # The games word their texts in Django's active language: the request's, the account's, or an email
        # recipient's (``translation.override``), so an engine speaks the reader's language with no argument.
        games.i18n.set_language_source(translation.get_language)

        from turnbased.play.player_events import register_wordings

        register_wordings()
        from turnbased.play.turn_actions import register_turn_actions

        register_turn_actions()
