"""The following operations of the API (games I do not play, followed one by one or by their group or competition,
and the feed of them as any spectator sees them), mixed into ``Client``."""

from __future__ import annotations

from turnbased_client.core import UNSET, ApiCore, Unset, operation
from turnbased_client.types import FollowedGame, Watch, WatchKind, WatchList, WatchNotify


class FollowingApi(ApiCore):
    @operation("watches_list", "GET", "/api/watches/", conditional=True)
    def watches(self) -> WatchList:
        """What I follow, the newest first."""
        return self._call("watches_list")

    @operation("watch_make", "POST", "/api/watches/", body=("kind", "target", "notify"), idempotent=True)
    def add_watch(self, kind: WatchKind, target: int, *, notify: WatchNotify | Unset = UNSET) -> Watch:
        """Follow a game, a group's games or a competition's games (following it again changes ``notify`` alone)."""
        return self._call("watch_make", body={"kind": kind, "target": target, "notify": notify})

    @operation("watch_retrieve", "GET", "/api/watches/{watch_id}/", conditional=True)
    def watch(self, watch_id: int) -> Watch:
        """One of my watches."""
        return self._call("watch_retrieve", {"watch_id": watch_id})

    @operation("watch_change", "PATCH", "/api/watches/{watch_id}/", body=("notify",))
    def change_watch(self, watch_id: int, notify: WatchNotify | Unset = UNSET) -> Watch:
        """Change what a watch tells me: ``off``, ``ends`` or ``moves``."""
        return self._call("watch_change", {"watch_id": watch_id}, body={"notify": notify})

    @operation("watch_remove", "DELETE", "/api/watches/{watch_id}/")
    def remove_watch(self, watch_id: int) -> None:
        """Stop following."""
        return self._call("watch_remove", {"watch_id": watch_id})

    @operation("followed_games_list", "GET", "/api/watches/games/", query=("page_size",), conditional=True, listed="")
    def followed_games(self, *, page_size: int | Unset = UNSET) -> list[FollowedGame]:
        """The games I follow, in play or ended this past week, as any spectator sees them (every page)."""
        return self._call("followed_games_list", query={"page_size": page_size})
