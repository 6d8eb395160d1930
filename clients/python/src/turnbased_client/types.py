"""The shapes the API answers with, as TypedDicts: the JSON itself, typed for editors and type checkers.

Each class is one component of the OpenAPI schema (``/api/schema/``) under the same name, and
tests/clients/test_schema_drift.py checks every field, its type and whether it is always present
against the schema the server generates. A game's own JSON (``view``, ``result``, a move, an
event's ``data``) is a free-form ``dict``: ``GET /api/game-types/`` says what each game sends.
"""

# No "from __future__ import annotations": TypedDict reads NotRequired only from evaluated annotations.
from typing import Any, Literal, NotRequired, Required, TypedDict

Visibility = Literal["public", "private"]
ClockKind = Literal["none", "per_move", "bank"]
ExpiryPolicy = Literal["bot_turn", "remove"]
StandIn = Literal["basic", "strong"]  # the level of the bot that plays a late seat's turn
RatingPool = Literal["people", "bots"]
EventKind = Literal["game_started", "your_turn", "move_played", "message_posted", "game_finished", "deadline_near",
                    "group_invitation", "group_request", "tables_left", "competition_invite",
                    "competition_started", "competition_table", "competition_round", "competition_ended",
                    "competition_removed", "competition_season", "ladder_challenge", "game_note", "proposal_made",
                    "proposal_decided", "seat_offered", "seat_taken", "followed_move", "followed_end"]
# What an answer says of a status, a kind or how a game ended may take a value added later (the schema's
# x-extensible-enum, docs/api.md "Versioning"): a str, with the values known today beside it.
GameStatus = str  # "open", "active", "finished", "aborted"
EndingHow = str  # "played_out", "resignation", "timeout", "adjudicated", "all_lose", "bots_at_deadline"
InvitationStatus = str  # "pending", "declined", "seated"
RematchStatus = str  # "waiting", "started", "finished", "declined", "aborted"
ProposalKind = str  # "take_back", "pause", "extra_time", "draw", "cancel"
ProposalStatus = str  # "open", "accepted", "declined", "withdrawn", "lapsed"
SeatOfferKind = str  # "bot_seat", "my_seat"
SeatOfferStatus = str  # "open", "taken", "declined", "withdrawn", "lapsed"
WebhookDeliveryState = str  # "pending", "delivered", "failed"
OpenClockKind = str  # a ClockKind, or one added later
OpenEventKind = str  # an EventKind, or one added later
Language = Literal["en", "de", "hu"]  # the site's languages (settings.LANGUAGES)


# -- accounts and tokens -------------------------------------------------------
class AccountCreated(TypedDict):
    detail: str


class Token(TypedDict):
    id: int
    name: str
    created: str
    last_used_at: str | None
    expiry: str | None
    current: bool


class NewToken(Token):
    token: str  # the key, for ``Authorization: Token <key>``: shown only this once


class Profile(TypedDict):
    language: Language | Literal[""]  # "" when none is chosen (the schema: LanguageEnum or BlankEnum)
    time_zone: str
    reminder_lead_hours: int
    play_forced_moves: bool  # my only legal move is played for me when I would have (on for a bot account)


class PushSubscription(TypedDict):
    """A device told of my turns (a browser's push subscription)."""

    id: int
    endpoint: str
    browser: str  # as the browser's User-Agent named it; "" if it did not say
    system: str
    created_at: str
    last_pushed_at: str | None


class PushSubscriptionKeys(TypedDict):
    p256dh: str  # the browser's P-256 public key, base64url
    auth: str  # its 16-byte secret, base64url


class Absence(TypedDict):
    id: int
    starts_on: str
    ends_on: str
    ended_at: NotRequired[str | None]


class Absences(TypedDict):
    """My absences (every page's, in ``results``) and the year's allowance."""

    away_until: str | None
    allowance_days: int
    used_days: int
    next: str | None
    previous: str | None
    results: list[Absence]


