from django.apps import AppConfig


class FollowingConfig(AppConfig):
    name = "turnbased.following"
    verbose_name = "Following games"

    def ready(self) -> None:
        from turnbased.events.models import EventKind
        from turnbased.events.wording import register_wording
        from turnbased.following import reactions  # noqa: F401  (who follows a game is told of its moves and end)
        from turnbased.following.selectors import word_followed_event
        from turnbased.play.player_events import word_move, word_result

        # The move's entries and the result worded as for a spectator (the rows hold seat None), then the line.
        register_wording([EventKind.FOLLOWED_MOVE], word_move)
        register_wording([EventKind.FOLLOWED_END], word_result)
        register_wording([EventKind.FOLLOWED_MOVE, EventKind.FOLLOWED_END], word_followed_event)