class BotAccount(TypedDict):
    bot_account: bool
    since: str | None
    eligible: bool  # whether ``become_bot_account()`` would make it one now
    reason: str | None  # why it may not


# -- games -----------------------------------------------------------------------
class Seat(TypedDict):
    index: int
    username: str | None
    bot_account: bool
    name: str
    bot: str | None


class TimeControl(TypedDict):
    kind: OpenClockKind
    days_per_move: int
    bank_days: int
    increment_days: int
    weekends_off: bool
    allow_absence: bool
    expiry: ExpiryPolicy
    stand_in: StandIn  # a game without that level has its basic bot stand in
    description: str
    expiry_description: str
    stand_in_description: str
    paused_until: str | None  # in play: when the pause its players agreed ends (every clock stopped until then)


class TimeControlRequest(TypedDict, total=False):
    """The clock of a new table (``create_game(time_control=...)``); every key may be left out."""

    kind: ClockKind
    days_per_move: Literal[1, 2, 3, 5, 7, 14]
    bank_days: int
    increment_days: int
    weekends_off: bool
    allow_absence: bool
    expiry: ExpiryPolicy
    stand_in: StandIn  # default "basic" for a table, "strong" for a competition's games


class SeatClock(TypedDict):
    seat: int
    running: bool
    deadline: str | None
    remaining_seconds: int | None
    away_until: str | None
    bot: str | None
    timeouts_in_row: int


class SeedCommitment(TypedDict):
    scheme: str
    algorithm: str
    value: str


class Ending(TypedDict):
    how: EndingHow
    seats: list[int]
    text: str


class ScoreRow(TypedDict):
    label: str
    points: list[int]
    counts: bool


class Game(TypedDict):
    id: int
    game: str
    name: str
    status: GameStatus
    visibility: Visibility
    seq: int
    seat_count: int
    seats: list[Seat]
    my_seat: int | None
    to_move: list[int]
    options: dict[str, Any]
    view: dict[str, Any] | None
    result: dict[str, Any] | None
    invite_url: str | None
    time_control: TimeControl
    clocks: list[SeatClock]
    created_at: str
    last_move_at: str | None
    last_move: str | None
    commitment: SeedCommitment | None
    seed: str | None
    ending: NotRequired[Ending | None]
    score_breakdown: NotRequired[list[ScoreRow] | None]
    rematch: NotRequired[int | None]
    rematch_of: NotRequired[int | None]


class GameOptionChoice(TypedDict):
    value: Any
    label: str


class GameOption(TypedDict):
    name: str
    label: str
    choices: list[GameOptionChoice]
    default: Any
    help: str


class GameType(TypedDict):
    game: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    options: list[GameOption]
    bots: list[str]
    notation: str
    assets: dict[str, str]


# -- moves -----------------------------------------------------------------------
class LegalMove(TypedDict):
    move: dict[str, Any]
    text: str


class LegalMoves(TypedDict):
    seq: int
    moves: list[LegalMove]


class MovePlayed(TypedDict):
    seq: int
    text: str
    replayed: bool
    legal_moves: list[LegalMove]
    game: Game


class MovePlayedMinimal(TypedDict):
    """The lean answer to a move (``submit_move(..., minimal=True)``)."""

    seq: int
    text: str
    replayed: bool
    game_seq: int
    status: GameStatus
    to_move: list[int]
    view: dict[str, Any] | None
    legal_moves: list[LegalMove]
    result: dict[str, Any] | None


class HistoryEvent(TypedDict):
    seq: int
    seat: int
    kind: str
    data: dict[str, Any]
    private: bool
    text: str


class History(TypedDict):
    """The events after ``since`` (every page's, in ``results``); ``seq`` is the game's position now."""

    seq: int
    next: str | None
    previous: str | None
    results: list[HistoryEvent]


class Position(TypedDict):
    seq: int
    last_seq: int
    full_reveal: bool
    view: dict[str, Any]
    to_move: list[int]
    mover: int | None
    entries: list[HistoryEvent]


class PositionText(TypedDict):
    seq: int
    position: str
    moves: list[str]
    move_count: int


class Turn(TypedDict):
    game: int
    name: str
    engine: str
    seq: int
    seat: int
    waiting_since: str
    deadline: str | None
    last_move: str | None
    url: str


# -- records ---------------------------------------------------------------------
class RecordGame(TypedDict):
    id: int
    engine: str
    engine_version: int
    name: str
    options: dict[str, Any]
    status: GameStatus
    created_at: str
    started_at: str | None
    finished_at: str | None


class RecordPlayer(TypedDict):
    seat: int
    name: str
    bot: str


class RecordMove(TypedDict):
    seq: int
    seat: int
    at: str
    source: str
    notation: str | None
    move: NotRequired[dict[str, Any]]
    events: list[dict[str, Any]]
    lines: list[str]


class Record(TypedDict):
    format: str
    format_version: int
    complete: bool
    viewer_seat: int | None
    exported_at: str
    game: RecordGame
    players: list[RecordPlayer]
    commitment: SeedCommitment | None
    seed: str | None
    moves: list[RecordMove]
    result: dict[str, Any] | None


class RecordCheck(TypedDict):
    name: str
    passed: bool
    detail: str


class Verification(TypedDict):
    game: int
    ok: bool
    checks: list[RecordCheck]
    commitment: SeedCommitment
    seed: str


# -- invitations, chat, after the game ---------------------------------------------
class Invitation(TypedDict):
    id: int
    username: str
    bot_account: bool
    invited_by: str
    invited_by_bot_account: bool
    created_at: str
    status: InvitationStatus


class MyInvitation(TypedDict):
    game: int
    name: str
    invited_by: str
    invited_by_bot_account: bool
    created_at: str
    seated: int
    seat_count: int


class RecentOpponent(TypedDict):
    username: str
    bot_account: bool
    last_played_at: str


MarkSymbol = Literal["question", "attention", "yes", "no", "star"]


class NoteMark(TypedDict):
    spot: str  # the card or tile it is on, as the game names it
    symbol: MarkSymbol
    label: str


class NoteMarkRequest(TypedDict, total=False):
    spot: Required[str]
    symbol: Required[MarkSymbol]
    label: str


class NoteMarkNamed(NoteMark):
    name: str  # the card or tile, in my language; empty once it left the board


class NoteSpot(TypedDict):
    spot: str
    name: str


class GameNote(TypedDict):
    game: int
    text: str  # empty before any is written
    marks: list[NoteMark]
    updated_at: str | None


class GameNoteOfGame(TypedDict):
    game: int
    text: str
    marks: list[NoteMarkNamed]
    spots: list[NoteSpot]  # the cards and tiles I may mark now
    updated_at: str | None


class ProposalAnswer(TypedDict):
    seat: int
    player: str
    accepted: bool
    by_bot: bool  # a bot answered for the seat, by the rule in the players' guide


class Proposal(TypedDict):
    id: int
    kind: ProposalKind
    status: ProposalStatus  # as it stands now: lapses once its window closes (a takeback or a draw: once anyone moves)
    seat: int
    player: str
    move: int | None  # the move (its seq) a takeback would take back
    days: int | None  # the days of a pause, or of extra time
    for_seat: int | None  # the seat extra time is for
    for_player: str | None
    made_at: str
    expires_at: str
    decided_at: str | None
    answers: list[ProposalAnswer]
    waiting_for: list[int]  # the seats whose answer it waits for


class SeatOffer(TypedDict):
    id: int
    game: int
    engine: str
    seat: int
    seat_name: str  # the seat's name at the table (its first player's)
    kind: SeatOfferKind  # a seat a bot took over, or the offering player's own
    status: SeatOfferStatus
    offered_by: str
    offered_to: str | None  # null: listed in the lobby for anyone
    made_at: str
    expires_at: str
    decided_at: str | None


class SeatOfferList(TypedDict):
    offers: list[SeatOffer]  # named to me first, then the ones listed in the lobby


class ProposalList(TypedDict):
    waiting: Proposal | None
    takeback_offered: bool
    offered: list[Literal["pause", "extra_time", "draw", "cancel"]]  # the proposals put to a vote I may make now
    proposals: list[Proposal]  # the latest, newest first


class ChatMessage(TypedDict):
    id: int
    seq: int
    author: str
    author_bot_account: bool
    text: str
    created_at: str


class Rematch(TypedDict):
    original: int
    game: int
    status: RematchStatus
    proposed_by: str
    seated: list[str]
    awaited: list[str]
    declined_by: str | None
    bot_accounts: list[str]
    created_at: str


class SeatSummary(TypedDict):
    seat: int
    moves: int
    bot_moves: int
    seconds: float
    longest_seconds: float


class TurningPoint(TypedDict):
    seq: int
    leader: int
    scores: list[float]
    decisive: bool


class GameSummary(TypedDict):
    game: int
    moves: int
    seconds: float
    seats: list[SeatSummary]
    turning_points: list[TurningPoint]
    lead_changes: int


# -- ratings and players -----------------------------------------------------------
class RatingEntry(TypedDict):
    place: int
    username: str
    bot_account: bool
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool  # always false: a leaderboard lists no provisional rating


class Leaderboard(TypedDict):
    """A leaderboard: every page's entries in ``results``."""

    count: int
    next: str | None
    previous: str | None
    game: str
    players: int
    pool: RatingPool
    results: list[RatingEntry]


class PlayerRating(TypedDict):
    game: str
    name: str
    players: int
    pool: RatingPool
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool  # from fewer rated games than the site's minimum: pages show it with a "?"


class GameRecord(TypedDict):
    game: str
    name: str
    played: int
    won: int


class Reliability(TypedDict):
    moves_on_time: int
    timeouts: int
    percent: int | None
    recent_clocked_games: int
    recent_abandoned: int
    new: bool


class Contact(TypedDict):
    username: str
    bot_account: bool
    since: str


class FriendsTable(TypedDict):
    id: int
    name: str
    engine: str
    status: str
    players: list[str]
    seat_count: int
    created_at: str
    last_move_at: str | None


WatchKind = Literal["game", "group", "competition"]
WatchNotify = Literal["off", "ends", "moves"]


class Watch(TypedDict):
    id: int
    kind: str  # a WatchKind: one game, a group's games, a competition's games
    target: int  # the game's, group's or competition's id
    name: str
    notify: WatchNotify
    created_at: str


class WatchList(TypedDict):
    watches: list[Watch]  # the newest first


class FollowedGame(TypedDict):
    id: int
    name: str
    engine: str
    status: str  # "active" or "finished"
    players: list[str]
    to_move: list[int]
    last_move: str  # as any spectator reads it
    last_move_at: str | None
    result: str  # empty while it goes on
    started_at: str | None


class TableRequirements(TypedDict, total=False):
    min_reliability: int | None
    max_abandoned: int | None
    min_finished: int | None
    rating_min: int | None
    rating_max: int | None
    provisional_ok: bool
    new_players: bool


class TableRequirementsRead(TypedDict):
    asked: TableRequirements | None
    worded: list[str]
    unmet: str | None


class WaitingCounts(TypedDict):
    turns: int
    invitations: int
    tables: int
    total: int


class WaitingLimits(TypedDict):
    to_create: int | None
    to_join: int | None
    open_games: int | None


class GamesWaiting(TypedDict):
    waiting: WaitingCounts
    open_games: int
    finished: int
    exempt: bool
    limits: WaitingLimits
    may_join: int | None  # how many more seats I may take now; None: no limit
    may_create: bool
    refusal: str | None
    worded: str


class Group(TypedDict):
    id: int
    name: str
    description: str
    entry: Literal["open", "request", "invitation"]
    tables_by: Literal["members", "admins"]
    member_count: int
    created_at: str
    my_role: str | None  # "owner", "admin" or "member"
    url: str


class GroupMember(TypedDict):
    username: str
    role: Literal["owner", "admin", "member"]
    joined_at: str


class GroupJoin(TypedDict):
    status: str  # "member" (I am in) or "requested" (my request waits for an admin)


class GroupInvitation(TypedDict):
    group: Group
    invitee: str
    inviter: str
    created_at: str


class GroupJoinRequest(TypedDict):
    username: str
    created_at: str


class GroupTable(TypedDict):
    id: int
    name: str
    engine: str
    status: str
    players: list[str]
    seat_count: int
    created_at: str
    last_move_at: str | None
    finished_at: str | None


class Player(TypedDict):
    username: str
    bot_account: bool
    member_since: str
    ratings: list[PlayerRating]
    games: list[GameRecord]
    reliability: Reliability
    active_days_ago: int | None  # whole days since their latest own move in a game I may see; null: none



class RatingChange(TypedDict):
    before: int
    after: int
    delta: int


class ArchivedSeat(TypedDict):
    index: int
    name: str
    username: str | None
    bot_account: bool
    bot: str | None


class ArchivedGame(TypedDict):
    id: int
    game: str
    name: str
    finished_at: str | None
    seats: list[ArchivedSeat]
    place: int
    won: bool
    draw: bool
    summary: str
    rating: RatingChange | None


class Archive(TypedDict):
    """A player's finished games: every page's in ``results``."""

    count: int
    next: str | None
    previous: str | None
    results: list[ArchivedGame]


# -- webhooks ----------------------------------------------------------------------
class Webhook(TypedDict):
    id: int
    url: str
    kinds: list[OpenEventKind]
    active: bool
    consecutive_failures: int
    failing_since: str | None
    disabled_at: str | None
    disabled_reason: str
    created_at: str


class WebhookWithSecret(Webhook):
    secret: str  # signs each delivery (HMAC-SHA256): shown only when made or rotated


class WebhookDelivery(TypedDict):
    id: int
    event: int | None
    kind: str
    state: WebhookDeliveryState
    attempts: int
    status_code: int | None
    response_excerpt: str
    error: str
    duration_ms: int | None
    created_at: str
    last_attempt_at: str | None
    next_attempt_at: str | None
    finished_at: str | None


# -- competitions (issue 45) ---------------------------------------------------------------------------------

CompetitionFormat = Literal["round_robin", "swiss", "elimination", "double_elimination", "ladder"]
EntrantStatus = str  # "active", "withdrawn", "eliminated"


class CompetitionStage(TypedDict):
    number: int
    format: CompetitionFormat
    rounds: int
    pool_size: int
    sequential: bool
    duplicate: bool  # every table of a round deals the same cards
    advance: int | None
    status: str  # "waiting", "running" or "finished"


class Ladder(TypedDict):
    reach: int
    open_challenges: int
    cooldown_days: int
    days: int


class LadderRequest(TypedDict, total=False):
    reach: int
    open_challenges: int
    cooldown_days: int
    days: int


class League(TypedDict):
    division_size: int
    movers: int
    break_days: int


class LeagueRequest(TypedDict, total=False):
    division_size: int
    movers: int
    break_days: int


class Competition(TypedDict):
    id: int
    name: str
    description: str
    organiser: str
    game: str
    table_size: int
    options: dict[str, Any]
    time_control: dict[str, Any]
    entry: Literal["open", "group", "invitation"]
    group: int | None
    requirements: dict[str, Any]
    min_entrants: int
    max_entrants: int | None
    entrant_count: int
    starts_at: str | None
    start_when_full: bool
    late_entry_rounds: int
    rated: bool
    takebacks: Literal["people", "everyone", "forbidden"]  # whether its players may take a move back; bots agree
    agreements: list[Literal["pause", "extra_time", "draw"]]  # what its players may agree to by vote
    points: dict[str, Any]  # points per place by table size: {"2": [1.0, 0.0]}
    bye_policy: Literal["fixed", "average"]
    bye_points: float
    tiebreaks: list[str]
    deadline_policy: Literal["play_out", "adjudicate", "all_lose"]
    round_days: int
    round_days_estimated: bool
    status: str  # "entry", "running", "finished", "cancelled"
    created_at: str
    started_at: str | None
    finished_at: str | None
    stages: list[CompetitionStage]
    ladder: Ladder | None  # a ladder's settings; None for no ladder
    league: League | None  # a league's settings; None for a competition that is no league's season
    season: int  # which season of its league (1, 2, ...); 0 for no league
    previous_season: int | None
    next_season: int | None
    my_entry: str | None  # "active", "withdrawn", "eliminated"; None when I have none
    url: str


class CompetitionDetail(Competition):
    may_enter: bool
    entry_refusal: str | None  # why I may not enter now, in my language


class CompetitionEntrant(TypedDict):
    username: str
    status: EntrantStatus
    withdrawn_because: str  # "themselves", "timeout", "requirements", "organiser"; "" while they play
    seed: int | None
    entered_at: str


class CompetitionEntry(TypedDict):
    status: EntrantStatus


class CompetitionPerson(TypedDict):
    username: str


class CompetitionStanding(TypedDict):
    place: int
    username: str
    status: EntrantStatus
    pool: int
    points: float
    games: int
    byes: int
    move: str  # a league's season: "up", "down", "stay" or "new"; "" for no league
    tiebreaks: dict[str, float]


class CompetitionStageStandings(TypedDict):
    stage: int
    format: CompetitionFormat
    final: bool
    rows: list[CompetitionStanding]


class CompetitionStandings(TypedDict):
    stages: list[CompetitionStageStandings]


class CompetitionPlacement(TypedDict):
    username: str
    seat: int  # from 0
    place: int
    points: float
    score: float | None


class CompetitionTable(TypedDict):
    number: int
    pool: int
    match: str
    game: int | None
    players: list[str]
    status: str  # "planned", "playing", "finished"
    settled: str  # "played_out", "adjudicated", "all_lost", "abandoned", "withdrawn"; "" when played to its end
    challenger: str | None  # a ladder's challenge: who challenged
    placements: list[CompetitionPlacement]


class CompetitionRoundCommitment(TypedDict):
    scheme: str  # "turnbased-round-commitment/1"
    algorithm: str  # "sha256"
    value: str


class CompetitionSeatHolder(TypedDict):
    table: int
    username: str
    place: int
    points: float
    score: float | None


class CompetitionSeatCompared(TypedDict):
    players: int  # the size of the tables compared
    seat: int  # from 1
    rows: list[CompetitionSeatHolder]  # best first


class CompetitionRound(TypedDict):
    stage: int
    number: int
    status: str  # "paired", "opening", "open", "closed"
    deadline: str | None
    opened_at: str | None
    closed_at: str | None
    tables: list[CompetitionTable]
    byes: list[str]
    # A duplicate round: every table deals from one seed; until it closes its tables read as playing, with no
    # placements, and each game is its seats' alone.
    duplicate: bool
    commitment: CompetitionRoundCommitment | None  # a duplicate round's, published when it is paired
    seed: str | None  # a duplicate round's seed once it has closed
    comparison: list[CompetitionSeatCompared] | None  # a closed duplicate round's seats compared across tables


class CompetitionRounds(TypedDict):
    rounds: list[CompetitionRound]
